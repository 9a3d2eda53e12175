"""Who acts when (FI:L167-181): the Master counts the steps down from 14; a card's holder
acts on its step, ties broken by fragment (A-33); the black joker goes at any time, first
(FI:L231); the red joker never acts. A rush acts on an earlier-called step with the task's
pool shifted a row up for each step, then a column left, never past I-1; a failed rush acts
two steps after the card (A-36)."""

from fractions import Fraction
from math import lcm
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    outcome_table,
)
from service.rules.future_imperfect.core.checks import (
    Modifier,
    Tested,
    TestInput,
    test,
    test_cost,
    test_odds,
)
from service.rules.future_imperfect.core.pools import PoolText, Shift, parse, shifted
from service.rules.future_imperfect.time.cards import (
    BLACK_JOKER,
    RED_JOKER,
    ActionCard,
    Impulse,
    card,
    distinct,
    rank,
)
from service.rules.future_imperfect.time.options import TimeOptions
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["order", "rush"]

#: A rushed test of an action that needs none is Standard (5) (FI:L179).
NORMAL_TN = 5
#: Where an action delayed past step 1 falls: the end of the round (A-36).
END_OF_ROUND = 0


class OrderPlay(Model):
    actor: Annotated[str, Field(min_length=1, max_length=60)]
    card: Impulse
    acts_at: Annotated[int, Field(ge=0, le=14)] | None = Field(
        default=None,
        description="The step a rush or a failed rush moves the card to (combat/rush's "
        "acts_at_step, up to the 14 called first; 0: the end of the round); its fragment is "
        "unchanged (FI:L181).",
    )


class OrderInput(Model):
    plays: Annotated[tuple[OrderPlay, ...], Field(min_length=1, max_length=60)]
    options: TimeOptions = Field(default=TimeOptions())


class OrderTurn(Model):
    actor: str
    card: ActionCard
    step: int = Field(description="The step acted on: the card's, or where a rush moved it.")


class Ordered(Model):
    turns: list[OrderTurn] = Field(description="In acting order.")
    no_action: list[OrderTurn] = Field(description="Step 0 cards: no action (FI:L233).")


@operation(
    name="combat/order",
    kind=Kind.CALCULATION,
    covers=("fi.combat.order",),
    example={"plays": [{"actor": "Kayla", "card": 27}, {"actor": "agent", "card": 26},
                       {"actor": "Chuk", "card": 40}, {"actor": "Frost", "card": 53}]},
)  # fmt: skip
def order(request: OrderInput) -> Ordered:
    """Once all are ready, the Master counts the steps down from 14; a hero acts when a step
    of his is called, and fragments break ties on a step. The deck is shared, so no two
    cards show the same step and fragment (FI:L169-171). The step 14 may go at any time,
    always first (FI:L231); a rush keeps its fragment, so it never passes the same card
    (FI:L181)."""
    distinct([p.card for p in request.plays], ("plays",))
    turns, idle = [], []
    for play in request.plays:
        found = card(play.card)
        if found.step == RED_JOKER:
            idle.append(OrderTurn(actor=play.actor, card=found, step=RED_JOKER))
        elif found.step == BLACK_JOKER and play.acts_at is not None:
            raise InputError(("plays", request.plays.index(play), "acts_at"),
                             "the step 14 goes first and is never rushed")  # fmt: skip
        else:
            step = found.step if play.acts_at is None else play.acts_at
            turns.append(OrderTurn(actor=play.actor, card=found, step=step))
    return Ordered(turns=sorted(turns, key=lambda t: _first(t, request.options), reverse=True),
                   no_action=idle)  # fmt: skip


def _first(turn: OrderTurn, options: TimeOptions) -> tuple[bool, int, int]:
    """The black joker, which always goes first (FI:L231), even before a card rushed to the
    step 14 called (FI:L169, FI:L175); then the step acted on, then the card's fragment
    (A-33)."""
    return turn.card.step == BLACK_JOKER, turn.step, rank(turn.card, options)[1]


class RushInput(Model):
    pool: PoolText = Field(description="The action's pool: its natural trait's, else Reflex.")
    card_step: Annotated[int, Field(ge=1, le=13)]
    called_step: Annotated[int, Field(ge=2, le=14)]
    tn: Annotated[int, Field(ge=0, le=100)] | None = Field(
        default=None, description="The task's TN; none for an action that needs no roll: 5."
    )
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=8)
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = 0
    options: TimeOptions = Field(default=TimeOptions())


class Rushed(Model):
    shifts: int
    pool: str = Field(description="The pool shifted toward I-1.")
    test: Tested
    acts_at_step: int = Field(description="The called step, or the card's less 2 on a failure; "
                                          "0: the end of the round.")  # fmt: skip


def _test(request: RushInput) -> TestInput:
    """The task's pool shifted a row up per step rushed, then a column left (FI:L175)."""
    shifts = request.called_step - request.card_step
    if shifts <= 0:
        raise InputError(("called_step",), "a rush acts on a step before its card's")
    pool, stopped = shifted(parse(request.pool), Shift.RUSH, shifts)
    if stopped:
        raise InputError(("called_step",), "a rush may not act before what would make the "
                                           "task I-1 (FI:L175)")  # fmt: skip
    tn = NORMAL_TN if request.tn is None else request.tn
    return TestInput(pool=pool.roman, tn=tn, modifiers=request.modifiers,
                     wound_penalty=request.wound_penalty, options=request.options)  # fmt: skip


def _acts_at(request: RushInput, success: bool) -> int:
    late = request.card_step - request.options.rush_fail_delay_steps
    return request.called_step if success else max(late, END_OF_ROUND)


class RushOdds(Model):
    acts_at_step: list[OutcomeProbability]
    success: Exact
    truncation: Truncation | None


def rush_odds(request: RushInput) -> RushOdds:
    """Where the action falls, exactly: the shifted test's P(success) (`core/test`), the
    rest failing but for the mass its truncation cut."""
    tested = test_odds(_test(request))
    success = Fraction(tested.success.exact)
    cut = Fraction(tested.truncation.mass_cut.exact) if tested.truncation else Fraction(0)
    whole = lcm(success.denominator, cut.denominator)
    found = Distribution({_acts_at(request, True): int(success * whole),
                          _acts_at(request, False): int((1 - success - cut) * whole)},
                         total=whole)  # fmt: skip
    return RushOdds(acts_at_step=outcome_table(found), success=tested.success,
                    truncation=tested.truncation)  # fmt: skip


def rush_cost(request: RushInput) -> Estimate:
    """The shifted test (`core/test`)."""
    return test_cost(_test(request))


@operation(
    name="combat/rush",
    kind=Kind.CHECK,
    covers=("fi.combat.rush",),
    odds=rush_odds,
    cost=rush_cost,
    example={"pool": "IV-2", "card_step": 7, "called_step": 11, "tn": 5,
             "dice": {"values": [3]}},
)  # fmt: skip
def rush(request: RushInput, dice: Dice) -> Rushed:
    """A rush acts on a step called before the card's: the task's pool shifts a row up for
    each step between, then a column left at the top row, never past I-1; an action that
    needs no roll is tested at Standard (5); failing, a trip or hesitation makes it act two
    steps after the card (FI:L175-181). Kayla's Dexterity IV-2 rushing her 7 at step 11
    shifts all the way to I-1 (FI:L177)."""
    check = _test(request)
    tested = test.rule(check, dice)
    assert isinstance(tested, Tested)
    return Rushed(shifts=request.called_step - request.card_step, pool=check.pool,
                  test=tested, acts_at_step=_acts_at(request, tested.success))  # fmt: skip
