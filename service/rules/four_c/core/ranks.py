"""Rank Values, their rows on the Master Table and Row Steps (C:L260-306, C:L949-957).

A row is read from the Master Table in use: the Libre Edition's basic ladder (13 rows, 0 to
1000) by default, its advanced one (18 rows), or a caller's own, validated as catalogue
3.2.1 says. Every result names the table it read.
"""

from enum import StrEnum
from typing import Annotated, Self

from pydantic import Field, model_validator

from service.rules.four_c.core.options import CoreOptions, RowValue
from service.rules.four_c.core.tables import LADDERS, RANKS, MasterRow, RankRow
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "MAX_RV",
    "CustomMasterTable",
    "Ladder",
    "Laddered",
    "RankValue",
    "RowSteps",
    "Stepped",
    "configure_default",
    "row_of",
    "stepped",
]

#: The largest Rank Value accepted: the advanced ladder's top row starts at 5000.
MAX_RV = 100_000
RankValue = Annotated[int, Field(ge=0, le=MAX_RV)]
RowSteps = Annotated[
    tuple[Annotated[int, Field(ge=-20, le=20)], ...],
    Field(max_length=16, description="Row Steps from every source; summed, then applied."),
]


class Ladder(StrEnum):
    LIBRE_BASIC = "libre-basic"
    LIBRE_ADVANCED = "libre-advanced"


class CustomMasterTable(Model):
    """A Master Table of the caller's own: rows numbered from 0 whose Rank Value ranges run
    on from 0 without a gap (only the last may be open), each row's bands covering 00-99 once,
    black to yellow (catalogue 3.2.1)."""

    name: Annotated[str, Field(min_length=1, max_length=60)]
    rows: Annotated[tuple[MasterRow, ...], Field(min_length=1, max_length=40)]

    @model_validator(mode="after")
    def _contiguous(self) -> Self:
        expected = 0
        for index, row in enumerate(self.rows):
            if row.row != index or row.rv_min != expected:
                raise ValueError(
                    f"row {index} must be numbered {index} and start at Rank Value {expected}"
                )
            if row.rv_max is None:
                if index != len(self.rows) - 1:
                    raise ValueError("only the last row may be open-ended")
                break
            if row.rv_max < row.rv_min:
                raise ValueError(f"row {index} ends before it starts")
            expected = row.rv_max + 1
        return self


class Laddered(Model):
    """Which Master Table to read: the one a request names or brings, else the service's
    default (the Libre Edition's basic table unless configured, `configure_default`)."""

    master_table: Ladder | None = Field(
        default=None,
        description="A table the service holds (C:L939, L955); null: the service's default.",
    )
    custom_master_table: CustomMasterTable | None = Field(
        default=None, description="A table of your own, used instead of master_table."
    )

    @property
    def table_name(self) -> str:
        return self._table[0]

    @property
    def table_rows(self) -> tuple[MasterRow, ...]:
        return self._table[1]

    @property
    def _table(self) -> tuple[str, tuple[MasterRow, ...]]:
        if self.custom_master_table is not None:
            return self.custom_master_table.name, self.custom_master_table.rows
        if self.master_table is not None:
            return self.master_table.value, tuple(LADDERS[self.master_table.value])
        return _default


_BASIC = (Ladder.LIBRE_BASIC.value, tuple(LADDERS[Ladder.LIBRE_BASIC.value]))
_default = _BASIC


def configure_default(table: CustomMasterTable | None) -> None:
    """Make `table` the Master Table of requests that name none (`FOUR_C_MASTER_TABLE`); None
    restores the Libre Edition's basic table. Set once, as the service starts: every replica
    sharing a cache must be configured alike, as results name the table they read."""
    global _default
    _default = _BASIC if table is None else (table.name, table.rows)


def row_of(rv: int, rows: tuple[MasterRow, ...]) -> int:
    """The row whose Rank Value range holds `rv`; past the last row's end, the last row (a
    basic RV over 1000 reads as 1000, catalogue 3.1.2)."""
    for row in rows:
        if row.rv_max is None or rv <= row.rv_max:
            return row.row
    return rows[-1].row


