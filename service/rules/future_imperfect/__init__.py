"""Future Imperfect, chapter 3 (seed 002, catalogue future-imperfect.md): actions rolled as
pools written `IV-2` or `2(4)`, a column of die type and a row of dice; a check keeps the highest
die, maxima explode, each 5 over the TN is a bump. Seed lines are cited as FI:L<n>. Each concept
is a subpackage: `core` holds the pools and the check everything else builds on."""

from service.rules.registry import System

__all__ = ["SYSTEM"]

SYSTEM = System(
    slug="future-imperfect",
    title="Future Imperfect",
    seed="002_cd9ce5be2aa246b3.txt",
    lines="FI",
)
