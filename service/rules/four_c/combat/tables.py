"""The result tables of 4C combat, read from `tables.json` beside this module: for each action,
what each colour of its Master Table roll means (C:L1044-1292)."""

from collections.abc import Mapping

from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.registry import Table
from service.rules.tables import table

__all__ = ["ResultRow", "results"]


class ResultRow(Model):
    """What one colour of an action's roll means."""

    colour: Colour
    result: str
    text: str


def results(rows: Table[ResultRow]) -> Mapping[Colour, ResultRow]:
    return {row.colour: row for row in rows}


MELEE_BASHING = table(__name__, "melee-bashing", ResultRow)
MELEE_SLASHING = table(__name__, "melee-slashing", ResultRow)
RANGED = table(__name__, "ranged", ResultRow)
RUSH = table(__name__, "rush", ResultRow)
SEIZE = table(__name__, "wrestling-seize", ResultRow)
SLIP = table(__name__, "wrestling-slip", ResultRow)
STRUGGLE = table(__name__, "wrestling-struggle", ResultRow)
DODGE = table(__name__, "dodge", ResultRow)
EVADE = table(__name__, "evade", ResultRow)
CATCH = table(__name__, "catch", ResultRow)
POUND = table(__name__, "pound", ResultRow)
CONCUSS = table(__name__, "concuss", ResultRow)
