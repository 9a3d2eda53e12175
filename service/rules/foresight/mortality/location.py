"""Hit location (F:L2697-2712): where an attack lands, rolled on D10 unless it was aimed at a
specific location, and what each location does to the damage and to a stunned character."""

from enum import StrEnum
from typing import Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.foresight.mortality.condition import Location
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "HIT_LOCATIONS",
    "LOCATION_TABLE",
    "Aim",
    "CalledGroup",
    "CalledShotOptions",
    "IfStunned",
    "LocationRow",
    "called",
    "location_distribution",
    "location_of",
    "roll_location",
]


class IfStunned(StrEnum):
    FALLS_UNCONSCIOUS = "falls_unconscious"
    DROPS_HELD = "drops_held"
    FALLS_PRONE = "falls_prone"
    NONE = "none"


class DoubledFor(StrEnum):
    TASKS_USING_THE_ARM = "tasks_using_the_arm"
    AGILITY_TASKS = "agility_tasks"
    NONE = "none"


class LocationRow(Model):
    """A row of the Hit Location table and its special effects, spelled out."""

    low: int
    high: int
    location: Location
    label: str
    vital: bool = Field(description="Head, chest, abdomen: the optional extra wound (F:L2712).")
    damage_bonus: int = Field(description="Added to positive damage: +1 to the head.")
    if_stunned: IfStunned
    doubles_wound_modifier: DoubledFor = Field(description="Once wounded (F:L2706, F:L2710).")
    pain_resistance: int = Field(description="On Pain Resistance rolls until fully recovered.")
    special: str = Field(description="The table's text.")


LOCATION_TABLE = table(
    __name__, "hit-location", LocationRow, covers=("foresight.hit_location.effects",)
)
HIT_LOCATIONS = {row.location: row for row in LOCATION_TABLE}


def location_of(d10: int) -> Location:
    """The location a D10 face hits: 10 head, 9 right arm, 8 left arm, 5-7 chest, 3-4 abdomen,
    2 right leg, 1 left leg (F:L2703-2711)."""
    return next(row.location for row in LOCATION_TABLE if row.low <= d10 <= row.high)


class Aim(StrEnum):
    """Where an attack was directed: a location, a group of them or nowhere in particular."""

    RANDOM = "random"
    TORSO = "torso"
    LEGS = "legs"
    HEAD = "head"
    RIGHT_ARM = "right_arm"
    LEFT_ARM = "left_arm"
    CHEST = "chest"
    ABDOMEN = "abdomen"
    RIGHT_LEG = "right_leg"
    LEFT_LEG = "left_leg"


#: A group aimed at is split as the D10 splits it: the torso is chest on 5-7 and abdomen on
#: 3-4 (so 3 in 5 chest), the legs one each (catalogue 2.4, #27).
_GROUPS = {
    Aim.TORSO: (5, (Location.CHEST,) * 3 + (Location.ABDOMEN,) * 2),
    Aim.LEGS: (2, (Location.RIGHT_LEG, Location.LEFT_LEG)),
}


class CalledGroup(StrEnum):
    PROPORTIONAL = "proportional"
    ATTACKER_CHOICE = "attacker_choice"


class CalledShotOptions(Model):
    called_group_resolution: CalledGroup = option(
        CalledGroup.PROPORTIONAL,
        ambiguity=None,
        description="A called shot at the torso or the legs, groups of locations (F:L3292-3295): "
        "split as the D10 splits them (3 in 5 chest, a leg each in 2), or the attacker names "
        "the location within the group (aim chest, abdomen, right_leg or left_leg).",
    )


def called(aim: Aim, options: CalledShotOptions, loc: tuple[str, ...] = ("aim",)) -> Aim:
    """The aim, if the options allow it: with attacker_choice a group names no location, so
    the attacker must name one of it (catalogue #27)."""
    if aim in _GROUPS and options.called_group_resolution is CalledGroup.ATTACKER_CHOICE:
        named = " or ".join(at.value for at in dict.fromkeys(_GROUPS[aim][1]))
        raise InputError(loc, f"called_group_resolution attacker_choice: name {named}")
    return aim


def roll_location(aim: Aim, dice: Dice) -> tuple[Location, int | None]:
    """The location hit and the die that chose it (None when aimed at one location): D10 for
    an attack not directed at a location (F:L2701), a D5 or D2 within an aimed-at group."""
    if aim is Aim.RANDOM:
        face = dice.roll(10, "hit location")
        return location_of(face), face
    if aim in _GROUPS:
        sides, faces = _GROUPS[aim]
        face = dice.roll(sides, f"hit location within the {aim.value}")
        return faces[face - 1], face
    return Location(aim.value), None


def location_distribution(aim: Aim) -> Distribution[Location]:
    if aim is Aim.RANDOM:
        return Distribution((location_of(face), 1) for face in range(1, 11))
    if aim in _GROUPS:
        return Distribution((at, 1) for at in _GROUPS[aim][1])
    return Distribution({Location(aim.value): 1})


class HitLocationInput(Model):
    aim: Aim = Field(
        default=Aim.RANDOM,
        description=(
            "'random' unless the attack was directed at a location and took its modifier "
            "(F:L2701); 'torso' and 'legs' are the called-shot groups."
        ),
    )
    options: CalledShotOptions = Field(default=CalledShotOptions())


class HitLocation(Model):
    location: Location
    roll: int | None = Field(description="The die that chose it; null for an aimed location.")
    effects: LocationRow


class HitLocationOdds(Model):
    location: list[OutcomeProbability]


def _odds(request: HitLocationInput) -> HitLocationOdds:
    found = location_distribution(called(request.aim, request.options))
    return HitLocationOdds(location=outcome_table(found.map(str), [at.value for at in Location]))


def _cost(request: Any) -> Estimate:
    return Estimate(30, ())


@operation(
    name="hit-location",
    kind=Kind.GENERATION,
    covers=("foresight.hit_location",),
    odds=_odds,
    cost=_cost,
    example={"dice": {"values": [10]}},
)
def hit_location(request: HitLocationInput, dice: Dice) -> HitLocation:
    """Where an attack strikes: D10, 10 head, 9 right arm, 8 left arm, 5-7 chest, 3-4 abdomen,
    2 right leg, 1 left leg, with the location's special effects (F:L2703-2712). A called shot
    at the torso or the legs (F:L3292-3295) is split as the D10 splits them, or, with
    called_group_resolution attacker_choice, lands where the attacker names (catalogue #27)."""
    location, face = roll_location(called(request.aim, request.options), dice)
    return HitLocation(location=location, roll=face, effects=HIT_LOCATIONS[location])
