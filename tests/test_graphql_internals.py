"""What service/graphql_internals.py takes of Strawberry's and graphql-core's internals still
works: each test names the internal and what to look at when an upgrade breaks it.

The schema here is the smallest that uses every internal the service does: inputs of several
words, nested and listed, with a default; a field whose resolver is replaced; a recursive
type to be deep, and fields to alias; an enum, for the schema made portable.
"""

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from importlib.metadata import version
from types import ModuleType
from typing import Any

import pytest
import strawberry
from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLObjectType,
    GraphQLResolveInfo,
    GraphQLSchema,
    GraphQLWrappingType,
    graphql_sync,
    parse,
    print_schema,
    specified_rules,
)
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.base import StrawberryMaybe

from service.cache import MemoryCache
from service.graphql_internals import (
    core_schema,
    detach,
    loaded,
    portable,
    python_name,
    read_inputs_by_python_name,
    set_resolver,
    validate,
)
from service.graphql_schema import build_schema
from service.rules.registry import load
from service.runtime import Odds

VERSIONS = ", ".join(f"{name} {version(name)}" for name in ("strawberry-graphql", "graphql-core"))


@contextmanager
def relying_on(internal: str, what: str) -> Iterator[None]:
    """Turn any failure inside into one that says which internal changed and what to check."""
    try:
        yield
    except Exception as error:
        message = (
            f"service/graphql_internals.py relies on {internal}, which no longer works with "
            f"{VERSIONS}: {what}.\n{type(error).__name__}: {error}"
        )
        raise pytest.fail.Exception(message, pytrace=False) from None


@strawberry.input
class Pair:
    two_words: int
    left_alone: int = 5


@strawberry.input
class Request:
    nested_pair: Pair
    listed_pairs: list[Pair]


@strawberry.type
class Node:
    value: int = 1
    two_words: int = 2

    @strawberry.field
    def child(self) -> "Node":
        return Node()


@strawberry.type
class Query:
    @strawberry.field
    def echo(self, input: Request) -> str:
        return "Strawberry's resolver"

    @strawberry.field
    def node(self) -> Node:
        return Node()


LITERAL = "{ echo(input: {nestedPair: {twoWords: 1}, listedPairs: [{twoWords: 2, leftAlone: 3}]}) }"
VARIABLE = "query ($i: Request!) { echo(input: $i) }"
COERCED = {
    "nested_pair": {"two_words": 1, "left_alone": 5},
    "listed_pairs": [{"two_words": 2, "left_alone": 3}],
}


def schema() -> strawberry.Schema:
    """Made afresh per test: the internals rewrite it."""
    return strawberry.Schema(query=Query)


def direct(core: GraphQLSchema) -> list[dict[str, Any]]:
    """Route `echo` to a resolver of ours that keeps the arguments it is given."""
    seen: list[dict[str, Any]] = []

    def resolve(root: Any, info: GraphQLResolveInfo[Any], **arguments: Any) -> str:
        assert isinstance(info, GraphQLResolveInfo)
        seen.append(arguments)
        return "ours"

    set_resolver(core, "Query", "echo", resolve)
    return seen


def test_the_graphql_core_schema_is_reachable():
    with relying_on(
        "strawberry.Schema._schema",
        "find where Strawberry keeps the graphql-core GraphQLSchema it built and return it "
        "from core_schema",
    ):
        core = core_schema(schema())
        assert isinstance(core, GraphQLSchema)
        assert isinstance(core.get_type("Query"), GraphQLObjectType)


def test_an_input_field_knows_its_python_name():
    with relying_on(
        "GraphQLCoreConverter.DEFINITION_BACKREF",
        "a graphql-core input field's extensions must hold Strawberry's field definition "
        "under that key, with its python_name; see strawberry/schema/schema_converter.py "
        "from_input_field",
    ):
        pair = core_schema(schema()).get_type("Pair")
        assert isinstance(pair, GraphQLInputObjectType)
        assert python_name(pair.fields["twoWords"]) == "two_words"
        assert python_name(pair.fields["leftAlone"]) == "left_alone"


