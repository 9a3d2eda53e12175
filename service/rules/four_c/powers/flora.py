"""Plant Control (C:L788-790): plants that wrestle, attack or block at the greater of the
power and Melee +10, one plant per attack the character has a turn, within a tenth of the
Rank Value in sectors (catalogue 3.6)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_c.combat.tables import MELEE_BASHING, STRUGGLE, results
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerRoll,
    greater_of,
    power_cost,
    power_odds,
    roll_power,
    tenth,
)
from service.rules.four_c.powers.travel import Distance, within
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["PlantAction", "plant_control"]

Count = Annotated[int, Field(ge=1, le=10)]


class PlantAction(StrEnum):
    ATTACK = "attack"
    WRESTLE = "wrestle"
    BLOCK = "block"


class PlantControlInput(PowerRoll):
    rv: RankValue = Field(description="Plant Control's Rank Value.")
    melee: RankValue
    action: PlantAction = Field(
        default=PlantAction.ATTACK,
        description="attack (the bashing table) or wrestle (the struggle table) rolls here; "
        "block takes the action Rank Value to combat/block.",
    )
    attacks_per_turn: Count = Field(
        default=1, description="Attacks the character has a turn (Fast Attack, Extra Arms)."
    )
    plants: Count = Field(default=1, description="Plants controlled this turn.")
    distance_sectors: Distance = Field(default=0, description="Sectors to the plants.")


class PlantControl(Model):
    action_rv: int = Field(description="The greater of the power and Melee +10.")
    plants_per_turn: int = Field(description="As many as the attacks a turn.")
    range_sectors: int = Field(description="A tenth of the Rank Value, rounded up.")
    check: PowerCheck | None = Field(description="The attack or wrestling roll; none to block.")


def _table(action: PlantAction) -> dict[Colour, Outcome] | None:
    """Plants bash (C:L1048-1056) or take hold (C:L1139-1147); a block is combat/block's."""
    if action is PlantAction.BLOCK:
        return None
    rows = results(MELEE_BASHING if action is PlantAction.ATTACK else STRUGGLE)
    return {c: Outcome(result=r.result, text=r.text, success=r.result not in ("miss", "fail"))
            for c, r in rows.items()}  # fmt: skip


class PlantControlOdds(Model):
    check: PowerCheckOdds | None = Field(description="The roll, when one is made.")


def _in_reach(request: PlantControlInput) -> None:
    """A plant each turn for each attack the character has, within a tenth of the Rank Value
    in sectors, rounded up (C:L790): the roll and its odds refuse anything else alike."""
    if request.plants > request.attacks_per_turn:
        raise InputError(("plants",), "one plant a turn for each attack the character has")
    within(request.distance_sectors, tenth(request.rv), "distance_sectors")


def plant_control_odds(request: PlantControlInput) -> PlantControlOdds:
    _in_reach(request)
    table = _table(request.action)
    if table is None:
        return PlantControlOdds(check=None)
    return PlantControlOdds(check=power_odds(request, greater_of(request.rv, request.melee), table))


@operation(
    name="power/plant-control",
    kind=Kind.CHECK,
    covers=("4c.power.plant_control",),
    odds=plant_control_odds,
    cost=power_cost,
    example={"rv": 40, "melee": 10, "attacks_per_turn": 2, "plants": 2, "distance_sectors": 4,
             "dice": {"values": [5, 5]}},
)  # fmt: skip
def plant_control(request: PlantControlInput, dice: Dice) -> PlantControl:
    """Twist and turn plants to wrestle, attack or block, with the greater of the power and
    Melee +10; a plant each turn for each attack the character has (controlling counts as
    an attack), within a tenth of the Rank Value in sectors, rounded up (C:L788-790)."""
    _in_reach(request)
    action_rv = greater_of(request.rv, request.melee)
    table = _table(request.action)
    check = None if table is None else roll_power(request, action_rv, table, dice)
    return PlantControl(action_rv=action_rv, plants_per_turn=request.attacks_per_turn,
                        range_sectors=tenth(request.rv), check=check)  # fmt: skip
