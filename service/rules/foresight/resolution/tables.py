"""The FORESIGHT reference tables, read from `tables.json` beside this module: the ease-factor
ladder (F:L251), the quality-rating table (F:L1366), the modifier tables (rule of thumb, player
input, knowledge, non-familiarity), random QRs, QRs as modifiers, blocking, gravity bands and
environments. Each is written once there and served as it is; a rule looks rows up by key in
the dictionaries made from the tables (QUALITY_RATINGS[qr])."""

from enum import IntEnum, StrEnum
from fractions import Fraction
from typing import Self

from pydantic import Field, model_validator

from service.rules.model import Model
from service.rules.tables import table

__all__ = [
    "BLOCKING",
    "BLOCKING_TABLE",
    "DIFFICULTIES",
    "EASE_FACTORS",
    "ENVIRONMENTS",
    "GRAVITY_BANDS",
    "GRAVITY_BAND_TABLE",
    "KNOWLEDGE",
    "KNOWLEDGE_TABLE",
    "LADDER",
    "NON_FAMILIARITY",
    "NON_FAMILIARITY_TABLE",
    "PLAYER_INPUT",
    "PLAYER_INPUT_TABLE",
    "QR",
    "QR_MODIFIERS",
    "QR_MODIFIER_TABLE",
    "QUALITY_RATINGS",
    "QUALITY_RATING_TABLE",
    "RANDOM_QUALITY_RATINGS",
    "RULE_OF_THUMB",
    "Difficulty",
    "GravityBand",
    "Knowledge",
    "PlayerInput",
    "Unfamiliarity",
]


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

    @model_validator(mode="after")
    def _agree(self) -> Self:
        if self.value != float(Fraction(self.exact)):
            raise ValueError(f"ease factor {self.exact} is not {self.value}")
        return self


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


EASE_FACTORS = table(
    __name__, "ease-factors", EaseFactorRow, covers=("foresight.ease_factor.ladder",)
)
LADDER = tuple(Fraction(row.exact) for row in EASE_FACTORS)

QUALITY_RATING_TABLE = table(__name__, "quality-ratings", QualityRating)
QUALITY_RATINGS = {row.qr: row for row in QUALITY_RATING_TABLE}

RULE_OF_THUMB = table(
    __name__, "rule-of-thumb", RuleOfThumb, covers=("foresight.modifiers.rule_of_thumb",)
)
DIFFICULTIES = {row.difficulty: row for row in RULE_OF_THUMB}

PLAYER_INPUT_TABLE = table(__name__, "player-input", PlayerInputRow)
PLAYER_INPUT = {row.quality: row for row in PLAYER_INPUT_TABLE}

KNOWLEDGE_TABLE = table(__name__, "knowledge", KnowledgeRow)
KNOWLEDGE = {row.knowledge: row for row in KNOWLEDGE_TABLE}

NON_FAMILIARITY_TABLE = table(
    __name__, "non-familiarity", NonFamiliarityRow, covers=("foresight.modifiers.non_familiarity",)
)
NON_FAMILIARITY = {row.degree: row for row in NON_FAMILIARITY_TABLE}

RANDOM_QUALITY_RATINGS = table(__name__, "random-quality-ratings", RandomQualityRating)

QR_MODIFIER_TABLE = table(__name__, "qr-modifiers", QrModifier)
QR_MODIFIERS = {row.qr: row for row in QR_MODIFIER_TABLE}

BLOCKING_TABLE = table(__name__, "blocking", Blocking)
BLOCKING = {row.attack: row for row in BLOCKING_TABLE}

GRAVITY_BAND_TABLE = table(__name__, "gravity-bands", GravityBandRow)
GRAVITY_BANDS = {row.band: row for row in GRAVITY_BAND_TABLE}

ENVIRONMENTS = table(__name__, "environments", Environment)
