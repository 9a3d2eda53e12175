"""The dice of 4C: d% from two d10, read as tens and ones, where 00 is 0 (C:L41-47), its two
special readings, and NdX rolls for durations (catalogue 3.1.1, 3.0).

A d10 shows a face from 1 to 10 here, 10 standing for the face marked 0: table dice send a 0
as 10. In d% that face is a 0 digit; counted on its own (a duration) it is 10 unless
`d10_zero_is_ten` says otherwise (A-26).
"""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.cost import counted as states_counted
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.core.options import CoreOptions, RangeDice
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "D100",
    "DiceMode",
    "counted",
    "d100_distribution",
    "roll_d100",
    "roll_ndx",
    "span",
    "written_dice",
]

_D10 = Distribution.die(10)


class DiceMode(StrEnum):
    NORMAL = "normal"
    AMPLIFIED = "amplified"
    NINE_LIVES = "nine_lives"


def digit(face: int) -> int:
    """A d10 face as a d% digit: the face marked 0 (sent as 10) is 0."""
    return face % 10


class D100(Model):
    """A d% roll: the dice and how they were read."""

    mode: DiceMode
    tens: tuple[int, ...] = Field(description="The tens dice as digits (two when amplified).")
    ones: tuple[int, ...] = Field(description="The ones die, or with Nine Lives both dice.")
    readings: tuple[int, ...] = Field(description="Every reading the mode allows.")
    roll: int = Field(description="The reading taken: the higher (A-68, catalogue 3.1.1).")


def roll_d100(dice: Dice, mode: DiceMode, purpose: str = "d%") -> D100:
    """Normal: tens and ones, 00 is 0 (C:L43-45). Amplified (C:L490): two tens dice and the
    better kept. Nine Lives (C:L744): two dice, either may be the tens; the better reading."""
    if mode is DiceMode.NORMAL:
        tens, ones = (
            digit(dice.roll(10, f"{purpose} tens")),
            digit(dice.roll(10, f"{purpose} ones")),
        )
        return D100(mode=mode, tens=(tens,), ones=(ones,), readings=(10 * tens + ones,),
                    roll=10 * tens + ones)  # fmt: skip
    if mode is DiceMode.AMPLIFIED:
        at = len(dice.rolls)
        first = digit(dice.roll(10, f"{purpose} tens"))
        second = digit(dice.roll(10, f"{purpose} tens"))
        dice.discard(at + 1 if second <= first else at)  # the worse tens die (C:L490)
        ones = digit(dice.roll(10, f"{purpose} ones"))
        readings = (10 * first + ones, 10 * second + ones)
        return D100(mode=mode, tens=(first, second), ones=(ones,), readings=readings,
                    roll=max(readings))  # fmt: skip
    a, b = digit(dice.roll(10, f"{purpose} die")), digit(dice.roll(10, f"{purpose} die"))
    readings = (10 * a + b, 10 * b + a)
    return D100(mode=mode, tens=(a, b), ones=(b, a), readings=readings, roll=max(readings))


def d100_distribution(mode: DiceMode) -> Distribution[int]:
    """The roll a mode takes, over every face of its dice (catalogue 5.5): made once, and
    counted as the rolls its reader will walk."""
    found = _D100_ROLLS[mode]
    states_counted(len(found))
    return found


def _d100_of(mode: DiceMode) -> Distribution[int]:
    digits = _D10.map(digit)
    if mode is DiceMode.NORMAL:
        return digits.then(lambda t: digits.map(lambda o: 10 * t + o))
    if mode is DiceMode.AMPLIFIED:
        tens = digits.then(lambda a: digits.map(lambda b: max(a, b)))
        return tens.then(lambda t: digits.map(lambda o: 10 * t + o))
    return digits.then(lambda a: digits.map(lambda b: max(10 * a + b, 10 * b + a)))


#: Each mode's roll, made once: the dice are the same whatever the request reads from them
#: (as 4D8's four d8 are, `four_d8.odds`).
_D100_ROLLS = {mode: _d100_of(mode) for mode in DiceMode}


#: d% under any mode: at most 1,000 faces, then 100 values and a table of them.
_D100_STATES = 3 * 1000 + 300


def d100_cost(request: object) -> Estimate:
    """At most a thousand faces of three d10 and a table of a hundred rolls, every request."""
    return Estimate(_D100_STATES, ())


class D100Input(Model):
    mode: DiceMode = Field(
        default=DiceMode.NORMAL,
        description="normal; amplified (Amplified Elemental/Energy Control, C:L490); "
        "nine_lives (once a session, C:L744).",
    )


class D100Odds(Model):
    roll: list[OutcomeProbability]
    mean: Exact


def d100_odds(request: D100Input) -> D100Odds:
    """Every roll of a mode, exactly (catalogue 5.5)."""
    found = d100_distribution(request.mode)
    return D100Odds(roll=outcome_table(found), mean=exact(found.mean()))


