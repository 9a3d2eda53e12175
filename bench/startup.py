"""Startup: the time from process start to the first answered request.

The first answer is timed end to end: the service is spawned as `make bench` serves it
(`python -m bench.serve service PORT`), with every system in it, and sent a REST 4D8 check
every 5 ms until one is answered; then a GraphQL check (the GraphQL schema is built by the
first GraphQL request), then the catalogue (`GET /v1/systems`, every operation's JSON
Schemas, made by its first request); and, apart, the service as Kubernetes runs it, with
`PREPARE_ON_START`, until its `/readyz` answers 200. The server's CPU seconds by each are shown
beside the wall clock's: on a shared machine other processes stretch the wall clock, and
they do not use this process's CPU. The target is the first answer's; GraphQL's and the
catalogue's are shown beside it (a client that waits more than 10 s, as Schemathesis does,
gives up on a request).

Every process runs with its bytecode cached (in a temporary `PYTHONPYCACHEPREFIX`, filled by
an untimed run first), as an installed service has it: compiling the sources is not starting.

    python -m bench.startup              the figures, as JSON
"""

import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["FIRST_ANSWER_S", "judge", "measure", "table"]

#: Target: the first answer within 3 s of the process starting, with every system loaded.
FIRST_ANSWER_S = 3.0

CHECK = ("/v1/four-d8/check", {"ease": 20})
GRAPHQL = ("/graphql", {"query": "{ fourD8 { check(input: {ease: 20}) { success } } }"})
CATALOGUE = ("/v1/systems", None)
READY = ("/readyz", None)


def judge(figures: dict[str, float]) -> dict[str, Any]:
    """The figures with the target and whether the first answer met it."""
    return figures | {"first_answer_target_s": FIRST_ANSWER_S,
                      "met": figures["first_answer_s"] <= FIRST_ANSWER_S}  # fmt: skip


def _answered(port: int, path: str, body: dict[str, Any] | None) -> bool:
    """Whether a POST of `body` (a GET without one) was answered with a 200."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError):
        return False


def _until_answered(port: int, path: str, body: dict[str, Any] | None, started: float) -> float:
    deadline = started + 60
    while time.monotonic() < deadline:
        if _answered(port, path, body):
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


@contextlib.contextmanager
def _spawned(core: str, env: dict[str, str]) -> Iterator[tuple[int, int, float]]:
    """The service spawned on `core`: its port, its process id and when it was spawned."""
    port = _free_port()
    command = ["taskset", "-c", core, sys.executable, "-m", "bench.serve", "service",
               str(port)]  # fmt: skip
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        yield port, process.pid, started  # taskset execs the server: one process
    finally:
        process.terminate()
        process.wait(timeout=10)


def first_answers(core: str, env: dict[str, str]) -> dict[str, float]:
    """Seconds from spawning the service to its first REST answer, its first GraphQL answer
    and its catalogue, and the CPU seconds it had used by each."""
    with _spawned(core, env) as (port, pid, started):
        rest = _until_answered(port, *CHECK, started)
        rest_cpu = cpu_seconds(pid)
        graphql = _until_answered(port, *GRAPHQL, started)
        graphql_cpu = cpu_seconds(pid)
        catalogue = _until_answered(port, *CATALOGUE, started)
        catalogue_cpu = cpu_seconds(pid)
    return {
        "first_answer_s": rest,
        "first_answer_cpu_s": rest_cpu,
        "first_graphql_answer_s": graphql,
        "first_graphql_answer_cpu_s": graphql_cpu,
        # Measured after GraphQL's: the seconds from it to the catalogue's are the catalogue's.
        "catalogue_s": catalogue - graphql,
        "catalogue_cpu_s": catalogue_cpu - graphql_cpu,
    }


def prepared(core: str, env: dict[str, str]) -> dict[str, float]:
    """Seconds from spawning the service with `PREPARE_ON_START` (as Kubernetes runs it) to
    its `/readyz` answering 200, and the CPU seconds it had used by then."""
    with _spawned(core, {**env, "PREPARE_ON_START": "true"}) as (port, pid, started):
        ready = _until_answered(port, *READY, started)
        return {"prepared_ready_s": ready, "prepared_ready_cpu_s": cpu_seconds(pid)}


@contextlib.contextmanager
def cached_bytecode() -> Iterator[dict[str, str]]:
    """An environment whose processes keep their bytecode in a temporary directory."""
    with tempfile.TemporaryDirectory() as prefix:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": prefix}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        yield env


def measure(core: str = "0", repeats: int = 3) -> dict[str, Any]:
    """The startup figures, each the median of `repeats` runs, served on `core`."""
    with cached_bytecode() as env:
        first_answers(core, env)  # untimed: fills the bytecode cache
        runs = [first_answers(core, env) | prepared(core, env) for _ in range(repeats)]
    return judge({name: statistics.median(run[name] for run in runs) for name in runs[0]})


def table(figures: dict[str, Any]) -> list[str]:
    """The startup rows of `make bench`'s table."""
    met = "yes" if figures["met"] else "**no**"
    return [
        "| startup, every system loaded | seconds | CPU seconds | met |",
        "|---|---|---|---|",
        f"| first answer (≤ {figures['first_answer_target_s']:g} s) | "
        f"{figures['first_answer_s']:.2f} | {figures['first_answer_cpu_s']:.2f} | {met} |",
        f"| first GraphQL answer (no target) | {figures['first_graphql_answer_s']:.2f} | "
        f"{figures['first_graphql_answer_cpu_s']:.2f} |  |",
        f"| then the first `GET /v1/systems` (no target) | {figures['catalogue_s']:.2f} | "
        f"{figures['catalogue_cpu_s']:.2f} |  |",
        f"| prepared (`PREPARE_ON_START`), until ready (no target) | "
        f"{figures['prepared_ready_s']:.2f} | {figures['prepared_ready_cpu_s']:.2f} |  |",
    ]


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
