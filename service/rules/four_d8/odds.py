"""Exact odds of a 4D8 check, by enumerating every roll of four d8 (catalogue B5).

The 4,096 ordered rolls are enumerated as the 330 multisets of four faces with their
multinomial weights: success, degree and shape do not depend on which aspect shows which
face (the bonus die's aspect changes only the narration), so the sums are exact.
"""

from collections.abc import Iterable
from fractions import Fraction

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.distribution import (
    NOT_ROLLED,
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
)
from service.rules.four_d8.chance import chance_of_success
from service.rules.four_d8.degree import Scoring, classify
from service.rules.four_d8.options import SnakeEyesInBonusRoll
from service.rules.four_d8.resolution import AUTOMATIC_FACES, CheckInput, Mode, mode_of, resolve
from service.rules.four_d8.tables import INTERPRETATIONS, Combination, band
from service.rules.model import Model

__all__ = ["CheckDistributions", "CheckOdds", "CheckOddsSummary", "check_cost", "check_odds"]

FAILURE = "failure"
_FOUR_D8 = Distribution.pool(8, 4)


class CheckOddsSummary(Model):
    success: Exact
    snake_eyes: Exact = Field(description="Four natural 1s, flagged as in a check.")
    lucky_break: Exact
    mean_degree: Exact | None = Field(description="Expected degree given success.")


class CheckDistributions(Model):
    degree: list[OutcomeProbability] = Field(description="'failure' or the degree.")
    interpretation: list[OutcomeProbability] = Field(description="'failure' or the band.")
    combination: list[OutcomeProbability] = Field(
        description="Shape of the natural dice, success or not ('not_rolled' when none are)."
    )
    scored_as: list[OutcomeProbability] = Field(description="'failure' or the scoring rule.")


class CheckOdds(Model):
    """The exact distribution of every outcome of a 4D8 check."""

    chance: int
    mode: Mode
    summary: CheckOddsSummary
    distributions: CheckDistributions
    truncation: Truncation | None = Field(
        default=None, description="Always null: four d8 are enumerated completely."
    )


Outcome = tuple[str, str, str, str, bool, int | None]


def _outcomes(request: CheckInput, chance: int, mode: Mode) -> Distribution[Outcome]:
    """(degree, interpretation, combination, scored_as, snake_eyes, degree) of every roll."""
    options = request.options
    if mode is Mode.IMPOSSIBLE:
        nothing: Outcome = (FAILURE, FAILURE, NOT_ROLLED, FAILURE, False, None)
        return Distribution({nothing: 1})
    if mode is Mode.AUTOMATIC:
        shape = classify(AUTOMATIC_FACES).value
        top = max(AUTOMATIC_FACES)
        interpretation = band(INTERPRETATIONS, top)
        placed: Outcome = (str(top), interpretation, shape, "highest_die", False, top)
        return Distribution({placed: 1})
    flag = not (
        mode is Mode.BONUS and options.snake_eyes_in_bonus_roll is SnakeEyesInBonusRoll.IGNORE
    )

    def outcome(dice: tuple[int, ...]) -> Outcome:
        # Multisets come sorted highest first, so the bonus goes to index 0 (a highest die).
        roll = resolve(dice, chance, mode, options, 0 if mode is Mode.BONUS else None)
        snake = flag and dice == (1, 1, 1, 1)
        shape = classify(dice).value
        if not roll.success or roll.degree is None or roll.scored_as is None:
            return (FAILURE, FAILURE, shape, FAILURE, snake, None)
        meaning = band(INTERPRETATIONS, roll.degree)
        return (str(roll.degree), meaning, shape, roll.scored_as.value, snake, roll.degree)

    return _FOUR_D8.map(outcome)


def _ordered(values: Iterable[str]) -> list[str]:
    return [FAILURE, *values]


def check_odds(request: CheckInput) -> CheckOdds:
    """P(success) and the distributions of degree, interpretation band, combination and
    scoring rule, for any chance, mode and options (catalogue B5.1-B5.4)."""
    chance = chance_of_success(request).chance
    mode = mode_of(chance, request.over32_mode, request.options)
    outcomes = _outcomes(request, chance, mode)
    success = outcomes.probability_where(lambda o: o[0] != FAILURE)
    degrees = [(o[5], Fraction(w, outcomes.total)) for o, w in outcomes.items() if o[5]]
    mean = sum((d * p for d, p in degrees), Fraction(0)) / success if success else None
    degree = outcomes.map(lambda o: o[0])
    degree_order = _ordered(str(d) for d in sorted({d for d, _ in degrees}))
    return CheckOdds(
        chance=chance,
        mode=mode,
        summary=CheckOddsSummary(
            success=exact(success),
            snake_eyes=exact(outcomes.probability_where(lambda o: o[4])),
            lucky_break=exact(
                outcomes.probability_where(lambda o: o[3] == Scoring.LUCKY_BREAK.value)
            ),
            mean_degree=exact(mean) if mean is not None else None,
        ),
        distributions=CheckDistributions(
            degree=outcome_table(degree, degree_order),
            interpretation=outcome_table(
                outcomes.map(lambda o: o[1]), _ordered(b.meaning for b in INTERPRETATIONS)
            ),
            combination=outcome_table(
                outcomes.map(lambda o: o[2]), [*(c.value for c in Combination), NOT_ROLLED]
            ),
            scored_as=outcome_table(
                outcomes.map(lambda o: o[3]), _ordered(s.value for s in Scoring)
            ),
        ),
    )


def check_cost(request: CheckInput) -> Estimate:
    """The same for every request: each of the 330 multisets of 4d8 read once, then the four
    tables made from them."""
    return Estimate(5 * len(_FOUR_D8), ())
