"""The Mêlée Weapons table (#107, F:L3734-3768) and its modifications (#108, F:L3800-3825),
as data and arithmetic.

A catalogue row carries the combat `MeleeWeapon` it is (so `melee/attack`, `melee/parry` and
`attack` take it as it is), its cost, TL, class, seed line and cells as printed. '(1-2)' after a
name is a weapon for one or two hands, '(2)' for two only (F:L3720). The Fixed Bayonet's Draw
'*' (it is fixed to a rifle) and the Unarmed rows' '-' are a null Draw; a close-range DC printed
'0' (Staff, Spear, Glaive, Halberd) is the wielder's UCDC + 0, written '+0m'.

Modifications stack in the order given: PM and DC at each range, Parry and Draw add; Wgt and
Cost multiply; TL adds. A range the weapon cannot be used at ('-') stays '-', as do a null
Parry, Draw, weight or cost. Improvised prints '?' for Draw, Wgt, Cost and TL: the GM's call,
left unchanged here. Heavy can make a one-handed weapon (1-2) and a (1-2) weapon two-handed,
decided when it is made (F:L3823): `hands`. Draw is kept at 'min_draw' or more (AMB2-43).
"""

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.combat.melee.weapons import Hands, MeleeRange, MeleeWeapon
from service.rules.foresight.weapons.ranged import WeaponStep, added_dc, figure
from service.rules.foresight.weapons.refs import (
    MAX_MODIFICATIONS,
    DrawOptions,
    MeleeKey,
    MeleeModification,
    MeleeModificationName,
    within_bounds,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "MELEE_MODIFICATIONS",
    "MELEE_WEAPONS",
    "MeleeItem",
    "MeleeModRow",
    "MeleeModified",
    "MeleeRow",
    "melee_catalog_row",
    "modified_melee",
]

Loc = tuple[str | int, ...]


class MeleeItem(Model):
    """A melee weapon with the columns the combat row leaves out: cost and TL."""

    weapon: MeleeWeapon
    cost_svu: float | None = Field(default=None, ge=0, le=10**9, description="Null: '-'.")
    tl: float | None = Field(default=None, ge=0, le=20, description="Null: '-'.")


class MeleeRow(MeleeItem):
    """A row of the Mêlée Weapons table (F:L3738-3768)."""

    key: str = Field(description="Its catalogue key: 'sabre-longsword', 'small-shield'.")
    group: str = Field(description="Its class: 'Swords', 'Polearms & Staves', 'Shields'.")
    printed: list[str] = Field(description="The row's cells as printed.")
    line: int


class MeleeModRow(Model):
    """A row of Mêlée Weapon Modifications (F:L3805-3819); null where it prints '-' or '?'."""

    modification: MeleeModificationName
    printed: list[str]
    close_pm: int
    close_dc: int
    normal_pm: int
    normal_dc: int
    reach_pm: int
    reach_dc: int
    parry: int
    draw: int | None
    wgt: str | None = Field(description="A factor.")
    cost: str | None = Field(description="A factor.")
    tl_add: str | None
    unknown: list[str] = Field(description="Columns printed '?': the GM decides.")
    line: int


MELEE_WEAPONS = table(__name__, "melee-weapons", MeleeRow)
MELEE_MODIFICATIONS = table(__name__, "melee-weapon-modifications", MeleeModRow)
_BY_KEY = {row.key: row for row in MELEE_WEAPONS}
_MODS = {row.modification: row for row in MELEE_MODIFICATIONS}
_MORE_HANDS = {Hands.ONE: Hands.EITHER, Hands.EITHER: Hands.TWO}


@dataclass
class _Work:
    weapon: MeleeWeapon
    mass: Fraction | None
    cost: Fraction | None
    tl: Fraction | None
    labels: list[str] = field(default_factory=list)
    steps: list[WeaponStep] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def set(self, label: str, column: str, before: str, after: str, how: str) -> None:
        self.steps.append(WeaponStep(modification=label, column=column, before=before, after=after,
                               how=how))  # fmt: skip

    def change(self, **values: object) -> None:
        self.weapon = self.weapon.model_copy(update=values)


