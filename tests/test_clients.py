"""The generated clients (clients/, `make clients`): they match openapi/openapi.json, the
TypeScript one passes tsc --strict and calls a real server from node, the Python one passes
mypy --strict and calls the same server, and the Python generator handles what the document does
not use yet (path, query and header parameters, a text answer)."""

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.served import served
from tools import clients

ROOT = Path(__file__).resolve().parent.parent
TYPESCRIPT = ROOT / "clients/typescript"
PYTHON = ROOT / "clients/python"

sys.path.insert(0, str(PYTHON))

from adjudicator_client import Client  # noqa: E402


def _smoke() -> ModuleType:
    spec = importlib.util.spec_from_file_location("adjudicator_smoke", PYTHON / "smoke.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SMOKE = _smoke()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with served() as (base, _):
        yield base


def test_clients_match_the_schema() -> None:
    stale = clients.stale()
    assert not stale, f"the clients drift from openapi/openapi.json in {stale}: run 'make clients'"


def test_typescript_client_compiles_and_calls_the_service(base_url: str, tmp_path: Path) -> None:
    clients.install_node()
    tsc = TYPESCRIPT / "node_modules/.bin/tsc"
    # tsconfig.json is strict and noEmitOnError: a type error fails here and emits nothing.
    compiled = subprocess.run(
        [str(tsc), "-p", str(TYPESCRIPT), "--outDir", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    (tmp_path / "package.json").write_text(json.dumps({"type": "module"}), encoding="utf-8")
    (tmp_path / "node_modules").symlink_to(TYPESCRIPT / "node_modules")
    ran = subprocess.run(
        ["node", str(tmp_path / "test/smoke.js")],
        env={**os.environ, "BASE_URL": base_url},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "typescript client: 4 calls passed" in ran.stdout


@pytest.mark.parametrize("check", SMOKE.CHECKS, ids=lambda check: check.__name__)
def test_python_client_calls_the_service(base_url: str, check: Callable[[Client], None]) -> None:
    with Client(base_url, timeout=60) as client:
        check(client)


def test_python_client_type_checks() -> None:
    # The project's mypy settings (strict, the pydantic plugin), over the smoke file and the
    # package it imports.
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            ".mypy_cache/clients",
            str(PYTHON / "smoke.py"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_method_names_follow_the_paths() -> None:
    assert clients.method_name("post", "/v1/four-d8/check/odds") == "four_d8_check_odds"
    assert clients.method_name("get", "/v1/systems") == "get_systems"
    assert clients.method_name("get", "/v1/foresight/tables/hit-location") == (
        "get_foresight_tables_hit_location"
    )
    assert clients.method_name("post", "/v1/close") == "op_close"


def _generated(document: dict[str, Any]) -> Any:
    namespace: dict[str, Any] = {}
    exec(compile(clients.python_client(document, {}), "client.py", "exec"), namespace)
    return namespace["Client"]


def test_parameters_and_a_text_answer_reach_the_wire() -> None:
    parameters = [
        {"name": "slug", "in": "path", "required": True, "schema": {"type": "string"}},
        {"name": "limit", "in": "query", "schema": {"type": "integer"}},
        {"name": "kind", "in": "query", "required": True, "schema": {"enum": ["a", "b"]}},
        {"$ref": "#/components/parameters/Trace"},
    ]
    trace = {"name": "X-Trace-Id", "in": "header", "schema": {"type": "string"}}
    ok = {"200": {"description": "OK", "content": {"text/plain": {"schema": {"type": "string"}}}}}
    document = {
        "paths": {"/v1/things/{slug}": {"get": {"parameters": parameters, "responses": ok}}},
        "components": {"parameters": {"Trace": trace}},
    }
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, text="fine")

    http = httpx.Client(base_url="http://service", transport=httpx.MockTransport(answer))
    client = _generated(document)("http://service", http=http)
    assert client.get_things_slug(slug="a b/c", kind="a", x_trace_id="t-1") == "fine"
    (request,) = seen
    assert request.url.raw_path == b"/v1/things/a%20b%2Fc?kind=a"
    assert request.headers["x-trace-id"] == "t-1"


def test_what_the_generator_cannot_express_is_named() -> None:
    cookie = {"name": "session", "in": "cookie", "schema": {"type": "string"}}
    document = {"paths": {"/v1/me": {"get": {"parameters": [cookie], "responses": {}}}}}
    with pytest.raises(clients.UnsupportedError, match=r"GET /v1/me: a parameter in cookie"):
        clients.python_client(document, {})
    twins: dict[str, Any] = {
        "/v1/a-b": {"post": {"responses": {}}},
        "/v1/a/b": {"post": {"responses": {}}},
    }
    with pytest.raises(clients.UnsupportedError, match="a second operation would be named a_b"):
        clients.python_client({"paths": twins}, {})
