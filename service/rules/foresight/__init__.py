"""FORESIGHT: SC = Score x Ease Factor, one D100 roll read as a quality rating (seed 004,
catalogue foresight-1.md and foresight-2.md). Seed lines are cited as F:L<n>. Each concept is
a subpackage: `resolution` holds the rule that characters, combat and mortality build on."""

from service.rules.registry import System

__all__ = ["SYSTEM"]

SYSTEM = System(slug="foresight", title="FORESIGHT", seed="004_0f2ce8cae6aa3515.txt", lines="F")
