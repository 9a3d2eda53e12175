"""One d% roll read on a generation table: two d10 read as tens and ones, 00 being 0
(C:L41-47), each table covering 00-99 once."""

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from service.rules.dice import Dice
from service.rules.distribution import Distribution
from service.rules.four_c.characters.tables import B, looked_up
from service.rules.four_c.core.dice import DiceMode, roll_d100

__all__ = ["on_table", "roll_on"]

T = TypeVar("T", bound=Hashable)


def roll_on(rows: Iterable[B], dice: Dice, purpose: str) -> tuple[int, B]:
    """Roll d% for `purpose` (the roll log names it) and read the row it lands in."""
    roll = roll_d100(dice, DiceMode.NORMAL, purpose).roll
    return roll, looked_up(rows, roll)


def on_table(rows: Iterable[B], value: Callable[[B], T]) -> "Distribution[T]":
    """What one d% roll reads on a table: each row weighs the faces it covers, of 100."""
    return Distribution(
        ((value(row), row.roll_max - row.roll_min + 1) for row in rows),
        total=100,
    )
