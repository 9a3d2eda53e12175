"""The Firearms and other Ranged Weapons table (#105, F:L3666-3708) and its modifications
(#106, F:L3775-3798), as data and arithmetic.

A catalogue row carries the combat `RangedWeapon` it is (so `ranged/attack` takes it as it
is), its weight, cost and TL, its seed line and its cells as printed. The table prints two
Revolvers, two SL Pistols, two Stun Pistols, two Laser Pistols and Rifles and two Stun Rifles:
a repeated name's key ends in its TL ('revolver-4.25', 'revolver-4.5'), and the two Stun
Rifles, both printed TL 7, are 'stun-rifle-7' (F:L3695) and 'stun-rifle-7-l3701' (F:L3701).

Modifications stack in the order given (F:L3777): PM, DC, Draw, RL and TL add; Ammo, Range,
Wgt and Cost multiply; Jam moves its letter one step per point, + better (F:L3589); •
after a name adds recoil, -• takes it off; Use replaces; the TL of the burst rows (4.5) and of
the laser sight (5.5) is the least TL they need. Advanced improves only the two columns chosen
and Custom one column at the cost of another (notes *** and †, F:L3794), ROF among them
(F:L3785: a plain ROF moves by one, a bracketed one has no such step). The Ammo factor is
one of capacity (note ***: 'ammunition capacity'): an energy weapon's watt-hours, read by
default as what one shot consumes (F:L3648, AMB2-41 'energy_ammo_semantics'), are divided by
it, so a light laser pistol's 10 Wh a shot becomes 10 / 1.25 = 8 and its pack fires 1.25
times the shots; read as a capacity they are multiplied. Ammo is rounded half up (watt-hours
to the hundredth); a weapon that is its own ammunition ('1*') keeps it; Draw
is kept at 'min_draw' or more (AMB2-43) and RL at 1 or more; '-' stays '-'. A burst's DC is
not added to the weapon's: a burst modification fits `auto`, whose +DC `ranged/attack` adds
to a burst at one target (note ++). The range keeps its base and lists the factors, which
`ranged/attack` multiplies in.
"""

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated

from pydantic import ConfigDict, Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.combat.ranged.ammo import EnergyAmmo
from service.rules.foresight.combat.ranged.weapon import (
    MAX_RANGE_M,
    AutoBurst,
    RangedColumns,
    RangedWeapon,
    RangedWeaponUse,
    fraction,
)
from service.rules.foresight.equipment.failure import shift
from service.rules.foresight.mortality.notation import parse_damage_class
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.weapons.refs import (
    MAX_MODIFICATIONS,
    DrawOptions,
    RangedColumn,
    RangedKey,
    RangedModification,
    RangedModificationName,
    either_row_or_catalog,
    overrides,
    within_bounds,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "RANGED_MODIFICATIONS",
    "RANGED_WEAPONS",
    "RangedItem",
    "RangedModRow",
    "RangedModifyOptions",
    "RangedRow",
    "RangedWeaponSpec",
    "WeaponStep",
    "added_dc",
    "figure",
    "modified_ranged",
    "ranged_weapon_of",
]

Loc = tuple[str | int, ...]
#: The highest ROF a row writes (two digits, `RofNotation`).
MAX_ROF = 99


class RangedItem(Model):
    """A ranged weapon with the columns the combat row leaves out: weight, cost, TL."""

    weapon: RangedWeapon
    mass_kg: float = Field(ge=0, le=10_000, description="The Wgt column, in kg.")
    cost_svu: float = Field(ge=0, le=10**9, description="The Cost column, in svu ('1k' 1000).")
    tl: float = Field(ge=0, le=20)


class RangedRow(RangedItem):
    """A row of Firearms and other Ranged Weapons (F:L3668-3708)."""

    key: str = Field(description="Its catalogue key: 'sl-rifle', 'revolver-4.25'.")
    printed: list[str] = Field(description="The row's cells as printed.")
    line: int


