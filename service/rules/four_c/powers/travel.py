"""Powers that move a character (C:L812-862, C:L894-898, C:L912-925): Superleap and
Superspeed on the movement-speed table, Superspeed's unusual maneuvers, Teleportation and
its bounces, Wall-Crawling and Water Native (catalogue 3.6)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.core.dice import ndx_distribution, roll_ndx, span
from service.rules.four_c.core.master_table import colour_distribution, table_cost
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    SPEED,
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerOptions,
    PowerRoll,
    banded,
    greater_of,
    power_cost,
    power_master,
    power_odds,
    roll_power,
    tenth,
    threshold,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = [
    "Distance",
    "TeleportDistance",
    "TravelOptions",
    "speed_of",
    "super_leap",
    "superspeed",
    "teleportation",
    "wall_crawling",
    "water_native",
    "within",
]

Distance = Annotated[int, Field(ge=0, le=100_000)]


def within(sectors: int, limit: int, field: str) -> None:
    """Refuse a distance past a power's reach, naming the field."""
    if sectors > limit:
        raise InputError((field,), f"{sectors} sectors is beyond the power's {limit}")


class TeleportDistance(StrEnum):
    RANK_VALUE = "rank_value"
    TENTH = "tenth"


class TravelOptions(PowerOptions):
    """The powers' readings, and those of travel; every default is the catalogue's."""

    teleport_distance: TeleportDistance = option(
        TeleportDistance.RANK_VALUE,
        ambiguity="A-53",
        description="A teleport reaches as many sectors as the Rank Value, as the text says "
        "(C:L896), or a tenth of it rounded up, as other powers' ranges are.",
    )


class TravelInput(Model):
    rv: RankValue = Field(description="The power's Rank Value.")


class TravelSpeed(Model):
    sectors: int | None = Field(
        description="Sectors a turn; null in the 1000 band, which circles the world."
    )
    circles_the_world: bool


def speed_of(rv: int) -> TravelSpeed:
    """The movement-speed table (C:L816-830, C:L844-858, the same as Flight's); a power at
    Rank Value 0 moves nowhere (catalogue 3.0)."""
    row = banded(rv, SPEED)
    if row is None:
        return TravelSpeed(sectors=0, circles_the_world=False)
    return TravelSpeed(sectors=row.sectors, circles_the_world=row.sectors is None)


@operation(
    name="power/super-leap",
    kind=Kind.LOOKUP,
    covers=("4c.power.super_leap",),
    example={"rv": 30},
)
def super_leap(request: TravelInput) -> TravelSpeed:
    """Leap up to the table's sectors each turn: 1 at 01-02, 2 at 03-05, ... 10 at 100-149,
    15 at 150-999, and at 1000 circle the world in one turn (C:L812-832)."""
    return speed_of(request.rv)


class SuperspeedInput(PowerRoll):
    rv: RankValue = Field(description="Superspeed's Rank Value.")
    coordination: RankValue
    maneuver: bool = Field(
        default=False,
        description="Attempt an unusual maneuver (running across water or up walls) now.",
    )


class Superspeed(TravelSpeed):
    speed_rv: int = Field(description="The greater of the power and Coordination +10.")
    maneuver: PowerCheck | None = Field(description="The maneuver roll, when one is made.")


MANEUVER = threshold(
    Colour.RED,
    Outcome(result="failed", text="The maneuver fails.", success=False),
    Outcome(result="done", text="The maneuver succeeds.", success=True),
)


class SuperspeedOdds(Model):
    maneuver: PowerCheckOdds | None = Field(description="The maneuver roll, when one is made.")


def superspeed_odds(request: SuperspeedInput) -> SuperspeedOdds:
    if not request.maneuver:
        return SuperspeedOdds(maneuver=None)
    speed_rv = greater_of(request.rv, request.coordination)
    return SuperspeedOdds(maneuver=power_odds(request, speed_rv, MANEUVER))


