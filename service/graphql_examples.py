"""The example request of every GraphQL operation field, as GraphiQL's picker offers it.

Each query is written from the operation's example (`Operation.example`, the one OpenAPI
and the catalogue publish) and the schema the service answers: the input as a literal, its
field and enum names read from the schema (never guessed), and every field of the result
selected, so the answer shows all that the operation returns. A new operation gets its
example with no code here.
"""

import textwrap
from collections.abc import Mapping
from typing import Any

from graphql import (
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLInterfaceType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    GraphQLUnionType,
    ast_from_value,
    get_named_type,
    parse,
    print_ast,
)

from service.catalogue import example, odds_example
from service.graphql_internals import python_name
from service.rules.registry import Operation, Registry, System, camel, pascal

__all__ = ["examples", "literal", "selection"]


def examples(registry: Registry, schema: GraphQLSchema) -> list[dict[str, Any]]:
    """For each system, its slug and title, and for each operation field (an operation and
    its odds) the REST-style name (`check`, `check/odds`), summary and query."""
    return [
        {
            "slug": system.slug,
            "title": system.title,
            "operations": [
                entry for op in system.operations for entry in _entries(schema, system, op)
            ],
        }
        for system in registry.systems
    ]


def _entries(schema: GraphQLSchema, system: System, op: Operation) -> list[dict[str, str]]:
    found = [(op.name, camel(op.name), op.summary, example(op))]
    request = odds_example(op)
    if op.odds is not None and request is not None:
        found.append(
            (f"{op.name}/odds", camel(op.name) + "Odds", f"Exact odds: {op.summary}", request)
        )
    return [
        {"name": name, "summary": summary, "query": _query(schema, system, field, summary, request)}
        for name, field, summary, request in found
    ]


def _query(
    schema: GraphQLSchema, system: System, field: str, summary: str, request: Mapping[str, Any]
) -> str:
    query = schema.query_type
    assert query is not None
    namespace = get_named_type(query.fields[system.graphql_name].type)
    assert isinstance(namespace, GraphQLObjectType), system.graphql_name
    found = namespace.fields[field]
    text = (
        f"query {pascal(system.slug)}{pascal(field)} {{ {system.graphql_name} {{ "
        f"{field}(input: {literal(request, found.args['input'].type)}) "
        f"{selection(schema, found.type)} }} }}"
    )
    comments = "".join(f"# {line}\n" for line in textwrap.wrap(summary, 72))
    return comments + print_ast(parse(text))


def literal(value: Any, kind: GraphQLInputType) -> str:
    """A JSON request as a GraphQL input literal of `kind`: fields under their GraphQL names,
    enum values as the schema spells them."""
    node = ast_from_value(_renamed(value, kind), kind)
    assert node is not None, f"{value!r} is not a {kind}"
    return print_ast(node)


def _renamed(value: Any, kind: GraphQLInputType) -> Any:
    """`value` with each input field under its GraphQL name (the JSON one is its Python
    name); an unknown field is a KeyError, never silently dropped."""
    if value is None:
        return None
    if isinstance(kind, GraphQLNonNull):
        return _renamed(value, kind.of_type)
    if isinstance(kind, GraphQLList):
        return [_renamed(item, kind.of_type) for item in value]
    if isinstance(kind, GraphQLInputObjectType):
        names = {python_name(field): name for name, field in kind.fields.items()}
        return {
            names[key]: _renamed(item, kind.fields[names[key]].type) for key, item in value.items()
        }
    return value


def selection(schema: GraphQLSchema, kind: GraphQLOutputType, seen: tuple[str, ...] = ()) -> str:
    """Every field of `kind`, recursively (`{ a b { c } }`; nothing for a leaf); a union's
    members by inline fragments, with `__typename`. A type is not entered again inside
    itself, so the selection is finite."""
    named = get_named_type(kind)
    if isinstance(named, GraphQLUnionType | GraphQLInterfaceType):
        members = schema.get_possible_types(named)
        parts = [f"... on {m.name} {selection(schema, m, seen)}" for m in members]
        return "{ __typename " + " ".join(parts) + " }"
    if not isinstance(named, GraphQLObjectType):
        return ""
    inner = [
        f"{name} {selection(schema, field.type, (*seen, named.name))}".rstrip()
        for name, field in named.fields.items()
        if get_named_type(field.type).name not in (*seen, named.name)
    ]
    return "{ " + " ".join(inner) + " }"
