"""Calling operations as the rules tests do: a request as JSON, validated as the service
validates it, and odds tables as exact fractions."""

import json
from fractions import Fraction
from typing import Any

from service.rules.registry import Operation

__all__ = ["odds", "run", "table"]


def run(op: Operation, payload: dict[str, Any]) -> Any:
    return op.run(op.request_model.model_validate_json(json.dumps(payload)))


def odds(op: Operation, payload: dict[str, Any]) -> Any:
    assert op.odds_request_model is not None
    return op.run_odds(op.odds_request_model.model_validate_json(json.dumps(payload)))


def table(rows: Any) -> dict[str, Fraction]:
    """An odds table as {outcome: exact probability}."""
    return {row.outcome: Fraction(row.exact) for row in rows}
