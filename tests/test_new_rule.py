"""A new rule is one file: a model pair and one registered function in a system package.

The test writes a throw-away system package with such a file and finds the rule in every
place the registry derives: the registry, REST, GraphQL, the OpenAPI document and the
catalogue. Nothing else is edited, so nothing else can be forgotten.
"""

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.openapi import openapi
from service.rules.registry import Registry, load
from service.settings import Settings

PACKAGE = """
from service.rules.registry import System

SYSTEM = System(slug="toy", title="Toy", seed="none.txt", lines="T")
"""

RULE = '''
from service.rules.dice import Dice
from service.rules.model import Model
from service.rules.registry import Kind, operation


class CoinInput(Model):
    """Call heads or tails."""

    heads: bool = True


class CoinResult(Model):
    face: int
    won: bool


@operation(name="coin", kind=Kind.CHECK, covers=("toy.coin",), example={"heads": True})
def coin(request: CoinInput, dice: Dice) -> CoinResult:
    """Flip a coin (a d2: 1 is heads) against the call (T:L1)."""
    face = dice.roll(2, "coin")
    return CoinResult(face=face, won=(face == 1) == request.heads)
'''


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[Registry]:
    root = tmp_path / "toyrules"
    (root / "toy").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "toy" / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    (root / "toy" / "coin.py").write_text(textwrap.dedent(RULE))
    sys.path.insert(0, str(tmp_path))
    try:
        yield load("toyrules")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "toyrules" or m.startswith("toyrules.")]:
            del sys.modules[name]


def test_a_rule_in_a_new_file_is_registered_under_its_package_s_system(toy):
    [system] = toy.systems
    [op] = system.operations
    assert (system.slug, op.system, op.name, op.random) == ("toy", "toy", "coin", True)
    assert list(system.covered) == ["toy.coin"]


def test_a_rule_in_a_new_file_is_served_everywhere(toy):
    with TestClient(build_app(Settings(log_requests=False), MemoryCache(), toy)) as client:
        rest = client.post("/v1/toy/coin", json={"heads": False, "dice": {"values": [2]}})
        assert rest.status_code == 200, rest.text
        assert (rest.json()["won"], rest.json()["rolls"][0]["purpose"]) == (True, "coin")
        query = "{ toy { coin(input: {heads: false, dice: {values: [2]}}) { won face } } }"
        graphql = client.post("/graphql", json={"query": query}).json()
        assert graphql == {"data": {"toy": {"coin": {"won": True, "face": 2}}}}
        [entry] = client.get("/v1/systems").json()["systems"]
        assert [o["name"] for o in entry["operations"]] == ["coin"]
    assert "post" in openapi(toy)["paths"]["/v1/toy/coin"]


def test_a_rule_outside_a_system_package_is_refused(tmp_path):
    (tmp_path / "loose.py").write_text(RULE)
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(LookupError, match="not inside a system package"):
            __import__("loose")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("loose", None)
