"""Resolution: roll D100 against the success chance and read the quality rating (F:L294-323,
F:L1338-1378). Every other FORESIGHT check (opposed, blocked, chained, unskilled, attribute,
retried) is this rule applied to a task set up differently; they call the plain functions
here, never the service."""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated

from pydantic import Field, computed_field

from service.rules.dice import Dice
from service.rules.distribution import Distribution
from service.rules.foresight.resolution.chance import Chance, Setup, Task, TaskInput, setup
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import (
    QR_ROLLED,
    QualityOdds,
    d100,
    quality_odds,
    task_cost,
)
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.quality import Quality, quality, quality_rating, rater
from service.rules.foresight.resolution.scores import MAX_SCORE
from service.rules.foresight.resolution.tables import QR
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "Outcome",
    "Prepared",
    "Resolution",
    "ResolutionOdds",
    "Side",
    "distribution",
    "prepare",
    "resolution_odds",
    "resolve",
    "roll",
    "setup_at",
    "side_distribution",
    "side_setup",
]


class Outcome(StrEnum):
    ROLLED = "rolled"
    IMPOSSIBLE = "impossible"


class Resolution(Chance):
    """A resolved task: the D100 roll and its quality rating."""

    outcome: Outcome = Field(
        description="'impossible': EF 0, reported as QR7 without a roll (AMB-07)."
    )
    roll: int | None = Field(description="The D100 roll; null when the task was not rolled.")
    quality: Quality

    @computed_field  # type: ignore[prop-decorator]
    @property
    def qr(self) -> QR:
        return self.quality.qr

    @computed_field  # type: ignore[prop-decorator]
    @property
    def success(self) -> bool:
        return self.quality.success


def roll(task: Setup, dice: Dice, purpose: str, outcome_apparent: bool = True) -> Resolution:
    """Roll D100 for a set-up task, or report an impossible task as QR7 unrolled (AMB-07)."""
    if not task.rolled:
        read, face, outcome = QR.QR7, None, Outcome.IMPOSSIBLE
    else:
        face = dice.roll(100, purpose)
        read, outcome = quality_rating(face, task.sc, task.mode), Outcome.ROLLED
    return Resolution(**dict(task.chance), outcome=outcome, roll=face,
                      quality=quality(read, outcome_apparent))  # fmt: skip


def distribution(task: Setup) -> Distribution[QR]:
    """The QR of each of the 100 rolls; an impossible task not rolled is QR7 for certain."""
    if not task.rolled:
        return Distribution({QR.QR7: 1})
    return d100(rater(task.sc, task.mode))


class ResolutionOdds(QualityOdds):
    """The exact QR distribution of a task and the chance it was rolled against."""

    chance: Chance
    rolled: bool


def resolution_odds(task: Setup) -> ResolutionOdds:
    found = quality_odds(distribution(task))
    return ResolutionOdds(**dict(found), chance=task.chance, rolled=task.rolled)


class ResolveInput(TaskInput):
    outcome_apparent: bool = Field(
        default=True,
        description="False: the players cannot tell a failure from a QR4 (F:L1400, AMB-45).",
    )


def _odds(request: ResolveInput) -> ResolutionOdds:
    return resolution_odds(setup(request, request.score, request.options))


@operation(
    name="resolve",
    # Every score up to 20 at the common BEFs (3 to 6, and 7 for attributes).
    standard=[{"score": score, "bef": bef} for score in range(1, 21) for bef in range(3, 8)],
    kind=Kind.CHECK,
    covers=("foresight.resolve", "foresight.roll.d100"),
    odds=_odds,
    cost=task_cost,
    memo=True,
    example={"score": 14, "bef": 5, "modifiers": [-1, 1], "dice": {"values": [32]}},
    rolled=QR_ROLLED,
)
def resolve(request: ResolveInput, dice: Dice) -> Resolution:
    """Resolve a task: roll D100 against SC = Score x EF and read the quality rating.

    QR1 at most SC/10, QR2 at most SC/5, QR3 at most SC/2, QR4 at most SC; above it QR7, or
    QR10 on a multiple of 10 (F:L1366-1373); 99 is at best QR4 and 100 always fails
    (F:L1375-1376). Amy picks the lock at SC 70 and rolls 32: QR3 (F:L304-319).
    """
    task = setup(request, request.score, request.options)
    return roll(task, dice, "D100", request.outcome_apparent)


class Side(Model):
    """One side of a contest: a task to roll, or a QR already rolled at the table."""

    task: Task | None = None
    qr: QR | None = Field(default=None, description="Instead of 'task': the QR it got.")
    score: Annotated[int, Field(ge=0, le=MAX_SCORE)] | None = Field(
        default=None, description="With 'qr': the ability score, to break ties by score."
    )


def side_setup(
    side: Side, options: ResolutionOptions, loc: str, *, attribute: bool = False
) -> Setup | None:
    """The side's task set up to roll, or None when its QR is given. An attribute roll (a
    victim's PC, a target's EM) whose task gives no BEF takes the attribute BEF (AMB-01)."""
    if (side.task is None) == (side.qr is None):
        raise InputError((loc,), "give either 'task' or 'qr'")
    if side.task is None:
        return None
    default_bef = options.attribute_bef if attribute else None
    return setup_at((loc, "task"), side.task, options, default_bef=default_bef)


def setup_at(
    loc: tuple[str | int, ...],
    task: Task,
    options: ResolutionOptions,
    extra: Sequence[Term] = (),
    default_bef: int | None = None,
) -> Setup:
    """Set up a task nested in a request, reporting its errors under `loc`; `default_bef` is
    the BEF of a task that gives none (an attribute's)."""
    try:
        return setup(task, task.score, options, extra, default_bef)
    except InputError as error:
        raise InputError((*loc, *error.loc), error.message) from None


def side_distribution(side: Side, task: Setup | None) -> Distribution[QR]:
    if task is None:
        assert side.qr is not None
        return Distribution({side.qr: 1})
    return distribution(task)


@dataclass(frozen=True)
class Prepared:
    """One side of a rule ready to roll: its task set up, or None when its QR was given."""

    side: Side
    task: Setup | None
    purpose: str

    def distribution(self) -> Distribution[QR]:
        return side_distribution(self.side, self.task)

    def roll(self, dice: Dice) -> "Rolled":
        if self.task is None:
            assert self.side.qr is not None
            return Rolled(None, self.side.qr)
        found = roll(self.task, dice, f"D100 ({self.purpose})")
        return Rolled(found, found.qr)


@dataclass(frozen=True)
class Rolled:
    resolution: Resolution | None
    qr: QR


def prepare(
    side: Side,
    options: ResolutionOptions,
    loc: str,
    extra: Sequence[Term] = (),
    *,
    attribute: bool = False,
    purpose: str | None = None,
) -> Prepared:
    """Set a side up under `loc` with the rule's own terms. An attribute roll (ST, AG) whose
    task gives no BEF takes the attribute BEF (AMB-01). A QR given was rolled at the table
    with every modifier, so the rule's own terms are the caller's to have added."""
    if (side.task is None) == (side.qr is None):
        raise InputError((loc,), "give either 'task' or 'qr'")
    name = purpose or loc
    if side.task is None:
        return Prepared(side, None, name)
    default_bef = options.attribute_bef if attribute else None
    return Prepared(side, setup_at((loc, "task"), side.task, options, extra, default_bef), name)
