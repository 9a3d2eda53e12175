"""An independent oracle of the 4D8 rules, re-read from the seed text and enumerated over all
8**4 = 4,096 ORDERED rolls. It shares no code with the service: a disagreement between the
two is a finding, whichever is wrong.

Each reading of an ambiguous passage is a field of `Reading`, named after the catalogue's
ambiguity register (B3.11) and mapped from the service's option names by `reading_of`.
"""

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

ROLLS = tuple(itertools.product(range(1, 9), repeat=4))
FOUR_EIGHTS = (8, 8, 8, 8)
AUTOMATIC_DICE = (8, 6, 5, 4)  # D:L52


@dataclass(frozen=True)
class Reading:
    combinations: bool = True  # the appended rules D:L72-115 apply
    best_score: bool = False  # D-A02: most favourable reading instead of the shape's
    snake_eyes_sum: bool = False  # D-A03: four 1s score 4 (summary table) instead of 1
    doubles_combinations: bool = True  # D-A04
    bonus: str = "modified_dice"  # D-A05


def reading_of(options: dict[str, Any]) -> Reading:
    return Reading(
        combinations=options.get("special_combinations", True),
        best_score=options.get("combo_precedence", "shape") == "best_score",
        snake_eyes_sum=options.get("snake_eyes_degree", "one") == "sum",
        doubles_combinations=options.get("doubles_roll_combinations", True),
        bonus=options.get("bonus_roll_combo_mode", "modified_dice"),
    )


def how_many(dice: tuple[int, ...]) -> list[int]:
    """How many dice show each value, most first: [4], [3, 1], [2, 2], [2, 1, 1], [1, 1, 1, 1]."""
    return sorted(Counter(dice).values(), reverse=True)


def shape(dice: tuple[int, ...]) -> str:
    return {
        (4,): "four_same",
        (3, 1): "triplet",
        (2, 2): "two_pairs",
        (2, 1, 1): "pair",
        (1, 1, 1, 1): "distinct",
    }[tuple(how_many(dice))]


def without(dice: tuple[int, ...], value: int, times: int) -> list[int]:
    rest = list(dice)
    for _ in range(times):
        rest.remove(value)
    return rest


def triplet_score(dice: tuple[int, ...]) -> int | None:
    """Triplet value times 2, plus the fourth die (D:L79-82)."""
    for value in set(dice):
        if dice.count(value) == 3:
            return 2 * value + without(dice, value, 3)[0]
    return None


def two_pairs_score(dice: tuple[int, ...]) -> int | None:
    """Sum of the two pairs, plus 5 (D:L89-92)."""
    return sum(dice) + 5 if how_many(dice) == [2, 2] else None


def pair_scores(dice: tuple[int, ...]) -> list[int]:
    """For each value shown at least twice: the pair plus the highest remaining die
    (D:L99-102)."""
    return [2 * v + max(without(dice, v, 2)) for v in set(dice) if dice.count(v) >= 2]


def degree(dice: tuple[int, ...], reading: Reading) -> int:
    """The degree of a successful roll (D:L47-49, L72-115)."""
    if len(set(dice)) == 1:  # a lucky break: the sum; snake-eyes score 1 (D:L49)
        return 1 if dice[0] == 1 and not reading.snake_eyes_sum else sum(dice)
    highest = max(dice)  # D:L47
    if not reading.combinations:
        return highest
    if reading.best_score:
        scores = [highest, *pair_scores(dice), triplet_score(dice), two_pairs_score(dice)]
        return max(s for s in scores if s is not None)
    kind = shape(dice)
    if kind == "triplet":
        return triplet_score(dice)  # type: ignore[return-value]
    if kind == "two_pairs":
        return two_pairs_score(dice)  # type: ignore[return-value]
    if kind == "pair":
        return pair_scores(dice)[0]
    return highest


def bonus_degree(dice: tuple[int, ...], excess: int, reading: Reading) -> int:
    """A bonus roll: the excess over 32 is added to the highest die (D:L54)."""
    if not reading.combinations or reading.bonus == "no_combos":
        return max(dice) + excess
    if reading.bonus == "natural_combos_plus_excess":
        if len(set(dice)) == 1:  # "lucky breaks are not possible"
            return max(dice) + excess
        return degree(dice, reading) + excess
    modified = list(dice)
    modified[modified.index(max(modified))] += excess
    return degree(tuple(modified), reading)


def roll(dice: tuple[int, ...], chance: int, mode: str, reading: Reading) -> int | None:
    """The degree of one roll, or None on a failure."""
    if mode in ("normal", "plain"):  # total at most the chance succeeds (D:L45)
        return degree(dice, reading) if sum(dice) <= chance else None
    if dice == FOUR_EIGHTS:  # doubles and bonus rolls fail only on four 8s (D:L54)
        return None
    if mode == "doubles":
        plain = Reading(
            combinations=reading.combinations and reading.doubles_combinations,
            best_score=reading.best_score,
            snake_eyes_sum=reading.snake_eyes_sum,
        )
        return degree(dice, plain)
    assert mode == "bonus"
    return bonus_degree(dice, chance - 32, reading)


def degrees(chance: int, mode: str, reading: Reading) -> Counter[int]:
    """Successful ordered rolls by degree, out of 4,096."""
    if mode == "automatic":  # no roll: the dice are placed 8, 6, 5, 4 (D:L52)
        return Counter({max(AUTOMATIC_DICE): len(ROLLS)})
    if mode in ("normal", "plain"):  # only the total depends on the chance
        return Counter(d for total, d in _normal_rolls(reading) if total <= chance)
    return _rolls_over_32(chance - 32 if mode == "bonus" else 0, mode, reading)


@cache
def _normal_rolls(reading: Reading) -> tuple[tuple[int, int], ...]:
    return tuple((sum(dice), degree(dice, reading)) for dice in ROLLS)


@cache
def _rolls_over_32(excess: int, mode: str, reading: Reading) -> Counter[int]:
    found = Counter(roll(dice, 32 + excess, mode, reading) for dice in ROLLS)
    del found[None]
    return found  # type: ignore[return-value]


BANDS = {  # the interpretation of a degree (D:L61-68)
    "Barely succeeded by a whisker": range(1, 5),
    "Unspectacular success": range(5, 9),
    "Good result": range(9, 13),
    "Superb result": range(13, 17),
    "Exceptional success": range(17, 21),
    "Superhuman": range(21, 1000),
}


def bands(found: Counter[int]) -> dict[str, int]:
    return {name: sum(found[d] for d in values if d in found) for name, values in BANDS.items()}
