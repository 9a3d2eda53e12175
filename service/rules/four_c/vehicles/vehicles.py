"""A vehicle and its three Vehicle Traits (C:L1434-1470): Durability, a score that is both its
hit points and its armor; Handling, a Rank Value; Velocity, sectors a turn. Attacks on a
vehicle and on those inside it (C:L1438, C:L1474), its movement, and its repair (C:L1498-1500).

A request names a sample vehicle (C:L1502-1511) or gives the traits it needs."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_c.combat.damage import armor_of, through
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.vehicles.options import VehicleArmor, VehicleOptions
from service.rules.four_c.vehicles.tables import SAMPLES, SampleVehicle
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation

__all__ = [
    "Points",
    "Sectors",
    "Traits",
    "Vehicle",
    "durability_now",
    "needed",
    "traits",
    "vehicle_armor",
]

Points = Annotated[int, Field(ge=0, le=100_000)]
Sectors = Annotated[int, Field(ge=0, le=100_000)]
Armors = Annotated[tuple[RankValue, ...], Field(max_length=8)]

_TRAITS = ("durability", "handling", "velocity")


class Vehicle(Model):
    """A vehicle: a sample of the table by name, or the traits of one's own."""

    sample: SampleVehicle | None = Field(
        default=None, description="A sample vehicle (C:L1502-1511), instead of its traits."
    )
    durability: Points | None = Field(default=None, description="Its starting Durability.")
    handling: RankValue | None = Field(default=None, description="Its Handling Rank Value.")
    velocity: Points | None = Field(default=None, description="Its Velocity: sectors a turn.")
    current_durability: Points | None = Field(
        default=None,
        description="Its Durability now, after damage; null: its starting Durability.",
    )


class Traits(Model):
    """A vehicle's traits as a rule reads them; a trait not given is None."""

    durability: int | None
    handling: int | None
    velocity: int | None
    current_durability: int | None


def traits(vehicle: Vehicle, loc: tuple[str, ...] = ("vehicle",)) -> Traits:
    """The sample's traits, or those given; a sample with traits of its own is refused, as is
    a Durability above its starting value (C:L1440)."""
    given = {name: getattr(vehicle, name) for name in _TRAITS}
    if vehicle.sample is not None:
        clash = [
            InputError((*loc, name), "name a sample vehicle or give its traits, not both")
            for name, value in given.items()
            if value is not None
        ]
        if clash:
            raise clash[0] if len(clash) == 1 else Violations(clash)
        row = next(r for r in SAMPLES if r.sample is vehicle.sample)
        given = {"durability": row.durability, "handling": row.handling,
                 "velocity": row.velocity}  # fmt: skip
    start, now = given["durability"], vehicle.current_durability
    if now is not None and start is None:
        raise InputError((*loc, "durability"), "a current_durability needs the durability")
    if now is not None and start is not None and now > start:
        raise InputError(
            (*loc, "current_durability"),
            "Durability is never raised above its starting value (C:L1440): give a "
            "current_durability no greater than the durability",
        )
    return Traits(**given, current_durability=start if now is None else now)


def needed(found: Traits, trait: str, loc: tuple[str, ...] = ("vehicle",)) -> int:
    """A trait the rule needs: refused, naming it, when neither given nor a sample's."""
    value = getattr(found, trait)
    if value is None:
        raise InputError((*loc, trait), f"name a sample vehicle or give its {trait}")
    assert isinstance(value, int)
    return value


def durability_now(found: Traits, loc: tuple[str, ...] = ("vehicle",)) -> int:
    """The vehicle's Durability now (its starting value unless given)."""
    needed(found, "durability", loc)
    assert found.current_durability is not None
    return found.current_durability


def vehicle_armor(found: Traits, options: VehicleOptions, loc: tuple[str, ...]) -> int:
    """The Durability that works as armor: the current score or the starting one (A-38)."""
    if options.vehicle_armor is VehicleArmor.STARTING:
        return needed(found, "durability", loc)
    return durability_now(found, loc)


class AttackTarget(StrEnum):
    VEHICLE = "vehicle"
    OCCUPANT = "occupant"


class VehicleAttackInput(Model):
    vehicle: Vehicle
    damage: Points = Field(description="The damage of the hit, before armor (combat/damage).")
    target: AttackTarget = Field(
        default=AttackTarget.VEHICLE, description="The vehicle, or a character inside it."
    )
    armor: Armors = Field(
        default=(), description="An occupant's own armor, worn or natural (Rank Values)."
    )
    damage_points: Points | None = Field(
        default=None, description="An occupant's Damage points before the hit, if known."
    )
    options: VehicleOptions = Field(default=VehicleOptions())


