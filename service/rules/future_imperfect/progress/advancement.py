"""Bounty and advancement (FI:L749-759): chips turned into bounty, the session's bounty shared
by the crew, and what a skill level, a trait's training and a trait's die cost."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.progress.tables import CHIPS
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["convert", "share", "skill", "trait_die", "trait_training"]

Points = Annotated[int, Field(ge=0, le=1_000_000)]
#: Trait dice from d4 up (FI:L759, catalogue A-02).
DIE_CHAIN = (4, 6, 8, 10, 12)


class RaiseLimit(StrEnum):
    PER_SKILL_PER_ARC = "per_skill_per_arc"
    PER_CHARACTER_PER_ARC = "per_character_per_arc"


class AdvancementOptions(Model):
    """Readings of the chapter for advancement; every default is the catalogue's."""

    skill_raise_limit: RaiseLimit = option(
        RaiseLimit.PER_SKILL_PER_ARC,
        ambiguity="A-79",
        description="'You can only raise skill once per story arc' (FI:L755): each skill once "
        "an arc, or one skill raise a character an arc.",
    )


class Chips(Model):
    white: Annotated[int, Field(ge=0, le=1000)] = 0
    red: Annotated[int, Field(ge=0, le=1000)] = 0
    blue: Annotated[int, Field(ge=0, le=1000)] = 0


class Bounty(Model):
    bounty: int


@operation(
    name="bounty/convert",
    kind=Kind.CALCULATION,
    covers=("fi.bounty.convert",),
    example={"white": 2, "red": 1, "blue": 1},
)
def convert(request: Chips) -> Bounty:
    """With the Master's approval, chips become bounty at the end of a session: blue 3, red 2,
    white 1 (FI:L749)."""
    return Bounty(bounty=sum(row.bounty * getattr(request, row.colour) for row in CHIPS))


class ShareInput(Model):
    bounty: Points = Field(description="The bounty the Master gives this time.")
    crew: Annotated[int, Field(ge=1, le=100)]
    left_in_pot: Points = Field(
        default=0,
        description="Points left in the pot by the last reward (its left_in_pot): they stay "
        "there until the group's next reward (FI:L753), and are shared with it.",
    )


class Shared(Model):
    each: int
    left_in_pot: int = Field(
        description="Leftover points stay in the pot (FI:L753): the next reward's left_in_pot."
    )


@operation(
    name="bounty/share",
    kind=Kind.CALCULATION,
    covers=("fi.bounty.share",),
    example={"bounty": 20, "crew": 3},
)
def share(request: ShareInput) -> Shared:
    """Every Hero in the crew gets an equal share of the session's bounty; leftover points
    stay in the pot until the next time the group gets a reward (FI:L753, A-78), so the
    points the last reward left there are shared with this one."""
    each, left = divmod(request.bounty + request.left_in_pot, request.crew)
    return Shared(each=each, left_in_pot=left)


class Cost(Model):
    level: int = Field(description="The new level, dice or die sides.")
    cost: int
    bounty_left: int


def _bought(level: int, cost: int, bounty: int) -> Cost:
    if cost > bounty:
        raise InputError(("bounty",), f"this costs {cost} bounty points; there are {bounty}")
    return Cost(level=level, cost=cost, bounty_left=bounty - cost)


Name = Annotated[str, Field(min_length=1, max_length=60)]


class SkillInput(Model):
    skill: Name
    level: Annotated[int, Field(ge=0, le=19)] = Field(description="The skill's level now.")
    bounty: Points
    raised_this_arc: tuple[Name, ...] = Field(
        default=(), max_length=50, description="The character's skills raised this story arc."
    )
    options: AdvancementOptions = Field(default=AdvancementOptions())


@operation(
    name="advancement/skill",
    kind=Kind.CALCULATION,
    covers=("fi.advancement.skill",),
    example={"skill": "shooting", "level": 3, "bounty": 6},
)
def skill(request: SkillInput) -> Cost:
    """A skill level costs the new level: shooting 3 to 4 costs 4 bounty points; once per
    story arc, one level at a time (FI:L755)."""
    raised = {name.casefold() for name in request.raised_this_arc}
    per_skill = request.options.skill_raise_limit is RaiseLimit.PER_SKILL_PER_ARC
    if (request.skill.casefold() in raised) if per_skill else raised:
        raise InputError(("raised_this_arc",), "a skill is raised once per story arc (FI:L755)")
    return _bought(request.level + 1, request.level + 1, request.bounty)


class TrainingInput(Model):
    dice: Annotated[int, Field(ge=1, le=4)] = Field(description="The trait's dice now (its row).")
    bounty: Points


@operation(
    name="advancement/trait-training",
    kind=Kind.CALCULATION,
    covers=("fi.advancement.trait_training",),
    example={"dice": 4, "bounty": 12},
)
def trait_training(request: TrainingInput) -> Cost:
    """A trait's training costs twice the new level: 4d6 Strength to 5d6 costs 10 (FI:L757)."""
    new = request.dice + 1
    return _bought(new, 2 * new, request.bounty)


class DieInput(Model):
    die_sides: Annotated[int, Field(ge=4, le=10)] = Field(description="The trait's die now.")
    bounty: Points


@operation(
    name="advancement/trait-die",
    kind=Kind.CALCULATION,
    covers=("fi.advancement.trait_die",),
    example={"die_sides": 4, "bounty": 20},
)
def trait_die(request: DieInput) -> Cost:
    """A trait's die costs three times the new die: d4 to d6 costs 18 (FI:L759)."""
    if request.die_sides not in DIE_CHAIN:
        raise InputError(("die_sides",), "a trait's die is a d4, d6, d8, d10 or d12")
    new = DIE_CHAIN[DIE_CHAIN.index(request.die_sides) + 1]
    return _bought(new, 3 * new, request.bounty)
