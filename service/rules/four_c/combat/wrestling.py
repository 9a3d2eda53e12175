"""Wrestling (C:L1115-1147): a Master Table roll on Brawn to seize an item, slip a hold or
restrain an opponent, and the damage of a hold (C:L1280). Vehicles neither wrestle nor are
wrestled (C:L1474)."""

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_c.combat.attacks import (
    AttackInput,
    AttackOdds,
    AttackResult,
    attack_cost,
    attack_odds,
    roll_attack,
)
from service.rules.four_c.combat.tables import SEIZE, SLIP, STRUGGLE, results
from service.rules.four_c.core.ranks import RankValue
from service.rules.registry import Kind, operation

__all__ = ["seize", "slip", "struggle"]


class WrestlingInput(AttackInput):
    rv: RankValue = Field(description="The wrestler's Brawn Rank Value.")


def seize_odds(request: WrestlingInput) -> AttackOdds:
    return attack_odds(request, results(SEIZE))


@operation(
    name="wrestling/seize",
    kind=Kind.CHECK,
    covers=("4c.wrestling.seize",),
    odds=seize_odds,
    cost=attack_cost,
    example={"rv": 30, "dice": {"values": [9, 5]}},
)
def seize(request: WrestlingInput, dice: Dice) -> AttackResult:
    """Grab an item from an opponent's grasp: black and red miss, blue snatches it, yellow
    grabs it but breaks it (C:L1115-1127)."""
    return roll_attack(request, dice, results(SEIZE))


def slip_odds(request: WrestlingInput) -> AttackOdds:
    return attack_odds(request, results(SLIP))


@operation(
    name="wrestling/slip",
    kind=Kind.CHECK,
    covers=("4c.wrestling.slip",),
    odds=slip_odds,
    cost=attack_cost,
    example={"rv": 20, "dice": {"values": [7, 4]}},
)
def slip(request: WrestlingInput, dice: Dice) -> AttackResult:
    """Escape a hold: black and red fail, blue eludes, yellow turns the tables
    (C:L1129-1137)."""
    return roll_attack(request, dice, results(SLIP))


def struggle_odds(request: WrestlingInput) -> AttackOdds:
    return attack_odds(request, results(STRUGGLE))


@operation(
    name="wrestling/struggle",
    kind=Kind.CHECK,
    covers=("4c.wrestling.struggle",),
    odds=struggle_odds,
    cost=attack_cost,
    example={"rv": 40, "dice": {"values": [6, 6]}},
)
def struggle(request: WrestlingInput, dice: Dice) -> AttackResult:
    """Grab and restrain an opponent: blue or yellow holds them (C:L1139-1147)."""
    return roll_attack(request, dice, results(STRUGGLE))
