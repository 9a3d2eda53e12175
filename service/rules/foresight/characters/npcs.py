"""Instant NPCs (catalogue 3.G, F:L1188-1261): an NPC described in three words, "experienced
rugged detective": a competence sets the scores of each skill tier and of the attributes, an
archetype and any modifiers say which skills, attributes and fields those are; where sources
disagree, the best tier applies. A skill the words do not give is used unskilled from the
NPC's attributes (AMB-35)."""

import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.foresight.characters.skills import (
    SKILLS,
    AttributeValues,
    canonical_skill,
    formula_value,
)
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.foresight.resolution.scores import round_half_up, written
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["instant_npc"]

TIERS = ("primary", "secondary", "other")


class SkillsRow(Model):
    primary: tuple[str, ...]
    secondary: tuple[str, ...]
    other: tuple[str, ...]
    best: tuple[str, ...]
    fields: tuple[str, ...]


class ArchetypeRow(SkillsRow):
    archetype: str


class NpcModifierRow(SkillsRow):
    modifier: str


class NpcCompetenceRow(Model):
    competence: str
    primary: str
    secondary: str
    other: str = Field(description="'na': the tier has no score.")
    best: int
    others: int
    fields: str


ARCHETYPES = table(__name__, "npc_archetypes", ArchetypeRow)
COMPETENCES = table(__name__, "npc_competence", NpcCompetenceRow)
MODIFIERS = table(__name__, "npc_modifiers", NpcModifierRow)

Name = Annotated[str, Field(min_length=1, max_length=40)]


class Binding(Model):
    placeholder: Name = Field(description="Weapon, Driving, Vehicle, Heavy Weapon or Game.")
    skill: Name


#: A tier's score as the table writes it: '12', '20+1' (F:L233) or 'na'.
TierScore = Annotated[str, Field(max_length=4, pattern=r"^(na|[0-9]{1,2}|20\+[0-9])$")]
Score = Annotated[int, Field(ge=0, le=40)]


class CompetenceOverride(Model):
    """The GM's own scores for the competence chosen, in place of the printed row's (AMB-13:
    the book's 'educated competent detective' has Theory 15, F:L1245, where the table gives
    a competent secondary skill 12, F:L1233)."""

    primary: TierScore | None = None
    secondary: TierScore | None = None
    other: TierScore | None = None
    best: Score | None = None
    others: Score | None = None


class UnlistedSkillMode(StrEnum):
    UNSKILLED = "unskilled"
    ABSENT = "absent"


class NpcOptions(Model):
    """Readings of the book for instant NPCs; every default is the catalogue's."""

    unlisted_skill_mode: UnlistedSkillMode = option(
        UnlistedSkillMode.UNSKILLED,
        ambiguity="AMB-35",
        description="A skill the NPC's words do not give (or give at Inept's 'na'): 'unskilled' "
        "lists it in unlisted_skills at its formula from the NPC's attributes, used at -1 "
        "(F:L1635-1637), a free skill at level 0 without the -1 (F:L829); 'absent': the NPC "
        "has only the skills listed.",
    )


class NpcInput(Model):
    competence: Name
    archetype: Name
    modifiers: tuple[Name, ...] = Field(default=(), max_length=5)
    bindings: tuple[Binding, ...] = Field(
        default=(), max_length=10, description="A placeholder's skill; else its 'e.g.'."
    )
    competence_override: CompetenceOverride = Field(
        default=CompetenceOverride(),
        description="Scores replacing the printed competence row's (AMB-13): {'secondary': "
        "'15'} gives the book's educated competent detective Theory 15.",
    )
    options: NpcOptions = Field(default=NpcOptions())


class NpcSkill(Model):
    skill: str
    tier: str
    score: int = Field(description="'20+1' is kept as 23, the score it stands for.")
    written: str


class NpcAttribute(Model):
    attribute: Attribute
    score: int


class UnlistedSkill(Model):
    skill: str
    score: int = Field(description="The skill's formula from the NPC's attributes, rounded.")
    modifier: int = Field(description="-1 used unskilled (F:L1637); 0 for a free skill.")
    basis: str = Field(description="'unskilled', or 'free': every character has it (F:L829).")


class Npc(Model):
    description: str
    skills: list[NpcSkill]
    unlisted_skills: list[UnlistedSkill] = Field(
        description="The skill table's other skills as this NPC would use them (AMB-35)."
    )
    attributes: list[NpcAttribute]
    fields: list[str]
    field_depth: str