class RangedModRow(Model):
    """A row of Ranged Weapon Modifications (F:L3781-3792); null where it prints '-', '†'
    (Custom's chosen columns) or a note mark ('*', '**')."""

    modification: RangedModificationName
    printed: list[str]
    recoil: int = Field(description="+•• +2, +• +1, -• -1 (F:L3644).")
    pm: int | None
    ammo: str | None = Field(description="A factor.")
    rof: str | None = Field(description="A burst's ROF: '[6]', '[3]'.")
    dc: int | None
    range: str | None = Field(description="A factor.")
    draw: int | None
    rl: int | None
    jam: int | None = Field(description="Letter steps, + better.")
    wgt: str | None = Field(description="A factor.")
    wgt_add_g: int | None = Field(description="The laser sight's +250g.")
    use: RangedWeaponUse | None
    cost: str | None = Field(description="A factor.")
    cost_add_svu: int | None = Field(description="The laser sight's price, 1k.")
    tl_add: str | None
    tl_min: str | None = Field(description="The least TL it needs (bursts 4.5, sight 5.5).")
    line: int


RANGED_WEAPONS = table(__name__, "ranged-weapons", RangedRow)
RANGED_MODIFICATIONS = table(__name__, "ranged-weapon-modifications", RangedModRow)
_BY_KEY = {row.key: row for row in RANGED_WEAPONS}
_MODS = {row.modification: row for row in RANGED_MODIFICATIONS}
#: How Custom improves a column: its step and whether that is a factor (note †, F:L3794).
_CUSTOM: dict[RangedColumn, tuple[str, str]] = {
    RangedColumn.AMMO: ("1.15", "0.85"),
    RangedColumn.ROF: ("+1", "-1"),
    RangedColumn.DC: ("+1", "-1"),
    RangedColumn.RANGE: ("1.15", "0.85"),
    RangedColumn.DRAW: ("-1", "+1"),
    RangedColumn.RL: ("-1", "+1"),
    RangedColumn.JAM: ("+1", "-1"),
    RangedColumn.WGT: ("0.85", "1.15"),
}
_NOTES = {
    RangedModificationName.TARGET: "target sights: +2 when rolling for bonus aim actions",
    RangedModificationName.LASER_SIGHT: "laser sight: a bonus aim action every combat round",
    RangedModificationName.ADVANCED: "advanced: only the two columns chosen improve",
}
_BURSTS = {
    RangedModificationName.AUTO_LONG_BURST: AutoBurst.LONG,
    RangedModificationName.AUTO_SHORT_BURST: AutoBurst.SHORT,
}


class RangedModifyOptions(DrawOptions):
    """The fewest Draw actions (AMB2-43) and what an energy weapon's watt-hours are (AMB2-41)."""

    energy_ammo_semantics: EnergyAmmo = option(
        EnergyAmmo.PER_SHOT,
        ambiguity="AMB2-41",
        description=(
            "An energy weapon's 'Wh': what one shot consumes (F:L3648), so an Ammo factor, "
            "one of capacity (F:L3794), divides it (light: 10 Wh / 1.25 = 8 Wh a shot); or "
            "its capacity, which the factor multiplies (10 Wh x 1.25 = 12.5 Wh)."
        ),
    )


class WeaponStep(Model):
    """One column changed by one modification, its arithmetic shown."""

    modification: str
    column: str
    before: str
    after: str
    how: str = Field(description="e.g. '1.5 x 0.9 = 1.35', '6i + 1 = 7i', 'C +1 step = B'.")


def figure(value: Fraction) -> str:
    """A figure as a reader writes it: '1.215', '3', or '7/3' when no decimal is exact."""
    if value.denominator == 1:
        return str(value.numerator)
    decimal = repr(value.numerator / value.denominator)
    return decimal if Fraction(decimal) == value else str(value)