class VehicleAttacked(Model):
    target: AttackTarget
    raw: int = Field(description="The damage of the hit.")
    vehicle_armor: int = Field(description="The vehicle's Durability as armor (A-38).")
    armor: int = Field(description="The armor that counts: an occupant's with it (A-21).")
    taken: int
    durability_before: int
    durability: int = Field(description="The vehicle's Durability after the hit.")
    destroyed: bool = Field(description="Durability 0: destroyed, never repaired (C:L1500).")
    damage_points: int | None = Field(description="The occupant's Damage points left.")
    dying: bool | None = Field(description="The occupant is at 0 Damage points (C:L1165).")


@operation(
    name="vehicle/attack",
    kind=Kind.CALCULATION,
    covers=("4c.vehicle.attack",),
    example={"vehicle": {"sample": "sports_car"}, "damage": 15},
)
def attack(request: VehicleAttackInput) -> VehicleAttacked:
    """A vehicle is attacked like a character (C:L1474): its Durability is its armor, so a hit
    takes off what gets past it, down to 0 (C:L1438-1440); a Sports Car (Durability 10) hit
    for 15 is left at 5. A character inside is shielded by the Durability, or by their own
    armor if better (A-21), and the vehicle is unharmed."""
    found = traits(request.vehicle)
    shield = vehicle_armor(found, request.options, ("vehicle",))
    before = durability_now(found)
    if request.target is AttackTarget.VEHICLE:
        for name in ("armor", "damage_points"):
            if getattr(request, name) not in ((), None):
                raise InputError((name,), "only an occupant's attack takes armor and Damage")
        taken = through(request.damage, shield)
        after = max(before - taken, 0)
        return VehicleAttacked(target=request.target, raw=request.damage, vehicle_armor=shield,
                               armor=shield, taken=taken, durability_before=before,
                               durability=after, destroyed=after == 0, damage_points=None,
                               dying=None)  # fmt: skip
    worn = armor_of((shield, *request.armor), request.options.armor_stacking)
    taken = through(request.damage, worn)
    points = request.damage_points
    left = None if points is None else max(points - taken, 0)
    return VehicleAttacked(target=request.target, raw=request.damage, vehicle_armor=shield,
                           armor=worn, taken=taken, durability_before=before, durability=before,
                           destroyed=before == 0, damage_points=left,
                           dying=None if left is None else left == 0)  # fmt: skip


class MoveInput(Model):
    vehicle: Vehicle
    sectors_moved: Sectors = Field(default=0, description="Sectors it has moved this turn.")
    collided: bool = Field(default=False, description="It has been in a collision this turn.")


class Moved(Model):
    velocity: int = Field(description="Sectors it may move in a turn (C:L1470).")
    sectors_left: int = Field(description="Sectors it may still move this turn.")
    destroyed: bool


@operation(
    name="vehicle/move",
    kind=Kind.LOOKUP,
    covers=("4c.vehicle.move",),
    example={"vehicle": {"sample": "private_jet"}, "sectors_moved": 5},
)
def move(request: MoveInput) -> Moved:
    """A vehicle moves up to its Velocity in sectors each turn (C:L1468-1470), a Private Jet
    20; after a collision it moves no further that turn (C:L1496), and a destroyed one
    (Durability 0, C:L1500) not at all."""
    found = traits(request.vehicle)
    velocity = needed(found, "velocity")
    if request.sectors_moved > velocity:
        raise InputError(("sectors_moved",), f"a vehicle moves at most its Velocity, {velocity}")
    destroyed = found.current_durability == 0
    stopped = request.collided or destroyed
    left = 0 if stopped else velocity - request.sectors_moved
    return Moved(velocity=velocity, sectors_left=left, destroyed=destroyed)


class RepairInput(Model):
    vehicle: Vehicle
    points: Points = Field(
        default=0, description="Durability a repair in play restores (the GM's call)."
    )
    between_adventures: bool = Field(
        default=False, description="The adventure is over: a full repair (C:L1500)."
    )


class Repaired(Model):
    durability_before: int
    durability: int
    starting_durability: int
    repaired: int = Field(description="Durability restored.")
    destroyed: bool = Field(description="It was at 0: destroyed, and it cannot be repaired.")


@operation(
    name="vehicle/repair",
    kind=Kind.CALCULATION,
    covers=("4c.vehicle.repair",),
    example={"vehicle": {"sample": "sports_car", "current_durability": 4},
             "between_adventures": True},
)  # fmt: skip
def repair(request: RepairInput) -> Repaired:
    """Repair raises Durability, never above its starting value (C:L1440); vehicles are fully
    repaired between adventures, but one reduced to 0 is destroyed and cannot be repaired
    (C:L1498-1500)."""
    found = traits(request.vehicle)
    start = needed(found, "durability")
    before = durability_now(found)
    if before == 0:
        after = 0
    elif request.between_adventures:
        after = start
    else:
        after = min(before + request.points, start)
    return Repaired(durability_before=before, durability=after, starting_durability=start,
                    repaired=after - before, destroyed=before == 0)  # fmt: skip
