"""Item reference (catalogue part 2, #102-#104; F:L3498-3558): size words, units, tech levels.

Sizes are metric or one of five words, tiny to large (F:L3502). Weight (mass) is in kilograms,
pounds being "multiply by two and add ten percent", x 2.2 (F:L3506). Prices are in standard
value units, svu, the cost of a cheap meal or an hour of unskilled labour, about US$6 when the
book was written (F:L3554), and always approximate (F:L3558).

The Technology Level table (F:L3514-3532) gives each TL a Western date, an era and its key
technologies (F:L3534: China ran 500-1000 years ahead until about 400 AD). Fractional TLs sit
between rows: the book dates the typewriter (1874-1878) at "4.4 or so" and the repeating rifle
(Volcanic 1850s, reliable 1873) at 4.25 or 4.35 (F:L3540-3542), as a straight line between the
rows' dates gives. The weapon table lists the repeating rifle at 4.25 (F:L3683), the text at
4.35 (F:L3542): the table's value stands and the answer notes the text (AMB2-39).
"""

from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.mortality.damage import decimal
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "ITEM_SIZES",
    "LB_PER_KG",
    "TECH_LEVELS",
    "USD_PER_SVU",
    "ItemSizeClass",
    "tech_level_at",
    "tech_level_of_year",
]

#: "Multiply by two and add ten percent" (F:L3506): 2 + 2/10 = 11/5.
LB_PER_KG = 2 * (1 + Fraction(1, 10))
#: "About US $6" a svu at the time of writing (F:L3554).
USD_PER_SVU = 6
BIG = 10**9


# --- foresight.item.size_class (#104) --------------------------------------------------------


class ItemSizeClass(StrEnum):
    TINY = "tiny"
    SMALL = "small"
    LUGGABLE = "luggable"
    HEFTY = "hefty"
    LARGE = "large"


class ItemSizeRow(Model):
    size: ItemSizeClass
    order: int = Field(description="1 tiny ... 5 large.")
    like: str = Field(description="As printed: 'the size of a coin', 'briefcase sized'.")
    source: str


ITEM_SIZES = table(__name__, "item-sizes", ItemSizeRow)
_SIZES = {row.size: row for row in ITEM_SIZES}


class ItemSizeInput(Model):
    size: ItemSizeClass | None = Field(default=None, description="Null: every size word.")


class ItemSizes(Model):
    sizes: list[ItemSizeRow]
    note: str


@operation(
    name="item/size-class",
    kind=Kind.LOOKUP,
    covers=("foresight.item.size_class",),
    example={"size": "luggable"},
)
def item_size_class(request: ItemSizeInput) -> ItemSizes:
    """What a size word means (F:L3502): tiny is the size of a coin, small of a handgun,
    luggable a briefcase, hefty a suitcase, large a coffin. Other sizes are metric, and a
    metre is roughly a yard."""
    rows = list(ITEM_SIZES) if request.size is None else [_SIZES[request.size]]
    return ItemSizes(
        sizes=rows, note="Otherwise sizes are metric dimensions; a metre is roughly a yard."
    )


# --- foresight.units.convert (#103) ----------------------------------------------------------


class ItemUnit(StrEnum):
    KG = "kg"
    LB = "lb"
    SVU = "svu"
    USD = "usd"


#: Each unit's counterpart.
_OTHER = {ItemUnit.KG: ItemUnit.LB, ItemUnit.LB: ItemUnit.KG,
          ItemUnit.SVU: ItemUnit.USD, ItemUnit.USD: ItemUnit.SVU}  # fmt: skip


class UnitsConvertInput(Model):
    amount: float = Field(ge=0, le=BIG, description="In 'unit'; 1.5 is read exactly, 3/2.")
    unit: ItemUnit = Field(description="kg <-> lb (F:L3506), svu <-> usd (F:L3554).")
    usd_per_svu: float = Field(
        default=USD_PER_SVU,
        gt=0,
        le=1_000_000,
        description="A svu in US$: about 6 when the book was written (F:L3554); a svu is a "
        "cheap meal or an hour of unskilled labour, so give today's figure.",
    )


class UnitsConverted(Model):
    amount: Exact
    unit: ItemUnit
    converted: Exact
    to: ItemUnit
    factor: Exact = Field(description="converted = amount x factor.")
    how: str


def _factor(unit: ItemUnit, usd_per_svu: Fraction) -> Fraction:
    if unit is ItemUnit.KG:
        return LB_PER_KG
    if unit is ItemUnit.LB:
        return 1 / LB_PER_KG
    return usd_per_svu if unit is ItemUnit.SVU else 1 / usd_per_svu


_HOW = {
    ItemUnit.KG: "x 2, plus ten percent: x 2.2 (F:L3506).",
    ItemUnit.LB: "/ 2.2, the book's kg to lb reversed (F:L3506).",
    ItemUnit.SVU: "A svu is a cheap meal or an hour of unskilled labour (F:L3554); prices "
    "are approximate (F:L3558).",
    ItemUnit.USD: "A svu is a cheap meal or an hour of unskilled labour (F:L3554); prices "
    "are approximate (F:L3558).",
}


