"""Caches for exact probability tables (serialised JSON bytes).

A table is a pure function of its key, so a cache can only ever save time: any
value it returns is one we could compute again, and losing it costs nothing but
the computation. That is why Redis is an optimisation here and never a
dependency. A slow, full, unreachable or restarted Redis must cost latency, not
errors:

* every Redis call, connecting included, is bounded by a short `asyncio.timeout`
  and never retried, after which we compute locally or skip the write;
* after any Redis failure a circuit breaker skips Redis entirely for
  `retry_after` seconds, so a dead Redis does not add a timeout to every
  request, and then tries again, so a restarted Redis is used again.

Redis is spoken to by `service.resp`, a small client of our own (RESP2 over asyncio
streams, a LIFO pool of idle connections), not by redis-py: a GET of a 3 KB table cost
about 50 µs of CPU in redis-py (pool locks, connection health checks, retry and
deprecation wrappers, event listeners) against 17 µs on a bare stream, which made
the service 40% slower with Redis than with the in-memory cache under load. The
cache needs only GET, SET with EX, and PING. With our client a `RedisCache.get` of
3 KB costs about 27 µs of CPU instead of 61 µs (about 7 µs of it is `asyncio.timeout`).
A call that fails or times out closes its connection, so a late reply is never read
as the answer to the next command.

Without Redis the service uses a bounded in-process LRU (`MemoryCache`).
Keys are built by the caller (`adjudicator:<rules_version>:<system>:<operation>:<sha256>`);
the cache treats them as opaque strings.
"""

import asyncio
import contextlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from service.lru import LRU
from service.resp import Client, ResponseError

__all__ = [
    "CacheStats",
    "MemoryCache",
    "ProbabilityCache",
    "RedisCache",
    "cached",
    "make_cache",
]

# What a Redis call may raise when Redis is slow, full or gone: `service.resp` raises
# OSError for network trouble (ConnectionError when the connection closes or a reply is
# garbled) and ResponseError for an error reply (say OOM, or NOAUTH); `asyncio.timeout`
# raises TimeoutError.
_REDIS_FAILURES = (OSError, TimeoutError, ResponseError)


@dataclass
class CacheStats:
    """Counters, for metrics and tests.

    `hits` and `misses` count calls to `cached`. `fallbacks` counts Redis
    operations (get or set) that did not reach Redis, because Redis failed or
    timed out, or because the circuit breaker was open after a failure.
    `refused_writes` counts writes Redis answered with an error (full, read-only),
    and writes skipped after one; `full` says whether the last write Redis answered
    was refused for want of memory.
    """

    hits: int = 0
    misses: int = 0
    fallbacks: int = 0
    refused_writes: int = 0
    full: bool = False


class ProbabilityCache(Protocol):
    """A cache of probability tables. Its methods never raise because of the backend."""

    backend: str
    stats: CacheStats

    async def get(self, key: str) -> bytes | None: ...

    async def set(self, key: str, value: bytes) -> None: ...

    async def ping(self) -> bool:
        """Whether the backend is reachable (for readiness checks)."""
        ...

    async def close(self) -> None: ...


async def cached(cache: ProbabilityCache, key: str, compute: Callable[[], bytes]) -> bytes:
    """Return the cached value for `key`, or compute it, store it and return it."""
    value = await cache.get(key)
    if value is not None:
        cache.stats.hits += 1
        return value
    cache.stats.misses += 1
    value = compute()
    await cache.set(key, value)
    return value


class MemoryCache:
    """A bounded in-process LRU cache, bounded in bytes (`max_bytes`): tables differ in size
    by a thousandfold, so a count of entries would bound nothing.

    It is only used from one event loop, and its methods never await, so it needs no lock.
    """

    backend: str = "memory"

    def __init__(self, max_bytes: int = 32 * 1024 * 1024) -> None:
        if max_bytes < 1:
            raise ValueError("max_bytes must be at least 1")
        self.stats = CacheStats()
        self._entries: LRU[str, bytes] = LRU(max_bytes, _weigh)

    @property
    def size(self) -> int:
        """The bytes held, as `max_bytes` counts them."""
        return self._entries.size

    async def get(self, key: str) -> bytes | None:
        return self._entries.get(key)

    async def set(self, key: str, value: bytes) -> None:
        self._entries.put(key, value)

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._entries.clear()


