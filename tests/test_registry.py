"""The registry against the catalogue and the wire contract of DESIGN.md.

* every catalogue id of each finished system (tests/data/ids_*.txt, copies of
  ../shared/rules/ids/) is covered exactly once, by an operation or a reference table, and
  nothing else is covered;
* operation names map to REST paths and GraphQL fields;
* every input is bounded in the published OpenAPI document: integers by minimum and maximum,
  arrays by maxItems, strings by maxLength (enums excepted).
"""

import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from graphql import GraphQLInputObjectType, GraphQLObjectType

from service.cache import MemoryCache
from service.graphql_schema import build_schema
from service.openapi import openapi
from service.rules import RULES_VERSION
from service.rules.cost import BUDGET
from service.rules.registry import System, camel, load, pascal
from service.rules.registry import system_of as system_of_module
from service.runtime import Odds, Results

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
#: kebab-case words, optionally in /-separated segments ("character/create").
OPERATION_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)*$")


#: Each system: its slug, its id list (a copy of ../shared/rules/ids/) and the number of
#: routines its catalogue inventory lists.
SYSTEMS = [
    pytest.param("four-d8", "ids_4d8.txt", 22, id="four-d8"),
    pytest.param("four-sight", "ids_4sight.txt", 33, id="four-sight"),
    pytest.param("foresight", "ids_foresight.txt", 204, id="foresight"),
    pytest.param("four-c", "ids_4c.txt", 147, id="four-c"),
    pytest.param("future-imperfect", "ids_future_imperfect.txt", 115, id="future-imperfect"),
]


def system_of(slug: str) -> System:
    system = load().system(slug)
    assert system is not None
    return system


def catalogue_ids(filename: str) -> list[str]:
    lines = (DATA / filename).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip()]


def path_of(catalogue_id: str) -> str:
    """DESIGN.md: `4sight.combat_attack` -> `combat-attack`, `4sight.character.create` ->
    `character/create`."""
    return catalogue_id.split(".", 1)[1].replace(".", "/").replace("_", "-")


# Coverage


@pytest.mark.parametrize(("slug", "filename", "count"), SYSTEMS)
def test_the_id_list_is_the_catalogue_inventory(slug, filename, count):
    """Catalogue A2 lists 33 routines for 4SIGHT, B2 22 for 4D8 and FORESIGHT's two parts
    204, each id once."""
    ids = catalogue_ids(filename)
    assert len(ids) == count
    assert len(set(ids)) == count
    prefix = ids[0].split(".")[0] + "."
    assert all(catalogue_id.startswith(prefix) for catalogue_id in ids)


@pytest.mark.parametrize(("slug", "filename", "count"), SYSTEMS)
def test_every_catalogue_id_is_covered_exactly_once(slug, filename, count):
    covered = Counter(system_of(slug).covered)
    assert {i: n for i, n in covered.items() if n > 1} == {}
    assert sorted(covered) == sorted(catalogue_ids(filename))


def test_each_operation_belongs_to_the_system_of_its_package():
    for system in load().systems:
        for op in system.operations:
            assert op.system == system.slug == system_of_module(op.module).slug, op.name
            assert op.module.startswith(f"service.rules.{system.slug.replace('-', '_')}."), op


def test_no_two_operations_share_a_rest_path_or_a_graphql_field():
    registry = load()
    rest = [f"/v1/{s.slug}/{op.name}" for s in registry.systems for op in s.operations]
    rest += [f"/v1/{s.slug}/{op.name}/odds" for s in registry.systems for op in s.operations]
    rest += [f"/v1/{s.slug}/tables/{t.name}" for s in registry.systems for t in s.tables]
    fields = [(s.graphql_name, camel(op.name)) for s in registry.systems for op in s.operations]
    fields += [(s.graphql_name, camel(op.name) + "Odds") for s in registry.systems
               for op in s.operations]  # fmt: skip
    assert [p for p, n in Counter(rest).items() if n > 1] == []
    assert [f for f, n in Counter(fields).items() if n > 1] == []
    assert len({s.graphql_name for s in registry.systems}) == len(registry.systems)
    assert len({s.lines for s in registry.systems}) == len(registry.systems)


# Names


