"""GraphQL input that once crashed, slipped past or bloated the service (issue 13): each is
now a client error, and the document cache is bounded in bytes."""

from typing import Any

from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.graphql import DOCUMENT_BYTES_PER_CHARACTER, GraphQLApp, Limits, build_schema
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
    app = GraphQLApp(build_schema(load(), odds), limits, odds)
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
