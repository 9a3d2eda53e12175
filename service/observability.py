"""Request ids, JSON logs, Prometheus metrics and the request body limit.

One pure ASGI middleware does all four, because each needs the same wrapping of a request
and Starlette's `BaseHTTPMiddleware` costs a task per request. Metrics live in a `Metrics`
object owned by the app (no module-level registry): counters of requests by route and
status, a latency histogram by route, and the cache's hits, misses and Redis fallbacks.
"""

import asyncio
import bisect
import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.cache import CacheStats
from service.rules.entropy import random_bits

__all__ = [
    "BODY",
    "DRAIN_BYTES",
    "DRAIN_SECONDS",
    "AccessLog",
    "JsonFormatter",
    "Metrics",
    "Observability",
    "configure_logging",
    "logs_info",
]

LOG = logging.getLogger("adjudicator")
_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and any `extra` fields."""

    _STANDARD = set(vars(logging.makeLogRecord({})))

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": round(record.created, 6),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        entry.update((k, v) for k, v in vars(record).items() if k not in self._STANDARD)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def logs_info(level: str) -> bool:
    """Whether a configured log level lets INFO records through."""
    return logging.getLevelNamesMapping().get(level.upper(), logging.INFO) <= logging.INFO


#: A batch of access-log lines is written once it would pass PIPE_BUF (a write that size
#: stays whole even when several workers share the stream) or this long after its first line.
_BATCH_BYTES = 4096
_BATCH_SECONDS = 0.05


class AccessLog:
    """One JSON line per request, in the shape `JsonFormatter` gives every other record.

    It bypasses `logging`: a LogRecord, the formatter's `json.dumps` and the handler's lock
    and flush cost 40 µs a request under load, more than the rest of a cached odds request
    (make bench, profiled). Here one `orjson.dumps` makes the line, and lines are written in
    batches of whole lines: when the next would pass 4 KiB, 50 ms after the first waited, and
    at shutdown (`flush`). A write per line was a system call per request, about 7% of a 4D8
    check under load (make bench). Outside an event loop each line is written at once.
    """

    def __init__(self, write: Callable[[bytes], object] | None = None) -> None:
        self._write = write or _stderr
        self._batch: list[bytes] = []
        self._size = 0
        self._timer: asyncio.TimerHandle | None = None

    def request(self, request_id: str, method: str, path: str, status: int, seconds: float) -> None:
        # Times to the microsecond by integer division: `round(x, 6)` converts through
        # decimal digits, half of a line's cost.
        entry = {
            "ts": time.time_ns() // 1000 / 1e6,
            "level": "info",
            "logger": LOG.name,
            "msg": "request",
            "request_id": request_id,
            "method": method,
            "path": path,
            "status": status,
            "duration_ms": int(seconds * 1e6) / 1000,
        }
        line = orjson.dumps(entry, option=orjson.OPT_APPEND_NEWLINE)
        if self._size + len(line) > _BATCH_BYTES:
            self.flush()
        self._batch.append(line)
        self._size += len(line)
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.flush()
                return
            self._timer = loop.call_later(_BATCH_SECONDS, self.flush)

    def flush(self) -> None:
        """Write the lines waiting, if any."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._batch:
            data = b"".join(self._batch)
            self._batch.clear()
            self._size = 0
            self._write(data)


def _stderr(lines: bytes) -> None:
    """A closed or broken stderr loses the lines, never the requests they describe."""
    with contextlib.suppress(OSError):
        os.write(2, lines)


