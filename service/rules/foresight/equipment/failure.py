"""Failure ranges (F:L3564-3589): the D100 rolls on which an item fails when it is used.

The same D100 is the task's roll and the item's failure test (F:L3587): a weapon's Jam is its
failure range tested against the fire roll (F:L3664). A range is a letter of the Failure Ranges
table (A utterly reliable ... M dysfunctional, F:L3570-3583) or, in other tables, the faces
written out: `99`, `98-99`, `91-99`, `99*`. A starred range fails on its faces only when a
following D10 shows 10 (F:L3585). An item with no stated range is utterly reliable (F:L3566).

Reliability shifts one letter per step: better (+) moves the range up the table towards A,
worse (-) down towards M (F:L3589). Numbers have no defined shift (AMB2-38): `shift` refuses
them unless told how (`NumericFailureShift`); the catalogue recommends moving the low end one
face a step (`NumericFailureShift.LOW_END`), which the `item/...` operations default to.

Plain functions only: the `item/failure-check` operation (issue 24) and `ranged/jam` use them.
"""

import re
from collections.abc import Iterable
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Distribution
from service.rules.model import InputError, Model
from service.rules.tables import table

__all__ = [
    "FAILURE_RANGES",
    "FAILURE_RANGE_TABLE",
    "FailureCode",
    "FailureKind",
    "FailureRange",
    "FailureRow",
    "NumericFailureShift",
    "fails",
    "failure_outcomes",
    "failure_probability",
    "needs_follow_up",
    "parse_failure_range",
    "shift",
    "shift_numeric",
]

#: A failure range as written: a letter A-M, or faces `99`, `98-99`, `99*`.
FailureCode = Annotated[
    str,
    Field(
        pattern=r"^([A-M]|\d{1,3}(-\d{1,3})?\*?)$",
        max_length=8,
        examples=["A", "B", "C", "D", "E", "F", "I", "J", "99", "98-99", "99*"],
        description="A Failure Ranges letter A-M (F:L3570-3583) or the faces that fail, "
        "e.g. '99', '98-99', '99*' (starred: only if a further D10 shows 10, F:L3585).",
    ),
]


class FailureKind(StrEnum):
    ROLLS = "rolls"
    FAILS_ON_USE = "fails_on_use"
    REPAIR_BEFORE_USE = "repair_before_use"
    REPAIR_AND_REBUILD = "repair_and_rebuild"
    PARTS_ONLY = "parts_only"


class FailureRow(Model):
    code: str
    name: str
    failure_rolls: str = Field(description="As printed.")
    kind: FailureKind = Field(
        description="'rolls': fails on the faces listed; J fails on use; K must be repaired "
        "before each use, L also rebuilt after it; M is only good for parts."
    )
    faces: list[int] = Field(description="The D100 faces that fail, for 'rolls'.")
    follow_up_d10: bool = Field(description="Fails on its faces only if a D10 then shows 10.")


FAILURE_RANGE_TABLE = table(__name__, "failure-ranges", FailureRow)
FAILURE_RANGES = {row.code: row for row in FAILURE_RANGE_TABLE}
_LETTERS = "".join(row.code for row in FAILURE_RANGE_TABLE)


class FailureRange(Model):
    """A failure range read: the faces that fail, and whether a D10 of 10 must confirm it."""

    code: str
    kind: FailureKind
    faces: frozenset[int]
    follow_up_d10: bool


def parse_failure_range(code: str, loc: tuple[str | int, ...] = ("jam",)) -> FailureRange:
    """A letter's row of the table, or the faces of a numeric range (`98-99`, `99*`)."""
    if code in FAILURE_RANGES:
        row = FAILURE_RANGES[code]
        return FailureRange(code=code, kind=row.kind, faces=frozenset(row.faces),
                            follow_up_d10=row.follow_up_d10)  # fmt: skip
    found = re.fullmatch(r"(\d{1,3})(?:-(\d{1,3}))?(\*?)", code)
    if found is None:
        raise InputError(loc, f"{code!r} is no failure range: a letter A-M or faces like 98-99")
    low = int(found.group(1))
    high = int(found.group(2) or low)
    if not 1 <= low <= high <= 100:
        raise InputError(loc, f"{code!r}: the faces run from 1 to 100, low to high")
    return FailureRange(code=code, kind=FailureKind.ROLLS, faces=frozenset(range(low, high + 1)),
                        follow_up_d10=bool(found.group(3)))  # fmt: skip


def needs_follow_up(found: FailureRange, roll: int) -> bool:
    """A starred range's face was rolled: a D10 decides (F:L3585)."""
    return found.follow_up_d10 and roll in found.faces


