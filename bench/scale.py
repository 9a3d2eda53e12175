"""Workers and replicas: how a check's requests per second grow with one and two uvicorn
worker processes, and through the load balancer of `make cluster` (HAProxy, round robin,
health-checking `/readyz`) with one and two replicas sharing one Redis.

This machine has two cores, and `wrk` needs one of them too: nothing is pinned here, the
service's processes and the load share both, as they would on a two-core node. A second
worker or replica can therefore add at most what the load generator leaves of the second
core; the figures say how close each comes.
"""

import contextlib
import json
import shutil
import tempfile
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tests.redis_server import RedisServer
from tools.cluster import REPLICA_ENV, Balancer, Replica, answers, find_or_install, wait_until

__all__ = ["Endpoint", "measure", "table"]


@contextlib.contextmanager
def _balanced(haproxy: str, replicas: list[Replica], directory: Path) -> Iterator[str]:
    balancer = Balancer(haproxy, replicas, directory)
    try:
        balancer.start()
        yield balancer.url
    finally:
        balancer.stop()


Load = Callable[[str, dict[str, Any], float, int], dict[str, float]]
#: (name, path, body) of an endpoint to load.
Endpoint = tuple[str, str, dict[str, Any]]

#: (label, replicas, workers each, behind HAProxy)
SETUPS = (
    ("1 worker", 1, 1, False),
    ("2 workers", 1, 2, False),
    ("HAProxy, 1 replica", 1, 1, True),
    ("HAProxy, 2 replicas", 2, 1, True),
)


@contextlib.contextmanager
def _serving(setup: tuple[str, int, int, bool], haproxy: str, redis_url: str,
             directory: Path) -> Iterator[str]:  # fmt: skip
    """The URL of one setup, its replicas started (and HAProxy in front) and all stopped."""
    _, count, workers, balanced = setup
    env = {**REPLICA_ENV, "LOG_REQUESTS": "true", "REDIS_URL": redis_url}
    replicas = [Replica(f"r{i}", env, directory / f"r{i}.log", workers=workers)
                for i in range(count)]  # fmt: skip
    balancer = Balancer(haproxy, replicas, directory) if balanced else None
    try:
        for replica in replicas:
            replica.start()
            _build_graphql(replica.url)
        if balancer is not None:
            balancer.start()
            wait_until(lambda: answers(f"{balancer.url}/readyz"), 10, "HAProxy answering")
        yield replicas[0].url if balancer is None else balancer.url
    finally:
        if balancer is not None:
            balancer.stop()
        for replica in replicas:
            # SIGTERM, not SIGKILL: uvicorn stops its worker processes only when it can.
            replica.terminate()
            replica.wait(30)


def _build_graphql(url: str) -> None:
    """Ask first GraphQL questions, which build the schema (seconds), before any load: each
    worker process builds its own, and the kernel hands connections to either, so several."""
    body = json.dumps({"query": "{ __typename }"}).encode()
    for _ in range(8):
        request = urllib.request.Request(f"{url}/graphql", data=body,
                                         headers={"Content-Type": "application/json"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()


def measure(load: Load, endpoints: Sequence[Endpoint], seconds: float, warmup: float,
            connections: int) -> list[dict[str, Any]]:  # fmt: skip
    """Requests per second of each endpoint in each setup. `load(url, body, seconds,
    connections)` drives one URL."""
    redis_server = shutil.which("redis-server")
    haproxy = find_or_install("haproxy", "haproxy")
    if redis_server is None or haproxy is None:
        raise SystemExit("redis-server and haproxy are needed: apt-get install them")
    rows: list[dict[str, Any]] = []
    redis = RedisServer(redis_server)
    with tempfile.TemporaryDirectory() as name:
        redis.start()
        try:
            for setup in SETUPS:
                with _serving(setup, haproxy, redis.url, Path(name)) as url:
                    for endpoint, path, body in endpoints:
                        load(url + path, body, warmup, connections)
                        found = load(url + path, body, seconds, connections)
                        rows.append({"setup": setup[0], "endpoint": endpoint, **found})
                        print(f"  {setup[0]}, {endpoint}: {found['rps']:.0f} req/s", flush=True)
        finally:
            redis.stop()
    return rows


def table(rows: list[dict[str, Any]]) -> list[str]:
    """Each endpoint's requests per second in each setup, and over one worker's."""
    out = ["| setup (2 cores, wrk on them too) | endpoint | req/s | p99 ms | x 1 worker |",
           "|---|---|---|---|---|"]  # fmt: skip
    first = {row["endpoint"]: row["rps"] for row in rows if row["setup"] == SETUPS[0][0]}
    for row in rows:
        times = row["rps"] / first[row["endpoint"]]
        out.append(f"| {row['setup']} | {row['endpoint']} | {row['rps']:.0f} | "
                   f"{row['p99_ms']:.2f} | {times:.2f} |")  # fmt: skip
    return out
