"""Graceful shutdown (issue 17, service/drain.py): told to stop under load, the real server
(`python -m service serve`, one worker and two) stops being ready, serves every request it
was sent, and exits 0 within its grace period.

The load is exact odds that take tens of milliseconds each on the one odds thread, every
payload new to the server's cache, so requests queue and are in flight when SIGTERM comes.
Bounds on time are generous: what is asserted is that nothing is lost, not how fast."""

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.test_cost import HEAVY
from tools.cluster import Replica

# Timed or loaded: run by itself, after the parallel suite (Makefile).
pytestmark = pytest.mark.alone

TIMEOUT_SECONDS = 20  # SHUTDOWN_TIMEOUT_SECONDS: what in-flight requests may take after a drain
SLACK_SECONDS = 15  # for the process to start its shutdown and end on a loaded machine
ODDS = "/v1/four-sight/check/odds"
#: 252 distinct combat checks with three exploding manifestations: 20-60 ms of odds each.
PAYLOADS = [
    json.dumps(
        {
            **HEAVY,
            "traits": [{"trait": "dexterity", "score": score}],
            "target_number": target,
            "expertise": expertise,
        }
    ).encode()
    for score, target, expertise in itertools.product(
        range(1, 7), range(2, 16), ("specialty", "affinity", "none")
    )
]


@dataclass
class Sent:
    """One request: when it was sent and answered (monotonic), and how."""

    sent: float
    answered: float = 0.0
    outcome: str = ""  # "200" with a whole JSON body, else what went wrong


@dataclass
class Run:
    requests: list[Sent] = field(default_factory=list)
    sigterm: float = 0.0
    draining: dict[str, Any] = field(default_factory=dict)  # /readyz while draining
    live_while_draining: int = 0  # /healthz's status then
    sent_while_draining: str = ""  # how odds first sent then were answered
    exit_code: int | None = None
    exit_after: float = 0.0  # seconds from SIGTERM

    def lost(self) -> list[str]:
        return [r.outcome for r in self.requests if r.outcome != "200"]

    def in_flight_at_sigterm(self) -> int:
        return sum(r.sent < self.sigterm < r.answered for r in self.requests)


async def _send(http: httpx.AsyncClient, body: bytes, run: Run) -> None:
    sent = Sent(time.monotonic())
    run.requests.append(sent)
    try:
        answer = await http.post(ODDS, content=body, headers={"content-type": "application/json"})
        answer.json()  # the whole body arrived
        sent.outcome = str(answer.status_code)
    except (httpx.HTTPError, ValueError) as error:
        sent.outcome = repr(error)
    sent.answered = time.monotonic()


def _replica(tmp_path: Path, workers: int, drain: float) -> Replica:
    env = {
        "LOG_REQUESTS": "false",
        "SHUTDOWN_DRAIN_SECONDS": str(drain),
        "SHUTDOWN_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS),
        "ODDS_DEADLINE_SECONDS": "60",
    }
    replica = Replica("server", env, tmp_path / "server.log", workers=workers)
    replica.start()
    return replica


async def _stop(replica: Replica, run: Run, drain: float) -> None:
    """SIGTERM, then wait (in a thread) for the process to exit."""
    run.sigterm = time.monotonic()
    replica.terminate()
    run.exit_code = await asyncio.to_thread(replica.wait, drain + TIMEOUT_SECONDS + SLACK_SECONDS)
    run.exit_after = time.monotonic() - run.sigterm


async def _drained_under_load(replica: Replica, drain: float) -> Run:
    """Eight clients send odds back to back; after a second, SIGTERM. The clients stop
    sending once /readyz says draining, as a balancer would, and one more request is sent
    then, as a balancer slow to notice would: every request sent must be answered."""
    run, stop = Run(), asyncio.Event()
    payloads = itertools.cycle(PAYLOADS)

    async def client(http: httpx.AsyncClient) -> None:
        while not stop.is_set():
            await _send(http, next(payloads), run)

    async def watch(http: httpx.AsyncClient) -> None:
        while True:
            ready = await http.get("/readyz")
            if ready.status_code == 503:
                run.draining = ready.json()
                run.live_while_draining = (await http.get("/healthz")).status_code
                stop.set()
                await _send(http, PAYLOADS[-1], run)
                run.sent_while_draining = run.requests[-1].outcome
                return
            await asyncio.sleep(0.05)

    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(base_url=replica.url, timeout=60, limits=limits) as http:
        clients = [asyncio.create_task(client(http)) for _ in range(8)]
        await asyncio.sleep(1.0)
        stopping = asyncio.create_task(_stop(replica, run, drain))
        await watch(http)
        await asyncio.gather(*clients)
        await stopping
    return run


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_drains_serves_every_request_sent_and_exits_0(tmp_path: Path, workers: int):
    drain = 3.0
    replica = _replica(tmp_path, workers, drain)
    try:
        run = asyncio.run(_drained_under_load(replica, drain))
    finally:
        replica.kill()
    assert run.draining["status"] == "draining"
    assert run.live_while_draining == 200  # not ready, still alive: no restart
    assert run.lost() == []
    assert run.in_flight_at_sigterm() > 0
    assert run.sent_while_draining == "200"
    assert run.exit_code == 0
    # It kept serving for the drain, and was done well within its grace period.
    assert drain <= run.exit_after < drain + TIMEOUT_SECONDS + SLACK_SECONDS


async def _in_flight_then_sigterm(replica: Replica, count: int) -> Run:
    """`count` odds sent at once, each on a connection of its own: seconds of work for the
    one odds thread. Half a second later, SIGTERM with no drain."""
    run = Run()
    limits = httpx.Limits(max_connections=count)
    async with httpx.AsyncClient(base_url=replica.url, timeout=60, limits=limits) as http:
        sending = [asyncio.create_task(_send(http, body, run)) for body in PAYLOADS[:count]]
        await asyncio.sleep(0.5)  # every request is read by now; most still wait for odds
        await _stop(replica, run, 0)
        await asyncio.gather(*sending)
    return run


@pytest.mark.parametrize("workers", [1, 2])
def test_requests_in_flight_at_sigterm_are_finished_before_exit(tmp_path: Path, workers: int):
    replica = _replica(tmp_path, workers, drain=0)
    try:
        run = asyncio.run(_in_flight_then_sigterm(replica, 60))
    finally:
        replica.kill()
    assert len(run.requests) == 60
    assert run.lost() == []
    assert run.in_flight_at_sigterm() > 0
    assert run.exit_code == 0
    assert run.exit_after < TIMEOUT_SECONDS + SLACK_SECONDS
