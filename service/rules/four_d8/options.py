"""The options of the 4D8 system: one per ambiguity of the register (catalogue B3.11) that
changes a result, each defaulting to the catalogue's recommendation."""

from enum import StrEnum

from pydantic import Field

from service.rules.model import Model

__all__ = [
    "BonusDieSelection",
    "BonusRollComboMode",
    "ComboPrecedence",
    "EffectTextVersion",
    "EnergyCap",
    "FourD8Options",
    "SnakeEyesDegree",
    "SnakeEyesInBonusRoll",
]


class ComboPrecedence(StrEnum):
    SHAPE = "shape"
    BEST_SCORE = "best_score"


class SnakeEyesDegree(StrEnum):
    ONE = "one"
    SUM = "sum"


class BonusRollComboMode(StrEnum):
    MODIFIED_DICE = "modified_dice"
    NATURAL_COMBOS_PLUS_EXCESS = "natural_combos_plus_excess"
    NO_COMBOS = "no_combos"


class BonusDieSelection(StrEnum):
    ASPECT_ORDER = "aspect_order"
    PLAYER_CHOICE = "player_choice"


class SnakeEyesInBonusRoll(StrEnum):
    FLAG = "flag"
    IGNORE = "ignore"


class EnergyCap(StrEnum):
    POSITIVE_SUM = "positive_sum"
    NET_SUM = "net_sum"


class EffectTextVersion(StrEnum):
    V1 = "1"
    V2 = "2"
    BOTH = "both"


class FourD8Options(Model):
    """Readings of the 4D8 text where it is ambiguous; every default is the catalogue's."""

    special_combinations: bool = Field(
        default=True,
        description="Score triplets, two pairs and pairs (the appended rules, D:L72-115).",
    )
    combo_precedence: ComboPrecedence = Field(
        default=ComboPrecedence.SHAPE,
        description="D-A02: the most specific shape scores (5,5,5,3 is 13, D:L82), or the best.",
    )
    snake_eyes_degree: SnakeEyesDegree = Field(
        default=SnakeEyesDegree.ONE,
        description="D-A03: four 1s score 1 (D:L49) or their sum 4 (summary table D:L110).",
    )
    doubles_roll_combinations: bool = Field(
        default=True, description="D-A04: combinations apply to a doubles roll."
    )
    bonus_roll_combo_mode: BonusRollComboMode = Field(
        default=BonusRollComboMode.MODIFIED_DICE,
        description="D-A05: how a bonus roll's excess meets the combination rules.",
    )
    bonus_die_selection: BonusDieSelection = Field(
        default=BonusDieSelection.PLAYER_CHOICE,
        description=(
            "D-A06: which of equal highest dice takes the bonus: the player's "
            "'bonus_die_aspect' when given, else the first in aspect order."
        ),
    )
    snake_eyes_in_bonus_roll: SnakeEyesInBonusRoll = Field(
        default=SnakeEyesInBonusRoll.FLAG,
        description="D-A07: flag natural 1,1,1,1 as snake-eyes in a bonus roll.",
    )
    energy_cap_applies_to: EnergyCap = Field(
        default=EnergyCap.POSITIVE_SUM,
        description="D-A13: energy caps the positive bonuses (negatives always apply) or the net.",
    )
    allow_plain_roll_over_32: bool = Field(
        default=False, description="D-A11: allow a plain roll-under when the chance is 33+."
    )
    roll_when_impossible: bool = Field(
        default=False,
        description="D-A19: roll (for narration) even when the chance is 3 or less.",
    )
    effect_text_version: EffectTextVersion = Field(
        default=EffectTextVersion.V2,
        description="D-A01: special-effect prose of the first (D:L72-115) or second text.",
    )
