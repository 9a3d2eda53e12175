"""The exact odds of a check against a mook horde (S:L221-223): each character's degrees and,
defending (S-A24), injuries, and how many succeed, against the independent oracle."""

from fractions import Fraction
from itertools import product

import pytest

from service.rules.four_sight.mooks import mook_horde
from tests.rules.four_sight import oracle
from tests.rules.four_sight.rulebook import odds, roller, run, table

LABELS = {"failure": "fail"}


def member(name: str, trait: int, dice: int, **spec: object) -> dict[str, object]:
    return {"name": name, **roller(trait, dice - 1, **spec)}


CREW = [("Vera", 3, 2, {}), ("Ash", 1, 1, {"penalty": 1}), ("Kim", 4, 3, {})]


@pytest.mark.parametrize("combat", [True, False])
def test_each_character_and_the_number_who_succeed_match_the_oracle(combat):
    tn = 14
    request = {
        "horde_target_number": tn,
        "combat": combat,
        "characters": [member(n, t, d, **s) for n, t, d, s in CREW],
    }
    found = odds(mook_horde, request)  # tests/test_cost.py holds its cost to the estimate
    chances = []  # (succeeds, fails): in combat a little mass is neither, left out (truncation)
    for row, (name, trait, dice, spec) in zip(found.characters, CREW, strict=True):
        theirs = oracle.check_outcomes(trait, dice, combat=combat, **spec)
        degrees = {LABELS.get(k, k): v for k, v in table(row.degree).items()}
        assert row.name == name
        for label, value in oracle.degrees(theirs, tn).items():
            assert abs(degrees.get(label, Fraction(0)) - value) < Fraction(1, 10**12), label
        chances.append((Fraction(row.success.exact), degrees.get("fail", Fraction(0))))
        assert abs(chances[-1][0] - oracle.p_at_least(theirs, tn)) < Fraction(1, 10**12)
        assert row.injury is None
    # How many succeed: every way the three checks can go.
    expected_count: dict[str, Fraction] = {}
    for succeeded in product((False, True), repeat=len(chances)):
        p = Fraction(1)
        for ok, (succeeds, fails) in zip(succeeded, chances, strict=True):
            p *= succeeds if ok else fails
        expected_count[str(sum(succeeded))] = expected_count.get(str(sum(succeeded)), 0) + p
    assert table(found.successes) == {k: v for k, v in expected_count.items() if v}


def test_defending_gives_the_injury_the_horde_inflicts():
    """S-A24 b: a check that fails the horde's target number takes the injury of its failure
    margin (S:L152, S:L193-197); one that equals it succeeds (S:L36)."""
    tn = 12
    request = {
        "horde_target_number": tn,
        "defending": True,
        "characters": [member("Vera", 3, 2)],
        "options": {"horde_attack_mode": "defence_vs_tn"},
    }
    [row] = odds(mook_horde, request).characters
    theirs = oracle.results(oracle.check_outcomes(3, 2, combat=True))
    expected: dict[str, Fraction] = {}
    for result, p in theirs.items():
        label = "no_hit" if result >= tn else oracle.band(tn - result, oracle.INJURIES)
        expected[label] = expected.get(label, Fraction(0)) + p
    assert row.injury is not None
    found = table(row.injury)
    for label, value in expected.items():
        assert abs(found.get(label, Fraction(0)) - value) < Fraction(1, 10**12), label


DEFENCE = {"horde_attack_mode": "defence_vs_tn"}


def defend(tn: int, options: dict[str, object], **extra: object) -> dict[str, object]:
    return {"horde_target_number": tn, "defending": True, "options": {**DEFENCE, **options},
            "characters": [member("Vera", 3, 1)], **extra}  # fmt: skip


@pytest.mark.parametrize("ties", ["aggressor", "pc"])
def test_a_defence_that_equals_the_hordes_number_is_not_hit(ties):
    """A check that equals the target number succeeds (S:L36), so a defence against the
    horde's number is not hit (S-A24 b, S:L223), whoever opposed ties go to (S-A13): the
    horde makes no check to tie with. Dex 3 + die 4 = TN 7. Before, it was a Minor injury
    while the same check was graded a Bare success."""
    tie = {"opposed_tie_winner": ties}
    [made] = run(mook_horde, defend(7, tie, dice={"values": [4]})).checks
    assert (made.check.result, made.graded.degree, made.injury) == (7, "bare", None)
    [row] = odds(mook_horde, defend(7, tie, combat=False)).characters
    # Dex 3 + d6 is 4..9: only 4..6 fail, by 1..3: a Minor injury.
    assert table(row.injury or []) == {"no_hit": Fraction(3, 6), "minor": Fraction(3, 6)}


def test_an_adverse_episode_that_forces_failure_is_hit():
    """With adverse_forces_failure (S-A08) an adverse episode fails the defence, so the horde
    hits, as an attack's defender with an episode is hit (margin at least 0, a Minor injury).
    Dex 40, die 5, manifestation 1: 45 - 20 = 25 over TN 7, yet a failure. Before, the failed
    defence was not hit."""
    spec = {**member("Vera", 40, 1, manifestation="controlled")}
    request = {**defend(7, {"adverse_forces_failure": True}), "characters": [spec]}
    [made] = run(mook_horde, {**request, "dice": {"values": [5, 1]}}).checks
    assert (made.check.result, made.graded.success, made.injury) == (25, False, "minor")
    [row] = odds(mook_horde, {**request, "combat": False}).characters
    # Every episode (1/6) is hit, Minor; no other result reaches down to TN 7.
    assert table(row.injury or []) == {"no_hit": Fraction(5, 6), "minor": Fraction(1, 6)}
