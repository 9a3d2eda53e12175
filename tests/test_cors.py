"""Every route passes the same cross-cutting layers, the fast dispatch of the operations
included: CORS for the configured origins (preflights answered), request ids, metrics and
errors shaped as problem+json, down to a fault of ours (500).

The app is the real one (build_app), with 4D8 alone and one operation added that always
fails, and a cache whose health check fails; TestClient hands 500s back instead of raising.
"""

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.cors import Cors, Policy
from service.rules.registry import Registry, load
from service.settings import Settings

ORIGIN = "https://app.example"
OTHER = "http://localhost:5173"
FOREIGN = "https://elsewhere.example"
CHECK = "/v1/four-d8/check"
BROKEN = "/v1/four-d8/broken"
QUERY = {"query": "{ fourD8 { check(input: {ease: 20, dice: {seed: 1}}) { degree } } }"}
PROBLEM = "application/problem+json"
PREFLIGHT = {"access-control-request-method": "POST",
             "access-control-request-headers": "content-type,x-request-id"}  # fmt: skip


class FailingHealthCache(MemoryCache):
    async def ping(self) -> bool:
        raise RuntimeError("secret internals")


def four_d8_with_a_fault() -> Registry:
    """4D8, and `broken`: the check with a rule that fails as no rule should."""

    def broken(request: Any, dice: Any) -> Any:
        raise RuntimeError("secret internals")

    system = load().system("four-d8")
    assert system is not None
    [check] = [op for op in system.operations if op.name == "check"]
    fault = replace(check, name="broken", rule=broken, memo=None)
    return Registry(systems=(replace(system, operations=(*system.operations, fault)),))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = Settings(log_requests=False, cors_allowed_origins=f"{ORIGIN},{OTHER}")
    app = build_app(settings, FailingHealthCache(), four_d8_with_a_fault())
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def cors_headers(response: Any) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.startswith("access-control-")}


def allows(response: Any, origin: str) -> None:
    """The response is readable by a script on `origin`, and says that it varies by origin."""
    assert response.headers["access-control-allow-origin"] == origin
    assert "Origin" in response.headers.get_list("vary")
    assert response.headers["x-request-id"]


def counted(client: TestClient, route: str, method: str, status: int) -> int:
    text = client.get("/metrics").text
    labels = f'route="{route}",method="{method}",status="{status}"'
    found = re.search(rf"^adjudicator_requests_total\{{{re.escape(labels)}\}} (\d+)$", text, re.M)
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("path", [CHECK, "/graphql"])
@pytest.mark.parametrize("origin", [ORIGIN, OTHER])
def test_a_preflight_from_an_allowed_origin_is_answered(client, path, origin):
    response = client.options(path, headers={"origin": origin, **PREFLIGHT})
    assert response.status_code == 200
    allows(response, origin)
    assert {"GET", "POST"} <= set(response.headers["access-control-allow-methods"].split(", "))
    allowed = response.headers["access-control-allow-headers"].split(", ")
    assert {"content-type", "x-request-id"} <= set(allowed)
    assert response.headers["access-control-max-age"] == "600"
    assert response.content == b""


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [("POST", CHECK, {"ease": 20, "dice": {"seed": 1}}), ("POST", "/graphql", QUERY),
     ("POST", f"{CHECK}/odds", {"ease": 20}), ("GET", "/v1/systems/four-d8", None),
     ("GET", "/healthz", None)],
    ids=["operation", "graphql", "odds", "catalogue", "ops"],
)  # fmt: skip
def test_an_allowed_origin_may_read_every_answer(client, method, path, body):
    response = client.request(method, path, json=body, headers={"origin": ORIGIN})
    assert response.status_code == 200, response.text
    allows(response, ORIGIN)
    exposed = response.headers["access-control-expose-headers"].split(", ")
    assert "x-request-id" in exposed


@pytest.mark.parametrize("path", [CHECK, "/graphql"])
def test_a_foreign_origin_gets_no_cors_header(client, path):
    """Its browser withholds the answer: the preflight meets the route's 405, and an answer
    names no origin."""
    preflight = client.options(path, headers={"origin": FOREIGN, **PREFLIGHT})
    assert preflight.status_code == 405
    assert preflight.headers["content-type"] == PROBLEM
    assert cors_headers(preflight) == {}
    body = QUERY if path == "/graphql" else {"ease": 20}
    answer = client.post(path, json=body, headers={"origin": FOREIGN})
    assert answer.status_code == 200
    assert cors_headers(answer) == {}
    assert "Origin" in answer.headers.get_list("vary")


def test_a_request_without_an_origin_gets_no_cors_header(client):
    """A server-side caller sends no Origin; a shared cache still learns the answer varies."""
    response = client.post(CHECK, json={"ease": 20, "dice": {"seed": 1}})
    assert response.status_code == 200
    assert cors_headers(response) == {}
    assert response.headers.get_list("vary") == ["Origin"]


