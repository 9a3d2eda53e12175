"""Skills (catalogue 3.C.10-3.C.11): the table of 45 skills (F:L776-829), what a level costs,
the highest level a character may reach, a skill's score, Hand-to-Hand Combat's favored
weapons, Theory's favored fields and a similar generic skill's head start.

A skill costs three times its base cost to acquire at level 0, its cost a level up to its
limit times 10, and twice that beyond (F:L740-764); it reaches at most its limit times the
highest attribute in its formula, rounded up (F:L740); its score is the formula, rounded,
plus its level (F:L762)."""

import math
from collections import Counter
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.foresight.resolution.abilities import Attribute
from service.rules.foresight.resolution.scores import TwentyPlus, round_half_up, twenty_plus
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Table, operation
from service.rules.tables import table

__all__ = [
    "SKILLS",
    "AliasRow",
    "AttributeValues",
    "SkillRow",
    "aliased",
    "canonical_skill",
    "cost_to_own",
    "favored_errors",
    "generic_transfer",
    "hth_favored",
    "max_level",
    "skill_cost",
    "skill_price",
    "skill_score",
    "theory_favored",
]

Level = Annotated[int, Field(ge=0, le=99)]
AttributeValue = Annotated[int, Field(ge=0, le=40)]


class SkillRow(Model):
    skill: str
    formula: str
    attributes: tuple[Attribute, ...]
    divisor: int
    constant: int | None
    cost: int
    bef: str
    limit: str | None = Field(description="Null for Sing, whose maximum level is fixed.")
    fixed_max_level: int | None
    tl: str
    free: bool = Field(description="Every character has it at level 0, free (F:L829).")
    source: str

    @property
    def limit_value(self) -> Fraction | None:
        return None if self.limit is None else Fraction(self.limit)


SKILLS = table(__name__, "skills", SkillRow, covers=("foresight.skill.catalog",))


class AliasRow(Model):
    """A name the book uses for a row its table names otherwise (AMB-46)."""

    alias: str
    name: str = Field(description="The table's name for it.")
    source: str


SKILL_ALIASES = table(__name__, "skill_aliases", AliasRow)


def aliased(aliases: Table[AliasRow], name: str) -> str:
    """The table's name for `name`, or `name` itself."""
    wanted = name.casefold()
    return next((row.name for row in aliases if row.alias.casefold() == wanted), name)


def canonical_skill(name: str) -> str:
    """The skill table's name for `name` (AMB-46): 'Navigation' is Navigate (F:L1210)."""
    return aliased(SKILL_ALIASES, name)


def skill_row(name: str, loc: tuple[str | int, ...] = ("skill",)) -> SkillRow:
    wanted = canonical_skill(name).casefold()
    found = next((row for row in SKILLS if row.skill.casefold() == wanted), None)
    if found is None and wanted == "animal training":
        raise InputError(loc, "Animal Training has no formula, cost or BEF in the book "
                              "(F:L1689, AMB-46): the GM defines it")  # fmt: skip
    if found is None:
        raise InputError(loc, f"{name!r} is not in the skill table (F:L776-829)")
    return found


class SkillOptions(Model):
    """Readings of the book for skills; every default is the catalogue's."""

    sing_double_cost_after: Annotated[int, Field(ge=1, le=22)] = option(
        10,
        ambiguity="AMB-09",
        description="Sing's limit is printed '22 (fixed)' (F:L816): its levels cost double "
        "after this level, 10 as for a limit-1 skill.",
    )


SkillName = Annotated[str, Field(min_length=1, max_length=40)]


def threshold(row: SkillRow, options: SkillOptions) -> int:
    """The level up to which a level costs the base cost: 10 x limit (F:L740)."""
    limit = row.limit_value
    return options.sing_double_cost_after if limit is None else math.floor(10 * limit)


def cost_to_own(cost: int, top: int, level: int) -> int:
    """3c to acquire at level 0, c a level up to `top`, 2c a level beyond (F:L740-764)."""
    return 3 * cost + cost * min(level, top) + 2 * cost * max(0, level - top)


