"""GraphQL input that once crashed, slipped past or bloated the service (issue 13): each is
now a client error, and the document cache is bounded in bytes."""

from typing import Any

from graphql import get_introspection_query
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.graphql import DOCUMENT_BYTES_PER_CHARACTER, GraphQLApp, Limits, served_schema
from service.graphql_limits import REPEATS
from service.rules.cost import BUDGET
from service.rules.registry import load
from service.runtime import Odds
from service.settings import Settings


def post(client: TestClient, query: str) -> tuple[int, Any]:
    answer = client.post("/graphql", json={"query": query})
    return answer.status_code, answer.json()


def test_an_unknown_fragment_is_a_validation_error_not_a_500(client):
    """The depth limit looked the missing fragment up and raised: 500, a traceback each time."""
    for query in ("{ ...Unknown }", "{ fourD8 { ...Missing } }", "{ ... on Nothing { x } }"):
        status, body = post(client, query)
        assert status == 200, body
        assert body["data"] is None
        assert body["errors"][0]["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"


def test_a_float_too_large_for_a_double_is_bad_input(client):
    """`1e400` is coerced to infinity, which JSON cannot carry: it became null (no BEF)."""
    status, body = post(
        client, "{ foresight { resolve(input: {score: 14, bef: 1e400}) { seed } } }"
    )
    assert status == 200
    [error] = body["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert error["extensions"]["errors"][0]["pointer"] == "/bef"
    assert "finite" in error["extensions"]["errors"][0]["detail"]


def test_comments_count_toward_the_query_size_limit(client):
    """57 KB of comments passed the token limit, which does not count them."""
    query = "# padding\n" * 2000 + "{ fourD8 { check(input: {ease: 20}) { success } } }"
    status, body = post(client, query)
    assert status == 200
    assert body["data"] is None
    assert "limited to 16384 bytes" in body["errors"][0]["message"]


def test_the_document_cache_stays_within_its_bytes():
    """Distinct queries, each within every limit, fill the cache to its budget and no more."""
    budget = 2 * 1024 * 1024
    limits = Limits(max_depth=12, max_aliases=16, max_tokens=2000, document_cache_bytes=budget)
    odds = Odds(MemoryCache(), budget=BUDGET, deadline=5)
    app = GraphQLApp(served_schema(load(), odds, apart=False), limits, odds)
    documents = app._prepared
    queries = []
    for i in range(400):
        fields = " ".join(f"a{j}: check(input: {{ease: {j + 1}}}) {{ success }}" for j in range(16))
        queries.append(f"{{ fourD8 {{ {fields} }} }} # {i}")
        documents(queries[-1])
    kept = documents.kept
    assert 0 < kept.size <= budget
    assert 0 < len(kept) < 400
    one = len(queries[-1]) * DOCUMENT_BYTES_PER_CHARACTER
    assert kept.size == len(kept) * one
    assert kept.size > budget - one  # full, not emptied
    assert kept.get(queries[-1]) is not None
    assert kept.get(queries[0]) is None


def test_the_query_size_limit_is_a_setting():
    settings = Settings(log_requests=False, graphql_max_query_bytes=256)
    with TestClient(build_app(settings, MemoryCache())) as client:
        status, body = post(
            client, "{ fourD8 { check(input: {ease: 20}) { success } } }" + " " * 300
        )
    assert status == 200
    assert "limited to 256 bytes" in body["errors"][0]["message"]


# The shape of a document (service/graphql_limits.py)


def messages(client: TestClient, query: str) -> list[str]:
    status, body = post(client, query)
    assert status == 200, body
    assert body["data"] is None
    assert {e["extensions"]["code"] for e in body["errors"]} == {"GRAPHQL_VALIDATION_FAILED"}
    return [e["message"] for e in body["errors"]]


def doubling(links: int) -> str:
    """A chain of fragments, each spreading the next twice: 2**links aliases at the end."""
    chain = " ".join(
        f"fragment F{i} on FourD8Query {{ ...F{i + 1} ...F{i + 1} }}" for i in range(links)
    )
    last = f"fragment F{links} on FourD8Query {{ a: check(input: {{ease: 3}}) {{ success }} }}"
    return f"{{ fourD8 {{ ...F0 }} }} {chain} {last}"


def test_aliases_count_as_often_as_fragments_spread_them(client):
    assert messages(client, doubling(5)) == ["32 aliases found. Allowed: 16"]
    assert post(client, doubling(4))[1]["data"]["fourD8"]["a"]["success"] is not None


def test_a_chain_of_doubling_fragments_is_measured_once_per_fragment(client):
    """Measured at every spread, 22 links took 24 s (Strawberry's limiters); 60 would take
    longer than the universe has. pytest-timeout fails this test if that comes back."""
    assert messages(client, doubling(60)) == ["At least 1000000 aliases found. Allowed: 16"]


def test_introspection_counts_toward_the_depth_limit(client):
    """A hundred nested `ofType` passed: Strawberry's depth limit skips introspection."""
    of_type = "ofType { " * 100 + "name" + " }" * 100
    query = f"{{ __schema {{ types {{ fields {{ type {{ {of_type} }} }} }} }} }}"
    assert messages(client, query) == ["'anonymous' exceeds maximum operation depth of 15"]


def test_the_standard_introspection_query_fits_the_default_depth(client):
    """graphql-core's introspection query, as GraphiQL, code generators and Schemathesis
    send it, is 14 deep."""
    status, body = post(client, get_introspection_query(descriptions=True))
    assert status == 200
    assert "errors" not in body
    assert body["data"]["__schema"]["queryType"]["name"] == "Query"


def test_a_field_repeated_past_the_limit_is_refused(client):
    """graphql-core compares every pair of same-named fields: 400 of them took 0.6 s."""
    query = "{ " + "fourD8 { __typename } " * (REPEATS + 1) + "}"
    assert messages(client, query) == [
        f"'fourD8' is selected {REPEATS + 1} times in one selection set: at most {REPEATS}."
    ]
    inline = "{ fourD8 { " + "... on FourD8Query { __typename } " * (REPEATS + 1) + "} }"
    assert messages(client, inline)[0].startswith("'__typename' is selected 33 times")
    unused = "{ __typename } fragment U on Query { " + "__typename " * (REPEATS + 1) + "}"
    assert any("is selected 33 times" in m for m in messages(client, unused))
    assert post(client, "{ " + "fourD8 { __typename } " * REPEATS + "}")[1]["data"]


def test_cyclic_fragments_are_refused_not_followed(client):
    query = (
        "{ fourD8 { ...A } } fragment A on FourD8Query { ...B } fragment B on FourD8Query { ...A }"
    )
    assert any("Cannot spread fragment 'A' within itself" in m for m in messages(client, query))


def test_introspection_can_be_switched_off():
    settings = Settings(log_requests=False, graphql_introspection=False)
    with TestClient(build_app(settings, MemoryCache())) as client:
        for query in ("{ __schema { queryType { name } } }", '{ __type(name: "Query") { name } }'):
            assert "introspection has been disabled" in messages(client, query)[0]
        # __typename is no introspection of the schema: clients use it to tell types apart.
        status, body = post(client, "{ __typename fourD8 { check(input: {ease: 20}) { ease } } }")
    assert status == 200
    assert body["data"] == {"__typename": "Query", "fourD8": {"check": {"ease": 20}}}


def test_depth_is_measured_through_fragments():
    app = build_app(Settings(log_requests=False, graphql_max_depth=3), MemoryCache())
    spread = (
        "{ fourD8 { ...F } } fragment F on FourD8Query { ... on FourD8Query { "
        "check(input: {ease: 20}) { reading { groups { aspects } } } } }"
    )
    with TestClient(app) as client:
        assert messages(client, spread) == ["'anonymous' exceeds maximum operation depth of 3"]
        assert post(client, spread.replace("groups { aspects }", "degree"))[1]["data"]
