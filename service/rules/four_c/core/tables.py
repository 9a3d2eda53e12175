"""The 4C core tables, read from `tables.json` beside this module: the Rank Value rows with
their descriptions and optional names (C:L260-306), and both Master Tables (C:L937-957; the
seed only points at them, their data is the Libre Edition's, rules/4c-master-table.md)."""

from enum import StrEnum
from typing import Annotated, Self

from pydantic import Field, model_validator

from service.rules.model import Model
from service.rules.tables import table

__all__ = [
    "LADDERS",
    "RANKS",
    "Bands",
    "Colour",
    "MasterRow",
    "RankRow",
]

Face = Annotated[int, Field(ge=0, le=99)]
Band = Annotated[tuple[Face, ...], Field(min_length=2, max_length=2, description="[low, high]")]


class Colour(StrEnum):
    """The colours of the Master Table, worst to best (C:L939-947)."""

    BLACK = "black"
    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"

    @property
    def level(self) -> int:
        """0 for black to 3 for yellow: "X or better" is a level at least X's."""
        return _ORDER.index(self)

    @classmethod
    def at(cls, level: int) -> "Colour":
        """The colour of a level, clamped to black and yellow."""
        return _ORDER[min(max(level, 0), len(_ORDER) - 1)]


_ORDER = list(Colour)


class Bands(Model):
    """The d% faces of each colour in one row, inclusive; a colour may have none."""

    black: Band | None = None
    red: Band | None = None
    blue: Band | None = None
    yellow: Band | None = None

    @model_validator(mode="after")
    def _cover_every_face_once_in_order(self) -> Self:
        """Black, red, blue, yellow from low rolls to high, together 00-99 exactly once
        (catalogue 3.2.1)."""
        expected = 0
        for colour in Colour:
            band = getattr(self, colour.value)
            if band is None:
                continue
            low, high = band
            if low != expected or high < low:
                raise ValueError(
                    f"the {colour.value} band must start at {expected:02d} and not end before "
                    "it starts: bands run black, red, blue, yellow, covering 00-99 once"
                )
            expected = high + 1
        if expected != 100:
            raise ValueError("the bands must cover every roll from 00 to 99")
        return self

    def colour_of(self, roll: int) -> Colour:
        bands = (self.black, self.red, self.blue, self.yellow)
        for colour, band in zip(_ORDER, bands, strict=True):
            if band is not None and band[0] <= roll <= band[1]:
                return colour
        raise ValueError(f"no band holds {roll}")  # excluded by validation

    def faces(self, colour: Colour) -> int:
        band = getattr(self, colour.value)
        return 0 if band is None else band[1] - band[0] + 1


class MasterRow(Model):
    """One row of a Master Table: the Rank Values it holds and its colour bands."""

    row: Annotated[int, Field(ge=0, le=40)]
    rv_min: Annotated[int, Field(ge=0, le=1_000_000)]
    rv_max: Annotated[int, Field(ge=0, le=1_000_000)] | None = Field(
        description="null: no upper end."
    )
    bands: Bands


class RankRow(Model):
    """A Rank Value range of the basic ladder, its description and the optional Rank Names."""

    row: int
    rv_min: int
    rv_max: int
    description: str | None = Field(description="None for 0: no character has it (C:L262).")
    names: tuple[str, ...]
    note: str | None


RANKS = table(__name__, "ranks", RankRow, covers=("4c.rank.describe", "4c.rank.name"))
LIBRE_BASIC = table(__name__, "master-table-libre-basic", MasterRow)
LIBRE_ADVANCED = table(__name__, "master-table-libre-advanced", MasterRow)

#: The Master Tables by the name a result cites.
LADDERS = {"libre-basic": LIBRE_BASIC, "libre-advanced": LIBRE_ADVANCED}
