"""`make cluster`: three replicas behind a real load balancer, and the checks that show they
behave as one service.

On loopback, each on a free port: one `redis-server`, three `python -m service serve`
replicas sharing it (`REDIS_URL`), and HAProxy in front of them, health-checking `/readyz`
(so a draining replica leaves the pool) and retrying a request another replica's way when
a connection to one fails, closes without an answer or times out (`retry-on`, `option
redispatch`): the service is stateless and its answers are pure, so any request may be
sent again. The checks, each printed as a PASS or FAIL line with its figures:

- seeded requests give byte-identical bodies from every replica, directly and through the
  balancer (request ids travel only in the `x-request-id` header);
- odds one replica computed are served from Redis by the others (their cache hit counters
  go up, their miss counters do not);
- one replica told to stop (SIGTERM) under load, and later started again, costs no failed
  or wrong answer at the client, and the replica exits 0;
- Redis killed (SIGKILL) under load, and started again on its port, costs none either.

Everything started is stopped on the way out, whatever happens. HAProxy is installed with
apt-get when missing (as root, on Debian); redis-server is needed too. tests/test_cluster.py
runs the same checks.

Usage: python -m tools.cluster
"""

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from service.rules.registry import load
from tests.redis_server import RedisServer
from tests.served import ROOT, free_port

__all__ = [
    "CHECKS",
    "Check",
    "Cluster",
    "Replica",
    "find_or_install",
    "main",
    "odds_are_shared_through_redis",
    "redis_restart_costs_nothing",
    "replica_restart_costs_nothing",
    "running",
    "seeded_requests_are_identical",
]

REPLICAS = 3
#: Each replica's settings: a short drain (HAProxy's checks notice a 503 within half a
#: second), and odds deadlines no loaded loopback machine will hit.
REPLICA_ENV = {
    "LOG_REQUESTS": "false",
    "SHUTDOWN_DRAIN_SECONDS": "2",
    "ODDS_DEADLINE_SECONDS": "10",
}
LOAD_CLIENTS = 4

SEEDED: list[tuple[str, dict[str, Any]]] = [
    ("/v1/four-d8/check", {"ease": 20, "dice": {"seed": 7}}),
    (
        "/v1/four-sight/check",
        {
            "traits": [{"trait": "intelligence", "score": 4}],
            "expertise": "specialty",
            "target_number": 7,
            "dice": {"seed": 1234},
        },
    ),
    ("/v1/foresight/resolve", {"score": 14, "bef": 5, "dice": {"seed": 99}}),
    (
        "/graphql",
        {
            "query": "{ fourD8 { check(input: {ease: 20, dice: {seed: 7}}) "
            "{ degree success seed rolls { value purpose } } } }"
        },
    ),
]
#: Odds no other check asks for, so that the first replica asked must compute them.
FRESH_ODDS = (
    "/v1/four-sight/check/odds",
    {
        "traits": [{"trait": "dexterity", "score": 5}],
        "expertise": "specialty",
        "target_number": 11,
        "combat": True,
        "manifestations": ["deep_sight"],
    },
)


