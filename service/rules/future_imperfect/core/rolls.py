"""Plain dice (FI:L102, FI:L581, FI:L591) and opposed rolls (catalogue 1.4)."""

from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Exact, OutcomeProbability, Truncation, exact, outcome_table
from service.rules.future_imperfect.core.checks import (
    DEPTH,
    MAX_CHAIN,
    Checked,
    CheckInput,
    kept_distribution,
    roll_check,
)
from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["dice_roll", "opposed"]


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
    for index in range(request.count):
        faces = [dice.roll(request.sides, f"d{request.sides}")]
        while request.open_ended and faces[-1] == request.sides and len(faces) <= MAX_CHAIN:
            faces.append(dice.roll(request.sides, "again", exploded_from=index))
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


def _winner(initiator: int | None, resister: int | None, options: CoreOptions) -> str:
    """The resister's result is the initiator's TN; a critical failure always loses; a tie as
    the option says (catalogue 1.4, A-08)."""
    if initiator is None:
        return "resister"
    if resister is None or initiator > resister:
        return "initiator"
    if initiator < resister:
        return "resister"
    return options.tie_goes_to.value


class OpposedOdds(Model):
    winner: list[OutcomeProbability]
    initiator_wins: Exact
    truncation: Truncation | None


def opposed_odds(request: OpposedInput) -> OpposedOdds:
    """Who wins, over both sides' kept dice (each with its modifiers), exactly."""
    both = (request.initiator, request.resister)
    sides = [kept_distribution(_check(side, 0, request.options)) for side in both]
    added = [sum(side.modifiers) + side.wound_penalty for side in both]

    def en(kept: int | None, extra: int) -> int | None:
        return None if kept is None else max(kept + extra, 0)

    found = sides[0].then(lambda a: sides[1].map(
        lambda b: _winner(en(a, added[0]), en(b, added[1]), request.options)))  # fmt: skip
    missing = found.missing
    return OpposedOdds(winner=outcome_table(found, ["initiator", "resister", "status_quo"]),
                       initiator_wins=exact(found.probability("initiator")),
                       truncation=Truncation(depth=DEPTH, mass_cut=exact(missing)) if missing
                       else None)  # fmt: skip


def opposed_cost(request: OpposedInput) -> Estimate:
    """Each side's kept die (a few hundred values at most, `checks.check_cost`) and every pair
    of them: the same bound for every request."""
    return Estimate(200_000, ())


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
    first = roll_check(_check(request.initiator, 0, request.options), dice)
    second = roll_check(_check(request.resister, 0, request.options), dice)
    initiator = None if first.critical_failure else first.en
    resister = None if second.critical_failure else second.en
    winner = _winner(initiator, resister, request.options)
    margin = first.en - second.en if winner == "initiator" and resister is not None else 0
    successes = 1 + margin // request.options.bump_step if winner == "initiator" else 0
    return Opposed(initiator=first, resister=second, winner=winner, successes=successes)