@operation(
    name="power/superspeed",
    kind=Kind.CHECK,
    covers=("4c.power.superspeed",),
    odds=superspeed_odds,
    cost=power_cost,
    example={"rv": 10, "coordination": 30, "maneuver": True, "dice": {"values": [2, 7]}},
)
def superspeed(request: SuperspeedInput, dice: Dice) -> Superspeed:
    """Run the movement-speed table's sectors for the greater of the power and Coordination
    +10 (C:L840-860); an unusual maneuver rolls that Rank Value and fails on black (C:L862).
    Superspeed 10 with Coordination 30 runs at 40: 7 sectors (catalogue T24)."""
    speed_rv = greater_of(request.rv, request.coordination)
    maneuver = roll_power(request, speed_rv, MANEUVER, dice) if request.maneuver else None
    return Superspeed(**dict(speed_of(speed_rv)), speed_rv=speed_rv, maneuver=maneuver)


# Teleportation (C:L894-898)

TELEPORT = threshold(
    Colour.RED,
    Outcome(
        result="dazed",
        text="Arrives dazed and spends the next turn recovering (no actions).",
        success=False,
    ),
    Outcome(result="arrived", text="Arrives.", success=True),
)
BOUNCE = threshold(
    Colour.RED,
    Outcome(
        result="long_daze",
        text="Bounced back to the starting sector, dazed for 1-10 turns (no actions).",
        success=False,
    ),
    Outcome(
        result="short_daze",
        text="Bounced back to the starting sector, dazed one turn.",
        success=True,
    ),
)


class TeleportInput(PowerRoll):
    rv: RankValue = Field(description="Teleportation's Rank Value.")
    fortitude: RankValue = Field(default=0, description="Rolled when a blind jump hits a solid.")
    sectors: Distance = Field(description="How far this teleport goes.")
    into_solid: bool = Field(
        default=False,
        description="The destination was unfamiliar or unseen and is a solid object, the "
        "ground included (the GM says so).",
    )
    options: TravelOptions = Field(default=TravelOptions())


class Teleport(Model):
    limit_sectors: int = Field(description="The farthest one teleport goes (A-53).")
    check: PowerCheck = Field(description="The teleport roll, on the power.")
    bounce: PowerCheck | None = Field(description="The Fortitude roll of a jump into a solid.")
    daze_dice: list[int] = Field(description="The 1-10 turns of a long daze (A-25, A-26).")
    arrived: bool
    dazed_turns: int = Field(description="Turns the character takes no actions.")


def _limit(request: TeleportInput) -> int:
    if request.options.teleport_distance is TeleportDistance.TENTH:
        return tenth(request.rv)
    return request.rv


def _fortitude(request: TeleportInput) -> PowerRoll:
    """The bounce is a plain Fortitude roll: the power's Row Steps are the teleport's."""
    return PowerRoll(options=request.options, master_table=request.master_table,
                     custom_master_table=request.custom_master_table)  # fmt: skip


class TeleportOdds(Model):
    arrived: list[OutcomeProbability]
    dazed_turns: list[OutcomeProbability]
    check: PowerCheckOdds
    bounce: PowerCheckOdds | None = Field(description="The Fortitude roll, for a solid.")


def teleportation_odds(request: TeleportInput) -> TeleportOdds:
    within(request.sectors, _limit(request), "sectors")
    if not request.into_solid:
        colours = colour_distribution(power_master(request, request.rv))
        dazed = colours.map(lambda c: 0 if TELEPORT[c].success else 1)
        arrived = Distribution({True: 1})
        bounce = None
    else:
        fortitude = _fortitude(request)
        colours = colour_distribution(power_master(fortitude, request.fortitude))
        long = ndx_distribution(span(1, request.options))
        dazed = colours.then(lambda c: Distribution({1: 1}) if BOUNCE[c].success else long)
        arrived = Distribution({False: 1})
        bounce = power_odds(fortitude, request.fortitude, BOUNCE)
    return TeleportOdds(arrived=outcome_table(arrived), dazed_turns=outcome_table(dazed),
                        check=power_odds(request, request.rv, TELEPORT),
                        bounce=bounce)  # fmt: skip


