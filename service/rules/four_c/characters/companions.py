"""Second characters (C:L484-486, C:L808-810): an Alter-Ego, a Skilled Human with no powers
and no primary trait over 30, and a Sidekick, held to its parent's traits and half its powers,
rounded up; each rolled as `sheet.py` rolls a character, within those limits."""

from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_c.characters.sheet import (
    ALTER_EGO_CAP,
    SHEET_ROLLED,
    Limits,
    Rules,
    SecondCharacter,
    SheetOdds,
    alter_ego_rules,
    roll_alter_ego,
    roll_character,
    sheet_cost,
    sheet_odds,
    sidekick_limits,
)
from service.rules.four_c.characters.tables import Origin, PrimaryTrait
from service.rules.four_c.core.ranks import RankValue
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["alter_ego", "sidekick"]


class ParentTraits(Model):
    melee: RankValue
    coordination: RankValue
    brawn: RankValue
    fortitude: RankValue
    intellect: RankValue
    awareness: RankValue
    willpower: RankValue


class Parent(Model):
    traits: ParentTraits
    power_count: Annotated[int, Field(ge=1, le=12)] = Field(description="Magic counts as one.")


class AlterEgoInput(Rules):
    parent: Parent | None = Field(
        default=None, description="The character with the power; no limit depends on it."
    )


class SidekickInput(Rules):
    parent: Parent


def alter_ego_odds(request: AlterEgoInput) -> SheetOdds:
    """A Skilled Human with traits capped at 30 and no powers."""
    return sheet_odds(
        alter_ego_rules(request),
        Limits(origin=Origin.SKILLED_HUMAN, caps=(ALTER_EGO_CAP,) * 7),
        no_powers=True,
    )


def _caps(parent: Parent) -> tuple[int, ...]:
    return tuple(getattr(parent.traits, t.value) for t in PrimaryTrait)


def sidekick_odds(request: SidekickInput) -> SheetOdds:
    """A character rolled as any other, traits held to the parent's and powers to half the
    parent's, rounded up."""
    limits = sidekick_limits(_caps(request.parent), request.parent.power_count)
    return sheet_odds(request, limits, no_powers=False)


PARENT = {
    "traits": {
        "melee": 30,
        "coordination": 20,
        "brawn": 40,
        "fortitude": 10,
        "intellect": 6,
        "awareness": 20,
        "willpower": 3,
    },
    "power_count": 3,
}


@operation(
    name="power/alter-ego/generate",
    kind=Kind.GENERATION,
    covers=("4c.power.alter_ego.generate",),
    odds=alter_ego_odds,
    cost=sheet_cost,
    example={"parent": PARENT, "dice": {"seed": 4}},
)
def alter_ego(request: AlterEgoInput, dice: Dice) -> SecondCharacter:
    """Alter-Ego: a second character, a Skilled Human with no powers (no origin or power
    rolls), no primary trait over 30, a higher roll being reduced to 30 (C:L484-486)."""
    return roll_alter_ego(request, dice)


@operation(
    name="power/sidekick/generate",
    kind=Kind.GENERATION,
    covers=("4c.power.sidekick.generate",),
    odds=sidekick_odds,
    cost=sheet_cost,
    rolled=SHEET_ROLLED,
    example={"parent": PARENT, "dice": {"seed": 5}},
)
def sidekick(request: SidekickInput, dice: Dice) -> SecondCharacter:
    """Sidekick: a second character with no primary trait over the main character's and at
    most half its powers, rounded up; what breaks either is reduced (C:L808-810): traits
    to the parent's, the last rolled powers dropped (A-62)."""
    limits = sidekick_limits(_caps(request.parent), request.parent.power_count)
    return roll_character(request, dice, limits, no_powers=False)
