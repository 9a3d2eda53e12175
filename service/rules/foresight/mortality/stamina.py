"""Stamina and fatigue (catalogue foresight-2.md 2.1, F:L2527-2558, exposure F:L2728-2737).

A character's stamina is a pool as large as the Stamina skill's score; exertion and exposure
spend it, rest restores it. At 0 or below the character is exhausted: -1 to all activity,
and -1 more until a good night's sleep (F:L2548-2552). Past -EN the pool resets to 0 and an
EN roll decides whether the strain costs a wound level; so does every day without rest
(F:L2556-2558).

Stamina is kept in whole points (`Condition.stamina`): a cost by time charges one point per
completed period, the period lengthened by protective clothing and shortened by a load (a
laden runner spends 1 per 2.5 s); each result shows the exact cost too. The EN rolls of this
module are the character's own, so they take the 'all activity' modifiers of the condition
(`activity_terms`): -1 per wound level (F:L2590) and the exhaustion modifier.
"""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.foresight.characters.derived import Stamina, State
from service.rules.foresight.mortality.condition import (
    DEAD,
    MAX_STAMINA,
    AccumulationOptions,
    Condition,
    is_dead,
    wound,
)
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import MAX_SCORE, round_half_up
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "Endurance",
    "FatigueOptions",
    "activity_terms",
    "exertion",
    "exhaustion_modifier",
    "exhaustion_of",
    "exposure",
    "overdraw",
    "pools",
    "rest",
    "sleep_deprivation",
    "spend",
]

Endurance = Annotated[int, Field(ge=1, le=40, description="Trained EN (F:L471).")]
#: The longest stretch a request may charge: a year, in seconds.
MAX_SECONDS = 366 * 24 * 3600


class Exertion(StrEnum):
    EXTREME = "extreme"
    HEAVY = "heavy"
    MEDIUM = "medium"
    LIGHT = "light"


class ExertionRow(Model):
    level: Exertion
    example: str
    seconds: int | None = Field(description="One point per this many seconds; null: per action.")


class Exposure(StrEnum):
    EXTREME_HEAT = "extreme_heat"
    HEAT = "heat"
    COLD = "cold"
    EXTREME_COLD = "extreme_cold"


class ExposureRow(Model):
    degree: Exposure
    hot: bool
    temperature: int = Field(description="The band starts here, in degrees C.")
    seconds: int = Field(description="One point per this many seconds.")


EXERTION = table(__name__, "stamina-cost-of-exertion", ExertionRow)
EXPOSURE = table(__name__, "exposure-effects", ExposureRow)

#: A laden character spends stamina twice as quickly, a burdened one twice as quickly again
#: (F:L2542).
LOAD = {State.UNENCUMBERED: 1, State.LADEN: 2, State.BURDENED: 4}


def exhaustion_of(condition: Condition) -> int:
    """-1 while at 0 stamina or below, -1 while exhausted since the last good night's sleep
    (F:L2548-2552); one who is exhausted now has been since that sleep, so -2."""
    now = condition.stamina is not None and condition.stamina <= 0
    return -int(now) - int(now or condition.exhausted_since_sleep)


def activity_terms(condition: Condition) -> list[Term]:
    """The condition's modifiers 'to all activity': -1 per wound level (F:L2590) and the
    exhaustion modifier (F:L2548-2552); zero terms are left out."""
    found = [Term(source="wound level", value=-min(condition.wound_level, DEAD)),
             Term(source="exhaustion", value=exhaustion_of(condition))]  # fmt: skip
    return [term for term in found if term.value]


def spend(condition: Condition, cost: int) -> Condition:
    """The condition after `cost` stamina points; at 0 or below the character is exhausted
    and stays marked until a good night's sleep (F:L2548-2550)."""
    stamina = _tracked(condition) - cost
    exhausted = condition.exhausted_since_sleep or stamina <= 0
    return condition.model_copy(update={"stamina": max(stamina, -MAX_STAMINA),
                                        "exhausted_since_sleep": exhausted})  # fmt: skip


def _tracked(condition: Condition) -> int:
    if condition.stamina is None:
        raise InputError(("condition", "stamina"), "give the current stamina to track it")
    return condition.stamina


