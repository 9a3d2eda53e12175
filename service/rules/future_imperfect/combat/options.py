"""The options of Future Imperfect combat: one per ambiguity of the register (catalogue 3.12,
A-41 to A-53) that changes a result here, defaulting to its recommendation. The author's
placeholders ("NEEDS WORK", "COVERING FIRE PROCEDURE NEEDED", "STANDARD COLUMN") are options
too, so a result says which reading it took."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.core.options import CoreOptions, TieGoesTo
from service.rules.model import option

__all__ = [
    "AimRaceOptions",
    "AttackOptions",
    "BreakCompare",
    "BurstHits",
    "ClosePenalty",
    "CoveringFire",
    "DbModel",
    "DefenseSkill",
    "ExplosiveBands",
    "ExplosiveHead",
    "GrenadeRule",
    "HeavyThrow",
    "RaceOptions",
    "RaceOrder",
    "Scatter",
    "SizeScale",
    "StrengthRoute",
    "TargetSplit",
]


class SizeScale(StrEnum):
    HALVING = "halving"
    LITERAL = "literal"


class GrenadeRule(StrEnum):
    EXPLOSIVES = "explosives"
    AREA_EFFECT = "area_effect"


class BurstHits(StrEnum):
    ONE_PLUS_BUMPS = "one_plus_bumps"
    ONE_PER_SUCCESS_ONLY = "one"


class TargetSplit(StrEnum):
    ROWS = "rows"
    WHOLE_POOL = "whole_pool"


class CoveringFire(StrEnum):
    NOT_DEFINED = "not_defined"
    BYSTANDER_SPRAY = "bystander_spray"


class ExplosiveBands(StrEnum):
    CEIL = "ceil"
    FLOOR = "floor"


class ExplosiveHead(StrEnum):
    NO_BONUS = "no_bonus"
    RECORD_AS_ARM = "record_as_arm"


class RaceOrder(StrEnum):
    CONTEST_FIRST = "contest_first"
    SHOT_FIRST = "shot_first"


class HeavyThrow(StrEnum):
    NOT_DEFINED = "not_defined"
    AS_AVERAGE = "as_average"


class Scatter(StrEnum):
    CLOCK_D12 = "clock_d12"
    NOT_DEFINED = "not_defined"


class DbModel(StrEnum):
    RELATIVE_CLAMPED = "relative_clamped"
    ABSOLUTE = "absolute"


class ClosePenalty(StrEnum):
    WEAPON_DB = "weapon_db"
    EFFECTIVE_DB = "effective_db"


class StrengthRoute(StrEnum):
    FRAGILE_ONLY = "fragile_only"
    ANY_WEAPON = "any_weapon"


class BreakCompare(StrEnum):
    GE = "ge"
    GT = "gt"


class DefenseSkill(StrEnum):
    AUTO = "auto"
    FIGHTING = "fighting"
    DODGE = "dodge"


class AttackOptions(CoreOptions):
    """Readings of the chapter for combat; every default is the catalogue's."""

    target_speed_threshold: Annotated[int, Field(ge=0, le=1000)] = option(
        20,
        ambiguity="A-41",
        description="The relative Rate a target must exceed to be 'moving' (FI:L281); the "
        "table's bare 'Target is moving -4' (FI:L270) would be 0.",
    )
    target_speed_modifier: Annotated[int, Field(ge=-10, le=0)] = option(
        -4,
        ambiguity="A-41",
        description="To the roll for a fast target (FI:L281). The Violet example folds speed "
        "into its TN 6 instead (FI:L299): 0 here with her TN given reads it that way.",
    )
    size_scale: SizeScale = option(
        SizeScale.HALVING,
        ambiguity="A-42",
        description="Small targets: -1 at half human size (3), -1 more at each halving "
        "('increments at .5, .25', FI:L277), to -6; or literally 3 -> -1, 2 -> -2, then halving.",
    )
    grenade_rule: GrenadeRule = option(
        GrenadeRule.EXPLOSIVES,
        ambiguity="A-43",
        description="Grenades are called AE weapons (FI:L285) but fall off by the explosives' "
        "columns (FI:L307): they take combat/explosives, or the shotgun's damage bands.",
    )
    burst_hits_model: BurstHits = option(
        BurstHits.ONE_PLUS_BUMPS,
        ambiguity="A-44",
        description="A burst's hits, which the unprinted card's burst section gives (FI:L295): "
        "1 and 1 a bump, at most the rounds (Violet: a success and a bump, 2 hits, FI:L299), "
        "or a single hit.",
    )
    target_split: TargetSplit = option(
        TargetSplit.ROWS,
        ambiguity="A-44",
        description="'He splits his skill among them' (FI:L297): the pool's dice are shared "
        "out among the targets, or each target is rolled with the whole pool.",
    )
    extra_target_penalty: Annotated[int, Field(ge=-5, le=0)] = option(
        -1,
        ambiguity="A-44",
        description="'A penalty of 1 on each die' for each extra target (FI:L297, marked NEEDS "
        "WORK): on the kept die, the only one that counts.",
    )
    covering_fire: CoveringFire = option(
        CoveringFire.NOT_DEFINED,
        ambiguity="A-45",
        description="Covering fire has no procedure (FI:L303): not defined, or the house rule "
        "that each figure moving through the covered area is a bystander of a spray "
        "(combat/unintended-targets with spray, FI:L379).",
    )
    explosive_bands: ExplosiveBands = option(
        ExplosiveBands.CEIL,
        ambiguity="A-46",
        description="Columns lost with distance: ceil(d/10) - 1 (10 m full, 20 m one left), or "
        "floor(d/10) (10 m already one left); FI:L309 puts 10 and 20 m in two bands each.",
    )
    explosive_head_mode: ExplosiveHead = option(
        ExplosiveHead.NO_BONUS,
        ambiguity="A-46",
        description="'Explosive damage to the head is equivalent to that dealt to the arm' "
        "(FI:L311): recorded on the head without the location's extra cards, or as an arm.",
    )
    aim_initiative_penalty: bool = option(
        True,
        ambiguity="A-47",
        description="An unaimed weapon's penalty is 'also the initiative penalty' (FI:L329): "
        "taken on the Reflex check while the weapon is readied and unaimed, or ignored.",
    )
    heavy_throw: HeavyThrow = option(
        HeavyThrow.NOT_DEFINED,
        ambiguity="A-48",
        description="The maximum range is given for 1-2 lb only (FI:L367, 'REDO THIS', "
        "FI:L369): other weights have none, or take the same Strength die x 5 m.",
    )
    scatter: Scatter = option(
        Scatter.CLOCK_D12,
        ambiguity="A-48",
        description="Scatter is on the unprinted card (FI:L373, MORE NECESSARY): an invented "
        "d12 clock direction and the miss margin in meters, at most the throw; or the "
        "Master's judgement, nothing rolled.",
    )
    bystander_die: Annotated[int, Field(ge=2, le=20)] = option(
        20,
        ambiguity="A-49",
        description="The die of the '(STANDARD COLUMN)' checked for a bystander (FI:L379): 1 "
        "hits, 1-2 for a spray.",
    )
    db_model: DbModel = option(
        DbModel.RELATIVE_CLAMPED,
        ambiguity="A-50",
        description="Defensive Bonus: the defender's over the attacker's (weapon DB plus any "
        "size advantage), so a sword against a bigger unarmed Ursoid is 0 (FI:L399); or the "
        "defender's whole.",
    )
    close_penalty: ClosePenalty = option(
        ClosePenalty.WEAPON_DB,
        ambiguity="A-51",
        description="Once closed on, the longer weapon's DB 'becomes a penalty' (FI:L401): its "
        "weapon DB (the constable's +1, FI:L403), or with its size advantage.",
    )
    entangle_break_compare: BreakCompare = option(
        BreakCompare.GE,
        ambiguity="A-52",
        description="'Exceeding the TN' on the weapon table (FI:L407): at least it, as every "
        "TN of the chapter (FI:L239), or strictly over.",
    )
    strength_route: StrengthRoute = option(
        StrengthRoute.FRAGILE_ONLY,
        ambiguity="A-52",
        description="Breaking out by Strength is for fragile weapons, the others wriggled out "
        "of ('Otherwise', FI:L407); or open against any weapon.",
    )
    active_defense_skill: DefenseSkill = option(
        DefenseSkill.AUTO,
        ambiguity="A-53",
        description="'Fighting/Dodge' (FI:L415): Fighting against melee and Dodge against "
        "shots, or always the one named.",
    )


class RaceOptions(AttackOptions):
    """A race against a declared action (an aimed shooter's, a fleeing target's): a tie leaves
    the declared action first (catalogue A-08, reserve interrupts)."""

    tie_goes_to: TieGoesTo = option(
        TieGoesTo.STATUS_QUO,
        ambiguity="A-08",
        description="A tied race: the action already declared goes first (status_quo), or the "
        "one racing it (initiator) or the declared one by name (resister).",
    )


class AimRaceOptions(RaceOptions):
    """An aimed shooter's race against his moving target (FI:L339-347)."""

    race_order: RaceOrder = option(
        RaceOrder.CONTEST_FIRST,
        ambiguity="A-47",
        description="The opposed Reflex task comes before the shot (FI:L339); Harry's example "
        "draws the shot first (FI:L345-347), which only orders the dice.",
    )
