"""The Strawberry schema, generated from the registry.

Every pydantic model becomes a GraphQL type once (inputs as input types, with the same
defaults), so the schema is typed all the way down with no JSON scalars. Resolvers validate
the input with the operation's own pydantic model and return the pydantic result itself:
Strawberry reads fields by attribute, so no copy is made. Input errors carry
`extensions.code = "BAD_USER_INPUT"` and the pointer of each bad field; anything unexpected
is masked as `INTERNAL_SERVER_ERROR` without its message.
"""

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import partial
from typing import Any, Union

import orjson
import strawberry
from graphql import GraphQLError
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from strawberry.asgi import GraphQL
from strawberry.extensions import (
    AddValidationRules,
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    ValidationCache,
)
from strawberry.http import GraphQLHTTPResponse
from strawberry.types import ExecutionContext, ExecutionResult

from service.cache import ProbabilityCache
from service.catalogue import SystemInfo, describe_system
from service.errors import field_errors
from service.rules.model import InputError, Model
from service.rules.registry import Operation, Registry, System, Table, camel, pascal, type_name
from service.runtime import odds_json
from service.settings import Settings

__all__ = ["GraphQLApp", "Limits", "build_schema"]

BAD_USER_INPUT = "BAD_USER_INPUT"


@dataclasses.dataclass(frozen=True)
class Limits:
    max_depth: int
    max_aliases: int
    max_tokens: int

    @classmethod
    def from_settings(cls, settings: Settings) -> "Limits":
        return cls(settings.graphql_max_depth, settings.graphql_max_aliases,
                   settings.graphql_max_tokens)  # fmt: skip


class _Types:
    """Strawberry types derived from pydantic models and enums, each made once."""

    def __init__(self) -> None:
        self._made: dict[tuple[type, bool], Any] = {}

    def enum(self, kind: type[Enum]) -> Any:
        key = (kind, False)
        if key not in self._made:
            self._made[key] = strawberry.enum(kind, name=type_name(kind))
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

    def model(self, model: type[BaseModel], as_input: bool) -> Any:
        key = (model, as_input)
        if key not in self._made:
            self._made[key] = (self._input if as_input else self._output)(model)
        return self._made[key]

    def _output(self, model: type[BaseModel]) -> Any:
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            annotations[name] = self.convert(info.annotation, False)
            namespace[name] = strawberry.field(description=info.description)
        for name, computed in model.model_computed_fields.items():
            annotations[name] = self.convert(computed.return_type, False)
            namespace[name] = strawberry.field(description=computed.description)
        cls = type(type_name(model), (), {"__annotations__": annotations, **namespace})
        return strawberry.type(cls, description=_doc(model))

    def _input(self, model: type[BaseModel]) -> Any:
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            kind = self.convert(info.annotation, True)
            description = _described(info)
            if info.is_required():
                namespace[name] = strawberry.field(description=description)
            else:
                default = info.get_default(call_default_factory=True)
                if not isinstance(default, int | str | float | Enum):
                    # Lists and nested inputs default to null, which means "the default".
                    default = None
                    kind = kind | None
                namespace[name] = strawberry.field(default=default, description=description)
            annotations[name] = kind
        name = type_name(model).removesuffix("Request") + "Input"
        cls = type(name, (), {"__annotations__": annotations, **namespace})
        return strawberry.input(cls, description=_doc(model))


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


