"""The options of the 4C core: one per ambiguity of the register (catalogue 4c.md 3.13) that
changes a result here, each naming its entry and defaulting to the catalogue's
recommendation."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import Model, option

__all__ = ["CoreOptions", "RangeDice", "RowValue", "RowValueOptions"]


class RowValue(StrEnum):
    FLOOR = "floor"
    OFFSET = "offset"


class RangeDice(StrEnum):
    NDX = "ndx"
    UNIFORM = "uniform"


class RowValueOptions(Model):
    """The reading of a Rank Value moved by Row Steps, for rules that move one without a roll
    (Dying, C:L1274); the default is the catalogue's."""

    row_value: RowValue = option(
        RowValue.FLOOR,
        ambiguity="A-03",
        description="The Rank Value a row step leaves: the lowest of the new row, or the "
        "old value moved by the difference of the two rows' lowest values.",
    )


class CoreOptions(RowValueOptions):
    """Readings of the 4C text for dice and ranks; every default is the catalogue's."""

    rs_clamp_min_row: Annotated[int, Field(ge=0, le=1)] = option(
        0,
        ambiguity="A-04",
        description="The lowest row penalties can push a Rank Value to (row steps are summed, "
        "then clamped once): row 0, or row 1 so that no action falls to Rank Value 0.",
    )
    range_dice: RangeDice = option(
        RangeDice.NDX,
        ambiguity="A-25",
        description="'2-20 turns' is 2d10 summed, or one number from 2 to 20, each as likely.",
    )
    d10_zero_is_ten: bool = option(
        True,
        ambiguity="A-26",
        description="A d10 counted on its own (durations) reads its 0 face as 10, or as 0.",
    )
