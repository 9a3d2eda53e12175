"""Load (FI:L108-139): the least weight of a light, medium and heavy load is 3, 6 and 10 times
Strength's value (species move each multiplier), which leaves 3/4, 1/2 and 1/4 of the Rate;
the Lift is 1.5 times the heavy load, beyond the heavy load a Strength test when time
matters; gravity multiplies the weight."""

from fractions import Fraction
from math import floor, lcm
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    OutcomeProbability,
    Truncation,
    outcome_table,
)
from service.rules.future_imperfect.core.checks import (
    CHECK,
    Checked,
    TestInput,
    test,
    test_cost,
    test_odds,
)
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.future_imperfect.movement.options import (
    GravityScales,
    MovementOptions,
    RateRounding,
)
from service.rules.future_imperfect.movement.rate import trait_value
from service.rules.future_imperfect.movement.tables import LOADS, Load, Species, species_row
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["encumbrance", "gravity", "lifting"]

Kilograms = Annotated[float, Field(ge=0, le=10_000_000)]
G = Annotated[float, Field(ge=0, le=100, description="Gravity, in multiples of Terra's.")]
#: The Lift is the heavy load times 1.5 (FI:L129); each bump over TN 5 lifts 5% more (FI:L131).
LIFT, BUMP = Fraction(3, 2), Fraction(1, 20)


def number(value: float) -> Fraction:
    """A decimal input as the decimal it is written as."""
    return Fraction(repr(value))


class Scaled(Model):
    weight: float = Field(description="The weight as it bears on the character.")
    threshold_factor: float = Field(description="What the load and lift values are multiplied by.")


def scaled(kilograms: float, g: float, options: MovementOptions) -> tuple[Fraction, Fraction]:
    """The weight and the factor on the thresholds under gravity (A-30)."""
    if options.gravity_scales is GravityScales.THRESHOLDS:
        return number(kilograms), number(g)
    return number(kilograms) * number(g), Fraction(1)


class GravityInput(Model):
    kilograms: Kilograms
    g: G
    options: MovementOptions = Field(default=MovementOptions())


@operation(
    name="gravity",
    kind=Kind.CALCULATION,
    covers=("fi.gravity",),
    example={"kilograms": 47, "g": 0.17},
)
def gravity(request: GravityInput) -> Scaled:
    """G is a multiple of Terra's gravity: multiply it by the load or lift (FI:L137); as the
    example reads it, 47 kg on an asteroid of 0.17 G feels like about 8 (FI:L139, A-30)."""
    weight, factor = scaled(request.kilograms, request.g, request.options)
    return Scaled(weight=float(weight), threshold_factor=float(factor))


class Strength(Model):
    strength: PoolText = Field(description="Strength: its die (or dice, A-03) is its value.")
    species: Species = Species.HUMAN
    g: G = 1
    options: MovementOptions = Field(default=MovementOptions())


def thresholds(request: Strength) -> dict[Load, Fraction]:
    """The least weight of each load class (FI:L116-123), scaled by gravity if the option
    scales thresholds."""
    value = trait_value(request.strength, request.options, ("strength",))
    shift = species_row(request.species).load
    _, factor = scaled(0, request.g, request.options)
    return {row.load: (row.multiplier + shift) * value * factor for row in LOADS}


class EncumbranceInput(Strength):
    kilograms: Kilograms = Field(description="What is carried.")
    rate: Annotated[int, Field(ge=0, le=10_000)] | None = Field(
        default=None, description="The Rate to reduce."
    )


class Encumbrance(Model):
    load: Load
    over_lift: bool = Field(description="Heavier than the Lift: it cannot be carried (A-28).")
    weight: float
    light: float
    medium: float
    heavy: float
    lift: float
    rate: float | None = Field(description="The Rate left under the load; 0 over the Lift.")


#: What each class leaves of the Rate (FI:L118-121).
RATE_LEFT = {Load.NONE: Fraction(1)} | {row.load: Fraction(row.rate) for row in LOADS}


def load_of(weight: Fraction, limits: dict[Load, Fraction]) -> Load:
    """Each class from its least weight, inclusive (FI:L116, A-28)."""
    found = [load for load in (Load.HEAVY, Load.MEDIUM, Load.LIGHT) if weight >= limits[load]]
    return found[0] if found else Load.NONE


@operation(
    name="encumbrance",
    kind=Kind.CALCULATION,
    covers=("fi.encumbrance",),
    example={"strength": "2d6", "kilograms": 40, "rate": 8},
)
def encumbrance(request: EncumbranceInput) -> Encumbrance:
    """Tara 7's Strength is 6: up to 18 kg is no load, from 18 light, from 36 medium, from 60
    heavy (FI:L116); Ursoids add 2 to each multiplier, Saurians, Transhumans and Avatars 1,
    Avians and IRSOL -1 (FI:L123); a heavy load leaves a Rate of 8 at 2 (FI:L112)."""
    limits = thresholds(request)
    weight, _ = scaled(request.kilograms, request.g, request.options)
    load = load_of(weight, limits)
    over = weight > limits[Load.HEAVY] * LIFT
    left = None
    if request.rate is not None:
        left = Fraction(0) if over else request.rate * RATE_LEFT[load]
        if request.options.rate_rounding is RateRounding.FLOOR:
            left = Fraction(floor(left))
    return Encumbrance(load=load, over_lift=over, weight=float(weight),
                       light=float(limits[Load.LIGHT]),
                       medium=float(limits[Load.MEDIUM]), heavy=float(limits[Load.HEAVY]),
                       lift=float(limits[Load.HEAVY] * LIFT),
                       rate=None if left is None else float(left))  # fmt: skip


