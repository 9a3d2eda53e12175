"""4SIGHT: a d6 target-number game with exploding combat dice and precognitive multipliers
(seed 000, catalogue 4sight-4d8.md part A). Seed lines are cited as S:L<n>."""

from service.rules.registry import System

__all__ = ["SYSTEM"]

SYSTEM = System(slug="four-sight", title="4SIGHT", seed="000_8011b9f768e2ac0d.txt", lines="S")