def _score(text: str) -> int | None:
    """'18' is 18; '20+n' is the score 20 + 3n stands for (F:L233); 'na' is none."""
    if text == "na":
        return None
    found = re.fullmatch(r"20\+(\d)", text)
    return 20 + 3 * int(found.group(1)) if found else int(text)


def _named(rows: Iterable[SkillsRow], key: str, name: str, loc: tuple[str | int, ...]) -> SkillsRow:
    for row in rows:
        if getattr(row, key).casefold() == name.casefold():
            return row
    raise InputError(loc, f"{name!r} is not in the table (F:L1198-1261, AMB-13)")


def _bound(skill: str, bindings: dict[str, str]) -> str:
    """A placeholder as bound, or its 'e.g.' skill, or itself."""
    found = re.fullmatch(r"(.+?) \(e\.g\. (.+)\)", skill)
    base, example = (found.group(1), found.group(2)) if found else (skill, None)
    return bindings.get(base.casefold()) or example or base


def _unlisted(listed: Iterable[str], attributes: list[NpcAttribute]) -> list[UnlistedSkill]:
    """Each skill of the table the NPC does not list, scored by its formula from the NPC's
    attributes with no level: a skill used unskilled takes -1 (F:L1635-1637), and a free skill
    is every character's at level 0 (F:L829)."""
    values = AttributeValues(**{a.attribute.value: a.score for a in attributes})
    held = {canonical_skill(name).casefold() for name in listed}
    return [UnlistedSkill(skill=row.skill, score=round_half_up(formula_value(row, values)),
                          modifier=0 if row.free else -1,
                          basis="free" if row.free else "unskilled")
            for row in SKILLS if row.skill.casefold() not in held]  # fmt: skip


@operation(
    name="npc/instant",
    kind=Kind.LOOKUP,
    covers=("foresight.npc.instant",),
    example={"competence": "Competent", "archetype": "Detective"},
)
def instant_npc(request: NpcInput) -> Npc:
    """A competent detective has Charisma and Search 18, Confidence and a handgun 12, the rest
    of his skills 10, PC and EM 11 and the other attributes 9 (F:L1226, F:L1228-1243);
    modifiers add skills, best attributes and fields, and a skill in several tiers takes the
    best (F:L1245-1261). The printed competence row may be overridden (AMB-13); every other
    skill is listed as the NPC would use it unskilled (AMB-35)."""
    wanted = request.competence.casefold()
    competence = next((c for c in COMPETENCES if c.competence.casefold() == wanted), None)
    if competence is None:
        names = ", ".join(c.competence for c in COMPETENCES)
        raise InputError(("competence",), f"one of {names}")
    competence = competence.model_copy(
        update=request.competence_override.model_dump(exclude_none=True)
    )
    sources = [_named(ARCHETYPES, "archetype", request.archetype, ("archetype",))]
    sources += [_named(MODIFIERS, "modifier", m, ("modifiers", i))
                for i, m in enumerate(request.modifiers)]  # fmt: skip
    bindings = {b.placeholder.casefold(): b.skill for b in request.bindings}
    tiers: dict[str, int] = {}
    for source in sources:
        for rank, tier in enumerate(TIERS):
            for skill in getattr(source, tier):
                name = _bound(skill, bindings)
                tiers[name] = min(tiers.get(name, rank), rank)
    skills = []
    for name, rank in tiers.items():
        score = _score(getattr(competence, TIERS[rank]))
        if score is not None:
            shown = written((score - 20) // 3) if score > 20 else str(score)
            skills.append(NpcSkill(skill=name, tier=TIERS[rank], score=score, written=shown))
    best = {a for s in sources for a in s.best}
    attributes = [NpcAttribute(attribute=a, score=competence.best if a.value in best
                               else competence.others) for a in Attribute]  # fmt: skip
    fields = list(dict.fromkeys(f for s in sources for f in s.fields))
    words = [request.competence, *request.modifiers, request.archetype]
    unskilled = request.options.unlisted_skill_mode is UnlistedSkillMode.UNSKILLED
    unlisted = _unlisted((s.skill for s in skills), attributes) if unskilled else []
    return Npc(description=" ".join(w.lower() for w in words), skills=skills,
               unlisted_skills=unlisted, attributes=attributes, fields=fields,
               field_depth=competence.fields)  # fmt: skip
