"""Shield cover (#109; the note under the Mêlée Weapons table, F:L3769): a small shield covers
the limb wielding it 7/10 and the chest and abdomen 3/10; a medium one 8/10 and 5/10; a large
one 8/10, 7/10 and the legs and head 4/10. Chest, abdomen, legs and head are covered from the
front and the shield side only; the limb's cover is read as from every side (the note's
parenthesis follows the chest and abdomen). The shields listed are reinforced wood, protecting
as chainmail (2A mêlée, 2 impact, 2 beam, F:L3902); covered in metal they cost 3x and protect
as plate (4A, 3, 3A, F:L3905). A shield is used off-hand at -1 only.

The cover is an armor layer for `damage/resolve`: it protects when a D10 is at most n (F:L3930).
"""

from enum import StrEnum

from pydantic import Field

from service.rules.foresight.mortality.condition import Location
from service.rules.foresight.mortality.hits import ArmorLayer
from service.rules.foresight.mortality.notation import DamageType
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["SHIELD_COVER", "SHIELD_PROTECTION", "ShieldCover", "ShieldInput", "shield_cover"]


class ShieldSize(StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"


class ShieldMaterial(StrEnum):
    WOOD = "wood"
    METAL = "metal"


class ShieldDirection(StrEnum):
    """Where the attack comes from, seen from the shield bearer."""

    FRONT = "front"
    SHIELD_SIDE = "shield_side"
    OTHER_SIDE = "other_side"
    REAR = "rear"


class ShieldArm(StrEnum):
    LEFT = "left"
    RIGHT = "right"


class ShieldCoverRow(Model):
    size: ShieldSize
    limb: int = Field(description="n/10 for the limb wielding it.")
    chest_abdomen: int = Field(description="n/10, from the front and the shield side.")
    legs_head: int = Field(description="n/10, from the front and the shield side.")
    line: int


class ShieldProtectionRow(Model):
    material: ShieldMaterial
    like: str = Field(description="The armor it protects as.")
    m: str
    i: str
    b: str
    cost_factor: int
    line: int


SHIELD_COVER = table(__name__, "shield-cover", ShieldCoverRow)
SHIELD_PROTECTION = table(__name__, "shield-protection", ShieldProtectionRow)
_COVER = {row.size: row for row in SHIELD_COVER}
_PROTECTION = {row.material: row for row in SHIELD_PROTECTION}
_FACING = (ShieldDirection.FRONT, ShieldDirection.SHIELD_SIDE)


class ShieldInput(Model):
    size: ShieldSize
    metal: bool = Field(default=False, description="Covered in metal: as plate, 3x cost.")
    arm: ShieldArm = Field(default=ShieldArm.LEFT, description="The arm bearing it.")
    direction: ShieldDirection = ShieldDirection.FRONT
    damage_type: DamageType = Field(
        default=DamageType.MELEE, description="The attack's type, for the rating: m, i or b."
    )
    location: Location | None = Field(default=None, description="The cover of one location.")


class ShieldCover(Model):
    cover: int | None = Field(description="n/10 at 'location'; 0 none; null: none asked.")
    layers: list[ArmorLayer] = Field(description="For damage/resolve 'armor', by cover.")
    rating: str = Field(description="Its protection against 'damage_type'.")
    protects_as: str
    cost_factor: int = Field(description="x3 covered in metal.")
    off_hand_modifier: int = Field(description="-1: a shield is used off-hand (F:L3769).")
    source: str


def _covers(request: ShieldInput) -> dict[Location, int]:
    row = _COVER[request.size]
    limb = Location.LEFT_ARM if request.arm is ShieldArm.LEFT else Location.RIGHT_ARM
    found = {limb: row.limb}
    if request.direction in _FACING:
        found |= {Location.CHEST: row.chest_abdomen, Location.ABDOMEN: row.chest_abdomen}
        for place in (Location.HEAD, Location.LEFT_LEG, Location.RIGHT_LEG):
            found[place] = row.legs_head
    return {place: cover for place, cover in found.items() if cover}


@operation(
    name="shield/cover",
    kind=Kind.LOOKUP,
    covers=("foresight.shield.cover",),
    example={"size": "medium", "direction": "front", "location": "chest"},
)
def shield_cover(request: ShieldInput) -> ShieldCover:
    """A shield's passive cover (F:L3769): small 7/10 for the wielding limb and 3/10 for chest
    and abdomen, medium 8/10 and 5/10, large 8/10, 7/10 and 4/10 for legs and head; the body's
    cover from the front and the shield side only. Wood protects as chainmail (2A m, 2 i, 2 b),
    metal-covered as plate (4A, 3, 3A) at 3x the cost. The layers go to damage/resolve."""
    protection = _PROTECTION[ShieldMaterial.METAL if request.metal else ShieldMaterial.WOOD]
    if request.damage_type is DamageType.NONE:
        raise InputError(("damage_type",), "a shield's rating is against m, i or b damage")
    rating = getattr(protection, request.damage_type.value)
    covers = _covers(request)
    name = f"{request.size.value} shield"
    layers = [
        ArmorLayer(name=name, rating=rating, coverage=cover,
                   locations=tuple(p for p in Location if covers.get(p) == cover))
        for cover in sorted(set(covers.values()), reverse=True)
    ]  # fmt: skip
    cover = None if request.location is None else covers.get(request.location, 0)
    return ShieldCover(cover=cover, layers=layers, rating=rating, protects_as=protection.like,
                       cost_factor=protection.cost_factor, off_hand_modifier=-1,
                       source=f"F:L3769, F:L{protection.line}")  # fmt: skip
