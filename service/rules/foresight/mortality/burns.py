"""Burn damage (F:L2781-2793): fire, hot and cold objects, corrosives and electricity, as beam
damage per exposed hit location per combat round, and the cardiac arrest electricity can
cause.
"""

from collections.abc import Iterator
from enum import StrEnum
from fractions import Fraction
from functools import cache, partial
from math import floor
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate, OverLimit, metered
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    DEAD,
    Condition,
    Consciousness,
    Location,
    accumulate,
    is_dead,
    wound,
    wound_name,
)
from service.rules.foresight.mortality.damage import MAX_DC, decimal
from service.rules.foresight.mortality.hazards import (
    HazardHit,
    Outcome,
    hit_outcomes,
    roll_hazard_hit,
)
from service.rules.foresight.mortality.hits import DamageOptions
from service.rules.foresight.mortality.location import HIT_LOCATIONS, Aim, IfStunned
from service.rules.foresight.mortality.notation import DamageType, Notation, parse_armor_rating
from service.rules.foresight.mortality.stun import StunOptions, pain_resistance_setup
from service.rules.foresight.resolution.chance import Task
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds, task_cost
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll
from service.rules.model import Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["BURN_TABLE", "burn_dc"]

MAX_ROUNDS = 20


class BurnRow(Model):
    dc: int
    fire: str
    hot_object: str
    corrosive: str
    cold_object: str
    electricity: str


BURN_TABLE = table(__name__, "burn-damage", BurnRow)


class BurnSource(StrEnum):
    FIRE = "fire"
    HOT_OBJECT = "hot_object"
    CORROSIVE = "corrosive"
    COLD_OBJECT = "cold_object"
    ELECTRICITY = "electricity"


class BurnHalving(StrEnum):
    ONCE = "once"
    PER_CONDITION = "per_condition"


class BurnOptions(DamageOptions):
    """Readings of the burn rule (AMB2-28) and of its damage."""

    burn_halving: BurnHalving = option(
        BurnHalving.ONCE,
        ambiguity="AMB2-28",
        description=(
            "'If the contact is brief (1s or less) and/or the area of contact is smaller, "
            "halve DC' (F:L2791): once for either or both, or once for each."
        ),
    )
    armor_effective_rounds: Annotated[int, Field(ge=0, le=MAX_ROUNDS)] = option(
        1,
        ambiguity="AMB2-28",
        description=(
            "Rounds the armor protects before 'prolonged contact will simply heat up or cool "
            "down the armor negating its protective qualities' (F:L2783)."
        ),
    )


class BurnInput(Model):
    condition: Condition = Field(default=Condition())
    source: BurnSource
    dc: float = Field(
        ge=0, le=MAX_DC, description="The table's 1, 3 or 5 (F:L2787-2789), or the GM's DC."
    )
    locations: Annotated[tuple[Location, ...], Field(min_length=1, max_length=7)] = Field(
        description="Each hit location exposed."
    )
    rounds: int = Field(default=1, ge=1, le=MAX_ROUNDS, description="Combat rounds of contact.")
    engulfed: bool = Field(default=False, description="Engulfed or immersed: DC doubled.")
    brief: bool = Field(default=False, description="Contact of 1 s or less: DC halved.")
    small_area: bool = Field(default=False, description="A smaller area of contact: halved.")
    armor: Notation | None = Field(
        default=None, description="The beam armor over the exposed locations: '3A'."
    )
    options: BurnOptions = Field(default=BurnOptions())


def burn_dc(request: BurnInput) -> Fraction:
    """DC per location per round, doubled if engulfed or immersed, halved if the contact is
    brief and/or small (F:L2791): once, or for each (AMB2-28)."""
    dc = decimal(request.dc) * (2 if request.engulfed else 1)
    halvings = int(request.brief) + int(request.small_area)
    if request.options.burn_halving is BurnHalving.ONCE:
        halvings = min(halvings, 1)
    return dc / Fraction(2**halvings)


def _layers(request: BurnInput, round_: int) -> tuple[tuple[int, int], ...]:
    if request.armor is None or round_ > request.options.armor_effective_rounds:
        return ()
    found = parse_armor_rating(request.armor, ("armor",))
    return ((found.reduction, found.absorb),)


class BurnHit(Model):
    round: int
    hit: HazardHit


