"""Drowning (FI:L15-23): calm water asks nothing of a swimmer; rougher water asks everyone for a
swimming check against its TN, and a miss costs the difference in CT. A character without
the skill in water over his head goes through the same steps, calm water included."""

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution
from service.rules.future_imperfect.core.checks import check_cost
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.future_imperfect.environment.exposure import (
    UNHARMED,
    Exposed,
    Exposure,
    LossOdds,
    check_of,
    exposed,
    loss_odds,
    losses,
)
from service.rules.future_imperfect.environment.options import EnvironmentOptions, Unskilled
from service.rules.future_imperfect.environment.tables import WATERS, Water
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["drowning"]


class DrowningInput(Model):
    water: Water
    swimming: PoolText | None = Field(
        default=None, description="The swimming pool; null for a character without the skill."
    )
    trait: Exposure | None = Field(
        default=None,
        description="The governing trait an unskilled swimmer rolls as a default (A-15); "
        "a skilled one's modifiers go here too, with his swimming pool as the pool.",
    )
    over_head: bool = Field(default=True, description="The water is over his head.")
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Drowning(Exposed):
    required: bool = Field(description="Whether the water calls for a roll at all.")
    tn: int | None


def _call(request: DrowningInput) -> tuple[int, Exposure, bool] | None:
    """The TN, the roll and whether it is halved; None where the water asks for no roll."""
    options = request.options
    if request.water is Water.CALM:
        if request.swimming is not None or not request.over_head:
            return None
        tn = options.calm_water_tn
    else:
        tn = next(row.tn for row in WATERS if row.water is request.water)
    if request.swimming is not None:
        base = request.trait or Exposure(pool=request.swimming)
        return tn, base.model_copy(update={"pool": request.swimming}), False
    if request.trait is None:
        raise InputError(("trait",), "a character without swimming rolls his trait: give it")
    return tn, request.trait, options.unskilled_mode is Unskilled.DEFAULT_HALVED


def drowning_odds(request: DrowningInput) -> LossOdds:
    """The CT lost to one round in the water, exactly."""
    call = _call(request)
    found: Distribution[tuple[bool, int]] = UNHARMED
    if call is not None:
        tn, roll, halved = call
        found = losses(check_of(roll, tn, request.options), halved)
    return loss_odds(found)


@operation(
    name="environment/drowning",
    kind=Kind.CHECK,
    covers=("fi.environment.drowning",),
    odds=drowning_odds,
    cost=check_cost,
    example={"water": "rapid_river", "swimming": "II-2", "dice": {"values": [4, 3]}},
)
def drowning(request: DrowningInput, dice: Dice) -> Drowning:
    """A swimming check against the water's TN (swift creek 5 to stormy seas 11); a miss costs
    the difference in CT (FI:L17). Asked once a round (A-15)."""
    call = _call(request)
    if call is None:
        return Drowning(check=None, ct_loss=0, required=False, tn=None)
    tn, roll, halved = call
    found = exposed(check_of(roll, tn, request.options), dice, halved)
    return Drowning(**dict(found), required=True, tn=tn)
