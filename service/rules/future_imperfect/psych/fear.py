"""Fear and terror (FI:L690-710): a Bravery roll against the Master's TN, read by successes
(0 broken, 1 distraught, 2 annoyed, 3 or more no effect); a critical failure terrifies. Terror
is the same test with no Story Chips, and a critical failure or a step 0 drawn makes the
Hero catatonic, then terrified."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    OutcomeProbability,
    Truncation,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    DEPTH,
    Checked,
    CheckInput,
    check_cost,
    graded,
    results,
    roll_check,
)
from service.rules.future_imperfect.psych.options import PsychOptions, TerrorStep0
from service.rules.future_imperfect.psych.tables import FEAR_EFFECTS, by_successes
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["Feared", "fear", "terrified", "terror"]


class Fright(StrEnum):
    TERRIFIED = "terrified"
    CATATONIC = "catatonic"
    BROKEN = "broken"
    DISTRAUGHT = "distraught"
    ANNOYED = "annoyed"
    NONE = "none"


ORDER = list(Fright)
#: The red joker, step 0, is 1 card of the 54 (FI:L151, catalogue 1.6).
DECK, STEP_0 = 54, 1


class FearInput(CheckInput):
    tn: Annotated[int, Field(ge=0, le=100)] = Field(description="The Master's TN.")
    options: PsychOptions = Field(default=PsychOptions())


class Feared(Model):
    check: Checked
    effect: Fright


def fright(cf: bool, successes: int) -> Fright:
    return Fright.TERRIFIED if cf else Fright(by_successes(FEAR_EFFECTS, successes))


def _graded(request: FearInput, outcome: tuple[bool, int]) -> Fright:
    cf, en = outcome
    success, bumps = graded(en, cf, request)
    return fright(cf, 1 + bumps if success else 0)


class FearOdds(Model):
    effect: list[OutcomeProbability]
    truncation: Truncation | None


def _odds(found: Distribution[Fright]) -> FearOdds:
    return FearOdds(effect=outcome_table(found, ORDER),
                    truncation=truncation(found, DEPTH))  # fmt: skip


def fear_odds(request: FearInput) -> FearOdds:
    """Each effect of a Fear test, exactly (catalogue T10)."""
    return _odds(results(request).map(lambda o: _graded(request, o)))


@operation(
    name="psych/fear",
    kind=Kind.CHECK,
    covers=("fi.psych.fear",),
    odds=fear_odds,
    cost=check_cost,
    example={"pool": "III-3", "tn": 7, "dice": {"values": [8, 3, 2, 1]}},
)
def fear(request: FearInput, dice: Dice) -> Feared:
    """When the Master calls for a Fear test, the Hero rolls his bravery against the Master's
    TN: no success breaks him, one makes him distraught, two annoyed, three or more leave him
    be; a critical failure terrifies him (FI:L694-702)."""
    checked = roll_check(request, dice)
    return Feared(check=checked, effect=fright(checked.critical_failure, checked.successes))


class Terrored(Feared):
    step_0: bool | None = Field(description="The side card was the red joker; null undrawn.")


def _catatonic(effect: Fright) -> Fright:
    return Fright.CATATONIC if effect is Fright.TERRIFIED else effect


def terror_odds(request: FearInput) -> FearOdds:
    """Each effect of a Terror test, the side card's step 0 included, exactly."""
    found = results(request).map(lambda o: _catatonic(_graded(request, o)))
    if request.options.terror_step0 is TerrorStep0.SIDE_DRAW:
        card = Distribution({True: STEP_0, False: DECK - STEP_0})
        found = found.then(lambda e: card.map(lambda zero: Fright.CATATONIC if zero else e))
    return _odds(found)


@operation(
    name="psych/terror",
    kind=Kind.CHECK,
    covers=("fi.psych.terror",),
    odds=terror_odds,
    cost=check_cost,
    example={"pool": "III-3", "tn": 9, "dice": {"values": [5, 3, 2, 20]}},
)
def terror(request: FearInput, dice: Dice) -> Terrored:
    """Terror is a Fear test on which no Story Chips may be spent; a critical failure, or
    drawing a step 0, makes the Hero catatonic: no cards at the next draw, no actions, and
    terrified at the one after (FI:L704-706). In dice, one Action Card is drawn beside the
    roll, the red joker 1 of 54 (A-74)."""
    checked = roll_check(request, dice)
    effect = _catatonic(fright(checked.critical_failure, checked.successes))
    zero = None
    if request.options.terror_step0 is TerrorStep0.SIDE_DRAW:
        zero = dice.roll(DECK, "side card (1: the red joker, step 0)") <= STEP_0
        effect = Fright.CATATONIC if zero else effect
    return Terrored(check=checked, effect=effect, step_0=zero)


class State(StrEnum):
    CATATONIC = "catatonic"
    TERRIFIED = "terrified"
    STEADY = "steady"


class TerrifiedInput(Model):
    state: State


class DrawPhase(Model):
    cards: int | None = Field(description="Cards drawn this draw phase; null: as usual.")
    may_act: bool
    active_defense: bool
    must_flee: bool = Field(description="Maximise the distance from the terror's source.")
    next_state: State


#: What each state does at the next draw phase (FI:L706, FI:L710).
PHASES = {
    State.CATATONIC: DrawPhase(cards=0, may_act=False, active_defense=False, must_flee=False,
                               next_state=State.TERRIFIED),
    State.TERRIFIED: DrawPhase(cards=1, may_act=True, active_defense=True, must_flee=True,
                               next_state=State.STEADY),
    State.STEADY: DrawPhase(cards=None, may_act=True, active_defense=True, must_flee=False,
                            next_state=State.STEADY),
}  # fmt: skip


@operation(
    name="psych/terrified",
    kind=Kind.LOOKUP,
    covers=("fi.psych.terrified",),
    example={"state": "catatonic"},
)
def terrified(request: TerrifiedInput) -> DrawPhase:
    """A catatonic Hero draws no cards at the next draw phase, takes no actions, not even
    active defenses, and cowers; at the following one he is terrified (FI:L706). A terrified
    Hero breaks and runs: at the next draw phase he draws a single card, and when it comes up
    must maximise his distance from the terror (FI:L710)."""
    return PHASES[request.state]
