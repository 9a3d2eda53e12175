"""An independent oracle of FORESIGHT resolution odds, written from the rule text of the seed
(`F:L<n>` = line n of shared/seeds/004_0f2ce8cae6aa3515.txt) and the catalogue
(shared/rules/foresight-1.md sections 1.1-1.6, 3.A.13-3.A.15, 5, Appendix A). It shares no code
with the service: a disagreement between the two is a finding, whichever is wrong.

Everything is exact (`fractions.Fraction`) and brute force: a distribution is counted over the
100 equally likely D100 rolls, and a contest over the 100 x 100 equally likely roll pairs.
QRs are the book's numbers 1, 2, 3, 4, 7, 10; lower is better.
"""

import math
from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from typing import Literal

import icepool

Number = int | float | str | Fraction
Rounding = Literal["nearest_half_up", "none"]
Thresholds = Literal["exact", "rounded"]
Dist = dict[int, Fraction]

# The ease factor ladder, F:L251 (catalogue 1.1): 0, 1/4, 1/2, 1, 2, ..., 15.
LADDER: tuple[Fraction, ...] = (
    Fraction(0),
    Fraction(1, 4),
    Fraction(1, 2),
    *(Fraction(k) for k in range(1, 16)),
)
QRS: tuple[int, ...] = (1, 2, 3, 4, 7, 10)  # the notch ladder, best first
ROLLS = range(1, 101)  # D100: 1..100, "00" is 100 (catalogue 1.5)
HALF = Fraction(1, 2)

# Yield column of the QR table, F:L1368-1373 (QR10 = -25%); PM = 4 - QR (F:L1404).
YIELD: dict[int, Fraction] = {
    1: Fraction(1),
    2: Fraction(3, 4),
    3: Fraction(1, 2),
    4: Fraction(1, 4),
    7: Fraction(0),
    10: Fraction(-1, 4),
}

# "Opposed Resolution: Blocking", F:L1511-1519, transcribed literally.
# BLOCK[attack QR][defense QR] = the effective attack QR ("how much got through").
BLOCK: dict[int, dict[int, int]] = {
    # attack QR: {defense QR: effective attack QR}
    1: {1: 7, 2: 4, 3: 3, 4: 2, 7: 1, 10: 1},
    2: {1: 7, 2: 7, 3: 4, 4: 3, 7: 2, 10: 1},
    3: {1: 7, 2: 7, 3: 7, 4: 4, 7: 3, 10: 2},
    4: {1: 7, 2: 7, 3: 7, 4: 7, 7: 4, 10: 3},
    7: {1: 7, 2: 7, 3: 7, 4: 7, 7: 7, 10: 4},
    10: {1: 10, 2: 10, 3: 10, 4: 10, 7: 10, 10: 10},
}

# "Random QR Table", F:L1472-1477: D10 face -> QR.
RANDOM_QR: dict[int, int] = {1: 1, 2: 2, 3: 3, 4: 3, 5: 3, 6: 4, 7: 4, 8: 4, 9: 4, 10: 4}


# --- arithmetic -------------------------------------------------------------------------


def round_half_up(x: Fraction | int) -> int:
    """ "0.5 or higher is rounded up" (F:L264): floor(x + 1/2)."""
    return math.floor(Fraction(x) + HALF)


def ef_add(bef: Number, modifiers: Iterable[int]) -> Fraction:
    """Ladder addition (F:L249-256): all modifiers are summed first, then the BEF moves that many
    rungs, clamped to the ends 0 and 15 (F:L254, F:L1352)."""
    index = LADDER.index(Fraction(bef))  # ValueError if the BEF is not on the ladder
    return LADDER[min(max(index + sum(modifiers), 0), len(LADDER) - 1)]


def twenty_plus(score: int) -> tuple[int, int]:
    """F:L233: a score above 20 counts as 20 plus an EF modifier of +1 for every three points
    above 20 (23-25 is 20+1, 26-28 is 20+2). Returns (effective score, n)."""
    if score < 0:
        raise ValueError(f"score must be >= 0, got {score}")
    if score <= 20:
        return score, 0
    return 20, (score - 20) // 3


