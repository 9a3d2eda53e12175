"""The 4D8 reference tables, read from `tables.json` beside this module: ease meanings
(D:L18-26), degree interpretations (D:L61-68) and the special-effect texts of both versions of
the combination rules (D:L84-113, D:L129-172)."""

from collections.abc import Iterable
from enum import StrEnum

from service.rules.model import Model
from service.rules.tables import table

__all__ = [
    "EASE_MEANINGS",
    "EFFECT_TEXTS",
    "INTERPRETATIONS",
    "Band",
    "Combination",
    "EffectText",
    "band",
]


class Combination(StrEnum):
    """The shape of four dice (4d8.combo.classify)."""

    FOUR_SAME = "four_same"
    TRIPLET = "triplet"
    TWO_PAIRS = "two_pairs"
    PAIR = "pair"
    DISTINCT = "distinct"


class Band(Model):
    """A range of values and its meaning; an open end is null."""

    low: int | None
    high: int | None
    meaning: str

    def holds(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


class EffectText(Model):
    """One special-effect text, keyed by combination and aspect (or aspect pair)."""

    version: str
    combination: Combination
    key: str
    text: str
    source: str


EASE_MEANINGS = table(__name__, "ease-meanings", Band, covers=("4d8.ease_meaning",))
INTERPRETATIONS = table(
    __name__, "degree-interpretations", Band, covers=("4d8.degree_interpretation",)
)
EFFECT_TEXTS = table(__name__, "effect-texts", EffectText, covers=("4d8.combo.effect_text",))


def band(bands: Iterable[Band], value: int) -> str:
    """The meaning of the band that holds `value`."""
    return next(b.meaning for b in bands if b.holds(value))
