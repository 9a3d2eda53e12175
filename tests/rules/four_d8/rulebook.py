"""Short helpers to call the registered 4D8 operations the way a client does.

Requests go through JSON, as on the wire: the models are strict, so in Python mode an enum
field would accept only enum members, never their string values.
"""

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from service.rules.registry import Operation, load

DATA = Path(__file__).parent / "data"
ROLLS_OF_4D8 = 8**4


def operation(name: str) -> Operation:
    return next(op for op in load().system("four-d8").operations if op.name == name)  # type: ignore[union-attr]


CHECK = operation("check")
CHANCE = operation("chance-of-success")
DEGREE = operation("degree-of-success")


def catalogue(name: str) -> dict[str, Any]:
    """A table transcribed from the catalogue (tests/rules/four_d8/data)."""
    table: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return table


def chance_of(chance: int) -> dict[str, Any]:
    """Request fields that give exactly `chance`: the ease, topped up above 32 (D:L6)."""
    if chance <= 32:
        return {"ease": chance}
    return {"ease": 32, "other_modifiers": [chance - 32]}


def check(ease: int, dice: list[int] | dict[str, Any] | None = None, **fields: Any) -> Any:
    """Run a check. `dice` is a list of table dice in aspect order (physical, mental, social,
    magical) or a dice spec such as {"seed": 42}."""
    data = {"ease": ease, **fields}
    if dice is not None:
        data["dice"] = {"values": dice} if isinstance(dice, list) else dice
    return CHECK.run(CHECK.request_model.model_validate_json(json.dumps(data)))


def chance(ease: int, **fields: Any) -> Any:
    return CHANCE.run(
        CHANCE.request_model.model_validate_json(json.dumps({"ease": ease, **fields}))
    )


def degree(faces: list[int], **options: Any) -> Any:
    data = {"faces": faces, "options": options}
    return DEGREE.run(DEGREE.request_model.model_validate_json(json.dumps(data)))


def odds(chance: int, mode: str | None = None, **options: Any) -> Any:
    """The service's exact odds of a check at `chance` (no dice in an odds request)."""
    return _odds(chance, mode, json.dumps(options, sort_keys=True))


@cache
def _odds(chance: int, mode: str | None, options: str) -> Any:
    data = {**chance_of(chance), "options": json.loads(options)}
    if mode is not None:
        data["over32_mode"] = mode
    return CHECK.run_odds(CHECK.input.model_validate_json(json.dumps(data)))


def counts(table: list[Any]) -> dict[str, int]:
    """An outcome table as counts of the 4,096 ordered rolls."""
    result = {}
    for row in table:
        count = Fraction(row.exact) * ROLLS_OF_4D8
        assert count.denominator == 1, (row.outcome, row.exact)
        result[row.outcome] = int(count)
    return result


def degree_counts(result: Any) -> dict[int, int]:
    """Successful rolls by degree (failures left out), as counts of 4,096."""
    return {
        int(outcome): n
        for outcome, n in counts(result.distributions.degree).items()
        if outcome != "failure"
    }


def successes(result: Any) -> int:
    count = Fraction(result.summary.success.exact) * ROLLS_OF_4D8
    assert count.denominator == 1
    return int(count)
