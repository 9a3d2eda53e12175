"""GraphQL: the Strawberry schema generated from the registry, answered by graphql-core.

Every pydantic model becomes a GraphQL type once (inputs as input types, with the same
defaults), so the schema is typed all the way down with no JSON scalars. The operation
fields are resolved straight from graphql-core (`answers`): the coerced input is validated
by the operation's own pydantic model and the pydantic result itself is returned, read by
attribute. Input errors carry `extensions.code = "BAD_USER_INPUT"` and the pointer of each
bad field; anything unexpected is masked as `INTERNAL_SERVER_ERROR` without its message.
What this takes of Strawberry's and graphql-core's internals is in `graphql_internals`.
"""

import dataclasses
import logging
import math
import types
import typing
from collections.abc import Callable
from enum import Enum
from inspect import isawaitable
from typing import Any, Union

import orjson
import strawberry
from graphql import (
    DocumentNode,
    ExecutionResult,
    GraphQLError,
    GraphQLResolveInfo,
    GraphQLSchema,
    execute,
    parse,
    specified_rules,
)
from graphql import (
    NoSchemaIntrospectionCustomRule as NoSchemaIntrospection,
)
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from service.apart import made_apart
from service.catalogue import Catalogue, SystemInfo
from service.errors import field_errors
from service.graphql_internals import (
    core_schema,
    detach,
    loaded,
    portable,
    read_inputs_by_python_name,
    set_resolver,
    validate,
)
from service.graphql_limits import limit_rule
from service.lru import LRU
from service.rest import RETRY_AFTER_SECONDS
from service.rules.cost import DeadlineExceeded
from service.rules.model import InputError, Model
from service.rules.registry import (
    Operation,
    Registry,
    System,
    Table,
    Wire,
    camel,
    pascal,
    type_name,
)
from service.runtime import Odds
from service.settings import Settings
from service.wire import busy, json_body, problem, respond

__all__ = ["GraphQLApp", "Limits", "answers", "attach", "build_schema", "served_schema"]

LOG = logging.getLogger("adjudicator")
BAD_USER_INPUT = "BAD_USER_INPUT"
#: How long the child making the schema may take (`served_schema`): about 2 s on this host.
BUILD_SECONDS = 60.0


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


