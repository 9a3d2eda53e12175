"""What a character has rather than does: Astoundingly Wealthy (C:L500-502), Celebrity
(C:L512-514) and Improved Skills (C:L716-718), "not a power" results applied at creation;
Headquarters (C:L699-714), a guide; and Magic (C:L724-728)."""

from typing import Annotated

from pydantic import Field

from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.powers.core import BandRow
from service.rules.model import InputError, Model
from service.rules.registry import Kind, Table, operation
from service.rules.tables import table

__all__ = ["HEADQUARTERS", "astoundingly_wealthy", "celebrity", "improved_skills", "magic"]


Repute = Annotated[int, Field(ge=0, le=1000)]


class WealthInput(Model):
    lifestyle: RankValue
    repute: Repute


class Standing(Model):
    lifestyle: int
    repute: int


@operation(
    name="power/astoundingly-wealthy",
    kind=Kind.CALCULATION,
    covers=("4c.power.astoundingly_wealthy",),
    example={"lifestyle": 10, "repute": 17},
)
def astoundingly_wealthy(request: WealthInput) -> Standing:
    """Not a power: Lifestyle +50 and Repute +20 (C:L500-502)."""
    return Standing(lifestyle=request.lifestyle + 50, repute=request.repute + 20)


class CelebrityInput(Model):
    repute: Repute = Field(description="Repute before the +30 of creation.")


class Celebrity(Model):
    repute: int
    repute_changes_doubled: bool = Field(
        description="Every later gain or loss is doubled: repute/adjust with celebrity=true."
    )
    secret_identity_allowed: bool


@operation(
    name="power/celebrity",
    kind=Kind.CALCULATION,
    covers=("4c.power.celebrity",),
    example={"repute": 17},
)
def celebrity(request: CelebrityInput) -> Celebrity:
    """Not a power: Repute +30; every later gain or loss of Repute is doubled, and the
    character cannot have a secret identity (C:L512-514)."""
    return Celebrity(repute=request.repute + 30, repute_changes_doubled=True,
                     secret_identity_allowed=False)  # fmt: skip


class SkillsInput(Model):
    skills: Annotated[int, Field(ge=0, le=20)] = Field(description="Skills the character has.")


class ImprovedSkills(Model):
    skills: int
    improved_skill_row_steps: int = Field(description="One skill's bonus becomes +3 RS.")


@operation(
    name="power/improved-skills",
    kind=Kind.CALCULATION,
    covers=("4c.power.improved_skills",),
    example={"skills": 2},
)
def improved_skills(request: SkillsInput) -> ImprovedSkills:
    """Not exactly a power: two bonus skills, and one skill's Row Step bonus becomes +3
    (C:L716-718)."""
    return ImprovedSkills(skills=request.skills + 2, improved_skill_row_steps=3)


class HeadquartersRow(BandRow):
    size_and_contents: str


#: A headquarters' possible size and contents by Rank Value: a rough guide, the GM approving;
#: it may be smaller, and over 50 reads 50 (C:L699-714, A-29).
HEADQUARTERS: Table[HeadquartersRow] = table(
    __name__, "headquarters", HeadquartersRow, covers=("4c.power.headquarters",)
)


class MagicInput(Model):
    magic_rv: RankValue
    spell: str = Field(
        min_length=1, max_length=60, description="The power the spell duplicates, by name."
    )
    spells_this_turn: Annotated[int, Field(ge=0, le=1)] = Field(
        default=0, description="Spells already cast this turn: one a turn (C:L726)."
    )


class Magic(Model):
    power: str
    rv: int = Field(description="The duplicated power works at the Magic Rank Value.")
    sole_power: bool


@operation(
    name="power/magic",
    kind=Kind.LOOKUP,
    covers=("4c.power.magic",),
    example={"magic_rv": 40, "spell": "Flight"},
)
def magic(request: MagicInput) -> Magic:
    """Magic, the sole power its character may have, casts one spell a turn duplicating any
    other power, working as that power at the Magic Rank Value (C:L724-728)."""
    if request.spells_this_turn:
        raise InputError(("spells_this_turn",), "one spell a turn: this turn's is cast")
    return Magic(power=request.spell, rv=request.magic_rv, sole_power=True)
