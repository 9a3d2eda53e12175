"""The core tables of Future Imperfect, read from `tables.json` beside this module: the
difficulty names and their TNs (FI:L29, FI:L33, FI:L57, FI:L147, FI:L165, FI:L607)."""

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["DIFFICULTIES", "Difficulty"]


class Difficulty(Model):
    name: str
    tn: int
    source: str


DIFFICULTIES = table(__name__, "difficulties", Difficulty, covers=("fi.core.difficulty",))
