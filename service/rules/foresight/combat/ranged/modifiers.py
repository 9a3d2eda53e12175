"""The Ranged Attack Modifiers (F:L3263-3298) and the three the rules compute: range
(F:L3660, F:L3272-3273), recoil (F:L3644-3646, F:L3269) and aim (F:L3030, F:L3270-3271,
F:L3794). Each is a named term of the fire roll's modifier sum, so the chance shows them all.
"""

import math
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.combat.ranged.weapon import (
    MAX_RANGE_M,
    Multiplier,
    fraction,
    increment_of,
)
from service.rules.foresight.resolution.modifiers import Term
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "RANGED_MODIFIERS",
    "RANGED_MODIFIER_TABLE",
    "AimInput",
    "AimOptions",
    "RangedSituation",
    "RecoilInput",
    "SituationInput",
    "aim_terms",
    "range_terms",
    "recoil_penalty",
    "situation_terms",
]

#: Most shots counted since the last Aim or Recover, and aim actions before one shot.
MAX_SHOTS = 50
MAX_AIMS = 20


class RangedSituation(StrEnum):
    """A row of the Ranged Attack Modifiers the caller names (F:L3267-3298); the weapon's PM,
    recoil, aim, range and 'within 3 m' are computed from the request instead."""

    BRACED_OR_PRONE = "braced_or_prone"
    UNBALANCED = "unbalanced"
    POOR_LIGHT = "poor_light"
    DARK = "dark"
    HORSE_SIZED_TO_ENORMOUS = "horse_sized_to_enormous"
    REMARKABLY_LARGE = "remarkably_large"
    REMARKABLY_SMALL = "remarkably_small"
    DOG_SIZED_TO_TINY = "dog_sized_to_tiny"
    ONE_THIRD_COVER = "one_third_cover"
    TWO_THIRDS_COVER = "two_thirds_cover"
    ALMOST_PERFECT_COVER = "almost_perfect_cover"
    KNEELING = "kneeling"
    FLAT_ON_THE_GROUND = "flat_on_the_ground"
    COMPLETELY_STILL = "completely_still"
    MOVING_QUICKLY = "moving_quickly"
    MOVING_EVASIVELY = "moving_evasively"
    UNAWARE = "unaware"
    STUNNED = "stunned"
    OFF_HAND = "off_hand"
    LONGARM_ONE_HANDED = "longarm_one_handed"
    LEGS = "legs"
    HEAD = "head"
    TORSO = "torso"
    SPECIFIC_ARM = "specific_arm"
    GUN_FROM_FRONT = "gun_from_front"
    RIFLE_FROM_SIDE = "rifle_from_side"
    AREA_FIRE = "area_fire"


class RangedModifierRow(Model):
    situation: str
    printed: str
    low: int | None = Field(description="The modifier, or the low end of '-1 to -5'.")
    high: int | None
    group: str | None = Field(description="Rows of one group exclude each other.")
    computed_from: str | None = Field(description="The request fields the rule reads it from.")
    line: int


RANGED_MODIFIER_TABLE = table(__name__, "ranged-attack-modifiers", RangedModifierRow)
RANGED_MODIFIERS = {row.situation: row for row in RANGED_MODIFIER_TABLE}


class SituationInput(Model):
    situation: RangedSituation
    modifier: Annotated[int, Field(ge=-6, le=6)] | None = Field(
        default=None,
        description="For a ranged row ('-1 to -5'): the GM's value within it; null takes the "
        "row's mildest value.",
    )


def _value(given: SituationInput, loc: tuple[str | int, ...]) -> int:
    row = RANGED_MODIFIERS[given.situation.value]
    assert row.low is not None
    assert row.high is not None
    if given.modifier is None:
        return row.low if abs(row.low) < abs(row.high) else row.high
    if not row.low <= given.modifier <= row.high:
        raise InputError((*loc, "modifier"), f"{given.situation.value} is {row.low} to {row.high}")
    return given.modifier