def success_chance(
    score: int,
    bef: Number,
    modifiers: Iterable[int] = (),
    rounding: Rounding = "nearest_half_up",
) -> Fraction:
    """SC = Score x EF (F:L241, F:L1340). The 20+n bonus joins the modifier sum (catalogue
    AMB-05); the product is rounded to the nearest whole number, half up (F:L262-268), unless
    `rounding="none"` (F:L1354 leaves 0.25 x 14 = 3.5)."""
    effective, n = twenty_plus(score)
    sc = effective * ef_add(bef, [*modifiers, n])
    if rounding == "nearest_half_up":
        return Fraction(round_half_up(sc))
    if rounding == "none":
        return sc
    raise ValueError(f"unknown rounding {rounding!r}")


# --- one roll ---------------------------------------------------------------------------


def qr(roll: int, sc: Number, thresholds: Thresholds = "exact") -> int:
    """The quality rating of one D100 roll against a success chance (F:L306-317, F:L1360-1378).

    * roll <= SC succeeds: QR1 if roll <= SC/10, QR2 if <= SC/5, QR3 if <= SC/2, else QR4 (the
      thresholds are compared exactly: F:L1384-1392 quote 47.5 and 9.5; "rounded" rounds each
      threshold half up instead, catalogue AMB-03);
    * a roll of 99 is never better than QR4;
    * a roll of 100 always fails: QR7 if SC >= 100, else QR10;
    * any other failure is QR10 if the roll is a multiple of 10, else QR7.
    """
    if roll not in ROLLS:
        raise ValueError(f"roll must be 1..100, got {roll}")
    chance = Fraction(sc)
    if chance < 0:
        raise ValueError(f"sc must be >= 0, got {sc}")
    if roll == 100:
        return 7 if chance >= 100 else 10
    if roll > chance:
        return 10 if roll % 10 == 0 else 7
    if thresholds == "exact":
        if 10 * roll <= chance:
            rating = 1
        elif 5 * roll <= chance:
            rating = 2
        elif 2 * roll <= chance:
            rating = 3
        else:
            rating = 4
    elif thresholds == "rounded":
        if roll <= round_half_up(chance / 10):
            rating = 1
        elif roll <= round_half_up(chance / 5):
            rating = 2
        elif roll <= round_half_up(chance / 2):
            rating = 3
        else:
            rating = 4
    else:
        raise ValueError(f"unknown thresholds {thresholds!r}")
    if roll == 99:
        rating = max(rating, 4)
    return rating


@cache
def qr_by_roll(sc: Fraction, thresholds: Thresholds = "exact") -> tuple[int, ...]:
    """qr(roll, sc) for roll = 1..100, in roll order (index roll - 1)."""
    return tuple(qr(roll, sc, thresholds) for roll in ROLLS)


def _rolls(sc: Number, thresholds: Thresholds = "exact") -> tuple[int, ...]:
    return qr_by_roll(Fraction(sc), thresholds)


def qr_counts(sc: Number, thresholds: Thresholds = "exact") -> dict[int, int]:
    """How many of the 100 rolls give each QR (all six QRs, zeros included)."""
    counts = dict.fromkeys(QRS, 0)
    for rating in _rolls(sc, thresholds):
        counts[rating] += 1
    return counts


def qr_distribution(sc: Number, thresholds: Thresholds = "exact") -> Dist:
    """QR -> probability over the 100 equally likely rolls (all six QRs, zeros included)."""
    return {q: Fraction(n, 100) for q, n in qr_counts(sc, thresholds).items()}


def icepool_qr_distribution(sc: Number, thresholds: Thresholds = "exact") -> Dist:
    """The same distribution built by icepool from a d100 (a cross-check of the enumeration)."""
    die = icepool.d(100).map(lambda roll: qr(roll, sc, thresholds))
    found = {q: Fraction(0) for q in QRS}
    for outcome, quantity in die.items():
        found[outcome] = Fraction(quantity, die.denominator())
    return found


def expected_yield(dist: Dist) -> Fraction:
    return sum((p * YIELD[q] for q, p in dist.items()), Fraction(0))


def expected_pm(dist: Dist) -> Fraction:
    return sum((p * (4 - q) for q, p in dist.items()), Fraction(0))


