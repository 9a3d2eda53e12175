"""The options of 4C combat: one per ambiguity of the register (catalogue 4c.md 3.13) that
changes a result here, each naming its entry and defaulting to the catalogue's
recommendation."""

from enum import StrEnum

from service.rules.four_c.core.options import CoreOptions
from service.rules.model import option

__all__ = ["BlockSteps", "CombatOptions"]


class BlockSteps(StrEnum):
    LABEL = "label"
    BODY = "body"


class CombatOptions(CoreOptions):
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
