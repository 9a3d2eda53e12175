"""Values derived from Strength and Endurance (catalogue 3.D, F:L483-534, glossary F:L339-375):
the unarmed damage class, what a character can carry, how encumbered a load leaves him, and
his stamina."""

import math
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.foresight.resolution.scores import round_half_up
from service.rules.model import Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["carrying_capacity", "encumbrance", "stamina", "stamina_of", "ucdc", "ucdc_of"]

Strength = Annotated[int, Field(ge=1, le=60, description="Trained Strength (F:L483).")]


class UcdcRow(Model):
    low: int
    high: int
    ucdc: str


class CarryRow(Model):
    low: int
    high: int
    carry: int
    laden: int
    burden: int
    lift: int
    drag: int


UCDC = table(__name__, "ucdc", UcdcRow)
CARRYING = table(__name__, "carrying", CarryRow)


class UcdcRounding(StrEnum):
    NEAREST_HALF_UP = "nearest_half_up"
    TRUNCATE = "truncate"


class UcdcOptions(Model):
    ucdc_rounding: UcdcRounding = option(
        UcdcRounding.NEAREST_HALF_UP,
        ambiguity="AMB-24",
        description="Over ST 18, ST/2 - 4 'rounded off' (F:L501): to the nearest, keeping two "
        "points a step (19-20 give 6), or down.",
    )


class UcdcInput(Model):
    strength: Annotated[int, Field(ge=0, le=60)] = Field(
        description="Trained Strength (F:L483); 0, as injury or age may leave it, has UCDC 0."
    )
    options: UcdcOptions = Field(default=UcdcOptions())


class Ucdc(Model):
    ucdc: str = Field(description="Exactly: 1/8, 1/4, 1/2 or a whole number.")
    value: float


@operation(
    name="ucdc",
    kind=Kind.LOOKUP,
    covers=("foresight.ucdc",),
    example={"strength": 7},
)
def ucdc(request: UcdcInput) -> Ucdc:
    """Unarmed Combat Damage Class by Strength: 1-2 1/8, 3-4 1/4, 5-6 1/2, 7-8 1, 9-12 2, 13-14
    3, 15-16 4, 17-18 5, and over 18 ST/2 - 4, rounded off (F:L491-501). The table starts at
    ST 1; a Strength of 0 hits for nothing, UCDC 0 (catalogue 3.D.1, AMB-24)."""
    return ucdc_of(request.strength, request.options.ucdc_rounding)


def ucdc_of(strength: int, rounding: UcdcRounding) -> Ucdc:
    """The UCDC of a Strength; below the table's ST 1 it is 0 (catalogue 3.D.1)."""
    row = next((r for r in UCDC if r.low <= strength <= r.high), None)
    if strength < 1:
        value = Fraction(0)
    elif row is not None:
        value = Fraction(row.ucdc)
    elif rounding is UcdcRounding.TRUNCATE:
        value = Fraction(math.floor(Fraction(strength, 2) - 4))
    else:
        value = Fraction(round_half_up(Fraction(strength, 2) - 4))
    text = (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )
    return Ucdc(ucdc=text, value=float(value))


class CarryInput(Model):
    strength: Strength


class Capacity(Model):
    carry: int
    laden: int
    burden: int
    lift: int
    drag: int


def capacity(strength: int) -> Capacity:
    """The table's row, or past it the row of the second-last with ST + 4 and every weight
    doubled, as often as needed (F:L534)."""
    rows = [(r.low, r.high, r.carry) for r in CARRYING]
    while rows[-1][1] < strength:
        low, high, carry = rows[-2]
        rows.append((low + 4, high + 4, 2 * carry))
    carry = next(c for low, high, c in rows if low <= strength <= high)
    return Capacity(carry=carry, laden=2 * carry, burden=4 * carry, lift=8 * carry,
                    drag=16 * carry)  # fmt: skip


@operation(
    name="carrying-capacity",
    kind=Kind.LOOKUP,
    covers=("foresight.carrying_capacity",),
    example={"strength": 22},
)
def carrying_capacity(request: CarryInput) -> Capacity:
    """How much a character carries easily, lugs laden or burdened, lifts in a pinch or drags,
    by Strength (F:L519-532), the table extended by doubling the second-last row at ST + 4:
    22-23 carries 96 (F:L534)."""
    return capacity(request.strength)


class Boundary(StrEnum):
    MAXIMA = "maxima"
    MINIMA = "minima"


