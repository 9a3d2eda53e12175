"""Collisions (C:L1476-1496): a vehicle that hits a character, a vehicle or an object,
whether by ramming or by crashing. A character or vehicle it bears down on may get out of
the way; what is hit takes the vehicle's Durability in damage, the vehicle takes what it hit
(armor, Durability or Material Value), and those inside take 10 a sector moved."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.combat.damage import armor_of, through
from service.rules.four_c.core.master_table import (
    COLOURS,
    Resolved,
    colour_distribution,
    resolve_roll,
    table_cost,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.vehicles.maneuvers import (
    GROUND_MATERIAL_VALUE,
    VehicleRoll,
    vehicle_master,
)
from service.rules.four_c.vehicles.options import CollisionOptions
from service.rules.four_c.vehicles.tables import AVOID_BY_COLOUR, Avoidance
from service.rules.four_c.vehicles.vehicles import (
    Points,
    Sectors,
    Traits,
    Vehicle,
    durability_now,
    needed,
    traits,
    vehicle_armor,
)
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation

__all__ = ["OCCUPANT_DAMAGE_PER_SECTOR"]

#: What each character inside a vehicle in a collision takes per sector it moved that turn
#: before the collision (C:L1494).
OCCUPANT_DAMAGE_PER_SECTOR = 10

Armors = Annotated[tuple[RankValue, ...], Field(max_length=8)]


class AvoidInput(VehicleRoll):
    coordination: RankValue | None = Field(
        default=None, description="A target on foot: its Coordination is rolled."
    )
    vehicle: Vehicle | None = Field(
        default=None, description="A target at the wheel: its vehicle's Handling is rolled."
    )


class Avoided(Resolved):
    rolled_on: str = Field(description="'coordination' (on foot) or 'handling' (at the wheel).")
    result: Avoidance
    avoided: bool
    text: str


def _rv(request: AvoidInput) -> tuple[str, int]:
    """The Rank Value rolled: Coordination on foot, the vehicle's Handling at the wheel
    (C:L1476); exactly one is given."""
    if (request.coordination is None) == (request.vehicle is None):
        message = "give the target's coordination (on foot) or its vehicle (at the wheel)"
        raise Violations([InputError(("coordination",), message),
                          InputError(("vehicle",), message)])  # fmt: skip
    if request.vehicle is not None:
        return "handling", needed(traits(request.vehicle), "handling")
    assert request.coordination is not None
    return "coordination", request.coordination


class AvoidOdds(Model):
    avoided: Exact
    result: list[OutcomeProbability]
    colour: list[OutcomeProbability]
    master_table: str


def avoid_odds(request: AvoidInput) -> AvoidOdds:
    """Every colour of the target's roll and whether it gets out of the way (catalogue 5.1)."""
    colours = colour_distribution(vehicle_master(request, _rv(request)[1]))
    results = colours.map(lambda c: AVOID_BY_COLOUR[c].result.value)
    return AvoidOdds(
        avoided=exact(results.probability(Avoidance.AVOIDED.value)),
        result=outcome_table(results, [r.value for r in Avoidance]),
        colour=outcome_table(colours.map(lambda c: c.value), COLOURS),
        master_table=request.table_name,
    )


@operation(
    name="vehicle/collision/avoid",
    kind=Kind.CHECK,
    covers=("4c.vehicle.collision.avoid",),
    odds=avoid_odds,
    cost=table_cost,
    example={"coordination": 20, "dice": {"values": [3, 8]}},
)
def avoid(request: AvoidInput, dice: Dice) -> Avoided:
    """The target of a ram, or of a crash, rolls Coordination on foot or its vehicle's
    Handling at the wheel: on black it is hit and takes collision damage, on red or better it
    gets out of the way (C:L1476-1484). The rammer rolls nothing (A-39)."""
    trait, rv = _rv(request)
    resolved = resolve_roll(vehicle_master(request, rv), dice, f"{trait} d%")
    row = AVOID_BY_COLOUR[resolved.colour]
    return Avoided(**dict(resolved), rolled_on=trait, result=row.result,
                   avoided=row.result is Avoidance.AVOIDED, text=row.text)  # fmt: skip


class Struck(StrEnum):
    CHARACTER = "character"
    VEHICLE = "vehicle"
    OBJECT = "object"
    GROUND = "ground"


class StruckInput(Model):
    """What the vehicle hits, and what of it the rules read."""

    kind: Struck
    armor: Armors = Field(
        default=(), description="A character's armor, worn or natural (Rank Values)."
    )
    damage_points: Points | None = Field(
        default=None, description="A character's Damage points before the collision."
    )
    vehicle: Vehicle | None = Field(default=None, description="A vehicle hit.")
    sectors_moved: Sectors = Field(
        default=0, description="Sectors a vehicle hit moved this turn before the collision."
    )
    material_value: RankValue | None = Field(
        default=None, description="An object's Material Value (combat's materials table)."
    )


class CollisionInput(Model):
    vehicle: Vehicle = Field(description="The vehicle that hits.")
    sectors_moved: Sectors = Field(
        default=0, description="Sectors it moved this turn before the collision."
    )
    struck: StruckInput
    options: CollisionOptions = Field(default=CollisionOptions())


