"""The options of 4C gamemastering: one per ambiguity of the register (catalogue 4c.md 3.13)
that changes a result here, defaulting to the catalogue's recommendation."""

from enum import StrEnum

from service.rules.four_c.core.options import CoreOptions
from service.rules.model import option

__all__ = ["CriminalReaction", "GmOptions"]


class CriminalReaction(StrEnum):
    MIRROR = "mirror"
    BLACK_FAVORABLE_ONLY = "black_favorable_only"


class GmOptions(CoreOptions):
    """Readings of the 4C text for the gamemaster's rules, and the rolls they make."""

    criminal_reaction: CriminalReaction = option(
        CriminalReaction.MIRROR,
        ambiguity="A-36",
        description="Criminals read the public table reversed: black is extremely favorable "
        "and yellow unfavorable, or black alone is favorable and every other colour not.",
    )
    fortune_floor: bool = option(
        True,
        ambiguity="A-37",
        description="Fortune and Repute stop at 0 (losses past it are lost), or go negative.",
    )