def added_dc(written: str, add: int, loc: Loc) -> str:
    """A DC as the tables write it, `add` added to its number: '6i' + 2 = '8i', '+3m2p' + 1 =
    '+4m2p', '2x16b' + 1 = '2x17b' (F:L3630-3634)."""
    found = parse_damage_class(written, loc)
    value = found.value + add
    if not found.relative and value < 0:
        raise InputError(loc, f"'{written}' {add:+d} falls below DC 0")
    count = f"{found.count}x" if found.count > 1 else ""
    number = f"{value:+d}" if found.relative else str(value)
    kind = "" if found.type.value == "none" else found.type.value
    pierce = f"{found.pierce}p" if found.pierce else ""
    return f"{count}{number}{kind}{pierce}{'s' if found.stun else ''}"


@dataclass
class _Work:
    """The row being modified, column by column."""

    name: str
    weapon: RangedWeapon
    mass: Fraction
    cost: Fraction
    tl: Fraction
    energy: EnergyAmmo
    labels: list[str] = field(default_factory=list)
    multipliers: list[float] = field(default_factory=list)
    steps: list[WeaponStep] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def set(self, label: str, column: str, before: str, after: str, how: str) -> None:
        self.steps.append(WeaponStep(modification=label, column=column, before=before, after=after,
                               how=how))  # fmt: skip

    def change(self, **values: object) -> None:
        self.weapon = self.weapon.model_copy(update=values)


def _ammo(work: _Work, label: str, factor: str) -> None:
    before = work.weapon.ammo
    found = re.fullmatch(r"(\d+(?:\.\d+)?)(Wh|\*)?", before)
    assert found is not None
    if found.group(2) == "*":
        work.set(label, "ammo", before, before, "the weapon is its own ammunition: unchanged")
        return
    if found.group(2) == "Wh" and work.energy is EnergyAmmo.PER_SHOT:
        # The factor is one of capacity (F:L3794): more shots from a pack, less a shot.
        value = Fraction(found.group(1)) / Fraction(factor)
        how = f"{found.group(1)} Wh a shot / {factor} = {figure(value)}, rounded half up"
    else:
        value = Fraction(found.group(1)) * Fraction(factor)
        how = f"{found.group(1)} x {factor} = {figure(value)}, rounded half up"
    if found.group(2) == "Wh":
        hundredths = round_half_up(value * 100)
        after = f"{figure(Fraction(hundredths, 100))}Wh"
    else:
        after = str(max(1, round_half_up(value)))
    work.set(label, "ammo", before, after, how)
    work.change(ammo=after)


def _dc(work: _Work, label: str, add: int, loc: Loc) -> None:
    before = work.weapon.dc
    if before is None:
        return
    after = added_dc(before, add, loc)
    work.set(label, "dc", before, after, f"{before} {add:+d} = {after}")
    work.change(dc=after)


def _range(work: _Work, label: str, factor: str) -> None:
    old = fraction(work.weapon.range_m)
    for known in work.multipliers:
        old *= fraction(known)
    work.multipliers.append(float(factor))
    new = old * Fraction(factor)
    work.set(label, "range", f"{figure(old)}m", f"{figure(new)}m",
             f"{figure(old)} x {factor} = {figure(new)} m")  # fmt: skip


def _rof(work: _Work, label: str, add: int, loc: Loc) -> None:
    """Custom's ROF (F:L3785): a plain ROF of shots an action moves by one, to 1 at least. A
    bracketed ROF (a prepare action, F:L3658) or a burst's rounds has no such step."""
    before = work.weapon.rof
    if not before.isdigit() or work.weapon.auto is not None:
        raise InputError(loc, f"custom moves a plain ROF by one, not '{before}'")
    after = int(before) + add
    if not 1 <= after <= MAX_ROF:
        raise InputError(loc, f"ROF {before} {add:+d} is not 1 to {MAX_ROF}")
    work.set(label, "rof", before, str(after), f"{before} {add:+d}")
    work.change(rof=str(after))


