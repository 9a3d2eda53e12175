"""An independent oracle for Future Imperfect dice (catalogue 5.2), written from the closed
forms rather than the service's code: an open-ended dX ends on v = qX + r (1 <= r < X) with
probability X**-(q + 1), and never on a multiple of X. Pools are enumerated die by die over
every value up to a bound, so a probability that needs only values below it is exact."""

from collections.abc import Iterator
from fractions import Fraction
from itertools import product

__all__ = ["check_outcomes", "open_ended", "plain"]


def open_ended(sides: int, below: int) -> dict[int, Fraction]:
    """P(an open-ended die ends on v) for every v < `below`."""
    return {v: Fraction(1, sides ** (v // sides + 1)) for v in range(1, below) if v % sides}


def plain(sides: int) -> dict[int, Fraction]:
    return {v: Fraction(1, sides) for v in range(1, sides + 1)}


def check_outcomes(
    sides: int, dice: int, below: int, exploding: bool = True
) -> Iterator[tuple[bool, int, Fraction]]:
    """(critical failure, kept, probability) of every roll whose dice all end below `below`:
    a critical failure is more than half the first faces showing 1, and keeps the highest
    first face (a maximum's chain ignored); otherwise the highest die is kept."""
    values = open_ended(sides, below) if exploding else plain(sides)
    for roll in product(values.items(), repeat=dice):
        chance = Fraction(1)
        for _, p in roll:
            chance *= p
        faces = [v for v, _ in roll]
        cf = 2 * faces.count(1) > dice
        kept = max(min(v, sides) for v in faces) if cf else max(faces)
        yield cf, kept, chance
