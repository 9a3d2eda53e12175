"""Calling the service as a new user does, for the HTTP tests: a REST POST that must answer
200, and a GraphQL query that must answer without errors."""

from typing import Any

from starlette.testclient import TestClient

__all__ = ["graphql", "post"]


def post(client: TestClient, path: str, body: dict[str, Any], base: str = "/v1/foresight") -> Any:
    response = client.post(base + path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def graphql(client: TestClient, query: str, system: str = "foresight") -> Any:
    response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body
    return body["data"][system]
