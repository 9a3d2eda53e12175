"""A ranged weapon as the caller sends it: one row of the Firearms and other Ranged Weapons
table (F:L3666-3708) with its modifications applied (F:L3779-3794), as the catalogue
(weapons.ranged) supplies it. Only the burst's raised DC is left to the rules, since it
depends on what the burst is fired at (note ++, F:L3794)."""

import re
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.foresight.equipment.failure import FailureCode
from service.rules.model import InputError, Model
from service.rules.tables import table

__all__ = [
    "AUTO_BURSTS",
    "AUTO_BURST_TABLE",
    "AutoBurst",
    "AutoBurstRow",
    "RangedColumns",
    "RangedWeapon",
    "RangedWeaponUse",
    "Rof",
    "fraction",
    "range_increment",
    "rof",
]

#: Longest range increment a weapon may have, in metres (the table's longest is 100 m).
MAX_RANGE_M = 100_000


class RangedWeaponUse(StrEnum):
    """The skill a weapon is fired with (F:L3626)."""

    HANDGUNS = "H"
    LONGARMS = "L"
    HEAVY_WEAPON = "HW"
    ARCHERY = "A"
    SLINGS = "S"
    THROW = "T"


class AutoBurst(StrEnum):
    LONG = "long"
    SHORT = "short"


class AutoBurstRow(Model):
    burst: AutoBurst
    modification: str
    rounds: int = Field(description="Rounds a burst fires: the ROF [6] or [3].")
    dc_bonus: int = Field(description="Added to the DC of a burst at a single target (++).")
    recoil: int = Field(description="Recoil bullets the modification adds (+••, +•).")
    range_factor: str
    jam_steps: int = Field(description="Failure-range letter steps (- is worse, F:L3589).")
    cost_factor: str
    tl: str
    line: int


AUTO_BURST_TABLE = table(__name__, "auto-bursts", AutoBurstRow)
AUTO_BURSTS = {row.burst: row for row in AUTO_BURST_TABLE}

#: A bracketed ROF or a plain one, as the table writes it: "1", "[1]", "2", "[6]".
RofNotation = Annotated[
    str, Field(pattern=r"^(\d{1,2}|\[\d{1,2}\])$", max_length=4, examples=["1", "[1]", "2", "[6]"])
]
#: Ammo as written: rounds ("6"), the weapon itself ("1*"), or watt-hours ("10Wh").
AmmoNotation = Annotated[
    str,
    Field(
        pattern=r"^(\d{1,4}\*?|\d{1,4}(\.\d{1,2})?Wh)$",
        max_length=10,
        examples=["1", "1*", "6", "100", "10Wh", "30Wh"],
    ),
]
#: Reload actions: "3", one round per action "6*", or none "-".
ReloadNotation = Annotated[
    str, Field(pattern=r"^(\d{1,2}\*?|-)$", max_length=3, examples=["-", "3", "6*", "15"])
]
#: A single shot's damage class, as the weapon tables write it (F:L3630-3634).
DamageNotation = Annotated[
    str, Field(min_length=1, max_length=24, examples=["6i", "10i2p", "9b", "5is", "2x16b", "+1m"])
]
Multiplier = Annotated[float, Field(gt=0, le=10)]


class RangedColumns(Model):
    """The columns of a ranged weapon's row every way of giving it shares (F:L3666-3708)."""

    name: str = Field(default="", max_length=80, description="e.g. 'SL Rifle'.")
    pm: int = Field(default=0, ge=-10, le=10, description="Performance modifier (F:L3266).")
    range_multipliers: Annotated[tuple[Multiplier, ...], Field(max_length=8)] = Field(
        default=(),
        description="Modification factors on the range increment, multiplied in: heavy 1.1, "
        "target 1.25 (F:L3788, F:L3792, X27h F:L3320).",
    )
    recoil: int = Field(
        default=0, ge=0, le=10, description="Recoil bullets (•) after modifications (F:L3644)."
    )
    jam: FailureCode = Field(default="A", description="The Jam column (F:L3664).")
    rof: RofNotation = Field(
        default="1", description="'[1]': a prepare and a fire action per shot (F:L3658)."
    )
    auto: AutoBurst | None = Field(
        default=None,
        description="The auto burst modification fitted: 'long' ROF [6], +3 DC, 'short' ROF "
        "[3], +2 DC (F:L3782-3783). Its DC bonus is for a burst at a single target only.",
    )
    ammo: AmmoNotation = Field(default="1", description="'1*': the weapon is the ammunition.")
    rl: ReloadNotation = Field(default="-", description="Reload actions; '6*': one per round.")
    draw: int = Field(default=1, ge=0, le=20, description="Draw actions (F:L3640).")
    dc: DamageNotation | None = Field(
        default=None, description="The damage class of a single shot, e.g. '10i2p' (F:L3630)."
    )


class RangedWeapon(RangedColumns):
    """A ranged weapon's row, modifications applied (F:L3666-3708, F:L3779-3794); a
    catalogue row (weapon/ranged/catalog, weapon/ranged/modify) is one."""

    use: RangedWeaponUse = Field(description="The skill: H, L, HW, A, S or T (F:L3626).")
    range_m: float = Field(gt=0, le=MAX_RANGE_M, description="The range increment (F:L3660).")


def fraction(value: float) -> Fraction:
    """A JSON decimal as the exact number it was written as (1.1 is 11/10)."""
    return Fraction(repr(value))


#: The shortest range increment a rule takes: past it a distance's full increments leave the
#: 32-bit integers a modifier is published as.
MIN_INCREMENT_M = Fraction(1, 100)


def increment_of(
    range_m: float, multipliers: Sequence[float], loc: tuple[str | int, ...]
) -> Fraction:
    """A range increment with its modification factors: 50 x 1.25 x 1.1 = 68.75 m (X27h,
    F:L3320); at least a centimetre."""
    found = fraction(range_m)
    for factor in multipliers:
        found *= fraction(factor)
    if found < MIN_INCREMENT_M:
        raise InputError(loc, f"a range increment of {float(found):g} m: at least 0.01 m")
    return found


def range_increment(weapon: RangedWeapon) -> Fraction:
    """The weapon's range increment with its modification factors."""
    return increment_of(weapon.range_m, weapon.range_multipliers, ("weapon", "range_m"))


class Rof(Model):
    rounds: int = Field(description="Shots per fire action, or rounds per burst when bracketed.")
    bracketed: bool


def rof(weapon: RangedWeapon, loc: tuple[str | int, ...] = ("weapon", "rof")) -> Rof:
    found = re.fullmatch(r"\[?(\d+)\]?", weapon.rof)
    assert found is not None
    rounds = int(found.group(1))
    if rounds == 0:
        raise InputError(loc, "a rate of fire is at least 1")
    return Rof(rounds=rounds, bracketed=weapon.rof.startswith("["))
