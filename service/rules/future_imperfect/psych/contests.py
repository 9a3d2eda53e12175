"""Psychological contests (FI:L625-686): an opposed test of bluff against scrutinize,
intimidate against bravery, ridicule against ridicule; 1 success annoys, 2 make distraught,
3 break. Simple contests are rolled against a TN from the two die types, with stakes
declared first. The designer's optional rule prices resistance in chips."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    NOT_ROLLED,
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
from service.rules.future_imperfect.core.options import TieGoesTo
from service.rules.future_imperfect.core.pools import PoolText, parse, sides
from service.rules.future_imperfect.core.rolls import OPPOSED, Side, initiator_en, winner
from service.rules.future_imperfect.progress.chips import COLOURS, Pot, draw_chip
from service.rules.future_imperfect.psych.options import AnnoyedScope, GapUnit, PsychOptions
from service.rules.future_imperfect.psych.tables import (
    CONTEST_EFFECTS,
    OPPOSED_SKILLS,
    SIMPLE_TNS,
    by_successes,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["EFFECTS", "Effect", "chip_resistance", "contest", "effects", "simple_contest"]


class Contest(StrEnum):
    BLUFF = "bluff"
    INTIMIDATE = "intimidate"
    RIDICULE = "ridicule"
    PERSUASION = "persuasion"


class Effect(StrEnum):
    NONE = "none"
    ANNOYED = "annoyed"
    DISTRAUGHT = "distraught"
    BROKEN = "broken"


#: The effects in the order of the successes they need (FI:L643-646).
EFFECTS = tuple(Effect(row.effect) for row in CONTEST_EFFECTS)


def effect_of(successes: int) -> Effect:
    return Effect(by_successes(CONTEST_EFFECTS, successes))


def _opposed(contest: Contest) -> str:
    return next(row.opposed for row in OPPOSED_SKILLS if row.contest == contest.value)


class ContestInput(Model):
    contest: Contest
    initiator: Side
    resister: Side = Field(description="The target's opposing skill; a group's leader's.")
    options: PsychOptions = Field(default=PsychOptions())


class Contested(Model):
    opposed_skill: str
    initiator: Checked
    resister: Checked
    winner: str
    successes: int = Field(description="1, and 1 a bump over the resister's result.")
    effect: Effect


def _check(side: Side, options: PsychOptions) -> CheckInput:
    tn = options.psych_base_tn or 0
    return CheckInput(pool=side.pool, tn=tn, modifiers=side.modifiers,
                      wound_penalty=side.wound_penalty, options=options)  # fmt: skip


def _successes(first: int | None, second: int, options: PsychOptions) -> int:
    """The initiator's successes: none unless he wins (the tie as the option says, A-08) and
    reaches the base TN if one is set (A-70); 1 and 1 a bump over the resister."""
    won = winner(first, second, options) == "initiator"
    if not won or first is None or first < (options.psych_base_tn or 0):
        return 0
    # Ties to the resister make his result plus one the TN, and bumps count from it (T21).
    tn = second + 1 if options.tie_goes_to is TieGoesTo.RESISTER else second
    return 1 + (first - tn) // options.bump_step


class ContestOdds(Model):
    effect: list[OutcomeProbability]
    truncation: Truncation | None


def contest_odds(request: ContestInput) -> ContestOdds:
    """Each effect, exactly (catalogue T9; T21 with ties to the resister)."""
    options = request.options
    sides = [results(_check(side, options)) for side in (request.initiator, request.resister)]

    found = sides[0].then(lambda a: sides[1].map(
        lambda b: effect_of(_successes(initiator_en(a), b[1], options))))  # fmt: skip
    return ContestOdds(effect=outcome_table(found, EFFECTS),
                       truncation=truncation(found, DEPTH))  # fmt: skip


def contest_cost(request: ContestInput) -> Estimate:
    """Both sides' results and every pair of them (`core/opposed`)."""
    return OPPOSED


