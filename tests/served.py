"""The service as `python -m service serve` runs it, in a subprocess on a free loopback port,
for the tests and tools that talk to a real server (connection limits, Redis faults,
fuzzing, soak). It never uses a Redis or a port of the machine's own."""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path

__all__ = ["free_port", "served"]

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def served(
    env: Mapping[str, str] | None = None,
    log: Path | None = None,
    seconds: float = 30,
    until: str = "/healthz",
) -> Iterator[tuple[str, int]]:
    """The service's base URL and process id, once `until` answers 200 (/readyz: once it is
    ready). `env` is added to this process's environment, without its REDIS_URL and with
    LOG_REQUESTS=false unless `env` says otherwise; its output goes to `log` (else to this
    process's)."""
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    environment.update({"LOG_REQUESTS": "false", **(env or {})})
    command = [sys.executable, "-m", "service", "serve", "--port", str(port)]
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(log.open("wb")) if log is not None else None
        server = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=out, stderr=out)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + seconds
        while not _answers(base + until):
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"the service did not start{f'; see {log}' if log else ''}")
            time.sleep(0.05)
        yield base, server.pid
    finally:
        server.terminate()
        server.wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False
