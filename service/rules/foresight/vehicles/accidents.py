"""Travel accidents and pursuit safety rolls (catalogue part 2, #83, #93; F:L3372-3382,
F:L3473-3482).

After a travel mishap the driver rolls the vehicle skill with the vehicle's Man as a modifier,
-3 more after a hasty journey's QR10 (F:L3370); the Accident Avoidance table then damages
the vehicle and, from QR4, everyone inside (DC4, DC8, DC10 with a random QR; a wreck that
explodes adds DC12, F:L3374-3380). A safety roll is the vehicle skill modified by +(speed bid -
Safe); QR4 adds a damage level, QR7 incapacitates the vehicle and gives the passengers
DC(8 - DS), QR10 totals it with DC(12 - DS), and optionally (2 - bid) more (F:L3475-3482). It
is owed once for a failed manoeuvre and once more when the bid is below the vehicle's Safe
(F:L3475, AMB2-46): the caller rolls each. People's damage goes through damage/resolve; the
designer meant almost no chance of killing a healthy character (F:L3382).
"""

from collections.abc import Callable, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import DEAD, Condition, is_dead
from service.rules.foresight.mortality.damage import DamageScale, decimal
from service.rules.foresight.mortality.hits import DamageOptions, DamageResult, Protection
from service.rules.foresight.mortality.resolve import damage_cost
from service.rules.foresight.resolution.chance import Setup
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, Side, distribution, roll, setup_at
from service.rules.foresight.travel.driving import Bid
from service.rules.foresight.vehicles.occupants import (
    MAX_OCCUPANTS,
    Crash,
    damage_options,
    hurt,
    occupant_strike,
    wound_levels,
)
from service.rules.foresight.vehicles.track import (
    MAX_LEVEL,
    DamageEvent,
    VehicleState,
    VehicleTrackOptions,
    after,
    state_of,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation
from service.rules.tables import table

__all__ = ["ACCIDENTS", "SAFETY_ROLLS"]

#: A wreck that explodes inflicts a further DC12 on anyone still inside or near (F:L3380).
EXPLOSION_DC = 12


class Repair(StrEnum):
    NONE = "none"
    MAY_BE_NEEDED = "may_be_needed"
    NEEDED = "needed"
    IMPOSSIBLE = "impossible"


class Journey(StrEnum):
    COMPLETED_AS_QR4 = "completed_as_qr4"
    HALTED = "halted"


class AccidentRow(Model):
    qr: QR
    vehicle_state: VehicleState
    delay_hours: int | None = Field(description="'A delay of an hour or so'; null unknown.")
    repair: Repair
    journey: Journey
    passenger_dc: int | None = Field(description="Everyone inside, with a random QR.")
    text: str


class SafetyEffect(StrEnum):
    UNCHANGED = "unchanged"
    ONE_LEVEL = "one_level"
    INCAPACITATED = "incapacitated"
    DESTROYED = "destroyed"


class SafetyRow(Model):
    qr: QR
    vehicle: SafetyEffect
    passenger_dc_base: int | None = Field(description="DC(base - the vehicle's DS).")
    text: str


ACCIDENTS = table(__name__, "accident-avoidance", AccidentRow)
ACCIDENT_ROWS = {row.qr: row for row in ACCIDENTS}
SAFETY_ROLLS = table(__name__, "safety-roll", SafetyRow)
SAFETY_ROWS = {row.qr: row for row in SAFETY_ROLLS}

Occupants = Annotated[
    tuple[Condition, ...],
    Field(
        max_length=MAX_OCCUPANTS,
        description="The condition of each person inside: each takes the passengers' DC.",
    ),
]


class VehicleOutcome(Model):
    damage_level: int
    state: VehicleState


class OccupantOutcome(Model):
    hits: list[DamageResult] = Field(description="The crash's hit, then an explosion's.")
    condition: Condition
    dead: bool


class OccupantOdds(Model):
    """For the first occupant listed (a healthy one when none is)."""

    wound_level: list[OutcomeProbability]
    dead: Exact


def _driving(side: Side, options: ResolutionOptions, terms: Sequence[Term]) -> Setup | None:
    """The driver's roll set up with the rule's modifiers, or None when its QR is given."""
    if (side.task is None) == (side.qr is None):
        raise InputError(("driver",), "give either 'task' or 'qr'")
    if side.task is None:
        return None
    return setup_at(("driver", "task"), side.task, options, [t for t in terms if t.value])


def _qrs(side: Side, setup: Setup | None) -> Distribution[QR]:
    if setup is None:
        assert side.qr is not None
        return Distribution({side.qr: 1})
    return distribution(setup)


def _roll(
    side: Side, setup: Setup | None, dice: Dice, purpose: str
) -> tuple[QR, Resolution | None]:
    if setup is None:
        assert side.qr is not None
        return side.qr, None
    rolled = roll(setup, dice, purpose)
    return rolled.qr, rolled


def _occupants(
    dcs: Sequence[Fraction],
    people: Sequence[Condition],
    dice: Dice,
    options: DamageOptions,
    crash: Crash,
) -> list[OccupantOutcome]:
    found = []
    for condition in people:
        hits: list[DamageResult] = []
        for dc in dcs:
            hits += hurt(dc, [condition], dice, options, crash=crash)
            condition = hits[-1].condition if hits else condition
        found.append(OccupantOutcome(hits=hits, condition=condition, dead=is_dead(condition)))
    return found


def _occupant_odds(
    qrs: Distribution[QR],
    dcs: Callable[[QR], list[Fraction]],
    people: Sequence[Condition],
    options: DamageOptions,
    crash: Crash,
) -> OccupantOdds:
    first = people[0] if people else Condition()
    by_qr = {qr: wound_levels(dcs(qr), first, options, crash=crash) for qr, _ in qrs.items()}
    levels = qrs.then(lambda qr: by_qr[qr])
    return OccupantOdds(
        wound_level=outcome_table(levels),
        dead=exact(levels.probability_where(lambda level: level >= DEAD)),
    )


# --- travel accident --------------------------------------------------------------------


class AccidentArmor(StrEnum):
    NONE = "none"
    MELEE = "melee"
    IMPACT = "impact"


#: The damage type a crash's DC is read as under each reading (catalogue part 2, #20).
CRASH_TYPES = {AccidentArmor.NONE: "", AccidentArmor.MELEE: "m", AccidentArmor.IMPACT: "i"}


class AccidentOptions(DamageOptions, VehicleTrackOptions):
    """Readings of the driving roll, the vehicle's damage level and the occupants' damage."""

    accident_armor: AccidentArmor = option(
        AccidentArmor.NONE,
        ambiguity=None,
        description="A crash's DC has no type, so no armor applies (catalogue #83, #20); or "
        "it is read as a melee (m, blunt: a fall's reading) or impact (i) DC, and "
        "'occupant_armor' meets it like any hit: its layers' ratings and coverage, worn "
        "pieces' melee or impact column (F:L2661-2673, F:L3930).",
    )


def crash_of(armor: Protection, options: AccidentOptions) -> Crash:
    """What a crash's hits are and meet: typeless and unarmored by default (#83)."""
    if options.accident_armor is AccidentArmor.NONE:
        return Crash()
    return Crash(CRASH_TYPES[options.accident_armor], armor)


#: The occupants' armor, every one wearing it.
OccupantArmor = Annotated[
    Protection,
    Field(
        default=Protection(),
        description="The armor every occupant listed wears: layers by rating with coverage "
        "and locations, catalogue pieces by key. Counted only with 'accident_armor' melee or "
        "impact.",
    ),
]


def _occupant_cost(dcs: Sequence[Sequence[Fraction]], people: Sequence[Condition],
                   options: DamageOptions, crash: Crash) -> Estimate:  # fmt: skip
    """The driving roll's 100 faces and its tables (under 20,000); then, for each QR that
    hurts, an occupant's hits, each as damage/resolve bounds one hit (at most 10 random-QR
    faces x 10 locations x two ways past each armor layer x 10 vital faces), read once for
    each wound level before it (one before the crash, at most a dozen before an explosion):
    three times that hit's bound, or its count where damage/resolve counts it."""
    first = people[0] if people else Condition()
    found = [occupant_strike(dc, first, options, None, crash) for each in dcs for dc in each]
    hits = [damage_cost(hit) for hit in found if hit is not None]

    def count(limit: int) -> int:
        return 20_000 + sum(3 * hit.within(limit).states for hit in hits)

    return Estimate(20_000 + sum(3 * hit.states for hit in hits), ("/occupant_armor",), count)


class AccidentInput(Model):
    driver: Side = Field(description="The driving roll (vehicle skill), or its QR if rolled.")
    vehicle_man: int = Field(ge=-20, le=20, description="The vehicle's Man (in the terrain).")
    serious: bool = Field(
        default=False, description="After a hasty journey's QR10: -3 more (F:L3370)."
    )
    damage_level: int = Field(default=0, ge=0, le=MAX_LEVEL, description="Vehicle damage so far.")
    occupants: Occupants = ()
    explosion: bool = Field(
        default=False,
        description="On QR10, the GM rules the wreck explodes: a further DC12 (F:L3380).",
    )
    occupant_armor: OccupantArmor
    options: AccidentOptions = Field(default=AccidentOptions())


class Accident(Model):
    driving: Resolution | None = Field(description="The roll; null when its QR was given.")
    qr: QR
    result: str
    journey: Journey
    repair: Repair
    delay_hours: int | None
    vehicle: VehicleOutcome
    passenger_dc: int | None
    explosion_dc: int | None
    occupants: list[OccupantOutcome]


class AccidentOdds(Model):
    driving: QualityOdds
    state: list[OutcomeProbability]
    damage_level: list[OutcomeProbability]
    occupant: OccupantOdds


def _accident_terms(request: AccidentInput) -> list[Term]:
    return [
        Term(source="vehicle Man", value=request.vehicle_man),
        Term(source="serious mishap", value=-3 if request.serious else 0),
    ]


def _accident_dcs(request: AccidentInput, qr: QR) -> list[Fraction]:
    dc = ACCIDENT_ROWS[qr].passenger_dc
    if dc is None:
        return []
    blast = qr is QR.QR10 and request.explosion
    return [Fraction(dc), *([Fraction(EXPLOSION_DC)] if blast else [])]


def _wreck(request: AccidentInput, qr: QR) -> int:
    event = DamageEvent(ACCIDENT_ROWS[qr].vehicle_state.value) if qr > QR.QR1 else None
    scale = request.options.vehicle_damage_scale
    return request.damage_level if event is None else after(request.damage_level, event, 0, scale)


def _accident_odds(request: AccidentInput) -> AccidentOdds:
    options = request.options
    setup = _driving(request.driver, options, _accident_terms(request))
    qrs = _qrs(request.driver, setup)
    levels = qrs.map(lambda qr: _wreck(request, qr))
    scale = options.vehicle_damage_scale
    return AccidentOdds(
        driving=quality_odds(qrs),
        state=outcome_table(levels.map(lambda lv: state_of(lv, scale)), list(VehicleState)),
        damage_level=outcome_table(levels),
        occupant=_occupant_odds(
            qrs,
            lambda qr: _accident_dcs(request, qr),
            request.occupants,
            damage_options(options),
            crash_of(request.occupant_armor, options),
        ),
    )


def _accident_cost(request: AccidentInput) -> Estimate:
    dcs = [_accident_dcs(request, qr) for qr in QR]
    crash = crash_of(request.occupant_armor, request.options)
    return _occupant_cost(dcs, request.occupants, damage_options(request.options), crash)


@operation(
    name="travel/accident",
    kind=Kind.CHECK,
    covers=("foresight.travel.accident",),
    odds=_accident_odds,
    cost=_accident_cost,
    example={
        "driver": {"task": {"score": 12, "bef": 4}},
        "vehicle_man": 0,
        "occupants": [{}, {}],
        "dice": {"values": [45, 3, 6, 8, 2]},
    },
    rolled={"/driving/qr": Reading(read=lambda result: result.qr.name, best_first=True)},
)
def travel_accident(request: AccidentInput, dice: Dice) -> Accident:
    """Accident avoidance: the vehicle skill with the vehicle's Man (and -3 after a hasty
    QR10). QR1 avoided; QR2 light damage, an hour's delay; QR3 medium damage, may need
    repair; QR4 heavy damage and DC4 to everyone inside; QR7 incapacitated and DC8; QR10
    destroyed and DC10, and DC12 more if the wreck explodes (F:L3374-3380). Occupants take
    their DC with a random QR and location through damage/resolve, armor only with
    'accident_armor' (a typeless DC, catalogue #83): then the crash is read as a melee or
    impact DC and meets 'occupant_armor'."""
    options = request.options
    setup = _driving(request.driver, options, _accident_terms(request))
    qr, driving = _roll(request.driver, setup, dice, "accident avoidance")
    row = ACCIDENT_ROWS[qr]
    dcs = _accident_dcs(request, qr)
    level = _wreck(request, qr)
    return Accident(
        driving=driving,
        qr=qr,
        result=row.text,
        journey=row.journey,
        repair=row.repair,
        delay_hours=row.delay_hours,
        vehicle=VehicleOutcome(
            damage_level=level, state=state_of(level, options.vehicle_damage_scale)
        ),
        passenger_dc=row.passenger_dc,
        explosion_dc=EXPLOSION_DC if len(dcs) > 1 else None,
        occupants=_occupants(
            dcs,
            request.occupants,
            dice,
            damage_options(options),
            crash_of(request.occupant_armor, options),
        ),
    )


# --- pursuit safety roll ----------------------------------------------------------------


class SafetyOptions(AccidentOptions):
    """Readings of the safety roll, the damage level and the occupants' damage."""

    safety_speed_dc_bonus: bool = option(
        False,
        ambiguity=None,
        description=(
            "The book's optional rule: add (2 - the speed bid) to the passengers' DCs, more "
            "for high-speed accidents (F:L3482)."
        ),
    )


class SafetyInput(Model):
    driver: Side = Field(description="The vehicle-skill roll, or its QR if rolled.")
    bid: Bid = Field(
        description=(
            "The speed bid of the turn (at most +2, F:L3442): any bid 'pursuit/operate' and the "
            "other manoeuvres accept, since each may owe this roll (F:L3463, F:L3475)."
        )
    )
    safe: int = Field(ge=-20, le=20, description="The vehicle's Safe (in the terrain).")
    ds: DamageScale = Field(description="The vehicle's DS.")
    damage_level: int = Field(default=0, ge=0, le=MAX_LEVEL, description="Vehicle damage so far.")
    occupants: Occupants = ()
    occupant_armor: OccupantArmor
    options: SafetyOptions = Field(default=SafetyOptions())


class SafetyRoll(Model):
    driving: Resolution | None = Field(description="The roll; null when its QR was given.")
    qr: QR
    result: str
    vehicle: VehicleOutcome
    passenger_dc: Exact | None
    occupants: list[OccupantOutcome]


class SafetyOdds(Model):
    driving: QualityOdds
    state: list[OutcomeProbability]
    damage_level: list[OutcomeProbability]
    occupant: OccupantOdds


def _safety_dc(request: SafetyInput, qr: QR) -> Fraction | None:
    base = SAFETY_ROWS[qr].passenger_dc_base
    if base is None:
        return None
    bonus = 2 - request.bid if request.options.safety_speed_dc_bonus else 0
    return base - decimal(request.ds) + bonus


def _safety_level(request: SafetyInput, qr: QR) -> int:
    effect = SAFETY_ROWS[qr].vehicle
    if effect is SafetyEffect.UNCHANGED:
        return request.damage_level
    scale = request.options.vehicle_damage_scale
    return after(request.damage_level, DamageEvent(effect.value), 0, scale)


def _safety_setup(request: SafetyInput) -> Setup | None:
    term = Term(source="speed bid - Safe", value=request.bid - request.safe)
    return _driving(request.driver, request.options, [term])


def _safety_odds(request: SafetyInput) -> SafetyOdds:
    qrs = _qrs(request.driver, _safety_setup(request))
    levels = qrs.map(lambda qr: _safety_level(request, qr))
    scale = request.options.vehicle_damage_scale

    def dcs(qr: QR) -> list[Fraction]:
        # The table's DC less the DS (and the optional bonus), as the rule rolls it.
        found = _safety_dc(request, qr)
        return [] if found is None else [found]

    return SafetyOdds(
        driving=quality_odds(qrs),
        state=outcome_table(levels.map(lambda lv: state_of(lv, scale)), list(VehicleState)),
        damage_level=outcome_table(levels),
        occupant=_occupant_odds(
            qrs,
            dcs,
            request.occupants,
            damage_options(request.options),
            crash_of(request.occupant_armor, request.options),
        ),
    )


def _safety_cost(request: SafetyInput) -> Estimate:
    dcs = [[] if dc is None else [dc] for dc in (_safety_dc(request, qr) for qr in QR)]
    crash = crash_of(request.occupant_armor, request.options)
    return _occupant_cost(dcs, request.occupants, damage_options(request.options), crash)


@operation(
    name="pursuit/safety-roll",
    kind=Kind.CHECK,
    covers=("foresight.pursuit.safety_roll",),
    odds=_safety_odds,
    cost=_safety_cost,
    example={
        "driver": {"task": {"score": 10, "bef": 4}},
        "bid": -1,
        "safe": 0,
        "ds": 3,
        "occupants": [{}],
        "dice": {"values": [97, 4, 5]},
    },
    rolled={"/driving/qr": Reading(read=lambda result: result.qr.name, best_first=True)},
)
def pursuit_safety_roll(request: SafetyInput, dice: Dice) -> SafetyRoll:
    """A safety roll: the vehicle skill modified by +(speed bid - Safe). QR1-QR3 no harm;
    QR4 the damage level rises by one; QR7 the vehicle is incapacitated and the passengers
    suffer DC(8 - DS); QR10 it is totalled and they suffer DC(12 - DS), optionally (2 - bid)
    more (F:L3475-3482). Passengers take it with a random QR through damage/resolve."""
    qr, driving = _roll(request.driver, _safety_setup(request), dice, "safety roll")
    dc = _safety_dc(request, qr)
    level = _safety_level(request, qr)
    scale = request.options.vehicle_damage_scale
    crash = crash_of(request.occupant_armor, request.options)
    people = _occupants([] if dc is None else [dc], request.occupants, dice,
                        damage_options(request.options), crash)  # fmt: skip
    return SafetyRoll(
        driving=driving,
        qr=qr,
        result=SAFETY_ROWS[qr].text,
        vehicle=VehicleOutcome(damage_level=level, state=state_of(level, scale)),
        passenger_dc=None if dc is None else exact(dc),
        occupants=people,
    )
