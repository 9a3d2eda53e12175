"""The app with its Redis cache: odds are stored under the documented key and served from Redis,
and a Redis that dies and comes back costs no errors (DESIGN.md "Odds and the cache").

Runs against the suite's own redis-server (the `redis_server` fixture), never port 6379. The
circuit breaker's clock is injected, so no test sleeps.
"""

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache, RedisCache, make_cache
from service.rules import RULES_VERSION
from service.rules.registry import load
from service.settings import Settings
from tests.redis_server import RedisServer

ODDS = "/v1/four-d8/check/odds"
RETRY_AFTER = 1.0
MARKER = b'{"marker": "served from redis"}'


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def cache(redis_server: RedisServer, clock: FakeClock) -> RedisCache:
    return RedisCache(redis_server.url, timeout=0.05, retry_after=RETRY_AFTER, clock=clock)


@pytest.fixture
def client(cache: RedisCache) -> Iterator[TestClient]:
    with TestClient(build_app(Settings(log_requests=False), cache)) as client:
        yield client


@pytest.fixture
def store(redis_server: RedisServer) -> Iterator[redis.Redis]:
    """A plain client on the test server, to look behind the app's back."""
    with redis.Redis.from_url(redis_server.url) as client:
        yield client


def odds_key(fields: dict[str, Any]) -> str:
    """The cache key the check operation gives this odds request."""
    check = next(op for op in load().system("four-d8").operations if op.name == "check")
    assert check.odds_request_model is not None
    request = check.odds_request_model.model_validate_json(json.dumps(fields))
    return check.cache_key(request)


def metric(text: str, name: str) -> float:
    [value] = [line.split()[-1] for line in text.splitlines() if line.startswith(name + " ")]
    return float(value)


def success(response: Any) -> str:
    assert response.status_code == 200, response.text
    return response.json()["summary"]["success"]["exact"]


def test_readyz_with_the_memory_cache():
    with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as client:
        response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ready",
        "rules_version": RULES_VERSION,
        "cache": {"backend": "memory", "reachable": True, "full": False},
    }


@pytest.mark.redis
def test_odds_are_stored_in_redis_and_served_from_it(client, cache, store):
    key = odds_key({"ease": 18})
    prefix = re.escape(f"adjudicator:{RULES_VERSION}:four-d8:check:")
    assert re.fullmatch(prefix + "[0-9a-f]{64}", key)
    assert store.keys("*") == []

    first = client.post(ODDS, json={"ease": 18})
    assert success(first) == "555/1024"
    assert (cache.stats.hits, cache.stats.misses) == (0, 1)
    assert store.keys("*") == [key.encode()]
    assert store.get(key) == first.content
    assert 0 < store.ttl(key) <= 7 * 24 * 3600

    second = client.post(ODDS, json={"ease": 18})
    assert second.content == first.content
    assert (cache.stats.hits, cache.stats.misses) == (1, 1)

    # The same input with its defaults spelled out has the same key.
    spelled_out = {"ease": 18, "over32_mode": "bonus", "options": {"combo_precedence": "shape"}}
    assert odds_key(spelled_out) == key

    store.set(key, MARKER)
    third = client.post(ODDS, json=spelled_out)
    assert third.status_code == 200
    assert third.content == MARKER  # Redis answered, nothing was recomputed
    assert (cache.stats.hits, cache.stats.misses, cache.stats.fallbacks) == (2, 1, 0)


@pytest.mark.redis
def test_a_full_redis_costs_writes_not_reads(client, cache, store, clock):
    """Under `noeviction` a full Redis refuses each SET with OOM and still answers GETs: the
    tables in it keep being served, the new ones are computed and not stored, and /readyz
    and /metrics say Redis is full. Once it has room, a write after `retry_after` lands."""
    stored = odds_key({"ease": 18})
    store.set(stored, MARKER)
    store.config_set("maxmemory-policy", "noeviction")
    store.config_set("maxmemory", 1)  # below what Redis already uses: full

    fresh = client.post(ODDS, json={"ease": 20})
    assert fresh.status_code == 200
    assert store.get(odds_key({"ease": 20})) is None  # refused
    assert client.post(ODDS, json={"ease": 18}).content == MARKER  # reads still served
    assert client.post(ODDS, json={"ease": 21}).status_code == 200  # not even tried
    assert (cache.stats.hits, cache.stats.refused_writes, cache.stats.fallbacks) == (1, 2, 0)
    assert client.get("/readyz").json()["cache"] == {
        "backend": "redis",
        "reachable": True,
        "full": True,
    }
    text = client.get("/metrics").text
    assert metric(text, "adjudicator_redis_full") == 1
    assert metric(text, "adjudicator_redis_refused_writes_total") == 2

    store.config_set("maxmemory", 0)
    clock.now += RETRY_AFTER + 0.01
    assert client.post(ODDS, json={"ease": 20}).content == fresh.content
    assert store.get(odds_key({"ease": 20})) == fresh.content
    assert client.get("/readyz").json()["cache"]["full"] is False
    assert metric(client.get("/metrics").text, "adjudicator_redis_full") == 0


@pytest.mark.redis
def test_redis_entries_expire_as_configured(redis_server, store):
    cache = make_cache(redis_server.url, max_bytes=1024, timeout=0.05, ttl_seconds=120)
    with TestClient(build_app(Settings(log_requests=False), cache)) as client:
        assert client.post(ODDS, json={"ease": 18}).status_code == 200
    assert 110 <= store.ttl(odds_key({"ease": 18})) <= 120


@pytest.mark.redis
def test_a_dead_redis_costs_no_errors_and_a_restarted_one_is_used_again(
    client, cache, store, redis_server, clock
):
    eases = range(3, 33)
    with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as memory:
        expected = {ease: success(memory.post(ODDS, json={"ease": ease})) for ease in eases}
    assert expected[18] == "555/1024"

    assert success(client.post(ODDS, json={"ease": 18})) == "555/1024"
    assert store.get(odds_key({"ease": 18})) is not None

    redis_server.stop()
    for ease in eases:
        assert success(client.post(ODDS, json={"ease": ease})) == expected[ease]
    # Every get and every set of the 30 requests missed Redis: the first get failed and opened
    # the breaker, which the frozen clock keeps open.
    assert cache.stats.fallbacks == 2 * len(eases)
    assert cache.stats.misses == 1 + len(eases)
    text = client.get("/metrics").text
    assert metric(text, "adjudicator_redis_fallbacks_total") == 2 * len(eases)
    assert metric(text, "adjudicator_cache_misses_total") == 1 + len(eases)

    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["cache"] == {
        "backend": "redis",
        "reachable": False,
        "full": False,
        "error": "unreachable",
        "detail": f"[Errno 111] Connect call failed ('127.0.0.1', {redis_server.port})",
    }

    redis_server.start()  # empty again, on the same port
    ready = client.get("/readyz").json()["cache"]
    assert ready == {"backend": "redis", "reachable": True, "full": False}
    fresh = {"ease": 30, "other_modifiers": [5]}
    assert success(client.post(ODDS, json=fresh)) == "4095/4096"  # bonus roll, D:L54
    with redis.Redis.from_url(redis_server.url) as restarted:
        assert restarted.keys("*") == []  # the breaker is still open

        clock.now += RETRY_AFTER + 0.01
        assert success(client.post(ODDS, json=fresh)) == "4095/4096"
        assert restarted.get(odds_key(fresh)) is not None
    assert cache.stats.fallbacks == 2 * len(eases) + 2
