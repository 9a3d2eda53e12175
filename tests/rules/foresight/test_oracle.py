"""The FORESIGHT oracle (oracle.py) against the seed's worked examples (`F:L<n>` = line n of
shared/seeds/004_0f2ce8cae6aa3515.txt), against the catalogue's tables (foresight-1.md sections
1.1, 1.3, 5.1-5.4, 5.7, transcribed into ./data) and against icepool.

Whole numbers and the E[yield]/E[PM] columns of 5.1 must be exact (they are multiples of 1/400
and 1/100). A printed decimal with d digits agrees if the exact value formats to it and lies
within 0.5 * 10**-d (+1e-12) of it.
"""

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from . import oracle as o

DATA = Path(__file__).parent / "data"
F = Fraction


@cache
def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    return data


def rows(name: str) -> list[dict[str, Any]]:
    return list(load(name)["rows"])


def agrees(exact: Fraction, printed: str) -> bool:
    """Whether the exact value rounds to the printed decimal."""
    digits = len(printed.split(".")[1])
    tol = F(1, 2 * 10**digits) + F(1, 10**12)
    return abs(F(printed) - exact) <= tol and f"{float(exact):.{digits}f}" == printed


# --- the data files ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("qr_by_sc", 128),
        ("opposed_round", 196),
        ("opposed_eventual", 196),
        ("blocking", 12),
        ("ease_factor_add", 13 * 17),
        ("twenty_plus", 18),
    ],
)
def test_data_file_is_complete(name: str, count: int) -> None:
    data = load(name)
    assert data["source"].startswith("foresight-1.md section ")
    assert len(data["rows"]) == count


# --- catalogue 1.1: ease factor addition ------------------------------------------------


@pytest.mark.parametrize(
    "row", rows("ease_factor_add"), ids=lambda r: f"bef{r['bef']}{r['modifier']:+d}"
)
def test_ease_factor_add_table(row: dict[str, Any]) -> None:
    assert o.ef_add(row["bef"], [row["modifier"]]) == F(row["ef"])


def test_ladder() -> None:
    """F:L251: 0, 0.25, 0.5, 1, 2, ..., 15 (18 rungs)."""
    assert len(o.LADDER) == 18
    assert o.LADDER[:4] == (F(0), F(1, 4), F(1, 2), F(1))
    assert o.LADDER[3:] == tuple(F(k) for k in range(1, 16))


def test_ease_factor_book_examples() -> None:
    """F:L254: BEF 5 +1 -> 6; BEF 4 -5 -> 0.25; BEF 6 +10 -4 -> 12, i.e. 6 + (10 - 4), not 11
    (F:L256: one at a time would clamp at 15 first). F:L292: BEF 2 -2 -> 0.5 (not 0).
    F:L1354: BEF 5 -6 -> 0.25."""
    assert o.ef_add(5, [1]) == 6
    assert o.ef_add(4, [-5]) == F(1, 4)
    assert o.ef_add(6, [10, -4]) == 12
    assert o.ef_add(o.ef_add(6, [10]), [-4]) == 11  # the wrong way, for contrast
    assert o.ef_add(2, [-2]) == F(1, 2)
    assert o.ef_add(5, [-6]) == F(1, 4)


def test_ease_factor_clamps() -> None:
    """F:L254, F:L1352: never below 0 (impossible) nor above 15."""
    assert o.ef_add(15, [5]) == 15
    assert o.ef_add(0.25, [-5]) == 0
    assert o.ef_add("0.5", [1]) == 1
    assert o.ef_add(F(1, 4), []) == F(1, 4)
    with pytest.raises(ValueError, match="not in"):
        o.ef_add(1.5, [])


# --- catalogue 1.3: 20+n ----------------------------------------------------------------


@pytest.mark.parametrize("row", rows("twenty_plus"), ids=lambda r: f"score{r['score']}")
def test_twenty_plus_table(row: dict[str, Any]) -> None:
    assert o.twenty_plus(row["score"]) == (row["effective"], row["n"])


def test_twenty_plus_book_bands() -> None:
    """F:L233: 23-25 is 20+1, 26-28 is 20+2; 21 and 22 count as plain 20."""
    assert [o.twenty_plus(s) for s in (20, 21, 22)] == [(20, 0)] * 3
    assert [o.twenty_plus(s) for s in (23, 24, 25)] == [(20, 1)] * 3
    assert [o.twenty_plus(s) for s in (26, 27, 28)] == [(20, 2)] * 3
    assert o.twenty_plus(0) == (0, 0)
    with pytest.raises(ValueError, match="score"):
        o.twenty_plus(-1)


