"""A real browser for the tests of the pages: Debian's Chromium driven by Playwright against
a served instance, every request off the loopback refused and recorded, so a page that
passes is shown to need no internet. Under CI a missing browser fails the run; elsewhere the
test is skipped."""

import contextlib
import json
import os
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.served import served

__all__ = ["CHROMIUM", "Offline", "offline"]

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))


@dataclass
class Offline:
    """A page and what it did: page and console errors, and requests that tried to leave."""

    page: Any
    base: str
    errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def clean(self) -> None:
        assert self.blocked == [], "requests left the loopback"
        assert self.errors == [], "the page logged errors"

    def api(self, path: str, body: dict[str, Any] | None = None) -> Any:
        """The service's own answer, outside the browser."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())


def _missing(message: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@contextlib.contextmanager
def offline(
    env: Mapping[str, str] | None = None, timeout_ms: int = 60_000, console: bool = True
) -> Iterator[Offline]:
    """A served instance (with `env`) and an offline browser page on it, 1280 x 900; its
    errors are the page's, and the console's when `console` (third-party pages may log some)."""
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[dev]')")
    with served(env=env) as (base, _), sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(timeout_ms)
            found = Offline(page=None, base=base)

            def route(request: Any) -> None:
                url = request.request.url
                if urlsplit(url).hostname == "127.0.0.1" or url.startswith("data:"):
                    request.continue_()
                else:
                    found.blocked.append(url)
                    request.abort()

            context.route("**/*", route)
            found.page = context.new_page()
            if console:
                found.page.on(
                    "console", lambda m: m.type == "error" and found.errors.append(m.text)
                )
            found.page.on("pageerror", lambda error: found.errors.append(str(error)))
            yield found
        finally:
            chromium.close()
