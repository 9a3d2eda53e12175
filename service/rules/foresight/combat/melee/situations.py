"""The situation rows of the Mêlée Attack, Parry and Dodge Modifiers tables (F:L3124-3187),
read as data: a row is a fixed modifier or a range the GM chooses within ("-1 to -3"), and
rows of one group ("Attacker Kneeling", "Squatting", "Prone") exclude each other."""

from collections.abc import Mapping, Sequence
from typing import Annotated

from pydantic import Field

from service.rules.foresight.resolution.modifiers import Term
from service.rules.model import InputError, Model
from service.rules.registry import Table
from service.rules.tables import table

__all__ = [
    "ATTACK_MODIFIERS",
    "DODGE_MODIFIERS",
    "MAX_SITUATIONS",
    "PARRY_MODIFIERS",
    "ChosenValue",
    "SituationRow",
    "by_key",
    "situation_term",
    "situation_terms",
]

#: More situations than any table has rows cannot all apply at once.
MAX_SITUATIONS = 16

ChosenValue = Annotated[int, Field(ge=-4, le=3)] | None


class SituationRow(Model):
    key: str
    situation: str
    low: int | None = Field(description="The modifier, or its lower end; null: not a number.")
    high: int | None
    group: str | None = Field(
        description="Rows of one group exclude each other; 'computed' rows are found from "
        "the request's other fields."
    )
    line: int


def by_key(rows: Table[SituationRow]) -> dict[str, SituationRow]:
    return {row.key: row for row in rows}


ATTACK_MODIFIER_TABLE = table(__name__, "melee-attack-modifiers", SituationRow)
PARRY_MODIFIER_TABLE = table(__name__, "parry-modifiers", SituationRow)
DODGE_MODIFIER_TABLE = table(__name__, "dodge-modifiers", SituationRow)
ATTACK_MODIFIERS = by_key(ATTACK_MODIFIER_TABLE)
PARRY_MODIFIERS = by_key(PARRY_MODIFIER_TABLE)
DODGE_MODIFIERS = by_key(DODGE_MODIFIER_TABLE)


def printed(row: SituationRow) -> str:
    """As the book prints it: the end nearer zero first ('-1 to -3', '0 to -1')."""
    assert row.low is not None
    assert row.high is not None
    if row.low == row.high:
        return f"{row.low:+d}"
    first, last = sorted((row.low, row.high), key=abs)
    return f"{first:+d} to {last:+d}".replace("+0", "0")


def situation_term(row: SituationRow, chosen: int | None, loc: tuple[str | int, ...]) -> Term:
    """The row's modifier: its value, or the GM's choice within its range (null takes the end
    nearer zero, the milder reading)."""
    assert row.low is not None
    assert row.high is not None
    if chosen is None:
        value = row.low if abs(row.low) <= abs(row.high) else row.high
    elif row.low <= chosen <= row.high:
        value = chosen
    else:
        raise InputError(loc, f"'{row.situation}' is {printed(row)}, not {chosen:+d}")
    return Term(source=row.situation, value=value)


def situation_terms(
    chosen: Sequence[tuple[str, int | None]],
    rows: Mapping[str, SituationRow],
    loc: tuple[str | int, ...],
) -> list[Term]:
    """A term for each situation chosen; each counts once and one row of a group at most."""
    terms: list[Term] = []
    groups: dict[str, str] = {}
    for i, (key, value) in enumerate(chosen):
        row = rows[key]
        if key in (k for k, _ in chosen[:i]):
            raise InputError((*loc, i, "situation"), f"'{row.situation}' is listed twice")
        if row.group is not None:
            if row.group in groups:
                raise InputError(
                    (*loc, i, "situation"),
                    f"'{row.situation}' and '{groups[row.group]}' exclude each other",
                )
            groups[row.group] = row.situation
        terms.append(situation_term(row, value, (*loc, i, "modifier")))
    return terms
