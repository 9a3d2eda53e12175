"""Aiming (FI:L327-347): a weapon's Aim x/y; a marker on the aiming card each step counted
down, x of them an aim action, up to three (one cancels the unaimed penalty y, two more add x
each); and the race when the target moves before the aim is done."""

from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import OutcomeProbability, Truncation, outcome_table, truncation
from service.rules.future_imperfect.combat.modifiers import (
    Aim,
    Applied,
    Meters,
    Situation,
    aim_actions,
    aim_modifier,
    applied,
    base_tn,
    task,
    tn_source,
)
from service.rules.future_imperfect.combat.options import AimRaceOptions, AttackOptions, RaceOrder
from service.rules.future_imperfect.core.checks import (
    CHECK,
    DEPTH,
    Checked,
    CheckInput,
    graded,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.future_imperfect.core.rolls import OPPOSED, initiator_en, winner
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["aim", "aim_interrupt"]

Step = Annotated[int, Field(ge=0, le=14)]


class AimInput(Model):
    aim: Aim
    declared_step: Step | None = Field(
        default=None, description="The step the aim was declared on (markers from the steps)."
    )
    current_step: Step | None = None
    interrupted: bool = Field(
        default=False,
        description="Another action taken, or a psychological contest lost (FI:L337).",
    )
    options: AttackOptions = Field(default=AttackOptions())


class Aimed(Model):
    markers: int
    aim_actions: int = Field(description="0 to 3 (FI:L337).")
    complete: bool = Field(description="At least one aim action: the next shot is aimed.")
    modifier: int = Field(description="To the shot: y, 0, +x, +2x.")
    steps_to_full_aim: int
    initiative_penalty: int = Field(description="To the Reflex check while unaimed (A-47).")
    reserve_lost: bool = Field(description="Interrupted, the reserve card goes too (FI:L337).")


def markers_of(request: AimInput) -> int:
    steps = (request.declared_step, request.current_step)
    if steps == (None, None):
        return request.aim.markers
    if None in steps or request.aim.markers:
        raise InputError(("declared_step",), "give the markers or both steps, not both")
    declared, current = steps
    assert declared is not None
    assert current is not None
    if current > declared:
        raise InputError(("current_step",), "steps count down from the one declared on")
    return declared - current


@operation(
    name="combat/aim",
    kind=Kind.CALCULATION,
    covers=("fi.combat.aim",),
    example={"aim": {"x": 2, "y": -3}, "declared_step": 12, "current_step": 9},
)
def aim(request: AimInput) -> Aimed:
    """Aim x/y: x steps an aim action and the bonus of each after the first (twice at most);
    y the unaimed penalty and the initiative penalty (FI:L329). A TL8 blast pistol is 1/-1,
    a blast rifle 2/-3 (FI:L331). Harry aims his rifle from step 12: at 9 he has three
    markers, no penalty; at 8 four, +2 (FI:L343-345). Any other action, or a psychological
    contest lost, loses the markers and the reserve card (FI:L337)."""
    markers = 0 if request.interrupted else markers_of(request)
    held = request.aim.model_copy(update={"markers": markers})
    actions = aim_actions(held)
    penalty = request.aim.y if request.options.aim_initiative_penalty and not actions else 0
    return Aimed(markers=markers, aim_actions=actions, complete=actions > 0,
                 modifier=aim_modifier(held), steps_to_full_aim=max(0, 3 * held.x - markers),
                 initiative_penalty=penalty, reserve_lost=request.interrupted)  # fmt: skip


class AimRaceInput(Model):
    shooter_reflex: PoolText
    target_reflex: PoolText
    aim: Aim = Field(description="The weapon's Aim and the markers on the card when it moves.")
    pool: PoolText = Field(description="The shooting pool.")
    tn: Annotated[int, Field(ge=0, le=100)] | None = None
    distance: Meters | None = None
    range_increment: Annotated[int, Field(ge=1, le=10_000)] | None = None
    situation: Situation = Field(default=Situation(), description="Its aim is the race's.")
    options: AimRaceOptions = Field(default=AimRaceOptions())


class AimRace(Model):
    shooter: Checked
    target: Checked
    winner: str = Field(description="'initiator' (the shooter) or the target's move first.")
    aimed: bool
    tn: int
    modifiers: list[Applied]
    shot: Checked | None = Field(description="Null when the target moves first.")
    outcome: str = Field(description="target_moves_first, miss or hit.")


def _race(request: AimRaceInput) -> tuple[CheckInput, CheckInput, CheckInput, bool, list[Applied]]:
    if request.situation.aim is not None:
        raise InputError(("situation", "aim"), "the race's aim is the top-level aim")
    situation = request.situation.model_copy(update={"aim": request.aim})
    found, _ = applied(situation, request.options)
    tn = base_tn(request.tn, request.distance, request.range_increment, None)
    shot, halved = task(request.pool, tn, found, situation.skill, request.options,
                        tn_source(request.tn, None, tn))  # fmt: skip
    reflex = [CheckInput(pool=p, tn=0, options=request.options)
              for p in (request.shooter_reflex, request.target_reflex)]  # fmt: skip
    return reflex[0], reflex[1], shot, halved, found


def race_outcome(won: str, shot: tuple[bool, int] | None, check: CheckInput) -> str:
    if won != "initiator" or shot is None:
        return "target_moves_first"
    return "hit" if graded(shot[1], shot[0], check)[0] else "miss"


class AimRaceOdds(Model):
    outcome: list[OutcomeProbability]
    truncation: Truncation | None


def aim_race_odds(request: AimRaceInput) -> AimRaceOdds:
    """The race, then the shot: independent, so the outcome's odds are the race's times the
    shot's, in either order of drawing (T22 for the race)."""
    shooter, target, shot, halved = _race(request)[:4]
    first, second, fired = results(shooter), results(target), results(shot, halved)
    race = first.then(lambda a: second.map(
        lambda b: winner(initiator_en(a), b[1], request.options)))  # fmt: skip
    found = race.then(lambda won: fired.map(lambda s: race_outcome(won, s, shot)))
    return AimRaceOdds(outcome=outcome_table(found, ["target_moves_first", "miss", "hit"]),
                       truncation=truncation(found, DEPTH))  # fmt: skip


def aim_race_cost(request: AimRaceInput) -> Estimate:
    """The race (`core/opposed`) and a shot (`core/check`) after it."""
    return Estimate(OPPOSED.states + CHECK.states, ())


@operation(
    name="combat/aim/interrupt",
    kind=Kind.CHECK,
    covers=("fi.combat.aim.interrupt",),
    odds=aim_race_odds,
    cost=aim_race_cost,
    example={"shooter_reflex": "III-2", "target_reflex": "IV-1",
             "aim": {"x": 2, "y": -3, "markers": 3}, "pool": "III-3", "tn": 5,
             "options": {"race_order": "shot_first"},
             "dice": {"values": [7, 3, 2, 4, 2, 1]}},
)  # fmt: skip
def aim_interrupt(request: AimRaceInput, dice: Dice) -> AimRace:
    """The target moves before the aim is done: the shooter may race it, an opposed Reflex
    task; winning, he shoots at once, aimed if his markers reach the Aim number (FI:L339).
    Harry, three markers on a 2/-3 rifle, fires without penalty at TN 5, his III-3 showing 7,
    a hit; his Reflex 4 beats the bug's 1 (FI:L345-347), the shot drawn first as the example
    does (race_order shot_first)."""
    shooter, target, shot, halved, found = _race(request)
    fired = None
    if request.options.race_order is RaceOrder.SHOT_FIRST:
        fired = roll_check(shot, dice, halved=halved)
    mine, theirs = roll_check(shooter, dice), roll_check(target, dice)
    won = winner(None if mine.critical_failure else mine.en, theirs.en, request.options)
    if won == "initiator" and fired is None:
        fired = roll_check(shot, dice, halved=halved)
    landed = fired if won == "initiator" else None
    result = None if landed is None else (landed.critical_failure, landed.en)
    return AimRace(shooter=mine, target=theirs, winner=won, aimed=aim_actions(request.aim) > 0,
                   tn=shot.tn, modifiers=found, shot=fired,
                   outcome=race_outcome(won, result, shot))  # fmt: skip
