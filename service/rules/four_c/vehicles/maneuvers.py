"""Maneuvers and crashes (C:L1442-1466): Handling rolled on the Master Table against the
colour the maneuver needs, and, when it fails, the operator's Coordination rolled for where
the vehicle crashes. A crash is then a collision (collisions.py)."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    NOT_ROLLED,
    Distribution,
    Exact,
    OutcomeProbability,
    exact,
    outcome_table,
)
from service.rules.four_c.core.dice import DiceMode
from service.rules.four_c.core.master_table import (
    COLOURS,
    ColourChance,
    MasterInput,
    Resolved,
    colour_distribution,
    master_cost,
    resolve_roll,
    table_cost,
)
from service.rules.four_c.core.options import CoreOptions
from service.rules.four_c.core.ranks import MAX_RV, Laddered, RankValue, RowSteps
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.vehicles.tables import CRASH_BY_COLOUR, Location
from service.rules.four_c.vehicles.vehicles import Vehicle, needed, traits
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["VehicleRoll", "vehicle_master"]

#: What a crash hits when there is nothing but ground in the sector: Material Value 50
#: (C:L1466).
GROUND_MATERIAL_VALUE = 50


class VehicleRoll(Laddered):
    """How a vehicle rule's Master Table roll is made: everything but its Rank Value, which
    the operation takes from the vehicle or the character."""

    row_steps: RowSteps = Field(
        default=(),
        description="Row Steps from every source: the operator's Drive or Pilot skill is +1 "
        "(C:L326).",
    )
    roll_modifier: Annotated[int, Field(ge=-99, le=99)] = Field(
        default=0, description="Added to the d% roll, which stays within 00-99."
    )
    mode: DiceMode = Field(default=DiceMode.NORMAL, description="How the d% is rolled.")
    options: CoreOptions = Field(default=CoreOptions())


def vehicle_master(request: VehicleRoll, rv: int) -> MasterInput:
    """The Master Table roll at Rank Value `rv`."""
    return MasterInput(
        rv=min(max(rv, 0), MAX_RV),
        row_steps=request.row_steps,
        roll_modifier=request.roll_modifier,
        mode=request.mode,
        options=request.options,
        master_table=request.master_table,
        custom_master_table=request.custom_master_table,
    )


class Crashed(Resolved):
    """Where a crashing vehicle lands: the operator's Coordination roll read on C:L1458-1464."""

    location: Location
    text: str


def _plain(request: VehicleRoll) -> VehicleRoll:
    """The operator's crash roll after a maneuver: the maneuver's Master Table and options,
    none of its Row Steps or modifiers, which were the vehicle's (vehicle/crash takes them)."""
    return VehicleRoll(options=request.options, master_table=request.master_table,
                       custom_master_table=request.custom_master_table)  # fmt: skip


def roll_crash(request: VehicleRoll, coordination: int, dice: Dice) -> Crashed:
    resolved = resolve_roll(vehicle_master(request, coordination), dice, "crash d%")
    row = CRASH_BY_COLOUR[resolved.colour]
    return Crashed(**dict(resolved), location=row.location, text=row.text)


def locations(request: VehicleRoll, coordination: int) -> Distribution[Location]:
    colours = colour_distribution(vehicle_master(request, coordination))
    return colours.map(lambda c: CRASH_BY_COLOUR[c].location)


class CrashInput(VehicleRoll):
    rv: RankValue = Field(description="The operator's Coordination Rank Value.")


class CrashOdds(Model):
    location: list[OutcomeProbability]
    colour: list[OutcomeProbability]
    master_table: str


def crash_odds(request: CrashInput) -> CrashOdds:
    """Every colour of the Coordination roll and where each lands the vehicle (catalogue
    5.1)."""
    colours = colour_distribution(vehicle_master(request, request.rv))
    found = colours.map(lambda c: CRASH_BY_COLOUR[c].location.value)
    return CrashOdds(location=outcome_table(found, [loc.value for loc in Location]),
                     colour=outcome_table(colours.map(lambda c: c.value), COLOURS),
                     master_table=request.table_name)  # fmt: skip


@operation(
    name="vehicle/crash",
    kind=Kind.CHECK,
    covers=("4c.vehicle.crash",),
    odds=crash_odds,
    cost=table_cost,
    example={"rv": 20, "dice": {"values": [3, 5]}},
)
def crash(request: CrashInput, dice: Dice) -> Crashed:
    """A crashing vehicle's operator rolls Coordination: on black it hits something in the
    sector of the maneuver, on red, blue or yellow in an adjacent one; a character or vehicle
    it hits may get out of the way (vehicle/collision/avoid), and with nothing but ground it
    hits the ground, Material Value 50 (C:L1456-1466)."""
    return roll_crash(request, request.rv, dice)


class ManeuverOutcome(StrEnum):
    SUCCESS = "success"
    CRASH = "crash"
    CRASH_SAME_SECTOR = "crash_same_sector"
    CRASH_ADJACENT_SECTOR = "crash_adjacent_sector"


