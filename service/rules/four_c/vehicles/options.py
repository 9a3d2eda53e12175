"""The options of 4C vehicles: one per ambiguity of the register (catalogue 4c.md 3.13) that
changes a result here, each naming its entry and defaulting to the catalogue's
recommendation. The rolls (maneuver, crash, avoidance) take the core's options."""

from enum import StrEnum

from service.rules.four_c.combat.options import ArmorStacking, CombatOptions
from service.rules.model import Model, option

__all__ = ["CollisionOptions", "VehicleArmor", "VehicleOptions"]


class VehicleArmor(StrEnum):
    CURRENT = "current"
    STARTING = "starting"


#: Combat's armor stacking (A-21), read here for an occupant's own armor and the vehicle's.
_STACKING = CombatOptions.model_fields["armor_stacking"]


class VehicleOptions(Model):
    """Readings of the vehicle rules for attacks; every default is the catalogue's."""

    vehicle_armor: VehicleArmor = option(
        VehicleArmor.CURRENT,
        ambiguity="A-38",
        description="The Durability a vehicle's armor is (and, in a collision, the damage it "
        "deals): its current score, which 'is decreased as the vehicle takes damage' "
        "(C:L1440), or its starting score.",
    )
    armor_stacking: ArmorStacking = option(
        ArmorStacking.HIGHEST,
        ambiguity="A-21",
        description=_STACKING.description or "",
    )


class CollisionOptions(VehicleOptions):
    """Readings of the collision rules (A-40): what armor stops in a collision."""

    collision_vehicle_armor: bool = option(
        False,
        ambiguity="A-40",
        description="A vehicle's Durability also works as armor against collision damage: "
        "the text gives that armor 'from an attack' (C:L1438), and with it two vehicles of "
        "equal Durability would never harm each other.",
    )
    collision_character_armor: bool = option(
        True,
        ambiguity="A-40",
        description="A struck character's armor (worn or natural) stops its Rank Value of "
        "the vehicle's Durability, as a ram is an attack; off, the character takes it all.",
    )
    occupant_collision_armor: bool = option(
        False,
        ambiguity="A-40",
        description="The 10 points per sector moved that the occupants take (C:L1494) are "
        "stopped by their vehicle's Durability as armor; off, they take them all.",
    )
