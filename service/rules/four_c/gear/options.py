"""The options of the Weapons & Gear items and potions: one per ambiguity of the register
(catalogue 4c.md 3.13) that changes a result here, each naming its entry and defaulting to the
catalogue's recommendation. Each item extends the options of the rules it builds on."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_c.combat.options import CombatOptions, PiercingOptions
from service.rules.four_c.core.options import CoreOptions
from service.rules.four_c.powers.anatomy import AboveFifty
from service.rules.four_c.powers.core import HalfRounding
from service.rules.model import option

__all__ = [
    "FistOptions",
    "PotionOptions",
    "RelayOptions",
    "RelayWillpower",
    "RifleOptions",
    "ScarsTrait",
]


class RifleOptions(CombatOptions, PiercingOptions):
    """Combat's readings, and the Omphalos IX's (A-43, A-48)."""

    omphalos_halve_before_bonus: bool = option(
        True,
        ambiguity="A-43",
        description="Close in, the user's Coordination is halved (round down) and then the "
        "scope's +20 added; off, the +20 is added first and the sum halved.",
    )
    omphalos_close_range_override: bool = option(
        True,
        ambiguity="A-43",
        description="Close in, blue and yellow fall to red and Deadly Accuracy does not raise "
        "that red again (a Hit); off, Deadly Accuracy still steps the red up to a blue Nail.",
    )
    omphalos_close_range_inclusive: bool = option(
        True,
        ambiguity="A-43",
        description="'Within 12 sectors' takes in a target 12 sectors away; off, only 11 or fewer.",
    )
    omphalos_auto_nail: bool = option(
        True,
        ambiguity="A-48",
        description="Deadly Accuracy makes every Hit a Nail though no called shot was declared "
        "(overriding C:L1282); off, a blue is a Nail only when declared.",
    )


class RelayWillpower(StrEnum):
    PLUS_15 = "plus_15"
    PLUS_20 = "plus_20"


class ScarsTrait(StrEnum):
    WORN = "worn"
    BASE = "base"


class RelayOptions(CoreOptions):
    """The core's readings, and the Shrouded Relay's (A-44, A-11, A-35)."""

    relay_trait_increase: RelayWillpower = option(
        RelayWillpower.PLUS_15,
        ambiguity="A-44",
        description="The Trait Increase (Willpower) the Relay grants: +15, as Trait Increase "
        "gives a trait, or +20, as when it is rolled twice.",
    )
    half_rounding: HalfRounding = option(
        HalfRounding.UP,
        ambiguity="A-11",
        description="One-half of the Relay's Mind Shield, its mental Force Field: rounded up, "
        "or down.",
    )
    recompute_fortune: bool = option(
        False,
        ambiguity="A-35",
        description="A point of Willpower lost to Psychic Scars also comes off the Fortune "
        "left, as if Fortune were derived again; off by default, since Fortune is a currency.",
    )
    psychic_scars_trait: ScarsTrait = option(
        ScarsTrait.WORN,
        ambiguity=None,
        description="The seed does not say whether the Psychic Scars test reads Willpower with "
        "the Relay's own Trait Increase (worn, as the device is on when it is used) or without "
        "it (base).",
    )


class FistOptions(CoreOptions):
    """The core's readings of dice, and the Voltaic-Concussion Fist's (A-45, A-11)."""

    fist_stack_matching_bonus: bool = option(
        False,
        ambiguity="A-45",
        description="A wearer with matching E/E Control also counts the Fist as Energy "
        "Generation, so Control and Generation match and both gain +10 more (C:L612); off, "
        "the Fist's +10 replaces the Generation it would grant.",
    )
    half_rounding: HalfRounding = option(
        HalfRounding.UP,
        ambiguity="A-11",
        description="One-half of the Fist's Generation and Amplified Control: rounded up, or down.",
    )


class PotionOptions(CoreOptions):
    """The core's readings of dice, and the potions' (A-46, A-29)."""

    invisibility_potion_turns: Annotated[int, Field(ge=1, le=10)] = option(
        3,
        ambiguity="A-46",
        description="The turns an Invisibility potion lasts, a number the seed leaves out "
        "('for turns', C:L1692): 3, as the other set-duration potions; lesser and greater "
        "potions last 2 and 4 whatever this says.",
    )
    dodging_potion_black_row_steps: Annotated[int, Field(ge=0, le=3)] = option(
        1,
        ambiguity="A-46",
        description="The Row Steps a Dodging potion's black takes off attackers, which the "
        "seed writes '-Row Step' with no number: 1, as its label says; or another.",
    )
    healing_potion_next_turn: bool = option(
        True,
        ambiguity="A-46",
        description="A healing potion restores its 25 points the turn after it is given (the "
        "seed's 'turn after', as every potion starts next turn); off, the same turn.",
    )
    fast_attack_above_50: AboveFifty = option(
        AboveFifty.CAP,
        ambiguity="A-29",
        description="Fast Attack over 50, which its table stops at: 4 attacks, or one more for "
        "each rank band above 50-74.",
    )
