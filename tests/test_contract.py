"""The contract every operation keeps, checked from the registry with no test code per rule.

For each operation `registry.load()` finds (ids like `four-d8/check`), from its example:

* the example is valid against its published request schema (openapi/openapi.json; for the
  odds, the example without its dice), and the answers against the response schemas;
* REST and GraphQL give the same result and the same odds; the GraphQL document is written
  from the schema (tests/contract/graphql.py);
* the same seed gives the same result, and the dice a result reports, replayed as table
  dice, give it again (DESIGN.md "Dice");

A new operation is checked by existing (DESIGN.md "Quality bar").
"""

import json
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.graphql import build_schema
from service.rules.registry import Operation, camel, load
from service.settings import Settings
from tests.contract.graphql import Shapes

OPENAPI = Path(__file__).parent.parent / "openapi" / "openapi.json"
REGISTRY = load()


def op_id(op: Operation) -> str:
    """The operation's id in this suite: its system and name (`four-d8/check`)."""
    return f"{op.system}/{op.name}"


def operations(keep: Callable[[Operation], bool] = lambda op: True) -> list[Any]:
    found = (op for system in REGISTRY.systems for op in system.operations if keep(op))
    return [pytest.param(op, id=op_id(op)) for op in found]


OPERATIONS = operations()
RANDOM = operations(lambda op: op.random)
FIXED = operations(lambda op: not op.random)
WITH_ODDS = operations(lambda op: op.odds is not None)
#: Seeds replayed, the largest a request takes among them (DESIGN.md "Dice").
SEEDS = (0, 7, 2**31 - 1)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # Once tests/conftest.py holds a session-wide `client`, this fixture can go.
    with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as client:
        yield client


@pytest.fixture(scope="module")
def shapes() -> Shapes:
    return Shapes(build_schema(REGISTRY, MemoryCache()))


@pytest.fixture(scope="module")
def published() -> "Published":
    return Published(json.loads(OPENAPI.read_text(encoding="utf-8")))


class Published:
    """The committed OpenAPI document: each path's request and response schema."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.definitions = document["components"]["schemas"]
        self._validator = cache(self._validator_of)

    def schema(self, path: str, part: str) -> Mapping[str, Any]:
        post = self.document["paths"].get(path, {}).get("post")
        assert post is not None, f"{path} is not in {OPENAPI.name}: run `make schema`"
        found = post["requestBody"] if part == "request" else post["responses"]["200"]
        schema: Mapping[str, Any] = found["content"]["application/json"]["schema"]
        return schema

    def errors(self, path: str, part: str, instance: Any) -> list[str]:
        return [error.message for error in self._validator(path, part).iter_errors(instance)]

    def _validator_of(self, path: str, part: str) -> Any:
        schema = {**self.schema(path, part), "components": self.document["components"]}
        return jsonschema_rs.validator_for(schema)


def rest_path(op: Operation) -> str:
    return f"/v1/{op.system}/{op.name}"


def example(op: Operation, **dice: Any) -> dict[str, Any]:
    """The example, its dice replaced when given, or pinned to a seed when it has none."""
    request = dict(op.example)
    if dice:
        request["dice"] = dice
    elif op.random and request.get("dice") is None:
        request["dice"] = {"seed": 0}
    return request


def odds_request(op: Operation) -> dict[str, Any]:
    return {name: value for name, value in op.example.items() if name != "dice"}


def answer(client: TestClient, path: str, request: Any) -> Any:
    response = client.post(path, json=request)
    assert response.status_code == 200, f"{path} {request}: {response.text}"
    return response.json()


def graphql(client: TestClient, shapes: Shapes, op: Operation, field: str, request: Any) -> Any:
    """The answer of the GraphQL field `field` of the operation's system, in REST's form."""
    namespace = camel(op.system)
    body = {
        "query": shapes.document(namespace, field),
        "variables": shapes.variables(namespace, field, request),
    }
    found = answer(client, "/graphql", body)
    assert "errors" not in found, found["errors"]
    return shapes.rest(namespace, field, found["data"])


def without_seed(result: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in result.items() if name != "seed"}


# The published schemas


@pytest.mark.parametrize("op", OPERATIONS)
def test_the_example_and_its_answer_are_valid_published_json(op, client, published):
    path = rest_path(op)
    assert published.errors(path, "request", dict(op.example)) == []
    assert published.errors(path, "response", answer(client, path, example(op))) == []


@pytest.mark.parametrize("op", WITH_ODDS)
def test_the_odds_example_and_its_answer_are_valid_published_json(op, client, published):
    path = rest_path(op) + "/odds"
    assert published.errors(path, "request", odds_request(op)) == []
    assert published.errors(path, "response", answer(client, path, odds_request(op))) == []


# REST and GraphQL


@pytest.mark.parametrize("op", OPERATIONS)
def test_graphql_answers_as_rest_does(op, client, shapes):
    request = example(op)
    rest = answer(client, rest_path(op), request)
    assert graphql(client, shapes, op, camel(op.name), request) == rest


@pytest.mark.parametrize("op", WITH_ODDS)
def test_graphql_odds_are_rest_odds(op, client, shapes):
    request = odds_request(op)
    rest = answer(client, rest_path(op) + "/odds", request)
    assert graphql(client, shapes, op, camel(op.name) + "Odds", request) == rest


# Replay


@pytest.mark.parametrize("op", RANDOM)
def test_the_same_seed_gives_the_same_result(op, client):
    for seed in SEEDS:
        first = answer(client, rest_path(op), example(op, seed=seed))
        assert answer(client, rest_path(op), example(op, seed=seed)) == first
        # A seed that drew no die explains nothing and is left out.
        assert first["seed"] == (seed if first["rolls"] else None)


@pytest.mark.parametrize("op", FIXED)
def test_a_rule_without_dice_gives_the_same_result_again(op, client):
    first = answer(client, rest_path(op), example(op))
    assert answer(client, rest_path(op), example(op)) == first
    assert "rolls" not in first


@pytest.mark.parametrize("op", RANDOM)
def test_the_dice_reported_replayed_at_the_table_give_the_same_result(op, client):
    for request in [example(op), *(example(op, seed=seed) for seed in SEEDS)]:
        result = answer(client, rest_path(op), request)
        values = [roll["value"] for roll in result["rolls"]]
        replayed = answer(client, rest_path(op), example(op, values=values))
        assert without_seed(replayed) == without_seed(result)
        assert replayed["seed"] is None