#: A failed maneuver whose crash was rolled, by where it landed.
_CRASH_AT = {
    Location.SAME_SECTOR: ManeuverOutcome.CRASH_SAME_SECTOR,
    Location.ADJACENT_SECTOR: ManeuverOutcome.CRASH_ADJACENT_SECTOR,
}
#: How the odds write the colour of an easy maneuver, which is not rolled.


class ManeuverInput(VehicleRoll):
    vehicle: Vehicle = Field(description="The vehicle: its Handling is rolled.")
    required: Colour = Field(
        default=Colour.RED,
        description="The colour the maneuver needs: black easy (standard turns), red average "
        "(sharp turns), blue difficult (a broken bridge), yellow ridiculous (two wheels "
        "through a narrow alley) (C:L1446-1452).",
    )
    operator_coordination: RankValue | None = Field(
        default=None,
        description="The operator's Coordination: given, a failed maneuver's crash is rolled "
        "too (C:L1456), with no Row Steps (vehicle/crash takes them).",
    )


class Maneuvered(Model):
    handling: int
    required: Colour
    colour: Colour | None = Field(description="Null: an easy maneuver needs no roll.")
    roll: Resolved | None = Field(description="The Handling roll, when one was made.")
    success: bool
    outcome: ManeuverOutcome = Field(
        description="success, or crash; with the operator's Coordination given, where."
    )
    crash: Crashed | None = Field(description="The crash roll, when the maneuver failed.")


def _handling(request: ManeuverInput) -> int:
    return needed(traits(request.vehicle), "handling")


class ManeuverOdds(Model):
    success: Exact
    outcome: list[OutcomeProbability]
    colour: list[OutcomeProbability] = Field(
        description="The Handling roll's colour ('not_rolled' for an easy maneuver)."
    )
    success_by_required: list[ColourChance] = Field(
        description="The chance of success at each colour a maneuver could need."
    )
    master_table: str


def maneuver_odds(request: ManeuverInput) -> ManeuverOdds:
    """Success, each outcome (where the crash lands, when the operator's Coordination is
    given) and each colour of the Handling roll, exactly (catalogue 5.1)."""
    colours = colour_distribution(vehicle_master(request, _handling(request)))
    need = request.required

    def after(colour: Colour) -> Distribution[str]:
        if colour.level >= need.level:
            return Distribution({ManeuverOutcome.SUCCESS.value: 1})
        if request.operator_coordination is None:
            return Distribution({ManeuverOutcome.CRASH.value: 1})
        found = locations(_plain(request), request.operator_coordination)
        return found.map(lambda loc: _CRASH_AT[loc].value)

    rolled = need is not Colour.BLACK
    outcomes = colours.then(after) if rolled else Distribution({ManeuverOutcome.SUCCESS.value: 1})
    shown = colours.map(lambda c: c.value) if rolled else Distribution({NOT_ROLLED: 1})
    return ManeuverOdds(
        success=exact(outcomes.probability(ManeuverOutcome.SUCCESS.value)),
        outcome=outcome_table(outcomes, [o.value for o in ManeuverOutcome]),
        colour=outcome_table(shown, [*COLOURS, NOT_ROLLED]),
        success_by_required=[
            ColourChance(colour=c, chance=exact(_at_least(colours, c))) for c in Colour
        ],
        master_table=request.table_name,
    )


def _at_least(colours: Distribution[Colour], need: Colour) -> Fraction:
    return colours.probability_where(lambda c: c.level >= need.level)


def maneuver_cost(request: object) -> Estimate:
    """The Handling roll and, for each of its colours, the crash roll (`master_cost` each),
    and the tables: the same for every request."""
    return Estimate(5 * master_cost(request).states + 50, ())


@operation(
    name="vehicle/maneuver",
    kind=Kind.CHECK,
    covers=("4c.vehicle.maneuver",),
    odds=maneuver_odds,
    cost=maneuver_cost,
    example={"vehicle": {"sample": "sports_car"}, "required": "blue",
             "operator_coordination": 20, "dice": {"values": [4, 1, 2, 7]}},
)  # fmt: skip
def maneuver(request: ManeuverInput, dice: Dice) -> Maneuvered:
    """Roll the vehicle's Handling on the Master Table: the maneuver succeeds at the colour it
    needs or better, else the vehicle crashes (C:L1442-1454). An easy one always succeeds and
    is not rolled (catalogue 3.10.2)."""
    handling = _handling(request)
    if request.required is Colour.BLACK:
        return Maneuvered(handling=handling, required=request.required, colour=None, roll=None,
                          success=True, outcome=ManeuverOutcome.SUCCESS, crash=None)  # fmt: skip
    rolled = resolve_roll(vehicle_master(request, handling), dice, "handling d%")
    success = rolled.colour.level >= request.required.level
    crashed = None
    outcome = ManeuverOutcome.SUCCESS if success else ManeuverOutcome.CRASH
    if not success and request.operator_coordination is not None:
        crashed = roll_crash(_plain(request), request.operator_coordination, dice)
        outcome = _CRASH_AT[crashed.location]
    return Maneuvered(handling=handling, required=request.required, colour=rolled.colour,
                      roll=rolled, success=success, outcome=outcome, crash=crashed)  # fmt: skip
