"""Exact distributions of 4SIGHT checks, read from the same `Plan` the roller follows.

A check's outcome is the pair (result, adverse episode). Non-combat pools are finite. In
combat each die explodes on a 6 (S:L191); a chain is enumerated to `DEPTH` extra dice and the
longer chains are left out as `missing` mass, at most 6**-17 per die, so a whole contest of up
to 12 chains leaves out less than 1e-12, stated exactly with every answer.

A contest of two checks, each with stacked exploding multipliers, would make millions of
states at that depth (an attack with three a side: 8 million, 9 s). Such a contest is
enumerated to the deepest depth whose cost fits the budget (`deepest`), which its answer
states with the mass it leaves out (depth 5 for that attack: 2e-4).
"""

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple, TypeVar

from service.rules.cost import BUDGET, counted, metered
from service.rules.distribution import Distribution, Truncation, exact
from service.rules.four_sight.options import DieRole, ExplodeChain, ManifestationDieExplodes
from service.rules.four_sight.pool import Plan, Step
from service.rules.four_sight.rolling import ADVERSE_PENALTY, SIDES

__all__ = [
    "DEPTH",
    "Band",
    "Bound",
    "Outcome",
    "by_difference",
    "check_bound",
    "check_depth",
    "check_distribution",
    "deepest",
    "truncation",
]

DEPTH = 16
Outcome = tuple[int, bool]  # (result, adverse episode)
L = TypeVar("L", bound=Hashable)
M = TypeVar("M")
Band = tuple[L, int | None, int | None]  # a label and the range of a difference it covers

_D6 = Distribution.die(SIDES)


def check_distribution(
    plan: Plan, alike: tuple[int, int] | None = None, depth: int = DEPTH
) -> Distribution[Outcome]:
    """The distribution of (result, adverse episode) of a check.

    `alike=(low, high)` says the caller reads a result only against `low` and `high` (below
    `low` it fails; from `high` up it is the top degree). Before each manifestation acts,
    values that every remaining manifestation leaves on the same side of both are then
    merged, which keeps a combat check with stacked exploding multipliers to thousands of
    states instead of millions, and changes no probability the caller reads. Explosions
    are enumerated to `depth` extra dice.
    """
    outcome: Distribution[Outcome] = _pool(plan, depth).map(lambda base: (base, False))
    steps = [_STEPS[step](plan, depth) for step, _ in plan.steps]
    for i, effects in enumerate(steps):
        if alike is not None:
            outcome = _merged(plan, outcome, steps[i:], alike)
        outcome = _acted(plan, outcome, effects)
    return outcome


class Bound(NamedTuple):
    """At most how many states a distribution takes to make, and how many outcomes it has."""

    states: int
    outcomes: int


def check_bound(
    plan: Plan, alike: tuple[int, int] | None = None, depth: int = DEPTH, cap: int = BUDGET
) -> Bound:
    """At most how many states `check_distribution(plan, alike, depth)` makes. The pool and
    the manifestation rolls are made here and counted (a few dice of at most 6 x 17 faces:
    tens of thousands of states at most). Then what each manifestation makes of the outcomes
    is followed as a set, which counts the states exactly at a tenth of the work, while the
    count stays within `cap`; past it, the outcomes are bounded by the range of values they
    can hold, which costs nothing and over-counts."""
    with metered() as made:
        pool = _pool(plan, depth)
        steps = [_STEPS[step](plan, depth) for step, _ in plan.steps]
    outcomes: set[Outcome] | None = {(value, False) for value, _ in pool.items()}
    size = len(pool)
    states = made.states + size
    low, high = _range(pool)
    for i, effects in enumerate(steps):
        if alike is not None and _monotone(steps[i:]):
            states += size
            low, high = _bounds(plan, steps[i:], alike, low, high)
            if outcomes is not None:
                outcomes = {(min(max(v, low), high), adverse) for v, adverse in outcomes}
        if outcomes is not None:
            size = len(outcomes)
        # Each outcome followed by each effect: an inner map, then the pairs.
        states += 2 * min(size, 2 * (high - low + 1)) * len(effects)
        if outcomes is not None and states <= cap:
            images: set[Outcome] = set()
            for e, _ in effects.items():
                apply, adverse_now = _applier(plan, e), _adverse(e)
                images.update((apply(v), adverse or adverse_now) for v, adverse in outcomes)
            outcomes = images
            size = len(outcomes)
            low, high = min(v for v, _ in outcomes), max(v for v, _ in outcomes)
        else:
            outcomes = None
            values = [_applied(plan, v, e) for v in (low, high) for e, _ in effects.items()]
            low, high = min(values), max(values)
            size = min(size * len(effects), 2 * (high - low + 1))
    return Bound(states, size)


