"""Plain dice (FI:L102, FI:L581, FI:L591) and opposed rolls (catalogue 1.4)."""

from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    DEPTH,
    MAX_CHAIN,
    Checked,
    CheckInput,
    dice_only,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["OPPOSED", "Side", "dice_roll", "initiator_en", "opposed", "winner"]


class RollInput(Model):
    count: Annotated[int, Field(ge=1, le=10)]
    sides: Annotated[int, Field(ge=2, le=20)]
    open_ended: bool = Field(
        default=False,
        description="A maximum rolls again and adds: the CT d6 per wound level (FI:L591); "
        "not stepping up (FI:L102) or hours unconscious (FI:L581).",
    )


class Rolled(Model):
    dice: list[tuple[int, ...]]
    total: int


@operation(
    name="dice/roll",
    kind=Kind.GENERATION,
    covers=("fi.dice.roll",),
    example={"count": 1, "sides": 6, "open_ended": True, "dice": {"values": [6, 2]}},
)
def dice_roll(request: RollInput, dice: Dice) -> Rolled:
    """NdX summed: 1d6 hours (FI:L581), the open-ended CT 1d6 (FI:L591)."""
    rolled = []
    for _ in range(request.count):
        faces = [dice.roll(request.sides, f"d{request.sides}")]
        while request.open_ended and faces[-1] == request.sides and len(faces) <= MAX_CHAIN:
            faces.append(dice.roll(request.sides, "again", exploded_from=len(dice.rolls) - 1))
        rolled.append(tuple(faces))
    return Rolled(dice=rolled, total=sum(sum(f) for f in rolled))


class Side(Model):
    pool: PoolText
    modifiers: tuple[Annotated[int, Field(ge=-50, le=50)], ...] = Field(default=(), max_length=8)
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = 0


class OpposedInput(Model):
    initiator: Side
    resister: Side
    options: CoreOptions = Field(default=CoreOptions())


class Opposed(Model):
    initiator: Checked
    resister: Checked
    winner: str = Field(description="'initiator', 'resister' or 'status_quo' on a tie (A-08).")
    successes: int = Field(description="The initiator's: 1 and 1 a bump over the resister.")


def _check(side: Side, tn: int, options: CoreOptions) -> CheckInput:
    return CheckInput(pool=side.pool, tn=tn, modifiers=side.modifiers,
                      wound_penalty=side.wound_penalty, options=options)  # fmt: skip


def winner(initiator: int | None, resister: int, options: CoreOptions) -> str:
    """The resister's result, whatever it is, is the initiator's TN; the initiator's critical
    failure loses; a tie as the option says (catalogue 1.4, A-08)."""
    if initiator is None or initiator < resister:
        return "resister"
    if initiator > resister:
        return "initiator"
    return options.tie_goes_to.value


def initiator_en(checked: tuple[bool, int]) -> int | None:
    """The initiator's result, None on a critical failure, which always loses."""
    cf, en = checked
    return None if cf else en


class OpposedOdds(Model):
    winner: list[OutcomeProbability]
    initiator_wins: Exact
    truncation: Truncation | None


def opposed_odds(request: OpposedInput) -> OpposedOdds:
    """Who wins, over both sides' results (each with its modifiers), exactly (T22)."""
    dice_only(request.options, "an opposed roll")
    both = (request.initiator, request.resister)
    first, second = (results(_check(side, 0, request.options)) for side in both)
    found = first.then(lambda a: second.map(
        lambda b: winner(initiator_en(a), b[1], request.options)))  # fmt: skip
    return OpposedOdds(winner=outcome_table(found, ["initiator", "resister", "status_quo"]),
                       initiator_wins=exact(found.probability("initiator")),
                       truncation=truncation(found, DEPTH))  # fmt: skip


#: Each side's kept die (a few hundred values at most, `checks.check_cost`) and every pair of
#: them: the same bound for every opposed roll.
OPPOSED = Estimate(200_000, ())


def opposed_cost(request: OpposedInput) -> Estimate:
    """Each side's kept die (a few hundred values at most, `checks.check_cost`) and every pair
    of them: the same bound for every request."""
    return OPPOSED


@operation(
    name="core/opposed",
    kind=Kind.CHECK,
    covers=("fi.core.opposed",),
    odds=opposed_odds,
    cost=opposed_cost,
    example={"initiator": {"pool": "III-2"}, "resister": {"pool": "IV-1"}, "dice": {"seed": 9}},
)
def opposed(request: OpposedInput, dice: Dice) -> Opposed:
    """Each side rolls; the resister's result is the initiator's TN ("the greater of either
    his normal TN or an opposed Fighting/Dodge check", FI:L415): Ryssh's III-2 Reflex against
    the bug's IV-1 (FI:L347)."""
    dice_only(request.options, "an opposed roll")
    first = roll_check(_check(request.initiator, 0, request.options), dice)
    second = roll_check(_check(request.resister, 0, request.options), dice)
    initiator = None if first.critical_failure else first.en
    won = winner(initiator, second.en, request.options)
    margin = first.en - second.en if won == "initiator" else 0
    successes = 1 + margin // request.options.bump_step if won == "initiator" else 0
    return Opposed(initiator=first, resister=second, winner=won, successes=successes)
