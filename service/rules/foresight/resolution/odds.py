"""Exact odds of quality ratings: every D100 roll enumerated (catalogue part 1, section 5).

A roll is one of 100 equally likely faces, so the QR distribution of a task is its 100 rolls
read by the same function that reads a rolled die; contests combine two such distributions
as independent rolls (the 10,000 pairs) and chained tasks mix the follow-up's distribution
over the first task's QRs.
"""

from collections.abc import Callable
from typing import Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.resolution.tables import QR, QUALITY_RATINGS
from service.rules.model import Model
from service.rules.registry import Reading

__all__ = [
    "QR_ROLLED",
    "QualityOdds",
    "QualitySummary",
    "chained_cost",
    "contest_cost",
    "d100",
    "quality_odds",
    "task_cost",
]


class QualitySummary(Model):
    success: Exact = Field(description="P(QR1-QR4).")
    botch: Exact = Field(description="P(QR10).")
    mean_yield_pct: Exact = Field(description="Expected yield, a botch counting -25% (F:L1373).")
    mean_performance_modifier: Exact = Field(description="Expected 4 - QR (F:L1404).")


class QualityOdds(Model):
    """The exact distribution of the quality rating."""

    qr: list[OutcomeProbability] = Field(description="'QR1' .. 'QR10', best first.")
    summary: QualitySummary


#: How a result that is a `Quality`, or has one, reads as its QR in `QualityOdds.qr`, which
#: lists the best first.
QR_ROLLED = {
    "/qr": Reading(read=lambda result: getattr(result, "quality", result).qr.name, best_first=True)
}


_D100 = Distribution.die(100)


def d100(read: Callable[[int], QR]) -> Distribution[QR]:
    """The QR of each of the 100 faces of a D100, read by `read`."""
    return _D100.map(read)


def quality_odds(distribution: Distribution[QR]) -> QualityOdds:
    return QualityOdds(
        qr=outcome_table(distribution.map(lambda qr: qr.name), [qr.name for qr in QR]),
        summary=QualitySummary(
            success=exact(distribution.probability_where(lambda qr: qr <= QR.QR4)),
            botch=exact(distribution.probability(QR.QR10)),
            mean_yield_pct=exact(distribution.mean(lambda qr: QUALITY_RATINGS[qr].yield_pct)),
            mean_performance_modifier=exact(distribution.mean(lambda qr: 4 - qr)),
        ),
    )


#: The most states one task's odds make: its 100 faces, then a few tables of its ten QRs.
_TASK = 200
_PAIRS = len(QR) ** 2


def task_cost(request: Any) -> Estimate:
    """One D100 read, and tables of its ten QRs: the same for every request."""
    return Estimate(_TASK, ())


def contest_cost(request: Any) -> Estimate:
    """Two tasks, then each pair of their QRs (an inner table and the pairs): the same for
    every request."""
    return Estimate(2 * _TASK + 4 * _PAIRS, ())


def chained_cost(request: Any) -> Estimate:
    """A task, then a follow-up task for each of its ten QRs, then each pair: the same for
    every request."""
    return Estimate((1 + len(QR)) * _TASK + 4 * _PAIRS, ())
