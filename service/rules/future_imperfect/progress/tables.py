"""The progress tables, read from `tables.json` beside this module: what each story chip
colour negates and what it is worth in bounty (FI:L740-743, FI:L749)."""

from pydantic import Field

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["CHIPS", "ChipRow", "chip"]


class ChipRow(Model):
    colour: str
    wounds: int = Field(description="Wound levels of one attack it negates, at most.")
    ct: int = Field(description="CT it negates.")
    bounty: int


CHIPS = table(__name__, "chips", ChipRow)


def chip(colour: str) -> ChipRow:
    return next(row for row in CHIPS if row.colour == colour)
