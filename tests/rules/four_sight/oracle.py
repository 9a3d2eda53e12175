"""An independent oracle of 4SIGHT probabilities, re-read from the seed text (S:L<n>) and the
catalogue (4sight-4d8.md part A). It shares no code with the service: a disagreement between
the two is a finding, whichever is wrong.

Everything is exact (`fractions.Fraction`). A check's outcomes are a dict
`{(result, adverse_episode): probability}`.

- Non-combat checks are brute force over every face of every d6 (`itertools.product`).
- Combat checks explode (S:L191). An unbounded chain is infinite, so each exploding die is
  enumerated up to `depth` extra dice (default `DEPTH` = 20, as the catalogue's A5 method);
  the chains longer than that are left out, so a combat distribution sums to slightly less
  than 1. `mass_cut(outcomes)` is exactly the probability left out: every probability the
  oracle reports is a lower bound, and the true value is at most `mass_cut` above it.
  One die loses 6**-(depth + 1) (about 4.6e-17 at depth 20).
"""

import bisect
import itertools
from collections import defaultdict
from fractions import Fraction

import icepool

DEPTH = 20
FACES = range(1, 7)
SIXTH = Fraction(1, 6)
MODES = ("none", "controlled", "deep_sight", "precognitive_flare")

Bands = tuple[tuple[str, int, int | None], ...]  # (name, lowest margin, highest or None)
# Degree of success by margin, S:L154-159 (catalogue A3.1).
DEGREES: Bands = (
    ("bare", 0, 3),
    ("moderate", 4, 10),
    ("good", 11, 20),
    ("excellent", 21, 40),
    ("perfect", 41, None),
)
# Injury by margin of a hit, S:L193-197 (catalogue A3.18); a tie hits (S-A18).
INJURIES: Bands = (("minor", 0, 3), ("moderate", 4, 6), ("severe", 7, 10), ("grievous", 11, None))

Dist = dict[int, Fraction]
Outcomes = dict[tuple[int, bool], Fraction]


# --- one die --------------------------------------------------------------------------


def contribution(face: int, penalty: int = 0, floor: int | None = None) -> int:
    """What one physical roll adds: the natural face minus the injury penalty (S:L201),
    raised to `floor` if a die floor is chosen (S-A19(ii); default none)."""
    value = face - penalty
    return value if floor is None else max(value, floor)


def exploding_die(
    penalty: int = 0,
    floor: int | None = None,
    *,
    depth: int = DEPTH,
    chain: str = "unbounded",
) -> Dist:
    """One combat die (S:L191, A3.15): while the natural face is 6, roll again and add.

    Unbounded: k sixes then a final r in 1..5 adds k*c(6) + c(r), probability 6**-(k+1),
    for k = 0..depth (longer chains are left out). Single (S-A16): a 6 adds one more die,
    which does not explode, so it is exact.
    """
    dist: Dist = defaultdict(Fraction)
    six = contribution(6, penalty, floor)
    if chain == "single":
        for first, second in itertools.product(FACES, FACES):
            value = contribution(first, penalty, floor)
            if first == 6:
                value += contribution(second, penalty, floor)
            dist[value] += SIXTH * SIXTH
        return dict(dist)
    assert chain == "unbounded", chain
    for sixes in range(depth + 1):
        for last in range(1, 6):
            dist[sixes * six + contribution(last, penalty, floor)] += SIXTH ** (sixes + 1)
    return dict(dist)


def convolve(first: Dist, second: Dist) -> Dist:
    """The distribution of a sum of two independent values."""
    total: Dist = defaultdict(Fraction)
    for (a, p), (b, q) in itertools.product(first.items(), second.items()):
        total[a + b] += p * q
    return dict(total)


def exploding_pool(
    dice: int,
    penalty: int = 0,
    floor: int | None = None,
    *,
    depth: int = DEPTH,
    chain: str = "unbounded",
) -> Dist:
    """The sum of `dice` exploding dice, by convolution of the per-die distributions."""
    pool: Dist = {0: Fraction(1)}
    for _ in range(dice):
        pool = convolve(pool, exploding_die(penalty, floor, depth=depth, chain=chain))
    return pool


def plain_pool(dice: int, penalty: int = 0, floor: int | None = None) -> Dist:
    """The sum of `dice` non-exploding d6, brute force over all 6**dice ordered rolls."""
    pool: Dist = defaultdict(Fraction)
    weight = SIXTH**dice
    for faces in itertools.product(FACES, repeat=dice):
        pool[sum(contribution(f, penalty, floor) for f in faces)] += weight
    return dict(pool)


# --- the manifestation step (S:L140-148, catalogue A3.1 step 6) --------------------------


def multiplier_die(explodes: str, depth: int) -> Dist:
    """The controlled manifestation's d6, never penalised (S-A19(i)). A natural 1 is the
    adverse episode (key 1). With `into_multiplier` (S-A16) a 6 explodes into the
    multiplier: 6 + 6 + ... + r (a natural 1 is adverse only on the first roll)."""
    if explodes == "into_multiplier":
        return exploding_die(depth=depth)
    return dict.fromkeys(FACES, SIXTH)


