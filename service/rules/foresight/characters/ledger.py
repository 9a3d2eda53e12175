"""The character-point ledger (catalogue 3.C.9, 3.C.16, F:L726-748, F:L1027-1061): what each
purchase costs from the general or the education points, and what selling one back returns.

General points buy attribute training, skills, environment (2 a point) and gravity (5 a point)
familiarities, long-term familiarities, ambidexterity, wealth, extra favored weapons and unique
insights; education points buy fields; two of one kind buy one of the other. Before play,
anything bought may be sold back for what was paid for it, and a free item for half
(F:L716-722, F:L1027-1037); in play, only with the GM's permission (F:L1029, F:L1061)."""

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Annotated, TypeVar

from pydantic import Field

from service.rules.foresight.characters.attributes import training_steps
from service.rules.foresight.characters.backgrounds import (
    Pool,
    TransferInput,
    wealth_cost,
)
from service.rules.foresight.characters.fields import FieldInput, priced
from service.rules.foresight.characters.skills import (
    EXTRA_PICK_CP,
    SkillName,
    SkillOptions,
    canonical_skill,
    skill_price,
    skill_row,
)
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.foresight.resolution.familiarity import ltf_cost as ltf_cp
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation

__all__ = [
    "AMBIDEXTERITY",
    "E_POINT",
    "G_POINT",
    "MOST_FAMILIARITY",
    "Balance",
    "Line",
    "balances",
    "familiarity_cost",
    "insight_key",
    "ltf_cost",
    "ltf_key",
    "reallocate",
    "spend",
    "transfer_lines",
]

#: An E point costs 2 and a G point 5, neither past 3; ambidexterity 15 (F:L742-746).
E_POINT, G_POINT, MOST_FAMILIARITY, AMBIDEXTERITY = 2, 5, 3, 15
#: A long-term familiarity is 5 x the cost of the skill it is used with, 2 with a field or an
#: attribute (F:L744, F:L2063); a unique insight 10 x the skill's cost (F:L1117).
INSIGHT_TIMES = 10

Name = Annotated[str, Field(min_length=1, max_length=60)]
Points = Annotated[int, Field(ge=0, le=10_000)]


class AttributeChange(Model):
    attribute: Attribute
    inherent: Annotated[int, Field(ge=1, le=40)]
    trained: Annotated[int, Field(ge=0, le=44)] = Field(description="The trained value now.")
    to: Annotated[int, Field(ge=0, le=44)]


class SkillChange(Model):
    skill: SkillName
    from_level: Annotated[int, Field(ge=-1, le=99)] = Field(
        default=-1, description="The level owned now; -1 for a skill not owned."
    )
    to_level: Annotated[int, Field(ge=-1, le=99)] = Field(description="-1: sold entirely.")
    free: bool = Field(
        default=False, description="A free skill (F:L829, a free package): level 0 is not "
        "paid for; sold entirely, half its price comes back (F:L720).",
    )  # fmt: skip


class FamiliarityChange(Model):
    name: Name = Field(description="An environment, or a gravity band.")
    from_points: Annotated[int, Field(ge=0, le=MOST_FAMILIARITY)] = 0
    to_points: Annotated[int, Field(ge=0, le=MOST_FAMILIARITY)]
    free_points: Annotated[int, Field(ge=0, le=MOST_FAMILIARITY)] = Field(
        default=0, description="Points the free package gave: not paid for; sold, half back."
    )


class LongTermFamiliarityPurchase(Model):
    subject: Name = Field(description="What it is familiarity with: a ship, a city, a rifle.")
    skill: SkillName | None = Field(
        default=None, description="The skill it is used with; none: a field or an attribute."
    )


class FieldChange(FieldInput):
    sell: bool = Field(default=False, description="Sell this purchase back instead.")
    free: bool = Field(default=False, description="Sold, a free package's field: half back.")


