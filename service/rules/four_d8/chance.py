"""Ease, abilities and the chance of success (D:L3-9, L11-42)."""

from typing import Annotated

from pydantic import Field, computed_field, field_validator

from service.rules.four_d8.options import EnergyCap, FourD8Options
from service.rules.four_d8.tables import EASE_MEANINGS, band
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "MAX_EASE",
    "NECESSARY_ABILITY_PENALTY",
    "AbilityBonus",
    "ChanceInput",
    "ChanceResult",
    "NecessaryAbility",
    "chance",
    "chance_of_success",
]

MAX_EASE = 32
#: "There is no lowest value" (D:L16); the schema still bounds it so input stays small.
MIN_EASE = -64
NECESSARY_ABILITY_PENALTY = -8

Bonus = Annotated[int, Field(ge=-32, le=32)]
AbilityName = Annotated[str, Field(min_length=1, max_length=40)]


class AbilityBonus(Model):
    """A bonus the player claims, and the referee's ruling on combining it (D:L29-33)."""

    ability: AbilityName = Field(examples=["THIEVERY"])
    bonus: Bonus
    combinable: bool = Field(
        default=True,
        description=(
            "The referee's acid test (D:L31): can this ability join the one action? "
            "If not, it needs a separate roll and adds nothing here."
        ),
    )


class NecessaryAbility(Model):
    """An ability the referee rules necessary (D:L37-42)."""

    ability: AbilityName
    is_occupation_bonus_skill: bool = Field(
        default=False, description="One of the character's occupation's bonus skills (D:L42)."
    )
    has_positive_bonus: bool | None = Field(
        default=None,
        description=(
            "Whether the character has a positive bonus in it (D:L41). Null: read it from "
            "'ability_bonuses' (a claimed bonus above 0 under the same name)."
        ),
    )


class ChanceInput(Model):
    """The inputs of the chance of success."""

    ease: int = Field(
        ge=MIN_EASE,
        le=MAX_EASE,
        description="The referee's ease: at most 32, no lowest value in the rules (D:L5, L16).",
        examples=[20],
    )
    ability_bonuses: tuple[AbilityBonus, ...] = Field(default=(), max_length=12)
    energy: int | None = Field(
        default=None,
        ge=0,
        le=64,
        description="The character's energy: a limit on the total ability bonuses (D:L31).",
    )
    necessary_ability: NecessaryAbility | None = None
    other_modifiers: tuple[Bonus, ...] = Field(
        default=(),
        max_length=8,
        description="Further modifiers the referee applies (D:L35).",
    )
    options: FourD8Options = Field(default=FourD8Options())

    @field_validator("ability_bonuses")
    @classmethod
    def _distinct_abilities(cls, bonuses: tuple[AbilityBonus, ...]) -> tuple[AbilityBonus, ...]:
        names = [b.ability.casefold() for b in bonuses]
        if len(names) != len(set(names)):
            raise ValueError("each ability may be claimed once")
        return bonuses


class ChanceResult(Model):
    """How the chance of success was reached."""

    ease: int
    ease_meaning: str
    ability_bonus: int = Field(description="Sum of the combinable bonuses, after the energy cap.")
    energy_capped: bool
    separate_rolls: list[str] = Field(
        description="Abilities the referee ruled not combinable: each needs its own roll."
    )
    other_modifiers: int
    necessary_ability_penalty: int
    chance: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def over_32(self) -> bool:
        """A chance of 33 or more lets the player choose how to roll (D:L7, L51-54)."""
        return self.chance > MAX_EASE


def _ability_bonus(request: ChanceInput) -> tuple[int, bool]:
    """Sum the combinable bonuses; energy caps them (D:L31, D-A13)."""
    bonuses = [b.bonus for b in request.ability_bonuses if b.combinable]
    if request.energy is None:
        return sum(bonuses), False
    if request.options.energy_cap_applies_to is EnergyCap.NET_SUM:
        total = sum(bonuses)
        return min(total, request.energy), total > request.energy
    positive = sum(b for b in bonuses if b > 0)
    negative = sum(b for b in bonuses if b < 0)
    return min(positive, request.energy) + negative, positive > request.energy


def _necessary_penalty(request: ChanceInput) -> int:
    """-8 unless the character has a positive bonus in the ability or it is an occupation
    bonus skill (D:L40-42). A bonus of 0 or less does not exempt (D-A14)."""
    need = request.necessary_ability
    if need is None or need.is_occupation_bonus_skill:
        return 0
    has_positive = need.has_positive_bonus
    if has_positive is None:
        name = need.ability.casefold()
        has_positive = any(
            b.bonus > 0 and b.ability.casefold() == name for b in request.ability_bonuses
        )
    return 0 if has_positive else NECESSARY_ABILITY_PENALTY


def chance_of_success(request: ChanceInput) -> ChanceResult:
    """Ease plus ability bonuses plus modifiers, less 8 for a missing necessary ability."""
    bonus, capped = _ability_bonus(request)
    modifiers = sum(request.other_modifiers)
    penalty = _necessary_penalty(request)
    return ChanceResult(
        ease=request.ease,
        ease_meaning=band(EASE_MEANINGS, request.ease),
        ability_bonus=bonus,
        energy_capped=capped,
        separate_rolls=[b.ability for b in request.ability_bonuses if not b.combinable],
        other_modifiers=modifiers,
        necessary_ability_penalty=penalty,
        chance=request.ease + bonus + modifiers + penalty,
    )


@operation(
    name="chance-of-success",
    kind=Kind.CALCULATION,
    covers=(
        "4d8.chance_of_success",
        "4d8.ease.validate",
        "4d8.ability_combination",
        "4d8.necessary_ability",
    ),
    example={"ease": 12, "other_modifiers": [3, -1]},
)
def chance(request: ChanceInput) -> ChanceResult:
    """The chance of success: ease + combinable ability bonuses (capped by energy) + other
    modifiers, -8 when a necessary ability is lacking (D:L6, L29-42).

    Ease above 32 is rejected (D:L16); the chance itself may exceed 32 through bonuses.
    """
    return chance_of_success(request)