def controlled(base: int, *, explodes: str, extra: Dist, depth: int, clamp_zero: bool) -> Outcomes:
    """Multiply the whole base by a d6; 1 -> base x 1 - 20 and an adverse episode (S:L140,
    S-A07, S-A08). With `clamp_zero` (S-A29) a negative base counts as 0 here.

    A 6 on the multiplier with `add_to_check` (S-A16): the exploding die `extra` is added
    AFTER multiplying, 6 * base + X; this is the reading that reproduces A5.6 row 8c.
    `add_to_base` is the other reading, 6 * (base + X); it does not reproduce 8c.
    """
    out: Outcomes = defaultdict(Fraction)
    start = max(base, 0) if clamp_zero else base
    for m, p in multiplier_die(explodes, depth).items():
        if m == 1:
            out[start - 20, True] += p
        elif m == 6 and explodes in ("add_to_check", "add_to_base"):
            for x, q in extra.items():
                result = 6 * start + x if explodes == "add_to_check" else 6 * (start + x)
                out[result, False] += p * q
        else:
            out[start * m, False] += p
    return dict(out)


def manifest(
    base: int,
    manifestation: str,
    *,
    explodes: str = "none",
    extra: Dist | None = None,
    depth: int = DEPTH,
    clamp_zero: bool = False,
) -> Outcomes:
    """The result of one base under a manifestation mode (catalogue A3.1 step 6):
    controlled (S:L140); Deep Sight, d6 5-6 doubles, no adverse episode (S:L144-146);
    Precognitive Flare, the GM's d6 5-6 forces a controlled roll, else the base (S:L148).
    Trigger dice are never penalised and never explode (S-A16, S-A19(i))."""
    kwargs = {"explodes": explodes, "extra": extra or {}, "depth": depth, "clamp_zero": clamp_zero}
    if manifestation == "none":
        return {(base, False): Fraction(1)}
    if manifestation == "controlled":
        return controlled(base, **kwargs)  # type: ignore[arg-type]
    third = Fraction(1, 3)
    if manifestation == "deep_sight":
        doubled = 2 * (max(base, 0) if clamp_zero else base)
        out: Outcomes = defaultdict(Fraction)
        out[base, False] += 1 - third
        out[doubled, False] += third
        return dict(out)
    assert manifestation == "precognitive_flare", manifestation
    out = defaultdict(Fraction, {(base, False): 1 - third})
    for key, p in controlled(base, **kwargs).items():  # type: ignore[arg-type]
        out[key] += third * p
    return dict(out)


# --- a check -----------------------------------------------------------------------------


def check_outcomes(
    trait: int,
    dice: int,
    *,
    modifier: int = 0,
    penalty: int = 0,
    floor: int | None = None,
    manifestation: str = "none",
    combat: bool = False,
    depth: int = DEPTH,
    explode_chain: str = "unbounded",
    manifestation_die_explodes: str = "none",
    clamp_zero: bool = False,
) -> Outcomes:
    """{(result, adverse): P} of one check (S:L32-36, L117-148; catalogue A3.1).

    `dice` counts every additive d6: the base die + 0/1/2 expertise dice + the Omega die
    (S:L138, L229). Each contributes its face minus `penalty` (raised to `floor` if given).
    base = trait + modifier + the dice; the manifestation step then applies to the base.
    Non-combat: brute force over all faces. Combat: every additive die explodes (S:L191)
    with chains to `depth` extra dice (`explode_chain="single"`: one extra die at most,
    S-A16); `mass_cut` gives the probability left out. Trigger dice (multiplier, Deep
    Sight, Flare) are not penalised (S-A19(i)). In combat only, `manifestation_die_explodes`
    (S-A16): "into_multiplier" makes the multiplier an exploding d6; "add_to_check" adds an
    extra exploding additive die (penalised like the others) when the multiplier shows 6
    (see `controlled`). `clamp_zero` (S-A29) multiplies max(base, 0) instead of the base.
    """
    if combat:
        pool = exploding_pool(dice, penalty, floor, depth=depth, chain=explode_chain)
        # The multiplier's 6 rolls its own chain: one die, no further, with a single chain.
        extra = (
            plain_pool(1, penalty, floor)
            if explode_chain == "single"
            else exploding_die(penalty, floor, depth=depth, chain=explode_chain)
        )
    else:
        assert manifestation_die_explodes == "none", "only combat dice explode (S:L191)"
        pool = plain_pool(dice, penalty, floor)
        extra = {}
    out: Outcomes = defaultdict(Fraction)
    for total, p in pool.items():
        base = trait + modifier + total
        found = manifest(
            base,
            manifestation,
            explodes=manifestation_die_explodes,
            extra=extra,
            depth=depth,
            clamp_zero=clamp_zero,
        )
        for key, q in found.items():
            out[key] += p * q
    return dict(out)