def _ranges(work: _Work, row: MeleeModRow, loc: Loc) -> None:
    label = row.modification.value
    for reach in MeleeRange:
        stats = getattr(work.weapon, reach.value)
        pm, dc = getattr(row, f"{reach.value}_pm"), getattr(row, f"{reach.value}_dc")
        if stats is None:
            if pm or dc:
                work.set(label, reach.value, "-", "-", "'-' stays '-'")
            continue
        new = stats.model_copy(
            update={"pm": stats.pm + pm, "dc": added_dc(stats.dc, dc, (*loc, reach.value))}
        )
        if pm:
            work.set(label, f"{reach.value} pm", str(stats.pm), str(new.pm), f"{pm:+d}")
        if dc:
            work.set(label, f"{reach.value} dc", stats.dc, new.dc, f"{stats.dc} {dc:+d}")
        work.change(**{reach.value: new})


def _adds(work: _Work, row: MeleeModRow) -> None:
    label = row.modification.value
    for column, add in (("parry", row.parry), ("draw", row.draw)):
        before = getattr(work.weapon, column)
        if not add:
            continue
        if before is None:
            work.set(label, column, "-", "-", "'-' stays '-'")
            continue
        work.set(label, column, str(before), str(before + add), f"{add:+d}")
        work.change(**{column: max(0, before + add) if column == "draw" else before + add})


def _factors(work: _Work, row: MeleeModRow) -> None:
    label = row.modification.value
    if row.wgt is not None and row.wgt != "1.0" and work.mass is not None:
        after = work.mass * Fraction(row.wgt)
        work.set(label, "wgt", f"{figure(work.mass)}kg", f"{figure(after)}kg", f"x {row.wgt}")
        work.mass = after
    if row.cost is not None and work.cost is not None:
        after = work.cost * Fraction(row.cost)
        work.set(label, "cost", figure(work.cost), figure(after), f"x {row.cost}")
        work.cost = after
    if row.tl_add is not None and work.tl is not None:
        after = work.tl + Fraction(row.tl_add)
        work.set(label, "tl", figure(work.tl), figure(after), row.tl_add)
        work.tl = after
    if row.unknown:
        work.notes.append(f"{label}: {', '.join(row.unknown)} printed '?': the GM decides")


def _hands(work: _Work, hands: Hands | None, mods: tuple[MeleeModification, ...]) -> None:
    """Each heavy modification may add a hand: one-handed to (1-2), (1-2) to two-handed,
    decided when the weapon is made (F:L3823)."""
    before = work.weapon.hands
    if hands is None or hands is before:
        return
    order = [Hands.ONE, Hands.EITHER, Hands.TWO]
    steps = order.index(hands) - order.index(before)
    heavy = sum(mod.modification is MeleeModificationName.HEAVY for mod in mods)
    if not 0 < steps <= heavy:
        raise InputError(("hands",), f"{heavy} heavy modification(s) cannot make a "
                         f"'{before.value}' weapon '{hands.value}' (F:L3823)")  # fmt: skip
    work.set("heavy", "hands", before.value, hands.value, "made heavier to take more hands")
    work.change(hands=hands)


class MeleeModified(Model):
    """The modified row: `weapon` is what `melee/attack`, `melee/parry` and `attack` take."""

    weapon: MeleeWeapon
    cost_svu: Exact | None
    tl: Exact | None
    mass_kg: Exact | None
    steps: list[WeaponStep] = Field(description="Each column's arithmetic, in order.")
    notes: list[str]


def _fraction(value: float | None) -> Fraction | None:
    return None if value is None else Fraction(repr(value))


def modified_melee(
    item: MeleeItem,
    mods: tuple[MeleeModification, ...],
    options: DrawOptions,
    loc: Loc = ("modifications",),
    hands: Hands | None = None,
) -> MeleeModified:
    """The row with each modification applied in order (F:L3802-3823), and the hands its
    heavy modifications give it."""
    start = item.weapon
    work = _Work(start, _fraction(start.mass_kg), _fraction(item.cost_svu), _fraction(item.tl))
    for index, mod in enumerate(mods):
        row = _MODS[mod.modification]
        work.labels.append(mod.modification.value.replace("_", " "))
        _ranges(work, row, (*loc, index))
        _adds(work, row)
        _factors(work, row)
    _hands(work, hands, mods)
    draw = work.weapon.draw
    if draw is not None and draw < options.min_draw:
        work.set("min_draw", "draw", str(draw), str(options.min_draw), "at least 'min_draw'")
        draw = options.min_draw
    name = start.name if not work.labels else f"{start.name} ({', '.join(work.labels)})"
    mass = None if work.mass is None else float(work.mass)
    weapon = work.weapon.model_copy(update={"name": name[:60], "draw": draw, "mass_kg": mass})
    weapon = within_bounds(MeleeWeapon, weapon, loc)
    return MeleeModified(
        weapon=weapon,
        cost_svu=None if work.cost is None else exact(work.cost),
        tl=None if work.tl is None else exact(work.tl),
        mass_kg=None if work.mass is None else exact(work.mass),
        steps=work.steps,
        notes=work.notes,
    )