def _plain(value: Any) -> Any:
    """A Strawberry input as plain data for pydantic; null fields are left to their default."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if getattr(value, f.name) is not None
        }
    if isinstance(value, list):
        return [_plain(v) for v in value]
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


def _resolver(
    function: Callable[..., Any], input_type: Any, output_type: Any, name: str, doc: str
) -> Any:
    function.__annotations__ = {"input": input_type, "return": output_type}
    return strawberry.field(resolver=function, name=name, description=doc)


def _run_field(op: Operation, kinds: _Types) -> Any:
    def run(input: Any) -> Any:
        request = _validate(op.request_model, input)
        try:
            return op.run(request)
        except InputError as error:
            raise _bad_input(error) from None

    return _resolver(
        run, kinds.model(op.request_model, True), kinds.model(op.result_model, False),
        camel(op.name), op.summary,
    )  # fmt: skip


def _odds_field(op: Operation, kinds: _Types, cache: ProbabilityCache) -> Any:
    assert op.odds_request_model is not None
    assert op.odds_model is not None
    request_model, result_model = op.odds_request_model, op.odds_model

    async def odds(input: Any) -> Any:
        request = _validate(request_model, input)
        try:
            data = await odds_json(cache, op, request)
        except InputError as error:
            raise _bad_input(error) from None
        return result_model.model_validate_json(data, strict=False)

    return _resolver(
        odds, kinds.model(request_model, True), kinds.model(result_model, False),
        camel(op.name) + "Odds", f"Exact odds of every outcome: {op.summary}",
    )  # fmt: skip


def _tables_type(system: System, kinds: _Types) -> Any:
    def field(table: Table) -> Any:
        document = table.document()

        def resolve() -> Any:
            return document

        resolve.__annotations__ = {"return": kinds.model(table.model, False)}
        return strawberry.field(resolver=resolve, name=camel(table.name), description=table.title)

    namespace = {table.name.replace("-", "_"): field(table) for table in system.tables}
    cls = type(pascal(system.slug) + "Tables", (), namespace)
    return strawberry.type(cls, description=f"Reference tables of {system.title}.")


def _system_type(system: System, kinds: _Types, cache: ProbabilityCache) -> Any:
    namespace: dict[str, Any] = {}
    for op in system.operations:
        namespace[op.name.replace("/", "_").replace("-", "_")] = _run_field(op, kinds)
        if op.odds is not None:
            namespace[op.name.replace("/", "_").replace("-", "_") + "_odds"] = _odds_field(
                op, kinds, cache
            )
    if system.tables:
        tables = _tables_type(system, kinds)

        def resolve_tables() -> Any:
            return tables()

        resolve_tables.__annotations__ = {"return": tables}
        namespace["tables"] = strawberry.field(resolver=resolve_tables)
    cls = type(pascal(system.slug) + "Query", (), namespace)
    return strawberry.type(cls, description=system.title)


def _namespace(system: System, system_type: Any) -> Any:
    def resolve() -> Any:
        return system_type()

    resolve.__annotations__ = {"return": system_type}
    return strawberry.field(resolver=resolve, name=system.graphql_name, description=system.title)


class _ErrorCodes(MaskErrors):
    """Unexpected resolver errors lose their message (it may leak internals); `GraphQLApp`
    then codes them INTERNAL_SERVER_ERROR and documents that fail to parse, validate or
    coerce their variables GRAPHQL_VALIDATION_FAILED."""

    def __init__(self) -> None:
        super().__init__(should_mask_error=_unexpected, error_message="Internal server error.")


def _unexpected(error: GraphQLError) -> bool:
    """A fault of ours, not the caller's: an exception that is not a GraphQL error."""
    return _unexpected_original(error) and not (error.extensions or {}).get("code")


def _code(error: dict[str, Any]) -> str:
    return "INTERNAL_SERVER_ERROR" if error.get("path") else "GRAPHQL_VALIDATION_FAILED"


class GraphQLApp(GraphQL):
    """Strawberry's ASGI view, making sure every error leaves with `extensions.code`: syntax
    and token-limit errors are raised before any schema extension sees the result."""

    async def process_result(self, request: Any, result: ExecutionResult) -> GraphQLHTTPResponse:
        response = await super().process_result(request, result)
        for error in typing.cast(list[dict[str, Any]], response.get("errors") or []):
            extensions = error.setdefault("extensions", {})
            extensions.setdefault("code", _code(error))
        return response


class _Schema(strawberry.Schema):
    """Logs only unexpected errors: a caller's bad input is answered, not logged as a fault."""

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        unexpected = [e for e in errors if _unexpected_original(e)]
        if unexpected:
            super().process_errors(unexpected, execution_context)


def _unexpected_original(error: GraphQLError) -> bool:
    original = error.original_error
    return original is not None and not isinstance(original, GraphQLError)


def _limit_rules(limits: Limits) -> list[Any]:
    """The validation rules of the depth and alias limits, made once per schema."""
    depth = QueryDepthLimiter(max_depth=limits.max_depth)
    aliases = MaxAliasesLimiter(max_alias_count=limits.max_aliases)
    return [*depth.validation_rules, *aliases.validation_rules]


def build_schema(registry: Registry, cache: ProbabilityCache, limits: Limits) -> strawberry.Schema:
    kinds = _Types()
    namespace: dict[str, Any] = {}
    infos = [describe_system(system) for system in registry.systems]
    for system in registry.systems:
        namespace[system.graphql_name] = _namespace(system, _system_type(system, kinds, cache))

    def systems() -> list[Any]:
        return list(infos)

    systems.__annotations__ = {"return": list[kinds.model(SystemInfo, False)]}  # type: ignore[misc]
    namespace["systems"] = strawberry.field(
        resolver=systems, description="Every system and operation: covered ids, options, limits."
    )
    query = strawberry.type(type("Query", (), namespace))
    return _Schema(
        query=query,
        extensions=[
            # Factories, not instances: each request gets its own extension state (the parser
            # and validation caches are shared by Strawberry behind the factory). The depth
            # and alias rules are made once: a limiter made per request would add new rule
            # classes every time, and the validation cache, keyed by the rules, never hit.
            partial(AddValidationRules, _limit_rules(limits)),
            partial(MaxTokensLimiter, max_token_count=limits.max_tokens),
            partial(ParserCache, maxsize=512),
            partial(ValidationCache, maxsize=512),
            _ErrorCodes,
        ],
    )
