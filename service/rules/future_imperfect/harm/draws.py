"""Exact distributions of damage draws for harm: the total of dice of one or more columns
(open-ended, FI:L512, A-07) and the highest of a Strength pool (FI:L520), every chain followed
deep enough that all the dice together leave out less than the core's `CUT`."""

from service.rules.distribution import Distribution
from service.rules.future_imperfect.core.checks import die_distribution
from service.rules.future_imperfect.core.damage import damage_depth

__all__ = ["depth_for", "highest", "sum_states", "summed"]


def depth_for(tops: list[int]) -> int:
    """The depth every die is followed to: enough for all of them at the smallest die."""
    return damage_depth(min(tops), len(tops)) if tops else 0


def summed(tops: list[int], depth: int | None = None) -> Distribution[int]:
    """The total of one open-ended die of each of `tops` sides, followed to `depth` (by
    default, enough for them alone)."""
    depth = depth_for(tops) if depth is None else depth
    total = Distribution({0: 1})
    for top in sorted(tops):
        total = total + die_distribution(top, True, depth)
    return total


def sum_states(tops: list[int], depth: int | None = None) -> int:
    """At most how many states `summed` makes: each die's (top - 1) x (depth + 1) values
    against the totals so far (at most the sum of every earlier die's top x (depth + 1))."""
    depth = depth_for(tops) if depth is None else depth
    states, reach = 0, 1
    for top in sorted(tops):
        values = top * (depth + 2)
        states += reach * values + values
        reach += top * (depth + 1)
    return states


def highest(top: int, count: int, depth: int | None = None) -> Distribution[int]:
    """The highest of `count` open-ended dice: P(all at most v) is each die's to the power."""
    depth = depth_for([top] * count) if depth is None else depth
    die = die_distribution(top, True, depth)
    weights, below, previous = {}, 0, 0
    for value, weight in sorted(die.items()):
        below += weight
        weights[value] = below**count - previous
        previous = below**count
    return Distribution(weights, total=die.total**count)
