"""The character sheet (catalogue 3.C.1, 3.C.17, F:L427-1061): the player's choices made
into the whole sheet, every derived value with it, and every rule of creation checked at once.

Creation runs in the book's order (F:L427-438): species and character modifiers, inherent
attributes, background factors and their points, the free package and the four skills
everyone has, points spent (attributes trained, skills, familiarities, fields, wealth),
then the derived values. A sheet that breaks rules gets one answer naming each of them."""

from collections import Counter
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.foresight.characters.attributes import POINTS, Allocation, training_steps
from service.rules.foresight.characters.backgrounds import (
    BACKGROUNDS,
    Background,
    BackgroundInput,
    BackgroundOptions,
    Chosen,
    CompetenceInput,
    Pool,
    TransferInput,
    competence_of,
    tally,
)
from service.rules.foresight.characters.derived import (
    Capacity,
    Stamina,
    Ucdc,
    UcdcOptions,
    capacity,
    stamina_of,
    ucdc_of,
)
from service.rules.foresight.characters.endowment import (
    UNIVERSAL,
    PackageRow,
    Wealth,
    WealthOptions,
    package_row,
    wealth_of,
)
from service.rules.foresight.characters.fields import FieldRow, field_row
from service.rules.foresight.characters.ledger import (
    AMBIDEXTERITY,
    E_POINT,
    G_POINT,
    INSIGHT_TIMES,
    MOST_FAMILIARITY,
    Balance,
    FamiliarityChange,
    Line,
    LongTermFamiliarity,
    balances,
    familiarity_cost,
    ltf_cost,
    transfer_lines,
)
from service.rules.foresight.characters.skills import (
    EXTRA_PICK_CP,
    MOST_PER_CLASS,
    PICK_LEVELS,
    AttributeValues,
    Favor,
    KnownField,
    SkillName,
    SkillOptions,
    SkillRow,
    TheoryInput,
    WeaponClass,
    favored_errors,
    formula_value,
    maximum,
    skill_price,
    skill_row,
)
from service.rules.foresight.characters.species import (
    INSIGHT_SCORE,
    Modifier,
    ModifierOptions,
    Range,
    Species,
    SpeciesInput,
    species_of,
)
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.foresight.resolution.scores import TwentyPlus, round_half_up, twenty_plus
from service.rules.model import InputError, Model, Violations, option
from service.rules.registry import Kind, operation

__all__ = ["create", "validate"]

Name = Annotated[str, Field(min_length=1, max_length=60)]
#: Each background factor that is neither childhood nor a gift lasts one to five years
#: (F:L667).
YEARS = (1, 5)
#: One or two childhood background factors are usual (catalogue 3.C.17, rule 6).
CHILDHOODS = (1, 2)


class OwnedSkill(Model):
    skill: SkillName
    level: Annotated[int, Field(ge=0, le=99)]


class FieldLevel(StrEnum):
    BASIC = "basic"
    STANDARD = "standard"


class OwnedField(Model):
    field: Name = Field(description="A field of the table; a language may add its name in "
                        "brackets: 'Language (French)'.")  # fmt: skip
    level: FieldLevel
    specializations: tuple[Name, ...] = Field(default=(), max_length=10)


class OwnedFamiliarity(Model):
    name: Name
    points: Annotated[int, Field(ge=1, le=MOST_FAMILIARITY)]


