"""What every grenade calling for a Master Table roll shares (catalogue 3.12.2): a target in
the grenade's area rolls once, its colour is read on the grenade's table and the effect lasts
as that row says; a target out of the area rolls nothing and is not affected.

- `Distance`, `in_area(grenade, distance)`: sectors from the detonation sector (0 the same,
  1 adjacent, as the range penalty counts them, catalogue 3.12.1) and whether they are reached.
- `Absent`: the outcome of a target the grenade does not touch, with no roll.
- `roll_effect`, `effect_odds`, `effect_cost`: roll it, its exact odds, their cost, in the
  shape of `powers.core.roll_power`, `power_odds` and `power_cost`.
"""

from collections.abc import Iterable, Mapping
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.core.dice import NdxInput, ndx_distribution, roll_ndx, written_dice
from service.rules.four_c.core.master_table import (
    COLOURS,
    MasterInput,
    Resolved,
    colour_distribution,
    master_cost,
    resolve_roll,
)
from service.rules.four_c.core.options import CoreOptions
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.grenades.options import D100Penalty
from service.rules.four_c.grenades.tables import Grenade, GrenadeEffectRow, GrenadeLasting, grenade
from service.rules.model import Model

__all__ = [
    "Absent",
    "Distance",
    "GrenadeEffect",
    "GrenadeOdds",
    "GrenadePenalty",
    "effect_cost",
    "effect_odds",
    "in_area",
    "roll_effect",
    "turns_distribution",
]

Distance = Annotated[
    int,
    Field(
        ge=0,
        le=100,
        description="Sectors from the detonation sector to the target's: 0 the same sector, 1 "
        "an adjacent one (sharing an edge or a corner, catalogue 3.12.1).",
    ),
]


def in_area(which: Grenade, distance: int) -> bool:
    """The detonation sector, adjacent ones, or every sector within 6 (C:L1544-1564)."""
    return distance <= grenade(which).reach_sectors


class Absent(Model):
    """A target the grenade does not touch: no roll is made."""

    result: str
    text: str


class GrenadePenalty(Model):
    """A -20 penalty on d% rolls next round (C:L1561, C:L1571), as `grenade_d100_penalty`
    reads it (A-42): pass it to the target's Master Table rolls that round."""

    roll_modifier: int = Field(description="Add to the d% roll (a roll's roll_modifier).")
    rv_modifier: int = Field(description="Add to the Rank Value (a roll's rv_modifiers).")
    turns: int


class GrenadeEffect(Model):
    """What a grenade did to one target."""

    reached: bool = Field(description="False: out of the grenade's area, or immune; no roll.")
    roll: Resolved | None = Field(description="The target's Master Table roll, when made.")
    result: str
    text: str
    turns: int = Field(description="Turns (rounds) the effect lasts; 0: none.")
    duration_die: int | None = Field(
        description="The d10 read for a rolled duration, as it counts (A-26)."
    )
    penalty: GrenadePenalty | None


