"""Pursuit actions (F:L3455-3482): every round each operator spends an action controlling
the vehicle (operate), and may force another vehicle, make a quick turn, reverse, or climb or
dive. Each is a driving roll with the vehicle skill, modified by the speed bid and the
vehicle's ratings (already terrain-adjusted; converted across types by
'pursuit/type-conversion'); the rule's modifiers show as named terms in the roll's chance.

A failed manoeuvre, and a speed bid below the vehicle's Safe rating, each call for one
safety roll (F:L3463, F:L3475; AMB2-46: two when both). A result lists the safety rolls due
and their modifier +(speed bid - Safe); `foresight.pursuit.safety_roll` makes them.
"""

from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Prepared, Resolution, Side, prepare
from service.rules.foresight.travel.driving import (
    ONE_ROLL,
    Bid,
    Rating,
    SafetyRollDue,
    one_roll_cost,
    safety_roll,
    terms,
)
from service.rules.foresight.travel.pursuit import LOST_CONTACT
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["QUICK_TURN", "after_reverse", "force_terms", "vertical_increments"]

#: A range a manoeuvre can be made at: contact is not yet lost.
InContact = Annotated[int, Field(ge=0, le=LOST_CONTACT - 1)]
#: A vehicle's Damage Scale (DS), as the vehicle table gives it.
Ds = Annotated[float, Field(ge=0, le=1000)]
#: After a successful reverse the range grows by 3 each round (F:L3466).
REVERSE_DRIFT = 3

DRIVER = "driver"
TARGET = "target"


class PursuitDriving(Model):
    """What every pursuit action takes: the driving roll and the speed bid."""

    driving: Side = Field(
        description="The driving roll: the vehicle skill as a task (its situational "
        "modifiers in the task), or the QR rolled at the table with every modifier."
    )
    bid: Bid = Field(description="This round's speed bid, an EF modifier at most +2 (F:L3442).")
    safe: Rating | None = Field(
        default=None, description="The vehicle's Safe rating, for the safety roll's modifier."
    )
    options: ResolutionOptions = Field(default=ResolutionOptions())


class PursuitManoeuvre(Model):
    """A pursuit action's roll and the safety rolls it calls for."""

    roll: Resolution | None = Field(description="The driving roll; null when its QR was given.")
    qr: QR
    success: bool
    safety_rolls: list[SafetyRollDue] = Field(description="Each safety roll due (F:L3475).")
    safety_roll_count: int


class PursuitManoeuvreOdds(Model):
    roll: QualityOdds
    success: Exact
    safety_roll_count: list[OutcomeProbability]


def _succeeded(qr: QR) -> bool:
    return qr <= QR.QR4


def _failure_roll(request: PursuitDriving, qr: QR) -> list[SafetyRollDue]:
    failed = safety_roll(DRIVER, "the manoeuvre failed", request.bid, request.safe)
    return [] if _succeeded(qr) else [failed]


def _manoeuvre(rolled: Resolution | None, qr: QR, rolls: list[SafetyRollDue]) -> PursuitManoeuvre:
    return PursuitManoeuvre(
        roll=rolled, qr=qr, success=_succeeded(qr), safety_rolls=rolls, safety_roll_count=len(rolls)
    )


def _odds(prepared: Prepared, count: Callable[[QR], int]) -> PursuitManoeuvreOdds:
    qrs = prepared.distribution()
    return PursuitManoeuvreOdds(
        roll=quality_odds(qrs),
        success=exact(qrs.probability_where(_succeeded)),
        safety_roll_count=outcome_table(qrs.map(count)),
    )


def _failures(qr: QR) -> int:
    return 0 if _succeeded(qr) else 1


# --- operate ----------------------------------------------------------------------------------


class PursuitOperateInput(PursuitDriving):
    acc: Rating = Field(default=0, description="The vehicle's Acceleration rating.")
    safe: Rating = Field(description="The vehicle's Safe rating in the current terrain.")


