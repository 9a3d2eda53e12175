"""Fields of knowledge (catalogue 3.C.12, F:L889-977, F:L2244-2270): the table of 52 fields
bought with education points at basic, standard and specialization levels, and what a
language costs by immersion or from the general points of Wide Travels."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.foresight.characters.skills import AliasRow, aliased
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["FIELDS", "field_level", "language_discount"]


class FieldRow(Model):
    field: str
    basic: int | None = Field(description="Null: no basic level; standard is the entry.")
    standard: int
    specialization: int | None
    tl: str
    source: str


FIELDS = table(__name__, "fields", FieldRow, covers=("foresight.field.catalog",))


class Level(StrEnum):
    NONE = "none"
    BASIC = "basic"
    STANDARD = "standard"


class Target(StrEnum):
    BASIC = "basic"
    STANDARD = "standard"
    SPECIALIZATION = "specialization"


FieldName = Annotated[str, Field(min_length=1, max_length=60)]


class FieldInput(Model):
    field: FieldName
    owned: Level = Level.NONE
    target: Target
    with_basic_only: bool = Field(
        default=False,
        description="The optional rule: a specialization on basic knowledge, 20% dearer (F:L903).",
    )
    early: bool = Field(
        default=False,
        description="The optional rule: basic knowledge one TL early, at double cost (F:L909).",
    )


class FieldCost(Model):
    field: str
    cost: int = Field(description="Education character points.")
    bought: list[str] = Field(description="The levels this buys, in order.")


FIELD_ALIASES = table(__name__, "field_aliases", AliasRow)


def _named_field(name: str) -> FieldRow | None:
    wanted = aliased(FIELD_ALIASES, name).casefold()
    return next((r for r in FIELDS if r.field.casefold() == wanted), None)


def field_row(name: str, loc: tuple[str | int, ...] = ("field",)) -> FieldRow:
    """The table's row for `name`, by the book's other names for it (AMB-46); a field with
    its subject, 'Language (French)' or 'Market Field (Vehicles)', is its row."""
    found = _named_field(name) or _named_field(name.split(" (")[0])
    if found is None:
        raise InputError(loc, f"{name!r} is not in the field table (F:L923-977); the GM may "
                              "price a new one like a field of similar scope")  # fmt: skip
    return found


def _basic(row: FieldRow, request: FieldInput) -> tuple[int, list[str]]:
    """What basic knowledge adds to this purchase, if the field has it and it is not owned."""
    if row.basic is None or request.owned is not Level.NONE:
        return 0, []
    return row.basic * (2 if request.early else 1), ["basic"]


@operation(
    name="field/level",
    kind=Kind.CALCULATION,
    covers=("foresight.field.level",),
    example={"field": "Computer Science", "target": "standard"},
)
def field_level(request: FieldInput) -> FieldCost:
    """Basic knowledge, then standard (basic first if the field has it, paying both), then
    any number of specializations on standard knowledge (F:L897-903): Amy's Computer Science
    costs 5 + 15 (F:L984). A field with no basic level is entered at standard (Photography 5,
    AMB-19)."""
    return priced(request)


def priced(request: FieldInput) -> FieldCost:
    row = field_row(request.field)
    extra, bought = _basic(row, request)
    if request.target is Target.BASIC:
        if row.basic is None:
            raise InputError(("target",), f"{row.field} has no basic level: buy standard")
        if request.owned is not Level.NONE:
            raise InputError(("owned",), "basic knowledge is owned already")
        return FieldCost(field=row.field, cost=extra, bought=bought)
    if request.target is Target.STANDARD:
        if request.owned is Level.STANDARD:
            raise InputError(("owned",), "standard knowledge is owned already")
        return FieldCost(field=row.field, cost=extra + row.standard, bought=[*bought, "standard"])
    if row.specialization is None:
        raise InputError(("target",), f"{row.field} has no specializations (F:L923-977)")
    if request.owned is Level.STANDARD:
        return FieldCost(field=row.field, cost=row.specialization, bought=["specialization"])
    if request.with_basic_only and request.owned is Level.BASIC:
        dearer = round_half_up(Fraction(6, 5) * row.specialization)
        return FieldCost(field=row.field, cost=dearer, bought=["specialization"])
    raise InputError(("owned",), "a specialization needs standard knowledge first (F:L901)")


class LanguageRow(StrEnum):
    LANGUAGE = "Language"
    SIMILAR = "Language (Similar)"
    NEW_ALPHABET = "Language (New Alphabet)"
    ALIEN_CONCEPTS = "Language (Alien Concepts)"


class WideTravels(StrEnum):
    ONE_FOR_ONE = "one_for_one"
    ONE_FOR_ONE_HALF_PRICE = "one_for_one_half_price"
    TWO_FOR_ONE_HALF_PRICE = "two_for_one_half_price"


class LanguageOptions(Model):
    wide_travels_mode: WideTravels = option(
        WideTravels.ONE_FOR_ONE,
        ambiguity="AMB-18",
        description="Wide Travels' general points 'may be used as Education CPs to purchase "
        "language fields at half cost' (F:L635): one for one (half the 2:1 trade), one for "
        "one and the language at half price, or 2:1 and half price.",
    )


class LanguageInput(Model):
    language: LanguageRow
    owned: Level = Level.NONE
    target: Target
    immersion: bool = Field(default=False, description="Learned immersed: 50% off (F:L2250).")
    wide_travels: bool = Field(
        default=False, description="Paid with the general points of Wide Travels (F:L635)."
    )
    options: LanguageOptions = Field(default=LanguageOptions())


class LanguageCost(Model):
    price: int = Field(description="The field's price, immersion taken off.")
    cost: int
    pool: str = Field(description="education, or general: Wide Travels' points.")


@operation(
    name="field/language-discount",
    kind=Kind.CALCULATION,
    covers=("foresight.field.language_discount",),
    example={"language": "Language (New Alphabet)", "target": "standard", "immersion": True},
)
def language_discount(request: LanguageInput) -> LanguageCost:
    """A language learned immersed in a society that speaks it costs half (F:L2250); Language
    (Similar), (New Alphabet) and (Alien Concepts) price a related, a new-script and an alien
    one (F:L2256-2270); Wide Travels' general points buy languages as education points at
    half cost (F:L635, AMB-18), and no purchase comes off by more than half."""
    purchase = FieldInput(field=request.language.value, owned=request.owned,
                          target=request.target)  # fmt: skip
    full = priced(purchase).cost
    mode = request.options.wide_travels_mode
    halved = request.immersion or (request.wide_travels and mode is not WideTravels.ONE_FOR_ONE)
    price = round_half_up(Fraction(full, 2)) if halved else full
    if not request.wide_travels:
        return LanguageCost(price=price, cost=price, pool="education")
    rate = 2 if mode is WideTravels.TWO_FOR_ONE_HALF_PRICE else 1
    return LanguageCost(price=price, cost=rate * price, pool="general")
