"""The dice of a check and what each one adds (S:L32-36, S:L136-148, S:L191, S:L201, S:L229).

A check rolls a pool of d6s (the base die, one or two for expertise, the Omega die) whose sum
plus the trait and the GM's condition modifier is the base; in combat every 6 explodes. Then
the manifestations act on the base in order (`Plan.steps`). Both the roller and the odds read
the same `Plan`, so a die means the same thing in a result and in a probability.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_sight.expertise import Expertise, expertise_dice
from service.rules.four_sight.injuries import Injury, penalty_of
from service.rules.four_sight.manifestations import AUTOMATIC, Manifestation
from service.rules.four_sight.options import (
    CheckOptions,
    ClampBase,
    DieFloor,
    DieRole,
    ExplodeChain,
    ExplodeTrigger,
    ManifestationStacking,
)
from service.rules.four_sight.traits import TraitScore, select_trait
from service.rules.model import InputError, Model

__all__ = ["MAX_CHAIN", "Plan", "Roller", "Step", "check_usable", "plan"]

# A combat die keeps exploding while it shows 6 (S:L191); a real chain stops after this many
# extra dice (probability 6**-50), so no request runs unbounded.
MAX_CHAIN = 50
MAX_MODIFIER = 100


class Roller(Model):
    """One character making a check: what the GM ruled applicable (S:L134) and their state."""

    traits: Annotated[tuple[TraitScore, ...], Field(min_length=1, max_length=6)] = Field(
        description="The traits the GM ruled applicable; the higher score is added (S:L136)."
    )
    expertise: Expertise = Field(
        default=Expertise.NONE,
        description="The best applicable expertise: affinity +1d6, specialty +2d6 (S:L138).",
    )
    condition_modifier: Annotated[int, Field(ge=-MAX_MODIFIER, le=MAX_MODIFIER)] = Field(
        default=0, description="The GM's modifier for conditions (S:L34), before multiplying."
    )
    injuries: Annotated[tuple[Injury, ...], Field(max_length=16)] = Field(
        default=(), description="Injuries sustained: a penalty on every d6 (S:L201-207)."
    )
    omega_physical_bonus: bool = Field(
        default=False,
        description="An Omega Section operative on a physical check: +1d6 (S:L229).",
    )
    manifestations: Annotated[tuple[Manifestation, ...], Field(max_length=8)] = Field(
        default=(), description="The manifestations the character has (S:L87-103)."
    )
    use_manifestation: Manifestation | None = Field(
        default=None,
        description="The manifestation the GM ruled applicable and the player declared before "
        "rolling (S:L140); also picks among Deep Sight and Precognitive Flare when both are "
        "held and only one may act.",
    )
    locked_out: Annotated[tuple[Manifestation, ...], Field(max_length=8)] = Field(
        default=(),
        description="Manifestations lost after an adverse episode, until 24 h of rest (S:L140).",
    )
    decline_flare: bool = Field(
        default=False, description="Decline a precognitive flare (only if flare_forced=false)."
    )


class Step(StrEnum):
    """How a manifestation acts on the base of a check."""

    MULTIPLY = "multiply"  # a d6 multiplier, 1 = adverse episode (S:L140)
    FLARE = "flare"  # the GM's secret d6; 5-6 forces a multiplier roll (S:L148)
    DOUBLE = "double"  # Deep Sight: a d6 of 5-6 doubles (S:L144-146)


@dataclass(frozen=True)
class Plan:
    """A check ready to roll or to enumerate."""

    trait: TraitScore
    modifier: int
    pool: tuple[DieRole, ...]
    penalty: int
    steps: tuple[tuple[Step, Manifestation], ...]
    held: tuple[Manifestation, ...]
    combat: bool
    options: CheckOptions
    declines_flare: bool

    @property
    def chain_limit(self) -> int:
        return 1 if self.options.explode_chain is ExplodeChain.SINGLE else MAX_CHAIN

    def face(self, role: DieRole, natural: int) -> int:
        """What a die adds: its face less the injury penalty if it applies to this die
        (S:L201, S-A19(i)), no lower than the floor (S-A19(ii))."""
        if role not in self.options.penalty_applies_to:
            return natural
        value = natural - self.penalty
        floor = self.options.die_floor
        return value if floor is DieFloor.NONE else max(value, int(floor.value))

    def explodes(self, role: DieRole, natural: int) -> bool:
        """In combat a 6 rolls another die (S:L191): the natural face, or the penalised one
        (S-A16)."""
        if not self.combat:
            return False
        if self.options.explode_trigger is ExplodeTrigger.MODIFIED:
            return self.face(role, natural) >= 6
        return natural == 6

    def clamp(self, value: int) -> int:
        """S-A29: a negative check is multiplied as it is, or raised to 0 first; an adverse
        episode multiplies by 1 before its -20 (S-A08), so it is raised to 0 too."""
        zero = self.options.clamp_base_before_multiplier is ClampBase.ZERO
        return max(value, 0) if zero else value

    def locked_after_episode(
        self, used: Manifestation, locked: tuple[Manifestation, ...]
    ) -> list[Manifestation]:
        """What an adverse episode locks out until 24 h of rest (S:L140, S-A27)."""
        lost = self.held if self.options.lockout_scope.value == "all" else (used,)
        return sorted(set(locked) | set(lost), key=list(Manifestation).index)


def plan(roller: Roller, options: CheckOptions, combat: bool, *loc: str | int) -> Plan:
    """Check the roller against the rules and lay out its dice; a rule it breaks is reported
    under `loc`, the roller's place in the request."""
    try:
        return _plan(roller, options, combat)
    except InputError as error:
        raise InputError((*loc, *error.loc), error.message) from None


