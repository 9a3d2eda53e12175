"""The options of 4C generation and advancement: one per ambiguity of the register (catalogue
4c.md 3.13) that changes a result here, each defaulting to the catalogue's recommendation."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import Model, option

__all__ = [
    "AdvancementOptions",
    "DuplicateNonrankPolicy",
    "DuplicateOptions",
    "GenerationOptions",
    "LifestyleOptions",
    "LifestyleTable",
    "NewPowerSelection",
    "OriginOrder",
    "SkillOptions",
    "SkillStacking",
]


class LifestyleTable(StrEnum):
    PRIMARY_RANK = "primary_rank"
    MANUAL = "manual"


class OriginOrder(StrEnum):
    BEFORE_POWER_EFFECTS = "before_power_effects"
    AFTER_POWER_EFFECTS = "after_power_effects"


class DuplicateNonrankPolicy(StrEnum):
    WARN = "warn"
    FORCE_REROLL = "force_reroll"
    STACK_EFFECTS = "stack_effects"


class NewPowerSelection(StrEnum):
    CHOOSE = "choose"
    ROLL_BASIC = "roll_basic"
    ROLL_ADVANCED = "roll_advanced"


class SkillStacking(StrEnum):
    HIGHEST = "highest"
    SUM = "sum"


class LifestyleOptions(Model):
    lifestyle_table: LifestyleTable = option(
        LifestyleTable.PRIMARY_RANK,
        ambiguity="A-05",
        description="Lifestyle 'rolls once on Table 1' (C:L252), a table the text never "
        "labels: the primary-trait Rank Value table, the first d% table giving a Rank Value; "
        "or manual, the GM's choice given as 'lifestyle'.",
    )


class DuplicateOptions(Model):
    duplicate_nonrank_policy: DuplicateNonrankPolicy = option(
        DuplicateNonrankPolicy.WARN,
        ambiguity="A-09",
        description="A repeat of a power whose Rank Value does nothing (Alter-Ego, "
        "Astoundingly Wealthy, Celebrity, Improved Skills) taken as +20: allowed with a "
        "warning, always rolled again instead, or its fixed bonuses applied again.",
    )


class GenerationOptions(LifestyleOptions, DuplicateOptions):
    """Readings of the 4C text for generating a character; every default is the catalogue's."""

    origin_order: OriginOrder = option(
        OriginOrder.BEFORE_POWER_EFFECTS,
        ambiguity="A-07",
        description="Advanced origins change the rolled values before the creation-time "
        "power effects add on top (a Robot Celebrity keeps Repute 30), or last, as 'then "
        "modify the results' reads literally (C:L168; Repute 0). Damage and Fortune are "
        "derived after both either way.",
    )
    alter_ego_origin_bonus: bool = option(
        True,
        ambiguity="A-63",
        description="With advanced origins an Alter-Ego, a Skilled Human, gets that "
        "origin's three bonus skills (C:L175, C:L486).",
    )


class AdvancementOptions(Model):
    """Readings of the 4C text for spending Fortune; every default is the catalogue's."""

    recompute_damage_max_on_permanent_change: bool = option(
        True,
        ambiguity="A-35",
        description="Raising Melee, Coordination, Brawn or Fortitude raises the Damage "
        "maximum with it, Damage being their sum (C:L240).",
    )
    recompute_fortune: bool = option(
        False,
        ambiguity="A-35",
        description="Raising Intellect, Awareness or Willpower adds to the Fortune left, as "
        "if Fortune were derived again; off by default, since Fortune is a currency and "
        "deriving it again would make every raise pay for itself.",
    )
    new_power_selection: NewPowerSelection = option(
        NewPowerSelection.CHOOSE,
        ambiguity="A-41",
        description="The new power bought for 1,000 Fortune is chosen (with the GM's "
        "approval; the text rolls only its Rank Value, C:L1523), or rolled on the basic or "
        "advanced selection table.",
    )
    advance_lifestyle: bool = option(
        False,
        ambiguity="A-41",
        description="Lifestyle, a Rank Value, may be raised like a trait; by default only "
        "primary traits and powers are (C:L244, C:L1517-1521).",
    )
    rv_zero_step_cost: Annotated[int, Field(ge=0, le=1)] = option(
        1,
        ambiguity="A-41",
        description="What raising a Rank Value of 0 by one costs: the current value would "
        "make it free, so it costs 1.",
    )


class SkillOptions(Model):
    skill_stacking: SkillStacking = option(
        SkillStacking.HIGHEST,
        ambiguity="A-30",
        description="Several skills fit one action: the highest bonus counts, or they add up.",
    )
