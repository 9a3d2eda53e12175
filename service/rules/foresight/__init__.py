"""FORESIGHT: SC = Score x Ease Factor, one D100 roll read as a quality rating (seed 004,
catalogue foresight-1.md and foresight-2.md). This package holds the resolution rule that the
character, combat and mortality operations build on."""

from service.rules.foresight.abilities import attribute_as_skill, unskilled
from service.rules.foresight.chance import success_chance
from service.rules.foresight.contests import blocking_qr, cooperative, opposed
from service.rules.foresight.ease import add_modifiers, bef_of
from service.rules.foresight.familiarity import familiarities, gravity_band, long_term_familiarity
from service.rules.foresight.modifiers import knowledge, player_input
from service.rules.foresight.quality import (
    qr_as_modifier,
    random_quality_rating,
    read_roll,
    yield_time_pm,
)
from service.rules.foresight.resolution import resolve
from service.rules.foresight.retry import retry
from service.rules.foresight.scores import rounded, score_twenty_plus
from service.rules.foresight.tables import tables
from service.rules.registry import System

__all__ = ["SYSTEM"]

SYSTEM = System(
    slug="foresight",
    title="FORESIGHT",
    seed="004_0f2ce8cae6aa3515.txt",
    operations=(
        resolve, success_chance, opposed, blocking_qr, cooperative, unskilled,
        attribute_as_skill, retry, random_quality_rating, read_roll, yield_time_pm,
        qr_as_modifier, add_modifiers, bef_of, score_twenty_plus, rounded, player_input,
        knowledge, familiarities, gravity_band, long_term_familiarity,
    ),
    tables=tables(),
    # Every score up to 20 at the common BEFs (3 to 6, and 7 for attributes), and random QRs.
    standard_odds=(
        *((resolve, {"score": score, "bef": bef}) for score in range(1, 21) for bef in range(3, 8)),
        (random_quality_rating, {}),
    ),
)  # fmt: skip
