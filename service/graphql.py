"""GraphQL over HTTP: `POST /graphql` answered by graphql-core from the schema Strawberry
derived (`graphql_schema`) in a child process (`served_schema`), with the resolvers of
`graphql_answers`.

Input errors carry `extensions.code = "BAD_USER_INPUT"` and the pointer of each bad field;
anything unexpected is masked as `INTERNAL_SERVER_ERROR` without its message. What this takes
of Strawberry's and graphql-core's internals is in `graphql_internals`.
"""

import dataclasses
import logging
from collections.abc import Callable
from inspect import isawaitable
from typing import Any

import orjson
from graphql import (
    DocumentNode,
    ExecutionResult,
    GraphQLError,
    GraphQLSchema,
    execute,
    parse,
    specified_rules,
)
from graphql import NoSchemaIntrospectionCustomRule as NoSchemaIntrospection
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from service.apart import made_apart
from service.catalogue import Catalogue
from service.graphql_answers import answers, attach
from service.graphql_internals import core_schema, detach, loaded, portable, set_resolver, validate
from service.graphql_limits import limit_rule
from service.lru import LRU
from service.rest import RETRY_AFTER_SECONDS
from service.rules.cost import DeadlineExceeded
from service.rules.registry import Registry
from service.runtime import Odds
from service.settings import Settings
from service.wire import busy, json_body, problem, respond

__all__ = ["DOCUMENT_BYTES_PER_CHARACTER", "GraphQLApp", "Limits", "served_schema"]

LOG = logging.getLogger("adjudicator")


@dataclasses.dataclass(frozen=True)
class Limits:
    max_depth: int
    max_aliases: int
    max_tokens: int
    max_query_bytes: int = 16384
    document_cache_bytes: int = 16 * 1024 * 1024
    introspection: bool = True

    @classmethod
    def from_settings(cls, settings: Settings) -> "Limits":
        return cls(settings.graphql_max_depth, settings.graphql_max_aliases,
                   settings.graphql_max_tokens, settings.graphql_max_query_bytes,
                   settings.graphql_document_cache_bytes,
                   settings.graphql_introspection)  # fmt: skip


#: The memory a parsed and validated document holds per character of its query: about 120
#: bytes (tracemalloc, 50 distinct 1.5 KB queries of sixteen aliased checks), rounded up.
DOCUMENT_BYTES_PER_CHARACTER = 128

Prepared = tuple[DocumentNode | None, tuple[GraphQLError, ...]]


class _Documents:
    """Parsed and validated documents by query text, least recently used first out, within
    a budget of bytes: a count of entries let 1,523 distinct big queries hold 540 MB."""

    def __init__(self, budget: int, prepare: Callable[[str], Prepared]) -> None:
        self.kept: LRU[str, Prepared] = LRU(budget, lambda query, _: self.cost(query))
        self._prepare = prepare

    def __call__(self, query: str) -> Prepared:
        found = self.kept.get(query)
        if found is None:
            found = self._prepare(query)
            self.kept.put(query, found)
        return found

    @staticmethod
    def cost(query: str) -> int:
        return len(query) * DOCUMENT_BYTES_PER_CHARACTER


