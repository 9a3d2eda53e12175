"""Surprise (FI:L161-165): a Bravery check, Standard (5) when the hero expects danger,
Incredible (11) when not; failed, he draws no cards and cannot act that round. The next
round he acts normally on an Easy (3) Bravery check; failing that, he stays surprised another
round, and so on (A-35)."""

from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import OutcomeProbability, Truncation, outcome_table, truncation
from service.rules.future_imperfect.core.checks import (
    DEPTH,
    Checked,
    CheckInput,
    Modifier,
    check_cost,
    graded,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.future_imperfect.time.options import TimeOptions
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["surprise"]

#: The Bravery TNs (FI:L165): expecting danger, not expecting it, and the rounds after.
EXPECTING, UNEXPECTED, AFTER = 5, 11, 3


class SurpriseInput(Model):
    pool: PoolText = Field(description="The Bravery pool.")
    expecting_danger: bool = Field(default=False)
    surprised_last_round: bool = Field(
        default=False, description="Still surprised: the Easy (3) check to act again (A-35)."
    )
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=8)
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = 0
    options: TimeOptions = Field(default=TimeOptions())


class Surprised(Model):
    tn: int
    check: Checked
    surprised: bool = Field(description="No cards, no actions this round, not even a reserve.")


def _check(request: SurpriseInput) -> CheckInput:
    tn = (AFTER if request.surprised_last_round
          else EXPECTING if request.expecting_danger else UNEXPECTED)  # fmt: skip
    return CheckInput(pool=request.pool, tn=tn, modifiers=request.modifiers,
                      wound_penalty=request.wound_penalty, options=request.options)  # fmt: skip


class SurpriseOdds(Model):
    surprised: list[OutcomeProbability]
    truncation: Truncation | None


def surprise_odds(request: SurpriseInput) -> SurpriseOdds:
    """P(surprised), exactly: the check fails or critically fails."""
    check = _check(request)
    found = results(check).map(lambda r: not graded(r[1], r[0], check)[0])
    return SurpriseOdds(surprised=outcome_table(found, [True, False]),
                        truncation=truncation(found, DEPTH))  # fmt: skip


@operation(
    name="combat/surprise",
    kind=Kind.CHECK,
    covers=("fi.combat.surprise",),
    odds=surprise_odds,
    cost=check_cost,
    example={"pool": "III-2", "expecting_danger": True, "dice": {"values": [4, 2]}},
)
def surprise(request: SurpriseInput, dice: Dice) -> Surprised:
    """Anytime a hero might be surprised, the Master asks for a Bravery check: Standard (5)
    if he expects some danger, Incredible (11) if not. Failed, he gets no cards and cannot
    act that round; he acts normally in the next round if he makes an Easy (3) Bravery check
    (FI:L165)."""
    check = _check(request)
    checked = roll_check(check, dice)
    return Surprised(tn=check.tn, check=checked, surprised=not checked.success)