def teleportation_cost(request: object) -> Estimate:
    """The teleport roll and the Fortitude roll, each read twice (`table_cost`), and a 1d10
    after every colour: the same for every request."""
    return Estimate(5 * table_cost(request).states + 200, ())


@operation(
    name="power/teleportation",
    kind=Kind.CHECK,
    covers=("4c.power.teleportation",),
    odds=teleportation_odds,
    cost=teleportation_cost,
    example={"rv": 20, "fortitude": 10, "sectors": 12, "into_solid": True,
             "dice": {"values": [4, 4, 10, 3, 7]}},
)  # fmt: skip
def teleportation(request: TeleportInput, dice: Dice) -> Teleport:
    """Teleport up to the Rank Value in sectors (C:L896, A-53), rolling the power: black
    arrives dazed and loses the next turn. A jump to an unfamiliar or unseen destination
    that is solid rolls Fortitude: black bounces back dazed 1-10 turns, any other colour
    bounces back dazed one turn (C:L898). The bounce replaces the arrival: the teleport roll
    is still made, but its black (a daze at the destination) never lands."""
    limit = _limit(request)
    within(request.sectors, limit, "sectors")
    check = roll_power(request, request.rv, TELEPORT, dice, "teleport d%")
    if not request.into_solid:
        return Teleport(limit_sectors=limit, check=check, bounce=None, daze_dice=[],
                        arrived=True, dazed_turns=0 if check.success else 1)  # fmt: skip
    bounce = roll_power(_fortitude(request), request.fortitude, BOUNCE, dice, "Fortitude d%")
    faces: list[int] = []
    if not bounce.success:
        faces = list(roll_ndx(span(1, request.options), dice, "dazed turns").faces)
    return Teleport(limit_sectors=limit, check=check, bounce=bounce, daze_dice=faces,
                    arrived=False, dazed_turns=sum(faces) if faces else 1)  # fmt: skip


# Wall-Crawling (C:L914) and Water Native (C:L916-925)


class WallCrawlingInput(Model):
    slippery: bool = Field(default=False, description="The surface is slippery.")
    gm_row_steps: Annotated[int, Field(ge=-20, le=0)] = Field(
        default=0,
        description="The GM's Row Step penalty for a slippery surface: the text names none.",
    )


class WallCrawling(Model):
    moves_normally: bool = Field(description="Walls and ceilings are crossed as the ground.")
    row_steps: int = Field(description="Row Steps on moving across this surface.")


@operation(
    name="power/wall-crawling",
    kind=Kind.LOOKUP,
    covers=("4c.power.wall_crawling",),
    example={"slippery": True, "gm_row_steps": -2},
)
def wall_crawling(request: WallCrawlingInput) -> WallCrawling:
    """Move normally across walls and ceilings, by a device or innately; the GM inflicts a
    Row Step penalty on a slippery surface, its size the GM's (C:L912-914)."""
    if request.gm_row_steps and not request.slippery:
        raise InputError(("gm_row_steps",), "only a slippery surface takes a penalty (C:L914)")
    return WallCrawling(moves_normally=True, row_steps=request.gm_row_steps)


class WaterNative(Model):
    breathes_water: bool
    sectors: int = Field(description="Sectors swum in one turn.")


#: Swimming sectors a turn: 01-02 one, 03-29 two, 30+ three (C:L920-925).
SWIM = ((1, 1), (3, 2), (30, 3))


@operation(
    name="power/water-native",
    kind=Kind.LOOKUP,
    covers=("4c.power.water_native",),
    example={"rv": 20},
)
def water_native(request: TravelInput) -> WaterNative:
    """Breathe under water and on land; swim 1 sector a turn at 01-02, 2 at 03-29 and 3 from
    30 (C:L916-925); at Rank Value 0 the power does nothing (catalogue 3.0)."""
    sectors = max((n for low, n in SWIM if request.rv >= low), default=0)
    return WaterNative(breathes_water=request.rv > 0, sectors=sectors)
