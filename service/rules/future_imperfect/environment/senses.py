"""What the environment rules assume and what the eyes can do (FI:L59-67): the hazards are
measured from the crew's shared norm of temperature, pressure and breath, Edges exempting a
character; in reduced vision, Acuity tasks shift two columns left."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.core.pools import Parsed, PoolText, described, parse
from service.rules.future_imperfect.environment.options import DarknessScope, EnvironmentOptions
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["darkness", "species_norms"]

Celsius = Annotated[float, Field(ge=-273, le=10_000)]
Atmospheres = Annotated[float, Field(ge=0, le=100_000)]
Gas = Annotated[str, Field(min_length=1, max_length=40)]


class Hazard(StrEnum):
    HEAT = "heat"
    COLD = "cold"
    VACUUM = "vacuum"
    HIGH_PRESSURE = "high_pressure"
    BREATHING = "breathing"


class Norm(Model):
    """The conditions a crew expects: its races' shared norm (FI:L61)."""

    coldest: Celsius = Field(description="Coldest its clothing mitigates.")
    hottest: Celsius = Field(description="Hottest its clothing mitigates.")
    lowest_pressure: Atmospheres
    highest_pressure: Atmospheres
    gas: Gas = Field(description="What the crew breathes.")


class Conditions(Model):
    temperature: Celsius
    pressure: Atmospheres
    gas: Gas


class NormsInput(Model):
    norm: Norm
    conditions: Conditions
    exemptions: tuple[Hazard, ...] = Field(
        default=(), max_length=5, description="Hazards an Edge lets the character ignore."
    )


class Norms(Model):
    hazards: list[Hazard] = Field(description="The rules that apply, in the chapter's order.")
    exempt: list[Hazard] = Field(description="Those that would, but an Edge ignores.")


def _outside(norm: Norm, here: Conditions) -> list[Hazard]:
    found = {
        Hazard.HEAT: here.temperature > norm.hottest,
        Hazard.COLD: here.temperature < norm.coldest,
        Hazard.VACUUM: here.pressure < norm.lowest_pressure,
        Hazard.HIGH_PRESSURE: here.pressure > norm.highest_pressure,
        Hazard.BREATHING: here.gas.casefold() != norm.gas.casefold(),
    }
    return [hazard for hazard, applies in found.items() if applies]


@operation(
    name="environment/species-norms",
    kind=Kind.LOOKUP,
    covers=("fi.environment.species_norms",),
    example={
        "norm": {"coldest": -10, "hottest": 35, "lowest_pressure": 0.7,
                 "highest_pressure": 3, "gas": "oxygen"},
        "conditions": {"temperature": 52, "pressure": 1, "gas": "oxygen"},
    },
)  # fmt: skip
def species_norms(request: NormsInput) -> Norms:
    """The hazard rules assume the norm of the crew's races: temperature, pressure and the gas
    they breathe are measured from it, and an Edge (a pressurized carapace) can let a Hero
    ignore one (FI:L61-63)."""
    norm = request.norm
    if norm.coldest > norm.hottest:
        raise InputError(("norm", "coldest"), "the coldest is above the hottest")
    if norm.lowest_pressure > norm.highest_pressure:
        raise InputError(("norm", "lowest_pressure"), "the lowest is above the highest")
    outside = _outside(norm, request.conditions)
    return Norms(hazards=[h for h in outside if h not in request.exemptions],
                 exempt=[h for h in outside if h in request.exemptions])  # fmt: skip


class Task(StrEnum):
    ACUITY = "acuity"
    ATTACK = "attack"


class DarknessInput(Model):
    pool: PoolText = Field(description="The pool of the task: Acuity, or the attack's.")
    task: Task = Task.ACUITY
    reduced_vision: bool = True
    target_distance: Annotated[float, Field(ge=0, le=100_000)] | None = Field(
        default=None, description="Meters to the target, where the task has one."
    )
    illuminated_shift: Annotated[int, Field(ge=0, le=2)] | None = Field(
        default=None,
        description="A target lit (carrying a flashlight): the Master's adjusted shift.",
    )
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Darkness(Parsed):
    shifted_by: int = Field(description="Columns left, never below column 1.")


#: Partial lighting only troubles targets further than this (FI:L67).
NEAR = 10


def _shift(request: DarknessInput) -> int:
    if not request.reduced_vision:
        return 0
    if request.task is Task.ATTACK and request.options.darkness_scope is DarknessScope.ACUITY_ONLY:
        return 0
    if request.target_distance is not None and request.target_distance <= NEAR:
        return 0
    return 2 if request.illuminated_shift is None else request.illuminated_shift


@operation(
    name="environment/darkness",
    kind=Kind.LOOKUP,
    covers=("fi.environment.darkness",),
    example={"pool": "IV-3", "target_distance": 25},
)
def darkness(request: DarknessInput) -> Darkness:
    """In reduced vision, Acuity shifts 2 columns left (minimum 1) for the task; against a
    target, only one further than 10 m; a lit target's penalty is the Master's (FI:L67,
    A-24)."""
    pool = parse(request.pool)
    column = max(pool.column - _shift(request), 1)
    shifted = pool.model_copy(update={"column": column})
    return Darkness(**dict(described(shifted)), shifted_by=pool.column - column)
