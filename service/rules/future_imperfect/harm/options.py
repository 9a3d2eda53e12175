"""The options of Future Imperfect harm: one per ambiguity of the register (catalogue 3.12,
A-54 to A-69) that changes a result here, defaulting to its recommendation."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.combat.options import ExplosiveBands
from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.model import option

__all__ = [
    "BleedAggregation",
    "CtDeath",
    "Deflected",
    "HarmOptions",
    "HitRegion",
    "NonlethalCt",
    "PenetrationModel",
    "StunBasis",
    "StunTrigger",
    "UnarmedMode",
]


class HitRegion(StrEnum):
    """The regions of the d20 chart (FI:L431-437)."""

    LEGS = "legs"
    LOWER_TORSO = "lower_torso"
    VITALS = "vitals"
    ARMS = "arms"
    UPPER_TORSO = "upper_torso"
    HEAD = "head"


class PenetrationModel(StrEnum):
    PN_REDUCES = "pn_reduces"
    FLAT_AV = "flat_av"


class Deflected(StrEnum):
    NO_DAMAGE = "no_damage"
    REDUCED_BY_AV = "reduced_by_av"


class UnarmedMode(StrEnum):
    STRENGTH_TOTAL_SHIFTED = "strength_total_shifted"
    STRENGTH_HIGHEST_SHIFTED = "strength_highest_shifted"
    FIXED_1_1 = "fixed_1_1"


class NonlethalCt(StrEnum):
    REPLACE = "replace"
    ADD_D6 = "add_d6"


class StunTrigger(StrEnum):
    WOUND = "wound"
    DAMAGE = "damage"


class StunBasis(StrEnum):
    LOCATION_LEVEL = "location_level"
    LEVELS_INFLICTED = "levels_inflicted"
    HIGHEST = "highest"


class CtDeath(StrEnum):
    ANY_SOURCE = "any_source"
    BLEEDING_ONLY = "bleeding_only"
    NONE = "none"


class BleedAggregation(StrEnum):
    MAX = "max"
    SUM = "sum"


#: Frontal fire at a prone target: what the card's "prone attribute" (FI:L454) is taken to
#: mark in the d20 engine, which has none (A-55).
PRONE_EXPOSED = (HitRegion.HEAD, HitRegion.ARMS, HitRegion.UPPER_TORSO)


class HarmOptions(CoreOptions):
    """Readings of the chapter for hits, armor, damage, wounds and healing; every default is
    the catalogue's."""

    prone_exposed_regions: Annotated[tuple[HitRegion, ...], Field(max_length=6)] = option(
        PRONE_EXPOSED,
        ambiguity="A-55",
        description="The regions a frontal shot at a prone target still hits: the d20 chart "
        "has no 'prone attribute' (FI:L454); head, arms and upper torso is invented, flagged.",
    )
    explosive_bands: ExplosiveBands = option(
        ExplosiveBands.CEIL,
        ambiguity="A-46",
        description="Columns an explosion's damage loses with distance, as combat/explosives: "
        "ceil(d/10) - 1 (10 m full, 20 m one left), or floor(d/10) (10 m already one left); "
        "FI:L309 puts 10 and 20 m in two bands each.",
    )
    penetration_model: PenetrationModel = option(
        PenetrationModel.PN_REDUCES,
        ambiguity="A-56",
        description="Each point of PN over the AV takes a column off the armor's shift "
        "(FI:L466, FI:L485), or the armor shifts its full AV whatever the PN (the example of "
        "FI:L493: PN 2 against AV 1 loses a column).",
    )
    deflected: Deflected = option(
        Deflected.NO_DAMAGE,
        ambiguity="A-57",
        description="A PN under the AV deflects the shot (FI:L466): no damage, or the "
        "sentence after read as the damage still reduced by the AV.",
    )
    armor_shifts_strength: bool = option(
        False,
        ambiguity="A-58",
        description="Armor stops Strength only when it stops the weapon (FI:L495); on, it "
        "also shifts the Strength column as it shifts the weapon's.",
    )
    unarmed_mode: UnarmedMode = option(
        UnarmedMode.STRENGTH_TOTAL_SHIFTED,
        ambiguity="A-59",
        description="Unarmed damage (FI:L497): the Strength pool shifted left is the damage "
        "code, totalled; only its highest die; or a fixed 1(1).",
    )
    vitals_bonus_cards: Annotated[int, Field(ge=0, le=2)] = option(
        1,
        ambiguity="A-60",
        description="Extra damage cards for a vitals hit (FI:L512), added to the weapon's "
        "draw; never for explosives (FI:L311).",
    )
    head_bonus_cards: Annotated[int, Field(ge=0, le=3)] = option(
        2,
        ambiguity="A-60",
        description="Extra damage cards for a head hit (FI:L512).",
    )
    wound_cap: Annotated[int, Field(ge=5, le=6)] = option(
        5,
        ambiguity="A-62",
        description="Wound levels a location holds: five (FI:L526), the rest lost; 6 keeps "
        "the 'Maimed' row (TN 13) of FI:L589 and FI:L619 as a sixth level.",
    )
    serious_wound_penalty: Annotated[int, Field(ge=-4, le=-3)] = option(
        -4,
        ambiguity="A-63",
        description="The penalty of a Serious wound: the table's -4 (FI:L570), or the -3 of "
        "the example (FI:L573), a Deadlands leftover.",
    )
    stun_trigger: StunTrigger = option(
        StunTrigger.WOUND,
        ambiguity="A-64",
        description="A stun check follows a wound (FI:L577), or any damage (FI:L575), a "
        "hit that wounds nothing checking at TN 3.",
    )
    stun_tn_basis: StunBasis = option(
        StunBasis.LOCATION_LEVEL,
        ambiguity="A-64",
        description="The wound level whose Stun TN is used: the struck location's after the "
        "hit, the levels this hit inflicted, or the highest wound overall.",
    )
    ct_on_armor_stop: bool = option(
        False,
        ambiguity="A-65",
        description="A hit armor or cover stops entirely still costs 1d6 CT (FI:L591 reads "
        "of damage that got through: off).",
    )
    ct_death_rule: CtDeath = option(
        CtDeath.ANY_SOURCE,
        ambiguity="A-66",
        description="Death at CT at or below minus the starting CT: from any loss (extending "
        "FI:L601 to 'risk death', FI:L593), from bleeding only (literal), or never.",
    )
    bleed_aggregation: BleedAggregation = option(
        BleedAggregation.MAX,
        ambiguity="A-67",
        description="Several bleeding locations: the worst wound's rate (FI:L601 speaks of "
        "the character), or the sum over locations.",
    )
    first_aid_max_level: Annotated[int, Field(ge=1, le=3)] = option(
        2,
        ambiguity="A-68",
        description="The highest wound level first aid may treat, which FI:L609 does not "
        "give: Light.",
    )
    nonlethal_ct_mode: NonlethalCt = option(
        NonlethalCt.REPLACE,
        ambiguity="A-69",
        description="Nonlethal CT (FI:L546): 3 a would-be level instead of the 1d6 a level "
        "(the example's exactly 6 Wind, FI:L548), or both.",
    )
    nonlethal_unwounding_d6: bool = option(
        True,
        ambiguity="A-69",
        description="A nonlethal hit that would wound nothing still costs 1d6 CT, as any "
        "hit does (FI:L591); off, nothing.",
    )
