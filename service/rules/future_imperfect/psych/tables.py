"""The psychology tables, read from `tables.json` beside this module: the skill opposing each
psychological contest (FI:L637-640), contest and fear effects by successes (FI:L643-646,
FI:L696-700) and the simple contests' TNs (FI:L666-670)."""

from collections.abc import Sequence

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["CONTEST_EFFECTS", "FEAR_EFFECTS", "OPPOSED_SKILLS", "SIMPLE_TNS", "by_successes"]


class OpposedRow(Model):
    contest: str
    opposed: str


class EffectRow(Model):
    successes: int
    effect: str


class SimpleRow(Model):
    opposing: str
    tn: int


OPPOSED_SKILLS = table(__name__, "opposed_skills", OpposedRow)
CONTEST_EFFECTS = table(__name__, "contest_effects", EffectRow)
FEAR_EFFECTS = table(__name__, "fear_effects", EffectRow)
SIMPLE_TNS = table(__name__, "simple_contest_tns", SimpleRow)


def by_successes(rows: Sequence[EffectRow], successes: int) -> str:
    """The effect of so many successes; the last row stands for it and more."""
    return rows[min(successes, len(rows) - 1)].effect