class Operated(PursuitManoeuvre):
    over_safe_speed: bool = Field(description="The bid is below Safe: one more safety roll.")


def _operate(request: PursuitOperateInput) -> Prepared:
    extra = terms(("speed bid", request.bid), ("Acc", request.acc))
    return prepare(request.driving, request.options, "driving", extra, purpose="operate vehicle")


def _over(request: PursuitOperateInput) -> bool:
    """'Safe rating exceeded the speed modifier' (F:L3475): a bid lower than Safe."""
    return request.bid < request.safe


def _operate_odds(request: PursuitOperateInput) -> PursuitManoeuvreOdds:
    return _odds(_operate(request), lambda qr: _failures(qr) + _over(request))


@operation(
    name="pursuit/operate",
    kind=Kind.CHECK,
    covers=("foresight.pursuit.operate",),
    odds=_operate_odds,
    cost=one_roll_cost,
    rolled=ONE_ROLL,
    example={
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": -1,
        "acc": 1,
        "safe": 0,
        "dice": {"values": [41]},
    },
)
def operate(request: PursuitOperateInput, dice: Dice) -> Operated:
    """Operate a vehicle safely: each round the operator spends an action and makes a
    driving roll at the speed bid with the vehicle's Acceleration rating applying; a failure
    calls for a safety roll, and a speed over the Safe rating (a bid below Safe) for another,
    two in all when both (F:L3456, F:L3463, F:L3475; AMB2-46)."""
    rolled = _operate(request).roll(dice)
    rolls = _failure_roll(request, rolled.qr)
    if _over(request):
        rolls.append(safety_roll(DRIVER, "speed bid below Safe", request.bid, request.safe))
    found = _manoeuvre(rolled.resolution, rolled.qr, rolls)
    return Operated(**dict(found), over_safe_speed=_over(request))


# --- force ------------------------------------------------------------------------------------


class ForcingVehicle(Model):
    size: Rating = Field(description="The vehicle's Size rating.")
    ds: Ds = Field(description="The vehicle's Damage Scale.")
    acc: Rating = Field(default=0, description="The vehicle's Acceleration rating.")


class ForcedVehicle(ForcingVehicle):
    bid: Bid | None = Field(default=None, description="Its bid, for its safety roll's modifier.")
    safe: Rating | None = Field(default=None, description="Its Safe, for the same.")


class PursuitForceInput(PursuitDriving):
    vehicle: ForcingVehicle = Field(description="The forcing vehicle.")
    target: ForcedVehicle
    range: int = Field(default=0, ge=0, le=LOST_CONTACT, description="Must be 0 (F:L3464).")


class PursuitForce(PursuitManoeuvre):
    safety_roll_by: str = Field(description="'target' if the force succeeded, else 'driver'.")


def force_terms(request: PursuitForceInput) -> list[tuple[str, int]]:
    """The final bid + (Size + DS/2 + Acc) of the forcing vehicle - (Size + DS/2 + Acc) of
    the target (F:L3464). The DS halves are netted exactly before rounding half up, so two
    vehicles of equal DS cancel. The text gives one modifier, a sum minus a sum, and rounds
    nothing in between; fractions are rounded 'unless otherwise stated' where a whole number
    is needed (F:L264, F:L270), which here is the modifier, as the catalogue's single
    expression for #89 has it. Rounding each DS/2 first would differ only when one DS is odd
    and the other even (DS 2 against DS 1: +1 netted, 0 rounded apart)."""
    own, target = request.vehicle, request.target
    half = (Fraction(str(own.ds)) - Fraction(str(target.ds))) / 2
    return [
        ("speed bid", request.bid),
        ("Size", own.size),
        ("Acc", own.acc),
        ("target Size", -target.size),
        ("target Acc", -target.acc),
        ("DS/2 - target DS/2", round_half_up(half)),
    ]


