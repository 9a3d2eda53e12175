"""The garbage collector's tuning is a setting: GC_THRESHOLDS and GC_FREEZE, applied by
`create_app` once the app is built."""

import gc
import subprocess
import sys
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

import service.app
import service.graphql
import service.graphql_schema
from service.app import build_app, create_app, tune_garbage_collector
from service.cache import MemoryCache
from service.lazy import Lazy, freeze_builds
from service.settings import Settings
from tests.definitions import strawberry_definitions


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector as the test found it, afterwards."""
    thresholds = gc.get_threshold()
    frozen = gc.get_freeze_count()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        freeze_builds(frozen > 0)
        if frozen == 0:
            gc.unfreeze()


def test_the_defaults():
    settings = Settings()
    assert settings.gc_thresholds == (10_000, 10, 10)
    assert settings.gc_freeze is True


def test_the_thresholds_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("GC_THRESHOLDS", " 5000, 20,30 ")
    monkeypatch.setenv("GC_FREEZE", "false")
    settings = Settings()
    assert settings.gc_thresholds == (5000, 20, 30)
    assert settings.gc_freeze is False


@pytest.mark.parametrize("thresholds", ["0,10,10", "700,10", "700,10,10,10", "700,0,10", "a,b,c"])
def test_thresholds_that_would_harm_are_refused(monkeypatch, thresholds):
    """0 turns automatic collection off; three generations take three thresholds."""
    monkeypatch.setenv("GC_THRESHOLDS", thresholds)
    with pytest.raises(ValidationError, match="gc_thresholds"):
        Settings()


@pytest.mark.usefixtures("collector")
def test_the_thresholds_are_set():
    tune_garbage_collector(Settings(gc_thresholds=(1234, 5, 6), gc_freeze=False))
    assert gc.get_threshold() == (1234, 5, 6)


@pytest.mark.usefixtures("collector")
@pytest.mark.parametrize("freeze", [True, False])
def test_freezing_follows_the_setting(freeze):
    gc.unfreeze()
    kept = [object()]  # something alive to freeze
    tune_garbage_collector(Settings(gc_freeze=freeze))
    assert (gc.get_freeze_count() > 0) is freeze
    assert kept
    gc.unfreeze()
    Lazy(lambda: kept).prepare()  # what a build makes is frozen in turn, or not
    assert (gc.get_freeze_count() > 0) is freeze


@pytest.mark.usefixtures("collector")
def test_create_app_applies_the_environment(monkeypatch):
    built: list[Settings] = []

    def build_app(settings: Settings, cache: Any) -> Any:
        built.append(settings)
        return "app"

    monkeypatch.setattr(service.app, "build_app", build_app)
    monkeypatch.setattr(service.app, "configure_logging", lambda level: None)
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("GC_THRESHOLDS", "4321,7,8")
    monkeypatch.setenv("GC_FREEZE", "false")
    gc.unfreeze()
    assert create_app() == "app"
    assert built[0].gc_thresholds == (4321, 7, 8)
    assert gc.get_threshold() == (4321, 7, 8)
    assert gc.get_freeze_count() == 0


@pytest.mark.usefixtures("collector")
def test_what_the_graphql_build_lets_go_is_collected_before_it_is_frozen(monkeypatch):
    """The schema is built after startup's freeze and frozen in turn. Where it is made in
    this process (no child could make it: `served_schema`), Strawberry's part of it, let go
    once built (`graphql_internals.detach`), must be collected first, or the freeze keeps it
    for good."""
    definitions: list[weakref.ref[Any]] = []
    real = service.graphql_schema.build_schema

    def build_schema(*args: Any) -> Any:
        schema = real(*args)
        definitions.extend(strawberry_definitions(schema))
        return schema

    monkeypatch.setattr(service.graphql_schema, "build_schema", build_schema)
    monkeypatch.setattr(service.graphql, "made_apart", lambda make, timeout: None)
    app = build_app(Settings(log_requests=False), MemoryCache())
    tune_garbage_collector(Settings(gc_freeze=True))  # as create_app does
    with TestClient(app) as client:
        answer = client.post(
            "/graphql", json={"query": "{ fourD8 { check(input: {ease: 20}) { success } } }"}
        )
    assert answer.status_code == 200, answer.text
    assert len(definitions) > 1000
    assert sum(d() is not None for d in definitions) < len(definitions) / 10


_ARENAS = """
import ctypes, os, sys, tempfile, threading
from service.app import tune_allocator
if sys.argv[1] == "tuned":
    tune_allocator()
libc = ctypes.CDLL("libc.so.6")
held = []
def allocate():
    held.extend(bytes(1024 + i % 7) for i in range(2000))  # past pymalloc: from malloc
threads = [threading.Thread(target=allocate) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
descriptor, path = tempfile.mkstemp()
os.close(descriptor)
libc.fopen.restype = ctypes.c_void_p
out = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, ctypes.c_void_p(out))
libc.fclose(ctypes.c_void_p(out))
print(open(path).read().count("<heap nr="))
os.unlink(path)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="glibc's malloc")
@pytest.mark.parametrize(("mode", "one_arena"), [("tuned", True), ("untuned", False)])
def test_threads_share_one_malloc_arena(mode, one_arena):
    """Threads allocating at once each take an arena of their own, unless tuned."""
    arenas = subprocess.run(
        [sys.executable, "-c", _ARENAS, mode], capture_output=True, text=True, check=True
    ).stdout
    assert (int(arenas) == 1) is one_arena
