"""Combat injuries: the injury a hit's margin inflicts and the penalty per die it leaves
(S:L191-207)."""

from collections.abc import Sequence
from enum import StrEnum

from service.rules.four_sight.options import InjuryStacking
from service.rules.model import Model
from service.rules.tables import table

__all__ = ["INJURIES", "Injury", "InjuryInfo", "injury_of", "penalty_of"]


class Injury(StrEnum):
    MINOR = "minor"
    MODERATE = "moderate"
    SEVERE = "severe"
    GRIEVOUS = "grievous"


class InjuryInfo(Model):
    """One row of the injury table: the margins it spans and the penalty per d6 it leaves.
    Its bands are not the degree-of-success bands ('Moderate' is 4-6 here, 4-10 there)."""

    injury: Injury
    low: int
    high: int | None
    penalty_per_die: int
    source: str


INJURIES = table(__name__, "injuries", InjuryInfo)

_PENALTY = {row.injury: row.penalty_per_die for row in INJURIES}


def injury_of(margin: int) -> Injury:
    """The injury of a hit by `margin` (attack - defence >= 0; a tie is a Minor hit)."""
    if margin < 0:
        raise ValueError("a miss inflicts no injury")
    return next(row.injury for row in INJURIES if row.high is None or margin <= row.high)


def penalty_of(injuries: Sequence[Injury], stacking: InjuryStacking) -> int:
    """What an injured character subtracts from each d6 (S:L201): the worst injury's penalty
    by default, or the sum of all of them (S-A19(iii))."""
    penalties = [_PENALTY[i] for i in injuries]
    if stacking is InjuryStacking.SUM:
        return sum(penalties)
    return max(penalties, default=0)
