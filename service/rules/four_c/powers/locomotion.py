"""Powers that carry a character: Burrowing (C:L508-510), Dimension Jump (C:L550-552) and
Flight (C:L645-665)."""

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, exact, outcome_table
from service.rules.four_c.combat.tables import MOVEMENT
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    SPEED,
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerRoll,
    banded,
    power_cost,
    power_odds,
    roll_power,
    threshold,
)
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["burrowing", "dimension_jump", "flight"]


class FlightInput(Model):
    power_rv: RankValue = Field(description="Flight's Rank Value.")


class Flight(Model):
    sectors_per_turn: int | None = Field(description="None: around the world in one turn.")
    text: str


@operation(
    name="power/flight",
    kind=Kind.LOOKUP,
    covers=("4c.power.flight",),
    example={"power_rv": 30},
)
def flight(request: FlightInput) -> Flight:
    """Sectors a turn in flight: 1 at 1-2, 4 at 10-19, 10 at 100-149, 15 at 150-999, and at
    1000 around the world in a single turn (C:L645-665); 0 does not fly (catalogue 3.0)."""
    row = banded(request.power_rv, SPEED)
    if row is None:
        return Flight(sectors_per_turn=0, text="Rank Value 0: the power does nothing.")
    return Flight(sectors_per_turn=row.sectors, text=row.text)


class BurrowingInput(Model):
    power_rv: RankValue = Field(description="Burrowing's Rank Value.")
    coordination: RankValue = Field(description="Running speed comes from it (C:L993-997).")
    material_value: RankValue = Field(description="The terrain's material rank (C:L1242-1258).")
    extra_legs: bool = Field(default=False, description="Extra Legs: +1 sector (C:L626).")


class Burrowing(Model):
    can_burrow: bool
    sectors_per_turn: int = Field(description="Running speed; 0 when the ground is too hard.")


@operation(
    name="power/burrowing",
    kind=Kind.LOOKUP,
    covers=("4c.power.burrowing",),
    example={"power_rv": 30, "coordination": 20, "material_value": 25},
)
def burrowing(request: BurrowingInput) -> Burrowing:
    """Tunnel at running speed through subterranean terrain of material rank no greater than
    the power's Rank Value; never through characters (C:L508-510, C:L989-997)."""
    can = request.power_rv > 0 and request.material_value <= request.power_rv
    if not can or request.coordination == 0:
        return Burrowing(can_burrow=can, sectors_per_turn=0)
    row = next(r for r in MOVEMENT if r.rv_max is None or request.coordination <= r.rv_max)
    return Burrowing(can_burrow=True, sectors_per_turn=row.ground + int(request.extra_legs))


class JumpInput(PowerRoll):
    power_rv: RankValue = Field(description="Dimension Jump's Rank Value.")
    visited_before: bool = Field(
        default=False, description="A dimension visited before is reached at will, no roll."
    )


class Jump(Model):
    result: str = Field(description="'arrives' or 'arrives_dazed'.")
    dazed: bool = Field(description="Dazed: no actions the next turn.")
    check: PowerCheck | None = Field(description="The roll, for a new dimension.")


_JUMP = threshold(
    Colour.RED,
    Outcome(result="arrives_dazed", text="Arrives dazed: no actions next turn.", success=False),
    Outcome(result="arrives", text="Arrives normally.", success=True),
)


def jump_odds(request: JumpInput) -> PowerCheckOdds:
    if not request.visited_before:
        return power_odds(request, request.power_rv, _JUMP)
    sure: Distribution[str] = Distribution({"arrives": 1})
    return PowerCheckOdds(success=exact(sure.probability("arrives")), result=outcome_table(sure),
                          colour=[], master_table=request.table_name)  # fmt: skip


@operation(
    name="power/dimension-jump",
    kind=Kind.CHECK,
    covers=("4c.power.dimension_jump",),
    odds=jump_odds,
    cost=power_cost,
    example={"power_rv": 20, "dice": {"values": [3, 9]}},
)
def dimension_jump(request: JumpInput, dice: Dice) -> Jump:
    """Jumping to a dimension visited before is free; a new one takes a roll on the power's
    Rank Value, and on black the character arrives dazed and takes no actions the next turn
    (C:L550-552)."""
    if request.visited_before:
        return Jump(result="arrives", dazed=False, check=None)
    check = roll_power(request, request.power_rv, _JUMP, dice)
    return Jump(result=check.result, dazed=not check.success, check=check)
