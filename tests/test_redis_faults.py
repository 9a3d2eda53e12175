"""Redis faults under concurrent load cost no errors and no wrong answers (DESIGN.md "Odds and
the cache"): the real service, served by uvicorn in a subprocess with `REDIS_URL` set, answers
a dozen clients while its redis-server is killed and restarted, frozen, made slow, filled up
and flushed, one after another.

Every answer must be a 2xx equal, byte for byte, to the answer of the service with no Redis
(built in-process with the memory cache), so every request in the mix is deterministic: odds,
rules run with seeded or table dice, and GraphQL with seeds. The cache must really be used:
Redis holds tables, `/metrics` counts hits while Redis is healthy and again after the faults,
and fallbacks while it is not, so the test cannot pass with Redis ignored.

Slowness is a Lua script that busy-waits, which blocks the server as `DEBUG SLEEP` would:
Redis 7 refuses DEBUG unless it was started with `enable-debug-command`. The whole run takes
about 25 s.
"""

import contextlib
import json
import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.rules.registry import load
from service.settings import Settings
from tests.redis_server import RedisServer
from tests.served import served

# Timed and loaded: run by itself, after the parallel suite (Makefile).
pytestmark = [pytest.mark.redis, pytest.mark.alone]

CLIENTS = 12
ENOUGH = 5  # answers each fault phase must see
RETRY_AFTER = 1.0  # the service's default circuit breaker

#: Busy-waits ARGV[1] microseconds: the server answers no one else meanwhile.
BUSY = """
local function now() local t = redis.call('TIME') return t[1] * 1000000 + t[2] end
local stop = now() + tonumber(ARGV[1])
while now() < stop do end
return 1
"""

FOUR_D8 = """query Check($ease: Int!, $seed: Int!) { fourD8 {
  checkOdds(input: {ease: $ease}) {
    chance summary { success { exact float } meanDegree { exact } }
  }
  check(input: {ease: $ease, dice: {seed: $seed}}) { degree success seed rolls { value purpose } }
} }"""
FORESIGHT = """query Resolve($score: Int!, $bef: Float!) { foresight {
  resolveOdds(input: {score: $score, bef: $bef}) {
    qr { outcome exact } summary { success { exact } }
  }
} }"""


@dataclass(frozen=True)
class Call:
    """A request; its body is JSON text, so a call can key the answers it expects."""

    method: str
    path: str
    body: str | None = None

    @staticmethod
    def post(path: str, body: Any) -> "Call":
        return Call("POST", path, json.dumps(body))

    def send(self, client: httpx.Client | TestClient) -> httpx.Response:
        headers = {} if self.body is None else {"content-type": "application/json"}
        return client.request(self.method, self.path, content=self.body, headers=headers)


def calls() -> list[Call]:
    """Every operation's example and its odds, each precomputed odds request, and GraphQL
    queries with varied inputs: a few hundred distinct cache keys, so misses and hits mix."""
    found = [Call("GET", "/healthz")]
    for system in load().systems:
        for op in system.operations:
            base = f"/v1/{system.slug}/{op.name}"
            example = dict(op.example)
            if op.random and "values" not in example.get("dice", {}):
                found += [Call.post(base, {**example, "dice": {"seed": s}}) for s in (1, 2, 3)]
            else:
                found.append(Call.post(base, example))
            if op.odds_request_model is not None:
                example.pop("dice", None)
                found.append(Call.post(f"{base}/odds", example))
                found += [Call.post(f"{base}/odds", dict(p)) for p in op.standard]
    for ease in range(-4, 33, 3):
        variables = {"ease": ease, "seed": ease + 100}
        found.append(Call.post("/graphql", {"query": FOUR_D8, "variables": variables}))
    for score in range(3, 25, 4):
        variables = {"score": score, "bef": 5}
        found.append(Call.post("/graphql", {"query": FORESIGHT, "variables": variables}))
    return found


def expected_answers(mix: list[Call]) -> dict[Call, bytes]:
    """What the service answers with no Redis at all. The reference is computed at leisure:
    the odds deadline is not what this test is about, and a loaded machine can pass it."""
    settings = Settings(log_requests=False, odds_deadline_seconds=60)
    with TestClient(build_app(settings, MemoryCache())) as client:
        answers = {call: call.send(client) for call in mix}
    bad = {c.path: r.status_code for c, r in answers.items() if r.status_code != 200}
    assert not bad, f"the request mix should be all valid: {bad}"
    return {call: response.content for call, response in answers.items()}


def metric(base: str, name: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=10).text
    [value] = [line.split()[-1] for line in text.splitlines() if line.startswith(name + " ")]
    return float(value)


def hits(base: str) -> float:
    return metric(base, "adjudicator_cache_hits_total")


