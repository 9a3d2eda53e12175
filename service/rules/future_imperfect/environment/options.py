"""The options of the Future Imperfect environment: one per ambiguity of the register
(catalogue 3.12, A-11 to A-24) that changes a result here, defaulting to its recommendation."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.model import option

__all__ = [
    "ChokeScope",
    "DarknessScope",
    "Draws",
    "EnvironmentOptions",
    "FallingMode",
    "HeatStroke",
    "LossKind",
    "Placement",
    "Rounding",
    "UnconsciousSmoke",
    "Unskilled",
    "WoundSpread",
]


class FallingMode(StrEnum):
    SINGLE_DRAW = "single_draw"
    PER_SEGMENT = "per_segment"


class WoundSpread(StrEnum):
    PER_WOUND = "per_wound"
    SINGLE_LOCATION = "single_location"


class Unskilled(StrEnum):
    DEFAULT_HALVED = "default_halved"
    TRAIT_UNHALVED = "trait_unhalved"


class UnconsciousSmoke(StrEnum):
    KEEP_ROLLING = "keep_rolling"
    AUTOMATIC_FAILURE = "automatic_failure"


class Draws(StrEnum):
    PER_AREA = "per_area"
    SHARED = "shared"


class LossKind(StrEnum):
    CT = "ct"
    DAMAGE = "damage"


class Placement(StrEnum):
    RANDOM = "random"
    TORSO = "torso"


class ChokeScope(StrEnum):
    ACTIVE_SKILLED = "active_skilled"
    ALL = "all"


class Rounding(StrEnum):
    FRACTIONAL = "fractional"
    FLOOR = "floor"


class HeatStroke(StrEnum):
    BELOW_ZERO = "lt0"
    AT_OR_BELOW_ZERO = "le0"


class DarknessScope(StrEnum):
    ACUITY_ONLY = "acuity_only"
    ACUITY_AND_TARGETS = "acuity_and_targets"


class EnvironmentOptions(CoreOptions):
    """Readings of the chapter for its hazards; every default is the catalogue's."""

    falling_mode: FallingMode = option(
        FallingMode.SINGLE_DRAW,
        ambiguity="A-11",
        description="One draw that grows with the fall (the shift sentence of FI:L27 only "
        "reads this way), or 2(1) for each 5 m, summed.",
    )
    min_fall_m: Annotated[int, Field(ge=0, le=5)] = option(
        5,
        ambiguity="A-11",
        description="A fall shorter than this does nothing; from it to 5 m, 2(1) ('a fall of "
        "a few meters', FI:L27); 0: any fall at all.",
    )
    falling_wound_distribution: WoundSpread = option(
        WoundSpread.PER_WOUND,
        ambiguity="A-13",
        description="'Apply the wounds randomly' (FI:L27): each wound level to its own d20 "
        "location, or all to one.",
    )
    unskilled_mode: Unskilled = option(
        Unskilled.DEFAULT_HALVED,
        ambiguity="A-15",
        description="A swimmer without the skill rolls the trait as a default, halved "
        "(FI:L247), or the trait unhalved.",
    )
    calm_water_tn: Annotated[int, Field(ge=0, le=20)] = option(
        3,
        ambiguity="A-15",
        description="The TN of calm water over the head of a non-swimmer, which FI:L17 does "
        "not give: Easy (3).",
    )
    smoke_unconscious_mode: UnconsciousSmoke = option(
        UnconsciousSmoke.KEEP_ROLLING,
        ambiguity="A-16",
        description="An unconscious character in smoke 'continues to lose CT in this way' "
        "(FI:L33): the roll goes on each round, or fails with the whole TN lost.",
    )
    larger_fire_draws: Draws = option(
        Draws.PER_AREA,
        ambiguity="A-17",
        description="A larger fire's 2(5) (FI:L35): one draw per affected area, or one draw "
        "applied to each.",
    )
    consumed_draws: Draws = option(
        Draws.SHARED,
        ambiguity="A-17",
        description="A character consumed takes 3(5) 'with the wounds applied to every area "
        "at once' (FI:L35): one draw for all six, or one per area.",
    )
    vacuum_loss_kind: LossKind = option(
        LossKind.CT,
        ambiguity="A-18",
        description="'Damage dealt is the difference' in vacuum (FI:L39): CT as in smoke and "
        "drowning, or damage turned into wounds by Size.",
    )
    pressure_damage_location: Placement = option(
        Placement.RANDOM,
        ambiguity="A-18",
        description="Where the 1(3) of vacuum pressure (FI:L39) lands: a d20 location or "
        "the torso.",
    )
    choke_single_failure_scope: ChokeScope = option(
        ChokeScope.ACTIVE_SKILLED,
        ambiguity="A-19",
        description="'A single failure causes the character to fall unconscious' (FI:L43): "
        "only under a skilled choke, where the sentence stands, or any choking.",
    )
    breath_rounding: Rounding = option(
        Rounding.FRACTIONAL,
        ambiguity="A-20",
        description="Half the CT taken comes off the turns of held breath (FI:L47): kept as "
        "halves, or each half rounded down.",
    )
    heat_stroke_threshold: HeatStroke = option(
        HeatStroke.BELOW_ZERO,
        ambiguity="A-22",
        description="Heat stroke comes 'below zero CT' (FI:L55): strictly below, or at zero "
        "too, where a character is already Concussed (FI:L593).",
    )
    darkness_scope: DarknessScope = option(
        DarknessScope.ACUITY_ONLY,
        ambiguity="A-24",
        description="Reduced vision shifts Acuity tasks (FI:L67); whether attacks on targets "
        "over 10 m (Dexterity tasks) shift too.",
    )