# Pools


class PoolsInput(Model):
    stamina_score: Annotated[int, Field(ge=0, le=MAX_SCORE)] = Field(
        description="The Stamina skill's score, (EN+WP)/2 + level (F:L1921-1925)."
    )
    endurance: Endurance


@operation(
    name="stamina/pools",
    kind=Kind.CALCULATION,
    covers=("foresight.stamina.pools",),
    example={"stamina_score": 13, "endurance": 7},
)
def pools(request: PoolsInput) -> Stamina:
    """A character's stamina pool is his/her Stamina score, never read as 20+n; the reserve
    a half hour's rest restores is EN, the threshold a few minutes' rest restores is EN/3
    (F:L2529, F:L2544-2546, F:L372-375): Amy's 13 with EN 7 has reserve 7, threshold 2."""
    threshold = round_half_up(Fraction(request.endurance, 3))
    return Stamina(maximum=request.stamina_score, reserve=request.endurance, threshold=threshold)


# Spending stamina


class Spent(Model):
    cost: int = Field(description="Stamina points charged: one per completed period.")
    cost_exact: str = Field(description="The cost by the rates, as a fraction.")
    condition: Condition
    exhausted: bool = Field(description="At 0 stamina or below (F:L2548).")
    overdrawn: bool = Field(
        description="Below -EN: stamina/overdraw resets it to 0 and rolls EN (F:L2558)."
    )


def _spent(condition: Condition, exact: Fraction, endurance: int) -> Spent:
    cost = int(exact)  # whole periods completed, exact is never negative
    after = spend(condition, cost)
    assert after.stamina is not None
    return Spent(cost=cost, cost_exact=f"{exact.numerator}/{exact.denominator}",
                 condition=after, exhausted=after.stamina <= 0,
                 overdrawn=after.stamina < -endurance)  # fmt: skip


class ExertionInput(Model):
    condition: Condition
    endurance: Endurance
    level: Exertion
    actions: Annotated[int, Field(ge=0, le=100_000)] | None = Field(
        default=None, description="Extreme exertion: attacks, dodges and parries, reflexes too."
    )
    seconds: Annotated[int, Field(ge=0, le=MAX_SECONDS)] | None = Field(
        default=None, description="Heavy, medium or light exertion: how long."
    )
    encumbrance: State = Field(
        default=State.UNENCUMBERED, description="Unencumbered, laden or burdened (F:L2542)."
    )
    extra_cost: Annotated[int, Field(ge=0, le=10_000)] = Field(
        default=0, description="The GM's cost for mental exertion, which has no rate (F:L2533)."
    )


@operation(
    name="stamina/exertion",
    kind=Kind.CALCULATION,
    covers=("foresight.stamina.exertion",),
    example={
        "condition": {"stamina": 13},
        "endurance": 7,
        "level": "heavy",
        "seconds": 60,
        "encumbrance": "laden",
    },
)
def exertion(request: ExertionInput) -> Spent:
    """Stamina Cost of Exertion (F:L2535-2540): extreme (melee attack, dodge, parry) 1 per
    action, heavy (running) 1 per 5 s, medium (jogging) 1 per minute, light (a leisurely
    walk) 1 per 5 minutes; laden twice as much, burdened four times (F:L2542). A minute's
    laden run costs 24."""
    row = next(r for r in EXERTION if r.level is request.level)
    if request.encumbrance not in LOAD:
        raise InputError(("encumbrance",), "lifting or dragging, a character does nothing else")
    units, field, other = (
        (request.actions, "actions", "seconds") if row.seconds is None
        else (request.seconds, "seconds", "actions")
    )  # fmt: skip
    if units is None or getattr(request, other) is not None:
        raise InputError((field,), f"{request.level.value} exertion is counted in {field}")
    exact = Fraction(units * LOAD[request.encumbrance], row.seconds or 1) + request.extra_cost
    return _spent(request.condition, exact, request.endurance)


class Clothing(StrEnum):
    NONE = "none"
    ORDINARY = "ordinary"
    CLIMATE_CONTROLLED = "climate_controlled"


