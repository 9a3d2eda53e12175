"""The vehicle tables of 4C, read from `tables.json` beside this module: the sample vehicles
(C:L1502-1511), the colour each maneuver needs on Handling (C:L1444-1454), where a crash lands
(C:L1456-1466) and whether a collision's target gets out of the way (C:L1476-1484)."""

from collections.abc import Mapping
from enum import StrEnum

from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.tables import table

__all__ = [
    "AVOIDANCE",
    "AVOID_BY_COLOUR",
    "CRASHES",
    "CRASH_BY_COLOUR",
    "DIFFICULTIES",
    "SAMPLES",
    "AvoidRow",
    "Avoidance",
    "CrashRow",
    "Difficulty",
    "Location",
    "Sample",
    "SampleVehicle",
]


class SampleVehicle(StrEnum):
    COMPACT_CAR = "compact_car"
    SPORTS_CAR = "sports_car"
    PRIVATE_JET = "private_jet"


class Sample(Model):
    """A sample vehicle's three Vehicle Traits (C:L1434-1470)."""

    sample: SampleVehicle
    vehicle: str
    durability: int
    handling: int
    velocity: int


class Difficulty(StrEnum):
    EASY = "easy"
    AVERAGE = "average"
    DIFFICULT = "difficult"
    RIDICULOUS = "ridiculous"


class DifficultyRow(Model):
    colour: Colour
    difficulty: Difficulty
    text: str


class Location(StrEnum):
    SAME_SECTOR = "same_sector"
    ADJACENT_SECTOR = "adjacent_sector"


class CrashRow(Model):
    colour: Colour
    location: Location
    text: str


class Avoidance(StrEnum):
    HIT = "hit"
    AVOIDED = "avoided"


class AvoidRow(Model):
    colour: Colour
    result: Avoidance
    text: str


SAMPLES = table(__name__, "sample-vehicles", Sample, covers=("4c.vehicle.samples",))
DIFFICULTIES = table(__name__, "maneuver-difficulties", DifficultyRow)
CRASHES = table(__name__, "crash-locations", CrashRow)
AVOIDANCE = table(__name__, "collision-avoidance", AvoidRow)

#: The rows of the two colour tables by colour.
CRASH_BY_COLOUR: Mapping[Colour, CrashRow] = {row.colour: row for row in CRASHES}
AVOID_BY_COLOUR: Mapping[Colour, AvoidRow] = {row.colour: row for row in AVOIDANCE}
