"""Exact distributions of damage draws for harm beyond the core's sum (`core.damage.summed`):
a total less its lowest die (a white chip, FI:L724, A-61) and the highest of a Strength pool
(FI:L520), every chain followed deep enough that all the dice together leave out less than
the core's `CUT`."""

from fractions import Fraction
from math import comb, prod

from service.rules.cost import counted
from service.rules.distribution import Distribution, Shape, added_states
from service.rules.future_imperfect.core.checks import die_distribution, die_values
from service.rules.future_imperfect.core.damage import (
    CUT,
    depth_for,
    sum_states,
    totals_of,
)

__all__ = ["chip_states", "highest", "less_lowest", "less_lowest_states"]


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


def _unexploded_states(top: int, count: int) -> int:
    """At most how many states `_unexploded` makes: each (total, lowest) pair so far meets
    every face, then the last pairs are read. After i faces, a lowest l comes with totals
    from i x l to l + (i - 1)(top - 1): (i - 1)(top - 1 - l) + 1 of them, so there are
    (i - 1)(top - 1)(top - 2) / 2 + top - 1 pairs, and never more than (top - 1)^i."""

    def pairs(faces: int) -> int:
        every: int = (top - 1) ** faces
        return min(every, (faces - 1) * (top - 1) * (top - 2) // 2 + top - 1) if faces else 1

    return sum(pairs(faces) * (top - 1) for faces in range(count)) + pairs(count)


def less_lowest_states(top: int, count: int, depth: int, rounds: int | None = None) -> int:
    """At most how many states `less_lowest` makes, step by step: the deeper chain made (as a
    die, top x (4 depth + 3)); for k dice exploded, one more chain added to the others (a
    run of `die_values` weighing at most top^depth), the j = count - k faces that did not
    explode less their lowest (a run of (j - 1)(top - 2) + 1 totals weighing at most
    (top - 1)^j) added to them (`added_states`); the weights merged; then the same a die
    shallower, `rounds` times."""
    rounds = _rounds(top, count) if rounds is None else rounds
    states = top * (4 * depth + 3) + count * top * (depth + 2)
    chain = Shape(*die_values(top, depth - 1), (top**depth).bit_length()) if depth else None
    others = Shape(1, 1, 1)
    for k in range(count):
        if k and chain is None:
            break
        if k and chain is not None:
            states += added_states(others, chain)
            span = others.span + chain.span - 1
            others = Shape(span, span, others.bits + chain.bits)
        j = count - k
        totals = (j - 1) * (top - 2) + 1
        faces = Shape(totals, totals, ((top - 1) ** j).bit_length())
        states += _unexploded_states(top, j) + added_states(faces, others)
    if depth and rounds:
        states += less_lowest_states(top, count, depth - 1, rounds - 1)
    return states


def chip_states(top: int, count: int, rest: list[int], depth: int) -> tuple[int, int]:
    """At most how many states `less_lowest(top, count, depth) + summed(rest, depth)`
    makes, and how many totals it can make: each part made, then the two added
    (`added_states`), the kept dice's totals a run of fewer than count x top x (depth + 2)
    integers weighing at most their total, top^((depth + 1) x count), the others'
    `totals_of` them weighing at most theirs."""
    kept, others = count * top * (depth + 2), totals_of(rest, depth)
    kept_total, others_total = top ** ((depth + 1) * count), prod(t ** (depth + 1) for t in rest)
    added = added_states(Shape(kept, kept, kept_total.bit_length()),
                         Shape(others, others, others_total.bit_length()))  # fmt: skip
    states = less_lowest_states(top, count, depth) + sum_states(rest, depth) + added
    return states, kept + others - 1
