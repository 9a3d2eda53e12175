"""PREPARE_ON_START: a replica makes what first use would make, in the background, and is not
ready until it has (service/prepare.py)."""

import logging
import threading
import time
from collections.abc import Callable

import pytest
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.lazy import Lazy
from service.prepare import Preparation
from service.rules.registry import load
from service.settings import Settings

REGISTRY = load()


def ok() -> Response:
    return Response(b"{}", media_type="application/json")


def until(condition: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.01)


def test_it_is_ready_once_every_lazy_endpoint_is_made(caplog):
    gate = threading.Event()
    made: list[str] = []

    def slow() -> Response:
        gate.wait(30)
        made.append("slow")
        return ok()

    def quick() -> Response:
        made.append("quick")
        return ok()

    async def plain(request: object) -> Response:
        return ok()

    routes = [Route("/slow", Lazy(slow)), Route("/plain", plain), Route("/quick", Lazy(quick))]
    preparation = Preparation(routes)
    with caplog.at_level(logging.INFO, logger="adjudicator"):
        preparation.start()
        time.sleep(0.05)
        assert not preparation.ready
        assert made == []
        gate.set()
        until(lambda: preparation.ready)
        until(lambda: any(r.msg == "prepared" for r in caplog.records))
    assert made == ["slow", "quick"]
    [logged] = [r for r in caplog.records if r.msg == "prepared"]
    assert vars(logged)["made"] == 2
    assert vars(logged)["seconds"] >= 0.05  # the gate held it that long


def test_one_that_fails_is_logged_and_left_to_its_first_request(caplog):
    made: list[str] = []

    def broken() -> Response:
        raise RuntimeError("no schema today")

    def quick() -> Response:
        made.append("quick")
        return ok()

    broken_lazy = Lazy(broken)
    preparation = Preparation([Route("/broken", broken_lazy), Route("/quick", Lazy(quick))])
    with caplog.at_level(logging.ERROR, logger="adjudicator"):
        preparation.start()
        until(lambda: preparation.ready)
    assert made == ["quick"]
    assert "no schema today" in caplog.text
    with pytest.raises(RuntimeError):
        broken_lazy.prepare()  # still made by its first request, which fails the same way


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, list[Lazy]]:
    """Lazy endpoints record being made, once a gate opens, and make nothing: what they make
    is tested by their first requests elsewhere."""
    gate = threading.Event()
    made: list[Lazy] = []

    def prepare(self: Lazy) -> Response:
        gate.wait(30)
        made.append(self)
        return ok()

    monkeypatch.setattr(Lazy, "prepare", prepare)
    return gate, made


def test_a_prepared_service_answers_preparing_until_its_documents_are_made(recorded):
    gate, made = recorded
    settings = Settings(prepare_on_start=True, log_requests=False)
    with TestClient(build_app(settings, MemoryCache(), REGISTRY)) as client:
        preparing = client.get("/readyz")
        answered = client.post("/v1/four-d8/check", json={"ease": 20})
        gate.set()
        until(lambda: client.get("/readyz").status_code == 200)
    assert preparing.status_code == 503
    assert preparing.json()["status"] == "preparing"
    assert answered.status_code == 200  # not ready means no new traffic, not no answers
    # The catalogue, each system's entry and table, the GraphQL schema and the explorers'.
    tables = sum(len(system.tables) for system in REGISTRY.systems)
    assert len(made) == 1 + len(REGISTRY.systems) + tables + 1 + 2
    assert len(set(map(id, made))) == len(made)


def test_by_default_nothing_is_made_before_it_is_asked_for(recorded):
    gate, made = recorded
    gate.set()
    with TestClient(build_app(Settings(log_requests=False), MemoryCache(), REGISTRY)) as client:
        ready = client.get("/readyz")
        time.sleep(0.1)
    assert ready.status_code == 200
    assert made == []
