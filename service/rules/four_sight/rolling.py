"""Rolling a check: the pool, its explosions, and the manifestations acting on the base
(S:L32-36, S:L140-148, S:L191). Every die is logged with its role and what it added."""

from enum import StrEnum

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_sight.manifestations import Manifestation
from service.rules.four_sight.options import DieRole, ManifestationDieExplodes
from service.rules.four_sight.pool import Plan, Roller, Step
from service.rules.four_sight.traits import TraitScore
from service.rules.model import Model

__all__ = ["CheckRoll", "Effect", "ManifestationRoll", "PoolDie", "roll"]

SIDES = 6
ADVERSE_PENALTY = 20  # "He suffers a -20 to the check and falls unconscious" (S:L140)


class PoolDie(Model):
    """One d6 added to a check: what it was for, its face, and what it added after the injury
    penalty; an explosion names the die (index in `dice`) it exploded from."""

    role: DieRole
    natural: int
    contribution: int
    exploded_from: int | None = None


class Effect(StrEnum):
    """What a manifestation die did to the check."""

    NONE = "none"
    MULTIPLIED = "multiplied"
    ADVERSE_EPISODE = "adverse_episode"
    DOUBLED = "doubled"
    FLARE = "flare"
    DECLINED = "declined"


class ManifestationRoll(Model):
    """One manifestation acting on the check: its die (and explosions) and the effect."""

    manifestation: Manifestation
    step: Step
    dice: list[PoolDie]
    effect: Effect
    multiplier: int | None = Field(description="The factor the check was multiplied by.")
    gm_only: bool = Field(description="The Precognitive Flare die is the GM's secret (S:L148).")


class CheckRoll(Model):
    """A check as made: the trait used, every die, the base and the final result."""

    trait: TraitScore = Field(description="The trait added: the highest applicable (S:L136).")
    dice: list[PoolDie]
    penalty_per_die: int
    base: int = Field(description="Trait + condition modifier + dice, before manifestations.")
    manifestations: list[ManifestationRoll]
    result: int
    adverse_episode: bool
    unconscious: bool = Field(description="An adverse episode knocks the character out.")
    locked_out: list[Manifestation] = Field(
        description="Manifestations out of reach after this check, until 24 h of rest."
    )


def roll(roller: Roller, plan: Plan, dice: Dice, who: str = "") -> CheckRoll:
    """Make the check: roll the pool, then let each manifestation act in turn. The final
    result is multiplied by the manifestation die (S:L140) whatever it shows: with the injury
    penalty on that die (S:L201, S-A19(i)) a multiplier of 0 makes the result 0."""
    pool: list[PoolDie] = []
    for role in plan.pool:
        _chain(plan, dice, role, pool, who)
    base = plan.trait.score + plan.modifier + sum(d.contribution for d in pool)
    value, adverse, locked = base, False, tuple(roller.locked_out)
    acted: list[ManifestationRoll] = []
    for step, manifestation in plan.steps:
        if step is Step.FLARE:
            flare = _flare(plan, dice, who)
            acted.append(flare)
            if flare.effect is not Effect.FLARE:
                continue
        if step is Step.DOUBLE:
            acted.append(_double(plan, dice, who))
            value = plan.clamp(value) * 2 if acted[-1].effect is Effect.DOUBLED else value
            continue
        multiplied = _multiply(plan, dice, who, manifestation)
        acted.append(multiplied.roll)
        if multiplied.roll.effect is Effect.ADVERSE_EPISODE:
            # x1 then -20 (S-A08): the base is raised to 0 first as for any multiplier (S-A29).
            value, adverse = plan.clamp(value) - ADVERSE_PENALTY, True
            locked = tuple(plan.locked_after_episode(manifestation, locked))
        else:
            # A penalised multiplier may be 0 or less (S-A19(i)): it multiplies all the same.
            factor = multiplied.roll.multiplier
            assert factor is not None  # only an adverse episode has no multiplier
            value = plan.clamp(value) * factor + multiplied.added
    return CheckRoll(
        trait=plan.trait, dice=pool, penalty_per_die=plan.penalty, base=base,
        manifestations=acted, result=value, adverse_episode=adverse, unconscious=adverse,
        locked_out=sorted(locked, key=list(Manifestation).index),
    )  # fmt: skip


def _chain(plan: Plan, dice: Dice, role: DieRole, into: list[PoolDie], who: str) -> None:
    """Roll one die of the pool and, in combat, every die its 6s explode into (S:L191)."""
    natural = dice.roll(SIDES, who + role.value)
    into.append(PoolDie(role=role, natural=natural, contribution=plan.face(role, natural)))
    _explode(plan, dice, who, role, DieRole.EXPLOSION, into)


