"""The options of 4C combat: one per ambiguity of the register (catalogue 4c.md 3.13) that
changes a result here, each naming its entry and defaulting to the catalogue's
recommendation."""

from enum import StrEnum

from service.rules.four_c.core.options import CoreOptions
from service.rules.model import Model, option

__all__ = [
    "ArmorScope",
    "ArmorStacking",
    "BlockSteps",
    "CombatOptions",
    "ConcussPoints",
    "DodgeTiming",
    "EvadeScope",
    "ExhaustionPenalty",
    "InitiativeTie",
    "PiercingOptions",
    "RushDamage",
    "StackingOptions",
    "ThrowingTrait",
    "ThrownDamage",
]


class BlockSteps(StrEnum):
    LABEL = "label"
    BODY = "body"


class ThrownDamage(StrEnum):
    MATERIAL = "material"
    BRAWN = "brawn"
    LESSER = "lesser"


class ThrowingTrait(StrEnum):
    BRAWN = "brawn"
    COORDINATION = "coordination"


class RushDamage(StrEnum):
    BRAWN = "brawn"
    FORTITUDE = "fortitude"


class InitiativeTie(StrEnum):
    REROLL = "reroll"
    PLAYERS_WIN = "players_win"
    GM_WINS = "gm_wins"
    SIMULTANEOUS = "simultaneous"


class ExhaustionPenalty(StrEnum):
    FLAT = "flat"
    CUMULATIVE = "cumulative"


class EvadeScope(StrEnum):
    ONE_ATTACK = "one_attack"
    ALL_ATTACKS_FROM_OPPONENT = "all_attacks_from_opponent"


class DodgeTiming(StrEnum):
    FIRST_ATTACK = "first_attack"
    OWN_ACTION = "own_action"


class ConcussPoints(StrEnum):
    NONE = "none"
    DAMAGE_POINTS = "damage_points"


class ArmorStacking(StrEnum):
    HIGHEST = "highest"
    SUM = "sum"


class ArmorScope(StrEnum):
    BODY_ARMOR = "body_armor"
    ALL_ARMOR = "all_armor"


class StackingOptions(Model):
    armor_stacking: ArmorStacking = option(
        ArmorStacking.HIGHEST,
        ambiguity="A-21",
        description="Several armors at once: the highest counts, or they add up.",
    )


class PiercingOptions(StackingOptions):
    """How far a weapon's rule against Body Armor reaches (A-21)."""

    armor_piercing_scope: ArmorScope = option(
        ArmorScope.BODY_ARMOR,
        ambiguity="A-21",
        description="Frag's -10, Incendiary and Lightning switching armor off, the Omphalos "
        "IX halving it: the Body Armor the text names (the power or a device granting it), "
        "or every armor, Force Fields included.",
    )


class CombatOptions(CoreOptions, StackingOptions):
    """Readings of the 4C text for combat, and for the rolls it makes; every default is the
    catalogue's."""

    block_steps: BlockSteps = option(
        BlockSteps.LABEL,
        ambiguity="A-17",
        description="A block's blue and yellow take 4 and 7 Row Steps from the attacker's "
        "Brawn (the table's labels) or 3 and 6 (its sentences); red is 1 either way.",
    )
    range_penalty: bool = option(
        False,
        ambiguity="A-28",
        description="The optional range penalty: -1 Row Step per sector to the target, on every "
        "ranged attack, thrown objects and powers included.",
    )
    thrown_damage: ThrownDamage = option(
        ThrownDamage.MATERIAL,
        ambiguity="A-12",
        description="A thrown object deals its Material Value (C:L1171), the thrower's Brawn "
        "(C:L198), or the lesser of the two.",
    )
    dying_requires_penetration: bool = option(
        True,
        ambiguity="A-15",
        description="A Dying result needs at least 1 point through the armor; else it is a Hit "
        "for 0 damage.",
    )
    impact_effects_require_penetration: bool = option(
        False,
        ambiguity="A-15",
        description="Concuss and Pound need at least 1 point through the armor too (the "
        "damage_taken input); by default only their Brawn comparison gates them, an impact "
        "rather than a wound.",
    )
    hold_damage_on_establish: bool = option(
        False,
        ambiguity="A-50",
        description="A hold hurts on the turn it is made, or first on the next turn it is kept.",
    )
    thrown_range_trait: ThrowingTrait = option(
        ThrowingTrait.BRAWN,
        ambiguity="A-13",
        description="The Rank Value a thrown range is read from: Brawn, which covers throwing "
        "an object a distance (C:L198), or Coordination.",
    )
    rush_damage: RushDamage = option(
        RushDamage.BRAWN,
        ambiguity="A-14",
        description="A rush hits as an unarmed blow, Brawn, or with the rusher's Fortitude.",
    )
    initiative_tie: InitiativeTie = option(
        InitiativeTie.REROLL,
        ambiguity="A-20",
        description="Equal initiative totals: both sides roll again, one side wins, or both "
        "act at once.",
    )
    exhaustion_penalty: ExhaustionPenalty = option(
        ExhaustionPenalty.FLAT,
        ambiguity="A-24",
        description="After the first exhaustion roll each roll is at -10 Fortitude, or at -10 "
        "more for each roll before it.",
    )
    evade_scope: EvadeScope = option(
        EvadeScope.ONE_ATTACK,
        ambiguity="A-18",
        description="An evade answers the named opponent's first melee attack this turn, or "
        "every melee attack that opponent makes this turn.",
    )
    dodge_timing: DodgeTiming = option(
        DodgeTiming.FIRST_ATTACK,
        ambiguity="A-19",
        description="A declared dodge counts from the first attack on the dodger, or only once "
        "the dodger's side acts (attacks before it are not dodged).",
    )
    concuss_points: ConcussPoints = option(
        ConcussPoints.NONE,
        ambiguity="A-16",
        description="The 'Fortitude points' a knocked-out defender loses name no pool "
        "(C:L1268): unconsciousness only, or read as Damage points, 0 while out (not Dying) "
        "and on waking the lesser of the Damage maximum and the Fortitude Rank Value.",
    )
