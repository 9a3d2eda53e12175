"""Startup: the time from process start to the first answered request, and what each
operation adds to it.

The first answer is timed end to end: the service is spawned as `make bench` serves it
(`python -m bench.serve service PORT`) and sent a REST 4D8 check every 5 ms until one is
answered; then a GraphQL check (the GraphQL schema is built by the first GraphQL request).
The server's CPU seconds by each answer are shown beside the wall clock's. What each
operation adds is
measured, not divided: a fresh process builds the app as uvicorn does (`create_app`) with
only some of the system packages (none, each alone, all) and answers one request in-process
(`GET /healthz`), then one GraphQL request; a straight line through (operations, CPU
seconds) by each answer gives a fixed part and a part per operation. CPU time, not wall
time: on a shared machine other processes stretch the wall clock by as much again, and they
do not use this process's CPU. 500 operations are projected from each first answer: today's
count's per-operation part taken off, 500 times it added. The target is the first answer's;
GraphQL's is shown beside it, since its schema is built by its first request.

Every process runs with its bytecode cached (in a temporary `PYTHONPYCACHEPREFIX`, filled by
an untimed run first), as an installed service has it: compiling the sources is not starting.

    python -m bench.startup              the figures, as JSON
    python -m bench.startup build PKG,..  (internal) one in-process build with those packages
"""

import asyncio
import contextlib
import json
import os
import pkgutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import types
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

#: A build's clock starts here, before the service is imported.
STARTED_CPU = time.process_time()

__all__ = ["FIRST_ANSWER_S", "PROJECTED", "TOTAL_S", "fit", "measure", "project", "table"]

#: Targets: the first answer within 2 s, and 500 operations' first answer within 5 s.
FIRST_ANSWER_S = 2.0
PROJECTED = 500
TOTAL_S = 5.0

CHECK = ("/v1/four-d8/check", {"ease": 20})
GRAPHQL = ("/graphql", {"query": "{ fourD8 { check(input: {ease: 20}) { success } } }"})


def fit(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The least-squares line through (x, y) points: (intercept, slope)."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        raise ValueError("a line needs points at two or more x")
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread
    return mean_y - slope * mean_x, slope


def project(first_answer_s: float, operations: int, per_operation_s: float) -> dict[str, Any]:
    """The first answer split into its fixed part and its operations' part, projected to
    `PROJECTED` operations, and whether both targets are met."""
    fixed = first_answer_s - operations * per_operation_s
    projected = fixed + PROJECTED * per_operation_s
    return {
        "first_answer_s": first_answer_s,
        "operations": operations,
        "per_operation_ms": per_operation_s * 1000,
        "fixed_s": fixed,
        "projected_operations": PROJECTED,
        "projected_s": projected,
        "first_answer_target_s": FIRST_ANSWER_S,
        "projected_target_s": TOTAL_S,
        "met": first_answer_s <= FIRST_ANSWER_S and projected <= TOTAL_S,
    }


def _post(port: int, path: str, body: dict[str, Any]) -> bool:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError):
        return False


def _until_answered(port: int, path: str, body: dict[str, Any], started: float) -> float:
    deadline = started + 60
    while time.monotonic() < deadline:
        if _post(port, path, body):
            return time.monotonic() - started
        time.sleep(0.005)
    raise RuntimeError(f"nothing answered {path} on port {port} within 60 s")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user and system, from /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_answers(core: str, env: dict[str, str]) -> dict[str, float]:
    """Seconds from spawning the service to its first REST answer and its first GraphQL
    answer, and the CPU seconds it had used by each."""
    port = _free_port()
    command = ["taskset", "-c", core, sys.executable, "-m", "bench.serve", "service",
               str(port)]  # fmt: skip
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        rest = _until_answered(port, *CHECK, started)
        rest_cpu = cpu_seconds(process.pid)  # taskset execs the server: one process
        graphql = _until_answered(port, *GRAPHQL, started)
        graphql_cpu = cpu_seconds(process.pid)
    finally:
        process.terminate()
        process.wait(timeout=10)
    return {
        "first_answer_s": rest,
        "first_answer_cpu_s": rest_cpu,
        "first_graphql_answer_s": graphql,
        "first_graphql_answer_cpu_s": graphql_cpu,
    }


def system_packages() -> list[str]:
    """The system packages under service.rules, by module name (`four_d8`)."""
    import service.rules

    return [m.name for m in pkgutil.iter_modules(service.rules.__path__) if m.ispkg]