def situation_terms(situations: Sequence[SituationInput], loc: tuple[str | int, ...]) -> list[Term]:
    """The named rows, each once and at most one of a group (one light, size, cover, stance,
    motion, called shot). Braced and prone together are still +1: one row (F:L3320)."""
    found: list[Term] = []
    groups: dict[str, str] = {}
    for at, given in enumerate(situations):
        row = RANGED_MODIFIERS[given.situation.value]
        if row.group is not None and row.group in groups:
            raise InputError(
                (*loc, at, "situation"),
                f"{given.situation.value} and {groups[row.group]} exclude each other",
            )
        if any(term.source == row.situation for term in found):
            raise InputError((*loc, at, "situation"), f"{row.situation} counts once")
        if row.group is not None:
            groups[row.group] = row.situation
        found.append(Term(source=row.situation, value=_value(given, (*loc, at))))
    return found


# --- range ------------------------------------------------------------------------------


def range_terms(distance: Fraction, increment: Fraction) -> list[Term]:
    """-1 for every full range increment (distance / increment rounded down, F:L3660,
    F:L3273), and +1 for a target within 3 m (F:L3272). Under one increment the penalty is
    the book's 0 (F:L3660); the table's +1 for a target within 3 m is a row of its own and
    adds to it, so a revolver (3 m) at 2 m nets +1 and at 3 m -1 + 1 = 0."""
    found = [Term(source="range", value=-math.floor(distance / increment))]
    if distance <= 3:
        found.append(Term(source="within_3m", value=1))
    return found


class RangePenaltyInput(Model):
    distance_m: float = Field(ge=0, le=10 * MAX_RANGE_M, description="Distance to the target.")
    range_m: float = Field(gt=0, le=MAX_RANGE_M, description="The weapon's range increment.")
    range_multipliers: Annotated[tuple[Multiplier, ...], Field(max_length=8)] = Field(
        default=(), description="Modification factors, multiplied in (heavy 1.1, target 1.25)."
    )


class RangePenalty(Model):
    increment_m: Exact = Field(description="The range increment after its factors.")
    full_increments: int
    range_modifier: int = Field(description="-1 per full increment (F:L3660).")
    within_3m_modifier: int = Field(description="+1 for a target within 3 m (F:L3272).")
    modifier: int = Field(description="The two together.")


@operation(
    name="ranged/range-penalty",
    kind=Kind.CALCULATION,
    covers=("foresight.ranged.range_penalty",),
    example={"distance_m": 240, "range_m": 50, "range_multipliers": [1.25, 1.1]},
)
def range_penalty(request: RangePenaltyInput) -> RangePenalty:
    """The range modifier: -1 for each full range increment to the target (distance over
    increment, rounded down), +1 if it is within 3 m (F:L3660, F:L3272-3273). A revolver (3 m)
    at 7 m is -2 (F:L3660); a heavy target cartridge laser rifle's 50 m x 1.25 x 1.1 = 68.75 m
    makes 240 m -3 (F:L3320)."""
    increment = increment_of(request.range_m, request.range_multipliers, ("range_m",))
    found = {t.source: t.value for t in range_terms(fraction(request.distance_m), increment)}
    return RangePenalty(
        increment_m=exact(increment),
        full_increments=-found["range"],
        range_modifier=found["range"],
        within_3m_modifier=found.get("within_3m", 0),
        modifier=sum(found.values()),
    )


# --- recoil -----------------------------------------------------------------------------


def recoil_penalty(recoil: int, shot: int) -> int:
    """The k-th shot in a row since the last Aim or Recover: -1 per recoil bullet per earlier
    shot, -r x (k - 1) (F:L3644, F:L3269)."""
    return -recoil * (shot - 1)


class RecoilInput(Model):
    recoil: int = Field(ge=0, le=10, description="The weapon's recoil bullets (•).")
    shots: int = Field(
        ge=1, le=MAX_SHOTS, description="Shots fired in a row since the last Aim or Recover."
    )