def fails(
    code: str | FailureRange, roll: int, follow_up_d10: int | None = None, repaired: bool = False
) -> bool:
    """Does the item fail on this D100 roll (F:L3570-3585)? A starred range's face fails only
    with a D10 of 10 (`follow_up_d10`, required then). J fails on use; K and L fail unless
    repaired before this use (L must then be rebuilt); M never works."""
    found = code if isinstance(code, FailureRange) else parse_failure_range(code)
    if found.kind is FailureKind.FAILS_ON_USE or found.kind is FailureKind.PARTS_ONLY:
        return True
    if found.kind is not FailureKind.ROLLS:
        return not repaired
    if roll not in found.faces:
        return False
    if not found.follow_up_d10:
        return True
    if follow_up_d10 is None:
        raise ValueError(f"{found.code} on {roll}: a follow-up D10 decides")
    return follow_up_d10 == 10


def failure_outcomes(
    found: FailureRange, faces: Iterable[int], repaired: bool = False
) -> Distribution[bool]:
    """Whether the item fails, over the D100 faces given (each weighing 10), a starred
    range's face split 1 in 10 by its D10 (F:L3585)."""
    if found.kind is not FailureKind.ROLLS:
        return Distribution([(fails(found, 0, repaired=repaired), 1)])
    pairs: list[tuple[bool, int]] = []
    for face in faces:
        if needs_follow_up(found, face):
            pairs += [(True, 1), (False, 9)]
        else:
            pairs.append((fails(found, face), 10))
    return Distribution(pairs)


def failure_probability(code: str | FailureRange, repaired: bool = False) -> Fraction:
    """P(failure) per use over the 100 faces (and the D10 of a starred range): B is 1/1000,
    C 1/100, D 2/100 ... I 1/2, J 1 (catalogue part 2, Q10)."""
    found = code if isinstance(code, FailureRange) else parse_failure_range(code)
    if found.kind is not FailureKind.ROLLS:
        return Fraction(int(fails(found, 1, repaired=repaired)))
    per_face = Fraction(1, 10) if found.follow_up_d10 else Fraction(1)
    return len(found.faces) * per_face / 100


class NumericFailureShift(StrEnum):
    """How a range written as faces ('98-99', '99*') shifts (AMB2-38)."""

    #: The catalogue's recommendation: one face a step at the low end.
    LOW_END = "low_end"
    #: Only letters shift; a numeric range is refused (the book defines no more).
    REFUSE = "refuse"


def shift(
    code: str,
    steps: int,
    loc: tuple[str | int, ...] = ("code",),
    numeric: NumericFailureShift = NumericFailureShift.REFUSE,
) -> str:
    """Move a letter `steps` better (+, towards A) or worse (-, towards M), one letter a step,
    stopping at A and M (F:L3589). A numeric range has no defined shift (AMB2-38): refused,
    or moved at its low end (`shift_numeric`) when `numeric` says so."""
    if code not in FAILURE_RANGES:
        if numeric is NumericFailureShift.LOW_END:
            return shift_numeric(code, steps, loc)
        raise InputError(loc, f"only a letter A-M shifts, not {code!r} (AMB2-38)")
    at = min(len(_LETTERS) - 1, max(0, _LETTERS.index(code) - steps))
    return _LETTERS[at]


def shift_numeric(code: str, steps: int, loc: tuple[str | int, ...] = ("code",)) -> str:
    """A range of faces moved one face a step at its low end (AMB2-38, the catalogue's
    recommendation): worse (-) widens it downwards ('98-99' -> '97-99'), to face 1 at most;
    better (+) narrows it ('97-99' -> '98-99' -> '99'). Past a single face it goes the way
    the letters do from C '99' to B '99*' to A (F:L3570-3573): a better step stars a single
    face, the next leaves no range ('A', utterly reliable). A worse step takes a star off
    before it widens ('99*' -> '99' -> '98-99'); a better one keeps it ('98-99*' -> '99*')."""
    found = parse_failure_range(code, loc)
    if found.kind is not FailureKind.ROLLS or not found.faces:
        raise InputError(loc, f"{code!r} is no range of faces")
    low, high, starred = min(found.faces), max(found.faces), found.follow_up_d10
    for _ in range(abs(steps)):
        if steps > 0:
            if low < high:
                low += 1
            elif not starred:
                starred = True
            else:
                return "A"
        elif starred:
            starred = False
        else:
            low = max(1, low - 1)
    faces = str(low) if low == high else f"{low}-{high}"
    return faces + ("*" if starred else "")
