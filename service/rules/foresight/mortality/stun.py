"""Pain and stun (F:L2562-2570, F:L2675-2689): the Pain Resistance roll of an injured
character, stun damage, and recovering from stun.

An injured character rolls Pain Resistance or is stunned by the pain (F:L2564); a stunned
character may only try to recover, once a turn in combat, every 10 s outside it (F:L2566-2568).
Stun damage (the 's' suffix) stuns at once and is shrugged off a point per successful
recovery; a QR1 clears it all, a QR10 knocks the victim out (F:L2677-2689). Pain Resistance
is (EN+WP)/2, BEF 5 (F:L776-826).
"""

from fractions import Fraction
from typing import Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    MAX_LEVEL,
    AccumulationOptions,
    Condition,
    Consciousness,
    Location,
    accumulate,
    is_stunned,
)
from service.rules.foresight.mortality.location import HIT_LOCATIONS, IfStunned
from service.rules.foresight.mortality.stamina import activity_terms
from service.rules.foresight.mortality.wounds import WoundEffectOptions, pain_resistance_terms
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import Model, option
from service.rules.registry import Kind, Reading, operation

__all__ = ["PAIN_RESISTANCE_BEF", "StunOptions"]

#: Pain Resistance: (EN+WP)/2, BEF 5 (catalogue part 2, 0.1).
PAIN_RESISTANCE_BEF = 5
#: The most stun points whose recovery chain the odds follow.
MAX_CHAIN = 50


class StunOptions(ResolutionOptions, WoundEffectOptions):
    """Readings of the stun rules (catalogue part 2, AMB2-16, AMB2-26)."""

    initial_pr_botch_unconscious: bool = option(
        False,
        ambiguity="AMB2-16",
        description=(
            "A QR10 on the Pain Resistance roll when injured knocks the character out; the "
            "book ties QR10 to unconsciousness only when recovering (F:L2689)."
        ),
    )
    stun_recover_botch_unconscious: bool = option(
        True,
        ambiguity="AMB2-16",
        description=(
            "A QR10 recovering from stun by pain, with no stun points, knocks the character "
            "out, as it does recovering from stun damage ('attempting recovery from stun', "
            "F:L2689)."
        ),
    )


def _terms(condition: Condition, options: StunOptions, points: bool) -> tuple[Term, ...]:
    """-1 a wound level and the exhaustion modifier, both 'to all activity' (F:L2590,
    F:L2548-2552; catalogue #8), the stun points held, then the wounds' own."""
    found = activity_terms(condition)
    if points:
        found.append(Term(source="stun points", value=-condition.stun_points))
    found += pain_resistance_terms(condition, options)
    return tuple(t for t in found if t.value)


def _setup(task: Task, condition: Condition, options: StunOptions, points: bool) -> Setup:
    extra = _terms(condition, options, points)
    return setup_at(("pain_resistance",), task, options, extra, PAIN_RESISTANCE_BEF)


class StunCheckInput(Model):
    condition: Condition = Field(description="The condition with the new wound already in it.")
    pain_resistance: Task = Field(description="Pain Resistance: score (EN+WP)/2; BEF 5 if none.")
    location: Location | None = Field(default=None, description="Where the new wound struck.")
    options: StunOptions = Field(default=StunOptions())


class StunCheck(Model):
    rolled: Resolution
    stunned: bool
    consequence: IfStunned = Field(description="What the location does to a stunned character.")
    condition: Condition


def _consequence(location: Location | None, stunned: bool) -> IfStunned:
    if not stunned or location is None:
        return IfStunned.NONE
    return HIT_LOCATIONS[location].if_stunned


def _stun(condition: Condition, consequence: IfStunned, knocked_out: bool) -> Condition:
    out = knocked_out or consequence is IfStunned.FALLS_UNCONSCIOUS
    update: dict[str, Any] = {"stunned": True}
    if out:
        update["consciousness"] = Consciousness.UNCONSCIOUS
    return condition.model_copy(update=update)


class StunCheckOdds(Model):
    pain_resistance: QualityOdds
    stunned: Exact


def _check_odds(request: StunCheckInput) -> StunCheckOdds:
    found = distribution(_setup(request.pain_resistance, request.condition, request.options, False))
    return StunCheckOdds(
        pain_resistance=quality_odds(found),
        stunned=exact(found.probability_where(lambda qr: qr > QR.QR4)),
    )