class CostInput(Model):
    skill: SkillName
    from_level: Annotated[int, Field(ge=-1, le=99)] = Field(
        default=-1, description="The level owned now; -1 for a skill not yet acquired."
    )
    to_level: Level
    free: bool = Field(
        default=False, description="A free skill (F:L829, a free package): level 0 costs nothing."
    )
    options: SkillOptions = Field(default=SkillOptions())


class SkillCost(Model):
    skill: str
    cost: int = Field(description="Character points from from_level to to_level.")
    base_cost: int
    doubles_after: int = Field(description="Levels above this cost twice the base cost.")


@operation(
    name="skill/cost",
    kind=Kind.CALCULATION,
    covers=("foresight.skill.cost",),
    example={"skill": "Theory", "to_level": 0},
)
def skill_cost(request: CostInput) -> SkillCost:
    """Acquiring a skill costs three times its cost, at level 0; each level costs its cost up
    to 10 times its limit and twice its cost beyond (F:L740-748): Theory (cost 3, limit 1.5)
    is 9 at level 0, 3 a level to 15 and 6 after (F:L764)."""
    if request.to_level < request.from_level:
        raise InputError(("to_level",), "skills are raised, not lowered (see reallocation)")
    row = skill_row(request.skill)
    cost = skill_price(row, request.from_level, request.to_level, request.free, request.options)
    return SkillCost(skill=row.skill, cost=cost, base_cost=row.cost,
                     doubles_after=threshold(row, request.options))  # fmt: skip


def skill_price(row: SkillRow, start: int, end: int, free: bool, options: SkillOptions) -> int:
    """Character points from level `start` to `end` (-1: not owned), negative going down: the
    price paid for each level comes back when it is sold (F:L1037)."""
    top = threshold(row, options)
    acquired = 3 * row.cost if free else 0

    def owned(level: int) -> int:
        return 0 if level < 0 else cost_to_own(row.cost, top, level) - acquired

    return owned(end) - owned(start)


class AttributeValues(Model):
    """Attribute values by name; only those a rule reads are needed."""

    ST: AttributeValue | None = None
    DX: AttributeValue | None = None
    AG: AttributeValue | None = None
    EN: AttributeValue | None = None
    IN: AttributeValue | None = None
    PC: AttributeValue | None = None
    EM: AttributeValue | None = None
    WP: AttributeValue | None = None
    AP: AttributeValue | None = None


def _values(row: SkillRow, attributes: AttributeValues) -> list[int]:
    found = []
    for name in row.attributes:
        value = getattr(attributes, name.value)
        if value is None:
            raise InputError(("attributes", name.value), f"{row.skill} reads {name.value}")
        found.append(value)
    return found


def formula_value(row: SkillRow, attributes: AttributeValues) -> Fraction:
    if row.constant is not None:
        return Fraction(row.constant)
    return Fraction(sum(_values(row, attributes)), row.divisor)


def maximum(row: SkillRow, attributes: AttributeValues) -> int:
    """The limit times the highest trained attribute of the formula, rounded up (F:L740,
    F:L770-772); Sing's is fixed at 22 (F:L816)."""
    limit = row.limit_value
    if limit is None:
        return row.fixed_max_level or 0
    return math.ceil(limit * max(_values(row, attributes)))


class MaxLevelInput(Model):
    skill: SkillName
    attributes: AttributeValues


class MaxLevel(Model):
    skill: str
    max_level: int


@operation(
    name="skill/max-level",
    kind=Kind.CALCULATION,
    covers=("foresight.skill.max_level",),
    example={"skill": "Theory", "attributes": {"IN": 12}},
)
def max_level(request: MaxLevelInput) -> MaxLevel:
    """A skill's maximum level is its limit times the highest trained attribute in its
    formula, rounded up: Theory 1.5 x IN, Handguns the higher of DX and PC (F:L770-772)."""
    row = skill_row(request.skill)
    return MaxLevel(skill=row.skill, max_level=maximum(row, request.attributes))


class ScoreInput(Model):
    skill: SkillName
    level: Level
    attributes: AttributeValues


