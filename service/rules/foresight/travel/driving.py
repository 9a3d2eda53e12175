"""A driving roll: the operator's vehicle skill (Groundcraft (DX+PC)/2 BEF E+3, Aircraft
(DX+PC)/2 BEF G+2, ...; F:L3460) rolled as a task with the rule's own modifiers shown as
named terms, or a QR the table already rolled (then those modifiers are the caller's to have
added). Shared by the travel legs and the pursuit manoeuvres."""

from typing import Annotated, Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.task import (
    Prepared,
    Rolled,
    prepare,
)
from service.rules.model import Model
from service.rules.registry import Reading

__all__ = [
    "ONE_ROLL",
    "Bid",
    "Prepared",
    "Rating",
    "Rolled",
    "SafetyRollDue",
    "one_roll_cost",
    "prepare",
    "safety_roll",
    "terms",
]

#: A speed bid: an ease-factor modifier no greater than +2; the lower, the faster (F:L3442).
Bid = Annotated[int, Field(ge=-17, le=2)]
#: A vehicle rating used as a modifier (Acc, Man, Safe, Size), already terrain-adjusted.
Rating = Annotated[int, Field(ge=-20, le=20)]

#: How a result reads its roll's QR as an outcome of `roll.qr` in its odds (best first).
ONE_ROLL = {"/roll/qr": Reading(read=lambda result: result.qr.name, best_first=True)}


def one_roll_cost(request: Any) -> Estimate:
    """One D100 read (100 states), then a few tables over its six QRs: at most 400 states,
    the same for every request."""
    return Estimate(400, ())


def terms(*named: tuple[str, int]) -> list[Term]:
    """The rule's own modifiers that are not zero, each shown by its source."""
    return [Term(source=source, value=value) for source, value in named if value]


class SafetyRollDue(Model):
    """A safety roll the rule calls for (F:L3475): made with the operator's vehicle skill at
    +(speed bid - the vehicle's Safe), read on the Safety Roll table (F:L3477-3482) by
    `foresight.pursuit.safety_roll`, which this operation does not make."""

    by: str = Field(description="Whose driver rolls: 'driver' (this vehicle) or 'target'.")
    reason: str
    modifier: int | None = Field(
        description="+(speed bid - Safe), when the vehicle's Safe rating was given."
    )


def safety_roll(by: str, reason: str, bid: int, safe: int | None) -> SafetyRollDue:
    return SafetyRollDue(by=by, reason=reason, modifier=None if safe is None else bid - safe)
