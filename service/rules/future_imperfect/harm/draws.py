"""Exact distributions of damage draws for harm beyond the core's sum (`core.damage.summed`):
a total less its lowest die (a white chip, FI:L724, A-61) and the highest of a Strength pool
(FI:L520), every chain followed deep enough that all the dice together leave out less than
the core's `CUT`."""

from fractions import Fraction
from math import comb

from service.rules.cost import counted
from service.rules.distribution import Distribution
from service.rules.future_imperfect.core.checks import die_distribution
from service.rules.future_imperfect.core.damage import CUT, depth_for, sum_states

__all__ = ["highest", "less_lowest", "less_lowest_states"]


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


def _unexploded(top: int, count: int) -> Distribution[int]:
    """The sum less the lowest of `count` faces 1 to top - 1, over every ordered roll."""
    states = {(0, top): 1}
    for _ in range(count):
        following: dict[tuple[int, int], int] = {}
        for (total, low), ways in states.items():
            for face in range(1, top):
                key = (total + face, min(low, face))
                following[key] = following.get(key, 0) + ways
        counted(len(states) * (top - 1))
        states = following
    return Distribution((total - low, ways) for (total, low), ways in states.items())


def _rounds(top: int, count: int) -> int:
    """How often `less_lowest` follows every die exploding at once: until doing it once more
    weighs less than `CUT`."""
    rounds = 0
    while Fraction(1, top ** (count * (rounds + 1))) >= CUT:
        rounds += 1
    return rounds


def less_lowest(top: int, count: int, depth: int, rounds: int | None = None) -> Distribution[int]:
    """The total of `count` open-ended dice of `top` sides less the lowest, each followed to
    `depth` extra dice. A die that exploded beats every die that did not, so the lowest is
    among the j >= 1 dice that did not, which show faces 1 to top - 1 (`_unexploded`), the
    others each top more than a die one shallower; if every die exploded, each is top more
    than a die one shallower and the same holds of those: followed `rounds` times (by
    default, until the rest weighs less than `CUT`), the rest cut and left missing. A term
    of j dice weighs C(count, j) x its faces' ways x the others' ways x top^(depth x j)
    over top^((depth + 1) x count)."""
    rounds = _rounds(top, count) if rounds is None else rounds
    weights: dict[int, int] = {}
    deeper = (
        Distribution.exploding(top, depth - 1, lambda n: n, lambda n: n == top) if depth else None
    )
    others = Distribution({0: 1})
    for k in range(count):  # k dice exploded, j = count - k did not
        if k and deeper is None:
            break
        if k and deeper is not None:
            others = others + deeper
        j = count - k
        scale = comb(count, j) * top ** (depth * j)
        for value, ways in (_unexploded(top, j) + others).items():
            weights[value + top * k] = weights.get(value + top * k, 0) + ways * scale
    if depth and rounds:
        for value, ways in less_lowest(top, count, depth - 1, rounds - 1).items():
            weights[value + top * (count - 1)] = weights.get(value + top * (count - 1), 0) + ways
    return Distribution(weights, total=top ** ((depth + 1) * count))


def less_lowest_states(top: int, count: int, depth: int) -> int:
    """At most how many states `less_lowest` makes: each round, the sums of up to count - 1
    shallower dice (as `sum_states`), the faces that did not explode, and each of their
    sums added to the others' (j x top values by k x top x (depth + 1), j + k = count)."""
    pairs = top * top * (depth + 2) * (count**3 - count) // 6
    per_round = sum_states([top] * (count - 1), depth) + 2 * pairs + count * count * top * top
    return (min(_rounds(top, count), depth) + 1) * (per_round + top * (depth + 2))
