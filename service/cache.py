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
streams, the concurrent calls pipelined on one connection), not by redis-py: a GET of a 3 KB
table cost about 50 µs of CPU in redis-py (pool locks, connection health checks, retry and
deprecation wrappers, event listeners) against 17 µs on a bare stream, which made
the service 40% slower with Redis than with the in-memory cache under load. The
cache needs only GET, SET with EX, and PING. A call that times out closes its connection,
so a late reply is never read as the answer to another command.

Without Redis the service uses a bounded in-process LRU (`MemoryCache`). With Redis it keeps
one too, as a fallback tier: whenever a get or set cannot use Redis (the breaker is open, or
the call failed or timed out) it uses the local LRU instead, so a Redis that is down, refuses
our password or fails TLS costs a replica its sharing, not its cache. While Redis works the
local tier is not touched at all (a healthy call costs one more attribute test, within the
noise of a microbenchmark); it is not a near cache in front of Redis, so what Redis holds is
what every replica sees. What the local tier took during an outage stays until evicted,
cleared on `close`, and is read again only in the next outage: a table is a pure function of
its key, so it is never stale.

Why Redis could not be used is kept as a `Problem` (`auth`, `tls`, `timeout`, `unreachable`
or `error`, with a short detail that never holds the URL's credentials), which /readyz
reports. The first failure of each kind logs one WARNING on `adjudicator.cache`, and no kind
logs again until a Redis call succeeds, which logs one INFO: an outage under load is a few
lines, not one a request.

Keys are built by the caller (`adjudicator:<rules_version>:<system>:<operation>:<sha256>`);
the cache treats them as opaque strings.
"""

import asyncio
import contextlib
import logging
import math
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from service.lru import LRU
from service.resp import AuthenticationError, Client, ResponseError, Tls

__all__ = [
    "CacheStats",
    "MemoryCache",
    "ProbabilityCache",
    "Problem",
    "RedisCache",
    "cached",
    "make_cache",
]

# What a Redis call may raise when Redis is slow, full or gone: `service.resp` raises
# OSError for network trouble (ConnectionError when the connection closes or a reply is
# garbled) and ResponseError for an error reply (say OOM, or NOAUTH); `asyncio.timeout`
# raises TimeoutError.
_REDIS_FAILURES = (OSError, TimeoutError, ResponseError)

LOG = logging.getLogger("adjudicator.cache")

#: Error replies that mean our credentials are wrong or missing, not that Redis is unwell.
_AUTH_REPLIES = ("NOAUTH", "WRONGPASS", "NOPERM")
_DETAIL_CHARS = 200


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


@dataclass(frozen=True)
class Problem:
    """Why the backend could not be used: `kind` is `auth` (a wrong or missing password),
    `tls` (a failed handshake: an untrusted certificate, a wrong host name, no client
    certificate), `timeout`, `unreachable` (refused, reset, closed, no such host) or `error`
    (another error reply); `detail` is the error's own words, without credentials."""

    kind: str
    detail: str


class ProbabilityCache(Protocol):
    """A cache of probability tables. Its methods never raise because of the backend."""

    backend: str
    stats: CacheStats
    #: Why the backend could not be used the last time it was tried; None once it works.
    problem: Problem | None

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
    problem: Problem | None = None

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
    """A cache in Redis, shared by every replica, behind a circuit breaker, with a local LRU
    of `local_max_bytes` for when Redis cannot be used (see the module's docstring).

    `timeout` bounds each whole Redis call, connecting included. After a
    failure, get and set skip Redis (counted as fallbacks) and use the local LRU until
    `retry_after` seconds have passed on `clock`. A write Redis refuses (OOM when it is full
    under `noeviction`, READONLY on a replica) costs writes only: Redis still
    answers reads, so only sets are skipped for `retry_after`. Values expire
    after `ttl_seconds`, so tables of old rules versions age out. `tls` holds the
    certificate files of a `rediss://` URL.
    """

    backend: str = "redis"

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 0.05,
        retry_after: float = 1.0,
        ttl_seconds: int = 7 * 24 * 3600,
        local_max_bytes: int = 32 * 1024 * 1024,
        tls: Tls | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stats = CacheStats()
        self.problem: Problem | None = None
        self._timeout = timeout
        self._retry_after = retry_after
        self._ttl_seconds = ttl_seconds
        self._clock = clock
        self._skip_until = -math.inf  # breaker closed
        self._skip_writes_until = -math.inf
        self._local: LRU[str, bytes] = LRU(local_max_bytes, _weigh)
        self._logged: set[str] = set()  # the kinds of problem logged since Redis last worked
        # Connects lazily, on the first call. It never retries: one failure should
        # open the breaker, not cost several timeouts. A bad URL raises ValueError, a bad
        # TLS file OSError: a configuration error stops the service as it starts.
        self._client = Client.from_url(url, tls=tls)
        address = self._client.address
        self._where = address.path or f"{address.host}:{address.port}"
        self._password = address.password

    async def get(self, key: str) -> bytes | None:
        if self._breaker_open():
            self.stats.fallbacks += 1
            return self._local.get(key)
        try:
            async with asyncio.timeout(self._timeout):
                value = await self._client.get(key)
        except _REDIS_FAILURES as failure:
            self._trip(failure)
            return self._local.get(key)
        if self.problem is not None:
            self._recovered()
        return value

    async def set(self, key: str, value: bytes) -> None:
        if self._breaker_open():
            self.stats.fallbacks += 1
            self._local.put(key, value)
            return
        if self._clock() < self._skip_writes_until:
            self.stats.refused_writes += 1
            return
        try:
            async with asyncio.timeout(self._timeout):
                await self._client.set(key, value, ex=self._ttl_seconds)
        except ResponseError as refused:
            if _is_auth(refused):
                self._trip(refused)
                self._local.put(key, value)
                return
            self.stats.refused_writes += 1
            self.stats.full = str(refused).startswith("OOM")
            self._skip_writes_until = self._clock() + self._retry_after
            return
        except _REDIS_FAILURES as failure:
            self._trip(failure)
            self._local.put(key, value)
            return
        self.stats.full = False
        if self.problem is not None:
            self._recovered()

    async def ping(self) -> bool:
        """Send a real PING, bounded by the timeout.

        This ignores the circuit breaker and leaves it and the stats alone, so a
        readiness probe reports whether Redis is usable right now; a failure is kept in
        `problem` (and logged, once a kind) like any other.
        """
        try:
            async with asyncio.timeout(self._timeout):
                answered = await self._client.ping()
        except _REDIS_FAILURES as failure:
            self._report(failure)
            return False
        if not answered:
            self._report(ResponseError("PING was not answered PONG"))
            return False
        if self.problem is not None:
            self._recovered()
        return True

    async def close(self) -> None:
        """Close the connection and empty the local tier; later calls fall back as if
        Redis were gone."""
        self._local.clear()
        with contextlib.suppress(*_REDIS_FAILURES):
            async with asyncio.timeout(self._timeout):
                await self._client.aclose()

    def _breaker_open(self) -> bool:
        return self._clock() < self._skip_until

    def _trip(self, failure: Exception) -> None:
        self.stats.fallbacks += 1
        self._skip_until = self._clock() + self._retry_after
        self._report(failure)

    def _report(self, failure: Exception) -> None:
        """Keep why Redis failed; log it if no failure of its kind was logged since Redis
        last worked."""
        problem = _problem(failure, self._password, self._timeout)
        self.problem = problem
        if problem.kind not in self._logged:
            self._logged.add(problem.kind)
            LOG.warning(
                "Redis at %s is not usable (%s: %s); odds tables are cached in this process "
                "until it is",
                self._where,
                problem.kind,
                problem.detail,
                extra={"redis_error": problem.kind},
            )

    def _recovered(self) -> None:
        self.problem = None
        if self._logged:
            self._logged.clear()
            LOG.info("Redis at %s is usable again", self._where)


def _is_auth(error: ResponseError) -> bool:
    return isinstance(error, AuthenticationError) or str(error).startswith(_AUTH_REPLIES)


def _problem(failure: Exception, password: str | None, timeout: float) -> Problem:
    """Name a failure's kind. The detail is the error's message, which neither Redis nor
    Python fills with credentials; the password is masked all the same, in case."""
    if isinstance(failure, ResponseError):
        kind = "auth" if _is_auth(failure) else "error"
    elif isinstance(failure, ssl.SSLError):  # certificate verification errors included
        kind = "tls"
    elif isinstance(failure, TimeoutError):  # before OSError: TimeoutError is one
        kind = "timeout"
    else:
        kind = "unreachable"
    detail = str(failure) or type(failure).__name__
    if kind == "timeout":  # asyncio.timeout's error says nothing
        detail = f"no answer within {timeout} s"
    if password:
        detail = detail.replace(password, "***")
    return Problem(kind, detail[:_DETAIL_CHARS])


def make_cache(
    redis_url: str | None,
    *,
    max_bytes: int,
    timeout: float,
    retry_after: float = 1.0,
    ttl_seconds: int = 7 * 24 * 3600,
    tls: Tls | None = None,
) -> ProbabilityCache:
    """A `RedisCache` if a Redis URL is configured, else a `MemoryCache`. `max_bytes` bounds
    the memory cache, or the Redis cache's local tier.

    An empty URL counts as unset, as an empty environment variable usually means.
    """
    if not redis_url:
        return MemoryCache(max_bytes)
    return RedisCache(redis_url, timeout=timeout, retry_after=retry_after,
                      ttl_seconds=ttl_seconds, local_max_bytes=max_bytes, tls=tls)  # fmt: skip