# --- catalogue 1.4: success chance ------------------------------------------------------


def test_stun_pistol() -> None:
    """F:L245: handguns BEF 3, -2 range, -2 moving, +1 braced, +1 aimed, +1 pistol -> EF 2;
    score 17 -> SC 34."""
    mods = [-2, -2, 1, 1, 1]
    assert o.ef_add(3, mods) == 2
    assert o.success_chance(17, 3, mods) == 34


def test_lockpicking_success_chance() -> None:
    """F:L304: lockpicking BEF 5, lock -1, lockpicks +1, score 14 -> SC 70."""
    assert o.ef_add(5, [-1, 1]) == 5
    assert o.success_chance(14, 5, [-1, 1]) == 70


def test_success_chance_rounding() -> None:
    """F:L268: 13 x 0.25 = 3.25 rounds down to 3. F:L1354: 0.25 x 14 = 3.5 left unrounded;
    rounded half up it is 4 (catalogue 1.4, AMB-02). F:L1346: score 14, BEF 5 -> 70."""
    assert o.success_chance(13, F(1, 4)) == 3
    assert o.success_chance(13, F(1, 4), rounding="none") == F(13, 4)
    assert o.success_chance(14, 5) == 70
    assert o.success_chance(14, 5, [-6], rounding="none") == F(7, 2)
    assert o.success_chance(14, 5, [-6]) == 4
    # with the rational SC 3.5, rolls 1..3 succeed (3%); with SC 4, rolls 1..4 (catalogue 1.4)
    assert sum(o.qr_counts(F(7, 2))[q] for q in (1, 2, 3, 4)) == 3
    assert sum(o.qr_counts(4)[q] for q in (1, 2, 3, 4)) == 4
    assert o.round_half_up(F(5, 2)) == 3
    assert o.round_half_up(F(21, 2)) == 11  # F:L266: (11 + 10) / 2 = 10.5 -> 11
    with pytest.raises(ValueError, match="rounding"):
        o.success_chance(10, 5, rounding="down")  # type: ignore[arg-type]


def test_success_chance_twenty_plus() -> None:
    """F:L233: the 20+n bonus is an EF modifier, summed with the others (AMB-05)."""
    assert o.success_chance(24, 3) == 20 * 4
    assert o.success_chance(29, 3, [-1]) == 20 * 5
    assert o.success_chance(41, 15) == 300
    assert o.success_chance(20, 5, [-10]) == 0  # EF 0: impossible


# --- catalogue 1.6: quality ratings -----------------------------------------------------


def test_lockpicking_roll() -> None:
    """F:L319: roll 32 vs SC 70 is over one fifth (14) but under half (35) -> QR3.
    F:L323: 36..70 would be QR4; above 70 QR7, except 80, 90, 100 -> QR10."""
    assert o.qr(32, 70) == 3
    assert all(o.qr(roll, 70) == 4 for roll in range(36, 71))
    for roll in range(71, 101):
        assert o.qr(roll, 70) == (10 if roll in (80, 90, 100) else 7), roll


@pytest.mark.parametrize(
    ("shot", "sc", "roll", "expected"),
    [
        ("1.1", 95, 75, 4),  # F:L1384: lower than 95 but more than 47.5
        ("1.2", 95, 44, 3),  # F:L1386: under 47.5, over 19
        ("1.3", 76, 78, 7),  # F:L1388: greater than 76, narrowly misses
        ("2.1", 95, 4, 1),  # F:L1390: under 9.5
        ("2.2", 95, 99, 7),  # F:L1390: misses
        ("2.3", 38, 19, 3),  # F:L1390: exactly half of 38 -> QR3
        ("3.1", 95, 49, 4),  # F:L1392: just over 47.5
        ("3.2", 95, 44, 3),  # F:L1392: just under 47.5
        ("3.3", 76, 75, 4),  # F:L1392: barely hits
    ],
)
def test_handgun_qualification(shot: str, sc: int, roll: int, expected: int) -> None:
    """Amy's qualification, set.shot (F:L1384-1392)."""
    assert o.qr(roll, sc) == expected


