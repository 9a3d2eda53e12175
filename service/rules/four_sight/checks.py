"""The basic check against a target number and the opposed check (S:L117-183)."""

from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
)
from service.rules.four_sight.contest import (
    Side,
    Sides,
    contest_depth,
    contest_distribution,
    contest_sides,
    decide,
    roll_contest,
    tie_winner,
)
from service.rules.four_sight.degrees import DEGREES, Degree, Narrator, degree_of, narrator_of
from service.rules.four_sight.odds import (
    Outcome,
    check_depth,
    check_distribution,
    truncation,
)
from service.rules.four_sight.options import CheckOptions
from service.rules.four_sight.pool import Roller, plan
from service.rules.four_sight.rolling import CheckRoll, roll
from service.rules.model import Model
from service.rules.registry import Kind, Reading, operation

__all__ = [
    "CheckInput",
    "CheckResult",
    "Graded",
    "check",
    "grade",
    "graded_label",
    "opposed_check",
]

MAX_TN = 1000
FAILURE = "failure"


class CheckInput(Roller):
    """A basic check against a target number (S:L117-159)."""

    target_number: Annotated[int, Field(ge=-MAX_TN, le=MAX_TN)] = Field(
        description="The GM's target number (guide: 1 trivial .. 7 impossible for an average "
        "person, S:L121-128)."
    )
    tn_adjustment: Annotated[int, Field(ge=-100, le=100)] = Field(
        default=0,
        description="S-A06: the GM's change to the target number for circumstances (S:L130); "
        "unlike condition_modifier it is not multiplied by a manifestation.",
    )
    combat: bool = Field(default=False, description="S-A17: a combat check, where 6s explode.")
    options: CheckOptions = Field(default=CheckOptions())


class Graded(Model):
    """How a result reads against a target number."""

    target_number: int = Field(description="The target number after tn_adjustment.")
    margin: int = Field(description="Result - target number.")
    success: bool
    degree: Degree | None = Field(description="The degree of a success (S:L154-159).")
    failure_margin: int | None = Field(
        description="How far a failure fell short: the more, the more catastrophic (S:L152)."
    )
    narrator: Narrator = Field(description="The player narrates a Perfect success (S:L169).")


class CheckResult(CheckRoll, Graded):
    """The outcome of a basic check."""


class CheckOdds(Model):
    """The exact odds of a check."""

    success: Exact
    degree: list[OutcomeProbability] = Field(description="'failure' and each degree.")
    adverse_episode: Exact
    result: list[OutcomeProbability] | None = Field(
        description="Every result; null in combat, where exploding dice make it unbounded."
    )
    truncation: Truncation | None


def grade(result: int, adverse: bool, target: int, options: CheckOptions) -> Graded:
    """Success is a result at least the target number (S:L36, S:L152); an adverse episode is
    only -20 unless `adverse_forces_failure` (S-A08)."""
    margin = result - target
    success = margin >= 0 and not (adverse and options.adverse_forces_failure)
    degree = degree_of(margin) if success else None
    return Graded(
        target_number=target, margin=margin, success=success, degree=degree,
        failure_margin=None if success else max(-margin, 0), narrator=narrator_of(degree),
    )  # fmt: skip


def graded_label(outcome: Outcome, target: int, options: CheckOptions) -> str:
    graded = grade(outcome[0], outcome[1], target, options)
    return graded.degree.value if graded.degree else FAILURE


def check_odds(request: CheckInput) -> CheckOdds:
    """Exact odds of a basic check: success, each degree, an adverse episode, every result."""
    planned = plan(request, request.options, request.combat)
    target = request.target_number + request.tn_adjustment
    alike = _alike(request, target)
    depth, _ = check_depth(planned, alike)
    outcome = check_distribution(planned, alike, depth)
    labels = outcome.map(lambda o: graded_label(o, target, request.options))
    return CheckOdds(
        success=exact(labels.probability_where(lambda label: label != FAILURE)),
        degree=outcome_table(labels, [FAILURE, *(row.degree.value for row in DEGREES)]),
        adverse_episode=exact(outcome.probability_where(lambda o: o[1])),
        result=None if request.combat else outcome_table(outcome.map(lambda o: o[0])),
        truncation=truncation(outcome, depth=depth),
    )


def check_cost(request: CheckInput) -> Estimate:
    """The dice of the pool and of each manifestation and the outcomes the manifestations make
    of them (`odds.check_bound`); in combat, where only the degree is read, only the values
    still worth telling apart; then the degree and result tables; at the depth `check_odds`
    enumerates to (`odds.check_depth`)."""
    planned = plan(request, request.options, request.combat)
    target = request.target_number + request.tn_adjustment
    alike = _alike(request, target)
    _, bound = check_depth(planned, alike)
    return Estimate(bound.states + 2 * bound.outcomes, _CHECK_DRIVERS)


def _alike(request: CheckInput, target: int) -> tuple[int, int] | None:
    """Out of combat every result is reported; in combat only the degree, which is alike
    below the target number and from the top degree's margin up."""
    return (target, target + DEGREES[-1].low) if request.combat else None


_CHECK_DRIVERS = ("/expertise", "/injuries", "/manifestations", "/options", "/combat")


