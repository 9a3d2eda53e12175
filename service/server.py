"""Serving over HTTP: uvicorn's httptools protocol with limits on what one connection may hold
and for how long, so that a slow or hostile client costs a bounded share of the process.

Uvicorn took a 1 MB header and 10,000 headers, held slow headers and slow bodies as long as
the client liked, and kept 500 connections that never sent a byte. Each connection here has
one timer, rearmed as it moves from waiting for a request to reading its headers to reading
its body:

- `IDLE_TIMEOUT_SECONDS` before the first byte of a request (and between requests, as
  uvicorn's keep-alive timeout): the connection is closed;
- `HEADER_TIMEOUT_SECONDS` from a request's first byte to the end of its headers, and
  `BODY_TIMEOUT_SECONDS` from there to the end of its body: a 408 and the connection closed;
- `MAX_HEADER_BYTES` for the request line and headers, `MAX_HEADERS` headers: a 431 and the
  connection closed;
- `MAX_CONNECTIONS` open at once: a connection past it is answered 503 with `Retry-After` as
  it is accepted, before anything is read;
- at most `PIPELINED` requests queued behind the one being answered: past it, the connection
  is closed (each queued request holds its scope, and a 64 KB read holds thousands).

The checks cost a counter per header and a timer per request, nothing per byte.

Uvicorn writes a response's status line and headers, then its body: two system calls (and two
TCP segments) for every small answer. The connection's transport here holds a write until the
next one or the end of the event loop's turn (`_Coalescing`), so the two go out as one.
"""

import asyncio
from functools import cache
from typing import Any, NamedTuple

import httptools
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from service.settings import Settings

__all__ = ["PROTOCOL", "ConnectionLimits", "LimitedHttpTools"]

#: How `python -m service serve` names the protocol to uvicorn: an import string, so that
#: worker processes find it too.
PROTOCOL = "service.server:LimitedHttpTools"

PIPELINED = 16
DRAIN_SECONDS = 1.0


class ConnectionLimits(NamedTuple):
    header_bytes: int
    headers: int
    header_timeout: float
    body_timeout: float
    idle_timeout: float
    connections: int

    @classmethod
    def from_settings(cls, settings: Settings) -> "ConnectionLimits":
        return cls(settings.max_header_bytes, settings.max_headers,
                   settings.header_timeout_seconds, settings.body_timeout_seconds,
                   settings.idle_timeout_seconds, settings.max_connections)  # fmt: skip


@cache
def _limits() -> ConnectionLimits:
    return ConnectionLimits.from_settings(Settings())


