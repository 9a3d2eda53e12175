"""The catalogue and OpenAPI publish every operation's example request, and the catalogue
makes its JSON Schemas once, in one pass, on first use, the same from any number of threads;
each is the schema its model gives on its own."""

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
import pytest

import service.catalogue
from service.cache import MemoryCache
from service.catalogue import Catalogue, json_schema, system_entry, wire_models
from service.graphql_schema import build_schema
from service.openapi import openapi, published
from service.rest import routes
from service.rules.cost import BUDGET
from service.rules.registry import Operation, load
from service.runtime import Odds

REGISTRY = load()
OPERATIONS = [(system, op) for system in REGISTRY.systems for op in system.operations]


def ids(case: tuple[Any, Operation]) -> str:
    return f"{case[0].slug}/{case[1].name}"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi(REGISTRY)


@pytest.mark.parametrize("case", OPERATIONS, ids=ids)
def test_the_catalogue_publishes_each_example(client, case):
    system, op = case
    entry = client.get(f"/v1/systems/{system.slug}").json()
    info = next(info for info in entry["operations"] if info["name"] == op.name)
    assert info["example"] == json.loads(json.dumps(op.example))
    op.request_model.model_validate_json(json.dumps(info["example"]))
    if op.odds_request_model is None:
        assert info["odds_example"] is None
    else:
        assert info["odds_example"] == {k: v for k, v in info["example"].items() if k != "dice"}
        op.odds_request_model.model_validate_json(json.dumps(info["odds_example"]))


@pytest.mark.parametrize("case", OPERATIONS, ids=ids)
def test_openapi_publishes_each_example(document, case):
    system, op = case
    base = f"/v1/{system.slug}/{op.name}"

    def example(path: str) -> Any:
        return document["paths"][path]["post"]["requestBody"]["content"]["application/json"][
            "example"
        ]

    assert example(base) == json.loads(json.dumps(op.example))
    if op.odds_request_model is not None:
        assert example(f"{base}/odds") == {k: v for k, v in op.example.items() if k != "dice"}


def test_an_example_with_dice_is_published_without_them_for_the_odds(document):
    """The 4D8 check's example rolls table dice; its odds take the same input without."""
    body = document["paths"]["/v1/four-d8/check/odds"]["post"]["requestBody"]
    assert body["content"]["application/json"]["example"] == {"ease": 20}


def counting(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[type, str]]:
    """Count the JSON Schemas the catalogue makes, by model and mode, in one pass or alone."""
    made: Counter[tuple[type, str]] = Counter()
    one, many = service.catalogue.json_schema, service.catalogue.definitions

    def schema(model: Any, mode: Any) -> dict[str, Any]:
        made[model, mode] += 1
        return one(model, mode)

    def definitions(models: Any) -> Any:
        found = many(models)
        made.update(found[0].keys())
        return found

    monkeypatch.setattr(service.catalogue, "json_schema", schema)
    monkeypatch.setattr(service.catalogue, "definitions", definitions)
    return made


def test_each_schema_is_made_once_and_only_when_asked(monkeypatch):
    made = counting(monkeypatch)
    catalogue = Catalogue(REGISTRY)
    assert not made
    catalogue.infos()  # GraphQL's systems: the input schemas, for their limits
    assert set(made) == set(wire_models(REGISTRY))
    whole = catalogue.json()
    for system in REGISTRY.systems:
        catalogue.system_json(system.slug)
    assert catalogue.json() is whole
    assert made
    assert set(made.values()) == {1}


def test_the_catalogue_and_the_openapi_document_share_one_pass(monkeypatch):
    """The app's catalogue makes OpenAPI's models too, and the document is made from its
    definitions: every schema once for both, and the document as it is made alone."""
    alone = openapi(REGISTRY)
    made = counting(monkeypatch)
    catalogue = Catalogue(REGISTRY, models=published)
    catalogue.json()
    assert set(made) == set(published(REGISTRY))
    assert openapi(REGISTRY, catalogue) == alone
    assert set(made.values()) == {1}


def inlined(node: Any, defs: dict[str, Any]) -> Any:
    """A JSON Schema with each `$ref` replaced by what it names (none of ours recurses)."""
    if isinstance(node, list):
        return [inlined(child, defs) for child in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        return inlined({**target, **{k: v for k, v in node.items() if k != "$ref"}}, defs)
    return {key: inlined(child, defs) for key, child in node.items() if key != "$defs"}


def test_the_schemas_made_in_one_pass_are_each_models_own():
    """Made together, the schemas name shared definitions once for all (`FourD8Reading`),
    and each still says exactly what its model's own `model_json_schema` says."""
    catalogue = Catalogue(REGISTRY, models=published)
    for model, mode in published(REGISTRY):
        schema, own = catalogue.schema(model, mode), json_schema(model, mode)
        assert inlined(schema, schema.get("$defs", {})) == inlined(own, own.get("$defs", {}))


def test_the_app_is_built_without_making_a_schema(monkeypatch):
    """Routes and the GraphQL schema wait for the first request to the catalogue."""
    made = counting(monkeypatch)
    catalogue = Catalogue(REGISTRY)
    routes(REGISTRY, Odds(MemoryCache(), budget=BUDGET, deadline=5), catalogue)
    build_schema(REGISTRY, Odds(MemoryCache(), budget=BUDGET, deadline=5), catalogue)
    assert not made


def test_the_remembered_entries_are_the_entries():
    catalogue = Catalogue(REGISTRY)
    schema = Catalogue(REGISTRY).schema

    def entry(system: Any) -> dict[str, Any]:
        return system_entry(system, schema)

    for system in REGISTRY.systems:
        assert orjson.loads(catalogue.system_json(system.slug)) == entry(system)
    assert orjson.loads(catalogue.json()) == {"systems": [entry(s) for s in REGISTRY.systems]}


def test_threads_asking_at_once_share_one_making(monkeypatch):
    made = counting(monkeypatch)
    catalogue = Catalogue(REGISTRY)
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda _: catalogue.json(), range(4)))
    assert all(answer is answers[0] for answer in answers)
    assert set(made.values()) == {1}


def test_an_unknown_system_has_no_entry():
    with pytest.raises(LookupError):
        Catalogue(REGISTRY).system_json("four-c-minus")
