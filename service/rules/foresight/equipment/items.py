"""Item modifications (catalogue part 2, #101; F:L3595-3616): customised versions of any item.

Each row of the Item Modifications table (F:L3601-3612) multiplies an item's size, weight,
price and damage scale, adds to its tech level and performance modifier, and may move its
failure range one letter better or worse ('-' leaves a column alone). Modifications stack
(an "elegant, modern, flashy chronometer", F:L3616): multipliers multiply, additions add,
and the failure range moves a step for each Better or Worse. A negative TL modifier means an
item built with low-tech manufacturing, not necessarily low-tech knowledge (F:L3614).

Figures are exact: a table's 1.1 is 11/10 and a caller's 0.05 kg is 1/20 kg, never a float.
A size word (tiny ... large, F:L3502) is kept as it is: the size multiplier is reported, and
applies to a size given in metres.
"""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.equipment.checks import ItemFailureShiftOptions, shift_failure_range
from service.rules.foresight.equipment.failure import FailureCode
from service.rules.foresight.equipment.reference import ItemSizeClass
from service.rules.foresight.mortality.damage import MAX_DS, decimal
from service.rules.model import Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["ITEM_MODIFICATIONS", "ItemModification", "ItemModificationRow", "modify_item"]

#: The most modifications one request applies (each row of the table about once).
MAX_MODIFICATIONS = 12
BIG = 10**9


class ItemModification(StrEnum):
    CHEAP_SHODDY = "cheap_shoddy"
    CRUDE = "crude"
    LARGE = "large"
    COMPACT = "compact"
    MINIATURE = "miniature"
    MICRO = "micro"
    MODERN = "modern"
    RELIABLE = "reliable"
    RUGGEDIZED = "ruggedized"
    FLASHY = "flashy"
    ELEGANT = "elegant"


class ItemReliabilityChange(StrEnum):
    BETTER = "better"
    WORSE = "worse"


class ItemModificationRow(Model):
    """A row of the Item Modifications table; null is its '-' (no change)."""

    name: ItemModification
    written: str
    size: float | None = Field(description="Multiplies the size.")
    weight: float | None = Field(description="Multiplies the weight.")
    tl: float | None = Field(description="Added to the TL; negative: low-tech manufacture.")
    tl_written: str = Field(description="As printed: '+0.25', '-0.5*'.")
    price: float | None = Field(description="Multiplies the price.")
    pm: int | None = Field(description="Added to the performance modifier.")
    fail: ItemReliabilityChange | None = Field(description="One letter better or worse.")
    ds: float | None = Field(description="Multiplies the damage scale.")
    source: str


ITEM_MODIFICATIONS = table(__name__, "item-modifications", ItemModificationRow)
_ROWS = {row.name: row for row in ITEM_MODIFICATIONS}
#: The multiplied columns: the row's name, the item's.
MULTIPLIED = {"size": "size_m", "weight": "weight_kg", "price": "price_svu", "ds": "ds"}


class ItemStats(Model):
    """An item's characteristics (F:L3498-3593); null where it states none."""

    size_m: float | None = Field(default=None, gt=0, le=BIG, description="Metric size, m.")
    size_class: ItemSizeClass | None = Field(default=None, description="Or a size word.")
    weight_kg: float | None = Field(default=None, ge=0, le=BIG)
    tl: float | None = Field(default=None, ge=0, le=20)
    price_svu: float | None = Field(default=None, ge=0, le=BIG)
    pm: int = Field(default=0, ge=-20, le=20, description="Performance modifier (F:L3562).")
    fail: FailureCode | None = Field(
        default=None, description="Failure range; null: none stated, utterly reliable (A)."
    )
    ds: float | None = Field(default=None, gt=0, le=MAX_DS, description="Damage scale.")


class ItemModifyInput(Model):
    item: ItemStats = Field(default=ItemStats(), description="The item as listed.")
    modifications: Annotated[
        tuple[ItemModification, ...], Field(min_length=1, max_length=MAX_MODIFICATIONS)
    ] = Field(description="Applied in order; they stack (F:L3616).")
    options: ItemFailureShiftOptions = Field(default=ItemFailureShiftOptions())


class ItemModificationStep(Model):
    modification: ItemModification
    column: str
    change: str = Field(description="'x1.1', '+0.25', '-1', 'better'.")
    before: str | None = Field(description="Exactly, as a fraction ('11/10'), or the letter.")
    after: str | None


class ModifiedItem(Model):
    size_m: Exact | None
    size_class: ItemSizeClass | None = Field(description="Kept: a word does not multiply.")
    weight_kg: Exact | None
    tl: Exact | None = Field(description="Can fall below the TL table's 0: low-tech built.")
    price_svu: Exact | None
    pm: int
    fail: str
    ds: Exact | None


