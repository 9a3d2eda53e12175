"""What every 4C power shares (catalogue 4c.md 3.0, 3.6; C:L470-933).

A stable, small API for the power modules:

- `greater_of(power_rv, trait_rv, bonus=10)`: "the Rank Value of this power or the
  character's <trait> +10, whichever is greater" (catalogue 3.0); `bonus=0` where the text
  says no +10 (Claws C:L522, Mind Control eligibility C:L732, Telekinesis attacks C:L884).
- `BANDS`, `band_of(rv)`, `by_band(rv, values)`: the power tables' rank bands 1-2, 3-5, 6-9,
  10-19, 20-29, 30-39, 40-49, 50-74, 75-99, 100-149, 150-999, 1000. Above 1000 reads the 1000
  band; 0 has no band, the power does nothing (catalogue 3.0).
- `half(rv, rounding)` with `HalfRounding` (A-11: "one-half" unrounded rounds up by default)
  and `tenth(rv)` = ceil(RV/10), a power's range and reach in sectors (C:L1091, A-72).
- `PowerOptions`: the core options (`CoreOptions`) plus `half_rounding` (A-11) and
  `opposed_tie` (A-31). A module needing more subclasses it.
- `PowerRoll`: how a power's Master Table roll is made, all but its Rank Value, which the
  operation derives (usually by `greater_of`). `Outcome`, `threshold(...)`: a colour's result.
  `roll_power`, `power_odds`, `power_cost`: roll it, its exact odds, their cost.
- `BandRow`, `banded(rv, rows)`: the row of a power table in `tables.json` holding a Rank
  Value (0: none; above the last row: the last). `SPEED` (Flight, Superleap, Superspeed,
  C:L649-665) and `LIFT` (E/E Control, Telekinesis, C:L568-584) are the shared ones.
- `roll_opposed`, `opposed_odds`, `OPPOSED_COST`: d% + bonus against d% + bonus (Chameleon
  C:L518, Telepathy block C:L890), ties by `opposed_tie` (A-31), catalogue 5.6.
"""

from collections.abc import Mapping, Sequence
from enum import StrEnum
from math import ceil
from typing import Annotated, TypeVar

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.core.dice import DiceMode, d100_distribution, roll_d100
from service.rules.four_c.core.master_table import (
    COLOURS,
    MasterInput,
    Resolved,
    colour_distribution,
    resolve_roll,
    table_cost,
)
from service.rules.four_c.core.options import CoreOptions
from service.rules.four_c.core.ranks import MAX_RV, Laddered, RowSteps
from service.rules.four_c.core.tables import Colour
from service.rules.model import Model, option
from service.rules.registry import Table
from service.rules.tables import table

__all__ = [
    "BANDS",
    "LIFT",
    "OPPOSED_COST",
    "REROLLS",
    "SPEED",
    "Band",
    "BandRow",
    "HalfRounding",
    "LiftRow",
    "Opposed",
    "OpposedOdds",
    "OpposedTie",
    "Outcome",
    "PowerCheck",
    "PowerCheckOdds",
    "PowerOptions",
    "PowerRoll",
    "SpeedRow",
    "band_of",
    "banded",
    "by_band",
    "greater_of",
    "half",
    "opposed_odds",
    "power_cost",
    "power_master",
    "power_odds",
    "roll_opposed",
    "roll_power",
    "tenth",
    "threshold",
]

T = TypeVar("T")


def greater_of(power_rv: int, trait_rv: int, bonus: int = 10) -> int:
    """The power's Rank Value or the trait's + `bonus`, whichever is greater (catalogue 3.0;
    Animal Command C:L496)."""
    return max(power_rv, trait_rv + bonus)


class Band(Model):
    """One rank band of the power tables: `high` None for the open top band."""

    low: int
    high: int | None
    label: str


#: The rank bands every power table is keyed by (Flight C:L649-663, Growth C:L679-691, ...).
BANDS: tuple[Band, ...] = tuple(
    Band(low=low, high=high, label=f"{low}-{high}" if high is not None else str(low))
    for low, high in (
        (1, 2), (3, 5), (6, 9), (10, 19), (20, 29), (30, 39), (40, 49),
        (50, 74), (75, 99), (100, 149), (150, 999), (1000, None),
    )
)  # fmt: skip


def band_of(rv: int) -> int | None:
    """The index in `BANDS` of a Rank Value: above 1000 the 1000 band; 0 none, as a power at
    Rank Value 0 does nothing (catalogue 3.0)."""
    if rv <= 0:
        return None
    return next(i for i, band in enumerate(BANDS) if band.high is None or rv <= band.high)


