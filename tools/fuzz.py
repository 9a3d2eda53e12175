"""Fuzz the running service: REST with Schemathesis from the committed OpenAPI document,
GraphQL with Schemathesis from the live schema and then one operation at a time
(tools/fuzz_graphql.py). Starts the service on a free port and stops it after; prints the
cases run against each API.

Usage: python tools/fuzz.py [--examples N] [--graphql-cases N] [--long]. `make fuzz` (in
`make test`) runs at least 5,000 cases against each API; `--long` (`make fuzz-long`) at least
100,000 in all, and then the cost suite with `COST_SAMPLES` requests an operation.
"""

import argparse
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fuzz_graphql import fuzz as fuzz_graphql  # noqa: E402
from fuzz_graphql import report  # noqa: E402

from tests.served import served  # noqa: E402

BIN = Path(sys.executable).parent
LOGS = ROOT / ".schemathesis"
#: (Schemathesis examples per operation, GraphQL cases in all, cost samples per operation).
#: At 839 operations, 40 examples made 27,794 REST cases in 332 s, and CI came within a minute
#: of its 30; 25 make about 17,000 (at least 5,000 are asked for). The long run's 200, with
#: the coverage phase, made 346,241 in 55 minutes (2026-11-26).
BUDGETS = {"ci": (25, 6000, 0), "long": (200, 50_000, 2000)}
#: Schemathesis phases: `make test` leaves out the coverage phase, which over 839 operations
#: took 400 of CI's 30 minutes; its boundary values are drawn by the cost suite and the
#: per-operation GraphQL fuzzer in every run, and by the coverage phase in `make fuzz-long`.
PHASES = {"ci": "examples,fuzzing", "long": "examples,coverage,fuzzing"}
#: Seconds one Schemathesis run may take. Hypothesis drawing the cases is the bottleneck, on
#: one core: the long REST run took 5,434 s on a quiet host on 2026-11-28 (5,650 s on a busy
#: one), so it has four hours, not two that a slower host could overrun.
TIMEOUTS = {"ci": 3600, "long": 14400}
#: The service makes its GraphQL schema, catalogue and OpenAPI before it is ready: each takes
#: seconds made by its first request instead (`make bench` measures them), and Schemathesis
#: gives a request 10 s. Odds get 8 s of it, not the default 1 s: their one worker is shared
#: by three fuzzers at once, and a request queued behind another's odds on a busy host is
#: answered the deliberate 503 Busy, which says nothing of its input (the suite raises the
#: deadline likewise).
FUZZED = {"PREPARE_ON_START": "true", "ODDS_DEADLINE_SECONDS": "8"}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--long", action="store_true", help="at least 100,000 cases in all")
    parser.add_argument("--examples", type=int, help="Schemathesis examples per operation")
    parser.add_argument(
        "--graphql-cases", type=int, help="GraphQL cases in all, shared by the operations"
    )
    args = parser.parse_args()
    mode = "long" if args.long else "ci"
    examples, graphql_cases, cost_samples = BUDGETS[mode]
    examples = args.examples or int(os.environ.get("FUZZ_EXAMPLES", examples))
    graphql_cases = args.graphql_cases or graphql_cases
    started = time.monotonic()
    counts: dict[str, int] = {}
    with served(FUZZED, seconds=300, until="/readyz") as (base, _):
        common = [
            "--max-examples", str(examples),
            "--request-timeout", "10", "--seed", "4", "--warnings", "off",
            "--suppress-health-check", "all",
            "--phases", PHASES[mode],
            # Schema-valid table dice may not fit the roll (a d8 cannot show 9, a roll needs
            # a set number of dice), which is a 422 by design, so valid-looking data is not
            # always accepted; every other check runs.
            "--checks", "all", "--exclude-checks", "positive_data_acceptance",
        ]  # fmt: skip
        runs = {
            "REST (Schemathesis)": [str(ROOT / "openapi" / "openapi.json"), "--url", base],
            "GraphQL (Schemathesis, from the root)": [f"{base}/graphql"],
        }
        # The three runs go side by side, one core each for the two fuzzers that draw cases
        # (Schemathesis and the per-operation GraphQL fuzzer) and the service between them.
        with contextlib.ExitStack() as stack:
            processes = {
                name: stack.enter_context(_schemathesis([*run, *common]))
                for name, run in runs.items()
            }
            graphql_started = time.monotonic()
            summary = fuzz_graphql(f"{base}/graphql", graphql_cases)
            status = report(summary, graphql_started)  # timed before the others' wait
            for name, (process, output) in processes.items():
                print("schemathesis run", " ".join(runs[name]), flush=True)
                process.wait(timeout=TIMEOUTS[mode])
                output.seek(0)
                text = output.read()
                print(text[-6000:], flush=True)
                if process.returncode != 0:
                    # Each failure's section is in the whole output, which a long run's tail
                    # loses.
                    LOGS.mkdir(exist_ok=True)
                    log = LOGS / f"fuzz-{len(counts)}.log"
                    log.write_text(text, encoding="utf-8")
                    print(f"Schemathesis's whole output: {log}", flush=True)
                    return process.returncode
                found = re.search(r"(\d+) generated", text)
                counts[name] = int(found.group(1)) if found else 0
        counts["GraphQL (per operation)"] = summary.total
    print(f"Fuzzed in {time.monotonic() - started:.0f} s:")
    for name, count in counts.items():
        print(f"  {name}: {count:,} cases")
    print(f"  in all: {sum(counts.values()):,} cases")
    if status or not cost_samples:
        return status
    print(f"The cost suite at {cost_samples} requests an operation", flush=True)
    cost = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/test_cost.py"], cwd=ROOT, check=False,
        env={**os.environ, "COST_SAMPLES": str(cost_samples)},
    )  # fmt: skip
    return cost.returncode


@contextlib.contextmanager
def _schemathesis(args: list[str]) -> Iterator[tuple[subprocess.Popen[str], IO[str]]]:
    """`schemathesis run` started with `args`, its output in a file (a pipe read only at the
    end would stall it when full); killed if still running when the block ends."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as output:
        process = subprocess.Popen(
            [str(BIN / "schemathesis"), "run", *args], cwd=ROOT, text=True,
            stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            yield process, output
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


if __name__ == "__main__":
    sys.exit(main())
