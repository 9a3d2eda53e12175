"""Operations endpoints and observability: /healthz, /metrics (Prometheus text) and one JSON
log record per request."""

import asyncio
import json
import logging
import re
import sys
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.observability import AccessLog, JsonFormatter
from service.settings import Settings


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as client:
        yield client


def requests_total(text: str, route: str, method: str, status: int) -> int:
    """The value of one adjudicator_requests_total series (0 when it is absent)."""
    labels = f'route="{route}",method="{method}",status="{status}"'
    series = f"adjudicator_requests_total{{{labels}}} "
    values = [line.removeprefix(series) for line in text.splitlines() if line.startswith(series)]
    assert len(values) <= 1
    return int(values[0]) if values else 0


def metrics(client: TestClient) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200
    return response.text


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {"status": "ok"}


def test_metrics_is_prometheus_text(client):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    lines = response.text.splitlines()
    assert "# TYPE adjudicator_requests_total counter" in lines
    assert "# TYPE adjudicator_request_duration_seconds histogram" in lines
    for line in lines:
        if not line.startswith("#"):
            assert re.fullmatch(r"[a-z_]+(\{[^}]*\})? [0-9.e+-]+", line), line


def test_requests_are_counted_by_route_and_status(client):
    before = metrics(client)
    client.post("/v1/four-d8/check", json={"ease": 20, "dice": {"seed": 1}})
    client.post("/v1/four-d8/check", json={"ease": 20, "dice": {"seed": 2}})
    client.post("/v1/four-d8/check", json={"ease": 33})
    after = metrics(client)
    route = "/v1/four-d8/check"
    assert (
        requests_total(after, route, "POST", 200) == requests_total(before, route, "POST", 200) + 2
    )
    assert (
        requests_total(after, route, "POST", 422) == requests_total(before, route, "POST", 422) + 1
    )
    assert requests_total(after, "/metrics", "GET", 200) >= 1
    count = f'adjudicator_request_duration_seconds_count{{route="{route}"}} 3'
    assert count in after.splitlines()


def test_unmatched_routes_share_one_label(client):
    client.get("/nowhere")
    client.post("/v1/four-d8/nope", json={})
    client.get("/v1/systems/elsewhere")
    text = metrics(client)
    assert requests_total(text, "unmatched", "GET", 404) == 2
    assert requests_total(text, "unmatched", "POST", 404) == 1
    for path in ("/nowhere", "/v1/four-d8/nope", "/v1/systems/elsewhere"):
        assert f'route="{path}"' not in text


def test_cache_counters_are_exported(client):
    client.post("/v1/four-d8/check/odds", json={"ease": 18})
    client.post("/v1/four-d8/check/odds", json={"ease": 18})
    lines = metrics(client).splitlines()
    assert "adjudicator_cache_misses_total 1" in lines
    assert "adjudicator_cache_hits_total 1" in lines
    assert "adjudicator_redis_fallbacks_total 0" in lines


def test_one_log_line_per_request():
    writes: list[bytes] = []
    app = build_app(Settings(log_requests=True), MemoryCache(), access_log=AccessLog(writes.append))
    with TestClient(app) as client:
        ok = client.post("/v1/four-d8/check", json={"ease": 20, "dice": {"seed": 7}})
        bad = client.post("/v1/four-d8/check", json={"ease": 33}, headers={"x-request-id": "r-1"})
        missing = client.get("/nowhere")
    assert all(write.endswith(b"\n") for write in writes)  # whole lines, flushed at shutdown
    entries = [json.loads(line) for line in b"".join(writes).splitlines()]
    expected = [
        (ok.headers["x-request-id"], "POST", "/v1/four-d8/check", 200),
        ("r-1", "POST", "/v1/four-d8/check", 422),
        (missing.headers["x-request-id"], "GET", "/nowhere", 404),
    ]
    assert bad.headers["x-request-id"] == "r-1"
    assert [(e["request_id"], e["method"], e["path"], e["status"]) for e in entries] == expected
    for entry in entries:
        assert (entry["level"], entry["logger"], entry["msg"]) == ("info", "adjudicator", "request")
        assert isinstance(entry["duration_ms"], float)
        assert entry["duration_ms"] >= 0
        assert isinstance(entry["ts"], float)


