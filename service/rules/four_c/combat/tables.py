"""The result tables of 4C combat, read from `tables.json` beside this module: for each action,
what each colour of its Master Table roll means (C:L1044-1292)."""

from collections.abc import Mapping
from enum import StrEnum

from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.registry import Table
from service.rules.tables import table

__all__ = ["MaterialRow", "MoveRow", "ResultRow", "Weapon", "WeaponRow", "results"]


class ResultRow(Model):
    """What one colour of an action's roll means."""

    colour: Colour
    result: str
    text: str


class MoveRow(Model):
    """Sectors a turn on the ground and climbing, by Coordination."""

    rv_min: int
    rv_max: int | None
    ground: int
    climb: int


class Weapon(StrEnum):
    BOW = "bow"
    CROSSBOW = "crossbow"
    PISTOL = "pistol"
    RIFLE = "rifle"
    SHOTGUN = "shotgun"
    THROWN = "thrown"
    POWER = "power"


class WeaponRow(Model):
    weapon: Weapon
    range: int
    damage: int


class ThrownRow(Model):
    item: str
    material_value: int


class MaterialRow(Model):
    mv_min: int
    mv_max: int | None
    substance: str


class MeaningRow(Model):
    result: str
    meaning: str
    source: str


def results(rows: Table[ResultRow]) -> Mapping[Colour, ResultRow]:
    return {row.colour: row for row in rows}


MELEE_BASHING = table(__name__, "melee-bashing", ResultRow)
MELEE_SLASHING = table(__name__, "melee-slashing", ResultRow)
RANGED = table(__name__, "ranged", ResultRow)
RUSH = table(__name__, "rush", ResultRow)
SEIZE = table(__name__, "wrestling-seize", ResultRow)
SLIP = table(__name__, "wrestling-slip", ResultRow)
STRUGGLE = table(__name__, "wrestling-struggle", ResultRow)
DODGE = table(__name__, "dodge", ResultRow)
EVADE = table(__name__, "evade", ResultRow)
CATCH = table(__name__, "catch", ResultRow)
POUND = table(__name__, "pound", ResultRow)
CONCUSS = table(__name__, "concuss", ResultRow)
DROWNING = table(__name__, "drowning", ResultRow)
EXHAUSTION = table(__name__, "exhaustion", ResultRow)
MULTI_TARGET = table(__name__, "multi-target", ResultRow)
MOVEMENT = table(__name__, "movement", MoveRow)
WEAPONS = table(__name__, "weapons", WeaponRow)
THROWN_OBJECTS = table(__name__, "thrown-objects", ThrownRow)
MATERIALS = table(__name__, "materials", MaterialRow, covers=("4c.material.lookup",))
RESULT_MEANINGS = table(__name__, "result-meanings", MeaningRow, covers=("4c.combat.result.misc",))
