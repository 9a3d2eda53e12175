"""Melee weapons (catalogue part 2, #72 and #73; F:L3714-3769): a weapon's row as the caller
sends it, what it gives at a range in given hands (PM, absolute DC, parry modifier, draw) and
the penalty for a weapon too heavy for its wielder.

A weapon row has the Mêlée Weapons table's shape (F:L3738-3769): PM and DC modifier at close
(0 m), normal (1 m) and reach (2 m), null where the table has '-' (the weapon cannot be used
there); its DC is relative to the wielder's UCDC (F:L3636). Long range (3 m) has no data in
the book and is not supported (AMB2-42). The weapon catalogue supplies these rows: a request
may name one by key, `{"catalog": "sabre-longsword", "modifications": [...]}`, read as that row
once validated (weapons.melee).
"""

import math
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import ConfigDict, Field, field_validator

from service.rules.distribution import Exact, exact
from service.rules.foresight.characters.derived import UcdcOptions, UcdcRounding, ucdc_of
from service.rules.foresight.mortality.notation import DamageClass, Notation, parse_damage_class
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.weapons.refs import (
    MAX_MODIFICATIONS,
    MeleeKey,
    MeleeModification,
    either_row_or_catalog,
    overrides,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "Hands",
    "MeleeRange",
    "MeleeWeapon",
    "MeleeWeaponSpec",
    "MinStrengthInput",
    "MinStrengthResult",
    "RangeStats",
    "WeaponProfile",
    "WeaponUse",
    "WeaponUseInput",
    "melee_dc",
    "min_strength",
    "profile",
    "strength_penalty",
    "strength_required",
    "weapon_profile",
    "weapon_terms",
]

Strength = Annotated[int, Field(ge=1, le=60, description="The wielder's Strength.")]
Mass = Annotated[float, Field(ge=0, le=1000, description="Mass in kg (the table's Wgt).")]


class MeleeRange(StrEnum):
    """Close 0 m, normal 1 m, reach 2 m (F:L3120); long (3 m) has no data (AMB2-42)."""

    CLOSE = "close"
    NORMAL = "normal"
    REACH = "reach"


class Hands(StrEnum):
    """'1' one-handed, '2' two-handed only, '1-2' either (F:L3720)."""

    ONE = "1"
    TWO = "2"
    EITHER = "1-2"


class RangeStats(Model):
    """A weapon at one range: its performance modifier and its DC relative to the UCDC."""

    pm: Annotated[int, Field(ge=-10, le=10)]
    dc: Notation = Field(
        description="Relative to the UCDC: '+3m2p', '+0m', '0'.",
        examples=["+3m2p", "+4m", "+0m", "0"],
    )


class MeleeWeapon(Model):
    """A row of the Mêlée Weapons table (F:L3738-3769), modifications already applied."""

    name: Annotated[str, Field(min_length=1, max_length=60)]
    hands: Hands = Hands.ONE
    close: RangeStats | None = Field(default=None, description="Null: '-', cannot be used.")
    normal: RangeStats | None = None
    reach: RangeStats | None = None
    parry: Annotated[int, Field(ge=-10, le=10)] | None = Field(
        default=None, description="Parry modifier; null: cannot parry (Unarmed Lethal)."
    )
    draw: Annotated[int, Field(ge=0, le=20)] | None = Field(
        default=None, description="Draw actions to ready it; null for none (unarmed)."
    )
    mass_kg: Mass | None = Field(default=None, description="Null: no mass to lift (unarmed).")
    unarmed: bool = Field(default=False, description="A bodily attack (Unarmed Combat rows).")


class MeleeWeaponSpec(MeleeWeapon):
    """A melee weapon as a request gives it: its row, or a catalogue row by key with its
    modifications ('catalog', 'modifications'), which validation turns into that row; columns
    also given then replace the row's."""

    model_config = ConfigDict(json_schema_extra=either_row_or_catalog("name"))

    name: str = Field(
        default="",
        max_length=60,
        examples=["Sabre/Longsword"],
        description="Required unless 'catalog'.",
    )
    catalog: MeleeKey | None = Field(
        default=None, description="A weapon/melee/catalog key: 'sabre-longsword'."
    )
    modifications: Annotated[tuple[MeleeModification, ...], Field(max_length=MAX_MODIFICATIONS)] = (
        Field(default=(), description="Applied in order, as weapon/melee/modify does.")
    )


