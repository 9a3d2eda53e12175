import os
import shutil
from collections.abc import Iterator

import pytest

from tests.redis_server import RedisServer


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