def _force(request: PursuitForceInput) -> Prepared:
    if request.range != 0:
        raise InputError(("range",), "the target of a force must be at range 0 (F:L3464)")
    extra = terms(*force_terms(request))
    return prepare(request.driving, request.options, "driving", extra, purpose="force")


class PursuitForceOdds(PursuitManoeuvreOdds):
    safety_roll_by: list[OutcomeProbability]


def _force_odds(request: PursuitForceInput) -> PursuitForceOdds:
    prepared = _force(request)
    found = _odds(prepared, lambda qr: 1)
    who = prepared.distribution().map(lambda qr: TARGET if _succeeded(qr) else DRIVER)
    return PursuitForceOdds(**dict(found), safety_roll_by=outcome_table(who, [TARGET, DRIVER]))


@operation(
    name="pursuit/force",
    kind=Kind.CHECK,
    covers=("foresight.pursuit.force",),
    odds=_force_odds,
    cost=one_roll_cost,
    rolled=ONE_ROLL,
    example={
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": 0,
        "safe": 0,
        "vehicle": {"size": 3, "ds": 3, "acc": 1},
        "target": {"size": 2, "ds": 2, "acc": 2, "bid": 0, "safe": 1},
        "dice": {"values": [52]},
    },
)
def force(request: PursuitForceInput, dice: Dice) -> PursuitForce:
    """Force another vehicle to slow down or crash by colliding or threatening to: the
    target must be at range 0; the driving roll is modified by the final bid, plus the
    vehicle's Size, DS/2 and Acc, minus the target's Size, DS/2 and Acc. Success: the target's
    driver makes a safety roll; failure: the forcing driver does (F:L3464)."""
    rolled = _force(request).roll(dice)
    if _succeeded(rolled.qr):
        target = request.target
        bid = target.bid if target.bid is not None else 0
        safe = None if target.bid is None else target.safe
        rolls = [safety_roll(TARGET, "forced by this vehicle", bid, safe)]
    else:
        rolls = _failure_roll(request, rolled.qr)
    found = _manoeuvre(rolled.resolution, rolled.qr, rolls)
    return PursuitForce(**dict(found), safety_roll_by=rolls[0].by)


# --- quick turn -------------------------------------------------------------------------------


class QuickTurnEffect(StrEnum):
    WRONG_WAY = "wrong_way"
    MAY_NEED_QUICK_TURN = "may_need_quick_turn"
    SEARCH_OR_LOSE_CONTACT = "search_or_lose_contact"
    FAILED = "failed"


class QuickTurnRow(Model):
    low: int
    high: int
    effect: QuickTurnEffect
    text: str


QUICK_TURN = table(__name__, "pursuit-quick-turn", QuickTurnRow)


class PursuitQuickTurnInput(PursuitDriving):
    man: Rating = Field(default=0, description="The vehicle's Maneuver rating.")
    range: InContact = Field(description="The range the turn is made at.")


class PursuitQuickTurn(PursuitManoeuvre):
    effect: QuickTurnEffect
    description: str
    search_to_beat: QR | None = Field(
        description="At range 4+: the pursuers' Search roll is compared with this QR, or they "
        "lose visual contact (F:L3465)."
    )


def _quick_turn(request: PursuitQuickTurnInput) -> Prepared:
    extra = terms(("speed bid", request.bid), ("Man", request.man))
    return prepare(request.driving, request.options, "driving", extra, purpose="quick turn")


def _turn_row(at: int) -> QuickTurnRow:
    return next(row for row in QUICK_TURN if row.low <= at <= row.high)


def _effect(qr: QR, at: int) -> QuickTurnEffect:
    return _turn_row(at).effect if _succeeded(qr) else QuickTurnEffect.FAILED


class PursuitQuickTurnOdds(PursuitManoeuvreOdds):
    effect: list[OutcomeProbability]


def _quick_turn_odds(request: PursuitQuickTurnInput) -> PursuitQuickTurnOdds:
    prepared = _quick_turn(request)
    found = _odds(prepared, _failures)
    effects = prepared.distribution().map(lambda qr: _effect(qr, request.range).value)
    return PursuitQuickTurnOdds(**dict(found), effect=outcome_table(effects))


