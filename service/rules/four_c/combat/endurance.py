"""When Fortitude gives out: drowning (C:L1016-1028), exhaustion (C:L1030-1042) and dying
(C:L1274-1276). Each is a state the caller carries from turn to turn; a call takes one turn."""

from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.combat.options import CombatOptions, ExhaustionPenalty
from service.rules.four_c.combat.tables import DROWNING, EXHAUSTION, ResultRow, results
from service.rules.four_c.core.dice import roll_ndx, span
from service.rules.four_c.core.master_table import (
    MasterInput,
    Resolved,
    resolve_roll,
    result_distribution,
    table_cost,
)
from service.rules.four_c.core.options import CoreOptions, RowValueOptions
from service.rules.four_c.core.ranks import Laddered, RankValue, row_of, stepped
from service.rules.model import InputError, Model
from service.rules.registry import Kind, Table, operation

__all__ = ["dying", "exhaustion", "swimming"]

Turns = Annotated[int, Field(ge=0, le=10_000)]


class TurnOutcome(Model):
    rolled: Resolved | None = Field(description="The Master Table roll, if this turn needs one.")
    result: str


class TurnOdds(Model):
    result: list[OutcomeProbability]
    master_table: str


class SwimInput(MasterInput):
    rv: RankValue = Field(description="Fortitude, before any winded drops.")
    turns_under: Turns = Field(description="Turns since the character sank, this one included.")
    winded: Annotated[int, Field(ge=0, le=20)] = Field(
        default=0, description="Row Steps Fortitude has dropped from being winded so far."
    )
    options: CombatOptions = Field(default=CombatOptions())


class Swim(TurnOutcome):
    holding_breath: bool
    winded: int = Field(description="Row Steps Fortitude has dropped, this turn's included.")
    sectors: int = Field(default=1, description="Swimming without a power: 1 sector a turn.")


def _drowning(request: SwimInput) -> MasterInput | None:
    """The roll of this turn: none while the breath lasts (Fortitude turns); then Fortitude,
    winded drops taken (to the row's lowest value, A-03), at -1 Row Step for each turn since
    drowning began, -0 on the first (A-27)."""
    drowning_turn = request.turns_under - request.rv
    if drowning_turn <= 0:
        return None
    rv = stepped(request.rv, (-request.winded,), request, request.options).rv_effective
    steps = (*request.row_steps, -(drowning_turn - 1))
    return request.model_copy(update={"rv": rv, "row_steps": steps})


def _turn_odds(
    request: MasterInput, roll: MasterInput | None, rows: Table[ResultRow], idle: str
) -> TurnOdds:
    """This turn's result: `idle` when it needs no roll, else the roll read on `rows`."""
    if roll is None:
        found: Distribution[str] = Distribution({idle: 1})
    else:
        found = result_distribution(roll, {c: r.result for c, r in results(rows).items()})
    order = [idle, *dict.fromkeys(row.result for row in reversed(rows))]
    return TurnOdds(result=outcome_table(found, order), master_table=request.table_name)


def swimming_odds(request: SwimInput) -> TurnOdds:
    return _turn_odds(request, _drowning(request), DROWNING, "breath")


@operation(
    name="movement/swimming",
    kind=Kind.CHECK,
    covers=("4c.movement.swimming",),
    odds=swimming_odds,
    cost=table_cost,
    example={"rv": 10, "turns_under": 12, "dice": {"values": [3, 4]}},
)
def swimming(request: SwimInput, dice: Dice) -> Swim:
    """A sinking character holds their breath for Fortitude turns, then rolls Fortitude each
    turn at a cumulative -1 Row Step until they reach air: black is Dying, red winded (one
    more Row Step off Fortitude), blue and yellow no effect (C:L1016-1028)."""
    roll = _drowning(request)
    if roll is None:
        return Swim(rolled=None, result="breath", holding_breath=True, winded=request.winded)
    rolled = resolve_roll(roll, dice)
    row = results(DROWNING)[rolled.colour]
    winded = request.winded + (row.result == "winded")
    return Swim(rolled=rolled, result=row.result, holding_breath=False, winded=winded)


class ExhaustionInput(MasterInput):
    rv: RankValue = Field(description="Fortitude.")
    turns_moved: Turns = Field(description="Turns moved without 10 turns of rest, this included.")
    options: CombatOptions = Field(default=CombatOptions())


class Exhausted(TurnOutcome):
    rest_turns: int | None = Field(description="Turns of rest a collapse needs (3d10 or 2d10).")


