"""Powers of the mind: Animal Command (C:L494-498), Mind Control (C:L730-734) and Mind Shield
(C:L736-740). Each check is one Master Table roll on the power's effective Rank Value."""

from enum import StrEnum

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, exact, outcome_table
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerOptions,
    PowerRoll,
    greater_of,
    half,
    power_cost,
    power_odds,
    roll_power,
    threshold,
)
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["animal_command", "mind_control", "mind_shield"]


class AnimalGoal(StrEnum):
    COMMUNICATE = "communicate"
    CONTROL = "control"


class AnimalCommandInput(PowerRoll):
    power_rv: RankValue = Field(description="Animal Command's Rank Value.")
    willpower: RankValue
    goal: AnimalGoal = AnimalGoal.COMMUNICATE
    animal_type: str = Field(
        default="", max_length=60, description="The one type chosen at creation (C:L498)."
    )


_ANIMAL = {
    AnimalGoal.COMMUNICATE: threshold(
        Colour.RED,
        Outcome(result="fails", text="The animal does not understand.", success=False),
        Outcome(result="communicates", text="Successful communication.", success=True),
    ),
    AnimalGoal.CONTROL: threshold(
        Colour.YELLOW,
        Outcome(result="fails", text="The animal is not controlled.", success=False),
        Outcome(result="controls", text="The animal is controlled.", success=True),
    ),
}


def _animal_rv(request: AnimalCommandInput) -> int:
    return greater_of(request.power_rv, request.willpower)


def animal_command_odds(request: AnimalCommandInput) -> PowerCheckOdds:
    return power_odds(request, _animal_rv(request), _ANIMAL[request.goal])


@operation(
    name="power/animal-command",
    kind=Kind.CHECK,
    covers=("4c.power.animal_command",),
    odds=animal_command_odds,
    cost=power_cost,
    example={"power_rv": 20, "willpower": 30, "goal": "control", "dice": {"values": [9, 5]}},
)
def animal_command(request: AnimalCommandInput, dice: Dice) -> PowerCheck:
    """Roll the greater of the power's Rank Value or Willpower +10: red or better communicates
    with an animal of the chosen type, yellow controls it (C:L494-498)."""
    return roll_power(request, _animal_rv(request), _ANIMAL[request.goal], dice)


class MindControlStage(StrEnum):
    CONTROL = "control"
    BREAK_FREE = "break_free"


class MindControlInput(PowerRoll):
    stage: MindControlStage = Field(
        default=MindControlStage.CONTROL,
        description="control: the user's attempt; break_free: the target's roll when ordered "
        "to do something out of the ordinary (C:L734).",
    )
    power_rv: RankValue = Field(description="Mind Control's Rank Value.")
    willpower: RankValue = Field(description="The user's Willpower.")
    target_willpower: RankValue
    target_mind_shield: RankValue = Field(
        default=0, description="The target's Mind Shield: added to Willpower against it (C:L738)."
    )
    in_visual_range: bool = True


class MindControl(Model):
    target_willpower: int = Field(description="With Mind Shield (C:L738, A-32).")
    eligibility_rv: int = Field(description="The greater of power and Willpower, no +10.")
    eligible: bool
    control_rv: int = Field(description="The greater of power and Willpower +10 (C:L734).")
    result: str = Field(
        description="ineligible, fails, controlled (control); stays_controlled, breaks_free."
    )
    check: PowerCheck | None = Field(description="The roll, when one is made.")


_CONTROL = threshold(
    Colour.RED,
    Outcome(result="fails", text="The mind control attempt fails.", success=False),
    Outcome(
        result="controlled",
        text="Controlled until released or ordered to do something out of the ordinary.",
        success=True,
    ),
)
_BREAK = threshold(
    Colour.RED,
    Outcome(result="stays_controlled", text="The target stays controlled.", success=False),
    Outcome(result="breaks_free", text="The target breaks free.", success=True),
)


