"""Two checks against each other: the opposed check and the combat attack (S:L177-183,
S:L189-191). The aggressor wins ties (S:L179) unless `opposed_tie_winner` says the player
character does (S-A13); the winner's margin is graded (S-A14)."""

from collections.abc import Hashable, Sequence
from enum import StrEnum
from functools import lru_cache
from typing import TypeVar

from service.rules.cost import BUDGET
from service.rules.dice import Dice
from service.rules.distribution import Distribution
from service.rules.four_sight.odds import (
    Band,
    Outcome,
    by_difference,
    check_bound,
    check_distribution,
    deepest,
)
from service.rules.four_sight.options import CheckOptions, OpposedTieWinner
from service.rules.four_sight.pool import Roller, plan
from service.rules.four_sight.rolling import CheckRoll, roll

__all__ = [
    "Grades",
    "Side",
    "Sides",
    "contest_depth",
    "contest_distribution",
    "contest_sides",
    "contest_states",
    "decide",
    "roll_contest",
    "tie_winner",
]

L = TypeVar("L", bound=Hashable)
Grades = Sequence[tuple[L, int, int | None]]  # a label for each range of the winner's margin
Sides = tuple[tuple[str, Roller], tuple[str, Roller]]  # (field name, roller), aggressor first


class Side(StrEnum):
    AGGRESSOR = "aggressor"
    OPPONENT = "opponent"


def roll_contest(sides: Sides, options: CheckOptions, combat: bool, dice: Dice) -> list[CheckRoll]:
    """Both checks, the aggressor's dice first; each side's dice are logged under its name."""
    return [roll(r, plan(r, options, combat, name), dice, f"{name} ") for name, r in sides]


def contest_sides(
    sides: Sides, options: CheckOptions, combat: bool, depth: int
) -> list[Distribution[Outcome]]:
    """The outcome distribution of both checks, aggressor first, explosions to `depth`."""
    return [check_distribution(plan(r, options, combat, name), depth=depth) for name, r in sides]


def contest_states(
    sides: Sides, options: CheckOptions, combat: bool, grades: int, depth: int, cap: int = BUDGET
) -> int:
    """At most how many states `contest_distribution` of `contest_sides` makes (`rules.cost`)
    with `grades` labels in all: each side's check (`odds.check_bound`, exact while within
    `cap`), each side split by adverse episode, the band lookups of the pairs of parts
    (`odds.by_difference`), and the labels each pair and then the contest give."""
    aggressor, opponent = (plan(r, options, combat, name) for name, r in sides)
    a_states, a = check_bound(aggressor, depth=depth, cap=cap)
    b_states, b = check_bound(opponent, depth=depth, cap=max(cap - a_states, 0))
    # The parts of a side partition its outcomes: each meets both parts of the other. Each
    # of the (at most four) pairs, and the contest, label at most `grades` outcomes.
    return a_states + b_states + (a + b) + 2 * (a + b * grades) + 5 * grades


# Remembered: the cost estimate and the odds of one request both ask, and for a heavy contest
# finding the depth costs a third of the odds. Requests are frozen values, so they hash.
@lru_cache(maxsize=256)
def contest_depth(
    sides: Sides, options: CheckOptions, combat: bool, grades: int
) -> tuple[int, int]:
    """How deep a contest's explosions are enumerated: `odds.DEPTH`, or as deep as fits the
    budget (`odds.deepest`); and at most how many states it makes there."""
    return deepest(
        lambda depth, cap: contest_states(sides, options, combat, grades, depth, cap), int
    )


def tie_winner(options: CheckOptions, pc_side: Side | None) -> Side:
    """Ties go to the aggressor (S:L179), or to the player character's side (S-A13) when the
    option says so and exactly one side is a PC."""
    if options.opposed_tie_winner is OpposedTieWinner.PC and pc_side is not None:
        return pc_side
    return Side.AGGRESSOR


def decide(
    aggressor: CheckRoll, opponent: CheckRoll, tie: Side, options: CheckOptions
) -> tuple[Side, int]:
    """The winner and the winner's margin. With `adverse_forces_failure` (S-A08) a side that
    suffers an adverse episode loses to one that does not, by at least 0."""
    forced = _forced(aggressor.adverse_episode, opponent.adverse_episode, options)
    difference = aggressor.result - opponent.result
    if forced is not None:
        return forced, max(0, difference if forced is Side.AGGRESSOR else -difference)
    if difference > 0 or (difference == 0 and tie is Side.AGGRESSOR):
        return Side.AGGRESSOR, difference
    return Side.OPPONENT, -difference


def contest_distribution(
    aggressor: Distribution[Outcome],
    opponent: Distribution[Outcome],
    grades: tuple[Grades[L], Grades[L]],
    tie: Side,
    options: CheckOptions,
) -> Distribution[L]:
    """The distribution of the graded outcome of a contest, `decide` over every pair."""
    weights: dict[L, int] = {}
    total = aggressor.total * opponent.total
    for a_adverse, a_part in _split(aggressor, options):
        for o_adverse, o_part in _split(opponent, options):
            forced = _forced(a_adverse, o_adverse, options)
            part = by_difference(a_part, o_part, _bands(grades, tie, forced))
            for label, w in part.items():
                weights[label] = weights.get(label, 0) + w
    return Distribution(weights, total=total)


def _forced(a_adverse: bool, o_adverse: bool, options: CheckOptions) -> Side | None:
    if not options.adverse_forces_failure or a_adverse == o_adverse:
        return None
    return Side.OPPONENT if a_adverse else Side.AGGRESSOR


def _split(
    outcome: Distribution[Outcome], options: CheckOptions
) -> list[tuple[bool, Distribution[int]]]:
    """The results, split by adverse episode only when that changes who wins."""
    if not options.adverse_forces_failure:
        return [(False, outcome.map(lambda o: o[0]))]
    return [
        (flag, Distribution(((o[0], w) for o, w in outcome.items() if o[1] is flag),
                            total=outcome.total))
        for flag in (False, True)
    ]  # fmt: skip


def _bands(grades: tuple[Grades[L], Grades[L]], tie: Side, forced: Side | None) -> list[Band[L]]:
    """The ranges of aggressor - opponent that give each graded outcome."""
    aggressor_from = 0 if tie is Side.AGGRESSOR else 1  # the least difference that wins
    found: list[Band[L]] = []
    if forced in (None, Side.AGGRESSOR):
        for label, low, high in grades[0]:
            start = low if forced else max(low, aggressor_from)
            found.append((label, None if forced and low == 0 else start, high))
    if forced in (None, Side.OPPONENT):
        for label, low, high in grades[1]:
            start = low if forced else max(low, 1 - aggressor_from)
            found.append((label, None if high is None else -high,
                          None if forced and low == 0 else -start))  # fmt: skip
    return found