def find_or_install(program: str, package: str) -> str | None:
    """The path of `program`, installing Debian's `package` first when it is missing and
    this process may (root, apt-get present); None when it is still missing."""
    found = shutil.which(program) or shutil.which(program, path="/usr/sbin:/sbin")
    if found or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return found
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", package]):
        done = subprocess.run(
            command,
            env=environment,
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if done.returncode:
            return None
    return shutil.which(program) or shutil.which(program, path="/usr/sbin:/sbin")


def answers(url: str, status: int = 200) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as answer:
            return bool(answer.status == status)
    except OSError:
        return False


def wait_until(ready: Callable[[], bool], seconds: float, what: str) -> float:
    """Poll `ready` until it holds; the seconds it took. RuntimeError past `seconds`."""
    start = time.monotonic()
    while not ready():
        if time.monotonic() - start > seconds:
            raise RuntimeError(f"{what} did not happen within {seconds} s")
        time.sleep(0.05)
    return time.monotonic() - start


class Replica:
    """`python -m service serve` on a port of its own, which it keeps when started again."""

    def __init__(self, name: str, env: dict[str, str], log: Path, workers: int = 1) -> None:
        self.name, self.log, self.workers = name, log, workers
        self.port = free_port()
        self.env = {**{k: v for k, v in os.environ.items() if k != "REDIS_URL"}, **env}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> None:
        command = [sys.executable, "-m", "service", "serve"]
        command += ["--port", str(self.port), "--workers", str(self.workers)]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=out, stderr=out, stdin=subprocess.DEVNULL
            )

    def wait_ready(self, seconds: float = 30) -> None:
        def ready() -> bool:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited as it started; see {self.log}")
            return answers(f"{self.url}/readyz")

        wait_until(ready, seconds, f"{self.name} answering /readyz")

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def terminate(self) -> None:
        """SIGTERM: the replica drains, finishes what it holds and exits (service/drain.py)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def wait(self, seconds: float) -> int:
        assert self.process is not None
        code = self.process.wait(timeout=seconds)
        self.process = None
        return code

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def metrics(self) -> dict[str, float]:
        """Its counters: `cache_hits`, `cache_misses`, `redis_fallbacks`, and `served`, the
        requests to the API (not to /healthz, /readyz or /metrics)."""
        with urllib.request.urlopen(f"{self.url}/metrics", timeout=5) as answer:
            text = answer.read().decode()
        found = {
            name: float(value)
            for name, value in re.findall(
                r"^adjudicator_(cache_hits|cache_misses|redis_fallbacks)_total (\S+)$", text, re.M
            )
        }
        found["served"] = sum(
            float(v)
            for route, v in re.findall(
                r'^adjudicator_requests_total\{route="([^"]*)"[^}]*\} (\S+)$', text, re.M
            )
            if route not in ("/healthz", "/readyz", "/metrics")
        )
        return found


class Balancer:
    """HAProxy on a free port in front of `replicas`, with its statistics on another."""

    def __init__(self, executable: str, replicas: list[Replica], directory: Path) -> None:
        self.executable, self.replicas, self.directory = executable, replicas, directory
        self.port, self.stats_port = free_port(), free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def config(self) -> str:
        servers = "\n".join(f"    server {r.name} 127.0.0.1:{r.port}" for r in self.replicas)
        return f"""\
global
    maxconn 2000

defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 15s
    timeout check 1s
    # The service's answers are pure: a request a replica did not answer is sent again,
    # to another replica (redispatch on every retry).
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout

frontend adjudicator
    bind 127.0.0.1:{self.port}
    default_backend replicas

backend replicas
    balance roundrobin
    # A draining replica answers 503 here and leaves the pool within half a second.
    option httpchk
    http-check send meth GET uri /readyz
    http-check expect status 200
    default-server check inter 250ms fall 2 rise 2
{servers}

listen stats
    bind 127.0.0.1:{self.stats_port}
    stats enable
    stats uri /stats
"""

    def start(self) -> None:
        path = self.directory / "haproxy.cfg"
        path.write_text(self.config(), encoding="utf-8")
        check = subprocess.run(
            [self.executable, "-c", "-q", "-f", str(path)],
            check=False,
            capture_output=True,
            text=True,
        )
        if check.returncode:
            raise RuntimeError(f"haproxy refused {path}: {check.stderr or check.stdout}")
        with (self.directory / "haproxy.log").open("ab") as out:
            self.process = subprocess.Popen(
                [self.executable, "-db", "-f", str(path)],
                stdout=out,
                stderr=out,
                stdin=subprocess.DEVNULL,
            )
        wait_until(
            lambda: all(s == "UP" for s in self.states().values()),
            10,
            "every replica UP at the balancer",
        )

    def _stats(self) -> dict[str, dict[str, str]]:
        """HAProxy's statistics of the backend, a row per replica and one "BACKEND"."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.stats_port}/stats;csv") as f:
                lines = f.read().decode().splitlines()
        except OSError:
            return {}
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:] if line]
        return {r["svname"]: r for r in rows if r["pxname"] == "replicas"}

    def states(self) -> dict[str, str]:
        """Each replica's state as HAProxy's health checks see it: UP, DOWN, "UP 1/2"..."""
        return {name: r["status"] for name, r in self._stats().items() if name != "BACKEND"}

    def retries(self) -> int:
        """Requests HAProxy has sent again since it started (`retry-on`)."""
        return int(self._stats().get("BACKEND", {}).get("wretr") or 0)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@dataclass
class Cluster:
    redis: RedisServer
    replicas: list[Replica]
    balancer: Balancer
    directory: Path


@contextlib.contextmanager
def running(haproxy: str, redis_server: str, directory: Path) -> Iterator[Cluster]:
    """Redis, `REPLICAS` replicas and HAProxy, started in that order and all stopped after."""
    redis = RedisServer(redis_server)
    env = {**REPLICA_ENV, "REDIS_URL": redis.url}
    replicas = [Replica(f"r{i}", env, directory / f"r{i}.log") for i in range(1, REPLICAS + 1)]
    balancer = Balancer(haproxy, replicas, directory)
    try:
        redis.start()
        for replica in replicas:
            replica.launch()
        for replica in replicas:
            replica.wait_ready()
        balancer.start()
        yield Cluster(redis, replicas, balancer, directory)
    finally:
        balancer.stop()
        for replica in replicas:
            replica.kill()
        redis.stop()


