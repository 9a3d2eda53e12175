"""The playground in a real browser: Debian's Chromium driven by Playwright against a served
service, every request off the loopback refused, so the page is shown to need no internet.

It rolls an operation of each system and checks what the page shows against the API's own
answers (the result, the dice, an odds chart, the rolled bar); builds the form of every
operation and checks that the form, filled with the operation's example, gives the example
back; and fails on any console or page error. It writes a screenshot, to
$PLAYGROUND_SCREENSHOT when set (`make screenshot` writes docs/playground.png), else to a
temporary directory.
"""

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.rules.registry import load
from tests.browser import Offline, offline

# Timed or loaded: run by itself, after the parallel suite (Makefile).
pytestmark = pytest.mark.alone

#: Every operation the registry holds: the page must offer each.
OPERATIONS = sum(len(system.operations) for system in load().systems)
#: The screenshot for the README: a 4SIGHT combat attack, its dice and its odds.
SHOT = ("four-sight", "combat-attack", 11)


@pytest.fixture(scope="module")
def browser() -> Iterator[Offline]:
    # A roll's odds past the default deadline (1 s) would be a 503 on a busy machine.
    with offline(env={"ODDS_DEADLINE_SECONDS": "60"}) as found:
        page, base = found.page, found.base
        page.goto(f"{base}/playground")
        page.wait_for_selector("body[data-state=ready]")
        # The router is in the way of anything else the page might fetch.
        outside = "https://example.com/"
        asked = page.evaluate("(url) => fetch(url).then(() => 'reached', () => 'refused')", outside)
        assert (asked, found.blocked) == ("refused", [outside])
        found.blocked.clear()
        found.errors.clear()
        yield found


def _roll(browser: Offline, slug: str, name: str, seed: int) -> dict[str, Any]:
    """Choose the operation from the page's menus, roll it with `seed`; the request sent."""
    page = browser.page
    page.select_option("#system", slug)
    page.select_option("#operation", name)
    page.fill("#seed", str(seed))
    page.click("#roll")
    page.wait_for_selector("#output[data-state=done]")
    body: dict[str, Any] = page.evaluate("window.playground.request()")
    return body


@pytest.mark.parametrize(
    ("slug", "name", "seed"),
    [("four-d8", "check", 5), ("four-sight", "combat-attack", 11), ("foresight", "resolve", 3)],
)
def test_rolls_and_charts_an_operation_of_each_system(
    browser: Offline, slug: str, name: str, seed: int
) -> None:
    body = _roll(browser, slug, name, seed)
    assert body["dice"] == {"seed": seed}
    # The service's own answers to the same request, to hold the page to.
    result = browser.api(f"/v1/{slug}/{name}", {**body, "outcome_odds": True})
    page = browser.page

    faces = page.locator("#result .rolls li .face").all_inner_texts()
    assert faces == [str(roll["value"]) for roll in result["rolls"]]
    assert page.locator("#result .seed").inner_text().startswith(f"Seed {seed}.")
    assert page.locator("#result .headline dd").count() > 0

    charts = page.locator("#odds-view figure.chart")
    assert charts.count() > 0
    assert charts.first.locator("svg g.bar rect").count() > 0
    marked = result["outcome_odds"]
    distributions = [m for m in marked if m["at_least"] is not None]
    assert distributions, "the result reads no distribution as rolled"
    for mark in distributions:
        chart = page.locator(f'figure.chart[data-pointer="{mark["distribution"]}"]')
        rolled = chart.locator("g.bar.rolled")
        assert rolled.count() == 1
        assert rolled.get_attribute("data-outcome") == mark["outcome"]
        assert "shot" in chart.locator(".shot").inner_text()
    browser.clean()


def test_the_form_of_every_operation_gives_back_its_example(browser: Offline) -> None:
    """Each operation chosen in turn: its form, filled with the example, serialises to it."""
    made = browser.page.evaluate(
        """() => window.playground.systems.flatMap((system) =>
            system.operations.map((op) => {
              window.playground.select(system.slug, op.name);
              const shown = document.querySelectorAll("#fields .field").length;
              return [system.slug, op.name, window.playground.request(), shown];
            }))"""
    )
    catalogue = browser.api("/v1/systems")["systems"]
    examples = {(s["slug"], op["name"]): op for s in catalogue for op in s["operations"]}
    assert len(made) == len(examples) == OPERATIONS
    wrong = [(slug, name) for slug, name, got, _ in made if got != examples[slug, name]["example"]]
    assert wrong == []
    empty = [
        (slug, name)
        for slug, name, _, shown in made
        if shown == 0 and set(examples[slug, name]["input_schema"]["properties"]) - {"dice"}
    ]
    assert empty == []
    browser.clean()


def test_every_operation_runs_and_shows_its_answer(browser: Offline) -> None:
    """Each operation run with its example: the result, its dice and its odds shown."""
    shown = browser.page.evaluate(
        """async () => {
          const shown = [];
          const has = (selector) => document.querySelector(selector) !== null;
          for (const system of window.playground.systems) {
            for (const op of system.operations) {
              window.playground.select(system.slug, op.name);
              await window.playground.roll();
              shown.push([system.slug, op.name, {
                result: has("#output[data-state=done] #result pre"),
                dice: !op.random || has("#result .rolled .rolls"),
                odds: !op.odds_path || has("#odds-view .odds"),
              }]);
            }
          }
          return shown;
        }"""
    )
    assert len(shown) == OPERATIONS
    missing = [(slug, name, k) for slug, name, found in shown for k, ok in found.items() if not ok]
    assert missing == []
    browser.clean()


