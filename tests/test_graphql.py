"""The GraphQL API at /graphql, through the real ASGI app.

Rules are cited by seed line: D:L<n> is line n of seeds/003_e1158ff398be9115.txt.
"""

import importlib
from typing import Any

import pytest
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.graphql_schema import _Types
from service.rules.foresight.resolution.familiarity import LongTermFamiliarity
from service.rules.model import Model
from service.settings import Settings

CHECK_FIELDS = "degree success combination seed rolls { sides value purpose explodedFrom }"


def post(client: TestClient, query: str, variables: dict[str, Any] | None = None) -> Any:
    """The GraphQL response body; GraphQL errors are answered with 200, never a 5xx."""
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def data(client: TestClient, query: str, variables: dict[str, Any] | None = None) -> Any:
    body = post(client, query, variables)
    assert "errors" not in body, body
    return body["data"]


def errors(client: TestClient, query: str, variables: dict[str, Any] | None = None) -> Any:
    body = post(client, query, variables)
    assert body["data"] is None or _nothing(body["data"]), body
    assert body["errors"], body
    return body["errors"]


def _nothing(data: Any) -> bool:
    """Whether a response's data holds no answer: an operation field is nullable, so a bad
    input nulls that field alone, under its namespace."""
    if isinstance(data, dict):
        return all(_nothing(value) for value in data.values())
    return data is None


def check(client: TestClient, input: str, fields: str = CHECK_FIELDS) -> dict[str, Any]:
    query = f"{{ fourD8 {{ check(input: {input}) {{ {fields} }} }} }}"
    return data(client, query)["fourD8"]["check"]


# Same rule, same answer as REST


@pytest.mark.parametrize("seed", [0, 42, 2024])
def test_check_matches_rest_for_the_same_seed(client, seed):
    rest = client.post("/v1/four-d8/check", json={"ease": 20, "dice": {"seed": seed}}).json()
    graphql = check(client, f"{{ease: 20, dice: {{seed: {seed}}}}}")
    assert graphql["degree"] == rest["degree"]
    assert graphql["success"] == rest["success"]
    assert graphql["combination"] == rest["combination"].upper()
    assert graphql["seed"] == rest["seed"] == seed
    assert graphql["rolls"] == [
        {
            "sides": roll["sides"],
            "value": roll["value"],
            "purpose": roll["purpose"],
            "explodedFrom": roll["exploded_from"],
        }
        for roll in rest["rolls"]
    ]


def test_table_dice_triplet(client):
    """D:L82: 5, 5, 5 and 3 is (5 x 2) + 3 = 13."""
    result = check(
        client,
        "{ease: 20, dice: {values: [5, 5, 5, 3]}}",
        "degree success combination interpretation optionsApplied { comboPrecedence }",
    )
    assert result == {
        "degree": 13,
        "success": True,
        "combination": "TRIPLET",
        "interpretation": "Superb result",
        "optionsApplied": {"comboPrecedence": "SHAPE"},
    }


def test_check_odds_at_ease_18(client):
    """D:L45: P(4d8 <= 18) = 555/1024 (catalogue B5.1)."""
    query = """{ fourD8 { checkOdds(input: {ease: 18}) {
      chance summary { success { exact float } } } } }"""
    odds = data(client, query)["fourD8"]["checkOdds"]
    assert odds["chance"] == 18
    assert odds["summary"]["success"] == {"exact": "555/1024", "float": 555 / 1024}


def test_an_automatic_success_scores_eight(client):
    """D:L52: at a chance of 33 or more the player may place the dice 8, 6, 5, 4: degree 8,
    nothing rolled."""
    result = check(
        client,
        "{ease: 32, otherModifiers: [3], over32Mode: AUTOMATIC}",
        "chance mode success degree dice { natural } rolls { value }",
    )
    assert result == {
        "chance": 35,
        "mode": "AUTOMATIC",
        "success": True,
        "degree": 8,
        "dice": [{"natural": 8}, {"natural": 6}, {"natural": 5}, {"natural": 4}],
        "rolls": [],
    }


# Errors


def test_ease_over_32_is_bad_user_input(client):
    """D:L16: 32 is the highest possible ease."""
    [error] = errors(client, "{ fourD8 { check(input: {ease: 33}) { degree } } }")
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert error["path"] == ["fourD8", "check"]
    [field] = error["extensions"]["errors"]
    assert field["pointer"] == "/ease"
    assert field["limit"] == 32


def test_ease_over_32_in_a_variable_is_bad_user_input(client):
    query = "query ($i: FourD8CheckInput!) { fourD8 { check(input: $i) { degree } } }"
    [error] = errors(client, query, {"i": {"ease": 33}})
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert [e["pointer"] for e in error["extensions"]["errors"]] == ["/ease"]


def test_a_die_out_of_range_is_bad_user_input(client):
    query = "{ fourD8 { check(input: {ease: 20, dice: {values: [9, 5, 5, 3]}}) { degree } } }"
    [error] = errors(client, query)
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert [e["pointer"] for e in error["extensions"]["errors"]] == ["/dice/values/0"]


