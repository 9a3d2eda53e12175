"""What a character starts with besides his points (catalogue 3.C.7, 3.C.8, 3.C.14): the free
package of his setting and the four skills everyone has, what selling a free item off gives
back, and his wealth (F:L689-722, F:L1000-1025)."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.characters.backgrounds import Pool, wealth_cost
from service.rules.foresight.characters.skills import SKILLS, skill_row
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "FREE_PACKAGES",
    "WEALTH",
    "free_package",
    "package_row",
    "sell_off",
    "wealth",
    "wealth_of",
]


class Points(Model):
    environment: str
    points: int


class Gravity(Model):
    band: str
    points: int


class PackageRow(Model):
    setting: str
    fields: tuple[str, ...]
    environment_points: int
    environments: tuple[Points, ...] = Field(description="Those fixed; the rest are chosen.")
    gravities: tuple[Gravity, ...]
    skills: tuple[str, ...]
    notes: str
    source: str


class WealthRow(Model):
    level: str
    worth: int
    below: bool = Field(description="Worth less than this (Starvation).")


FREE_PACKAGES = table(__name__, "free_packages", PackageRow)
WEALTH = table(__name__, "wealth", WealthRow)

Setting = Annotated[str, Field(min_length=1, max_length=60)]


class PackageInput(Model):
    setting: Setting = "Default"


class Package(Model):
    setting: str
    fields: list[str]
    environment_points: int
    environments: list[Points]
    environment_points_to_choose: int
    gravities: list[Gravity]
    skills: list[str] = Field(description="At level 0, the universal four included.")
    notes: str


#: Skills everyone has, whatever the culture (F:L695, F:L829).
UNIVERSAL = tuple(row.skill for row in SKILLS if row.free)


def package_row(setting: str) -> PackageRow:
    found = next((r for r in FREE_PACKAGES if r.setting.casefold() == setting.casefold()), None)
    if found is None:
        names = ", ".join(r.setting for r in FREE_PACKAGES)
        raise InputError(("setting",), f"the book's examples are {names}; the GM may make one")
    return found


@operation(
    name="free-packages",
    kind=Kind.LOOKUP,
    covers=("foresight.free_packages",),
    example={"setting": "Near Future"},
)
def free_package(request: PackageInput) -> Package:
    """The optional free package of the setting: fields and level-0 skills everyone there
    has, environmental and gravity familiarities (F:L697-708), and the four skills everyone
    has anywhere: Pain Resistance, Stamina, Search and Initiative (F:L695). Amy's Near Future
    package (F:L712)."""
    row = package_row(request.setting)
    fixed = sum(p.points for p in row.environments)
    return Package(setting=row.setting, fields=list(row.fields),
                   environment_points=row.environment_points,
                   environments=list(row.environments),
                   environment_points_to_choose=row.environment_points - fixed,
                   gravities=list(row.gravities),
                   skills=[*row.skills, *(s for s in UNIVERSAL if s not in row.skills)],
                   notes=row.notes)  # fmt: skip


class SellInput(Model):
    skill: Annotated[str, Field(min_length=1, max_length=40)] | None = Field(
        default=None, description="A free skill at level 0: its cost is 3 x the table's."
    )
    cost: Annotated[int, Field(ge=1, le=1000)] | None = Field(
        default=None, description="Or what the free item would cost to buy (a field, a "
        "familiarity: 2 an E point, 5 a G point, F:L742-743).",
    )  # fmt: skip
    field: bool = Field(default=False, description="A field: refunded as education points.")


class Sold(Model):
    refund: int = Field(description="Half the cost, rounded half up.")
    ledger: Pool


@operation(
    name="free-items/sell-off",
    kind=Kind.CALCULATION,
    covers=("foresight.free_items.sell_off",),
    example={"skill": "Pain Resistance"},
)
def sell_off(request: SellInput) -> Sold:
    """During creation a free skill or piece of knowledge may be sold off for half what it
    would cost to buy: Pain Resistance would cost 6 at level 0, so 3 come back (F:L720);
    skills and familiarities refund general points, fields education ones."""
    if (request.skill is None) == (request.cost is None):
        raise InputError(("skill",), "give the free skill, or the cost of the free item")
    if request.skill is not None and request.field:
        # A skill is bought, so refunded, with general points; fields with education ones.
        raise InputError(("field",), "a skill is no field: it refunds general points")
    cost = request.cost if request.skill is None else 3 * skill_row(request.skill).cost
    assert cost is not None
    ledger = Pool.EDUCATION if request.field else Pool.GENERAL
    return Sold(refund=round_half_up(Fraction(cost, 2)), ledger=ledger)


class Series(StrEnum):
    PRINTED = "printed"
    TIMES_FIVE = "times_five"


class WealthOptions(Model):
    wealth_series: Series = option(
        Series.PRINTED,
        ambiguity="AMB-15",
        description="The printed worths (Rich and Filthy Rich are x4) and x5 beyond them, or "
        "x5 throughout as the footer says (F:L1013-1015).",
    )


Level = Annotated[str, Field(min_length=1, max_length=20)]


class WealthInput(Model):
    start: Level = Field(default="Average", description="The GM's typical level (F:L1002).")
    background_rows: Annotated[int, Field(ge=-20, le=20)] = Field(
        default=0, description="Rows from background factors (Privileged +1, Underprivileged -1)."
    )
    bought_rows: Annotated[int, Field(ge=-10, le=10)] = Field(
        default=0, description="Rows bought (+, 20 CP each) or sold (-, 10 CP back each)."
    )
    options: WealthOptions = Field(default=WealthOptions())


class Wealth(Model):
    level: str
    worth: Exact = Field(
        description="Total worth in svu, a cheap meal or an hour's labour; exact as a string, "
        "since the rows past Filthy Rich outgrow the integers of GraphQL and JSON numbers."
    )
    less_than: bool = Field(description="Worth less than this: Starvation (F:L1007).")
    cp_cost: int = Field(description="What the bought rows cost; negative, what sold ones give.")


def _worth(index: int, series: Series) -> int:
    rows = list(WEALTH)
    if series is Series.TIMES_FIVE and index > 0:
        return int(rows[1].worth * 5 ** (index - 1))
    if index < len(rows):
        return rows[index].worth
    return int(rows[-1].worth * 5 ** (index - len(rows) + 1))


@operation(
    name="wealth",
    kind=Kind.CALCULATION,
    covers=("foresight.wealth",),
    example={"start": "Average", "bought_rows": -1},
)
def wealth(request: WealthInput) -> Wealth:
    """Wealth levels from Starvation (less than 40 svu) through Average (25,000) to Filthy
    Rich (2,000,000), times 5 a row further (F:L1006-1015); a row bought costs 20 character
    points and one given up returns 10 (F:L747-748): Amy could go from Average to Struggling
    for 10 points (F:L1023)."""
    return wealth_of(request.start, request.background_rows, request.bought_rows,
                     request.options.wealth_series)  # fmt: skip


def wealth_of(start: str, background_rows: int, bought: int, series: Series) -> Wealth:
    names = [row.level.casefold() for row in WEALTH]
    if start.casefold() not in names:
        raise InputError(("start",), f"one of {', '.join(r.level for r in WEALTH)}")
    # Nothing is below Starvation (catalogue 3.C.14): a row not there is not given up, so
    # it earns no points back (F:L748).
    here = max(names.index(start.casefold()) + background_rows, 0)
    index = max(here + bought, 0)
    rows = list(WEALTH)
    beyond = index - len(rows) + 1
    level = rows[index].level if beyond <= 0 else f"{rows[-1].level} +{beyond}"
    cost = wealth_cost(index - here)
    worth = exact(Fraction(_worth(index, series)))
    return Wealth(level=level, worth=worth, less_than=index == 0, cp_cost=cost)
