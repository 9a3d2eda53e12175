"""What starting the service makes and what waits for a first request: GraphQL is imported
and its schema built by the first GraphQL request (`Lazy`), once, however many arrive
together; models are built on first use; documents and tables are written when asked."""

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.responses import Response
from starlette.testclient import TestClient

import service.graphql
import service.graphql_schema
from service.app import build_app
from service.cache import MemoryCache
from service.lazy import Lazy
from service.settings import Settings

QUERY = {"query": "{ fourD8 { check(input: {ease: 20, dice: {seed: 7}}) { success } } }"}


def test_rest_answers_before_the_graphql_schema_is_built(monkeypatch):
    built: list[object] = []
    real = service.graphql.served_schema

    def served_schema(*args: Any) -> Any:
        built.append(real(*args))
        return built[-1]

    monkeypatch.setattr(service.graphql, "served_schema", served_schema)
    with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as client:
        rest = client.post("/v1/four-d8/check", json={"ease": 20, "dice": {"seed": 7}})
        assert rest.status_code == 200
        assert not built
        first = client.post("/graphql", json=QUERY)
        again = client.post("/graphql", json=QUERY)
    assert len(built) == 1
    success = rest.json()["success"]
    assert first.json() == again.json() == {"data": {"fourD8": {"check": {"success": success}}}}


def test_the_schema_is_made_by_strawberry_in_a_child_process(monkeypatch, tmp_path):
    """Strawberry's build runs in a forked child (`served_schema`), whose memory goes back to
    the system when it exits; this process loads the result and answers with its own
    resolvers, enums and defaults included."""
    made_by = tmp_path / "pid"
    real = service.graphql_schema.build_schema

    def build_schema(*args: Any) -> Any:
        made_by.write_text(str(os.getpid()))
        return real(*args)

    monkeypatch.setattr(service.graphql_schema, "build_schema", build_schema)
    query = """{ fourD8 { check(input: {ease: 20, options: {snakeEyesDegree: ONE}, dice: {seed: 7}})
        { mode success } } }"""
    with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as client:
        answer = client.post("/graphql", json={"query": query})
        rest = client.post("/v1/four-d8/check", json={"ease": 20, "dice": {"seed": 7}}).json()
    assert int(made_by.read_text()) != os.getpid()
    check = answer.json()["data"]["fourD8"]["check"]
    assert check == {"mode": rest["mode"].upper(), "success": rest["success"]}


def test_requests_that_arrive_together_share_one_build():
    builds: list[threading.Thread] = []
    app = Response(b"built")

    def slow() -> Response:
        builds.append(threading.current_thread())
        time.sleep(0.2)  # long enough for every caller to arrive meanwhile
        return app

    lazy = Lazy(slow)
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda _: lazy.prepare(), range(4)))
    assert answers == [app] * 4
    assert len(builds) == 1


STARTS = """
import sys
from service.app import build_app
from service.cache import MemoryCache
from service.rules.registry import load
from service.settings import Settings

build_app(Settings(log_requests=False), MemoryCache())
print(sorted({name.split(".")[0] for name in sys.modules} & {"strawberry", "graphql"}))
"""


def test_a_fresh_process_builds_the_app_without_graphql():
    """Startup does not pay for GraphQL until a GraphQL request needs it (run apart: this
    session has long since imported it)."""
    run = subprocess.run([sys.executable, "-c", STARTS], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[1])  # fmt: skip
    assert run.stdout.splitlines() == ["[]"]


ANSWERS = """
import sys
from starlette.testclient import TestClient
from service.app import build_app
from service.cache import MemoryCache
from service.settings import Settings

query = "{ fourD8 { check(input: {ease: 20}) { success } } }"
with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as client:
    answer = client.post("/graphql", json={"query": query})
assert answer.json()["data"]["fourD8"]["check"]["success"] in (True, False), answer.text
print(sorted({name.split(".")[0] for name in sys.modules} & {"strawberry", "graphql"}))
"""


def test_a_fresh_process_answers_graphql_without_importing_strawberry():
    """Strawberry makes the schema in a child (`served_schema`); the serving process loads
    it and answers with graphql-core alone, never holding Strawberry's modules."""
    run = subprocess.run([sys.executable, "-c", ANSWERS], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[1])  # fmt: skip
    assert run.stdout.splitlines() == ["['graphql']"]
