"""Damage draws (catalogue 5.2): a code N(C) is N dice of column C summed, every maximum
rolled again and added ("always roll for all Max on damage rolls", A-07); wounds are the
total over the target's Size, rounded down (FI:L514-516); each wound level brings 1d6 CT,
open-ended, and a hit that wounds nothing still 1d6 (FI:L591). Wounds a hazard places at
random go where the d20 location table says (FI:L431-437, A-13)."""

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, Shape, added_states, repeated_states
from service.rules.future_imperfect.core.checks import (
    MAX_CHAIN,
    dice_only,
    die_distribution,
    die_values,
)
from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.future_imperfect.core.pools import Pool, sides
from service.rules.model import Model
from service.rules.tables import table

__all__ = [
    "HIT_LOCATIONS",
    "Draw",
    "Size",
    "ct_dice_only",
    "damage_depth",
    "damage_distribution",
    "damage_sides",
    "damage_states",
    "depth_for",
    "roll_concussion",
    "roll_damage",
    "roll_location",
    "sum_states",
    "summed",
    "totals_of",
    "wounds_for",
    "wounds_of",
]

#: Body size: a human is 6, an Ursoid 7 (FI:L399, FI:L516). At least 1, which bounds the wound
#: levels of a hit, and so its CT dice, by its damage; the chapter sizes nothing that takes
#: wounds smaller (its smaller sizes only move a shooter's TN, catalogue T18).
Size = Annotated[
    float, Field(ge=1, le=1000, description="Body size as written (a human is 6, FI:L516).")
]
#: The mass a damage sum may leave out: each die's chain is followed until its longer chains
#: weigh less than this over the dice.
CUT = Fraction(1, 10**12)


class HitLocation(Model):
    low: int
    high: int
    region: str
    tracked: str = Field(description="Where the wound is kept: legs by parity (odd left).")


HIT_LOCATIONS = table(__name__, "hit_locations", HitLocation)


class Draw(Model):
    code: str = Field(description="N(C): N dice of column C.")
    dice: list[tuple[int, ...]] = Field(description="Each die: its face and the maxima added.")
    total: int


def damage_sides(code: Pool, loc: tuple[str | int, ...], options: CoreOptions) -> int:
    """The die of a damage code's column (`sides`, A-02). Damage is cards drawn and totalled
    (FI:L512 "the first integer is the number of cards"), read here as dice: the deck engine
    is refused, roll and odds alike (`dice_only`)."""
    dice_only(options, "damage (cards totalled, FI:L512)")
    return sides(code, loc, options)


def roll_damage(code: Pool, dice: Dice, options: CoreOptions, what: str = "damage") -> Draw:
    top = damage_sides(code, ("damage",), options)
    rolled = []
    for _ in range(code.row):
        faces = [dice.roll(top, f"{what} d{top}")]
        while faces[-1] == top and len(faces) <= MAX_CHAIN:
            faces.append(dice.roll(top, f"{what} again", exploded_from=len(dice.rolls) - 1))
        rolled.append(tuple(faces))
    return Draw(code=code.cards, dice=rolled, total=sum(sum(f) for f in rolled))


def damage_depth(top: int, count: int) -> int:
    """The fewest extra dice each chain is followed to for `count` dice to leave out less
    than `CUT`: a chain longer than d extra dice has probability top**-(d + 1)."""
    depth = 0
    while Fraction(count, top ** (depth + 1)) >= CUT:
        depth += 1
    return depth


def depth_for(tops: list[int]) -> int:
    """The depth every die is followed to: enough for all of them at the smallest die."""
    return damage_depth(min(tops), len(tops)) if tops else 0


def summed(tops: list[int], depth: int | None = None) -> Distribution[int]:
    """The total of one open-ended die of each of `tops` sides, followed to `depth` (by
    default, enough for them alone)."""
    depth = depth_for(tops) if depth is None else depth
    dice = [die_distribution(top, True, depth).repeated(count)
            for top, count in sorted(Counter(tops).items())]  # fmt: skip
    return sum(dice[1:], dice[0]) if dice else Distribution({0: 1})


def totals_of(tops: list[int], depth: int) -> int:
    """How many totals one open-ended die of each of `tops` can make: at most every integer
    from one a die to the sum of their highest values."""
    return 1 + sum(die_values(top, depth)[1] - 1 for top in tops)


def sum_states(tops: list[int], depth: int | None = None) -> int:
    """At most how many states `summed` makes: each kind of die made (its face and a chain
    of `depth` more, at most top x (4 depth + 3) states) and raised to its count
    (`repeated_states`, no weight above its total: top^(depth + 1) a die), then each kind's
    totals met with the totals so far, as pairs or as a packed product (`added_states`), and
    the totals that come of it. A die's values and the totals are each a run of integers
    with few gaps, so they always pack."""
    depth = depth_for(tops) if depth is None else depth
    states, reach, total = 0, 0, 1
    for top, count in sorted(Counter(tops).items()):
        (values, highest), die = die_values(top, depth), top ** (depth + 1)
        states += top * (4 * depth + 3)
        states += repeated_states(Shape(values, highest, die.bit_length()), count)
        span, kind_total = count * (highest - 1) + 1, die**count
        if reach:
            states += added_states(
                Shape(reach, reach, total.bit_length()), Shape(span, span, kind_total.bit_length())
            )
        reach = reach + span - 1 if reach else span
        total *= kind_total
    return states


def damage_distribution(code: Pool, options: CoreOptions) -> tuple[Distribution[int], int]:
    """The total of N(C) and the depth its chains were followed to."""
    tops = [damage_sides(code, ("damage",), options)] * code.row
    return summed(tops), depth_for(tops)


def damage_states(code: Pool, options: CoreOptions) -> tuple[int, int]:
    """At most how many states `damage_distribution` makes (`sum_states`), and the highest
    total it can reach (its totals are at most that many)."""
    tops = [damage_sides(code, ("damage",), options)] * code.row
    return sum_states(tops), sum(tops) * (depth_for(tops) + 1)


def wounds_of(total: int, size: float) -> int:
    """The wound levels of `total` damage to a body of `size` (`wounds_for`)."""
    return wounds_for(size)(total)


def wounds_for(size: float) -> Callable[[int], int]:
    """Damage over Size, rounded down (FI:L514); a size is read as the decimal it is written
    as, so 0.1 is a tenth. Read once for every total a distribution holds."""
    written = Fraction(repr(size))
    return lambda total: total * written.denominator // written.numerator


def ct_dice_only(options: CoreOptions) -> None:
    """CT is "1d6" a wound level, "open-ended" (FI:L591): dice, which no card of the chapter
    draws, so the deck engine is refused, roll and odds alike (`dice_only`), as for damage."""
    dice_only(options, "CT (1d6 a wound level, FI:L591)")


def roll_concussion(levels: int, dice: Dice) -> list[tuple[int, ...]]:
    """1d6 CT for each wound level, at least one for a hit that wounds nothing; open-ended
    (FI:L591)."""
    rolled = []
    for _ in range(max(levels, 1)):
        faces = [dice.roll(6, "CT d6")]
        while faces[-1] == 6 and len(faces) <= MAX_CHAIN:
            faces.append(dice.roll(6, "CT again", exploded_from=len(dice.rolls) - 1))
        rolled.append(tuple(faces))
    return rolled


def roll_location(dice: Dice) -> str:
    """A random location: the d20 table, legs and arms by parity (FI:L431-437)."""
    face = dice.roll(20, "location d20")
    row = next(r for r in HIT_LOCATIONS if r.low <= face <= r.high)
    return row.tracked.replace("*", "left" if face % 2 else "right")
