"""An ASGI app made by its first request, for the parts of the service whose cost grows with
every rule and which a process need not pay for before it answers: the GraphQL schema and
the catalogue documents."""

import gc
import threading
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["Lazy", "freeze_builds"]

#: Whether what a build makes is frozen (`_keep`): startup's freeze turns it on. A flag, not
#: `gc.get_freeze_count()`, which walks every frozen object: 16 ms a call at start and more as
#: builds are frozen, 9 of the 15 s a prepared start took for its 186 builds.
_freezing = False


def freeze_builds(enabled: bool) -> None:
    """Freeze what each build makes from now on (or not), as startup's heap was frozen."""
    global _freezing
    _freezing = enabled


class Lazy:
    """An ASGI app built once, by `prepare` or by the first request: in a worker thread, so
    the event loop answers other requests meanwhile, and under a lock, so requests that
    arrive during the build wait for it rather than build again."""

    def __init__(self, build: Callable[[], ASGIApp]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._app: ASGIApp | None = None

    def prepare(self) -> ASGIApp:
        with self._lock:
            if self._app is None:
                self._app = self._build()
                _keep()
            return self._app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = self._app
        if app is None:
            app = await run_in_threadpool(self.prepare)
        await app(scope, receive, send)


def _keep() -> None:
    """Freeze what a build made, as create_app froze startup's heap (`GC_FREEZE`): it lives
    as long as the process, and full collections that walk it set the p99 (the models the
    catalogue builds are most of the process's objects). What the build let go is collected
    first: frozen, it would be kept for good."""
    if _freezing:
        gc.collect()
        gc.freeze()