def by_band(rv: int, values: Sequence[T]) -> T | None:
    """The value a power table gives a Rank Value: `values` holds one per band, in order."""
    if len(values) != len(BANDS):
        raise ValueError(f"a power table has {len(BANDS)} bands, not {len(values)}")
    index = band_of(rv)
    return None if index is None else values[index]


class BandRow(Model):
    """A row of a power table: the Rank Values it holds, `rv_max` None for the open top."""

    rv_min: int
    rv_max: int | None


B = TypeVar("B", bound=BandRow)


def banded(rv: int, rows: Sequence[B]) -> B | None:
    """The row holding a Rank Value: above the last row the last (1000+ reads 1000, and past a
    table's top its top row, A-29); 0 none, the power does nothing (catalogue 3.0)."""
    if rv <= 0:
        return None
    return next((r for r in rows if r.rv_max is None or rv <= r.rv_max), rows[-1])


class SpeedRow(BandRow):
    sectors: int | None = Field(description="None: around the world in a single turn.")
    text: str


class LiftRow(BandRow):
    weight: str = Field(description="As the text writes it.")
    pounds: int = Field(description="The weight in pounds, a ton being 2,000.")


#: Sectors a turn by power Rank Value: Flight, Superleap, Superspeed (C:L649-665).
SPEED: Table[SpeedRow] = table(__name__, "movement-speed", SpeedRow)
#: The heaviest object lifted by power Rank Value: E/E Control, Telekinesis (C:L568-584).
LIFT: Table[LiftRow] = table(__name__, "lift", LiftRow)


class HalfRounding(StrEnum):
    UP = "up"
    DOWN = "down"


def half(rv: int, rounding: HalfRounding = HalfRounding.UP) -> int:
    """One-half of a Rank Value; the text rounds halves up where it says (C:L748, C:L910), and
    where it does not (Amplified, Generation, Mind Shield) up by default (A-11)."""
    return (rv + 1) // 2 if rounding is HalfRounding.UP else rv // 2


def tenth(rv: int) -> int:
    """One-tenth of a Rank Value, rounded up: a power's range and reach in sectors (C:L556,
    C:L1091, A-72)."""
    return ceil(rv / 10)


class OpposedTie(StrEnum):
    ACTIVE = "active"
    REROLL = "reroll"
    REACTIVE = "reactive"


class PowerOptions(CoreOptions):
    """The core's readings of dice and ranks, and those every power shares; a module needing
    more subclasses this. Every default is the catalogue's."""

    half_rounding: HalfRounding = option(
        HalfRounding.UP,
        ambiguity="A-11",
        description="'One-half' of a Rank Value where the text names no rounding (Amplified "
        "E/E Control, E/E Generation, Mind Shield): up, or down.",
    )
    opposed_tie: OpposedTie = option(
        OpposedTie.ACTIVE,
        ambiguity="A-31",
        description="A tie of two d% + bonus totals: the active side (the searcher, the "
        "telepath) wins, as the reacting side must roll higher (C:L518); ties are rolled "
        "again; or the reacting side (the hider, the blocker) wins.",
    )


class PowerRoll(Laddered):
    """How a power's Master Table roll is made: everything but its Rank Value, which the
    operation derives from the power and the character."""

    rv_modifiers: tuple[Annotated[int, Field(ge=-1000, le=1000)], ...] = Field(
        default=(), max_length=8, description="Numeric modifiers, added before the row is read."
    )
    row_steps: RowSteps = ()
    roll_modifier: Annotated[int, Field(ge=-99, le=99)] = Field(
        default=0, description="Added to the d% roll, which stays within 00-99."
    )
    mode: DiceMode = Field(
        default=DiceMode.NORMAL,
        description="How the d% is rolled: amplified with Amplified E/E Control (C:L490).",
    )
    options: PowerOptions = Field(default=PowerOptions())


def power_master(request: PowerRoll, rv: int) -> MasterInput:
    """The Master Table roll of a power at Rank Value `rv` (held within the scale; every row
    ends below it)."""
    return MasterInput(
        rv=min(max(rv, 0), MAX_RV),
        rv_modifiers=request.rv_modifiers,
        row_steps=request.row_steps,
        roll_modifier=request.roll_modifier,
        mode=request.mode,
        options=request.options,
        master_table=request.master_table,
        custom_master_table=request.custom_master_table,
    )


class Outcome(Model):
    """What a colour means for one power's check."""

    result: str
    text: str
    success: bool


def threshold(required: Colour, failure: Outcome, success: Outcome) -> dict[Colour, Outcome]:
    """A check that succeeds at `required` or better (C:L1304-1318)."""
    return {c: success if c.level >= required.level else failure for c in Colour}


class PowerCheck(Resolved):
    """Where the power's roll landed, and what that colour does."""

    result: str
    text: str
    success: bool