class EncumbranceOptions(Model):
    encumbrance_boundary: Boundary = option(
        Boundary.MAXIMA,
        ambiguity="AMB-23",
        description="Each column is the most a state allows (the glossary, F:L339-341), or "
        "the least that brings it ('carrying his/her laden weight incurs a -1', F:L511).",
    )


class Item(Model):
    weight: Annotated[float, Field(ge=0, le=100_000)]
    well_distributed: bool = Field(
        default=False, description="In a good backpack or worn: half its weight (F:L505)."
    )


class EncumbranceInput(Model):
    strength: Strength
    items: tuple[Item, ...] = Field(max_length=200)
    options: EncumbranceOptions = Field(default=EncumbranceOptions())


class State(StrEnum):
    UNENCUMBERED = "unencumbered"
    LADEN = "laden"
    BURDENED = "burdened"
    LIFTING = "lifting"
    DRAGGING = "dragging"
    IMMOVABLE = "immovable"


#: The agility modifier of each state (F:L511-513); lifting or dragging, nothing else is done.
AGILITY = {State.LADEN: -1, State.BURDENED: -2}


class Encumbrance(Model):
    load: float = Field(description="Well-distributed weight counted half.")
    state: State
    agility_modifier: int
    must_put_down: bool = Field(description="Lifting or dragging: nothing else first (F:L517).")


def state_of(load: Fraction, limits: Capacity, boundary: Boundary) -> State:
    columns = [limits.carry, limits.laden, limits.burden, limits.lift, limits.drag]
    states = list(State)
    if boundary is Boundary.MAXIMA:
        return next((s for s, most in zip(states, columns, strict=False) if load <= most),
                    State.IMMOVABLE)  # fmt: skip
    reached = [s for s, least in zip(states[1:5], columns[1:], strict=True) if load >= least]
    return reached[-1] if reached else State.UNENCUMBERED


@operation(
    name="encumbrance",
    kind=Kind.CALCULATION,
    covers=("foresight.encumbrance",),
    example={"strength": 9, "items": [{"weight": 40, "well_distributed": True}]},
)
def encumbrance(request: EncumbranceInput) -> Encumbrance:
    """A load up to the carry column leaves a character free; laden, -1 to agility tasks;
    burdened, -2; at the lift or drag weight he must put it down before anything else;
    well-distributed weight counts half (F:L503-517, F:L340-341): 40 kg of plate worn is 20, which
    burdens ST 9."""
    load = sum((Fraction(repr(i.weight)) * (Fraction(1, 2) if i.well_distributed else 1)
                for i in request.items), Fraction(0))  # fmt: skip
    state = state_of(load, capacity(request.strength), request.options.encumbrance_boundary)
    return Encumbrance(load=float(load), state=state, agility_modifier=AGILITY.get(state, 0),
                       must_put_down=state in (State.LIFTING, State.DRAGGING,
                                               State.IMMOVABLE))  # fmt: skip


class StaminaInput(Model):
    endurance: Annotated[int, Field(ge=1, le=40)] = Field(description="Trained EN.")
    willpower: Annotated[int, Field(ge=1, le=40)] = Field(description="Trained WP.")
    level: Annotated[int, Field(ge=0, le=99)] = Field(description="The Stamina skill's level.")


class Stamina(Model):
    maximum: int = Field(description="The Stamina score, never read as 20+n (F:L372-373).")
    reserve: int = Field(description="EN: the least left after an hour's rest (F:L374).")
    threshold: int = Field(description="EN/3, rounded half up: after a short rest (F:L375).")


@operation(
    name="stamina",
    kind=Kind.CALCULATION,
    covers=("foresight.stamina",),
    example={"endurance": 7, "willpower": 11, "level": 4},
)
def stamina(request: StaminaInput) -> Stamina:
    """Maximum stamina is the Stamina skill's score, (EN+WP)/2 rounded plus its level, used
    as it is even over 20; the reserve is EN and the threshold EN/3 (F:L372-375, F:L1921-
    1925): Amy's EN 7, WP 11 and level 4 give 13, 7 and 2."""
    return stamina_of(request.endurance, request.willpower, request.level)


def stamina_of(endurance: int, willpower: int, level: int) -> Stamina:
    base = round_half_up(Fraction(endurance + willpower, 2))
    return Stamina(maximum=base + level, reserve=endurance,
                   threshold=round_half_up(Fraction(endurance, 3)))  # fmt: skip
