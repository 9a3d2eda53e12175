"""The Dodging potion (C:L1680-1688, catalogue 3.12.6): for the 3 turns after it is drunk, a
dodge is read on its own table, black to yellow taking 1, 4 and 8 Row Steps off every attacker
or making every attack fail. The roll is combat's dodge: Coordination, -1 Row Step a sector
moved."""

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.combat.defences import DodgeInput
from service.rules.four_c.core.master_table import (
    COLOURS,
    MasterInput,
    Resolved,
    colour_distribution,
    master_cost,
    resolve_roll,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.gear.options import PotionOptions
from service.rules.four_c.gear.tables import DodgeRow, Grade, dodging_rows, turns_of
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["dodging"]


class DodgingInput(DodgeInput):
    grade: Grade = Field(default=Grade.STANDARD, description="Lasts 3 turns, lesser 2, greater 4.")
    attacker_rv: RankValue | None = Field(
        default=None, description="An attacker's trait, for the chance they still hit (odds)."
    )
    attacker_row_steps: tuple[Annotated[int, Field(ge=-20, le=20)], ...] = Field(
        default=(),
        max_length=15,
        description="The attacker's Row Steps; the potion's own makes a sixteenth.",
    )
    options: PotionOptions = Field(default=PotionOptions())


class Dodging(Resolved):
    result: str
    text: str
    attacker_row_steps: int | None = Field(
        description="Row Steps off every attacker this turn; None when every attack fails."
    )
    attacks_fail: bool
    turns: int = Field(description="Turns the potion replaces the dodge table for.")


def _table(request: DodgingInput) -> Mapping[Colour, DodgeRow]:
    """The potion's table; black takes the option's Row Steps, the seed's number missing
    (A-46)."""
    rows = dict(dodging_rows())
    steps = request.options.dodging_potion_black_row_steps
    black = rows[Colour.BLACK]
    rows[Colour.BLACK] = black.model_copy(
        update={"result": f"-{steps}" if steps else "0", "attacker_row_steps": -steps}
    )
    return rows


def _moved(request: DodgingInput) -> DodgingInput:
    return request.model_copy(update={"row_steps": (*request.row_steps, -request.sectors_moved)})


class DodgingOdds(Model):
    result: list[OutcomeProbability]
    colour: list[OutcomeProbability]
    attacker_hits: Exact | None = Field(
        description="With attacker_rv: the chance the attacker rolls red or better through "
        "the dodge (catalogue 5.1)."
    )
    master_table: str


def _attacker(request: DodgingInput, steps: int) -> MasterInput:
    assert request.attacker_rv is not None
    return MasterInput(rv=request.attacker_rv, row_steps=(*request.attacker_row_steps, steps),
                       options=request.options, master_table=request.master_table,
                       custom_master_table=request.custom_master_table)  # fmt: skip


def _hits(request: DodgingInput, row: DodgeRow) -> Fraction:
    if row.attacker_row_steps is None:
        return Fraction(0)
    found = colour_distribution(_attacker(request, row.attacker_row_steps))
    return found.probability_where(lambda c: c is not Colour.BLACK)


def dodging_odds(request: DodgingInput) -> DodgingOdds:
    table = _table(request)
    colours = colour_distribution(_moved(request))
    hits = None
    if request.attacker_rv is not None:
        hits = exact(sum((colours.probability(c) * _hits(request, table[c]) for c in Colour),
                         Fraction(0)))  # fmt: skip
    order = [table[c].result for c in Colour]
    return DodgingOdds(
        result=outcome_table(colours.map(lambda c: table[c].result), order),
        colour=outcome_table(colours.map(lambda c: c.value), COLOURS),
        attacker_hits=hits,
        master_table=request.table_name,
    )


def dodging_cost(request: object) -> Estimate:
    """The dodge roll and an attacker's roll through each of its colours (`master_cost`
    each), and the tables: the same for every request."""
    return Estimate(5 * master_cost(request).states + 200, ())


@operation(
    name="potion/dodging",
    kind=Kind.CHECK,
    covers=("4c.potion.dodging",),
    odds=dodging_odds,
    cost=dodging_cost,
    example={"rv": 30, "attacker_rv": 40, "dice": {"values": [7, 2]}},
)
def dodging(request: DodgingInput, dice: Dice) -> Dodging:
    """For the 3 turns after drinking it, a dodge (Coordination, -1 Row Step a sector moved,
    C:L1149-1159) reads the potion's table: black takes 1 Row Step off anyone attacking the
    character this turn (A-46), red 4, blue 8, and on yellow every attack fails
    (C:L1680-1688)."""
    resolved = resolve_roll(_moved(request), dice)
    row = _table(request)[resolved.colour]
    return Dodging(**dict(resolved), result=row.result, text=row.text,
                   attacker_row_steps=row.attacker_row_steps, attacks_fail=row.attacks_fail,
                   turns=turns_of(request.grade))  # fmt: skip
