"""Explosions enumerated shallower when the full depth would not fit the budget
(`odds.deepest`): the answer states the depth and the mass it leaves out, is exact at that
depth against the oracle, and is the deepest that fits.

An attack with three stacked manifestations a side, each multiplier die exploding, made 8
million states at depth 16 (9 s); it is answered at depth 4, leaving out 1.1e-3.
"""

import json
from fractions import Fraction
from typing import Any

import pytest

from service.rules.cost import BUDGET, metered
from service.rules.four_sight import combat
from service.rules.four_sight.checks import check
from service.rules.four_sight.combat import attack
from service.rules.four_sight.contest import contest_distribution, contest_sides, contest_states
from service.rules.four_sight.mooks import mook_horde
from service.rules.four_sight.odds import DEPTH, truncation
from service.rules.registry import Operation
from tests.rules.four_sight import oracle
from tests.rules.four_sight.rulebook import roller, table

STACKED = {
    "traits": [{"trait": "dexterity", "score": 6}],
    "expertise": "specialty",
    "manifestations": ["deep_sight", "precognitive_flare", "anticipatory_deadeye"],
    "use_manifestation": "anticipatory_deadeye",
}
EXPLODING = {
    "manifestation_die_explodes": "into_multiplier",
    "manifestation_stacking": "controlled_then_deep",
}


def odds_request(op: Operation, payload: dict[str, Any]) -> Any:
    assert op.odds_request_model is not None
    return op.odds_request_model.model_validate_json(json.dumps(payload))


def answered(op: Operation, request: Any) -> Any:
    """The odds, estimated within the budget and enumerated within the estimate, and cut."""
    estimate = op.estimate(request).states
    assert estimate <= BUDGET
    with metered() as meter:
        answer = op.run_odds(request)
    assert meter.states <= estimate
    assert answer.truncation is not None
    return answer


def test_a_heavy_attack_is_answered_at_the_deepest_depth_that_fits():
    payload = {"attacker": STACKED, "defender": STACKED, "options": EXPLODING}
    request = odds_request(attack, payload)
    answer = answered(attack, request)
    depth = answer.truncation.depth
    assert 1 <= depth < DEPTH
    sides, options = combat._sides(request), request.options
    grades = combat._GRADE_COUNT
    assert contest_states(sides, options, True, grades, depth) <= BUDGET
    assert contest_states(sides, options, True, grades, depth + 1) > BUDGET
    # Every probability and the mass left out add up to one.
    total = sum(table(answer.injury).values()) + Fraction(answer.truncation.mass_cut.exact)
    assert total == 1


def test_a_light_attack_keeps_the_full_depth():
    light = {"attacker": roller(3, 1), "defender": roller(2, 1)}
    answer = attack.run_odds(odds_request(attack, light))
    assert answer.truncation is not None
    assert answer.truncation.depth == DEPTH


def test_an_attack_at_a_shallow_depth_is_exact_against_the_oracle():
    """At depth 3 the contest's probabilities and mass left out are the oracle's at depth 3,
    exactly: the depth reaches every chain, multiplier dice included."""
    a = roller(3, 1, manifestation="controlled")
    d = roller(2, 1)
    request = odds_request(
        attack,
        {
            "attacker": a,
            "defender": d,
            "options": {"manifestation_die_explodes": "into_multiplier"},
        },
    )
    sides = contest_sides(combat._sides(request), request.options, True, depth=3)
    found = contest_distribution(*sides, combat._INJURY_GRADES, combat.Side.AGGRESSOR,
                                 request.options)  # fmt: skip
    explodes = "into_multiplier"
    theirs_a = oracle.check_outcomes(3, 2, manifestation="controlled", combat=True, depth=3,
                                     manifestation_die_explodes=explodes)  # fmt: skip
    theirs_d = oracle.check_outcomes(2, 2, combat=True, depth=3)
    expected = oracle.combat(theirs_a, theirs_d)
    for label, value in expected.items():
        assert found.probability(label) == value, label
    cut = truncation(*sides, depth=3)
    assert cut is not None
    assert cut.depth == 3
    kept = (1 - oracle.mass_cut(theirs_a)) * (1 - oracle.mass_cut(theirs_d))
    assert Fraction(cut.mass_cut.exact) == 1 - kept


PENALISED = {  # the manifestation die penalised too: multipliers below 0, nothing merges
    **STACKED,
    "injuries": ["grievous"] * 8,
}
PENALISING = {
    **EXPLODING,
    "penalty_applies_to": ["base", "expertise", "omega", "explosion", "manifestation"],
    "injury_stacking": "sum",
}
HEAVY = [
    (check, {**PENALISED, "target_number": 30, "combat": True, "options": PENALISING}, "degree"),
    (
        mook_horde,
        {
            "horde_target_number": 30,
            "characters": [{**PENALISED, "name": f"mook {i}"} for i in range(16)],
            "options": PENALISING,
        },
        None,
    ),
]


@pytest.mark.parametrize(("op", "payload", "table_field"), HEAVY, ids=["check", "mook-horde"])
def test_heavy_checks_are_answered_shallower_within_their_estimate(op, payload, table_field):
    answer = answered(op, odds_request(op, payload))
    assert answer.truncation.depth < DEPTH
    if table_field is not None:
        total = sum(table(getattr(answer, table_field)).values())
        assert total + Fraction(answer.truncation.mass_cut.exact) == 1
