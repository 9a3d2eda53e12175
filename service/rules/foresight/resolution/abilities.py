"""Abilities a character does not have as skills: a skill used unskilled (F:L1635-1639) and an
attribute used as a skill (F:L1641-1669)."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.foresight.resolution.chance import Circumstances, Setup, setup
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QR_ROLLED, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import MAX_SCORE, round_half_up
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Resolution,
    ResolutionOdds,
    resolution_odds,
    roll,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["Attribute", "Formula", "attribute_as_skill", "unskilled"]

MAX_ATTRIBUTE = 40
UNSKILLED = Term(source="unskilled", value=-1)


class Attribute(StrEnum):
    """The nine attributes every character has (F:L284)."""

    ST = "ST"
    DX = "DX"
    AG = "AG"
    EN = "EN"
    IN = "IN"
    PC = "PC"
    EM = "EM"
    WP = "WP"
    AP = "AP"


class AttributeScore(Model):
    attribute: Attribute
    value: Annotated[int, Field(ge=0, le=MAX_ATTRIBUTE)] = Field(description="Trained value.")


class Formula(Model):
    """A skill's formula: its attributes summed over a divisor, e.g. (DX+PC)/2, or a constant
    (Sing is 10)."""

    attributes: Annotated[tuple[AttributeScore, ...], Field(max_length=3)] = ()
    divisor: Annotated[int, Field(ge=1, le=4)] = 1
    constant: Annotated[int, Field(ge=0, le=MAX_SCORE)] | None = None


def formula_value(formula: Formula) -> Fraction:
    if (formula.constant is None) == (not formula.attributes):
        raise InputError(("formula",), "give either 'attributes' or 'constant'")
    if formula.constant is not None:
        return Fraction(formula.constant)
    names = [score.attribute for score in formula.attributes]
    if len(set(names)) != len(names):
        raise InputError(("formula", "attributes"), "each attribute appears once")
    return Fraction(sum(score.value for score in formula.attributes), formula.divisor)


class UnskilledInput(Circumstances):
    """A task with a skill the character does not have: the skill's formula gives the score,
    and the skill's own BEF (with E or G) applies (AMB-28)."""

    formula: Formula
    outcome_apparent: bool = True
    options: ResolutionOptions = Field(default=ResolutionOptions())


class UnskilledResult(Resolution):
    formula_value: str = Field(description="The formula before rounding, as a fraction.")
    may_buy_skill: bool = Field(
        description="QR3 or better: the skill may be bought at level 0 at once (F:L1089)."
    )


def _unskilled(request: UnskilledInput) -> Setup:
    score = round_half_up(formula_value(request.formula))
    if score > MAX_SCORE:
        raise InputError(("formula",), f"the formula gives {score}, above {MAX_SCORE}")
    return setup(request, score, request.options, (UNSKILLED,))


def _unskilled_odds(request: UnskilledInput) -> ResolutionOdds:
    return resolution_odds(_unskilled(request))


@operation(
    name="unskilled",
    kind=Kind.CHECK,
    covers=("foresight.unskilled",),
    odds=_unskilled_odds,
    cost=task_cost,
    example={
        "formula": {
            "attributes": [{"attribute": "DX", "value": 11}, {"attribute": "PC", "value": 10}],
            "divisor": 2,
        },
        "bef_formula": {"term": "G", "plus": 2, "familiarity": 3},
        "dice": {"values": [20]},
    },
    rolled=QR_ROLLED,
)
def unskilled(request: UnskilledInput, dice: Dice) -> UnskilledResult:
    """Use a skill the character does not have: the score is the skill's formula, rounded,
    with no level, and the task takes -1 (F:L1637); non-familiarity modifiers are likely too.
    Flying a plane without Aircraft rolls (DX+PC)/2 at -1 (F:L1639). A QR3 or better lets the
    character buy the skill at level 0 on the spot (F:L1089-1091)."""
    value = formula_value(request.formula)
    result = roll(_unskilled(request), dice, "D100", request.outcome_apparent)
    return UnskilledResult(**dict(result), formula_value=f"{value.numerator}/{value.denominator}",
                           may_buy_skill=result.qr <= QR.QR3)  # fmt: skip


class AttributeInput(Circumstances):
    """A task with an attribute used as a skill; the BEF defaults to 'attribute_bef'."""

    attribute: Attribute
    value: Annotated[int, Field(ge=0, le=MAX_ATTRIBUTE)] = Field(
        description="The trained attribute: the attribute score (glossary F:L335)."
    )
    outcome_apparent: bool = True
    options: ResolutionOptions = Field(default=ResolutionOptions())


def _attribute(request: AttributeInput) -> Setup:
    return setup(request, request.value, request.options,
                 default_bef=request.options.attribute_bef)  # fmt: skip


def _attribute_odds(request: AttributeInput) -> ResolutionOdds:
    return resolution_odds(_attribute(request))


@operation(
    name="attribute-as-skill",
    kind=Kind.CHECK,
    covers=("foresight.attribute_as_skill",),
    odds=_attribute_odds,
    cost=task_cost,
    example={"attribute": "PC", "value": 12, "dice": {"values": [63]}},
    rolled=QR_ROLLED,
)
def attribute_as_skill(request: AttributeInput, dice: Dice) -> Resolution:
    """Use an attribute as a skill: DX to assemble or repair, IN to recall, PC to notice, WP to
    persist, EM to read feelings, AP to attract (F:L1641-1669). The score is the trained
    attribute, 20+n above 20; the BEF is 'attribute_bef', 7 by default: the book's examples
    roll SC = 7 x PC 12 = 84 and 7 x DX 9 = 63 (F:L3304, F:L3314). No unskilled -1 (AMB-28)."""
    return roll(_attribute(request), dice, f"D100 ({request.attribute.value})",
                request.outcome_apparent)  # fmt: skip
