"""The options of the grenades: one per ambiguity of the register (catalogue 4c.md 3.13) that
changes a result here, each naming its entry and defaulting to the catalogue's
recommendation; and the delivery the source has no rule for (catalogue F3, 3.12.1)."""

from enum import StrEnum

from service.rules.four_c.combat.options import PiercingOptions, ThrowingTrait
from service.rules.four_c.core.options import CoreOptions
from service.rules.four_c.powers.senses import ContaminantOptions
from service.rules.model import Model, option

__all__ = [
    "AfflictionOptions",
    "D100Penalty",
    "DeliveryOptions",
    "FragArmor",
    "FragOptions",
    "GasOptions",
    "GrenadeDelivery",
    "RedDazeTurns",
    "StenchOptions",
    "ThrowOptions",
]


class ThrowOptions(Model):
    """Readings of the text for a grenade's range; every default is the catalogue's."""

    thrown_range_trait: ThrowingTrait = option(
        ThrowingTrait.BRAWN,
        ambiguity="A-13",
        description="The Rank Value a thrown range is read from: Brawn, which covers throwing "
        "an object a distance (C:L198), or Coordination.",
    )


class GrenadeDelivery(StrEnum):
    AUTO = "auto"
    RANGED_ATTACK = "ranged_attack"


class DeliveryOptions(CoreOptions):
    """How a grenade reaches its sector: the source has no rule (catalogue F3)."""

    grenade_delivery: GrenadeDelivery = option(
        GrenadeDelivery.AUTO,
        ambiguity=None,
        description="Not in the source (catalogue F3, 3.12.1): nothing says how a grenade is "
        "aimed or what a miss does. auto: it goes off in the chosen sector within range; "
        "ranged_attack: a Coordination roll, black landing where the GM says.",
    )
    range_penalty: bool = option(
        False,
        ambiguity="A-28",
        description="The optional range penalty: -1 Row Step per sector to the target, on every "
        "ranged attack, thrown objects and powers included.",
    )


class FragArmor(StrEnum):
    THIS_ATTACK = "this_attack"
    LASTING = "lasting"


class FragOptions(PiercingOptions):
    grenade_frag_armor: FragArmor = option(
        FragArmor.THIS_ATTACK,
        ambiguity="A-42",
        description="Frag reduces Body Armor by 10 (C:L1546) against this blast only, or for "
        "good (until repaired or restored).",
    )


class GasOptions(CoreOptions, ContaminantOptions):
    """The core's readings, and whether Contaminant Resistance resists the gas (A-76)."""


class RedDazeTurns(StrEnum):
    ONE = "one"
    HALF_D10 = "half_d10"


class D100Penalty(StrEnum):
    ROLL_MODIFIER = "roll_modifier"
    RANK_VALUE = "rank_value"


class AfflictionOptions(CoreOptions):
    """Readings of the Scream and Stench Gas tables (A-42); every default is the catalogue's."""

    grenade_red_daze_turns: RedDazeTurns = option(
        RedDazeTurns.ONE,
        ambiguity="A-42",
        description="Dazed or nauseous for 'the next turns' (C:L1560, C:L1570) gives no count: "
        "one turn, or 1d10/2 rounded down (minimum 1) as a black result lasts.",
    )
    grenade_d100_penalty: D100Penalty = option(
        D100Penalty.ROLL_MODIFIER,
        ambiguity="A-42",
        description="'A -20 penalty on d% rolls' (C:L1561, C:L1571) is taken off the d% roll "
        "itself (roll_modifier), or off the Rank Value rolled.",
    )


class StenchOptions(AfflictionOptions, ContaminantOptions):
    """The Scream readings, and whether Contaminant Resistance resists the gas (A-76)."""
