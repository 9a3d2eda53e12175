"""Many requests to the real ASGI app in one event loop, as a server would make them.

Sampling a few hundred rolls of every operation with odds is thousands of requests; through
`TestClient`, each crosses to its event-loop thread and back (about 10 ms a request on this
2-core machine, a minute for the suite), while a direct ASGI call costs little more than the
rule. The app, its middleware and its routing are the same.
"""

import asyncio
from collections.abc import Iterable
from typing import Any

import orjson
from starlette.types import ASGIApp, Message

__all__ = ["post_all"]


def post_all(app: ASGIApp, path: str, bodies: Iterable[Any]) -> list[tuple[int, Any]]:
    """The status and JSON answer of each body POSTed to `path`, in order."""

    async def run() -> list[tuple[int, Any]]:
        return [await _post(app, path, orjson.dumps(body)) for body in bodies]

    return asyncio.run(run())


async def _post(app: ASGIApp, path: str, body: bytes) -> tuple[int, Any]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    requests = [{"type": "http.request", "body": body, "more_body": False}]
    status = 0
    chunks: list[bytes] = []
    done = asyncio.Event()

    async def receive() -> Message:
        if requests:
            return requests.pop()
        await done.wait()  # as a server does: the client leaves once it has the answer
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                done.set()

    await app(scope, receive, send)
    return status, orjson.loads(b"".join(chunks))
