"""`make bench`: the service against its own physical limits, measured side by side.

In one run, on this machine: a bare Starlette endpoint and a bare Strawberry query (the
baselines), the service with its in-memory cache and the service with Redis (a redis-server
started here) are each served by one uvicorn worker pinned to core 0, and driven by `wrk`
pinned to core 1 with the same connections, warm-up and duration. The whole sequence runs
several rounds and each figure is the median of its rounds. Ratios, not absolute times, are
the result: each service figure is divided by the baseline it stands on. Cold exact odds are
timed in-process against icepool; startup (the first answer after the process starts) by
`bench.startup`; and a check's rate with two workers and with two replicas behind HAProxy by
`bench.scale`. The table is printed and written as JSON under bench/results/.

    python -m bench.run [--rounds N] [--duration S] [--warmup S] [--connections N]
                        [--baselines-last] [--startup-repeats N] [--no-scale]
"""

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import scale, startup
from bench.cold import (
    DEX1,
    FI_CHECK,
    FORESIGHT_ATTACK,
    FOUR_D8_EASE,
    SPEEDUP_TARGET,
)
from bench.cold import measure as measure_cold

RESULTS = Path("bench/results")
SERVER_CORE, LOAD_CORE = "0", "1"
RSS_LIMIT_MB = 120
#: Connections for the workers-and-replicas figures: enough to keep two processes busy.
SCALE_CONNECTIONS = 32


@dataclass(frozen=True)
class Target:
    """One endpoint to load: which server, which path, which body, compared with what."""

    name: str
    server: str
    path: str
    body: dict[str, Any]
    baseline: str | None = None
    ratio_target: float | None = None


def _graphql(query: str) -> dict[str, Any]:
    return {"query": query}


STARLETTE = Target("bare Starlette POST", "starlette", "/check", {"ease": 20})
STRAWBERRY = Target("bare Strawberry query", "strawberry", "/graphql",
                    _graphql("{ check(ease: 20) { ease success degree } }"))  # fmt: skip

#: Issue 25's targets: requests per second as a share of the bare framework's, and p99 at
#: most this many times the baseline's at the same load.
REST_TARGET, GRAPHQL_TARGET, MEMORY_TARGET, REDIS_TARGET, P99_TARGET = 0.85, 0.95, 0.8, 0.6, 1.5

#: Each system's most called check: (system, REST path, body, the same check in GraphQL).
CHECKS = (
    ("4D8", "/v1/four-d8/check", {"ease": 20},
     "{ fourD8 { check(input: {ease: 20}) { success degree seed } } }"),
    ("4SIGHT", "/v1/four-sight/check",
     {"traits": [{"trait": "intelligence", "score": 4}], "target_number": 7},
     "{ fourSight { check(input: {traits: [{trait: INTELLIGENCE, score: 4}], targetNumber: 7})"
     " { success margin seed } } }"),
    ("4C", "/v1/four-c/master-table/check", {"rv": 20, "required": "blue"},
     "{ fourC { masterTableCheck(input: {rv: 20, required: BLUE}) { colour success seed } } }"),
    ("Future Imperfect", "/v1/future-imperfect/core/check", FI_CHECK,
     '{ futureImperfect { coreCheck(input: {pool: "III-3", tn: 3}) { success successes seed } } }'),
    ("FORESIGHT", "/v1/foresight/resolve", {"score": 14, "bef": 5},
     "{ foresight { resolve(input: {score: 14, bef: 5}) { qr seed } } }"),
)  # fmt: skip
#: Each system's heaviest odds: (name, path, body).
ODDS = (
    ("4D8 check odds", "/v1/four-d8/check/odds", {"ease": FOUR_D8_EASE}),
    ("4SIGHT combat odds", "/v1/four-sight/combat-attack/odds",
     {"attacker": DEX1, "defender": DEX1}),
    ("4C Master Table odds", "/v1/four-c/master-table/check/odds", CHECKS[2][2]),
    ("Future Imperfect III-3 odds", "/v1/future-imperfect/core/check/odds", FI_CHECK),
    ("FORESIGHT attack odds", "/v1/foresight/attack/odds", FORESIGHT_ATTACK),
)  # fmt: skip


