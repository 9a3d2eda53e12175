"""A real multi-replica run (issue 17): three `python -m service serve` replicas, one
redis-server and HAProxy on loopback, started and stopped here; the checks are
tools/cluster.py's, which `make cluster` prints."""

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tools import cluster as cluster_tool
from tools.cluster import Check, Cluster, find_or_install, running

# Timed or loaded: run by itself, after the parallel suite (Makefile).
pytestmark = pytest.mark.alone


def _missing(message: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        _missing("redis-server is not installed")
    haproxy = find_or_install("haproxy", "haproxy")
    if haproxy is None:
        _missing("haproxy is not installed and could not be (apt-get install haproxy)")
    assert redis_server is not None
    assert haproxy is not None
    directory: Path = tmp_path_factory.mktemp("cluster")
    with running(haproxy, redis_server, directory) as started:
        yield started


@pytest.mark.parametrize("check", cluster_tool.CHECKS, ids=lambda c: c.__name__)
def test_cluster(cluster: Cluster, check: Callable[[Cluster], Check]) -> None:
    result = check(cluster)
    assert result.passed, result.line()