def _draw(work: _Work, label: str, add: int) -> None:
    before = work.weapon.draw
    work.set(label, "draw", str(before), str(before + add), f"{before} {add:+d}")
    work.change(draw=max(0, before + add))
    if before + add < 0:
        work.notes.append(f"draw {before + add} read as 0, then raised to 'min_draw'")


def _rl(work: _Work, label: str, add: int) -> None:
    before = work.weapon.rl
    if before == "-":
        work.set(label, "rl", "-", "-", "'-' stays '-'")
        return
    star = "*" if before.endswith("*") else ""
    value = max(1, int(before.rstrip("*")) + add)
    after = f"{value}{star}"
    work.set(label, "rl", before, after, f"{before.rstrip('*')} {add:+d}, at least 1")
    work.change(rl=after)


def _jam(work: _Work, label: str, steps: int, loc: Loc) -> None:
    before = work.weapon.jam
    after = shift(before, steps, loc)
    work.set(label, "jam", before, after, f"{before} {steps:+d} step(s), + better = {after}")
    work.change(jam=after)


def _wgt(work: _Work, label: str, factor: str) -> None:
    after = work.mass * Fraction(factor)
    work.set(label, "wgt", f"{figure(work.mass)}kg", f"{figure(after)}kg",
             f"{figure(work.mass)} x {factor} = {figure(after)} kg")  # fmt: skip
    work.mass = after


def _column(work: _Work, label: str, column: RangedColumn, step: str, loc: Loc) -> None:
    """One of the columns Advanced and Custom choose, moved by `step` ('+1', '0.85')."""
    if column is RangedColumn.AMMO:
        _ammo(work, label, step)
    elif column is RangedColumn.ROF:
        _rof(work, label, int(step), loc)
    elif column is RangedColumn.DC:
        _dc(work, label, int(step), loc)
    elif column is RangedColumn.RANGE:
        _range(work, label, step)
    elif column is RangedColumn.DRAW:
        _draw(work, label, int(step))
    elif column is RangedColumn.RL:
        _rl(work, label, int(step))
    elif column is RangedColumn.JAM:
        _jam(work, label, int(step), loc)
    else:
        _wgt(work, label, step)


def _row_step(row: RangedModRow, column: RangedColumn) -> str | None:
    value = getattr(row, column.value)
    return None if value is None else str(value)


def _chosen(mod: RangedModification, loc: Loc) -> list[tuple[RangedColumn, str]]:
    """The columns Advanced improves (two, note ***) or Custom trades (note †)."""
    row = _MODS[mod.modification]
    if mod.modification is RangedModificationName.ADVANCED:
        if len(set(mod.columns)) != 2:
            raise InputError((*loc, "columns"), "advanced improves two different columns")
        chosen = [(column, _row_step(row, column)) for column in mod.columns]
        for column, step in chosen:
            if step is None:
                raise InputError((*loc, "columns"), f"advanced does not improve '{column}'")
        return [(column, step) for column, step in chosen if step is not None]
    if mod.improve is None or mod.worsen is None or mod.improve is mod.worsen:
        raise InputError((*loc, "improve"), "custom improves one column and worsens another")
    return [(mod.improve, _CUSTOM[mod.improve][0]), (mod.worsen, _CUSTOM[mod.worsen][1])]


def _check(mod: RangedModification, loc: Loc) -> None:
    name = mod.modification
    if mod.columns and name is not RangedModificationName.ADVANCED:
        raise InputError((*loc, "columns"), "only 'advanced' chooses columns")
    if (mod.improve or mod.worsen) and name is not RangedModificationName.CUSTOM:
        raise InputError((*loc, "improve"), "only 'custom' improves and worsens columns")
    if mod.sight_weight_g is not None and name is not RangedModificationName.LASER_SIGHT:
        raise InputError((*loc, "sight_weight_g"), "only 'laser_sight' has a sight weight")