def built(packages: Sequence[str], core: str, env: dict[str, str]) -> dict[str, float]:
    """One fresh in-process build with only `packages`: its operations and the CPU seconds
    by its first answer and by its first GraphQL answer."""
    output = subprocess.run(
        ["taskset", "-c", core, sys.executable, "-m", "bench.startup", "build",
         ",".join(packages)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    figures: dict[str, float] = json.loads(output)
    return figures


@contextlib.contextmanager
def cached_bytecode() -> Iterator[dict[str, str]]:
    """An environment whose processes keep their bytecode in a temporary directory."""
    with tempfile.TemporaryDirectory() as prefix:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": prefix}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        yield env


def measure(core: str = "0", repeats: int = 3) -> dict[str, Any]:
    """The startup figures, each the median of `repeats` runs, served on `core`."""
    packages = system_packages()
    subsets = [[], *([p] for p in packages), packages]
    with cached_bytecode() as env:
        built(packages, core, env)  # untimed: fills the bytecode cache
        builds = [_medians([built(subset, core, env) for _ in range(repeats)])
                  for subset in subsets]  # fmt: skip
        first = _medians([first_answers(core, env) for _ in range(repeats)])
    operations = int(builds[-1]["operations"])
    _, per_operation = fit([(b["operations"], b["cpu_seconds"]) for b in builds])
    _, graphql_per_operation = fit([(b["operations"], b["graphql_cpu_seconds"]) for b in builds])
    graphql_fixed = first["first_graphql_answer_s"] - operations * graphql_per_operation
    return project(first["first_answer_s"], operations, per_operation) | first | {
        "graphql_per_operation_ms": graphql_per_operation * 1000,
        "graphql_fixed_s": graphql_fixed,
        "graphql_projected_s": graphql_fixed + PROJECTED * graphql_per_operation,
        "in_process": builds,
    }  # fmt: skip


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {name: statistics.median(run[name] for run in runs) for name in runs[0]}


def table(figures: dict[str, Any]) -> list[str]:
    """The startup rows of `make bench`'s table."""
    met = "yes" if figures["met"] else "**no**"
    return [
        "| startup | seconds | CPU seconds | per operation ms | fixed s | "
        f"{figures['projected_operations']} operations s (≤ {figures['projected_target_s']:g}) "
        "| met |",
        "|---|---|---|---|---|---|---|",
        f"| first answer, {figures['operations']} operations "
        f"(≤ {figures['first_answer_target_s']:g} s) | {figures['first_answer_s']:.2f} | "
        f"{figures['first_answer_cpu_s']:.2f} | {figures['per_operation_ms']:.1f} | "
        f"{figures['fixed_s']:.2f} | {figures['projected_s']:.2f} | {met} |",
        f"| first GraphQL answer (no target) | {figures['first_graphql_answer_s']:.2f} | "
        f"{figures['first_graphql_answer_cpu_s']:.2f} | "
        f"{figures['graphql_per_operation_ms']:.1f} | {figures['graphql_fixed_s']:.2f} | "
        f"{figures['graphql_projected_s']:.2f} |  |",
    ]


def _build(packages: set[str]) -> None:
    """Build the app as uvicorn does, with only `packages` of the system packages, and answer
    a request, then a GraphQL request; print the operations and the CPU seconds by each."""
    import service.rules

    for found in pkgutil.iter_modules(service.rules.__path__, "service.rules."):
        if found.ispkg and found.name.rsplit(".", 1)[1] not in packages:
            # An empty module declares no system, so `load` passes over it unimported.
            sys.modules[found.name] = types.ModuleType(found.name)
    from service.app import create_app
    from service.rules.registry import load

    app = create_app()
    assert asyncio.run(_answer(app, "GET", "/healthz", b"")) == 200
    cpu = time.process_time() - STARTED_CPU
    query = json.dumps({"query": "{ __typename }"}).encode()
    assert asyncio.run(_answer(app, "POST", "/graphql", query)) == 200
    graphql_cpu = time.process_time() - STARTED_CPU
    operations = sum(len(system.operations) for system in load().systems)
    print(json.dumps({"operations": operations, "cpu_seconds": cpu,
                      "graphql_cpu_seconds": graphql_cpu}))  # fmt: skip


async def _answer(app: Any, method: str, path: str, body: bytes) -> int:
    """The status of one request to an ASGI app, without a server."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    headers = [(b"content-type", b"application/json")] if body else []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": b"", "headers": headers,
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}  # fmt: skip
    await app(scope, receive, send)
    return int(sent[0]["status"])


if __name__ == "__main__":
    if sys.argv[1:2] == ["build"]:
        _build(set(filter(None, sys.argv[2].split(","))))
    else:
        print(json.dumps(measure(), indent=2))
