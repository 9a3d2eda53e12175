"""After a pin (catalogue part 2, 2.7 #60, #61; F:L3213, F:L3221-3229): the strength contest
each later turn that holds, tightens or breaks the pin, and the fall to the ground that a pin
tends to bring. Every roll is an attribute roll (ST or AG), set up with the attribute BEF
(AMB-01) unless its task gives one, or a QR rolled at the table."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import OutcomeProbability, outcome_table
from service.rules.foresight.combat.grappling.sides import (
    PAIR_STATES,
    SIDE_STATES,
    succeeded,
    term,
)
from service.rules.foresight.combat.options import DifferenceOptions, qr_difference
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Prepared, Resolution, Side, prepare
from service.rules.model import Model, option
from service.rules.registry import Kind, Reading, operation

__all__ = ["pin_contest", "pin_fall"]

CAPTURE = 2  # Maintaining or overcoming a pin with the Capture field (F:L3223).


def _contest_cost(request: object) -> Estimate:
    """Two attribute rolls, each 100 faces and a table of QRs, then each pair of their QRs:
    2 x 200 + 400 states, whatever the request."""
    return Estimate(2 * SIDE_STATES + PAIR_STATES, ())


# Pin contest (#60)


class PinOutcome(StrEnum):
    RESTRAINED = "restrained"
    IMMOBILISED = "immobilised"
    TIE = "tie"
    LIMB_AT_MINUS_4 = "limb_at_minus_4"
    BROKEN = "broken"


#: Best for the pinner first.
PIN_OUTCOMES = list(PinOutcome)

EFFECTS = {
    PinOutcome.RESTRAINED: "the pinned character is restrained for this turn",
    PinOutcome.IMMOBILISED: "the pinned limb is immobilised",
    PinOutcome.TIE: "the pinned character may fire a gun in a random direction (GM)",
    PinOutcome.LIMB_AT_MINUS_4: "the pinned character may act with the pinned limb at -4",
    PinOutcome.BROKEN: "the pin is broken",
}


class PinContestOptions(ResolutionOptions, DifferenceOptions):
    """How the ST rolls are set up and how their QR difference is counted (AMB2-19)."""


class PinContestInput(Model):
    """One later turn of a pin: both ST rolls, and the pins the pinner holds."""

    pinner: Side = Field(description="The pinner's ST roll: a task (attribute BEF) or a QR.")
    pinned: Side = Field(description="The pinned character's ST roll.")
    pinner_capture_field: bool = Field(default=False, description="+2 maintaining (F:L3223).")
    pinned_capture_field: bool = Field(default=False, description="+2 overcoming (F:L3223).")
    pins: Annotated[int, Field(ge=1, le=4)] = Field(
        default=1, description="Limbs (or the legs, or the neck) this pinner holds pinned."
    )
    maintain_actions: Annotated[int, Field(ge=0, le=4)] = Field(
        default=1, description="Maintain Pin actions the pinner spends this turn (F:L3225)."
    )
    restrained_turns: Annotated[int, Field(ge=0, le=1000)] = Field(
        default=0, description="Turns the pinned character has been restrained before this one."
    )
    options: PinContestOptions = Field(default=PinContestOptions())


class PinContest(Model):
    maintained: bool = Field(
        description="A Maintain Pin action for every pin: if not, all of them break (F:L3227)."
    )
    pinner: Resolution | None = Field(description="The pinner's ST roll; null when not rolled.")
    pinned: Resolution | None
    pinner_qr: QR | None
    pinned_qr: QR | None
    advantage: int = Field(description="The pinned's QR advantage: negative, the pinner's.")
    outcome: PinOutcome
    effect: str
    handcuffs: bool = Field(description="Restrained two turns or more: restraints (F:L3229).")


class PinContestOdds(Model):
    pinner: QualityOdds | None
    pinned: QualityOdds | None
    outcome: list[OutcomeProbability] = Field(description="Best for the pinner first.")


def pin_outcome(advantage: int) -> PinOutcome:
    """The pinned character's QR advantage read as F:L3221 has it."""
    if advantage >= 2:
        return PinOutcome.BROKEN
    if advantage == 1:
        return PinOutcome.LIMB_AT_MINUS_4
    if advantage == 0:
        return PinOutcome.TIE
    return PinOutcome.IMMOBILISED if advantage == -1 else PinOutcome.RESTRAINED


def _contest_sides(request: PinContestInput) -> tuple[Prepared, Prepared]:
    options = request.options
    keeps = term("Unarmed Combat Capture field", CAPTURE, request.pinner_capture_field)
    breaks = term("Unarmed Combat Capture field", CAPTURE, request.pinned_capture_field)
    return (prepare(request.pinner, options, "pinner", keeps, attribute=True),
            prepare(request.pinned, options, "pinned", breaks, attribute=True))  # fmt: skip