@pytest.mark.parametrize(("query", "variables"), [
    (LITERAL, None),
    (VARIABLE, {"i": {"nestedPair": {"twoWords": 1},
                      "listedPairs": [{"twoWords": 2, "leftAlone": 3}]}}),
], ids=["literal", "variable"])  # fmt: skip
def test_inputs_are_coerced_under_their_python_names(query, variables):
    with relying_on(
        "GraphQLInputField.out_name set on a built schema",
        "graphql-core's value_from_ast and coerce_input_value must key a coerced input by "
        "each field's out_name, read at coercion time, and fill defaults under it; and "
        "Strawberry must leave the input types' out_type unset, so the input is a plain "
        "dict. Otherwise the operations read their inputs under the wrong names",
    ):
        core = core_schema(schema())
        read_inputs_by_python_name(core)
        seen = direct(core)
        result = graphql_sync(core, query, variable_values=variables)
        assert result.errors is None, result.errors
        assert seen == [{"input": COERCED}]
        assert type(seen[0]["input"]) is dict


def test_a_field_is_resolved_by_the_resolver_set_on_the_built_schema():
    with relying_on(
        "GraphQLField.resolve replaced on a built schema",
        "graphql-core must call the resolve a field holds when executing, as "
        "resolve(parent, info, **arguments), and not one Strawberry cached elsewhere",
    ):
        core = core_schema(schema())
        read_inputs_by_python_name(core)
        seen = direct(core)
        result = graphql_sync(core, LITERAL)
        assert result.errors is None, result.errors
        assert result.data == {"echo": "ours"}
        assert len(seen) == 1


def test_documents_are_validated_by_graphql_core():
    core = core_schema(schema())
    rules = tuple(specified_rules)
    assert validate(core, parse("{ node { value } }"), rules) == []
    [error] = validate(core, parse("{ node { price } }"), rules)
    assert "price" in error.message


def test_strawberrys_own_validation_rules_have_nothing_to_check_in_the_service_schema():
    """`validate` is graphql-core's, without the two rules Strawberry adds: one for inputs
    typed `Maybe[T]`, one for `@oneOf` inputs. The service's schema has neither, so its
    documents are validated as Strawberry would (and the serving process never imports
    Strawberry)."""
    with relying_on(
        "strawberry.types.base.StrawberryMaybe",
        "Strawberry's MaybeNullValidationRule looks for it in each input's definition; if it "
        "moved, find what that rule checks now",
    ):
        core = core_schema(build_schema(load(), Odds(MemoryCache(), budget=1, deadline=1)))
        key = GraphQLCoreConverter.DEFINITION_BACKREF
        inputs = []
        for kind in core.type_map.values():
            if isinstance(kind, GraphQLInputObjectType) and not kind.name.startswith("__"):
                assert not kind.is_one_of, kind.name
                inputs += [field.extensions[key] for field in kind.fields.values()]
            if isinstance(kind, GraphQLObjectType) and not kind.name.startswith("__"):
                for field in kind.fields.values():
                    inputs += [argument.extensions[key] for argument in field.args.values()]
        assert len(inputs) > 1000
        assert not [i for i in inputs if isinstance(i.type, StrawberryMaybe)]


def test_a_field_strawberry_resolves_by_more_than_reading_is_not_detached():
    core = core_schema(schema())
    direct(core)  # echo is ours; node and child still call Strawberry's resolvers
    with pytest.raises(TypeError, match=r"Query\.node is resolved by Strawberry"):
        detach(core)


def test_a_detached_schema_answers_and_holds_nothing_of_strawberrys():
    with relying_on(
        "a built schema's extensions, _fields and _interfaces thunks and _strawberry_schema",
        "detach must find every field Strawberry resolves by reading an attribute (its "
        "definition under DEFINITION_BACKREF, base_resolver None), and graphql-core must "
        "keep a called fields thunk in _fields and read fields through its cached property; "
        "look for what else of Strawberry's a GraphQLSchema holds",
    ):
        core = core_schema(schema())
        read_inputs_by_python_name(core)
        direct(core)
        set_resolver(core, "Query", "node", lambda root, info: Node())
        set_resolver(core, "Node", "child", lambda root, info: Node(value=3))
        detach(core)
        result = graphql_sync(core, "{ node { value twoWords child { value } } }")
        assert result.errors is None, result.errors
        assert result.data == {"node": {"value": 1, "twoWords": 2, "child": {"value": 3}}}
        assert graphql_sync(core, LITERAL).data == {"echo": "ours"}
        held = _strawberry_objects_reachable_from(core)
        assert not held & {"Schema", "StrawberryObjectDefinition", "StrawberryField"}, held


def test_a_detached_schema_shares_its_type_wrappers_and_prints_as_before():
    core = core_schema(schema())
    direct(core)
    set_resolver(core, "Query", "node", lambda root, info: Node())
    set_resolver(core, "Node", "child", lambda root, info: Node())
    printed = print_schema(core)
    detach(core)
    assert print_schema(core) == printed
    types = [
        field.type
        for kind in core.type_map.values()
        if isinstance(kind, GraphQLObjectType | GraphQLInputObjectType)
        and not kind.name.startswith("__")
        for field in kind.fields.values()
    ]
    wrappers = [t for t in types if isinstance(t, GraphQLWrappingType)]
    assert len(wrappers) > len({str(t) for t in wrappers})  # some written more than once
    assert len({id(t) for t in wrappers}) == len({str(t) for t in wrappers})


def _strawberry_objects_reachable_from(root: object) -> set[str]:
    """The names of Strawberry's classes among the objects `root` reaches (not through
    classes or modules, which every object reaches, nor a module's globals)."""
    globals_ = {id(vars(module)) for module in list(sys.modules.values())}
    found, seen, todo = set(), set(), [root]
    while todo:
        item = todo.pop()
        if id(item) in seen or id(item) in globals_ or isinstance(item, type | ModuleType):
            continue
        seen.add(id(item))
        if type(item).__module__.startswith("strawberry"):
            found.add(type(item).__name__)
        todo.extend(gc.get_referents(item))
    return found


@strawberry.enum
class Shade(StrEnum):
    LIGHT = "light"
    DARK = "dark"


@strawberry.type
class ShadeQuery:
    @strawberry.field
    def flip(self, shade: Shade = Shade.LIGHT) -> Shade:
        return Shade.DARK


def test_a_detached_schema_is_loaded_again_from_its_portable_bytes():
    seen: list[Any] = []

    def flip(root: Any, info: Any, shade: Shade) -> Shade:
        seen.append(shade)
        return Shade.LIGHT if shade is Shade.DARK else Shade.DARK

    with relying_on(
        "graphql-core's pickling of a schema (__reduce__ by name and to_kwargs), Strawberry's "
        "CustomGraphQLEnumType and its wrapped_cls, and introspection types extended in place",
        "portable must pickle every type graphql-core can make again and turn the rest "
        "(Strawberry's subclasses, introspection fields with Strawberry's resolvers) into "
        "graphql-core's own",
    ):
        core = core_schema(strawberry.Schema(query=ShadeQuery))
        set_resolver(core, "ShadeQuery", "flip", flip)
        detach(core)
        set_resolver(core, "ShadeQuery", "flip", None)  # a closure, as the service's are
        again = loaded(portable(core))
    assert print_schema(again) == print_schema(core)
    assert type(again.get_type("Shade")) is GraphQLEnumType
    set_resolver(again, "ShadeQuery", "flip", flip)
    result = graphql_sync(again, "{ flip(shade: DARK) other: flip }")
    assert result.errors is None, result.errors
    assert result.data == {"flip": "LIGHT", "other": "DARK"}
    assert seen == [Shade.DARK, Shade.LIGHT]
    assert all(type(shade) is Shade for shade in seen)
