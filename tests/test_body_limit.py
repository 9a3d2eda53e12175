"""The body limit as a real client meets it, and the bounds of reading what is refused.

A server that answers 413 and closes while the client is still sending resets the
connection, and a client that sends its whole body before it reads (Python's urllib,
`requests`) then sees ECONNRESET or EPIPE, not the 413. So the service is served here as
`python -m service serve` serves it (uvicorn, the same settings, the app from the
environment) on a loopback port, and urllib sends it 2 MB bodies.
"""

import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from starlette.types import Message

from service.cache import make_cache
from service.observability import Metrics, Observability
from service.rest import too_large

CHECK = "/v1/four-d8/check"
LIMIT = 64 * 1024
BIG = b'{"ease": 20, "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'

#: The command line's way of serving (service/__main__.py), on a socket the test has bound,
#: so no other process can take the port between choosing it and listening on it.
SERVE = """
import socket, sys, uvicorn
from service.__main__ import UVICORN
config = uvicorn.Config("service.app:create_app", factory=True, **UVICORN)
uvicorn.Server(config).run(sockets=[socket.socket(fileno=int(sys.argv[1]))])
"""


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    host, port = listener.getsockname()
    env = {**os.environ, "MAX_BODY_BYTES": str(LIMIT), "LOG_REQUESTS": "false"}
    env.pop("REDIS_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(listener.fileno())],
        cwd=Path(__file__).resolve().parents[1],
        env=env,
        pass_fds=[listener.fileno()],
    )
    listener.close()
    url = f"http://{host}:{port}"
    try:
        _wait_until_ready(url, server)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def _wait_until_ready(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert server.poll() is None, "the server exited"
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=5):
                return
        except OSError:
            assert time.monotonic() < deadline, "the server did not answer within 60 s"
            time.sleep(0.1)


def _post(url: str, body: bytes | Iterable[bytes]) -> tuple[int, str, bytes]:
    headers = {"content-type": "application/json"}
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers["content-type"], response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers["content-type"], error.read()


def test_every_try_of_a_2_mb_body_reads_the_413(base: str) -> None:
    for _ in range(40):
        status, media_type, body = _post(base + CHECK, BIG)
        assert (status, media_type) == (413, "application/problem+json")
        assert json.loads(body)["status"] == 413


def test_every_try_of_a_chunked_2_mb_body_reads_the_413(base: str) -> None:
    """Without a declared length the limit is found while reading; the rest is drained."""
    for _ in range(20):
        chunks = (BIG[i : i + 8192] for i in range(0, len(BIG), 8192))
        status, media_type, _ = _post(base + CHECK, chunks)
        assert (status, media_type) == (413, "application/problem+json")


def test_a_drained_connection_serves_the_next_request(base: str) -> None:
    connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=30)
    headers = {"content-type": "application/json"}
    try:
        connection.request("POST", CHECK, body=BIG, headers=headers)
        refused = connection.getresponse()
        refused.read()
        assert refused.status == 413
        assert refused.getheader("connection") is None
        seeded = b'{"ease": 20, "dice": {"seed": 7}}'
        connection.request("POST", CHECK, body=seeded, headers=headers)
        answered = connection.getresponse()
        assert answered.status == 200
        assert json.loads(answered.read())["seed"] == 7
    finally:
        connection.close()


# The bounds of the drain, on the middleware itself: how much of a refused body it reads.


class Upload:
    """A client's side of one request: `chunks` bodies of `size` bytes, then (when `slow`)
    nothing more, ever."""

    def __init__(self, chunks: int, size: int = 1024, slow: bool = False) -> None:
        self.left = chunks
        self.size = size
        self.slow = slow
        self.read = 0
        self.sent: list[Message] = []

    async def receive(self) -> Message:
        if self.left == 0 and self.slow:
            await asyncio.Event().wait()
        self.left -= 1
        self.read += 1
        more = self.left != 0 or self.slow
        return {"type": "http.request", "body": b" " * self.size, "more_body": more}

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def closes(self) -> bool:
        return (b"connection", b"close") in self.sent[0]["headers"]


async def _unreachable(scope: object, receive: object, send: object) -> None:
    raise AssertionError("a refused body reached the app")


def _middleware(drain_bytes: int, drain_seconds: float = 5.0) -> Observability:
    cache = make_cache(None, max_bytes=1024, timeout=0.05)
    return Observability(
        _unreachable,
        metrics=Metrics([CHECK], cache.stats),
        max_body_bytes=4096,
        too_large=too_large,
        access_log=None,
        drain_bytes=drain_bytes,
        drain_seconds=drain_seconds,
    )


def _scope(**headers: str) -> dict[str, object]:
    raw = [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    return {"type": "http", "method": "POST", "path": CHECK, "headers": raw}


def _run(middleware: Observability, upload: Upload, **headers: str) -> Upload:
    asyncio.run(middleware(_scope(**headers), upload.receive, upload.send))
    return upload


def test_a_body_within_the_drain_is_read_to_its_end_and_the_connection_kept() -> None:
    upload = _run(_middleware(drain_bytes=64 * 1024), Upload(chunks=60))
    assert (upload.status, upload.closes, upload.read) == (413, False, 60)


def test_an_endless_body_is_read_no_further_than_the_drain() -> None:
    upload = _run(_middleware(drain_bytes=64 * 1024), Upload(chunks=10_000))
    assert (upload.status, upload.closes) == (413, True)
    assert upload.read == 65  # 64 KiB, and the chunk that passed it


def test_a_declared_length_past_the_drain_is_not_read() -> None:
    upload = Upload(chunks=1000)
    _run(_middleware(drain_bytes=64 * 1024), upload, content_length=str(1000 * 1024))
    assert (upload.status, upload.closes, upload.read) == (413, True, 0)


def test_a_declared_length_within_the_drain_is_read() -> None:
    upload = Upload(chunks=16)
    _run(_middleware(drain_bytes=64 * 1024), upload, content_length=str(16 * 1024))
    assert (upload.status, upload.closes, upload.read) == (413, False, 16)


def test_a_client_waiting_for_100_continue_is_answered_before_it_sends() -> None:
    upload = Upload(chunks=16)
    headers = {"content_length": str(16 * 1024), "expect": "100-continue"}
    _run(_middleware(drain_bytes=64 * 1024), upload, **headers)
    assert (upload.status, upload.closes, upload.read) == (413, True, 0)


def test_a_slow_body_is_drained_no_longer_than_the_drain_time() -> None:
    started = time.monotonic()
    upload = _run(_middleware(drain_bytes=64 * 1024, drain_seconds=0.2), Upload(5, slow=True))
    assert (upload.status, upload.closes, upload.read) == (413, True, 5)
    assert time.monotonic() - started < 2
