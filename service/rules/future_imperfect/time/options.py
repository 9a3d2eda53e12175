"""The options of Future Imperfect combat time: one per ambiguity of the register (catalogue
3.12, A-31 to A-40 and A-47) that changes a result here, defaulting to its recommendation."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.model import option

__all__ = [
    "FragmentOrder",
    "ImpulseDirection",
    "InterruptTie",
    "JokerCollision",
    "TimeOptions",
]


class JokerCollision(StrEnum):
    DISCARD_14 = "discard_14"
    PROTECT_14 = "protect_14"


class FragmentOrder(StrEnum):
    HIGH_FIRST = "high_first"
    LOW_FIRST = "low_first"


class ImpulseDirection(StrEnum):
    COUNTDOWN = "countdown"
    COUNTUP = "countup"


class InterruptTie(StrEnum):
    ORIGINAL = "original"
    INTERRUPTER = "interrupter"


class TimeOptions(CoreOptions):
    """Readings of the chapter for combat time; every default is the catalogue's."""

    initiative_tn: Annotated[int, Field(ge=0, le=30)] = option(
        3,
        ambiguity="A-31",
        description="The initiative Reflex check's TN, Easy (3) (FI:L147); cards are 1, and "
        "1 for the success and 1 a bump (Kayla's 3, 4, 4 draws 2, FI:L177).",
    )
    joker_collision: JokerCollision = option(
        JokerCollision.DISCARD_14,
        ambiguity="A-32",
        description="A step 0 drawn with the 14 and no reserve discards 'your highest other "
        "card' (FI:L147): the 14, as written, or the highest ordinary card, the 14 kept.",
    )
    fragment_order: FragmentOrder = option(
        FragmentOrder.HIGH_FIRST,
        ambiguity="A-33",
        description="On one step, the higher fragment acts first, or the lower (FI:L171 does "
        "not say).",
    )
    impulse_direction: ImpulseDirection = option(
        ImpulseDirection.COUNTDOWN,
        ambiguity="A-34",
        description="Impulses run down with the steps (the round starts at impulse 53, "
        "FI:L169), or up from 0.",
    )
    rush_fail_delay_steps: Annotated[int, Field(ge=0, le=14)] = option(
        2,
        ambiguity="A-36",
        description="A failed rush acts this many steps after its card (FI:L179: two); "
        "below step 1 it acts at the end of the round.",
    )
    multi_reserve_min_speed: Annotated[int, Field(ge=2, le=20)] = option(
        3,
        ambiguity="A-37",
        description="The least action speed that may reserve more than one card: 'greater "
        "than 2' (FI:L207), or 2 ('any other speed 2+ action', FI:L223).",
    )
    interrupt_tie: InterruptTie = option(
        InterruptTie.ORIGINAL,
        ambiguity="A-39",
        description="A tied interrupt contest: the action already declared goes first, or the "
        "interrupter's.",
    )
    aim_initiative_penalty: bool = option(
        True,
        ambiguity="A-47",
        description="A readied, unaimed weapon's penalty is 'also the initiative penalty' "
        "(FI:L329): taken on the Reflex check, or ignored (as combat/aim reads it).",
    )