def _plan(roller: Roller, options: CheckOptions, combat: bool) -> Plan:
    _check_manifestations(roller, options)
    expertise = expertise_dice(roller.expertise)
    omega = 1 if roller.omega_physical_bonus else 0
    if not options.omega_die_stacks and expertise:
        omega = 0  # S-A25: the Omega die only when no expertise applies
    pool = (DieRole.BASE,) + (DieRole.EXPERTISE,) * expertise + (DieRole.OMEGA,) * omega
    return Plan(
        trait=select_trait(roller.traits),
        modifier=roller.condition_modifier,
        pool=pool,
        penalty=penalty_of(roller.injuries, options.injury_stacking),
        steps=_steps(roller, options),
        held=tuple(roller.manifestations),
        combat=combat,
        options=options,
        declines_flare=roller.decline_flare,
    )


def _check_manifestations(roller: Roller, options: CheckOptions) -> None:
    use = roller.use_manifestation
    if roller.omega_physical_bonus and roller.manifestations:
        raise InputError(
            ("omega_physical_bonus",),
            "Omega Section operatives have no 4SIGHT manifestations (S:L229)",
        )
    if use is not None:
        check_usable(use, roller, "use_manifestation")
    if roller.decline_flare and options.flare_forced:
        raise InputError(
            ("decline_flare",), "a precognitive flare cannot be declined while flare_forced is true"
        )


def check_usable(use: Manifestation, roller: Roller, field: str) -> None:
    """Refuse a manifestation named in `field` that the character does not hold, or that an
    adverse episode locked out (S:L140)."""
    if use not in roller.manifestations:
        raise InputError((field,), f"{use} is not among the character's manifestations")
    if use in roller.locked_out:
        raise InputError(
            (field,),
            f"{use} is locked out after an adverse episode until 24 hours of rest (S:L140)",
        )


def _steps(roller: Roller, options: CheckOptions) -> tuple[tuple[Step, Manifestation], ...]:
    """The manifestations that act on this check, in order (S-A10)."""
    use = roller.use_manifestation
    automatic: list[Manifestation] = [
        m
        for m in (Manifestation.PRECOGNITIVE_FLARE, Manifestation.DEEP_SIGHT)
        if m in roller.manifestations and m not in roller.locked_out
    ]
    declared: list[Manifestation] = [] if use is None or use in AUTOMATIC else [use]
    stacking = options.manifestation_stacking
    if stacking is ManifestationStacking.SINGLE:
        if declared:
            chosen = declared
        elif use is not None:
            chosen = [use] if use in automatic else []
        elif len(automatic) > 1:
            raise InputError(
                ("use_manifestation",),
                "the character has both Deep Sight and Precognitive Flare; with "
                "manifestation_stacking=single name the one that acts on this check",
            )
        else:
            chosen = automatic
    else:
        deep: list[Manifestation] = [m for m in automatic if m is Manifestation.DEEP_SIGHT]
        controlled = declared + [m for m in automatic if m is not Manifestation.DEEP_SIGHT]
        before_deep = stacking is ManifestationStacking.CONTROLLED_THEN_DEEP
        chosen = controlled + deep if before_deep else deep + controlled
    return tuple((_STEP[m], m) for m in chosen)


_STEP = {Manifestation.DEEP_SIGHT: Step.DOUBLE, Manifestation.PRECOGNITIVE_FLARE: Step.FLARE}
_STEP.update({m: Step.MULTIPLY for m in Manifestation if m not in AUTOMATIC})
