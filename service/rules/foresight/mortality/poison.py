"""Poison (F:L2741): each dose a hazard hit of the poison's damage class, a Pain Resistance
roll after it, doses stacking on the wound level as the options say; exact odds of the
character's state after every dose."""

from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    DEAD,
    AccumulationOptions,
    Condition,
    Consciousness,
    UnlocatedAccumulation,
    accumulate,
    is_dead,
    wound,
    wound_name,
)
from service.rules.foresight.mortality.damage import MAX_DC, decimal, written
from service.rules.foresight.mortality.hazards import (
    MAX_DOSES,
    MAX_SECONDS,
    HazardHit,
    hit_outcomes,
    roll_hazard_hit,
)
from service.rules.foresight.mortality.hits import DamageOptions
from service.rules.foresight.mortality.stun import StunOptions, pain_resistance_setup
from service.rules.foresight.resolution.chance import Task
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["poison"]


class PoisonEffect(StrEnum):
    LETHAL = "lethal"
    PARALYSIS = "paralysis"
    UNCONSCIOUSNESS = "unconsciousness"


class PoisonStacking(StrEnum):
    ADD = "add"
    MAX = "max"
    ACCUMULATION_RULE = "accumulation_rule"


class PoisonOptions(DamageOptions, StunOptions):
    """Readings of the poison rule (AMB2-29) and of the damage and Pain Resistance rolls."""

    poison_first_dose_at_zero: bool = option(
        False,
        ambiguity="AMB2-29",
        description=(
            "'DC4 every 5 minutes for an hour' (F:L2741): the doses fall at 5, 10 .. 60 "
            "minutes (12); true adds one at the bite (13)."
        ),
    )
    poison_stacking: PoisonStacking = option(
        PoisonStacking.ADD,
        ambiguity="AMB2-29",
        description=(
            "Each dose adds its wound levels (literal, unlocated damage); 'max': the poison "
            "does no more than its worst dose above the level at the first; "
            "'accumulation_rule': each dose joins as a limb wound does under the Wound "
            "Accumulation rule (F:L2618), so adds with 'wound_accumulation' 'simple' (F:L2592)."
        ),
    )


class PoisonInput(Model):
    condition: Condition = Field(default=Condition())
    dc: float = Field(default=4, ge=0, le=MAX_DC, description="Damage class of each dose.")
    interval_s: int = Field(default=300, ge=1, le=MAX_SECONDS, description="Between doses.")
    duration_s: int = Field(default=3600, ge=0, le=MAX_SECONDS, description="How long it acts.")
    elapsed_s: int | None = Field(
        default=None,
        ge=0,
        le=MAX_SECONDS,
        description="Apply the doses due by then; null: every dose of the duration.",
    )
    effect: PoisonEffect = Field(
        default=PoisonEffect.LETHAL,
        description="'lethal' damages; the others only paralyse or knock out a character who "
        "fails the Pain Resistance roll (F:L2743).",
    )
    pain_resistance: Task | None = Field(
        default=None,
        description="Pain Resistance (score (EN+WP)/2, BEF 5): rolled after each dose (F:L2741); "
        "required for a non-lethal poison.",
    )
    options: PoisonOptions = Field(default=PoisonOptions())


def dose_times(request: PoisonInput) -> list[int]:
    """When the doses fall: every interval up to the duration, from one interval in (or from
    the bite, AMB2-29), up to `elapsed_s`."""
    first = 0 if request.options.poison_first_dose_at_zero else 1
    count = request.duration_s // request.interval_s + 1 - first
    if count > MAX_DOSES:
        raise InputError(("interval_s",), f"{count} doses: at most {MAX_DOSES} in a request")
    until = request.duration_s if request.elapsed_s is None else request.elapsed_s
    times = [(first + k) * request.interval_s for k in range(count)]
    return [t for t in times if t <= until]


