"""The API explorers: Swagger UI at /docs on GET /openapi.json, and GraphiQL at /graphiql
with an example query for every operation (GET /graphiql/examples.json).

Offline first: every script and stylesheet the pages load is a packaged file under /static/
(the vendored ones fetched by `make assets`), and in a real browser (Debian's Chromium,
driven by Playwright) with every request off the loopback refused, both explorers render,
show the registry's examples and run one against the service. Every example query is run
against the service in-process and must answer without an error.
"""

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import graphql
import pytest
from starlette.testclient import TestClient

from service.rules.registry import camel, load
from service.static import STATIC
from tests.browser import Offline, offline

# Timed or loaded: run by itself, after the parallel suite (Makefile).
pytestmark = pytest.mark.alone

ROOT = Path(__file__).resolve().parent.parent
OPENAPI = ROOT / "openapi" / "openapi.json"
VENDOR = STATIC / "vendor"
EXPLORERS = ("docs", "graphiql")
REMOTE = re.compile(r"https?://", re.IGNORECASE)


class _Loads(HTMLParser):
    """The URLs a page makes the browser fetch as it loads: scripts, stylesheets, icons."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        url = found.get("src") if tag in ("script", "img") else None
        if tag == "link":
            url = found.get("href")
        if url is not None:
            self.urls.append(url)


def loads(page: Path) -> list[str]:
    parser = _Loads()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.urls


PAGES = sorted(STATIC.glob("*/index.html"))


@pytest.mark.parametrize("page", PAGES, ids=[p.parent.name for p in PAGES])
def test_a_page_loads_only_packaged_files(page: Path) -> None:
    """Each script, stylesheet and icon of a page is a file under /static/ that exists (or a
    data: URL, which fetches nothing): nothing from a CDN."""
    urls = loads(page)
    assert urls, f"{page} loads nothing"
    for url in urls:
        if url.startswith("data:"):
            continue
        path = urlsplit(urljoin(f"http://127.0.0.1/{page.parent.name}", url))
        assert path.netloc == "127.0.0.1", f"{page.parent.name} loads {url} from elsewhere"
        assert path.path.startswith("/static/"), f"{page.parent.name} loads {url}"
        assert (STATIC / path.path.removeprefix("/static/")).is_file(), f"{url} is missing"


@pytest.mark.parametrize("name", EXPLORERS)
def test_the_explorers_own_files_name_no_remote_url(name: str) -> None:
    for path in (STATIC / name).iterdir():
        assert not REMOTE.search(path.read_text(encoding="utf-8")), path


def test_every_vendored_package_has_its_licence() -> None:
    packages = [p for p in VENDOR.iterdir() if p.is_dir()]
    assert {p.name for p in packages} >= {"swagger-ui-dist", "graphiql", "react", "react-dom"}
    for package in packages:
        assert (package / "LICENSE").is_file(), package


@pytest.mark.parametrize("name", EXPLORERS)
def test_an_explorer_is_served(client: TestClient, name: str) -> None:
    answer = client.get(f"/{name}")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    for url in loads(STATIC / name / "index.html"):
        if url.startswith("/static/"):
            assert client.get(url).status_code == 200, url


def test_openapi_json_is_the_published_document(client: TestClient) -> None:
    answer = client.get("/openapi.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    document = answer.json()
    assert document == json.loads(OPENAPI.read_text(encoding="utf-8")), "run `make schema`"
    for path, item in document["paths"].items():
        if "post" in item:
            body = item["post"]["requestBody"]["content"]["application/json"]
            assert isinstance(body["example"], dict), path


@pytest.fixture(scope="module")
def examples(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/graphiql/examples.json")
    assert answer.status_code == 200
    systems: list[dict[str, Any]] = answer.json()["systems"]
    return systems


def test_every_operation_field_has_an_example(examples: list[dict[str, Any]]) -> None:
    """One example per operation and per odds, in the registry's order, each named as its
    REST path names it."""
    registry = load()
    assert [s["slug"] for s in examples] == [s.slug for s in registry.systems]
    for system, found in zip(registry.systems, examples, strict=True):
        names = []
        for op in system.operations:
            names += [op.name] + ([f"{op.name}/odds"] if op.odds is not None else [])
        assert [e["name"] for e in found["operations"]] == names


def test_every_example_query_answers_without_an_error(
    client: TestClient, examples: list[dict[str, Any]]
) -> None:
    """Each query, through the service's own parsing, limits and validation, answers its
    operation's result: the input literal and the selection are written as the schema
    spells them."""
    registry = load()
    for system, found in zip(registry.systems, examples, strict=True):
        for entry in found["operations"]:
            answer = client.post("/graphql", json={"query": entry["query"]}).json()
            where = f"{system.slug}/{entry['name']}"
            assert "errors" not in answer, (where, answer["errors"])
            field = camel(entry["name"].removesuffix("/odds"))
            field += "Odds" if entry["name"].endswith("/odds") else ""
            assert answer["data"][system.graphql_name][field], where


def test_an_example_is_one_named_query_of_its_field(examples: list[dict[str, Any]]) -> None:
    entry = next(e for e in examples[0]["operations"] if e["name"].endswith("/odds"))
    document = graphql.parse(entry["query"])
    [operation] = document.definitions
    assert isinstance(operation, graphql.OperationDefinitionNode)
    assert operation.name is not None
    assert operation.name.value.endswith("Odds")
    assert entry["query"].startswith("# Exact odds: ")


# In a real browser.


@pytest.fixture(scope="module")
def browser() -> Iterator[Offline]:
    # Swagger UI reads the 620 paths of an OpenAPI 3.1 document for seconds.
    with offline(timeout_ms=120_000, console=False) as found:
        yield found


def test_swagger_ui_shows_the_example_and_tries_it(browser: Offline) -> None:
    page = browser.page
    page.goto(browser.base + "/docs")
    page.wait_for_selector(".opblock-tag")
    assert page.locator(".opblock").count() > 0
    page.fill(".operation-filter-input", "four-d8")
    operation = page.locator("#operations-four-d8-post_v1_four_d8_check")
    operation.locator(".opblock-summary").click()
    shown = operation.locator(".body-param__example, .model-example .microlight").first
    four_d8 = load().system("four-d8")
    assert four_d8 is not None
    example = next(op for op in four_d8.operations if op.name == "check").example
    assert json.loads(shown.inner_text()) == example
    operation.locator(".try-out__btn").click()
    operation.locator(".execute").click()
    status = operation.locator(".live-responses-table .response .response-col_status").first
    assert status.inner_text().strip() == "200"
    assert browser.blocked == [], "requests left the loopback"
    assert browser.errors == []


def test_graphiql_loads_a_picked_example_and_runs_it(browser: Offline) -> None:
    page = browser.page
    page.goto(browser.base + "/graphiql#four-d8/check")
    page.wait_for_selector("#operation:enabled")
    editor = "document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.getValue()"
    examples = browser.api("/graphiql/examples.json")["systems"]
    by_name = {s["slug"]: {e["name"]: e["query"] for e in s["operations"]} for s in examples}
    assert page.evaluate(editor) == by_name["four-d8"]["check"]
    system = examples[-1]
    entry = system["operations"][0]
    page.select_option("#system", system["slug"])
    page.wait_for_function(f"({editor}) === {json.dumps(entry['query'])}")
    assert page.evaluate("location.hash") == f"#{system['slug']}/{entry['name']}"
    # GraphiQL reads the operation's name from its editor some 100 ms after a change, and
    # until then would run the new query under the old name: wait for it, as a person would.
    name = graphql.parse(entry["query"]).definitions[0].name.value  # type: ignore[attr-defined]
    stored = "JSON.parse(localStorage.getItem('graphiql:tabState')).tabs[0].operationName"
    page.wait_for_function(f"({stored}) === {json.dumps(name)}")
    page.click(".graphiql-execute-button")
    page.wait_for_function("document.querySelector('.result-window').innerText.includes('data')")
    result = page.locator(".result-window").inner_text()
    assert '"errors"' not in result
    assert f'"{camel(entry["name"])}"' in result
    assert browser.blocked == [], "requests left the loopback"
    assert browser.errors == []
