"""Cross-origin resource sharing (CORS) for every route, as one pure ASGI middleware.

A browser on an allowed origin may call the service: its preflight (`OPTIONS` with
`Access-Control-Request-Method`) is answered here with what the service allows, and every
response to it names the origin and exposes the headers its script may read (the request
id). A request from any other origin passes through untouched and gets no CORS header, so its
browser withholds the answer; its preflight meets the 405 of a route that takes no OPTIONS.
A response that names an origin varies by it, so with a list of origins every response says
`Vary: Origin` for shared caches; with `*` every caller gets the same `*`.

Starlette's CORSMiddleware hands a foreign origin the exposed headers and, on a preflight,
the allowed methods and headers; this one hands it nothing.
"""

import dataclasses
from collections.abc import Awaitable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.settings import Settings

__all__ = ["Cors", "Policy"]

Headers = list[tuple[bytes, bytes]]

#: Every route of the service is a GET or a POST.
METHODS = ("GET", "POST")


@dataclasses.dataclass(frozen=True)
class Policy:
    """Who may call from a browser, and what they may send and read."""

    origins: frozenset[str]
    headers: tuple[str, ...]
    exposed: tuple[str, ...]
    max_age: int

    @classmethod
    def from_settings(cls, settings: Settings) -> "Policy | None":
        """The configured policy, or None when no origin is allowed (CORS off). Content-Type
        is always allowed: every body the service takes is application/json, which a browser
        sends cross-origin only once a preflight allows the header."""
        if not settings.cors_allowed_origins:
            return None
        return cls(
            origins=frozenset(settings.cors_allowed_origins),
            headers=tuple(dict.fromkeys(("content-type", *settings.cors_allowed_headers))),
            exposed=settings.cors_exposed_headers,
            max_age=settings.cors_max_age_seconds,
        )


class Cors:
    """ASGI middleware applying a `Policy` to every HTTP request."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.any_origin = "*" in policy.origins
        self.origins = frozenset(origin.encode("latin-1") for origin in policy.origins)
        self.vary: Headers = [] if self.any_origin else [(b"vary", b"Origin")]
        self.actual: Headers = [*self.vary]
        if policy.exposed:
            self.actual.append(
                (b"access-control-expose-headers", ", ".join(policy.exposed).encode())
            )
        self.preflight: Headers = [
            (b"access-control-allow-methods", ", ".join(METHODS).encode()),
            (b"access-control-allow-headers", ", ".join(policy.headers).encode()),
            (b"access-control-max-age", str(policy.max_age).encode()),
            (b"content-length", b"0"),
            *self.vary,
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        origin = _header(scope, b"origin")
        if origin is None or not (self.any_origin or origin in self.origins):
            await self.app(scope, receive, _adding(send, self.vary) if self.vary else send)
            return
        allowed = [(b"access-control-allow-origin", b"*" if self.any_origin else origin)]
        if scope["method"] == "OPTIONS" and _header(scope, b"access-control-request-method"):
            await send({"type": "http.response.start", "status": 200,
                        "headers": [*allowed, *self.preflight]})  # fmt: skip
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, _adding(send, [*allowed, *self.actual]))


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


def _adding(send: Send, headers: Headers) -> Send:
    """`send`, with `headers` added to the response's own (a copy: a Response object may be
    sent again). A plain function handing back `send`'s awaitable: no coroutine of its own."""

    def send_with(message: Message) -> Awaitable[None]:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), *headers]}
        return send(message)

    return send_with
