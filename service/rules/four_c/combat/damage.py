"""Damage (C:L1165-1198, C:L1280): what a hit deals, what armor stops, pulling a punch, and
the damage of a hold. No dice: damage is a number."""

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_c.combat.options import (
    ArmorScope,
    ArmorStacking,
    CombatOptions,
    PiercingOptions,
    RushDamage,
    ThrownDamage,
)
from service.rules.four_c.combat.tables import WEAPONS, Weapon
from service.rules.four_c.core.ranks import Laddered, RankValue, stepped
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["Armors", "armor_of", "pierced", "through"]

Points = Annotated[int, Field(ge=0, le=100_000)]
Armors = Annotated[tuple[RankValue, ...], Field(max_length=8)]


class Attack(StrEnum):
    UNARMED = "unarmed"
    ONE_HANDED = "one_handed"
    TWO_HANDED = "two_handed"
    THROWN = "thrown"
    WEAPON = "weapon"
    POWER = "power"
    RUSH = "rush"


#: What a melee weapon adds to Brawn (C:L1167).
MELEE_BONUS = {Attack.UNARMED: 0, Attack.ONE_HANDED: 5, Attack.TWO_HANDED: 10}


class DamageInput(Laddered):
    attack: Attack
    brawn: RankValue = Field(default=0, description="The attacker's effective Brawn.")
    brawn_row_steps: Annotated[int, Field(ge=-20, le=0)] = Field(
        default=0, description="A block's Row Steps off Brawn, for this damage (combat/block)."
    )
    material_value: RankValue = Field(default=0, description="A thrown object's Material Value.")
    weapon: Weapon | None = Field(default=None, description="For attack=weapon.")
    power_rv: RankValue = Field(default=0, description="For attack=power.")
    fortitude: RankValue = Field(default=0, description="For attack=rush, with rush_damage.")
    options: CombatOptions = Field(default=CombatOptions())


class Damage(Model):
    raw: int


def _brawn(request: DamageInput) -> int:
    """Brawn less a block's Row Steps: the lowest value of the row it falls to (C:L1206-1211,
    A-03)."""
    steps = (request.brawn_row_steps,) if request.brawn_row_steps else ()
    return stepped(request.brawn, steps, request, request.options).rv_effective


def raw_damage(request: DamageInput) -> int:
    if request.attack in MELEE_BONUS:
        return _brawn(request) + MELEE_BONUS[request.attack]
    if request.attack is Attack.THROWN:
        mode = request.options.thrown_damage
        if mode is ThrownDamage.BRAWN:
            return _brawn(request)
        if mode is ThrownDamage.LESSER:
            return min(_brawn(request), request.material_value)
        return request.material_value
    if request.attack is Attack.POWER:
        return request.power_rv
    if request.attack is Attack.RUSH:  # no damage is stated for a rush
        fortitude = request.options.rush_damage is RushDamage.FORTITUDE
        return request.fortitude if fortitude else _brawn(request)
    if request.weapon is None or request.weapon in (Weapon.THROWN, Weapon.POWER):
        raise InputError(
            ("weapon",), "attack=weapon needs a bow, crossbow, pistol, rifle or shotgun"
        )
    return next(w.damage for w in WEAPONS if w.weapon is request.weapon)


@operation(
    name="combat/damage",
    kind=Kind.CALCULATION,
    covers=("4c.combat.damage",),
    example={"attack": "two_handed", "brawn": 30},
)
def damage(request: DamageInput) -> Damage:
    """A melee hit deals the attacker's Brawn, +5 with a one-handed weapon, +10 with a
    two-handed one; a thrown object its Material Value (A-12); a bow, crossbow or pistol 10,
    a rifle 15, a shotgun 25; a power its Rank Value (C:L1165-1190)."""
    return Damage(raw=raw_damage(request))


def armor_of(armors: tuple[int, ...], stacking: ArmorStacking) -> int:
    """The armor that counts: the highest of several, or their sum (A-21)."""
    return sum(armors) if stacking is ArmorStacking.SUM else max(armors, default=0)


def pierced(
    body_armor: int, others: tuple[int, ...], pierce: Callable[[int], int], options: PiercingOptions
) -> int:
    """The armor that counts against a weapon whose rule changes Body Armor (`pierce`): the
    Body Armor changed, the others too only with armor_piercing_scope all_armor, then the
    highest or the sum (A-21)."""
    if options.armor_piercing_scope is ArmorScope.ALL_ARMOR:
        others = tuple(pierce(armor) for armor in others)
    return armor_of((pierce(body_armor), *others), options.armor_stacking)


