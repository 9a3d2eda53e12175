"""Defences (C:L1149-1159, C:L1202-1236): dodging, blocking, catching and evading, each a
Master Table roll read on its table."""

from collections.abc import Mapping
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.combat.attacks import Sectors, dodge_steps
from service.rules.four_c.combat.options import BlockSteps, CombatOptions, EvadeScope
from service.rules.four_c.combat.tables import CATCH, DODGE, EVADE, ResultRow, results
from service.rules.four_c.core.master_table import (
    MasterInput,
    Resolved,
    resolve_roll,
    result_distribution,
    table_cost,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["block", "catch", "dodge", "evade"]


class Defended(Resolved):
    result: str
    text: str


class DefenceOdds(Model):
    result: list[OutcomeProbability]
    master_table: str


def _read(request: MasterInput, dice: Dice, table: Mapping[Colour, ResultRow]) -> Defended:
    resolved = resolve_roll(request, dice)
    row = table[resolved.colour]
    return Defended(**dict(resolved), result=row.result, text=row.text)


def _odds(request: MasterInput, table: Mapping[Colour, ResultRow]) -> DefenceOdds:
    order = list(dict.fromkeys(row.result for row in table.values()))
    found = result_distribution(request, {c: row.result for c, row in table.items()})
    return DefenceOdds(result=outcome_table(found, order), master_table=request.table_name)


class DodgeInput(MasterInput):
    rv: RankValue = Field(description="The dodger's Coordination Rank Value.")
    sectors_moved: Sectors = Field(
        default=0, description="Sectors moved into this turn: -1 Row Step each (C:L967)."
    )


class Dodged(Defended):
    attacker_row_steps: int = Field(description="Row Steps every attacker takes this turn.")


def _moved(request: DodgeInput) -> DodgeInput:
    return request.model_copy(update={"row_steps": (*request.row_steps, -request.sectors_moved)})


def dodge_odds(request: DodgeInput) -> DefenceOdds:
    return _odds(_moved(request), results(DODGE))


@operation(
    name="combat/dodge",
    kind=Kind.CHECK,
    covers=("4c.combat.dodge",),
    odds=dodge_odds,
    cost=table_cost,
    example={"rv": 30, "dice": {"values": [7, 10]}},
)
def dodge(request: DodgeInput, dice: Dice) -> Dodged:
    """Coordination on the Master Table, -1 Row Step per sector moved: red, blue and yellow
    take 3, 6 and 9 Row Steps off everyone attacking the dodger this turn (C:L1149-1159)."""
    found = _read(_moved(request), dice, results(DODGE))
    return Dodged(**dict(found), attacker_row_steps=dodge_steps(found.colour))


class BlockInput(MasterInput):
    rv: RankValue = Field(description="The blocker's Brawn Rank Value.")
    options: CombatOptions = Field(default=CombatOptions())


class Blocked(Resolved):
    brawn_row_steps: int = Field(
        description="Row Steps off the attacker's Brawn, for the damage of this attack only."
    )


#: Row Steps a block takes off the attacker's Brawn by colour, as the table labels them
#: (1, 4, 7) or as its sentences say (1, 3, 6): A-17 (C:L1208-1211).
BLOCK_STEPS = {BlockSteps.LABEL: (0, -1, -4, -7), BlockSteps.BODY: (0, -1, -3, -6)}


class BlockOdds(Model):
    brawn_row_steps: list[OutcomeProbability]
    master_table: str


def block_odds(request: BlockInput) -> BlockOdds:
    steps = BLOCK_STEPS[request.options.block_steps]
    found = result_distribution(request, {c: steps[c.level] for c in Colour})
    return BlockOdds(brawn_row_steps=outcome_table(found.map(str), [str(s) for s in steps]),
                     master_table=request.table_name)  # fmt: skip


@operation(
    name="combat/block",
    kind=Kind.CHECK,
    covers=("4c.combat.block",),
    odds=block_odds,
    cost=table_cost,
    example={"rv": 30, "dice": {"values": [8, 8]}},
)
def block(request: BlockInput, dice: Dice) -> Blocked:
    """Stop Brawn with Brawn: the blocker's roll takes Row Steps off the attacker's Brawn for
    damage, none on black, 1 on red, 4 or 3 on blue and 7 or 6 on yellow (C:L1202-1212, A-17)."""
    resolved = resolve_roll(request, dice)
    steps = BLOCK_STEPS[request.options.block_steps][resolved.colour.level]
    return Blocked(**dict(resolved), brawn_row_steps=steps)


class CatchInput(MasterInput):
    rv: RankValue = Field(description="The catcher's Coordination Rank Value.")
    thrown_to_harm: bool = Field(
        default=False, description="The object was thrown to harm the catcher (C:L1220)."
    )
    catcher_brawn: RankValue = Field(
        default=0, description="What a rough catch does to the caught thing (C:L1222)."
    )


class Caught(Defended):
    catcher_hit: bool = Field(description="Black on something thrown to harm: hit.")
    second_roll: Resolved | None = Field(description="Blue: a second roll on Coordination.")
    damage_to_caught: int = Field(
        description="The catcher's Brawn if the second roll is below blue."
    )


def _black(result: str, request: CatchInput) -> str:
    """Black is a miss that hits the catcher only if the thing was thrown to harm him
    (C:L1218): a ball tossed to him is simply missed."""
    return "miss" if result == "miss_hit" and not request.thrown_to_harm else result


def catch_odds(request: CatchInput) -> DefenceOdds:
    """A blue catch is rough when the second roll is below blue: the outcome weighs both."""
    read = {c: _black(row.result, request) for c, row in results(CATCH).items()}
    first = result_distribution(request, read)
    second = result_distribution(request, {c: c.level >= Colour.BLUE.level for c in Colour})

    def rough_or_clean(result: str) -> Distribution[str]:
        if result != "caught_check":
            return Distribution({result: 1})
        return second.map(lambda clean: "caught" if clean else "caught_damaged")

    found = first.then(rough_or_clean)
    order = ["miss_hit", "miss", "caught_damaged", "caught", "perfect"]
    return DefenceOdds(result=outcome_table(found, order), master_table=request.table_name)


def catch_cost(request: object) -> Estimate:
    """Two rolls and their tables: the same for every request."""
    return Estimate(2 * table_cost(request).states + 50, ())


@operation(
    name="combat/catch",
    kind=Kind.CHECK,
    covers=("4c.combat.catch",),
    odds=catch_odds,
    cost=catch_cost,
    example={"rv": 20, "catcher_brawn": 30, "dice": {"values": [7, 5, 3, 2]}},
)
def catch(request: CatchInput, dice: Dice) -> Caught:
    """Coordination on the Master Table: black misses (and a weapon thrown at the catcher hits),
    red misses, blue catches but a second roll below blue harms the caught thing by the
    catcher's Brawn, yellow is a perfect catch (C:L1214-1224)."""
    found = _read(request, dice, results(CATCH))
    second = resolve_roll(request, dice, "second d%") if found.result == "caught_check" else None
    rough = second is not None and second.colour.level < Colour.BLUE.level
    result = (
        _black(found.result, request)
        if second is None
        else ("caught_damaged" if rough else "caught")
    )
    return Caught(**{**dict(found), "result": result},
                  catcher_hit=result == "miss_hit",
                  second_roll=second,
                  damage_to_caught=request.catcher_brawn if rough else 0)  # fmt: skip


class EvadeInput(MasterInput):
    rv: RankValue = Field(description="The evader's Melee Rank Value.")
    attacks: Annotated[int, Field(ge=1, le=10)] = Field(
        default=1, description="Melee attacks the named opponent makes on the evader this turn."
    )
    options: CombatOptions = Field(default=CombatOptions())


class Evaded(Defended):
    attacks_answered: int = Field(
        description="Of the opponent's attacks this turn, how many the evade answers (A-18); "
        "on black each of them hits automatically, as a red Hit."
    )
    automatic_hits: int = Field(
        description="The answered attacks that hit without a roll, as a red Hit: all of them "
        "on black (C:L1233, A-18), none otherwise."
    )


def evade_odds(request: EvadeInput) -> DefenceOdds:
    return _odds(request, results(EVADE))


@operation(
    name="combat/evade",
    kind=Kind.CHECK,
    covers=("4c.combat.evade",),
    odds=evade_odds,
    cost=table_cost,
    example={"rv": 30, "dice": {"values": [7, 1]}},
)
def evade(request: EvadeInput, dice: Dice) -> Evaded:
    """Weave away from a melee attack: black lets it hit automatically (as a red Hit, A-18),
    red evades, blue and yellow evade with +1 or +2 Row Steps on next turn's Melee attack on
    that opponent (C:L1226-1236). The evade answers the opponent's first attack, or every one
    this turn (`evade_scope`, A-18): on black each answered attack hits."""
    found = _read(request, dice, results(EVADE))
    every = request.options.evade_scope is EvadeScope.ALL_ATTACKS_FROM_OPPONENT
    answered = request.attacks if every else 1
    hits = answered if found.result == "auto_hit" else 0
    return Evaded(**dict(found), attacks_answered=answered, automatic_hits=hits)