def service_targets(cache: str) -> list[Target]:
    """The service's endpoints for one cache backend ('memory' or 'redis'): with memory, each
    system's check over REST and GraphQL, then every system's heaviest odds."""
    found = []
    if cache == "memory":
        for system, path, body, query in CHECKS:
            found += [
                Target(f"REST {system} check", "service", path, body, STARLETTE.name,
                       REST_TARGET),
                Target(f"GraphQL {system} check", "service", "/graphql", _graphql(query),
                       STRAWBERRY.name, GRAPHQL_TARGET),
            ]  # fmt: skip
    target = MEMORY_TARGET if cache == "memory" else REDIS_TARGET
    found += [Target(f"{name} ({cache} cache)", "service", path, body, STARLETTE.name, target)
              for name, path, body in ODDS]  # fmt: skip
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, path: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1)
            return
        except urllib.error.HTTPError:
            return  # an answer, if not a 200: the baselines have no GET route
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port}")


def ask(port: int, path: str, body: dict[str, Any]) -> None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as response:
        response.read()


@contextlib.contextmanager
def served(server: str, env: dict[str, str] | None = None) -> Iterator[tuple[int, int]]:
    """Serve one target pinned to the server core; yields (port, pid)."""
    port = free_port()
    command = ["taskset", "-c", SERVER_CORE, sys.executable, "-m", "bench.serve", server,
               str(port)]  # fmt: skip
    process = subprocess.Popen(
        command, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_for(port, "/healthz" if server == "service" else "/")
        if server == "service":
            # The GraphQL schema is built by the first GraphQL request (seconds): before, not
            # inside, any measured window.
            ask(port, "/graphql", _graphql("{ __typename }"))
        yield port, process.pid
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def redis() -> Iterator[str]:
    """A redis-server of our own on a free port, pinned with the server, saving nothing."""
    executable = shutil.which("redis-server")
    if executable is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    process = subprocess.Popen(
        ["taskset", "-c", SERVER_CORE, executable, "--port", str(port), "--save", "",
         "--appendonly", "no", "--bind", "127.0.0.1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


_LUA = """wrk.method = "POST"
wrk.body = {body}
wrk.headers["Content-Type"] = "application/json"
"""


def wrk(port: int, target: Target, seconds: float, connections: int) -> dict[str, float]:
    """Closed-loop load with wrk pinned to the load core: requests/s, p50 and p99 in ms."""
    url = f"http://127.0.0.1:{port}{target.path}"
    return load_url(url, target.body, seconds, connections, LOAD_CORE)


def load_url(url: str, body: dict[str, Any], seconds: float, connections: int,
             core: str | None = None) -> dict[str, float]:  # fmt: skip
    """wrk POSTing `body` to `url`, pinned to `core` if given."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_LUA.format(body=json.dumps(json.dumps(body))))
    pinned = ["taskset", "-c", core] if core is not None else []
    try:
        output = subprocess.run(
            [*pinned, "wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s",
             "--latency", "-s", script.name, url],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    finally:
        os.unlink(script.name)
    return parse_wrk(output)


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def parse_wrk(output: str) -> dict[str, float]:
    def latency(percentile: str) -> float:
        found = re.search(rf"^\s*{percentile}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        assert found, output
        return float(found[1]) * _UNITS[found[2]]

    rate = re.search(r"^Requests/sec:\s+([\d.]+)", output, re.M)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    assert rate, output
    return {
        "rps": float(rate[1]),
        "p50_ms": latency("50"),
        "p99_ms": latency("99"),
        "non_2xx": float(errors[1]) if errors else 0.0,
    }


def rss_mb(pid: int) -> float:
    """Resident memory of the serving process (uvicorn's, under taskset's exec)."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    assert found
    return int(found[1]) / 1024


def load(
    targets: list[Target],
    server: str,
    env: dict[str, str],
    args: argparse.Namespace,
    rows: dict[str, dict[str, Any]],
    memory: dict[str, float],
) -> None:
    with served(server, env) as (port, pid):
        for target in targets:
            wrk(port, target, args.warmup, args.connections)
            rows[target.name] = {"target": target, **wrk(port, target, args.duration,
                                                         args.connections)}  # fmt: skip
            print(f"  {target.name}: {rows[target.name]['rps']:.0f} req/s", flush=True)
        key = f"{server} {(env.get('REDIS_URL') and 'redis') or 'memory'}"
        memory[key] = max(memory.get(key, 0.0), rss_mb(pid))


def one_round(args: argparse.Namespace, memory: dict[str, float]) -> dict[str, dict[str, Any]]:
    """Every endpoint once: the baselines first (or last), then the service with each cache."""
    rows: dict[str, dict[str, Any]] = {}
    quiet = {"LOG_REQUESTS": os.environ.get("LOG_REQUESTS", "true")}

    def baselines() -> None:
        load([STARLETTE], "starlette", {}, args, rows, memory)
        load([STRAWBERRY], "strawberry", {}, args, rows, memory)

    if not args.baselines_last:
        baselines()
    load(service_targets("memory"), "service", quiet, args, rows, memory)
    with redis() as url:
        load(service_targets("redis"), "service", {**quiet, "REDIS_URL": url}, args, rows,
             memory)  # fmt: skip
    if args.baselines_last:
        baselines()
    return rows


def medians(rounds: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Each endpoint's median figures over the rounds. This shared machine's throughput
    drifts by 10% or more within a minute, so one window can catch a baseline on a fast
    stretch and its service on a slow one; the median of rounds run apart does not."""
    combined: dict[str, dict[str, Any]] = {}
    for name, first in rounds[0].items():
        runs = [r[name] for r in rounds]
        combined[name] = {"target": first["target"], "rounds_rps": [r["rps"] for r in runs],
                          "non_2xx": sum(r["non_2xx"] for r in runs)}  # fmt: skip
        for figure in ("rps", "p50_ms", "p99_ms"):
            combined[name][figure] = statistics.median(r[figure] for r in runs)
    return combined


def run(args: argparse.Namespace) -> dict[str, Any]:
    memory: dict[str, float] = {}
    rounds = []
    for number in range(1, args.rounds + 1):
        print(f"round {number} of {args.rounds}", flush=True)
        rounds.append(one_round(args, memory))
    cold = measure_cold(args.cold_repeats)
    print("startup", flush=True)
    started = startup.measure(SERVER_CORE, args.startup_repeats)
    result = report(medians(rounds), memory, cold, args, started)
    if args.scale:
        print("workers and replicas", flush=True)
        system, path, body, query = CHECKS[-1]  # FORESIGHT's: its odds are the heaviest
        endpoints = [(f"REST {system} check", path, body),
                     (f"GraphQL {system} check", "/graphql", _graphql(query))]  # fmt: skip
        result["scale"] = scale.measure(load_url, endpoints, args.duration, args.warmup,
                                        SCALE_CONNECTIONS)  # fmt: skip
    return result


def report(
    rows: dict[str, dict[str, Any]],
    memory: dict[str, float],
    cold: list[dict[str, Any]],
    args: argparse.Namespace,
    started: dict[str, Any],
) -> dict[str, Any]:
    lines = []
    for name, row in rows.items():
        target: Target = row["target"]
        line = {"name": name, "rps": row["rps"], "p50_ms": row["p50_ms"],
                "p99_ms": row["p99_ms"], "non_2xx": row["non_2xx"],
                "rounds_rps": row.get("rounds_rps", [row["rps"]])}  # fmt: skip
        if target.baseline is not None:
            base = rows[target.baseline]
            line |= {
                "baseline": target.baseline,
                "rps_ratio": row["rps"] / base["rps"],
                "rps_target": target.ratio_target,
                "p99_ratio": row["p99_ms"] / base["p99_ms"],
                "p99_target": P99_TARGET,
            }
            line["met"] = (line["rps_ratio"] >= (target.ratio_target or 0)
                           and line["p99_ratio"] <= P99_TARGET and not row["non_2xx"])  # fmt: skip
        lines.append(line)
    service_rss = max(v for k, v in memory.items() if k.startswith("service"))
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "settings": {"rounds": args.rounds, "duration_s": args.duration, "warmup_s": args.warmup,
                     "connections": args.connections, "server_core": SERVER_CORE,
                     "load_core": LOAD_CORE, "baselines_last": args.baselines_last},
        "load": lines,
        "cold_odds": [row | {"met": row["speedup"] >= SPEEDUP_TARGET} for row in cold],
        "rss_mb": memory,
        "rss_met": service_rss <= RSS_LIMIT_MB,
        "startup": started,
    }  # fmt: skip


def table(result: dict[str, Any]) -> str:
    rounds = result["settings"]["rounds"]
    out = [
        f"Median of {rounds} rounds, each endpoint {result['settings']['duration_s']:g} s a round.",
        "",
        f"| endpoint | req/s | p50 ms | p99 ms | req/s ratio (target) | p99 ratio "
        f"(≤ {P99_TARGET:g}) | met |",
        "|---|---|---|---|---|---|---|",
    ]
    for line in result["load"]:
        if "baseline" in line:
            ratio = f"{line['rps_ratio']:.2f} x ({line['rps_target']} x)"
            p99 = f"{line['p99_ratio']:.2f}"
            met = "yes" if line["met"] else "**no**"
        else:
            ratio, p99, met = "baseline", "", ""
        out.append(f"| {line['name']} | {line['rps']:.0f} | {line['p50_ms']:.2f} | "
                   f"{line['p99_ms']:.2f} | {ratio} | {p99} | {met} |")  # fmt: skip
    out += ["", f"| cold exact odds (median) | service ms | icepool ms | speed-up "
            f"(≥ {SPEEDUP_TARGET:g}) | met |",
            "|---|---|---|---|---|"]  # fmt: skip
    for row in result["cold_odds"]:
        out.append(f"| {row['name']} | {row['service_ms']:.3f} | {row['icepool_ms']:.3f} | "
                   f"{row['speedup']:.2f} x | {'yes' if row['met'] else '**no**'} |")  # fmt: skip
    rss = ", ".join(f"{k} {v:.0f} MB" for k, v in result["rss_mb"].items())
    out += ["", *startup.table(result["startup"])]
    out += ["", f"Resident memory after load: {rss} (service ≤ {RSS_LIMIT_MB} MB: "
            f"{'met' if result['rss_met'] else 'NOT met'})."]  # fmt: skip
    if result.get("scale"):
        out += ["", *scale.table(result["scale"])]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=float, default=5)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--cold-repeats", type=int, default=30)
    parser.add_argument("--startup-repeats", type=int, default=3)
    parser.add_argument(
        "--baselines-last", action="store_true", help="measure the baselines after the service"
    )
    parser.add_argument(
        "--no-scale", dest="scale", action="store_false",
        help="leave out the workers-and-replicas figures",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None or shutil.which("taskset") is None:
        raise SystemExit("wrk and taskset are needed: apt-get install wrk util-linux")
    result = run(args)
    text = table(result)
    print(text)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"bench-{result['when'].replace(':', '')}.json"
    path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {path}")
    met = all(line.get("met", True) for line in result["load"]) and result["startup"]["met"]
    return 0 if met and result["rss_met"] and all(r["met"] for r in result["cold_odds"]) else 1


if __name__ == "__main__":
    sys.exit(main())