def test_design_name_mapping_examples():
    """The examples of DESIGN.md's system table and wire contract."""
    assert path_of("4sight.combat_attack") == "combat-attack"
    assert path_of("4sight.character.create") == "character/create"
    assert camel("combat-attack") == "combatAttack"
    assert camel("character/create") == "characterCreate"
    slugs = ["four-sight", "four-c", "future-imperfect", "four-d8", "foresight"]
    assert [camel(slug) for slug in slugs] == [
        "fourSight",
        "fourC",
        "futureImperfect",
        "fourD8",
        "foresight",
    ]
    assert pascal("four-d8") == "FourD8"


@pytest.mark.parametrize(("slug", "filename", "count"), SYSTEMS)
def test_operations_map_to_rest_paths(slug, filename, count):
    system = system_of(slug)
    paths = openapi(load())["paths"]
    for op in system.operations:
        assert OPERATION_NAME.fullmatch(op.name), op.name
        assert "post" in paths[f"/v1/{slug}/{op.name}"]
        assert (f"/v1/{slug}/{op.name}/odds" in paths) == (op.odds is not None)
    for table in system.tables:
        assert "get" in paths[f"/v1/{slug}/tables/{table.name}"]


@pytest.mark.parametrize(("slug", "filename", "count"), SYSTEMS)
def test_operations_map_to_graphql_fields(slug, filename, count):
    schema = build_schema(load(), Odds(MemoryCache(), budget=BUDGET, deadline=5))
    system = system_of(slug)
    prefix = pascal(slug)
    query = f"""{{
      root: __type(name: "Query") {{ fields {{ name }} }}
      system: __type(name: "{prefix}Query") {{ fields {{ name }} }}
      tables: __type(name: "{prefix}Tables") {{ fields {{ name }} }}
    }}"""
    result = schema.execute_sync(query)
    assert result.errors is None
    assert result.data is not None
    assert {camel(slug), "systems"} <= {f["name"] for f in result.data["root"]["fields"]}
    expected = {camel(op.name) for op in system.operations}
    expected |= {camel(op.name) + "Odds" for op in system.operations if op.odds is not None}
    assert {f["name"] for f in result.data["system"]["fields"]} == expected | {"tables"}
    assert {f["name"] for f in result.data["tables"]["fields"]} == {
        camel(table.name) for table in system.tables
    }


@pytest.mark.parametrize(("slug", "filename", "count"), SYSTEMS)
def test_every_operation_field_is_resolved_directly(slug, filename, count):
    """graphql-core calls the service's own resolver for the system field and every operation
    and odds field (Strawberry's wrapper would read inputs under their GraphQL names), and
    every input field is read under its Python name."""
    core = build_schema(load(), Odds(MemoryCache(), budget=BUDGET, deadline=5))._schema
    owner = core.get_type(f"{pascal(slug)}Query")
    assert isinstance(owner, GraphQLObjectType)
    root = core.get_type("Query")
    assert isinstance(root, GraphQLObjectType)
    fields = [root.fields[camel(slug)]]
    for op in system_of(slug).operations:
        fields.append(owner.fields[camel(op.name)])
        if op.odds is not None:
            fields.append(owner.fields[camel(op.name) + "Odds"])
    for field in fields:
        assert field.resolve is not None
        assert field.resolve.__qualname__ == "_resolver.<locals>.resolve"
    check = core.get_type("FourD8CheckInput")
    assert isinstance(check, GraphQLInputObjectType)
    assert check.fields["otherModifiers"].out_name == "other_modifiers"


def test_four_d8_graphql_fields():
    assert {camel(op.name) for op in system_of("four-d8").operations} == {
        "check",
        "chanceOfSuccess",
        "degreeOfSuccess",
    }


@pytest.mark.parametrize(("slug", "filename", "count"), SYSTEMS)
def test_operation_names_come_from_a_covered_catalogue_id(slug, filename, count):
    """An operation is named after the id it covers, or after the common stem of the ids it
    covers ('character/validate' for 'character.validate_traits', ...)."""
    for op in system_of(slug).operations:
        paths = {path_of(catalogue_id) for catalogue_id in op.covers}
        stem = all(path.startswith(op.name + "-") for path in paths)
        assert op.name in paths or stem, op.name