class _Types:
    """Strawberry types derived from pydantic models and enums, each made once."""

    def __init__(self) -> None:
        self._made: dict[tuple[object, bool], Any] = {}
        self._names: dict[str, object] = {}

    def _named(self, name: str, source: object) -> str:
        """A GraphQL type name, refused when another model or enum already has it: a schema
        would keep one of the two silently and answer the other's fields wrongly."""
        if self._names.setdefault(name, source) is not source:
            raise TypeError(f"{source!r} and {self._names[name]!r} are both {name}")
        return name

    def enum(self, kind: type[Enum]) -> Any:
        key = (kind, False)
        if key not in self._made:
            self._made[key] = strawberry.enum(kind, name=self._named(type_name(kind), kind))
        return self._made[key]

    def convert(self, annotation: Any, as_input: bool) -> Any:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            return self.convert(typing.get_args(annotation)[0], as_input)
        if origin in (Union, types.UnionType):
            members = [a for a in typing.get_args(annotation) if a is not type(None)]
            converted = [self.convert(a, as_input) for a in members]
            inner = converted[0] if len(converted) == 1 else Union[tuple(converted)]  # noqa: UP007
            return inner | None
        if origin is list or (origin is tuple and typing.get_args(annotation)[1:] == (...,)):
            return list[self.convert(typing.get_args(annotation)[0], as_input)]  # type: ignore[misc]
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            return self.enum(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return self.model(annotation, as_input)
        if annotation in (int, str, bool, float):
            return annotation
        raise TypeError(f"no GraphQL type for {annotation!r}")

    def model(self, model: type[BaseModel] | Wire, as_input: bool) -> Any:
        """A model's type, or a wire model's read from its shape without deriving it."""
        key = (model, as_input)
        if key not in self._made:
            self._made[key] = (self._input if as_input else self._output)(model)
        return self._made[key]

    def _output(self, model: type[BaseModel] | Wire) -> Any:
        name, base, fields = _shape(model)
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {}
        for field, info in fields.items():
            annotations[field] = self.convert(info.annotation, False)
            namespace[field] = strawberry.field(description=info.description)
        if base.model_computed_fields and not base.__pydantic_complete__:
            base.model_rebuild()  # a model built on first use learns its computed fields' types
        for field, computed in base.model_computed_fields.items():
            annotations[field] = self.convert(computed.return_type, False)
            namespace[field] = strawberry.field(description=computed.description)
        cls = type(self._named(name, model), (), {"__annotations__": annotations, **namespace})
        return strawberry.type(cls, description=_doc(base))

    def _input(self, model: type[BaseModel] | Wire) -> Any:
        name, base, fields = _shape(model)
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {}
        for field, info in fields.items():
            kind = self.convert(info.annotation, True)
            description = _described(info)
            if info.is_required():
                namespace[field] = strawberry.field(description=description)
            else:
                default = info.get_default(call_default_factory=True)
                if not isinstance(default, int | str | float | Enum):
                    # Lists and nested inputs default to null, which means "the default".
                    default = None
                    kind = kind | None
                namespace[field] = strawberry.field(default=default, description=description)
            annotations[field] = kind
        name = self._named(name.removesuffix("Request") + "Input", model)
        cls = type(name, (), {"__annotations__": annotations, **namespace})
        return strawberry.input(cls, description=_doc(base))


def _shape(model: type[BaseModel] | Wire) -> tuple[str, type[BaseModel], dict[str, FieldInfo]]:
    """A model's GraphQL name, the model whose docstring and computed fields it has, and its
    fields."""
    if isinstance(model, Wire):
        return model.name, model.base, model.fields
    return type_name(model), model, model.model_fields


_BOUNDS = (("ge", "at least"), ("le", "at most"), ("min_length", "length at least"),
           ("max_length", "length at most"))  # fmt: skip


def _described(info: FieldInfo) -> str | None:
    """The field's description with its bounds, which GraphQL cannot state as types; the
    same bounds are enforced by the pydantic model behind every resolver."""
    found = [
        f"{words} {getattr(meta, key)}"
        for meta in info.metadata
        for key, words in _BOUNDS
        if getattr(meta, key, None) is not None
    ]
    limits = f"Limits: {', '.join(found)}." if found else ""
    return " ".join(part for part in (info.description or "", limits) if part) or None


def _doc(model: type[BaseModel]) -> str | None:
    return (model.__doc__ or "").strip() or None


def _plain(value: Any, loc: tuple[str | int, ...] = ()) -> Any:
    """An input as graphql-core coerced it (fields under their Python names, `answers`) as
    plain data for pydantic; null fields are left to their default. A Float literal too
    large for a double (`1e400`) is coerced to infinity, which JSON cannot carry: it is bad
    input, as REST's JSON parser says it is."""
    if isinstance(value, dict):
        return {name: _plain(v, (*loc, name)) for name, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_plain(v, (*loc, i)) for i, v in enumerate(value)]
    if isinstance(value, float) and not math.isfinite(value):
        raise _bad_input(InputError(loc, "a number must be finite"))
    return value


def _bad_input(error: ValidationError | InputError) -> GraphQLError:
    errors = field_errors(error)
    fields = ", ".join(e.pointer or "(input)" for e in errors)
    return GraphQLError(
        f"Invalid input: {fields}: {errors[0].detail}" if errors else "Invalid input",
        extensions={"code": BAD_USER_INPUT,
                    "errors": [e.model_dump(exclude_none=True) for e in errors]},
    )  # fmt: skip


def _validate(model: type[Model], data: Any) -> Model:
    """Validate as REST does, from JSON: one set of strict JSON rules for both APIs (a JSON
    array is a valid tuple; a Python list, in strict Python mode, is not)."""
    try:
        return model.model_validate_json(orjson.dumps(_plain(data)))
    except ValidationError as error:
        raise _bad_input(error) from None


#: graphql-core resolvers of the fields this module answers, by (type, field): see `answers`.
Direct = dict[tuple[str, str], Callable[..., Any]]


def answers(registry: Registry, odds: Odds, catalogue: Catalogue) -> Direct:
    """What answers each field not read from its parent (the systems, their operations, odds
    and tables), made apart from the schema's types: a process that loads a schema made
    elsewhere (`served_schema`) attaches its own.

    Resolved straight from graphql-core, not through Strawberry's resolver wrapper, which
    converted each input into its own input classes, field by field, and built an `Info`
    per call: 57% of a GraphQL check, more than the whole of the bare Strawberry query
    (make bench, profiled). graphql-core has already coerced and checked the input against
    the schema; with each input field's `out_name` set to its Python name, the coerced input
    is the request as pydantic reads it.
    """
    direct: Direct = {}
    for system in registry.systems:
        direct["Query", system.graphql_name] = _branch
        parent = _system_name(system)
        for op in system.operations:
            direct[parent, camel(op.name)] = _run_answer(op, odds)
            if op.odds is not None:
                direct[parent, _odds_name(op)] = _odds_answer(op, odds)
        if system.tables:
            direct[parent, "tables"] = _branch
            for table in system.tables:
                direct[_tables_name(system), camel(table.name)] = _table_answer(table)
    direct["Query", "systems"] = _systems_answer(catalogue)
    return direct


def _run_answer(op: Operation, odds: Odds) -> Callable[..., Any]:
    def answer(input: Any) -> Any:
        request = _validate(op.request_model, input)
        if getattr(request, "outcome_odds", False):
            return _with_odds(op, request, odds)
        try:
            return op.run(request)
        except InputError as error:
            raise _bad_input(error) from None

    return answer


async def _with_odds(op: Operation, request: Model, odds: Odds) -> Model:
    try:
        return await odds.run(op, request)
    except InputError as error:
        raise _bad_input(error) from None


def _odds_answer(op: Operation, odds: Odds) -> Callable[..., Any]:
    request, result = op.wires.odds_request, op.wires.odds
    assert request is not None
    assert result is not None

    async def answer(input: Any) -> Any:
        try:
            data = await odds.json(op, _validate(request.model, input))
        except InputError as error:
            raise _bad_input(error) from None
        return result.model.model_validate_json(data, strict=False)

    return answer


def _table_answer(table: Table) -> Callable[..., Any]:
    document = table.document()

    def answer() -> Any:
        return document

    return answer


def _systems_answer(catalogue: Catalogue) -> Callable[..., Any]:
    async def answer() -> list[Any]:
        # Made on the first request, in a worker thread: its limits need every input's JSON
        # Schema (see `Catalogue`).
        return list(await run_in_threadpool(catalogue.infos))

    return answer


def _branch() -> Any:
    """The value of a field that only groups others (a system, its tables): their resolvers
    do not read it, and graphql-core only needs it not to be null."""
    return ()


def _system_name(system: System) -> str:
    return pascal(system.slug) + "Query"


def _tables_name(system: System) -> str:
    return pascal(system.slug) + "Tables"


def _odds_name(op: Operation) -> str:
    return camel(op.name) + "Odds"


def _field(
    answer: Callable[..., Any], input_type: Any, output_type: Any, name: str, doc: str | None
) -> Any:
    """A field answered by `answer`, which `attach` makes its resolver. Strawberry reads its
    argument (`input`, when `input_type` is given) and type from a function of its own:
    `answer` carries no annotations, so the schema, once detached, keeps no Strawberry type
    alive through it. An operation's field is nullable: a bad input nulls its own field, not
    its siblings (aliases) with it."""
    if input_type is None:

        def declared() -> Any:
            return answer()

        declared.__annotations__ = {"return": output_type}
    else:

        def declared(input: Any) -> Any:  # type: ignore[misc]
            return answer(input)

        declared.__annotations__ = {"input": input_type, "return": output_type | None}
    return strawberry.field(resolver=declared, name=name, description=doc)


def _system_type(system: System, kinds: _Types, direct: Direct) -> Any:
    namespace: dict[str, Any] = {}
    parent = _system_name(system)
    for op in system.operations:
        attribute = op.name.replace("/", "_").replace("-", "_")
        name = camel(op.name)
        namespace[attribute] = _field(
            direct[parent, name], kinds.model(op.wires.request, True),
            kinds.model(op.wires.result, False), name, op.summary,
        )  # fmt: skip
        if op.odds is not None:
            request, result = op.wires.odds_request, op.wires.odds
            assert request is not None
            assert result is not None
            name = _odds_name(op)
            namespace[attribute + "_odds"] = _field(
                direct[parent, name], kinds.model(request, True), kinds.model(result, False),
                name, f"Exact odds of every outcome: {op.summary}",
            )  # fmt: skip
    if system.tables:
        tables = _tables_type(system, kinds, direct)
        namespace["tables"] = _field(direct[parent, "tables"], None, tables, "tables", None)
    cls = type(parent, (), namespace)
    return strawberry.type(cls, description=system.title)


def _tables_type(system: System, kinds: _Types, direct: Direct) -> Any:
    parent = _tables_name(system)
    namespace: dict[str, Any] = {}
    for table in system.tables:
        name = camel(table.name)
        namespace[table.name.replace("-", "_")] = _field(
            direct[parent, name], None, kinds.model(table.model, False), name, table.title
        )
    cls = type(parent, (), namespace)
    return strawberry.type(cls, description=f"Reference tables of {system.title}.")


def attach(schema: GraphQLSchema, direct: Direct) -> None:
    """Resolve the fields of `direct` with its answers, from graphql-core directly."""
    for (parent, name), answer in direct.items():
        set_resolver(schema, parent, name, _resolver(answer))


def _resolver(answer: Callable[..., Any]) -> Callable[..., Any]:
    """graphql-core calls a resolver with the parent value, the info and the arguments."""

    def resolve(root: Any, info: GraphQLResolveInfo[Any], **arguments: Any) -> Any:
        return answer(**arguments)

    return resolve


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


def _query_text(limits: Limits | None) -> str:
    text = (
        "Every system's operations, their exact odds and tables. Several operations in one "
        "request (a round of combat) are aliased fields, each with its own input and dice and "
        "its own result or error; their odds share one request's cost allowance."
    )
    if limits is None:
        return text
    return (
        f"{text} Limits: {limits.max_aliases} aliased fields, {limits.max_depth} levels deep, "
        f"{limits.max_tokens} tokens and {limits.max_query_bytes} bytes a query."
    )


def build_schema(
    registry: Registry,
    odds: Odds,
    catalogue: Catalogue | None = None,
    limits: Limits | None = None,
) -> strawberry.Schema:
    """The Strawberry schema of every system, its fields answered by `answers`."""
    kinds = _Types()
    catalogue = catalogue or Catalogue(registry)
    direct = answers(registry, odds, catalogue)
    namespace: dict[str, Any] = {}
    for system in registry.systems:
        namespace[system.graphql_name] = _field(
            direct["Query", system.graphql_name], None, _system_type(system, kinds, direct),
            system.graphql_name, system.title,
        )  # fmt: skip
    namespace["systems"] = _field(
        direct["Query", "systems"], None, list[kinds.model(SystemInfo, False)],  # type: ignore[misc]
        "systems", "Every system and operation: covered ids, options, limits.",
    )  # fmt: skip
    query = strawberry.type(type("Query", (), namespace), description=_query_text(limits))
    schema = strawberry.Schema(query=query)
    read_inputs_by_python_name(core_schema(schema))
    attach(core_schema(schema), direct)
    return schema


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
    left partly used); loaded, the schema takes about 10 MB. Made here where the child
    cannot make it, or when not `apart`.
    """
    catalogue = catalogue or Catalogue(registry)

    def detached() -> GraphQLSchema:
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