@operation(
    name="pain-resistance/stun-check",
    kind=Kind.CHECK,
    covers=("foresight.pain_resistance.stun_check",),
    odds=_check_odds,
    cost=task_cost,
    example={
        "condition": {"wound_level": 3, "max_wound_level": 3},
        "location": "head",
        "pain_resistance": {"score": 8},
        "dice": {"values": [55]},
    },
)
def stun_check(request: StunCheckInput, dice: Dice) -> StunCheck:
    """An injured character's Pain Resistance roll, at -WL including the new wound (the gunman
    newly at WL3 rolls at -3, F:L3322) and -1 with a wounded abdomen (F:L2709): QR7 or QR10
    and the pain stuns (F:L2564). Stunned, a head wound knocks out, an arm drops what it
    holds, a leg falls prone (F:L2705-2710)."""
    condition = request.condition
    rolled = roll(
        _setup(request.pain_resistance, condition, request.options, False), dice, "pain resistance"
    )
    stunned = not rolled.success
    consequence = _consequence(request.location, stunned)
    botch = rolled.qr is QR.QR10 and request.options.initial_pr_botch_unconscious
    after = _stun(condition, consequence, botch) if stunned else condition
    return StunCheck(rolled=rolled, stunned=stunned, consequence=consequence, condition=after)


class RecoverInput(Model):
    condition: Condition = Field(description="A stunned character: by pain, or stun points.")
    pain_resistance: Task = Field(description="Pain Resistance: score (EN+WP)/2; BEF 5 if none.")
    options: StunOptions = Field(default=StunOptions())


class Recovered(Model):
    rolled: Resolution | None = Field(description="Null when the character was not stunned.")
    stun_points: int
    stunned: bool
    unconscious: bool
    condition: Condition


def recovered_points(points: int, qr: QR) -> int | None:
    """Stun points after a recovery roll; None: unconscious (F:L2677-2689). QR1 clears them
    all, QR2-QR4 one, QR7 none, QR10 knocks out."""
    if qr is QR.QR10:
        return None
    return 0 if qr is QR.QR1 else points - 1 if qr <= QR.QR4 else points


def _recover(condition: Condition, qr: QR, options: StunOptions) -> Condition:
    points = condition.stun_points
    if qr is QR.QR10 and (points or options.stun_recover_botch_unconscious):
        return condition.model_copy(update={"consciousness": Consciousness.UNCONSCIOUS})
    if points:
        left = recovered_points(points, qr)
        assert left is not None
        return condition.model_copy(update={"stun_points": left, "stunned": left > 0})
    return condition.model_copy(update={"stunned": qr > QR.QR4})


class ChainOdds(Model):
    """Recovering turn after turn until clear or unconscious (catalogue Q8)."""

    unconscious: Exact | None = Field(description="Null: never resolved (the roll cannot pass).")
    clear: Exact | None
    expected_turns: Exact | None


class RecoverOdds(Model):
    pain_resistance: QualityOdds
    stun_points: list[OutcomeProbability] = Field(description="After this roll; 'unconscious'.")
    chain: ChainOdds


def _step(request: RecoverInput, points: int) -> Distribution[QR]:
    condition = request.condition.model_copy(update={"stun_points": points})
    return distribution(_setup(request.pain_resistance, condition, request.options, True))


def _chain(request: RecoverInput) -> ChainOdds:
    """P(clear) and expected turns from n points, rolling at -n each turn: with a, b, s the
    chances of QR1, QR2-4 and QR7 at n points, clear(n) = (a + b clear(n-1)) / (1 - s) and
    turns(n) = (1 + b turns(n-1)) / (1 - s), from clear(0) = 1, turns(0) = 0."""
    points = request.condition.stun_points
    by_pain = points == 0
    clear, turns = Fraction(1), Fraction(0)
    for n in range(1, max(points, 1) + 1):
        found = _step(request, 0 if by_pain else n)
        a = found.probability(QR.QR1)
        b = found.probability_where(lambda qr: QR.QR2 <= qr <= QR.QR4)
        stay = found.probability(QR.QR7)
        if by_pain:
            a, b = a + b, Fraction(0)
            if not request.options.stun_recover_botch_unconscious:
                stay += found.probability(QR.QR10)
        if stay == 1:
            return ChainOdds(unconscious=None, clear=None, expected_turns=None)
        clear = (a + b * clear) / (1 - stay)
        turns = (1 + b * turns) / (1 - stay)
    return ChainOdds(unconscious=exact(1 - clear), clear=exact(clear), expected_turns=exact(turns))


def _recover_odds(request: RecoverInput) -> RecoverOdds:
    found = _step(request, request.condition.stun_points)

    def written(qr: QR) -> str:
        after = _recover(request.condition, qr, request.options)
        knocked_out = after.consciousness is Consciousness.UNCONSCIOUS
        return "unconscious" if knocked_out else str(after.stun_points)

    after = found.map(written)
    return RecoverOdds(
        pain_resistance=quality_odds(found), stun_points=outcome_table(after), chain=_chain(request)
    )


def _recover_cost(request: Any) -> Estimate:
    """This roll's D100 and its tables, then the chain's D100 read once a turn for each
    point from the points held down to 1 (one turn from none)."""
    points = min(request.condition.stun_points, MAX_LEVEL)
    return Estimate(task_cost(request).states + 100 * (max(points, 1) + 1),
                    ("/condition/stun_points",))  # fmt: skip