def stacked(level: int, start: int, dose: int, options: PoisonOptions) -> int:
    """The wound level after a dose of `dose` levels, from `level` (`start` before the first):
    added (AMB2-29's literal reading), at most the worst dose above `start`, or joined as a
    limb wound joins under the Wound Accumulation rule (F:L2618). That rule is optional
    (F:L2612): with 'wound_accumulation' 'simple' every wound adds (F:L2592), doses too."""
    stacking = options.poison_stacking
    if stacking is PoisonStacking.MAX:
        return max(level, start + dose)
    unlocated = (
        UnlocatedAccumulation.LIMB_RULE
        if stacking is PoisonStacking.ACCUMULATION_RULE
        else UnlocatedAccumulation.ADD
    )
    rule = AccumulationOptions(
        wound_accumulation=options.wound_accumulation, unlocated_accumulation=unlocated
    )
    return accumulate(level, dose, None, rule)


class Dose(Model):
    seconds: int
    hit: HazardHit | None = Field(description="Null for a poison that does no damage.")
    wound_level: int
    pain_resistance: Resolution | None
    incapacitated: bool = Field(
        description="The Pain Resistance roll failed: stunned ('temporarily incapacitated', "
        "F:L2741), or paralysed or unconscious for a non-lethal poison (F:L2743)."
    )


class Poisoned(Model):
    doses: list[Dose]
    wound_level: int = Field(description="After the last dose applied.")
    wound_levels: int = Field(description="Wound levels the doses added.")
    paralysed: bool
    condition: Condition
    wound_name: str
    dead: bool


def _pr_task(request: PoisonInput) -> Task | None:
    if request.effect is not PoisonEffect.LETHAL and request.pain_resistance is None:
        raise InputError(("pain_resistance",), "a non-lethal poison acts through the roll")
    return request.pain_resistance


class DoseOdds(Model):
    seconds: int
    dead: Exact = Field(description="P(dead by this dose).")
    incapacitated: Exact | None = Field(
        description="P(a Pain Resistance roll failed by this dose); null without the roll."
    )


class PoisonOdds(Model):
    doses: list[DoseOdds]
    dose_damage: list[OutcomeProbability] = Field(description="One dose: 'none', 'S', 1, 2 ..")
    wound_level: list[OutcomeProbability] = Field(
        description="After the last dose, as the roll reports it; 8 and beyond dead."
    )


def poison_odds(request: PoisonInput) -> PoisonOdds:
    """A chain over (wound level, a roll failed), one dose at a time; the dead (8 and beyond)
    and the incapacitated (a non-lethal poison's work is done) roll no more."""
    task = _pr_task(request)
    options = request.options
    start = request.condition
    lethal = request.effect is PoisonEffect.LETHAL
    one: Distribution[int | None] = hit_outcomes(
        decimal(request.dc), Fraction(1), None, options
    ).map(lambda o: o[1])
    failing: dict[int, Fraction] = {}

    def fails(level: int) -> Fraction:
        if task is None:
            return Fraction(0)
        if level not in failing:
            condition = start.model_copy(update={"wound_level": level})
            found = distribution(pain_resistance_setup(task, condition, options))
            failing[level] = found.probability_where(lambda qr: qr > QR.QR4)
        return failing[level]

    def step(state: tuple[int, bool]) -> Distribution[tuple[int, bool]]:
        level, failed = state
        if level >= DEAD or (failed and not lethal):
            return Distribution({state: 1})

        def after(damage: int | None) -> Distribution[tuple[int, bool]]:
            now = stacked(level, start.wound_level, damage or 0, options)
            p = fails(now) if damage is not None and now < DEAD else Fraction(0)
            ways = [((now, True), p), ((now, failed), 1 - p)]
            return Distribution.of_probabilities(w for w in ways if w[1])

        return one.then(after) if lethal else after(0)

    states: Distribution[tuple[int, bool]] = Distribution({(start.wound_level, False): 1})
    rows = []
    for seconds in dose_times(request):
        states = states.then(step)
        rows.append(
            DoseOdds(
                seconds=seconds,
                dead=exact(states.probability_where(lambda s: s[0] >= DEAD)),
                incapacitated=None
                if task is None
                else exact(states.probability_where(lambda s: s[1])),
            )
        )
    return PoisonOdds(
        doses=rows,
        dose_damage=outcome_table(one.map(written)),
        wound_level=outcome_table(states.map(lambda s: s[0])),
    )


