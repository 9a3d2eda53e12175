"""Brawling (FI:L544-552): fists and light weapons are nonlethal, 3 CT for every wound level a
hit would have made and a real wound every full two (FI:L546); basic martial arts is a task
like any skill's, its damage nonlethal as lightly armed (FI:L552)."""

from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import OutcomeProbability, Truncation, outcome_table, truncation
from service.rules.future_imperfect.core.checks import (
    BUMPS_ROLLED,
    Checked,
    CheckInput,
    check,
    check_cost,
    check_odds,
)
from service.rules.future_imperfect.core.damage import (
    Size,
    ct_dice_only,
    depth_for,
    roll_concussion,
    sum_states,
    summed,
    wounds_of,
)
from service.rules.future_imperfect.harm.options import HarmOptions, NonlethalCt
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["martial_arts", "nonlethal"]


class NonlethalInput(Model):
    total: Annotated[int, Field(ge=0, le=1000)] = Field(description="The damage drawn.")
    size: Size = 6
    options: HarmOptions = Field(default=HarmOptions())


class Nonlethal(Model):
    levels: int = Field(description="The wound levels a lethal hit would have made (FI:L546).")
    ct_dice: list[tuple[int, ...]] = Field(description="1d6 CT dice, open-ended, if any.")
    ct_loss: int
    wounds: int = Field(description="A real wound every full 2 levels (FI:L546).")


def _ct_dice(levels: int, options: HarmOptions) -> int:
    """The d6 a nonlethal hit rolls: none but for a hit that wounds nothing, or with add_d6
    one a level (at most the levels a location holds) (A-69). CT is dice: the deck engine is
    refused whether or not any die is rolled (`ct_dice_only`)."""
    ct_dice_only(options)
    if options.nonlethal_ct_mode is NonlethalCt.ADD_D6 and levels:
        return min(levels, options.wound_cap)
    return 1 if levels == 0 and options.nonlethal_unwounding_d6 else 0


class NonlethalOdds(Model):
    ct_loss: list[OutcomeProbability]
    truncation: Truncation | None


def nonlethal_odds(request: NonlethalInput) -> NonlethalOdds:
    """The CT lost, exactly: 3 a level and the d6 the options roll."""
    levels = wounds_of(request.total, request.size)
    count = _ct_dice(levels, request.options)
    found = summed([6] * count).map(lambda ct: ct + 3 * levels)
    return NonlethalOdds(
        ct_loss=outcome_table(found), truncation=truncation(found, depth_for([6] * count))
    )


def nonlethal_cost(request: NonlethalInput) -> Estimate:
    """At most six open-ended d6 summed."""
    return Estimate(2 * sum_states([6] * 6) + 100, ())


@operation(
    name="combat/damage/nonlethal",
    kind=Kind.GENERATION,
    covers=("fi.combat.damage.nonlethal",),
    odds=nonlethal_odds,
    cost=nonlethal_cost,
    example={"total": 4, "size": 6, "dice": {"values": [3]}},
)
def nonlethal(request: NonlethalInput, dice: Dice) -> Nonlethal:
    """Unarmed or lightly armed (brawling, a bottle), a hit inflicts 3 CT for every wound level
    it would have caused, and a real wound for every full 2 (FI:L546); a heavier club is
    lethal or not as the attacker says before drawing (FI:L546). Hrulfgarr's bottle does 15 to
    a Size 6 head: 2 levels, so 6 CT and 1 wound (FI:L548). Any hit costs at least 1d6 CT
    (FI:L591): a nonlethal one that would wound nothing rolls it."""
    levels = wounds_of(request.total, request.size)
    count = _ct_dice(levels, request.options)
    rolled = roll_concussion(count, dice) if count else []
    return Nonlethal(
        levels=levels,
        ct_dice=rolled,
        wounds=levels // 2,
        ct_loss=3 * levels + sum(sum(d) for d in rolled),
    )


class MartialArtsInput(CheckInput):
    pass


class Struck(Checked):
    nonlethal: bool = Field(description="Its damage is nonlethal, 'mostly' (FI:L552).")


@operation(
    name="combat/martial-arts/basic",
    rolled=BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.combat.martial_arts.basic",),
    odds=check_odds,
    cost=check_cost,
    example={"pool": "III-3", "tn": 7, "dice": {"values": [2, 7, 5]}},
)
def martial_arts(request: MartialArtsInput, dice: Dice) -> Struck:
    """Basic brawling or martial arts is a task like any other skill's: a level of 3 rolls 3
    dice (FI:L552); its damage is nonlethal as lightly armed (combat/damage/nonlethal). The
    advanced rules are in another chapter."""
    return Struck(**dict(check.rule(request, dice)), nonlethal=True)
