"""A character's condition and the wound-level basics every mortality rule shares (F:L2523-2626).

The service keeps no state: a caller sends the `Condition` a rule needs and gets it back
updated in the result, to send with the next request. It is plain data, so an output
condition is a valid input as it stands (nothing is computed into it). The helpers here are
the only place a wound level changes: `wound` for every new injury (located or not, through
the accumulation rule) and `heal` for every improvement, so the worst wound level since last
healthy (F:L2604) and the wounded locations stay right whoever changes the level.

Wound levels (F:L2576): 0 healthy, 1 light, 2 medium, 3 heavy, 4 incapacitated, 5 critical,
6 dying, 7 near death, 8 and beyond dead.
"""

from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Self

from pydantic import Field, model_validator

from service.rules.model import Model, option

__all__ = [
    "ARMS",
    "DEAD",
    "HEALTHY",
    "LEGS",
    "LIMBS",
    "MAX_LEVEL",
    "MAX_STAMINA",
    "VITAL",
    "WOUND_LEVEL_NAMES",
    "AccumulationOptions",
    "AccumulationRule",
    "Condition",
    "Consciousness",
    "LocatedWound",
    "Location",
    "UnlocatedAccumulation",
    "WoundLevel",
    "accumulate",
    "heal",
    "is_dead",
    "is_stunned",
    "was_wounded",
    "wound",
    "wound_name",
]

HEALTHY = 0
#: 'then 8 and beyond (dead)' (F:L2576).
DEAD = 8
#: Dying (F:L2586): from here on the character is assumed unconscious.
DYING = 6
#: Wound levels and stun points are kept up to this; past DEAD the number changes nothing.
MAX_LEVEL = 1000
#: Stamina points either way (a Stamina score is a pool, F:L2529; it may go negative, F:L2548).
MAX_STAMINA = 10_000

WoundLevel = Annotated[int, Field(ge=0, le=MAX_LEVEL)]

#: The Wound Level Descriptions table (F:L2578-2588); 8 and beyond is 'Dead'.
WOUND_LEVEL_NAMES = (
    "Healthy",
    "Light Wound",
    "Medium Wound",
    "Heavy Wound",
    "Incapacitated",
    "Critical",
    "Dying",
    "Near Death",
    "Dead",
)


def wound_name(level: int) -> str:
    """'Critical' for 5, 'Dead' for 8 and beyond (F:L2576)."""
    return WOUND_LEVEL_NAMES[min(level, DEAD)]


class Location(StrEnum):
    """Where a hit lands (the Hit Location table, F:L2703-2711)."""

    HEAD = "head"
    RIGHT_ARM = "right_arm"
    LEFT_ARM = "left_arm"
    CHEST = "chest"
    ABDOMEN = "abdomen"
    RIGHT_LEG = "right_leg"
    LEFT_LEG = "left_leg"


#: The vital locations: head, chest and abdomen (F:L2712); wounds there simply add (F:L2614).
VITAL = frozenset({Location.HEAD, Location.CHEST, Location.ABDOMEN})
ARMS = frozenset({Location.RIGHT_ARM, Location.LEFT_ARM})
LEGS = frozenset({Location.RIGHT_LEG, Location.LEFT_LEG})
LIMBS = ARMS | LEGS


class Consciousness(StrEnum):
    CONSCIOUS = "conscious"
    UNCONSCIOUS = "unconscious"


class LocatedWound(Model):
    """The wound levels one location has taken since the character was last healthy: a
    wounded arm doubles the wound modifier of tasks using it, a wounded abdomen costs -1 on
    Pain Resistance until fully recovered (F:L2706-2710)."""

    location: Location
    levels: int = Field(ge=1, le=MAX_LEVEL, description="Wound levels taken there, as inflicted.")


class Condition(Model):
    """A character's condition: what the caller carries between requests and gets back
    updated. Every field defaults to a healthy, rested character who is not tracking stamina."""

    wound_level: WoundLevel = Field(
        default=HEALTHY, description="0 healthy .. 7 near death; 8 and beyond dead (F:L2576)."
    )
    max_wound_level: WoundLevel = Field(
        default=HEALTHY,
        description=(
            "The worst wound level since last healthy: recovery and deterioration rolls take "
            "it as their modifier (F:L2604). Surgery may lower it below the wound level (F:L2841)."
        ),
    )
    wounds: tuple[LocatedWound, ...] = Field(
        default=(),
        max_length=len(Location),
        description="Each location wounded since last healthy, once (F:L2703-2711).",
        json_schema_extra={"x-unique-by": "location"},
    )
    stun_points: WoundLevel = Field(
        default=0,
        description="Stun damage held; the character is stunned while it is above 0 (F:L2677).",
    )
    stunned: bool = Field(
        default=False,
        description="Stunned by pain (a failed Pain Resistance roll, F:L2564) or by stun points.",
    )
    consciousness: Consciousness = Consciousness.CONSCIOUS
    stamina: int | None = Field(
        default=None,
        ge=-MAX_STAMINA,
        le=MAX_STAMINA,
        description=(
            "Current stamina points, which may be 0 or negative (F:L2548); null when stamina "
            "is not tracked ('you won't need to keep track of stamina most of the time', F:L2531)."
        ),
    )
    exhausted_since_sleep: bool = Field(
        default=False,
        description="Exhausted (stamina 0 or below) since the last good night's sleep (F:L2550).",
    )
    bandage_bonus: int = Field(
        default=0,
        ge=-5,
        le=4,
        description=(
            "Bleeding stopped: the bonus bandaging gives deterioration rolls, 5 - QR (F:L2821); "
            "0 while the wounds are untended; -2 or -5 after a failed bandage by the formula "
            "('bandage_failure_bonus')."
        ),
    )

    @model_validator(mode="after")
    def _locations_once(self) -> Self:
        seen = [wound.location for wound in self.wounds]
        if len(set(seen)) != len(seen):
            raise ValueError("each location appears in 'wounds' at most once")
        return self