class Handedness(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    AMBIDEXTROUS = "ambidextrous"


class Overflow(StrEnum):
    REJECT = "reject"
    CAP_AND_WASTE = "cap_and_waste"


class CharacterOptions(SkillOptions, BackgroundOptions, ModifierOptions, UcdcOptions,
                       WealthOptions):  # fmt: skip
    """The readings of every rule creation uses; each default is the catalogue's."""

    bonus_overflow: Overflow = option(
        Overflow.REJECT,
        ambiguity="AMB-17",
        description="Background points 'do not allow attributes to be increased beyond the "
        "usual range' (F:L603): a sheet whose points cannot fit is refused, so the player "
        "lowers the base, or the points that would pass the maximum are wasted.",
    )


class CharacterInput(Model):
    species: Annotated[str, Field(min_length=1, max_length=40)] = "Human"
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=4)
    backgrounds: tuple[Chosen, ...] = Field(min_length=1, max_length=20)
    inherent: Allocation = Field(description="As placed, background points included.")
    trained: Allocation | None = Field(default=None, description="Null: left at inherent.")
    free_package: Name | None = Field(
        default=None, description="The setting's free package (optional rule, F:L689); the "
        "four skills everyone has are free with or without it (F:L695).",
    )  # fmt: skip
    sold_off: tuple[Name, ...] = Field(
        default=(), max_length=20, description="Free skills or fields sold for half (F:L716)."
    )
    skills: tuple[OwnedSkill, ...] = Field(
        default=(), max_length=60, description="Free skills not listed are at level 0."
    )
    fields: tuple[OwnedField, ...] = Field(default=(), max_length=40)
    environments: tuple[OwnedFamiliarity, ...] = Field(default=(), max_length=20)
    gravities: tuple[OwnedFamiliarity, ...] = Field(default=(), max_length=10)
    long_term_familiarities: tuple[LongTermFamiliarity, ...] = Field(default=(), max_length=20)
    unique_insights: tuple[SkillName, ...] = Field(default=(), max_length=5)
    handedness: Handedness | None = Field(
        default=None, description="Every character has one (F:L745)."
    )
    favored_weapons: tuple[WeaponClass, ...] = Field(
        default=(), max_length=20, description="Hand-to-Hand Combat's favored classes (F:L799)."
    )
    favored_fields: tuple[Favor, ...] = Field(
        default=(), max_length=20, description="Theory's favored fields (F:L826)."
    )
    wealth_start: Annotated[str, Field(min_length=1, max_length=20)] = Field(
        default="Average", description="The GM's typical level (F:L1002)."
    )
    wealth_rows: Annotated[int, Field(ge=-10, le=10)] = Field(
        default=0, description="Rows bought (+, 20 each) or given up (-, 10 back each)."
    )
    transfers: tuple[TransferInput, ...] = Field(default=(), max_length=10)
    options: CharacterOptions = Field(default=CharacterOptions())


class SheetAttribute(Model):
    attribute: Attribute
    inherent: int
    trained: int
    low: int = Field(description="The species' range, shifted by character modifiers.")
    high: int


class SheetSkill(Model):
    skill: str
    formula_value: str = Field(description="The formula exactly, before rounding.")
    base: int
    level: int
    score: int
    twenty_plus: TwentyPlus
    bef: str
    max_level: int
    free: bool
    level_zero_cp: int = Field(description="What level 0 cost: 3 x cost, or 0 when free.")
    levels_cp: int = Field(description="What the levels above 0 cost.")


class SheetField(Model):
    field: str
    level: FieldLevel
    specializations: list[str]
    cost: int = Field(description="Education points paid; the free package's part is free.")


class SheetFamiliarity(Model):
    name: str
    points: int
    free_points: int
    cost: int


class Checked(Model):
    """What every check of the sheet finds, besides its violations."""

    background_factors: int
    competence: str
    years_of_background: list[int] = Field(
        description="Least and most years the factors not childhood or gifts took (F:L667)."
    )
    general: Balance
    education: Balance
    talents: list[str]
    warnings: list[str]
    requires_gm_approval: list[str] = Field(
        description="What only the GM can rule on (F:L583, F:L637, F:L669, F:L722)."
    )


class Character(Checked):
    species: str
    attributes: list[SheetAttribute]
    skills: list[SheetSkill]
    fields: list[SheetField]
    environments: list[SheetFamiliarity]
    gravities: list[SheetFamiliarity]
    handedness: Handedness | None
    ucdc: Ucdc
    carrying_capacity: Capacity
    stamina: Stamina
    theory_favored_picks: int = Field(description="One a five levels of Theory (F:L826).")
    hth_favored_picks: int = Field(description="Free at Hand-to-Hand levels 0 and 10 (F:L799).")
    wealth: Wealth
    lines: list[Line] = Field(description="Every purchase and what it cost.")