class ExposureInput(Model):
    condition: Condition
    endurance: Endurance
    air_temperature: Annotated[float, Field(ge=-273, le=10_000)] = Field(description="Degrees C.")
    seconds: Annotated[int, Field(ge=0, le=MAX_SECONDS)]
    clothing: Clothing = Field(
        default=Clothing.NONE,
        description="Ordinary clothing saves 50% against heat, 75% against cold; heated or "
        "air-conditioned clothing nullifies the loss (F:L2730).",
    )


class Exposed(Spent):
    degree: Exposure | None = Field(description="Null between 0 and 40 degrees C.")


def degree_of(temperature: Fraction) -> ExposureRow | None:
    """The band: 60 C or higher extreme heat, 40 heat, 0 or lower cold, -30 extreme cold."""
    hot = [r for r in EXPOSURE if r.hot and temperature >= r.temperature]
    cold = [r for r in EXPOSURE if not r.hot and temperature <= r.temperature]
    found = max(hot, key=lambda r: r.temperature, default=None)
    return found or min(cold, key=lambda r: r.temperature, default=None)


#: The share of the loss clothing leaves (F:L2730).
CLOTHING = {Clothing.NONE: (Fraction(1), Fraction(1)),
            Clothing.ORDINARY: (Fraction(1, 2), Fraction(1, 4)),
            Clothing.CLIMATE_CONTROLLED: (Fraction(0), Fraction(0))}  # fmt: skip


@operation(
    name="exposure",
    kind=Kind.CALCULATION,
    covers=("foresight.exposure",),
    example={
        "condition": {"stamina": 13},
        "endurance": 7,
        "air_temperature": -35,
        "seconds": 3600,
        "clothing": "ordinary",
    },
)
def exposure(request: ExposureInput) -> Exposed:
    """Exposure Effects (F:L2732-2737): extreme heat (60 C or higher) and extreme cold (-30 C
    or lower) cost 1 stamina per minute, heat (40 C) and cold (0 C) 1 per ten minutes;
    clothing cuts the loss by 50% against heat and 75% against cold (F:L2730). An hour at
    -35 C in ordinary clothing costs 15. It adds to the cost of exertion (a separate call)."""
    row = degree_of(Fraction(repr(request.air_temperature)))
    exact = Fraction(0)
    if row is not None:
        heat, cold = CLOTHING[request.clothing]
        exact = request.seconds * (heat if row.hot else cold) / row.seconds
    found = _spent(request.condition, exact, request.endurance)
    return Exposed(**dict(found), degree=None if row is None else row.degree)


# Rest


class Rest(StrEnum):
    FEW_MINUTES = "few_minutes"
    HALF_HOUR = "half_hour"
    NIGHTS_SLEEP = "nights_sleep"


class RestOptions(Model):
    reserve_rest_minutes: Annotated[int, Field(ge=30, le=60)] = option(
        30,
        ambiguity="AMB2-14",
        description="How long the rest to reserve takes: 'a half hour or so' (F:L2544) or "
        "the glossary's 1 h (F:L374).",
    )
    rest_caps_at_maximum: bool = option(
        True,
        ambiguity="AMB2-14",
        description="A half hour's rest never lifts stamina past the pool's maximum (not stated).",
    )


class RestInput(Model):
    condition: Condition
    stamina_score: Annotated[int, Field(ge=0, le=MAX_SCORE)] = Field(
        description="The pool's maximum, the Stamina score (F:L2529)."
    )
    endurance: Endurance
    rest: Rest
    food_and_shelter: bool = Field(
        default=True, description="Without food, rest and shelter no stamina comes back (F:L2529)."
    )
    options: RestOptions = Field(default=RestOptions())


class Rested(Model):
    condition: Condition
    recovered: int
    minutes: int | None = Field(
        description="How long a rest to reserve takes (AMB2-14); null for a few minutes' rest "
        "or a night's sleep."
    )