@dataclass
class Load:
    """Clients that send the mix at random until stopped, tallying answers by phase."""

    base: str
    expected: dict[Call, bytes]
    phase: str = "start"
    answered: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, seed: int) -> None:
        mix = list(self.expected)
        pick = random.Random(seed).choice
        with httpx.Client(base_url=self.base, timeout=10) as client:
            while not self._stop.is_set():
                call, phase = pick(mix), self.phase
                try:
                    response = call.send(client)
                    problem = self._problem(call, response)
                except httpx.HTTPError as error:
                    problem = f"{type(error).__name__}: {error}"
                with self._lock:
                    self.answered[phase] += 1
                    if problem is not None:
                        self.failures.append(f"[{phase}] {call.method} {call.path}: {problem}")

    def settle(self) -> None:
        """Holds the phase until it has enough answers to count: a loaded machine answers few."""

        def enough() -> bool:
            with self._lock:
                return self.answered[self.phase] >= ENOUGH

        wait_for(enough, seconds=30, what=f"{ENOUGH} answers in phase {self.phase}")

    def _problem(self, call: Call, response: httpx.Response) -> str | None:
        if not response.is_success:
            return f"{response.status_code} {response.text[:300]}"
        if response.content != self.expected[call]:
            return f"body differs: {response.text[:300]} (body {(call.body or '')[:200]})"
        return None

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        threads = [threading.Thread(target=self.run, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        try:
            yield
        finally:
            self._stop.set()
            for thread in threads:
                thread.join(timeout=30)
        assert not any(t.is_alive() for t in threads), "a client hung"


@pytest.fixture
def service(redis_server: RedisServer, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The service in a subprocess with Redis (its output kept in a file), and its base URL,
    once ready: its GraphQL app is built before the load, not by the first of its twelve
    clients while the others wait (seconds on a loaded machine, past their 10 s timeout)."""
    log = tmp_path / "service.log"
    prepared = {"REDIS_URL": redis_server.url, "PREPARE_ON_START": "true"}
    with served(prepared, log, seconds=120, until="/readyz") as (base, _):
        yield base, log


def wait_for(condition: Callable[[], bool], *, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


def keys(store: redis.Redis) -> int:
    """How many keys Redis holds; 0 while it cannot be reached."""
    try:
        return int(store.dbsize())
    except redis.ConnectionError:
        return 0


def kill_and_restart(server: RedisServer, load_: "Load") -> None:
    server.stop()
    time.sleep(1.5)
    load_.settle()
    server.start()  # empty, on the same port


def freeze(store: redis.Redis) -> None:
    """SIGSTOP: connections are accepted by the kernel but nothing answers. Then a client
    pause, where Redis answers but holds every command."""
    pid = int(store.info("server")["process_id"])
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(1.5)
    finally:
        os.kill(pid, signal.SIGCONT)
    store.execute_command("CLIENT", "PAUSE", 1500, "ALL")
    time.sleep(2)


def slow(store: redis.Redis) -> None:
    """Stalls below, about and well above the service's 50 ms timeout, with short breaths."""
    busy = store.register_script(BUSY)
    for stall_ms in (20, 40, 60, 500, 30, 500, 80, 500):
        busy(args=[stall_ms * 1000])
        time.sleep(0.1)


def fill(store: redis.Redis) -> None:
    """Full: no eviction and a limit already reached, so every SET is refused with OOM."""
    store.config_set("maxmemory-policy", "noeviction")
    store.config_set("maxmemory", int(store.info("memory")["used_memory"]) + 1_000_000)
    junk = b"x" * 65536
    for i in range(1000):
        try:
            store.set(f"junk:{i}", junk)
        except redis.exceptions.OutOfMemoryError:
            break
    else:
        pytest.fail("Redis never filled up")
    time.sleep(3)
    store.config_set("maxmemory", 0)
    store.delete(*store.keys("junk:*"))


def flush(store: redis.Redis) -> None:
    for asynchronously in (False, True, False, True):
        store.flushall(asynchronous=asynchronously)
        time.sleep(0.5)


def test_redis_faults_under_load_cost_no_errors_and_no_wrong_answers(service, redis_server):
    base, log = service
    load_ = Load(base, expected_answers(calls()))
    with redis.Redis.from_url(redis_server.url, socket_timeout=10) as store, load_.running():
        load_.phase = "healthy"
        time.sleep(2.5)
        load_.settle()
        assert store.dbsize() > 0
        assert hits(base) > 0
        fallbacks = metric(base, "adjudicator_redis_fallbacks_total")

        load_.phase = "killed"
        kill_and_restart(redis_server, load_)
        load_.phase = "restarted"
        # The breaker closes again after a second, and the new Redis fills up.
        wait_for(lambda: keys(store) > 0, seconds=10, what="the restarted Redis to be used")
        load_.settle()

        for fault in (freeze, slow, fill, flush):
            load_.phase = fault.__name__
            fault(store)
            load_.settle()

        load_.phase = "recovered"
        time.sleep(RETRY_AFTER + 0.5)
        before = hits(base)
        time.sleep(2)
        load_.settle()
        assert hits(base) > before, "Redis was not used again after the faults"
        assert store.dbsize() > 0
        assert metric(base, "adjudicator_redis_fallbacks_total") > fallbacks

    phases = ("healthy", "killed", "restarted", "freeze", "slow", "fill", "flush", "recovered")
    assert all(load_.answered[p] >= ENOUGH for p in phases), load_.answered
    failures = load_.failures
    assert not failures, (
        f"{len(failures)} of {sum(load_.answered.values())} requests failed:\n"
        + "\n".join(failures[:20])
        + "\nservice log:\n"
        + log.read_text(errors="replace")[-3000:]
    )
