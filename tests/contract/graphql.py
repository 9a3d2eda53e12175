"""GraphQL requests of any operation, written from the schema alone, and their answers read
back into the REST form.

`Shapes` writes, for an operation field, a document that takes the input as a variable of
the field's own input type and selects every field of the result, recursively; it turns a
REST request into that variable and the GraphQL data into the REST JSON. Names are never
guessed: each GraphQL field's Python (REST) name and each enum value's JSON value come from
the Strawberry schema the service builds (`get_field_for_type`, `get_type_by_name`), and
the types from the graphql-core schema of its SDL.
"""

from functools import cache
from typing import Any

import graphql
import strawberry
from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLList,
    GraphQLNamedType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLUnionType,
)
from strawberry.types.enum import StrawberryEnumDefinition

__all__ = ["Shapes"]


class Shapes:
    """GraphQL documents and the REST form of their answers, for one schema."""

    def __init__(self, schema: strawberry.Schema) -> None:
        self.schema = schema
        self.core = graphql.build_schema(schema.as_str())
        self._fields = cache(self._fields_of)
        self._enum = cache(self._enum_of)

    def document(self, namespace: str, field: str) -> str:
        """`query($input: T!) { namespace { field(input: $input) { every field } } }`."""
        parent = self._namespace(namespace)
        found = parent.fields[field]
        kind = found.args["input"].type
        selection = self._selection(found.type, (parent.name,))
        return (
            f"query Contract($input: {kind}) "
            f"{{ {namespace} {{ {field}(input: $input) {selection} }} }}"
        )

    def variables(self, namespace: str, field: str, request: Any) -> dict[str, Any]:
        """The REST request as the field's `input` variable."""
        kind = self._namespace(namespace).fields[field].args["input"].type
        return {"input": self._to_input(kind, request)}

    def rest(self, namespace: str, field: str, data: Any) -> Any:
        """The field's value in GraphQL data, written as REST writes it."""
        found = self._namespace(namespace).fields[field]
        return self._to_rest(found.type, data[namespace][field])

    def _namespace(self, namespace: str) -> GraphQLObjectType:
        query = self.core.query_type
        assert query is not None
        kind = graphql.get_named_type(query.fields[namespace].type)
        assert isinstance(kind, GraphQLObjectType), namespace
        return kind

    def _selection(self, kind: Any, seen: tuple[str, ...]) -> str:
        named: GraphQLNamedType = graphql.get_named_type(kind)
        if isinstance(named, GraphQLUnionType | GraphQLInterfaceType):
            # The one place a type name is asked for: to read the answer as its member's.
            members = self.core.get_possible_types(named)
            parts = [f"... on {m.name} {self._selection(m, seen)}" for m in members]
            return "{ __typename " + " ".join(parts) + " }"
        if not isinstance(named, GraphQLObjectType):
            return ""
        if named.name in seen:
            raise ValueError(f"{named.name} holds itself: no finite selection reads all of it")
        inner = [
            f"{name} {self._selection(child.type, (*seen, named.name))}".strip()
            for name, child in named.fields.items()
        ]
        return "{ " + " ".join(inner) + " }"

    def _to_input(self, kind: Any, value: Any) -> Any:
        if value is None:
            return None
        if isinstance(kind, GraphQLNonNull):
            return self._to_input(kind.of_type, value)
        if isinstance(kind, GraphQLList):
            return [self._to_input(kind.of_type, item) for item in value]
        if isinstance(kind, GraphQLEnumType):
            names = {v: n for n, v in self._enum(kind.name).items()}
            return names[value]
        if isinstance(kind, GraphQLInputObjectType):
            names = {python: name for name, python in self._fields(kind.name).items()}
            return {
                names[key]: self._to_input(kind.fields[names[key]].type, item)
                for key, item in value.items()
            }
        return value

    def _to_rest(self, kind: Any, value: Any) -> Any:
        if value is None:
            return None
        if isinstance(kind, GraphQLNonNull):
            return self._to_rest(kind.of_type, value)
        if isinstance(kind, GraphQLList):
            return [self._to_rest(kind.of_type, item) for item in value]
        if isinstance(kind, GraphQLEnumType):
            return self._enum(kind.name)[value]
        if isinstance(kind, GraphQLUnionType | GraphQLInterfaceType):
            value = dict(value)
            member = self.core.get_type(value.pop("__typename"))
            return self._to_rest(member, value)
        if isinstance(kind, GraphQLObjectType):
            names = self._fields(kind.name)
            return {
                names[name]: self._to_rest(kind.fields[name].type, item)
                for name, item in value.items()
            }
        return value

    def _fields_of(self, type_name: str) -> dict[str, str]:
        """GraphQL name -> Python name of each field of an object or input type."""
        kind = self.core.get_type(type_name)
        assert isinstance(kind, GraphQLObjectType | GraphQLInputObjectType), type_name
        names = {}
        for name in kind.fields:
            field = self.schema.get_field_for_type(name, type_name)
            assert field is not None, f"{type_name}.{name}"
            names[name] = field.python_name
        return names

    def _enum_of(self, type_name: str) -> dict[str, Any]:
        """GraphQL name -> JSON value of each value of an enum."""
        definition = self.schema.get_type_by_name(type_name)
        assert isinstance(definition, StrawberryEnumDefinition), type_name
        return {value.name: value.value for value in definition.values}