class _RefusedError(Exception):
    """Raised from a parser callback to stop parsing; `data_received` answers it."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class LimitedHttpTools(HttpToolsProtocol):
    """Uvicorn's httptools protocol within `ConnectionLimits` (read from the environment)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = _limits()
        self.timeout_keep_alive = self.limits.idle_timeout  # type: ignore[assignment]
        self._timer: Any = None
        self._expires_at: float | None = None  # when the timer's reason expires, if armed
        self._expiry_reason: str | None = None
        self._reading_headers = False
        self._began_here = False  # the request being read began in the latest read
        self._header_bytes = 0  # as parsed: the request line and each complete header
        self._header_count = 0
        self._unparsed = 0  # read since, in a header the parser has not finished
        self._draining = False  # refused: what the client still sends is dropped

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        # Flow control keeps the socket's own transport; every write goes through this one.
        self.transport = _Coalescing(transport, self.loop)  # type: ignore[assignment]
        if len(self.connections) > self.limits.connections:
            self._refuse(503, "Too many connections: try again shortly.", b"retry-after: 1\r\n")
            return
        self._arm(self.limits.idle_timeout, None)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._draining:
            return
        self._unset_keepalive_if_required()
        self._began_here = False
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserCallbackError as error:
            if isinstance(error.__context__, _RefusedError):
                self._refuse(error.__context__.status, str(error.__context__))
                return
            self.logger.warning("Invalid HTTP request received.")
            self.send_400_response("Invalid HTTP request received.")
            return
        except httptools.HttpParserError:
            self.logger.warning("Invalid HTTP request received.")
            self.send_400_response("Invalid HTTP request received.")
            return
        except httptools.HttpParserUpgrade:
            self._unsupported_upgrade_warning()
            return
        if self._reading_headers and not self._began_here:
            # The parser keeps a header to itself until it ends: a 1 MB header would be read
            # whole before `on_header` saw it. Reads after the first are counted here.
            self._unparsed += len(data)
            if self._unparsed > self.limits.header_bytes:
                self._refuse(431, self._too_long())

    # Parser callbacks

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._reading_headers, self._began_here = True, True
        self._header_bytes = self._header_count = self._unparsed = 0
        self._arm(self.limits.header_timeout, "The request's headers took too long.")

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self._count(len(url), 0)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4, 1)  # ': ' and CRLF
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._reading_headers = False
        self._arm(self.limits.body_timeout, "The request's body took too long.")
        super().on_headers_complete()
        if len(self.pipeline) > PIPELINED:
            raise _RefusedError(0, "too many pipelined requests")

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    # Limits

    def _count(self, size: int, headers: int) -> None:
        self._header_bytes += size
        self._header_count += headers
        if self._header_count > self.limits.headers:
            raise _RefusedError(431, f"A request may carry at most {self.limits.headers} headers.")
        if self._header_bytes > self.limits.header_bytes:
            raise _RefusedError(431, self._too_long())

    def _too_long(self) -> str:
        return f"The request's headers are limited to {self.limits.header_bytes} bytes."

    def _arm(self, seconds: float, reason: str | None) -> None:
        """Expire `seconds` from now for `reason` (None: idle). The timer is not moved for
        every request: it wakes at the earliest deadline it was set for and looks again, so
        arming costs a clock read, where a new timer and a cancelled one cost each request a
        twentieth of a cached check (make bench, profiled)."""
        if self._draining:
            return
        self._expires_at = self.loop.time() + seconds
        self._expiry_reason = reason
        if self._timer is None or self._timer.when() > self._expires_at:
            self._cancel_timer()
            self._timer = self.loop.call_at(self._expires_at, self._wake)

    def _disarm(self) -> None:
        self._expires_at = None

    def _wake(self) -> None:
        self._timer = None
        if self._expires_at is None:
            return
        if self.loop.time() < self._expires_at:
            self._timer = self.loop.call_at(self._expires_at, self._wake)
            return
        self._expires_at = None
        self._expired(self._expiry_reason)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expired(self, reason: str | None) -> None:
        """Idle: close quietly. Headers or body too slow: a 408, unless an answer is already
        under way (an earlier request's finished answer is not)."""
        cycle = self.cycle
        answering = cycle is not None and cycle.response_started and not cycle.response_complete
        if reason is None or answering:
            self.transport.close()
        else:
            self._refuse(408, reason)

    def _refuse(self, status: int, reason: str, headers: bytes = b"") -> None:
        """Answer `status` (none for 0) and close, whatever the request was doing. What the
        client still sends is read and dropped for up to `DRAIN_SECONDS` first: closing with
        unread bytes resets the connection, and the client may never read the answer."""
        self._cancel_timer()
        if self.transport.is_closing():
            return
        if not status:
            self.transport.close()
            return
        body = reason.encode()
        self.transport.write(
            STATUS_LINE[status] + headers
            + b"content-type: text/plain; charset=utf-8\r\n"
            + b"content-length: " + str(len(body)).encode() + b"\r\n"
            + b"connection: close\r\n\r\n"
            + body
        )  # fmt: skip
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._draining = True
        self._timer = self.loop.call_later(DRAIN_SECONDS, self.transport.close)


class _Coalescing:
    """A connection's transport that sends two writes in a row as one: a response's head and
    body. A write is held until the next, or until the end of this turn of the event loop at
    the latest (a streamed response's head does not wait for its body). Closing or ending the
    connection sends what is held first; aborting it drops it; anything else is asked of the
    socket's transport itself."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: bytes | memoryview | None = None

    def write(self, data: bytes | memoryview) -> None:
        held = self._held
        if held is None:
            self._held = data
            self._loop.call_soon(self.flush)
        else:
            self._held = None
            self._transport.write(b"".join((held, data)))

    def flush(self) -> None:
        held = self._held
        if held is not None:
            self._held = None
            self._transport.write(held)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def abort(self) -> None:
        self._held = None
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)
