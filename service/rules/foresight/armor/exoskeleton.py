"""Exoskeletons (catalogue part 2, #116; F:L3956-3985): the table as data and what one does.

An exoskeleton is a vehicle that fits a person (F:L3958). Its Armor is the weight and cost
multiplier for armoring it with an armor type (F:L3964); Move is extra metres a Move action,
ST is added to the wearer's strength, DC is added to his unarmed attacks on top of that
strength (F:L3966-3970); Stamina 'S/k' is a pool of S points that cannot go below zero and k
kWh recharge one point (F:L3972). A DX or AG task in one uses the lower of the task's skill
score and the Armor/Exoskeleton score (F:L3960). The breaching teams' TL6 combat exoskeletons
covered with impermasuit carry 30 x 2 = 60 kg of armor (F:L3985).
"""

from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.armor.catalog import ArmorKey, ArmorRow, armor_row
from service.rules.foresight.characters.derived import UcdcOptions, ucdc_of
from service.rules.foresight.mortality.damage import decimal
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["EXOSKELETONS", "ExoskeletonRow", "exoskeleton"]


class ExoskeletonRow(Model):
    key: str = Field(description="Type and TL: 'combat-6'.")
    type: str = Field(description="'augmented' or 'combat'.")
    name: str
    armor_multiplier: int = Field(description="Weight and cost multiplier to armor it.")
    move_m: int = Field(description="Extra metres with a single Move action.")
    st: int = Field(description="Added to strength.")
    dc: int = Field(description="Added to unarmed DC, besides the strength.")
    stamina: int = Field(description="Its pool of stamina points.")
    recharge_kwh: float = Field(description="kWh to recharge one point.")
    written_stamina: str = Field(description="As printed: '25/0.2'.")
    weight_kg: float
    tl: float
    cost: str = Field(description="As printed: '100k'.")
    cost_svu: float
    source: str


EXOSKELETONS = table(__name__, "exoskeletons", ExoskeletonRow)
_BY_KEY = {row.key: row for row in EXOSKELETONS}


class ExoskeletonInput(Model):
    exoskeleton: Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[A-Za-z0-9.-]+$")] = (
        Field(description="Its key, type and TL: 'combat-6', 'augmented-8'.", examples=["combat-6"])
    )
    armor: ArmorKey | None = Field(default=None, description="The armor covering it.")
    strength: int | None = Field(default=None, ge=1, le=60, description="The wearer's ST.")
    task_score: int | None = Field(
        default=None, ge=0, le=200, description="The skill score of a DX or AG task in it."
    )
    armor_exoskeleton_score: int | None = Field(
        default=None, ge=0, le=200, description="The wearer's Armor/Exoskeleton skill score."
    )
    options: UcdcOptions = Field(default=UcdcOptions())


class ExoskeletonResult(Model):
    exoskeleton: ExoskeletonRow
    armor: ArmorRow | None
    armor_kg: Exact | None = Field(description="Armor multiplier x the armor's base weight.")
    armor_cost_svu: Exact | None
    total_kg: Exact = Field(description="The exoskeleton and its armor.")
    total_cost_svu: Exact
    strength: int | None = Field(description="The wearer's ST plus the exoskeleton's.")
    ucdc: str | None = Field(description="The UCDC of that strength (F:L491-501).")
    unarmed_dc_bonus: int = Field(description="Added to unarmed attacks' DC besides (F:L3970).")
    move_bonus_m: int
    task_score: int | None = Field(description="The lower of the two scores (F:L3960).")
    full_recharge_kwh: Exact = Field(description="Stamina x kWh a point.")
    ignores: list[str]
    steps: list[str]


def _task_score(request: ExoskeletonInput) -> int | None:
    given = (request.task_score, request.armor_exoskeleton_score)
    if given.count(None) == 1:
        missing = "armor_exoskeleton_score" if request.task_score is not None else "task_score"
        raise InputError((missing,), "a DX or AG task in an exoskeleton needs both scores")
    if request.task_score is None or request.armor_exoskeleton_score is None:
        return None
    return min(request.task_score, request.armor_exoskeleton_score)


@operation(
    name="exoskeleton",
    kind=Kind.CALCULATION,
    covers=("foresight.exoskeleton",),
    example={"exoskeleton": "combat-6", "armor": "impermasuit", "strength": 12},
)
def exoskeleton(request: ExoskeletonInput) -> ExoskeletonResult:
    """An exoskeleton from its table (F:L3974-3983) and what it makes of its wearer: armor at
    its multiplier x the armor's base weight and cost (TL6 combat with impermasuit: 30 x 2 =
    60 kg, F:L3985), ST added to his strength, extra unarmed DC, extra Move metres, DX and AG
    tasks at the lower of the skill and Armor/Exoskeleton scores (F:L3960), and the energy to
    recharge its stamina (F:L3972)."""
    row = _BY_KEY.get(request.exoskeleton.lower())
    if row is None:
        raise InputError(("exoskeleton",), f"no exoskeleton '{request.exoskeleton}': "
                         f"one of {', '.join(_BY_KEY)}")  # fmt: skip
    weight, cost = decimal(row.weight_kg), decimal(row.cost_svu)
    steps = [f"{row.name} TL{row.tl:g}: {row.weight_kg:g} kg, {row.cost}"]
    armor = armor_kg = armor_cost = None
    if request.armor is not None:
        armor = armor_row(request.armor, ("armor",))
        armor_kg = row.armor_multiplier * decimal(armor.base_weight_kg)
        armor_cost = row.armor_multiplier * decimal(armor.base_cost_svu)
        steps.append(f"{armor.name} armor: {row.armor_multiplier} x {armor.base_weight_kg:g} kg "
                     f"= {float(armor_kg):g} kg, {row.armor_multiplier} x "
                     f"{armor.base_cost_svu:g} = {float(armor_cost):g} svu")  # fmt: skip
    strength = ucdc = None
    if request.strength is not None:
        strength = request.strength + row.st
        ucdc = ucdc_of(strength, request.options.ucdc_rounding).ucdc
        steps.append(f"ST {request.strength} + {row.st} = {strength}: UCDC {ucdc}, "
                     f"+{row.dc} DC unarmed")  # fmt: skip
    ignores = ["the armor's AG/DX for agility tasks", "the armor's weight for encumbrance"]
    return ExoskeletonResult(
        exoskeleton=row,
        armor=armor,
        armor_kg=None if armor_kg is None else exact(armor_kg),
        armor_cost_svu=None if armor_cost is None else exact(armor_cost),
        total_kg=exact(weight + (armor_kg or 0)),
        total_cost_svu=exact(cost + (armor_cost or 0)),
        strength=strength,
        ucdc=ucdc,
        unarmed_dc_bonus=row.dc,
        move_bonus_m=row.move_m,
        task_score=_task_score(request),
        full_recharge_kwh=exact(row.stamina * decimal(row.recharge_kwh)),
        ignores=ignores if armor is not None else [],
        steps=steps,
    )
