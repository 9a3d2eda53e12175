"""Batteries (catalogue part 2, #119; F:L4200-4225): what an item's power draw needs.

Each row of the Power Storage System table is one Wh of storage: its weight, TL, price and the
most power it can deliver (F:L4224). An item drawing P watts needs enough units to deliver P
(P / output per unit) and enough to store P x hours; those units last units / P hours. The
book's field radio, 25 W on lead acid: 25 / 0.25 = 100 units, 100 x 40 g = 4 kg; it says they
last one hour, but 100 Wh at 25 W last 4 hours (AMB2-33: the formula, no option). "DC 0.1
per kg" is read as DS 0.1 a kg (AMB2-33).
"""

import math
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.mortality.damage import decimal
from service.rules.model import InputError, Model, at_least
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["POWER_STORAGE", "PowerStorageRow", "battery"]


class PowerStorageRow(Model):
    key: str = Field(
        description="'rechargeable-battery-lead-acid'; a repeated name ends in its TL."
    )
    name: str
    weight_per_wh: str = Field(description="As printed: '40g'.")
    weight_per_wh_g: float
    tl: float
    price_per_wh_svu: float
    output: str = Field(description="As printed: '0.25W'.")
    output_w_per_wh: float = Field(description="Watts one unit (1 Wh) can deliver.")
    source: str


#: A milliwatt: below it a battery's hours (units / W) leave what a float can show.
MIN_DRAW_W = 0.001
#: 100 kW for 10,000 hours: the units (W x h, or W / 0.25 W a unit) stay within the 32-bit
#: integers GraphQL publishes them as.
MAX_DRAW_W = 100_000
MAX_HOURS = 10_000

POWER_STORAGE = table(__name__, "power-storage", PowerStorageRow)
_BY_KEY = {row.key: row for row in POWER_STORAGE}


class BatteryInput(Model):
    storage: str = Field(
        min_length=1,
        max_length=60,
        pattern=r"^[A-Za-z0-9.-]+$",
        description="A Power Storage System key: 'rechargeable-battery-lead-acid'.",
        examples=["rechargeable-battery-lead-acid", "battery-alkaline"],
    )
    draw_w: Annotated[float, at_least(MIN_DRAW_W, "a power draw (W)")] = Field(
        gt=0, le=MAX_DRAW_W, description="The item's power draw (W)."
    )
    hours: float = Field(default=0, ge=0, le=MAX_HOURS, description="How long it must run.")


class Battery(Model):
    storage: PowerStorageRow
    units_for_power: int = Field(description="Units to deliver the draw: ceil(W / output).")
    units_for_energy: int = Field(description="Units to store W x hours (Wh).")
    units: int = Field(description="The larger: Wh of storage needed.")
    output_limited: bool = Field(description="The draw, not the energy, sets the units.")
    mass_kg: Exact
    price_svu: Exact
    runtime_h: Exact = Field(description="units / W: how long they last.")
    ds: Exact = Field(description="0.1 a kg (F:L4224, AMB2-33).")
    steps: list[str]


@operation(
    name="power/battery",
    kind=Kind.CALCULATION,
    covers=("foresight.power.battery",),
    example={"storage": "rechargeable-battery-lead-acid", "draw_w": 25},
)
def battery(request: BatteryInput) -> Battery:
    """The batteries an item drawing W watts for some hours needs (F:L4204-4225): units =
    max(ceil(W / output per unit), ceil(W x hours)), each unit a Wh with the row's weight and
    price, lasting units / W hours. A TL4.8 radio at 25 W on lead acid needs 100 units, 4 kg,
    and they last 4 hours, not the book's one (AMB2-33)."""
    row = _BY_KEY.get(request.storage.lower())
    if row is None:
        raise InputError(("storage",), f"no power storage '{request.storage}' (the keys: "
                         f"{', '.join(_BY_KEY)})")  # fmt: skip
    draw, hours = decimal(request.draw_w), decimal(request.hours)
    output = decimal(row.output_w_per_wh)
    for_power = math.ceil(draw / output)
    for_energy = math.ceil(draw * hours)
    units = max(for_power, for_energy)
    mass = units * decimal(row.weight_per_wh_g) / 1000
    price = units * decimal(row.price_per_wh_svu)
    runtime = Fraction(units) / draw
    steps = [
        f"to deliver {request.draw_w:g} W at {row.output} a unit: {for_power} units",
        f"to store {request.draw_w:g} W x {request.hours:g} h: {for_energy} Wh",
        f"{units} units x {row.weight_per_wh} = {float(mass):g} kg, x {row.price_per_wh_svu:g} "
        f"svu = {float(price):g} svu; {units} Wh / {request.draw_w:g} W = {float(runtime):g} h",
    ]
    return Battery(
        storage=row,
        units_for_power=for_power,
        units_for_energy=for_energy,
        units=units,
        output_limited=for_power > for_energy,
        mass_kg=exact(mass),
        price_svu=exact(price),
        runtime_h=exact(runtime),
        ds=exact(mass / 10),
        steps=steps,
    )
