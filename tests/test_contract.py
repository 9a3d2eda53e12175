"""The contract every operation keeps, checked from the registry with no test code per rule.

For each operation `registry.load()` finds (ids like `four-d8/check`), from its example:

* the example is valid against its published request schema (openapi/openapi.json; for the
  odds, the example without its dice), and the answers against the response schemas;
* REST and GraphQL give the same result and the same odds; the GraphQL document is written
  from the schema (tests/contract/graphql.py);
* the same seed gives the same result, and the dice a result reports, replayed as table
  dice, give it again (DESIGN.md "Dice");
* each distribution of the odds (of the example and of the standard odds requests) sums to
  1 less the mass it reports cut off, each float is its fraction, and every outcome seen in
  a few hundred seeded rolls of the example has non-zero odds; how a distribution maps to a
  result field is stated in tests/contract/odds.py.

A new operation is checked by existing (DESIGN.md "Quality bar").
"""

import json
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from starlette.testclient import TestClient

from service.cache import MemoryCache
from service.graphql_schema import build_schema
from service.rules.cost import BUDGET
from service.rules.registry import Operation, camel, load
from service.runtime import Odds
from tests.contract.asgi import post_all
from tests.contract.graphql import Shapes
from tests.contract.odds import describe, distributions, exact_figures, schema_paths

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
#: Seeded rolls of each example whose outcomes must all have odds.
SAMPLES = 300
#: Operations with odds none of whose distributions names a result field, and why.
UNMAPPED = {
    "four-sight/opposed-check": (
        "its one distribution, outcome, writes two result fields as one: 'aggressor:bare' "
        "is winner 'aggressor' and degree 'bare'"
    ),
}


@pytest.fixture(scope="module")
def shapes() -> Shapes:
    return Shapes(build_schema(REGISTRY, Odds(MemoryCache(), budget=BUDGET, deadline=5)))


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
        # Only the definitions the schema reaches: each validator compiling all of them
        # held some 20 MB apiece, gigabytes over every path.
        schema = self.schema(path, part)
        used = {name: self.definitions[name] for name in _reached(schema, self.definitions)}
        return jsonschema_rs.validator_for({**schema, "components": {"schemas": used}})


REF = "#/components/schemas/"


def _reached(schema: Any, definitions: Mapping[str, Any]) -> set[str]:
    """The names of the definitions `schema` refers to, directly or through others."""
    found: set[str] = set()
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(REF) and ref[len(REF) :] not in found:
                found.add(ref[len(REF) :])
                todo.append(definitions[ref[len(REF) :]])
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return found


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


def all_odds(client: TestClient, op: Operation) -> Iterator[tuple[Any, Any]]:
    """The odds of the example and of each standard request (those `make precompute` fills
    the cache with), with the request."""
    requests = [odds_request(op), *op.standard]
    for request, (status, odds) in zip(
        requests, post_all(client.app, rest_path(op) + "/odds", requests), strict=True
    ):
        assert status == 200, (request, odds)
        yield request, odds


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


def test_a_result_that_rolled_nothing_replays_with_no_dice(client):
    """Fortune of three traits given rolls nothing (C:L242-246): its empty roll log replays
    as `values: []`, like any other result's."""
    path = "/v1/four-c/traits/secondary/fortune"
    body = {"intellect": 6, "awareness": 20, "willpower": 3}
    result = answer(client, path, body)
    assert (result["rolls"], result["seed"], result["fortune"]) == ([], None, 29)
    assert answer(client, path, {**body, "dice": {"values": []}}) == result
    needs = client.post(path, json={"intellect": 6, "awareness": 20, "dice": {"values": []}})
    assert needs.status_code == 422
    assert needs.json()["errors"][0]["pointer"] == "/dice/values"


# Odds


@pytest.mark.parametrize("op", WITH_ODDS)
def test_each_distribution_sums_to_one_less_the_mass_cut(op, client):
    for request, odds in all_odds(client, op):
        found = list(distributions(odds))
        assert found, f"{request}: the odds hold no distribution"
        for distribution in found:
            where = f"{request}: {distribution.name}"
            outcomes = [row["outcome"] for row in distribution.rows]
            assert len(set(outcomes)) == len(outcomes), where
            probabilities = [Fraction(row["exact"]) for row in distribution.rows]
            assert all(0 <= p <= 1 for p in probabilities), where
            assert distribution.cut < Fraction(1, 10**12), where
            assert sum(probabilities) == 1 - distribution.cut, where


@pytest.mark.parametrize("op", WITH_ODDS)
def test_each_float_is_its_exact_fraction(op, client):
    for request, odds in all_odds(client, op):
        figures = list(exact_figures(odds))
        assert figures, request
        for figure in figures:
            assert figure["float"] == float(Fraction(figure["exact"])), (request, figure)


@pytest.mark.parametrize("op", WITH_ODDS)
def test_every_outcome_rolled_has_non_zero_odds(op, client, published):
    odds = answer(client, rest_path(op) + "/odds", odds_request(op))
    fields = schema_paths(published.schema(rest_path(op), "response"), published.definitions)
    # `outcome_odds` names outcomes of the odds themselves, not what the rule decided.
    described = describe(odds, [path for path in fields if path[0] != "outcome_odds"])
    if op_id(op) in UNMAPPED:
        names = [d.distribution.name for d in described]
        assert not described, f"{names} describe result fields now: drop it from UNMAPPED"
        return
    assert described, "no distribution describes a result field (tests/contract/odds.py)"
    seen: dict[str, set[str]] = {d.distribution.name: set() for d in described}
    bodies = [{**odds_request(op), "dice": {"seed": seed}} for seed in range(SAMPLES)]
    for seed, (status, result) in enumerate(post_all(client.app, rest_path(op), bodies)):
        assert status == 200, (seed, result)
        for found in described:
            name = found.distribution.name
            for path, value, outcome in found.outcomes(result):
                where = f"seed {seed}: {'.'.join(path)} = {value!r}"
                assert outcome is not None, f"{where} is no outcome of {name}"
                assert found.distribution.probability(outcome) > 0, f"{where}: 0 in {name}"
                seen[name].add(outcome)
    assert all(seen.values()), f"no roll showed {[n for n, s in seen.items() if not s]}"


def test_every_unmapped_operation_is_registered():
    ids = {param.id for param in WITH_ODDS}
    assert set(UNMAPPED) <= ids
