"""The roll and its odds refuse the same inputs (DESIGN.md "Quality bar"): an input that
breaks a rule is a 422 naming the field whether the caller rolls or asks the odds, and
whatever the dice show; never a table of odds for a roll the rules do not allow, nor odds
refused for a roll they do. Checked for every operation with odds, from its example changed
one field at a time (tests/contract/mutations.py), with no test code per rule. Refusals of
the dice themselves (too few table dice) are the roll's alone and are left out."""

import json
from typing import Any

import pytest
from pydantic import ValidationError

from service.rules.model import InputError
from service.rules.registry import Operation
from tests.contract.mutations import variants
from tests.test_contract import WITH_ODDS

#: Seeds each variant is rolled with: a refusal must not wait on what a die shows.
SEEDS = (1, 2, 3)


def _refused(call: Any) -> InputError | None:
    """What `call` refuses for a rule's sake, if anything."""
    try:
        call()
    except InputError as error:
        found = getattr(error, "errors", (error,))
        if not all(e.loc[:1] == ("dice",) for e in found):
            return error
    return None


def _disagreement(op: Operation, payload: dict[str, Any]) -> str | None:
    assert op.odds_request_model is not None
    request = op.odds_request_model.model_validate_json(json.dumps(payload))
    odds = _refused(lambda: op.run_odds(request))
    rolls = [
        _refused(lambda seed=seed: op.run(op.request_model.model_validate_json(
            json.dumps({**payload, "dice": {"seed": seed}}))))
        for seed in SEEDS
    ]  # fmt: skip
    refused = [error for error in (odds, *rolls) if error is not None]
    if not refused or len(refused) == 1 + len(SEEDS):
        return None
    said = "; ".join(f"{error.loc}: {error}" for error in refused)
    return (
        f"{json.dumps(payload)}: odds refused {odds is not None}, rolls refused "
        f"{[error is not None for error in rolls]} ({said})"
    )


@pytest.mark.parametrize("op", WITH_ODDS)
def test_the_roll_and_its_odds_refuse_the_same_inputs(op: Operation) -> None:
    assert op.odds_request_model is not None
    example = {k: v for k, v in op.example.items() if k != "dice"}
    schema = op.odds_request_model.model_json_schema()
    tried, apart = 0, []
    for payload in variants(example, schema):
        try:
            op.odds_request_model.model_validate_json(json.dumps(payload))
        except ValidationError:
            continue
        tried += 1
        found = _disagreement(op, payload)
        if found is not None:
            apart.append(found)
    assert tried, "no variant of the example passed the schema"
    assert not apart, "\n".join(apart)
