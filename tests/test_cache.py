import asyncio
import socket
import time
from collections.abc import Callable

import pytest
import redis

from service.cache import CacheStats, MemoryCache, RedisCache, cached, make_cache
from tests.redis_server import RedisServer

KEY = "adjudicator:1:four_d8:check:" + "ab" * 32
TABLE = b'{"outcomes":[[1,2]]}'


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Compute:
    """A `compute` callback that counts its calls."""

    def __init__(self, value: bytes = TABLE) -> None:
        self.value = value
        self.calls = 0

    def __call__(self) -> bytes:
        self.calls += 1
        return self.value


def stats(hits: int, misses: int, fallbacks: int) -> CacheStats:
    return CacheStats(hits=hits, misses=misses, fallbacks=fallbacks)


def in_redis(server: RedisServer, key: str) -> bytes | None:
    with redis.Redis.from_url(server.url) as client:
        value = client.get(key)
    assert value is None or isinstance(value, bytes)
    return value


# In memory


def test_memory_cache_evicts_the_least_recently_used_entry() -> None:
    async def scenario() -> None:
        cache = MemoryCache(max_entries=2)
        await cache.set("a", b"1")
        await cache.set("b", b"2")
        assert await cache.get("a") == b"1"  # now "b" is the least recently used
        await cache.set("c", b"3")
        assert await cache.get("b") is None
        assert await cache.get("a") == b"1"
        assert await cache.get("c") == b"3"
        await cache.close()

    asyncio.run(scenario())


def test_memory_cache_rejects_an_empty_bound() -> None:
    with pytest.raises(ValueError, match="max_entries"):
        MemoryCache(max_entries=0)


def test_cached_computes_once_then_hits() -> None:
    async def scenario() -> None:
        cache = MemoryCache()
        compute = Compute()
        assert await cached(cache, KEY, compute) == TABLE
        assert await cached(cache, KEY, compute) == TABLE
        assert compute.calls == 1
        assert cache.stats == stats(hits=1, misses=1, fallbacks=0)
        assert await cache.ping() is True
        await cache.close()

    asyncio.run(scenario())


def test_cached_counts_evicted_entries_as_misses() -> None:
    async def scenario() -> None:
        cache = MemoryCache(max_entries=1)
        compute = Compute()
        await cached(cache, "a", compute)
        await cached(cache, "b", compute)
        await cached(cache, "a", compute)
        assert compute.calls == 3
        assert cache.stats == stats(hits=0, misses=3, fallbacks=0)

    asyncio.run(scenario())


@pytest.mark.parametrize("url", [None, ""])
def test_make_cache_without_redis_is_in_memory(url: str | None) -> None:
    cache = make_cache(url, max_entries=10, timeout=0.05)
    assert isinstance(cache, MemoryCache)
    assert cache.backend == "memory"


def test_make_cache_with_redis() -> None:
    async def scenario() -> None:
        cache = make_cache("redis://127.0.0.1:1/0", max_entries=10, timeout=0.05)
        assert isinstance(cache, RedisCache)
        assert cache.backend == "redis"
        await cache.close()

    asyncio.run(scenario())


# Against a real redis-server


@pytest.mark.redis
def test_redis_roundtrip_under_the_exact_key_with_a_ttl(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        cache = RedisCache(redis_server.url, ttl_seconds=3600)
        assert await cache.get(KEY) is None
        await cache.set(KEY, TABLE)
        assert await cache.get(KEY) == TABLE
        assert cache.stats == stats(hits=0, misses=0, fallbacks=0)
        await cache.close()

    asyncio.run(scenario())
    assert in_redis(redis_server, KEY) == TABLE
    with redis.Redis.from_url(redis_server.url) as client:
        assert client.keys("*") == [KEY.encode()]
        assert 3590 < client.ttl(KEY) <= 3600


@pytest.mark.redis
def test_redis_is_shared_between_caches(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        first, second = RedisCache(redis_server.url), RedisCache(redis_server.url)
        compute = Compute()
        assert await cached(first, KEY, compute) == TABLE
        assert await cached(second, KEY, compute) == TABLE
        assert compute.calls == 1
        assert first.stats == stats(hits=0, misses=1, fallbacks=0)
        assert second.stats == stats(hits=1, misses=0, fallbacks=0)
        await first.close()
        await second.close()

    asyncio.run(scenario())


@pytest.mark.redis
def test_dead_redis_costs_no_errors_and_is_skipped(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        cache = RedisCache(redis_server.url, clock=FakeClock())
        await cached(cache, KEY, Compute())  # a pooled connection, about to break
        redis_server.stop()
        compute = Compute(b"fresh")
        for _ in range(20):
            assert await cached(cache, KEY, compute) == b"fresh"
        assert compute.calls == 20
        # The first get fails and opens the breaker; every later get and set is skipped.
        assert cache.stats == stats(hits=0, misses=21, fallbacks=40)
        assert await cache.ping() is False
        await cache.close()

    started = time.monotonic()
    asyncio.run(scenario())
    assert time.monotonic() - started < 2.0


@pytest.mark.redis
def test_restarted_redis_is_used_again_after_retry_after(redis_server: RedisServer) -> None:
    clock = FakeClock()

    async def scenario() -> None:
        cache = RedisCache(redis_server.url, retry_after=1.0, clock=clock)
        assert await cache.ping() is True
        redis_server.stop()
        assert await cached(cache, KEY, Compute()) == TABLE
        assert cache.stats == stats(hits=0, misses=1, fallbacks=2)
        assert await cache.ping() is False

        redis_server.start()
        assert await cache.ping() is True  # readiness ignores the breaker
        assert await cached(cache, KEY, Compute()) == TABLE
        assert in_redis(redis_server, KEY) is None  # still skipped: the breaker is open
        assert cache.stats == stats(hits=0, misses=2, fallbacks=4)

        clock.now += 1.0
        assert await cached(cache, KEY, Compute()) == TABLE
        assert in_redis(redis_server, KEY) == TABLE
        compute = Compute()
        assert await cached(cache, KEY, compute) == TABLE
        assert compute.calls == 0
        assert cache.stats == stats(hits=1, misses=3, fallbacks=4)
        await cache.close()

    asyncio.run(scenario())


def test_hanging_redis_costs_one_timeout_not_one_per_call() -> None:
    # A socket that listens but never answers: the kernel completes the TCP
    # handshake, so the client connects and then waits for replies forever.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        port = listener.getsockname()[1]

        async def scenario() -> CacheStats:
            cache = RedisCache(f"redis://127.0.0.1:{port}/0", timeout=0.2, retry_after=60)
            compute: Callable[[], bytes] = Compute()
            for _ in range(20):
                assert await cached(cache, KEY, compute) == TABLE
            assert await cache.ping() is False
            await cache.close()
            return cache.stats

        started = time.monotonic()
        result = asyncio.run(scenario())
        elapsed = time.monotonic() - started

    # Without the breaker this would be 40 timeouts of 0.2 s (8 s) plus the ping.
    assert elapsed < 2.0
    assert result == stats(hits=0, misses=20, fallbacks=40)