def test_a_string_for_ease_fails_validation(client):
    [error] = errors(client, '{ fourD8 { check(input: {ease: "20"}) { degree } } }')
    assert error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"
    assert "Int cannot represent" in error["message"]


def test_a_string_for_ease_in_a_variable_names_the_field(client):
    query = "query ($i: FourD8CheckInput!) { fourD8 { check(input: $i) { degree } } }"
    [error] = errors(client, query, {"i": {"ease": "20"}})
    assert error["extensions"]["code"] in ("BAD_USER_INPUT", "GRAPHQL_VALIDATION_FAILED")
    assert error["message"] != "Internal server error."
    assert "ease" in error["message"]
    assert "Int cannot represent" in error["message"]


def test_an_unexpected_error_is_masked(monkeypatch):
    """A fault of ours loses its message (it may leak internals) and is coded
    INTERNAL_SERVER_ERROR."""
    check_module = importlib.import_module("service.rules.four_d8.check")

    def broken(request: Any) -> Any:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(check_module, "chance_of_success", broken)
    # A request no other test asks, so the check's memo cannot answer it without the rule.
    query = "{ fourD8 { check(input: {ease: 19, otherModifiers: [7, -7]}) { degree } } }"
    with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as client:
        body = post(client, query)
    [error] = body["errors"]
    assert error["message"] == "Internal server error."
    assert error["extensions"]["code"] == "INTERNAL_SERVER_ERROR"
    assert error["path"] == ["fourD8", "check"]
    assert "secret" not in str(body)


def test_input_fields_of_several_words_reach_the_rule(client):
    """Nested and listed inputs under their GraphQL names arrive under the rule's names:
    the same chance as REST's for the same request (D:L29-42)."""
    rest = client.post("/v1/four-d8/check", json={
        "ease": 10, "ability_bonuses": [{"ability": "THIEVERY", "bonus": 3},
                                        {"ability": "CLIMB", "bonus": 2, "combinable": False}],
        "other_modifiers": [2], "necessary_ability": {"ability": "LOCKS",
                                                      "is_occupation_bonus_skill": False},
        "dice": {"seed": 5}}).json()  # fmt: skip
    graphql = check(
        client,
        """{ease: 10, abilityBonuses: [{ability: "THIEVERY", bonus: 3},
        {ability: "CLIMB", bonus: 2, combinable: false}], otherModifiers: [2],
        necessaryAbility: {ability: "LOCKS", isOccupationBonusSkill: false},
        dice: {seed: 5}}""",
        "chance abilityBonus separateRolls necessaryAbilityPenalty",
    )
    assert graphql == {"chance": 7, "abilityBonus": 3, "separateRolls": ["CLIMB"],
                       "necessaryAbilityPenalty": -8}  # fmt: skip
    assert rest["chance"] == graphql["chance"]


@pytest.mark.parametrize(
    ("content", "headers", "status"),
    [
        (b'{"query": "{ systems { slug } }"}', {"content-type": "text/plain"}, 415),
        (b'{"query": ', {"content-type": "application/json"}, 400),
        (b'{"variables": {}}', {"content-type": "application/json"}, 400),
        (b'[{"query": "{ systems { slug } }"}]', {"content-type": "application/json"}, 400),
        (b'{"query": "{ systems { slug } }", "variables": [1]}',
         {"content-type": "application/json"}, 400),
        (b'{"query": "{ systems { slug } }", "operationName": 3}',
         {"content-type": "application/json"}, 400),
    ],
    ids=["not-json", "malformed", "no-query", "batch", "variables-list", "name-number"],
)  # fmt: skip
def test_a_body_that_is_not_a_graphql_request_is_a_problem(client, content, headers, status):
    response = client.post("/graphql", content=content, headers=headers)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["status"] == status


def test_graphql_is_post_only(client):
    response = client.get("/graphql", params={"query": "{ systems { slug } }"})
    assert response.status_code == 405
    assert response.headers["content-type"] == "application/problem+json"


def test_the_named_operation_is_run(client):
    query = (
        "query A { systems { slug } } "
        "query B { fourD8 { chanceOfSuccess(input: {ease: 3}) { chance } } }"
    )
    body = client.post("/graphql", json={"query": query, "operationName": "B"}).json()
    assert body == {"data": {"fourD8": {"chanceOfSuccess": {"chance": 3}}}}


# Limits


TOO_MANY_TOKENS = "{ " + " ".join(["a"] * 2000) + " }"
DEEP = "{ fourD8 { check(input: {ease: 20, dice: {seed: 1}}) { reading { groups { aspects } } } } }"


def test_a_query_deeper_than_the_limit_is_rejected():
    """The depth limit comes from Settings; DEEP nests fields four levels below fourD8."""
    app = build_app(Settings(log_requests=False, graphql_max_depth=3), MemoryCache())
    with TestClient(app) as client:
        [error] = errors(client, DEEP)
    assert error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"
    assert "exceeds maximum operation depth of 3" in error["message"]


