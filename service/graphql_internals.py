"""Every use of Strawberry or graphql-core internals, in one place.

Strawberry builds the schema from the models; graphql-core answers the requests, without
Strawberry's per-request machinery (see `service.graphql`). That takes four things neither
library documents as stable:

- `strawberry.Schema._schema`, the graphql-core schema Strawberry built;
- `GraphQLCoreConverter.DEFINITION_BACKREF`, the key under which each graphql-core field's
  `extensions` hold Strawberry's definition (for an input field, its `python_name`);
- rewriting a built schema: an input field's `out_name` (graphql-core coerces the input to a
  dict under those names) and an object field's `resolve`;
- that Strawberry's own validation rules (`Maybe` fields, `@oneOf` inputs) have nothing to
  check in this schema, so graphql-core's validation is Strawberry's;
- Strawberry's enum type (`CustomGraphQLEnumType`, its `wrapped_cls`), which graphql-core's
  pickling cannot make again (`portable`);
- what a built schema holds of Strawberry (`detach`): each field's and type's `extensions`,
  the `_fields` thunks graphql-core keeps after calling them, and the schema's
  `_strawberry_schema`.

The depth and alias limits are our own (`service.graphql_limits`): Strawberry's limiters skip
introspection and measure a fragment afresh at every spread.

tests/test_graphql_internals.py checks each of them and names the one an upgrade breaks.

Strawberry is imported by the functions that make the schema, not with this module: the
serving process loads a schema made in a child and answers without it (4 MB it does not
hold).
"""

import io
import pickle
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from graphql import (
    ASTValidationRule,
    DocumentNode,
    GraphQLArgument,
    GraphQLEnumType,
    GraphQLEnumValue,
    GraphQLError,
    GraphQLField,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLWrappingType,
)
from graphql import validate as graphql_validate
from graphql.type.introspection import introspection_types

if TYPE_CHECKING:
    import strawberry
    from strawberry.schema.schema_converter import CustomGraphQLEnumType

__all__ = [
    "core_schema",
    "detach",
    "loaded",
    "portable",
    "python_name",
    "read_inputs_by_python_name",
    "set_resolver",
    "validate",
]


def core_schema(schema: "strawberry.Schema") -> GraphQLSchema:
    """The graphql-core schema behind a Strawberry schema."""
    return schema._schema


def python_name(field: GraphQLInputField) -> str:
    """The Python name of an input field Strawberry made (`twoWords` -> `two_words`): its
    `out_name` once `read_inputs_by_python_name` has set it (a detached schema keeps no
    definition to read it from)."""
    if field.out_name is not None:
        return field.out_name
    return str(field.extensions[_definition_key()].python_name)


def read_inputs_by_python_name(schema: GraphQLSchema) -> None:
    """Have graphql-core coerce every input object to a dict keyed by the Python names of its
    fields, so a coerced input is the request as pydantic reads it."""
    for kind in schema.type_map.values():
        if isinstance(kind, GraphQLInputObjectType) and not kind.name.startswith("__"):
            for field in kind.fields.values():
                field.out_name = python_name(field)


def set_resolver(
    schema: GraphQLSchema, type_name: str, field_name: str, resolve: Callable[..., Any] | None
) -> None:
    """Resolve a field with `resolve(parent, info, **arguments)` in place of Strawberry's
    (None: graphql-core's default, until set again)."""
    owner = schema.get_type(type_name)
    assert isinstance(owner, GraphQLObjectType), type_name
    owner.fields[field_name].resolve = resolve


def validate(
    schema: GraphQLSchema, document: DocumentNode, rules: tuple[type[ASTValidationRule], ...]
) -> list[GraphQLError]:
    """Validate a document by `rules`, as Strawberry would: its own rules check `Maybe`
    fields and `@oneOf` inputs, and this schema has neither (tests/test_graphql_internals)."""
    return graphql_validate(schema, document, rules)