class Draft:
    """A sheet being checked: its violations, warnings and ledger lines as they are found."""

    def __init__(self, request: CharacterInput) -> None:
        self.request = request
        self.errors: list[InputError] = []
        self.warnings: list[str] = []
        self.approval: list[str] = []
        self.lines: list[Line] = []

    def error(self, loc: tuple[str | int, ...], message: str) -> None:
        self.errors.append(InputError(loc, message))

    def pay(self, item: str, pool: Pool, cost: int) -> None:
        if cost:
            self.lines.append(Line(item=item, pool=pool, cost=cost))

    def attempt(self, loc: tuple[str | int, ...], error: InputError) -> None:
        for each in error.errors if isinstance(error, Violations) else (error,):
            self.errors.append(InputError((*loc, *each.loc), each.message))


#: Amy Kwan as the book finally makes her (F:L536-1053; catalogue 4.3).
AMY = {
    "backgrounds": [{"background": "Comfortable Childhood"}, {"background": "Full-Time Education"},
                    {"background": "Field/Specialist Training"},
                    {"background": "Field Experience"}],
    "inherent": {"ST": 7, "EN": 7, "DX": 8, "AG": 8, "IN": 11, "PC": 11, "EM": 10, "WP": 9,
                 "AP": 10},
    "trained": {"ST": 7, "EN": 7, "DX": 10, "AG": 8, "IN": 12, "PC": 12, "EM": 12, "WP": 11,
                "AP": 12},
    "free_package": "Near Future",
    "skills": [{"skill": s, "level": n} for s, n in (
        ("Athletics", 3), ("Charisma", 11), ("Confidence", 13), ("Dance", 1), ("Groundcraft", 4),
        ("Hand-to-Hand Combat", 4), ("Handguns", 4), ("Initiative", 4), ("Lockpicking", 4),
        ("Pain Resistance", 0), ("Search", 9), ("Stamina", 4), ("Stealth", 4), ("Teach", 2),
        ("Theory", 6))],
    "fields": [{"field": "Language (English)", "level": "standard"},
               {"field": "Literacy", "level": "standard"},
               {"field": "Physics", "level": "basic"}, {"field": "Mathematics", "level": "basic"},
               *({"field": f, "level": "standard"} for f in (
                   "Computer Science", "Law", "Psychology", "Forensic Science", "Photography",
                   "Unarmed Combat Defensive")),
               {"field": "Surveillance", "level": "basic"}],
    "environments": [{"name": "interior", "points": 3}, {"name": "suburban", "points": 2},
                     {"name": "urban", "points": 2}],
    "handedness": "right",
}  # fmt: skip


# Species, background factors and attributes


def _species(draft: Draft) -> Species | None:
    request = draft.request
    frames = ModifierOptions(frame_shifts_minimum=request.options.frame_shifts_minimum)
    try:
        return species_of(SpeciesInput(species=request.species, modifiers=request.modifiers,
                                       options=frames))  # fmt: skip
    except InputError as error:
        draft.attempt((), error)
        return None


def _background(draft: Draft) -> Background | None:
    request = draft.request
    chosen = BackgroundInput(
        backgrounds=request.backgrounds,
        inherent=AttributeValues(**request.inherent.model_dump()),
        options=BackgroundOptions(allow_duplicate_choice=request.options.allow_duplicate_choice),
    )
    try:
        found = tally(chosen)
    except InputError as error:
        draft.attempt((), error)
        return None
    draft.approval += found.requires_gm_approval
    if not CHILDHOODS[0] <= found.childhood_factors <= CHILDHOODS[1]:
        draft.warnings.append(f"{found.childhood_factors} childhood background factors; one or "
                              "two are usual")  # fmt: skip
    return found


