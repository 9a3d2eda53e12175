"""Affinities and specialties (S:L69-85): the catalogue, and the dice they add to a check."""

from enum import StrEnum

from service.rules.model import Model

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


AFFINITIES = (
    AffinityInfo(affinity=Affinity.COMBAT, name="Combat", source="S:L75",
                 specialties=["archaic ranged weapons", "firearms", "melee weapons",
                              "hand-to-hand combat", "defensive tactics"]),
    AffinityInfo(affinity=Affinity.ESPIONAGE, name="Espionage", source="S:L77",
                 specialties=["surveillance", "stealth", "cryptography", "demolitions",
                              "security bypass"]),
    AffinityInfo(affinity=Affinity.SOCIAL_SKILLS, name="Social Skills", source="S:L79",
                 specialties=["interrogation", "undercover work", "carousing", "persuasion",
                              "customs/etiquette"]),
    AffinityInfo(affinity=Affinity.SCIENCES, name="Sciences", source="S:L81",
                 specialties=["linguistics", "chemistry", "medicine", "mathematics/computers",
                              "physics"]),
    AffinityInfo(affinity=Affinity.PHYSICAL_SKILLS, name="Physical Skills", source="S:L83",
                 specialties=["driving/ground vehicles", "piloting/air vehicles", "endurance",
                              "athletics", "swimming"]),
)  # fmt: skip

# The combat specialty that adds two dice to every defence (S:L189).
DEFENSIVE_TACTICS = AFFINITIES[0].specialties[4]

_DICE = {Expertise.NONE: 0, Expertise.AFFINITY: 1, Expertise.SPECIALTY: 2}


def expertise_dice(expertise: Expertise) -> int:
    """One d6 for an affinity, two for a specialty (S:L71, S:L138)."""
    return _DICE[expertise]
