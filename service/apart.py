"""Work done in a child process for the sake of this one's memory.

Memory Python frees mostly stays with the process: its allocator returns an arena to the
system only when every object in it is gone, and a build that makes many short-lived objects
among a few lasting ones leaves most arenas partly used. What a forked child allocates is
returned whole when it exits; only its result, as bytes, comes back.
"""

import logging
import os
import selectors
import signal
import time
from collections.abc import Callable
from typing import NoReturn

__all__ = ["made_apart"]

LOG = logging.getLogger("adjudicator")


def made_apart(make: Callable[[], bytes], *, timeout: float) -> bytes | None:
    """`make()` run in a forked child and its bytes; None where this platform cannot fork or
    the system refuses a child, or when the child fails or takes more than `timeout` seconds
    (it is killed): the caller then makes it itself.

    The child starts with this thread alone. A lock another thread held as it forked stays
    held in the child, which is what the timeout is for.
    """
    if not hasattr(os, "fork"):
        return None
    readable, writable = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        LOG.exception("made apart: no child could be made")
        os.close(readable)
        os.close(writable)
        return None
    if pid == 0:
        _child(make, readable, writable)
    os.close(writable)
    try:
        data = _read(readable, time.monotonic() + timeout)
    finally:
        os.close(readable)
    if data is None:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if data is None or os.waitstatus_to_exitcode(status) != 0:
        LOG.warning("made apart: the child failed or timed out", extra={"status": status})
        return None
    return data


def _child(make: Callable[[], bytes], readable: int, writable: int) -> NoReturn:
    status = 1
    try:
        os.close(readable)
        # The parent's handlers would wake the parent's event loop (its wakeup descriptor
        # is shared); a signal to the process group should just end the child.
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        data = make()
        with open(writable, "wb") as out:
            out.write(data)
        status = 0
    except BaseException:
        LOG.exception("made apart: the child failed")
    finally:
        # No clean-up of the parent's objects (sockets, files, finalizers) in the child.
        os._exit(status)


def _read(readable: int, deadline: float) -> bytes | None:
    """Everything the child writes until it closes its end, or None at the deadline."""
    chunks: list[bytes] = []
    with selectors.DefaultSelector() as selector:
        selector.register(readable, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                return None
            chunk = os.read(readable, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