def _attributes(
    draft: Draft, ranges: list[Range], found: Background | None
) -> list[SheetAttribute]:
    """Inherent values within the species' range, summing to its least plus 36 and the
    background factors' points, which never lift a value past the range (F:L473-477, F:L603);
    trained values from inherent to inherent + 4, paid for (F:L728-738)."""
    request = draft.request
    inherent, trained = request.inherent, request.trained or request.inherent
    grants: Counter[Attribute] = Counter()
    for grant in found.grants if found else ():
        grants[grant.attribute] += grant.points
    rows = []
    for limits in ranges:
        name = limits.attribute.value
        value, target = getattr(inherent, name), getattr(trained, name)
        if not limits.low <= value <= limits.high:
            draft.error(("inherent", name), f"{value} is outside {limits.low}-{limits.high} "
                        "(F:L467, F:L1113)")  # fmt: skip
        elif value - grants[limits.attribute] < limits.low:
            draft.error(("inherent", name), f"{value} holds +{grants[limits.attribute]} from "
                        f"background factors on a base under {limits.low} (F:L603)")  # fmt: skip
        if target < value:
            draft.error(("trained", name), f"{target} is under inherent {value}: only injury "
                        "or privation lowers it (F:L471)")  # fmt: skip
        elif target > value + 4:
            draft.error(("trained", name), f"at most inherent + 4 = {value + 4} (F:L738)")
        else:
            draft.pay(f"{name} trained {value} to {target}", Pool.GENERAL,
                      sum(training_steps(value, value, target)))  # fmt: skip
        rows.append(SheetAttribute(attribute=limits.attribute, inherent=value, trained=target,
                                   low=limits.low, high=limits.high))  # fmt: skip
    bonus = (found.free_attribute_points if found else 0) + sum(grants.values())
    wanted = sum(r.low for r in ranges) + POINTS + bonus
    total = sum(r.inherent for r in rows)
    wasted = 0
    if request.options.bonus_overflow is Overflow.CAP_AND_WASTE:
        wasted = sum(grants[r.attribute] for r in rows if r.inherent == r.high)
    # With broken backgrounds the bonus is unknown, and so is the sum.
    if found is not None and not wanted - wasted <= total <= wanted:
        draft.error(("inherent",), f"the nine sum to {total}, not {wanted}: the species' least, "
                    f"36 and {bonus} from background factors (F:L473-477, F:L603)")  # fmt: skip
    return rows


# The free package and what is sold off


class Free:
    """What the character has without paying: the four skills everyone has, and the free
    package's skills, fields and familiarities (F:L689-712), less what is sold off."""

    def __init__(self, package: PackageRow | None) -> None:
        self.skills = {*UNIVERSAL, *(package.skills if package else ())}
        self.fields: Counter[tuple[FieldLevel, str]] = Counter(
            _package_field(text) for text in (package.fields if package else ())
        )
        self.environments = {p.environment.casefold(): p.points
                             for p in (package.environments if package else ())}  # fmt: skip
        fixed = sum(self.environments.values())
        self.chosen_environment_points = package.environment_points - fixed if package else 0
        self.gravities = {g.band.casefold(): g.points
                          for g in (package.gravities if package else ())}  # fmt: skip


#: The packages' shorthand for a field of the table (F:L712).
FIELD_ALIASES = {"math": "mathematics"}


def _package_field(text: str) -> tuple[FieldLevel, str]:
    """'Standard Language (any terrestrial)' is the field Language at standard."""
    level, _, name = text.partition(" ")
    name = name.split(" (")[0].casefold()
    return FieldLevel(level.casefold()), FIELD_ALIASES.get(name, name)


def _package(draft: Draft) -> PackageRow | None:
    setting = draft.request.free_package
    if setting is None:
        return None
    try:
        return package_row(setting)
    except InputError as error:
        draft.error(("free_package",), error.message)
        return None