class GraphQLApp:
    """`POST /graphql`: the Strawberry schema, answered by graphql-core directly.

    Strawberry derives the schema from the models; a request is answered here: its document
    parsed (within the token limit) and validated (with the depth and alias limits) once per
    distinct query text, then executed. Strawberry's HTTP view and its per-request extension
    hooks cost more than the rest of a GraphQL check: 245 µs in-process against 110 µs here
    (make bench, profiled). Every error leaves with `extensions.code`: BAD_USER_INPUT from
    the resolvers, GRAPHQL_VALIDATION_FAILED for documents that fail to parse, validate or
    coerce their variables, and INTERNAL_SERVER_ERROR, its message masked (it may leak
    internals) and the error logged, for a fault of ours. A body that is not a GraphQL
    request is a problem+json 4xx, as on REST.
    """

    def __init__(self, schema: GraphQLSchema, limits: Limits, odds: Odds) -> None:
        self.schema = schema
        self._odds = odds
        shape = (limit_rule(limits.max_depth, limits.max_aliases),)
        rules = (*specified_rules, *(() if limits.introspection else (NoSchemaIntrospection,)))

        def prepared(query: str) -> Prepared:
            if len(query.encode()) > limits.max_query_bytes:
                # Counted in bytes, comments and all: the token limit skips comments.
                message = f"The query is limited to {limits.max_query_bytes} bytes."
                return None, (GraphQLError(message),)
            try:
                document = parse(query, max_tokens=limits.max_tokens)
            except GraphQLError as error:
                return None, (error,)
            # The shape first, alone: it is cheap, and the standard rules are not on some
            # shapes it refuses (`graphql_limits`).
            errors = validate(self.schema, document, shape) or validate(
                self.schema, document, rules
            )
            return document, tuple(errors)

        self._prepared = _Documents(limits.document_cache_bytes, prepared)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await respond(scope, receive, send, await self._answer(scope, receive))

    async def _answer(self, scope: Scope, receive: Receive) -> bytes | Response:
        data = await json_body(scope, receive)
        if isinstance(data, Response):
            return data
        try:
            payload = orjson.loads(data)
        except orjson.JSONDecodeError as error:
            return problem(400, "Malformed JSON", str(error))
        request = _request(payload)
        if isinstance(request, Response):
            return request
        query, variables, operation_name = request
        document, errors = self._prepared(query)
        if document is None or errors:
            return orjson.dumps({"data": None, "errors": [_formatted(e) for e in errors]})
        with self._odds.shared():  # the fields of one request share one allowance
            result = execute(
                self.schema, document, variable_values=variables, operation_name=operation_name
            )
            if isawaitable(result):
                result = await result
        assert isinstance(result, ExecutionResult)
        if any(isinstance(e.original_error, DeadlineExceeded) for e in result.errors or ()):
            return busy(RETRY_AFTER_SECONDS)
        answer: dict[str, Any] = {"data": result.data}
        if result.errors:
            answer["errors"] = [_formatted(e) for e in result.errors]
        return orjson.dumps(answer)


def _request(payload: Any) -> tuple[str, dict[str, Any] | None, str | None] | Response:
    """The query, variables and operation name of a GraphQL-over-HTTP request body."""
    if not isinstance(payload, dict) or not isinstance(payload.get("query"), str):
        return problem(400, "No GraphQL query", "The body needs a 'query' string.")
    variables = payload.get("variables")
    if variables is not None and not isinstance(variables, dict):
        return problem(400, "Invalid variables", "'variables' must be an object or null.")
    name = payload.get("operationName")
    if name is not None and not isinstance(name, str):
        return problem(400, "Invalid operation name", "'operationName' must be a string or null.")
    return payload["query"], variables, name


def _formatted(error: GraphQLError) -> dict[str, Any]:
    if _unexpected(error):
        LOG.error("GraphQL resolver failed: %s", error.path, exc_info=error.original_error)
        error = GraphQLError("Internal server error.", nodes=error.nodes, source=error.source,
                             positions=error.positions, path=error.path)  # fmt: skip
    entry: dict[str, Any] = dict(error.formatted)
    extensions: dict[str, Any] = dict(entry.get("extensions") or {})
    extensions.setdefault("code", _code(entry))
    entry["extensions"] = extensions
    return entry


def _unexpected(error: GraphQLError) -> bool:
    """A fault of ours, not the caller's: an exception that is not a GraphQL error."""
    original = error.original_error
    return original is not None and not isinstance(original, GraphQLError)


def _code(error: dict[str, Any]) -> str:
    return "INTERNAL_SERVER_ERROR" if error.get("path") else "GRAPHQL_VALIDATION_FAILED"


#: How long the child making the schema may take (`served_schema`): about 2 s on this host.
BUILD_SECONDS = 60.0


def served_schema(
    registry: Registry,
    odds: Odds,
    catalogue: Catalogue | None = None,
    limits: Limits | None = None,
    *,
    apart: bool = True,
) -> GraphQLSchema:
    """The schema `GraphQLApp` answers with: `build_schema`'s, detached from Strawberry.

    Made in a child process (`made_apart`) and loaded here with this process's answers
    attached: Strawberry's build peaks at about 70 MB of short-lived objects, which, made
    here, stayed in the serving process's resident memory for good (its allocator's arenas
    left partly used); loaded, the schema takes about 7 MB, and this process never imports
    Strawberry. Made here where the child cannot make it, or when not `apart`.
    """
    catalogue = catalogue or Catalogue(registry)

    def detached() -> GraphQLSchema:
        from service.graphql_schema import build_schema  # Strawberry, where the schema is made

        return detach(core_schema(build_schema(registry, odds, catalogue, limits)))

    if not apart:
        return detached()
    direct = answers(registry, odds, catalogue)

    def made() -> bytes:
        schema = detached()
        for parent, name in direct:
            set_resolver(schema, parent, name, None)  # closures: attached again on loading
        return portable(schema)

    data = made_apart(made, timeout=BUILD_SECONDS)
    if data is None:
        return detached()
    schema = loaded(data)
    attach(schema, direct)
    return schema
