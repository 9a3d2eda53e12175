"""The Weapons & Gear items' and potions' numbers, read from `tables.json` beside this module:
the Omphalos IX, the Shrouded Relay, the Voltaic-Concussion Fist and its power sources, potion
durations and the Dodging potion's dodge table (C:L1598-1706)."""

from collections.abc import Mapping
from enum import StrEnum

from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.registry import Table
from service.rules.tables import table

__all__ = [
    "DODGING",
    "DURATIONS",
    "FIST",
    "HEALING",
    "OMPHALOS",
    "RELAY",
    "SOURCES",
    "Grade",
    "Source",
    "dodging_rows",
    "source_row",
    "turns_of",
]


class RifleRow(Model):
    range_sectors: int
    damage: int
    accurate_bonus: int
    close_range_sectors: int
    magazine_rounds: int
    reload_turns: int
    rounds_per_lab_hour: int
    availability: str


class RelayRow(Model):
    telepathy_rv: int
    innate_telepathy_bonus: int
    owned_trait_increase_bonus: int
    mind_shield_rv: int
    tuning_minutes_per_relay: int
    scar_colour: Colour
    willpower_lost_per_scar: int
    availability: str


class FistRow(Model):
    generation_rv: int
    matching_control_bonus: int
    amplified_rv: int
    switch_turns: int
    availability: str


class Source(StrEnum):
    BACKPACK = "backpack"
    BELT = "belt"


class SourceRow(Model):
    source: Source
    uses: int
    recharge_d10s: int
    recharge_add: int


class Grade(StrEnum):
    LESSER = "lesser"
    STANDARD = "standard"
    GREATER = "greater"


class DurationRow(Model):
    grade: Grade
    turns: int


class DodgeRow(Model):
    colour: Colour
    result: str
    attacker_row_steps: int | None
    attacks_fail: bool
    text: str


class HealingRow(Model):
    damage_points: int
    capped_at_starting_damage: bool


OMPHALOS: Table[RifleRow] = table(__name__, "omphalos-ix", RifleRow)
RELAY: Table[RelayRow] = table(__name__, "shrouded-relay", RelayRow)
FIST: Table[FistRow] = table(__name__, "voltaic-fist", FistRow)
SOURCES: Table[SourceRow] = table(__name__, "fist-power-sources", SourceRow)
DURATIONS: Table[DurationRow] = table(__name__, "potion-durations", DurationRow)
DODGING: Table[DodgeRow] = table(__name__, "dodging-potion", DodgeRow)
HEALING: Table[HealingRow] = table(__name__, "healing-potion", HealingRow)


def source_row(source: Source) -> SourceRow:
    return next(row for row in SOURCES if row.source is source)


def turns_of(grade: Grade) -> int:
    """A set-duration potion's turns: lesser 2, standard 3, greater 4 (C:L1704)."""
    return next(row.turns for row in DURATIONS if row.grade is grade)


def dodging_rows() -> Mapping[Colour, DodgeRow]:
    return {row.colour: row for row in DODGING}