def _sell_off(draft: Draft, free: Free) -> None:
    """A free skill or field may be sold for half what it would cost (F:L716-722); the reason
    is the GM's to accept."""
    for index, name in enumerate(draft.request.sold_off):
        skill = next((s for s in free.skills if s.casefold() == name.casefold()), None)
        held = [key for key in free.fields if key[1] == name.casefold()]
        if skill is not None:
            free.skills.discard(skill)
            price = 3 * skill_row(skill).cost
            draft.pay(f"{skill} sold off", Pool.GENERAL, -round_half_up(Fraction(price, 2)))
        elif held:
            level, field = held[0]
            free.fields[held[0]] -= 1
            row = field_row(field)
            price = (row.basic or 0) + (row.standard if level is FieldLevel.STANDARD else 0)
            draft.pay(f"{row.field} sold off", Pool.EDUCATION, -round_half_up(Fraction(price, 2)))
        else:
            draft.error(("sold_off", index), f"{name!r} is not a free skill or field")
            continue
        draft.approval.append(f"the reason for selling off {name} (F:L722)")


# Skills


def _skills(draft: Draft, trained: AttributeValues, free: Free) -> list[SheetSkill]:
    """Each skill at most its limit x its highest trained attribute (F:L740), paid 3 x cost
    at level 0 unless free, its cost a level to 10 x limit and double beyond (F:L740-742)."""
    owned: dict[str, tuple[SkillRow, int, tuple[str | int, ...]]] = {}
    for index, entry in enumerate(draft.request.skills):
        loc = ("skills", index)
        try:
            row = skill_row(entry.skill, (*loc, "skill"))
        except InputError as error:
            draft.errors.append(error)
            continue
        if row.skill in owned:
            draft.error((*loc, "skill"), f"{row.skill} is listed twice")
        elif row.skill.casefold() in _sold(draft):
            draft.error((*loc, "skill"), f"{row.skill} is sold off")
        owned[row.skill] = (row, entry.level, (*loc, "level"))
    for name in sorted(free.skills - owned.keys()):
        owned[name] = (skill_row(name), 0, ("skills",))
    return [_skill(draft, trained, row, level, loc, row.skill in free.skills)
            for row, level, loc in owned.values()]  # fmt: skip


def _sold(draft: Draft) -> set[str]:
    return {name.casefold() for name in draft.request.sold_off}


def _skill(
    draft: Draft,
    trained: AttributeValues,
    row: SkillRow,
    level: int,
    loc: tuple[str | int, ...],
    free: bool,
) -> SheetSkill:
    top = maximum(row, trained)
    if level > top:
        draft.error(loc, f"{row.skill} {level} is over its maximum level {top} (F:L740)")
    options = draft.request.options
    acquire = 0 if free else 3 * row.cost
    levels = skill_price(row, 0, level, free, options)
    draft.pay(f"{row.skill} {'free ' if free else ''}to level {level}", Pool.GENERAL,
              acquire + levels)  # fmt: skip
    value = formula_value(row, trained)
    score = round_half_up(value) + level
    return SheetSkill(skill=row.skill, formula_value=f"{value.numerator}/{value.denominator}",
                      base=round_half_up(value), level=level, score=score,
                      twenty_plus=twenty_plus(score, is_stamina=row.skill == "Stamina"),
                      bef=row.bef, max_level=top, free=free, level_zero_cp=acquire,
                      levels_cp=levels)  # fmt: skip


# Fields


def _field_row(name: str, loc: tuple[str | int, ...]) -> FieldRow:
    """The table's row; 'Language (French)' is the Language row."""
    try:
        return field_row(name, loc)
    except InputError:
        return field_row(name.split(" (")[0], loc)