def _maintained(request: PinContestInput) -> bool:
    return request.maintain_actions >= request.pins


def pin_contest_odds(request: PinContestInput) -> PinContestOdds:
    pinner, pinned = _contest_sides(request)
    if not _maintained(request):
        return PinContestOdds(pinner=None, pinned=None, outcome=[
            OutcomeProbability(outcome=PinOutcome.BROKEN.value, exact="1", float=1.0)])  # fmt: skip
    mode = request.options.qr_difference_mode
    held, freed = pinner.distribution(), pinned.distribution()
    outcomes = held.then(lambda a: freed.map(lambda b: pin_outcome(qr_difference(b, a, mode))))
    return PinContestOdds(pinner=quality_odds(held), pinned=quality_odds(freed),
                          outcome=outcome_table(outcomes, PIN_OUTCOMES))  # fmt: skip


@operation(
    name="melee/pin-contest",
    kind=Kind.CHECK,
    covers=("foresight.melee.pin_contest",),
    odds=pin_contest_odds,
    cost=_contest_cost,
    rolled={"/outcome": Reading(read=lambda r: r.outcome.value)},
    example={
        "pinner": {"task": {"score": 12}},
        "pinned": {"task": {"score": 10}},
        "pinner_capture_field": True,
        "dice": {"seed": 7},
    },
)
def pin_contest(request: PinContestInput, dice: Dice) -> PinContest:
    """Each turn after a pin, pinner and pinned roll ST (+2 with the Capture field to
    maintain or overcome, F:L3223) and compare: a tie lets the pinned fire a gun in a random
    direction; the pinned one better may act with the limb at -4, two or more breaks the pin;
    the pinner one better immobilises the limb, two or more restrains the pinned for the turn
    (F:L3221). The advantage is counted numerically by default (AMB2-19). Maintaining a pin
    is an action, one per pin: holding arms and legs takes three, so a bonus Maintain Pin
    action; pins left unmaintained all break, unrolled (F:L3225-3227). Restrained two turns
    or more, the pinned can be handcuffed (F:L3229)."""
    if not _maintained(request):
        _contest_sides(request)  # A bad task is still a bad request.
        return PinContest(maintained=False, pinner=None, pinned=None, pinner_qr=None,
                          pinned_qr=None, advantage=0, outcome=PinOutcome.BROKEN,
                          effect="not every pin was maintained: all of them break (F:L3227)",
                          handcuffs=False)  # fmt: skip
    pinner, pinned = _contest_sides(request)
    held, freed = pinner.roll(dice), pinned.roll(dice)
    advantage = qr_difference(freed.qr, held.qr, request.options.qr_difference_mode)
    outcome = pin_outcome(advantage)
    restrained = outcome is PinOutcome.RESTRAINED
    return PinContest(
        maintained=True, pinner=held.resolution, pinned=freed.resolution,
        pinner_qr=held.qr, pinned_qr=freed.qr, advantage=advantage, outcome=outcome,
        effect=EFFECTS[outcome], handcuffs=restrained and request.restrained_turns >= 1,
    )  # fmt: skip


# Pin fall (#61)


class FallWish(StrEnum):
    BOTH_STAND = "both_stand"
    PINNER_STANDS = "pinner_stands"
    PINNED_STANDS = "pinned_stands"
    BOTH_PRONE = "both_prone"


class PinFallOutcome(StrEnum):
    BOTH_STANDING = "both_standing"
    PINNER_PRONE = "pinner_prone"
    PINNED_PRONE = "pinned_prone"
    BOTH_PRONE = "both_prone"
    PINNER_ON_TOP = "pinner_on_top"
    PINNED_ON_TOP = "pinned_on_top"


class PinFallTie(StrEnum):
    PRONE = "prone"
    STANDING = "standing"


class PinFallOptions(ResolutionOptions):
    """How the AG or ST rolls are set up, and a tied strength contest."""

    pin_fall_tie: PinFallTie = option(
        PinFallTie.PRONE,
        ambiguity=None,
        description=(
            "Not in the register. Only one wishing to stay standing, the ST rolls tie: both "
            "go prone ('a natural tendency for all involved to fall prone', F:L3213) or both "
            "stay standing (neither prevailed, so nothing changes)."
        ),
    )