#: What an entry of `MemoryCache` holds beside its key's and value's characters: the str and
#: bytes headers, the map's link and the pair of value and weight.
_ENTRY_BYTES = 256


def _weigh(key: str, value: bytes) -> int:
    return _ENTRY_BYTES + len(key) + len(value)


class RedisCache:
    """A cache in Redis, shared by every replica, behind a circuit breaker.

    `timeout` bounds each whole Redis call, connecting included. After a
    failure, get and set skip Redis (counted as fallbacks) until `retry_after`
    seconds have passed on `clock`. A write Redis refuses (OOM when it is full
    under `noeviction`, READONLY on a replica) costs writes only: Redis still
    answers reads, so only sets are skipped for `retry_after`. Values expire
    after `ttl_seconds`, so tables of old rules versions age out.
    """

    backend: str = "redis"

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 0.05,
        retry_after: float = 1.0,
        ttl_seconds: int = 7 * 24 * 3600,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stats = CacheStats()
        self._timeout = timeout
        self._retry_after = retry_after
        self._ttl_seconds = ttl_seconds
        self._clock = clock
        self._skip_until = -math.inf  # breaker closed
        self._skip_writes_until = -math.inf
        # Connects lazily, on the first call. It never retries: one failure should
        # open the breaker, not cost several timeouts. A bad URL raises ValueError.
        self._client = Client.from_url(url)

    async def get(self, key: str) -> bytes | None:
        if self._breaker_open():
            self.stats.fallbacks += 1
            return None
        try:
            async with asyncio.timeout(self._timeout):
                return await self._client.get(key)
        except _REDIS_FAILURES:
            self._trip()
            return None

    async def set(self, key: str, value: bytes) -> None:
        if self._breaker_open():
            self.stats.fallbacks += 1
            return
        if self._clock() < self._skip_writes_until:
            self.stats.refused_writes += 1
            return
        try:
            async with asyncio.timeout(self._timeout):
                await self._client.set(key, value, ex=self._ttl_seconds)
        except ResponseError as refused:
            self.stats.refused_writes += 1
            self.stats.full = str(refused).startswith("OOM")
            self._skip_writes_until = self._clock() + self._retry_after
            return
        except _REDIS_FAILURES:
            self._trip()
            return
        self.stats.full = False

    async def ping(self) -> bool:
        """Send a real PING, bounded by the timeout.

        This ignores the circuit breaker and leaves it and the stats alone, so a
        readiness probe reports whether Redis is reachable right now.
        """
        try:
            async with asyncio.timeout(self._timeout):
                return await self._client.ping()
        except _REDIS_FAILURES:
            return False

    async def close(self) -> None:
        """Close the idle connections; later calls fall back as if Redis were gone."""
        with contextlib.suppress(*_REDIS_FAILURES):
            async with asyncio.timeout(self._timeout):
                await self._client.aclose()

    def _breaker_open(self) -> bool:
        return self._clock() < self._skip_until

    def _trip(self) -> None:
        self.stats.fallbacks += 1
        self._skip_until = self._clock() + self._retry_after


def make_cache(
    redis_url: str | None,
    *,
    max_bytes: int,
    timeout: float,
    retry_after: float = 1.0,
    ttl_seconds: int = 7 * 24 * 3600,
) -> ProbabilityCache:
    """A `RedisCache` if a Redis URL is configured, else a `MemoryCache`.

    An empty URL counts as unset, as an empty environment variable usually means.
    """
    if not redis_url:
        return MemoryCache(max_bytes)
    return RedisCache(redis_url, timeout=timeout, retry_after=retry_after, ttl_seconds=ttl_seconds)
