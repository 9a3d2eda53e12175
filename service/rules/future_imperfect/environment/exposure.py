"""The shape most hazards share: a check against the hazard's TN each round (or each interval),
and on failure "the difference between the roll and the TN in CT" (FI:L17, FI:L33, FI:L39,
FI:L43). A critical failure loses the TN less its highest die (catalogue 3.2.1, A-06)."""

from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    DEPTH,
    Checked,
    CheckInput,
    Modifier,
    graded,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.model import Model

__all__ = [
    "UNHARMED",
    "Exposed",
    "Exposure",
    "LossOdds",
    "check_of",
    "exposed",
    "loss_odds",
    "losses",
    "lost",
]

TN = Annotated[int, Field(ge=0, le=100)]


class Exposure(Model):
    """A character's roll against a hazard."""

    pool: PoolText = Field(description="The pool rolled: Fortitude for most hazards.")
    modifiers: tuple[Modifier, ...] = Field(
        default=(), max_length=7, description="Up to 7: the hazard may add its own (FI:L33)."
    )
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = 0


class Exposed(Model):
    check: Checked | None = Field(description="The roll; null where none is called for.")
    ct_loss: int = Field(description="CT lost this round (or interval).")


def check_of(exposure: Exposure, tn: int, options: CoreOptions, extra: int = 0) -> CheckInput:
    """The check a hazard calls for; `extra` is the hazard's own bonus (a wet cloth)."""
    modifiers = (*exposure.modifiers, extra) if extra else exposure.modifiers
    return CheckInput(pool=exposure.pool, tn=tn, modifiers=modifiers,
                      wound_penalty=exposure.wound_penalty, options=options)  # fmt: skip


def lost(checked: Checked, tn: int) -> int:
    """The TN less the result on a failure (FI:L17, FI:L33); a critical failure whose highest
    die still reaches the TN fails (A-06) but its difference is no loss, never negative CT."""
    return 0 if checked.success else max(tn - checked.en, 0)


def exposed(request: CheckInput, dice: Dice, halved: bool = False) -> Exposed:
    checked = roll_check(request, dice, halved)
    return Exposed(check=checked, ct_loss=lost(checked, request.tn))


class LossOdds(Model):
    ct_loss: list[OutcomeProbability]
    success: Exact = Field(description="Of the check; 1 where none is called for.")
    truncation: Truncation | None


def losses(request: CheckInput, halved: bool = False) -> Distribution[tuple[bool, int]]:
    """(success, CT lost) of a check against a hazard."""

    def loss(outcome: tuple[bool, int]) -> tuple[bool, int]:
        success, _ = graded(outcome[1], outcome[0], request)
        return success, 0 if success else max(request.tn - outcome[1], 0)

    return results(request, halved).map(loss)


def loss_odds(found: Distribution[tuple[bool, int]]) -> LossOdds:
    return LossOdds(
        ct_loss=outcome_table(found.map(lambda o: o[1])),
        success=exact(found.probability_where(lambda o: o[0])),
        truncation=truncation(found, DEPTH),
    )


#: No roll: nothing lost, for certain.
UNHARMED: Distribution[tuple[bool, int]] = Distribution({(True, 0): 1})
