"""Options are data: each names the catalogue ambiguity it answers, and the catalogue shows its
real type, choices and default.

tests/data/ambiguities_<system>.json copies each system's ambiguity register (the catalogues
in ../shared/rules): every entry is answered by the options it lists, or says why it needs
none (no effect on results, resolved by the seed, caller input, not built yet).
"""

import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from service.rules.model import AMBIGUITY, Model, ambiguity_of, option
from service.rules.registry import System, load

DATA = Path(__file__).parent / "data"
REGISTRY = load()
SYSTEMS = {system.slug: system for system in REGISTRY.systems}
REGISTERS = {
    "four-d8": "four_d8",
    "four-sight": "four_sight",
    "foresight": "foresight",
    "four-c": "four_c",
    "future-imperfect": "future_imperfect",
}
#: Why a register entry needs no option: each reason reads "<one of these>: <detail>".
REASONS = {
    "no effect on results",
    "resolved by the seed",
    "caller input",
    "input validation",
    "no alternative offered",
    "no ambiguity",
    "not built yet",
}


def register(slug: str) -> dict[str, Any]:
    return json.loads((DATA / f"ambiguities_{REGISTERS[slug]}.json").read_text())


def options_models(system: System) -> set[type[Model]]:
    return {op.options for op in system.operations if op.options is not None}


def answered(system: System) -> dict[str | None, set[str]]:
    """The options of a system by the register id each answers (None: no entry)."""
    found: dict[str | None, set[str]] = defaultdict(set)
    for model in options_models(system):
        for name, field in model.model_fields.items():
            found[ambiguity_of(field)].add(name)
    return found


def test_every_system_has_its_register():
    assert set(SYSTEMS) == set(REGISTERS)


@pytest.mark.parametrize("slug", sorted(REGISTERS))
def test_every_option_answers_an_entry_of_the_register(slug):
    entries = register(slug)["ambiguities"]
    found = answered(SYSTEMS[slug])
    assert set(found) - {None} <= set(entries)
    assert found.get(None, set()) == set(register(slug)["options_without_entry"])


@pytest.mark.parametrize("slug", sorted(REGISTERS))
def test_every_entry_of_the_register_is_an_option_or_says_why_not(slug):
    found = answered(SYSTEMS[slug])
    for ambiguity, entry in register(slug)["ambiguities"].items():
        assert set(entry) in ({"issue", "options"}, {"issue", "none"}), ambiguity
        assert found.get(ambiguity, set()) == set(entry.get("options", [])), ambiguity
        if "none" in entry:
            reason, _, detail = entry["none"].partition(": ")
            assert reason in REASONS, (ambiguity, entry["none"])
            assert detail, ambiguity


def test_an_option_not_declared_with_its_ambiguity_is_refused():
    class Loose(Model):
        plain: bool = False
        declared: bool = option(False, ambiguity=None, description="Answers no entry.")

    with pytest.raises(LookupError):
        ambiguity_of(Loose.model_fields["plain"])
    assert ambiguity_of(Loose.model_fields["declared"]) is None


def operations(client: TestClient) -> Iterator[tuple[str, dict[str, Any]]]:
    for slug in REGISTERS:
        response = client.get(f"/v1/systems/{slug}")
        assert response.status_code == 200
        for op in response.json()["operations"]:
            yield slug, op


def catalogued(client: TestClient) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """The options of every operation over REST, by system and operation, then by name."""
    return {
        (slug, op["name"]): {o["name"]: o for o in op["options"]} for slug, op in operations(client)
    }


def test_the_catalogue_shows_each_default_as_the_json_the_request_takes(client):
    for slug, op in operations(client):
        options = next(o.options for o in SYSTEMS[slug].operations if o.name == op["name"])
        if options is None:
            assert op["options"] == []
            continue
        defaults = options().model_dump(mode="json")
        assert {o["name"]: o["default"] for o in op["options"]} == defaults
        assert {o["name"]: json.loads(o["default_json"]) for o in op["options"]} == defaults
        assert {o["name"]: o["ambiguity"] for o in op["options"]} == {
            name: ambiguity_of(field) for name, field in options.model_fields.items()
        }


def test_a_list_option_shows_a_list_default_and_its_item_choices(client):
    penalty = catalogued(client)["four-sight", "check"]["penalty_applies_to"]
    assert penalty["default"] == ["base", "expertise", "omega", "explosion"]  # S-A19(i)
    assert penalty["type"] == "array of enum"
    assert penalty["choices"] == [
        "base",
        "expertise",
        "omega",
        "explosion",
        "manifestation",
        "deep_sight_trigger",
        "flare_trigger",
    ]
    assert (penalty["max_items"], penalty["ambiguity"]) == (7, "S-A19")


def test_numbers_show_their_bounds_not_true_and_false(client):
    options = catalogued(client)["four-sight", "character/create"]
    cap = options["trait_cap"]
    assert (cap["type"], cap["nullable"], cap["choices"], cap["default"]) == (
        "integer",
        True,
        [],
        None,
    )
    assert (cap["minimum"], cap["maximum"]) == (1, 100)
    cost = options["manifestation_cost"]
    assert (cost["type"], cost["nullable"], cost["default"]) == ("integer", False, 10)  # S:L243
    bef = catalogued(client)["foresight", "resolve"]["attribute_bef"]
    assert (bef["type"], bef["choices"], bef["minimum"], bef["maximum"], bef["default"]) == (
        "integer",
        [],
        0,
        15,
        7,
    )


def test_switches_and_enums(client):
    options = catalogued(client)["four-d8", "check"]
    switch = options["doubles_roll_combinations"]
    assert (switch["type"], switch["choices"], switch["default"], switch["default_json"]) == (
        "boolean",
        [],
        True,
        "true",
    )
    assert switch["ambiguity"] == "D-A04"
    version = options["effect_text_version"]
    assert (version["type"], version["choices"], version["default"]) == (
        "enum",
        ["1", "2", "both"],
        "2",
    )
    assert options["special_combinations"]["ambiguity"] is None


def test_the_request_schema_names_each_ambiguity(client):
    for _slug, op in operations(client):
        schema = op["input_schema"]
        if not op["options"]:
            continue
        reference = schema["properties"]["options"]["$ref"].rsplit("/", 1)[-1]
        properties = schema["$defs"][reference]["properties"]
        assert {name: p[AMBIGUITY] for name, p in properties.items()} == {
            o["name"]: o["ambiguity"] for o in op["options"]
        }


def test_graphql_gives_the_same_options(client):
    query = """{ systems { slug operations { name options {
        name ambiguity type nullable choices minimum maximum maxItems defaultJson } } } }"""
    response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200
    over_rest = catalogued(client)
    for system in response.json()["data"]["systems"]:
        for op in system["operations"]:
            rest = over_rest[system["slug"], op["name"]]
            assert [given["name"] for given in op["options"]] == list(rest)
            for given in op["options"]:
                expected = rest[given["name"]]
                assert json.loads(given["defaultJson"]) == expected["default"]
                assert given["maxItems"] == expected["max_items"]
                for key in ("ambiguity", "type", "nullable", "choices", "minimum", "maximum"):
                    assert given[key] == expected[key], (op["name"], given["name"], key)