def random_qr_distribution() -> Dist:
    """The Random QR table (F:L1472-1477) over the ten faces of a D10."""
    found: Dist = {}
    for face in range(1, 11):
        rating = RANDOM_QR[face]
        found[rating] = found.get(rating, Fraction(0)) + Fraction(1, 10)
    return found


# --- two rolls: opposed ("who won?", F:L1485-1501) ---------------------------------------


def _beats(qa: int, qb: int, failures_tie: bool) -> int:
    """+1 if A's QR is better, 0 for a tie, -1 if B's is better. Better = lower number, so QR7
    beats QR10 (catalogue AMB-08) unless `failures_tie`, where any two failures tie."""
    if failures_tie and qa >= 7 and qb >= 7:
        return 0
    return (qa < qb) - (qa > qb)


def opposed_round(
    sc_a: Number, sc_b: Number, failures_tie: bool = False
) -> tuple[Fraction, Fraction, Fraction]:
    """(P(A wins), P(tie), P(B wins)) for one round: every one of the 100 x 100 roll pairs."""
    rolls_a, rolls_b = _rolls(sc_a), _rolls(sc_b)
    tally = {1: 0, 0: 0, -1: 0}
    for qa in rolls_a:
        for qb in rolls_b:
            tally[_beats(qa, qb, failures_tie)] += 1
    return Fraction(tally[1], 10_000), Fraction(tally[0], 10_000), Fraction(tally[-1], 10_000)


def opposed_round_combined(
    sc_a: Number, sc_b: Number, failures_tie: bool = False
) -> tuple[Fraction, Fraction, Fraction]:
    """opposed_round from the two QR distributions (the rolls are independent, Appendix A)."""
    dist_a, dist_b = qr_distribution(sc_a), qr_distribution(sc_b)
    total = {1: Fraction(0), 0: Fraction(0), -1: Fraction(0)}
    for qa, pa in dist_a.items():
        for qb, pb in dist_b.items():
            total[_beats(qa, qb, failures_tie)] += pa * pb
    return total[1], total[0], total[-1]


def opposed_eventual(sc_a: Number, sc_b: Number, failures_tie: bool = False) -> Fraction:
    """P(A eventually wins) when ties are rerolled until decided: W / (W + L) (F:L1497)."""
    win, _tie, loss = opposed_round(sc_a, sc_b, failures_tie)
    if win + loss == 0:
        raise ZeroDivisionError("every round ties: the contest never ends")
    return win / (win + loss)


def opposed_margin(sc_a: Number, sc_b: Number) -> Dist:
    """Signed notch margin -> probability, margin = position(qr_b) - position(qr_a) on the notch
    ladder [1, 2, 3, 4, 7, 10] (positive = A better), over the 100 x 100 roll pairs."""
    rolls_a, rolls_b = _rolls(sc_a), _rolls(sc_b)
    tally: dict[int, int] = {}
    for qa in rolls_a:
        for qb in rolls_b:
            margin = QRS.index(qb) - QRS.index(qa)
            tally[margin] = tally.get(margin, 0) + 1
    return {m: Fraction(n, 10_000) for m, n in sorted(tally.items())}


# --- two rolls: blocking ("How much was blocked?", F:L1503-1521) --------------------------


def blocked_distribution(attack_sc: Number, defense_sc: Number) -> Dist:
    """Effective attack QR -> probability, BLOCK looked up for every one of the 100 x 100 roll
    pairs (attack and defense rolled independently)."""
    rolls_a, rolls_d = _rolls(attack_sc), _rolls(defense_sc)
    tally = dict.fromkeys(QRS, 0)
    for qa in rolls_a:
        row = BLOCK[qa]
        for qd in rolls_d:
            tally[row[qd]] += 1
    return {q: Fraction(n, 10_000) for q, n in tally.items()}


def blocked_distribution_combined(attack_sc: Number, defense_sc: Number) -> Dist:
    """blocked_distribution from the two QR distributions (independent rolls, Appendix A)."""
    found = {q: Fraction(0) for q in QRS}
    for qa, pa in qr_distribution(attack_sc).items():
        for qd, pd in qr_distribution(defense_sc).items():
            found[BLOCK[qa][qd]] += pa * pd
    return found