def _half_d10(die: int) -> int:
    """1d10/2, rounded down, at least 1 (C:L1559): a d10 counted 1-10 gives 1, 1, 1, 2, 2, 3,
    3, 4, 4, 5 (catalogue T27); counted 0-9 (A-26), 0 gives 1."""
    return max(1, die // 2)


def _duration_d10(options: CoreOptions) -> NdxInput:
    """The '1d10' of '1d10/2 rounds' (C:L1559): dice written as dice (A-25), its 0 face
    counted as `d10_zero_is_ten` says (A-26)."""
    return written_dice(1, 0, options)


_FIXED = {GrenadeLasting.NONE: 0, GrenadeLasting.ONE_TURN: 1, GrenadeLasting.FIVE_TURNS: 5}


def turns_distribution(lasting: GrenadeLasting, options: CoreOptions) -> Distribution[int]:
    """The turns an effect lasts over every face of its die (catalogue 5.4)."""
    if lasting is GrenadeLasting.HALF_D10:
        return ndx_distribution(_duration_d10(options)).map(_half_d10)
    return Distribution({_FIXED[lasting]: 1})


def _penalty(row: GrenadeEffectRow, reading: D100Penalty) -> GrenadePenalty | None:
    if not row.d100_penalty:
        return None
    on_rv = reading is D100Penalty.RANK_VALUE
    return GrenadePenalty(roll_modifier=0 if on_rv else row.d100_penalty,
                          rv_modifier=row.d100_penalty if on_rv else 0, turns=1)  # fmt: skip


def roll_effect(
    master: MasterInput | Absent,
    table: Mapping[Colour, GrenadeEffectRow],
    dice: Dice,
    reading: D100Penalty = D100Penalty.ROLL_MODIFIER,
) -> GrenadeEffect:
    """Roll the target's Master Table roll, read its colour, then roll its duration if the
    row calls for one; an `Absent` target rolls nothing."""
    if isinstance(master, Absent):
        return GrenadeEffect(reached=False, roll=None, result=master.result, text=master.text,
                             turns=0, duration_die=None, penalty=None)  # fmt: skip
    resolved = resolve_roll(master, dice)
    row = table[resolved.colour]
    die = None
    if row.lasting is GrenadeLasting.HALF_D10:
        die = roll_ndx(_duration_d10(master.options), dice, "duration d10").total
        turns = _half_d10(die)
    else:
        turns = _FIXED[row.lasting]
    return GrenadeEffect(reached=True, roll=resolved, result=row.result, text=row.text,
                         turns=turns, duration_die=die,
                         penalty=_penalty(row, reading))  # fmt: skip


class GrenadeDuration(Model):
    """How long one result lasts, given that result."""

    result: str
    lasting: list[OutcomeProbability] = Field(description="Turns, given this result.")


class GrenadeOdds(Model):
    result: list[OutcomeProbability] = Field(description="Each result, worst first for the one "
                                             "rolling.")  # fmt: skip
    colour: list[OutcomeProbability] = Field(description="Each colour; none without a roll.")
    turns: list[OutcomeProbability] = Field(description="Turns the effect lasts, 0 for none.")
    durations: list[GrenadeDuration] = Field(
        description="The turns each result lasts, given it (catalogue 5.4)."
    )
    rv: int | None = Field(description="The Rank Value rolled; none without a roll.")
    master_table: str


def _order(table: Mapping[Colour, GrenadeEffectRow], absent: Iterable[str]) -> list[str]:
    return list(dict.fromkeys([*(table[c].result for c in Colour), *absent]))


def effect_odds(
    master: MasterInput | Absent,
    table: Mapping[Colour, GrenadeEffectRow],
    absent: Iterable[str],
    table_name: str,
) -> GrenadeOdds:
    """Every result, colour and duration of the target's roll, exactly (catalogue 5.1, 5.4);
    `absent` names the outcomes of a target the grenade does not touch, listed last."""
    order = _order(table, absent)
    if isinstance(master, Absent):
        return GrenadeOdds(result=outcome_table(Distribution({master.result: 1}), order),
                           colour=[], turns=outcome_table(Distribution({0: 1})), durations=[],
                           rv=None, master_table=table_name)  # fmt: skip
    options = master.options
    colours = colour_distribution(master)
    lasting = {row.result: row.lasting for row in table.values()}
    return GrenadeOdds(
        result=outcome_table(colours.map(lambda c: table[c].result), order),
        colour=outcome_table(colours.map(lambda c: c.value), COLOURS),
        turns=outcome_table(colours.then(lambda c: turns_distribution(table[c].lasting, options))),
        durations=[
            GrenadeDuration(result=result, lasting=outcome_table(turns_distribution(kind, options)))
            for result, kind in lasting.items()
        ],
        rv=max(master.rv + sum(master.rv_modifiers), 0),
        master_table=table_name,
    )


def effect_cost(request: object) -> Estimate:
    """One Master Table roll (`master_cost`), then for each colour its duration die (ten
    faces at most), and the tables: the same for every request."""
    return Estimate(master_cost(request).states + 400, ())
