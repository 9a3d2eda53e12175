"""The environment's tables, read from `tables.json` beside this module: the water a swimmer
is in (FI:L17-23) and the size of a fire (FI:L35)."""

from enum import StrEnum

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["FIRES", "WATERS", "Fire", "FireRow", "Water", "WaterRow"]


class Water(StrEnum):
    CALM = "calm"
    SWIFT_CREEK = "swift_creek"
    RAPID_RIVER = "rapid_river"
    ROUGH_OCEAN = "rough_ocean"
    STORMY_SEAS = "stormy_seas"


class WaterRow(Model):
    water: Water
    name: str
    tn: int


class Fire(StrEnum):
    SMALL = "small"
    LARGER = "larger"
    CONSUMED = "consumed"


class FireRow(Model):
    fire: Fire
    name: str
    damage: str
    applied_to: str


WATERS = table(__name__, "waters", WaterRow)
FIRES = table(__name__, "fires", FireRow)
