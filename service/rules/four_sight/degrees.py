"""How far a check beats its target: the degree of success and who narrates it (S:L150-169)."""

from enum import StrEnum

from service.rules.model import Model

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


DEGREES = (
    DegreeInfo(degree=Degree.BARE, low=0, high=3, source="S:L155, S:L161",
               meaning="Succeeded without any additional benefit; some aspect may not have "
                       "worked out quite as planned (noisy, slow)."),
    DegreeInfo(degree=Degree.MODERATE, low=4, high=10, source="S:L156, S:L163",
               meaning="Succeeds without any major problems but also without any boons."),
    DegreeInfo(degree=Degree.GOOD, low=11, high=20, source="S:L157, S:L165",
               meaning="The result desired, in a particularly efficient or beneficial manner; "
                       "it may confer some other unintended benefit."),
    DegreeInfo(degree=Degree.EXCELLENT, low=21, high=40, source="S:L158, S:L167",
               meaning="A nearly perfect job, better than hoped for; may gain a significant "
                       "advantage."),
    DegreeInfo(degree=Degree.PERFECT, low=41, high=None, source="S:L159, S:L169",
               meaning="The best possible way: the player narrates the outcome, gaining several "
                       "remarkable (though still physically possible) advantages."),
)  # fmt: skip


def degree_of(margin: int) -> Degree:
    """The degree of a success by `margin` >= 0: 3 or less Bare ... 41 or more Perfect."""
    if margin < 0:
        raise ValueError("a failed check has no degree of success")
    return next(row.degree for row in DEGREES if row.high is None or margin <= row.high)


def narrator_of(degree: Degree | None) -> Narrator:
    """The GM narrates every outcome except a Perfect success, which the player narrates
    (S:L115, S:L169)."""
    return Narrator.PLAYER if degree is Degree.PERFECT else Narrator.GM
