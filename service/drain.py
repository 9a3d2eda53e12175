"""Graceful shutdown: on SIGTERM the service first stops being ready, then stops.

A load balancer (Kubernetes endpoints, HAProxy's health checks) takes a while to notice that
a replica is going away. Were the listener closed the moment SIGTERM arrives, requests sent
in that while would be refused. So SIGTERM starts a drain instead:

1. `/readyz` answers 503 `{"status": "draining"}` at once, while every request is still
   served, for `SHUTDOWN_DRAIN_SECONDS`: the balancers take the replica out of their pools;
2. then uvicorn's own graceful shutdown runs: it stops accepting connections, closes idle
   ones, lets the requests in flight finish (for at most `SHUTDOWN_TIMEOUT_SECONDS`, after
   which they are cancelled), runs the app's lifespan shutdown and exits.

A second SIGTERM during the drain ends it at once. SIGINT (Ctrl+C) is left to uvicorn: no
drain. With `--workers` above 1 uvicorn's supervisor passes SIGTERM on to each worker, and
each worker drains the same way.

The drain is installed by the app's lifespan startup, which uvicorn runs in each worker
after it has set its own signal handlers (`uvicorn.Server.capture_signals`): the drain wraps
uvicorn's SIGTERM handler and calls it when the drain is over. So it needs no subclass of
uvicorn's server or supervisor, and works however many workers serve.
"""

import asyncio
import logging
import signal
import threading
from types import FrameType

__all__ = ["Drain", "exit_cleanly_on_sigterm"]

LOG = logging.getLogger("adjudicator")


class Drain:
    """Whether this process is draining, and the SIGTERM handler that starts it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.draining = False

    def install(self) -> bool:
        """Wrap the server's SIGTERM handler, from the event loop the server runs on.

        Nothing is installed off the main thread (an app served by a test client runs its
        lifespan in a thread of its own, and only the main thread may set signal handlers),
        nor when no Python handler is set (no server of ours to stop after the drain)."""
        if threading.current_thread() is not threading.main_thread():
            return False
        stop = signal.getsignal(signal.SIGTERM)
        if not callable(stop):
            return False
        loop = asyncio.get_running_loop()

        def begin() -> None:
            LOG.info("SIGTERM: draining for %s s, then finishing the requests in flight",
                     self.seconds)  # fmt: skip
            loop.call_later(self.seconds, stop, signal.SIGTERM, None)

        def on_sigterm(signum: int, frame: FrameType | None) -> None:
            if self.draining:
                stop(signum, frame)  # a second SIGTERM: stop now
                return
            self.draining = True
            # A Python signal handler runs between two bytecodes of the loop's own thread:
            # call_soon_threadsafe is the safe way to reach the loop from it.
            loop.call_soon_threadsafe(begin)

        signal.signal(signal.SIGTERM, on_sigterm)
        return True


def exit_cleanly_on_sigterm() -> None:
    """Make SIGTERM end this process with status 0, for `python -m service serve`.

    Once its graceful shutdown is done, uvicorn restores the handler it found and raises the
    signal again, so that the process ends as that signal would end it; by default SIGTERM
    kills it, and the orchestrator sees a process killed by a signal, not one that finished.
    This handler is the one it finds: before serving (while the app is imported) SIGTERM
    ends the process at once, and after serving it ends it, both with status 0."""

    def exit_zero(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, exit_zero)
