"""Falling (FI:L25-29): 2(1) for the first 5 meters, each further 5 meters a row more and, with
no row left, a column right, capped at 5(7); the wounds go to random locations. Water below
50 m may break the fall on a Fair (5) swimming roll (halved, or negated up to 20 m); a soft
obstacle halves it on a difficult (7) Dexterity roll.

From 45 m the code needs column 6, from 50 m column 7, which the chapter never gives a die
(A-02): unless the options give them one, the fall answers its code with `rollable` false and
draws nothing (A-12)."""

from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from math import floor
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    OutcomeProbability,
    Shape,
    Truncation,
    outcome_table,
    repeated_states,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    DEPTH,
    Checked,
    CheckInput,
    check_cost,
    roll_check,
)
from service.rules.future_imperfect.core.damage import (
    Draw,
    Size,
    damage_distribution,
    depth_for,
    roll_concussion,
    roll_damage,
    roll_location,
    sum_states,
    totals_of,
    wounds_for,
    wounds_of,
)
from service.rules.future_imperfect.core.pools import Pool, Shift, die, shifted, sides
from service.rules.future_imperfect.environment.exposure import Exposure, check_of, losses
from service.rules.future_imperfect.environment.options import (
    EnvironmentOptions,
    FallingMode,
    WoundSpread,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["fall", "soft_landing", "water_landing"]

#: A fall reaches its cap at 50 m (FI:L27); a kilometer bounds the draws of one 2(1) each 5 m.
Meters = Annotated[float, Field(ge=0, le=1000, description="How far, in meters.")]
#: 2(1) for the first 5 meters (FI:L27).
FIRST = Pool(column=1, row=2)
#: A swimming roll breaks a fall into water up to 50 m, and negates it up to 20 m (FI:L29).
WATER_LIMIT, NEGATED_LIMIT = 50, 20
WATER_TN, SOFT_TN = 5, 7


class Landing(StrEnum):
    HARD = "hard"
    WATER = "water"
    SOFT = "soft"


def segments(distance: float, options: EnvironmentOptions) -> int:
    """Whole 5 m bands fallen; a fall of at least `min_fall_m` but under 5 m counts one, and
    with `min_fall_m` 0 any fall at all does (A-11, 'a fall of a few meters', FI:L27)."""
    bands = floor(Fraction(repr(distance)) / 5)
    if bands == 0 and distance > 0 and distance >= options.min_fall_m:
        return 1
    return bands


def tier(distance: float, options: EnvironmentOptions) -> tuple[Pool, int] | None:
    """The damage code and how many times it is drawn: one growing draw (A-11), or 2(1) a
    band; None for no damage."""
    bands = segments(distance, options)
    if bands == 0:
        return None
    if options.falling_mode is FallingMode.PER_SEGMENT:
        return FIRST, bands
    code, _ = shifted(FIRST, Shift.FALL, bands - 1)
    return code, 1


class LandingOutcome(StrEnum):
    NEGATED = "negated"
    HALVED = "halved"
    FULL = "full"


#: What each landing outcome leaves of the damage (FI:L29); halves round down (A-14).
FACTOR = {LandingOutcome.NEGATED: Fraction(0), LandingOutcome.HALVED: Fraction(1, 2),
          LandingOutcome.FULL: Fraction(1)}  # fmt: skip


class LandingInput(Exposure):
    distance: Meters
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Landed(Model):
    check: Checked | None = Field(description="Null where the fall is too far to break.")
    outcome: LandingOutcome
    factor: float = Field(description="What is left of the damage: 0, 0.5 or 1.")


def _water(request: LandingInput) -> CheckInput | None:
    return check_of(request, WATER_TN, request.options) if request.distance <= WATER_LIMIT else None


def _water_outcome(success: bool, distance: float) -> LandingOutcome:
    if not success:
        return LandingOutcome.FULL
    return LandingOutcome.NEGATED if distance <= NEGATED_LIMIT else LandingOutcome.HALVED


def _soft_outcome(success: bool, distance: float) -> LandingOutcome:
    return LandingOutcome.HALVED if success else LandingOutcome.FULL


#: How a landing reads its check: success and distance to what is left of the damage.
Reader = Callable[[bool, float], LandingOutcome]


class LandingOdds(Model):
    outcome: list[OutcomeProbability]
    truncation: Truncation | None


def _landing_odds(
    check: CheckInput | None, read: Reader, distance: float
) -> Distribution[LandingOutcome]:
    if check is None:
        return Distribution({LandingOutcome.FULL: 1})
    return losses(check).map(lambda o: read(o[0], distance))


def _landed(check: CheckInput | None, read: Reader, distance: float, dice: Dice) -> Landed:
    if check is None:
        return Landed(check=None, outcome=LandingOutcome.FULL, factor=1)
    checked = roll_check(check, dice)
    outcome = read(checked.success, distance)
    return Landed(check=checked, outcome=outcome, factor=float(FACTOR[outcome]))


def _outcome_odds(found: Distribution[LandingOutcome]) -> LandingOdds:
    return LandingOdds(outcome=outcome_table(found, list(LandingOutcome)),
                       truncation=truncation(found, DEPTH))  # fmt: skip


def water_odds(request: LandingInput) -> LandingOdds:
    """The outcome of a fall into water, exactly."""
    return _outcome_odds(_landing_odds(_water(request), _water_outcome, request.distance))


@operation(
    name="environment/falling/water",
    kind=Kind.CHECK,
    covers=("fi.environment.falling.water",),
    odds=water_odds,
    cost=check_cost,
    example={"pool": "II-2", "distance": 18, "dice": {"values": [5, 2]}},
)
def water_landing(request: LandingInput, dice: Dice) -> Landed:
    """Water breaks a fall of up to 50 m on a Fair (5) swimming roll: success halves the
    damage, and up to 20 m negates it; further, no roll (FI:L29, A-14)."""
    return _landed(_water(request), _water_outcome, request.distance, dice)


def _soft(request: LandingInput) -> CheckInput:
    return check_of(request, SOFT_TN, request.options)


def soft_odds(request: LandingInput) -> LandingOdds:
    """The outcome of a fall onto something soft, exactly."""
    return _outcome_odds(_landing_odds(_soft(request), _soft_outcome, request.distance))


@operation(
    name="environment/falling/soft",
    kind=Kind.CHECK,
    covers=("fi.environment.falling.soft",),
    odds=soft_odds,
    cost=check_cost,
    example={"pool": "III-2", "distance": 12, "dice": {"values": [7, 2]}},
)
def soft_landing(request: LandingInput, dice: Dice) -> Landed:
    """A haystack, an awning or another soft obstacle halves the damage on a difficult (7)
    Dexterity roll (FI:L29)."""
    return _landed(_soft(request), _soft_outcome, request.distance, dice)


class FallInput(Model):
    distance: Meters
    landing: Landing = Landing.HARD
    roll: Exposure | None = Field(
        default=None,
        description="The swimming pool for water (none beyond 50 m: no roll is made, "
        "FI:L29), the Dexterity pool for a soft landing.",
    )
    size: Size = 6
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


#: Why `rollable` is false.
UNROLLABLE = ("the code needs column 6 or 7, which the chapter never gives a die (A-02): set "
              "options.column_6_die and column_7_die to roll it (A-12)")  # fmt: skip


class Fall(Model):
    damage_code: str | None = Field(description="N(C); null for a fall too short to hurt.")
    draws: int = Field(description="How many times the code is drawn (A-11).")
    rollable: bool = Field(
        description="False where the code needs column 6 or 7 and the options give it no "
        "die: the code is answered and nothing drawn (A-12)."
    )
    landing: Landed | None
    damage: list[Draw]
    total: int | None = Field(
        description="The damage, after the landing halves it (rounded down); null unrollable."
    )
    wounds: int | None = Field(description="Null where the code is unrollable.")
    locations: list[str] = Field(description="Where each wound level lands (A-13).")
    concussion: list[tuple[int, ...]] = Field(description="1d6 a wound level, at least one.")
    ct_loss: int | None = Field(description="Null where the code is unrollable.")


def _landing_check(request: FallInput) -> tuple[CheckInput | None, Reader] | None:
    """The landing's check and how it reads; beyond 50 m water breaks nothing and no
    swimming roll is made (FI:L29), so none need be given."""
    if request.landing is Landing.HARD:
        return None
    if request.landing is Landing.WATER and request.distance > WATER_LIMIT:
        return None, _water_outcome
    if request.roll is None:
        skill = "swimming" if request.landing is Landing.WATER else "Dexterity"
        raise InputError(("roll",), f"a {request.landing.value} landing rolls {skill}: give it")
    landing = LandingInput(**dict(request.roll), distance=request.distance,
                           options=request.options)  # fmt: skip
    if request.landing is Landing.WATER:
        return _water(landing), _water_outcome
    return _soft(landing), _soft_outcome


def rollable(found: tuple[Pool, int] | None, options: EnvironmentOptions) -> bool:
    """A code can be drawn unless its column is 6 or 7 without a die in the options (A-12)."""
    return found is None or die(found[0], options) is not None


class FallOdds(Model):
    damage_code: str | None = Field(description="N(C); null for a fall too short to hurt.")
    rollable: bool = Field(
        description="False where the code needs column 6 or 7 and the options give it no "
        "die: no wounds are given (A-12)."
    )
    wounds: list[OutcomeProbability]
    truncation: Truncation | None


def fall_odds(request: FallInput) -> FallOdds:
    """The wound levels of a fall, landing included, exactly (catalogue T14); none where the
    code needs a column without a die (A-12). A fall too short to do damage wounds nobody
    (A-11), certainly, whatever the landing check would have shown (FI:L27-29)."""
    found_tier = tier(request.distance, request.options)
    call = _landing_check(request)
    if found_tier is None:
        return FallOdds(damage_code=None, rollable=True,
                        wounds=outcome_table(Distribution({0: 1})), truncation=None)  # fmt: skip
    outcomes = (Distribution({LandingOutcome.FULL: 1}) if call is None
                else _landing_odds(call[0], call[1], request.distance))  # fmt: skip
    if not rollable(found_tier, request.options):
        return FallOdds(damage_code=found_tier[0].cards, rollable=False, wounds=[],
                        truncation=None)  # fmt: skip
    code, count = found_tier
    one, depth = damage_distribution(code, request.options)
    total = one.repeated(count)
    wounded = wounds_for(request.size)

    def wounds(outcome: LandingOutcome) -> Distribution[int]:
        return total.map(lambda t: wounded(floor(t * FACTOR[outcome])))

    found = outcomes.then(wounds)
    return FallOdds(damage_code=code.cards, rollable=True, wounds=outcome_table(found),
                    truncation=truncation(found, depth))  # fmt: skip


def fall_cost(request: FallInput) -> Estimate:
    """The landing's check (under 70,000 states), then one draw of the code summed
    (`sum_states`) and raised to the number of draws (`repeated_states`, no weight above a
    draw's total). Then the wounds read off the totals for each of the three landing
    outcomes, twice."""
    found = tier(request.distance, request.options)
    if found is None:
        return Estimate(10_000, ())
    if not rollable(found, request.options):
        return Estimate(70_000, ())  # the landing's check alone
    code, count = found
    tops = [sides(code, ("distance",), request.options)] * code.row
    depth = depth_for(tops)
    width, bits = totals_of(tops, depth), (tops[0] ** ((depth + 1) * code.row)).bit_length()
    states = sum_states(tops, depth) + repeated_states(Shape(width, width, bits), count)
    reach = count * (width - 1) + 1
    return Estimate(states + 6 * reach + 70_000, ("/distance",))


@operation(
    name="environment/falling",
    kind=Kind.GENERATION,
    covers=("fi.environment.falling",),
    odds=fall_odds,
    cost=fall_cost,
    example={"distance": 12, "dice": {"values": [3, 4, 2, 1, 5, 3]}},
)
def fall(request: FallInput, dice: Dice) -> Fall:
    """2(1) for the first 5 meters fallen, a row more for each further 5 and then a column,
    capped at 5(7) (FI:L27); the landing may halve or negate it (FI:L29); wounds are the
    damage over Size, each to a random location, extra damage modifiers ignored, each level
    with 1d6 CT (FI:L27, FI:L591). Columns 6 and 7 (from 45 m) need their dice in the
    options: without them the code is answered, `rollable` false, and nothing drawn (A-12)."""
    found_tier = tier(request.distance, request.options)
    call = _landing_check(request)
    landed = None if call is None else _landed(call[0], call[1], request.distance, dice)
    if found_tier is None:
        return Fall(damage_code=None, draws=0, rollable=True, landing=landed, damage=[],
                    total=0, wounds=0, locations=[], concussion=[], ct_loss=0)  # fmt: skip
    code, count = found_tier
    if not rollable(found_tier, request.options):
        return Fall(damage_code=code.cards, draws=count, rollable=False, landing=landed,
                    damage=[], total=None, wounds=None, locations=[], concussion=[],
                    ct_loss=None)  # fmt: skip
    draws = [roll_damage(code, dice, request.options, "fall") for _ in range(count)]
    factor = FACTOR[landed.outcome] if landed else Fraction(1)
    total = floor(sum(d.total for d in draws) * factor)
    wounds = wounds_of(total, request.size)
    if request.options.falling_wound_distribution is WoundSpread.SINGLE_LOCATION:
        locations = [roll_location(dice)] * wounds if wounds else []
    else:
        locations = [roll_location(dice) for _ in range(wounds)]
    concussion = roll_concussion(wounds, dice) if total else []
    return Fall(damage_code=code.cards, draws=count, rollable=True, landing=landed,
                damage=draws, total=total,
                wounds=wounds, locations=locations, concussion=concussion,
                ct_loss=sum(sum(d) for d in concussion))  # fmt: skip