@operation(
    name="check",
    memo=True,
    # An average-to-heroic character's checks at every target number.
    standard=[
        {"traits": [{"trait": "dexterity", "score": trait}], "target_number": tn}
        for trait in range(0, 6)
        for tn in range(1, 8)
    ],
    kind=Kind.CHECK,
    covers=(
        "4sight.check",
        "4sight.trait_select",
        "4sight.expertise_dice",
        "4sight.manifestation_roll",
        "4sight.adverse_episode",
        "4sight.deep_sight",
        "4sight.precognitive_flare",
        "4sight.degree_of_success",
        "4sight.failure_margin",
        "4sight.narration_authority",
        "4sight.omega_bonus_die",
        "4sight.injury_penalty",
    ),
    odds=check_odds,
    cost=check_cost,
    example={
        "traits": [{"trait": "intelligence", "score": 4}],
        "expertise": "specialty",
        "target_number": 7,
        "dice": {"seed": 7},
    },
)
def check(request: CheckInput, dice: Dice) -> CheckResult:
    """Roll a d6, add the higher applicable trait, 1d6 for an affinity or 2d6 for a specialty,
    the Omega die and the condition modifier; a declared manifestation multiplies the total by
    a d6, and a 1 is an adverse episode (S:L32-36, S:L132-148).

    The margin over the target number gives the degree (S:L150-159); a Perfect success is
    narrated by the player (S:L169). Injuries subtract from every d6 (S:L201).
    """
    planned = plan(request, request.options, request.combat)
    made = roll(request, planned, dice)
    target = request.target_number + request.tn_adjustment
    graded = grade(made.result, made.adverse_episode, target, request.options)
    return CheckResult(**dict(made), **dict(graded))


class OpposedInput(Model):
    """Two characters' checks against each other (S:L177-183)."""

    aggressor: Roller = Field(description="The side initiating the action.")
    opponent: Roller
    pc_side: Side | None = Field(
        default=None,
        description="The side that is a player character, for opposed_tie_winner=pc "
        "(null when both or neither are).",
    )
    combat: bool = Field(default=False, description="S-A17: combat checks explode.")
    options: CheckOptions = Field(default=CheckOptions())


class OpposedResult(Model):
    """Both checks, the winner and the degree of the winner's margin."""

    aggressor: CheckRoll
    opponent: CheckRoll
    winner: Side
    margin: int = Field(description="The winner's check - the loser's check.")
    degree: Degree = Field(description="The degree of the winner's margin (S-A14).")
    narrator: Narrator


class OpposedOdds(Model):
    """The exact odds of an opposed check."""

    aggressor_wins: Exact
    outcome: list[OutcomeProbability] = Field(description="'<winner>:<degree>' for each pair.")
    aggressor_adverse_episode: Exact
    opponent_adverse_episode: Exact
    truncation: Truncation | None


def _sides(request: OpposedInput) -> Sides:
    return (("aggressor", request.aggressor), ("opponent", request.opponent))


_DEGREE_GRADES = [(row.degree, row.low, row.high) for row in DEGREES]


def opposed_odds(request: OpposedInput) -> OpposedOdds:
    """Exact odds of an opposed check: who wins and the degree of the winner's margin."""
    options = request.options
    depth, _ = contest_depth(_sides(request), options, request.combat, 2 * len(_DEGREE_GRADES))
    sides = contest_sides(_sides(request), options, request.combat, depth)
    grades = (
        [(f"aggressor:{d.value}", low, high) for d, low, high in _DEGREE_GRADES],
        [(f"opponent:{d.value}", low, high) for d, low, high in _DEGREE_GRADES],
    )
    found = contest_distribution(sides[0], sides[1], grades, tie_winner(options, request.pc_side),
                                 options)  # fmt: skip
    order = [label for side in grades for label, _, _ in side]
    return OpposedOdds(
        aggressor_wins=exact(found.probability_where(lambda o: o.startswith("aggressor"))),
        outcome=outcome_table(found, order),
        aggressor_adverse_episode=exact(sides[0].probability_where(lambda o: o[1])),
        opponent_adverse_episode=exact(sides[1].probability_where(lambda o: o[1])),
        truncation=truncation(*sides, depth=depth),
    )


def opposed_cost(request: OpposedInput) -> Estimate:
    """Both checks, each bounded as `check_cost` bounds one outside combat, and the bands of
    every winner's degree over the pairs of their outcomes (`contest.contest_states`), at the
    depth `opposed_odds` enumerates to."""
    grades = 2 * len(_DEGREE_GRADES)
    _, states = contest_depth(_sides(request), request.options, request.combat, grades)
    return Estimate(states, _OPPOSED_DRIVERS)


_OPPOSED_DRIVERS = ("/aggressor", "/opponent", "/options", "/combat")


@operation(
    name="opposed-check",
    kind=Kind.CHECK,
    covers=("4sight.opposed_check",),
    odds=opposed_odds,
    cost=opposed_cost,
    example={
        "aggressor": {"traits": [{"trait": "charisma", "score": 2}]},
        "opponent": {"traits": [{"trait": "wisdom", "score": 1}]},
        "dice": {"seed": 7},
    },
    rolled={"/aggressor_wins": Reading(read=lambda result: result.winner == "aggressor")},
)
def opposed_check(request: OpposedInput, dice: Dice) -> OpposedResult:
    """Both sides make a check; the aggressor succeeds if its check equals or exceeds the
    opponent's, so a tie goes to the aggressor (S:L179). The winner's margin is graded on the
    degree table (Megabyte, S:L181-183)."""
    options = request.options
    made = roll_contest(_sides(request), options, request.combat, dice)
    winner, margin = decide(made[0], made[1], tie_winner(options, request.pc_side), options)
    degree = degree_of(margin)
    return OpposedResult(
        aggressor=made[0], opponent=made[1], winner=winner, margin=margin, degree=degree,
        narrator=narrator_of(degree),
    )  # fmt: skip