def _fields(draft: Draft, free: Free) -> list[SheetField]:
    """Basic knowledge first where the field has it, standard on basic, specializations on
    standard (F:L897-903), paid in education points less the free package's part."""
    rows, seen = [], set()
    for index, entry in enumerate(draft.request.fields):
        loc = ("fields", index)
        try:
            row = _field_row(entry.field, (*loc, "field"))
        except InputError as error:
            draft.errors.append(error)
            continue
        if entry.field.casefold() in seen:
            draft.error((*loc, "field"), f"{entry.field} is listed twice")
        seen.add(entry.field.casefold())
        if entry.level is FieldLevel.BASIC and row.basic is None:
            draft.error((*loc, "level"), f"{row.field} has no basic level: its entry is "
                        "standard (AMB-19)")  # fmt: skip
        if entry.specializations and entry.level is not FieldLevel.STANDARD:
            draft.error((*loc, "specializations"), "a specialization needs standard "
                        "knowledge (F:L901)")  # fmt: skip
        elif entry.specializations and row.specialization is None:
            draft.error((*loc, "specializations"), f"{row.field} has no specializations")
        cost = _field_cost(row, entry, free)
        draft.pay(f"{entry.field} ({entry.level.value})", Pool.EDUCATION, cost)
        rows.append(SheetField(field=entry.field, level=entry.level,
                               specializations=list(entry.specializations), cost=cost))  # fmt: skip
    return rows


def _field_cost(row: FieldRow, entry: OwnedField, free: Free) -> int:
    basic = row.basic or 0
    standard = row.standard if entry.level is FieldLevel.STANDARD else 0
    key = row.field.casefold()
    for level, covered in ((FieldLevel.STANDARD, basic + row.standard), (FieldLevel.BASIC, basic)):
        if free.fields[(level, key)] > 0 and (level is FieldLevel.BASIC or standard):
            free.fields[(level, key)] -= 1
            basic_and_standard = max(0, basic + standard - covered)
            break
    else:
        basic_and_standard = basic + standard
    return basic_and_standard + len(entry.specializations) * (row.specialization or 0)


# Familiarities


def _familiarities(
    draft: Draft, kind: str, entries: tuple[OwnedFamiliarity, ...], free: dict[str, int],
    chosen: int, rate: int,
) -> list[SheetFamiliarity]:  # fmt: skip
    """E points 2 each and G points 5, to 3 (F:L742-743); the free package's named ones and
    its points to choose are free (F:L697-708)."""
    rows, seen = [], set()
    for index, entry in enumerate(entries):
        key = entry.name.casefold()
        if key in seen:
            draft.error((kind, index, "name"), f"{entry.name} is listed twice")
        seen.add(key)
        named = min(entry.points, free.get(key, 0))
        spare = min(entry.points - named, chosen)
        chosen -= spare
        change = FamiliarityChange(name=entry.name, to_points=entry.points,
                                   free_points=named + spare)  # fmt: skip
        cost = familiarity_cost(change, rate)
        draft.pay(f"{kind} {entry.name} {entry.points}", Pool.GENERAL, cost)
        rows.append(SheetFamiliarity(name=entry.name, points=entry.points,
                                     free_points=named + spare, cost=cost))  # fmt: skip
    return rows


def _long_term(draft: Draft) -> None:
    """5 x the skill's cost, 2 with a field or attribute; one for each ability and subject
    (F:L744, F:L2063)."""
    seen = set()
    for index, ltf in enumerate(draft.request.long_term_familiarities):
        key = (ltf.skill or "").casefold(), ltf.subject.casefold()
        if key in seen:
            draft.error(("long_term_familiarities", index), "one long-term familiarity for an "
                        "ability and subject")  # fmt: skip
        seen.add(key)
        try:
            draft.pay(f"long-term familiarity: {ltf.subject}", Pool.GENERAL, ltf_cost(ltf))
        except InputError as error:
            draft.attempt(("long_term_familiarities", index), error)
    if draft.request.long_term_familiarities:
        draft.approval.append("long-term familiarities (F:L2061)")


# Favored picks, insights, handedness, wealth and transfers


