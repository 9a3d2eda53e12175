"""A roll that knows its odds (`outcome_odds`): the probability of the outcome rolled and of
doing at least that well, over REST and GraphQL, checked against brute force over every face
the dice can show (each face fed back as table dice)."""

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from starlette.testclient import TestClient

from service.rules.registry import Operation, load
from tests.contract.asgi import post_all

REGISTRY = load()
KNOWING = [
    pytest.param(op, id=f"{system.slug}/{op.name}")
    for system in REGISTRY.systems
    for op in system.operations
    if op.knows_odds
]
#: Rolls whose result holds no single outcome of their odds: the odds are of one of several
#: things the result lists (two traits, each character of a horde), or have no distribution.
READS_NONE = {
    "four-c/traits/roll",
    "four-sight/mook-horde",
    "future-imperfect/combat/unintended-targets",
    "future-imperfect/combat/automatic",
}


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def entry(result: dict[str, Any], pointer: str) -> dict[str, Any]:
    return next(e for e in result["outcome_odds"] if e["distribution"] == pointer)


@pytest.mark.parametrize("op", KNOWING)
def test_every_roll_with_odds_reads_its_outcome(client: TestClient, op: Operation) -> None:
    """Each rolling operation's example says how likely what it rolled was, every figure one
    of its odds tables' own (the same table an odds request gets)."""
    path = f"/v1/{op.system}/{op.name}"
    result = post(client, path, {**op.example, "outcome_odds": True})
    odds = post(client, f"{path}/odds", {k: v for k, v in op.example.items() if k != "dice"})
    if f"{op.system}/{op.name}" in READS_NONE:
        assert result["outcome_odds"] == []
        return
    assert result["outcome_odds"]
    for found in result["outcome_odds"]:
        table: Any = odds
        for key in found["distribution"].strip("/").split("/"):
            table = table[key]
        if isinstance(table, dict):
            assert found["outcome"] in ("true", "false")
            p = Fraction(table["exact"])
            assert Fraction(found["probability"]["exact"]) == (
                p if found["outcome"] == "true" else 1 - p
            )
        else:
            row = next(r for r in table if r["outcome"] == found["outcome"])
            assert found["probability"] == {"exact": row["exact"], "float": row["float"]}


#: Seeded rolls of each example read against their odds.
ROLLS = 150


@pytest.mark.parametrize("op", KNOWING)
def test_each_outcome_read_is_rolled_as_often_as_its_odds_say(
    client: TestClient, op: Operation
) -> None:
    """Over seeded rolls, each outcome a result is read as comes up about as often as the
    probability reported for it, never far more: a field read from the wrong place (the
    attack's success for the final QR's, a failure's 0 bumps for a success's) shows up as
    an outcome rolled far more often than its odds allow. Seeded, so it cannot flicker."""
    path = f"/v1/{op.system}/{op.name}"
    example = {k: v for k, v in op.example.items() if k != "dice"}
    bodies = [{**example, "dice": {"seed": seed}, "outcome_odds": True} for seed in range(ROLLS)]
    seen: Counter[tuple[str, str]] = Counter()
    chance: dict[tuple[str, str], Fraction] = {}
    for status, result in post_all(client.app, path, bodies):
        assert status == 200, result
        for found in result["outcome_odds"]:
            key = (found["distribution"], found["outcome"])
            seen[key] += 1
            chance[key] = Fraction(found["probability"]["exact"])
    for key, count in seen.items():
        p = float(chance[key])
        allowed = p + 6 * math.sqrt(max(p * (1 - p), 1e-4) / ROLLS) + 0.03
        assert p > 0, key
        assert count / ROLLS <= allowed, (key, f"P {p:.4f}", f"seen {count / ROLLS}")


def test_a_sheet_reads_no_field_a_creation_time_effect_changed(client: TestClient) -> None:
    """The sheet odds leave out the advanced table's creation-time effects (their note says
    so): Astoundingly Wealthy adds 50 to Lifestyle and 20 to Repute (C:L502), Improved
    Skills two skills (C:L718), so those fields are no outcomes of their tables and
    outcome_odds leaves them out (a Repute of 32 is not the rolled 32's chance), while
    reading the fields no power of the sheet changed."""
    body = {"power_table": "advanced", "dice": {"seed": 18}, "outcome_odds": True}
    sheet = post(client, "/v1/four-c/character/generate", body)
    assert {"improved_skills", "astoundingly_wealthy"} == {p["power"] for p in sheet["powers"]}
    read = {e["distribution"] for e in sheet["outcome_odds"]}
    assert not read & {"/lifestyle", "/repute", "/skills"}
    assert {"/origin", "/damage", "/fortune"} <= read


