"""Every result replays from the dice it reports (DESIGN.md "Dice"), whatever the input: each
rolling operation's example changed one field at a time (tests/contract/mutations.py), rolled
from a seed, then rolled again with the reported faces as table dice, must give the same
result. A roll log that leaves out a die, a die table dice cannot express (a draw from 3,000
chips), or a result that rolled nothing ([]) would each break the replay."""

from typing import Any

import pytest
from starlette.testclient import TestClient

from service.rules.registry import Operation
from tests.contract.asgi import post_all
from tests.contract.mutations import variants
from tests.test_contract import RANDOM, rest_path, without_seed


@pytest.mark.parametrize("op", RANDOM)
def test_every_variant_replays_from_its_reported_dice(client: TestClient, op: Operation) -> None:
    example = {k: v for k, v in op.example.items() if k != "dice"}
    requests = [example, *variants(example, op.request_model.model_json_schema())]
    bodies = [{**request, "dice": {"seed": 1}} for request in requests]
    answered = post_all(client.app, rest_path(op), bodies)
    rolled: list[tuple[dict[str, Any], Any]] = [
        (body, result) for body, (status, result) in zip(bodies, answered, strict=True)
        if status == 200
    ]  # fmt: skip
    assert rolled, "no variant of the example was answered"
    replays = [{**body, "dice": {"values": [r["value"] for r in result["rolls"]]}}
               for body, result in rolled]  # fmt: skip
    answers = post_all(client.app, rest_path(op), replays)
    for (body, result), replay, (status, again) in zip(rolled, replays, answers, strict=True):
        assert status == 200, (body, again)
        assert without_seed(again) == without_seed(result), body
        assert again["seed"] is None, replay