def describe(rv: int) -> RankRow:
    """The basic ladder's description and Rank Names of a Rank Value (C:L266-301)."""
    return next((r for r in RANKS if r.rv_min <= rv <= r.rv_max), RANKS[-1])


class RowInput(Laddered):
    rv: RankValue = Field(description="A Rank Value after its numeric modifiers.")


class Row(Model):
    """A Rank Value's row: its range, the lowest value in it, and what it means."""

    rv: int
    row: int
    rv_min: int
    rv_max: int | None
    row_floor: int = Field(description="The row's lowest Rank Value (catalogue A-03).")
    description: str | None
    rank_names: tuple[str, ...] = Field(description="The optional rule's names (C:L284-306).")
    note: str | None
    master_table: str


@operation(
    name="rank/row",
    kind=Kind.LOOKUP,
    covers=("4c.rank.row_of", "4c.rank.row_floor"),
    example={"rv": 35},
)
def rank_row(request: RowInput) -> Row:
    """The Master Table row of a Rank Value, the lowest value of that row, and the basic
    ladder's description and Rank Names of the value (C:L260-306)."""
    rows = request.table_rows
    found = rows[row_of(request.rv, rows)]
    meaning = describe(request.rv)
    return Row(
        rv=request.rv,
        row=found.row,
        rv_min=found.rv_min,
        rv_max=found.rv_max,
        row_floor=found.rv_min,
        description=meaning.description,
        rank_names=meaning.names,
        note=meaning.note,
        master_table=request.table_name,
    )


class Stepped(Model):
    """A Rank Value moved by Row Steps."""

    rv: int = Field(description="The Rank Value with its numeric modifiers.")
    row_before: int
    net_steps: int
    row: int
    rv_effective: int = Field(description="The Rank Value the row stands for (option row_value).")
    master_table: str


def stepped(rv: int, steps: tuple[int, ...], laddered: Laddered, options: CoreOptions) -> Stepped:
    """+1 Row Step moves to the next row up, -2 two rows down (C:L951): the steps are summed,
    then the row is clamped once to the table (A-04). Numeric modifiers come first. With no
    net Row Step the Rank Value stands as it is (catalogue 3.1.3), even where
    rs_clamp_min_row reads a Rank Value 0 on row 1: Brawn 0 still deals 0 (C:L1167). A
    penalty moves the value lower (C:L951), so it never raises it: with rs_clamp_min_row=1 a
    penalised Rank Value 0 reads row 1 and stays 0, and a block on Brawn 0 deals 0
    (C:L1206-1211)."""
    rows = laddered.table_rows
    before = row_of(rv, rows)
    net = sum(steps)
    row = min(max(before + net, options.rs_clamp_min_row), len(rows) - 1)
    if net == 0:  # no Row Step: the value itself, even on a row clamped up (catalogue 3.1.3)
        effective = rv
    elif options.row_value is RowValue.FLOOR:
        effective = rows[row].rv_min
    else:
        moved = rv + rows[row].rv_min - rows[before].rv_min
        top = rows[row].rv_max
        effective = max(moved if top is None else min(moved, top), rows[row].rv_min)
    if net < 0:  # a penalty lowers the value or leaves it (C:L951), even on a row clamped up
        effective = min(effective, rv)
    return Stepped(rv=rv, row_before=before, net_steps=net, row=row, rv_effective=effective,
                   master_table=laddered.table_name)  # fmt: skip


class RowStepsInput(Laddered):
    rv: RankValue
    rv_modifiers: tuple[Annotated[int, Field(ge=-1000, le=1000)], ...] = Field(
        default=(), max_length=8, description="Numeric modifiers, added before the row is read."
    )
    row_steps: RowSteps = ()
    options: CoreOptions = Field(default=CoreOptions())


@operation(
    name="rank/apply-row-steps",
    kind=Kind.CALCULATION,
    covers=("4c.rank.apply_row_steps",),
    example={"rv": 35, "row_steps": [1]},
)
def apply_row_steps(request: RowStepsInput) -> Stepped:
    """Move a Rank Value's row by its Row Steps: Jessica's Melee 30-39 with +1 Row Step is
    40-49 for this attack (C:L949-953)."""
    rv = max(request.rv + sum(request.rv_modifiers), 0)
    return stepped(rv, request.row_steps, request, request.options)
