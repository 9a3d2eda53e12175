"""Future Imperfect part 1 over REST and GraphQL as a new user meets it: issue 15's acceptance
checks. Seed lines are cited as FI:L<n>."""

from fractions import Fraction
from typing import Any

from starlette.testclient import TestClient

BASE = "/v1/future-imperfect"


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    response = client.post(BASE + path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def graphql(client: TestClient, query: str) -> Any:
    response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body
    return body["data"]["futureImperfect"]


def test_iv_2_and_2_4_are_one_pool(client):
    """FI:L177, FI:L512."""
    first = post(client, "/core/pool/parse", {"notation": "IV-2"})
    second = post(client, "/core/pool/parse", {"notation": "2(4)"})
    assert (first["column"], first["row"]) == (second["column"], second["row"]) == (4, 2)
    query = '{ futureImperfect { corePoolParse(input: {notation: "2(4)"}) { roman } } }'
    assert graphql(client, query)["corePoolParse"]["roman"] == "IV-2"


def test_kaylas_reflex_succeeds_with_no_bump(client):
    """FI:L177: 3d10 showing 3, 4 and 4 against TN 3."""
    found = post(client, "/core/check", {"pool": "3d10", "tn": 3, "dice": {"values": [3, 4, 4]}})
    assert (found["success"], found["bumps"]) == (True, 0)
    query = ("{ futureImperfect { coreCheck(input: {pool: \"IV-3\", tn: 3, "
             "dice: {values: [3, 4, 4]}}) { success bumps } } }")  # fmt: skip
    assert graphql(client, query)["coreCheck"] == {"success": True, "bumps": 0}


def test_iii_3_at_tn_7_succeeds_as_t1_says(client):
    """T1/T3: 145/256, less the chains left out."""
    found = post(client, "/core/check/odds", {"pool": "III-3", "tn": 7})
    cut = Fraction(found["truncation"]["mass_cut"]["exact"])
    assert Fraction(145, 256) - cut <= Fraction(found["success"]["exact"]) <= Fraction(145, 256)


def test_advancement_costs(client):
    """FI:L755-759: shooting 3 to 4 costs 4, Strength 4d6 to 5d6 10, a d4 to d6 trait 18."""
    assert (
        post(client, "/advancement/skill", {"skill": "shooting", "level": 3, "bounty": 4})["cost"]
        == 4
    )
    assert post(client, "/advancement/trait-training", {"dice": 4, "bounty": 10})["cost"] == 10
    assert post(client, "/advancement/trait-die", {"die_sides": 4, "bounty": 18})["cost"] == 18


def test_a_fall_and_a_fear_test_over_both_protocols(client):
    """FI:L27 and FI:L694-700 through REST and GraphQL alike."""
    fall = post(client, "/environment/falling/odds", {"distance": 12})
    assert fall["wounds"][0]["outcome"] == "0"
    query = ('{ futureImperfect { psychFearOdds(input: {pool: "II-2", tn: 5}) '
             "{ effect { outcome exact } } } }")  # fmt: skip
    rows = graphql(client, query)["psychFearOdds"]["effect"]
    rest = post(client, "/psych/fear/odds", {"pool": "II-2", "tn": 5})["effect"]
    assert rows == [{"outcome": r["outcome"], "exact": r["exact"]} for r in rest]


def test_a_fall_needing_column_6_is_a_422_naming_the_distance(client):
    """FI:L27, A-12."""
    response = client.post(BASE + "/environment/falling", json={"distance": 47})
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/distance"
