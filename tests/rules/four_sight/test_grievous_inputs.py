"""Inputs the grievous Constitution check (S:L199, catalogue A3.20) mishandled: found by the
per-operation GraphQL fuzzer (tools/fuzz_graphql.py), and by the audit of 4SIGHT's options."""

import json
from fractions import Fraction
from typing import Any

import pytest

from service.rules.four_sight.combat import attack, grievous_check
from service.rules.model import InputError
from tests.rules.four_sight.rulebook import odds


def run(payload: dict[str, Any]) -> Any:
    return grievous_check.run(grievous_check.request_model.model_validate_json(json.dumps(payload)))


def test_the_check_is_made_with_constitution_alone():
    """A higher Intelligence listed beside Constitution was used: it is a Constitution check."""
    traits = [{"trait": "intelligence", "score": 6}, {"trait": "constitution", "score": 1}]
    result = run({"traits": traits, "dice": {"values": [3]}})
    assert (result.trait.trait.value, result.trait.score) == ("constitution", 1)
    assert result.result == 1 + 3


def test_sixteen_injuries_and_the_new_one_are_a_check_not_a_fault():
    """S-A20 adds the new Grievous injury to the sixteen a request may list: the seventeenth
    made an invalid roller and a 500."""
    sixteen = ["minor"] * 16
    result = run(
        {
            "traits": [{"trait": "constitution", "score": 2}],
            "injuries": sixteen,
            "dice": {"values": [6]},
            "options": {"injury_stacking": "sum", "grievous_check_includes_new_penalty": True},
        }
    )
    minor, grievous = 1, 4  # per die (S:L193-197)
    assert result.penalty_per_die == 16 * minor + grievous


BOTH = {
    "traits": [{"trait": "dexterity", "score": 0}],
    "manifestations": ["deep_sight", "precognitive_flare"],
    "use_manifestation": "deep_sight",
}
ATTACKER = {"traits": [{"trait": "dexterity", "score": 3}]}


def test_an_attack_grieving_a_defender_with_both_automatic_manifestations():
    """A defender with Deep Sight and Precognitive Flare names the one that acts (S-A10 single);
    the Constitution check a Grievous injury calls for (S:L199) is a check like any other,
    so the same one acts on it. Attack 3 + 6 + 6 + 5 = 20 against 0 + 1 (Deep Sight die 1):
    Grievous; then Con 2 + 3, doubled by a Deep Sight 5 (S:L144-146): 10, the defender
    functions. Before, both the roll and the odds were refused for want of use_manifestation,
    which the request had given."""
    request = {"attacker": ATTACKER, "defender": BOTH, "defender_constitution": 2}
    result = attack.run(attack.request_model.model_validate_json(
        json.dumps({**request, "dice": {"values": [6, 6, 5, 1, 1, 3, 5]}})))  # fmt: skip
    assert (result.attack.result, result.defence.result, result.injury) == (20, 1, "grievous")
    assert result.grievous_check is not None
    assert (result.grievous_check.result, result.grievous_check.fate) == (10, "functions")
    assert [m.manifestation for m in result.grievous_check.manifestations] == ["deep_sight"]
    found = odds(attack, request)
    # Con 2 + d6 at TN 7: 2/3 x P(d6 >= 5) + 1/3 x P(2 x (2 + d6) >= 7) = 2/9 + 5/18.
    assert found.grievous_check_passes is not None
    assert Fraction(found.grievous_check_passes.exact) == Fraction(1, 2)


#: Deep Sight, the Flare and a controlled manifestation, declared for the defence (S:L140).
THREE = {**BOTH, "manifestations": [*BOTH["manifestations"], "sixth_sense"],
         "use_manifestation": "sixth_sense"}  # fmt: skip


def test_a_defender_who_declared_another_names_the_automatic_one_for_the_con_check():
    """S-A10 single: Sixth Sense, declared for the defence (S:L140), acts on it alone; the
    Constitution check a Grievous injury calls for (S:L199) is a check of its own, where the
    declaration does not carry over, and both Deep Sight and the Flare would act. Which does
    is the player's to say: `grievous_use_manifestation`. Attack 6 + 6 + 5 + 3 = 20 against
    0 + 1, x2 by Sixth Sense: 2, margin 18, Grievous; then Con 2 + 3, doubled by a Deep Sight
    5: 10. Before, the attack was refused for want of a name no field could give."""
    request = {"attacker": ATTACKER, "defender": THREE, "defender_constitution": 2}
    with pytest.raises(InputError) as refused:
        odds(attack, request)
    assert refused.value.loc == ("grievous_use_manifestation",)
    named = {**request, "grievous_use_manifestation": "deep_sight"}
    result = attack.run(attack.request_model.model_validate_json(
        json.dumps({**named, "dice": {"values": [6, 6, 5, 1, 2, 3, 5]}})))  # fmt: skip
    assert [m.manifestation for m in result.defence.manifestations] == ["sixth_sense"]
    assert (result.defence.result, result.injury) == (2, "grievous")
    assert result.grievous_check is not None
    assert [m.manifestation for m in result.grievous_check.manifestations] == ["deep_sight"]
    assert (result.grievous_check.result, result.grievous_check.fate) == (10, "functions")
    found = odds(attack, named)
    assert found.grievous_check_passes is not None
    assert Fraction(found.grievous_check_passes.exact) == Fraction(1, 2)  # as with BOTH above


def test_a_manifestation_named_for_the_con_check_must_be_held():
    request = {"attacker": ATTACKER, "defender": BOTH, "defender_constitution": 2,
               "grievous_use_manifestation": "sixth_sense"}  # fmt: skip
    with pytest.raises(InputError) as refused:
        odds(attack, request)
    assert refused.value.loc == ("grievous_use_manifestation",)
