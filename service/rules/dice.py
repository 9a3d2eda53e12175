"""Dice sources and the roll log.

Every random rule takes a `Dice` and asks it for dice one at a time. There are three sources,
chosen by the request (DESIGN.md, "Dice"):

1. a seed: draw k is the first 8 bytes, big-endian, of SHA-256 of the ASCII text
   ``"<seed>:<k>"``; a die of n sides rejects a draw d >= 2**64 - (2**64 mod n) and takes the
   next draw, otherwise it shows ``d % n + 1``. Any client can replay a result from its seed;
2. table dice: values the players rolled, consumed in order and checked against each die;
3. nothing: the server draws a fresh seed from the operating system and reports it.

Every die drawn is written to the roll log with its purpose, so a result explains itself.
"""

import hashlib
import importlib
import struct
from collections.abc import Callable
from contextlib import suppress
from functools import lru_cache
from typing import Annotated, Self

from pydantic import Field, model_validator

from service.rules.entropy import random_bits
from service.rules.model import InputError, Model

__all__ = [
    "MAX_SEED",
    "MAX_SIDES",
    "MAX_TABLE_DICE",
    "Dice",
    "DiceError",
    "DiceSpec",
    "Roll",
    "seeded_value",
]

MAX_SEED = 2**31 - 1
#: Enough for the longest chain of table dice a rule asks for: a whole 4C character with its
#: Alter-Ego and Sidekick and every reroll of a repeated power takes under 200.
MAX_TABLE_DICE = 256
#: The most sides a die has: a chip drawn from the largest Future Imperfect story-chip pot
#: (three colours of at most 1,000 chips), so that every draw a result reports replays.
MAX_SIDES = 3000
_SPAN = 2**64


class DiceSpec(Model):
    """How the dice of one request are rolled: from a seed, from the table, or freshly."""

    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = Field(
        default=None, description="Replay the seeded stream (SHA-256 of '<seed>:<k>')."
    )
    values: (
        Annotated[
            tuple[Annotated[int, Field(ge=1, le=MAX_SIDES)], ...],
            Field(max_length=MAX_TABLE_DICE),
        ]
        | None
    ) = Field(
        default=None,
        description="Dice rolled at the table, consumed in order; [] when the request rolls "
        "none, so that any result's reported rolls replay it.",
    )

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if self.seed is not None and self.values is not None:
            raise ValueError("give either 'seed' or 'values', not both")
        return self


class Roll(Model):
    """One die as it fell: its size, its face, what it was for, the die it exploded from, and
    whether the rule set it aside."""

    sides: int
    value: int
    purpose: str
    exploded_from: int | None = Field(
        default=None, description="Index in 'rolls' of the die whose explosion added this one."
    )
    discarded: bool = Field(
        default=False,
        description="Rolled but set aside uncounted by the rule (the worse tens die of 4C's "
        "amplified d%).",
    )


class DiceError(InputError):
    """Table dice that do not fit the roll: `loc` points into the request's `dice` field."""


_FRESH = DiceSpec()


@lru_cache(maxsize=4096)
def _roll(
    sides: int, value: int, purpose: str, exploded_from: int | None, discarded: bool = False
) -> Roll:
    """A logged die. Rolls are immutable values, so the same die is one shared object: the
    four d8 of a check are drawn from 32, not built four times a request (1.2 µs each)."""
    return Roll(
        sides=sides, value=value, purpose=purpose, exploded_from=exploded_from, discarded=discarded
    )


def seeded_value(seed: int, draw: int) -> int:
    """The 64-bit draw number `draw` of the stream for `seed`: SHA-256 of '<seed>:<draw>'."""
    return _drawn(_prefix(seed), draw)


def _fresh_seed() -> int:
    """A seed of 31 random bits from the operating system."""
    return int.from_bytes(random_bits()[:4], "big") & MAX_SEED


def _prefix(seed: int) -> bytes:
    """'<seed>:', the text every draw of the stream begins with."""
    return b"%d:" % seed


def _builtin_sha256() -> Callable[[bytes], "hashlib._Hash"]:
    """The interpreter's own SHA-256 where it has one: a draw hashes ten-odd bytes, and for
    so few OpenSSL's set-up through `hashlib` costs more than the hashing (half a draw)."""
    for module in ("_sha2", "_sha256"):  # CPython 3.12 and later, then 3.11
        with suppress(ImportError):
            found: Callable[[bytes], hashlib._Hash] = importlib.import_module(module).sha256
            return found
    return hashlib.sha256


_sha256 = _builtin_sha256()
_FIRST_8_BYTES = struct.Struct(">Q").unpack_from


def _drawn(prefix: bytes, draw: int) -> int:
    value: int = _FIRST_8_BYTES(_sha256(prefix + b"%d" % draw).digest())[0]
    return value


class Dice:
    """A source of dice for one request, and the log of every die it gave."""

    def __init__(self, spec: DiceSpec | None = None) -> None:
        spec = spec or _FRESH
        self._values = spec.values
        self.seed: int | None = None
        if self._values is None:
            self.seed = spec.seed if spec.seed is not None else _fresh_seed()
            self._prefix = _prefix(self.seed)
        self._draw = 0
        self.rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str, exploded_from: int | None = None) -> int:
        """Roll one die of `sides` sides and log it; returns the face."""
        value = self.face(sides)
        self.rolls.append(_roll(sides, value, purpose, exploded_from))
        return value

    def face(self, sides: int) -> int:
        """The face of the next die of `sides` sides, not logged: a remembered path's dice
        are logged at its end (`Memo`)."""
        return self._next_table_value(sides) if self._values is not None else self._next(sides)

    def discard(self, index: int) -> None:
        """Mark the logged die at `index` as rolled but not counted. Logged dice are shared
        objects, so the entry is replaced by a discarded copy, never changed."""
        die = self.rolls[index]
        self.rolls[index] = _roll(die.sides, die.value, die.purpose, die.exploded_from, True)

    def mark(self) -> tuple[int, int]:
        """Where the source stands: dice logged and draws taken (see `rewind`)."""
        return len(self.rolls), self._draw

    def rewind(self, mark: tuple[int, int]) -> None:
        """Forget the dice given since `mark`: the next die is the one given then."""
        logged, self._draw = mark
        del self.rolls[logged:]

    def finish(self) -> None:
        """Reject table dice left over: a value the rule did not use is a caller's mistake."""
        if self._values is not None and len(self.rolls) < len(self._values):
            raise DiceError(
                ("values",),
                f"{len(self._values)} dice supplied but the roll used {len(self.rolls)}",
            )

    def _next(self, sides: int) -> int:
        limit = _SPAN - _SPAN % sides
        while True:
            drawn = _drawn(self._prefix, self._draw)
            self._draw += 1
            if drawn < limit:
                return drawn % sides + 1

    def _next_table_value(self, sides: int) -> int:
        assert self._values is not None
        index = self._draw
        self._draw += 1
        if index >= len(self._values):
            raise DiceError(
                ("values",),
                f"not enough dice: the roll needs a d{sides} as die {index + 1} "
                f"but only {len(self._values)} were supplied",
            )
        value = self._values[index]
        if not 1 <= value <= sides:
            raise DiceError(
                ("values", index), f"{value} is out of range for a d{sides} (1..{sides})"
            )
        return value
