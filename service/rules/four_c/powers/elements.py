"""Elemental and energy powers: Elemental/Energy Control (C:L558-606), its Amplified form
(C:L488-492) and Elemental/Energy Generation (C:L608-612)."""

from collections.abc import Mapping
from enum import StrEnum

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_c.combat.tables import MELEE_BASHING, RANGED, ResultRow, results
from service.rules.four_c.core.dice import DiceMode
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    LIFT,
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerOptions,
    PowerRoll,
    banded,
    greater_of,
    half,
    power_cost,
    power_odds,
    roll_power,
    tenth,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["amplified_ee_control", "ee_attack", "ee_generation", "ee_lift"]


class Element(StrEnum):
    """Weather, or one element or energy type (C:L586-606)."""

    WEATHER = "weather"
    AIR = "air"
    EARTH = "earth"
    FIRE = "fire"
    WATER = "water"
    ELECTRICAL = "electrical"
    LIGHT = "light"
    MAGNETIC = "magnetic"
    SOUND = "sound"


class Reach(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"


class EeAttackInput(PowerRoll):
    power_rv: RankValue = Field(
        description="E/E Control's Rank Value (with Amplified's bonus, power/amplified-ee-control)."
    )
    element: Element = Element.FIRE
    reach: Reach = Reach.RANGED
    trait_rv: RankValue = Field(
        description="Melee for a melee attack, Coordination for a ranged one (C:L564)."
    )
    nail_declared: bool = Field(
        default=False, description="Ranged: a called shot declared before the roll (C:L1282)."
    )


class EeAttack(PowerCheck):
    attack_rv: int
    damage: int = Field(description="The power's Rank Value, before armor (C:L564).")
    range_sectors: int | None = Field(description="Ranged: a tenth of the power, rounded up.")


def _outcomes(request: EeAttackInput) -> Mapping[Colour, Outcome]:
    """The melee (bashing) or ranged result table; blue is a Nail only when declared."""
    rows: Mapping[Colour, ResultRow] = results(
        MELEE_BASHING if request.reach is Reach.MELEE else RANGED
    )
    if request.reach is Reach.RANGED and not request.nail_declared:
        rows = {**rows, Colour.BLUE: rows[Colour.RED]}
    return {c: Outcome(result=r.result, text=r.text, success=c is not Colour.BLACK)
            for c, r in rows.items()}  # fmt: skip


def _attack_rv(request: EeAttackInput) -> int:
    return greater_of(request.power_rv, request.trait_rv)


def ee_attack_odds(request: EeAttackInput) -> PowerCheckOdds:
    return power_odds(request, _attack_rv(request), _outcomes(request))


@operation(
    name="power/ee-control/attack",
    kind=Kind.CHECK,
    covers=("4c.power.ee_control.attack",),
    odds=ee_attack_odds,
    cost=power_cost,
    example={"power_rv": 30, "reach": "ranged", "trait_rv": 10, "dice": {"values": [7, 2]}},
)
def ee_attack(request: EeAttackInput, dice: Dice) -> EeAttack:
    """Attack with an existing source of the element: the greater of the power's Rank Value or
    Melee +10 in melee, or Coordination +10 at range, read on the melee or ranged table; the
    damage is the power's Rank Value (C:L564), the range a tenth of it, rounded up (C:L1091,
    A-72). With Amplified E/E Control roll mode=amplified (C:L490)."""
    rolled = roll_power(request, _attack_rv(request), _outcomes(request), dice)
    ranged = request.reach is Reach.RANGED
    return EeAttack(**dict(rolled), attack_rv=_attack_rv(request), damage=request.power_rv,
                    range_sectors=tenth(request.power_rv) if ranged else None)  # fmt: skip


class LiftInput(Model):
    power_rv: RankValue = Field(description="E/E Control's Rank Value.")


class Lift(Model):
    weight: str | None = Field(description="As the text writes it; None at Rank Value 0.")
    pounds: int = Field(description="A ton is 2,000 lb; 0 at Rank Value 0.")
    band: str | None


@operation(
    name="power/ee-control/lift",
    kind=Kind.LOOKUP,
    covers=("4c.power.ee_control.lift",),
    example={"power_rv": 35},
)
def ee_lift(request: LiftInput) -> Lift:
    """The heaviest object the power lifts: 50 lb. at 1-2, 1 ton at 30-39, 400 tons at 1000
    (C:L568-584); over 1000 reads 1000, 0 lifts nothing (catalogue 3.0)."""
    row = banded(request.power_rv, LIFT)
    if row is None:
        return Lift(weight=None, pounds=0, band=None)
    band = f"{row.rv_min}-{row.rv_max}" if row.rv_max is not None else str(row.rv_min)
    return Lift(weight=row.weight, pounds=row.pounds, band=band)


class AmplifiedInput(Model):
    power_rv: RankValue = Field(description="Amplified E/E Control's Rank Value.")
    control_rv: RankValue | None = Field(
        default=None, description="E/E Control of the chosen type, if the character has it."
    )
    generation_rv: RankValue | None = Field(
        default=None, description="E/E Generation of the type, if the character has it."
    )
    options: PowerOptions = Field(default=PowerOptions())


class Amplified(Model):
    control_rv: int = Field(description="The effective E/E Control Rank Value.")
    source: str = Field(description="'control', 'amplified' or 'generation'.")
    mode: DiceMode = Field(description="The d% reading of its rolls (C:L490).")


@operation(
    name="power/amplified-ee-control",
    kind=Kind.CALCULATION,
    covers=("4c.power.amplified_ee_control",),
    example={"power_rv": 20, "control_rv": 30},
)
def amplified_ee_control(request: AmplifiedInput) -> Amplified:
    """E/E Control rises by one-half of this power, and its rolls take three dice, two of them
    tens, the worse discarded (C:L490). With Generation but no Control, control is at one-half
    of this power +10 (C:L492), or Generation's one-half if greater (catalogue 3.6). Halves
    round up by default (A-11)."""
    rounding = request.options.half_rounding
    amplified = half(request.power_rv, rounding)
    if request.control_rv is not None:
        return Amplified(control_rv=request.control_rv + amplified, source="control",
                         mode=DiceMode.AMPLIFIED)  # fmt: skip
    if request.generation_rv is None:
        raise InputError(
            ("control_rv",), "Amplified E/E Control needs E/E Control or E/E Generation"
        )
    generated = half(request.generation_rv, rounding)
    if generated > amplified + 10:
        return Amplified(control_rv=generated, source="generation", mode=DiceMode.AMPLIFIED)
    return Amplified(control_rv=amplified + 10, source="amplified", mode=DiceMode.AMPLIFIED)


class GenerationInput(Model):
    power_rv: RankValue = Field(description="E/E Generation's Rank Value.")
    matching_control_rv: RankValue | None = Field(
        default=None, description="E/E Control of the same type, if the character has it."
    )
    options: PowerOptions = Field(default=PowerOptions())


class Generation(Model):
    generation_rv: int = Field(description="With +10 when Control matches (C:L612).")
    control_rv: int = Field(
        description="Control of the generated type: the matching E/E Control +10, or one-half "
        "of Generation (C:L610)."
    )
    matched: bool


@operation(
    name="power/ee-generation",
    kind=Kind.CALCULATION,
    covers=("4c.power.ee_generation",),
    example={"power_rv": 30, "matching_control_rv": 20},
)
def ee_generation(request: GenerationInput) -> Generation:
    """The character creates one element or energy and controls it as E/E Control at one-half
    of this power (rounded up by default, A-11); with matching Control and Generation both
    gain +10, permanently (C:L608-612)."""
    control = request.matching_control_rv
    if control is None:
        half_rv = half(request.power_rv, request.options.half_rounding)
        return Generation(generation_rv=request.power_rv, control_rv=half_rv, matched=False)
    boosted = max(control + 10, half(request.power_rv + 10, request.options.half_rounding))
    return Generation(generation_rv=request.power_rv + 10, control_rv=boosted, matched=True)