@operation(
    name="psych/contest",
    kind=Kind.CHECK,
    covers=("fi.psych.contest",),
    odds=contest_odds,
    cost=contest_cost,
    example={"contest": "intimidate", "initiator": {"pool": "III-3"},
             "resister": {"pool": "II-2"}, "dice": {"seed": 4}},
)  # fmt: skip
def contest(request: ContestInput, dice: Dice) -> Contested:
    """Initiating a psychological contest is an action; resisting it is automatic: an opposed
    test against the target's skill, a group's leader's (FI:L631). One success annoys, two
    make distraught, three break (FI:L643-646)."""
    options = request.options
    first = roll_check(_check(request.initiator, options), dice)
    second = roll_check(_check(request.resister, options), dice)
    a = None if first.critical_failure else first.en
    successes = _successes(a, second.en, options)
    return Contested(opposed_skill=_opposed(request.contest), initiator=first, resister=second,
                     winner=winner(a, second.en, options), successes=successes,
                     effect=effect_of(successes))  # fmt: skip


Step = Annotated[int, Field(ge=0, le=14)]


class EffectInput(Model):
    effect: Effect
    hand: tuple[Step, ...] = Field(default=(), max_length=20, description="The target's cards.")
    reserve: Step | None = Field(default=None, description="The target's reserve card.")
    pot: Pot = Field(default=Pot(), description="The pot the initiator draws from.")
    options: PsychOptions = Field(default=PsychOptions())


class Effected(Model):
    penalty: int = Field(description="To the target's next roll (A-71).")
    penalty_applies_to: str
    lost_card: int | None = Field(description="The highest card, or the reserve if held.")
    lost_reserve: bool
    hand: list[int]
    reserve: int | None
    chip: str | None = Field(description="The chip the initiator draws on a break.")


#: An annoyed target's next roll (FI:L650).
ANNOYED = -4


def _lost(request: EffectInput) -> tuple[int | None, bool, list[int]]:
    """A distraught target loses his reserve card if he holds one, else his highest card."""
    hand = list(request.hand)
    if EFFECTS.index(request.effect) < 2:
        return None, False, hand
    if request.reserve is not None:
        return request.reserve, True, hand
    if not hand:
        return None, False, hand
    hand.remove(max(hand))
    return max(request.hand), False, hand


class EffectOdds(Model):
    chip: list[OutcomeProbability]


def effects_odds(request: EffectInput) -> EffectOdds:
    """The chip a break draws, exactly; 'not_rolled' where none is drawn."""
    pot = request.pot
    chips = Distribution({colour: getattr(pot, colour) for colour in COLOURS})
    draws = request.effect is Effect.BROKEN and pot.total > 0
    return EffectOdds(chip=outcome_table(chips if draws else Distribution({NOT_ROLLED: 1})))


def effects_cost(request: EffectInput) -> Estimate:
    """Three colours of chip."""
    return Estimate(10, ())


@operation(
    name="psych/effects/apply",
    kind=Kind.GENERATION,
    covers=("fi.psych.effects.apply",),
    odds=effects_odds,
    cost=effects_cost,
    example={"effect": "broken", "hand": [9, 4], "dice": {"values": [60]}},
)
def effects(request: EffectInput, dice: Dice) -> Effected:
    """Annoyed: -4 to the target's next action, passive defenses and resistance included.
    Distraught: annoyed, and he loses his highest Action Card, or his reserve card if he has
    one. Broken: both, and the initiator draws a Story Chip from the pot (FI:L648-658)."""
    lost, reserve_lost, hand = _lost(request)
    chip = None
    if request.effect is Effect.BROKEN and request.pot.total:
        chip, _ = draw_chip(request.pot, dice, "the initiator's chip")
    annoyed = request.effect is not Effect.NONE
    scope = ("the next action only" if request.options.annoyed_scope is
             AnnoyedScope.NEXT_ACTION_ONLY else "the next roll of any kind")  # fmt: skip
    return Effected(penalty=ANNOYED if annoyed else 0,
                    penalty_applies_to=scope if annoyed else "nothing",
                    lost_card=lost, lost_reserve=reserve_lost, hand=hand,
                    reserve=None if reserve_lost else request.reserve, chip=chip)  # fmt: skip


class Stakes(Model):
    failure: Annotated[str, Field(max_length=500)] | None = None
    success: Annotated[str, Field(max_length=500)] | None = None
    bump: Annotated[str, Field(max_length=500)] | None = None


class SimpleInput(Model):
    initiator: Side
    target: PoolText = Field(description="The target's pool in the skill: die type and level.")
    stakes: Stakes = Field(default=Stakes(), description="Declared before the roll (FI:L676).")
    options: PsychOptions = Field(default=PsychOptions())


class Simple(Model):
    tn: int
    check: Checked
    tier: str = Field(description="failure, success or bump.")
    stake: str | None = Field(description="The declared stake of that tier.")