def _shielded(request: MindControlInput) -> int:
    return request.target_willpower + request.target_mind_shield


def _eligible(request: MindControlInput) -> bool:
    """In visual range, with Willpower less than the greater of the power and the user's
    Willpower: strictly, and without the +10 of the roll (C:L732, A-32)."""
    limit = greater_of(request.power_rv, request.willpower, 0)
    return request.in_visual_range and _shielded(request) < limit


def _stage(request: MindControlInput) -> tuple[int, dict[Colour, Outcome]] | None:
    """The roll this stage makes, or None when the target cannot be controlled."""
    if request.stage is MindControlStage.BREAK_FREE:
        return _shielded(request), _BREAK
    if not _eligible(request):
        return None
    return greater_of(request.power_rv, request.willpower), _CONTROL


def mind_control_odds(request: MindControlInput) -> PowerCheckOdds:
    """The roll's odds; an ineligible target is never controlled."""
    stage = _stage(request)
    if stage is not None:
        return power_odds(request, *stage)
    never: Distribution[str] = Distribution({"ineligible": 1})
    return PowerCheckOdds(
        success=exact(never.probability("controlled")),
        result=outcome_table(never),
        colour=[],
        master_table=request.table_name,
    )


@operation(
    name="power/mind-control",
    kind=Kind.CHECK,
    covers=("4c.power.mind_control",),
    odds=mind_control_odds,
    cost=power_cost,
    example={"power_rv": 30, "willpower": 20, "target_willpower": 20, "dice": {"seed": 3}},
)
def mind_control(request: MindControlInput, dice: Dice) -> MindControl:
    """A target in sight whose Willpower is below the greater of the power's Rank Value or the
    user's Willpower may be controlled: roll the greater of the power or Willpower +10, black
    fails, red or better controls. Ordered to do something out of the ordinary, the target
    rolls Willpower (with Mind Shield) and breaks free on red or better (C:L730-738)."""
    stage = _stage(request)
    check = None if stage is None else roll_power(request, stage[0], stage[1], dice)
    return MindControl(
        target_willpower=_shielded(request),
        eligibility_rv=greater_of(request.power_rv, request.willpower, 0),
        eligible=_eligible(request),
        control_rv=greater_of(request.power_rv, request.willpower),
        result="ineligible" if check is None else check.result,
        check=check,
    )


class MindShieldInput(Model):
    power_rv: RankValue = Field(description="Mind Shield's Rank Value.")
    willpower: RankValue
    mental_force_field_rv: RankValue | None = Field(
        default=None, description="Force Field (Mental)'s Rank Value, if the character has it."
    )
    options: PowerOptions = Field(default=PowerOptions())


class MindShield(Model):
    willpower_against_mind_control: int
    mental_force_field_rv: int = Field(
        description="The Mind Shield's own field, or Force Field (Mental) with its bonus."
    )
    bonus: int = Field(description="One-half the Mind Shield's Rank Value (A-11).")


@operation(
    name="power/mind-shield",
    kind=Kind.CALCULATION,
    covers=("4c.power.mind_shield",),
    example={"power_rv": 30, "willpower": 20, "mental_force_field_rv": 20},
)
def mind_shield(request: MindShieldInput) -> MindShield:
    """Against Mind Control, Willpower is increased by the Mind Shield's Rank Value. The
    character gains a mental Force Field at one-half of it, or, with Force Field (Mental), a
    bonus of one-half to that field: the greater of its Rank Value or Willpower +10
    (C:L736-740; rounded up by default, A-11)."""
    bonus = half(request.power_rv, request.options.half_rounding)
    field = request.mental_force_field_rv
    return MindShield(
        willpower_against_mind_control=request.willpower + request.power_rv,
        mental_force_field_rv=bonus
        if field is None
        else greater_of(field, request.willpower) + bonus,
        bonus=bonus,
    )
