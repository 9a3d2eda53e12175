"""The grenade tables, read from `tables.json` beside this module: the seven grenades and the
sectors each reaches (C:L1542-1572), their damage (C:L1546-1550), what each colour of a
target's roll means (C:L1544-1572) and the Thrown Weapon Range table with its row labels
corrected (C:L1580-1596)."""

from collections.abc import Mapping
from enum import StrEnum

from pydantic import Field

from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.registry import Table
from service.rules.tables import table

__all__ = [
    "ANTI_ARCANE",
    "BLASTS",
    "GRENADES",
    "PARALYTIC",
    "SCREAM",
    "STENCH_GAS",
    "THROWN_WEAPON_RANGE",
    "Grenade",
    "GrenadeEffectRow",
    "GrenadeLasting",
    "by_colour",
    "grenade",
]


class Grenade(StrEnum):
    ANTI_ARCANE = "anti_arcane"
    FRAG = "frag"
    INCENDIARY = "incendiary"
    LIGHTNING = "lightning"
    PARALYTIC = "paralytic"
    SCREAM = "scream"
    STENCH_GAS = "stench_gas"


class GrenadeInfo(Model):
    grenade: Grenade
    name: str
    availability: str
    reach_sectors: int = Field(description="0: the detonation sector only; 1: and adjacent.")
    area: str
    source: str


class GrenadeBlastRow(Model):
    grenade: Grenade
    sector_damage: int
    adjacent_damage: int
    body_armor_change: int = Field(description="Added to the target's Body Armor against it.")
    armor_fails_unless: str | None = Field(
        description="Body Armor does not work against it unless so designed."
    )
    counts_as: str | None


class GrenadeLasting(StrEnum):
    """How long a colour's effect lasts, as the text says it."""

    NONE = "none"
    ONE_TURN = "one_turn"
    FIVE_TURNS = "five_turns"
    HALF_D10 = "half_d10"
    NEXT_TURNS = "next_turns"


class GrenadeEffectRow(Model):
    """What one colour of a target's roll against a grenade means."""

    colour: Colour
    result: str
    lasting: GrenadeLasting
    d100_penalty: int = Field(description="A penalty on the target's d% rolls next round.")
    text: str


class ThrownWeaponRangeRow(Model):
    rv_min: int
    rv_max: int | None
    label: str = Field(description="The Rank Values of the row, as corrected.")
    printed: str = Field(description="The label as the seed prints it.")
    sectors: int = Field(description="0: the thrower's own sector only.")


def by_colour(rows: Table[GrenadeEffectRow]) -> Mapping[Colour, GrenadeEffectRow]:
    return {row.colour: row for row in rows}


GRENADES = table(__name__, "grenades", GrenadeInfo)
BLASTS = table(__name__, "grenade-blasts", GrenadeBlastRow)
ANTI_ARCANE = table(__name__, "grenade-anti-arcane", GrenadeEffectRow)
PARALYTIC = table(__name__, "grenade-paralytic", GrenadeEffectRow)
SCREAM = table(__name__, "grenade-scream", GrenadeEffectRow)
STENCH_GAS = table(__name__, "grenade-stench-gas", GrenadeEffectRow)
THROWN_WEAPON_RANGE = table(__name__, "thrown-weapon-range", ThrownWeaponRangeRow)


def grenade(which: Grenade) -> GrenadeInfo:
    return next(row for row in GRENADES if row.grenade is which)