def is_dead(condition: Condition) -> bool:
    """Wound level 8 and beyond is dead (F:L2588)."""
    return condition.wound_level >= DEAD


def is_stunned(condition: Condition) -> bool:
    """Stunned by pain, or holding stun points (F:L2677)."""
    return condition.stunned or condition.stun_points > 0


def was_wounded(condition: Condition, locations: Iterable[Location]) -> bool:
    """Has any of these locations taken a wound since the character was last healthy?"""
    wanted = set(locations)
    return any(wound.location in wanted for wound in condition.wounds)


class AccumulationRule(StrEnum):
    SIMPLE = "simple"
    OPTIONAL_RULE = "optional_rule"


class UnlocatedAccumulation(StrEnum):
    ADD = "add"
    LIMB_RULE = "limb_rule"


class AccumulationOptions(Model):
    """How a new wound (or new stun damage, F:L2683) joins what the character already has."""

    wound_accumulation: AccumulationRule = option(
        AccumulationRule.OPTIONAL_RULE,
        ambiguity=None,
        description=(
            "The Wound Accumulation rule, 'recommended but optional' (F:L2612-2624): head, "
            "chest and abdomen add, a limb adds its level less two or replaces the current "
            "level, whichever is higher. 'simple': every wound adds (F:L2592)."
        ),
    )
    unlocated_accumulation: UnlocatedAccumulation = option(
        UnlocatedAccumulation.ADD,
        ambiguity="AMB2-09",
        description=(
            "Damage with no location (poison, fatigue, stamina overdraw, deterioration, blood "
            "loss) adds, like a vital wound, or follows the limb rule."
        ),
    )


def accumulate(
    current: int,
    new: int,
    location: Location | None,
    options: AccumulationOptions = AccumulationOptions(),  # noqa: B008 - immutable
) -> int:
    """The level after a new wound of `new` levels (F:L2592, F:L2612-2624): simply added, or
    under the Wound Accumulation rule added to the head, chest or abdomen and, to a limb, the
    higher of current + (new - 2, never below 0) and new. WL3 + WL3 to a limb is 4 (F:L2622);
    WL1 + WL3 to a limb is 3 (F:L2624). Never below the current level; levels past MAX_LEVEL
    are kept at it (long dead by then), so a roll and its odds count the same levels."""
    limb = (
        location in LIMBS
        if location is not None
        else (options.unlocated_accumulation is UnlocatedAccumulation.LIMB_RULE)
    )
    if options.wound_accumulation is AccumulationRule.SIMPLE or not limb:
        return min(MAX_LEVEL, current + new)
    return min(MAX_LEVEL, max(current + max(0, new - 2), new))


def wound(
    condition: Condition,
    levels: int,
    location: Location | None = None,
    options: AccumulationOptions = AccumulationOptions(),  # noqa: B008 - immutable
) -> Condition:
    """The condition after a wound of `levels` (0 or more) at `location` (None: unlocated):
    the level accumulates, the worst level follows it up (F:L2604) and the location is marked
    wounded. One left Dying or
    Near Death (WL6-7) is unconscious, coming round only by a Willpower roll after a good
    deterioration roll (F:L2586-2587; catalogue part 2, #18)."""
    level = accumulate(condition.wound_level, levels, location, options)
    knocked_out = {"consciousness": Consciousness.UNCONSCIOUS} if level >= DYING else {}
    wounds = condition.wounds
    if location is not None and levels > 0:
        taken = {w.location: w.levels for w in wounds}
        taken[location] = min(MAX_LEVEL, taken.get(location, 0) + levels)
        wounds = tuple(
            LocatedWound(location=at, levels=taken[at]) for at in Location if at in taken
        )
    return condition.model_copy(
        update={
            "wound_level": level,
            "max_wound_level": max(condition.max_wound_level, level),
            "wounds": wounds,
            **knocked_out,
        }
    )


def heal(condition: Condition, levels: int = 1) -> Condition:
    """The condition after the wound level drops by `levels` (recovery, a miraculous
    deterioration roll, blood pressure restored). At 0 the character has fully recovered:
    the worst level resets (F:L2604, F:L2851), no location counts as wounded any more and
    the bandages are no longer needed."""
    level = max(HEALTHY, condition.wound_level - levels)
    if level > HEALTHY:
        return condition.model_copy(update={"wound_level": level})
    return condition.model_copy(
        update={"wound_level": 0, "max_wound_level": 0, "wounds": (), "bandage_bonus": 0}
    )
