"""The 4SIGHT manifestations (S:L87-103, S:L140-148): the catalogue and how each one acts."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "AUTOMATIC",
    "MANIFESTATIONS",
    "Control",
    "Manifestation",
    "ManifestationInfo",
    "recovery",
]

REST_HOURS = 24  # "until they have had a chance to rest for a full 24 hours" (S:L140)


class Manifestation(StrEnum):
    SIXTH_SENSE = "sixth_sense"
    ANTICIPATORY_DEADEYE = "anticipatory_deadeye"
    REDUCTIVE_EFFICIENCY = "reductive_efficiency"
    ACCELERATED_COMPUTATION = "accelerated_computation"
    CONCLUSORY_EMPATHY = "conclusory_empathy"
    DEEP_SIGHT = "deep_sight"
    PRECOGNITIVE_FLARE = "precognitive_flare"
    CUSTOM = "custom"


class Control(StrEnum):
    """Who decides that a manifestation acts on a check."""

    DECLARED = "declared"  # the player declares its use before rolling (S:L140)
    ALWAYS = "always"  # Deep Sight acts on every check (S:L144)
    GM_SECRET_ROLL = "gm_secret_roll"  # Precognitive Flare: the GM's hidden d6 (S:L148)


class ManifestationInfo(Model):
    """One manifestation of the catalogue."""

    manifestation: Manifestation
    name: str
    applies_when: str
    control: Control
    adverse_risk: bool
    source: str


# Deep Sight and Precognitive Flare act without being declared.
AUTOMATIC = frozenset({Manifestation.DEEP_SIGHT, Manifestation.PRECOGNITIVE_FLARE})

MANIFESTATIONS = table(
    __name__, "manifestations", ManifestationInfo, covers=("4sight.manifestation_catalog",)
)


class RecoveryInput(Model):
    """Rest taken since an adverse episode."""

    hours_rested: Annotated[float, Field(ge=0, le=100_000)] = Field(
        description="Hours of full rest since the episode (whether interrupted rest counts is "
        "the GM's call)."
    )


class Recovery(Model):
    available: bool = Field(description="Whether the manifestations are back.")
    hours_remaining: float


@operation(
    name="manifestation-recovery",
    kind=Kind.CALCULATION,
    covers=("4sight.manifestation_recovery",),
    example={"hours_rested": 8},
)
def recovery(request: RecoveryInput) -> Recovery:
    """A character who suffered an adverse episode loses access to their manifestation until
    they have rested a full 24 hours (S:L140)."""
    remaining = max(0.0, REST_HOURS - request.hours_rested)
    return Recovery(available=remaining == 0, hours_remaining=remaining)
