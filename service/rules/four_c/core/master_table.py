"""The Master Table: a Rank Value's row, moved by Row Steps, read with a d% roll as black
(failed), red (minor success), blue (success) or yellow (major success) (C:L937-953); a check
succeeds at the colour the GM requires or better (C:L1304-1318)."""

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Annotated, TypeVar

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.core.dice import D100, DiceMode, d100_cost, d100_distribution, roll_d100
from service.rules.four_c.core.options import CoreOptions
from service.rules.four_c.core.ranks import Laddered, RankValue, RowSteps, stepped
from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "FORTUNE_PER_SHIFT",
    "MasterInput",
    "Resolved",
    "colour_distribution",
    "read",
    "reader",
    "resolve_roll",
    "result_distribution",
    "table_cost",
]

R = TypeVar("R")

#: Fortune one colour shift costs (C:L961).
FORTUNE_PER_SHIFT = 25
COLOURS = [c.value for c in Colour]


class MasterInput(Laddered):
    """A Master Table roll: the Rank Value, what moves it, and how the d% is rolled."""

    rv: RankValue = Field(description="The trait's or power's Rank Value.")
    rv_modifiers: tuple[Annotated[int, Field(ge=-1000, le=1000)], ...] = Field(
        default=(), max_length=8, description="Numeric modifiers, added before the row is read."
    )
    row_steps: RowSteps = ()
    roll_modifier: Annotated[int, Field(ge=-99, le=99)] = Field(
        default=0,
        description="Added to the d% roll, which stays within 00-99 (a -20 penalty on d% "
        "rolls, Weapons & Gear, A-42).",
    )
    mode: DiceMode = Field(default=DiceMode.NORMAL, description="How the d% is rolled.")
    options: CoreOptions = Field(default=CoreOptions())


class Resolved(Model):
    """Where the roll landed."""

    colour: Colour
    row: int = Field(description="The row read, after Row Steps.")
    rv_effective: int
    d100: D100
    roll_used: int = Field(description="The roll with its modifier, within 00-99.")
    master_table: str


def read(request: MasterInput, roll: int) -> tuple[int, Colour]:
    """The roll a modifier makes and its colour (`reader`)."""
    return reader(request)(roll)


def reader(request: MasterInput) -> Callable[[int], tuple[int, Colour]]:
    """The roll a modifier makes (a -20 piles up at 00, catalogue 5.1) and its colour on the
    row the Rank Value and Row Steps give: the row is found once for every roll read."""
    moved = stepped(_rv(request), request.row_steps, request, request.options)
    bands = request.table_rows[moved.row].bands

    def read_roll(roll: int) -> tuple[int, Colour]:
        used = min(max(roll + request.roll_modifier, 0), 99)
        return used, bands.colour_of(used)

    return read_roll


def resolve_roll(request: MasterInput, dice: Dice, purpose: str = "d%") -> Resolved:
    moved = stepped(_rv(request), request.row_steps, request, request.options)
    rolled = roll_d100(dice, request.mode, purpose)
    used, colour = read(request, rolled.roll)
    return Resolved(colour=colour, row=moved.row, rv_effective=moved.rv_effective, d100=rolled,
                    roll_used=used, master_table=request.table_name)  # fmt: skip


def colour_distribution(request: MasterInput) -> Distribution[Colour]:
    """The colour of every roll the mode can make, exactly."""
    read_roll = reader(request)
    return d100_distribution(request.mode).map(lambda roll: read_roll(roll)[1])


def result_distribution(request: MasterInput, results: Mapping[Colour, R]) -> Distribution[R]:
    """What a result table makes of every colour the roll can land on."""
    return colour_distribution(request).map(lambda colour: results[colour])


def _rv(request: MasterInput) -> int:
    return max(request.rv + sum(request.rv_modifiers), 0)


class ColourChance(Model):
    """The chance of one colour or better: of overlapping events, so they need not sum to 1."""

    colour: Colour
    chance: Exact


class ColourOdds(Model):
    colour: list[OutcomeProbability] = Field(description="Each colour.")
    at_least: list[ColourChance] = Field(description="Each colour or better.")
    master_table: str


