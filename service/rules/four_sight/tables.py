"""The 4SIGHT reference tables served as data: traits, expertise, manifestations, the
target-number guide, degrees of success and injuries."""

from fractions import Fraction

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.four_sight.degrees import DEGREES
from service.rules.four_sight.expertise import AFFINITIES
from service.rules.four_sight.injuries import INJURIES
from service.rules.four_sight.manifestations import MANIFESTATIONS
from service.rules.four_sight.traits import TRAITS
from service.rules.model import Model
from service.rules.registry import Table

__all__ = ["TABLES", "TARGET_NUMBERS", "TargetNumber"]


class TargetNumber(Model):
    """A row of the target-number guide for an average person (trait 0, no expertise)."""

    target_number: int
    printed_chance_pct: int = Field(description="As printed; 84% for TN 2 is a slip (S-A01).")
    exact_chance: Exact = Field(description="P(d6 >= TN) = (7 - TN) / 6.")
    example: str


_EXAMPLES = (
    "Strolling down the street", "Climbing a rope ladder", "Following tracks in soft mud",
    "Swimming in a strong current", "Picking an ordinary lock", "Gaining entry to the enemy camp",
    "Killing a man with one blow",
)  # fmt: skip
_PRINTED = (100, 84, 67, 50, 33, 17, 0)  # S:L122-128

TARGET_NUMBERS = tuple(
    TargetNumber(target_number=tn, printed_chance_pct=printed,
                 exact_chance=exact(Fraction(7 - tn, 6)), example=example)
    for tn, printed, example in zip(range(1, 8), _PRINTED, _EXAMPLES, strict=True)
)  # fmt: skip


TABLES = (
    Table("traits", "Traits", "S:L51-67", ("4sight.traits_catalog",), TRAITS),
    Table("expertise", "Affinities and their specialties", "S:L69-85",
          ("4sight.expertise_catalog",), AFFINITIES),
    Table("manifestations", "4SIGHT manifestations", "S:L87-103, S:L140-148",
          ("4sight.manifestation_catalog",), MANIFESTATIONS),
    Table("target-numbers", "Target numbers for an average person", "S:L119-130",
          ("4sight.tn_guide",), TARGET_NUMBERS),
    Table("degrees", "Degrees of success", "S:L150-169", (), DEGREES),
    Table("injuries", "Injuries and their penalties", "S:L191-207", (), INJURIES),
)  # fmt: skip
