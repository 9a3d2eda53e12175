"""Affinities and specialties (S:L69-85): the catalogue, and the dice they add to a check."""

from enum import StrEnum

from service.rules.model import Model
from service.rules.tables import table

__all__ = [
    "AFFINITIES",
    "DEFENSIVE_TACTICS",
    "Affinity",
    "AffinityInfo",
    "Expertise",
    "expertise_dice",
]


class Expertise(StrEnum):
    """The best expertise the GM ruled applicable: never both, never two (S:L138)."""

    NONE = "none"
    AFFINITY = "affinity"
    SPECIALTY = "specialty"


class Affinity(StrEnum):
    COMBAT = "combat"
    ESPIONAGE = "espionage"
    SOCIAL_SKILLS = "social_skills"
    SCIENCES = "sciences"
    PHYSICAL_SKILLS = "physical_skills"


class AffinityInfo(Model):
    """One affinity of the catalogue and the five specialties within it."""

    affinity: Affinity
    name: str
    specialties: list[str]
    source: str


AFFINITIES = table(__name__, "expertise", AffinityInfo, covers=("4sight.expertise_catalog",))

# The combat specialty that adds two dice to every defence (S:L189).
DEFENSIVE_TACTICS = AFFINITIES[0].specialties[4]

_DICE = {Expertise.NONE: 0, Expertise.AFFINITY: 1, Expertise.SPECIALTY: 2}


def expertise_dice(expertise: Expertise) -> int:
    """One d6 for an affinity, two for a specialty (S:L71, S:L138)."""
    return _DICE[expertise]