def configure_logging(level: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    for name in ("adjudicator", "uvicorn", "uvicorn.error", "strawberry"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.propagate = False
        logger.setLevel(level.upper())


class Metrics:
    """Counters and a latency histogram, rendered in the Prometheus text format."""

    def __init__(self, routes: Iterable[str], cache: CacheStats) -> None:
        self._routes = frozenset(routes)
        self._cache = cache
        self._requests: dict[tuple[str, str, int], int] = {}
        self._latency: dict[str, list[int]] = {}
        self._latency_sum: dict[str, float] = {}

    def route_label(self, path: str) -> str:
        """The path when it is a known route; anything else shares one label, so a scan of
        random URLs cannot grow the metric without bound."""
        return path if path in self._routes else "unmatched"

    def observe(self, route: str, method: str, status: int, seconds: float) -> None:
        key = (route, method, status)
        self._requests[key] = self._requests.get(key, 0) + 1
        counts = self._latency.setdefault(route, [0] * (len(_BUCKETS) + 1))
        counts[bisect.bisect_left(_BUCKETS, seconds)] += 1
        self._latency_sum[route] = self._latency_sum.get(route, 0.0) + seconds

    def render(self) -> str:
        lines = [
            "# HELP adjudicator_requests_total HTTP requests by route, method and status.",
            "# TYPE adjudicator_requests_total counter",
        ]
        for (route, method, status), count in sorted(self._requests.items()):
            labels = f'route="{route}",method="{method}",status="{status}"'
            lines.append(f"adjudicator_requests_total{{{labels}}} {count}")
        lines += [
            "# HELP adjudicator_request_duration_seconds Request latency by route.",
            "# TYPE adjudicator_request_duration_seconds histogram",
        ]
        for route, counts in sorted(self._latency.items()):
            running = 0
            for bound, count in zip((*_BUCKETS, "+Inf"), counts, strict=True):
                running += count
                lines.append(
                    f'adjudicator_request_duration_seconds_bucket{{route="{route}",'
                    f'le="{bound}"}} {running}'
                )
            lines.append(
                f'adjudicator_request_duration_seconds_sum{{route="{route}"}} '
                f"{self._latency_sum[route]}"
            )
            lines.append(f'adjudicator_request_duration_seconds_count{{route="{route}"}} {running}')
        for name, value, text in (
            ("cache_hits", self._cache.hits, "Odds tables served from the cache."),
            ("cache_misses", self._cache.misses, "Odds tables computed."),
            ("redis_fallbacks", self._cache.fallbacks, "Redis calls skipped or failed."),
            ("redis_refused_writes", self._cache.refused_writes, "Writes Redis refused or "
             "that were skipped after a refusal (full, read-only)."),
        ):  # fmt: skip
            lines += [
                f"# HELP adjudicator_{name}_total {text}",
                f"# TYPE adjudicator_{name}_total counter",
                f"adjudicator_{name}_total {value}",
            ]
        lines += [
            "# HELP adjudicator_redis_full Whether Redis refused the last write for memory.",
            "# TYPE adjudicator_redis_full gauge",
            f"adjudicator_redis_full {int(self._cache.full)}",
        ]
        return "\n".join(lines) + "\n"


#: The scope key of the request body, read whole here: an endpoint of the service's own takes
#: it from the scope rather than through the replaying `receive`.
BODY = "adjudicator.body"

#: A body past the limit is still read, and dropped, up to this size in all and for this long,
#: so that a client sending it reads the 413 (`Observability._refuse`).
DRAIN_BYTES = 16 * 1024 * 1024
DRAIN_SECONDS = 5.0


class Observability:
    """ASGI middleware: request id, body limit, metrics and one JSON log line per request."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        metrics: Metrics,
        max_body_bytes: int,
        too_large: Callable[[int], ASGIApp],
        access_log: AccessLog | None,
        drain_bytes: int = DRAIN_BYTES,
        drain_seconds: float = DRAIN_SECONDS,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body_bytes = max_body_bytes
        self.too_large = too_large
        self.access_log = access_log
        self.drain_bytes = max(drain_bytes, max_body_bytes)
        self.drain_seconds = drain_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = _request_id(scope)
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            body = await self._read_body(scope, receive)
            if isinstance(body, bytes):
                scope[BODY] = body
                await self.app(scope, _replay(body, receive), send_with_id)
            else:
                await self._refuse(scope, receive, send_with_id, received=body)
        finally:
            seconds = time.perf_counter() - started
            path, method = scope["path"], scope["method"]
            self.metrics.observe(self.metrics.route_label(path), method, status, seconds)
            if self.access_log is not None:
                self.access_log.request(request_id, method, path, status, seconds)

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes | int:
        """The whole body, or how many bytes of it had arrived once it passed the limit (the
        declared length is checked first, so a body that says it is too large is not read)."""
        length = _content_length(scope)
        if length is not None and length > self.max_body_bytes:
            return 0
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                return size
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, received: int) -> None:
        """413, once the rest of the body is read and dropped.

        A server that answers and closes while the client is still sending leaves unread
        bytes in its socket, and the kernel then resets the connection: a client that sends
        its whole body before it reads (urllib, requests) gets ECONNRESET or EPIPE instead of
        the 413 (13 to 23 of 40 tries of a 2 MB body). The drain is bounded: a body declared
        or found longer than `drain_bytes`, or still arriving after `drain_seconds`, is
        answered at once with `connection: close`, as is a client waiting for `100 Continue`
        (it has sent nothing, and now need not), so an endless or slow upload cannot hold
        the connection.
        """
        length = _content_length(scope)
        drained = (
            (length is None or length <= self.drain_bytes)
            and not _expects_continue(scope)
            and await self._drain(receive, self.drain_bytes - received)
        )
        refusal = self.too_large(self.max_body_bytes)
        await refusal(scope, receive, send if drained else _closing(send))

    async def _drain(self, receive: Receive, budget: int) -> bool:
        """Whether the body ended (or the client left) within `budget` bytes and the time."""
        try:
            async with asyncio.timeout(self.drain_seconds):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return True
                    budget -= len(message.get("body", b""))
                    if budget < 0:
                        return False
                    if not message.get("more_body", False):
                        return True
        except TimeoutError:
            return False


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length" and value.isdigit():
            return int(value)
    return None


def _expects_continue(scope: Scope) -> bool:
    return any(
        name == b"expect" and bytes(value).lower() == b"100-continue"
        for name, value in scope["headers"]
    )


def _closing(send: Send) -> Send:
    """`send`, with a response that tells the server to close the connection after it."""

    async def closing(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [*message.get("headers", []), (b"connection", b"close")]
            message = {**message, "headers": headers}
        await send(message)

    return closing


def _request_id(scope: Scope) -> str:
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            text = bytes(value).decode("latin-1")
            if _REQUEST_ID.match(text):
                return text
    return random_bits().hex()  # 128 random bits, as uuid4().hex, at a third the cost


def _replay(body: bytes, original: Receive) -> Receive:
    """Hand the app the buffered body, then the client's own messages (its disconnect)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return await original()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive
