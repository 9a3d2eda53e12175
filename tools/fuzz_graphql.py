"""Fuzz GraphQL one operation at a time, against a running service.

Schemathesis fuzzes the schema from its root, where it sees only the system namespaces: the
first bad input nulls a namespace, and few nested operations ever ran with data. Here every
operation field of every namespace is its own target, in two kinds of case:

- generated: hypothesis-graphql draws queries of the operation alone from a schema whose
  root is the namespace (so from the operation's own input type, with every argument and
  selection it allows), wrapped back in the namespace;
- valid: requests drawn at the bounds of the operation's published JSON Schema
  (tests/contract/bounds.py), or the operation's example with one field drawn afresh, sent
  as the `input` variable with every field selected, so that the rules run with data.

Each answer must be a GraphQL answer (200 with `data` or `errors`, or a 4xx problem), never a
5xx; and every operation must have answered some cases with data. Usage:
`python tools/fuzz_graphql.py URL [--total N]` (N cases shared by the operations, at least
10 of each kind each), or `fuzz()` from tools/fuzz.py.
"""

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    NameNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    get_named_type,
    print_ast,
)
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis_graphql import queries

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.cache import MemoryCache  # noqa: E402
from service.catalogue import json_schema, odds_example  # noqa: E402
from service.graphql_internals import core_schema  # noqa: E402
from service.graphql_schema import build_schema  # noqa: E402
from service.rules.cost import BUDGET  # noqa: E402
from service.rules.model import Model  # noqa: E402
from service.rules.registry import Operation, camel, load  # noqa: E402
from service.runtime import Odds  # noqa: E402
from tests.contract.bounds import draw  # noqa: E402

#: Cases of each kind every operation gets however many operations share the total.
MIN_CASES = 10

#: Fields selected below an operation at most this deep (the depth limit is 15).
SELECTION_DEPTH = 8


@dataclass
class Target:
    namespace: str
    field: str
    op: Operation
    request_model: type[Model]


@dataclass
class Summary:
    cases: Counter[str] = field(default_factory=Counter)  # by target
    with_data: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.cases.values())


def targets(registry_schema: GraphQLSchema) -> Iterator[Target]:
    """Every operation field with an `input`, found from the schema and matched to the
    registry operation it serves."""
    registry = load()
    query = registry_schema.query_type
    assert query is not None
    for system in registry.systems:
        namespace = query.fields[system.graphql_name]
        owner = get_named_type(namespace.type)
        assert isinstance(owner, GraphQLObjectType)
        for op in system.operations:
            forms = [(camel(op.name), op.request_model)]
            if op.odds_request_model is not None:
                forms.append((camel(op.name) + "Odds", op.odds_request_model))
            for name, model in forms:
                if name in owner.fields and "input" in owner.fields[name].args:
                    yield Target(system.graphql_name, name, op, model)


def lifted(schema: GraphQLSchema, namespace: str) -> GraphQLSchema:
    """The schema with the namespace's type as its root, for hypothesis-graphql."""
    assert schema.query_type is not None
    owner = get_named_type(schema.query_type.fields[namespace].type)
    assert isinstance(owner, GraphQLObjectType)
    kept = [t for name, t in schema.type_map.items() if not name.startswith("__")]
    return GraphQLSchema(query=owner, types=kept)


def wrapped(document: DocumentNode, namespace: str) -> str:
    """A generated query of the lifted schema, its root selections moved under `namespace`."""
    [operation] = document.definitions
    assert isinstance(operation, OperationDefinitionNode)
    inner = FieldNode(name=NameNode(value=namespace), selection_set=operation.selection_set)
    outer = OperationDefinitionNode(
        operation=OperationType.QUERY,
        variable_definitions=operation.variable_definitions,
        selection_set=SelectionSetNode(selections=(inner,)),
    )
    return print_ast(DocumentNode(definitions=(outer,)))


def selection(kind: GraphQLOutputType, depth: int = SELECTION_DEPTH) -> str:
    """Every field of an output type without arguments, nested up to `depth`."""
    named = get_named_type(kind)
    if not isinstance(named, GraphQLObjectType):
        return ""
    parts = []
    for name, child in named.fields.items():
        if any(isinstance(a.type, GraphQLNonNull) for a in child.args.values()):
            continue
        inner = selection(child.type, depth - 1)
        if isinstance(get_named_type(child.type), GraphQLObjectType):
            if depth > 1 and inner:
                parts.append(f"{name} {inner}")
        else:
            parts.append(name)
    return "{ " + " ".join(parts) + " }" if parts else ""


def as_graphql(value: Any, kind: GraphQLInputType) -> Any:
    """A request as JSON (pydantic's names and values) as the GraphQL input variable."""
    if isinstance(kind, GraphQLNonNull):
        return as_graphql(value, kind.of_type)
    if value is None:
        return None
    if isinstance(kind, GraphQLList):
        return [as_graphql(v, kind.of_type) for v in value]
    if isinstance(kind, GraphQLInputObjectType):
        by_python = {f.out_name or n: (n, f) for n, f in kind.fields.items()}
        return {
            by_python[k][0]: as_graphql(v, by_python[k][1].type)
            for k, v in value.items()
            if k in by_python
        }
    if isinstance(kind, GraphQLEnumType):
        for name, member in kind.values.items():
            if getattr(member.value, "value", member.value) == value:
                return name
        raise ValueError(f"{value!r} is no value of {kind.name}")
    return value


class Client:
    def __init__(self, url: str, summary: Summary) -> None:
        self.url = url
        self.summary = summary

    def send(self, target: Target, query: str, variables: dict[str, Any] | None) -> None:
        key = f"{target.namespace}.{target.field}"
        self.summary.cases[key] += 1
        body = json.dumps({"query": query, "variables": variables}).encode()
        request = urllib.request.Request(
            self.url, body, {"content-type": "application/json"}, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        problem = self.problem(target, status, text)
        if problem is not None:
            self.summary.failures.append(
                f"{key}: {problem}\n  query: {query[:2000]}\n  variables: "
                f"{json.dumps(variables)[:2000]}\n  answer {status}: {text[:1000]!r}"
            )

    def problem(self, target: Target, status: int, text: bytes) -> str | None:
        if status >= 500 and status != 503:  # 503: odds past their deadline, by design
            return "a server error"
        try:
            answer = json.loads(text)
        except ValueError:
            return "not JSON"
        if status == 200:
            if not isinstance(answer, dict) or not ({"data", "errors"} & answer.keys()):
                return "no data and no errors"
            for error in answer.get("errors") or []:
                if error.get("extensions", {}).get("code") == "INTERNAL_SERVER_ERROR":
                    return "an internal error"
            data = (answer.get("data") or {}).get(target.namespace) or {}
            if data.get(target.field) is not None and not answer.get("errors"):
                self.summary.with_data[f"{target.namespace}.{target.field}"] += 1
        return None


def fuzz(url: str, total: int, seed: int = 4) -> Summary:
    """About `total` cases at `url`, shared evenly: as many generated as valid cases for
    every operation, at least `MIN_CASES` of each."""
    summary = Summary()
    client = Client(url, summary)
    schema = core_schema(build_schema(load(), Odds(MemoryCache(), budget=BUDGET, deadline=1)))
    found = list(targets(schema))
    cases = max(MIN_CASES, -(-total // (2 * len(found))))
    for target in found:
        run_generated(client, schema, target, cases, seed)
        run_valid(client, schema, target, cases, seed)
    return summary


def run_generated(
    client: Client, schema: GraphQLSchema, target: Target, cases: int, seed: int
) -> None:
    strategy = queries(
        lifted(schema, target.namespace), fields=[target.field], print_ast=lambda doc: doc
    )

    @settings(max_examples=cases, database=None, deadline=None, derandomize=True,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy)
    def case(document: DocumentNode) -> None:
        client.send(target, wrapped(document, target.namespace), None)

    case()


def run_valid(client: Client, schema: GraphQLSchema, target: Target, cases: int, seed: int) -> None:
    assert schema.query_type is not None
    owner = get_named_type(schema.query_type.fields[target.namespace].type)
    assert isinstance(owner, GraphQLObjectType)
    operation = owner.fields[target.field]
    kind = operation.args["input"].type
    input_type = get_named_type(kind)
    picked = selection(operation.type)
    query = (
        f"query($input: {input_type.name}!) {{ {target.namespace} {{ "
        f"{target.field}(input: $input) {picked} }} }}"
    )
    published = json_schema(target.request_model, "validation")
    odds = odds_example(target.op)
    example = (
        odds
        if odds is not None and target.request_model is target.op.odds_request_model
        else dict(target.op.example)
    )
    rng = random.Random(seed)
    for n in range(cases):
        if n == 0:
            data = example
        elif n % 2:
            data = draw(published, seed * 100_000 + n)
        else:
            data = mutated(example, published, rng)
        client.send(target, query, {"input": as_graphql(data, kind)})


def mutated(example: dict[str, Any], published: dict[str, Any], rng: random.Random) -> Any:
    """The operation's example with one field drawn afresh from its schema: valid more often
    than a whole drawn request, where fields must agree with each other."""
    properties = published.get("properties", {})
    if not properties:
        return example
    name = rng.choice(sorted(properties))
    node = {**properties[name], "$defs": published.get("$defs", {})}
    return {**example, name: draw(node, rng.randrange(1 << 30))}


def report(summary: Summary, started: float) -> int:
    """Print the cases by operation and any failure; the exit status."""
    print(f"GraphQL, per operation: {summary.total} cases in {time.monotonic() - started:.0f} s")
    silent = []
    for key in sorted(summary.cases):
        print(f"  {key}: {summary.cases[key]} cases, {summary.with_data[key]} with data")
        if not summary.with_data[key]:
            silent.append(key)
    for failure in summary.failures[:20]:
        print("FAILURE", failure)
    if summary.failures:
        print(f"{len(summary.failures)} failures")
    if silent:
        print(f"never answered with data: {', '.join(silent)}")
    return 1 if summary.failures or silent else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--total", type=int, default=5000)
    args = parser.parse_args()
    started = time.monotonic()
    return report(fuzz(args.url, args.total), started)


if __name__ == "__main__":
    sys.exit(main())