@operation(
    name="pursuit/quick-turn",
    kind=Kind.CHECK,
    covers=("foresight.pursuit.quick_turn",),
    odds=_quick_turn_odds,
    cost=one_roll_cost,
    rolled=ONE_ROLL,
    example={
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": 0,
        "man": 1,
        "range": 4,
        "dice": {"values": [17]},
    },
)
def quick_turn(request: PursuitQuickTurnInput, dice: Dice) -> PursuitQuickTurn:
    """A sudden change of direction to gain distance or lose the pursuers, usually by the
    fleeing party: a driving roll at the speed bid and the Maneuver rating. At range 0-1 the
    pursuers head the wrong way unless they quick-turn too (or reverse next turn); at 2-3
    they may need a quick turn next turn or take a shorter path; at 4+ they may need a
    Search roll, compared with the turn's QR, or lose visual contact (F:L3465). A failure
    calls for a safety roll (F:L3475)."""
    rolled = _quick_turn(request).roll(dice)
    effect = _effect(rolled.qr, request.range)
    found = _manoeuvre(rolled.resolution, rolled.qr, _failure_roll(request, rolled.qr))
    text = (
        "The quick turn failed."
        if effect is QuickTurnEffect.FAILED
        else _turn_row(request.range).text
    )
    search = effect is QuickTurnEffect.SEARCH_OR_LOSE_CONTACT
    return PursuitQuickTurn(
        **dict(found), effect=effect, description=text, search_to_beat=rolled.qr if search else None
    )


# --- reverse ----------------------------------------------------------------------------------


class PursuitReverseInput(PursuitDriving):
    acc: Rating = Field(default=0, description="The vehicle's Acceleration rating.")
    man: Rating = Field(default=0, description="The vehicle's Maneuver rating.")
    range: InContact = Field(description="The range before the reverse.")


class PursuitReverse(PursuitManoeuvre):
    new_range: int
    drift_per_round: int = Field(
        description="After a success the range grows by 3 each round until the pursuers make "
        "one reverse or two quick turns (F:L3466); 0 after a failure."
    )


def after_reverse(qr: QR, start: int) -> int:
    """Success: range 0 at once (then +3 a round); failure: range 1 if it was higher, 0 if
    it was 1 (F:L3466, F:L3469)."""
    if _succeeded(qr):
        return 0
    return 1 if start > 1 else 0


def _reverse(request: PursuitReverseInput) -> Prepared:
    extra = terms(("speed bid", request.bid), ("Acc", request.acc), ("Man", request.man))
    return prepare(request.driving, request.options, "driving", extra, purpose="reverse")


class PursuitReverseOdds(PursuitManoeuvreOdds):
    new_range: list[OutcomeProbability]


def _reverse_odds(request: PursuitReverseInput) -> PursuitReverseOdds:
    prepared = _reverse(request)
    found = _odds(prepared, _failures)
    ranges = prepared.distribution().map(lambda qr: after_reverse(qr, request.range))
    return PursuitReverseOdds(**dict(found), new_range=outcome_table(ranges))


@operation(
    name="pursuit/reverse",
    kind=Kind.CHECK,
    covers=("foresight.pursuit.reverse",),
    odds=_reverse_odds,
    cost=one_roll_cost,
    rolled=ONE_ROLL,
    example={
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": 0,
        "acc": 1,
        "man": 1,
        "range": 3,
        "dice": {"values": [44]},
    },
)
def reverse(request: PursuitReverseInput, dice: Dice) -> PursuitReverse:
    """Reverse direction losing the least ground, usually by the fleeing party: a driving
    roll at the speed bid and the vehicle's Acceleration + Maneuver. Success: the range
    becomes 0, then grows by 3 a round until the pursuers make one reverse or two quick
    turns. Failure: a safety roll, and the range drops to 1 if it was higher, 0 if it was 1
    (F:L3466-3469)."""
    rolled = _reverse(request).roll(dice)
    found = _manoeuvre(rolled.resolution, rolled.qr, _failure_roll(request, rolled.qr))
    drift = REVERSE_DRIFT if found.success else 0
    return PursuitReverse(
        **dict(found), new_range=after_reverse(rolled.qr, request.range), drift_per_round=drift
    )


