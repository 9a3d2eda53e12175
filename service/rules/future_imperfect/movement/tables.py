"""The movement tables, read from `tables.json` beside this module: the Movement Table
(FI:L91-97), the load classes (FI:L118-121) and what each species changes (FI:L102-104,
FI:L123)."""

from enum import StrEnum

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["LOADS", "MOVEMENT", "SPECIES", "Load", "MoveType", "Species", "species_row"]


class MoveType(StrEnum):
    FOOT = "foot"
    CLIMBING = "climbing"
    SWIMMING = "swimming"
    RIDING = "riding"
    DRIVING = "driving"
    FLYING = "flying"


class MovementRow(Model):
    move_type: MoveType
    rate: str
    step_up: int | None
    fatigue: int | None
    max: int | None


class Load(StrEnum):
    NONE = "none"
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


class LoadRow(Model):
    load: Load
    multiplier: int
    rate: str


class Species(StrEnum):
    HUMAN = "human"
    URSOID = "ursoid"
    SAURIAN = "saurian"
    TRANSHUMAN = "transhuman"
    AVATAR = "avatar"
    AVIAN = "avian"
    IRSOL = "irsol"
    MEKPURR = "mekpurr"
    CANINE = "canine"
    OTHER = "other"


class SpeciesRow(Model):
    species: Species
    load: int
    foot_step_up: int
    fatigue_free: bool


MOVEMENT = table(__name__, "movement", MovementRow)
LOADS = table(__name__, "loads", LoadRow)
SPECIES = table(__name__, "species", SpeciesRow)


def species_row(species: Species) -> SpeciesRow:
    return next(row for row in SPECIES if row.species is species)
