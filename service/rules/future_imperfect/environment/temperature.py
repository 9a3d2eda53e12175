"""Temperature extremes (FI:L53-57). Heat: a Fortitude check against the heat's TN every 6
turns (12 with fluids), each failure 1(1) CT; below zero CT, heat stroke: no more CT, but a
revealed draw over twice the Fortitude column is a wound to the torso. Cold: each failed
Fortitude check takes a column of Acuity; at 0 the character is unconscious."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    OutcomeProbability,
    Truncation,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import CHECK, DEPTH, Checked, check_cost, roll_check
from service.rules.future_imperfect.core.damage import Draw, damage_distribution, roll_damage
from service.rules.future_imperfect.core.pools import parse
from service.rules.future_imperfect.environment.exposure import Exposure, check_of, losses
from service.rules.future_imperfect.environment.options import EnvironmentOptions, HeatStroke
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["cold", "diagnose", "heat", "heat_stroke"]

#: What a failed heat check draws (FI:L55): one d4, open-ended.
HEAT = "1(1)"
TN = Annotated[int, Field(ge=0, le=100)]


class HeatInput(Exposure):
    tn: TN = Field(description="The heat's TN (5, 7, 9 ...) by the race's norm (FI:L55).")
    fluids: bool = Field(default=False, description="Appropriate fluids double the interval.")
    ct: Annotated[int, Field(ge=-1000, le=1000)] = Field(description="CT now.")
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Heat(Model):
    check: Checked
    draw: Draw | None = Field(description="1(1), revealed on a failure.")
    heat_stroke: bool = Field(description="Below zero CT from the heat: no CT is applied.")
    ct_loss: int
    torso_wound: bool = Field(description="Under heat stroke, a draw over twice the column.")
    next_check_turns: int


def _stroke(request: HeatInput) -> bool:
    if request.options.heat_stroke_threshold is HeatStroke.AT_OR_BELOW_ZERO:
        return request.ct <= 0
    return request.ct < 0


def _column(request: Exposure) -> int:
    return parse(request.pool).column


class HeatOdds(Model):
    ct_loss: list[OutcomeProbability]
    torso_wound: list[OutcomeProbability]
    truncation: Truncation | None


def heat_odds(request: HeatInput) -> HeatOdds:
    """The CT lost to one interval of heat, and under heat stroke the chance of a torso
    wound (a failure times table T20), exactly."""
    failed = losses(check_of(request, request.tn, request.options)).map(lambda o: not o[0])
    drawn, depth = damage_distribution(parse(HEAT), request.options)
    stroke, limit = _stroke(request), 2 * _column(request)
    found = failed.then(
        lambda fail: (
            drawn.map(lambda v: (0 if stroke else v, stroke and v > limit))
            if fail
            else Distribution({(0, False): 1})
        )
    )
    return HeatOdds(ct_loss=outcome_table(found.map(lambda o: o[0])),
                    torso_wound=outcome_table(found.map(lambda o: o[1])),
                    truncation=truncation(found, max(depth, DEPTH)))  # fmt: skip


def heat_cost(request: HeatInput) -> Estimate:
    """One check's kept die and one d4's chain (a few hundred states)."""
    return Estimate(CHECK.states + 5_000, ())


@operation(
    name="environment/heat",
    kind=Kind.CHECK,
    covers=("fi.environment.heat",),
    odds=heat_odds,
    cost=heat_cost,
    example={"pool": "II-2", "tn": 7, "ct": 12, "dice": {"values": [3, 2, 4, 2]}},
)
def heat(request: HeatInput, dice: Dice) -> Heat:
    """In heat clothing does not mitigate, a Fortitude check against the heat's TN every 6
    turns, 12 with fluids; a failure draws 1(1) and loses it in CT. Below zero CT from the
    heat, the checks go on but take no CT, and a draw greater than double the Fortitude
    column is a wound to the torso (FI:L55, A-22)."""
    return _heat(request, dice)


def _heat(request: HeatInput, dice: Dice) -> Heat:
    checked = roll_check(check_of(request, request.tn, request.options), dice)
    interval = 12 if request.fluids else 6
    stroke = _stroke(request)
    if checked.success:
        return Heat(check=checked, draw=None, heat_stroke=stroke, ct_loss=0, torso_wound=False,
                    next_check_turns=interval)  # fmt: skip
    draw = roll_damage(parse(HEAT), dice, request.options, "heat")
    return Heat(check=checked, draw=draw, heat_stroke=stroke,
                ct_loss=0 if stroke else draw.total,
                torso_wound=stroke and draw.total > 2 * _column(request),
                next_check_turns=interval)  # fmt: skip


class StrokeInput(Exposure):
    tn: TN
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


def heat_stroke_odds(request: StrokeInput) -> HeatOdds:
    """A check under heat stroke: the chance of a torso wound, exactly."""
    return heat_odds(_as_heat(request))


def _as_heat(request: StrokeInput) -> HeatInput:
    fields = {name: getattr(request, name) for name in StrokeInput.model_fields}
    return HeatInput(**fields, ct=-1)


def heat_stroke_cost(request: StrokeInput) -> Estimate:
    return heat_cost(_as_heat(request))


@operation(
    name="environment/heat-stroke",
    kind=Kind.CHECK,
    covers=("fi.environment.heat_stroke",),
    odds=heat_stroke_odds,
    cost=heat_stroke_cost,
    example={"pool": "I-2", "tn": 7, "dice": {"values": [3, 2, 4, 3]}},
)
def heat_stroke(request: StrokeInput, dice: Dice) -> Heat:
    """A character with heat stroke keeps making the heat checks but takes no CT; any draw
    revealed greater than double his Fortitude column is a wound to the torso (FI:L55)."""
    return _heat(_as_heat(request), dice)


class ColdState(StrEnum):
    NONE = "none"
    IMPAIRED = "impaired"
    APATHY = "apathy"
    UNCONSCIOUS = "unconscious"


class ColdInput(Exposure):
    tn: TN = Field(description="The cold's TN by the race's norm (FI:L57).")
    acuity_column: Annotated[int, Field(ge=1, le=5)] = Field(description="Acuity's column now.")
    failures: Annotated[int, Field(ge=0, le=5)] = Field(
        default=0, description="Cold checks failed so far."
    )
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Cold(Model):
    check: Checked
    acuity_column: int
    failures: int
    state: ColdState = Field(
        description="impaired after a failure (slurred speech, poor decisions), apathy after "
        "two (shivering), unconscious and subject to hypothermia at Acuity 0."
    )


def _state(acuity: int, failures: int) -> ColdState:
    if acuity <= 0:
        return ColdState.UNCONSCIOUS
    return (ColdState.NONE, ColdState.IMPAIRED)[failures] if failures < 2 else ColdState.APATHY


class ColdOdds(Model):
    state: list[OutcomeProbability]
    truncation: Truncation | None


def cold_odds(request: ColdInput) -> ColdOdds:
    """The state after this check, exactly."""
    failed = losses(check_of(request, request.tn, request.options)).map(lambda o: not o[0])
    found = failed.map(lambda f: _state(request.acuity_column - f, request.failures + f))
    return ColdOdds(state=outcome_table(found),
                    truncation=truncation(found, DEPTH))  # fmt: skip


@operation(
    name="environment/cold",
    kind=Kind.CHECK,
    covers=("fi.environment.cold",),
    odds=cold_odds,
    cost=check_cost,
    example={"pool": "II-2", "tn": 7, "acuity_column": 3, "dice": {"values": [3, 2]}},
)
def cold(request: ColdInput, dice: Dice) -> Cold:
    """In extreme cold a Fortitude check against the cold's TN (taken, like heat, every 6
    turns, A-23); each failure reduces Acuity's column by 1, and at 0 the character is
    unconscious and subject to hypothermia (FI:L57)."""
    checked = roll_check(check_of(request, request.tn, request.options), dice)
    failed = int(not checked.success)
    acuity, failures = request.acuity_column - failed, request.failures + failed
    return Cold(check=checked, acuity_column=acuity, failures=failures,
                state=_state(acuity, failures))  # fmt: skip


class Skill(StrEnum):
    FIRST_AID = "first_aid"
    MEDICINE = "medicine"


#: A Standard (5) First Aid or Easy (3) Medicine check (FI:L57).
DIAGNOSIS_TN = {Skill.FIRST_AID: 5, Skill.MEDICINE: 3}


class DiagnoseInput(Exposure):
    skill: Skill
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Diagnosis(Model):
    check: Checked
    tn: int
    diagnosed: bool


class DiagnosisOdds(Model):
    diagnosed: list[OutcomeProbability]
    truncation: Truncation | None


def diagnose_odds(request: DiagnoseInput) -> DiagnosisOdds:
    """The chance of a diagnosis, exactly."""
    tn = DIAGNOSIS_TN[request.skill]
    found = losses(check_of(request, tn, request.options)).map(lambda o: o[0])
    return DiagnosisOdds(diagnosed=outcome_table(found),
                         truncation=truncation(found, DEPTH))  # fmt: skip


@operation(
    name="environment/cold/diagnose",
    kind=Kind.CHECK,
    covers=("fi.environment.cold.diagnose",),
    odds=diagnose_odds,
    cost=check_cost,
    example={"pool": "III-2", "skill": "first_aid", "dice": {"values": [6, 2]}},
)
def diagnose(request: DiagnoseInput, dice: Dice) -> Diagnosis:
    """The cold's impairment or apathy is diagnosed with a Standard (5) First Aid or an Easy
    (3) Medicine check (FI:L57)."""
    tn = DIAGNOSIS_TN[request.skill]
    checked = roll_check(check_of(request, tn, request.options), dice)
    return Diagnosis(check=checked, tn=tn, diagnosed=checked.success)