class SpendInput(Model):
    general: Points = Field(description="General character points available.")
    education: Points = Field(default=0, description="Education character points available.")
    attributes: tuple[AttributeChange, ...] = Field(default=(), max_length=9)
    skills: tuple[SkillChange, ...] = Field(default=(), max_length=60)
    environments: tuple[FamiliarityChange, ...] = Field(default=(), max_length=20)
    gravities: tuple[FamiliarityChange, ...] = Field(default=(), max_length=10)
    long_term_familiarities: tuple[LongTermFamiliarityPurchase, ...] = Field(
        default=(), max_length=20
    )
    unique_insights: tuple[SkillName, ...] = Field(default=(), max_length=5)
    fields: tuple[FieldChange, ...] = Field(default=(), max_length=40)
    ambidexterity: bool = False
    wealth_rows: Annotated[int, Field(ge=-10, le=10)] = Field(
        default=0, description="Rows of wealth bought (+, 20 each) or given up (-, 10 back)."
    )
    extra_weapon_classes: Annotated[int, Field(ge=0, le=10)] = Field(
        default=0, description="Favored weapon classes past the free ones (HTH level 10+)."
    )
    transfers: tuple[TransferInput, ...] = Field(default=(), max_length=10)
    options: SkillOptions = Field(default=SkillOptions())


class Line(Model):
    item: str
    pool: Pool
    cost: int = Field(description="Character points; negative, points back.")


class Balance(Model):
    available: int
    spent: int
    left: int


class Ledger(Model):
    lines: list[Line]
    general: Balance
    education: Balance


Item = TypeVar("Item")


def _priced(
    name: str, items: Iterable[Item], price: Callable[[Item], list[Line]], errors: list[InputError]
) -> list[Line]:
    """Each item's lines; its errors collected under the item's place in the request."""
    lines = []
    for index, item in enumerate(items):
        try:
            lines += price(item)
        except InputError as error:
            errors.append(InputError((name, index, *error.loc), error.message))
    return lines


def _direction(start: int, end: int, selling: bool) -> None:
    if end < start and not selling:
        raise InputError(("to",), "spending raises; selling back is character/reallocate")


def _attribute(change: AttributeChange, selling: bool) -> list[Line]:
    _direction(change.trained, change.to, selling)
    if change.to < min(change.trained, change.inherent):
        raise InputError(("to",), "below inherent only by injury or privation (F:L471)")
    low, high = sorted((change.trained, change.to))
    cost = sum(training_steps(change.inherent, low, high))
    sign = 1 if change.to >= change.trained else -1
    return [Line(item=f"{change.attribute.value} {change.trained} to {change.to}",
                 pool=Pool.GENERAL, cost=sign * cost)]  # fmt: skip


def _skill(change: SkillChange, options: SkillOptions, selling: bool) -> list[Line]:
    _direction(change.from_level, change.to_level, selling)
    row = skill_row(change.skill, ("skill",))
    cost = skill_price(row, change.from_level, change.to_level, change.free, options)
    if change.free and change.to_level < 0 <= change.from_level:
        cost -= round_half_up(Fraction(3 * row.cost, 2))  # the free level 0 sold off at half
    return [Line(item=f"{row.skill} {change.from_level} to {change.to_level}",
                 pool=Pool.GENERAL, cost=cost)]  # fmt: skip


def familiarity_cost(change: FamiliarityChange, rate: int) -> int:
    """Each point bought costs the rate, a free one nothing; sold, each comes back at what it
    cost, a free one at half (F:L720), rounded half up over the item."""
    if change.to_points >= change.from_points:
        paid = range(max(change.from_points, change.free_points), change.to_points)
        return rate * len(paid)
    back = sum((Fraction(rate, 2) if point < change.free_points else Fraction(rate)
               for point in range(change.to_points, change.from_points)), Fraction(0))  # fmt: skip
    return -round_half_up(back)


def _familiarity(kind: str, rate: int, selling: bool) -> Callable[[FamiliarityChange], list[Line]]:
    def price(change: FamiliarityChange) -> list[Line]:
        _direction(change.from_points, change.to_points, selling)
        return [Line(item=f"{kind} {change.name} {change.from_points} to {change.to_points}",
                     pool=Pool.GENERAL, cost=familiarity_cost(change, rate))]  # fmt: skip

    return price


