"""Damage to vehicles (catalogue part 2, #94, #95; F:L3484-3492).

A hit's DC is reduced by the vehicle's DS for a mêlée attack, an accident or a collision, by
DS/2 for an impact attack and DS/4 for a beam, and by any added armour; the damage table then
gives the damage (F:L3486). A D10 places it: 1-4 the engine or transmission, which aggregates
normally; 5-7 an accessory, 8-10 the compartment, which harm the vehicle's damage level only
in an aircraft or submarine (F:L3488-3492). A compartment hit strikes one passenger, or one
100 kg lot of cargo, each equally likely (F:L3492).
"""

import math
from enum import StrEnum
from fractions import Fraction
from typing import Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import Condition
from service.rules.foresight.mortality.damage import (
    MAX_DC,
    DamageScale,
    decimal,
    table_damage,
    written,
)
from service.rules.foresight.mortality.hits import DamageOptions, DamageResult, roll_qr
from service.rules.foresight.mortality.resolve import resolve_hits
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.quality import random_qr
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import distribution, setup_at
from service.rules.foresight.vehicles.occupants import damage_options, occupant_strike
from service.rules.foresight.vehicles.track import (
    MAX_LEVEL,
    VehicleState,
    VehicleTrackOptions,
    state_of,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation
from service.rules.tables import table

__all__ = ["HIT_LOCATIONS", "Compartment", "VehicleLocation", "location_distribution"]

#: The most cargo a request may carry, in kg: ten times the largest hold in the table.
MAX_CARGO_KG = 10_000_000
MAX_PASSENGERS = 1000


class VehicleLocation(StrEnum):
    ENGINE_TRANSMISSION = "engine_transmission"
    ACCESSORY = "accessory"
    COMPARTMENT = "compartment"


class Aggregates(StrEnum):
    ALWAYS = "always"
    AIRCRAFT_OR_SUBMARINE = "aircraft_or_submarine"


class HitLocationRow(Model):
    low: int
    high: int
    location: VehicleLocation
    aggregates: Aggregates = Field(description="When the damage adds to the damage level.")
    text: str


HIT_LOCATIONS = table(__name__, "vehicle-hit-locations", HitLocationRow)


def location_of(d10: int) -> HitLocationRow:
    return next(row for row in HIT_LOCATIONS if row.low <= d10 <= row.high)


def location_distribution() -> Distribution[HitLocationRow]:
    return Distribution((location_of(face), 1) for face in range(1, 11))


class Compartment(Model):
    """Who and what rides in the vehicle, for a compartment hit (F:L3492)."""

    aircraft_or_submarine: bool = Field(
        default=False, description="Accessory and compartment hits aggregate (F:L3490-3492)."
    )
    operator_aboard: bool = Field(
        default=True,
        description="The operator is one of the people a compartment hit may strike (the "
        "catalogue's recommendation; the book says 'each passenger').",
    )
    passengers: int = Field(default=0, ge=0, le=MAX_PASSENGERS)
    cargo_kg: float = Field(
        default=0, ge=0, le=MAX_CARGO_KG, description="Cargo aboard: one slot per 100 kg lot."
    )


class Occupant(StrEnum):
    NONE = "none"
    OPERATOR = "operator"
    PASSENGER = "passenger"
    CARGO = "cargo"


def _slots(compartment: Compartment) -> list[tuple[Occupant, int]]:
    """Each kind of slot and how many: the operator, each passenger, each started 100 kg."""
    lots = math.ceil(decimal(compartment.cargo_kg) / 100)
    found = [
        (Occupant.OPERATOR, int(compartment.operator_aboard)),
        (Occupant.PASSENGER, compartment.passengers),
        (Occupant.CARGO, lots),
    ]
    return [(kind, n) for kind, n in found if n]


def occupant_distribution(compartment: Compartment) -> Distribution[Occupant]:
    slots = _slots(compartment)
    return Distribution(slots) if slots else Distribution({Occupant.NONE: 1})


class StruckOccupant(Model):
    kind: Occupant
    number: int | None = Field(description="Which passenger or cargo lot, from 1.")
    roll: int | None = Field(description="The die over every slot; null with one slot or none.")
    slots: int


def pick_occupant(compartment: Compartment, dice: Dice) -> StruckOccupant:
    """One slot, each equally likely (F:L3492)."""
    slots = _slots(compartment)
    total = sum(n for _, n in slots)
    if not total:
        return StruckOccupant(kind=Occupant.NONE, number=None, roll=None, slots=0)
    face = dice.roll(total, "compartment slot") if total > 1 else None
    left = face or 1
    for kind, n in slots:
        if left <= n:
            number = None if kind is Occupant.OPERATOR else left
            return StruckOccupant(kind=kind, number=number, roll=face, slots=total)
        left -= n
    raise AssertionError("a face beyond the slots")


class VehicleHitLocation(Model):
    location: VehicleLocation
    roll: int
    aggregates: bool = Field(description="The damage adds to the vehicle's damage level.")
    occupant: StruckOccupant | None = Field(description="On a compartment hit: who or what.")
    text: str


class VehicleHitLocationOdds(Model):
    location: list[OutcomeProbability]
    occupant: list[OutcomeProbability] = Field(
        description="'no_hit' off the compartment; 'none' an empty compartment."
    )
    aggregates: Exact


def _aggregates(row: HitLocationRow, compartment: Compartment) -> bool:
    return row.aggregates is Aggregates.ALWAYS or compartment.aircraft_or_submarine


#: The odds' word for "no one and nothing struck": the hit was not to the compartment (or
#: missed), as the result's null occupant says; 'none' is an empty compartment.
NO_HIT = "no_hit"
OCCUPANTS = [NO_HIT, *(kind.value for kind in Occupant)]


def _struck(row: HitLocationRow, compartment: Compartment) -> Distribution[str]:
    if row.location is not VehicleLocation.COMPARTMENT:
        return Distribution({NO_HIT: 1})
    return occupant_distribution(compartment).map(lambda kind: kind.value)


def _location_odds(request: Compartment) -> VehicleHitLocationOdds:
    rows = location_distribution()
    return VehicleHitLocationOdds(
        location=outcome_table(rows.map(lambda row: row.location), list(VehicleLocation)),
        occupant=outcome_table(rows.then(lambda row: _struck(row, request)), OCCUPANTS),
        aggregates=exact(rows.probability_where(lambda row: _aggregates(row, request))),
    )


def _location_cost(request: Any) -> Estimate:
    """Ten faces, three rows, four kinds of slot: the same for every request."""
    return Estimate(60, ())


def _kind(occupant: StruckOccupant | None) -> str:
    return NO_HIT if occupant is None else occupant.kind.value


def locate(compartment: Compartment, dice: Dice) -> VehicleHitLocation:
    face = dice.roll(10, "vehicle hit location")
    row = location_of(face)
    occupant = None
    if row.location is VehicleLocation.COMPARTMENT:
        occupant = pick_occupant(compartment, dice)
    return VehicleHitLocation(
        location=row.location,
        roll=face,
        aggregates=_aggregates(row, compartment),
        occupant=occupant,
        text=row.text,
    )


@operation(
    name="vehicle/hit-location",
    kind=Kind.GENERATION,
    covers=("foresight.vehicle.hit_location",),
    odds=_location_odds,
    cost=_location_cost,
    example={"passengers": 3, "cargo_kg": 200, "dice": {"values": [9, 2]}},
    rolled={"/occupant": Reading(read=lambda result: _kind(result.occupant))},
)
def vehicle_hit_location(request: Compartment, dice: Dice) -> VehicleHitLocation:
    """Where a hit strikes a vehicle: D10 1-4 engine/transmission (aggregates normally), 5-7
    an accessory, 8-10 the compartment (no effect on the vehicle unless it is an aircraft or
    submarine, F:L3488-3492). A compartment hit strikes each passenger (and the operator) and
    each 100 kg of cargo with equal likelihood (F:L3492)."""
    return locate(request, dice)


# --- damage to a vehicle ----------------------------------------------------------------


class AttackType(StrEnum):
    MELEE = "melee"
    ACCIDENT = "accident"
    COLLISION = "collision"
    IMPACT = "impact"
    BEAM = "beam"


#: The DS is divided by this before it reduces the DC (F:L3486).
DS_DIVISOR = {
    AttackType.MELEE: 1,
    AttackType.ACCIDENT: 1,
    AttackType.COLLISION: 1,
    AttackType.IMPACT: 2,
    AttackType.BEAM: 4,
}


class VehicleDsRule(StrEnum):
    SUBTRACT = "subtract"
    SUBTRACT_AND_DIVIDE = "subtract_and_divide"


class VehicleDsRounding(StrEnum):
    HALF_UP = "half_up"
    EXACT = "exact"


class CompartmentHitDamage(StrEnum):
    REDUCED = "reduced"
    UNREDUCED = "unreduced"


class VehicleDamageOptions(DamageOptions, VehicleTrackOptions):
    """Readings of damage to vehicles (AMB2-36) and of the damage an occupant takes."""

    vehicle_ds_rule: VehicleDsRule = option(
        VehicleDsRule.SUBTRACT,
        ambiguity="AMB2-36",
        description=(
            "The vehicle's DS only reduces the DC (F:L3486), then the table at DS 1, or it "
            "also divides the damage as a damage scale does everywhere else (F:L2724)."
        ),
    )
    vehicle_ds_rounding: VehicleDsRounding = option(
        VehicleDsRounding.HALF_UP,
        ambiguity="AMB2-36",
        description=(
            "The DS (or DS/2 for an impact, DS/4 for a beam) taken from the DC is rounded "
            "half up, or subtracted exactly (a fractional DC)."
        ),
    )
    compartment_hit_damage: CompartmentHitDamage = option(
        CompartmentHitDamage.REDUCED,
        ambiguity="AMB2-36",
        description=(
            "The occupant a compartment hit strikes takes the DC the vehicle's DS and armour "
            "reduced, or the attack's whole DC; either at the attack's QR."
        ),
    )


class VehicleDamageInput(Model):
    dc: float = Field(ge=0, le=MAX_DC, description="The attack's DC (a DC12 beam: 12).")
    attack_type: AttackType = Field(
        description="'melee', 'accident' and 'collision' take the DS from the DC, 'impact' "
        "DS/2 and 'beam' DS/4 (F:L3486)."
    )
    qr: QR | None = Field(
        default=None, description="The attack's QR; with neither it nor 'attack': a random QR."
    )
    attack: Task | None = Field(default=None, description="Instead of 'qr': the attack to roll.")
    ds: DamageScale = Field(description="The vehicle's DS (the vehicle table's DS column).")
    armor: float = Field(default=0, ge=0, le=MAX_DC, description="Armour added to the vehicle.")
    damage_level: int = Field(default=0, ge=0, le=MAX_LEVEL, description="Its damage so far.")
    compartment: Compartment = Field(default=Compartment())
    occupant_condition: Condition = Field(
        default=Condition(), description="The condition of whoever a compartment hit strikes."
    )
    options: VehicleDamageOptions = Field(default=VehicleDamageOptions())


class VehicleDamage(Model):
    qr: QR
    qr_roll: int | None = Field(description="The attack's D100 or the random QR's D10.")
    reduction: Exact = Field(description="What the DS (or DS/2, DS/4) and armour take off.")
    dc_after: Exact
    table: str = Field(description="'miss', 'none' (the table's '-'), 'S' or damage levels.")
    hit: VehicleHitLocation | None = Field(description="Where it struck; null for a miss.")
    levels: int = Field(description="Damage levels added to the vehicle.")
    damage_level: int
    state: VehicleState
    occupant_damage: DamageResult | None = Field(
        description="A person struck by a compartment hit: their damage (damage/resolve)."
    )
    steps: list[str]


class VehicleDamageSummary(Model):
    damaged: Exact = Field(description="P(the damage level rose).")
    mean_levels: Exact


class VehicleDamageOdds(Model):
    qr: list[OutcomeProbability]
    location: list[OutcomeProbability] = Field(description="'miss' for QR7 and QR10.")
    occupant: list[OutcomeProbability] = Field(
        description="'no_hit' off the compartment or a miss; 'none' an empty compartment."
    )
    levels: list[OutcomeProbability]
    damage_level: list[OutcomeProbability]
    state: list[OutcomeProbability]
    summary: VehicleDamageSummary


def _attack(request: VehicleDamageInput) -> Setup | None:
    if request.qr is not None and request.attack is not None:
        raise InputError(("attack",), "give either 'qr' or 'attack', not both")
    if request.attack is None:
        return None
    return setup_at(("attack",), request.attack, request.options)


def _reduction(request: VehicleDamageInput) -> Fraction:
    """DS, DS/2 or DS/4 by the attack's type, rounded per the option, and the armour."""
    share = decimal(request.ds) / DS_DIVISOR[request.attack_type]
    if request.options.vehicle_ds_rounding is VehicleDsRounding.HALF_UP:
        share = Fraction(round_half_up(share))
    return share + decimal(request.armor)


def _table_ds(request: VehicleDamageInput) -> Fraction:
    if request.options.vehicle_ds_rule is VehicleDsRule.SUBTRACT_AND_DIVIDE:
        return decimal(request.ds)
    return Fraction(1)


def _damage(request: VehicleDamageInput, qr: QR) -> int | None:
    dc_after = decimal(request.dc) - _reduction(request)
    return table_damage(dc_after, qr, _table_ds(request), request.options)


def _levels(request: VehicleDamageInput, qr: QR, row: HitLocationRow) -> int:
    damage = _damage(request, qr)
    return (damage or 0) if _aggregates(row, request.compartment) else 0


#: One way the attack goes: QR, location ('miss'), levels added, who or what was struck.
Way = tuple[QR, str, int, str]


def _ways(request: VehicleDamageInput) -> Distribution[Way]:
    attack = _attack(request)
    if request.qr is not None:
        qrs = Distribution({request.qr: 1})
    elif attack is not None:
        qrs = distribution(attack)
    else:
        qrs = Distribution((random_qr(face), 1) for face in range(1, 11))

    def at(qr: QR) -> Distribution[Way]:
        if qr > QR.QR4:
            return Distribution({(qr, "miss", 0, NO_HIT): 1})
        return location_distribution().then(
            lambda row: _struck(row, request.compartment).map(
                lambda who: (qr, row.location.value, _levels(request, qr, row), who)
            )
        )

    return qrs.then(at)


def _damage_odds(request: VehicleDamageInput) -> VehicleDamageOdds:
    ways = _ways(request)
    scale = request.options.vehicle_damage_scale
    start = request.damage_level
    levels = ways.map(lambda way: min(MAX_LEVEL, start + way[2]))
    mean = ways.mean(lambda way: way[2])
    return VehicleDamageOdds(
        qr=outcome_table(ways.map(lambda way: way[0].name), [qr.name for qr in QR]),
        location=outcome_table(
            ways.map(lambda way: way[1]), [*(v.value for v in VehicleLocation), "miss"]
        ),
        occupant=outcome_table(ways.map(lambda way: way[3]), OCCUPANTS),
        levels=outcome_table(ways.map(lambda way: way[2])),
        damage_level=outcome_table(levels),
        state=outcome_table(levels.map(lambda level: state_of(level, scale)), list(VehicleState)),
        summary=VehicleDamageSummary(
            damaged=exact(ways.probability_where(lambda way: way[2] > 0)),
            mean_levels=exact(mean),
        ),
    )


def _damage_cost(request: Any) -> Estimate:
    """Up to 100 attack faces, then for each of 6 QRs ten location faces and four kinds of
    slot, read by a few tables: the same for every request."""
    return Estimate(2_000, ())


def _occupant_damage(
    request: VehicleDamageInput, qr: QR, hit: VehicleHitLocation, dice: Dice
) -> DamageResult | None:
    struck = hit.occupant
    if struck is None or struck.kind not in (Occupant.OPERATOR, Occupant.PASSENGER):
        return None
    dc = decimal(request.dc)
    if request.options.compartment_hit_damage is CompartmentHitDamage.REDUCED:
        dc -= _reduction(request)
    strike = occupant_strike(dc, request.occupant_condition, damage_options(request.options), qr)
    return None if strike is None else resolve_hits(strike, dice)


@operation(
    name="vehicle/damage",
    kind=Kind.GENERATION,
    covers=("foresight.vehicle.damage",),
    odds=_damage_odds,
    cost=_damage_cost,
    example={"dc": 12, "attack_type": "impact", "qr": 2, "ds": 3, "dice": {"values": [2]}},
    rolled={
        "/qr": Reading(read=lambda result: result.qr.name, best_first=True),
        "/location": Reading(read=lambda result: _where(result.hit)),
        "/occupant": Reading(read=lambda result: _kind(result.hit and result.hit.occupant)),
    },
)
def vehicle_damage(request: VehicleDamageInput, dice: Dice) -> VehicleDamage:
    """Damage to a vehicle: the DC less its DS (mêlée, accident, collision), DS/2 (impact) or
    DS/4 (beam) and any armour, then the damage table (F:L3486); a D10 places it (F:L3488-3492)
    and the damage adds to the vehicle's damage level where it aggregates (an 'S' stuns no
    vehicle: 0 levels). A compartment hit strikes a person or 100 kg of cargo; a person takes
    the hit through damage/resolve. DC12 impact on DS 3 at QR2: DC 10, 4 levels."""
    qr, qr_roll = roll_qr(request.qr, _attack(request), dice)
    reduction = _reduction(request)
    dc_after = decimal(request.dc) - reduction
    steps = [
        f"QR{qr.value} against DC {decimal(request.dc)}",
        f"{request.attack_type.value}: DS {decimal(request.ds)} / "
        f"{DS_DIVISOR[request.attack_type]} and armour {decimal(request.armor)} take "
        f"{reduction}: DC {dc_after}",
    ]
    hit, levels, damage, occupant = None, 0, None, None
    if qr <= QR.QR4:
        damage = _damage(request, qr)
        steps.append(f"table DC {dc_after} QR{qr.value}, DS {_table_ds(request)}: "
                     f"{written(damage)}")  # fmt: skip
        hit = locate(request.compartment, dice)
        levels = (damage or 0) if hit.aggregates else 0
        steps.append(f"{hit.location.value}: {levels} damage levels to the vehicle")
        occupant = _occupant_damage(request, qr, hit, dice)
    level = min(MAX_LEVEL, request.damage_level + levels)
    return VehicleDamage(
        qr=qr,
        qr_roll=qr_roll,
        reduction=exact(reduction),
        dc_after=exact(dc_after),
        table="miss" if qr > QR.QR4 else written(damage),
        hit=hit,
        levels=levels,
        damage_level=level,
        state=state_of(level, request.options.vehicle_damage_scale),
        occupant_damage=occupant,
        steps=steps,
    )


def _where(hit: VehicleHitLocation | None) -> str:
    return "miss" if hit is None else hit.location.value
