"""Resolving a 4D8 roll from its natural dice (D:L7-8, L44-54).

The check rolls the dice and the odds enumerate them; both decide a roll here, so the rule
is written once.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated

from pydantic import Field, field_validator

from service.rules.four_d8.chance import MAX_EASE, ChanceInput
from service.rules.four_d8.degree import Aspect, Scoring, score
from service.rules.four_d8.options import BonusRollComboMode, FourD8Options
from service.rules.model import InputError

__all__ = [
    "AUTOMATIC_FACES",
    "CheckInput",
    "Mode",
    "Over32Mode",
    "Resolution",
    "mode_of",
    "resolve",
    "scoring_options",
]

#: "one showing an 8 and the others showing 6, 5, and 4" (D:L52).
AUTOMATIC_FACES = (8, 6, 5, 4)
#: Below 4 no four d8 can succeed (D-A19).
LOWEST_POSSIBLE = 4


class Over32Mode(StrEnum):
    """The player's choice at a chance of 33 or more (D:L52-54); bonus is the default
    (D:L54, D-A10). `plain` is allowed only with `allow_plain_roll_over_32` (D-A11)."""

    AUTOMATIC = "automatic"
    DOUBLES = "doubles"
    BONUS = "bonus"
    PLAIN = "plain"


class Mode(StrEnum):
    """How the check was resolved."""

    NORMAL = "normal"
    IMPOSSIBLE = "impossible"
    AUTOMATIC = "automatic"
    DOUBLES = "doubles"
    BONUS = "bonus"
    PLAIN = "plain"


class CheckInput(ChanceInput):
    """A 4D8 check: the chance of success, and the player's choices."""

    over32_mode: Over32Mode = Field(
        default=Over32Mode.BONUS, description="Used only when the chance is 33 or more."
    )
    auto_success_placement: tuple[Annotated[int, Field(ge=1, le=8)], ...] | None = Field(
        default=None,
        min_length=4,
        max_length=4,
        description=(
            "D-A08: the faces 8, 6, 5, 4 placed in aspect order for an automatic success; "
            "default 8, 6, 5, 4."
        ),
    )
    bonus_die_aspect: Aspect | None = Field(
        default=None,
        description="D-A06: the die to take a bonus roll's excess when several are highest.",
    )

    @field_validator("auto_success_placement")
    @classmethod
    def _the_automatic_faces(cls, placement: tuple[int, ...] | None) -> tuple[int, ...] | None:
        """An automatic success shows 8, 6, 5 and 4 (D:L52); only their order is the
        player's (D-A08)."""
        if placement is not None and sorted(placement, reverse=True) != list(AUTOMATIC_FACES):
            raise ValueError("an automatic success places the faces 8, 6, 5 and 4")
        return placement


@dataclass(frozen=True, slots=True)
class Resolution:
    """A decided roll: success, and on success the degree, the scoring rule and the dice
    that were scored (the modified dice of a bonus roll)."""

    success: bool
    degree: int | None
    scored_as: Scoring | None
    scored: tuple[int, ...]


def mode_of(chance: int, chosen: Over32Mode, options: FourD8Options) -> Mode:
    """The way a chance is rolled: the player's choice only above 32 (D:L7)."""
    if chance > MAX_EASE:
        if chosen is Over32Mode.PLAIN and not options.allow_plain_roll_over_32:
            raise InputError(
                ("over32_mode",),
                "a plain roll is not one of the three choices above 32 (D-A11); "
                "set options.allow_plain_roll_over_32 to allow it",
            )
        return Mode(chosen.value)
    if chance < LOWEST_POSSIBLE and not options.roll_when_impossible:
        return Mode.IMPOSSIBLE
    return Mode.NORMAL


def scoring_options(mode: Mode, options: FourD8Options) -> FourD8Options:
    """The options a roll of this mode is scored and read by: a doubles roll without
    `doubles_roll_combinations` takes the base rules only (D:L54, D-A04)."""
    if mode is Mode.DOUBLES and not options.doubles_roll_combinations:
        return options.model_copy(update={"special_combinations": False})
    return options


def resolve(
    natural: Sequence[int],
    chance: int,
    mode: Mode,
    options: FourD8Options,
    bonus_index: int | None = None,
) -> Resolution:
    """Decide a roll of four natural dice.

    Normal: success when the total is at most the chance (D:L45). Doubles: success on
    anything but four 8s, no bonus, lucky breaks allowed (D:L54). Bonus: success on anything
    but four 8s; the excess over 32 is added to the highest die (D:L54), then scored by
    `bonus_roll_combo_mode` (D-A05).
    """
    dice = tuple(natural)
    if mode in (Mode.NORMAL, Mode.PLAIN, Mode.IMPOSSIBLE):
        if sum(dice) > chance:
            return Resolution(False, None, None, dice)
        value, scored_as = score(dice, options)
        return Resolution(True, value, scored_as, dice)
    if dice == (8, 8, 8, 8):
        return Resolution(False, None, None, dice)
    if mode is Mode.DOUBLES:
        value, scored_as = score(dice, scoring_options(mode, options))
        return Resolution(True, value, scored_as, dice)
    return _bonus_roll(dice, chance - MAX_EASE, options, bonus_index)


def _bonus_roll(
    dice: tuple[int, ...], excess: int, options: FourD8Options, bonus_index: int | None
) -> Resolution:
    index = bonus_index if bonus_index is not None else dice.index(max(dice))
    modified = tuple(d + excess if i == index else d for i, d in enumerate(dice))
    combos = options.special_combinations
    mode = options.bonus_roll_combo_mode
    if combos and mode is BonusRollComboMode.MODIFIED_DICE:
        value, scored_as = score(modified, options)
        return Resolution(True, value, scored_as, modified)
    if combos and mode is BonusRollComboMode.NATURAL_COMBOS_PLUS_EXCESS:
        value, scored_as = score(dice, options)
        if scored_as in (Scoring.SNAKE_EYES, Scoring.LUCKY_BREAK):
            # "lucky breaks are not possible" (D:L54): four the same scores its highest die.
            value, scored_as = max(dice), Scoring.HIGHEST_DIE
        return Resolution(True, value + excess, scored_as, dice)
    # no_combos, or the base rules alone: the excess "is then added to the highest of the four
    # dice. This will alter ... the degree of success" (D:L54), so the dice scored, and read,
    # are the modified ones: the degree is the highest of them, and their shape never has the
    # four the same a lucky break needs. The natural shape is the check's `combination`.
    return Resolution(True, max(dice) + excess, Scoring.HIGHEST_DIE, modified)