def _favored(draft: Draft, skills: list[SheetSkill]) -> tuple[int, int]:
    """Hand-to-Hand favored classes at levels 0 and 10, more from 10 at 10 CP (F:L799);
    Theory's favored fields one a five levels, on fields known past basic (F:L826)."""
    request = draft.request
    levels = {s.skill: s.level for s in skills}
    hth = levels.get("Hand-to-Hand Combat")
    hth_picks = sum(1 for level in PICK_LEVELS if hth is not None and hth >= level)
    weapons = request.favored_weapons
    extra = max(0, len(weapons) - hth_picks)
    if extra and (hth is None or hth < PICK_LEVELS[-1]):
        draft.error(("favored_weapons",), f"{hth_picks} favored classes at Hand-to-Hand "
                    f"level {hth if hth is not None else 'none'} (F:L799)")  # fmt: skip
    elif extra:
        draft.pay(f"{extra} extra favored weapon classes", Pool.GENERAL, EXTRA_PICK_CP * extra)
    if any(n > MOST_PER_CLASS for n in Counter(w.casefold() for w in weapons).values()):
        draft.error(("favored_weapons",), "a class is favored twice at most (AMB-47)")
    theory = levels.get("Theory", 0)
    if request.favored_fields:
        known = tuple(KnownField(field=f.field, standard=f.level is FieldLevel.STANDARD,
                            specializations=f.specializations) for f in request.fields)  # fmt: skip
        problem = favored_errors(TheoryInput(level=theory, known=known,
                                             favored=request.favored_fields))  # fmt: skip
        if len(request.favored_fields) > theory // 5:
            problem = f"Theory {theory} gives {theory // 5} favored picks (F:L826)"
        if problem:
            draft.error(("favored_fields",), problem)
    return theory // 5, hth_picks


def _insights(draft: Draft, skills: list[SheetSkill]) -> None:
    """A unique insight, 10 x the skill's cost, needs the skill at its maximum level and a
    score of 26 (20+2) (F:L1117)."""
    by_name = {s.skill.casefold(): s for s in skills}
    for index, name in enumerate(draft.request.unique_insights):
        skill = by_name.get(name.casefold())
        if skill is None:
            draft.error(("unique_insights", index), f"{name} is not a skill the sheet has")
        elif skill.level < skill.max_level or skill.score < INSIGHT_SCORE:
            draft.error(("unique_insights", index), f"{skill.skill} needs its maximum level "
                        f"{skill.max_level} and a score of 26 (F:L1117)")  # fmt: skip
        else:
            draft.pay(f"unique insight: {skill.skill}", Pool.GENERAL,
                      INSIGHT_TIMES * skill_row(skill.skill).cost)  # fmt: skip


def _handedness(draft: Draft) -> None:
    handedness = draft.request.handedness
    if handedness is None:
        draft.error(("handedness",), "every character is left- or right-handed, or "
                    "ambidextrous for 15 (F:L745-746)")  # fmt: skip
    elif handedness is Handedness.AMBIDEXTROUS:
        draft.pay("ambidexterity", Pool.GENERAL, AMBIDEXTERITY)


def _wealth(draft: Draft, found: Background | None) -> Wealth:
    request = draft.request
    rows = found.wealth_rows if found else 0
    series = request.options.wealth_series
    try:
        wealth = wealth_of(request.wealth_start, rows, request.wealth_rows, series)
    except InputError as error:
        draft.error(("wealth_start",), error.message)
        wealth = wealth_of("Average", rows, request.wealth_rows, series)
    draft.pay(f"wealth {request.wealth_rows:+d} rows", Pool.GENERAL, wealth.cp_cost)
    return wealth


def _years(draft: Draft) -> list[int]:
    """Factors that are neither childhood nor gifts take one to five years each (F:L667)."""
    names = {row.background.casefold(): row.group for row in BACKGROUNDS}
    counted = sum(1 for chosen in draft.request.backgrounds
                  if names.get(chosen.background.casefold()) in ("general", "unusual"))  # fmt: skip
    return [YEARS[0] * counted, YEARS[1] * counted]


# The sheet


