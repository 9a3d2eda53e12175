"""The 4D8 reference tables, read from `tables.json` beside this module: ease meanings
(D:L18-26), degree interpretations (D:L61-68) and the special-effect texts of both versions of
the combination rules (D:L84-113, D:L129-172)."""

import json
from enum import StrEnum
from pathlib import Path

from service.rules.model import Model
from service.rules.registry import Table

__all__ = [
    "EASE_MEANINGS",
    "EFFECT_TEXTS",
    "INTERPRETATIONS",
    "TABLES",
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


_DATA = json.loads((Path(__file__).parent / "tables.json").read_text(encoding="utf-8"))

EASE_MEANINGS = tuple(Band.model_validate(row) for row in _DATA["ease_meanings"]["rows"])
INTERPRETATIONS = tuple(Band.model_validate(row) for row in _DATA["degree_interpretations"]["rows"])
EFFECT_TEXTS = tuple(
    EffectText.model_validate(row, strict=False) for row in _DATA["effect_texts"]["rows"]
)


def band(bands: tuple[Band, ...], value: int) -> str:
    """The meaning of the band that holds `value`."""
    return next(b.meaning for b in bands if b.holds(value))


_TABLES = (
    ("ease-meanings", "ease_meanings", "Ease", "4d8.ease_meaning", EASE_MEANINGS),
    ("degree-interpretations", "degree_interpretations",
     "Interpretation of the degree of success", "4d8.degree_interpretation", INTERPRETATIONS),
    ("effect-texts", "effect_texts", "Special effects of dice combinations",
     "4d8.combo.effect_text", EFFECT_TEXTS),
)  # fmt: skip


TABLES = tuple(
    Table(name, title, _DATA[key]["source"], (covers,), rows)
    for name, key, title, covers, rows in _TABLES
)