def colour_odds(request: MasterInput) -> ColourOdds:
    """Every colour of the roll, and every colour or better (catalogue 5.1)."""
    found = colour_distribution(request)
    return ColourOdds(
        colour=outcome_table(found.map(lambda c: c.value), COLOURS),
        at_least=_by_colour(lambda c: _at_least(found, c.level)),
        master_table=request.table_name,
    )


def _at_least(found: Distribution[Colour], level: int) -> Fraction:
    return found.probability_where(lambda c: c.level >= level)


def _by_colour(probability: Callable[[Colour], Fraction]) -> list[ColourChance]:
    return [ColourChance(colour=c, chance=exact(probability(c))) for c in Colour]


def master_cost(request: object) -> Estimate:
    """A d% roll under any mode (`dice.d100_cost`), each read once, and the tables of four
    colours: the same for every request."""
    return Estimate(d100_cost(request).states + 100 + 50, ())


def table_cost(request: object) -> Estimate:
    """One roll (`master_cost`) read on a result table: the same for every request."""
    return Estimate(master_cost(request).states + 50, ())


@operation(
    name="master-table/resolve",
    kind=Kind.CHECK,
    covers=("4c.master_table.resolve",),
    odds=colour_odds,
    cost=master_cost,
    standard=[{"rv": floor} for floor in (1, 3, 6, 10, 20, 30, 40, 50, 75, 100, 150, 1000)],
    example={"rv": 30, "row_steps": [1], "dice": {"values": [6, 2]}},
)
def resolve(request: MasterInput, dice: Dice) -> Resolved:
    """Find the Rank Value's row, move it by the net Row Steps, roll d% and read the colour of
    the band the roll lands in (C:L937-953)."""
    return resolve_roll(request, dice)


class CheckInput(MasterInput):
    required: Colour = Field(
        default=Colour.RED,
        description="The colour the GM requires: black easy, red average, blue difficult, "
        "yellow ridiculous (C:L1312-1318).",
    )


class CheckResult(Resolved):
    required: Colour
    success: bool


class FortuneOdds(Model):
    shifts: int = Field(description="Colour shifts the player can pay for after the roll.")
    fortune: int = Field(description="Their cost at 25 Fortune a shift (C:L961).")
    success: Exact


class CheckOdds(Model):
    success: Exact
    colour: list[OutcomeProbability]
    success_by_required: list[ColourChance] = Field(
        description="The chance of success at each colour the GM could require."
    )
    with_fortune: list[FortuneOdds] = Field(
        description="Success when up to k shifts may be bought after the roll (catalogue 5.1)."
    )
    expected_fortune_to_succeed: Exact = Field(
        description="The Fortune, on average, that buys success after any roll."
    )
    master_table: str


def check_odds(request: CheckInput) -> CheckOdds:
    """P(success) at the required colour, at every other, and with k shifts bought
    (catalogue 5.1)."""
    found = colour_distribution(request)
    need = request.required.level
    short = sum((found.probability(c) * max(need - c.level, 0) for c in Colour), Fraction(0))
    return CheckOdds(
        success=exact(_at_least(found, need)),
        colour=outcome_table(found.map(lambda c: c.value), COLOURS),
        success_by_required=_by_colour(lambda c: _at_least(found, c.level)),
        with_fortune=[
            FortuneOdds(
                shifts=k, fortune=FORTUNE_PER_SHIFT * k, success=exact(_at_least(found, need - k))
            )
            for k in range(len(Colour))
        ],
        expected_fortune_to_succeed=exact(FORTUNE_PER_SHIFT * short),
        master_table=request.table_name,
    )


@operation(
    name="master-table/check",
    kind=Kind.CHECK,
    covers=("4c.master_table.check",),
    odds=check_odds,
    cost=master_cost,
    memo=True,
    example={"rv": 20, "required": "blue", "dice": {"seed": 7}},
)
def check(request: CheckInput, dice: Dice) -> CheckResult:
    """The GM picks the trait or power and the colour the action needs; the roll succeeds at
    that colour or better (C:L1304-1318)."""
    resolved = resolve_roll(request, dice)
    return CheckResult(**dict(resolved), required=request.required,
                       success=resolved.colour.level >= request.required.level)  # fmt: skip