@operation(
    name="stamina/rest",
    kind=Kind.CALCULATION,
    covers=("foresight.stamina.rest",),
    example={
        "condition": {"stamina": -3, "exhausted_since_sleep": True},
        "stamina_score": 13,
        "endurance": 7,
        "rest": "few_minutes",
    },
)
def rest(request: RestInput) -> Rested:
    """A few minutes' rest brings stamina below the threshold up to it; a half hour's to the
    reserve, or up by the threshold if that is better; a good night's sleep with food and
    shelter to full, and only it ends the exhaustion penalty (F:L2529, F:L2544-2552)."""
    condition, options = request.condition, request.options
    now = _tracked(condition)
    threshold = round_half_up(Fraction(request.endurance, 3))
    after = now
    if not request.food_and_shelter:
        pass
    elif request.rest is Rest.FEW_MINUTES:
        after = max(now, threshold)
    elif request.rest is Rest.HALF_HOUR:
        after = max(now, request.endurance, now + threshold)
        if options.rest_caps_at_maximum:
            after = max(now, min(after, request.stamina_score))
    else:
        after = max(now, request.stamina_score)
    slept = request.rest is Rest.NIGHTS_SLEEP and request.food_and_shelter
    update = {"stamina": min(after, MAX_STAMINA),
              "exhausted_since_sleep": condition.exhausted_since_sleep and not slept}  # fmt: skip
    minutes = options.reserve_rest_minutes if request.rest is Rest.HALF_HOUR else None
    return Rested(condition=condition.model_copy(update=update), recovered=after - now,
                  minutes=minutes)  # fmt: skip


# Exhaustion


class ExhaustionInput(Model):
    condition: Condition


class Exhaustion(Model):
    modifier: int = Field(description="To all activity: 0, -1 or -2 (F:L2548-2552).")
    exhausted: bool
    exhausted_since_sleep: bool


@operation(
    name="stamina/exhaustion-modifier",
    kind=Kind.CALCULATION,
    covers=("foresight.stamina.exhaustion_modifier",),
    example={"condition": {"stamina": 0, "exhausted_since_sleep": True}},
)
def exhaustion_modifier(request: ExhaustionInput) -> Exhaustion:
    """-1 to all activity at 0 stamina or below, -1 for having been exhausted since the last
    good night's sleep: -2 while exhausted, -1 after a few minutes' rest until that sleep
    (F:L2548-2552). A stamina overdraw's reset to 0 is exhaustion too (AMB2-15)."""
    condition = request.condition
    now = condition.stamina is not None and condition.stamina <= 0
    return Exhaustion(modifier=exhaustion_of(condition), exhausted=now,
                      exhausted_since_sleep=now or condition.exhausted_since_sleep)  # fmt: skip


# EN rolls that cost wound levels


class FatigueOptions(ResolutionOptions, AccumulationOptions):
    """How an EN roll is set up (an attribute roll, BEF 'attribute_bef') and how the wound
    level a failure costs joins the character's (unlocated damage)."""


class Fatigued(Model):
    endurance_rolls: list[Resolution] = Field(description="Each EN roll, in order.")
    condition: Condition
    wound_levels: int = Field(description="Wound levels the failures cost.")
    dead: bool


class FatigueOdds(Model):
    wound_levels: list[OutcomeProbability]
    dead: list[OutcomeProbability]


def _en_roll(condition: Condition, task: Task, options: FatigueOptions) -> Setup:
    return setup_at(("endurance_roll",), task, options, activity_terms(condition),
                    options.attribute_bef)  # fmt: skip


def _failed(qr: QR) -> bool:
    return qr > QR.QR4


def endurance_rolls(
    condition: Condition, task: Task, count: int, options: FatigueOptions, dice: Dice
) -> Fatigued:
    """`count` EN rolls, each failure a wound level (unlocated); a roll after a failure is at
    the new level's -1 (F:L2590). The dead roll no more."""
    found: list[Resolution] = []
    start = condition.wound_level
    for _ in range(count):
        if is_dead(condition):
            break
        result = roll(_en_roll(condition, task, options), dice, "D100 (EN)")
        found.append(result)
        if _failed(result.qr):
            condition = wound(condition, 1, None, options)
    gained = condition.wound_level - start
    return Fatigued(endurance_rolls=found, condition=condition, wound_levels=gained,
                    dead=is_dead(condition))  # fmt: skip