def _fixed(work: _Work, row: RangedModRow, loc: Loc) -> None:
    """Every column of a row that is not Advanced or Custom, in the table's order."""
    label = row.modification.value
    if row.pm:
        work.set(label, "pm", str(work.weapon.pm), str(work.weapon.pm + row.pm), f"{row.pm:+d}")
        work.change(pm=work.weapon.pm + row.pm)
    if row.ammo is not None:
        _ammo(work, label, row.ammo)
    if row.modification in _BURSTS:
        if work.weapon.auto is not None:
            raise InputError(loc, "a weapon takes one auto burst modification")
        work.set(label, "rof", work.weapon.rof, str(row.rof), f"a burst of {row.rof} (++)")
        work.change(rof=row.rof, auto=_BURSTS[row.modification])
    elif row.dc is not None:
        _dc(work, label, row.dc, (*loc, "dc"))
    for name, step in (("range", row.range), ("wgt", row.wgt)):
        if step is not None:
            _column(work, label, RangedColumn(name), step, loc)
    for name, add in (("draw", row.draw), ("rl", row.rl), ("jam", row.jam)):
        if add is not None:
            _column(work, label, RangedColumn(name), str(add), loc)
    if row.use is not None:
        work.set(label, "use", work.weapon.use.value, row.use.value, "replaced")
        work.change(use=row.use)


def _apply(work: _Work, mod: RangedModification, loc: Loc) -> None:
    _check(mod, loc)
    row = _MODS[mod.modification]
    label = row.modification.value
    work.labels.append(label.replace("_", " "))
    if mod.modification in (RangedModificationName.ADVANCED, RangedModificationName.CUSTOM):
        for column, step in _chosen(mod, loc):
            _column(work, label, column, step, loc)
    else:
        _fixed(work, row, loc)
    if row.recoil:
        after = max(0, work.weapon.recoil + row.recoil)
        work.set(label, "recoil", "•" * work.weapon.recoil, "•" * after, f"{row.recoil:+d} •")
        work.change(recoil=after)
    _extras(work, row, mod)


def _extras(work: _Work, row: RangedModRow, mod: RangedModification) -> None:
    """The laser sight's own weight and price, then Cost and TL."""
    label = row.modification.value
    if row.wgt_add_g is not None:
        grams = round_half_up(Fraction(repr(mod.sight_weight_g or row.wgt_add_g)))
        after = work.mass + Fraction(grams, 1000)
        work.set(label, "wgt", f"{figure(work.mass)}kg", f"{figure(after)}kg",
                 f"+ {grams} g (the sight's weight, rounded half up)")  # fmt: skip
        work.mass = after
    if row.cost is not None or row.cost_add_svu is not None:
        after = work.cost * Fraction(row.cost or 1) + (row.cost_add_svu or 0)
        how = f"x {row.cost}" if row.cost is not None else f"+ {row.cost_add_svu} svu"
        work.set(label, "cost", figure(work.cost), figure(after), how)
        work.cost = after
    if row.tl_add is not None or row.tl_min is not None:
        after = work.tl + Fraction(row.tl_add or 0)
        after = max(after, Fraction(row.tl_min or 0))
        how = f"+{row.tl_add}" if row.tl_add else f"at least {row.tl_min}"
        work.set(label, "tl", figure(work.tl), figure(after), how)
        work.tl = after
    if row.modification in _NOTES and _NOTES[row.modification] not in work.notes:
        work.notes.append(_NOTES[row.modification])


class RangedModified(Model):
    """The modified row: `weapon` is what `ranged/attack` and `attack` take."""

    weapon: RangedWeapon
    mass_kg: Exact
    cost_svu: Exact
    tl: Exact
    range_increment_m: Exact = Field(description="The range with its factors multiplied in.")
    steps: list[WeaponStep] = Field(description="Each column's arithmetic, in order.")
    notes: list[str]