class SkillScore(Model):
    skill: str
    formula_value: str = Field(description="The formula exactly, before rounding.")
    base: int = Field(description="The formula rounded to the nearest, 0.5 up (F:L264).")
    level: int
    score: int
    twenty_plus: TwentyPlus
    max_level: int
    above_max: bool = Field(
        description="The level is over the maximum (attributes fell since): kept, but it "
        "may not be raised (AMB-25)."
    )


@operation(
    name="skill/score",
    kind=Kind.CALCULATION,
    covers=("foresight.skill.score",),
    example={"skill": "Charisma", "level": 11, "attributes": {"AP": 12, "EM": 12}},
)
def skill_score(request: ScoreInput) -> SkillScore:
    """A skill's score is its formula, rounded, plus its level (F:L762); over 20 it is rolled
    as 20 with +1 ease factor a 3 points (F:L233): Amy's Charisma 11 with AP and EM 12 is 23,
    20+1 (F:L1043)."""
    row = skill_row(request.skill)
    value = formula_value(row, request.attributes)
    base = round_half_up(value)
    score = base + request.level
    top = maximum(row, request.attributes)
    return SkillScore(skill=row.skill, formula_value=f"{value.numerator}/{value.denominator}",
                      base=base, level=request.level, score=score,
                      twenty_plus=twenty_plus(score), max_level=top,
                      above_max=request.level > top)  # fmt: skip


WeaponClass = Annotated[str, Field(min_length=1, max_length=40)]
#: Hand-to-Hand Combat picks a favored class at level 0 and at 10 (F:L799); from level 10 more
#: cost 10 CP each; a class may be favored twice (AMB-47).
PICK_LEVELS, EXTRA_PICK_CP, MOST_PER_CLASS = (0, 10), 10, 2


class HthInput(Model):
    level: Level = Field(description="Hand-to-Hand Combat's level.")
    favored: tuple[WeaponClass, ...] = Field(
        max_length=20, description="Each pick of a favored class, a class twice for +2."
    )
    attacker_weapon: WeaponClass | None = Field(
        default=None, description="When dodging or parrying: the attacker's weapon class."
    )


class Favored(Model):
    weapon_class: str
    bonus: int


class HthFavored(Model):
    free_picks: int
    extra_picks: int
    extra_cost: int = Field(description="10 character points an extra pick (F:L799).")
    bonuses: list[Favored]
    defense_bonus: int | None = Field(
        description="Dodging or parrying: the better of the unarmed and the attacker's class."
    )


def _key(name: str) -> str:
    return name.strip().casefold()


@operation(
    name="skill/hth-favored",
    kind=Kind.CALCULATION,
    covers=("foresight.skill.hth_favored",),
    example={"level": 10, "favored": ["unarmed", "swords", "swords"], "attacker_weapon": "swords"},
)
def hth_favored(request: HthInput) -> HthFavored:
    """A favored class of mêlée weapon is chosen at levels 0 and 10, more from level 10 at 10
    CP each; each favor is +1 with the class; dodging or parrying takes the better of the
    unarmed favor and the attacker's weapon's (F:L799, F:L1766-1786): unarmed once and swords
    twice dodge a sword at +2 and anything else at +1."""
    free = sum(1 for level in PICK_LEVELS if request.level >= level)
    picks = Counter(_key(name) for name in request.favored)
    if any(count > MOST_PER_CLASS for count in picks.values()):
        raise InputError(("favored",), "a class is favored twice at most (AMB-47)")
    extra = max(0, len(request.favored) - free)
    if extra and request.level < PICK_LEVELS[-1]:
        raise InputError(("favored",), f"below level 10, {free} favored class (F:L799)")
    defense = None
    if request.attacker_weapon is not None:
        defense = max(picks.get("unarmed", 0), picks.get(_key(request.attacker_weapon), 0))
    return HthFavored(free_picks=free, extra_picks=extra, extra_cost=EXTRA_PICK_CP * extra,
                      bonuses=[Favored(weapon_class=name, bonus=count)
                               for name, count in picks.items()],
                      defense_bonus=defense)  # fmt: skip


FieldName = Annotated[str, Field(min_length=1, max_length=60)]


class KnownField(Model):
    field: FieldName
    standard: bool = Field(description="Known at standard level (not only basic).")
    specializations: tuple[FieldName, ...] = Field(default=(), max_length=20)


