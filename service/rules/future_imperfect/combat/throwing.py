"""Throwing things (FI:L365-373): like shooting, with a range increment of 5 m for anything
thrown and a maximum range of the Strength die x 5 m for an average 1-2 lb weapon; a throw
that misses scatters, from the thrower on a critical failure."""

from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, not_rolled, outcome_table
from service.rules.future_imperfect.combat.modifiers import (
    Applied,
    Meters,
    Situation,
    applied,
    range_tn,
    task,
)
from service.rules.future_imperfect.combat.options import AttackOptions, HeavyThrow, Scatter
from service.rules.future_imperfect.combat.ranged import RangedOdds, shot_odds_of
from service.rules.future_imperfect.core.checks import (
    BUMPS_ROLLED,
    Checked,
    CheckInput,
    check_cost,
    roll_check,
)
from service.rules.future_imperfect.core.pools import PoolText, parse, sides
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["scatter", "throw"]

#: The range increment of every thrown weapon (FI:L367).
THROWN_INCREMENT = 5
SCATTER = Estimate(20, ())


class ThrowInput(Model):
    pool: PoolText = Field(description="The throwing skill (Dexterity's die, A-48).")
    distance: Meters
    strength: PoolText = Field(description="The thrower's Strength: its die sets the range.")
    weight_lb: Annotated[float, Field(gt=0, le=10_000)] = Field(
        default=1.5, description="The item's weight; the chapter's range is for 1-2 lb."
    )
    situation: Situation = Field(default=Situation())
    options: AttackOptions = Field(default=AttackOptions())


class Thrown(Model):
    tn: int
    max_range: int | None = Field(description="Meters; null where the chapter has no rule.")
    note: str | None
    modifiers: list[Applied]
    location: str | None
    check: Checked
    hit: bool
    scatter_from: str | None = Field(
        description="A miss scatters from the target; a critical "
        "failure from the thrower (FI:L373)."
    )


def max_range(request: ThrowInput) -> int | None:
    """The Strength die x 5 m for 1-2 lb (FI:L367); other weights as the option says (A-48)."""
    die = sides(parse(request.strength, ("strength",)), ("strength",), request.options)
    average = 1 <= Fraction(str(request.weight_lb)) <= 2
    if average or request.options.heavy_throw is HeavyThrow.AS_AVERAGE:
        return die * 5
    return None


def _throw(request: ThrowInput) -> tuple[CheckInput, bool, list[Applied], str | None, int | None]:
    reach = max_range(request)
    if reach is not None and request.distance > reach:
        raise InputError(("distance",), f"the throw reaches {reach} m at most (FI:L367)")
    found, location = applied(request.situation, request.options)
    tn = range_tn(request.distance, THROWN_INCREMENT)
    check, halved = task(request.pool, tn, found, request.situation.skill, request.options,
                         ("distance",))  # fmt: skip
    return check, halved, found, location, reach


def throw_odds(request: ThrowInput) -> RangedOdds:
    """The throw's hit and bumps, exactly, as a single shot's."""
    check, halved = _throw(request)[:2]
    return shot_odds_of(check, halved, 0, 1, False, None, request.options)


@operation(
    name="combat/throw",
    rolled=BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.combat.throw",),
    odds=throw_odds,
    cost=check_cost,
    example={"pool": "II-3", "distance": 30, "strength": "3d6", "dice": {"values": [6, 5, 2, 4]}},
)
def throw(request: ThrowInput, dice: Dice) -> Thrown:
    """Throwing works like shooting; the range increment is 5 m for all thrown weapons, so a
    target at 10 m is TN 7, and an average weapon (1-2 lb) flies the Strength die x 5 m:
    Kayla's Strength 3d6 heaves a plasma grenade 30 m at TN 11 (FI:L367-371). Heavier items:
    'REDO THIS BASED ON LOAD AND RANGE INCREMENTS' (FI:L369), so no range unless the option
    says (A-48)."""
    check, halved, found, location, reach = _throw(request)
    rolled = roll_check(check, dice, halved=halved)
    note = None if reach is not None else "the range of this weight is not in the source (FI:L369)"
    origin = None if rolled.success else "thrower" if rolled.critical_failure else "target"
    return Thrown(tn=check.tn, max_range=reach, note=note, modifiers=found, location=location,
                  check=rolled, hit=rolled.success, scatter_from=origin)  # fmt: skip


class ScatterInput(Model):
    critical_failure: bool = Field(default=False, description="The thrower critically failed.")
    miss_margin: Annotated[int, Field(ge=1, le=100)] = Field(description="TN less the result.")
    thrown_distance: Meters = Field(description="How far the item was thrown.")
    options: AttackOptions = Field(default=AttackOptions())


class Scattered(Model):
    defined: bool = Field(description="Always false: the card's scatter is not printed.")
    origin: str = Field(description="target, or thrower on a critical failure (FI:L373).")
    direction: int | None = Field(description="A clock hour, 12 away from the thrower.")
    distance: float | None = Field(description="Meters from the origin.")
    note: str


class ScatterOdds(Model):
    direction: list[OutcomeProbability]


def scatter_cost(request: ScatterInput) -> Estimate:
    """Twelve hours."""
    return SCATTER


def scatter_odds(request: ScatterInput) -> ScatterOdds:
    """Each clock hour 1/12, or nothing rolled."""
    if request.options.scatter is Scatter.NOT_DEFINED:
        return ScatterOdds(direction=not_rolled())
    return ScatterOdds(direction=outcome_table(Distribution.die(12)))


@operation(
    name="combat/throw/scatter",
    kind=Kind.GENERATION,
    covers=("fi.combat.throw.scatter",),
    odds=scatter_odds,
    cost=scatter_cost,
    example={"miss_margin": 3, "thrown_distance": 15, "dice": {"values": [4]}},
)
def scatter(request: ScatterInput, dice: Dice) -> Scattered:
    """A thrown item not placed goes somewhere: 'Consult the Action Card (MORE NECESSARY)',
    the Master's judgement for large distances (a grenade thrown 15 m is unlikely to scatter
    45), from the thrower on a critical failure (FI:L373). Not in the source: the invented
    default is a d12 clock direction and the miss margin in meters, at most the throw."""
    origin = "thrower" if request.critical_failure else "target"
    if request.options.scatter is Scatter.NOT_DEFINED:
        return Scattered(defined=False, origin=origin, direction=None, distance=None,
                         note="not in the source: the Master places it (FI:L373)")  # fmt: skip
    direction = dice.roll(12, "scatter direction (clock hour)")
    distance = min(float(request.miss_margin), request.thrown_distance)
    return Scattered(defined=False, origin=origin, direction=direction, distance=distance,
                     note="not in the source: an invented d12 clock and the miss margin in "
                          "meters, at most the throw (A-48)")  # fmt: skip
