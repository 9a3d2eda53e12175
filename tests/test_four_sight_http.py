"""4SIGHT over HTTP and GraphQL as a new user meets it: the issue's acceptance checks."""

from typing import Any

from starlette.testclient import TestClient

BASE = "/v1/four-sight"
CROSSBOW = {
    "traits": [{"trait": "intelligence", "score": 4}],
    "expertise": "specialty",
    "target_number": 7,
}


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> Any:
    response = client.post(BASE + path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_crossbow_over_rest(client):
    """S:L171-173: 9 against TN 7 is Bare; x4 with Accelerated Computation is 56, Perfect,
    and the player narrates."""
    bare = post(client, "/check", {**CROSSBOW, "dice": {"values": [1, 2, 2]}})
    assert (bare["result"], bare["degree"], bare["narrator"]) == (9, "bare", "gm")
    assert [r["purpose"] for r in bare["rolls"]] == ["base", "expertise", "expertise"]
    manifest = {"manifestations": ["accelerated_computation"],
                "use_manifestation": "accelerated_computation"}  # fmt: skip
    perfect = post(client, "/check", {**CROSSBOW, **manifest, "dice": {"values": [4, 3, 3, 4]}})
    assert (perfect["result"], perfect["margin"]) == (56, 49)
    assert (perfect["degree"], perfect["narrator"]) == ("perfect", "player")
    assert perfect["options_applied"]["manifestation_stacking"] == "single"


def test_crossbow_odds_over_rest(client):
    odds = post(client, "/check/odds", CROSSBOW)
    assert [(d["outcome"], d["exact"]) for d in odds["degree"]] == [
        ("bare", "5/54"), ("moderate", "161/216"), ("good", "35/216"),
    ]  # fmt: skip
    assert odds["success"]["exact"] == "1/1"
    assert odds["truncation"] is None


def test_two_dex_1_fighters_over_rest(client):
    dex1 = {"traits": [{"trait": "dexterity", "score": 1}]}
    odds = post(client, "/combat-attack/odds", {"attacker": dex1, "defender": dex1})
    no_hit = next(i for i in odds["injury"] if i["outcome"] == "no_hit")
    assert abs(no_hit["float"] - 3 / 7) < 1e-12
    assert odds["truncation"]["depth"] == 16
    assert odds["truncation"]["mass_cut"]["float"] < 1e-12


def test_invalid_character_names_each_violation(client):
    """Seven trait points, four expertise picks and an unknown manifestation: one 422 that
    points at all three."""
    body = {
        "name": "Nobody",
        "traits": {"strength": 6, "intelligence": 1},
        "expertise": ["combat", "espionage", "stealth", "physics"],
        "manifestation": "telekinesis",
    }
    response = client.post(BASE + "/character/create", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    pointers = {e["pointer"] for e in response.json()["errors"]}
    assert pointers == {"/traits", "/expertise", "/manifestation"}


def test_rule_errors_point_into_the_side(client):
    locked = {"traits": [{"trait": "dexterity", "score": 1}],
              "manifestations": ["sixth_sense"], "use_manifestation": "sixth_sense",
              "locked_out": ["sixth_sense"]}  # fmt: skip
    dex1 = {"traits": [{"trait": "dexterity", "score": 1}]}
    problem = post(client, "/combat-attack", {"attacker": dex1, "defender": locked}, 422)
    assert [e["pointer"] for e in problem["errors"]] == ["/defender/use_manifestation"]


def test_out_of_range_inputs_name_the_limit(client):
    problem = post(client, "/check", {**CROSSBOW, "target_number": 5000}, 422)
    assert problem["errors"][0]["pointer"] == "/target_number"
    assert problem["errors"][0]["limit"] == 1000


def test_crossbow_over_graphql(client):
    query = """query ($input: FourSightCheckInput!) {
      fourSight { check(input: $input) { result degree narrator rolls { value purpose } } } }"""
    variables = {"input": {"traits": [{"trait": "INTELLIGENCE", "score": 4}],
                           "expertise": "SPECIALTY", "targetNumber": 7,
                           "dice": {"values": [1, 2, 2]}}}  # fmt: skip
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200
    body = response.json()
    assert "errors" not in body, body
    assert body["data"]["fourSight"]["check"]["result"] == 9
    assert body["data"]["fourSight"]["check"]["degree"] == "BARE"
