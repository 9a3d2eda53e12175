"""The options of FORESIGHT resolution: one per ambiguity of the register (catalogue part 1,
section 6) that changes a result, each naming the register entry it answers and defaulting
to the catalogue's recommendation."""

from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field

from service.rules.model import Model, option

__all__ = [
    "BlockingMode",
    "BlockingOptions",
    "FamiliarityOptions",
    "GravityBandEdges",
    "MaxLtf",
    "OpposedOptions",
    "QrThresholds",
    "QualityOptions",
    "ResolutionOptions",
    "ScRounding",
    "TiePolicy",
    "TieScore",
]


class ScRounding(StrEnum):
    NEAREST_HALF_UP = "nearest_half_up"
    NONE = "none"


class QrThresholds(StrEnum):
    EXACT = "exact"
    ROUNDED = "rounded"


class TiePolicy(StrEnum):
    REPORT = "report"
    REROLL = "reroll"
    SCORE = "score"


class TieScore(StrEnum):
    RAW = "raw"
    EFFECTIVE = "effective"
    SC = "sc"


class BlockingMode(StrEnum):
    TABLE = "table"
    TEXT_FORMULA = "text_formula"


class GravityBandEdges(StrEnum):
    UPPER_BAND = "upper_band"
    LOWER_BAND = "lower_band"


MaxLtf = Annotated[int, Field(ge=1, le=8)] | None


def _max_ltf() -> Any:
    return option(
        None,
        ambiguity="AMB-53",
        description=(
            "How many long-term familiarities may add +1 to one task; null = all that the GM "
            "marks relevant ('In general, only one ... should apply', F:L2069)."
        ),
    )


class QualityOptions(Model):
    """How a roll is read against a success chance."""

    qr_thresholds: QrThresholds = option(
        QrThresholds.EXACT,
        ambiguity="AMB-03",
        description=(
            "Compare the roll with SC/10, SC/5 and SC/2 exactly (the book quotes 47.5 "
            "and 9.5, F:L1384-1390) or with each threshold rounded half up."
        ),
    )


class ResolutionOptions(QualityOptions):
    """Readings of the resolution rule where the book is ambiguous; every default is the
    catalogue's."""

    sc_rounding: ScRounding = option(
        ScRounding.NEAREST_HALF_UP,
        ambiguity="AMB-02",
        description="Round SC half up (13 x 0.25 = 3.25 -> 3, F:L268) or keep it exact.",
    )
    twenty_plus_in_sum: bool = option(
        True,
        ambiguity="AMB-05",
        description=(
            "The 20+n bonus joins the modifier sum before clamping (F:L233, F:L254); "
            "false applies it to the clamped ease factor."
        ),
    )
    bef_zero_is_impossible: bool = option(
        False,
        ambiguity="AMB-06",
        description=(
            "A BEF of 0 stays at EF 0 (SC 0, impossible) whatever the modifiers; with "
            "roll_impossible_tasks it is rolled against SC 0: 90% QR7, 10% QR10."
        ),
    )
    roll_impossible_tasks: bool = option(
        False,
        ambiguity="AMB-07",
        description=(
            "Roll a task at ease factor 0 (against SC 0: 90% QR7, 10% QR10) instead of "
            "reporting it impossible (QR7) without a roll (F:L296, F:L1352). An SC of 0 at a "
            "higher ease factor (score 0, or 1 x 0.25 rounded) is rolled either way."
        ),
    )
    attribute_bef: Annotated[int, Field(ge=0, le=15)] = option(
        7,
        ambiguity="AMB-01",
        description=(
            "The BEF of an attribute used as a skill. The book never states it; its "
            "combat examples compute SC = 7 x PC 12 = 84 and 7 x DX 9 = 63 (F:L3304, F:L3314)."
        ),
    )
    max_ltf_per_task: MaxLtf = _max_ltf()


class OpposedOptions(ResolutionOptions):
    """Resolution options and how two QRs are compared (F:L1485-1501, AMB-08)."""

    failures_tie: bool = option(
        False,
        ambiguity="AMB-08",
        description="Any two failures (QR7, QR10) tie; by default QR7 beats QR10.",
    )
    tie_policy: TiePolicy = option(
        TiePolicy.REPORT,
        ambiguity="AMB-08",
        description=(
            "A tie is the answer ('reply hazy, try again later', F:L1487), is rerolled, or is "
            "broken by the ability scores (rerolled when they are equal too). Rerolling needs "
            "both sides as tasks: a side given as a QR is refused (422) under reroll, and "
            "under score when the scores are equal."
        ),
    )
    tie_score: TieScore = option(
        TieScore.RAW,
        ambiguity="AMB-08",
        description=(
            "Which score breaks a tie: the raw score, the effective score (as rolled: at most "
            "20, so 23 and 29 are both 20 and tie, F:L233) or the SC."
        ),
    )


class BlockingOptions(ResolutionOptions):
    """Resolution options and how a defence blocks an attack (F:L1503-1521)."""

    blocking_mode: BlockingMode = option(
        BlockingMode.TABLE,
        ambiguity="AMB-04",
        description=(
            "The book's blocking table, literally, or its text: an equal or better "
            "defence negates, otherwise the attack drops (5 - defending QR) notches."
        ),
    )


class FamiliarityOptions(Model):
    """Readings of the familiarity rules (F:L1304-1336, F:L2043-2116)."""

    gravity_band_edges: GravityBandEdges = option(
        GravityBandEdges.UPPER_BAND,
        ambiguity="AMB-22",
        description=(
            "A gravity on a shared band edge (0.1, 0.5, 1.1 g) belongs to the band "
            "above (bands [low, high)) or below; 2.0 g is HY either way, EX being '>2.0g'."
        ),
    )
    max_ltf_per_task: MaxLtf = _max_ltf()
