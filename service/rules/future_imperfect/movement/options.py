"""The options of Future Imperfect movement and load: one per ambiguity of the register
(catalogue 3.12, A-03 and A-26 to A-30) that changes a result here, defaulting to its
recommendation."""

from enum import StrEnum

from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.model import option

__all__ = ["GravityScales", "MovementOptions", "RateRounding", "SwimmingRow", "TraitValue"]


class TraitValue(StrEnum):
    DIE_SIDES = "die_sides"
    DICE_COUNT = "dice_count"


class SwimmingRow(StrEnum):
    LIKE_CLIMBING = "like_climbing"
    BLANK = "blank"


class RateRounding(StrEnum):
    FLOOR = "floor"
    NONE = "none"


class GravityScales(StrEnum):
    WEIGHT = "weight"
    THRESHOLDS = "thresholds"


class MovementOptions(CoreOptions):
    """Readings of the chapter for movement and load; every default is the catalogue's."""

    trait_value_basis: TraitValue = option(
        TraitValue.DIE_SIDES,
        ambiguity="A-03",
        description="A trait's 'value' for Rate and loads: its die (Dexterity 8 moves 16 m "
        "running, FI:L106; Strength 6 carries 18 kg, FI:L116), or its dice, the only reading "
        "under which the gravity example's classes come out (E-05).",
    )
    swimming_row: SwimmingRow = option(
        SwimmingRow.LIKE_CLIMBING,
        ambiguity="A-26",
        description="The Movement Table's swimming row is blank past its Rate: read it like "
        "climbing's (d2 step up, 1 CT, no cap), or blank, so a swimmer's step-up die must "
        "be given.",
    )
    step_up_can_exceed_max: bool = option(
        True,
        ambiguity="A-27",
        description="'You can still step up, however' (FI:L85): a step up may take a climber "
        "or swimmer past the table's Max.",
    )
    rate_rounding: RateRounding = option(
        RateRounding.FLOOR,
        ambiguity="A-28",
        description="A loaded Rate in whole meters, rounded down, or as the fraction it is.",
    )
    lift_open_ended: bool = option(
        False,
        ambiguity="A-29",
        description="A lift is a test without asterisks (FI:L131); the designer's note lets "
        "a crew make it an open-ended check (FI:L133).",
    )
    gravity_scales: GravityScales = option(
        GravityScales.WEIGHT,
        ambiguity="A-30",
        description="Gravity multiplies the weight carried, as the example does (47 kg at "
        "0.17 G feels like 8, FI:L139), or, as FI:L137 literally says, the load and lift.",
    )
