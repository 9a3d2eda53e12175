"""A result's dice as a dice formula reads them: terms such as `2d6x[attacker base]`.

Both chat adapters write the roll log this way. A die with no `exploded_from` starts a chain
and the dice that exploded from it (transitively) join it; consecutive chains of dice of the
same size and purpose make one term, as `2d6` is two d6 rolled together. A term whose chain
exploded carries the explode modifier `x`. Nothing here knows an operation: the log alone says
how the dice fell.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from service.rules.dice import Roll
from service.rules.model import InputError, Model
from service.rules.registry import Operation

__all__ = ["MAX_DICE", "MAX_FLAVOR", "Face", "Term", "rolled", "terms"]

#: At most this many dice make a chat roll. Table dice stop at 256 and a seeded 4C character
#: rolls under 200, so only a seed chosen for absurd explosion chains comes near it.
MAX_DICE = 1024
#: A term's flavor is its dice's purpose, cut to this length.
MAX_FLAVOR = 100


@dataclass(frozen=True)
class Face:
    """One die of a term: its face, whether it exploded (rolled another) and whether the rule
    discarded it."""

    value: int
    exploded: bool
    discarded: bool


@dataclass
class Term:
    """Dice of one size and purpose rolled together: `number` chains, their faces in the order
    they fell."""

    sides: int
    purpose: str
    number: int = 0
    faces: list[Face] = field(default_factory=list)

    @property
    def exploding(self) -> bool:
        return any(face.exploded for face in self.faces)

    @property
    def expression(self) -> str:
        """`2d6`, or `2d6x` when a die exploded: the term as a dice formula writes it."""
        return f"{self.number}d{self.sides}{'x' if self.exploding else ''}"

    @property
    def flavor(self) -> str:
        """The purpose as a formula's flavor text: no brackets (they delimit it) and no `@`
        (Foundry reads `@name` as a data reference), never empty."""
        cleaned = " ".join(self.purpose.translate(_UNSAFE).split())[:MAX_FLAVOR].strip()
        return cleaned or f"d{self.sides}"

    @property
    def total(self) -> int:
        return sum(face.value for face in self.faces if not face.discarded)


_UNSAFE = str.maketrans({"[": "(", "]": ")", "@": " "})


def terms(rolls: Sequence[Roll]) -> list[Term]:
    """The roll log as terms, each die in exactly one; at most `MAX_DICE` dice."""
    if len(rolls) > MAX_DICE:
        raise InputError(
            ("input",), f"{len(rolls)} dice are too many for a chat roll (at most {MAX_DICE})"
        )
    roots, exploded = _chains(rolls)
    found: list[Term] = []
    held: dict[int, Term] = {}  # the term of each chain, by its root
    for index, roll in enumerate(rolls):
        root = roots[index]
        if root == index:
            # Terms start only at chains, so the last term holds the last chain begun.
            if not found or (found[-1].sides, found[-1].purpose) != (roll.sides, roll.purpose):
                found.append(Term(roll.sides, roll.purpose))
            found[-1].number += 1
            held[index] = found[-1]
        held[root].faces.append(Face(roll.value, index in exploded, roll.discarded))
    return found


def _chains(rolls: Sequence[Roll]) -> tuple[list[int], set[int]]:
    """The root of each die's chain, and the dice that exploded. A die explodes once, into
    the next die of its chain: one logged as exploding from a die that already did continues
    the chain from its last die, so each exploded die adds exactly one, as in a dice formula."""
    roots: list[int] = []
    last: dict[int, int] = {}  # the last die of each chain, by its root
    exploded: set[int] = set()
    for index, roll in enumerate(rolls):
        parent = roll.exploded_from
        if parent is None or not 0 <= parent < index or rolls[parent].sides != roll.sides:
            # A die naming no earlier die of its size starts a chain, so it still counts once.
            roots.append(index)
        else:
            roots.append(roots[parent])
            exploded.add(last[roots[parent]])
        last[roots[-1]] = index
    return roots, exploded


def rolled(op: Operation, result: Model) -> list[Roll]:
    """The dice a result of `op` rolled; an operation that never rolls has no chat roll."""
    if not op.random:
        raise InputError(
            ("operation",),
            f"{op.system}/{op.name} rolls no dice: its answer is at POST /v1/{op.system}/{op.name}",
        )
    found: list[Roll] = getattr(result, "rolls")  # noqa: B009 - every rolling result's envelope
    return found
