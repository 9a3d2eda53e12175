"""Operations named in the body: `POST /v1/batch` (each call answered on its own, exactly as
its own path answers it) and the Foundry and Discord answers of one roll."""

from typing import Any

from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.calls import MAX_CALLS
from service.rules.registry import load
from service.settings import Settings

ATTACK = {
    "attacker": {"traits": [{"trait": "dexterity", "score": 3}]},
    "defender": {"traits": [{"trait": "dexterity", "score": 2}]},
    "dice": {"seed": 11},
}


def call(system: str, operation: str, input: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"system": system, "operation": operation, "input": input, **extra}


def test_a_round_in_one_request(client: TestClient) -> None:
    """Each call's answer is what its own path answers: the same result for the same seed,
    the same problem for bad input, the odds when asked."""
    calls = [
        call("four-sight", "combat-attack", ATTACK),
        call("four-d8", "check", {"ease": 20, "dice": {"values": [5, 5, 5, 3]}}),
        call("four-d8", "check", {"ease": 18}, odds=True),
        call("four-d8", "check", {"ease": "20"}),
        call("foresight", "resolve", {"score": 14, "bef": 5, "dice": {"values": [32]}}),
    ]
    answer = client.post("/v1/batch", json={"calls": calls})
    assert answer.status_code == 200, answer.text
    answers = answer.json()["answers"]
    assert [a["status"] for a in answers] == [200, 200, 200, 422, 200]
    for one, made in zip(calls, answers, strict=True):
        path = f"/v1/{one['system']}/{one['operation']}" + ("/odds" if one.get("odds") else "")
        alone = client.post(path, json=one["input"])
        if alone.status_code == 200:
            assert made["result"] == alone.json()
            assert made["problem"] is None
        else:
            assert made["problem"] == alone.json()
            assert made["result"] is None
    assert answers[1]["result"]["degree"] == 13
    assert answers[2]["result"]["summary"]["success"]["exact"] == "555/1024"
    assert answers[3]["problem"]["errors"][0]["pointer"] == "/ease"
    assert answers[4]["result"]["quality"]["qr"] == 3


def test_unknown_names_are_the_call_s_own_problem(client: TestClient) -> None:
    calls = [
        call("five-d8", "check", {}),
        call("four-d8", "nope", {}),
        call("four-d8", "degree-of-success", {"faces": [5, 5, 5, 3]}, odds=True),
    ]
    answers = client.post("/v1/batch", json={"calls": calls}).json()["answers"]
    assert [a["status"] for a in answers] == [422, 422, 422]
    pointers = [a["problem"]["errors"][0]["pointer"] for a in answers]
    assert pointers == ["/system", "/operation", "/operation"]


def test_the_batch_is_bounded(client: TestClient) -> None:
    one = call("four-d8", "check", {"ease": 20, "dice": {"seed": 1}})
    too_many = client.post("/v1/batch", json={"calls": [one] * (MAX_CALLS + 1)})
    assert too_many.status_code == 422
    error = too_many.json()["errors"][0]
    assert (error["pointer"], error["limit"]) == ("/calls", MAX_CALLS)
    assert client.post("/v1/batch", json={"calls": []}).status_code == 422
    assert client.post("/v1/batch", json={"calls": [one] * MAX_CALLS}).status_code == 200


def test_the_calls_share_one_odds_allowance() -> None:
    """Odds the budget allows one at a time are refused when one batch asks for more than it:
    the calls spend one request's allowance, as a GraphQL request's fields do."""
    op = next(o for o in load().system("four-d8").operations if o.name == "check")
    assert op.odds_request_model is not None
    states = op.estimate(op.odds_request_model.model_validate_json('{"ease": 18}')).states
    settings = Settings(log_requests=False, max_odds_states=states * 3 // 2,
                        odds_deadline_seconds=30)  # fmt: skip
    with TestClient(build_app(settings, MemoryCache())) as client:
        checks = [call("four-d8", "check", {"ease": ease}, odds=True) for ease in (17, 18)]
        for one in checks:
            alone = client.post("/v1/batch", json={"calls": [one]}).json()["answers"]
            assert alone[0]["status"] == 200
    with TestClient(build_app(settings, MemoryCache())) as client:
        both = client.post("/v1/batch", json={"calls": checks}).json()["answers"]
        assert [a["status"] for a in both] == [200, 422]
        assert both[1]["problem"]["errors"][0]["type"] == "cost"


def test_foundry_and_discord_answer_one_roll(client: TestClient) -> None:
    body = call("four-sight", "combat-attack", ATTACK)
    roll = client.post("/v1/foundry", json=body)
    assert roll.status_code == 200, roll.text
    assert roll.json()["class"] == "Roll"
    message = client.post("/v1/discord", json=body)
    assert message.status_code == 200, message.text
    assert message.json()["embeds"]
    not_a_roll = call("four-d8", "degree-of-success", {"faces": [5, 5, 5, 3]})
    refused = client.post("/v1/foundry", json=not_a_roll)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["pointer"] == "/operation"
    bad = client.post("/v1/discord", json=call("four-d8", "check", {"ease": 99}))
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["pointer"] == "/input/ease"
    unnamed = client.post("/v1/foundry", json=call("Four D8", "check", {}))
    assert unnamed.status_code == 422
    assert unnamed.json()["errors"][0]["pointer"] == "/system"
