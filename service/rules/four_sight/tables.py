"""The 4SIGHT target-number guide (S:L119-130). The other reference tables sit with the rules
that read them (traits, expertise, manifestations, degrees, injuries); all of them are written
in `tables.json` beside this module."""

from fractions import Fraction
from typing import Self

from pydantic import Field, model_validator

from service.rules.distribution import Exact, exact
from service.rules.model import Model
from service.rules.tables import table

__all__ = ["TARGET_NUMBERS", "TargetNumber"]


class TargetNumber(Model):
    """A row of the target-number guide for an average person (trait 0, no expertise)."""

    target_number: int
    printed_chance_pct: int = Field(description="As printed; 84% for TN 2 is a slip (S-A01).")
    exact_chance: Exact = Field(description="P(d6 >= TN) = (7 - TN) / 6.")
    example: str

    @model_validator(mode="after")
    def _exact(self) -> Self:
        if self.exact_chance != exact(Fraction(7 - self.target_number, 6)):
            raise ValueError(f"TN {self.target_number} does not succeed {self.exact_chance}")
        return self


TARGET_NUMBERS = table(__name__, "target-numbers", TargetNumber, covers=("4sight.tn_guide",))
