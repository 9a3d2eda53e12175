"""Inputs the per-operation GraphQL fuzzer (tools/fuzz_graphql.py) found mishandled by the
grievous Constitution check (S:L199, catalogue A3.20)."""

import json
from typing import Any

from service.rules.four_sight.combat import grievous_check


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