def _explode(
    plan: Plan, dice: Dice, who: str, first: DieRole, role: DieRole, into: list[PoolDie]
) -> None:
    """While the last die of `into` explodes, roll another of `role` (S:L191, S-A16)."""
    current = first
    for _ in range(plan.chain_limit):
        if not plan.explodes(current, into[-1].natural):
            return
        current = role
        natural = dice.roll(SIDES, who + role.value, exploded_from=len(dice.rolls) - 1)
        contribution = plan.face(role, natural)
        into.append(PoolDie(role=role, natural=natural, contribution=contribution,
                            exploded_from=len(into) - 1))  # fmt: skip


def _flare(plan: Plan, dice: Dice, who: str) -> ManifestationRoll:
    """The GM's secret d6: on 5-6 the character has a flare (S:L148)."""
    natural = dice.roll(SIDES, who + DieRole.FLARE_TRIGGER.value)
    fired = plan.face(DieRole.FLARE_TRIGGER, natural) >= 5
    effect = Effect.NONE
    if fired:
        effect = Effect.DECLINED if plan.declines_flare else Effect.FLARE
    return ManifestationRoll(
        manifestation=Manifestation.PRECOGNITIVE_FLARE, step=Step.FLARE,
        dice=[PoolDie(role=DieRole.FLARE_TRIGGER, natural=natural,
                      contribution=plan.face(DieRole.FLARE_TRIGGER, natural))],
        effect=effect, multiplier=None, gm_only=True,
    )  # fmt: skip


def _double(plan: Plan, dice: Dice, who: str) -> ManifestationRoll:
    """Deep Sight: on 5-6 the result of the check is doubled (S:L144-146)."""
    natural = dice.roll(SIDES, who + DieRole.DEEP_SIGHT_TRIGGER.value)
    doubled = plan.face(DieRole.DEEP_SIGHT_TRIGGER, natural) >= 5
    return ManifestationRoll(
        manifestation=Manifestation.DEEP_SIGHT, step=Step.DOUBLE,
        dice=[PoolDie(role=DieRole.DEEP_SIGHT_TRIGGER, natural=natural,
                      contribution=plan.face(DieRole.DEEP_SIGHT_TRIGGER, natural))],
        effect=Effect.DOUBLED if doubled else Effect.NONE, multiplier=2 if doubled else None,
        gm_only=False,
    )  # fmt: skip


class _Multiplied(Model):
    roll: ManifestationRoll
    added: int


def _multiply(plan: Plan, dice: Dice, who: str, manifestation: Manifestation) -> _Multiplied:
    """The manifestation die multiplies the check; a natural 1 is an adverse episode (S:L140).
    In combat it may explode (S-A16, `manifestation_die_explodes`), on the same trigger as
    any die: a penalised 6 no longer shows 6 under `explode_trigger=modified`."""
    role = DieRole.MANIFESTATION
    natural = dice.roll(SIDES, who + role.value)
    rolled = [PoolDie(role=role, natural=natural, contribution=plan.face(role, natural))]
    if natural == 1:
        return _Multiplied(
            roll=_manifested(manifestation, rolled, Effect.ADVERSE_EPISODE, None), added=0
        )
    mode = plan.options.manifestation_die_explodes if plan.combat else ManifestationDieExplodes.NONE
    multiplier, added = rolled[0].contribution, 0
    if mode is ManifestationDieExplodes.INTO_MULTIPLIER:
        _explode(plan, dice, who, role, role, rolled)
        multiplier = sum(d.contribution for d in rolled)
    elif mode is ManifestationDieExplodes.ADD_TO_CHECK:
        # The dice its 6 explodes into are the multiplier's own chain, so with
        # explode_chain=single that 6 rolls one more die and no further (S-A16).
        _explode(plan, dice, who, role, DieRole.EXPLOSION, rolled)
        added = sum(d.contribution for d in rolled[1:])
    return _Multiplied(
        roll=_manifested(manifestation, rolled, Effect.MULTIPLIED, multiplier), added=added
    )


def _manifested(
    manifestation: Manifestation, rolled: list[PoolDie], effect: Effect, multiplier: int | None
) -> ManifestationRoll:
    return ManifestationRoll(
        manifestation=manifestation, step=Step.MULTIPLY, dice=rolled, effect=effect,
        multiplier=multiplier, gm_only=False,
    )  # fmt: skip
