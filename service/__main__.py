"""Command line: `python -m service serve | export-schemas | check-schemas | precompute`."""

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

import uvicorn

from service.cache import make_cache
from service.drain import exit_cleanly_on_sigterm
from service.rules.cost import BUDGET
from service.rules.registry import load
from service.runtime import Odds
from service.server import PROTOCOL
from service.settings import Settings

#: How the service is served; `make bench` serves its bare baselines the same way.
UVICORN = {"access_log": False, "log_config": None}

OPENAPI = Path("openapi/openapi.json")
GRAPHQL = Path("schema/schema.graphql")


def _schemas() -> dict[Path, str]:
    # Imported here: serving imports this module, and GraphQL waits for its first request.
    from service.graphql import Limits
    from service.graphql_schema import build_schema
    from service.openapi import openapi

    registry = load()
    settings = Settings()
    cache = make_cache(None, max_bytes=1024, timeout=settings.redis_timeout_seconds)
    # The published limits are the defaults, whatever this environment sets.
    limits = Limits.from_settings(Settings.model_construct())
    schema = build_schema(registry, Odds(cache, budget=BUDGET, deadline=1), limits=limits)
    return {
        OPENAPI: json.dumps(openapi(registry), indent=2, sort_keys=False) + "\n",
        GRAPHQL: schema.as_str() + "\n",
    }


def export_schemas() -> int:
    for path, text in _schemas().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


def check_schemas() -> int:
    stale = [str(p) for p, text in _schemas().items() if not p.exists() or p.read_text() != text]
    if stale:
        print(f"schema drift in {', '.join(stale)}: run 'make schema' and commit", file=sys.stderr)
        return 1
    print("schemas match the code")
    return 0


async def _precompute(settings: Settings) -> int:
    """Fill the cache with each system's standard odds (`System.standard_odds`)."""
    cache = make_cache(
        settings.redis_url,
        max_bytes=settings.cache_max_bytes,
        timeout=settings.redis_timeout_seconds,
        ttl_seconds=settings.redis_ttl_seconds,
        tls=settings.redis_tls,
    )
    odds = Odds(cache, budget=settings.max_odds_states, deadline=60)
    count = 0
    try:
        for system in load().systems:
            for op, payload in system.standard_odds:
                assert op.odds_request_model is not None
                await odds.json(op, op.odds_request_model.model_validate_json(json.dumps(payload)))
                count += 1
    finally:
        odds.close()
        await cache.close()
    print(f"precomputed {count} odds tables into the {cache.backend} cache")
    return 0


def run_server(host: str, port: int, workers: int) -> int:
    """Serve until SIGTERM or SIGINT. SIGTERM drains first, then finishes what is in flight
    within SHUTDOWN_TIMEOUT_SECONDS, and ends the process with status 0 (service/drain.py)."""
    exit_cleanly_on_sigterm()
    timeout = Settings().shutdown_timeout_seconds
    uvicorn.run("service.app:create_app", factory=True, host=host, port=port, workers=workers,
                http=PROTOCOL, timeout_graceful_shutdown=timeout, **UVICORN)  # type: ignore[arg-type]  # fmt: skip
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve REST and GraphQL")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    # WEB_CONCURRENCY, as uvicorn's own command line reads it: the container image sets it.
    # A string default goes through type=int, so a bad value is a usage error, not a traceback.
    serve.add_argument("--workers", type=int, default=os.environ.get("WEB_CONCURRENCY", "1"))
    commands.add_parser("export-schemas", help="write openapi/ and schema/")
    commands.add_parser("check-schemas", help="fail when openapi/ or schema/ drift")
    commands.add_parser("precompute", help="fill the cache with standard odds tables")
    args = parser.parse_args(argv)
    if args.command == "serve":
        return run_server(args.host, args.port, args.workers)
    if args.command == "export-schemas":
        return export_schemas()
    if args.command == "check-schemas":
        return check_schemas()
    return asyncio.run(_precompute(Settings()))


if __name__ == "__main__":
    sys.exit(main())
