"""The composition root: `build_app(settings, cache)` wires the registry to REST, GraphQL,
the probability cache and observability. All mutable state (the cache, its counters, the
metrics) lives in the objects made here, one set per app.

Every request, whichever route answers it, passes the same layers, outermost first:
`Observability` (request id, body limit, metrics, access log), `Cors` (when origins are
configured; it answers preflights), then `Dispatch`, which finds the service's fixed routes
at once and hands everything else to Starlette. Either answers an unexpected exception with
a problem+json 500 and raises it on for the server to log.
"""

import ctypes
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp

from service.cache import ProbabilityCache, make_cache
from service.calls import call_routes
from service.catalogue import Catalogue
from service.cors import Cors, Policy
from service.drain import Drain
from service.explorers import explorer_routes
from service.lazy import Lazy, freeze_builds
from service.observability import AccessLog, Metrics, Observability, configure_logging, logs_info
from service.openapi import published
from service.prepare import Preparation
from service.rest import Dispatch, endpoints, fault_handler, problem_handler, routes, too_large
from service.rules import RULES_VERSION
from service.rules.four_c.core.ranks import CustomMasterTable, configure_default
from service.rules.future_imperfect.core.deck import Deck
from service.rules.future_imperfect.core.deck import configure as configure_deck
from service.rules.registry import Registry, load
from service.runtime import Odds
from service.settings import Settings
from service.static import page_routes

__all__ = ["build_app", "create_app", "tune_allocator", "tune_garbage_collector"]


def _ops_routes(
    cache: ProbabilityCache, metrics: Metrics, drain: Drain, preparation: Preparation | None
) -> list[BaseRoute]:
    async def healthz(request: Request) -> Response:
        return Response(orjson.dumps({"status": "ok"}), media_type="application/json")

    async def readyz(request: Request) -> Response:
        """Ready whenever the process serves: Redis is optional, so its state is reported,
        never a reason to refuse traffic. `full`: Redis refused the last write for memory;
        `error` and `detail`, when it is not reachable: why (`service.cache.Problem`)."""
        if drain.draining:  # SIGTERM came: out of the balancers' pools (service/drain.py)
            return _not_ready("draining")
        if preparation is not None and not preparation.ready:  # PREPARE_ON_START
            return _not_ready("preparing")
        reachable = await cache.ping()
        full = cache.stats.full
        state: dict[str, object] = {"backend": cache.backend, "reachable": reachable, "full": full}
        if not reachable and cache.problem is not None:
            state |= {"error": cache.problem.kind, "detail": cache.problem.detail}
        body = {"status": "ready", "rules_version": RULES_VERSION, "cache": state}
        return Response(orjson.dumps(body), media_type="application/json")

    async def prometheus(request: Request) -> Response:
        return PlainTextResponse(metrics.render(), media_type="text/plain; version=0.0.4")

    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", prometheus, methods=["GET"]),
    ]


def _not_ready(status: str) -> Response:
    body = {"status": status, "rules_version": RULES_VERSION}
    return Response(orjson.dumps(body), status_code=503, media_type="application/json")


