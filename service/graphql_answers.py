"""What answers each GraphQL field that is not read from its parent: the systems, their
operations, odds and tables, resolved straight from graphql-core.

The coerced input is validated by the operation's own pydantic model and the pydantic result
itself is returned, read by attribute. These resolvers hold no Strawberry type: a process
that loads a schema made elsewhere (`graphql.served_schema`) attaches its own.
"""

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import orjson
from graphql import GraphQLError, GraphQLResolveInfo, GraphQLSchema
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from service.catalogue import Catalogue
from service.errors import field_errors
from service.graphql_internals import set_resolver
from service.rules.model import InputError, Model
from service.rules.registry import Operation, Registry, System, Table, camel, pascal
from service.runtime import Odds

__all__ = [
    "BAD_USER_INPUT",
    "Direct",
    "answers",
    "attach",
    "odds_field_name",
    "system_type_name",
    "tables_type_name",
]

BAD_USER_INPUT = "BAD_USER_INPUT"


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
    elsewhere (`graphql.served_schema`) attaches its own. What an answer needs (a table's
    document, an operation's wire models) is made by its first request: made with the
    answers, every system's tables and odds models held 9 MB for good.

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
        parent = system_type_name(system)
        for op in system.operations:
            direct[parent, camel(op.name)] = _run_answer(op, odds)
            if op.odds is not None:
                direct[parent, odds_field_name(op)] = _odds_answer(op, odds)
        if system.tables:
            direct[parent, "tables"] = _branch
            for table in system.tables:
                direct[tables_type_name(system), camel(table.name)] = _table_answer(table)
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
    async def answer(input: Any) -> Any:
        request, result = op.wires.odds_request, op.wires.odds
        assert request is not None
        assert result is not None
        try:
            data = await odds.json(op, _validate(request.model, input))
        except InputError as error:
            raise _bad_input(error) from None
        return result.model.model_validate_json(data, strict=False)

    return answer


def _table_answer(table: Table) -> Callable[..., Any]:
    return cache(table.document)


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


def system_type_name(system: System) -> str:
    return pascal(system.slug) + "Query"


def tables_type_name(system: System) -> str:
    return pascal(system.slug) + "Tables"


def odds_field_name(op: Operation) -> str:
    return camel(op.name) + "Odds"


def attach(schema: GraphQLSchema, direct: Direct) -> None:
    """Resolve the fields of `direct` with its answers, from graphql-core directly."""
    for (parent, name), answer in direct.items():
        set_resolver(schema, parent, name, _resolver(answer))


def _resolver(answer: Callable[..., Any]) -> Callable[..., Any]:
    """graphql-core calls a resolver with the parent value, the info and the arguments."""

    def resolve(root: Any, info: GraphQLResolveInfo[Any], **arguments: Any) -> Any:
        return answer(**arguments)

    return resolve
