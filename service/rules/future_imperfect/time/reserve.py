"""Waiting (FI:L203-217): a called card may go face down in reserve, one at a time unless an
extended action or one of speed over 2 is prepared (A-37), and played at any time, even
early the next round. It is flushed when another action card resolves, a step 0 is drawn,
a psychological contest forces a discard, or an aiming hero does anything else or loses a
psychological contest (FI:L337); an aim keeps it (FI:L329). To interrupt another's action
with it, win an opposed Reflex contest; the black joker interrupts without one (FI:L231)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    DEPTH,
    Checked,
    CheckInput,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.rolls import OPPOSED, Side, initiator_en
from service.rules.future_imperfect.time.cards import (
    BLACK_JOKER,
    ActionCard,
    Impulse,
    card,
    distinct,
    special,
)
from service.rules.future_imperfect.time.options import InterruptTie, TimeOptions
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["interrupt", "reserve"]


class ReserveEvent(StrEnum):
    RESERVE = "reserve"
    PLAY = "play"
    AIM = "aim"
    FORGO_DRAW = "forgo_draw"
    RESOLVE_OTHER_CARD = "resolve_other_card"
    DRAW_STEP_0 = "draw_step_0"
    PSYCH_DISCARD = "psych_discard"
    AIMING_OTHER_ACTION = "aiming_other_action"
    AIMING_PSYCH_DEFEAT = "aiming_psych_defeat"


#: What flushes a reserve, and where the chapter says so.
FLUSHES = {
    ReserveEvent.RESOLVE_OTHER_CARD: "another action card resolved (FI:L213)",
    ReserveEvent.DRAW_STEP_0: "a step 0 drawn (FI:L213, FI:L233)",
    ReserveEvent.PSYCH_DISCARD: "a psychological contest forced a discard (FI:L213, FI:L654)",
    ReserveEvent.AIMING_OTHER_ACTION: "another action attempted while aiming (FI:L337)",
    ReserveEvent.AIMING_PSYCH_DEFEAT: "a psychological contest lost while aiming (FI:L337)",
}


class ReserveInput(Model):
    reserve: Annotated[tuple[Impulse, ...], Field(max_length=20)] = Field(
        default=(), description="The cards held in reserve."
    )
    event: ReserveEvent
    card: Impulse | None = Field(default=None, description="The card reserved or played.")
    preparing_speed: Annotated[int, Field(ge=1, le=20)] = Field(
        default=1, description="The speed of an action being prepared (1: none)."
    )
    extended: bool = Field(default=False, description="An extended action is being prepared.")
    options: TimeOptions = Field(default=TimeOptions())


class Reserved(Model):
    reserve: list[ActionCard]
    flushed: list[ActionCard]
    acts: bool = Field(description="The hero acts now with the card played.")
    only_action: bool = Field(description="Forgoing the draw: the reserve is the round's only "
                                          "action (FI:L215).")  # fmt: skip
    why: str


def _reserving(request: ReserveInput, held: list[ActionCard]) -> ActionCard:
    if request.card is None:
        raise InputError(("card",), "name the card to reserve")
    found = card(request.card)
    if special(found):
        raise InputError(("card",), "special cards can never be reserved (FI:L231)")
    if found in held:
        raise InputError(("card",), "that card is already in reserve")
    several = request.extended or request.preparing_speed >= request.options.multi_reserve_min_speed
    if held and not several:
        message = ("only one card may be reserved, unless preparing an extended action or "
                   "one of speed over 2 (FI:L207, A-37)")  # fmt: skip
        raise InputError(("card",), message)
    return found


def _played(request: ReserveInput, held: list[ActionCard]) -> ActionCard:
    if request.card is None:
        if len(held) == 1:
            return held[0]
        raise InputError(("card",), "name the reserve card played")
    found = card(request.card)
    if found not in held:
        raise InputError(("card",), "that card is not in reserve")
    return found


@operation(
    name="combat/reserve",
    kind=Kind.CALCULATION,
    covers=("fi.combat.reserve",),
    example={"reserve": [], "event": "reserve", "card": 37},
)
def reserve(request: ReserveInput) -> Reserved:
    """When a card would be played, the hero may put it face down instead: one card only,
    unless preparing an extended action or a complex one of speed over 2; played at any time,
    even earlier than normal next round, revealed, acted on and discarded; held over rounds,
    forgoing the draw if he likes, and then it is his only action. Flushed when he resolves
    another card, draws a step 0, or a psychological contest forces a discard (FI:L205-217);
    while aiming, when he does anything else or loses a psychological contest (FI:L337). An
    aim keeps it (FI:L329)."""
    distinct(request.reserve, ("reserve",))
    held = [card(i) for i in request.reserve]
    for index, found in enumerate(held):
        if special(found):
            raise InputError(("reserve", index), "special cards can never be reserved (FI:L231)")
    event = request.event
    if event is ReserveEvent.RESERVE:
        return Reserved(reserve=[*held, _reserving(request, held)], flushed=[], acts=False,
                        only_action=False, why="reserved face down (FI:L207)")  # fmt: skip
    if event is ReserveEvent.PLAY:
        played = _played(request, held)
        why = "revealed, acted on, discarded (FI:L209)"
        return Reserved(reserve=[c for c in held if c != played], flushed=[], acts=True,
                        only_action=False, why=why)  # fmt: skip
    if event in FLUSHES:
        return Reserved(reserve=[], flushed=held, acts=False, only_action=False,
                        why=FLUSHES[event])  # fmt: skip
    if event is ReserveEvent.FORGO_DRAW and not held:
        raise InputError(("event",), "only a hero holding a reserve card may forgo the draw")
    why = ("held over, no cards drawn (FI:L215)" if event is ReserveEvent.FORGO_DRAW
           else "an aim keeps the reserve (FI:L329)")  # fmt: skip
    return Reserved(reserve=held, flushed=[], acts=False,
                    only_action=event is ReserveEvent.FORGO_DRAW, why=why)  # fmt: skip


class InterruptInput(Model):
    interrupter: Side = Field(description="The reserve card's holder: his Reflex.")
    actor: Side = Field(description="The character whose action is interrupted: his Reflex.")
    card: Impulse | None = Field(
        default=None, description="The interrupter's card: the step 14 needs no contest."
    )
    options: TimeOptions = Field(default=TimeOptions())


class Interrupted(Model):
    contest: bool = Field(description="An opposed Reflex contest was rolled.")
    interrupter: Checked | None
    actor: Checked | None
    first: str = Field(description="Whose action resolves first: interrupter or original.")


def _joker(request: InterruptInput) -> bool:
    return request.card is not None and card(request.card).step == BLACK_JOKER


def _side(side: Side, options: TimeOptions) -> CheckInput:
    return CheckInput(pool=side.pool, tn=0, modifiers=side.modifiers,
                      wound_penalty=side.wound_penalty, options=options)  # fmt: skip


def first(interrupter: int | None, actor: int, options: TimeOptions) -> str:
    """The interrupter's result against the actor's: the higher resolves first; the
    interrupter's critical failure loses; a tie as A-39 says."""
    if interrupter is None or interrupter < actor:
        return "original"
    if interrupter > actor:
        return "interrupter"
    return "interrupter" if options.interrupt_tie is InterruptTie.INTERRUPTER else "original"


