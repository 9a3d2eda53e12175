"""Damage-class and armor-rating notation: `DC12i4p`, `+3m2p`, `5is`, `2x16b`; `3A`, `2AA`, `A`
(F:L348, F:L2661-2673, F:L3630-3636, F:L3881-3883).

A damage class is a number of wound levels' potential (DC N can inflict N/2, F:L2634), a type
(m mêlée, i impact, b beam, F:L2667), the armor it pierces (`4p`, F:L2669) and whether it
stuns instead of wounding (`s`, F:L2677). A sign makes it relative to the wielder's unarmed
combat damage class (`+3m` is UCDC + 3, F:L378, F:L3636). An armor rating is a reduction of
the DC and a number of A's, each absorbing one wound level (F:L2661).

Malformed notation is refused with a 422 naming the field and the character at fault.
"""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "ArmorRating",
    "DamageClass",
    "DamageType",
    "Notation",
    "parse_armor_rating",
    "parse_damage_class",
]

#: Notation is short; the longest in the book is `DC12i4p`.
Notation = Annotated[str, Field(min_length=1, max_length=24)]
#: Largest number accepted in a notation (a DC, a pierce, a reduction or a count).
MAX_NUMBER = 999
#: Largest number of A's in an armor rating.
MAX_ABSORB = 20


class DamageType(StrEnum):
    MELEE = "m"
    IMPACT = "i"
    BEAM = "b"
    NONE = "none"


class DamageClass(Model):
    """A parsed damage class."""

    notation: str
    count: int = Field(description="Separate hits per attack: '2x16b' is two DC16 beams.")
    relative: bool = Field(description="Signed: added to the wielder's UCDC (F:L3636).")
    value: int = Field(description="The DC, or what is added to the UCDC when relative.")
    type: DamageType = Field(description="m, i, b; 'none' for hazards (poison, falls).")
    pierce: int = Field(description="Armor bypassed, the 'p' suffix (F:L2669).")
    stun: bool = Field(description="The 's' suffix: stun points, not wounds (F:L2677).")


class ArmorRating(Model):
    """A parsed armor rating: the DC reduction and the A's (F:L2661)."""

    notation: str
    reduction: int
    absorb: int = Field(description="How many A's: each absorbs one wound level.")


class _Scanner:
    """Reads a notation left to right and says where it stopped making sense."""

    def __init__(self, text: str, loc: tuple[str | int, ...]) -> None:
        self.text, self.at, self.loc = text, 0, loc

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def take(self, wanted: str) -> bool:
        if self.text.startswith(wanted, self.at):
            self.at += len(wanted)
            return True
        return False

    def number(self) -> int | None:
        start = self.at
        # ASCII digits only: '³' is a digit to str.isdigit and not a number to int.
        while self.peek().isascii() and self.peek().isdigit():
            self.at += 1
        if start == self.at:
            return None
        value = int(self.text[start : self.at])
        if value > MAX_NUMBER:
            self.at = start
            self.fail(f"a number of at most {MAX_NUMBER}")
        return value

    def fail(self, expected: str) -> None:
        found = repr(self.text[self.at]) if self.at < len(self.text) else "the end"
        raise InputError(
            self.loc,
            f"{self.text!r}: {expected} expected at character {self.at + 1}, found {found}",
        )


def parse_damage_class(text: str, loc: tuple[str | int, ...] = ("notation",)) -> DamageClass:
    """Read `[count 'x'] ['DC'] [sign] value [type] {pierce 'p' | 's'}`: `DC8b2p`, `10i2p`,
    `+3m2p`, `5is`, `2x16b`, `DC4`. A bare `0` is the close-range weapons' entry (staff,
    spear): the wielder's UCDC + 0, mêlée. The glossary's `l` (F:L348) is read as `i`."""
    scan = _Scanner(text, loc)
    count = 1
    scan.take("DC") or scan.take("dc")
    first = scan.number()
    if first is not None and scan.take("x"):
        count = first
        if count == 0:
            scan.at -= 2
            scan.fail("a count of at least 1")
        scan.take("DC") or scan.take("dc")
        first = None
    sign = 0
    if first is None:
        sign = 1 if scan.take("+") else -1 if scan.take("-") else 0
        first = scan.number()
        if first is None:
            scan.fail("a number" if sign else "a damage class (e.g. DC8, +3m, 5is)")
    assert first is not None
    kind = DamageType.NONE
    for letter, found in (
        ("m", DamageType.MELEE),
        ("i", DamageType.IMPACT),
        ("l", DamageType.IMPACT),
        ("b", DamageType.BEAM),
    ):
        if scan.take(letter):
            kind = found
            break
    pierce: int | None = None
    stun = False
    while scan.peek():
        if not stun and scan.take("s"):
            stun = True
            continue
        start = scan.at
        value = scan.number()
        if value is None or pierce is not None:
            scan.at = start
            scan.fail("a type (m, i, b), then a pierce ('2p') or 's'")
        if not scan.take("p"):
            scan.fail("'p' after the pierce")
        pierce = value
    bare_zero = text == "0"
    return DamageClass(
        notation=text,
        count=count,
        relative=bool(sign) or bare_zero,
        value=sign * first if sign else first,
        type=DamageType.MELEE if bare_zero else kind,
        pierce=pierce or 0,
        stun=stun,
    )


def parse_armor_rating(text: str, loc: tuple[str | int, ...] = ("notation",)) -> ArmorRating:
    """Read a number and any number of A's: `3A`, `2AA`, `A` (reduction 0, Duty Suit), `4`
    (F:L2661, F:L3881-3883)."""
    scan = _Scanner(text, loc)
    reduction = scan.number() or 0
    absorb = 0
    while scan.take("A"):
        absorb += 1
        if absorb > MAX_ABSORB:
            scan.at -= 1
            scan.fail(f"at most {MAX_ABSORB} A's")
    if scan.peek() or scan.at == 0:
        scan.fail("a number followed by A's (e.g. 3A, 2AA, A, 4)")
    return ArmorRating(notation=text, reduction=reduction, absorb=absorb)


class DamageClassInput(Model):
    notation: Notation = Field(
        description="E.g. 'DC12i4p', '+3m2p', '5is', '2x16b'.",
        examples=["DC12i4p", "+3m2p", "5is", "2x16b"],
    )


class ArmorRatingInput(Model):
    notation: Notation = Field(
        description="E.g. '3A', '2AA', 'A', '4'.", examples=["3A", "2AA", "A", "4"]
    )


@operation(
    name="damage-class/parse",
    kind=Kind.CALCULATION,
    covers=("foresight.damage_class.parse",),
    example={"notation": "DC12i4p"},
)
def damage_class(request: DamageClassInput) -> DamageClass:
    """Parse a damage class: DC12i4p is an impact attack of DC12 that pierces 4 points of
    armor (F:L2673); +3m2p is the wielder's UCDC + 3, mêlée, piercing 2 (F:L3636); 5is stuns
    (F:L2677). A malformed notation is a 422 naming the character at fault."""
    return parse_damage_class(request.notation)


@operation(
    name="armor-rating/parse",
    kind=Kind.CALCULATION,
    covers=("foresight.armor_rating.parse",),
    example={"notation": "3AA"},
)
def armor_rating(request: ArmorRatingInput) -> ArmorRating:
    """Parse an armor rating: the number reduces the DC of an incoming attack, each A reduces
    the damage inflicted by one wound level (F:L2661); 3AA is 3 and two A's (F:L2673)."""
    return parse_armor_rating(request.notation)
