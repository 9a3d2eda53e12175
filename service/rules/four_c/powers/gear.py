"""Powers that are things the character owns (C:L750-758, C:L908-910, C:L927-933): a
One-of-a-Kind Weapon and its attacks, the Weapon power's arsenal, and the Vehicle power's
exceptional vehicle (catalogue 3.6)."""

from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_c.combat.attacks import Mode
from service.rules.four_c.combat.tables import (
    MELEE_BASHING,
    MELEE_SLASHING,
    RANGED,
    WEAPONS,
    ResultRow,
    Weapon,
    results,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerRoll,
    greater_of,
    half,
    power_cost,
    power_odds,
    roll_power,
    tenth,
)
from service.rules.four_c.powers.travel import Distance, within
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["WeaponKind", "one_of_a_kind_weapon", "vehicle", "weapon"]

Name = Annotated[str, Field(min_length=1, max_length=60)]
Points = Annotated[int, Field(ge=0, le=100_000)]


class WeaponKind(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"


class OneOfAKindInput(PowerRoll):
    rv: RankValue = Field(description="The weapon's Rank Value.")
    kind: WeaponKind
    trait_rv: RankValue = Field(
        description="The wielder's Melee (melee weapon) or Coordination (ranged weapon)."
    )
    attack_mode: Mode = Field(
        default=Mode.BASHING, description="A melee weapon's: bashing or slashing (C:L1046)."
    )
    nail_declared: bool = Field(default=False, description="A ranged called shot (C:L1282).")
    distance_sectors: Distance = Field(
        default=0, description="A ranged weapon's sectors to the target: at most its range."
    )
    incorporated_power_rv: RankValue | None = Field(
        default=None,
        description="The Rank Value of another power built into the weapon, if any.",
    )


class OneOfAKindWeapon(PowerCheck):
    attack_rv: int = Field(description="The greater of the weapon and the trait +10.")
    damage: int = Field(description="The weapon's Rank Value.")
    range_sectors: int | None = Field(description="A ranged weapon's: a tenth of its Rank Value.")
    incorporated_power_rv: int | None = Field(
        description="The built-in power's Rank Value +10, lost with the weapon."
    )


def _outcomes(rows: Mapping[Colour, ResultRow]) -> dict[Colour, Outcome]:
    return {c: Outcome(result=r.result, text=r.text, success=c is not Colour.BLACK)
            for c, r in rows.items()}  # fmt: skip


def _table(request: OneOfAKindInput) -> dict[Colour, Outcome]:
    """The melee table of its mode (C:L1044-1066), or the ranged table, where blue nails only
    a called shot (C:L1068-1079, catalogue 3.8.5)."""
    if request.kind is WeaponKind.MELEE:
        slashing = request.attack_mode is Mode.SLASHING
        return _outcomes(results(MELEE_SLASHING if slashing else MELEE_BASHING))
    rows = results(RANGED)
    if not request.nail_declared:
        rows = {**rows, Colour.BLUE: rows[Colour.RED]}
    return _outcomes(rows)


def _attack_rv(request: OneOfAKindInput) -> int:
    return greater_of(request.rv, request.trait_rv)


def _reach(request: OneOfAKindInput) -> int | None:
    """A ranged weapon's reach, a tenth of its Rank Value in sectors (A-72), the target
    within it; a melee weapon strikes in its own sector. The attack and its odds refuse a
    target out of reach alike."""
    if request.kind is WeaponKind.MELEE:
        if request.distance_sectors:
            raise InputError(("distance_sectors",), "a melee weapon strikes in its own sector")
        return None
    reach = tenth(request.rv)
    within(request.distance_sectors, reach, "distance_sectors")
    return reach


def one_of_a_kind_odds(request: OneOfAKindInput) -> PowerCheckOdds:
    _reach(request)
    return power_odds(request, _attack_rv(request), _table(request))


@operation(
    name="power/one-of-a-kind-weapon",
    kind=Kind.CHECK,
    covers=("4c.power.one_of_a_kind_weapon",),
    odds=one_of_a_kind_odds,
    cost=power_cost,
    example={"rv": 30, "kind": "ranged", "trait_rv": 10, "distance_sectors": 3,
             "incorporated_power_rv": 20, "dice": {"values": [8, 8]}},
)  # fmt: skip
def one_of_a_kind_weapon(request: OneOfAKindInput, dice: Dice) -> OneOfAKindWeapon:
    """A unique weapon dealing damage equal to its Rank Value; it attacks with the greater of
    its Rank Value and Melee +10 (melee) or Coordination +10 (ranged), a ranged one within a
    tenth of its Rank Value in sectors (A-72); a power built into it gains +10 but is lost
    with it (C:L750-758)."""
    reach = _reach(request)
    check = roll_power(request, _attack_rv(request), _table(request), dice)
    incorporated = request.incorporated_power_rv
    return OneOfAKindWeapon(
        **dict(check),
        attack_rv=_attack_rv(request),
        damage=request.rv,
        range_sectors=reach,
        incorporated_power_rv=None if incorporated is None else incorporated + 10,
    )


class CustomWeapon(Model):
    name: Name
    damage: Annotated[int, Field(ge=0, le=1000)]


class WeaponPowerInput(Model):
    rv: RankValue = Field(description="The Weapon power's Rank Value.")
    weapons: Annotated[tuple[Weapon, ...], Field(max_length=50)] = Field(
        default=(), description="Weapons of the weapon table (C:L1181-1190)."
    )
    custom: Annotated[tuple[CustomWeapon, ...], Field(max_length=20)] = Field(
        default=(), description="New weapons the GM approves, with their damage (C:L933)."
    )


class OwnedWeapon(Model):
    name: str
    damage: int


class WeaponPower(Model):
    weapons: list[OwnedWeapon]
    total_damage: int
    unused: int = Field(description="Damage the power could still hold.")


@operation(
    name="power/weapon",
    kind=Kind.VALIDATION,
    covers=("4c.power.weapon",),
    example={"rv": 30, "weapons": ["bow", "crossbow", "pistol"]},
)
def weapon(request: WeaponPowerInput) -> WeaponPower:
    """Weapons whose damage adds up to at most the Rank Value: at 30, two rifles, three
    pistols, or a bow, a crossbow and a pistol (C:L927-933); new weapons need the GM's
    approval."""
    damages = {row.weapon: row.damage for row in WEAPONS}
    owned = []
    for index, kind in enumerate(request.weapons):
        if kind not in damages:
            raise InputError(("weapons", index), f"{kind.value} is not a weapon of the table")
        owned.append(OwnedWeapon(name=kind.value, damage=damages[kind]))
    owned += [OwnedWeapon(name=w.name, damage=w.damage) for w in request.custom]
    total = sum(w.damage for w in owned)
    if total > request.rv:
        raise InputError(
            ("weapons",), f"the weapons deal {total} together, more than the Rank Value"
        )
    return WeaponPower(weapons=owned, total_damage=total, unused=request.rv - total)


class BaseVehicle(Model):
    name: Name
    durability: Points
    handling: Points
    velocity: Points


class VehiclePowerInput(Model):
    rv: RankValue = Field(description="The Vehicle power's Rank Value.")
    vehicle: BaseVehicle = Field(description="The existing vehicle it improves.")
    systems: Annotated[tuple[Name, ...], Field(max_length=2)] = Field(
        default=(), description="Its two special systems: weapons or power-like abilities."
    )


class VehicleSystem(Model):
    name: str
    rv: int


class VehiclePower(Model):
    name: str
    bonus: int = Field(description="Half the Rank Value, rounded up.")
    durability: int
    handling: int
    velocity: int
    system_rv: int = Field(description="Each special system's Rank Value.")
    systems: list[VehicleSystem]


@operation(
    name="power/vehicle",
    kind=Kind.CALCULATION,
    covers=("4c.power.vehicle",),
    example={"rv": 30, "vehicle": {"name": "Sports Car", "durability": 10, "handling": 30,
             "velocity": 12}, "systems": ["machine guns", "ejector seat"]},
)  # fmt: skip
def vehicle(request: VehiclePowerInput) -> VehiclePower:
    """An existing vehicle whose Durability, Handling and Velocity each gain half the Rank
    Value, rounded up, with two special systems at that Rank Value (C:L908-910): at 30 a
    Sports Car of 10/30/12 becomes 25/45/27, its systems at 15 (catalogue T15)."""
    bonus = half(request.rv)
    base = request.vehicle
    return VehiclePower(
        name=base.name,
        bonus=bonus,
        durability=base.durability + bonus,
        handling=base.handling + bonus,
        velocity=base.velocity + bonus,
        system_rv=bonus,
        systems=[VehicleSystem(name=name, rv=bonus) for name in request.systems],
    )
