"""The options of the 4D8 system: one per ambiguity of the register (catalogue B3.11) that
changes a result, each naming the register entry it answers and defaulting to the
catalogue's recommendation."""

from enum import StrEnum

from service.rules.model import Model, option

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

    special_combinations: bool = option(
        True,
        ambiguity=None,
        description="Score triplets, two pairs and pairs (D:L72-115). No register entry: the "
        "text adds them as 'Additional Rules' (D:L72) to a complete base rule, so a table may "
        "play without them.",
    )
    combo_precedence: ComboPrecedence = option(
        ComboPrecedence.SHAPE,
        ambiguity="D-A02",
        description="The most specific shape scores (5,5,5,3 is 13, D:L82), or the best.",
    )
    snake_eyes_degree: SnakeEyesDegree = option(
        SnakeEyesDegree.ONE,
        ambiguity="D-A03",
        description="Four 1s score 1 (D:L49) or their sum 4 (summary table D:L110).",
    )
    doubles_roll_combinations: bool = option(
        True, ambiguity="D-A04", description="Combinations apply to a doubles roll."
    )
    bonus_roll_combo_mode: BonusRollComboMode = option(
        BonusRollComboMode.MODIFIED_DICE,
        ambiguity="D-A05",
        description="How a bonus roll's excess meets the combination rules.",
    )
    bonus_die_selection: BonusDieSelection = option(
        BonusDieSelection.PLAYER_CHOICE,
        ambiguity="D-A06",
        description="Which of equal highest dice takes the bonus: the player's "
        "'bonus_die_aspect' when given, else the first in aspect order.",
    )
    snake_eyes_in_bonus_roll: SnakeEyesInBonusRoll = option(
        SnakeEyesInBonusRoll.FLAG,
        ambiguity="D-A07",
        description="Flag natural 1,1,1,1 as snake-eyes in a bonus roll.",
    )
    energy_cap_applies_to: EnergyCap = option(
        EnergyCap.POSITIVE_SUM,
        ambiguity="D-A13",
        description="Energy caps the positive bonuses (negatives always apply) or the net.",
    )
    allow_plain_roll_over_32: bool = option(
        False, ambiguity="D-A11", description="Allow a plain roll-under when the chance is 33+."
    )
    roll_when_impossible: bool = option(
        False,
        ambiguity="D-A19",
        description="Roll (for narration) even when the chance is 3 or less.",
    )
    effect_text_version: EffectTextVersion = option(
        EffectTextVersion.V2,
        ambiguity="D-A01",
        description="Special-effect prose of the first (D:L72-115) or second text.",
    )