def build_app(
    settings: Settings,
    cache: ProbabilityCache,
    registry: Registry | None = None,
    access_log: AccessLog | None = None,
) -> Observability:
    """The service. Each request is logged to `access_log` (stderr when not given) while
    `settings.log_requests` is on and the log level lets INFO through."""
    registry = registry or load()
    configure_master_table(settings.four_c_master_table)
    configure_action_deck(settings.fi_action_deck)
    registry.limit_memos(settings.memo_bytes)
    catalogue = Catalogue(registry, settings.max_odds_states, models=published)
    odds = Odds(cache, budget=settings.max_odds_states, deadline=settings.odds_deadline_seconds,
                workers=settings.odds_workers)  # fmt: skip

    def build_graphql() -> ASGIApp:
        # Imported here: graphql-core took a third of the time to start (Strawberry is
        # imported only where the schema is made, a child: `served_schema`).
        from service.graphql import GraphQLApp, Limits, served_schema

        limits = Limits.from_settings(settings)
        return GraphQLApp(served_schema(registry, odds, catalogue, limits), limits, odds)

    # The GraphQL schema grows with every operation: it is built by the first GraphQL request.
    graphql = Lazy(build_graphql)
    operations = endpoints(registry, odds)
    api = [*routes(registry, odds, catalogue, operations), *call_routes(registry, operations, odds)]
    fixed = [*api, Route("/graphql", graphql, methods=["POST"])]
    known = [r.path for r in fixed if isinstance(r, Route)]
    metrics = Metrics([*known, "/healthz", "/readyz", "/metrics"], cache.stats)
    drain = Drain(settings.shutdown_drain_seconds)

    log = (
        (access_log or AccessLog())
        if settings.log_requests and logs_info(settings.log_level)
        else None
    )

    explorers = explorer_routes(registry, graphql, catalogue)
    preparation = Preparation([*fixed, *explorers]) if settings.prepare_on_start else None

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        drain.install()
        if preparation is not None:
            preparation.start()
        yield
        odds.close()
        await cache.close()
        if log is not None:
            log.flush()

    policy = Policy.from_settings(settings)

    def cors(app: ASGIApp) -> ASGIApp:
        return app if policy is None else Cors(app, policy)

    app = Starlette(
        routes=[
            *fixed,
            *_ops_routes(cache, metrics, drain, preparation),
            *explorers,
            *page_routes(),
        ],
        exception_handlers={HTTPException: problem_handler, Exception: fault_handler},
        lifespan=lifespan,
    )
    return Observability(
        cors(Dispatch(fixed, app)),
        metrics=metrics,
        max_body_bytes=settings.max_body_bytes,
        # Refused before the layers inside it, a 413 still needs CORS for a browser to read it.
        too_large=lambda limit: cors(too_large(limit)),
        access_log=log,
    )


def configure_master_table(path: str | None) -> None:
    """The 4C Master Table of requests that name none (`FOUR_C_MASTER_TABLE`): a bad file
    stops the service as it starts, rather than serving a table that is not the one meant."""
    table = None
    if path:
        table = CustomMasterTable.model_validate_json(Path(path).read_text(encoding="utf-8"))
    configure_default(table)


def configure_action_deck(path: str | None) -> None:
    """The Future Imperfect Action Deck of the deck engine (`FI_ACTION_DECK`): a bad file stops
    the service as it starts."""
    deck = Deck.model_validate_json(Path(path).read_text(encoding="utf-8")) if path else None
    configure_deck(deck)


def create_app() -> Observability:
    """The app as `uvicorn service.app:create_app --factory` serves it, configured from the
    environment."""
    settings = Settings()
    configure_logging(settings.log_level)
    cache = make_cache(
        settings.redis_url,
        max_bytes=settings.cache_max_bytes,
        timeout=settings.redis_timeout_seconds,
        retry_after=settings.redis_retry_after_seconds,
        ttl_seconds=settings.redis_ttl_seconds,
        tls=settings.redis_tls,
    )
    app = build_app(settings, cache)
    tune_garbage_collector(settings)
    tune_allocator()
    return app


def tune_garbage_collector(settings: Settings) -> None:
    """Apply `GC_FREEZE` and `GC_THRESHOLDS` (see `Settings`): called once the app is built,
    so that a freeze takes everything startup made."""
    if settings.gc_freeze:
        gc.freeze()
    freeze_builds(settings.gc_freeze)
    gc.set_threshold(*settings.gc_thresholds)


#: glibc's `mallopt` parameter for the most arenas malloc keeps (malloc.h).
_M_ARENA_MAX = -8


def tune_allocator() -> None:
    """One malloc arena for every thread, where the C library is glibc. The threads that
    compute odds and make documents would each get an arena of their own, whose freed space
    no other thread reuses: about 1 MB of what the benchmark leaves resident. They run Python,
    one at a time, so sharing an arena costs them nothing. Elsewhere, nothing changes."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    libc.mallopt(_M_ARENA_MAX, 1)
