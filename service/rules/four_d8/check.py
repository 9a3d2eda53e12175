"""The 4D8 check: roll four d8 under the chance of success (D:L3-9, L44-54)."""

from collections.abc import Sequence

from pydantic import Field, computed_field

from service.rules.dice import Dice
from service.rules.four_d8.chance import MAX_EASE, ChanceResult, chance_of_success
from service.rules.four_d8.degree import ASPECTS, Aspect, Reading, Scoring, classify, read
from service.rules.four_d8.odds import check_cost, check_odds
from service.rules.four_d8.options import BonusDieSelection, SnakeEyesInBonusRoll
from service.rules.four_d8.resolution import (
    AUTOMATIC_FACES,
    CheckInput,
    Mode,
    Resolution,
    mode_of,
    resolve,
    scoring_options,
)
from service.rules.four_d8.tables import Combination
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["CheckResult", "Die", "check"]


class Die(Model):
    """One of the four dice: the aspect it stands for, its face and its value after a bonus."""

    aspect: Aspect
    natural: int
    modified: int


class CheckResult(ChanceResult):
    """The outcome of a 4D8 check."""

    mode: Mode
    dice: list[Die] = Field(description="Aspect-ordered; empty when nothing was rolled.")
    natural_total: int | None
    modified_total: int | None = Field(description="D-A20: for information only.")
    success: bool
    combination: Combination | None = Field(description="The shape of the natural dice.")
    snake_eyes: bool = Field(description="Four natural 1s: unfortunate effects (D:L49, D-A07).")
    bonus: int | None = Field(description="A bonus roll's excess over 32, added to one die.")
    bonus_die: Aspect | None
    reading: Reading | None = Field(description="The degree and its meaning, on a success.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def degree(self) -> int | None:
        return self.reading.degree if self.reading else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def interpretation(self) -> str | None:
        return self.reading.interpretation if self.reading else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def lucky_break(self) -> bool:
        return self.reading is not None and self.reading.scored_as is Scoring.LUCKY_BREAK


#: What each die is for, in the roll log: its aspect.
_PURPOSES = tuple(aspect.value for aspect in ASPECTS)


def _bonus_index(natural: Sequence[int], request: CheckInput) -> int:
    """The first highest die in aspect order, or the player's pick among the highest (D-A06)."""
    highest = max(natural)
    chosen = request.bonus_die_aspect
    player = request.options.bonus_die_selection is BonusDieSelection.PLAYER_CHOICE
    if player and chosen is not None and natural[ASPECTS.index(chosen)] == highest:
        return ASPECTS.index(chosen)
    return list(natural).index(highest)


@operation(
    name="check",
    kind=Kind.CHECK,
    covers=(
        "4d8.check",
        "4d8.roll_resolution",
        "4d8.over32.choose",
        "4d8.over32.automatic_success",
        "4d8.over32.doubles_roll",
        "4d8.over32.bonus_roll",
    ),
    odds=check_odds,
    cost=check_cost,
    memo=True,
    # Every ease a referee can set that the rules distinguish (below 1 nothing can succeed).
    standard=[{"ease": ease} for ease in range(-8, MAX_EASE + 1)],
    example={"ease": 20, "dice": {"values": [5, 5, 5, 3]}},
)
def check(request: CheckInput, dice: Dice) -> CheckResult:
    """Roll four d8 (physical, mental, social, magical) against the chance of success.

    A total at most the chance succeeds (D:L8, L45); the degree is the highest die, four the
    same score their sum and four 1s score 1 (D:L47-49), with the special combinations
    (D:L72-115). At a chance of 33+ the player takes an automatic success (8, 6, 5, 4,
    degree 8), a doubles roll or, by default, a bonus roll (D:L51-54).
    """
    base = chance_of_success(request)
    mode = mode_of(base.chance, request.over32_mode, request.options)
    natural: tuple[int, ...] = ()
    if mode is Mode.AUTOMATIC:
        natural = request.auto_success_placement or AUTOMATIC_FACES
    elif mode is not Mode.IMPOSSIBLE:
        natural = tuple([dice.roll(8, purpose) for purpose in _PURPOSES])
    return _result(request, base, mode, natural)


def _result(
    request: CheckInput, base: ChanceResult, mode: Mode, natural: tuple[int, ...]
) -> CheckResult:
    """What four faces (none when nothing was rolled) mean for this check."""
    options = request.options
    if not natural:
        return CheckResult(
            **base.__dict__, mode=mode, dice=[], natural_total=None, modified_total=None,
            success=False, combination=None, snake_eyes=False, bonus=None, bonus_die=None,
            reading=None,
        )  # fmt: skip
    bonus_index = _bonus_index(natural, request) if mode is Mode.BONUS else None
    if mode is Mode.AUTOMATIC:
        outcome = Resolution(True, max(natural), Scoring.HIGHEST_DIE, natural)
    else:
        outcome = resolve(natural, base.chance, mode, options, bonus_index)
    excess = base.chance - MAX_EASE if mode is Mode.BONUS else 0
    modified = [n + excess if i == bonus_index else n for i, n in enumerate(natural)]
    ignore = mode is Mode.BONUS and options.snake_eyes_in_bonus_roll is SnakeEyesInBonusRoll.IGNORE
    reading = None
    if outcome.success and outcome.degree is not None and outcome.scored_as is not None:
        reading = read(
            outcome.scored, outcome.degree, outcome.scored_as, scoring_options(mode, options)
        )
    return CheckResult(
        **base.__dict__,
        mode=mode,
        dice=[
            Die(aspect=a, natural=n, modified=m)
            for a, n, m in zip(ASPECTS, natural, modified, strict=True)
        ],
        natural_total=sum(natural),
        modified_total=sum(modified),
        success=outcome.success,
        combination=classify(natural),
        snake_eyes=natural == (1, 1, 1, 1) and mode is not Mode.AUTOMATIC and not ignore,
        bonus=excess if mode is Mode.BONUS else None,
        bonus_die=ASPECTS[bonus_index] if bonus_index is not None else None,
        reading=reading,
    )
