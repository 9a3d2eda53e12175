"""Fire (FI:L31-35): dense smoke calls for a difficult (7) Fortitude check each round, a wet
cloth adding 2, a miss costing the difference in CT; flames burn 1(5), 2(5) or 3(5) at the
beginning of every turn to the areas on fire."""

from enum import StrEnum

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    OutcomeProbability,
    Truncation,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import check_cost
from service.rules.future_imperfect.core.damage import (
    Draw,
    Size,
    damage_distribution,
    damage_states,
    roll_concussion,
    roll_damage,
    wounds_for,
    wounds_of,
)
from service.rules.future_imperfect.core.pools import parse
from service.rules.future_imperfect.environment.exposure import (
    Exposed,
    Exposure,
    LossOdds,
    check_of,
    exposed,
    loss_odds,
    losses,
)
from service.rules.future_imperfect.environment.options import (
    Draws,
    EnvironmentOptions,
    UnconsciousSmoke,
)
from service.rules.future_imperfect.environment.tables import FIRES, Fire
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["LOCATIONS", "Location", "on_fire", "smoke"]

#: Smoke is difficult (FI:L33).
SMOKE_TN = 7
#: A wet cloth over the mouth and nose (FI:L33).
CLOTH = 2


class SmokeInput(Exposure):
    wet_cloth: bool = Field(default=False, description="Or similar makeshift protection: +2.")
    conscious: bool = True
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


def smoke_odds(request: SmokeInput) -> LossOdds:
    """The CT lost to one round of smoke, exactly."""
    if _automatic(request):
        return loss_odds(Distribution({(False, SMOKE_TN): 1}))
    extra = CLOTH if request.wet_cloth else 0
    return loss_odds(losses(check_of(request, SMOKE_TN, request.options, extra)))


def _automatic(request: SmokeInput) -> bool:
    unconscious = request.options.smoke_unconscious_mode is UnconsciousSmoke.AUTOMATIC_FAILURE
    return unconscious and not request.conscious


@operation(
    name="environment/smoke",
    kind=Kind.CHECK,
    covers=("fi.environment.smoke",),
    odds=smoke_odds,
    cost=check_cost,
    example={"pool": "III-2", "wet_cloth": True, "dice": {"values": [3, 2]}},
)
def smoke(request: SmokeInput, dice: Dice) -> Exposed:
    """In dense smoke, a difficult (7) Fortitude check during the first action each round, +2
    with a wet cloth; a miss costs the difference in CT, and an unconscious character goes on
    losing it every round until he dies (FI:L33, A-16)."""
    if _automatic(request):
        return Exposed(check=None, ct_loss=SMOKE_TN)
    extra = CLOTH if request.wet_cloth else 0
    return exposed(check_of(request, SMOKE_TN, request.options, extra), dice)


class Location(StrEnum):
    HEAD = "head"
    TORSO = "torso"
    LEFT_ARM = "left_arm"
    RIGHT_ARM = "right_arm"
    LEFT_LEG = "left_leg"
    RIGHT_LEG = "right_leg"


#: The six places wounds are kept (FI:L556).
LOCATIONS = tuple(Location)


class FireInput(Model):
    fire: Fire
    areas: tuple[Location, ...] = Field(
        default=(),
        max_length=6,
        description="The areas on fire: one for a small fire, any for a larger one; a "
        "character consumed burns everywhere, so none are given.",
    )
    size: Size = 6
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Burn(Model):
    location: Location
    damage: int
    wounds: int


class Burning(Model):
    draws: list[Draw]
    burns: list[Burn]
    wounds: int = Field(description="Wound levels over every area.")
    concussion: list[tuple[int, ...]] = Field(description="1d6 a wound level, at least one.")
    ct_loss: int


def _areas(request: FireInput) -> tuple[Location, ...]:
    if len(set(request.areas)) != len(request.areas):
        raise InputError(("areas",), "an area is named twice")
    if request.fire is Fire.CONSUMED:
        if request.areas:
            raise InputError(("areas",), "a character consumed burns in every area")
        return LOCATIONS
    if not request.areas:
        raise InputError(("areas",), "name the area on fire")
    if request.fire is Fire.SMALL and len(request.areas) > 1:
        raise InputError(("areas",), "a small fire burns one area (FI:L35)")
    return request.areas


def _shared(request: FireInput) -> bool:
    options = request.options
    mode = options.consumed_draws if request.fire is Fire.CONSUMED else options.larger_fire_draws
    return mode is Draws.SHARED


def _code(request: FireInput) -> str:
    return next(row.damage for row in FIRES if row.fire is request.fire)


class FireOdds(Model):
    wounds: list[OutcomeProbability] = Field(description="Wound levels over every area.")
    truncation: Truncation | None


def on_fire_odds(request: FireInput) -> FireOdds:
    """The wound levels one turn of fire deals, over every area, exactly."""
    areas = _areas(request)
    total, depth = damage_distribution(parse(_code(request)), request.options)
    one = total.map(wounds_for(request.size))
    if _shared(request):
        found = one.map(lambda w: w * len(areas))
    else:
        found = one
        for _ in areas[1:]:
            found = found + one
    return FireOdds(wounds=outcome_table(found),
                    truncation=truncation(found, depth))  # fmt: skip


def on_fire_cost(request: FireInput) -> Estimate:
    """The damage's sum (`damage_states`) and its wound levels, then each further area's
    levels added one area at a time (every sum so far against each level), unless one draw
    burns every area. A level is a total over Size, so there are fewer the larger the Size."""
    states, highest = damage_states(parse(_code(request)), request.options)
    levels = min(highest, wounds_of(highest, request.size) + 1)
    states += highest + levels
    areas = len(LOCATIONS) if request.fire is Fire.CONSUMED else len(request.areas)
    if not _shared(request):
        for i in range(1, areas):
            states += i * levels * levels + (i + 1) * levels
    return Estimate(states, ("/fire", "/areas", "/size"))


@operation(
    name="environment/on-fire",
    kind=Kind.GENERATION,
    covers=("fi.environment.on_fire",),
    odds=on_fire_odds,
    cost=on_fire_cost,
    example={"fire": "small", "areas": ["left_arm"], "dice": {"seed": 3}},
)
def on_fire(request: FireInput, dice: Dice) -> Burning:
    """Flames deal 1(5) to a burning sleeve, 2(5) to the areas of a larger fire and 3(5) to a
    character consumed, at the beginning of every turn (FI:L35); wounds are the damage over
    Size, each level with its 1d6 CT (FI:L591). A larger fire draws for each area and one
    draw burns every area of a character consumed (A-17)."""
    areas = _areas(request)
    code = parse(_code(request))
    draws: list[Draw] = []
    burns = []
    for area in areas:
        if not draws or not _shared(request):
            draws.append(roll_damage(code, dice, request.options, f"{area.value} fire"))
        damage = draws[-1].total
        burns.append(Burn(location=area, damage=damage, wounds=wounds_of(damage, request.size)))
    wounds = sum(burn.wounds for burn in burns)
    concussion = roll_concussion(wounds, dice)
    return Burning(draws=draws, burns=burns, wounds=wounds, concussion=concussion,
                   ct_loss=sum(sum(d) for d in concussion))  # fmt: skip