class ItemModified(Model):
    base: ItemStats
    item: ModifiedItem
    size_multiplier: Exact
    weight_multiplier: Exact
    price_multiplier: Exact
    ds_multiplier: Exact
    tl_change: Exact
    pm_change: int
    fail_steps: int = Field(description="Net letters better (+) or worse (-).")
    steps: list[ItemModificationStep]


def _text(value: Fraction | None) -> str | None:
    return None if value is None else exact(value).exact


def _maybe(value: Fraction | None) -> Exact | None:
    return None if value is None else exact(value)


class _Work:
    """The running figures of an item under modification, and the steps that made them."""

    def __init__(self, base: ItemStats) -> None:
        self.values: dict[str, Fraction | None] = {
            mine: None if getattr(base, mine) is None else decimal(getattr(base, mine))
            for mine in [*MULTIPLIED.values(), "tl"]
        }
        self.factors = dict.fromkeys(MULTIPLIED, Fraction(1))
        self.tl_change = Fraction(0)
        self.pm = base.pm
        self.fail = base.fail or "A"
        self.fail_steps = 0
        self.steps: list[ItemModificationStep] = []

    def step(self, what: ItemModification, column: str, change: str, before: str | None,
             after: str | None) -> None:  # fmt: skip
        self.steps.append(ItemModificationStep(
            modification=what, column=column, change=change, before=before, after=after,
        ))  # fmt: skip

    def apply(self, row: ItemModificationRow, options: ItemFailureShiftOptions, at: int) -> None:
        for column, mine in MULTIPLIED.items():
            factor = getattr(row, column)
            if factor is None:
                continue
            amount = decimal(factor)
            self.factors[column] *= amount
            before = self.values[mine]
            after = None if before is None else before * amount
            self.values[mine] = after
            self.step(row.name, mine, f"x{factor:g}", _text(before), _text(after))
        if row.tl is not None:
            amount = decimal(row.tl)
            self.tl_change += amount
            before = self.values["tl"]
            self.values["tl"] = None if before is None else before + amount
            self.step(row.name, "tl", row.tl_written.rstrip("*"), _text(before),
                      _text(self.values["tl"]))  # fmt: skip
        if row.pm is not None:
            self.step(row.name, "pm", f"{row.pm:+d}", str(self.pm), str(self.pm + row.pm))
            self.pm += row.pm
        if row.fail is not None:
            steps = 1 if row.fail is ItemReliabilityChange.BETTER else -1
            after_fail = shift_failure_range(self.fail, steps, options, ("modifications", at))
            self.step(row.name, "fail", row.fail.value, self.fail, after_fail)
            self.fail, self.fail_steps = after_fail, self.fail_steps + steps


def modify_item(item: ItemStats, modifications: tuple[ItemModification, ...],
                options: ItemFailureShiftOptions) -> ItemModified:  # fmt: skip
    """The item with each modification applied in turn (F:L3601-3616)."""
    work = _Work(item)
    for at, modification in enumerate(modifications):
        work.apply(_ROWS[modification], options, at)
    values = work.values
    return ItemModified(
        base=item,
        item=ModifiedItem(
            size_m=_maybe(values["size_m"]),
            size_class=item.size_class,
            weight_kg=_maybe(values["weight_kg"]),
            tl=_maybe(values["tl"]),
            price_svu=_maybe(values["price_svu"]),
            pm=work.pm,
            fail=work.fail,
            ds=_maybe(values["ds"]),
        ),
        size_multiplier=exact(work.factors["size"]),
        weight_multiplier=exact(work.factors["weight"]),
        price_multiplier=exact(work.factors["price"]),
        ds_multiplier=exact(work.factors["ds"]),
        tl_change=exact(work.tl_change),
        pm_change=work.pm - item.pm,
        fail_steps=work.fail_steps,
        steps=work.steps,
    )


@operation(
    name="item/modify",
    kind=Kind.CALCULATION,
    covers=("foresight.item.modify",),
    example={
        "item": {"size_class": "tiny", "weight_kg": 0.05, "tl": 5.5, "price_svu": 10, "fail": "C"},
        "modifications": ["elegant", "modern", "flashy"],
    },
)
def item_modify(request: ItemModifyInput) -> ItemModified:
    """An item with modifications (F:L3601-3612), applied in order and stacking (F:L3616):
    size, weight, price and DS multiply, TL and PM add, and Better or Worse moves the failure
    range a letter (F:L3589); an item with none stated is utterly reliable, A (F:L3566). An
    elegant, modern, flashy chronometer (F:L3616) is 0.9 x 0.8 x 1.1 = 0.792 the size,
    0.693 the weight, 4 x 0.6 x 1.5 = 3.6 times the price and 0.48 the DS, TL +0.35, one
    letter more reliable."""
    return modify_item(request.item, request.modifications, request.options)