def test_the_default_depth_limit(client):
    assert data(client, DEEP)["fourD8"]["check"]["reading"]["groups"]
    deep = "{ " + "a { " * 16 + "b" + " }" * 16 + " }"
    messages = [error["message"] for error in errors(client, deep)]
    assert messages == ["'anonymous' exceeds maximum operation depth of 15"]


def test_too_many_aliases_are_rejected(client):
    query = "{ " + " ".join(f"a{i}: __typename" for i in range(17)) + " }"
    [error] = errors(client, query)
    assert error["message"] == "17 aliases found. Allowed: 16"
    assert error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"


def test_sixteen_aliases_are_allowed(client):
    query = "{ " + " ".join(f"a{i}: __typename" for i in range(16)) + " }"
    assert len(data(client, query)) == 16


def test_too_many_tokens_are_rejected(client):
    [error] = errors(client, TOO_MANY_TOKENS)
    assert "more than 2000 tokens" in error["message"]


@pytest.mark.parametrize(
    "query", ["{ fourD8 { ", TOO_MANY_TOKENS], ids=["syntax", "too_many_tokens"]
)
def test_every_parse_error_has_a_code(client, query):
    [error] = errors(client, query)
    assert error.get("extensions", {}).get("code") in (
        "GRAPHQL_PARSE_FAILED",
        "GRAPHQL_VALIDATION_FAILED",
    )


# Introspection, tables and the catalogue


def test_introspection(client):
    query = """{
      schema: __schema { queryType { name } }
      input: __type(name: "FourD8CheckInput") { inputFields { name } }
      modes: __type(name: "FourD8Over32Mode") { enumValues { name } }
    }"""
    result = data(client, query)
    assert result["schema"]["queryType"]["name"] == "Query"
    fields = {field["name"] for field in result["input"]["inputFields"]}
    assert {"ease", "otherModifiers", "over32Mode", "dice", "options"} <= fields
    assert [value["name"] for value in result["modes"]["enumValues"]] == [
        "AUTOMATIC",
        "DOUBLES",
        "BONUS",
        "PLAIN",
    ]


def test_tables(client):
    query = """{ fourD8 { tables {
      easeMeanings { name source rows { low high meaning } }
      degreeInterpretations { rows { low high meaning } }
      effectTexts { rows { version combination key } }
    } } }"""
    tables = data(client, query)["fourD8"]["tables"]
    ease = tables["easeMeanings"]
    assert ease["name"] == "ease-meanings"
    assert ease["source"] == "D:L18-26"
    assert ease["rows"][-1] == {"low": 27, "high": 32, "meaning": "Simple"}  # D:L26
    assert tables["degreeInterpretations"]["rows"][-1] == {
        "low": 21,
        "high": None,
        "meaning": "Superhuman",
    }  # D:L68
    assert len(tables["effectTexts"]["rows"]) == 22
    assert {"version": "2", "combination": "TWO_PAIRS", "key": "Social + Magical"} in tables[
        "effectTexts"
    ]["rows"]


def test_systems(client):
    query = """{ systems { slug graphqlName
      operations { name restPath graphqlField graphqlOddsField covers
                   options { name ambiguity defaultJson } limits { pointer minimum maximum } }
      tables { name covers } } }"""
    systems = {s["slug"]: s for s in data(client, query)["systems"]}
    assert set(systems) == {"four-sight", "four-d8", "foresight", "four-c", "future-imperfect"}
    system = systems["four-d8"]
    assert system["graphqlName"] == "fourD8"
    operations = {op["name"]: op for op in system["operations"]}
    assert set(operations) == {"check", "chance-of-success", "degree-of-success"}
    check_op = operations["check"]
    assert (check_op["graphqlField"], check_op["graphqlOddsField"]) == ("check", "checkOdds")
    assert check_op["restPath"] == "/v1/four-d8/check"
    assert "4d8.over32.bonus_roll" in check_op["covers"]
    assert {"pointer": "/ease", "minimum": -64, "maximum": 32} in check_op["limits"]
    assert {"name": "combo_precedence", "ambiguity": "D-A02", "defaultJson": '"shape"'} in check_op[
        "options"
    ]
    assert operations["chance-of-success"]["graphqlOddsField"] is None
    assert {"name": "ease-meanings", "covers": ["4d8.ease_meaning"]} in system["tables"]


def test_two_models_published_under_one_name_are_refused():
    """Two pydantic models of one system with the same class name would both be, say,
    ForesightLongTermFamiliarityInput: the schema would keep one and answer the other's
    fields wrongly, so the builder refuses the second."""
    namespace = {"__module__": LongTermFamiliarity.__module__, "__annotations__": {"subject": str}}
    twin = type("LongTermFamiliarity", (Model,), namespace)
    types = _Types()
    types.model(LongTermFamiliarity, True)
    with pytest.raises(TypeError, match="are both ForesightLongTermFamiliarityInput"):
        types.model(twin, True)
