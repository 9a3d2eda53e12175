"""The six traits (S:L51-67): what they measure, their bounds, and which one a check uses."""

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["MAX_TRAIT", "MIN_TRAIT", "TRAITS", "Trait", "TraitInfo", "TraitScore", "select_trait"]

# No cap is stated (S-A03); the bounds only keep requests finite. NPCs may go below 0 (S:L67).
MIN_TRAIT = -20
MAX_TRAIT = 100


class Trait(StrEnum):
    STRENGTH = "strength"
    DEXTERITY = "dexterity"
    CONSTITUTION = "constitution"
    INTELLIGENCE = "intelligence"
    WISDOM = "wisdom"
    CHARISMA = "charisma"


class TraitInfo(Model):
    """One trait of the traits catalogue."""

    trait: Trait
    name: str
    measures: str
    used_for: list[str]
    source: str


class TraitScore(Model):
    """A trait the GM ruled applicable to a check, with the character's score in it."""

    trait: Trait
    score: Annotated[int, Field(ge=MIN_TRAIT, le=MAX_TRAIT)]


TRAITS = table(__name__, "traits", TraitInfo, covers=("4sight.traits_catalog",))

_ORDER = tuple(Trait)


def select_trait(applicable: Sequence[TraitScore]) -> TraitScore:
    """The trait a check adds: the higher score when the GM rules several apply (S:L136); a
    tie goes to the first in the canonical order Strength ... Charisma (catalogue A3.3)."""
    return max(applicable, key=lambda t: (t.score, -_ORDER.index(t.trait)))
