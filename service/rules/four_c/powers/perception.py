"""Powers of the senses (C:L792-794, C:L834-838): Supersense's heightened sense and Protected
Sense's immunity (catalogue 3.6)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.powers.core import greater_of
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["ProtectableSense", "protected_sense", "supersense"]


class SupersenseInput(Model):
    rv: RankValue = Field(description="Supersense's Rank Value.")
    awareness: RankValue
    sense: Annotated[str, Field(min_length=1, max_length=60)] = Field(
        default="supersight",
        description="The sense: superhearing, supersight, or a new one the GM approves "
        "(echolocation, infravision).",
    )


class Supersense(Model):
    sense: str
    sense_rv: int = Field(description="Rolls using the sense: the greater of the power and "
                          "Awareness +10.")  # fmt: skip
    source: str = Field(description="'power' or 'trait', whichever gave the Rank Value.")


@operation(
    name="power/supersense",
    kind=Kind.CALCULATION,
    covers=("4c.power.supersense",),
    example={"rv": 30, "awareness": 10, "sense": "echolocation"},
)
def supersense(request: SupersenseInput) -> Supersense:
    """One extraordinary sense, such as superhearing or supersight, or with the GM's approval
    a new one (a blind character's echolocation sees in darkness without penalty): rolls made
    with it use the greater of the power and Awareness +10 (C:L834-838)."""
    rv = greater_of(request.rv, request.awareness)
    source = "power" if rv == request.rv else "trait"
    return Supersense(sense=request.sense, sense_rv=rv, source=source)


class ProtectableSense(StrEnum):
    SIGHT = "sight"
    HEARING = "hearing"
    SMELL = "smell"
    TASTE = "taste"
    TOUCH = "touch"
    SUPERSENSE = "supersense"


class ProtectedSenseInput(Model):
    rv: RankValue = Field(description="Protected Sense's Rank Value.")
    sense: ProtectableSense = Field(description="The sense protected; touch cannot be.")
    attack_rv: RankValue = Field(description="The Rank Value of the attack or damage.")


class ProtectedSense(Model):
    sense: ProtectableSense
    immune: bool = Field(description="The attack's Rank Value is at most the power's.")


@operation(
    name="power/protected-sense",
    kind=Kind.LOOKUP,
    covers=("4c.power.protected_sense",),
    example={"rv": 30, "sense": "sight", "attack_rv": 30},
)
def protected_sense(request: ProtectedSenseInput) -> ProtectedSense:
    """One sense, normal or a Supersense, is immune to damage or attacks of a Rank Value
    equal to or less than the power's; touch cannot be protected (C:L792-794)."""
    if request.sense is ProtectableSense.TOUCH:
        raise InputError(("sense",), "touch, though a sense, cannot be protected (C:L794)")
    return ProtectedSense(sense=request.sense, immune=request.attack_rv <= request.rv)
