"""Exact distributions of 4SIGHT checks, read from the same `Plan` the roller follows.

A check's outcome is the pair (result, adverse episode). Non-combat pools are finite. In
combat each die explodes on a 6 (S:L191); a chain is enumerated to `DEPTH` extra dice and the
longer chains are left out as `missing` mass, at most 6**-17 per die, so a whole contest of up
to 12 chains leaves out less than 1e-12, stated exactly with every answer.
"""

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from itertools import accumulate
from typing import TypeVar

from service.rules.distribution import Distribution, Truncation, exact
from service.rules.four_sight.options import DieRole, ExplodeChain, ManifestationDieExplodes
from service.rules.four_sight.pool import Plan, Step
from service.rules.four_sight.rolling import ADVERSE_PENALTY, SIDES

__all__ = ["DEPTH", "Band", "Outcome", "by_difference", "check_distribution", "truncation"]

DEPTH = 16
Outcome = tuple[int, bool]  # (result, adverse episode)
L = TypeVar("L", bound=Hashable)
Band = tuple[L, int | None, int | None]  # a label and the range of a difference it covers

_D6 = Distribution.die(SIDES)


def check_distribution(plan: Plan) -> Distribution[Outcome]:
    """The distribution of (result, adverse episode) of a check."""
    pool = Distribution({plan.trait.score + plan.modifier: 1})
    for role in plan.pool:
        pool = pool + _die(plan, role)
    outcome: Distribution[Outcome] = pool.map(lambda base: (base, False))
    for step, _ in plan.steps:
        outcome = _STEPS[step](plan, outcome)
    return outcome


def truncation(*distributions: Distribution[L]) -> Truncation | None:
    """The truncation behind a set of independent distributions, or None if exact."""
    kept = Fraction(1)
    for d in distributions:
        kept *= 1 - d.missing
    missing = 1 - kept
    return Truncation(depth=DEPTH, mass_cut=exact(missing)) if missing else None


def by_difference(
    a: Distribution[int], b: Distribution[int], bands: Sequence[Band[L]]
) -> Distribution[L]:
    """The distribution of the band of `a - b`, for independent `a` and `b`: prefix sums over
    `a`'s sorted values make it |b| x |bands| lookups instead of a full convolution."""
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


def _die(plan: Plan, role: DieRole) -> Distribution[int]:
    """One die of the pool with its explosions."""
    if not plan.combat:
        return _D6.map(lambda n: plan.face(role, n))
    rest = _chain(plan, DieRole.EXPLOSION)
    return _D6.then(lambda n: _then_chain(plan.face(role, n), plan.explodes(role, n), rest))


def _chain(plan: Plan, role: DieRole) -> Distribution[int]:
    """The dice an explosion adds: one more die, itself exploding unless the chain is single."""
    single = plan.options.explode_chain is ExplodeChain.SINGLE
    return Distribution.exploding(
        SIDES, 0 if single else DEPTH - 1, lambda n: plan.face(role, n),
        lambda n: plan.explodes(role, n), last_explodes=not single,
    )  # fmt: skip


def _then_chain(face: int, explodes: bool, rest: Distribution[int]) -> Distribution[int]:
    return rest.map(lambda x: face + x) if explodes else Distribution({face: 1})


def _double(plan: Plan, outcome: Distribution[Outcome]) -> Distribution[Outcome]:
    """Deep Sight: a d6 of 5-6 doubles the result (S:L144-146)."""
    doubles = _D6.map(lambda n: plan.face(DieRole.DEEP_SIGHT_TRIGGER, n) >= 5)
    return outcome.then(lambda o: doubles.map(lambda d: (plan.clamp(o[0]) * 2, o[1]) if d else o))


def _flare(plan: Plan, outcome: Distribution[Outcome]) -> Distribution[Outcome]:
    """Precognitive Flare: the GM's d6 of 5-6 forces a manifestation roll (S:L148)."""
    if plan.declines_flare:
        return outcome
    fires = _D6.map(lambda n: plan.face(DieRole.FLARE_TRIGGER, n) >= 5)
    multiply = _multiplier(plan)
    return outcome.then(
        lambda o: fires.then(lambda fired: multiply(o) if fired else Distribution({o: 1}))
    )


def _multiply(plan: Plan, outcome: Distribution[Outcome]) -> Distribution[Outcome]:
    """The manifestation die: 1 is an adverse episode (-20), else the result is multiplied
    (S:L140); in combat it may explode (S-A16)."""
    return outcome.then(_multiplier(plan))


def _multiplier(plan: Plan) -> Callable[[Outcome], Distribution[Outcome]]:
    effects = _effects(plan)

    def apply(o: Outcome, effect: tuple[bool, int, int]) -> Outcome:
        adverse, added, multiplier = effect
        if adverse:
            return (o[0] - ADVERSE_PENALTY, True)
        return (plan.clamp(o[0]) * multiplier + added, o[1])

    return lambda o: effects.map(lambda e: apply(o, e))


def _effects(plan: Plan) -> Distribution[tuple[bool, int, int]]:
    """(adverse, dice added to the check, multiplier) of one manifestation roll."""
    role = DieRole.MANIFESTATION
    mode = plan.options.manifestation_die_explodes if plan.combat else ManifestationDieExplodes.NONE
    into = _chain(plan, role) if mode is ManifestationDieExplodes.INTO_MULTIPLIER else None
    added = _die(plan, DieRole.EXPLOSION) if mode is ManifestationDieExplodes.ADD_TO_CHECK else None

    def effect(n: int) -> Distribution[tuple[bool, int, int]]:
        face = plan.face(role, n)
        if n == 1:
            return Distribution({(True, 0, 1): 1})
        if into is not None and plan.explodes(role, n):
            return into.map(lambda x: (False, 0, face + x))
        if added is not None and plan.explodes(role, n):
            return added.map(lambda x: (False, x, face))
        return Distribution({(False, 0, face): 1})

    return _D6.then(effect)


_STEPS: dict[Step, Callable[[Plan, Distribution[Outcome]], Distribution[Outcome]]] = {
    Step.DOUBLE: _double,
    Step.FLARE: _flare,
    Step.MULTIPLY: _multiply,
}