def ltf_cost(ltf: LongTermFamiliarityPurchase) -> int:
    """A field's or an attribute's costs 10 CPs, a skill's 5 x its Cost (F:L2063)."""
    return ltf_cp(None if ltf.skill is None else skill_row(ltf.skill, ("skill",)).cost)


def _ltf(ltf: LongTermFamiliarityPurchase) -> list[Line]:
    return [Line(item=f"long-term familiarity: {ltf.subject}", pool=Pool.GENERAL,
                 cost=ltf_cost(ltf))]  # fmt: skip


def _insight(skill: str) -> list[Line]:
    row = skill_row(skill, ())
    return [Line(item=f"unique insight: {row.skill}", pool=Pool.GENERAL,
                 cost=INSIGHT_TIMES * row.cost)]  # fmt: skip


def _field(change: FieldChange, selling: bool) -> list[Line]:
    if (change.sell or change.free) and not selling:
        raise InputError(("sell",), "selling back is character/reallocate")
    if change.free and not change.sell:
        raise InputError(("free",), "a free field is not bought; it may be sold off")
    found = priced(change)
    cost = found.cost
    if change.sell:
        cost = -round_half_up(Fraction(cost, 2)) if change.free else -cost
    return [Line(item=f"{found.field}: {', '.join(found.bought)}", pool=Pool.EDUCATION,
                 cost=cost)]  # fmt: skip


