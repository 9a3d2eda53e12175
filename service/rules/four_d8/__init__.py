"""Game Rules for a 4D8 System: roll four d8 under a chance of success; the dice pattern
gives the degree of success (seed 003, catalogue 4sight-4d8.md part B)."""

from service.rules.four_d8.chance import MAX_EASE, chance
from service.rules.four_d8.check import check
from service.rules.four_d8.degree import degree
from service.rules.four_d8.tables import tables
from service.rules.registry import System

__all__ = ["SYSTEM"]

SYSTEM = System(
    slug="four-d8",
    title="Game Rules for a 4D8 System",
    seed="003_e1158ff398be9115.txt",
    operations=(check, chance, degree),
    tables=tables(),
    # Every ease a referee can set that the rules distinguish (below 1 nothing can succeed).
    standard_odds=tuple((check, {"ease": ease}) for ease in range(-8, MAX_EASE + 1)),
)
