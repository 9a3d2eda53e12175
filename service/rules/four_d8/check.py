"""The 4D8 check: roll four d8 under the chance of success (D:L3-9, L44-54)."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pydantic import Field, computed_field

from service.rules.dice import Dice
from service.rules.four_d8.chance import MAX_EASE, ChanceResult, chance_of_success
from service.rules.four_d8.degree import ASPECTS, Aspect, Reading, Scoring, classify, read
from service.rules.four_d8.odds import check_odds
from service.rules.four_d8.options import BonusDieSelection, SnakeEyesInBonusRoll
from service.rules.four_d8.resolution import (
    AUTOMATIC_FACES,
    CheckInput,
    Mode,
    Resolution,
    mode_of,
    resolve,
)
from service.rules.four_d8.tables import Combination
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["CheckResult", "Die", "check"]


class Die(Model):
    """One of the four dice: the aspect it stands for, its face and its value after a bonus."""

    aspect: Aspect
    natural: int
    modified: int


class CheckResult(ChanceResult):
    """The outcome of a 4D8 check."""

    mode: Mode
    dice: list[Die] = Field(description="Aspect-ordered; empty when nothing was rolled.")
    natural_total: int | None
    modified_total: int | None = Field(description="D-A20: for information only.")
    success: bool
    combination: Combination | None = Field(description="The shape of the natural dice.")
    snake_eyes: bool = Field(description="Four natural 1s: unfortunate effects (D:L49, D-A07).")
    bonus: int | None = Field(description="A bonus roll's excess over 32, added to one die.")
    bonus_die: Aspect | None
    reading: Reading | None = Field(description="The degree and its meaning, on a success.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def degree(self) -> int | None:
        return self.reading.degree if self.reading else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def interpretation(self) -> str | None:
        return self.reading.interpretation if self.reading else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def lucky_break(self) -> bool:
        return self.reading is not None and self.reading.scored_as is Scoring.LUCKY_BREAK


#: What each die is for, in the roll log: its aspect.
_PURPOSES = tuple(aspect.value for aspect in ASPECTS)


def _bonus_index(natural: Sequence[int], request: CheckInput) -> int:
    """The first highest die in aspect order, or the player's pick among the highest (D-A06)."""
    highest = max(natural)
    chosen = request.bonus_die_aspect
    player = request.options.bonus_die_selection is BonusDieSelection.PLAYER_CHOICE
    if player and chosen is not None and natural[ASPECTS.index(chosen)] == highest:
        return ASPECTS.index(chosen)
    return list(natural).index(highest)


def _placement(request: CheckInput) -> tuple[int, ...]:
    placement = request.auto_success_placement
    if placement is None:
        return AUTOMATIC_FACES
    if sorted(placement, reverse=True) != list(AUTOMATIC_FACES):
        raise InputError(
            ("auto_success_placement",), "an automatic success places the faces 8, 6, 5 and 4"
        )
    return tuple(placement)


@operation(
    system="four-d8",
    name="check",
    kind=Kind.CHECK,
    covers=(
        "4d8.check",
        "4d8.roll_resolution",
        "4d8.over32.choose",
        "4d8.over32.automatic_success",
        "4d8.over32.doubles_roll",
        "4d8.over32.bonus_roll",
    ),
    odds=check_odds,
)
def check(request: CheckInput, dice: Dice) -> CheckResult:
    """Roll four d8 (physical, mental, social, magical) against the chance of success.

    A total at most the chance succeeds (D:L8, L45); the degree is the highest die, four the
    same score their sum and four 1s score 1 (D:L47-49), with the special combinations
    (D:L72-115). At a chance of 33+ the player takes an automatic success (8, 6, 5, 4,
    degree 8), a doubles roll or, by default, a bonus roll (D:L51-54).
    """
    plan = _plan(request)
    natural: tuple[int, ...] = ()
    if plan.mode is Mode.AUTOMATIC:
        natural = _placement(request)
    elif plan.mode is not Mode.IMPOSSIBLE:
        natural = tuple([dice.roll(8, purpose) for purpose in _PURPOSES])
    return _decided(plan, natural)


@lru_cache(maxsize=1024)
def _die(aspect: Aspect, natural: int, modified: int) -> Die:
    """One shared object per aspect and faces: the remembered checks hold 16k dice between
    them otherwise, and every full garbage collection walks each one (a GraphQL p99 of 29 ms,
    make bench)."""
    return Die(aspect=aspect, natural=natural, modified=modified)


# A check is a pure function of the request and four faces, and a table asks the same check
# again and again: each (request, faces) is decided once and the frozen result shared, so a
# repeated check costs a lookup, not the 40 µs of building its result (make bench, profiled).
# Requests are immutable and hashed by value; one that differs only in its seed is another key.
_REMEMBERED = 16384


@dataclass(frozen=True, eq=False)
class _Plan:
    """A request's chance of success and how it is rolled, worked out once. Its decided
    checks are kept under the plan itself, by identity: a repeated check compares its request
    with the remembered one once, not once per lookup."""

    request: CheckInput
    base: ChanceResult
    mode: Mode


@lru_cache(maxsize=1024)
def _plan(request: CheckInput) -> _Plan:
    base = chance_of_success(request)
    return _Plan(request, base, mode_of(base.chance, request.over32_mode, request.options))


@lru_cache(maxsize=_REMEMBERED)
def _decided(plan: _Plan, natural: tuple[int, ...]) -> CheckResult:
    request, base, mode = plan.request, plan.base, plan.mode
    options = request.options
    if not natural:
        return CheckResult(
            **base.__dict__, mode=mode, dice=[], natural_total=None, modified_total=None,
            success=False, combination=None, snake_eyes=False, bonus=None, bonus_die=None,
            reading=None,
        )  # fmt: skip
    bonus_index = _bonus_index(natural, request) if mode is Mode.BONUS else None
    if mode is Mode.AUTOMATIC:
        outcome = Resolution(True, max(natural), Scoring.HIGHEST_DIE, natural)
    else:
        outcome = resolve(natural, base.chance, mode, options, bonus_index)
    excess = base.chance - MAX_EASE if mode is Mode.BONUS else 0
    modified = [n + excess if i == bonus_index else n for i, n in enumerate(natural)]
    ignore = mode is Mode.BONUS and options.snake_eyes_in_bonus_roll is SnakeEyesInBonusRoll.IGNORE
    reading = None
    if outcome.success and outcome.degree is not None and outcome.scored_as is not None:
        reading = read(outcome.scored, outcome.degree, outcome.scored_as, options)
    return CheckResult(
        **base.__dict__,
        mode=mode,
        dice=[_die(a, n, m) for a, n, m in zip(ASPECTS, natural, modified, strict=True)],
        natural_total=sum(natural),
        modified_total=sum(modified),
        success=outcome.success,
        combination=classify(natural),
        snake_eyes=natural == (1, 1, 1, 1) and mode is not Mode.AUTOMATIC and not ignore,
        bonus=excess if mode is Mode.BONUS else None,
        bonus_die=ASPECTS[bonus_index] if bonus_index is not None else None,
        reading=reading,
    )
