"""Quality ratings: reading a D100 roll against a success chance (F:L306-323, F:L1360-1378),
what each QR yields (F:L1394-1404), random QRs (F:L1468-1479) and QRs carried to a follow-up
task as modifiers (F:L1523-1551)."""

from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from math import floor
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution
from service.rules.foresight.resolution.odds import QR_ROLLED, QualityOdds, quality_odds, task_cost
from service.rules.foresight.resolution.options import QrThresholds, QualityOptions
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.resolution.tables import (
    QR,
    QR_MODIFIERS,
    QUALITY_RATINGS,
    RANDOM_QUALITY_RATINGS,
)
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "MAX_SC",
    "NOTCHES",
    "Quality",
    "Relation",
    "Thresholds",
    "carried_modifier",
    "quality",
    "quality_rating",
    "rater",
    "thresholds",
]

MAX_SC = 300
#: The QRs in order of quality: a notch is one step along this list.
NOTCHES = tuple(QR)


class Thresholds(Model):
    """The highest roll that gives each success QR (a roll of 99 is at best QR4)."""

    qr1: float
    qr2: float
    qr3: float
    qr4: float


def limits(sc: Fraction, mode: QrThresholds) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """SC/10, SC/5, SC/2 and SC: exact by default (the book quotes 47.5 and 9.5 as thresholds,
    F:L1384-1390), or each rounded half up (AMB-03)."""
    parts = (sc / 10, sc / 5, sc / 2)
    if mode is QrThresholds.ROUNDED:
        parts = tuple(Fraction(round_half_up(part)) for part in parts)  # type: ignore[assignment]
    return (*parts, sc)


def thresholds(sc: Fraction, mode: QrThresholds) -> Thresholds:
    qr1, qr2, qr3, qr4 = (float(limit) for limit in limits(sc, mode))
    return Thresholds(qr1=qr1, qr2=qr2, qr3=qr3, qr4=qr4)


def quality_rating(roll: int, sc: Fraction, mode: QrThresholds) -> QR:
    """The QR of a D100 roll against a success chance (`rater`)."""
    return rater(sc, mode)(roll)


def rater(sc: Fraction, mode: QrThresholds) -> Callable[[int], QR]:
    """How a D100 roll reads against a success chance: at most SC/10 is QR1, SC/5 QR2, SC/2
    QR3, SC QR4; above SC is QR7, or QR10 on a multiple of 10 (F:L1366-1373). A roll of 99
    is never better than QR4; 100 always fails, QR7 against an SC of 100 or more and QR10
    below (F:L1360, F:L1375-1376). A whole roll is within a limit when it is within the
    limit's whole part, so the limits are worked out once for every roll read."""
    success = (QR.QR1, QR.QR2, QR.QR3, QR.QR4)
    within = tuple(zip(success, (floor(limit) for limit in limits(sc, mode)), strict=True))
    highest, hundred = floor(sc), QR.QR7 if sc >= 100 else QR.QR10

    def rate(roll: int) -> QR:
        if roll == 100:
            return hundred
        if roll > highest:
            return QR.QR10 if roll % 10 == 0 else QR.QR7
        if roll == 99:
            return QR.QR4
        for qr, limit in within:
            if roll <= limit:
                return qr
        raise AssertionError("a roll within SC is within its last limit, SC")

    return rate


class Quality(Model):
    """A quality rating and what it means: yield, time and performance modifier (F:L1366)."""

    qr: QR
    name: str
    success: bool
    botch: bool
    yield_pct: int = Field(description="How much of what was sought was got (F:L1400).")
    time_pct: int = Field(description="Time taken against a competent estimate (F:L1402).")
    performance_modifier: int = Field(description="4 - QR, for a product used later (F:L1404).")
    apparent_yield_pct: int = Field(
        description="What the players see: a failure not apparent to them yields as a QR4."
    )
    apparent_time_pct: int


def quality(qr: QR, outcome_apparent: bool = True) -> Quality:
    """The row of the QR table; when the outcome is not apparent to the players a failure
    shows the yield and time of a QR4 (F:L1400-1402, AMB-45)."""
    row = QUALITY_RATINGS[qr]
    hidden = not outcome_apparent and qr > QR.QR4
    shown = QUALITY_RATINGS[QR.QR4] if hidden else row
    return Quality(
        qr=qr,
        name=row.name,
        success=qr <= QR.QR4,
        botch=qr is QR.QR10,
        yield_pct=row.yield_pct,
        time_pct=row.time_pct,
        performance_modifier=row.performance_modifier,
        apparent_yield_pct=shown.yield_pct,
        apparent_time_pct=shown.time_pct,
    )