class PinFallInput(Model):
    """Who wishes to stay standing after a pin, and their rolls."""

    wish: FallWish = Field(description="Who wishes to remain standing (F:L3213).")
    pinner: Side = Field(
        description="The pinner's AG roll if both wish to stand, else ST: task or QR."
    )
    pinned: Side = Field(description="The pinned character's roll, AG or ST likewise.")
    options: PinFallOptions = Field(default=PinFallOptions())


class PinFall(Model):
    roll: str = Field(description="'AG' (each keeps his feet on a success) or 'ST' (contest).")
    pinner: Resolution | None
    pinned: Resolution | None
    pinner_qr: QR
    pinned_qr: QR
    outcome: PinFallOutcome
    on_top: str | None = Field(description="'pinner' or 'pinned' when the book says who.")


class PinFallOdds(Model):
    pinner: QualityOdds
    pinned: QualityOdds
    outcome: list[OutcomeProbability]


def fall_outcome(wish: FallWish, pinner: QR, pinned: QR, tie: PinFallTie) -> PinFallOutcome:
    """F:L3213: both wishing to stand each roll AG and fall prone on a failure; one wishing
    to stand, the better ST QR prevails (a tie per the option); both wishing to go prone,
    the better ST ends on top (a tie: neither, the GM's call)."""
    if wish is FallWish.BOTH_STAND:
        falls = (not succeeded(pinner), not succeeded(pinned))
        return {
            (False, False): PinFallOutcome.BOTH_STANDING,
            (True, False): PinFallOutcome.PINNER_PRONE,
            (False, True): PinFallOutcome.PINNED_PRONE,
            (True, True): PinFallOutcome.BOTH_PRONE,
        }[falls]
    if wish is FallWish.BOTH_PRONE:
        if pinner == pinned:
            return PinFallOutcome.BOTH_PRONE
        return PinFallOutcome.PINNER_ON_TOP if pinner < pinned else PinFallOutcome.PINNED_ON_TOP
    stander, faller = (pinner, pinned) if wish is FallWish.PINNER_STANDS else (pinned, pinner)
    if stander == faller:
        return (
            PinFallOutcome.BOTH_PRONE if tie is PinFallTie.PRONE else PinFallOutcome.BOTH_STANDING
        )
    return PinFallOutcome.BOTH_STANDING if stander < faller else PinFallOutcome.BOTH_PRONE


def _fall_sides(request: PinFallInput) -> tuple[Prepared, Prepared]:
    options = request.options
    return (prepare(request.pinner, options, "pinner", attribute=True),
            prepare(request.pinned, options, "pinned", attribute=True))  # fmt: skip


def pin_fall_odds(request: PinFallInput) -> PinFallOdds:
    pinner, pinned = _fall_sides(request)
    first, second = pinner.distribution(), pinned.distribution()
    tie = request.options.pin_fall_tie
    outcomes = first.then(lambda a: second.map(lambda b: fall_outcome(request.wish, a, b, tie)))
    return PinFallOdds(pinner=quality_odds(first), pinned=quality_odds(second),
                       outcome=outcome_table(outcomes, list(PinFallOutcome)))  # fmt: skip


@operation(
    name="melee/pin-fall",
    kind=Kind.CHECK,
    covers=("foresight.melee.pin_fall",),
    odds=pin_fall_odds,
    cost=_contest_cost,
    rolled={"/outcome": Reading(read=lambda r: r.outcome.value)},
    example={
        "wish": "pinned_stands",
        "pinner": {"task": {"score": 12}},
        "pinned": {"task": {"score": 10}},
        "dice": {"seed": 7},
    },
)
def pin_fall(request: PinFallInput, dice: Dice) -> PinFall:
    """Once a pin has taken place all involved tend to fall prone (F:L3213). If both wish to
    remain standing, both roll AG and a failure falls prone. If only one does, both roll ST
    and the better QR prevails (the book's 'higher QR' is the better one: QRs count down):
    both stay standing or both go down. If both wish to fall prone, the better ST QR ends on
    top. The catalogue gives no reading of a tie; see the option and the outcome names."""
    pinner, pinned = _fall_sides(request)
    first, second = pinner.roll(dice), pinned.roll(dice)
    outcome = fall_outcome(request.wish, first.qr, second.qr, request.options.pin_fall_tie)
    on_top = {PinFallOutcome.PINNER_ON_TOP: "pinner", PinFallOutcome.PINNED_ON_TOP: "pinned"}
    return PinFall(
        roll="AG" if request.wish is FallWish.BOTH_STAND else "ST",
        pinner=first.resolution, pinned=second.resolution, pinner_qr=first.qr,
        pinned_qr=second.qr, outcome=outcome, on_top=on_top.get(outcome),
    )  # fmt: skip
