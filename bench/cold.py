"""Cold exact odds in-process: the service's odds function (no cache) against icepool
computing the same distribution, median of repeated runs.

The icepool twin enumerates the same dice and reads each outcome with the same rule, so the
comparison is of the enumeration, not of the rules: 4d8 as a pool of four d8, the 4SIGHT
attack as two exploding d6 (16 extra dice) and their difference, the FORESIGHT QR as a d100.
Before any timing, each twin's distribution is checked against the service's: a race between
two computations is only fair if they compute the same thing. They agree exactly, except
that the service cuts exploding chains at 16 dice and reports the mass it cut, which bounds
the difference from icepool's (its last die keeps the mass instead).
"""

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import icepool

from service.rules.foresight.resolution.options import QrThresholds
from service.rules.foresight.resolution.quality import quality_rating
from service.rules.four_d8.degree import score
from service.rules.four_d8.options import FourD8Options
from service.rules.four_sight.injuries import injury_of
from service.rules.registry import Operation, load

__all__ = ["COLD", "Cold", "measure"]

FOUR_D8_EASE = 18
DEX1 = {"traits": [{"trait": "dexterity", "score": 1}]}


@dataclass(frozen=True)
class Cold:
    name: str
    system: str
    operation: str
    payload: dict[str, Any]
    icepool: Callable[[], icepool.Die[Any]]
    #: The service's distribution in its odds JSON, as {outcome: probability}, with outcomes
    #: named as `str` of the icepool twin's.
    outcomes: Callable[[dict[str, Any]], dict[str, Fraction]]


def _rows(rows: list[dict[str, Any]], rename: dict[str, str] | None = None) -> dict[str, Fraction]:
    rename = rename or {}
    return {rename.get(r["outcome"], r["outcome"]): Fraction(r["exact"]) for r in rows}


def _four_d8() -> icepool.Die[Any]:
    options = FourD8Options()
    pool = icepool.d8.pool(4).expand()
    return pool.map(
        lambda dice: (
            score(sorted(dice, reverse=True), options)[0] if sum(dice) <= FOUR_D8_EASE else 0
        )
    )


def _combat() -> icepool.Die[Any]:
    one = icepool.d6.explode(depth=16) + 1
    return (one - one).map(lambda margin: "no_hit" if margin < 0 else injury_of(margin).value)


def _foresight() -> icepool.Die[Any]:
    sc = Fraction(70)
    return icepool.d100.map(lambda roll: quality_rating(roll, sc, QrThresholds.EXACT).value)


COLD = (
    Cold("4D8 check odds (ease 18)", "four-d8", "check", {"ease": FOUR_D8_EASE}, _four_d8,
         lambda odds: _rows(odds["distributions"]["degree"], {"failure": "0"})),
    Cold("4SIGHT combat odds (Dex 1 vs Dex 1)", "four-sight", "combat-attack",
         {"attacker": DEX1, "defender": DEX1}, _combat, lambda odds: _rows(odds["injury"])),
    Cold("FORESIGHT QR odds (SC 70)", "foresight", "resolve", {"score": 14, "bef": 5},
         _foresight, lambda odds: {k.removeprefix("QR"): v for k, v in _rows(odds["qr"]).items()}),
)  # fmt: skip


def disagreement(cold: Cold, odds: dict[str, Any]) -> Fraction:
    """How far the service's distribution is from icepool's: the sum of the differences of
    every outcome's probability, less the mass the service reports it cut (at most 0 when
    they agree)."""
    ours = cold.outcomes(odds)
    twin = cold.icepool()
    theirs = {str(outcome): Fraction(twin.quantity(outcome), twin.denominator())
              for outcome in twin.outcomes()}  # fmt: skip
    apart = sum(abs(ours.get(k, Fraction(0)) - theirs.get(k, Fraction(0)))
                for k in ours.keys() | theirs.keys())  # fmt: skip
    cut = (odds.get("truncation") or {}).get("mass_cut") or {"exact": "0"}
    return Fraction(apart) - Fraction(cut["exact"])


def _median_seconds(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _operation(cold: Cold) -> Operation:
    system = load().system(cold.system)
    assert system is not None
    return next(op for op in system.operations if op.name == cold.operation)


def measure(repeats: int = 30) -> list[dict[str, Any]]:
    """Median seconds per cold computation, service and icepool, for each distribution."""
    rows = []
    for cold in COLD:
        op = _operation(cold)
        assert op.odds_request_model is not None
        request = op.odds_request_model.model_validate_json(json.dumps(cold.payload))
        odds = json.loads(op.run_odds(request).model_dump_json())
        if disagreement(cold, odds) > 0:
            raise SystemExit(f"{cold.name}: the service and icepool disagree; no race to run")
        ours = _median_seconds(partial(op.run_odds, request), repeats)
        theirs = _median_seconds(cold.icepool, repeats)
        rows.append({"name": cold.name, "service_ms": ours * 1000, "icepool_ms": theirs * 1000,
                     "speedup": theirs / ours})  # fmt: skip
    return rows


if __name__ == "__main__":
    for row in measure():
        print(row)