class Favor(Model):
    field: FieldName
    specialization: FieldName | None = None


class TheoryInput(Model):
    level: Level = Field(description="Theory's level.")
    known: tuple[KnownField, ...] = Field(max_length=40, description="The fields known.")
    favored: tuple[Favor, ...] = Field(max_length=20)
    working_on: Favor | None = Field(default=None, description="The field of the work at hand.")


class TheoryFavored(Model):
    picks: int = Field(description="One favored field or specialization a 5 levels.")
    bonus: int | None = Field(description="On the work at hand: +1 a favored field, +1 more "
                              "for its favored specialization.")  # fmt: skip


def favored_errors(request: TheoryInput) -> str | None:
    known = {_key(k.field): k for k in request.known}
    seen = set()
    for favor in request.favored:
        entry = (_key(favor.field), favor.specialization and _key(favor.specialization))
        field = known.get(entry[0])
        if entry in seen:
            return "a field or specialization is favored once"
        seen.add(entry)
        if field is None or not field.standard:
            return f"{favor.field} is not known beyond basic: it cannot be favored"
        if favor.specialization is not None:
            if _key(favor.specialization) not in {_key(s) for s in field.specializations}:
                return f"{favor.specialization} is not a specialization known"
            if (entry[0], None) not in {
                (_key(f.field), f.specialization and _key(f.specialization))
                for f in request.favored
            }:
                return f"{favor.specialization} is favored only with {favor.field}"
    return None


@operation(
    name="skill/theory-favored",
    kind=Kind.CALCULATION,
    covers=("foresight.skill.theory_favored",),
    example={
        "level": 10,
        "known": [{"field": "Physics", "standard": True, "specializations": ["Astrophysics"]}],
        "favored": [{"field": "Physics"}, {"field": "Physics", "specialization": "Astrophysics"}],
        "working_on": {"field": "Physics", "specialization": "Astrophysics"},
    },
)
def theory_favored(request: TheoryInput) -> TheoryFavored:
    """Theory gives one favored field or specialization for every five levels; +1 working on
    a favored field, +1 more on its favored specialization; a specialization only in a
    favored field, a field only known beyond basic, each once (F:L826, F:L1961-1969)."""
    picks = request.level // 5
    if len(request.favored) > picks:
        raise InputError(("favored",), f"Theory {request.level} gives {picks} favored picks")
    problem = favored_errors(request)
    if problem:
        raise InputError(("favored",), problem)
    bonus = None
    if request.working_on is not None:
        on = request.working_on
        favored = {(_key(f.field), f.specialization and _key(f.specialization))
                   for f in request.favored}  # fmt: skip
        bonus = int((_key(on.field), None) in favored)
        if on.specialization is not None:
            bonus += int((_key(on.field), _key(on.specialization)) in favored)
    return TheoryFavored(picks=picks, bonus=bonus)


class TransferInput(Model):
    skill: SkillName = Field(description="The new generic skill's table entry.")
    existing_level: Level = Field(description="The similar skill's level.")
    percent: Annotated[int, Field(ge=25, le=75)] = Field(
        description="How similar, as the GM judges: 25 to 75 percent (F:L796)."
    )


class Transferred(Model):
    start_level: int
    acquisition_cost: int = Field(description="3 x cost: the start level is free (AMB-29).")


@operation(
    name="skill/generic-transfer",
    kind=Kind.CALCULATION,
    covers=("foresight.skill.generic_transfer",),
    example={"skill": "Generic Musical Instrument", "existing_level": 12, "percent": 75},
)
def generic_transfer(request: TransferInput) -> Transferred:
    """A similar generic skill may start at 25 to 75% of the level of one the character has:
    Harpsichord 12 gives Piano 9 at 75% (F:L796, F:L2003); rounded half up, and the skill is
    still acquired at three times its cost (AMB-29)."""
    row = skill_row(request.skill)
    if not row.skill.startswith("Generic"):
        raise InputError(("skill",), "only a generic skill starts from a similar one (F:L796)")
    start = round_half_up(Fraction(request.existing_level * request.percent, 100))
    return Transferred(start_level=start, acquisition_cost=3 * row.cost)