def truncation(*distributions: Distribution[L], depth: int = DEPTH) -> Truncation | None:
    """The truncation behind a set of independent distributions, or None if exact."""
    kept = Fraction(1)
    for d in distributions:
        kept *= 1 - d.missing
    missing = 1 - kept
    return Truncation(depth=depth, mass_cut=exact(missing)) if missing else None


def deepest(
    measure: Callable[[int, int], M], states: Callable[[M], int], budget: int = BUDGET
) -> tuple[int, M]:
    """The deepest explosion depth, `DEPTH` at most and 1 at least, at which the states of
    `measure(depth, budget)` fit `budget` (`measure` may count roughly past its second
    argument), and that measure; states grow with depth. Past `DEPTH`, the shallow depths
    are tried first: each costs a fraction of the next. The default budget, not the
    configured one: a request's answer is the same whatever the configuration, which only
    refuses."""
    found = measure(DEPTH, budget)
    if states(found) <= budget:
        return DEPTH, found
    depth, found = 1, measure(1, budget)
    while depth + 1 < DEPTH:
        deeper = measure(depth + 1, budget)
        if states(deeper) > budget:
            break
        depth, found = depth + 1, deeper
    return depth, found


# Remembered: the cost estimate and the odds of one request both ask, and for a heavy check
# finding the depth costs more than the odds. Plans are frozen values, so they hash.
@lru_cache(maxsize=256)
def check_depth(
    plan: Plan, alike: tuple[int, int] | None = None, budget: int = BUDGET
) -> tuple[int, Bound]:
    """How deep a check's explosions are enumerated within `budget` (`deepest`), and the
    bound of its states there."""
    return deepest(lambda depth, cap: check_bound(plan, alike, depth, cap), _states, budget)


def _states(bound: Bound) -> int:
    return bound.states


def by_difference(
    a: Distribution[int], b: Distribution[int], bands: Sequence[Band[L]]
) -> Distribution[L]:
    """The distribution of the band of `a - b`, for independent `a` and `b`: prefix sums over
    `a`'s sorted values make it |b| x |bands| lookups instead of a full convolution."""
    counted(len(a) + len(b) * len(bands))
    values = sorted(v for v, _ in a.items())
    prefix = [0, *accumulate(a.weight(v) for v in values)]
    found: dict[L, int] = {}
    for bv, bw in b.items():
        for label, low, high in bands:
            start = 0 if low is None else bisect_left(values, bv + low)
            stop = len(values) if high is None else bisect_right(values, bv + high)
            if stop > start:
                found[label] = found.get(label, 0) + bw * (prefix[stop] - prefix[start])
    return Distribution(found, total=a.total * b.total)


def _pool(plan: Plan, depth: int) -> Distribution[int]:
    """The trait, the modifier and the sum of the pool's dice: the base of the check."""
    pool = Distribution({plan.trait.score + plan.modifier: 1})
    for role in plan.pool:
        pool = pool + _die(plan, role, depth)
    return pool


def _die(plan: Plan, role: DieRole, depth: int) -> Distribution[int]:
    """One die of the pool with its explosions."""
    if not plan.combat:
        return _D6.map(lambda n: plan.face(role, n))
    rest = _chain(plan, DieRole.EXPLOSION, depth)
    return _D6.then(lambda n: _then_chain(plan.face(role, n), plan.explodes(role, n), rest))


def _chain(plan: Plan, role: DieRole, depth: int) -> Distribution[int]:
    """The dice an explosion adds: one more die, itself exploding unless the chain is single."""
    single = plan.options.explode_chain is ExplodeChain.SINGLE
    return Distribution.exploding(
        SIDES, 0 if single else depth - 1, lambda n: plan.face(role, n),
        lambda n: plan.explodes(role, n), last_explodes=not single,
    )  # fmt: skip


def _then_chain(face: int, explodes: bool, rest: Distribution[int]) -> Distribution[int]:
    return rest.map(lambda x: face + x) if explodes else Distribution({face: 1})


#: What one manifestation roll does to a check: (adverse episode, dice added, multiplier),
#: or None when it leaves the check as it is.
Effect = tuple[bool, int, int] | None


_UNCHANGED = Distribution[Effect]([(None, 1)])
_EPISODE = Distribution[Effect]([((True, 0, 1), 1)])


def _acted(
    plan: Plan, outcome: Distribution[Outcome], effects: Distribution[Effect]
) -> Distribution[Outcome]:
    appliers = {e: _applier(plan, e) for e, _ in effects.items()}
    return outcome.then(lambda o: effects.map(lambda e: (appliers[e](o[0]), o[1] or _adverse(e))))


def _applied(plan: Plan, value: int, effect: Effect) -> int:
    return _applier(plan, effect)(value)