@operation(
    name="units/convert",
    kind=Kind.CALCULATION,
    covers=("foresight.units.convert",),
    example={"amount": 1, "unit": "kg"},
)
def units_convert(request: UnitsConvertInput) -> UnitsConverted:
    """Kilograms to pounds, "multiply by two and add ten percent" (F:L3506): 1 kg is 2.2 lb;
    pounds back to kilograms divide by 2.2. Standard value units to US dollars at about $6 a
    svu (F:L3554), or the rate given, and back."""
    amount = decimal(request.amount)
    factor = _factor(request.unit, decimal(request.usd_per_svu))
    return UnitsConverted(
        amount=exact(amount),
        unit=request.unit,
        converted=exact(amount * factor),
        to=_OTHER[request.unit],
        factor=exact(factor),
        how=_HOW[request.unit],
    )


# --- foresight.tech_level.lookup (#102) ------------------------------------------------------


class TechLevelRow(Model):
    tl: float
    date: str = Field(description="As printed: '40,000 BC', '1800 AD', 'na'.")
    year: int | None = Field(description="The date as a year, BC negative; null for TL 0.")
    description: str
    key_technology: str
    source: str


TECH_LEVELS = table(__name__, "tech-levels", TechLevelRow)
#: The dated rows, earliest first.
_DATED = [row for row in TECH_LEVELS if row.year is not None]

#: AMB2-39: which TL the repeating rifle has.
REPEATING_RIFLE_NOTE = (
    "Repeating rifles: the weapon table's TL 4.25 (F:L3683) is used; the text says 4.35, "
    "dating them by the first widely used reliable model, 1873, not the Volcanic of the 1850s "
    "(F:L3542, AMB2-39)."
)


def tech_level_at(tl: Fraction) -> TechLevelRow:
    """The row of a TL, or of the TL below it for a fractional one (4.4 is TL 4's row)."""
    return [row for row in TECH_LEVELS if decimal(row.tl) <= tl][-1]


def tech_level_of_year(year: int) -> tuple[TechLevelRow, Fraction | None]:
    """The row whose date a year has reached, and the TL on a straight line between its date
    and the next row's (F:L3540-3542: 1878 is 4.39, "4.4 or so"); before 40,000 BC, TL 0 and
    no estimate, from 2400 AD, TL 10."""
    reached = [row for row in _DATED if row.year is not None and row.year <= year]
    if not reached:
        return TECH_LEVELS[0], None
    row = reached[-1]
    later = _DATED[len(reached)] if len(reached) < len(_DATED) else None
    if later is None or row.year is None or later.year is None:
        return row, decimal(row.tl)
    span = Fraction(year - row.year, later.year - row.year)
    return row, decimal(row.tl) + span * (decimal(later.tl) - decimal(row.tl))


class TechLevelInput(Model):
    tl: float | None = Field(default=None, ge=0, le=20, description="A TL: 4.4 is TL 4's row.")
    year: int | None = Field(
        default=None, ge=-1_000_000, le=1_000_000, description="Or a year; BC is negative."
    )


class TechLevel(Model):
    row: TechLevelRow = Field(description="The row at or below the TL, or reached by the year.")
    estimated_tl: Exact | None = Field(
        description="For a year: the TL between the rows' dates (1878 -> 4.39, F:L3540)."
    )
    next: TechLevelRow | None = Field(description="The next row up; null at TL 10.")
    note: str = Field(description="Western dates; the repeating rifle's TL (AMB2-39).")


@operation(
    name="tech-level/lookup",
    kind=Kind.LOOKUP,
    covers=("foresight.tech_level.lookup",),
    example={"year": 1878},
)
def tech_level_lookup(request: TechLevelInput) -> TechLevel:
    """The Technology Level table (F:L3514-3532) by TL or by year: TL 4 is the Industrial
    Revolution, 1800 AD (steam engine, battery, telegraph, steel); a fractional TL reads the
    row below it. By year, the TL between the rows' dates: the typewriter's 1878 is 4.39,
    "4.4 or so" (F:L3540), the Volcanic rifle's 1850 4.25 (F:L3542). The repeating rifle is
    TL 4.25 as the weapon table lists it; the text says 4.35 (AMB2-39)."""
    if (request.tl is None) == (request.year is None):
        raise InputError(("tl",), "give either 'tl' or 'year'")
    estimate = None
    if request.tl is not None:
        row = tech_level_at(decimal(request.tl))
    else:
        assert request.year is not None
        row, estimate = tech_level_of_year(request.year)
    at = TECH_LEVELS.rows.index(row)
    return TechLevel(
        row=row,
        estimated_tl=None if estimate is None else exact(estimate),
        next=TECH_LEVELS[at + 1] if at + 1 < len(TECH_LEVELS) else None,
        note="Dates are for Western technology, especially after 1000 BC; the Chinese were "
        "about 500-1000 years ahead until about 400 AD (F:L3534). " + REPEATING_RIFLE_NOTE,
    )
