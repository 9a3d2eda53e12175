"""The Willpower roll of a badly wounded character (F:L2584-2590; catalogue part 2, #18): at
WL4 to act at all, at WL5 to stay or come round conscious, at WL6-7 to come round for about a
minute after a good deterioration roll; at -WL and the other modifiers 'to all activity'."""

from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.foresight.mortality.condition import DEAD, Condition, Consciousness
from service.rules.foresight.mortality.stamina import activity_terms
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["consciousness_wp"]


class WillpowerInput(Model):
    condition: Condition
    willpower: Task = Field(description="The WP roll: WP score; BEF the attribute BEF if none.")
    deterioration_succeeded: bool = Field(
        default=False, description="At WL6-7: this period's deterioration roll succeeded."
    )
    options: ResolutionOptions = Field(default=ResolutionOptions())


class Willpower(Model):
    rolled: Resolution | None = Field(description="Null when no WP roll is allowed or needed.")
    may_act: bool = Field(description="The character may act this turn.")
    actions_lost: Annotated[int, Field(ge=0)] = Field(description="WL4: one action fewer.")
    consciousness: Consciousness
    condition: Condition


def _wp_setup(request: WillpowerInput) -> Setup | None:
    level = request.condition.wound_level
    if level < 4 or level >= DEAD or (level >= 6 and not request.deterioration_succeeded):
        return None
    # -1 a wound level (F:L2590) and the exhaustion modifier, both 'to all activity'.
    penalty = tuple(activity_terms(request.condition))
    attribute = request.options.attribute_bef
    return setup_at(("willpower",), request.willpower, request.options, penalty, attribute)


class WillpowerOdds(Model):
    willpower: QualityOdds | None


def _wp_odds(request: WillpowerInput) -> WillpowerOdds:
    task = _wp_setup(request)
    return WillpowerOdds(willpower=None if task is None else quality_odds(distribution(task)))


@operation(
    name="wound-level/consciousness-wp",
    kind=Kind.CHECK,
    covers=("foresight.wound_level.consciousness_wp",),
    odds=_wp_odds,
    cost=task_cost,
    example={
        "condition": {"wound_level": 4, "max_wound_level": 4},
        "willpower": {"score": 9},
        "dice": {"values": [12]},
    },
)
def consciousness_wp(request: WillpowerInput, dice: Dice) -> Willpower:
    """The Willpower roll of a badly wounded character, at -WL (F:L2590): at WL4 every combat
    turn to act at all, losing one action (F:L2584); at WL5 to stay or come round conscious
    (F:L2585); at WL6-7, after a successful deterioration roll, to come round for about a
    minute (F:L2586-2587)."""
    condition = request.condition
    level = condition.wound_level
    task = _wp_setup(request)
    if task is None:
        conscious = level < 6 and condition.consciousness is Consciousness.CONSCIOUS
        state = Consciousness.CONSCIOUS if conscious else Consciousness.UNCONSCIOUS
        if level >= 6:
            state = Consciousness.UNCONSCIOUS
        return Willpower(
            rolled=None,
            may_act=conscious and level < 4,
            actions_lost=0,
            consciousness=state,
            condition=condition.model_copy(update={"consciousness": state}),
        )
    rolled = roll(task, dice, "willpower")
    if level == 4:
        state = condition.consciousness
        may_act = rolled.success and state is Consciousness.CONSCIOUS
        lost = 1 if may_act else 0
    else:
        state = Consciousness.CONSCIOUS if rolled.success else Consciousness.UNCONSCIOUS
        may_act, lost = rolled.success, 0
    return Willpower(
        rolled=rolled,
        may_act=may_act,
        actions_lost=lost,
        consciousness=state,
        condition=condition.model_copy(update={"consciousness": state}),
    )