# --- climb / dive -----------------------------------------------------------------------------


class ClimbDiveDirection(StrEnum):
    CLIMB = "climb"
    DIVE = "dive"


class PursuitClimbDiveInput(PursuitDriving):
    direction: ClimbDiveDirection
    acc: Rating = Field(default=0, description="The vehicle's Acceleration rating.")
    man: Rating = Field(default=0, description="The vehicle's Maneuver rating.")
    has_ceiling: bool = Field(
        default=True, description="Only a vehicle with a Ceiling rating may climb or dive."
    )


class PursuitClimbDive(PursuitManoeuvre):
    horizontal_increments: int = Field(
        description="Horizontal range increments this vehicle gains (+1, a dive) or loses (-1, "
        "a climb) after a success; 0 after a failure (F:L3471)."
    )
    vertical_increments: int = Field(
        description="Vertical separation gained or lost in the direction taken: 2 on QR1-QR2, "
        "1 on QR3-QR4, 0 on a failure (F:L3471); tracked apart from the horizontal range."
    )


def vertical_increments(qr: QR) -> int:
    if qr <= QR.QR2:
        return 2
    return 1 if qr <= QR.QR4 else 0


def _climb_dive(request: PursuitClimbDiveInput) -> Prepared:
    if not request.has_ceiling:
        raise InputError(
            ("has_ceiling",), "only a vehicle with a Ceiling rating may climb or dive (F:L3471)"
        )
    extra = terms(("speed bid", request.bid), ("Acc", request.acc), ("Man", request.man))
    return prepare(
        request.driving, request.options, "driving", extra, purpose=request.direction.value
    )


class PursuitClimbDiveOdds(PursuitManoeuvreOdds):
    vertical_increments: list[OutcomeProbability]


def _climb_dive_odds(request: PursuitClimbDiveInput) -> PursuitClimbDiveOdds:
    prepared = _climb_dive(request)
    found = _odds(prepared, _failures)
    vertical = prepared.distribution().map(vertical_increments)
    return PursuitClimbDiveOdds(**dict(found), vertical_increments=outcome_table(vertical))


@operation(
    name="pursuit/climb-dive",
    kind=Kind.CHECK,
    covers=("foresight.pursuit.climb_dive",),
    odds=_climb_dive_odds,
    cost=one_roll_cost,
    rolled=ONE_ROLL,
    example={
        "driving": {"task": {"score": 12, "bef": 4}},
        "bid": 0,
        "direction": "dive",
        "acc": 1,
        "man": 2,
        "dice": {"values": [9]},
    },
)
def climb_dive(request: PursuitClimbDiveInput, dice: Dice) -> PursuitClimbDive:
    """Gain distance or advantage by a sudden change of altitude (or depth), only for a
    vehicle with a Ceiling rating and when circumstances permit: a driving roll at the
    vehicle's Acceleration + Maneuver and the speed bid. A climb loses one horizontal range
    increment, a dive gains one; a success moves the vertical separation by 1 (QR3-QR4) or 2
    (QR1-QR2) increments; a failure calls for a safety roll (F:L3471)."""
    rolled = _climb_dive(request).roll(dice)
    found = _manoeuvre(rolled.resolution, rolled.qr, _failure_roll(request, rolled.qr))
    sign = 1 if request.direction is ClimbDiveDirection.DIVE else -1
    return PursuitClimbDive(
        **dict(found),
        horizontal_increments=sign if found.success else 0,
        vertical_increments=vertical_increments(rolled.qr),
    )
