"""Ammunition, rate of fire and reloading (F:L3648-3662).

Ammo is the capacity in rounds; '1*' means the weapon is the ammunition, to be drawn anew or
retrieved after it is thrown (F:L3648). An energy weapon's figure is in watt-hours, read by
default as what one shot consumes, its capacity coming from the power pack (F:L3648, AMB2-41).
A bracketed ROF '[1]' takes two fire actions a shot, a prepare and the fire, the prepare
possibly done earlier (F:L3658); in the burst modifications '[6]' and '[3]' are rounds per
burst (F:L3782-3783, AMB2-23). RL is the reload actions; 'n*' loads one round per action, and
fire and reload may interleave (F:L3662).
"""

import math
import re
from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.combat.ranged.weapon import (
    AUTO_BURSTS,
    RangedWeapon,
    RangedWeaponUse,
    fraction,
    rof,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["AmmoInput", "AmmoOptions", "AmmoResult", "Ammunition", "EnergyAmmo", "ammo"]

#: Most rounds, shots or watt-hours a request may count.
MAX_ROUNDS = 10_000
MAX_WH = 1_000_000


class EnergyAmmo(StrEnum):
    PER_SHOT = "per_shot"
    CAPACITY_SHOTS = "capacity_shots"


class Ammunition(StrEnum):
    ROUNDS = "rounds"
    ENERGY = "energy"
    WEAPON = "weapon"


class AmmoOptions(Model):
    """Readings of the Ammo and ROF columns (AMB2-41, AMB2-23)."""

    energy_ammo_semantics: EnergyAmmo = option(
        EnergyAmmo.PER_SHOT,
        ambiguity="AMB2-41",
        description=(
            "An energy weapon's 'Wh': what one shot consumes, the capacity coming from the "
            "power pack ('power_pack_wh'), or its capacity read as that many shots "
            "(F:L3648: 'ammunition capacity, or the amount of energy it consumes per shot')."
        ),
    )
    revolver_single_action: bool = option(
        False,
        ambiguity="AMB2-23",
        description=(
            "A handgun of ROF [1] (the revolvers) fires with one action a shot, as the "
            "gunslingers do (F:L3016), instead of a prepare and a fire action (F:L3658)."
        ),
    )


class AmmoInput(Model):
    weapon: RangedWeapon
    loaded: int | None = Field(
        default=None, ge=0, le=MAX_ROUNDS, description="Rounds (or shots) in it; null: full."
    )
    power_pack_wh: float | None = Field(
        default=None, gt=0, le=MAX_WH, description="An energy weapon's pack, in Wh."
    )
    shots: int = Field(default=0, ge=0, le=MAX_ROUNDS, description="Shots (or bursts) to fire.")
    burst: bool = Field(default=False, description="Each shot is the weapon's auto burst.")
    prepared: bool = Field(
        default=False, description="ROF [1]: the first shot was prepared earlier (F:L3658)."
    )
    options: AmmoOptions = Field(default=AmmoOptions())


class AmmoResult(Model):
    ammunition: Ammunition
    capacity: int = Field(description="Rounds, or shots of energy, a full load holds.")
    wh_per_shot: Exact | None = Field(description="An energy weapon's consumption per shot.")
    loaded: int
    rounds_used: int
    rounds_left: int
    fire_actions: int = Field(description="Actions to fire the shots.")
    reload_actions: int | None = Field(
        description="To load it full again; null: it has no reload (drawn or retrieved)."
    )
    one_round_per_reload: bool = Field(description="RL n*: each action loads one round.")
    redraw: bool = Field(description="'1*': after the throw, draw another or retrieve it.")
    draw_actions: int


def _capacity(request: AmmoInput) -> tuple[Ammunition, int, Fraction | None]:
    found = re.fullmatch(r"(\d+(?:\.\d+)?)(Wh|\*)?", request.weapon.ammo)
    assert found is not None
    number, unit = found.group(1), found.group(2)
    if unit == "*":
        return Ammunition.WEAPON, int(number), None
    if unit is None:
        return Ammunition.ROUNDS, int(number), None
    wh = Fraction(number)
    if request.options.energy_ammo_semantics is EnergyAmmo.CAPACITY_SHOTS:
        return Ammunition.ENERGY, math.floor(wh), None
    if request.power_pack_wh is None:
        raise InputError(("power_pack_wh",), f"{number} Wh a shot: give the pack's watt-hours")
    if wh == 0:
        raise InputError(("weapon", "ammo"), "a shot consumes some energy")
    return Ammunition.ENERGY, math.floor(fraction(request.power_pack_wh) / wh), wh


def _per_shot(request: AmmoInput) -> int:
    if not request.burst:
        return 1
    if request.weapon.auto is None:
        raise InputError(("burst",), "the weapon has no auto burst modification ('auto')")
    return AUTO_BURSTS[request.weapon.auto].rounds


def _fire_actions(request: AmmoInput) -> int:
    """Fire actions for the shots (F:L3658): a burst is one fire action (F:L3034); a plain
    ROF n fires n shots an action; a bracketed [6] or [3] is the rounds of one burst
    (F:L3782-3783, AMB2-23), so a single shot from it, one round as ranged/attack fires it,
    is a fire action of its own; [1] is a prepare and a fire action a shot."""
    found = rof(request.weapon)
    if request.burst:
        return request.shots
    if not found.bracketed:
        return math.ceil(request.shots / found.rounds)
    if found.rounds > 1:
        return request.shots
    single = (
        request.options.revolver_single_action and request.weapon.use is RangedWeaponUse.HANDGUNS
    )
    if single or request.shots == 0:
        return request.shots
    return 2 * request.shots - request.prepared


def _reload(request: AmmoInput, capacity: int, left: int) -> tuple[int | None, bool]:
    found = re.fullmatch(r"(\d+)(\*?)", request.weapon.rl)
    if found is None:
        return None, False
    if found.group(2):
        return capacity - left, True
    return (int(found.group(1)) if left < capacity else 0), False


@operation(
    name="ranged/ammo",
    kind=Kind.CALCULATION,
    covers=("foresight.ranged.ammo",),
    example={
        "weapon": {
            "name": "Revolver",
            "use": "H",
            "range_m": 3,
            "recoil": 2,
            "jam": "C",
            "rof": "[1]",
            "ammo": "6",
            "rl": "6*",
            "draw": 2,
        },
        "loaded": 6,
        "shots": 2,
    },
)
def ammo(request: AmmoInput) -> AmmoResult:
    """Rounds left after firing, the actions the shots take and the reload: a bracketed ROF
    '[1]' is a prepare and a fire action a shot (F:L3658; AMB2-23 'revolver_single_action'),
    a burst one fire action of [6] or [3] rounds (F:L3782-3783); RL n reload actions, 'n*'
    one round each (F:L3662); '1*' the weapon is the ammunition (F:L3648); an energy weapon's
    Wh is spent per shot from its pack (F:L3648, AMB2-41 'energy_ammo_semantics')."""
    kind, capacity, wh = _capacity(request)
    loaded = capacity if request.loaded is None else request.loaded
    if loaded > capacity:
        raise InputError(("loaded",), f"it holds {capacity}")
    used = request.shots * _per_shot(request)
    if used > loaded:
        raise InputError(("shots",), f"{used} rounds needed, {loaded} loaded")
    left = loaded - used
    reload, one_each = _reload(request, capacity, left)
    return AmmoResult(
        ammunition=kind,
        capacity=capacity,
        wh_per_shot=None if wh is None else exact(wh),
        loaded=loaded,
        rounds_used=used,
        rounds_left=left,
        fire_actions=_fire_actions(request),
        reload_actions=None if kind is Ammunition.WEAPON else reload,
        one_round_per_reload=one_each,
        redraw=kind is Ammunition.WEAPON and used > 0,
        draw_actions=request.weapon.draw,
    )
