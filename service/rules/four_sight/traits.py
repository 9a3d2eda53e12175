"""The six traits (S:L51-67): what they measure, their bounds, and which one a check uses."""

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import Model

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


TRAITS = (
    TraitInfo(trait=Trait.STRENGTH, name="Strength", measures="raw, muscular power",
              used_for=["lifting a heavy object", "breaking down a door",
                        "leaping across a chasm"], source="S:L55"),
    TraitInfo(trait=Trait.DEXTERITY, name="Dexterity",
              measures="reflexes and hand-eye coordination",
              used_for=["dodging an incoming attack", "navigating a labyrinth of eyebeam triggers",
                        "attacking and defending in combat"], source="S:L57, S:L189"),
    TraitInfo(trait=Trait.CONSTITUTION, name="Constitution",
              measures="overall health and fortitude",
              used_for=["fending off poison or disease", "resisting going into shock",
                        "staying up after a grievous injury"], source="S:L59, S:L199"),
    TraitInfo(trait=Trait.INTELLIGENCE, name="Intelligence", measures="reasoning and memory",
              used_for=["solving a riddle", "breaking a cryptogram", "recalling an obscure fact"],
              source="S:L61"),
    TraitInfo(trait=Trait.WISDOM, name="Wisdom", measures="resolve and willpower",
              used_for=["resisting interrogation", "marching on past exhaustion",
                        "resisting the charms of an alluring femme fatale"], source="S:L63"),
    TraitInfo(trait=Trait.CHARISMA, name="Charisma", measures="likeability and persuasiveness",
              used_for=["fast-talking past a posted sentry",
                        "convincing a local peasant to provide shelter"], source="S:L65"),
)  # fmt: skip

_ORDER = tuple(Trait)


def select_trait(applicable: Sequence[TraitScore]) -> TraitScore:
    """The trait a check adds: the higher score when the GM rules several apply (S:L136); a
    tie goes to the first in the canonical order Strength ... Charisma (catalogue A3.3)."""
    return max(applicable, key=lambda t: (t.score, -_ORDER.index(t.trait)))
