import os
import shutil
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.observability import Observability
from service.settings import Settings
from tests.redis_server import RedisServer


@pytest.fixture(scope="session")
def app() -> Observability:
    """The service, built once for the whole session: the in-memory cache, no request log,
    and a deadline for exact odds no shared machine's stall reaches (a 60 ms table once took
    past the 1 s default under load, a 503 where values were checked; the deadline's own
    tests build apps with theirs). A test that needs other settings, or counters of its own,
    builds its own app."""
    return build_app(Settings(log_requests=False, odds_deadline_seconds=30), MemoryCache())


@pytest.fixture(scope="session")
def client(app: Observability) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A fresh, empty redis-server of our own (never the one on port 6379)."""
    executable = shutil.which("redis-server")
    if executable is None:
        message = "redis-server is not installed"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    server = RedisServer(executable)
    server.start()
    try:
        yield server
    finally:
        server.stop()
