"""Requests for the 4SIGHT operations, built from the plain specs the catalogue's tables use
(trait, number of dice, penalty per die, manifestation mode), and a runner that goes through
JSON as the wire does."""

import json
from fractions import Fraction
from typing import Any

from service.rules.registry import Operation

EXPERTISE = {0: "none", 1: "affinity", 2: "specialty"}
INJURY = {1: "minor", 2: "moderate", 3: "severe", 4: "grievous"}
MANIFESTATION = {
    "none": [],
    "controlled": ["accelerated_computation"],
    "deep_sight": ["deep_sight"],
    "precognitive_flare": ["precognitive_flare"],
}


def roller(
    trait: int,
    expertise_dice: int = 0,
    *,
    penalty: int = 0,
    omega: bool = False,
    manifestation: str = "none",
    trait_name: str = "dexterity",
) -> dict[str, Any]:
    """One side of a check; a penalty per die of 1..4 is the injury that causes it."""
    held = MANIFESTATION[manifestation]
    spec: dict[str, Any] = {
        "traits": [{"trait": trait_name, "score": trait}],
        "expertise": EXPERTISE[expertise_dice],
        "injuries": [INJURY[penalty]] if penalty else [],
        "omega_physical_bonus": omega,
        "manifestations": held,
    }
    if manifestation == "controlled":
        spec["use_manifestation"] = held[0]
    return spec


def run(op: Operation, payload: dict[str, Any]) -> Any:
    return op.run(op.request_model.model_validate_json(json.dumps(payload)))


def odds(op: Operation, payload: dict[str, Any]) -> Any:
    assert op.odds_request_model is not None
    return op.run_odds(op.odds_request_model.model_validate_json(json.dumps(payload)))


def table(rows: Any) -> dict[str, Fraction]:
    """An odds table as {outcome: exact probability}."""
    return {row.outcome: Fraction(row.exact) for row in rows}


def near(printed: str, value: Fraction, slack: float = 1e-12) -> bool:
    """A printed figure matches when `value` rounds to it: within half a unit of its last digit
    (plus `slack` for a truncated exploding process); a bare '0' or '1' must match exactly."""
    if "/" in printed or "." not in printed:
        return abs(Fraction(printed) - value) <= slack
    digits = len(printed.split(".")[1])
    return abs(float(printed) - float(value)) <= 0.5 * 10**-digits + slack