def _applier(plan: Plan, effect: Effect) -> Callable[[int], int]:
    """What an effect does to a check: an adverse episode is x1 then -20 (S:L140, S-A08);
    otherwise the check is multiplied, then any dice the manifestation die added are added
    (S-A16). Either way a negative check is first raised to 0 under S-A29. A function of the
    value, made once an effect: it is applied to every outcome."""
    if effect is None:
        return lambda value: value
    adverse, added, multiplier = effect
    if adverse:
        return lambda value: plan.clamp(value) - ADVERSE_PENALTY
    return lambda value: plan.clamp(value) * multiplier + added


def _adverse(effect: Effect) -> bool:
    return effect is not None and effect[0]


def _double(plan: Plan, depth: int) -> Distribution[Effect]:
    """Deep Sight: a d6 of 5-6 doubles the result (S:L144-146)."""
    return _D6.map(
        lambda n: (False, 0, 2) if plan.face(DieRole.DEEP_SIGHT_TRIGGER, n) >= 5 else None
    )


def _flare(plan: Plan, depth: int) -> Distribution[Effect]:
    """Precognitive Flare: the GM's d6 of 5-6 forces a manifestation roll (S:L148)."""
    if plan.declines_flare:
        return _UNCHANGED
    effects = _multiply(plan, depth)
    fires = _D6.map(lambda n: plan.face(DieRole.FLARE_TRIGGER, n) >= 5)
    return fires.then(lambda fired: effects if fired else _UNCHANGED)


def _multiply(plan: Plan, depth: int) -> Distribution[Effect]:
    """The manifestation die: 1 is an adverse episode (-20), else the result is multiplied
    (S:L140); in combat it may explode (S-A16)."""
    role = DieRole.MANIFESTATION
    mode = plan.options.manifestation_die_explodes if plan.combat else ManifestationDieExplodes.NONE
    into = _chain(plan, role, depth) if mode is ManifestationDieExplodes.INTO_MULTIPLIER else None
    # The dice a 6 adds to the check are the multiplier's own chain (S-A16): one die with
    # explode_chain=single, as many as 6s come otherwise.
    added = (
        _chain(plan, DieRole.EXPLOSION, depth)
        if mode is ManifestationDieExplodes.ADD_TO_CHECK
        else None
    )

    def effect(n: int) -> Distribution[Effect]:
        face = plan.face(role, n)
        if n == 1:
            return _EPISODE
        if into is not None and plan.explodes(role, n):
            return into.map(lambda x: (False, 0, face + x))
        if added is not None and plan.explodes(role, n):
            return added.map(lambda x: (False, x, face))
        return Distribution[Effect]([((False, 0, face), 1)])

    return _D6.then(effect)


def _merged(
    plan: Plan,
    outcome: Distribution[Outcome],
    steps: list[Distribution[Effect]],
    alike: tuple[int, int],
) -> Distribution[Outcome]:
    """`outcome` with the values that `steps` take to the same side of `alike` merged."""
    if not _monotone(steps):
        return outcome
    values = [o[0] for o, _ in outcome.items()]
    bottom, top = _bounds(plan, steps, alike, min(values), max(values))
    if bottom == min(values) and top == max(values):
        return outcome
    return outcome.map(lambda o: (min(max(o[0], bottom), top), o[1]))


def _monotone(steps: list[Distribution[Effect]]) -> bool:
    """Whether every step keeps the order of values: no multiplier below 0 (a penalised
    manifestation die can show less)."""
    return all(e is None or e[0] or e[2] >= 0 for effects in steps for e, _ in effects.items())


def _bounds(
    plan: Plan, steps: list[Distribution[Effect]], alike: tuple[int, int], low: int, high: int
) -> tuple[int, int]:
    """The least and greatest values in [low, high] worth telling apart: every value below
    the first ends below `alike[0]` whatever `steps` roll, and every value above the second
    ends at `alike[1]` or more. Each step keeps the order of values (`_monotone`), so the
    extremes of what the steps can make of a value are the extremes of each step in turn."""

    def least(value: int) -> int:
        for effects in steps:
            value = min(_applied(plan, value, e) for e, _ in effects.items())
        return value

    def greatest(value: int) -> int:
        for effects in steps:
            value = max(_applied(plan, value, e) for e, _ in effects.items())
        return value

    top = _first(low, high, lambda v: least(v) >= alike[1])
    bottom = _first(low, high, lambda v: greatest(v) >= alike[0]) - 1
    return max(bottom, low), min(top, high)


def _first(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The least value in [low, high] where `holds` (false, then true) holds; high + 1 if none."""
    while low <= high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle - 1
        else:
            low = middle + 1
    return low


def _range(distribution: Distribution[int]) -> tuple[int, int]:
    values = [v for v, _ in distribution.items()]
    return min(values), max(values)


_STEPS: dict[Step, Callable[[Plan, int], Distribution[Effect]]] = {
    Step.DOUBLE: _double,
    Step.FLARE: _flare,
    Step.MULTIPLY: _multiply,
}
