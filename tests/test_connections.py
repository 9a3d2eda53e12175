"""Connection limits of the served process (service/server.py), probed with raw sockets
against `python -m service serve` run with small limits: oversized and too many headers,
slow headers, slow bodies, idle connections and too many connections."""

import contextlib
import socket
import time
from collections.abc import Iterator

import pytest

from tests.served import served

# Timed or loaded: run by itself, after the parallel suite (Makefile).
pytestmark = pytest.mark.alone

LIMITS = {
    "MAX_HEADER_BYTES": "2048",
    "MAX_HEADERS": "20",
    "HEADER_TIMEOUT_SECONDS": "0.5",
    "BODY_TIMEOUT_SECONDS": "0.5",
    "IDLE_TIMEOUT_SECONDS": "0.5",
    "MAX_CONNECTIONS": "5",
}
HEALTH = b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
#: Generous: a limit of 0.5 s must act well within this, however busy the machine.
PATIENCE = 5.0


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with served(LIMITS) as (base, _):
        yield int(base.rsplit(":", 1)[1])


def exchange(port: int, data: bytes) -> tuple[bytes, float]:
    """Send `data`, then read until the server closes: what it said and how long it took."""
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as sock:
        started = time.monotonic()
        if data:
            sock.sendall(data)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
        return answer, time.monotonic() - started


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def test_a_plain_request_is_answered(port):
    answer, _ = exchange(port, HEALTH)
    assert status(answer) == 200


def test_headers_over_the_byte_limit_are_a_431(port):
    request = b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-Big: " + b"a" * 5000 + b"\r\n\r\n"
    answer, _ = exchange(port, request)
    assert status(answer) == 431
    assert b"2048 bytes" in answer


def test_a_header_streamed_past_the_limit_is_cut_off(port):
    """The parser keeps an unfinished header to itself; the reads are counted instead."""
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nX-Big: ")
        answer = b""
        try:
            for _ in range(1000):  # 1 MB, in 1 KB reads
                sock.sendall(b"a" * 1024)
                time.sleep(0.001)
        except (BrokenPipeError, ConnectionResetError):
            pass
        with contextlib.suppress(ConnectionResetError):
            answer = sock.recv(65536)
    assert status(answer) == 431


def test_more_headers_than_the_limit_are_a_431(port):
    headers = b"".join(b"X-%d: 1\r\n" % i for i in range(21))
    answer, _ = exchange(port, b"GET /healthz HTTP/1.1\r\n" + headers + b"\r\n")
    assert status(answer) == 431
    assert b"at most 20 headers" in answer
    ok = b"".join(b"X-%d: 1\r\n" % i for i in range(19))
    answer, _ = exchange(port, b"GET /healthz HTTP/1.1\r\nConnection: close\r\n" + ok + b"\r\n")
    assert status(answer) == 200


def test_slow_headers_are_a_408(port):
    answer, took = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: test\r\n")
    assert status(answer) == 408
    assert 0.4 < took < PATIENCE


def test_slow_headers_after_a_request_get_their_own_full_timeout(port):
    """The timer armed for the first request's headers is not moved for each request: when
    it wakes early, in the second request's headers, it waits on to their own deadline."""
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        answer = b""
        while not answer.endswith(b'{"status":"ok"}'):
            answer += sock.recv(65536)
        time.sleep(0.3)
        started = time.monotonic()
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n")
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                answer += chunk
        took = time.monotonic() - started
    assert status(answer) == 408
    assert 0.45 < took < PATIENCE


def test_a_slow_body_is_a_408(port):
    head = b"POST /v1/four-d8/check HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
    answer, took = exchange(port, head + b"Content-Length: 100\r\n\r\n{")
    assert status(answer) == 408
    assert 0.4 < took < PATIENCE


def test_a_connection_that_sends_nothing_is_closed(port):
    answer, took = exchange(port, b"")
    assert answer == b""
    assert 0.4 < took < PATIENCE


def test_a_kept_alive_connection_is_closed_when_idle(port):
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        answer = b""
        while not answer.endswith(b'{"status":"ok"}'):
            answer += sock.recv(65536)
        assert status(answer) == 200
        started = time.monotonic()
        assert sock.recv(65536) == b""  # closed by the server, not by us
        assert time.monotonic() - started < PATIENCE


def test_connections_past_the_limit_are_refused_and_room_comes_back(port):
    held = [socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) for _ in range(5)]
    try:
        time.sleep(0.1)  # accepted by now
        answer, _ = exchange(port, HEALTH)
        assert status(answer) == 503
        assert b"retry-after: 1" in answer.lower()
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)
    answer, _ = exchange(port, HEALTH)
    assert status(answer) == 200


def test_pipelined_requests_past_the_queue_are_refused(port):
    """Each queued request holds its scope: thousands in one read would hold megabytes."""
    slow = b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n" * 200
    answer, _ = exchange(port, slow)
    assert answer.count(b"HTTP/1.1 200") < 200
