"""The FORESIGHT reference tables, read from `tables.json` beside this module: the ease-factor
ladder (F:L251), the quality-rating table (F:L1366), the modifier tables (rule of thumb, player
input, knowledge, non-familiarity), random QRs, QRs as modifiers, blocking, gravity bands and
environments. Each is written once there and served as it is."""

import json
from enum import IntEnum, StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from pydantic import Field

from service.rules.model import Model
from service.rules.registry import Table

__all__ = [
    "BLOCKING",
    "DIFFICULTIES",
    "ENVIRONMENTS",
    "GRAVITY_BANDS",
    "KNOWLEDGE",
    "LADDER",
    "NON_FAMILIARITY",
    "PLAYER_INPUT",
    "QR",
    "QR_MODIFIERS",
    "QUALITY_RATINGS",
    "RANDOM_QUALITY_RATINGS",
    "TABLES",
    "Difficulty",
    "GravityBand",
    "Knowledge",
    "PlayerInput",
    "Unfamiliarity",
]

M = TypeVar("M", bound=Model)


class QR(IntEnum):
    """A quality rating; lower is better, and 4 - QR is its performance modifier (F:L1404)."""

    QR1 = 1
    QR2 = 2
    QR3 = 3
    QR4 = 4
    QR7 = 7
    QR10 = 10


class Difficulty(StrEnum):
    TRIVIALLY_EASY = "trivially_easy"
    VERY_EASY = "very_easy"
    RELATIVELY_EASY = "relatively_easy"
    AVERAGE = "average"
    RELATIVELY_HARD = "relatively_hard"
    VERY_HARD = "very_hard"
    EXTREMELY_HARD = "extremely_hard"
    NEAR_IMPOSSIBLE = "near_impossible"


class PlayerInput(StrEnum):
    ENTERTAINING = "entertaining"
    CONVINCING = "convincing"
    IN_CHARACTER = "in_character"
    BETTER_THAN_NOTHING = "better_than_nothing"
    NOTHING = "nothing"
    UNCONVINCING = "unconvincing"
    RIDICULOUS = "ridiculous"


class Knowledge(StrEnum):
    INADEQUATE = "inadequate"
    BARELY_SUFFICIENT = "barely_sufficient"
    ADEQUATE = "adequate"
    FAIR = "fair"
    DETAILED = "detailed"
    PROFOUND = "profound"


class Unfamiliarity(StrEnum):
    ALIEN = "alien"
    BIZARRE = "bizarre"
    FOREIGN = "foreign"
    JUST_WRONG = "just_wrong"
    FEELS_DIFFERENT = "feels_different"


class GravityBand(StrEnum):
    ZG = "ZG"
    NW = "NW"
    LT = "LT"
    NL = "NL"
    HY = "HY"
    EX = "EX"


class EaseFactorRow(Model):
    """A rung of the ease-factor ladder; modifiers move along it (F:L251-254)."""

    index: int
    value: float
    exact: str


class QualityRating(Model):
    """A row of the quality-rating table (F:L1366-1373) with the names of the other two."""

    qr: QR
    roll: str
    name: str
    intro_name: str = Field(description="The introduction's name (F:L310-317).")
    glossary_name: str = Field(description="The glossary's name (F:L362-367).")
    description: str
    yield_pct: int
    time_pct: int
    performance_modifier: int


class RuleOfThumb(Model):
    difficulty: Difficulty
    label: str
    modifier: int


class PlayerInputRow(Model):
    quality: PlayerInput
    label: str
    modifier: int
    stacks: bool = Field(description="The three positive qualities add up (F:L1462).")


class KnowledgeRow(Model):
    knowledge: Knowledge
    label: str
    low: int | None = Field(description="The lowest modifier the GM may pick; null: no floor.")
    high: int
    printed: str
    only_if_it_helps: bool = Field(description="Positive only if the knowledge helps (F:L1575).")


class NonFamiliarityRow(Model):
    degree: Unfamiliarity
    label: str
    modifier: int


class RandomQualityRating(Model):
    low: int
    high: int
    qr: QR


class QrModifier(Model):
    """A QR carried to a follow-up task: 4 - QR when cooperating, QR - 4 when opposing."""

    qr: QR
    cooperating: int
    opposing: int