class InterruptOdds(Model):
    first: list[OutcomeProbability]
    interrupter_first: Exact
    truncation: Truncation | None


def interrupt_odds(request: InterruptInput) -> InterruptOdds:
    """Who resolves first, exactly, over both Reflex results (catalogue T22)."""
    options = request.options
    if _joker(request):
        found = Distribution({"interrupter": 1})
    else:
        mine, theirs = (results(_side(s, options)) for s in (request.interrupter, request.actor))
        found = mine.then(lambda a: theirs.map(lambda b: first(initiator_en(a), b[1], options)))
    return InterruptOdds(first=outcome_table(found, ["interrupter", "original"]),
                         interrupter_first=exact(found.probability("interrupter")),
                         truncation=truncation(found, DEPTH))  # fmt: skip


def interrupt_cost(request: InterruptInput) -> Estimate:
    """Both sides' results and every pair of them (`core/opposed`)."""
    return OPPOSED


@operation(
    name="combat/reserve/interrupt",
    kind=Kind.CHECK,
    covers=("fi.combat.reserve.interrupt",),
    odds=interrupt_odds,
    cost=interrupt_cost,
    example={"interrupter": {"pool": "III-2"}, "actor": {"pool": "IV-1"},
             "dice": {"values": [4, 2, 1]}},
)  # fmt: skip
def interrupt(request: InterruptInput, dice: Dice) -> Interrupted:
    """To interrupt someone's action with a reserve card, beat him in an opposed Reflex
    contest: the winner resolves his action first; reserve cards are no guarantee
    (FI:L211). The step 14 goes at any time without the contest (FI:L231). Harry's III-2
    Reflex scores 4 to the bug's 1 (FI:L347)."""
    if _joker(request):
        return Interrupted(contest=False, interrupter=None, actor=None, first="interrupter")
    options = request.options
    mine = roll_check(_side(request.interrupter, options), dice)
    theirs = roll_check(_side(request.actor, options), dice)
    found = first(None if mine.critical_failure else mine.en, theirs.en, options)
    return Interrupted(contest=True, interrupter=mine, actor=theirs, first=found)
