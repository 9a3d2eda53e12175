"""The plain ASGI pieces both APIs answer with: the request's media type and body, a JSON
response sent as two messages, and problem+json for a request that is not understood."""

from typing import Any

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from service.errors import Problem
from service.observability import BODY

__all__ = ["JSON", "PROBLEM", "body", "busy", "json_body", "media_type", "problem", "respond"]

JSON = "application/json"
PROBLEM = "application/problem+json"
_JSON = JSON.encode()


def problem(status: int, title: str, detail: str, **extra: Any) -> Response:
    body = Problem(status=status, title=title, detail=detail, **extra)
    return Response(body.model_dump_json(exclude_none=True), status_code=status, media_type=PROBLEM)


def busy(retry_after: float) -> Response:
    """A 503 for a computation that ran past its deadline: the caller may retry later."""
    response = problem(
        503,
        "Busy",
        "The exact odds did not finish in time; retry later (a table computed meanwhile is kept).",
    )
    response.headers["retry-after"] = str(max(1, round(retry_after)))
    return response


def media_type(scope: Scope) -> str:
    """The request's content type without its parameters, lower-cased ('' when absent)."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            if value == _JSON:  # as nearly every caller sends it: nothing to parse
                return JSON
            return bytes(value).decode("latin-1").split(";")[0].strip().lower()
    return ""


async def json_body(scope: Scope, receive: Receive) -> bytes | Response:
    """The body of a request sent as application/json (as `Observability` read it, when it
    did), or the 415 problem saying so."""
    if media_type(scope) != JSON:
        return problem(415, "Unsupported media type", "Send the body as application/json.")
    read = scope.get(BODY)
    return read if read is not None else await body(receive)


async def body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def respond(scope: Scope, receive: Receive, send: Send, answer: bytes | Response) -> None:
    """JSON bytes as a 200 in two messages, or a problem (any Response) as Starlette sends it."""
    if isinstance(answer, Response):
        await answer(scope, receive, send)
        return
    headers = [(b"content-type", _JSON), (b"content-length", b"%d" % len(answer))]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": answer})