class Blocking(Model):
    """The effective attack QR of one attack QR against each defence QR (F:L1511-1519)."""

    attack: QR
    against_qr1: QR
    against_qr2: QR
    against_qr3: QR
    against_qr4: QR
    against_qr7: QR
    against_qr10: QR

    def against(self, defence: QR) -> QR:
        effective: QR = getattr(self, f"against_qr{defence.value}")
        return effective


class GravityBandRow(Model):
    band: GravityBand
    name: str
    printed_range: str
    low: str | None = Field(description="Lower edge in g; null below ZG.")
    high: str | None = Field(description="Upper edge in g; null above EX.")


class Environment(Model):
    environment: str
    name: str
    description: str


_DATA: dict[str, Any] = json.loads(
    (Path(__file__).parent / "tables.json").read_text(encoding="utf-8")
)


def _rows(key: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = _DATA[key]["rows"]
    return rows


def _keyed(table: str, model: type[M], key: str) -> dict[Any, M]:
    """The rows of a table as models, keyed by one of their fields."""
    rows = [model.model_validate(row, strict=False) for row in _rows(table)]
    return {getattr(row, key): row for row in rows}


LADDER = tuple(Fraction(row["value"]) for row in _rows("ease_factors"))
QUALITY_RATINGS: dict[QR, QualityRating] = _keyed("quality_ratings", QualityRating, "qr")
DIFFICULTIES: dict[Difficulty, RuleOfThumb] = _keyed("rule_of_thumb", RuleOfThumb, "difficulty")
PLAYER_INPUT: dict[PlayerInput, PlayerInputRow] = _keyed("player_input", PlayerInputRow, "quality")
KNOWLEDGE: dict[Knowledge, KnowledgeRow] = _keyed("knowledge", KnowledgeRow, "knowledge")
NON_FAMILIARITY: dict[Unfamiliarity, NonFamiliarityRow] = _keyed(
    "non_familiarity", NonFamiliarityRow, "degree"
)
RANDOM_QUALITY_RATINGS = tuple(
    _keyed("random_quality_ratings", RandomQualityRating, "low").values()
)
QR_MODIFIERS: dict[QR, QrModifier] = _keyed("qr_modifiers", QrModifier, "qr")
BLOCKING = {
    QR(row["attack"]): Blocking.model_validate(
        {"attack": row["attack"]}
        | {f"against_qr{defence}": qr for defence, qr in row["against"].items()},
        strict=False,
    )
    for row in _rows("blocking")
}
GRAVITY_BANDS: dict[GravityBand, GravityBandRow] = _keyed("gravity_bands", GravityBandRow, "band")
ENVIRONMENTS = tuple(Environment.model_validate(row) for row in _rows("environments"))

_EASE_FACTORS = tuple(
    EaseFactorRow(index=i, value=float(v), exact=str(v)) for i, v in enumerate(LADDER)
)

_TABLES: tuple[tuple[str, str, str, tuple[str, ...], tuple[Model, ...]], ...] = (
    ("ease-factors", "ease_factors", "The ease-factor ladder",
     ("foresight.ease_factor.ladder",), _EASE_FACTORS),
    ("quality-ratings", "quality_ratings", "Quality ratings: yield, time and PM", (),
     tuple(QUALITY_RATINGS.values())),
    ("rule-of-thumb", "rule_of_thumb", "Rule of thumb modifiers",
     ("foresight.modifiers.rule_of_thumb",), tuple(DIFFICULTIES.values())),
    ("player-input", "player_input", "Player input modifiers", (), tuple(PLAYER_INPUT.values())),
    ("knowledge", "knowledge", "Knowledge modifiers", (), tuple(KNOWLEDGE.values())),
    ("non-familiarity", "non_familiarity", "Non-familiarity modifiers",
     ("foresight.modifiers.non_familiarity",), tuple(NON_FAMILIARITY.values())),
    ("random-quality-ratings", "random_quality_ratings", "Random quality ratings (D10)", (),
     RANDOM_QUALITY_RATINGS),
    ("qr-modifiers", "qr_modifiers", "QRs as modifiers to follow-up tasks", (),
     tuple(QR_MODIFIERS.values())),
    ("blocking", "blocking", "Opposed resolution: blocking", (), tuple(BLOCKING.values())),
    ("gravity-bands", "gravity_bands", "Gravity bands", (), tuple(GRAVITY_BANDS.values())),
    ("environments", "environments", "Environments", (), ENVIRONMENTS),
)  # fmt: skip


TABLES = tuple(
    Table(name, title, _DATA[key]["source"], covers, rows)
    for name, key, title, covers, rows in _TABLES
)