def test_not_asked_is_null(client: TestClient) -> None:
    result = post(client, "/v1/four-d8/check", {"ease": 20, "dice": {"seed": 3}})
    assert result["outcome_odds"] is None


def test_four_d8_check_against_every_face(client: TestClient) -> None:
    """4D8 at ease 20 rolled 5 5 5 3 (D:L129, a triplet): degree 13. Brute force: all 4,096
    ordered faces as table dice, counting degree 13 and degree 13 or more (a failure counts
    below every degree)."""
    op = next(o for o in REGISTRY.system("four-d8").operations if o.name == "check")
    degrees: Counter[int] = Counter()
    for faces in itertools.product(range(1, 9), repeat=4):
        request = op.request_model.model_validate_json(
            json.dumps({"ease": 20, "dice": {"values": list(faces)}})
        )
        found = op.run(request)
        degrees[found.degree if found.success else -1] += 1
    result = post(client, "/v1/four-d8/check",
                  {"ease": 20, "dice": {"values": [5, 5, 5, 3]}, "outcome_odds": True})  # fmt: skip
    degree = entry(result, "/distributions/degree")
    assert degree["outcome"] == "13"
    assert Fraction(degree["probability"]["exact"]) == Fraction(degrees[13], 4096)
    at_least = sum(n for d, n in degrees.items() if d >= 13)
    assert Fraction(degree["at_least"]["exact"]) == Fraction(at_least, 4096)
    success = entry(result, "/summary/success")
    assert success["outcome"] == "true"
    assert Fraction(success["probability"]["exact"]) == Fraction(4096 - degrees[-1], 4096)
    assert success["at_least"] is None


def test_foresight_qr_counts_from_the_best(client: TestClient) -> None:
    """FORESIGHT lists QR1 first: SC 70 rolled 32 is QR3 (F:L1373 table), and doing at least as
    well is QR1-QR3. Brute force over the D100's 100 faces."""
    op = next(o for o in REGISTRY.system("foresight").operations if o.name == "resolve")
    qrs = Counter(
        op.run(op.request_model.model_validate_json(
            json.dumps({"score": 14, "bef": 5, "dice": {"values": [roll]}})
        )).quality.qr
        for roll in range(1, 101)
    )  # fmt: skip
    body = {"score": 14, "bef": 5, "dice": {"values": [32]}, "outcome_odds": True}
    result = post(client, "/v1/foresight/resolve", body)
    qr = entry(result, "/qr")
    assert qr["outcome"] == "QR3"
    assert Fraction(qr["probability"]["exact"]) == Fraction(qrs[3], 100)
    assert Fraction(qr["at_least"]["exact"]) == Fraction(sum(qrs[q] for q in (1, 2, 3)), 100)


def test_graphql_asks_the_same(client: TestClient) -> None:
    query = """{ fourSight { combatAttack(input: {
        attacker: {traits: [{trait: DEXTERITY, score: 3}]},
        defender: {traits: [{trait: DEXTERITY, score: 2}]},
        dice: {seed: 11}, outcomeOdds: true}) {
      injury outcomeOdds { distribution outcome probability { exact } atLeast { exact } } } } }"""
    answer = client.post("/graphql", json={"query": query}).json()
    assert "errors" not in answer, answer
    rest = post(client, "/v1/four-sight/combat-attack",
                {"attacker": {"traits": [{"trait": "dexterity", "score": 3}]},
                 "defender": {"traits": [{"trait": "dexterity", "score": 2}]},
                 "dice": {"seed": 11}, "outcome_odds": True})  # fmt: skip
    found = answer["data"]["fourSight"]["combatAttack"]["outcomeOdds"]
    assert [(e["distribution"], e["outcome"], e["probability"]["exact"]) for e in found] == [
        (e["distribution"], e["outcome"], e["probability"]["exact"]) for e in rest["outcome_odds"]
    ]
    assert ("/injury", "moderate") in [(e["distribution"], e["outcome"]) for e in found]