@dataclass
class Check:
    name: str
    passed: bool
    figures: str

    def line(self) -> str:
        return f"{'PASS' if self.passed else 'FAIL'}  {self.name}: {self.figures}"


def _post(url: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{url}{path}", json=body, timeout=30)


def seeded_requests_are_identical(cluster: Cluster) -> Check:
    """Each seeded request, to every replica directly and twice round the balancer: one body
    among them all, byte for byte, and a distinct request id on each answer."""
    sent, ids, distinct = 0, set(), []
    for path, body in SEEDED:
        direct = [_post(r.url, path, body) for r in cluster.replicas]
        balanced = [_post(cluster.balancer.url, path, body) for _ in range(2 * REPLICAS)]
        every = direct + balanced
        sent += len(every)
        ids |= {a.headers.get("x-request-id") for a in every}
        bodies = {a.content for a in every if a.status_code == 200}
        distinct.append(len(bodies) if all(a.status_code == 200 for a in every) else 0)
    passed = distinct == [1] * len(SEEDED) and len(ids) == sent
    return Check(
        "seeded requests give identical bodies on every replica and through the balancer",
        passed,
        f"{len(SEEDED)} requests x ({REPLICAS} direct + {2 * REPLICAS} balanced): distinct "
        f"bodies per request {distinct} (want 1 each); {len(ids)} distinct x-request-id "
        f"of {sent}",
    )


def odds_are_shared_through_redis(cluster: Cluster) -> Check:
    """Odds never asked for before: the first replica computes them (a cache miss), the
    others find them in Redis (a hit each, no miss)."""
    path, body = FRESH_ODDS
    first, *others = cluster.replicas
    before = [r.metrics() for r in cluster.replicas]
    replies = [_post(first.url, path, body)] + [_post(r.url, path, body) for r in others]
    after = [r.metrics() for r in cluster.replicas]
    hits = [int(a["cache_hits"] - b["cache_hits"]) for a, b in zip(after, before, strict=True)]
    misses = [
        int(a["cache_misses"] - b["cache_misses"]) for a, b in zip(after, before, strict=True)
    ]
    same = all(a.status_code == 200 for a in replies) and len({a.content for a in replies}) == 1
    passed = same and misses == [1] + [0] * len(others) and hits == [0] + [1] * len(others)
    return Check(
        "odds computed by one replica are served from Redis by the others",
        passed,
        f"cache misses per replica {misses} (want [1, 0, 0]), hits {hits} (want [0, 1, 1]); "
        f"{'one body' if same else 'bodies differ'} ({len(replies[0].content)} bytes)",
    )


@dataclass
class Load:
    """What the clients got: answers, failures by cause, and answers unlike the first one
    to the same request."""

    answered: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    wrong: int = 0

    def summary(self) -> str:
        failures = ", ".join(f"{n} {cause}" for cause, n in self.failed.items()) or "none"
        return f"{self.answered} answered, failed: {failures}, wrong: {self.wrong}"


def _load_requests() -> list[tuple[str, bytes]]:
    """Seeded checks and every system's standard odds: pure answers, half of them cached."""
    requests = [(path, json.dumps(body).encode()) for path, body in SEEDED]
    requests += [
        ("/v1/four-d8/check", json.dumps({"ease": 10 + n % 20, "dice": {"seed": n}}).encode())
        for n in range(40)
    ]
    for system in load().systems:
        for op, payload in system.standard_odds:
            requests.append((f"/v1/{system.slug}/{op.name}/odds", json.dumps(payload).encode()))
    return requests


async def _generate(url: str, stop: asyncio.Event, load_: Load) -> None:
    """`LOAD_CLIENTS` clients sending requests back to back through `url` until `stop`."""
    requests = _load_requests()
    expected: dict[tuple[str, bytes], bytes] = {}
    headers = {"content-type": "application/json"}

    async def client(offset: int, http: httpx.AsyncClient) -> None:
        n = offset
        while not stop.is_set():
            path, body = key = requests[n % len(requests)]
            n += LOAD_CLIENTS
            try:
                answer = await http.post(path, content=body, headers=headers)
            except httpx.HTTPError as error:
                load_.failed[type(error).__name__] += 1
                continue
            if answer.status_code != 200:
                load_.failed[f"status {answer.status_code}"] += 1
                continue
            load_.answered += 1
            if expected.setdefault(key, answer.content) != answer.content:
                load_.wrong += 1

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        await asyncio.gather(*(client(i, http) for i in range(LOAD_CLIENTS)))


async def _under_load(url: str, disrupt: Callable[[], Any]) -> Load:
    """Run `disrupt` (blocking, in a thread) while the clients send; stop them after it."""
    load_, stop = Load(), asyncio.Event()
    clients = asyncio.create_task(_generate(url, stop, load_))
    try:
        await asyncio.sleep(1.0)
        await asyncio.to_thread(disrupt)
        await asyncio.sleep(1.0)
    finally:
        stop.set()
        await clients
    return load_


def replica_restart_costs_nothing(cluster: Cluster) -> Check:
    """Under load through the balancer, the second replica is sent SIGTERM, and once it has
    exited it is started again on its port; the clients see no failure."""
    replica = cluster.replicas[1]
    figures: dict[str, Any] = {}

    def stop_and_restart() -> None:
        start = time.monotonic()
        replica.terminate()
        figures["down"] = wait_until(
            lambda: "DOWN" in cluster.balancer.states()[replica.name],
            10,
            f"{replica.name} out of the pool",
        )
        figures["code"] = replica.wait(30)
        figures["exited"] = time.monotonic() - start
        time.sleep(0.5)
        replica.start()
        figures["up"] = wait_until(
            lambda: cluster.balancer.states()[replica.name] == "UP",
            10,
            f"{replica.name} back in the pool",
        )

    retried = cluster.balancer.retries()
    load_ = asyncio.run(_under_load(cluster.balancer.url, stop_and_restart))
    retried = cluster.balancer.retries() - retried
    served = replica.metrics()["served"]
    passed = not load_.failed and not load_.wrong and figures["code"] == 0 and served > 0
    return Check(
        "one replica stopped under load, and restarted, costs no failed request",
        passed,
        f"{load_.summary()}; {replica.name} out of the pool {figures['down']:.1f} s after "
        f"SIGTERM, exited {figures['code']} after {figures['exited']:.1f} s, back in "
        f"{figures['up']:.1f} s after its restart, then served {served:.0f} requests; "
        f"HAProxy sent {retried} requests again",
    )


def redis_restart_costs_nothing(cluster: Cluster) -> Check:
    """Under load, Redis is killed (SIGKILL) and started again, empty, on its port; the
    replicas compute locally meanwhile, and the clients see no failure."""
    before = sum(r.metrics()["redis_fallbacks"] for r in cluster.replicas)

    def kill_and_restart() -> None:
        cluster.redis.stop()
        time.sleep(1.0)
        cluster.redis.start()
        time.sleep(1.5)  # past the replicas' circuit breakers (1 s): Redis is used again

    load_ = asyncio.run(_under_load(cluster.balancer.url, kill_and_restart))
    fallbacks = sum(r.metrics()["redis_fallbacks"] for r in cluster.replicas) - before
    tables = _dbsize(cluster.redis.port)
    passed = not load_.failed and not load_.wrong and fallbacks > 0 and tables > 0
    return Check(
        "Redis killed under load, and restarted, costs no failed request",
        passed,
        f"{load_.summary()}; {fallbacks:.0f} Redis calls fell back to local computation; "
        f"the restarted Redis holds {tables} tables again",
    )


def _dbsize(port: int) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        sock.sendall(b"DBSIZE\r\n")
        return int(sock.recv(64).strip().lstrip(b":"))


CHECKS: list[Callable[[Cluster], Check]] = [
    seeded_requests_are_identical,
    odds_are_shared_through_redis,
    replica_restart_costs_nothing,
    redis_restart_costs_nothing,
]


def main() -> int:
    haproxy = find_or_install("haproxy", "haproxy")
    redis_server = find_or_install("redis-server", "redis-server")
    if haproxy is None or redis_server is None:
        print("FAIL  haproxy and redis-server are needed, and could not be installed")
        return 1
    directory = Path(tempfile.mkdtemp(prefix="adjudicator-cluster-"))
    started = time.monotonic()
    results: list[Check] = []
    with running(haproxy, redis_server, directory) as cluster:
        ports = ", ".join(f"{r.name} :{r.port}" for r in cluster.replicas)
        print(
            f"redis-server :{cluster.redis.port}; replicas {ports}; "
            f"haproxy :{cluster.balancer.port} (stats :{cluster.balancer.stats_port})"
        )
        for check in CHECKS:
            try:
                result = check(cluster)
            except Exception as error:  # reported as the check's failure
                result = Check(check.__name__.replace("_", " "), False, repr(error))
            results.append(result)
            print(result.line(), flush=True)
    failed = sum(not r.passed for r in results)
    print(
        f"{len(results) - failed} of {len(results)} checks passed in "
        f"{time.monotonic() - started:.1f} s"
    )
    if failed:
        print(f"logs: {directory}")
    else:
        shutil.rmtree(directory, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