def assess(request: CharacterInput) -> Character:
    """The whole sheet, or every rule it breaks at once."""
    draft = Draft(request)
    kind = _species(draft)
    found = _background(draft)
    ranges = kind.ranges if kind else species_of(SpeciesInput()).ranges
    attributes = _attributes(draft, ranges, found)
    trained = AttributeValues(**{a.attribute.value: a.trained for a in attributes})
    free = Free(_package(draft))
    _sell_off(draft, free)
    skills = _skills(draft, trained, free)
    fields = _fields(draft, free)
    environments = _familiarities(
        draft,
        "environments",
        request.environments,
        free.environments,
        free.chosen_environment_points,
        E_POINT,
    )
    gravities = _familiarities(draft, "gravities", request.gravities, free.gravities, 0, G_POINT)
    _long_term(draft)
    theory_picks, hth_picks = _favored(draft, skills)
    _insights(draft, skills)
    _handedness(draft)
    wealth = _wealth(draft, found)
    for transfer in request.transfers:
        draft.lines += transfer_lines(transfer)
    general = (found.general if found else 0) + (kind.general if kind else 0)
    education = (found.education if found else 0) + (kind.education if kind else 0)
    # With broken backgrounds the points available are unknown: only their errors are named.
    checked = draft.errors if found is not None else []
    general_balance, education_balance = balances(draft.lines, general, education, checked)
    if draft.errors:
        raise Violations(draft.errors)
    factors = len(request.backgrounds) + (kind is not None and kind.species != "Human")
    level = competence_of(CompetenceInput(background_factors=factors)).competence
    values = {a.attribute: a.trained for a in attributes}
    stamina = next((s.level for s in skills if s.skill == "Stamina"), 0)
    return Character(
        background_factors=factors, competence=level, years_of_background=_years(draft),
        general=general_balance, education=education_balance,
        talents=found.talents if found else [], warnings=draft.warnings,
        requires_gm_approval=[*draft.approval, "age, against the background factors (F:L669)"],
        species=kind.species if kind else request.species, attributes=attributes,
        skills=skills, fields=fields, environments=environments, gravities=gravities,
        handedness=request.handedness,
        ucdc=ucdc_of(values[Attribute.ST], request.options.ucdc_rounding),
        carrying_capacity=capacity(values[Attribute.ST]),
        stamina=stamina_of(values[Attribute.EN], values[Attribute.WP], stamina),
        theory_favored_picks=theory_picks, hth_favored_picks=hth_picks, wealth=wealth,
        lines=draft.lines,
    )  # fmt: skip


@operation(
    name="character/create",
    kind=Kind.GENERATION,
    covers=("foresight.character.create",),
    example=AMY,
)
def create(request: CharacterInput) -> Character:
    """A character from the player's choices, in the book's order (F:L427-438): species and
    character modifiers, inherent attributes, background factors, the free package and the
    four skills everyone has, points spent, then every derived value: skill scores and their
    20+n, maximum levels, UCDC, carrying capacity, stamina, favored picks and wealth. Amy
    Kwan's sheet (F:L536-1053) leaves 27 general points unspent, not the book's 0: its sums
    lose 3 at F:L867, 23 at F:L1031 and 1 at F:L1051 (catalogue 4.3)."""
    return assess(request)


@operation(
    name="character/validate",
    kind=Kind.VALIDATION,
    covers=("foresight.character.validate",),
    example=AMY,
)
def validate(request: CharacterInput) -> Checked:
    """Every rule of creation checked at once, each violation named by its field (catalogue
    3.C.17): attributes in the species' range and summing right, trained at most inherent +
    4, skills at most their maximum level, familiarities at most 3, a handedness, background
    factors taken once where starred, fields on their prerequisites, favored picks, each
    long-term familiarity once, and neither pool overspent. What only the GM can judge is
    listed, not refused."""
    sheet = assess(request)
    return Checked(**{name: getattr(sheet, name) for name in Checked.model_fields})
