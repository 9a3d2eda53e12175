"""Ease factors: the ladder 0, 0.25, 0.5, 1 .. 15, modifiers summed before they move a BEF
along it (F:L247-256, F:L1350-1354), and BEFs written as formulas in E and G (F:L288-292)."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import AfterValidator, Field

from service.rules.foresight.resolution.tables import LADDER
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "MAX_MODIFIER",
    "Bef",
    "BefFormula",
    "EaseFactor",
    "EaseValue",
    "FamiliarityTerm",
    "Modifiers",
    "add",
    "add_modifiers",
    "bef_of",
    "evaluate_bef",
]

TOP = len(LADDER) - 1
MAX_MODIFIER = 30


def _on_ladder(value: float) -> float:
    if Fraction(value) not in LADDER:
        raise ValueError("must be on the ease-factor ladder: 0, 0.25, 0.5, 1, 2, ..., 15")
    return value


EaseValue = Annotated[float, Field(ge=0, le=15), AfterValidator(_on_ladder)]
Modifiers = Annotated[
    tuple[Annotated[int, Field(ge=-MAX_MODIFIER, le=MAX_MODIFIER)], ...], Field(max_length=32)
]


class EaseFactor(Model):
    """A BEF moved along the ladder by the sum of the task's modifiers, then clamped."""

    bef: float
    modifier_total: int
    ease_factor: float
    ease_factor_index: int = Field(description="Rung 0..17 of the ladder.")
    clamped: bool = Field(description="The sum ran past an end of the ladder (0 or 15).")


def add(bef: Fraction, total: int) -> EaseFactor:
    """Move `total` rungs from `bef`: 'Add all modifiers together before applying them to a
    BEF' (F:L254); the ease factor cannot go below 0 or above 15 (F:L1352)."""
    wanted = LADDER.index(bef) + total
    index = min(TOP, max(0, wanted))
    return EaseFactor(
        bef=float(bef),
        modifier_total=total,
        ease_factor=float(LADDER[index]),
        ease_factor_index=index,
        clamped=index != wanted,
    )


class AddInput(Model):
    """A BEF and the modifiers of one task."""

    bef: EaseValue
    modifiers: Modifiers = Field(default=())


@operation(
    name="ease-factor/add",
    kind=Kind.CALCULATION,
    covers=("foresight.ease_factor.add",),
    example={"bef": 6, "modifiers": [10, -4]},
)
def add_modifiers(request: AddInput) -> EaseFactor:
    """Apply a task's modifiers to a BEF on the ease-factor ladder.

    The modifiers are summed first and the sum moves the BEF along 0, 0.25, 0.5, 1, ..., 15,
    clamped at both ends: BEF 6 with +10 and -4 is 12, not 11 (F:L254-256); BEF 4 with -5 is
    0.25; BEF 2 with -2 is 0.5 (F:L292).
    """
    return add(Fraction(request.bef), sum(request.modifiers))


class FamiliarityTerm(StrEnum):
    ENVIRONMENT = "E"
    GRAVITY = "G"


class BefFormula(Model):
    """A BEF written as E + c or G + c, with the character's familiarity substituted."""

    term: FamiliarityTerm = Field(description="E (environment) or G (gravity) familiarity.")
    plus: Annotated[int, Field(ge=0, le=15)] = Field(default=0, description="The constant c.")
    familiarity: Annotated[int, Field(ge=0, le=3)] = Field(
        description="The character's familiarity with the current terrain or gravity band."
    )


class Bef(Model):
    """The base ease factor of the ability: a number, or a formula in E or G (F:L1348)."""

    bef: EaseValue | None = Field(default=None, description="The BEF, e.g. 5 for Lockpicking.")
    bef_formula: BefFormula | None = Field(
        default=None, description="Instead of 'bef': e.g. Acrobatics is G + 2 (F:L292)."
    )
    bef_bonus: Annotated[int, Field(ge=0, le=3)] = Field(
        default=0,
        description="Permanent BEF increase: Unique Insight +1, Unique Gift +2 (F:L1117-1120).",
    )


def evaluate_bef(given: Bef, default: int | None = None) -> Fraction:
    """The BEF: E and G are substituted by ordinary addition (2 + G with G 0 is 2, not 0.5,
    F:L292), the permanent bonus added, and the result kept within 15 (catalogue 1.1)."""
    if given.bef is not None and given.bef_formula is not None:
        raise InputError(("bef_formula",), "give either 'bef' or 'bef_formula', not both")
    if given.bef_formula is not None:
        base = Fraction(given.bef_formula.familiarity + given.bef_formula.plus)
    elif given.bef is not None:
        base = Fraction(given.bef)
    elif default is not None:
        base = Fraction(default)
    else:
        raise InputError(("bef",), "a BEF is required: give 'bef' or 'bef_formula'")
    if given.bef_bonus and base.denominator != 1:
        raise InputError(("bef_bonus",), "a BEF bonus applies to a whole-number BEF")
    return min(LADDER[TOP], base + given.bef_bonus)


class BefResult(Model):
    bef: float
    bef_index: int = Field(description="Rung 0..17 of the ease-factor ladder.")


@operation(
    name="bef/evaluate",
    kind=Kind.CALCULATION,
    covers=("foresight.bef.evaluate",),
    example={"bef_formula": {"term": "G", "plus": 2, "familiarity": 3}},
)
def bef_of(request: Bef) -> BefResult:
    """Evaluate a BEF: a number, or E + c / G + c with the character's environment or gravity
    familiarity (0..3) substituted (F:L288-292, F:L1348), plus a Unique Insight (+1) or Unique
    Gift (+2), kept within 15."""
    bef = evaluate_bef(request)
    return BefResult(bef=float(bef), bef_index=LADDER.index(bef))
