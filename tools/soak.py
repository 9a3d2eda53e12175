"""Soak the service: a mixed load for minutes while its resident memory is watched.

Starts the real service (`python -m service serve`, one uvicorn process) on a free port,
with a redis-server of its own when one is installed (`--cache`), and has a few clients
send, for `SOAK_SECONDS` (600): REST rules with fresh seeds and varied inputs, odds both
precomputed-standard (cache hits) and fresh (new cache keys), GraphQL with a few fixed
documents and many distinct query texts (which fill the parsed-document cache to its byte
budget), and a few deliberately bad requests (oversized, malformed, unknown, wrong type).

Every `--interval` seconds it prints the requests so far, the errors and the server's
resident memory (VmRSS from /proc/<pid>/status). An error is a transport error, or an answer
other than the one expected: 2xx (and no GraphQL errors) for a good request, 4xx (or
GraphQL errors) for a bad one. The last line is the verdict; the command fails when any
request failed or the memory grew by more than `--max-growth` percent over the second half
(the first half is warm-up: lazily built schemas and bounded caches filling).

Usage: python -m tools.soak [--seconds N] [--cache auto|redis|memory] [--clients N]
"""

import argparse
import contextlib
import json
import os
import random
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from service.rules.registry import load
from tests.redis_server import RedisServer
from tests.served import served

JSON = {"content-type": "application/json"}
BEF_LADDER = (0, 0.25, 0.5, *range(1, 16))
FIXED_QUERY = (
    "query($e: Int!, $s: Int!) { fourD8 {"
    " check(input: {ease: $e, dice: {seed: $s}}) { degree success rolls { value } }"
    " checkOdds(input: {ease: $e}) { summary { success { exact } } } } }"
)


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=lambda: JSON)
    bad: bool = False  # sent to be refused

    def failure(self, response: httpx.Response) -> str | None:
        """Why the answer is not the one expected, or None."""
        graphql_errors = self.path == "/graphql" and b'"errors"' in response.content
        if self.bad:
            refused = response.is_client_error or (response.is_success and graphql_errors)
            return None if refused else f"bad request answered {response.status_code}"
        if not response.is_success or graphql_errors:
            return f"{response.status_code} {response.text[:200]}"
        return None


def post(path: str, body: Any, *, bad: bool = False) -> Request:
    return Request("POST", path, json.dumps(body).encode(), bad=bad)


class Mix:
    """Draws requests: each kind by its weight, each with its own spread of inputs."""

    def __init__(self) -> None:
        self.examples: list[tuple[str, dict[str, Any], bool]] = []
        self.standard: list[Request] = []
        for system in load().systems:
            for op in system.operations:
                base = f"/v1/{system.slug}/{op.name}"
                self.examples.append((base, dict(op.example), op.random))
                self.standard += [post(f"{base}/odds", dict(p)) for p in op.standard]
        self.kinds: list[tuple[Callable[[random.Random], Request], int]] = [
            (self.rule, 30),
            (self.check, 15),
            (self.standard_odds, 20),
            (self.fresh_odds, 10),
            (self.graphql_fixed, 10),
            (self.graphql_distinct, 12),
            (self.bad, 3),
        ]

    def draw(self, rng: random.Random) -> Request:
        kinds, weights = zip(*self.kinds, strict=True)
        kind: Callable[[random.Random], Request] = rng.choices(kinds, weights)[0]
        return kind(rng)

    def rule(self, rng: random.Random) -> Request:
        """Any operation's example, with a fresh seed when it rolls and names no faces."""
        base, example, rolls = rng.choice(self.examples)
        if rolls and "values" not in example.get("dice", {}):
            example = {**example, "dice": {"seed": rng.randrange(2**31)}}
        return post(base, example)

    def check(self, rng: random.Random) -> Request:
        """A 4D8 check of many distinct requests (the remembered outcomes are bounded)."""
        body = {
            "ease": rng.randint(-64, 32),
            "other_modifiers": [rng.randint(-8, 8)],
            "dice": {"seed": rng.randrange(2**31)},
        }
        return post("/v1/four-d8/check", body)

    def standard_odds(self, rng: random.Random) -> Request:
        return rng.choice(self.standard)

    def fresh_odds(self, rng: random.Random) -> Request:
        """Odds of inputs seldom seen before: new cache keys, computed and stored."""
        if rng.random() < 0.5:
            modifiers = [rng.randint(-32, 32) for _ in range(2)]
            body = {"ease": rng.randint(-64, 32), "other_modifiers": modifiers}
            return post("/v1/four-d8/check/odds", body)
        body = {
            "score": rng.randint(0, 25),
            "bef": rng.choice(BEF_LADDER),
            "modifiers": [rng.randint(-30, 30)],
        }
        return post("/v1/foresight/resolve/odds", body)

    def graphql_fixed(self, rng: random.Random) -> Request:
        """One document with variables: parsed once, then served from the document cache."""
        variables = {"e": rng.randint(-8, 32), "s": rng.randrange(2**31)}
        return post("/graphql", {"query": FIXED_QUERY, "variables": variables})

    def graphql_distinct(self, rng: random.Random) -> Request:
        """A query text of its own (literal inputs, varied aliases): a new parsed document."""
        fields = " ".join(
            f"a{i}_{rng.randrange(10**6)}: check(input: {{ease: {rng.randint(-64, 32)}, "
            f"dice: {{seed: {rng.randrange(2**31)}}}}}) {{ degree success }}"
            for i in range(rng.randint(1, 4))
        )
        return post("/graphql", {"query": f"{{ fourD8 {{ {fields} }} }}"})

    def bad(self, rng: random.Random) -> Request:
        return rng.choice(
            [
                post("/v1/four-d8/check", {"ease": 20, "padding": "x" * 70_000}, bad=True),
                Request("POST", "/v1/four-d8/check", b'{"ease": ', bad=True),
                post("/v1/four-d8/check", {"ease": 99}, bad=True),
                post("/v1/four-d8/no-such-rule", {}, bad=True),
                Request(
                    "POST",
                    "/v1/four-d8/check",
                    b"ease=20",
                    {"content-type": "text/plain"},
                    bad=True,
                ),
                post("/graphql", {"query": "{ fourD8 { check(input: {ease: 20 }"}, bad=True),
            ]
        )