class LiftInput(Strength):
    kilograms: Kilograms = Field(description="What is to be lifted.")
    time_matters: bool = Field(default=True, description="With all the time needed, the full Lift.")
    modifiers: tuple[Annotated[int, Field(ge=-50, le=50)], ...] = Field(default=(), max_length=8)
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = 0


class Lifted(Model):
    check: Checked | None = Field(description="The Strength test, where one is needed.")
    tn: int | None
    lifted: bool
    lift: float = Field(description="The Lift, in the weight's terms.")
    most: float = Field(description="The most this attempt lifts: Lift + 5% a bump over TN 5.")


def _tn(request: LiftInput) -> tuple[int | None, Fraction, Fraction]:
    """The test's TN (None: no test), the weight and the Lift (FI:L129-131, A-29)."""
    limits = thresholds(request)
    weight, _ = scaled(request.kilograms, request.g, request.options)
    lift = limits[Load.HEAVY] * LIFT
    if weight <= limits[Load.HEAVY] or (weight <= lift and not request.time_matters):
        return None, weight, lift
    return (3 if weight <= lift else 5), weight, lift


def _test(request: LiftInput, tn: int) -> TestInput:
    """A lift "is a standard test ... Do not draw or use extra cards on asterisks" (FI:L131):
    a test, read by the dice-equivalent model or the configured deck (A-01), its asterisks
    (the dice's maxima) off unless the crew makes lifting open-ended (FI:L133, A-29)."""
    return TestInput(pool=request.strength, tn=tn, modifiers=request.modifiers,
                     wound_penalty=request.wound_penalty,
                     allow_asterisks=request.options.lift_open_ended,
                     options=request.options)  # fmt: skip


def _most(lift: Fraction, tn: int, bumps: int) -> Fraction:
    return lift * (1 + BUMP * bumps) if tn == 5 else lift


class LiftOdds(Model):
    lifted: list[OutcomeProbability]
    truncation: Truncation | None


def lifting_odds(request: LiftInput) -> LiftOdds:
    """The chance the weight goes up, exactly (catalogue T12). Up to the heavy load, or up to
    the Lift with all the time needed, it goes up without a test (FI:L129): certainly, with
    no dice rolled and so none cut off, open-ended or not."""
    tn, weight, lift = _tn(request)
    if tn is None:
        return LiftOdds(lifted=outcome_table(Distribution({True: 1})), truncation=None)
    tested = test_odds(_test(request, tn))
    counts = [(row.outcome, Fraction(row.exact)) for row in tested.bumps]
    up = sum((p for bumps, p in counts if bumps != "failure"
              and weight <= _most(lift, tn, int(bumps))), Fraction(0))  # fmt: skip
    # The mass a truncated chain cuts off is neither lifted nor dropped (it is stated).
    cut = Fraction(tested.truncation.mass_cut.exact) if tested.truncation else Fraction(0)
    whole = lcm(up.denominator, cut.denominator)
    found = Distribution({True: int(up * whole), False: int((1 - up - cut) * whole)},
                         total=whole)  # fmt: skip
    return LiftOdds(lifted=outcome_table(found), truncation=tested.truncation)


def lifting_cost(request: LiftInput) -> Estimate:
    """The Strength test (`core/test`), if one is needed."""
    tn, _, _ = _tn(request)
    return CHECK if tn is None else test_cost(_test(request, tn))


@operation(
    name="lifting",
    kind=Kind.CHECK,
    covers=("fi.lifting",),
    odds=lifting_odds,
    cost=lifting_cost,
    example={"strength": "3d6", "kilograms": 80, "dice": {"values": [4, 2, 1]}},
)
def lifting(request: LiftInput, dice: Dice) -> Lifted:
    """The Lift is the heavy load times 1.5; when time matters, anything over the heavy load
    takes a Strength test, TN 3 up to the Lift and TN 5 beyond, lifting the Lift and 5% more
    a bump; the test draws no extra cards on asterisks, so its dice never roll again
    (FI:L129-133). With all the time needed, the full Lift goes up."""
    tn, weight, lift = _tn(request)
    if tn is None:
        if weight > lift:
            raise InputError(("kilograms",), "over the Lift nothing goes up untested")
        return Lifted(check=None, tn=None, lifted=True, lift=float(lift), most=float(lift))
    tested = test.rule(_test(request, tn), dice)
    checked = Checked.model_validate({name: getattr(tested, name) for name in Checked.model_fields})
    most = _most(lift, tn, checked.bumps) if checked.success else Fraction(0)
    return Lifted(check=checked, tn=tn, lifted=checked.success and weight <= most,
                  lift=float(lift), most=float(most))  # fmt: skip
