"""Scores: rounding fractions (F:L262-270) and the 20+n rule for scores above 20 (F:L233,
glossary F:L370)."""

import math
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "MAX_SCORE",
    "Rounding",
    "TwentyPlus",
    "round_half_up",
    "rounded",
    "score_twenty_plus",
    "twenty_plus",
    "written",
]

MAX_SCORE = 99
_BOUND = 10**6


class Rounding(StrEnum):
    NEAREST_HALF_UP = "nearest_half_up"
    DOWN = "down"
    UP = "up"


def round_half_up(value: Fraction) -> int:
    """'A fraction of 0.5 or higher is rounded up' (F:L264); a negative value keeps its sign and
    rounds its magnitude the same way (catalogue 3.A.1)."""
    magnitude = math.floor(abs(value) + Fraction(1, 2))
    return magnitude if value >= 0 else -magnitude


class RoundInput(Model):
    """A fraction numerator / denominator and how to round it."""

    numerator: Annotated[int, Field(ge=-_BOUND, le=_BOUND)]
    denominator: Annotated[int, Field(ge=1, le=_BOUND)] = 1
    mode: Rounding = Rounding.NEAREST_HALF_UP


class RoundResult(Model):
    value: int
    exact: str


@operation(
    name="round",
    kind=Kind.CALCULATION,
    covers=("foresight.round",),
    example={"numerator": 21, "denominator": 2},
)
def rounded(request: RoundInput) -> RoundResult:
    """Round a fraction to a whole number: to the nearest by default, 0.5 going up (10.5 -> 11,
    F:L266; 3.25 -> 3, F:L268), or down (the 20+n rule, F:L370) or up (maximum skill levels,
    F:L740) where a rule says so."""
    value = Fraction(request.numerator, request.denominator)
    if request.mode is Rounding.DOWN:
        whole = math.floor(value)
    elif request.mode is Rounding.UP:
        whole = math.ceil(value)
    else:
        whole = round_half_up(value)
    return RoundResult(value=whole, exact=f"{value.numerator}/{value.denominator}")


class TwentyPlusInput(Model):
    score: Annotated[int, Field(ge=0, le=MAX_SCORE)]
    is_stamina: bool = Field(
        default=False, description="Stamina scores above 20 are used as they are (F:L372)."
    )


class TwentyPlus(Model):
    """A score as it is rolled: at most 20, and +1 ease factor per 3 points above 20."""

    score: int
    effective_score: int
    twenty_plus: int = Field(description="n: the ease-factor modifier from the score.")
    written: str = Field(description="How the book writes it: '20+1' for 23-25.")


def twenty_plus(score: int, is_stamina: bool = False) -> TwentyPlus:
    """'A score above 20 is counted as 20, but gets an ease factor modifier of +1 for every
    three points by which the score exceeds 20' (F:L233); n = (score - 20) / 3 rounded down
    (F:L370)."""
    if is_stamina or score <= 20:
        return TwentyPlus(score=score, effective_score=score, twenty_plus=0, written=str(score))
    n = (score - 20) // 3
    return TwentyPlus(score=score, effective_score=20, twenty_plus=n, written=written(n))


def written(n: int) -> str:
    return f"20+{n}" if n else "20"


@operation(
    name="score/twenty-plus",
    kind=Kind.CALCULATION,
    covers=("foresight.score.twenty_plus",),
    example={"score": 23},
)
def score_twenty_plus(request: TwentyPlusInput) -> TwentyPlus:
    """Convert a score above 20: it counts as 20 and adds n = (score - 20) / 3, rounded down,
    to the task's modifiers: 20-22 is 20, 23-25 is 20+1, 26-28 is 20+2 (F:L233, F:L370)."""
    return twenty_plus(request.score, request.is_stamina)
