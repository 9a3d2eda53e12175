"""Every use of Strawberry or graphql-core internals, in one place.

Strawberry builds the schema from the models; graphql-core answers the requests, without
Strawberry's per-request machinery (see `service.graphql`). That takes four things neither
library documents as stable:

- `strawberry.Schema._schema`, the graphql-core schema Strawberry built;
- `GraphQLCoreConverter.DEFINITION_BACKREF`, the key under which each graphql-core field's
  `extensions` hold Strawberry's definition (for an input field, its `python_name`);
- rewriting a built schema: an input field's `out_name` (graphql-core coerces the input to a
  dict under those names) and an object field's `resolve`;
- `strawberry.schema.schema.validate_document(schema, document, rules)`, graphql-core's
  validation with Strawberry's own rules added.

The depth and alias limits are our own (`service.graphql_limits`): Strawberry's limiters skip
introspection and measure a fragment afresh at every spread.

tests/test_graphql_internals.py checks each of them and names the one an upgrade breaks.
"""

from collections.abc import Callable
from typing import Any

import strawberry
from graphql import (
    ASTValidationRule,
    DocumentNode,
    GraphQLError,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLObjectType,
    GraphQLSchema,
)
from strawberry.schema.schema import validate_document
from strawberry.schema.schema_converter import GraphQLCoreConverter

__all__ = [
    "core_schema",
    "python_name",
    "read_inputs_by_python_name",
    "set_resolver",
    "validate",
]


def core_schema(schema: strawberry.Schema) -> GraphQLSchema:
    """The graphql-core schema behind a Strawberry schema."""
    return schema._schema


def python_name(field: GraphQLInputField) -> str:
    """The Python name of an input field Strawberry made (`twoWords` -> `two_words`)."""
    return str(field.extensions[GraphQLCoreConverter.DEFINITION_BACKREF].python_name)


def read_inputs_by_python_name(schema: GraphQLSchema) -> None:
    """Have graphql-core coerce every input object to a dict keyed by the Python names of its
    fields, so a coerced input is the request as pydantic reads it."""
    for kind in schema.type_map.values():
        if isinstance(kind, GraphQLInputObjectType) and not kind.name.startswith("__"):
            for field in kind.fields.values():
                field.out_name = python_name(field)


def set_resolver(
    schema: GraphQLSchema, type_name: str, field_name: str, resolve: Callable[..., Any]
) -> None:
    """Resolve a field with `resolve(parent, info, **arguments)` in place of Strawberry's."""
    owner = schema.get_type(type_name)
    assert isinstance(owner, GraphQLObjectType), type_name
    owner.fields[field_name].resolve = resolve


def validate(
    schema: GraphQLSchema, document: DocumentNode, rules: tuple[type[ASTValidationRule], ...]
) -> list[GraphQLError]:
    """Validate a document by `rules` and Strawberry's own rules, as Strawberry would."""
    return validate_document(schema, document, rules)