class QualityRatingInput(Model):
    """A D100 roll and the success chance it was rolled against."""

    roll: Annotated[int, Field(ge=1, le=100)]
    success_chance: Annotated[float, Field(ge=0, le=MAX_SC)]
    outcome_apparent: bool = True
    options: QualityOptions = Field(default=QualityOptions())


@operation(
    name="quality-rating",
    kind=Kind.CALCULATION,
    covers=("foresight.quality_rating",),
    example={"roll": 32, "success_chance": 70},
)
def read_roll(request: QualityRatingInput) -> Quality:
    """Read a D100 roll against a success chance: QR1 at most SC/10, QR2 at most SC/5, QR3 at
    most SC/2, QR4 at most SC, QR7 above it and QR10 above it on a multiple of 10; 99 is at best
    QR4 and 100 always fails (F:L1366-1376)."""
    sc = Fraction(request.success_chance)
    return quality(quality_rating(request.roll, sc, request.options.qr_thresholds),
                   request.outcome_apparent)  # fmt: skip


class YieldTimePmInput(Model):
    qr: QR
    outcome_apparent: bool = Field(
        default=True,
        description="False: the players cannot tell success from failure (F:L1400).",
    )


@operation(
    name="yield-time-pm",
    kind=Kind.LOOKUP,
    covers=("foresight.yield_time_pm",),
    example={"qr": 3},
)
def yield_time_pm(request: YieldTimePmInput) -> Quality:
    """The yield, time and performance modifier of a QR (F:L1366-1373, F:L1394-1404): QR1
    100% / 25% / +3 down to QR10 -25% / 200% / -6; failures take as long as a QR4 and, where
    the players cannot tell, yield what a QR4 would (F:L1400-1402)."""
    return quality(request.qr, request.outcome_apparent)


class Relation(StrEnum):
    COOPERATING = "cooperating"
    OPPOSING = "opposing"


def carried_modifier(qr: QR, relation: Relation) -> int:
    """4 - QR for a task that builds on the first, QR - 4 for one that opposes it (F:L1525)."""
    row = QR_MODIFIERS[qr]
    return row.cooperating if relation is Relation.COOPERATING else row.opposing


class QrAsModifierInput(Model):
    qr: QR = Field(description="The QR of the initial task.")
    relation: Relation = Field(description="Does the follow-up task build on it or oppose it?")


class QrAsModifier(Model):
    qr: QR
    relation: Relation
    modifier: int


@operation(
    name="qr-as-modifier",
    kind=Kind.LOOKUP,
    covers=("foresight.qr_as_modifier",),
    example={"qr": 2, "relation": "cooperating"},
)
def qr_as_modifier(request: QrAsModifierInput) -> QrAsModifier:
    """The modifier a task's QR gives a follow-up task: 4 - QR when cooperating, QR - 4 when
    opposing (F:L1523-1543). Smith's QR7 set-up gives hackers +3; Anderson's QR2 hack gives
    Smith -2 and the next hacker +2 (F:L1545-1551)."""
    return QrAsModifier(
        qr=request.qr,
        relation=request.relation,
        modifier=carried_modifier(request.qr, request.relation),
    )


def random_qr(d10: int) -> QR:
    return next(row.qr for row in RANDOM_QUALITY_RATINGS if row.low <= d10 <= row.high)


class RandomQualityInput(Model):
    """No input: a D10 gives the QR."""

    outcome_apparent: bool = True


class RandomQuality(Quality):
    d10: int


def random_quality_odds(request: RandomQualityInput) -> QualityOdds:
    """1 in 10 QR1, 1 in 10 QR2, 3 in 10 QR3, 5 in 10 QR4: never a failure."""
    return quality_odds(Distribution.die(10).map(random_qr))


@operation(
    name="random-quality-rating",
    standard=[{}],
    kind=Kind.GENERATION,
    covers=("foresight.random_quality_rating",),
    odds=random_quality_odds,
    cost=task_cost,
    example={"dice": {"seed": 7}},
    rolled=QR_ROLLED,
)
def random_quality_rating(request: RandomQualityInput, dice: Dice) -> RandomQuality:
    """A random QR for a task known to have succeeded or for area damage on individuals: D10
    1 QR1, 2 QR2, 3-5 QR3, 6-10 QR4 (F:L1468-1479)."""
    d10 = dice.roll(10, "random QR")
    found = quality(random_qr(d10), request.outcome_apparent)
    return RandomQuality(**dict(found), d10=d10)
