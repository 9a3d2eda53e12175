"""The benchmark's own checks (`make bench` is not run by the suite: no timed tests)."""

import argparse
import dataclasses
import json
import os
import time
from typing import Any

import pytest

from bench import startup
from bench.cold import COLD, Cold, _operation, disagreement
from bench.run import Target, medians, parse_wrk, report, table


def service_odds(cold: Cold) -> dict[str, Any]:
    op = _operation(cold)
    assert op.odds_request_model is not None
    request = op.odds_request_model.model_validate_json(json.dumps(cold.payload))
    odds: dict[str, Any] = json.loads(op.run_odds(request).model_dump_json())
    return odds


@pytest.mark.parametrize("cold", COLD, ids=lambda cold: cold.name)
def test_each_icepool_twin_computes_the_services_distribution(cold):
    odds = service_odds(cold)
    assert disagreement(cold, odds) <= 0
    assert sum(cold.outcomes(odds).values()) > 0


@pytest.mark.parametrize("cold", COLD, ids=lambda cold: cold.name)
def test_a_changed_distribution_disagrees(cold):
    odds = service_odds(cold)
    changed = dict(cold.outcomes(odds))
    first = next(iter(changed))
    changed[first] *= 2
    twin = dataclasses.replace(cold, outcomes=lambda _: changed)
    assert disagreement(twin, odds) > 0


WRK = """Running 10s test @ http://127.0.0.1:1234/check
  1 threads and 16 connections
  Latency Distribution
     50%  840.00us
     75%    1.02ms
     90%    1.30ms
     99%    1.75ms
  176404 requests in 10.00s, 25.07MB read
  Non-2xx or 3xx responses: 3
Requests/sec:  17640.39
"""


def test_wrk_output_is_read_in_milliseconds():
    assert parse_wrk(WRK) == {"rps": 17640.39, "p50_ms": 0.84, "p99_ms": 1.75, "non_2xx": 3.0}


def test_each_figure_is_the_median_of_its_rounds():
    target = Target("x", "service", "/x", {}, "base", 0.6)
    rounds = [
        {"x": {"target": target, "rps": rps, "p50_ms": p50, "p99_ms": p99, "non_2xx": bad}}
        for rps, p50, p99, bad in [(900.0, 1.0, 9.0, 0.0), (1200.0, 0.8, 3.0, 2.0),
                                   (1000.0, 0.9, 4.0, 0.0)]
    ]  # fmt: skip
    [(name, row)] = medians(rounds).items()
    assert name == "x"
    assert (row["rps"], row["p50_ms"], row["p99_ms"]) == (1000.0, 0.9, 4.0)
    assert row["rounds_rps"] == [900.0, 1200.0, 1000.0]
    assert row["non_2xx"] == 2.0  # any failed request in any round fails the figure


def test_a_line_is_fitted_through_the_builds():
    """Builds of 0, 3, 13 and 37 operations at 0.6 s plus 8 ms each; then one 30 ms slow,
    which moves the line but little."""
    points = [(0, 0.6), (3, 0.624), (13, 0.704), (37, 0.896)]
    assert startup.fit(points) == pytest.approx((0.6, 0.008))
    points[2] = (13, 0.734)
    fixed, per_operation = startup.fit(points)
    assert fixed == pytest.approx(0.6, abs=0.02)
    assert per_operation == pytest.approx(0.008, abs=0.001)


def test_one_count_of_operations_fits_no_line():
    with pytest.raises(ValueError, match="two or more"):
        startup.fit([(37, 1.0), (37, 1.2)])


def test_500_operations_are_projected_from_the_first_answer():
    """1.2 s for 37 operations at 5 ms each: 1.015 s fixed, 3.515 s for 500."""
    figures = startup.project(1.2, 37, 0.005)
    assert figures["fixed_s"] == pytest.approx(1.015)
    assert figures["projected_s"] == pytest.approx(3.515)
    assert figures["met"]


@pytest.mark.parametrize(
    ("first", "per_operation"),
    [(2.1, 0.001), (1.2, 0.01)],  # too slow today; too slow at 500 operations (5.83 s)
)
def test_either_target_missed_fails_the_startup(first, per_operation):
    assert not startup.project(first, 37, per_operation)["met"]


def test_the_table_shows_the_startup_figures():
    target = Target("x", "service", "/x", {}, "base", 0.6)
    rows = {
        "base": {"target": Target("base", "starlette", "/", {}), "rps": 100.0, "p50_ms": 1.0,
                 "p99_ms": 2.0, "non_2xx": 0.0},
        "x": {"target": target, "rps": 80.0, "p50_ms": 1.0, "p99_ms": 2.0, "non_2xx": 0.0},
    }  # fmt: skip
    args = argparse.Namespace(rounds=1, duration=5.0, warmup=2.0, connections=16,
                              baselines_last=False)  # fmt: skip
    started = startup.project(1.2, 37, 0.006) | {
        "first_answer_cpu_s": 1.1, "first_graphql_answer_s": 1.9, "first_graphql_answer_cpu_s": 1.7,
        "graphql_per_operation_ms": 20.0, "graphql_fixed_s": 1.16, "graphql_projected_s": 11.16,
    }  # fmt: skip
    result = report(rows, {"service memory": 90.0}, [], args, started)
    assert result["startup"]["projected_s"] == pytest.approx(3.978)
    lines = table(result).splitlines()
    first = "| first answer, 37 operations (≤ 2 s) | 1.20 | 1.10 | 6.0 | 0.98 | 3.98 | yes |"
    assert first in lines
    assert "| first GraphQL answer (no target) | 1.90 | 1.70 | 20.0 | 1.16 | 11.16 |  |" in lines


def test_a_process_cpu_time_is_read_from_proc():
    spent = startup.cpu_seconds(os.getpid())
    assert 0 < spent <= time.process_time() + 0.02
