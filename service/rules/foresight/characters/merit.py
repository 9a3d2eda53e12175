"""Merit points (catalogue 3.H, F:L1263-1300): kudos within an organisation read as a rank,
what a new member starts with for his background factors, and merit in one organisation
counted toward another."""

from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.foresight.resolution.scores import round_half_up
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["MERIT_RANKS", "merit_rank", "starting", "transfer"]

Merit = Annotated[int, Field(ge=0, le=100_000)]
#: A background factor spent outside the organisation is worth 0-20, inside it 10-40 (F:L1271).
OUTSIDE, INSIDE = (0, 20), (10, 40)


class MeritRow(Model):
    low: int
    high: int
    rank: int
    bureaucracy: str
    naval_officer: str
    source: str


MERIT_RANKS = table(__name__, "merit_ranks", MeritRow)


class Rank(Model):
    merit_points: int
    rank: int = Field(description="0 to 10; past 1000 merit points, still 10 (AMB-34).")
    bureaucracy: str
    naval_officer: str


def rank_of(points: int) -> Rank:
    row = next((r for r in MERIT_RANKS if r.low <= points <= r.high), list(MERIT_RANKS)[-1])
    return Rank(merit_points=points, rank=row.rank, bureaucracy=row.bureaucracy,
                naval_officer=row.naval_officer)  # fmt: skip


class RankInput(Model):
    merit_points: Merit


@operation(
    name="merit-points",
    kind=Kind.LOOKUP,
    covers=("foresight.merit_points",),
    example={"merit_points": 35},
)
def merit_rank(request: RankInput) -> Rank:
    """Merit points read as a rank, 0-5 rank 0 to 751-1000 rank 10, with a bureaucracy's and
    a navy's titles; an organisation may name its own (F:L1281-1294)."""
    return rank_of(request.merit_points)


class Spent(Model):
    merit_points: Annotated[int, Field(ge=0, le=40)] = Field(description="The GM's award.")
    inside: bool = Field(description="Spent within the organisation.")


class StartingInput(Model):
    backgrounds: tuple[Spent, ...] = Field(max_length=40)


@operation(
    name="merit-points/starting",
    kind=Kind.CALCULATION,
    covers=("foresight.merit_points.starting",),
    example={"backgrounds": [{"merit_points": 0, "inside": False},
                             {"merit_points": 10, "inside": False},
                             {"merit_points": 10, "inside": False},
                             {"merit_points": 15, "inside": True}]},
)  # fmt: skip
def starting(request: StartingInput) -> Rank:
    """A new member may start with 0-20 merit points a background factor spent outside the
    organisation and 10-40 a factor within it, as the GM says (F:L1271): Amy's 0, 10, 10 and
    15 make 35, rank 3, an inspector (F:L1277-1279)."""
    errors = []
    for index, spent in enumerate(request.backgrounds):
        low, high = INSIDE if spent.inside else OUTSIDE
        if not low <= spent.merit_points <= high:
            where = "within" if spent.inside else "outside"
            message = f"a factor {where} the organisation is worth {low}-{high}"
            errors.append(InputError(("backgrounds", index, "merit_points"), message))
    if errors:
        raise Violations(errors)
    return rank_of(sum(s.merit_points for s in request.backgrounds))


class TransferInput(Model):
    merit_points: Merit
    percent: Annotated[int, Field(ge=0, le=100)] = Field(
        description="How much the other organisation counts, as the GM sets it (F:L1300)."
    )


class Transferred(Model):
    credited: int


@operation(
    name="merit-points/transfer",
    kind=Kind.CALCULATION,
    covers=("foresight.merit_points.transfer",),
    example={"merit_points": 35, "percent": 50},
)
def transfer(request: TransferInput) -> Transferred:
    """Merit in one organisation may count partly toward another: Navy merit counts 50% toward
    Intelligence and back (F:L1300); rounded half up."""
    credited = round_half_up(Fraction(request.merit_points * request.percent, 100))
    return Transferred(credited=credited)
