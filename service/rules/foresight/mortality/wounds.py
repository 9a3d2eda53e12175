"""Wound levels (F:L2574-2626): what each level means and when it is rolled for, the modifier
it puts on tasks, how a new wound accumulates, and the worst level since last healthy."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.foresight.mortality.condition import (
    ARMS,
    DEAD,
    LEGS,
    MAX_LEVEL,
    AccumulationOptions,
    Condition,
    Location,
    WoundLevel,
    is_dead,
    was_wounded,
    wound,
    wound_name,
)
from service.rules.foresight.resolution.modifiers import Term
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["Schedule", "pain_resistance_terms", "schedule", "wound_terms"]

MINUTE = 60
DAY = 24 * 60 * MINUTE


class Schedule(Model):
    """The periodic rolls of a wound level (F:L2580-2588), intervals in seconds."""

    recovery_interval_s: int | None = Field(description="EN roll to recover; null: none.")
    deterioration_interval_s: int | None = Field(description="EN roll against worsening.")
    willpower_each_turn: bool = Field(description="A WP roll every combat turn (WL4, WL5).")
    notes: str


_SCHEDULE = (
    (None, None, False, ""),
    (DAY, None, False, "Make a recovery roll every day."),
    (5 * DAY, None, False, "Make a recovery roll every five days."),
    (20 * DAY, None, False, "Make a recovery roll every twenty days."),
    (
        DAY,
        None,
        True,
        "Make a recovery roll every day. Character must make a WP (willpower) "
        "roll every combat turn to take any action and loses one action.",
    ),
    (
        30 * MINUTE,
        30 * MINUTE,
        True,
        "Make a recovery and deterioration roll every thirty "
        "minutes (they can cancel out). Character must make a WP roll every combat turn to remain "
        "or recover consciousness.",
    ),
    (
        None,
        5 * MINUTE,
        False,
        "Make a deterioration roll every five minutes. Character may "
        "make a WP roll if the deterioration roll is successful to regain consciousness for a "
        "about one minute.",
    ),
    (
        None,
        MINUTE,
        False,
        "Make a deterioration roll every minute. Character may make a WP "
        "roll if the deterioration roll is successful to regain consciousness for a about one "
        "minute.",
    ),
    (None, None, False, "Character is dead"),
)


def schedule(level: int) -> Schedule:
    """The rolls the Wound Level Descriptions table prescribes for `level` (F:L2580-2588)."""
    recovery, deterioration, willpower, notes = _SCHEDULE[min(level, DEAD)]
    return Schedule(
        recovery_interval_s=recovery,
        deterioration_interval_s=deterioration,
        willpower_each_turn=willpower,
        notes=notes,
    )


class DescribeInput(Model):
    wound_level: WoundLevel


class Description(Model):
    wound_level: int
    name: str
    schedule: Schedule
    task_modifier: int = Field(description="-WL to any task (F:L2590).")
    dead: bool


@operation(
    name="wound-level/describe",
    kind=Kind.LOOKUP,
    covers=("foresight.wound_level.describe", "foresight.wound_level.schedule"),
    example={"wound_level": 5},
)
def describe(request: DescribeInput) -> Description:
    """A wound level's name and periodic rolls (F:L2576-2588): 1 light, recovery roll every
    day; 2 medium, every five days; 3 heavy, every twenty days; 4 incapacitated, every day;
    5 critical, recovery and deterioration every thirty minutes; 6 dying, deterioration
    every five minutes; 7 near death, every minute; 8 and beyond dead."""
    level = request.wound_level
    return Description(
        wound_level=level,
        name=wound_name(level),
        schedule=schedule(level),
        task_modifier=-level,
        dead=level >= DEAD,
    )


class AccumulationInput(Model):
    condition: Condition = Field(default=Condition())
    wound_levels: int = Field(ge=0, le=MAX_LEVEL, description="The new wound's level.")
    location: Location | None = Field(
        default=None, description="Where it struck; null for unlocated damage (AMB2-09)."
    )
    options: AccumulationOptions = Field(default=AccumulationOptions())


class Accumulated(Model):
    condition: Condition
    wound_level: int
    wound_name: str
    added: int = Field(description="How much the wound level rose.")
    dead: bool


@operation(
    name="wound-accumulation",
    kind=Kind.CALCULATION,
    covers=("foresight.wound_accumulation", "foresight.max_wound_level.track"),
    example={"condition": {"wound_level": 3}, "wound_levels": 3, "location": "left_arm"},
)
def accumulation(request: AccumulationInput) -> Accumulated:
    """A new wound joins the old: to the head, chest or abdomen it adds (WL2 + WL3 to the head
    is WL5, F:L2616); to a limb it adds its level less two, or replaces the old level if that
    is higher (WL3 + WL3 to a limb is 4, F:L2622; WL1 + WL3 is 3, F:L2624). Without the
    optional rule every wound adds (F:L2594). The worst level since last healthy follows it
    up (F:L2604)."""
    before = request.condition.wound_level
    after = wound(request.condition, request.wound_levels, request.location, request.options)
    return Accumulated(
        condition=after,
        wound_level=after.wound_level,
        wound_name=wound_name(after.wound_level),
        added=after.wound_level - before,
        dead=is_dead(after),
    )


class ChestEffect(StrEnum):
    NONE = "none"
    AS_ABDOMEN = "as_abdomen"


class WoundEffectOptions(Model):
    """Readings of the hit-location effects on later tasks."""

    chest_effect: ChestEffect = option(
        ChestEffect.NONE,
        ambiguity="AMB2-26",
        description=(
            "The chest's row of the Hit Location table is blank (F:L2708): no lasting effect, "
            "or the abdomen's -1 to Pain Resistance read as covering it too."
        ),
    )


def pain_resistance_terms(condition: Condition, options: WoundEffectOptions) -> list[Term]:
    """A wounded abdomen (or chest, AMB2-26) costs -1 on Pain Resistance until fully
    recovered (F:L2709)."""
    places = {Location.ABDOMEN}
    if options.chest_effect is ChestEffect.AS_ABDOMEN:
        places.add(Location.CHEST)
    if was_wounded(condition, places):
        return [Term(source="wounded abdomen", value=-1)]
    return []


def wound_terms(condition: Condition, doubled: bool = False) -> list[Term]:
    """-WL to any task (F:L2590), doubled for a task that uses a wounded arm or, with a
    wounded leg, an agility task (F:L2706, F:L2710)."""
    level = condition.wound_level * (2 if doubled else 1)
    return [Term(source="wound level" + (" (doubled)" if doubled else ""), value=-level)]


class TaskModifierInput(Model):
    condition: Condition
    arms_used: Annotated[tuple[Location, ...], Field(max_length=2)] = Field(
        default=(), description="The arms the task uses: 'right_arm', 'left_arm'."
    )
    agility: bool = Field(default=False, description="An agility-related task.")
    pain_resistance: bool = Field(default=False, description="A Pain Resistance roll.")
    options: WoundEffectOptions = Field(default=WoundEffectOptions())


class TaskModifier(Model):
    modifier: int
    terms: list[Term]
    doubled: bool


@operation(
    name="wound-level/task-modifier",
    kind=Kind.CALCULATION,
    covers=("foresight.wound_level.task_modifier",),
    example={
        "condition": {
            "wound_level": 2,
            "max_wound_level": 2,
            "wounds": [{"location": "right_arm", "levels": 2}],
        },
        "arms_used": ["right_arm"],
    },
)
def task_modifier(request: TaskModifierInput) -> TaskModifier:
    """The wound modifier of a task: -WL (F:L2590), doubled when the task uses a wounded arm
    or is agility-related with a wounded leg (once, whichever applies, F:L2706, F:L2710);
    a Pain Resistance roll takes -1 more while the abdomen is wounded (F:L2709). Only an
    arm can be 'used' for the arm rule (F:L2706): any other location is refused, not
    silently ignored."""
    condition = request.condition
    if not set(request.arms_used) <= ARMS:
        raise InputError(("arms_used",), "only 'right_arm' and 'left_arm' (F:L2706)")
    uses_arm = was_wounded(condition, set(request.arms_used))
    doubled = uses_arm or (request.agility and was_wounded(condition, LEGS))
    terms = [t for t in wound_terms(condition, doubled) if t.value]
    if request.pain_resistance:
        terms += pain_resistance_terms(condition, request.options)
    return TaskModifier(modifier=sum(t.value for t in terms), terms=terms, doubled=doubled)