def test_json_edits_come_back_to_the_form(browser: Offline) -> None:
    page = browser.page
    page.select_option("#system", "four-d8")
    page.select_option("#operation", "check")
    page.check("#raw")
    request = json.loads(page.input_value("#json"))
    assert request == {"ease": 20, "dice": {"values": [5, 5, 5, 3]}}
    page.fill("#json", json.dumps({**request, "ease": 31, "dice": {"seed": 9}}))
    page.uncheck("#raw")
    assert page.get_by_label("Ease", exact=True).input_value() == "31"
    assert page.input_value("#seed") == "9"
    browser.clean()


def test_field_errors_show_beside_their_fields(browser: Offline) -> None:
    page = browser.page
    page.select_option("#system", "four-d8")
    page.select_option("#operation", "check")
    page.get_by_label("Ease", exact=True).fill("99")
    page.click("#roll")
    page.wait_for_selector("#output[data-state=error]")
    row = page.locator('.field.invalid[data-key="ease"]')
    assert "less than or equal to 32" in row.locator(".error").inner_text()
    assert "/ease" in page.locator("#problem").inner_text()
    # Chromium logs the 422 itself; it is the answer this test asked for.
    assert all("422" in error for error in browser.errors)
    browser.errors.clear()
    browser.clean()


def test_a_deep_link_rolls_and_the_screenshot_is_written(browser: Offline, tmp_path: Path) -> None:
    slug, name, seed = SHOT
    page = browser.page
    page.goto(f"{browser.base}/playground#{slug}/{name}")
    page.wait_for_selector("body[data-state=ready]")
    assert page.input_value("#operation") == name
    _roll(browser, slug, name, seed)
    page.wait_for_selector("figure.chart g.bar.rolled")
    path = Path(os.environ.get("PLAYGROUND_SCREENSHOT") or tmp_path / "playground.png")
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    browser.clean()


def test_editing_an_optional_field_sends_it(browser: Offline) -> None:
    page = browser.page
    page.select_option("#system", "four-d8")
    page.select_option("#operation", "check")
    assert "energy" not in page.evaluate("window.playground.request()")
    page.get_by_label("Energy", exact=True).fill("12")
    assert page.evaluate("window.playground.request()")["energy"] == 12
    page.get_by_label("Energy is null", exact=True).check()
    assert page.evaluate("window.playground.request()")["energy"] is None
    page.get_by_label("send energy", exact=True).uncheck()
    assert "energy" not in page.evaluate("window.playground.request()")
    # An object's properties are sent only as they are edited: the rest keep their defaults.
    page.get_by_label("send options", exact=True).check()
    assert page.evaluate("window.playground.request()")["options"] == {}
    page.get_by_label("Combo precedence", exact=True).select_option("best_score")
    assert page.evaluate("window.playground.request()")["options"] == {
        "combo_precedence": "best_score"
    }
    page.locator('[data-key="ability_bonuses"] > summary').click()
    page.locator('[data-key="ability_bonuses"] button.add').click()
    bonuses = page.evaluate("window.playground.request()")["ability_bonuses"]
    assert bonuses == [{"ability": "THIEVERY", "bonus": 0}]
    browser.clean()


#: A schema with what no operation's request has yet: a discriminated union, a union of
#: several types, a tuple and a map. The form must carry each through unchanged.
FUTURE_SCHEMA = {
    "type": "object",
    "required": ["shape"],
    "properties": {
        "shape": {
            "oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
            "discriminator": {"propertyName": "kind"},
        },
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2, "default": []},
        "size": {"anyOf": [{"type": "number"}, {"type": "string"}, {"type": "null"}]},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]},
        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
    },
    "$defs": {
        "Circle": {
            "type": "object",
            "properties": {"kind": {"const": "circle"}, "r": {"type": "integer"}},
            "required": ["kind", "r"],
            "additionalProperties": False,
        },
        "Square": {
            "type": "object",
            "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
            "required": ["kind", "side"],
            "additionalProperties": False,
        },
    },
}


def test_the_form_carries_unions_tuples_and_maps(browser: Offline) -> None:
    values = [
        {"shape": {"kind": "circle", "r": 2}},
        {"shape": {"kind": "square", "side": 1.5}, "tags": ["a", "b"], "size": "big"},
        {"shape": {"kind": "circle", "r": 1}, "size": 2.5, "pair": [1, "x"], "counts": {"a": 1}},
        {"shape": {"kind": "square", "side": 3}, "size": None},
    ]
    got = browser.page.evaluate(
        """async ([schema, values]) => {
          const { buildForm } = await import("/static/playground/form.js");
          const form = buildForm(schema);
          const carried = values.map((value) => { form.set(value); return form.get(); });
          form.set(values[0]);
          const variant = form.element.querySelector('select[aria-label="Shape: variant"]');
          variant.value = "1";
          variant.dispatchEvent(new Event("change", { bubbles: true }));
          return [carried, form.get()];
        }""",
        [FUTURE_SCHEMA, values],
    )
    assert got == [values, {"shape": {"kind": "square", "side": 0}}]
    browser.clean()