def detach(schema: GraphQLSchema) -> GraphQLSchema:
    """Let go of Strawberry: once the resolvers that answer are set, a field still resolved
    by Strawberry reads its attribute by Python name, and nothing in `schema` points back
    at Strawberry's types, fields and dataclasses (two thirds of the schema's memory), so
    they are collected. Raises for a field whose Strawberry resolver does more than read.
    The schema answers and validates as before; Strawberry can no longer print or run it.

    What is left is made small to keep: fields share their type wrappers (the 13,000
    `NonNull` and `List` of the schema are 2,400 different ones) and one empty map of
    extensions and arguments (nothing writes to either): 10 MB loaded became 7 MB.
    """
    readers: dict[str, Callable[..., Any]] = {}
    wrappers: _Wrappers = {}
    for kind in schema.type_map.values():
        if kind.name.startswith("__"):
            continue
        if isinstance(kind, GraphQLObjectType | GraphQLInputObjectType):
            kind._fields = kind.fields  # the thunk Strawberry gave holds its definitions
            for name, field in kind.fields.items():
                definition = field.extensions.get(_definition_key())
                if isinstance(kind, GraphQLObjectType) and _strawberrys(field.resolve):
                    if definition.base_resolver is not None:
                        raise TypeError(f"{kind.name}.{name} is resolved by Strawberry")
                    attribute = definition.python_name
                    field.resolve = readers.setdefault(attribute, partial(_read, attribute))
                _share(field, wrappers)
                for argument in getattr(field, "args", {}).values():
                    _share(argument, wrappers)
                if isinstance(field, GraphQLField) and not field.args:
                    field.args = _NONE
        if isinstance(kind, GraphQLObjectType):
            kind._interfaces = kind.interfaces
        if isinstance(kind, GraphQLEnumType):
            for value in kind.values.values():
                value.extensions = _NONE
        kind.extensions = _NONE
    for directive in schema.directives:
        for argument in directive.args.values():
            argument.extensions = {}
    schema.extensions = {}
    vars(schema).pop("_strawberry_schema", None)
    return schema


#: The wrappers kept, by their kind and the identity of the type they wrap.
_Wrappers = dict[tuple[type[Any], int], GraphQLWrappingType[Any]]

#: The one empty map of extensions (or arguments) a detached schema's parts share.
_NONE: dict[str, Any] = {}


def _share(part: GraphQLField | GraphQLInputField | GraphQLArgument, wrappers: _Wrappers) -> None:
    part.extensions = _NONE
    part.type = _wrapper(part.type, wrappers)


def _wrapper(kind: Any, wrappers: _Wrappers) -> Any:
    """`kind`, or the first wrapper met of the same kind around the same type."""
    if not isinstance(kind, GraphQLWrappingType):
        return kind
    inner = _wrapper(kind.of_type, wrappers)
    kind.of_type = inner
    return wrappers.setdefault((type(kind), id(inner)), kind)


def _definition_key() -> str:
    from strawberry.schema.schema_converter import GraphQLCoreConverter

    return GraphQLCoreConverter.DEFINITION_BACKREF


def _strawberrys(resolve: Callable[..., Any] | None) -> bool:
    return getattr(resolve, "__module__", "").startswith("strawberry")


def _read(attribute: str, parent: Any, info: Any, **arguments: Any) -> Any:
    """The resolver of a field read by attribute, partly applied (it pickles; `portable`)."""
    return getattr(parent, attribute)


def portable(schema: GraphQLSchema) -> bytes:
    """A detached schema as bytes that `loaded` makes it again from, in another process.
    Every resolver left in it must pickle (a detached schema's readers do): the caller
    removes its own first. Strawberry's enum types, which graphql-core cannot make again
    (their constructor wants Strawberry's definition), become graphql-core's own; the
    introspection types, which Strawberry extends in place with a resolver of its own
    (`__Type.isOneOf`), are the loading process's."""
    from strawberry.schema.schema_converter import CustomGraphQLEnumType

    out = io.BytesIO()
    _Pickler(out, CustomGraphQLEnumType).dump(schema)
    return out.getvalue()


class _Pickler(pickle.Pickler):
    def __init__(self, out: io.BytesIO, strawberrys_enum: type["CustomGraphQLEnumType"]) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self._strawberrys_enum = strawberrys_enum

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, self._strawberrys_enum):
            return _plain_enum(obj)
        if isinstance(obj, GraphQLNamedType) and obj.name in introspection_types:
            return _introspection_type, (obj.name,)
        return NotImplemented


def _introspection_type(name: str) -> GraphQLNamedType:
    return introspection_types[name]


def loaded(data: bytes) -> GraphQLSchema:
    """The schema `portable` made `data` of."""
    schema = pickle.loads(data)
    assert isinstance(schema, GraphQLSchema)
    return schema


def _plain_enum(kind: "CustomGraphQLEnumType") -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """Strawberry's enum type as graphql-core's, its values the Python enum's members: an
    input parses to the member and a member prints as its name, as with Strawberry's."""
    values = {
        name: GraphQLEnumValue(**{**value.to_kwargs(), "value": kind.wrapped_cls(value.value)})
        for name, value in kind.values.items()
    }
    return _enum, ({**kind.to_kwargs(), "values": values},)


def _enum(kwargs: dict[str, Any]) -> GraphQLEnumType:
    return GraphQLEnumType(**kwargs)