def poison_cost(request: PoisonInput) -> Estimate:
    """Each dose: at most 18 states (9 levels, failed or not) each meeting the dose's 10
    outcomes and then 2 ways, plus one 100-face Pain Resistance roll per level; then 4 tables."""
    doses = len(dose_times(request))
    return Estimate(30 + doses * 18 * 10 * 4 + 9 * 120 + 200, ("/interval_s", "/duration_s"))


def _stunned(condition: Condition, rolled: Resolution | None, options: PoisonOptions) -> Condition:
    """A lethal dose's failed Pain Resistance roll stuns 'as if he/she were in combat'
    (F:L2741): as the stun check does, a QR10 also knocks out with
    'initial_pr_botch_unconscious' (AMB2-16)."""
    update: dict[str, object] = {"stunned": True}
    botched = rolled is not None and rolled.qr is QR.QR10
    if botched and options.initial_pr_botch_unconscious:
        update["consciousness"] = Consciousness.UNCONSCIOUS
    return condition.model_copy(update=update)


@operation(
    name="poison",
    kind=Kind.GENERATION,
    covers=("foresight.poison",),
    odds=poison_odds,
    cost=poison_cost,
    example={"dc": 4, "interval_s": 300, "duration_s": 3600, "dice": {"seed": 7}},
)
def poison(request: PoisonInput, dice: Dice) -> Poisoned:
    """Poison does damage every so often for a while: rattlesnake venom might be DC4 every 5
    minutes for an hour (F:L2741). Each dose is damage without a QR, unlocated, no armor;
    then a Pain Resistance roll or the character is temporarily incapacitated (F:L2741). A
    non-lethal poison paralyses or knocks out instead of damaging (F:L2743)."""
    task = _pr_task(request)
    options = request.options
    dc = decimal(request.dc)
    condition = start = request.condition
    doses: list[Dose] = []
    paralysed = False
    lethal = request.effect is PoisonEffect.LETHAL
    for seconds in dose_times(request):
        # A lethal poison goes on working in one who has passed out (WL6-7); a knock-out
        # poison's work is done once it has knocked out.
        knocked_out = condition.consciousness is Consciousness.UNCONSCIOUS and not lethal
        if is_dead(condition) or paralysed or knocked_out:
            break
        report = None
        if lethal:
            report, hit = roll_hazard_hit(dc, Fraction(1), None, dice, options)
            level = stacked(condition.wound_level, start.wound_level, hit.damage or 0, options)
            condition = wound(condition, level - condition.wound_level, None)
            if hit.damage is None:
                doses.append(
                    Dose(
                        seconds=seconds,
                        hit=report,
                        wound_level=condition.wound_level,
                        pain_resistance=None,
                        incapacitated=False,
                    )
                )
                continue
        rolled = None
        if task is not None and not is_dead(condition):
            rolled = roll(pain_resistance_setup(task, condition, options), dice, "pain resistance")
        failed = rolled is not None and not rolled.success
        if failed and lethal:
            condition = _stunned(condition, rolled, options)
        elif failed and request.effect is PoisonEffect.UNCONSCIOUSNESS:
            condition = condition.model_copy(update={"consciousness": Consciousness.UNCONSCIOUS})
        paralysed = paralysed or (failed and request.effect is PoisonEffect.PARALYSIS)
        doses.append(
            Dose(
                seconds=seconds,
                hit=report,
                wound_level=condition.wound_level,
                pain_resistance=rolled,
                incapacitated=failed,
            )
        )
    return Poisoned(
        doses=doses,
        wound_levels=condition.wound_level - start.wound_level,
        paralysed=paralysed,
        wound_level=condition.wound_level,
        condition=condition,
        wound_name=wound_name(condition.wound_level),
        dead=is_dead(condition),
    )