def through(raw: int, armor: int) -> int:
    """Armor subtracts its Rank Value; what is left is taken, never less than 0 (C:L1192-1194,
    A-22)."""
    return max(raw - armor, 0)


class Result(StrEnum):
    HIT = "hit"
    NAIL = "nail"
    POUND = "pound"
    CONCUSS = "concuss"
    DYING = "dying"


class ArmorInput(Model):
    raw: Points = Field(description="The damage the attack deals.")
    armor: Armors = Field(default=(), description="The Rank Value of each armor worn or active.")
    damage_points: Points | None = Field(
        default=None, description="The target's Damage points before the hit, if known."
    )
    result: Result = Field(default=Result.HIT, description="The attack's result.")
    options: CombatOptions = Field(default=CombatOptions())


class Armored(Model):
    armor: int
    taken: int
    damage_points: int | None
    result: Result = Field(description="A Dying result stopped by the armor is a Hit (A-15).")
    dying: bool = Field(description="The target is Dying: 0 Damage points or a Dying result.")


@operation(
    name="combat/armor",
    kind=Kind.CALCULATION,
    covers=("4c.combat.armor",),
    example={"raw": 20, "armor": [10], "damage_points": 50},
)
def armor(request: ArmorInput) -> Armored:
    """Armor 10 against a 20-point punch lets 10 through (C:L1194); at 0 Damage points the
    target is Dying (C:L1165), and a Dying result drops them to 0 (C:L1274) unless the armor
    stopped it, when it is a Hit (A-15)."""
    worn = armor_of(request.armor, request.options.armor_stacking)
    taken = through(request.raw, worn)
    result = request.result
    if result is Result.DYING and taken == 0 and request.options.dying_requires_penetration:
        result = Result.HIT
    left = None if request.damage_points is None else max(request.damage_points - taken, 0)
    if left is not None and result is Result.DYING:
        left = 0
    return Armored(armor=worn, taken=taken, damage_points=left, result=result,
                   dying=result is Result.DYING or left == 0)  # fmt: skip


class PullInput(Model):
    raw: Points
    result: Result
    damage_cap: Points | None = Field(default=None, description="Declared before the roll.")
    result_cap: Result | None = Field(default=None, description="Declared before the roll.")


class Pulled(Model):
    raw: int
    result: Result


@operation(
    name="combat/pull-punch",
    kind=Kind.CALCULATION,
    covers=("4c.combat.pull_punch",),
    example={"raw": 10, "result": "dying", "result_cap": "nail"},
)
def pull_punch(request: PullInput) -> Pulled:
    """Before attacking, state the most damage and/or the highest result the attack may
    have: Gina's pistol, pulled to a Nail, turns a Dying result into a Nail (C:L1196-1198;
    the two caps are independent, A-47)."""
    order = list(Result)
    result = request.result
    if request.result_cap is not None and order.index(result) > order.index(request.result_cap):
        result = request.result_cap
    cap = request.damage_cap
    return Pulled(raw=request.raw if cap is None else min(request.raw, cap), result=result)


class HoldInput(Model):
    holder_brawn: RankValue
    armor: Armors = ()
    turn: Annotated[int, Field(ge=1, le=1000)] = Field(
        default=2, description="The turn of the hold: 1 is the turn it was made."
    )
    options: CombatOptions = Field(default=CombatOptions())


class HoldDamage(Model):
    raw: int
    taken: int


@operation(
    name="wrestling/hold-damage",
    kind=Kind.CALCULATION,
    covers=("4c.wrestling.hold_damage",),
    example={"holder_brawn": 30, "armor": [10]},
)
def hold_damage(request: HoldInput) -> HoldDamage:
    """Each turn a hold is kept, the held character takes the holder's Brawn in damage
    (C:L1280), less armor (catalogue 3.7.11); from the turn after it is made (A-50)."""
    hurts = request.turn > 1 or request.options.hold_damage_on_establish
    raw = request.holder_brawn if hurts else 0
    worn = armor_of(request.armor, request.options.armor_stacking)
    return HoldDamage(raw=raw, taken=through(raw, worn))