def _exhaustion(request: ExhaustionInput) -> MasterInput | None:
    """No roll for the first Fortitude turns; then Fortitude, at -10 on every roll after the
    first, or -10 more each roll (A-24)."""
    roll_number = request.turns_moved - request.rv
    if roll_number <= 0:
        return None
    later = roll_number - 1
    penalty = (
        min(later, 1) if request.options.exhaustion_penalty is ExhaustionPenalty.FLAT else later
    )
    return request.model_copy(update={"rv_modifiers": (*request.rv_modifiers, -10 * penalty)})


def exhaustion_odds(request: ExhaustionInput) -> TurnOdds:
    return _turn_odds(request, _exhaustion(request), EXHAUSTION, "no_roll")


@operation(
    name="movement/exhaustion",
    kind=Kind.CHECK,
    covers=("4c.movement.exhaustion",),
    odds=exhaustion_odds,
    cost=table_cost,
    example={"rv": 10, "turns_moved": 11, "dice": {"values": [1, 5, 4, 7, 2]}},
)
def exhaustion(request: ExhaustionInput, dice: Dice) -> Exhausted:
    """A character moves Fortitude turns safely; after that each turn of moving rolls
    Fortitude: black collapses for 3-30 turns, red for 2-20 (C:L1037-1038), rolled as the
    core's dice/ndx reads a span (3d10 and 2d10, or one number from the span with
    range_dice=uniform, A-25; the 0 face as d10_zero_is_ten says, A-26), and the rolls go on
    at -10 Fortitude until 10 turns of rest (C:L1030-1042)."""
    roll = _exhaustion(request)
    if roll is None:
        return Exhausted(rolled=None, result="no_roll", rest_turns=None)
    rolled = resolve_roll(roll, dice)
    result = results(EXHAUSTION)[rolled.colour].result
    count = {"collapse_3d10": 3, "collapse_2d10": 2}.get(result, 0)
    if not count:
        return Exhausted(rolled=rolled, result=result, rest_turns=None)
    rest = roll_ndx(span(count, request.options), dice, "rest turns")
    return Exhausted(rolled=rolled, result=result, rest_turns=rest.total)


class DyingInput(Laddered):
    fortitude: RankValue = Field(description="Fortitude now, at the end of this turn.")
    fortune: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    spend_fortune: bool = Field(
        default=False, description="Spend 10 Fortune to stop the drop (only at 01-02)."
    )
    aided: bool = Field(default=False, description="Someone spent this full turn tending them.")
    options: RowValueOptions = Field(default=RowValueOptions())


class Dying(Model):
    fortitude: int = Field(description="Fortitude after this turn's end.")
    fortune: int
    stabilized: bool
    dead: bool
    turns_to_death: int | None = Field(
        description="Turn-ends left unless stabilized (catalogue 5.8)."
    )


#: Fortune that holds off the drop for a turn at Fortitude 01-02 (C:L1274).
STABILIZE = 10


@operation(
    name="combat/result/dying",
    kind=Kind.CALCULATION,
    covers=("4c.combat.result.dying",),
    example={"fortitude": 30},
)
def dying(request: DyingInput) -> Dying:
    """Damage points are 0 and Fortitude drops a row at the end of each turn until Rank Value
    0, death. At 01-02 the character may stabilize for 10 Fortune a turn; a full turn of aid
    before death stabilizes them (C:L1274-1276). Fortitude 30 goes 20, 10, 6, 3, 1, 0
    (catalogue T22); the row dropped to is read as row_value says (A-03). At Fortitude 0 the
    character is dead, and no aid or Fortune changes that."""
    rows = request.table_rows
    row = row_of(request.fortitude, rows)
    if row == 0:
        return Dying(fortitude=request.fortitude, fortune=request.fortune, stabilized=False,
                     dead=True, turns_to_death=0)  # fmt: skip
    if request.aided:
        return Dying(fortitude=request.fortitude, fortune=request.fortune, stabilized=True,
                     dead=False, turns_to_death=None)  # fmt: skip
    if request.spend_fortune:
        if row != 1:
            raise InputError(("spend_fortune",), "Fortune stabilizes only at Fortitude 01-02")
        if request.fortune < STABILIZE:
            raise InputError(("fortune",), f"stabilizing costs {STABILIZE} Fortune a turn")
        return Dying(fortitude=request.fortitude, fortune=request.fortune - STABILIZE,
                     stabilized=True, dead=False, turns_to_death=None)  # fmt: skip
    # Dying always goes on to row 0: no row floor of a roll's penalties stops it.
    reading = CoreOptions(row_value=request.options.row_value)
    dropped = stepped(request.fortitude, (-1,), request, reading)
    return Dying(fortitude=dropped.rv_effective, fortune=request.fortune, stabilized=False,
                 dead=dropped.row == 0, turns_to_death=dropped.row)  # fmt: skip
