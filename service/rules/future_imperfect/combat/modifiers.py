"""What a shot is rolled against and with (FI:L247-281, FI:L319-357): the skill, the range TN,
the situation modifiers, target size and speed, aiming, called shots and the hands used. Each
is a small lookup served as its own operation; `applied` sums them for an attack."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.combat.options import AttackOptions, SizeScale
from service.rules.future_imperfect.combat.tables import (
    CalledPart,
    called_row,
    hand_modifier,
    situation,
)
from service.rules.future_imperfect.core.checks import CheckInput, dice_only
from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.future_imperfect.core.pools import PoolText, parse
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "Aim",
    "Applied",
    "Situation",
    "SkillUse",
    "aim_modifier",
    "applied",
    "base_tn",
    "size_modifier",
    "task",
    "tn_source",
]

Meters = Annotated[float, Field(ge=0, le=100_000)]
Size = Annotated[float, Field(gt=0, le=10_000)]
#: Fair (5), the base TN of every attack (FI:L261, FI:L385).
FAIR = 5
#: A human is size 6 (FI:L277, FI:L399).
HUMAN = 6


class SkillUse(StrEnum):
    SPECIALIZATION = "specialization"
    RELATED = "related"
    DEFAULT = "default"


class Applied(Model):
    source: str
    modifier: int


def chunks(total: int) -> tuple[int, ...]:
    """A total modifier as the core check takes it: parts of at most 50 each."""
    parts = []
    while abs(total) > 50:
        parts.append(50 if total > 0 else -50)
        total -= parts[-1]
    return (*parts, total)


# --- skill --------------------------------------------------------------------------------


class RangedSkillInput(Model):
    dexterity: PoolText = Field(description="The Dexterity pool: its column is the die.")
    specialization: Annotated[int, Field(ge=0, le=5)] = Field(
        default=0, description="The level in the weapon's shooting specialization; 0 if none."
    )
    related: bool = Field(
        default=False, description="The level is a related specialization's (FI:L249)."
    )


class RangedSkill(Model):
    pool: str = Field(description="The pool to roll, column-row.")
    skill: SkillUse
    modifier: int = Field(description="-2 for a related specialization (FI:L249).")
    halved: bool = Field(description="A default roll: the total is halved, rounded down.")


def skill_modifier(skill: SkillUse) -> int:
    return -2 if skill is SkillUse.RELATED else 0


@operation(
    name="combat/ranged/skill",
    kind=Kind.LOOKUP,
    covers=("fi.combat.ranged.skill",),
    example={"dexterity": "III-2", "specialization": 3},
)
def ranged_skill(request: RangedSkillInput) -> RangedSkill:
    """The shooting specialization of the weapon's group, at Dexterity's die (a ranged attack is
    a Dexterity task, FI:L257); a related one at -2 (FI:L249); without one, Dexterity itself as
    a default roll, its total halved, rounded down (FI:L247)."""
    dexterity = parse(request.dexterity, ("dexterity",))
    if request.specialization == 0:
        return RangedSkill(pool=dexterity.roman, skill=SkillUse.DEFAULT, modifier=0, halved=True)
    skill = SkillUse.RELATED if request.related else SkillUse.SPECIALIZATION
    pool = dexterity.model_copy(update={"row": request.specialization})
    return RangedSkill(pool=pool.roman, skill=skill, modifier=skill_modifier(skill), halved=False)


# --- range --------------------------------------------------------------------------------


def range_tn(distance: float, increment: int) -> int:
    """Fair (5) and 1 each whole range increment (FI:L261), the distance as written."""
    return FAIR + int(Fraction(str(distance)) // increment)


class RangeTnInput(Model):
    distance: Meters = Field(description="Meters from shooter to target.")
    range_increment: Annotated[int, Field(ge=1, le=10_000)] = Field(
        description="The weapon's Range Increment (5 for anything thrown, FI:L367)."
    )


class RangeTn(Model):
    tn: int
    increments: int


@operation(
    name="combat/ranged/range-tn",
    kind=Kind.CALCULATION,
    covers=("fi.combat.ranged.range_tn",),
    example={"distance": 10, "range_increment": 5},
)
def ranged_range_tn(request: RangeTnInput) -> RangeTn:
    """Count the meters to the target, divide by the Range Increment, round down and add Fair
    (5): the base TN of the shot (FI:L261). A throw at 10 m is TN 7 (FI:L367)."""
    tn = range_tn(request.distance, request.range_increment)
    return RangeTn(tn=tn, increments=tn - FAIR)


def base_tn(
    tn: int | None, distance: float | None, increment: int | None, defense: int | None
) -> int:
    """The TN given, or Fair and the range increments; an active defense's result, when
    greater, takes its place (FI:L415)."""
    if tn is not None and distance is not None:
        raise InputError(("tn",), "give the TN or the distance, not both")
    if tn is None:
        if distance is None:
            raise InputError(("distance",), "give the distance (or the TN)")
        if increment is None:
            raise InputError(("range_increment",), "a distance needs the Range Increment")
        tn = range_tn(distance, increment)
    return max(tn, defense) if defense is not None else tn


def tn_source(tn: int | None, defense: int | None, found: int) -> tuple[str]:
    """Which input a base TN came from, for an error about it."""
    if defense is not None and defense >= found:
        return ("active_defense",)
    return ("tn",) if tn is not None else ("distance",)


# --- target size and speed ----------------------------------------------------------------


def size_modifier(size: float, scale: SizeScale) -> int:
    """+1 at size 12, +2 at 18 ... to +6; -1 at 3 (half a human), -1 more each halving, to
    -6 (FI:L277, A-42); the literal reading has -2 at 2 and halves from there."""
    exact = Fraction(str(size))
    if exact >= 2 * HUMAN:
        return min(6, int(exact // HUMAN) - 1)
    if exact > HUMAN / 2:
        return 0
    step = Fraction(HUMAN, 2)
    penalty = 0
    if scale is SizeScale.LITERAL and exact <= 2:
        step, penalty = Fraction(2), 1
    while exact <= step and penalty < 6:
        penalty += 1
        step /= 2
    return -penalty


class TargetSizeInput(Model):
    size: Size = Field(description="The target's Size; a human is 6.")
    options: AttackOptions = Field(default=AttackOptions())


class TargetSize(Model):
    modifier: int


@operation(
    name="combat/target-size",
    kind=Kind.LOOKUP,
    covers=("fi.combat.target_size",),
    example={"size": 1.5},
)
def target_size(request: TargetSizeInput) -> TargetSize:
    """A target of size 3 or less (half a human) is -1, and so on to -6 (increments at .5,
    .25); size 12 gives +1, 18 +2, and so on to +6 (FI:L277; catalogue T18)."""
    return TargetSize(modifier=size_modifier(request.size, request.options.size_scale))


def speed_modifier(relative_rate: float, options: AttackOptions) -> int:
    return options.target_speed_modifier if relative_rate > options.target_speed_threshold else 0


class TargetSpeedInput(Model):
    relative_rate: Annotated[float, Field(ge=0, le=100_000)] = Field(
        description="How fast target and shooter move apart or together: a rider chasing a "
        "cyclist at his speed is 0 (FI:L281)."
    )
    options: AttackOptions = Field(default=AttackOptions())


class TargetSpeed(Model):
    modifier: int


@operation(
    name="combat/target-speed",
    kind=Kind.LOOKUP,
    covers=("fi.combat.target_speed",),
    example={"relative_rate": 24},
)
def target_speed(request: TargetSpeedInput) -> TargetSpeed:
    """A target moving faster than a relative Rate of 20 is -4 to the roll (FI:L281; the
    table's 'Target is moving -4', FI:L270, A-41)."""
    return TargetSpeed(modifier=speed_modifier(request.relative_rate, request.options))


# --- aim ----------------------------------------------------------------------------------


class Aim(Model):
    x: Annotated[int, Field(ge=1, le=10)] = Field(
        description="Steps an aim action takes, and the bonus of each after the first."
    )
    y: Annotated[int, Field(ge=-10, le=0)] = Field(
        description="The unaimed penalty, and the initiative penalty (FI:L329)."
    )
    markers: Annotated[int, Field(ge=0, le=200)] = Field(
        default=0, description="Aim markers on the card: one a step counted down (FI:L337)."
    )


def aim_actions(aim: Aim) -> int:
    """Aim actions completed: a marker a step, x of them an action, at most 3 (FI:L337)."""
    return min(3, aim.markers // aim.x)


def aim_modifier(aim: Aim) -> int:
    """Unaimed y; one aim cancels it; the second and third add x each (FI:L329, FI:L337)."""
    return (aim.y, 0, aim.x, 2 * aim.x)[aim_actions(aim)]


# --- called shots and hands ---------------------------------------------------------------


class CalledShotInput(Model):
    part: CalledPart
    automatic: bool = Field(default=False, description="Firing on automatic (FI:L297).")


class CalledShot(Model):
    modifier: int
    location: str = Field(description="Where a hit lands: no location drawn, no bumping.")


def called_shot_of(part: CalledPart, automatic: bool, loc: tuple[str | int, ...]) -> CalledShot:
    if automatic:
        raise InputError(loc, "no called shots on automatic fire (FI:L297)")
    row = called_row(part)
    return CalledShot(modifier=row.penalty, location=row.location)


@operation(
    name="combat/called-shot",
    kind=Kind.LOOKUP,
    covers=("fi.combat.called_shot",),
    example={"part": "head"},
)
def called_shot(request: CalledShotInput) -> CalledShot:
    """Hitting a chosen spot: torso -2, legs and arms -4, heads, hands and feet -6, an eyeball
    or the heart -10 (FI:L321-325); in melee too (FI:L385), never on automatic (FI:L297). A
    hit lands there: an eyeball is the head, the heart the vitals (catalogue 3.5.8)."""
    return called_shot_of(request.part, request.automatic, ("part",))


class HandsInput(Model):
    two_weapons: bool = Field(default=False, description="A weapon in each hand.")
    off_hand: bool = Field(default=False, description="This attack is the off hand's.")
    one_handed_long_arm: bool = Field(
        default=False, description="A rifle or other two-handed ranged weapon in one hand."
    )


class Hands(Model):
    modifiers: list[Applied]
    total: int


def hands_of(request: HandsInput) -> list[Applied]:
    found = []
    if request.two_weapons:
        found.append(Applied(source="two weapons", modifier=hand_modifier("two weapons")))
    if request.off_hand:
        found.append(Applied(source="off hand", modifier=hand_modifier("off hand")))
    if request.one_handed_long_arm:
        case = "two-handed ranged weapon in one hand"
        found.append(Applied(source=case, modifier=hand_modifier(case)))
    return found


@operation(
    name="combat/two-weapons",
    kind=Kind.LOOKUP,
    covers=("fi.combat.two_weapons", "fi.combat.one_handed_long_arm"),
    example={"two_weapons": True, "off_hand": True},
)
def two_weapons(request: HandsInput) -> Hands:
    """A weapon in each hand: -2 to each attack, the off hand's -4 more (-6), each shot a
    separate task up to each weapon's rate of fire (FI:L351), two melee attacks an action
    (FI:L393). A rifle in one hand -2, two rifles both (FI:L355). Strength minimums' speed and
    accuracy penalties are in the gear chapter, not this one (FI:L357)."""
    found = hands_of(request)
    return Hands(modifiers=found, total=sum(a.modifier for a in found))


# --- the whole situation ------------------------------------------------------------------


class Situation(Model):
    """The shooter's situation: each field one modifier of the chapter, zero when unset."""

    skill: SkillUse = Field(default=SkillUse.SPECIALIZATION, description="FI:L247-249.")
    running: bool = Field(default=False, description="Ran this action: -4 (FI:L273).")
    mounted: bool = Field(default=False, description="-2 (FI:L267).")
    target_size: Size | None = Field(default=None, description="FI:L277.")
    relative_rate: Annotated[float, Field(ge=0, le=100_000)] | None = Field(
        default=None, description="The target's speed relative to the shooter (FI:L281)."
    )
    aim: Aim | None = Field(default=None, description="The weapon's Aim and markers held.")
    called_shot: CalledPart | None = None
    hands: HandsInput = Field(default=HandsInput())
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = 0
    modifiers: tuple[Annotated[int, Field(ge=-20, le=20)], ...] = Field(
        default=(),
        max_length=4,
        description="The Master's other modifiers: concealment -4 (FI:L508), annoyed -4 ...",
    )


def applied(
    situation_: Situation, options: AttackOptions, automatic: bool = False
) -> tuple[list[Applied], str | None]:
    """Every modifier of the situation, and the location a called shot names."""
    found = [Applied(source=f"{situation_.skill.value} skill",
                     modifier=skill_modifier(situation_.skill))]  # fmt: skip
    if situation_.running:
        found.append(Applied(source="firer is running", modifier=situation("firer is running")))
    if situation_.mounted:
        found.append(Applied(source="firer is mounted", modifier=situation("firer is mounted")))
    if situation_.target_size is not None:
        mod = size_modifier(situation_.target_size, options.size_scale)
        found.append(Applied(source="target size", modifier=mod))
    if situation_.relative_rate is not None:
        speed = speed_modifier(situation_.relative_rate, options)
        found.append(Applied(source="target speed", modifier=speed))
    if situation_.aim is not None:
        if automatic:
            raise InputError(("aim",), "no aiming on automatic fire (FI:L297)")
        found.append(Applied(source="aim", modifier=aim_modifier(situation_.aim)))
    location = None
    if situation_.called_shot is not None:
        shot = called_shot_of(situation_.called_shot, automatic, ("called_shot",))
        found.append(Applied(source=f"called shot: {situation_.called_shot.value}",
                             modifier=shot.modifier))  # fmt: skip
        location = shot.location
    found.extend(hands_of(situation_.hands))
    found.append(Applied(source="wounds", modifier=situation_.wound_penalty))
    found.extend(Applied(source="Master", modifier=m) for m in situation_.modifiers)
    return [a for a in found if a.modifier], location


class ModifiersInput(Situation):
    automatic: bool = Field(default=False, description="Firing on automatic (FI:L297).")
    options: AttackOptions = Field(default=AttackOptions())


class Modifiers(Model):
    modifiers: list[Applied]
    total: int
    halved: bool = Field(description="A default roll halves its total (FI:L247).")
    location: str | None = Field(description="The called shot's location.")


@operation(
    name="combat/ranged/modifiers",
    kind=Kind.CALCULATION,
    covers=("fi.combat.ranged.modifiers",),
    example={"running": True, "target_size": 3, "relative_rate": 30,
             "aim": {"x": 2, "y": -3, "markers": 0}},
)  # fmt: skip
def ranged_modifiers(request: ModifiersInput) -> Modifiers:
    """The base TN stands; the situation adds to or subtracts from the shooting roll (FI:L263):
    running -4, mounted -2, wounds, size, a fast target -4 (FI:L265-281), aim (FI:L329),
    called shots (FI:L321), two weapons and long arms in one hand (FI:L351-355), the Master's
    others. A related specialization is -2 (FI:L249); a default roll halves (FI:L247)."""
    found, location = applied(request, request.options, request.automatic)
    return Modifiers(modifiers=found, total=sum(a.modifier for a in found),
                     halved=request.skill is SkillUse.DEFAULT, location=location)  # fmt: skip


#: The highest TN a core check takes (`CheckInput.tn`).
MAX_TN = 100


def task(
    pool: str,
    tn: int,
    found: list[Applied],
    skill: SkillUse,
    options: CoreOptions,
    where: tuple[str | int, ...] = ("tn",),
) -> tuple[CheckInput, bool]:
    """The core check an attack rolls, and whether it is halved (a default roll). A TN past
    what a check takes is the caller's to fix, at `where`: the input the TN came from. The
    task is rolled as dice, so the deck engine is refused first (`dice_only`, FI:L239)."""
    dice_only(options, "a combat task")
    if tn > MAX_TN:
        raise InputError(where, f"the TN comes to {tn}, past the {MAX_TN} a check takes")
    total = sum(a.modifier for a in found)
    check = CheckInput(pool=pool, tn=tn, modifiers=chunks(total), options=options)
    return check, skill is SkillUse.DEFAULT