def melee_catalog_row(key: str, loc: Loc) -> MeleeRow:
    found = _BY_KEY.get(key.lower())
    if found is None:
        raise InputError(loc, f"no melee weapon '{key}' in the catalogue (weapon/melee/catalog)")
    return found


class MeleeCatalogInput(Model):
    name: Annotated[str, Field(max_length=60)] | None = Field(
        default=None, description="Part of the name, key or class, any case: 'sword'."
    )
    tl_min: float | None = Field(default=None, ge=0, le=20)
    tl_max: float | None = Field(default=None, ge=0, le=20)


class MeleeCatalog(Model):
    count: int
    rows: list[MeleeRow]


def _wanted(row: MeleeRow, request: MeleeCatalogInput) -> bool:
    text = (request.name or "").casefold()
    named = any(text in found.casefold() for found in (row.weapon.name, row.key, row.group))
    if request.tl_min is None and request.tl_max is None:
        return named
    if row.tl is None:
        return False
    low, high = request.tl_min, request.tl_max
    return named and (low is None or row.tl >= low) and (high is None or row.tl <= high)


@operation(
    name="weapon/melee/catalog",
    kind=Kind.LOOKUP,
    covers=("foresight.weapon.melee.catalog",),
    example={"name": "sword", "tl_max": 2.5},
)
def melee_catalog(request: MeleeCatalogInput) -> MeleeCatalog:
    """The Mêlée Weapons table (F:L3734-3768), searched by part of the name, key or class (any
    case) and a TL range: the Sabre/Longsword (F:L3742) cannot strike close, is PM +1 and DC
    +4m at normal range (1 m) and cannot reach; it parries at +1, takes 3 Draw actions, weighs
    1.25 kg, costs 250 svu, TL 2.5. DCs are added to the wielder's UCDC (F:L3636). The unarmed
    rows, with no TL, are found only when no TL is asked for."""
    low, high = request.tl_min, request.tl_max
    if low is not None and high is not None and low > high:
        raise InputError(("tl_max",), "tl_max is below tl_min")
    found = [row for row in MELEE_WEAPONS if _wanted(row, request)]
    return MeleeCatalog(count=len(found), rows=found)


class MeleeModifyInput(Model):
    catalog: MeleeKey | None = Field(default=None, description="A catalogue row's key.")
    row: MeleeItem | None = Field(default=None, description="Instead of 'catalog': a row.")
    modifications: Annotated[tuple[MeleeModification, ...], Field(max_length=MAX_MODIFICATIONS)]
    hands: Hands | None = Field(
        default=None,
        description="The hands it takes once made heavier: each 'heavy' can make a one-handed "
        "weapon (1-2) and a (1-2) weapon two-handed (F:L3823); null: unchanged.",
    )
    options: DrawOptions = Field(default=DrawOptions())


@operation(
    name="weapon/melee/modify",
    kind=Kind.CALCULATION,
    covers=("foresight.weapon.melee.modify",),
    example={
        "catalog": "club",
        "modifications": [{"modification": "improvised"}, {"modification": "heavy"}],
    },
)
def melee_modify(request: MeleeModifyInput) -> MeleeModified:
    """A melee weapon modified (F:L3802-3825): PM and DC at each range, Parry and Draw add;
    Wgt and Cost multiply; TL adds; '-' stays '-'. Amy's briefcase as an improvised heavy
    club (F:L3732): close PM -1 -1 -1 = -3, DC +2m -1 = +1m; normal PM 0 -1 = -1, DC +2m -1
    +1 = +2m; parry -1 -1 = -2; 2 kg x 1.3 = 2.6 kg (the GM then rates its weight: 4 kg)."""
    if (request.catalog is None) == (request.row is None):
        raise InputError(("catalog",), "give either 'catalog' or 'row'")
    item = request.row or melee_catalog_row(str(request.catalog), ("catalog",))
    return modified_melee(item, request.modifications, request.options, hands=request.hands)