def test_handgun_qualification_success_chances() -> None:
    """F:L1384-1390: handguns BEF 3, weapon +1, score 19: aimed +1 -> EF 5, SC 95; after a hit
    -1 recoil +2 -> EF 5; -2 recoil +2 -> EF 4, SC 76; -2 recoil alone -> EF 2, SC 38."""
    assert o.success_chance(19, 3, [1, 1]) == 95
    assert o.success_chance(19, 3, [1, -1, 2]) == 95
    assert o.success_chance(19, 3, [1, -2, 2]) == 76
    assert o.success_chance(19, 3, [1, -2]) == 38


def test_roll_100_and_99() -> None:
    """F:L1375-1377: roll 100 is QR7 against SC >= 100, QR10 against SC < 100; roll 99 is never
    better than QR4; F:L1360: a roll of 100 always fails."""
    assert o.qr(100, 120) == 7
    assert o.qr(100, 100) == 7
    assert o.qr(100, 300) == 7
    assert o.qr(100, 99) == 10
    assert o.qr(100, 70) == 10
    assert o.qr(99, 300) == 4
    assert o.qr(98, 300) == 3
    assert o.qr(99, 99) == 4
    assert o.qr(99, 98) == 7


def test_multiples_of_ten() -> None:
    """F:L317: a botch is a failure on a multiple of 10; at or under SC it is a success."""
    assert o.qr(50, 49) == 10
    assert o.qr(50, 50) == 4
    assert o.qr(10, 100) == 1
    assert o.qr(10, F(99, 1)) == 2
    assert o.qr(1, 0) == 7
    assert o.qr(10, 0) == 10


def test_rounded_thresholds() -> None:
    """Catalogue 3.A.8 (AMB-03): roll 48 vs SC 95 is QR4 with exact thresholds (48 > 47.5) but
    QR3 with thresholds rounded half up (48)."""
    assert o.qr(48, 95) == 4
    assert o.qr(48, 95, "rounded") == 3
    assert o.qr(10, 95, "rounded") == 1  # 9.5 -> 10
    assert o.qr(10, 95) == 2


def test_qr_rejects_bad_input() -> None:
    for roll in (0, 101):
        with pytest.raises(ValueError, match="roll"):
            o.qr(roll, 50)
    with pytest.raises(ValueError, match="sc"):
        o.qr(5, -1)
    with pytest.raises(ValueError, match="thresholds"):
        o.qr(5, 50, "floor")  # type: ignore[arg-type]


def test_qr_odds_at_sc_70() -> None:
    """Catalogue 5.1 quick check, F:L323: SC 70 -> 7, 7, 21, 35, 27, 3 out of 100."""
    expected = dict(zip(o.QRS, (7, 7, 21, 35, 27, 3), strict=True))
    assert o.qr_distribution(70) == {q: F(n, 100) for q, n in expected.items()}
    assert o.qr_counts(95) == dict(zip(o.QRS, (9, 10, 28, 48, 4, 1), strict=True))


# --- catalogue 5.1: QR distribution per SC ----------------------------------------------


@pytest.mark.parametrize("row", rows("qr_by_sc"), ids=lambda r: f"sc{r['sc']}")
def test_qr_by_sc(row: dict[str, Any]) -> None:
    sc = row["sc"]
    counts = o.qr_counts(sc)
    assert {str(q): n for q, n in counts.items()} == row["counts"]
    assert sum(counts[q] for q in (1, 2, 3, 4)) == row["p_success_pct"]
    dist = o.qr_distribution(sc)
    assert o.expected_yield(dist) == F(row["e_yield"])
    assert o.expected_pm(dist) == F(row["e_pm"])
    assert agrees(o.expected_yield(dist), row["e_yield"])
    assert agrees(o.expected_pm(dist), row["e_pm"])