def modified_ranged(
    item: RangedItem,
    mods: tuple[RangedModification, ...],
    options: RangedModifyOptions,
    loc: Loc = ("modifications",),
) -> RangedModified:
    """The row with each modification applied in order (F:L3779-3794)."""
    start = item.weapon
    work = _Work(start.name, start, Fraction(repr(item.mass_kg)), Fraction(repr(item.cost_svu)),
                 Fraction(repr(item.tl)), options.energy_ammo_semantics,
                 multipliers=list(start.range_multipliers))  # fmt: skip
    for index, mod in enumerate(mods):
        _apply(work, mod, (*loc, index))
    draw = max(options.min_draw, work.weapon.draw)
    if draw != work.weapon.draw:
        work.set("min_draw", "draw", str(work.weapon.draw), str(draw), "at least 'min_draw'")
    name = start.name if not work.labels else f"{start.name} ({', '.join(work.labels)})"
    weapon = work.weapon.model_copy(
        update={"draw": draw, "range_multipliers": tuple(work.multipliers), "name": name[:80]}
    )
    weapon = within_bounds(RangedWeapon, weapon, loc)
    increment = fraction(weapon.range_m)
    for factor in weapon.range_multipliers:
        increment *= fraction(factor)
    return RangedModified(weapon=weapon, mass_kg=exact(work.mass), cost_svu=exact(work.cost),
                          tl=exact(work.tl), range_increment_m=exact(increment),
                          steps=work.steps, notes=work.notes)  # fmt: skip


def catalog_row(key: str, loc: Loc) -> RangedRow:
    found = _BY_KEY.get(key.lower())
    if found is None:
        raise InputError(loc, f"no ranged weapon '{key}' in the catalogue (weapon/ranged/catalog)")
    return found


class RangedWeaponSpec(RangedColumns):
    """A ranged weapon: its row given ('use', 'range_m' and the rest), or a catalogue row by
    key ('catalog') with modifications, any column also given taking the row's place."""

    model_config = ConfigDict(json_schema_extra=either_row_or_catalog("use", "range_m"))

    use: RangedWeaponUse | None = Field(default=None, description="Required unless 'catalog'.")
    range_m: float | None = Field(
        default=None, gt=0, le=MAX_RANGE_M, description="Required unless 'catalog'."
    )
    catalog: RangedKey | None = None
    modifications: Annotated[
        tuple[RangedModification, ...], Field(max_length=MAX_MODIFICATIONS)
    ] = Field(default=(), description="With 'catalog': applied in order (weapon/ranged/modify).")


def ranged_weapon_of(spec: RangedWeaponSpec, loc: Loc = ("weapon",)) -> RangedWeapon:
    """The weapon a request names: the catalogue's row with its modifications (Draw at least
    1) and then any column given in its place, or the row given with its modifications."""
    given = overrides(spec, RangedWeapon.model_fields)
    if spec.catalog is not None:
        item: RangedItem = catalog_row(spec.catalog, (*loc, "catalog"))
    elif spec.use is None or spec.range_m is None:
        raise InputError((*loc, "use" if spec.use is None else "range_m"),
                         "give the weapon's 'use' and 'range_m', or its 'catalog' key")  # fmt: skip
    else:
        row = RangedWeapon(**{name: getattr(spec, name) for name in RangedWeapon.model_fields})
        if not spec.modifications:
            return row
        # Only the weapon is read back: a row given has no weight, cost or TL to modify.
        item = RangedItem(weapon=row, mass_kg=0, cost_svu=0, tl=0)
        given = {}
    found = modified_ranged(
        item, spec.modifications, RangedModifyOptions(), (*loc, "modifications")
    )
    return found.weapon.model_copy(update=given)