class VehicleHit(Model):
    """What a vehicle in the collision takes."""

    raw: int
    armor: int = Field(description="Its Durability as armor, when collision_vehicle_armor.")
    taken: int
    durability_before: int
    durability: int
    destroyed: bool
    occupant_damage: int = Field(description="What each character inside it takes.")
    moves_further: bool = Field(description="False: it moves no further this turn (C:L1496).")


class CharacterHit(Model):
    raw: int
    armor: int
    taken: int
    damage_points: int | None
    dying: bool | None


class Collided(Model):
    striker: VehicleHit
    struck: Struck
    struck_vehicle: VehicleHit | None
    struck_character: CharacterHit | None
    struck_object_damage: int | None = Field(description="The damage an object hit takes.")


def _vehicle_hit(
    found: Traits, raw: int, sectors: int, options: CollisionOptions, loc: tuple[str, ...]
) -> VehicleHit:
    """A vehicle takes `raw`, less its Durability as armor only with collision_vehicle_armor
    (A-40); each occupant takes 10 a sector it moved, likewise shielded only with
    occupant_collision_armor."""
    shield = vehicle_armor(found, options, loc)
    before = durability_now(found, loc)
    armor = shield if options.collision_vehicle_armor else 0
    taken = through(raw, armor)
    after = max(before - taken, 0)
    inside = OCCUPANT_DAMAGE_PER_SECTOR * sectors
    occupants = through(inside, shield) if options.occupant_collision_armor else inside
    return VehicleHit(raw=raw, armor=armor, taken=taken, durability_before=before,
                      durability=after, destroyed=after == 0, occupant_damage=occupants,
                      moves_further=False)  # fmt: skip


def _dealt(found: Traits, options: CollisionOptions, loc: tuple[str, ...]) -> int:
    """The damage a vehicle deals in a collision: its Durability, read as A-38 says."""
    return vehicle_armor(found, options, loc)


def _needs(struck: StruckInput) -> None:
    """Refuse what the kind hit does not read, and what it needs but lacks."""
    extra = {
        Struck.CHARACTER: ("vehicle", "material_value"),
        Struck.VEHICLE: ("armor", "damage_points", "material_value"),
        Struck.OBJECT: ("armor", "damage_points", "vehicle"),
        Struck.GROUND: ("armor", "damage_points", "vehicle", "material_value"),
    }[struck.kind]
    errors = [
        InputError(("struck", name), f"a {struck.kind.value} hit takes no {name}")
        for name in extra
        if getattr(struck, name) not in ((), None)
    ]
    if struck.sectors_moved and struck.kind is not Struck.VEHICLE:
        errors.append(InputError(("struck", "sectors_moved"), "only a vehicle hit has moved"))
    needs = {Struck.VEHICLE: "vehicle", Struck.OBJECT: "material_value"}.get(struck.kind)
    if needs is not None and getattr(struck, needs) is None:
        errors.append(InputError(("struck", needs), f"a {struck.kind.value} hit needs its {needs}"))
    if errors:
        raise errors[0] if len(errors) == 1 else Violations(errors)


@operation(
    name="vehicle/collision/damage",
    kind=Kind.CALCULATION,
    covers=("4c.vehicle.collision.damage",),
    example={"vehicle": {"sample": "sports_car"}, "sectors_moved": 5,
             "struck": {"kind": "character", "armor": [20]}},
)  # fmt: skip
def collision_damage(request: CollisionInput) -> Collided:
    """What is hit takes the vehicle's Durability; the vehicle takes the character's armor,
    the other vehicle's Durability or the object's Material Value (the ground's is 50,
    C:L1466); everyone inside a vehicle takes 10 for each sector it moved that turn before the
    collision, and the vehicle moves no further (C:L1486-1496). A Sports Car that moved 5
    sectors into a character in Body Armor 20 does that character no harm, is destroyed, and
    its occupants take 50 each (catalogue T16)."""
    struck = request.struck
    _needs(struck)
    found = traits(request.vehicle)
    dealt = _dealt(found, request.options, ("vehicle",))
    options = request.options
    hit_vehicle = hit_character = object_damage = None
    if struck.kind is Struck.CHARACTER:
        worn = armor_of(struck.armor, options.armor_stacking)
        stops = worn if options.collision_character_armor else 0
        taken = through(dealt, stops)
        points = struck.damage_points
        left = None if points is None else max(points - taken, 0)
        hit_character = CharacterHit(raw=dealt, armor=stops, taken=taken, damage_points=left,
                                     dying=None if left is None else left == 0)  # fmt: skip
        back = worn
    elif struck.kind is Struck.VEHICLE:
        assert struck.vehicle is not None
        other = traits(struck.vehicle, ("struck", "vehicle"))
        back = _dealt(other, options, ("struck", "vehicle"))
        hit_vehicle = _vehicle_hit(other, dealt, struck.sectors_moved, options,
                                   ("struck", "vehicle"))  # fmt: skip
    else:
        value = struck.material_value
        back = GROUND_MATERIAL_VALUE if value is None else value
        object_damage = dealt
    striker = _vehicle_hit(found, back, request.sectors_moved, options, ("vehicle",))
    return Collided(striker=striker, struck=struck.kind, struck_vehicle=hit_vehicle,
                    struck_character=hit_character,
                    struck_object_damage=object_damage)  # fmt: skip
