"""The combat tables, read from `tables.json` beside this module: the situation modifiers
(FI:L265-270), called shots (FI:L321-325), two weapons and long arms in one hand (FI:L351,
FI:L355, FI:L393), reloading (FI:L361-363) and melee weapon speed (FI:L391-393)."""

from enum import StrEnum

from service.rules.model import Model
from service.rules.tables import table

__all__ = [
    "CALLED_SHOTS",
    "HANDS",
    "RELOADS",
    "SITUATIONS",
    "WEAPON_SPEEDS",
    "CalledPart",
    "Reload",
    "called_row",
    "hand_modifier",
    "situation",
]


class CalledPart(StrEnum):
    TORSO = "torso"
    LEG = "leg"
    ARM = "arm"
    HEAD = "head"
    HAND = "hand"
    FOOT = "foot"
    EYEBALL = "eyeball"
    HEART = "heart"


class Reload(StrEnum):
    SINGLE_ROUND = "single_round"
    MAGAZINE = "magazine"
    HEAVY = "heavy"
    BLACK_POWDER = "black_powder"
    SPEED_LOAD = "speed_load"


class SituationRow(Model):
    situation: str
    modifier: int | None


class CalledRow(Model):
    part: CalledPart
    penalty: int
    location: str


class HandRow(Model):
    case: str
    modifier: int


class ReloadRow(Model):
    reload: Reload
    actions: int | None
    per_round: bool
    at_least: bool


class SpeedRow(Model):
    speed: int
    ready_actions: int


SITUATIONS = table(__name__, "situation_modifiers", SituationRow)
CALLED_SHOTS = table(__name__, "called_shots", CalledRow)
HANDS = table(__name__, "hands", HandRow)
RELOADS = table(__name__, "reloads", ReloadRow)
WEAPON_SPEEDS = table(__name__, "weapon_speeds", SpeedRow)


def called_row(part: CalledPart) -> CalledRow:
    return next(row for row in CALLED_SHOTS if row.part is part)


def situation(name: str) -> int:
    found = next(row.modifier for row in SITUATIONS if row.situation == name)
    assert found is not None
    return found


def hand_modifier(case: str) -> int:
    return next(row.modifier for row in HANDS if row.case == case)
