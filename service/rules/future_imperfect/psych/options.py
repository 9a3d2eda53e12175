"""The options of Future Imperfect psychology: one per ambiguity of the register (catalogue
3.12, A-70 to A-74) that changes a result here, defaulting to its recommendation."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.model import option

__all__ = ["AnnoyedScope", "GapUnit", "PsychOptions", "TerrorStep0"]


class AnnoyedScope(StrEnum):
    NEXT_ROLL_ANY = "next_roll_any"
    NEXT_ACTION_ONLY = "next_action_only"


class GapUnit(StrEnum):
    STEPS = "steps"
    SIDES = "sides"


class TerrorStep0(StrEnum):
    SIDE_DRAW = "side_draw"
    IGNORE = "ignore"


class PsychOptions(CoreOptions):
    """Readings of the chapter for psychology; every default is the catalogue's."""

    psych_base_tn: Annotated[int, Field(ge=0, le=30)] | None = option(
        None,
        ambiguity="A-70",
        description="A psychological contest's successes are the margin over the resister's "
        "roll; set, the initiator must also reach this TN.",
    )
    annoyed_scope: AnnoyedScope = option(
        AnnoyedScope.NEXT_ROLL_ANY,
        ambiguity="A-71",
        description="Annoyed's -4 goes to the target's next roll of any kind, passive defenses "
        "and resistance included (FI:L650), or only to his next action.",
    )
    simple_contest_gap_unit: GapUnit = option(
        GapUnit.STEPS,
        ambiguity="A-72",
        description="'More than 2 greater' (FI:L670) counts die types (three or more steps) "
        "or sides.",
    )
    terror_step0: TerrorStep0 = option(
        TerrorStep0.SIDE_DRAW,
        ambiguity="A-74",
        description="'Drawing a step 0' (FI:L706) in the dice engine: one Action Card drawn "
        "beside the Terror roll, the red joker 1 of 54, or no card at all.",
    )
