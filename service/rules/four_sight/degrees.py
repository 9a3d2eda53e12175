"""How far a check beats its target: the degree of success and who narrates it (S:L150-169)."""

from enum import StrEnum

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["DEGREES", "Degree", "DegreeInfo", "Narrator", "degree_of", "narrator_of"]


class Degree(StrEnum):
    BARE = "bare"
    MODERATE = "moderate"
    GOOD = "good"
    EXCELLENT = "excellent"
    PERFECT = "perfect"


class Narrator(StrEnum):
    GM = "gm"
    PLAYER = "player"


class DegreeInfo(Model):
    """One row of the degree-of-success table: the margins it spans and what it means."""

    degree: Degree
    low: int
    high: int | None
    meaning: str
    source: str


DEGREES = table(__name__, "degrees", DegreeInfo)


def degree_of(margin: int) -> Degree:
    """The degree of a success by `margin` >= 0: 3 or less Bare ... 41 or more Perfect."""
    if margin < 0:
        raise ValueError("a failed check has no degree of success")
    return next(row.degree for row in DEGREES if row.high is None or margin <= row.high)


def narrator_of(degree: Degree | None) -> Narrator:
    """The GM narrates every outcome except a Perfect success, which the player narrates
    (S:L115, S:L169)."""
    return Narrator.PLAYER if degree is Degree.PERFECT else Narrator.GM