class Burned(Model):
    dc: Exact = Field(description="Per location per round.")
    examples: list[str] = Field(description="The table's sources of this DC (F:L2787-2789).")
    hits: list[BurnHit]
    pain_resistance_roll: bool = Field(description="A burn landed (F:L2564).")
    electrical: bool = Field(
        description="Electrical damage: the Pain Resistance roll is burn/cardiac-arrest's "
        "(a QR10 stops the heart, F:L2793)."
    )
    condition: Condition
    wound_name: str
    dead: bool


class BurnOdds(Model):
    wound_level: list[OutcomeProbability] = Field(
        description="After the last round; 8 and beyond dead."
    )
    dead_by_round: list[Exact]
    pain_resistance_roll: Exact


def _rounds(request: BurnInput) -> Iterator[list[Distribution[Outcome]]]:
    """The ways each exposed location's hit can go, round by round (made once for each
    location and armor: they are the same every round the armor is the same)."""
    dc = burn_dc(request)

    @cache
    def ways(location: Location, layers: tuple[tuple[int, int], ...]) -> Distribution[Outcome]:
        aim = Aim(location.value)
        return hit_outcomes(dc, Fraction(1), aim, request.options, layers, DamageType.BEAM)

    for number in range(1, request.rounds + 1):
        layers = _layers(request, number)
        yield [ways(location, layers) for location in request.locations]


State = tuple[int, bool]


def _after(state: State, outcome: Outcome, options: BurnOptions) -> State:
    """(wound level, any burn landed) after one hit's outcome."""
    level, landed = state
    location, levels = outcome
    return accumulate(level, levels or 0, location, options), landed or levels is not None


def _burn_odds(request: BurnInput) -> BurnOdds:
    """A chain over (wound level, any burn landed), each location of each round in turn."""
    options = request.options
    states: Distribution[State] = Distribution({(request.condition.wound_level, False): 1})
    dead = []
    for hits in _rounds(request):
        for one in hits:

            def step(state: State, one: Distribution[Outcome] = one) -> Distribution[State]:
                if state[0] >= DEAD:
                    return Distribution({state: 1})
                return one.map(lambda outcome: _after(state, outcome, options))

            states = states.then(step)
        dead.append(exact(states.probability_where(lambda s: s[0] >= DEAD)))
    return BurnOdds(
        wound_level=outcome_table(states.map(lambda s: s[0])),
        dead_by_round=dead,
        pain_resistance_roll=exact(states.probability_where(lambda s: s[1])),
    )


def _burn_states(request: BurnInput, limit: int) -> int:
    """The states `_burn_odds` makes, counted without their weights: each hit's ways made as
    the odds make them, then each hit meets every state reached so far, the states followed
    as sets; the count stops once past `limit`."""
    try:
        with metered(limit=limit) as meter:
            states = {(request.condition.wound_level, False)}
            meter.add(1)
            for hits in _rounds(request):
                for one in hits:
                    outcomes = [outcome for outcome, _ in one.items()]
                    reached: set[State] = set()
                    for state in states:
                        if state[0] >= DEAD:
                            meter.add(2)  # made as it is, and reached
                            reached.add(state)
                            continue
                        after = {_after(state, outcome, request.options) for outcome in outcomes}
                        meter.add(len(outcomes) + len(after))
                        reached |= after
                    states = reached
            meter.add(len(states))  # the wound levels read off them
    except OverLimit as over:
        return over.states
    return meter.states


def _burn_cost(request: BurnInput) -> Estimate:
    """Each location's hit outcomes made (under 200 states: 10 random QRs, the location, the
    vital D10), with its armor and, once the armor stops protecting, without. Then each hit
    meets every state: one alive (8 levels, a burn landed or not) meets at most 8 outcomes
    (damage of QR1-QR4, with the vital D10's extra or not), counted twice; a dead one stays
    as it is (2). The dead are at most the starting level and one for each level a hit can
    deal past death (QR1's half the DC rounded up, +1 to the head, +1 vital), each with a
    burn landed or not. A hot burn reaches few of those dead levels: past the allowance the
    states are counted (`_burn_states`)."""
    deadly = floor(burn_dc(request) / 2) + 3
    per_hit = 2 * 8 * (2 * DEAD) + 2 * 2 * (deadly + 1)
    made = 200 * len(request.locations) * (1 if request.armor is None else 2)
    return Estimate(
        request.rounds * len(request.locations) * per_hit + made + 100,
        ("/rounds", "/locations", "/dc"),
        partial(_burn_states, request),
    )