def transfer_lines(transfer: TransferInput) -> list[Line]:
    target = Pool.EDUCATION if transfer.source is Pool.GENERAL else Pool.GENERAL
    item = f"{transfer.points} {transfer.source.value} for {transfer.points // 2} {target.value}"
    return [Line(item=item, pool=transfer.source, cost=transfer.points),
            Line(item=item, pool=target, cost=-(transfer.points // 2))]  # fmt: skip


def _flat(request: SpendInput) -> list[Line]:
    lines = []
    if request.ambidexterity:
        lines.append(Line(item="ambidexterity", pool=Pool.GENERAL, cost=AMBIDEXTERITY))
    rows = request.wealth_rows
    if rows:
        lines.append(Line(item=f"wealth {rows:+d} rows", pool=Pool.GENERAL,
                          cost=wealth_cost(rows)))  # fmt: skip
    if request.extra_weapon_classes:
        lines.append(Line(item=f"{request.extra_weapon_classes} extra favored weapon classes",
                          pool=Pool.GENERAL,
                          cost=EXTRA_PICK_CP * request.extra_weapon_classes))  # fmt: skip
    return lines


def _once(name: str, keys: Iterable[object], message: str, errors: list[InputError]) -> None:
    """An error for each entry whose key an earlier entry of the list already has."""
    seen: set[object] = set()
    for index, key in enumerate(keys):
        if key in seen:
            errors.append(InputError((name, index), message))
        seen.add(key)


def ltf_key(ltf: LongTermFamiliarityPurchase) -> tuple[str, str]:
    """What makes two long-term familiarities the same: the ability (a skill by any of its
    names, AMB-46) and the subject."""
    return canonical_skill(ltf.skill or "").casefold(), ltf.subject.casefold()


def insight_key(skill: str) -> str:
    """What makes two unique insights the same: the skill, by any of its names (AMB-46)."""
    return canonical_skill(skill).casefold()


def once_only(request: SpendInput, errors: list[InputError]) -> None:
    """A character may obtain only one long-term familiarity with a given situation or object
    for one ability (F:L1316, F:L2067: not three with Handguns for one pistol), and only one
    unique insight into a skill (F:L1117): bought twice in one request is refused."""
    _once("long_term_familiarities", map(ltf_key, request.long_term_familiarities),
          "one long-term familiarity for an ability and subject (F:L2067)", errors)  # fmt: skip
    _once("unique_insights",
          map(insight_key, request.unique_insights),
          "one unique insight into a skill (F:L1117)", errors)  # fmt: skip


def lines_of(request: SpendInput, selling: bool, errors: list[InputError]) -> list[Line]:
    """Every purchase priced, in the order of the request's fields."""
    options = request.options
    once_only(request, errors)
    return [
        *_priced("attributes", request.attributes, lambda c: _attribute(c, selling), errors),
        *_priced("skills", request.skills, lambda c: _skill(c, options, selling), errors),
        *_priced("environments", request.environments,
                 _familiarity("E", E_POINT, selling), errors),
        *_priced("gravities", request.gravities, _familiarity("G", G_POINT, selling), errors),
        *_priced("long_term_familiarities", request.long_term_familiarities, _ltf, errors),
        *_priced("unique_insights", request.unique_insights, _insight, errors),
        *_priced("fields", request.fields, lambda c: _field(c, selling), errors),
        *_flat(request),
        *_priced("transfers", request.transfers, transfer_lines, errors),
    ]  # fmt: skip


def balances(
    lines: Sequence[Line], general: int, education: int, errors: list[InputError]
) -> tuple[Balance, Balance]:
    """What is left in each pool; a pool overspent is an error named by the pool (F:L752)."""
    found = []
    for pool, available in ((Pool.GENERAL, general), (Pool.EDUCATION, education)):
        spent = sum(line.cost for line in lines if line.pool is pool)
        if spent > available:
            errors.append(InputError((pool.value,), f"{spent} {pool.value} points spent, "
                                     f"{available} available"))  # fmt: skip
        found.append(Balance(available=available, spent=spent, left=available - spent))
    return found[0], found[1]


def ledger(request: SpendInput, selling: bool, errors: list[InputError]) -> Ledger:
    lines = lines_of(request, selling, errors)
    general, education = balances(lines, request.general, request.education, errors)
    if errors:
        raise Violations(errors)
    return Ledger(lines=lines, general=general, education=education)


@operation(
    name="cp/spend",
    kind=Kind.VALIDATION,
    covers=("foresight.cp.spend",),
    example={"general": 225, "education": 95,
             "attributes": [{"attribute": "DX", "inherent": 8, "trained": 8, "to": 10}],
             "skills": [{"skill": "Theory", "to_level": 4}],
             "environments": [{"name": "forest", "to_points": 2}],
             "fields": [{"field": "Law", "target": "standard"}]},
)  # fmt: skip
def spend(request: SpendInput) -> Ledger:
    """The character-point table (F:L726-748): training an attribute 5 a point to inherent + 2,
    then 10 and 20; a skill 3 x its cost at level 0, its cost a level to 10 x its limit and
    twice beyond; an E point 2 and a G point 5, to 3; a long-term familiarity 5 x the skill's
    cost; ambidexterity 15; a wealth row 20, or 10 back; fields from the education points; two
    points of one kind buy one of the other (F:L714). Every error is named at once, and so is
    a pool overspent: Amy's sixteen skills at level 0 cost 45, not 48 (F:L867)."""
    return ledger(request, selling=False, errors=[])


class ReallocateInput(SpendInput):
    in_play: bool = Field(default=False, description="The character has been played.")
    gm_permission: bool = Field(
        default=False, description="In play, the GM's explicit permission (F:L1029)."
    )


@operation(
    name="character/reallocate",
    kind=Kind.VALIDATION,
    covers=("foresight.character.reallocate",),
    example={"general": 0,
             "skills": [{"skill": "Pain Resistance", "from_level": 4, "to_level": 0,
                         "free": True},
                        {"skill": "Disguise", "from_level": 4, "to_level": -1},
                        {"skill": "Charisma", "from_level": 4, "to_level": 11}]},
)  # fmt: skip
def reallocate(request: ReallocateInput) -> Ledger:
    """Before play anything bought may be sold back for its purchase cost and the points spent
    again; in play only with the GM's explicit permission (F:L1027-1029, F:L1061). Amy sells
    Pain Resistance 4 to 0 for 8, Athletics 4 to 3 for 2, Disguise entirely for 8 + 6 = 14 and
    Teach 4 to 2 for 2: 26 (F:L1033-1041)."""
    errors = []
    if request.in_play and not request.gm_permission:
        errors.append(InputError(("gm_permission",), "in play, only with the GM's explicit "
                                 "permission (F:L1029)"))  # fmt: skip
    return ledger(request, selling=True, errors=errors)
