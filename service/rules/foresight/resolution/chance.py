"""The success chance of a task: SC = Score x Ease Factor (F:L239-245, F:L1340-1358)."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.resolution.ease import TOP, Bef, EaseFactor, add, evaluate_bef
from service.rules.foresight.resolution.modifiers import Conditions, Term, terms
from service.rules.foresight.resolution.options import QrThresholds, ResolutionOptions, ScRounding
from service.rules.foresight.resolution.quality import Thresholds, thresholds
from service.rules.foresight.resolution.scores import MAX_SCORE, round_half_up, twenty_plus
from service.rules.foresight.resolution.tables import LADDER
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["Chance", "Circumstances", "Setup", "Task", "TaskInput", "setup", "success_chance"]


class Circumstances(Bef, Conditions):
    """What a task is attempted with and under: the ability's BEF and the modifiers."""


class Task(Circumstances):
    """An ability used for a task: its score, its BEF and the circumstances."""

    score: Annotated[int, Field(ge=0, le=MAX_SCORE)] = Field(
        description="The skill or attribute score; above 20 it counts as 20+n (F:L233)."
    )


class Chance(Model):
    """How a task's success chance was found, every step shown."""

    score: int
    effective_score: int = Field(description="The score as rolled: at most 20 (F:L233).")
    written_score: str = Field(description="'20+1' for 23-25 (F:L370).")
    bef: float
    modifiers: list[Term] = Field(description="Every modifier that applied, by source.")
    modifier_total: int
    ease_factor: float
    ease_factor_index: int = Field(description="Rung 0..17 of the ease-factor ladder.")
    clamped: bool = Field(description="The modifiers ran past 0 or 15; the excess is lost.")
    success_chance: float = Field(description="Score x EF, rounded per 'sc_rounding'.")
    success_chance_exact: str = Field(description="Score x EF before rounding, as a fraction.")
    success_probability: Exact = Field(description="P(success): never above 99% (F:L1358).")
    thresholds: Thresholds
    impossible: bool = Field(
        description="EF 0: 'an ease factor zero task is impossible' (F:L1352). An SC of 0 at "
        "a higher EF is rolled, and fails (AMB-07)."
    )


@dataclass(frozen=True)
class Setup:
    """A task ready to roll: its chance for the wire and the SC the roll is read against."""

    chance: Chance
    sc: Fraction
    mode: QrThresholds
    rolled: bool


def setup(
    task: Circumstances,
    score: int,
    options: ResolutionOptions,
    extra: Sequence[Term] = (),
    default_bef: int | None = None,
) -> Setup:
    """Sum every modifier (the 20+n bonus among them, AMB-05), move the BEF along the ladder
    once and clamp (F:L254), then SC = effective score x EF, rounded half up (F:L264-268). A
    task at EF 0 is impossible (F:L1352), a BEF of 0 among them when the option holds it there
    (AMB-06), and is not rolled unless `roll_impossible_tasks` (AMB-07). An SC of 0 at a
    higher EF (score 0, or 1 x 0.25 rounded) is rolled like any other: the catalogue's
    recommendation is 'do not roll an EF-0 task' and its resolve skips only `ef == 0`
    (catalogue 1.6 and 3.A.9), so it fails, QR7 or, on a multiple of 10, QR10."""
    bef = evaluate_bef(task, default_bef)
    scored = twenty_plus(score)
    found = [*terms(task, options.max_ltf_per_task), *extra]
    bonus = Term(source="20+n", value=scored.twenty_plus)
    if options.twenty_plus_in_sum and bonus.value:
        found.append(bonus)
    ease = add(bef, sum(term.value for term in found))
    if not options.twenty_plus_in_sum and bonus.value:
        moved = ease.ease_factor_index + bonus.value
        index = min(TOP, moved)
        ease = ease.model_copy(update={"ease_factor_index": index,
                                       "ease_factor": float(LADDER[index]),
                                       "clamped": ease.clamped or moved > TOP})  # fmt: skip
        found.append(bonus)
    if options.bef_zero_is_impossible and bef == 0:
        ease = _held_at_zero(ease)
    unrounded = scored.effective_score * LADDER[ease.ease_factor_index]
    rounded = options.sc_rounding is ScRounding.NEAREST_HALF_UP
    sc = Fraction(round_half_up(unrounded)) if rounded else unrounded
    impossible = ease.ease_factor_index == 0
    chance = Chance(
        score=score,
        effective_score=scored.effective_score,
        written_score=scored.written,
        bef=ease.bef,
        modifiers=found,
        modifier_total=sum(term.value for term in found),
        ease_factor=ease.ease_factor,
        ease_factor_index=ease.ease_factor_index,
        clamped=ease.clamped,
        success_chance=float(sc),
        success_chance_exact=f"{unrounded.numerator}/{unrounded.denominator}",
        success_probability=exact(Fraction(min(math.floor(sc), 99), 100)),
        thresholds=thresholds(sc, options.qr_thresholds),
        impossible=impossible,
    )
    rolled = not impossible or options.roll_impossible_tasks
    return Setup(chance=chance, sc=sc, mode=options.qr_thresholds, rolled=rolled)


def _held_at_zero(ease: EaseFactor) -> EaseFactor:
    """A BEF of 0 that stays impossible whatever the modifiers (AMB-06, option (b)) is an EF
    of 0, so its SC is 0 like any EF-0 task: the chance shown, the roll (rolled anyway it is
    read against SC 0, 90% QR7 and 10% QR10, AMB-07) and the odds all follow from it. The
    modifiers that would have moved it are lost, as past an end of the ladder (F:L1352)."""
    moved = ease.ease_factor_index != 0 or ease.clamped
    return ease.model_copy(update={"ease_factor": 0.0, "ease_factor_index": 0, "clamped": moved})


class TaskInput(Task):
    """A task: an ability's score and BEF, and the task's modifiers."""

    options: ResolutionOptions = Field(default=ResolutionOptions())


@operation(
    name="success-chance",
    kind=Kind.CALCULATION,
    covers=("foresight.success_chance",),
    example={"score": 17, "bef": 3},
)
def success_chance(request: TaskInput) -> Chance:
    """The success chance of a task: Score x EF, where the EF is the BEF moved by the sum of
    the task's modifiers (F:L1340-1356). Amy's lockpicking, score 14 at BEF 5 with -1 and +1,
    is 70% (F:L304); the stun-pistol shot at EF 2 with score 17 is 34 (F:L245); 13 x 0.25 =
    3.25 rounds to 3 (F:L268)."""
    return setup(request, request.score, request.options).chance