@pytest.mark.parametrize(("slug", "filename", "count"), SYSTEMS)
def test_standard_odds_are_requests_the_system_answers(slug, filename, count):
    """`make precompute` fills the cache with these; each must validate and compute."""
    system = system_of(slug)
    assert system.standard_odds
    for op, payload in system.standard_odds:
        assert op in system.operations
        assert op.odds_request_model is not None
        request = op.odds_request_model.model_validate_json(json.dumps(payload))
        assert op.run_odds(request).rules_version  # type: ignore[attr-defined]


#: Requests of operations of every shape: random with options, with table dice, with an
#: automatic success (no seed), not random with and without options.
RUN_JSON_CASES = [
    ("four-d8", "check", {"ease": 20, "dice": {"seed": 7}}),
    ("four-d8", "check", {"ease": 20, "dice": {"values": [8, 8, 8, 8]}}),
    ("four-d8", "check", {"ease": 30, "other_modifiers": [5], "over32_mode": "automatic"}),
    ("four-d8", "check", {"ease": -40}),
    ("four-d8", "chance-of-success", {"ease": 12, "other_modifiers": [3, -1]}),
    ("four-sight", "combat-attack",
     {"attacker": {"traits": [{"trait": "dexterity", "score": 3}]},
      "defender": {"traits": [{"trait": "dexterity", "score": 2}]}, "dice": {"seed": 11}}),
    ("four-sight", "combat/turn-order", {"participants": ["Ann", "Bo"], "rounds": 2}),
    ("foresight", "resolve", {"score": 14, "bef": 5, "dice": {"seed": 3}}),
]  # fmt: skip


@pytest.mark.parametrize(("slug", "name", "payload"), RUN_JSON_CASES)
def test_results_json_is_the_result_as_json(slug, name, payload):
    """REST writes `Results.json`, GraphQL resolves `run`: the same result, member for
    member, the first time and when the outcome's JSON is remembered."""
    op = next(o for o in system_of(slug).operations if o.name == name)
    body = json.dumps(payload)
    results = Results()
    for _ in range(2):
        result = op.run(op.request_model.model_validate_json(body))
        data = results.json(op, op.request_model.model_validate_json(body))
        assert json.loads(data) == json.loads(result.model_dump_json())


def test_options_applied_are_the_request_s():
    """Two requests that differ only in options, deciding the same faces, are decided and
    reported each with its own options."""
    op = next(o for o in system_of("four-d8").operations if o.name == "check")
    results = Results()
    for value, degree in (("one", 1), ("sum", 4)):
        body = json.dumps({"ease": 20, "dice": {"values": [1, 1, 1, 1]},
                           "options": {"snake_eyes_degree": value}})  # fmt: skip
        data = json.loads(results.json(op, op.request_model.model_validate_json(body)))
        assert data["options_applied"]["snake_eyes_degree"] == value
        assert data["degree"] == degree  # D-A03: the remembered check is keyed by its options


@pytest.mark.parametrize(
    ("slug", "name", "payload"),
    [
        ("four-sight", "combat-attack",
         {"attacker": {"traits": [{"trait": "dexterity", "score": 1}]},
          "defender": {"traits": [{"trait": "dexterity", "score": 1}]}}),
        ("foresight", "resolve", {"score": 14, "bef": 5, "modifiers": [-2]}),
        ("foresight", "familiarities", {"environment": "x", "environments": []}),
    ],
)  # fmt: skip
def test_the_cache_key_is_the_digest_of_the_canonical_request(slug, name, payload):
    """The key is the SHA-256 of the request's canonical JSON, the same for the same request
    however it was written."""
    op = next(o for o in system_of(slug).operations if o.name == name)
    model = op.odds_request_model or op.request_model
    first = model.model_validate_json(json.dumps(payload))
    again = model.model_validate_json(json.dumps(payload, indent=2))
    digest = hashlib.sha256(first.model_dump_json().encode()).hexdigest()
    expected = f"adjudicator:{RULES_VERSION}:{slug}:{name}:{digest}"
    assert op.cache_key(first) == op.cache_key(again) == op.cache_key(first) == expected


# Bounds


