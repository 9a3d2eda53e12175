"""Impossible tasks under the options that make them (AMB-06) and roll them (AMB-07).

`F:L<n>` is line n of shared/seeds/004_0f2ce8cae6aa3515.txt; the register is section 6 of
shared/rules/foresight-1.md. With `bef_zero_is_impossible` a BEF of 0 stays at EF 0 whatever
the modifiers, so its SC is 0; with `roll_impossible_tasks` such a task is rolled anyway, which
against SC 0 is 90% QR7 and 10% QR10 (catalogue 1.6, AMB-07). The chance the response reports,
the roll and the odds must all say the same, and the odds are the oracle's for that SC.
"""

import itertools
from fractions import Fraction
from typing import Any

import pytest

from tests.rules.foresight import oracle
from tests.rules.foresight.calls import by_qr, nonzero, odds, run

#: Score 47 (20+9) at BEF 0 with +18: the sum +27 would take the EF to 15 and the SC to 300.
HTH = {"score": 47, "bef": 0, "modifiers": [18]}
BOTH = {"bef_zero_is_impossible": True, "roll_impossible_tasks": True}


def test_a_bef_zero_task_rolled_anyway_is_90_in_100_qr7_and_10_qr10():
    """AMB-06 (b) with AMB-07 (b): the options' own text, 90% QR7 and 10% QR10."""
    found = odds("resolve", {**HTH, "options": BOTH})
    assert by_qr(found.qr) == {7: Fraction(9, 10), 10: Fraction(1, 10)}
    assert by_qr(found.qr) == nonzero(oracle.qr_distribution(0))
    assert Fraction(found.summary.success.exact) == 0
    assert found.rolled


@pytest.mark.parametrize(("face", "qr"), [(5, 7), (30, 10), (99, 7), (100, 10)])
def test_a_bef_zero_task_rolled_anyway_reads_the_roll_against_sc_0(face, qr):
    """Rolled against SC 300, a 5 would be QR1; against SC 0 every roll fails."""
    result = run("resolve", {**HTH, "options": BOTH, "dice": {"values": [face]}})
    assert (result.outcome, result.roll, result.qr, result.success) == ("rolled", face, qr, False)
    assert result.qr == oracle.qr(face, 0)
    assert (result.success_chance, result.impossible) == (0, True)


@pytest.mark.parametrize("options", [{"bef_zero_is_impossible": True}, BOTH], ids=str)
def test_the_chance_of_a_bef_zero_task_says_ef_0_and_sc_0(options):
    """The chance block agrees with 'impossible': not EF 15 and SC 300 (F:L1352)."""
    chance = run("success-chance", {**HTH, "options": options})
    assert (chance.ease_factor, chance.ease_factor_index, chance.success_chance) == (0, 0, 0)
    assert chance.success_chance_exact == "0/1"
    assert Fraction(chance.success_probability.exact) == 0
    assert (chance.thresholds.qr1, chance.thresholds.qr4) == (0, 0)
    assert chance.impossible
    assert chance.clamped  # the whole +27 is lost
    assert (chance.bef, chance.modifier_total) == (0, 27)


def test_a_bef_zero_task_not_rolled_is_reported_impossible():
    result = run("resolve", {**HTH, "options": {"bef_zero_is_impossible": True}})
    assert (result.outcome, result.roll, result.qr, result.success_chance) == (
        "impossible",
        None,
        7,
        0,
    )


def test_by_default_the_ladder_moves_a_bef_of_zero():
    """AMB-06 (a), the default: +27 from 0 is EF 15, SC 20 x 15 = 300, P(success) 99%."""
    chance = run("success-chance", HTH)
    assert (chance.ease_factor, chance.success_chance, chance.impossible) == (15, 300, False)
    assert Fraction(chance.success_probability.exact) == Fraction(99, 100)


TASKS = [
    {"score": score, "bef": bef, "modifiers": modifiers}
    for score, bef, modifiers in itertools.product(
        (0, 3, 14, 26, 47), (0, 0.25, 2, 5), ([], [1], [-2], [4, 5], [18])
    )
]
OPTIONS = [
    {"bef_zero_is_impossible": zero, "roll_impossible_tasks": roll, "sc_rounding": rounding}
    for zero, roll, rounding in itertools.product(
        (False, True), (False, True), ("nearest_half_up", "none")
    )
]


def _expected_sc(task: dict[str, Any], options: dict[str, Any]) -> Fraction:
    if options["bef_zero_is_impossible"] and task["bef"] == 0:
        return Fraction(0)
    return oracle.success_chance(
        task["score"], task["bef"], task["modifiers"], options["sc_rounding"]
    )


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_the_chance_the_roll_and_the_odds_agree_with_the_oracle(options):
    """Under every combination of the two options (and both SC roundings): the SC is the
    oracle's, the odds are its distribution over the 100 rolls (QR7 for certain when an
    impossible task is not rolled), and the reported P(success) is the odds' success."""
    for task in TASKS:
        payload = {**task, "options": options}
        found = odds("resolve", payload)
        sc = _expected_sc(task, options)
        assert Fraction(found.chance.success_chance) == sc, payload
        ef_zero = found.chance.ease_factor_index == 0
        assert found.chance.impossible == ef_zero, payload
        if ef_zero and not options["roll_impossible_tasks"]:
            assert by_qr(found.qr) == {7: Fraction(1)}, payload
        else:
            assert by_qr(found.qr) == nonzero(oracle.qr_distribution(sc)), payload
        success = Fraction(found.summary.success.exact)
        assert Fraction(found.chance.success_probability.exact) == success, payload


@pytest.mark.parametrize(
    "task",
    [{"score": 1, "bef": 0.25}, {"score": 0, "bef": 5}, {"score": 1, "bef": 2, "modifiers": [-3]}],
    ids=str,
)
def test_an_sc_of_0_above_ef_0_is_rolled_by_default(task):
    """AMB-07: the catalogue recommends 'do not roll an EF-0 task' and its resolve skips only
    ef == 0 (catalogue 1.6, 3.A.9); 'an ease factor zero task is impossible' (F:L1352). A
    score of 1 at EF 0.25 is SC 0.25, rounded to 0 (F:L264-268): rolled, it fails, 90% QR7
    and 10% QR10, and a 30 is a botch."""
    chance = run("success-chance", task)
    assert (chance.success_chance, chance.impossible) == (0, False)
    found = odds("resolve", task)
    assert found.rolled
    assert by_qr(found.qr) == {7: Fraction(9, 10), 10: Fraction(1, 10)}
    result = run("resolve", {**task, "dice": {"values": [30]}})
    assert (result.outcome, result.roll, result.qr) == ("rolled", 30, 10)