def closed_form(s: int) -> dict[int, int]:
    """Catalogue 1.6's closed form for the counts at integer SC s."""
    if s <= 99:
        return {
            1: s // 10,
            2: s // 5 - s // 10,
            3: s // 2 - s // 5,
            4: s - s // 2,
            7: 90 - s + s // 10,
            10: 10 - s // 10,
        }

    def m(x: int) -> int:
        return min(x, 98)

    return {
        1: m(s // 10),
        2: m(s // 5) - m(s // 10),
        3: m(s // 2) - m(s // 5),
        4: 98 - m(s // 2) + 1,
        7: 1,
        10: 0,
    }


def test_closed_form_every_sc() -> None:
    misses = [sc for sc in range(301) if o.qr_counts(sc) != closed_form(sc)]
    assert misses == []
    assert all(sum(o.qr_distribution(sc).values()) == 1 for sc in range(301))
    assert all(sum(o.qr_counts(sc)[q] for q in (1, 2, 3, 4)) == min(sc, 99) for sc in range(301))


@pytest.mark.parametrize("thresholds", ["exact", "rounded"])
def test_icepool_agrees_every_sc(thresholds: o.Thresholds) -> None:
    misses = [
        sc
        for sc in range(301)
        if o.icepool_qr_distribution(sc, thresholds) != o.qr_distribution(sc, thresholds)
    ]
    assert misses == []


def test_icepool_agrees_fractional_sc() -> None:
    for sc in (F(1, 2), F(7, 2), F(13, 4), F(95, 2), F(199, 2)):
        assert o.icepool_qr_distribution(sc) == o.qr_distribution(sc)


# --- catalogue 5.2, 5.3: opposed --------------------------------------------------------


@pytest.mark.parametrize("row", rows("opposed_round"), ids=lambda r: f"a{r['a_sc']}-b{r['b_sc']}")
def test_opposed_round(row: dict[str, Any]) -> None:
    win, tie, loss = o.opposed_round(row["a_sc"], row["b_sc"])
    assert win + tie + loss == 1
    assert agrees(win, row["win"]), float(win)
    assert agrees(tie, row["tie"]), float(tie)
    assert agrees(loss, row["loss"]), float(loss)


@pytest.mark.parametrize(
    "row", rows("opposed_eventual"), ids=lambda r: f"a{r['a_sc']}-b{r['b_sc']}"
)
def test_opposed_eventual(row: dict[str, Any]) -> None:
    win = o.opposed_eventual(row["a_sc"], row["b_sc"])
    assert agrees(win, row["win"]), float(win)


def literal_opposed(
    sc_a: int, sc_b: int, failures_tie: bool = False
) -> tuple[Fraction, Fraction, Fraction, dict[int, Fraction]]:
    """Every one of the 100 x 100 roll pairs, calling qr() afresh each time (no caches)."""
    win = tie = loss = 0
    margins: dict[int, int] = {}
    for roll_a in range(1, 101):
        for roll_b in range(1, 101):
            qa, qb = o.qr(roll_a, sc_a), o.qr(roll_b, sc_b)
            margin = o.QRS.index(qb) - o.QRS.index(qa)
            margins[margin] = margins.get(margin, 0) + 1
            if failures_tie and qa >= 7 and qb >= 7:
                tie += 1
            elif qa < qb:
                win += 1
            elif qa > qb:
                loss += 1
            else:
                tie += 1
    n = 10_000
    return F(win, n), F(tie, n), F(loss, n), {m: F(k, n) for m, k in sorted(margins.items())}


PAIRS = [(70, 50), (95, 38), (0, 300), (100, 100), (3, 150), (99, 100), (13, 13)]


@pytest.mark.parametrize(("sc_a", "sc_b"), PAIRS)
def test_opposed_literal_double_loop(sc_a: int, sc_b: int) -> None:
    win, tie, loss, margins = literal_opposed(sc_a, sc_b)
    assert o.opposed_round(sc_a, sc_b) == (win, tie, loss)
    assert o.opposed_round_combined(sc_a, sc_b) == (win, tie, loss)
    assert o.opposed_margin(sc_a, sc_b) == margins
    assert literal_opposed(sc_a, sc_b, failures_tie=True)[:3] == o.opposed_round(
        sc_a, sc_b, failures_tie=True
    )


def test_opposed_enumeration_equals_combination_on_a_grid() -> None:
    grid = [*range(0, 301, 10), 1, 5, 35, 99, 105, 199, 255]
    misses = [
        (a, b, tie)
        for a in grid
        for b in grid
        for tie in (False, True)
        if o.opposed_round(a, b, tie) != o.opposed_round_combined(a, b, tie)
    ]
    assert misses == []


def test_opposed_symmetry_and_margin() -> None:
    for a, b in [(10, 20), (70, 300), (120, 90), (0, 0)]:
        win, tie, loss = o.opposed_round(a, b)
        assert o.opposed_round(b, a) == (loss, tie, win)
        margins = o.opposed_margin(a, b)
        assert sum(p for m, p in margins.items() if m > 0) == win
        assert margins.get(0, F(0)) == tie
        assert sum(p for m, p in margins.items() if m < 0) == loss
        assert {-m: p for m, p in o.opposed_margin(b, a).items()} == margins


def test_failures_tie() -> None:
    """AMB-08: by default QR7 beats QR10; with failures_tie any two failures tie."""
    dist = o.qr_distribution(0)  # every roll fails: 90 QR7, 10 QR10
    assert o.opposed_round(0, 0) == (dist[7] * dist[10], dist[7] ** 2 + dist[10] ** 2, F(9, 100))
    assert o.opposed_round(0, 0, failures_tie=True) == (F(0), F(1), F(0))
    with pytest.raises(ZeroDivisionError):
        o.opposed_eventual(0, 0, failures_tie=True)
    assert o.opposed_eventual(0, 0) == F(1, 2)


# --- catalogue 5.4: blocking ------------------------------------------------------------


def test_pickpocket_example() -> None:
    """F:L1838: a QR3 pickpocketing attempt partially blocked by a QR4 PC roll -> QR4."""
    assert o.BLOCK[3][4] == 4


def test_block_table_is_total() -> None:
    assert set(o.BLOCK) == set(o.QRS)
    assert all(set(row) == set(o.QRS) for row in o.BLOCK.values())
    assert all(v in o.QRS for row in o.BLOCK.values() for v in row.values())


def test_block_table_matches_text_where_it_applies() -> None:
    """F:L1507: defense equal or better -> negated (QR7); otherwise the attack drops
    (5 - defending QR) notches. The text and table agree for defense QR1-4, attack QR1-7."""
    for attack in (1, 2, 3, 4, 7):
        for defense in (1, 2, 3, 4):
            negated = defense <= attack
            expected = 7 if negated else o.QRS[o.QRS.index(attack) + 5 - defense]
            assert o.BLOCK[attack][defense] == expected, (attack, defense)


def test_block_table_matches_catalogue_notch_arithmetic() -> None:
    """Catalogue 3.A.15 claims its notch arithmetic reproduces the whole table."""
    drop = {1: 4, 2: 3, 3: 2, 4: 1, 7: 0, 10: -1}
    ladder = (1, 2, 3, 4, 7)

    def block(a: int, d: int) -> int:
        if a == 10:
            return 10
        if a == 7:
            return 4 if d == 10 else 7
        return ladder[min(max(ladder.index(a) + drop[d], 0), 4)]

    assert all(o.BLOCK[a][d] == block(a, d) for a in o.QRS for d in o.QRS)


@pytest.mark.parametrize(
    "row", rows("blocking"), ids=lambda r: f"att{r['attack_sc']}-def{r['defense_sc']}"
)
def test_blocking(row: dict[str, Any]) -> None:
    dist = o.blocked_distribution(row["attack_sc"], row["defense_sc"])
    assert sum(dist.values()) == 1
    for q, printed in row["qr"].items():
        assert agrees(dist[int(q)], printed), (q, float(dist[int(q)]))
    assert agrees(sum(dist[q] for q in (1, 2, 3, 4)), row["through"])


@pytest.mark.parametrize(("attack_sc", "defense_sc"), PAIRS)
def test_blocking_literal_double_loop(attack_sc: int, defense_sc: int) -> None:
    tally = dict.fromkeys(o.QRS, 0)
    for roll_a in range(1, 101):
        for roll_d in range(1, 101):
            tally[o.BLOCK[o.qr(roll_a, attack_sc)][o.qr(roll_d, defense_sc)]] += 1
    expected = {q: F(n, 10_000) for q, n in tally.items()}
    assert o.blocked_distribution(attack_sc, defense_sc) == expected
    assert o.blocked_distribution_combined(attack_sc, defense_sc) == expected


def test_blocking_enumeration_equals_combination_on_a_grid() -> None:
    grid = [*range(0, 301, 10), 1, 5, 35, 99, 105, 199, 255]
    misses = [
        (a, d)
        for a in grid
        for d in grid
        if o.blocked_distribution(a, d) != o.blocked_distribution_combined(a, d)
    ]
    assert misses == []


# --- catalogue 5.7: random QR -----------------------------------------------------------


def test_random_qr() -> None:
    """F:L1472-1477 and catalogue 5.7: 0.10, 0.10, 0.30, 0.50; never a failure."""
    assert o.random_qr_distribution() == {1: F(1, 10), 2: F(1, 10), 3: F(3, 10), 4: F(1, 2)}


def test_random_qr_is_success_mix_at_multiples_of_ten() -> None:
    """Catalogue 5.7: it is the QR mix given success at SC 10, 20, ..., 90."""
    for sc in range(10, 100, 10):
        counts = o.qr_counts(sc)
        given_success = {q: F(counts[q], sc) for q in (1, 2, 3, 4)}
        assert given_success == o.random_qr_distribution(), sc