class Recoil(Model):
    penalties: list[int] = Field(description="Each shot's recoil modifier, the first 0.")
    modifier: int = Field(description="The last shot's.")


@operation(
    name="ranged/recoil",
    kind=Kind.CALCULATION,
    covers=("foresight.ranged.recoil",),
    example={"recoil": 2, "shots": 3},
)
def recoil(request: RecoilInput) -> Recoil:
    """Recoil: each shot after the first in a row, without aiming or recovering between,
    takes -1 per recoil bullet per earlier shot; a •• weapon fired three times is 0, -2, -4
    (F:L3644-3646). Aiming or recovering starts the count again."""
    found = [recoil_penalty(request.recoil, k) for k in range(1, request.shots + 1)]
    return Recoil(penalties=found, modifier=found[-1])


# --- aim --------------------------------------------------------------------------------


class AimOptions(Model):
    aim_cap: Annotated[int, Field(ge=5, le=6)] = option(
        5,
        ambiguity="AMB2-03",
        description=(
            "The largest aim bonus: +5 as the Aim action says (F:L3030), or +6 as the ranged "
            "modifiers table says (F:L3271). The just-hit +2 counts as two aims within it."
        ),
    )


class AimInput(Model):
    """The aiming behind one shot (F:L3030, F:L3270-3271, F:L3794)."""

    aims: int = Field(
        default=0, ge=0, le=MAX_AIMS, description="Aim actions just taken before this shot."
    )
    laser_sight_aim: bool = Field(
        default=False,
        description="The laser sight's free aim action of this round is used for this shot "
        "(F:L3794; lasers and projacs have one built in).",
    )
    just_hit: bool = Field(
        default=False,
        description="The previous shot hit this target and no Aim or Recover came between: "
        "+2, as two aims (F:L3270, F:L3646). Aims given in 'aims' forfeit it: they came "
        "between, so it then adds nothing.",
    )


def aim_terms(
    aim: AimInput, cap: int, one_handed_longarm: bool, loc: tuple[str | int, ...]
) -> list[Term]:
    """+1 per aim action just taken (a laser sight's free one among them), to the cap; or +2
    for just having hit the target, which any aim in between forfeits (F:L3646). A longarm
    fired one-handed cannot aim (F:L3291), so it has no just-hit bonus either: that "counts as
    two aim actions" (F:L3270)."""
    aims = aim.aims + aim.laser_sight_aim
    if aims and one_handed_longarm:
        raise InputError((*loc, "aims"), "a longarm used one-handed may not aim (F:L3291)")
    if aims:
        return [Term(source="aim", value=min(cap, aims))]
    if aim.just_hit and not one_handed_longarm:
        return [Term(source="just_hit", value=min(cap, 2))]
    return []


class AimBonusInput(AimInput):
    one_handed_longarm: bool = Field(default=False, description="It may not aim (F:L3291).")
    options: AimOptions = Field(default=AimOptions())


class AimBonus(Model):
    modifiers: list[Term]
    modifier: int


@operation(
    name="ranged/aim",
    kind=Kind.CALCULATION,
    covers=("foresight.ranged.aim",),
    example={"aims": 3},
)
def aim(request: AimBonusInput) -> AimBonus:
    """The aim bonus: +1 per aim action taken just before firing, at most +5 (F:L3030; +6 by
    the table, F:L3271, option 'aim_cap'); a laser sight gives one free aim action a round
    (F:L3794). Having just hit the target with the previous shot is +2, as two aims, but
    aiming again forfeits it: the sniper's second shot loses his +3 aim and gains +2
    (F:L3324). A longarm used one-handed may not aim (F:L3291)."""
    found = aim_terms(request, request.options.aim_cap, request.one_handed_longarm, ())
    return AimBonus(modifiers=found, modifier=sum(t.value for t in found))