@pytest.mark.parametrize(
    ("log_requests", "level", "logged"),
    [(False, "INFO", False), (True, "WARNING", False), (True, "debug", True)],
)
def test_request_lines_follow_the_settings(log_requests, level, logged):
    writes: list[bytes] = []
    settings = Settings(log_requests=log_requests, log_level=level)
    with TestClient(build_app(settings, MemoryCache(), access_log=AccessLog(writes.append))) as c:
        c.get("/healthz")
    assert len(b"".join(writes).splitlines()) == (1 if logged else 0)


def test_access_lines_are_written_in_batches_of_whole_lines():
    """Under an event loop lines wait: at most 4 KiB of whole lines per write, and what
    waits is written 50 ms after the first line at the latest."""
    writes: list[bytes] = []
    log = AccessLog(writes.append)

    async def serve() -> None:
        for i in range(100):
            log.request(f"r-{i}", "GET", "/healthz", 200, 0.001)
        assert 0 < len(writes) < 100
        await asyncio.sleep(0.2)

    asyncio.run(serve())
    assert all(len(write) <= 4096 and write.endswith(b"\n") for write in writes)
    lines = b"".join(writes).splitlines()
    assert [json.loads(line)["request_id"] for line in lines] == [f"r-{i}" for i in range(100)]


def test_a_waiting_line_is_written_without_more_traffic():
    writes: list[bytes] = []
    log = AccessLog(writes.append)

    async def serve() -> None:
        log.request("alone", "GET", "/healthz", 200, 0.001)
        assert writes == []
        await asyncio.sleep(0.2)
        assert len(writes) == 1

    asyncio.run(serve())


def test_access_log_writes_whole_lines_to_stderr(capfd):
    AccessLog().request("abc", "GET", "/healthz", 200, 0.0012345)
    entry = json.loads(capfd.readouterr().err)
    assert entry["request_id"] == "abc"
    assert entry["duration_ms"] == 1.234  # to the microsecond, as JsonFormatter's ts


def test_a_broken_stderr_loses_the_line_not_the_request(monkeypatch):
    def broken(fd: int, data: bytes) -> int:
        raise BrokenPipeError(fd, "stderr is gone")

    monkeypatch.setattr("service.observability.os.write", broken)
    with TestClient(build_app(Settings(log_requests=True), MemoryCache())) as client:
        assert client.get("/healthz").status_code == 200


def test_json_formatter_renders_one_object_per_line():
    record = logging.makeLogRecord(
        {
            "name": "adjudicator",
            "levelno": logging.INFO,
            "levelname": "INFO",
            "msg": "request %s",
            "args": ("done",),
            "created": 1700000000.1234567,
            "request_id": "abc",
            "status": 200,
            "duration_ms": 1.5,
            "path": "/v1/four-d8/check",
            "odd": object(),
        }
    )
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["ts"] == 1700000000.123457
    assert entry["level"] == "info"
    assert entry["logger"] == "adjudicator"
    assert entry["msg"] == "request done"
    assert entry["request_id"] == "abc"
    assert entry["status"] == 200
    assert entry["duration_ms"] == 1.5
    assert entry["path"] == "/v1/four-d8/check"
    assert entry["odd"].startswith("<object object")  # unserialisable extras become text
    assert "exc" not in entry


def test_json_formatter_includes_the_exception():
    try:
        raise ValueError("boom")
    except ValueError:
        exc_info = sys.exc_info()
    record = logging.LogRecord("adjudicator", logging.ERROR, __file__, 1, "failed", None, exc_info)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["level"] == "error"
    assert entry["msg"] == "failed"
    assert "ValueError: boom" in entry["exc"]
