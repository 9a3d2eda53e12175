"""FORESIGHT resolution against the independent oracle and the catalogue's tables.

`F:L<n>` is line n of shared/seeds/004_0f2ce8cae6aa3515.txt; the catalogue is
shared/rules/foresight-1.md. Every odds figure is compared exactly: the service enumerates the
100 rolls (or 10,000 pairs) with the same function that reads a rolled die, the oracle counts
them by brute force with code of its own.
"""

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from service.rules.foresight.resolution.contests import block
from service.rules.foresight.resolution.ease import add
from service.rules.foresight.resolution.odds import d100, quality_odds
from service.rules.foresight.resolution.options import BlockingMode, QrThresholds
from service.rules.foresight.resolution.quality import quality_rating
from service.rules.foresight.resolution.scores import twenty_plus
from service.rules.foresight.resolution.tables import QR
from tests.rules.foresight import oracle
from tests.rules.foresight.calls import OPS, by_qr, nonzero, odds, run

DATA = Path(__file__).parent / "data"
EXACT = QrThresholds.EXACT

#: A task for each SC of the catalogue's grids: score x BEF, no modifiers.
TASKS = {
    0: (0, 5), 10: (10, 1), 20: (20, 1), 25: (5, 5), 30: (10, 3), 40: (20, 2), 50: (10, 5),
    60: (12, 5), 70: (14, 5), 75: (15, 5), 80: (20, 4), 90: (18, 5), 100: (20, 5),
    120: (20, 6), 150: (15, 10), 200: (20, 10), 300: (20, 15),
}  # fmt: skip


