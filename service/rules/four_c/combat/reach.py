"""How far a character goes and reaches in a turn: movement on the ground and climbing
(C:L989-1008), the Row Steps moving costs an attack or a dodge (C:L967), weapon and power
ranges (C:L1080-1091), the thrown range of Weapons & Gear (C:L1574-1596) and the optional
range penalty (C:L1093-1095)."""

from enum import StrEnum
from math import ceil
from typing import Annotated

from pydantic import Field

from service.rules.four_c.combat.options import CombatOptions, ThrowingTrait
from service.rules.four_c.combat.tables import MOVEMENT, WEAPONS, Weapon
from service.rules.four_c.core.ranks import Laddered, RankValue, row_of
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["thrown_range"]

Sectors = Annotated[int, Field(ge=0, le=100)]


class MovementInput(Model):
    coordination: RankValue
    extra_legs: bool = Field(default=False, description="Extra Legs: +1 sector (C:L618).")


class Movement(Model):
    sectors: int


def _moves(coordination: int, climbing: bool) -> int:
    """Coordination 0 moves nowhere (A-61)."""
    if coordination == 0:
        return 0
    row = next(r for r in MOVEMENT if r.rv_max is None or coordination <= r.rv_max)
    return row.climb if climbing else row.ground


@operation(
    name="movement/ground",
    kind=Kind.LOOKUP,
    covers=("4c.movement.ground",),
    example={"coordination": 30},
)
def ground(request: MovementInput) -> Movement:
    """Sectors a turn on the ground: 1 at Coordination 1-2, 2 at 3-29, 3 from 30 (C:L993-997)."""
    return Movement(sectors=_moves(request.coordination, False) + int(request.extra_legs))


@operation(
    name="movement/climb",
    kind=Kind.LOOKUP,
    covers=("4c.movement.climb",),
    example={"coordination": 12},
)
def climb(request: MovementInput) -> Movement:
    """Sectors a turn climbing: 1 at Coordination 1-29, 2 from 30 (C:L1000-1006)."""
    return Movement(sectors=_moves(request.coordination, True) + int(request.extra_legs))


class Action(StrEnum):
    ATTACK = "attack"
    DODGE = "dodge"
    RUSH = "rush"


class MovePenaltyInput(Model):
    sectors_moved: Sectors
    action: Action = Action.ATTACK


class RowStepsOut(Model):
    row_steps: int


@operation(
    name="combat/move-penalty",
    kind=Kind.LOOKUP,
    covers=("4c.combat.move_penalty",),
    example={"sectors_moved": 2},
)
def move_penalty(request: MovePenaltyInput) -> RowStepsOut:
    """Moving and attacking, or moving and dodging, costs -1 Row Step per sector moved into; a
    rush takes none (C:L967, C:L1101)."""
    moved = 0 if request.action is Action.RUSH else request.sectors_moved
    return RowStepsOut(row_steps=-moved)


class RangeInput(Laddered):
    weapon: Weapon
    power_rv: RankValue | None = Field(default=None, description="For weapon=power.")
    thrower_rv: RankValue | None = Field(
        default=None, description="For weapon=thrown: the thrower's Brawn (A-13)."
    )
    designed_for_throwing: bool = Field(
        default=False, description="Grenades and throwing weapons: +1 sector (C:L1596)."
    )


class Range(Model):
    sectors: int = Field(description="0: only within the attacker's own sector.")


def thrown_range(rv: int, laddered: Laddered, designed: bool) -> int:
    """One sector per row from 6-9 up; lower rows throw within their own sector; a thing made
    for throwing goes one more (C:L1087, C:L1578-1596; the table's '10-29' and '10-39' are
    20-29 and 30-39, catalogue E13)."""
    row = row_of(rv, laddered.table_rows)
    return max(row - 2, 0) + int(designed)


@operation(
    name="combat/range/limit",
    kind=Kind.LOOKUP,
    covers=("4c.combat.range.limit",),
    example={"weapon": "rifle"},
)
def range_limit(request: RangeInput) -> Range:
    """Bow, crossbow and pistol 4 sectors, rifle 8, shotgun 2; a thrown object one sector per
    row from 6-9; a power a tenth of its Rank Value, rounded up (C:L1080-1091)."""
    if request.weapon is Weapon.POWER:
        if request.power_rv is None:
            raise InputError(("power_rv",), "a power's range needs its Rank Value")
        return Range(sectors=ceil(request.power_rv / 10))
    if request.weapon is Weapon.THROWN:
        if request.thrower_rv is None:
            raise InputError(("thrower_rv",), "a thrown object's range needs the thrower's Brawn")
        return Range(
            sectors=thrown_range(request.thrower_rv, request, request.designed_for_throwing)
        )
    return Range(sectors=next(w.range for w in WEAPONS if w.weapon is request.weapon))


class ThrownInput(Laddered):
    brawn: RankValue = Field(description="The thrower's Brawn.")
    coordination: RankValue | None = Field(
        default=None, description="The thrower's Coordination, with thrown_range_trait."
    )
    designed_for_throwing: bool = False
    options: CombatOptions = Field(default=CombatOptions())


@operation(
    name="combat/thrown-range",
    kind=Kind.LOOKUP,
    covers=("4c.combat.thrown_range",),
    example={"brawn": 20, "designed_for_throwing": True},
)
def thrown(request: ThrownInput) -> Range:
    """Thrown range by the thrower's Brawn: 6-9 throws 1 sector, 10-19 2, ... 1000+ 10; a
    grenade or throwing weapon one more (C:L1574-1596). Brawn 20 throws a rock 3 sectors and
    a grenade 4 (catalogue T23)."""
    rv = request.brawn
    if request.options.thrown_range_trait is ThrowingTrait.COORDINATION:
        if request.coordination is None:
            raise InputError(("coordination",), "thrown_range_trait=coordination needs it")
        rv = request.coordination
    return Range(sectors=thrown_range(rv, request, request.designed_for_throwing))


class PenaltyInput(Model):
    distance_sectors: Sectors = Field(
        description="Sectors to the target, not counting the attacker's, counting the target's."
    )


@operation(
    name="combat/range/penalty",
    kind=Kind.LOOKUP,
    covers=("4c.combat.range.penalty",),
    example={"distance_sectors": 3},
)
def range_penalty(request: PenaltyInput) -> RowStepsOut:
    """Optional rule: -1 Row Step to the attack per sector to the target; the same sector is 0
    (C:L1093-1095)."""
    return RowStepsOut(row_steps=-request.distance_sectors)