def endurance_odds(
    condition: Condition, task: Task, count: int, options: FatigueOptions
) -> FatigueOdds:
    """The wound levels `count` EN rolls cost, exactly: each state is the condition so far."""
    states = Distribution({condition: 1})

    def step(now: Condition) -> Distribution[Condition]:
        if is_dead(now):
            return Distribution({now: 1})
        failed = distribution(_en_roll(now, task, options)).map(_failed)
        return failed.map(lambda f: wound(now, 1, None, options) if f else now)

    for _ in range(count):
        states = states.then(step)
    gained = states.map(lambda c: c.wound_level - condition.wound_level)
    return FatigueOdds(wound_levels=outcome_table(gained),
                       dead=outcome_table(states.map(is_dead)))  # fmt: skip


class OverdrawInput(Model):
    condition: Condition
    endurance_roll: Task = Field(description="The EN roll: score = EN; BEF 'attribute_bef'.")
    options: FatigueOptions = Field(default=FatigueOptions())


class Overdrawn(Fatigued):
    overdrawn: bool = Field(description="Stamina was below -EN: reset to 0 and EN rolled.")


def _overdraw(request: OverdrawInput) -> tuple[Condition, bool]:
    condition = request.condition
    below = _tracked(condition) < -request.endurance_roll.score
    if below:
        condition = condition.model_copy(update={"stamina": 0, "exhausted_since_sleep": True})
    return condition, below


def _overdraw_odds(request: OverdrawInput) -> FatigueOdds:
    condition, below = _overdraw(request)
    return endurance_odds(condition, request.endurance_roll, int(below), request.options)


@operation(
    name="stamina/overdraw",
    kind=Kind.CHECK,
    covers=("foresight.stamina.overdraw",),
    odds=_overdraw_odds,
    cost=task_cost,
    example={
        "condition": {"stamina": -8},
        "endurance_roll": {"score": 7},
        "dice": {"values": [75]},
    },
)
def overdraw(request: OverdrawInput, dice: Dice) -> Overdrawn:
    """Extreme negative stamina converts to wound levels: below -EN stamina resets to 0 and
    the character rolls EN; a failure raises the wound level by one (F:L2558), damage with
    no location (AMB2-09). The reset leaves him exhausted (AMB2-15): the roll is at -2."""
    condition, below = _overdraw(request)
    found = endurance_rolls(condition, request.endurance_roll, int(below), request.options, dice)
    return Overdrawn(**dict(found), overdrawn=below)


class SleepInput(Model):
    condition: Condition
    hours_without_rest: Annotated[int, Field(ge=0, le=30 * 24)] = Field(
        description="Hours without adequate rest; each full 24 h is one EN roll (F:L2556)."
    )
    endurance_roll: Task = Field(description="The EN roll: score = EN; BEF 'attribute_bef'.")
    options: FatigueOptions = Field(default=FatigueOptions())


def _sleep_odds(request: SleepInput) -> FatigueOdds:
    days = request.hours_without_rest // 24
    return endurance_odds(request.condition, request.endurance_roll, days, request.options)


def _sleep_cost(request: SleepInput) -> Estimate:
    """Each day, at most 9 conditions (8 living wound levels and death) each read from 100
    faces and their QRs; then the two tables."""
    return Estimate(9 * 120 * (request.hours_without_rest // 24) + 100,
                    ("/hours_without_rest",))  # fmt: skip


@operation(
    name="fatigue/sleep-deprivation",
    kind=Kind.CHECK,
    covers=("foresight.fatigue.sleep_deprivation",),
    odds=_sleep_odds,
    cost=_sleep_cost,
    example={
        "condition": {},
        "hours_without_rest": 72,
        "endurance_roll": {"score": 9},
        "dice": {"seed": 11},
    },
)
def sleep_deprivation(request: SleepInput, dice: Dice) -> Fatigued:
    """Extreme fatigue can be fatal: for every 24 h without adequate rest the character rolls
    EN, and each failure raises the wound level by one (F:L2556), unlocated (AMB2-09). Each
    wound level is -1 to the rolls after it (F:L2590)."""
    days = request.hours_without_rest // 24
    return endurance_rolls(request.condition, request.endurance_roll, days, request.options, dice)
