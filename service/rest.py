"""Starlette routes generated from the registry.

`POST /v1/{system}/{operation}` runs a rule, `POST .../odds` returns its exact odds,
`GET /v1/{system}/tables/{table}` serves reference data and `GET /v1/systems[/{system}]`
lists everything. Bodies are validated by the operation's own model straight from the JSON
bytes (strict: "20" is not an integer); every error is problem+json naming the field.
"""

from collections.abc import Awaitable, Callable
from functools import cached_property, partial

import pydantic_core
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from service.catalogue import Catalogue
from service.errors import field_errors
from service.lazy import Lazy
from service.lru import LRU
from service.rules.cost import DeadlineExceeded
from service.rules.model import InputError, Model
from service.rules.registry import Operation, Registry, Table
from service.runtime import Odds, Results
from service.wire import JSON, busy, json_body, problem, respond

__all__ = [
    "RETRY_AFTER_SECONDS",
    "Dispatch",
    "Endpoints",
    "endpoints",
    "fault",
    "fault_handler",
    "invalid",
    "problem",
    "problem_handler",
    "routes",
    "too_large",
]


#: When a caller whose odds ran past the deadline may try again: the table is likely cached
#: by then, or the load that slowed it gone.
RETRY_AFTER_SECONDS = 1


def too_large(limit: int) -> ASGIApp:
    return problem(413, "Request body too large", f"The body is limited to {limit} bytes.")


def fault() -> Response:
    """A fault of ours: its message may leak internals, so the caller gets the request id (in
    `x-request-id`) to quote, and the server logs the traceback."""
    return problem(500, "Internal server error", "The service failed to answer this request.")


async def fault_handler(request: Request, exc: Exception) -> Response:
    """Starlette's answer to an unexpected exception in its own routes: `fault`."""
    return fault()


