"""Trying again after a failure (F:L1601-1619): the GM's cumulative 'running out of ideas'
modifier, which a WP roll may cancel, and the private roll for whether the task was possible
at all."""

from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Exact, exact
from service.rules.foresight.resolution.chance import Setup, TaskInput, setup
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import task_cost
from service.rules.foresight.resolution.task import (
    Resolution,
    ResolutionOdds,
    resolution_odds,
    roll,
)
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["retry"]


class RetryInput(TaskInput):
    """Another attempt at a task that failed before."""

    prior_failures: Annotated[int, Field(ge=0, le=20)] = Field(
        description="Failed attempts at the same task so far."
    )
    step: Annotated[int, Field(ge=-5, le=0)] = Field(
        default=-1,
        description="The GM's modifier per failed attempt for running out of ideas (AMB-40).",
    )
    fresh_approach: bool = Field(
        default=False,
        description="A successful WP roll cancelled the running-out-of-ideas modifier (F:L1661).",
    )
    possible_chance: Annotated[int, Field(ge=0, le=100)] | None = Field(
        default=None,
        description=(
            "The GM's private roll: the percent chance that the task can be done at all; the "
            "attempt's quality is resolved either way (F:L1615). Null: no such roll."
        ),
    )
    outcome_apparent: bool = True


class RetryResult(Model):
    retry_modifier: int
    task_possible: bool | None = Field(description="Null when the GM made no such roll.")
    possibility_roll: int | None
    attempt: Resolution = Field(
        description="A QR1 on an impossible task only shows it cannot work."
    )


class RetryOdds(ResolutionOdds):
    possible: Exact | None


def _modifier(request: RetryInput) -> int:
    return 0 if request.fresh_approach else request.step * request.prior_failures


def _attempt(request: RetryInput) -> Setup:
    extra = (Term(source="running out of ideas", value=_modifier(request)),)
    return setup(request, request.score, request.options, tuple(t for t in extra if t.value))


def _odds(request: RetryInput) -> RetryOdds:
    chance = request.possible_chance
    possible = None if chance is None else exact(Fraction(chance, 100))
    return RetryOdds(**dict(resolution_odds(_attempt(request))), possible=possible)


@operation(
    name="retry",
    kind=Kind.CHECK,
    covers=("foresight.retry",),
    odds=_odds,
    cost=task_cost,
    example={"score": 14, "bef": 5, "prior_failures": 1, "dice": {"seed": 7}},
)
def retry(request: RetryInput, dice: Dice) -> RetryResult:
    """Attempt a failed task again: the GM may impose a cumulative modifier for running out of
    ideas, which a fresh approach after a WP roll cancels (F:L1611, F:L1661), and may roll in
    private whether the task was possible at all, resolving only the quality of the attempt
    (F:L1615)."""
    possibility = possible = None
    if request.possible_chance is not None:
        possibility = dice.roll(100, "possible? (GM, private)")
        possible = possibility <= request.possible_chance
    attempt = roll(_attempt(request), dice, "D100", request.outcome_apparent)
    return RetryResult(
        retry_modifier=_modifier(request),
        task_possible=possible,
        possibility_roll=possibility,
        attempt=attempt,
    )
