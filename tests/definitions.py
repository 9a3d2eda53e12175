"""Weak references to the Strawberry definitions behind a built schema's types, to see
whether `graphql_internals.detach` let them go."""

import weakref
from typing import Any

from graphql import GraphQLInputObjectType, GraphQLObjectType
from strawberry.schema.schema_converter import GraphQLCoreConverter

from service.graphql_internals import core_schema


def strawberry_definitions(schema: Any) -> list[weakref.ref[Any]]:
    """Each object and input type's Strawberry definition, weakly held."""
    return [
        weakref.ref(kind.extensions[GraphQLCoreConverter.DEFINITION_BACKREF])
        for kind in core_schema(schema).type_map.values()
        if isinstance(kind, GraphQLObjectType | GraphQLInputObjectType)
        and GraphQLCoreConverter.DEFINITION_BACKREF in kind.extensions
    ]
