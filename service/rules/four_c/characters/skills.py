"""A 4C character's skills: how many (C:L312-322), the Row Steps they give (C:L324-326,
C:L333-335, C:L716-718) and contacts taken in place of skills (C:L328-331)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.characters.options import SkillOptions, SkillStacking
from service.rules.four_c.characters.origins import skills_after, table_cost
from service.rules.four_c.characters.percent import on_table, roll_on
from service.rules.four_c.characters.tables import SKILL_COUNTS, Origin
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["SLOTS", "skill_distribution"]

Name = Annotated[str, Field(min_length=1, max_length=60)]
Tag = Annotated[str, Field(min_length=1, max_length=40)]


class SkillCountInput(Model):
    origin: Origin | None = Field(default=None, description="An advanced origin (C:L175).")


class SkillsCounted(Model):
    roll: int
    rolled: int
    skills: int = Field(description="After the origin: a Skilled Human gains three.")


def skill_distribution(origin: Origin | None) -> Distribution[int]:
    return on_table(SKILL_COUNTS, lambda row: skills_after(origin, row.skills))


class SkillCountOdds(Model):
    skills: list[OutcomeProbability]
    mean: Exact


def skill_count_odds(request: SkillCountInput) -> SkillCountOdds:
    """1 20%, 2 40%, 3 30%, 4 10%, mean 2.3; a Skilled Human's 4-7 (catalogue 5.2)."""
    found = skill_distribution(request.origin)
    return SkillCountOdds(skills=outcome_table(found), mean=exact(found.mean()))


@operation(
    name="skills/count/roll",
    kind=Kind.GENERATION,
    covers=("4c.skills.count.roll",),
    odds=skill_count_odds,
    cost=table_cost,
    example={"dice": {"values": [6, 10]}},
)
def skills_count(request: SkillCountInput, dice: Dice) -> SkillsCounted:
    """Roll d% for the number of skills: 00-19 1, 20-59 2, 60-89 3, 90-99 4 (C:L312-322)."""
    roll, row = roll_on(SKILL_COUNTS, dice, "skills")
    return SkillsCounted(
        roll=roll, rolled=row.skills, skills=skills_after(request.origin, row.skills)
    )


class SkillKind(StrEnum):
    NORMAL = "normal"
    ADVANCED = "advanced"
    IMPROVED = "improved"


#: Row Steps by kind: a skill +1 (C:L326), an advanced skill +2 (C:L335), the one skill
#: Improved Skills raises +3 (C:L718).
BONUS = {SkillKind.NORMAL: 1, SkillKind.ADVANCED: 2, SkillKind.IMPROVED: 3}
#: Skill slots by kind: an advanced skill takes two (C:L335).
SLOTS = {SkillKind.NORMAL: 1, SkillKind.ADVANCED: 2, SkillKind.IMPROVED: 1}


class Skill(Model):
    name: Name
    kind: SkillKind = SkillKind.NORMAL
    tags: tuple[Tag, ...] = Field(
        default=(), max_length=10, description="Actions it fits besides its name."
    )


class BonusInput(Model):
    skills: tuple[Skill, ...] = Field(max_length=20)
    action: tuple[Tag, ...] = Field(
        min_length=1,
        max_length=10,
        description="The action's tags: a skill named or tagged with one of them applies.",
    )
    master_table: bool = Field(
        default=True,
        description="The roll is on the Master Table, the only rolls skills help (C:L326, A-74).",
    )
    options: SkillOptions = Field(default=SkillOptions())


class Bonus(Model):
    row_steps: int
    applied: list[str] = Field(description="The skills that fit the action.")
    slots: int = Field(description="Skill slots the list takes: an advanced skill two.")


def _fits(skill: Skill, action: tuple[str, ...]) -> bool:
    wanted = {a.casefold() for a in action}
    return bool(wanted & {skill.name.casefold(), *(t.casefold() for t in skill.tags)})


@operation(
    name="skills/bonus",
    kind=Kind.CALCULATION,
    covers=("4c.skills.bonus",),
    example={
        "skills": [
            {"name": "Acrobatics"},
            {"name": "Martial Arts", "kind": "advanced", "tags": ["melee"]},
        ],
        "action": ["melee"],
    },
)
def skills_bonus(request: BonusInput) -> Bonus:
    """A skill gives +1 Row Step on a Master Table roll for an action it fits (C:L326), an
    advanced skill +2 for two slots (C:L333-335), the skill Improved Skills raises +3
    (C:L718); several that fit give the highest (A-30)."""
    fitting = [s for s in request.skills if _fits(s, request.action)]
    bonuses = [BONUS[s.kind] for s in fitting] if request.master_table else []
    summed = request.options.skill_stacking is SkillStacking.SUM
    steps = sum(bonuses) if summed else max(bonuses, default=0)
    return Bonus(
        row_steps=steps,
        applied=[s.name for s in fitting],
        slots=sum(SLOTS[s.kind] for s in request.skills),
    )


class Contact(Model):
    name: Name
    description: Annotated[str, Field(max_length=200)] = ""


class ContactsInput(Model):
    skills: Annotated[int, Field(ge=0, le=40)] = Field(description="Skill slots the character has.")
    contacts: tuple[Contact, ...] = Field(min_length=1, max_length=40)


class Contacts(Model):
    skills: int = Field(description="Skill slots left.")
    contacts: list[Contact]
    note: str


@operation(
    name="skills/contacts",
    kind=Kind.CALCULATION,
    covers=("4c.skills.contacts",),
    example={"skills": 3, "contacts": [{"name": "Officer Ruiz", "description": "beat cop"}]},
)
def skills_contacts(request: ContactsInput) -> Contacts:
    """A contact, a friend the character can call on, takes the place of one skill, with
    the GM's approval (advanced option, C:L328-331)."""
    if len(request.contacts) > request.skills:
        raise InputError(
            ("contacts",),
            f"{len(request.contacts)} contacts need as many skill "
            f"slots; the character has {request.skills}",
        )
    return Contacts(
        skills=request.skills - len(request.contacts),
        contacts=list(request.contacts),
        note="Each contact must be cleared with the GM (C:L331).",
    )
