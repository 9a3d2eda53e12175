"""Healing, Fortune and Repute as the story changes them (C:L1329-1339, C:L1341-1371,
C:L1417-1428)."""

from typing import Annotated

from pydantic import Field

from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.gm.options import GmOptions
from service.rules.four_c.gm.tables import FORTUNE_SCALES, REPUTE_EVENTS, Event, Scale
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["fortune_gain", "heal_between_adventures", "heal_nightly", "repute_adjust"]

Points = Annotated[int, Field(ge=0, le=1_000_000)]


class Health(Model):
    damage_points: int
    maximum: int


class BetweenInput(Model):
    damage_points: Points
    maximum: Points = Field(description="Melee + Coordination + Brawn + Fortitude (C:L1331).")


@operation(
    name="health/heal/between-adventures",
    kind=Kind.CALCULATION,
    covers=("4c.health.heal.between_adventures",),
    example={"damage_points": 12, "maximum": 100},
)
def heal_between_adventures(request: BetweenInput) -> Health:
    """Characters recover all damage between adventures (C:L1333-1335)."""
    _within_maximum(request)
    return Health(damage_points=request.maximum, maximum=request.maximum)


def _within_maximum(request: BetweenInput) -> None:
    """Damage points start at the total of four traits and are lost (C:L1331): never above it."""
    if request.damage_points > request.maximum:
        raise InputError(("damage_points",), "Damage points cannot exceed their maximum")


class NightlyInput(BetweenInput):
    fortitude: RankValue
    nights: Annotated[int, Field(ge=0, le=1000)] = 1


@operation(
    name="health/heal/nightly",
    kind=Kind.CALCULATION,
    covers=("4c.health.heal.nightly",),
    example={"damage_points": 12, "maximum": 100, "fortitude": 30, "nights": 2},
)
def heal_nightly(request: NightlyInput) -> Health:
    """Optional rule: each night a character heals Damage points equal to Fortitude, up to
    the starting value (C:L1337-1339)."""
    _within_maximum(request)
    healed = request.damage_points + request.fortitude * request.nights
    return Health(damage_points=min(healed, request.maximum), maximum=request.maximum)


class FortuneInput(Model):
    fortune: Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
    scale: Scale
    gained: bool = Field(default=True, description="A positive act gains; a negative one loses.")
    options: GmOptions = Field(default=GmOptions())


class Balance(Model):
    change: int
    value: int


def _floored(value: int, options: GmOptions) -> int:
    return max(value, 0) if options.fortune_floor else value


@operation(
    name="fortune/gain",
    kind=Kind.CALCULATION,
    covers=("4c.fortune.gain",),
    example={"fortune": 29, "scale": "city"},
)
def fortune_gain(request: FortuneInput) -> Balance:
    """Fortune for an act by its scale: personal 5, neighborhood 10, city 25, state 50,
    national 75, global 100, gained for good acts and lost for bad (C:L1345-1371); never below
    0 by default (A-37)."""
    points = next(row.points for row in FORTUNE_SCALES if row.scale is request.scale)
    change = points if request.gained else -points
    return Balance(change=change, value=_floored(request.fortune + change, request.options))


class ReputeInput(Model):
    repute: Annotated[int, Field(ge=-1000, le=1000)]
    event: Event
    bonus: Annotated[int, Field(ge=0, le=100)] = Field(
        default=0, description="The GM's extra for a city-wide crime or a famous life (C:L1428)."
    )
    celebrity: bool = Field(default=False, description="Celebrity doubles every change (C:L514).")
    options: GmOptions = Field(default=GmOptions())


@operation(
    name="repute/adjust",
    kind=Kind.CALCULATION,
    covers=("4c.repute.adjust",),
    example={"repute": 17, "event": "save_a_life"},
)
def repute_adjust(request: ReputeInput) -> Balance:
    """A public act changes Repute: thwarting a crime +1, saving a life +2, committing a crime
    -2, the GM adding for great deeds (C:L1417-1428); Celebrity doubles it (C:L512-514)."""
    points = next(row.points for row in REPUTE_EVENTS if row.event is request.event)
    change = points + (request.bonus if points > 0 else -request.bonus)
    change *= 2 if request.celebrity else 1
    return Balance(change=change, value=_floored(request.repute + change, request.options))