@dataclass
class Tally:
    requests: int = 0
    bad: int = 0
    errors: int = 0
    examples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, request: Request, failure: str | None) -> None:
        with self.lock:
            self.requests += 1
            self.bad += request.bad
            if failure is not None:
                self.errors += 1
                if len(self.examples) < 10:
                    self.examples.append(f"{request.method} {request.path}: {failure}")


def client(base: str, mix: Mix, tally: Tally, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as http:
        while not stop.is_set():
            request = mix.draw(rng)
            try:
                response = http.request(
                    request.method, request.path, content=request.body, headers=request.headers
                )
                failure = request.failure(response)
            except httpx.HTTPError as error:
                failure = f"{type(error).__name__}: {error}"
            tally.count(request, failure)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def redis_env(url: str | None) -> dict[str, str]:
    return {} if url is None else {"REDIS_URL": url}


@contextlib.contextmanager
def redis_url(cache: str) -> Iterator[str | None]:
    """A throwaway redis-server's URL (the test suite's), or None for the memory cache."""
    executable = shutil.which("redis-server")
    if cache == "memory" or (cache == "auto" and executable is None):
        yield None
        return
    if executable is None:
        raise SystemExit("--cache redis: redis-server is not installed")
    server = RedisServer(executable)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def soak(base: str, pid: int, args: argparse.Namespace) -> tuple[Tally, list[tuple[float, float]]]:
    """Run the clients for `args.seconds`, printing a row per interval; (time, RSS) samples."""
    mix, tally, stop = Mix(), Tally(), threading.Event()
    threads = [
        threading.Thread(target=client, args=(base, mix, tally, stop, i), daemon=True)
        for i in range(args.clients)
    ]
    print(f"{'time s':>7} {'requests':>9} {'req/s':>6} {'bad':>6} {'errors':>6} {'RSS MB':>7}")
    samples: list[tuple[float, float]] = []
    start = time.monotonic()
    for thread in threads:
        thread.start()
    last = 0
    try:
        while (elapsed := time.monotonic() - start) < args.seconds:
            time.sleep(min(args.interval, args.seconds - elapsed))
            elapsed, requests, rss = time.monotonic() - start, tally.requests, rss_mb(pid)
            samples.append((elapsed, rss))
            rate = (requests - last) / args.interval
            row = (elapsed, requests, rate, tally.bad, tally.errors, rss)
            print("{:7.0f} {:9d} {:6.0f} {:6d} {:6d} {:7.1f}".format(*row), flush=True)
            last = requests
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=35)
    return tally, samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", 600)))
    parser.add_argument(
        "--cache",
        choices=("auto", "redis", "memory"),
        default="auto",
        help="auto: Redis when redis-server is installed",
    )
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--interval", type=float, default=10)
    parser.add_argument(
        "--max-growth", type=float, default=10, help="percent of RSS over the second half"
    )
    args = parser.parse_args()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"soak-{os.getpid()}.log"
    with redis_url(args.cache) as redis, served(redis_env(redis), log) as (base, pid):
        cache = "redis" if redis else "memory"
        print(f"soak: {args.seconds:.0f} s, {args.clients} clients, {cache} cache, pid {pid}")
        tally, samples = soak(base, pid, args)
    if not samples:
        raise SystemExit("no samples: --seconds shorter than --interval?")
    mid = next(rss for t, rss in samples if t >= args.seconds / 2)
    end = samples[-1][1]
    growth = 100 * (end - mid) / mid
    top = max(rss for _, rss in samples)
    print(f"RSS MB: start {samples[0][1]:.1f}, half-way {mid:.1f}, end {end:.1f}, max {top:.1f}")
    for example in tally.examples:
        print("error:", example)
    ok = tally.errors == 0 and growth <= args.max_growth
    print(
        f"verdict: {'PASS' if ok else 'FAIL'}: {tally.requests} requests, {tally.errors} errors, "
        f"RSS {growth:+.1f}% over the second half (limit {args.max_growth:g}%)"
    )
    if tally.errors:
        print(f"service log: {log}")
    else:
        log.unlink()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
