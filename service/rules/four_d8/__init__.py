"""Game Rules for a 4D8 System: roll four d8 under a chance of success; the dice pattern
gives the degree of success (seed 003, catalogue 4sight-4d8.md part B). Seed lines are cited
as D:L<n>."""

from service.rules.registry import System

__all__ = ["SYSTEM"]

SYSTEM = System(
    slug="four-d8",
    title="Game Rules for a 4D8 System",
    seed="003_e1158ff398be9115.txt",
    lines="D",
)
