"""The exact odds of a check against a mook horde (S:L221-223): each character's degrees and,
defending (S-A24), injuries, and how many succeed, against the independent oracle."""

from fractions import Fraction
from itertools import product

import pytest

from service.rules.four_sight.mooks import mook_horde
from tests.rules.four_sight import oracle
from tests.rules.four_sight.rulebook import odds, roller, table

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
    """S-A24 b: the horde is the aggressor; a tie hits, and its margin over the check is the
    injury (S:L193-197)."""
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
        label = "no_hit" if result > tn else oracle.band(tn - result, oracle.INJURIES)
        expected[label] = expected.get(label, Fraction(0)) + p
    assert row.injury is not None
    found = table(row.injury)
    for label, value in expected.items():
        assert abs(found.get(label, Fraction(0)) - value) < Fraction(1, 10**12), label