def roll_power(
    request: PowerRoll,
    rv: int,
    table: Mapping[Colour, Outcome],
    dice: Dice,
    purpose: str = "d%",
) -> PowerCheck:
    """Roll the power at `rv` with the request's Row Steps and read the colour's outcome."""
    resolved = resolve_roll(power_master(request, rv), dice, purpose)
    outcome = table[resolved.colour]
    return PowerCheck(**dict(resolved), **dict(outcome))


class PowerCheckOdds(Model):
    success: Exact
    result: list[OutcomeProbability]
    colour: list[OutcomeProbability]
    master_table: str


def power_odds(request: PowerRoll, rv: int, table: Mapping[Colour, Outcome]) -> PowerCheckOdds:
    """Every colour, every result and success of the power's roll, exactly (catalogue 5.1)."""
    colours = colour_distribution(power_master(request, rv))
    results = colours.map(lambda c: table[c].result)
    order = list(dict.fromkeys(table[c].result for c in Colour))
    return PowerCheckOdds(
        success=exact(colours.probability_where(lambda c: table[c].success)),
        result=outcome_table(results, order),
        colour=outcome_table(colours.map(lambda c: c.value), COLOURS),
        master_table=request.table_name,
    )


def power_cost(request: object) -> Estimate:
    """One Master Table roll read on an outcome table (`table_cost`): the same for every
    request."""
    return table_cost(request)


#: Ties rolled again at most this often; going further has a chance below 1e-100.
REROLLS = 50

#: Two d% rolls, every pair, and the tables: the same for every request.
OPPOSED_COST = 3 * 10_000 + 500


class Opposed(Model):
    """Two d% + bonus totals, the higher winning; ties as `opposed_tie` says."""

    active_rolls: list[int] = Field(description="The active side's d%, each tie rolled again.")
    reactive_rolls: list[int]
    active_total: int = Field(description="The last roll with its bonus.")
    reactive_total: int
    winner: str = Field(description="'active' or 'reactive'.")


def _side(difference: int) -> str:
    return "active" if difference > 0 else "reactive" if difference < 0 else "tie"


def roll_opposed(
    dice: Dice, active_bonus: int, reactive_bonus: int, tie: OpposedTie, names: tuple[str, str]
) -> Opposed:
    """Each side rolls d% and adds its bonus; the higher total wins (C:L518). `names` label the
    dice of the active and the reacting side."""
    active: list[int] = []
    reactive: list[int] = []
    for _ in range(REROLLS):
        active.append(roll_d100(dice, DiceMode.NORMAL, f"{names[0]} d%").roll)
        reactive.append(roll_d100(dice, DiceMode.NORMAL, f"{names[1]} d%").roll)
        side = _side(active[-1] + active_bonus - reactive[-1] - reactive_bonus)
        if side != "tie" or tie is not OpposedTie.REROLL:
            break
    winner = side if side != "tie" else _tie_winner(tie)
    return Opposed(active_rolls=active, reactive_rolls=reactive,
                   active_total=active[-1] + active_bonus,
                   reactive_total=reactive[-1] + reactive_bonus, winner=winner)  # fmt: skip


def _tie_winner(tie: OpposedTie) -> str:
    """A tie left standing (or, past `REROLLS`, still tied) goes to the active side unless the
    option gives it to the reacting side."""
    return "reactive" if tie is OpposedTie.REACTIVE else "active"


class OpposedOdds(Model):
    winner: list[OutcomeProbability] = Field(description="'active' or 'reactive'.")
    first_roll: list[OutcomeProbability] = Field(
        description="One roll each: 'active', 'tie' or 'reactive' (catalogue 5.6)."
    )


def opposed_odds(active_bonus: int, reactive_bonus: int, tie: OpposedTie) -> OpposedOdds:
    """Catalogue 5.6: with k = active - reactive bonus, P(active higher) and P(tie) from one
    roll each; re-rolled ties share out in proportion, else the tie goes to its side."""
    roll = d100_distribution(DiceMode.NORMAL)
    first = roll.then(lambda a: roll.map(lambda r: _side(a + active_bonus - r - reactive_bonus)))
    ties = first.weight("tie")
    if tie is OpposedTie.REROLL and ties < first.total:
        weights = {s: first.weight(s) for s in ("active", "reactive")}
        winner = Distribution({k: w for k, w in weights.items() if w}, total=first.total - ties)
    else:
        winner = first.map(lambda s: _tie_winner(tie) if s == "tie" else s)
    return OpposedOdds(winner=outcome_table(winner, ["active", "reactive"]),
                       first_roll=outcome_table(first, ["active", "tie", "reactive"]))  # fmt: skip
