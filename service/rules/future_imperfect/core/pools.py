"""Pools: a column (the die type, I to V) and a row (how many dice, 1 to 5), written `IV-2`
or `2(4)` (FI:L177, FI:L512), and the shifts that move them (catalogue 1.5).

Columns 1-5 are d4, d6, d8, d10 and d12 (catalogue A-02): adjacent columns are adjacent die
types (FI:L491) and the trait chain starts at d4 (FI:L759). Columns 6 and 7 appear only as
the falling cap 5(7) (FI:L27) and have no die unless the options give one: a roll that needs
one is refused, but a fall answers its code unrolled (A-12).
"""

import re
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["DIE_SIDES", "MAX_ROW", "Pool", "PoolText", "die", "parse", "sides"]

#: Die sides by column (catalogue A-02).
DIE_SIDES = {1: 4, 2: 6, 3: 8, 4: 10, 5: 12}
MAX_ROW = 5
MAX_COLUMN = 7
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII")

PoolText = Annotated[
    str,
    Field(
        min_length=3,
        max_length=8,
        pattern=r"^((VII|VI|IV|V|III|II|I)-[1-5]|[1-5]\([1-7]\)|[1-5]d(4|6|8|10|12))$",
        description="A pool: IV-2 (column-row), 2(4) (row(column)) or 2d10.",
        examples=["III-3", "2(4)", "5d12", "I-1"],
    ),
]

_ROMAN = re.compile(r"(VII|VI|IV|V|III|II|I)-([1-5])")
_CARDS = re.compile(r"([1-5])\(([1-7])\)")
_DICE = re.compile(r"([1-5])d(4|6|8|10|12)")


class Pool(Model):
    """A column and a row, and both ways of writing them."""

    column: Annotated[int, Field(ge=1, le=MAX_COLUMN)]
    row: Annotated[int, Field(ge=1, le=MAX_ROW)]

    @property
    def roman(self) -> str:
        return f"{ROMAN[self.column - 1]}-{self.row}"

    @property
    def cards(self) -> str:
        return f"{self.row}({self.column})"


def parse(text: str, loc: tuple[str | int, ...] = ("pool",)) -> Pool:
    """`IV-2`, `2(4)` and `2d10` are the same pool; anything else is refused under `loc`."""
    cleaned = text.strip()
    if found := _ROMAN.fullmatch(cleaned):
        return Pool(column=ROMAN.index(found.group(1)) + 1, row=int(found.group(2)))
    if found := _CARDS.fullmatch(cleaned):
        return Pool(column=int(found.group(2)), row=int(found.group(1)))
    if found := _DICE.fullmatch(cleaned):
        column = next(c for c, s in DIE_SIDES.items() if s == int(found.group(2)))
        return Pool(column=column, row=int(found.group(1)))
    raise InputError(loc, f"{text!r} is not a pool: write IV-2, 2(4) or 2d10 (columns I-VII, "
                          "rows 1-5)")  # fmt: skip


def die(pool: Pool, options: CoreOptions | None = None) -> int | None:
    """The die of a column, or None: columns 6 and 7 have none in the chapter unless the
    options give them one (A-02)."""
    extra = {6: options.column_6_die, 7: options.column_7_die} if options else {}
    return DIE_SIDES.get(pool.column) or extra.get(pool.column)


def sides(
    pool: Pool, loc: tuple[str | int, ...] = ("pool",), options: CoreOptions | None = None
) -> int:
    """The die of a column; a column without one (`die`) is refused under `loc` (A-02)."""
    found = die(pool, options)
    if found is None:
        message = (f"column {pool.column} has no die in chapter 3: set options.column_"
                   f"{pool.column}_die (catalogue A-02)")  # fmt: skip
        raise InputError(loc, message)
    return found


class ParseInput(Model):
    notation: PoolText


class Parsed(Model):
    column: int
    row: int
    roman: str = Field(description="Column-row: IV-2.")
    cards: str = Field(description="Row(column): 2(4).")
    die_sides: int | None = Field(description="The column's die; null for columns 6 and 7.")


def described(pool: Pool) -> Parsed:
    return Parsed(column=pool.column, row=pool.row, roman=pool.roman, cards=pool.cards,
                  die_sides=DIE_SIDES.get(pool.column))  # fmt: skip


@operation(
    name="core/pool/parse",
    kind=Kind.LOOKUP,
    covers=("fi.core.pool.parse",),
    example={"notation": "IV-2"},
)
def parse_pool(request: ParseInput) -> Parsed:
    """Read a pool written column-row (`IV-2`, FI:L177) or row(column) (`2(3)`, FI:L512: "the
    first integer is the number of cards, and the second is the column"), or as dice."""
    return described(parse(request.notation, ("notation",)))


class Shift(StrEnum):
    ROWS_UP = "rows_up"
    ROWS_DOWN = "rows_down"
    COLUMNS_LEFT = "columns_left"
    COLUMNS_RIGHT = "columns_right"
    RUSH = "rush"
    FALL = "fall"


class ShiftInput(Model):
    pool: PoolText
    shift: Shift = Field(
        description="rows_up: fewer dice; rows_down: more; columns_left: a smaller die; "
        "columns_right: a bigger one; rush: toward I-1, a row at a time, then left (FI:L175); "
        "fall: toward 5(7), a row at a time, then right (FI:L27)."
    )
    steps: Annotated[int, Field(ge=0, le=40)]


class Shifted(Parsed):
    stopped: bool = Field(description="The shift ran off the table and stopped at its edge.")


def _step(column: int, row: int, shift: Shift) -> tuple[int, int] | None:
    """One shift, or None where it would leave the table."""
    if shift is Shift.RUSH:  # a row up, and from the top row a column left (FI:L175)
        return (column, row - 1) if row > 1 else (column - 1, row) if column > 1 else None
    if shift is Shift.FALL:  # a row down, and from the bottom row a column right (FI:L27)
        if row < MAX_ROW:
            return column, row + 1
        return (column + 1, row) if column < MAX_COLUMN else None
    row += {Shift.ROWS_UP: -1, Shift.ROWS_DOWN: 1}.get(shift, 0)
    column += {Shift.COLUMNS_LEFT: -1, Shift.COLUMNS_RIGHT: 1}.get(shift, 0)
    return (column, row) if 1 <= row <= MAX_ROW and 1 <= column <= MAX_COLUMN else None


def shifted(pool: Pool, shift: Shift, steps: int) -> tuple[Pool, bool]:
    """Move a pool `steps` times; a shift that runs off the table stops at its edge."""
    column, row, stopped = pool.column, pool.row, False
    for _ in range(steps):
        moved = _step(column, row, shift)
        if moved is None:
            stopped = True
        else:
            column, row = moved
    return Pool(column=column, row=row), stopped


@operation(
    name="core/pool/shift",
    kind=Kind.LOOKUP,
    covers=("fi.core.pool.shift",),
    example={"pool": "IV-2", "shift": "rush", "steps": 4},
)
def shift_pool(request: ShiftInput) -> Shifted:
    """Shift a pool: Kayla's IV-2 rushed four times goes all the way to I-1 (FI:L177); a fall
    grows a row at a time, then a column, capped at 5(7) (FI:L27)."""
    pool, stopped = shifted(parse(request.pool), request.shift, request.steps)
    return Shifted(**dict(described(pool)), stopped=stopped)
