"""FORESIGHT operations called as the service calls them, from JSON requests, for the tests."""

import json
from fractions import Fraction
from typing import Any

from service.rules.foresight.resolution.tables import QR
from service.rules.registry import load

__all__ = ["OPS", "by_qr", "nonzero", "odds", "run"]

OPS = {op.name: op for op in load().system("foresight").operations}  # type: ignore[union-attr]


def run(name: str, payload: dict[str, Any]) -> Any:
    op = OPS[name]
    return op.run(op.request_model.model_validate_json(json.dumps(payload)))


def odds(name: str, payload: dict[str, Any]) -> Any:
    """The odds of a request (its dice, if any, left out)."""
    op = OPS[name]
    assert op.odds_request_model is not None
    question = {key: value for key, value in payload.items() if key != "dice"}
    return op.run_odds(op.odds_request_model.model_validate_json(json.dumps(question)))


def by_qr(table: Any) -> dict[int, Fraction]:
    """An odds table {'QR1': ...} as {1: exact probability}."""
    return {QR[row.outcome].value: Fraction(row.exact) for row in table}


def nonzero(distribution: dict[int, Fraction]) -> dict[int, Fraction]:
    return {qr: p for qr, p in distribution.items() if p}