def melee_row_of(spec: MeleeWeaponSpec) -> MeleeWeaponSpec:
    """The row a request names: the catalogue's with its modifications (Draw at least 1) and
    any column given in its place, or the row given, modified."""
    from service.rules.foresight.weapons.melee import MeleeItem, melee_catalog_row, modified_melee
    from service.rules.foresight.weapons.refs import DrawOptions

    fields = {name: getattr(spec, name) for name in MeleeWeapon.model_fields}
    if spec.catalog is not None:
        item: MeleeItem = melee_catalog_row(spec.catalog, ("catalog",))
    elif not spec.name:
        raise InputError(("name",), "give the weapon's 'name' and columns, or its 'catalog' key")
    elif not spec.modifications:
        return spec
    else:
        item = MeleeItem(weapon=MeleeWeapon(**fields))
    found = modified_melee(item, spec.modifications, DrawOptions()).weapon
    given = overrides(spec, fields) if spec.catalog is not None else {}
    return MeleeWeaponSpec(**{name: getattr(found, name) for name in fields} | given)


class WeaponUse(Model):
    """A weapon as wielded: at which range, in how many hands, by how strong a wielder."""

    weapon: MeleeWeaponSpec = Field(
        description="The weapon's row, or a catalogue key with modifications: "
        "{'catalog': 'sabre-longsword'} (weapon/melee/catalog)."
    )
    range: MeleeRange = MeleeRange.NORMAL
    two_handed: bool | None = Field(
        default=None,
        description="Wielded two-handed; null: as its hands allow, one-handed for '1-2'.",
    )
    strength: Strength
    wind_ups: Annotated[int, Field(ge=0, le=10)] = Field(
        default=0, description="Wind-up actions just before the attack: +1 DC each (F:L3024)."
    )
    numbed: bool = Field(
        default=False, description="A numbed appendage: -1 to hit and to DC (F:L3244-3247)."
    )
    exoskeleton_dc: Annotated[int, Field(ge=0, le=20)] = Field(
        default=0, description="An exoskeleton's DC bonus to unarmed attacks (F:L3966)."
    )

    @field_validator("weapon")
    @classmethod
    def _row(cls, spec: MeleeWeaponSpec) -> MeleeWeaponSpec:
        """A catalogue key read as its row, before any rule reads the weapon."""
        return melee_row_of(spec)


class WeaponProfile(Model):
    """What the weapon gives as wielded. `damage_class`, `ucdc` and `dc_modifier` are the
    fields `damage/resolve` takes."""

    weapon: str
    range: MeleeRange
    two_handed: bool
    pm: int = Field(description="Its PM at the range, the two-hand bonus and numbing in.")
    pm_terms: list[Term]
    damage_class: str = Field(description="The table's DC at the range, relative to the UCDC.")
    ucdc: str
    dc_modifier: int = Field(description="Wind-ups, two hands, numbing, exoskeleton.")
    dc_terms: list[Term]
    dc: Exact = Field(description="The absolute DC: UCDC + the weapon's + 'dc_modifier'.")
    dc_written: str = Field(description="As the book writes a DC: '4m2p'.")
    parry: int | None = Field(description="Parry modifier; null: cannot parry.")
    draw: int | None
    strength_required: Exact | None
    strength_penalty: int = Field(description="To attacks and parries (F:L3732).")


def two_handed(use: WeaponUse, loc: tuple[str | int, ...]) -> bool:
    hands = use.weapon.hands
    if use.two_handed is None:
        return hands is Hands.TWO
    if use.two_handed and hands is Hands.ONE:
        raise InputError((*loc, "two_handed"), f"'{use.weapon.name}' is used one-handed")
    if not use.two_handed and hands is Hands.TWO:
        raise InputError((*loc, "two_handed"), f"'{use.weapon.name}' (2) needs both hands")
    return use.two_handed


