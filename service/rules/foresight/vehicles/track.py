"""A vehicle's damage level (catalogue part 2, #123; F:L3372-3382, F:L3477-3482, F:L3490-3492).

The book speaks of a vehicle's "damage level" without defining it: hits "aggregate normally"
(F:L3490), a safety roll's QR4 "increases it by one" (F:L3479), and travel accidents and
safety rolls name states: light, medium, heavy damage, incapacitation, destroyed or totalled
(F:L3376-3380, F:L3480-3481). The catalogue reads the level like a wound level, added up, and
the states as levels: 1 light, 2 medium, 3 heavy, 4 incapacitated, 8 destroyed (AMB2-36). An
event that names a state leaves the vehicle at least that damaged: a car already heavily
damaged that suffers "light damage" does not get better.
"""

from enum import StrEnum

from pydantic import Field

from service.rules.model import Model, option
from service.rules.registry import Kind, operation

__all__ = [
    "MAX_LEVEL",
    "DamageEvent",
    "VehicleDamageScale",
    "VehicleState",
    "VehicleTrackOptions",
    "after",
    "state_level",
    "state_of",
]

#: The highest damage level a request may carry (far past destroyed).
MAX_LEVEL = 1000


class VehicleState(StrEnum):
    OK = "ok"
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"
    INCAPACITATED = "incapacitated"
    DESTROYED = "destroyed"


class VehicleDamageScale(StrEnum):
    CATALOGUE = "catalogue"
    COMPRESSED = "compressed"


class VehicleTrackOptions(Model):
    """The reading of a vehicle's damage level (AMB2-36)."""

    vehicle_damage_scale: VehicleDamageScale = option(
        VehicleDamageScale.CATALOGUE,
        ambiguity="AMB2-36",
        description=(
            "What a damage level means: 'catalogue' 1 light, 2 medium, 3 heavy, 4-7 "
            "incapacitated, 8 or more destroyed (a wound level's 8 is death, F:L2576); "
            "'compressed' the same up to 4 incapacitated, and 5 or more destroyed."
        ),
    )


def state_level(state: VehicleState, scale: VehicleDamageScale) -> int:
    """The least damage level of a state."""
    if state is VehicleState.DESTROYED:
        return 8 if scale is VehicleDamageScale.CATALOGUE else 5
    return list(VehicleState).index(state)


def state_of(level: int, scale: VehicleDamageScale) -> VehicleState:
    """The state a damage level reads as on the scale."""
    if level >= state_level(VehicleState.DESTROYED, scale):
        return VehicleState.DESTROYED
    return list(VehicleState)[min(level, 4)]


class DamageEvent(StrEnum):
    """What happened to the vehicle: damage levels that aggregate (a hit, F:L3490), one more
    level (a safety roll's QR4, F:L3479) or a named state (accidents, F:L3376-3380; safety
    rolls' QR7 and QR10, F:L3480-3481)."""

    DAMAGE = "damage"
    ONE_LEVEL = "one_level"
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"
    INCAPACITATED = "incapacitated"
    DESTROYED = "destroyed"


def after(level: int, event: DamageEvent, levels: int, scale: VehicleDamageScale) -> int:
    """The damage level after an event: damage adds (simple accumulation, 'aggregates
    normally'), a safety roll's QR4 adds one, a named state leaves it at least that bad."""
    if event is DamageEvent.DAMAGE:
        return min(MAX_LEVEL, level + levels)
    if event is DamageEvent.ONE_LEVEL:
        return min(MAX_LEVEL, level + 1)
    return max(level, state_level(VehicleState(event.value), scale))


class DamageLevelInput(Model):
    damage_level: int = Field(
        default=0, ge=0, le=MAX_LEVEL, description="The vehicle's damage level so far: 0 intact."
    )
    event: DamageEvent
    levels: int = Field(
        default=0, ge=0, le=MAX_LEVEL, description="With event 'damage': the levels inflicted."
    )
    options: VehicleTrackOptions = Field(default=VehicleTrackOptions())


class DamageLevel(Model):
    damage_level: int
    state: VehicleState
    changed: bool
    destroyed: bool


@operation(
    name="vehicle/damage-level",
    kind=Kind.CALCULATION,
    covers=("foresight.vehicle.damage_level",),
    example={"damage_level": 2, "event": "one_level"},
)
def vehicle_damage_level(request: DamageLevelInput) -> DamageLevel:
    """A vehicle's damage level after an event: hits aggregate normally (added, F:L3490), a
    safety roll's QR4 adds one (F:L3479), and a named state (light, medium, heavy,
    incapacitated, destroyed: F:L3376-3380, F:L3480-3481) leaves the vehicle at least that
    damaged. The catalogue's scale: 1 light, 2 medium, 3 heavy, 4 incapacitated, 8 destroyed."""
    scale = request.options.vehicle_damage_scale
    level = after(request.damage_level, request.event, request.levels, scale)
    state = state_of(level, scale)
    return DamageLevel(
        damage_level=level,
        state=state,
        changed=level != request.damage_level,
        destroyed=state is VehicleState.DESTROYED,
    )