@operation(
    name="burn",
    kind=Kind.GENERATION,
    covers=("foresight.burn",),
    odds=_burn_odds,
    cost=_burn_cost,
    example={"source": "fire", "dc": 3, "locations": ["right_arm"], "dice": {"values": [4]}},
)
def burn(request: BurnInput, dice: Dice) -> Burned:
    """Burns are beam damage with a random QR, per hit location exposed per combat round: DC1
    a camp fire or boiling water, DC3 a blowtorch or mains electricity, DC5 a cutting torch
    or molten metal; doubled engulfed or immersed, halved for brief or small contact
    (F:L2785-2791). Armor that insulates protects until prolonged contact negates it
    (F:L2783)."""
    options = request.options
    dc = burn_dc(request)
    condition = request.condition
    hits: list[BurnHit] = []
    for number in range(1, request.rounds + 1):
        layers = _layers(request, number)
        for location in request.locations:
            if is_dead(condition):
                break
            report, hit = roll_hazard_hit(
                dc, Fraction(1), Aim(location.value), dice, options, layers, DamageType.BEAM
            )
            condition = wound(condition, hit.damage or 0, hit.location, options)
            hits.append(BurnHit(round=number, hit=report))
    row = next((r for r in BURN_TABLE if r.dc == dc), None)
    examples = [] if row is None else [getattr(row, request.source.value)]
    return Burned(
        dc=exact(dc),
        examples=examples,
        hits=hits,
        pain_resistance_roll=any(h.hit.result != "none" for h in hits),
        electrical=request.source is BurnSource.ELECTRICITY,
        condition=condition,
        wound_name=wound_name(condition.wound_level),
        dead=is_dead(condition),
    )


# Cardiac arrest


class CardiacInput(Model):
    condition: Condition = Field(description="With the electrical burn already in it.")
    pain_resistance: Task = Field(description="Pain Resistance: score (EN+WP)/2; BEF 5 if none.")
    location: Location | None = Field(default=None, description="Where the burn struck.")
    options: StunOptions = Field(default=StunOptions())


class CardiacArrest(Model):
    rolled: Resolution
    stunned: bool
    consequence: IfStunned
    heart_stopped: bool = Field(description="A QR10 after electrical damage (F:L2793).")
    condition: Condition


class CardiacOdds(Model):
    pain_resistance: QualityOdds
    stunned: Exact
    heart_stopped: Exact


def _cardiac_odds(request: CardiacInput) -> CardiacOdds:
    found = distribution(
        pain_resistance_setup(request.pain_resistance, request.condition, request.options)
    )
    return CardiacOdds(
        pain_resistance=quality_odds(found),
        stunned=exact(found.probability_where(lambda qr: qr > QR.QR4)),
        heart_stopped=exact(found.probability(QR.QR10)),
    )


@operation(
    name="burn/cardiac-arrest",
    kind=Kind.CHECK,
    covers=("foresight.burn.cardiac_arrest",),
    odds=_cardiac_odds,
    cost=task_cost,
    example={
        "condition": {"wound_level": 2, "max_wound_level": 2},
        "pain_resistance": {"score": 9},
        "dice": {"values": [100]},
    },
)
def cardiac_arrest(request: CardiacInput, dice: Dice) -> CardiacArrest:
    """The Pain Resistance roll after electrical damage: QR7 or QR10 stuns as any injury does
    (F:L2564), and a QR10 means the heart has stopped (F:L2793); what revives it the book
    leaves to the GM."""
    condition = request.condition
    setup = pain_resistance_setup(request.pain_resistance, condition, request.options)
    rolled = roll(setup, dice, "pain resistance")
    stunned = not rolled.success
    stopped = rolled.qr is QR.QR10
    consequence = IfStunned.NONE
    if stunned and request.location is not None:
        consequence = HIT_LOCATIONS[request.location].if_stunned
    if stunned:
        condition = condition.model_copy(update={"stunned": True})
    if stopped or consequence is IfStunned.FALLS_UNCONSCIOUS:
        condition = condition.model_copy(update={"consciousness": Consciousness.UNCONSCIOUS})
    return CardiacArrest(
        rolled=rolled,
        stunned=stunned,
        consequence=consequence,
        heart_stopped=stopped,
        condition=condition,
    )
