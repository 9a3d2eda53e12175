"""The options of 4SIGHT: one per ambiguity of the register (catalogue A3.34, S-A01..S-A33)
that changes a result, each naming the register entry it answers and defaulting to the
catalogue's recommendation."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import Model, option

__all__ = [
    "CharacterOptions",
    "CheckOptions",
    "ClampBase",
    "DieFloor",
    "DieRole",
    "ExplodeChain",
    "ExplodeTrigger",
    "HordeAttackMode",
    "InjuryStacking",
    "LockoutScope",
    "ManifestationDieExplodes",
    "ManifestationStacking",
    "OpposedTieWinner",
    "TraitBudgetMode",
]


class DieRole(StrEnum):
    """What a d6 is rolled for; it names the die in the roll log and in `penalty_applies_to`."""

    BASE = "base"
    EXPERTISE = "expertise"
    OMEGA = "omega"
    EXPLOSION = "explosion"
    MANIFESTATION = "manifestation"
    DEEP_SIGHT_TRIGGER = "deep_sight_trigger"
    FLARE_TRIGGER = "flare_trigger"


class ExplodeChain(StrEnum):
    UNBOUNDED = "unbounded"
    SINGLE = "single"


class ExplodeTrigger(StrEnum):
    NATURAL = "natural"
    MODIFIED = "modified"


class ManifestationDieExplodes(StrEnum):
    NONE = "none"
    INTO_MULTIPLIER = "into_multiplier"
    ADD_TO_CHECK = "add_to_check"


class DieFloor(StrEnum):
    NONE = "none"
    ZERO = "0"
    ONE = "1"


class InjuryStacking(StrEnum):
    WORST = "worst"
    SUM = "sum"


class OpposedTieWinner(StrEnum):
    AGGRESSOR = "aggressor"
    PC = "pc"


class ManifestationStacking(StrEnum):
    SINGLE = "single"
    CONTROLLED_THEN_DEEP = "controlled_then_deep"
    DEEP_THEN_CONTROLLED = "deep_then_controlled"


class LockoutScope(StrEnum):
    ALL = "all"
    USED = "used"


class ClampBase(StrEnum):
    NONE = "none"
    ZERO = "0"


class HordeAttackMode(StrEnum):
    NARRATIVE = "narrative"
    DEFENCE_VS_TN = "defence_vs_tn"


class TraitBudgetMode(StrEnum):
    EXACT = "exact"
    AT_MOST = "at_most"


_PENALISED = (DieRole.BASE, DieRole.EXPERTISE, DieRole.OMEGA, DieRole.EXPLOSION)


class CheckOptions(Model):
    """Readings of the 4SIGHT text for checks and combat; every default is the catalogue's."""

    explode_chain: ExplodeChain = option(
        ExplodeChain.UNBOUNDED,
        ambiguity="S-A16",
        description="A combat 6 rolls another die as long as 6s come ('any time'), or only once.",
    )
    explode_trigger: ExplodeTrigger = option(
        ExplodeTrigger.NATURAL,
        ambiguity="S-A16",
        description="A die explodes on a natural 6, or only when it still shows 6 after "
        "the injury penalty.",
    )
    manifestation_die_explodes: ManifestationDieExplodes = option(
        ManifestationDieExplodes.NONE,
        ambiguity="S-A16",
        description="In combat the multiplier d6 does not explode, explodes into a "
        "larger multiplier, or on a 6 also adds an exploding die to the multiplied check; "
        "either way on the same trigger as any die (explode_trigger).",
    )
    # A tuple, so the default is hashable and pydantic shares it instead of deep-copying the
    # whole options model into every request (90% of a combat request's validation).
    penalty_applies_to: Annotated[tuple[DieRole, ...], Field(max_length=7)] = option(
        tuple(_PENALISED),
        ambiguity="S-A19",
        description="The dice the injury penalty is subtracted from (part i).",
    )
    die_floor: DieFloor = option(
        DieFloor.NONE,
        ambiguity="S-A19",
        description="The least a penalised die can contribute (none = literal; part ii).",
    )
    injury_stacking: InjuryStacking = option(
        InjuryStacking.WORST,
        ambiguity="S-A19",
        description="The penalty of the worst injury, or the sum of all (part iii).",
    )
    grievous_check_includes_new_penalty: bool = option(
        False,
        ambiguity="S-A20",
        description="Whether the grievous injury's own -4 applies to the Constitution "
        "check it triggers.",
    )
    opposed_tie_winner: OpposedTieWinner = option(
        OpposedTieWinner.AGGRESSOR,
        ambiguity="S-A13",
        description="A tie goes to the aggressor, or to the player character.",
    )
    manifestation_stacking: ManifestationStacking = option(
        ManifestationStacking.SINGLE,
        ambiguity="S-A10",
        description="One manifestation per check, or all of them in the given order.",
    )
    adverse_forces_failure: bool = option(
        False,
        ambiguity="S-A08",
        description="An adverse episode is -20 to the check (false), or a failure.",
    )
    flare_forced: bool = option(
        True,
        ambiguity="S-A12",
        description="A precognitive flare forces the manifestation roll (true), or the "
        "player may decline it with `decline_flare`.",
    )
    lockout_scope: LockoutScope = option(
        LockoutScope.ALL,
        ambiguity="S-A27",
        description="An adverse episode locks out every manifestation, or the one used.",
    )
    clamp_base_before_multiplier: ClampBase = option(
        ClampBase.NONE,
        ambiguity="S-A29",
        description="A negative check is multiplied as it is, or raised to 0 first (an "
        "adverse episode too: x1, then -20, S-A08).",
    )
    omega_die_stacks: bool = option(
        True,
        ambiguity="S-A25",
        description="The Omega bonus d6 adds to expertise dice (true), or only when "
        "no expertise applies.",
    )
    horde_attack_mode: HordeAttackMode = option(
        HordeAttackMode.NARRATIVE,
        ambiguity="S-A24",
        description="The GM narrates a horde's harm, or a failed defence against the "
        "horde's TN inflicts the injury of the margin.",
    )


class CharacterOptions(Model):
    """Readings of the 4SIGHT text for characters; every default is the catalogue's."""

    trait_budget_mode: TraitBudgetMode = option(
        TraitBudgetMode.EXACT,
        ambiguity="S-A02",
        description="All six trait points must be spent, or at most six.",
    )
    trait_cap: Annotated[int, Field(ge=1, le=100)] | None = option(
        None, ambiguity="S-A03", description="The highest trait score allowed (null = no cap)."
    )
    allow_duplicate_expertise: bool = option(
        False, ambiguity="S-A04", description="Whether the same pick may be taken twice."
    )
    wild_card_requires_gm_approval: bool = option(
        True, ambiguity="S-A05", description="A wild-card specialty needs the GM's approval."
    )
    trait_step_cost: Annotated[int, Field(ge=0, le=100)] = option(
        2, ambiguity="S-A26", description="Advancement points for +1 to one trait (S:L239)."
    )
    expertise_cost: Annotated[int, Field(ge=0, le=100)] = option(
        3, ambiguity="S-A26", description="Points for one new affinity or specialty (S:L241)."
    )
    manifestation_cost: Annotated[int, Field(ge=0, le=100)] = option(
        10, ambiguity="S-A26", description="Points for one more manifestation (S:L243)."
    )