class RangedCatalogInput(Model):
    name: Annotated[str, Field(max_length=60)] | None = Field(
        default=None, description="Part of the name or key, any case: 'pistol', 'revolver-4'."
    )
    tl_min: float | None = Field(default=None, ge=0, le=20)
    tl_max: float | None = Field(default=None, ge=0, le=20)
    use: RangedWeaponUse | None = Field(default=None, description="Only this skill's weapons.")


class RangedCatalog(Model):
    count: int
    rows: list[RangedRow]


def _tl_range(low: float | None, high: float | None) -> None:
    if low is not None and high is not None and low > high:
        raise InputError(("tl_max",), "tl_max is below tl_min")


@operation(
    name="weapon/ranged/catalog",
    kind=Kind.LOOKUP,
    covers=("foresight.weapon.ranged.catalog",),
    example={"name": "rifle", "tl_min": 5, "tl_max": 6},
)
def ranged_catalog(request: RangedCatalogInput) -> RangedCatalog:
    """Firearms and other Ranged Weapons (F:L3666-3708), searched by part of the name or key
    (any case), a TL range and the Use: the SL Rifle (TL 5, F:L3688) is PM 0, Ammo 10, ROF 1,
    DC 9i2p, range 25 m, Draw 3, RL 3, Jam B, 4 kg, Longarms, 1k svu, recoil ••. A repeated
    name's key ends in its TL ('revolver-4.25'); each row is usable as a weapon by its key."""
    _tl_range(request.tl_min, request.tl_max)
    wanted = (request.name or "").casefold()
    found = [
        row
        for row in RANGED_WEAPONS
        if (wanted in row.weapon.name.casefold() or wanted in row.key)
        and (request.tl_min is None or row.tl >= request.tl_min)
        and (request.tl_max is None or row.tl <= request.tl_max)
        and (request.use is None or row.weapon.use is request.use)
    ]
    return RangedCatalog(count=len(found), rows=found)


class RangedModifyInput(Model):
    catalog: RangedKey | None = Field(default=None, description="A catalogue row's key.")
    row: RangedItem | None = Field(default=None, description="Instead of 'catalog': a row.")
    modifications: Annotated[tuple[RangedModification, ...], Field(max_length=MAX_MODIFICATIONS)]
    options: RangedModifyOptions = Field(default=RangedModifyOptions())


@operation(
    name="weapon/ranged/modify",
    kind=Kind.CALCULATION,
    covers=("foresight.weapon.ranged.modify",),
    example={
        "catalog": "sl-pistol-5",
        "modifications": [
            {"modification": "advanced", "columns": ["wgt", "dc"]},
            {"modification": "advanced", "columns": ["wgt", "dc"]},
            {"modification": "laser_sight", "sight_weight_g": 122.5},
        ],
    },
)
def ranged_modify(request: RangedModifyInput) -> RangedModified:
    """A ranged weapon modified (F:L3779-3794): PM, DC, Draw, RL and TL add; Ammo, Range, Wgt
    and Cost multiply; Jam moves a letter per point (+ better); • adds recoil; Use replaces;
    Advanced improves the two columns chosen (x1.2 cost), Custom improves one column by 1 or
    x1.15/x0.85 and worsens another the same way (x5 cost); a burst fits `auto` (its +DC is
    for a burst at one target). Amy's sidearm (X33, F:L3798): an SL Pistol advanced x2 on
    weight and DC with a modern x2 laser sight is 1.5 x 0.81 + 0.123 = 1.338 kg and 8i; with
    both Advanced choices spent, its range stays 3 m (AMB2-40). An energy weapon's Wh a shot
    is divided by an Ammo factor (AMB2-41: light, 10 Wh / 1.25 = 8 Wh a shot)."""
    if (request.catalog is None) == (request.row is None):
        raise InputError(("catalog",), "give either 'catalog' or 'row'")
    item = request.row or catalog_row(str(request.catalog), ("catalog",))
    return modified_ranged(item, request.modifications, request.options)
