"""Waiting (F:L2970-2994, F:L3008): a character who waits reacts to what happens in their focus,
before the action of a character they focus on if their initiative is better, otherwise after.

A waiting character focuses on a target or an area and acts 'immediately after the event',
unless the event is an action of a character they are focused on: then they may pre-empt it,
with their first action only, 'if their initiative QR is better' (F:L2980) - strictly: the
sniper whose QR3 equals the gunman's cannot pre-empt him, 'although his Initiative score is'
better (F:L3314). A waiter without that focus reacts after an event they notice (which may
take a perception roll, F:L3092). The initiative QR of the previous round holds until the
waiter's next turn (F:L2976), so the caller gives the QR that holds; a frozen (QR10)
character does nothing (F:L2962). The first reaction in a round lets the waiter roll for bonus
actions, once a round and not after a failed initiative (F:L3006-3008, F:L2962).
"""

from enum import StrEnum

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.resolution.odds import QualityOdds, contest_cost, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Resolution,
    Side,
    roll,
    side_distribution,
    side_setup,
)
from service.rules.model import Model
from service.rules.registry import Kind, Reading, operation

__all__ = [
    "InitiativeComparison",
    "WaitingFocus",
    "WaitingInput",
    "WaitingReaction",
    "WaitingResult",
    "preempt",
]


class WaitingFocus(StrEnum):
    ACTOR = "actor"
    AREA = "area"
    NOTICED = "noticed"


class InitiativeComparison(StrEnum):
    WAITER_BETTER = "waiter_better"
    TIE = "tie"
    ACTOR_BETTER = "actor_better"


class WaitingReaction(StrEnum):
    PRE_EMPT = "pre_empt"
    AFTER = "after"
    NONE = "none"


class WaitingInput(Model):
    waiter: Side = Field(
        description="The waiting character's initiative: the Initiative task to roll, or the "
        "QR that holds (this round's, or the last round's until their next turn, F:L2976)."
    )
    actor: Side = Field(description="The initiative of the character whose action is the event.")
    focus: WaitingFocus = Field(
        default=WaitingFocus.ACTOR,
        description="'actor': the waiter is focused on the one acting (pre-empting is "
        "possible); 'area': the event is in the area the waiter watches; 'noticed': outside "
        "the focus, noticed all the same (perhaps by a PC roll, F:L3092).",
    )
    bonus_rolled_this_round: bool = Field(
        default=False,
        description="The waiter has already rolled for bonus actions this round (F:L3006).",
    )
    options: ResolutionOptions = Field(default=ResolutionOptions())


class WaitingResult(Model):
    waiter: Resolution | None = Field(description="The waiter's roll; null when its QR was given.")
    actor: Resolution | None
    waiter_qr: QR
    actor_qr: QR
    comparison: InitiativeComparison = Field(
        description="Whose initiative QR is better, numerically."
    )
    may_preempt: bool = Field(
        description="Strictly better QR and focused on the actor: the waiter may act first, "
        "with the first action only (F:L2980)."
    )
    reaction: WaitingReaction = Field(
        description="'pre_empt': before the action (if the waiter chooses); 'after': straight "
        "after it (F:L3008); 'none': frozen (QR10) and unable to react (F:L2962)."
    )
    may_roll_bonus: bool = Field(
        description="The first reaction of the round lets the waiter roll for bonus actions, "
        "unless the initiative failed (F:L3008, F:L2962)."
    )


def compare(waiter: QR, actor: QR) -> InitiativeComparison:
    if waiter < actor:
        return InitiativeComparison.WAITER_BETTER
    return InitiativeComparison.TIE if waiter == actor else InitiativeComparison.ACTOR_BETTER


def reaction(waiter: QR, actor: QR, focus: WaitingFocus) -> WaitingReaction:
    if waiter is QR.QR10:
        return WaitingReaction.NONE
    if focus is WaitingFocus.ACTOR and waiter < actor:
        return WaitingReaction.PRE_EMPT
    return WaitingReaction.AFTER


class WaitingOdds(Model):
    waiter: QualityOdds
    actor: QualityOdds
    comparison: list[OutcomeProbability] = Field(
        description="P(waiter strictly better), P(tie), P(actor better): catalogue Q17."
    )
    may_preempt: Exact
    reaction: list[OutcomeProbability]


def waiting_odds(request: WaitingInput) -> WaitingOdds:
    options = request.options
    waiter = side_distribution(request.waiter, side_setup(request.waiter, options, "waiter"))
    actor = side_distribution(request.actor, side_setup(request.actor, options, "actor"))
    pairs: Distribution[tuple[QR, QR]] = waiter.then(lambda w: actor.map(lambda a: (w, a)))
    reacted = pairs.map(lambda p: reaction(p[0], p[1], request.focus))
    return WaitingOdds(
        waiter=quality_odds(waiter),
        actor=quality_odds(actor),
        comparison=outcome_table(
            pairs.map(lambda p: compare(*p).value), [c.value for c in InitiativeComparison]
        ),
        may_preempt=exact(reacted.probability(WaitingReaction.PRE_EMPT)),
        reaction=outcome_table(reacted.map(lambda r: r.value), [r.value for r in WaitingReaction]),
    )


def _rolled(side: Side, options: ResolutionOptions, loc: str, dice: Dice) -> Resolution | None:
    task = side_setup(side, options, loc)
    return None if task is None else roll(task, dice, f"D100 ({loc}'s Initiative)")


def _qr(side: Side, rolled: Resolution | None) -> QR:
    if rolled is not None:
        return rolled.qr
    assert side.qr is not None
    return side.qr


@operation(
    name="waiting/preempt",
    kind=Kind.CHECK,
    covers=("foresight.waiting.preempt",),
    odds=waiting_odds,
    cost=contest_cost,
    example={
        "waiter": {"task": {"score": 14, "bef": 5}},
        "actor": {"task": {"score": 11, "bef": 5}},
        "focus": "actor",
        "dice": {"values": [6, 40]},
    },
    rolled={
        "/waiter/qr": Reading(read=lambda result: result.waiter_qr.name, best_first=True),
        "/actor/qr": Reading(read=lambda result: result.actor_qr.name, best_first=True),
    },
)
def preempt(request: WaitingInput, dice: Dice) -> WaitingResult:
    """A waiting character reacts to an event: if it is the action of the character they
    focus on and their initiative QR is strictly better, they may pre-empt it with their
    first action (F:L2980, F:L3008); otherwise they act straight after it. Equal QRs never
    pre-empt, whatever the scores: the sniper's QR3 against the gunman's QR3 lets the gunman
    fire first (F:L3314). The first reaction of a round allows a bonus-action roll (F:L3008)."""
    waiter = _rolled(request.waiter, request.options, "waiter", dice)
    actor = _rolled(request.actor, request.options, "actor", dice)
    waiter_qr, actor_qr = _qr(request.waiter, waiter), _qr(request.actor, actor)
    reacts = reaction(waiter_qr, actor_qr, request.focus)
    return WaitingResult(
        waiter=waiter,
        actor=actor,
        waiter_qr=waiter_qr,
        actor_qr=actor_qr,
        comparison=compare(waiter_qr, actor_qr),
        may_preempt=reacts is WaitingReaction.PRE_EMPT,
        reaction=reacts,
        may_roll_bonus=(
            reacts is not WaitingReaction.NONE
            and waiter_qr <= QR.QR4
            and not request.bonus_rolled_this_round
        ),
    )