def stats_at(use: WeaponUse, loc: tuple[str | int, ...]) -> RangeStats:
    found: RangeStats | None = getattr(use.weapon, use.range.value)
    if found is None:
        raise InputError(
            (*loc, "range"), f"'{use.weapon.name}' cannot be used at {use.range.value} range"
        )
    return found


def _bonus(use: WeaponUse, both: bool) -> tuple[int, int]:
    """(PM, DC) of a (1-2) weapon in two hands: +1 and +1 at normal and reach, +0 and +1 at
    close (F:L3720). A (2) weapon's row already is its two-handed use."""
    if not both or use.weapon.hands is not Hands.EITHER:
        return 0, 0
    return (0 if use.range is MeleeRange.CLOSE else 1), 1


def weapon_terms(use: WeaponUse, loc: tuple[str | int, ...] = ()) -> list[Term]:
    """The weapon's terms of the attack's modifier sum: PM at the range, two hands, numbed,
    too heavy (F:L3120, F:L3720, F:L3247, F:L3732)."""
    stats = stats_at(use, loc)
    pm, _ = _bonus(use, two_handed(use, loc))
    found = [
        Term(source=f"{use.weapon.name} PM ({use.range.value})", value=stats.pm),
        Term(source="two-handed (1-2) weapon", value=pm),
        Term(source="numbed appendage", value=-1 if use.numbed else 0),
        Term(source="strength shortfall", value=strength_penalty_of(use, loc)),
    ]
    return [term for term in found if term.value]


def _dc_class(use: WeaponUse, loc: tuple[str | int, ...]) -> DamageClass:
    stats = stats_at(use, loc)
    found = parse_damage_class(stats.dc, (*loc, "weapon", use.range.value, "dc"))
    if not found.relative or found.count != 1:
        raise InputError(
            (*loc, "weapon", use.range.value, "dc"),
            "a melee weapon's DC is one modifier to the UCDC: '+3m2p'",
        )
    return found


def _dc_terms(use: WeaponUse, loc: tuple[str | int, ...]) -> list[Term]:
    _, dc = _bonus(use, two_handed(use, loc))
    if use.exoskeleton_dc and not use.weapon.unarmed:
        raise InputError((*loc, "exoskeleton_dc"), "an exoskeleton adds to unarmed attacks")
    found = [
        Term(source="wind-ups", value=use.wind_ups),
        Term(source="two-handed (1-2) weapon", value=dc),
        Term(source="numbed appendage", value=-1 if use.numbed else 0),
        Term(source="exoskeleton", value=use.exoskeleton_dc),
    ]
    return [term for term in found if term.value]


def melee_dc(
    use: WeaponUse, rounding: UcdcRounding, loc: tuple[str | int, ...] = ()
) -> tuple[Fraction, DamageClass]:
    """The weapon's absolute DC as wielded and its class (type, pierce): UCDC + the table's
    modifier at the range + 1 per wind-up + the two-hand bonus - 1 numbed + an exoskeleton's
    bonus unarmed (F:L3636, F:L3024, F:L3720, F:L3247, F:L3966)."""
    found = _dc_class(use, loc)
    ucdc = Fraction(ucdc_of(use.strength, rounding).ucdc)
    return ucdc + found.value + sum(t.value for t in _dc_terms(use, loc)), found


def written_dc(dc: Fraction, found: DamageClass) -> str:
    number = str(dc.numerator) if dc.denominator == 1 else f"{dc.numerator}/{dc.denominator}"
    pierce = f"{found.pierce}p" if found.pierce else ""
    return f"{number}{found.type.value}{pierce}{'s' if found.stun else ''}"


def strength_required(mass_kg: Fraction, both_hands: bool) -> Fraction:
    """Mass x 5 one-handed, x 3 two-handed (F:L3724-3728)."""
    return mass_kg * (3 if both_hands else 5)


def strength_penalty(required: Fraction, strength: int) -> int:
    """-1 for each three points, or fraction of three, the Strength falls short (F:L3730)."""
    return -math.ceil(max(Fraction(0), required - strength) / 3)