def test_preflights_and_answers_carry_request_ids_and_are_counted(client):
    seen = [(CHECK, "OPTIONS"), (CHECK, "POST"), ("/graphql", "OPTIONS")]
    before = [counted(client, route, method, 200) for route, method in seen]
    preflight = client.options(
        CHECK, headers={**PREFLIGHT, "origin": ORIGIN, "x-request-id": "pre-1"}
    )
    answer = client.post(
        CHECK, json={"ease": 20}, headers={"origin": ORIGIN, "x-request-id": "post-1"}
    )
    graphql = client.options("/graphql", headers={"origin": ORIGIN, **PREFLIGHT})
    assert preflight.headers["x-request-id"] == "pre-1"
    assert answer.headers["x-request-id"] == "post-1"
    assert re.fullmatch(r"[0-9a-f]{32}", graphql.headers["x-request-id"])
    after = [counted(client, route, method, 200) for route, method in seen]
    assert after == [count + 1 for count in before]


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [("POST", CHECK, {"ease": 99}, 422), ("POST", "/v1/four-d8/nothing", {}, 404),
     ("GET", CHECK, None, 405), ("POST", "/graphql", {"variables": {}}, 400)],
    ids=["invalid", "unknown", "method", "graphql"],
)  # fmt: skip
def test_errors_are_readable_across_origins(client, method, path, body, status):
    response = client.request(method, path, json=body, headers={"origin": ORIGIN})
    assert response.status_code == status
    assert response.headers["content-type"] == PROBLEM
    allows(response, ORIGIN)


def test_a_wrong_media_type_is_readable_across_origins(client):
    headers = {"origin": ORIGIN, "content-type": "application/x-www-form-urlencoded"}
    response = client.post(CHECK, content=b"ease=20", headers=headers)
    assert response.status_code == 415
    allows(response, ORIGIN)


def test_a_body_over_the_limit_is_readable_across_origins(client):
    """Refused before the layers inside the body limit, the 413 gets CORS all the same."""
    headers = {"origin": ORIGIN, "content-type": "application/json"}
    response = client.post(CHECK, content=b" " * (64 * 1024 + 1), headers=headers)
    assert response.status_code == 413
    assert response.headers["content-type"] == PROBLEM
    allows(response, ORIGIN)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [("POST", BROKEN, {"ease": 20}), ("GET", "/readyz", None)],
    ids=["operation", "starlette-route"],
)
def test_a_fault_of_ours_is_a_problem_with_cors_a_request_id_and_a_count(
    client, method, path, body
):
    """An operation found by the fast dispatch and a Starlette route alike: a problem+json
    500 with no internals, readable across origins, with its request id, and counted."""
    before = counted(client, path, method, 500)
    headers = {"origin": ORIGIN, "x-request-id": "fault-1"}
    response = client.request(method, path, json=body, headers=headers)
    assert response.status_code == 500
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["status"] == 500
    assert "secret" not in response.text
    assert response.headers["x-request-id"] == "fault-1"
    allows(response, ORIGIN)
    assert counted(client, path, method, 500) == before + 1


def test_without_configured_origins_there_is_no_cors():
    """The default: no CORS header and no Vary, and a preflight is just a wrong method."""
    assert Policy.from_settings(Settings()) is None
    app = build_app(Settings(log_requests=False), MemoryCache(), four_d8_with_a_fault())
    with TestClient(app) as client:
        preflight = client.options(CHECK, headers={"origin": ORIGIN, **PREFLIGHT})
        answer = client.post(CHECK, json={"ease": 20}, headers={"origin": ORIGIN})
    assert preflight.status_code == 405
    assert answer.status_code == 200
    for response in (preflight, answer):
        assert cors_headers(response) == {}
        assert "vary" not in response.headers


async def hello(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


def test_any_origin():
    """With *, every origin reads the same answer, so it does not vary by origin."""
    policy = Policy.from_settings(Settings(cors_allowed_origins="*"))
    assert policy is not None
    client = TestClient(Cors(hello, policy))
    preflight = client.options("/", headers={"origin": FOREIGN, **PREFLIGHT})
    answer = client.get("/", headers={"origin": FOREIGN})
    for response in (preflight, answer):
        assert response.headers["access-control-allow-origin"] == "*"
        assert "vary" not in response.headers
    assert answer.text == "hello"


def test_content_type_is_always_allowed():
    """Every body the service takes is JSON, which a browser sends only once a preflight
    allows Content-Type."""
    policy = Policy.from_settings(
        Settings(cors_allowed_origins=ORIGIN, cors_allowed_headers="Authorization")
    )
    assert policy is not None
    assert policy.headers == ("content-type", "authorization")


def test_origins_and_headers_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", f" {ORIGIN}, HTTP://LOCALHOST:5173 ,")
    monkeypatch.setenv("CORS_EXPOSED_HEADERS", "X-Request-Id")
    monkeypatch.setenv("CORS_MAX_AGE_SECONDS", "60")
    settings = Settings()
    assert settings.cors_allowed_origins == (ORIGIN, OTHER)
    assert settings.cors_exposed_headers == ("x-request-id",)
    assert settings.cors_max_age_seconds == 60


@pytest.mark.parametrize(
    "origin", [f"{ORIGIN}/", "app.example", f"{ORIGIN}/path", "ftp://app.example", "*.example"]
)
def test_a_misconfigured_origin_stops_the_service_from_starting(origin):
    """A browser's Origin never has a path or a trailing slash: such an entry would match no
    one, silently."""
    with pytest.raises(ValueError, match="is not an origin"):
        Settings(cors_allowed_origins=origin)