@operation(
    name="stun/recover",
    kind=Kind.CHECK,
    covers=("foresight.stun.recover",),
    odds=_recover_odds,
    cost=_recover_cost,
    rolled={
        "/stun_points": Reading(
            read=lambda result: "unconscious" if result.unconscious else result.stun_points
        ),
        # The chain's 'unconscious' is where turn after turn of rolls ends, not this roll.
        "/chain/unconscious": Reading(read=lambda result: None),
    },
    example={
        "condition": {"stun_points": 2, "stunned": True},
        "pain_resistance": {"score": 8},
        "dice": {"values": [15]},
    },
)
def recover(request: RecoverInput, dice: Dice) -> Recovered:
    """A stunned character's attempt to recover, once per turn in combat (its only action
    but dropping prone) or every 10 s (F:L2566-2568): Pain Resistance at -(stun points), -WL
    (F:L2679). With stun points QR1 clears them, QR2-QR4 shrug one off, QR7 changes nothing;
    stunned by pain, any success ends it; QR10 knocks out (F:L2687-2689). Amy, at 2 points,
    succeeds at -2, fails at -1, succeeds at -1: 1, 1, 0 (F:L2681)."""
    condition = request.condition
    if not is_stunned(condition) or condition.consciousness is Consciousness.UNCONSCIOUS:
        return Recovered(
            rolled=None,
            stun_points=condition.stun_points,
            stunned=is_stunned(condition),
            condition=condition,
            unconscious=condition.consciousness is Consciousness.UNCONSCIOUS,
        )
    task = _setup(request.pain_resistance, condition, request.options, True)
    rolled = roll(task, dice, "recover from stun")
    after = _recover(condition, rolled.qr, request.options)
    return Recovered(
        rolled=rolled,
        stun_points=after.stun_points,
        stunned=is_stunned(after),
        unconscious=after.consciousness is Consciousness.UNCONSCIOUS,
        condition=after,
    )


class StunDamageInput(Model):
    condition: Condition = Field(default=Condition())
    stun_points: int = Field(ge=0, le=MAX_LEVEL, description="Stun damage of the new hit.")
    location: Location | None = None
    options: AccumulationOptions = Field(default=AccumulationOptions())


class StunDamage(Model):
    stun_points: int
    stunned: bool
    condition: Condition


@operation(
    name="stun-damage/apply",
    kind=Kind.CALCULATION,
    covers=("foresight.stun_damage.apply",),
    example={
        "condition": {"stun_points": 1, "stunned": True},
        "stun_points": 2,
        "location": "right_arm",
    },
)
def stun_damage(request: StunDamageInput) -> StunDamage:
    """Stun damage stuns at once, with no Pain Resistance roll to avoid it (F:L2677), and
    accumulates like wounds: added to the head or torso, to a limb less two or replacing the
    total if higher; simply added without the Wound Accumulation rule (F:L2683). Amy at 1
    point takes 2 to the arm: 2 with the rule, 3 without (F:L2685)."""
    condition = request.condition
    points = accumulate(
        condition.stun_points, request.stun_points, request.location, request.options
    )
    after = condition.model_copy(
        update={"stun_points": points, "stunned": condition.stunned or points > 0}
    )
    return StunDamage(stun_points=points, stunned=is_stunned(after), condition=after)


class StateInput(Model):
    condition: Condition
    location: Location | None = Field(default=None, description="Of the wound that stunned.")


class StunState(Model):
    stunned: bool
    allowed_actions: list[str]
    reflex_actions: bool = Field(description="Reflex parries and dodges allowed.")
    initiative_modifier: int
    melee_attack_bonus: int = Field(description="To attacks against the character in mêlée.")
    ranged_attack_bonus: int = Field(description="To ranged attacks against the character.")
    consequence: IfStunned


@operation(
    name="stun/state-effects",
    kind=Kind.LOOKUP,
    covers=("foresight.stun.state_effects",),
    example={"condition": {"stunned": True}, "location": "right_leg"},
)
def state_effects(request: StateInput) -> StunState:
    """What being stunned means: no action but trying to recover, or dropping prone (F:L2566),
    so no reflex parries or dodges; -4 to initiative (F:L2951); attackers +1 in mêlée
    (F:L3140) and at range (F:L3289); and the location's consequence (F:L2705-2710)."""
    stunned = is_stunned(request.condition)
    if not stunned:
        return StunState(
            stunned=False,
            allowed_actions=[],
            reflex_actions=True,
            initiative_modifier=0,
            melee_attack_bonus=0,
            ranged_attack_bonus=0,
            consequence=IfStunned.NONE,
        )
    return StunState(
        stunned=True,
        allowed_actions=["recover from stun", "drop prone"],
        reflex_actions=False,
        initiative_modifier=-4,
        melee_attack_bonus=1,
        ranged_attack_bonus=1,
        consequence=_consequence(request.location, True),
    )


def pain_resistance_setup(task: Task, condition: Condition, options: StunOptions) -> Setup:
    """The Pain Resistance roll of a character just injured, for the hazards (poison, burns):
    at -WL including the new wound, -1 with a wounded abdomen (F:L2564, F:L2709)."""
    return _setup(task, condition, options, False)
