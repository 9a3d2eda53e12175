"""The benchmark's own checks (`make bench` is not run by the suite: no timed tests)."""

import argparse
import dataclasses
import json
import os
import time
from typing import Any

import pytest

from bench import scale, startup
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


def test_the_first_answer_is_judged_against_3_seconds():
    assert startup.judge({"first_answer_s": 2.4})["met"]
    assert not startup.judge({"first_answer_s": 3.1})["met"]


def test_the_table_shows_the_startup_figures():
    target = Target("x", "service", "/x", {}, "base", 0.85)
    rows = {
        "base": {"target": Target("base", "starlette", "/", {}), "rps": 100.0, "p50_ms": 1.0,
                 "p99_ms": 2.0, "non_2xx": 0.0},
        "x": {"target": target, "rps": 80.0, "p50_ms": 1.0, "p99_ms": 2.0, "non_2xx": 0.0},
    }  # fmt: skip
    args = argparse.Namespace(rounds=1, duration=5.0, warmup=2.0, connections=16,
                              baselines_last=False)  # fmt: skip
    started = startup.judge({"first_answer_s": 2.4, "first_answer_cpu_s": 2.3,
                             "first_graphql_answer_s": 4.9,
                             "first_graphql_answer_cpu_s": 4.8, "catalogue_s": 3.5,
                             "catalogue_cpu_s": 3.4, "prepared_ready_s": 12.5,
                             "prepared_ready_cpu_s": 12.25})  # fmt: skip
    result = report(rows, {"service memory": 90.0}, [], args, started)
    lines = table(result).splitlines()
    assert "| first answer (≤ 3 s) | 2.40 | 2.30 | yes |" in lines
    assert "| first GraphQL answer (no target) | 4.90 | 4.80 |  |" in lines
    assert "| then the first `GET /v1/systems` (no target) | 3.50 | 3.40 |  |" in lines
    assert "| prepared (`PREPARE_ON_START`), until ready (no target) | 12.50 | 12.25 |  |" in lines
    assert "| x | 80 | 1.00 | 2.00 | 0.80 x (0.85 x) | 1.00 | **no** |" in lines


def test_a_process_cpu_time_is_read_from_proc():
    spent = startup.cpu_seconds(os.getpid())
    assert 0 < spent <= time.process_time() + 0.02


def test_the_scale_table_compares_each_setup_with_one_worker():
    rows = [{"setup": setup, "endpoint": "REST check", "rps": rps, "p99_ms": 5.0}
            for setup, rps in (("1 worker", 1000.0), ("2 workers", 1800.0),
                               ("HAProxy, 2 replicas", 1500.0))]  # fmt: skip
    lines = scale.table(rows)
    assert "| 2 workers | REST check | 1800 | 5.00 | 1.80 |" in lines
    assert "| HAProxy, 2 replicas | REST check | 1500 | 5.00 | 1.50 |" in lines
