"""The options of the Future Imperfect core: one per ambiguity of the register (catalogue
3.12) that changes a result here, defaulting to the catalogue's recommendation."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import Model, option

__all__ = [
    "CardModel",
    "CfRule",
    "ColumnDie",
    "CoreOptions",
    "Engine",
    "ExplodePolicy",
    "HalvingOrder",
    "TieGoesTo",
]


class Engine(StrEnum):
    DICE = "dice"
    DECK = "deck"


class CardModel(StrEnum):
    CELL = "cell"
    CARD_PER_DIE = "card_per_die"


class CfRule(StrEnum):
    MORE_THAN_HALF_ONES = "more_than_half_ones"
    ALL_ONES = "all_ones"
    NONE = "none"


class TieGoesTo(StrEnum):
    INITIATOR = "initiator"
    RESISTER = "resister"
    STATUS_QUO = "status_quo"


class ExplodePolicy(StrEnum):
    MAXIMISE = "maximise"
    CLIENT_CHOICE = "client_choice"


class HalvingOrder(StrEnum):
    AFTER_MODIFIERS = "after_modifiers"
    BEFORE_MODIFIERS = "before_modifiers"


#: A die beyond the d12 of column 5, for the columns the chapter leaves undefined (A-02).
ColumnDie = Annotated[int, Field(ge=14, le=20, multiple_of=2)]


class CoreOptions(Model):
    """Readings of the chapter for pools and checks; every default is the catalogue's."""

    engine: Engine = option(
        Engine.DICE,
        ambiguity="A-01",
        description="Tests by the dice-equivalent model (a grid cell is that many dice of "
        "that column), or by a configured Action Deck, whose cards the chapter does not print: "
        "read by core/test, lifting, rushing and hit location; a rule that rolls a check, "
        "damage, CT or a bystander's column as dice refuses it.",
    )
    card_model: CardModel = option(
        CardModel.CELL,
        ambiguity="A-01",
        description="How the deck engine reads cards: one card's cell of the pool's column "
        "and row (FI:L239, FI:L345), or a card a die read at the column's first row, the "
        "highest kept (FI:L299, FI:L522).",
    )
    bump_step: Annotated[int, Field(ge=1, le=10)] = option(
        5, ambiguity="A-05", description="Points over the TN that make each bump."
    )
    cf_rule: CfRule = option(
        CfRule.MORE_THAN_HALF_ONES,
        ambiguity="A-06",
        description="A critical failure: more than half the dice show 1 (the rule of chapter "
        "1), every die does, or never.",
    )
    explode_policy: ExplodePolicy = option(
        ExplodePolicy.MAXIMISE,
        ambiguity="A-07",
        description="Every maximum rolls again, or the player may stop a die, keeping its "
        "maximum ([EXT] chapter 1), as the request's max_rerolls says.",
    )
    tie_goes_to: TieGoesTo = option(
        TieGoesTo.INITIATOR,
        ambiguity="A-08",
        description="An opposed roll tied: the initiator wins, the resister, or nothing changes.",
    )
    column_6_die: ColumnDie | None = option(
        None,
        ambiguity="A-02",
        description="The die of column 6, which the chapter uses (falls of 45 m, FI:L27) but "
        "never defines; unset, a fall that needs it is answered unrolled (A-12) and any other "
        "roll that needs it is refused.",
    )
    column_7_die: ColumnDie | None = option(
        None,
        ambiguity="A-02",
        description="The die of column 7, the falling cap 5(7) (FI:L27); unset, a fall that "
        "needs it is answered unrolled (A-12) and any other roll that needs it is refused.",
    )
    default_halving_order: HalvingOrder = option(
        HalvingOrder.AFTER_MODIFIERS,
        ambiguity="A-09",
        description="A default roll halves its total after the modifiers (FI:L247), or halves "
        "the die before adding them.",
    )