@operation(
    name="dice/d100",
    kind=Kind.GENERATION,
    covers=("4c.dice.d100",),
    odds=d100_odds,
    cost=d100_cost,
    standard=[{"mode": mode.value} for mode in DiceMode],
    example={"dice": {"values": [8, 3]}},
)
def d100(request: D100Input, dice: Dice) -> D100:
    """Roll d%: the tens die and the ones die read 0 to 99, 00 being 0; Richard's 8 and 3 are
    83 (C:L41-47)."""
    return roll_d100(dice, request.mode)


class NdxInput(Model):
    count: Annotated[int, Field(ge=1, le=10)] = Field(description="How many d10.")
    add: Annotated[int, Field(ge=-1000, le=1000)] = 0
    options: CoreOptions = Field(default=CoreOptions())


class Ndx(Model):
    faces: tuple[int, ...] = Field(description="Each d10 as it counts (1-10 or 0-9), or the one "
                                   "number drawn with range_dice=uniform.")  # fmt: skip
    total: int


def counted(face: int, options: CoreOptions) -> int:
    """A d10 face counted on its own: 1-10, or 0-9 (A-26)."""
    return face if options.d10_zero_is_ten else digit(face)


def written_dice(count: int, add: int, options: CoreOptions) -> NdxInput:
    """Dice the text writes as dice, such as the Strength potion's '2d10+10' (C:L1694) or the
    Fist's '3d10+5 turns' (C:L1672), are rolled and summed whatever `range_dice` says: that
    option reads only a span written as a range, '2-20 turns' (A-25). The 0 face still counts
    as `d10_zero_is_ten` says (A-26)."""
    return NdxInput(count=count, add=add,
                    options=options.model_copy(update={"range_dice": RangeDice.NDX}))  # fmt: skip


def span(count: int, options: CoreOptions) -> NdxInput:
    """A span the text writes as a range, `count` to 10 x `count` turns: '1-10' (a force field
    shorted or its wearer dazed, C:L671-673; a teleport's daze, C:L898), '2-20' and '3-30'
    (an exhausted rest, C:L1037-1038): `count`d10, or one number of the span (A-25), a 0 face
    as `d10_zero_is_ten` reads it (A-26). Dice written as dice are `written_dice`."""
    return NdxInput(count=count, options=options)


def _uniform_sides(request: NdxInput) -> int:
    return 9 * request.count + 1  # "2-20": the 19 numbers from 2 to 20


def ndx_distribution(request: NdxInput) -> Distribution[int]:
    if request.options.range_dice is RangeDice.UNIFORM:
        low = request.count + request.add
        return Distribution.die(_uniform_sides(request)).map(lambda n: low + n - 1)
    total = Distribution({request.add: 1})
    one = _D10.map(lambda face: counted(face, request.options))
    for _ in range(request.count):
        total = total + one
    return total


class NdxOdds(Model):
    total: list[OutcomeProbability]
    mean: Exact


def ndx_odds(request: NdxInput) -> NdxOdds:
    found = ndx_distribution(request)
    return NdxOdds(total=outcome_table(found), mean=exact(found.mean()))


def ndx_cost(request: NdxInput) -> Estimate:
    """Each die added to the running sum (at most 10 x count + 1 values, 10 faces), then the
    table of totals."""
    states = sum(10 * (10 * k + 1) for k in range(request.count)) + 3 * (10 * request.count + 1)
    return Estimate(states + 100, ("/count",))


@operation(
    name="dice/ndx",
    kind=Kind.GENERATION,
    covers=("4c.dice.ndx",),
    odds=ndx_odds,
    cost=ndx_cost,
    example={"count": 2, "add": 10, "dice": {"values": [4, 10]}},
)
def ndx(request: NdxInput, dice: Dice) -> Ndx:
    """NdX+add, for '1d10 turns', '2d10+10' and the like; '1-10 turns' is 1d10 and '3-30
    turns' 3d10 (A-25), each d10 reading 1 to 10 (A-26, catalogue 3.0)."""
    return roll_ndx(request, dice)


def roll_ndx(request: NdxInput, dice: Dice, purpose: str = "d10") -> Ndx:
    """The NdX roll of dice/ndx for a rule that rolls a span or written dice, reading A-25
    and A-26 as the request's options say; each die goes to the roll log as `purpose`
    ("range" for the one number of a uniform span)."""
    if request.options.range_dice is RangeDice.UNIFORM:
        drawn = request.count - 1 + dice.roll(_uniform_sides(request), "range")
        return Ndx(faces=(drawn,), total=drawn + request.add)
    faces = tuple(counted(dice.roll(10, purpose), request.options) for _ in range(request.count))
    return Ndx(faces=faces, total=sum(faces) + request.add)