def request_schemas(document: dict[str, Any]) -> set[str]:
    """The component schemas reachable from any request body."""
    found: set[str] = set()

    def follow(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[-1]
                if name not in found:
                    found.add(name)
                    follow(document["components"]["schemas"][name])
            for value in node.values():
                follow(value)
        elif isinstance(node, list):
            for value in node:
                follow(value)

    for item in document["paths"].values():
        for method in item.values():
            follow(method.get("requestBody", {}))
    return found


def unbounded(document: dict[str, Any]) -> Iterator[str]:
    """Where an input can grow without limit: "<schema><pointer>: <what is missing>"."""

    def walk(node: Any, where: str) -> Iterator[str]:
        if not isinstance(node, dict) or "$ref" in node or "enum" in node or "const" in node:
            return
        kind = node.get("type")
        if kind in ("integer", "number"):
            for bound in ("minimum", "maximum"):
                if bound not in node and f"exclusive{bound.title()}" not in node:
                    yield f"{where}: {bound}"
        elif kind == "array" and "maxItems" not in node:
            yield f"{where}: maxItems"
        elif kind == "string" and "maxLength" not in node:
            yield f"{where}: maxLength"
        for name, child in node.get("properties", {}).items():
            yield from walk(child, f"{where}/{name}")
        for child in node.get("anyOf", []) + node.get("oneOf", []) + node.get("allOf", []):
            yield from walk(child, where)
        if isinstance(node.get("items"), dict):
            yield from walk(node["items"], f"{where}/-")

    for name in sorted(request_schemas(document)):
        yield from walk(document["components"]["schemas"][name], name)


def documents() -> list[Any]:
    committed = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    return [
        pytest.param(committed, id="committed"),
        pytest.param(openapi(load()), id="generated"),
    ]


@pytest.mark.parametrize("document", documents())
def test_request_schemas_are_found(document):
    names = request_schemas(document)
    assert {"FourD8CheckRequest", "FourD8CheckOddsRequest", "DiceSpec", "FourD8Options"} <= names
    assert "FourD8CheckResult" not in names


@pytest.mark.parametrize("document", documents())
def test_every_input_is_bounded(document):
    assert list(unbounded(document)) == []


def test_an_exploded_die_names_an_earlier_die_of_its_size():
    """`exploded_from` is an index into `rolls` (not into a pool): the die before it in its
    chain, already logged, of the same size. Seeds chosen to explode somewhere in each op."""
    for system in load().systems:
        for op in system.operations:
            if not op.random:
                continue
            for seed in range(40):
                body = json.dumps({**op.example, "dice": {"seed": seed}})
                try:
                    rolls = op.run(op.request_model.model_validate_json(body)).rolls
                except ValueError:
                    continue  # a seed the example's other inputs refuse (a spent deck)
                for index, roll in enumerate(rolls):
                    if roll.exploded_from is not None:
                        assert 0 <= roll.exploded_from < index, (op.name, seed, index)
                        assert rolls[roll.exploded_from].sides == roll.sides, (op.name, seed)


def test_a_process_starts_and_builds_its_graphql_schema_without_deriving_wire_models():
    """Neither `create_app` nor the GraphQL schema derives an operation's request, result or
    odds models (deriving all of them was half of a process's time to its first answer, and
    39 MB): the schema reads their shapes (`Wire.fields`), and the first request of each
    operation derives its own, once."""
    counted = (
        "from service.app import create_app; from service.cache import MemoryCache; "
        "from service.graphql_schema import build_schema; from service.rules.registry import load; "
        "from service.runtime import Odds; "
        "app = create_app(); ops = [op for s in load().systems for op in s.operations]; "
        "derived = lambda: sum('model' in vars(w) for op in ops if 'wires' in vars(op) "
        "for w in op.wires if w is not None); "
        "print(derived()); "
        "build_schema(load(), Odds(MemoryCache(), budget=1, deadline=1)); print(derived())"
    )
    started = subprocess.run(
        [sys.executable, "-c", counted], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert started.stdout.split() == ["0", "0"], started.stderr[-2000:]
    op = next(op for s in load().systems for op in s.operations if op.knows_odds)
    assert op.request_model is op.request_model
    assert op.odds_model is op.odds_model
    assert list(op.request_model.model_fields) == list(op.wires.request.fields)
    assert list(op.result_model.model_fields) == list(op.wires.result.fields)
    assert op.request_model.__name__ == pascal(op.system) + pascal(op.name) + "Request"
