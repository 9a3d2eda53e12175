"""Work made in a forked child (`service.apart`): its bytes come back, its failures and its
stalls come back as None, and its memory never becomes this process's."""

import os
import re
import time
from pathlib import Path

import pytest

from service.apart import made_apart


def resident_mb() -> float:
    status = Path("/proc/self/status").read_text()
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    assert found
    return int(found.group(1)) / 1024


def test_the_childs_bytes_come_back():
    made = made_apart(lambda: str(os.getpid()).encode(), timeout=30)
    assert made is not None
    assert int(made) != os.getpid()


def test_a_large_result_comes_back_whole():
    """More than a pipe holds at once: the parent reads while the child writes."""
    data = os.urandom(3 << 20)
    assert made_apart(lambda: data, timeout=30) == data


def test_a_failing_child_makes_none(caplog):
    def fail() -> bytes:
        raise ValueError("no")

    assert made_apart(fail, timeout=30) is None
    assert "child failed" in caplog.text


def test_a_stalled_child_is_killed_at_the_timeout(tmp_path):
    pid = tmp_path / "pid"

    def stall() -> bytes:
        pid.write_text(str(os.getpid()))
        time.sleep(60)
        return b""

    started = time.monotonic()
    assert made_apart(stall, timeout=2) is None
    assert time.monotonic() - started < 10
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid.read_text()), 0)  # killed and reaped: not even a zombie is left


def test_what_the_child_allocates_is_not_this_processs():
    before = resident_mb()

    def allocate() -> bytes:
        held = [bytes(1024) for _ in range(200_000)]  # about 230 MB of small objects
        return str(len(held)).encode()

    assert made_apart(allocate, timeout=60) == b"200000"
    assert resident_mb() - before < 20


def test_no_child_to_be_had_makes_none(monkeypatch):
    def refuse() -> int:
        raise BlockingIOError("fork: Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    assert made_apart(lambda: b"never", timeout=30) is None