def simple_tn(initiator: str, target: str, options: PsychOptions) -> int:
    """Less 3, equal 5, greater 7, more than 2 greater 9; +1 if the target has 3 or more
    levels (FI:L666-672, A-72). Counted in sides, the gap is between the two pools' dice
    (FI:L666 "opposing die type"), a column 6 or 7 die as the options set it (A-02), and
    refused where they set none."""
    mine, theirs = parse(initiator, ("initiator", "pool")), parse(target, ("target",))
    if options.simple_contest_gap_unit is GapUnit.SIDES:
        gap = sides(theirs, ("target",), options) - sides(mine, ("initiator", "pool"), options)
    else:
        gap = theirs.column - mine.column
    tier = 0 if gap < 0 else 1 if gap == 0 else 2 if gap <= 2 else 3
    return SIMPLE_TNS[tier].tn + (1 if theirs.row >= 3 else 0)


def _simple_check(request: SimpleInput) -> CheckInput:
    side = request.initiator
    return CheckInput(pool=side.pool, tn=simple_tn(side.pool, request.target, request.options),
                      modifiers=side.modifiers, wound_penalty=side.wound_penalty,
                      options=request.options)  # fmt: skip


def tier_of(success: bool, bumps: int) -> str:
    return "failure" if not success else "bump" if bumps else "success"


class SimpleOdds(Model):
    tier: list[OutcomeProbability]
    truncation: Truncation | None


def simple_odds(request: SimpleInput) -> SimpleOdds:
    """Each tier of the stakes, exactly."""
    check = _simple_check(request)

    def tier(outcome: tuple[bool, int]) -> str:
        return tier_of(*graded(outcome[1], outcome[0], check))

    found = results(check).map(tier)
    return SimpleOdds(tier=outcome_table(found, ["failure", "success", "bump"]),
                      truncation=truncation(found, DEPTH))  # fmt: skip


@operation(
    name="psych/simple-contest",
    kind=Kind.CHECK,
    covers=("fi.psych.simple_contest",),
    odds=simple_odds,
    cost=check_cost,
    example={
        "initiator": {"pool": "III-3"},
        "target": "III-2",
        "stakes": {"failure": "the sergeant notices Harry", "success": "Harry gets past",
                   "bump": "Harry gets in and out unseen"},
        "dice": {"values": [8, 4, 2, 3]},
    },
)  # fmt: skip
def simple_contest(request: SimpleInput, dice: Dice) -> Simple:
    """The initiator declares the stakes, then rolls against a TN from the target's die type
    against his own: less 3, equal 5, greater 7, more than 2 greater 9, one more if the
    target has 3 or more levels (FI:L662-680). Antares blathers the desk sergeant: a failure
    and Harry is noticed, a success and he gets past, a bump and he is in and out unseen
    (FI:L678)."""
    checked = roll_check(_simple_check(request), dice)
    tier = tier_of(checked.success, checked.bumps)
    stake = getattr(request.stakes, tier)
    if tier == "bump" and stake is None:
        stake = request.stakes.success
    return Simple(tn=_simple_check(request).tn, check=checked, tier=tier, stake=stake)


class ResistInput(Model):
    successes: Annotated[int, Field(ge=0, le=100)] = Field(
        description="The NPC's successes on his task."
    )
    pay: bool = Field(description="The player chooses to pay rather than reveal.")
    chips_held: Annotated[int, Field(ge=0, le=1000)]


class Resisted(Model):
    chips_due: int = Field(description="A chip for each success.")
    chips_paid: int
    revealed: bool = Field(description="Unpaid, the NPC learns the information (somehow).")


@operation(
    name="psych/chip-resistance",
    kind=Kind.CALCULATION,
    covers=("fi.psych.chip_resistance",),
    example={"successes": 2, "pay": True, "chips_held": 3},
)
def chip_resistance(request: ResistInput) -> Resisted:
    """The designer's optional rule: rather than forcing an outcome, the player pays a chip
    for each success of the NPC's task or the NPC learns the information (FI:L686)."""
    due = request.successes
    if request.pay and request.chips_held < due:
        raise InputError(("chips_held",), f"{due} chips are due and {request.chips_held} held")
    paid = due if request.pay else 0
    return Resisted(chips_due=due, chips_paid=paid, revealed=due > 0 and not request.pay)