async def problem_handler(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (unknown route, wrong method) as problem+json."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return problem(404, "Not found", f"No system, operation or table at {request.url.path}.")
    response = problem(exc.status_code, "HTTP error", str(exc.detail))
    response.headers.update(exc.headers or {})
    return response


def _json(data: bytes | memoryview) -> Response:
    return Response(data, media_type=JSON)


def invalid(error: ValidationError | InputError, prefix: str = "") -> Response:
    """The 400 of malformed JSON, or the 422 naming each bad field (`prefix` before each
    pointer, when the request is a part of the body)."""
    errors = field_errors(error)
    if errors and errors[0].type == "json_invalid":
        return problem(400, "Malformed JSON", errors[0].detail)
    if prefix:
        errors = [e.model_copy(update={"pointer": prefix + e.pointer}) for e in errors]
    names = ", ".join(e.pointer or "(body)" for e in errors)
    return problem(422, "Invalid input", f"Invalid field(s): {names}.", errors=errors)


#: Requests validated, by model and body. A request is a pure function of its body's bytes
#: and immutable, and callers send the same bodies again and again (a bot's check, a front
#: end's odds): validating a FORESIGHT attack was half of answering its odds from memory
#: (make bench, profiled). A body is weighed at 64 bytes a byte and 2 KB more, above what
#: `footprint` counts for every operation's example (tests/test_rest.py).
REMEMBERED_BODY_BYTES = 4096
_VALIDATED: LRU[tuple[type[Model], bytes], Model] = LRU(
    8 * 1024 * 1024, lambda key, _: remembered_bytes(key[1])
)


def remembered_bytes(body: bytes) -> int:
    return 64 * len(body) + 2048


class _Operation:
    """`POST` of one rule (or its odds) as a raw ASGI app, without the Request and Response
    objects of a Starlette function endpoint: those cost 5 µs a request, a fifth of a cached
    odds request (make bench, profiled). Input errors are problem+json; anything unexpected
    is a `fault` (`Dispatch`)."""

    def __init__(
        self, model: Callable[[], type[Model]], answer: Callable[[Model], Awaitable[bytes]]
    ) -> None:
        self._model = model
        self.answer = answer

    @cached_property
    def model(self) -> type[Model]:
        """The request model, derived by the first request (`Operation.request_model`)."""
        return self._model()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        data = await json_body(scope, receive)
        answer = data if isinstance(data, Response) else await self.reply(data)
        await respond(scope, receive, send, answer)

    async def reply(self, data: bytes) -> bytes | Response:
        """The answer to a request body: JSON bytes, or the problem."""
        request = _VALIDATED.get((self.model, data))
        if request is None:
            try:
                request = self.model.model_validate_json(data)
            except ValidationError as error:
                return invalid(error)
            if len(data) <= REMEMBERED_BODY_BYTES:
                _VALIDATED.put((self.model, data), request)
        try:
            return await self.answer(request)
        except InputError as error:
            return invalid(error)
        except DeadlineExceeded:
            return busy(RETRY_AFTER_SECONDS)


def _run(op: Operation, results: Results, odds: Odds) -> _Operation:
    async def answer(request: Model) -> bytes:
        if getattr(request, "outcome_odds", False):
            return pydantic_core.to_json(await odds.run(op, request))
        return results.json(op, request)

    return _Operation(lambda: op.request_model, answer)


def _odds(op: Operation, odds: Odds) -> _Operation:
    async def answer(request: Model) -> bytes:
        return await odds.json(op, request)

    def model() -> type[Model]:
        assert op.odds_request_model is not None
        return op.odds_request_model

    return _Operation(model, answer)


def _table(table: Table) -> bytes:
    return pydantic_core.to_json(table.document())


def _document(make: Callable[[], bytes | memoryview]) -> Lazy:
    """`GET` of a document made by its first request: the catalogue's JSON Schemas and the
    tables grow with every rule, and the schemas take seconds at a few hundred operations,
    which no process should wait for to start."""
    return Lazy(lambda: _json(make()))


#: Each operation's endpoint by (system, operation, odds or not).
Endpoints = dict[tuple[str, str, bool], _Operation]


def endpoints(registry: Registry, odds: Odds) -> Endpoints:
    results = Results()
    found: Endpoints = {}
    for system in registry.systems:
        for op in system.operations:
            found[system.slug, op.name, False] = _run(op, results, odds)
            if op.odds is not None:
                found[system.slug, op.name, True] = _odds(op, odds)
    return found


def routes(
    registry: Registry,
    odds: Odds,
    catalogue: Catalogue | None = None,
    operations: Endpoints | None = None,
) -> list[BaseRoute]:
    catalogue = catalogue or Catalogue(registry)
    operations = operations or endpoints(registry, odds)
    found: list[BaseRoute] = [Route("/v1/systems", _document(catalogue.json), methods=["GET"])]
    for (slug, name, is_odds), endpoint in operations.items():
        path = f"/v1/{slug}/{name}/odds" if is_odds else f"/v1/{slug}/{name}"
        found.append(Route(path, endpoint, methods=["POST"]))
    for system in registry.systems:
        base = f"/v1/{system.slug}"
        entry = _document(partial(catalogue.system_json, system.slug))
        found.append(Route(f"/v1/systems/{system.slug}", entry, methods=["GET"]))
        for table in system.tables:
            rows = _document(partial(_table, table))
            found.append(Route(f"{base}/tables/{table.name}", rows, methods=["GET"]))
    return found


class Dispatch:
    """The service's fixed routes, found by one dictionary lookup in front of Starlette.

    Every operation, odds, table and catalogue path is fixed and its endpoint a raw ASGI app,
    so `(method, path)` finds it at once; Starlette's router and its two middleware layers
    cost 4.5 µs a request, a fifth of a cached odds request (make bench, profiled). Anything
    else (a wrong method, an unknown path, the ops routes) goes on to Starlette, which answers
    its errors as problem+json. An exception escaping an endpoint is answered as Starlette's
    error middleware answers one from its routes: a problem+json 500 (`fault`), the exception
    raised on for the server to log. Here that costs nothing until an exception is raised,
    where a middleware wrapping `send` cost some 6% of a cached odds request. The endpoints
    send nothing before they have their answer, so when one raises, no response has started.
    """

    def __init__(self, routes: list[BaseRoute], app: ASGIApp) -> None:
        self.app = app
        self._fixed = {
            (method, route.path): route.app
            for route in routes
            if isinstance(route, Route) and "{" not in route.path
            for method in route.methods or ()
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            endpoint = self._fixed.get((scope["method"], scope["path"]))
            if endpoint is not None:
                try:
                    await endpoint(scope, receive, send)
                except Exception:
                    await fault()(scope, receive, send)
                    raise
                return
        await self.app(scope, receive, send)
