"""What a sheet buys (F:L689-744): the free package and what is sold off, skills, fields and
familiarities, each paid into the draft's ledger."""

from collections import Counter
from fractions import Fraction

from service.rules.foresight.characters.backgrounds import Pool
from service.rules.foresight.characters.draft import (
    Draft,
    FieldLevel,
    OwnedFamiliarity,
    OwnedField,
    SheetFamiliarity,
    SheetField,
    SheetSkill,
)
from service.rules.foresight.characters.endowment import UNIVERSAL, PackageRow, package_row
from service.rules.foresight.characters.fields import FieldRow, field_row
from service.rules.foresight.characters.ledger import (
    FamiliarityChange,
    familiarity_cost,
    ltf_cost,
    ltf_key,
)
from service.rules.foresight.characters.skills import (
    AttributeValues,
    SkillRow,
    formula_value,
    maximum,
    skill_price,
    skill_row,
)
from service.rules.foresight.resolution.scores import round_half_up, twenty_plus
from service.rules.model import InputError

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


def free_package(draft: Draft) -> PackageRow | None:
    setting = draft.request.free_package
    if setting is None:
        return None
    try:
        return package_row(setting)
    except InputError as error:
        draft.error(("free_package",), error.message)
        return None


def sell_off(draft: Draft, free: Free) -> None:
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


def bought_skills(draft: Draft, trained: AttributeValues, free: Free) -> list[SheetSkill]:
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


def bought_fields(draft: Draft, free: Free) -> list[SheetField]:
    """Basic knowledge first where the field has it, standard on basic, specializations on
    standard (F:L897-903), paid in education points less the free package's part."""
    rows, seen = [], set()
    for index, entry in enumerate(draft.request.fields):
        loc = ("fields", index)
        try:
            row = field_row(entry.field, (*loc, "field"))
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


def bought_familiarities(
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


def check_long_term(draft: Draft) -> None:
    """5 x the skill's cost, 2 with a field or attribute; one for each ability and subject
    (F:L744, F:L2063)."""
    seen = set()
    for index, ltf in enumerate(draft.request.long_term_familiarities):
        key = ltf_key(ltf)
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