def rows(name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((DATA / name).read_text(encoding="utf-8"))["rows"]
    return data


def task(sc: int, **extra: Any) -> dict[str, Any]:
    score, bef = TASKS[sc]
    return {"score": score, "bef": bef, **extra}


def near(printed: str, value: Fraction) -> bool:
    return abs(value - Fraction(printed)) <= Fraction(1, 20000)


# The ladder and the 20+n rule


@pytest.mark.parametrize("row", rows("ease_factor_add.json"), ids=str)
def test_ease_factor_addition_reproduces_the_catalogue_table(row):
    """Catalogue 1.1's add table: modifiers summed, then moved along the ladder (F:L254)."""
    ef = add(Fraction(str(row["bef"])), row["modifier"])
    assert Fraction(ef.ease_factor) == Fraction(str(row["ef"]))


def test_the_modifiers_are_summed_before_clamping():
    """F:L254-256: BEF 6 with +10 and -4 is 12, not 11."""
    result = run("ease-factor/add", {"bef": 6, "modifiers": [10, -4]})
    assert (result.ease_factor, result.clamped) == (12, False)
    assert run("ease-factor/add", {"bef": 6, "modifiers": [10]}).clamped


@pytest.mark.parametrize("row", rows("twenty_plus.json"), ids=str)
def test_twenty_plus_reproduces_the_catalogue_table(row):
    scored = twenty_plus(row["score"])
    assert (scored.effective_score, scored.twenty_plus) == (row["effective"], row["n"])


def test_twenty_plus_is_written_as_the_book_writes_it():
    """F:L233: 23-25 is 20+1, 26-28 is 20+2; stamina is used as it is (F:L372)."""
    assert [twenty_plus(s).written for s in (19, 22, 23, 28, 29)] == [
        "19", "20", "20+1", "20+2", "20+3",
    ]  # fmt: skip
    assert twenty_plus(30, is_stamina=True).effective_score == 30


@pytest.mark.parametrize("score", [0, 1, 13, 14, 17, 19, 20, 22, 23, 26, 29, 41, 99])
def test_success_chance_agrees_with_the_oracle(score):
    for bef in (0, 0.25, 0.5, 1, 3, 5, 7, 15):
        for total in range(-9, 10):
            for rounding in ("nearest_half_up", "none"):
                payload = {"score": score, "bef": bef, "modifiers": [total],
                           "options": {"sc_rounding": rounding}}  # fmt: skip
                chance = run("success-chance", payload)
                expected = oracle.success_chance(score, bef, [total], rounding)
                assert Fraction(chance.success_chance) == expected, (bef, total, rounding)


def test_the_book_examples_of_success_chance():
    """F:L245 stun pistol: EF 2, SC 34; F:L268: 13 x 0.25 = 3.25 -> 3; F:L1354: 14 x 0.25 =
    3.5, 4 when rounded (AMB-02)."""
    pistol = run("success-chance", {"score": 17, "bef": 3, "modifiers": [-2, -2, 1, 1, 1]})
    assert (pistol.ease_factor, pistol.success_chance) == (2, 34)
    low = run("success-chance", {"score": 13, "bef": 0.25})
    assert (low.success_chance, low.success_chance_exact) == (3, "13/4")
    navigator = {"score": 14, "bef": 5, "modifiers": [-6]}
    assert run("success-chance", navigator).success_chance == 4
    exact = run("success-chance", {**navigator, "options": {"sc_rounding": "none"}})
    assert exact.success_chance == 3.5
    assert exact.success_probability.exact == "3/100"


# Quality ratings


@pytest.mark.parametrize("thresholds", ["exact", "rounded"])
def test_the_qr_of_every_roll_agrees_with_the_oracle(thresholds):
    mode = QrThresholds(thresholds)
    scs = [Fraction(s) for s in range(301)] + [Fraction(q, 4) for q in range(0, 120)]
    for sc in scs:
        service = [quality_rating(roll, sc, mode).value for roll in range(1, 101)]
        assert service == [oracle.qr(roll, sc, thresholds) for roll in range(1, 101)], sc


@pytest.mark.parametrize("row", rows("qr_by_sc.json"), ids=lambda row: f"sc{row['sc']}")
def test_qr_odds_reproduce_the_catalogue(row):
    """Catalogue 5.1: counts out of 100 rolls, P(success), E[yield] and E[PM] per SC."""
    sc = row["sc"]
    payload = _task_for(sc)
    if payload is None:  # a prime SC above 20 is no score x EF: read the 100 rolls directly
        result = quality_odds(d100(lambda roll: quality_rating(roll, Fraction(sc), EXACT)))
    else:
        result = odds("resolve", payload)
        assert result.chance.success_chance == sc
    expected = {int(qr): Fraction(count, 100) for qr, count in row["counts"].items()}
    assert by_qr(result.qr) == nonzero(expected)
    assert Fraction(result.summary.success.exact) == Fraction(row["p_success_pct"], 100)
    assert Fraction(result.summary.mean_yield_pct.exact) / 100 == Fraction(row["e_yield"])
    assert Fraction(result.summary.mean_performance_modifier.exact) == Fraction(row["e_pm"])


def _task_for(sc: int) -> dict[str, Any] | None:
    """A task with this SC: a score of at most 20 times an integer EF, or SC 0 rolled."""
    if sc == 0:
        return {"score": 0, "bef": 5, "options": {"roll_impossible_tasks": True}}
    for ef in range(1, 16):
        if sc % ef == 0 and sc // ef <= 20:
            return {"score": sc // ef, "bef": ef}
    return None


def test_qr_odds_are_the_oracle_and_icepool_for_every_sc():
    for sc in range(301):
        expected = oracle.icepool_qr_distribution(sc)
        service = d100(lambda roll, sc=sc: quality_rating(roll, Fraction(sc), EXACT))
        assert {qr.value: service.probability(qr) for qr in QR} == expected, sc


def test_rolls_99_and_100():
    """F:L1375-1376: 99 is at best QR4; 100 is QR7 against SC 100+ and QR10 below."""
    read = OPS["quality-rating"]
    cases = [(100, 120, 7), (100, 100, 7), (100, 70, 10), (99, 300, 4), (99, 95, 7)]
    for roll, sc, qr in cases:
        assert run(read.name, {"roll": roll, "success_chance": sc}).qr == qr


def test_rounded_thresholds_change_the_book_example():
    """AMB-03: roll 48 against SC 95 is QR4 (48 > 47.5) exactly, QR3 with rounded thresholds."""
    assert run("quality-rating", {"roll": 48, "success_chance": 95}).qr == 4
    rounded = {"roll": 48, "success_chance": 95, "options": {"qr_thresholds": "rounded"}}
    assert run("quality-rating", rounded).qr == 3


def test_a_failure_not_apparent_looks_like_a_qr4():
    """F:L1400-1402: failures yield and take as long as a QR4 where players cannot tell."""
    hidden = run("yield-time-pm", {"qr": 10, "outcome_apparent": False})
    assert (hidden.yield_pct, hidden.time_pct, hidden.performance_modifier) == (-25, 200, -6)
    assert (hidden.apparent_yield_pct, hidden.apparent_time_pct) == (25, 200)
    best = run("yield-time-pm", {"qr": 1})
    assert (best.yield_pct, best.time_pct, best.performance_modifier) == (100, 25, 3)


def test_random_qr_odds_are_the_d10_table():
    """F:L1472-1477; catalogue 5.7."""
    assert by_qr(odds("random-quality-rating", {}).qr) == nonzero(oracle.random_qr_distribution())


# Impossible tasks and the other resolution options


def test_an_impossible_task_is_reported_without_a_roll():
    """F:L1352 and AMB-07: EF 0 is impossible; by default no die is rolled and the QR is 7."""
    payload = {"score": 14, "bef": 4, "modifiers": [-6], "dice": {"seed": 1}}
    result = run("resolve", payload)
    assert (result.outcome, result.roll, result.qr, result.rolls) == ("impossible", None, 7, [])
    assert by_qr(odds("resolve", payload).qr) == {7: Fraction(1)}
    rolled = {**payload, "options": {"roll_impossible_tasks": True}}
    assert by_qr(odds("resolve", rolled).qr) == {7: Fraction(9, 10), 10: Fraction(1, 10)}


def test_bef_zero_is_an_option():
    """AMB-06: Hand-to-Hand in zero gravity has BEF G = 0; +2 makes it 0.5 unless the option
    keeps a BEF of 0 impossible."""
    hth = {"score": 12, "bef_formula": {"term": "G", "familiarity": 0}, "modifiers": [2]}
    assert run("success-chance", hth).ease_factor == 0.5
    strict = run("success-chance", {**hth, "options": {"bef_zero_is_impossible": True}})
    assert strict.impossible


def test_acrobatics_in_zero_gravity():
    """F:L292: BEF 2+G with G 0 is 2, and -2 makes it 0.5, not 0."""
    acrobatics = {"score": 10, "bef_formula": {"term": "G", "plus": 2, "familiarity": 0},
                  "modifiers": [-2]}  # fmt: skip
    chance = run("success-chance", acrobatics)
    assert (chance.bef, chance.ease_factor) == (2, 0.5)


def test_twenty_plus_after_clamping_is_an_option():
    """AMB-05: score 29 (20+3) at BEF 1 with -5: in the sum the EF is 0.25; applied after the
    clamp to 0 it is 1."""
    task = {"score": 29, "bef": 1, "modifiers": [-5]}
    assert run("success-chance", task).ease_factor == 0.25
    late = run("success-chance", {**task, "options": {"twenty_plus_in_sum": False}})
    assert late.ease_factor == 1
    # At BEF 15 the +3 runs past the top of the ladder and is lost either way: flagged (3.A.3).
    top = {"score": 29, "bef": 15}
    for options in ({}, {"twenty_plus_in_sum": False}):
        found = run("success-chance", {**top, "options": options})
        assert (found.ease_factor, found.clamped) == (15, True)


def test_modifier_sources_are_named_and_summed():
    """Rule of thumb, player input, knowledge, non-familiarity and LTFs all join one sum."""
    payload = {
        "score": 14, "bef": 5, "modifiers": [1], "difficulty": "very_hard",
        "player_input": ["entertaining", "convincing", "in_character"],
        "knowledge": {"knowledge": "adequate", "modifier": -1},
        "non_familiarity": ["just_wrong"], "long_term_familiarities": 2,
    }  # fmt: skip
    chance = run("success-chance", payload)
    assert [t.value for t in chance.modifiers] == [1, -3, 3, -1, -2, 2]
    assert chance.modifier_total == 0
    capped = run("success-chance", {**payload, "options": {"max_ltf_per_task": 1}})
    assert capped.modifier_total == -1


# Opposed, blocked and chained tasks


@pytest.mark.parametrize(
    "row", rows("opposed_round.json")[::7], ids=lambda r: f"{r['a_sc']}v{r['b_sc']}"
)
def test_opposed_round_reproduces_the_catalogue_and_the_oracle(row):
    """Catalogue 5.2: P(A wins) / P(tie) / P(B wins) in one round."""
    result = odds("opposed", {"a": {"task": task(row["a_sc"])}, "b": {"task": task(row["b_sc"])}})
    won, tied, lost = oracle.opposed_round_combined(row["a_sc"], row["b_sc"])
    assert Fraction(result.round.a_wins.exact) == won
    assert Fraction(result.round.tie.exact) == tied
    assert Fraction(result.round.b_wins.exact) == lost
    assert near(row["win"], won)
    assert near(row["tie"], tied)
    assert near(row["loss"], lost)


@pytest.mark.parametrize(
    "row", rows("opposed_eventual.json")[::9], ids=lambda r: f"{r['a_sc']}v{r['b_sc']}"
)
def test_ties_rerolled_reproduce_the_catalogue(row):
    """Catalogue 5.3: with ties rerolled until decided, P(A wins) = W / (W + L)."""
    payload = {"a": {"task": task(row["a_sc"])}, "b": {"task": task(row["b_sc"])},
               "options": {"tie_policy": "reroll"}}  # fmt: skip
    result = odds("opposed", payload)
    assert result.eventual is not None
    eventual = Fraction(result.eventual.a_wins.exact)
    assert eventual == oracle.opposed_eventual(row["a_sc"], row["b_sc"])
    assert near(row["win"], eventual)
    # As the operation runs it, rerolls stop after max_rounds: the rest is still a tie.
    won, tied, _ = oracle.opposed_round_combined(row["a_sc"], row["b_sc"])
    winner = {w.outcome: Fraction(w.exact) for w in result.winner}
    assert winner.get("tie", Fraction(0)) == tied**20
    assert winner["a"] == won * (1 - tied**20) / (1 - tied)


def test_the_margin_distribution_is_the_brute_force_one():
    """The signed notch margin of one round, against the oracle's 100 x 100 enumeration."""
    for a, b in ((70, 50), (10, 300), (100, 100), (25, 75)):
        result = odds("opposed", {"a": {"task": task(a)}, "b": {"task": task(b)}})
        margins = {int(m.outcome): Fraction(m.exact) for m in result.margin_notches}
        assert margins == nonzero(oracle.opposed_margin(a, b)), (a, b)


def test_failures_tie_is_an_option():
    """AMB-08: by default QR7 beats QR10; with 'failures_tie' two failures tie."""
    sides = {"a": {"task": task(30)}, "b": {"task": task(60)}}
    for failures_tie in (False, True):
        result = odds("opposed", {**sides, "options": {"failures_tie": failures_tie}})
        won, tied, lost = oracle.opposed_round(30, 60, failures_tie=failures_tie)
        assert Fraction(result.round.tie.exact) == tied
        assert Fraction(result.round.a_wins.exact) == won
        assert Fraction(result.round.b_wins.exact) == lost


def test_ties_broken_by_score():
    """F:L1493-1495: QR3 against QR3; Junkers' search score is higher, so he wins."""
    payload = {"a": {"qr": 3, "score": 12}, "b": {"qr": 3, "score": 16},
               "options": {"tie_policy": "score"}, "dice": {"seed": 1}}  # fmt: skip
    result = run("opposed", payload)
    assert (result.winner, result.decided_by, result.rolls) == ("b", "score", [])
    tie = run("opposed", {**payload, "options": {}})
    assert (tie.winner, tie.decided_by) == ("tie", "qr")


def test_the_effective_score_of_a_tie_is_at_most_20():
    """AMB-08, F:L233: under tie_score 'effective' a score above 20 counts as 20, so 25 (20+1)
    and 30 (20+3) are equal and the tie is rolled again; the raw scores give it to B."""
    sides = {"a": {"task": {"score": 25, "bef": 2}}, "b": {"task": {"score": 30, "bef": 2}}}
    options = {"tie_policy": "score", "tie_score": "effective"}
    result = odds("opposed", {**sides, "options": options})
    assert result.eventual is not None
    raw = odds("opposed", {**sides, "options": {**options, "tie_score": "raw"}})
    assert raw.eventual is None
    assert {w.outcome for w in raw.winner} == {"a", "b"}


def test_a_tie_is_rerolled_with_table_dice():
    """Both sides fail alike (QR7), then A's QR1 beats B's QR4 by three notches."""
    payload = {
        "a": {"task": task(50)},
        "b": {"task": task(50)},
        "max_rounds": 5,
        "options": {"tie_policy": "reroll"},
        "dice": {"values": [61, 71, 5, 40]},
    }
    result = run("opposed", payload)
    assert [(r.a_qr, r.b_qr) for r in result.rounds] == [(7, 7), (1, 4)]
    assert (result.winner, result.decided_by, result.margin_notches) == ("a", "qr", 3)
    # 61 is QR7 and 70 QR10: by default QR7 wins at once.
    once = run("opposed", {**payload, "dice": {"values": [61, 70]}})
    assert (once.winner, once.margin_notches) == ("a", 1)


@pytest.mark.parametrize(
    "row", rows("blocking.json"), ids=lambda r: f"{r['attack_sc']}v{r['defense_sc']}"
)
def test_blocking_reproduces_the_catalogue_and_the_oracle(row):
    """Catalogue 5.4: the effective attack QR under the book's table (F:L1511-1519)."""
    options = {"roll_impossible_tasks": True}
    payload = {"attack": {"task": task(row["attack_sc"])},
               "defense": {"task": task(row["defense_sc"])}, "options": options}  # fmt: skip
    result = odds("blocking-qr", payload)
    effective = by_qr(result.effective.qr)
    assert effective == nonzero(
        oracle.blocked_distribution_combined(row["attack_sc"], row["defense_sc"])
    )
    for qr, printed in row["qr"].items():
        assert near(printed, effective.get(int(qr), Fraction(0)))
    assert near(row["through"], Fraction(result.effective.summary.success.exact))


def test_the_blocking_table_is_the_book_and_the_text_is_an_option():
    """AMB-04: the table literally; the text formula differs for failed defenses and botches."""
    for attack, row in oracle.BLOCK.items():
        for defense, effective in row.items():
            assert block(QR(attack), QR(defense), BlockingMode.TABLE) == effective
    text = BlockingMode.TEXT_FORMULA
    assert block(QR.QR3, QR.QR4, text) == QR.QR4  # F:L1838, as the table
    assert block(QR.QR3, QR.QR7, text) == QR.QR1  # drops 5 - 7 = -2 notches
    assert block(QR.QR7, QR.QR10, text) == QR.QR1
    assert block(QR.QR10, QR.QR1, text) == QR.QR7  # an equal or better defense negates


def test_cooperative_odds_mix_the_follow_up_over_the_first_qr():
    """F:L1523-1525: the follow-up carries 4 - QR (cooperating) or QR - 4 (opposing)."""
    for relation, sign in (("cooperating", 1), ("opposing", -1)):
        payload = {"first": {"task": task(50)}, "follow_up": {"score": 10, "bef": 5},
                   "relation": relation}  # fmt: skip
        result = odds("cooperative", payload)
        expected: dict[int, Fraction] = {}
        for first, p in oracle.qr_distribution(50).items():
            sc = oracle.success_chance(10, 5, [sign * (4 - first)])
            for qr, q in oracle.qr_distribution(sc).items():
                expected[qr] = expected.get(qr, Fraction(0)) + p * q
        assert by_qr(result.follow_up.qr) == nonzero(expected)


def test_the_hackers_carry_their_qrs():
    """F:L1545-1551: Smith's QR7 gives the hackers +3; Anderson's QR2 gives Smith -2 and the
    next hacker +2."""
    modifier = OPS["qr-as-modifier"]
    assert run(modifier.name, {"qr": 7, "relation": "opposing"}).modifier == 3
    assert run(modifier.name, {"qr": 2, "relation": "opposing"}).modifier == -2
    assert run(modifier.name, {"qr": 2, "relation": "cooperating"}).modifier == 2
    chained = run("cooperative", {"first": {"qr": 7}, "follow_up": {"score": 10, "bef": 5},
                                  "relation": "opposing", "dice": {"values": [30]}})  # fmt: skip
    assert (chained.carried_modifier, chained.follow_up.ease_factor) == (3, 8)


# Abilities the character does not have as skills, and retries


def test_unskilled_uses_the_formula_and_takes_minus_one():
    """F:L1637-1639 and F:L266: (DX 11 + PC 10) / 2 = 10.5 rounds to 11, at -1; QR3 or better
    may buy the skill at once (F:L1089)."""
    formula = {"attributes": [{"attribute": "DX", "value": 11}, {"attribute": "PC", "value": 10}],
               "divisor": 2}  # fmt: skip
    payload = {"formula": formula, "bef_formula": {"term": "G", "plus": 2, "familiarity": 3}}
    landed = run("unskilled", {**payload, "dice": {"values": [20]}})
    assert (landed.score, landed.formula_value, landed.ease_factor) == (11, "21/2", 4)
    assert (landed.success_chance, landed.qr, landed.may_buy_skill) == (44, 3, True)
    bare = run("unskilled", {**payload, "dice": {"values": [40]}})
    assert (bare.qr, bare.may_buy_skill) == (4, False)


def test_attributes_roll_at_bef_7():
    """AMB-01, confirmed by F:L3304 (SC = 7 x PC 12 = 84, roll 63, QR4) and F:L3314 (SC = 7 x
    DX 9 = 63, roll 62, QR4)."""
    sniper = run("attribute-as-skill", {"attribute": "PC", "value": 12, "dice": {"values": [63]}})
    assert (sniper.success_chance, sniper.qr) == (84, 4)
    gunman = run("attribute-as-skill", {"attribute": "DX", "value": 9, "dice": {"values": [62]}})
    assert (gunman.success_chance, gunman.qr) == (63, 4)
    other = {"attribute": "DX", "value": 9, "options": {"attribute_bef": 5}}
    assert odds("attribute-as-skill", other).chance.success_chance == 45


def test_a_retry_runs_out_of_ideas():
    """F:L1611, F:L1615, F:L1661: -1 per failure unless a WP roll gave a fresh approach; the
    GM's private roll decides whether the task was possible at all."""
    payload = {"score": 14, "bef": 5, "prior_failures": 3, "possible_chance": 40,
               "dice": {"values": [41, 2]}}  # fmt: skip
    result = run("retry", payload)
    assert (result.retry_modifier, result.attempt.ease_factor) == (-3, 2)
    assert (result.task_possible, result.attempt.qr) == (False, 1)
    fresh = run("retry", {**payload, "fresh_approach": True})
    assert (fresh.retry_modifier, fresh.attempt.ease_factor) == (0, 5)
    chance = odds("retry", payload)
    assert chance.possible.exact == "2/5"
    assert chance.chance.success_chance == 28