def _mass(value: float) -> Fraction:
    return Fraction(str(value))


def strength_penalty_of(use: WeaponUse, loc: tuple[str | int, ...] = ()) -> int:
    if use.weapon.mass_kg is None:
        return 0
    required = strength_required(_mass(use.weapon.mass_kg), two_handed(use, loc))
    return strength_penalty(required, use.strength)


class WeaponUseInput(WeaponUse):
    options: UcdcOptions = Field(default=UcdcOptions())


def profile(
    use: WeaponUse, rounding: UcdcRounding, loc: tuple[str | int, ...] = ()
) -> WeaponProfile:
    both = two_handed(use, loc)
    stats = stats_at(use, loc)
    terms = [t for t in weapon_terms(use, loc) if t.source != "strength shortfall"]
    dc, found = melee_dc(use, rounding, loc)
    dc_terms = _dc_terms(use, loc)
    mass = use.weapon.mass_kg
    required = None if mass is None else strength_required(_mass(mass), both)
    return WeaponProfile(
        weapon=use.weapon.name,
        range=use.range,
        two_handed=both,
        pm=sum(t.value for t in terms),
        pm_terms=terms,
        damage_class=stats.dc,
        ucdc=ucdc_of(use.strength, rounding).ucdc,
        dc_modifier=sum(t.value for t in dc_terms),
        dc_terms=dc_terms,
        dc=exact(dc),
        dc_written=written_dc(dc, found),
        parry=use.weapon.parry,
        draw=use.weapon.draw,
        strength_required=None if required is None else exact(required),
        strength_penalty=strength_penalty_of(use, loc),
    )


SWORD = {
    "name": "Sabre/Longsword",
    "normal": {"pm": 1, "dc": "+4m"},
    "parry": 1,
    "draw": 3,
    "mass_kg": 1.25,
}


@operation(
    name="melee/weapon-profile",
    kind=Kind.CALCULATION,
    covers=("foresight.melee.weapon_profile",),
    example={"weapon": SWORD, "range": "normal", "strength": 9, "wind_ups": 1},
)
def weapon_profile(request: WeaponUseInput) -> WeaponProfile:
    """A melee weapon as wielded (F:L3714-3769): its PM at the range (close 0 m, normal 1 m,
    reach 2 m; '-' cannot be used there), +1 PM and +1 DC at normal and reach and +1 DC at
    close for a (1-2) weapon in two hands (F:L3720), +1 DC per wind-up (F:L3024), -1 to hit
    and DC numbed (F:L3247), an exoskeleton's bonus to unarmed DC (F:L3966); the absolute DC
    is the UCDC from Strength (F:L491-501) plus all these. A longsword (+4m) swung by ST 9
    (UCDC 2) after one wind-up is DC 7m."""
    return profile(request, request.options.ucdc_rounding)


class MinStrengthInput(Model):
    mass_kg: Annotated[float, Field(gt=0, le=1000)] = Field(description="The weapon's mass.")
    two_handed: bool = False
    strength: Strength


class MinStrengthResult(Model):
    strength_required: Exact
    shortfall: Exact
    penalty: int = Field(description="To attacks and parries with the weapon (F:L3732).")


@operation(
    name="weapon/min-strength",
    kind=Kind.CALCULATION,
    covers=("foresight.weapon.min_strength",),
    example={"mass_kg": 4, "two_handed": True, "strength": 7},
)
def min_strength(request: MinStrengthInput) -> MinStrengthResult:
    """Minimum Strength for a weapon: mass (kg) x 5 one-handed, x 3 two-handed; a weaker
    wielder takes -1 for each three points or fraction short, to attacks and parries
    (F:L3724-3732). Amy's 4 kg briefcase: ST 20 one-handed (-5 at ST 7), 12 two-handed (-2)."""
    required = strength_required(_mass(request.mass_kg), request.two_handed)
    return MinStrengthResult(
        strength_required=exact(required),
        shortfall=exact(max(Fraction(0), required - request.strength)),
        penalty=strength_penalty(required, request.strength),
    )
