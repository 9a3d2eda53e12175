"""Preparing a replica before it takes traffic (`PREPARE_ON_START`).

The GraphQL schema, the catalogue and the explorers' documents are each made by their first
request (`Lazy`), in seconds: a process that only ever answers REST never makes them. A
replica a load balancer has just added would make its first GraphQL caller wait for the
schema instead. Prepared, it makes them all in a background thread once it serves, and
`/readyz` answers 503 `{"status": "preparing"}` until they are made, so that no load
balancer sends it a request before.
"""

import logging
import threading
import time
from collections.abc import Iterable

from starlette.routing import BaseRoute, Route

from service.lazy import Lazy

__all__ = ["Preparation"]

LOG = logging.getLogger("adjudicator")


class Preparation:
    """Every `Lazy` endpoint of some routes, made in a background thread by `start`."""

    def __init__(self, routes: Iterable[BaseRoute]) -> None:
        self._made_on_first_use = [
            route.endpoint
            for route in routes
            if isinstance(route, Route) and isinstance(route.endpoint, Lazy)
        ]
        self._done = threading.Event()

    @property
    def ready(self) -> bool:
        return self._done.is_set()

    def start(self) -> None:
        # A daemon: a process told to stop does not wait for what it no longer needs.
        threading.Thread(target=self._prepare, name="prepare", daemon=True).start()

    def _prepare(self) -> None:
        started = time.perf_counter()
        for lazy in self._made_on_first_use:
            try:
                lazy.prepare()
            except Exception:
                # Its first request fails the same way and tells its caller; a replica kept
                # out of every pool for one document would serve nothing else either.
                LOG.exception("preparing failed: left to its first request")
        self._done.set()
        seconds = round(time.perf_counter() - started, 3)
        LOG.info("prepared", extra={"made": len(self._made_on_first_use), "seconds": seconds})