def mass_cut(outcomes: Outcomes | Dist) -> Fraction:
    """The probability a truncated (combat) distribution leaves out: 0 for non-combat."""
    return 1 - sum(outcomes.values(), Fraction(0))


def results(outcomes: Outcomes) -> Dist:
    """The distribution of the result alone (the adverse flag dropped)."""
    out: Dist = defaultdict(Fraction)
    for (result, _adverse), p in outcomes.items():
        out[result] += p
    return dict(out)


def p_at_least(outcomes: Outcomes, tn: int) -> Fraction:
    """P(result >= TN): success (S:L36, L152)."""
    return sum((p for (result, _), p in outcomes.items() if result >= tn), Fraction(0))


# --- grading -----------------------------------------------------------------------------


def band(margin: int, bands: Bands) -> str:
    for name, low, high in bands:
        if margin >= low and (high is None or margin <= high):
            return name
    raise ValueError(margin)


def degrees(outcomes: Outcomes, tn: int) -> dict[str, Fraction]:
    """fail / bare / moderate / good / excellent / perfect at a TN (S:L152-159)."""
    out = dict.fromkeys(("fail", *(name for name, _, _ in DEGREES)), Fraction(0))
    for (result, _), p in outcomes.items():
        margin = result - tn
        out["fail" if margin < 0 else band(margin, DEGREES)] += p
    return out


def p_margin(first: Dist, second: Dist, low: int | None, high: int | None) -> Fraction:
    """P(low <= X - Y <= high) for independent X ~ first, Y ~ second (None = unbounded):
    for each x, the mass of Y in [x - high, x - low], read off Y's cumulative sums."""
    ys = sorted(second)
    cumulative = list(itertools.accumulate((second[y] for y in ys), initial=Fraction(0)))

    def mass(lowest: float, highest: float) -> Fraction:
        return (
            cumulative[bisect.bisect_right(ys, highest)]
            - cumulative[bisect.bisect_left(ys, lowest)]
        )

    inf = float("inf")
    total = Fraction(0)
    for x, p in first.items():
        lowest = -inf if high is None else x - high
        highest = inf if low is None else x - low
        total += p * mass(lowest, highest)
    return total


def opposed(aggressor: Outcomes, opponent: Outcomes) -> dict[tuple[str, str], Fraction]:
    """{(winner, degree): P} of an opposed check (S:L177-183, A3.14): the aggressor wins
    ties (S-A13); the degree grades the winner's margin |A - D| (S-A14)."""
    a, d = results(aggressor), results(opponent)
    out = {}
    for name, low, high in DEGREES:
        out["aggressor", name] = p_margin(a, d, low, high)
        # the opponent wins by D - A >= 1; a margin of 0 is the aggressor's tie
        out["opponent", name] = p_margin(d, a, max(low, 1), high)
    return out


def combat(attacker: Outcomes, defender: Outcomes) -> dict[str, Fraction]:
    """no_hit / minor / moderate / severe / grievous of an attack (S:L189-197, A3.16):
    a hit iff attack >= defence (ties hit, S-A18); the injury grades attack - defence."""
    a, d = results(attacker), results(defender)
    out = {"no_hit": p_margin(a, d, None, -1)}
    for name, low, high in INJURIES:
        out[name] = p_margin(a, d, low, high)
    return out


# --- a second computation with icepool ----------------------------------------------------


def icepool_exploding_die(
    penalty: int = 0, floor: int | None = None, *, depth: int = DEPTH, chain: str = "unbounded"
) -> "icepool.Die":
    """One exploding die by icepool: explode the natural d6, then map its natural sum S to
    the penalised value. S = 6k + r with r in 1..5 tells k sixes and the last face r; at the
    depth limit icepool keeps the last 6 with nothing after it (its `end` = 0)."""
    six = contribution(6, penalty, floor)

    def penalised(natural_sum: int) -> int:
        sixes, last = divmod(natural_sum - 1, 6)
        return sixes * six + contribution(last + 1, penalty, floor)

    return icepool.d6.explode(depth=1 if chain == "single" else depth).map(penalised)


def icepool_exploding_pool(
    dice: int,
    penalty: int = 0,
    floor: int | None = None,
    *,
    depth: int = DEPTH,
    chain: str = "unbounded",
) -> "icepool.Die":
    """The sum of `dice` exploding dice, by icepool."""
    return dice @ icepool_exploding_die(penalty, floor, depth=depth, chain=chain)


def icepool_plain_pool(dice: int, penalty: int = 0) -> "icepool.Die":
    """The sum of `dice` plain d6, each less `penalty`, by icepool."""
    return dice @ (icepool.d6 - penalty)


def icepool_dist(die: "icepool.Die") -> Dist:
    """An icepool die as {outcome: Fraction}."""
    return {outcome: Fraction(weight, die.denominator()) for outcome, weight in die.items()}
