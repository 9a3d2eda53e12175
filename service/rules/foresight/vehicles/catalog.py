"""The vehicle table (catalogue part 2, #97; F:L4042-4136) as data, searchable.

Transcribed from the seed: the price in svu in the name, '*' for a vehicle that may be bought
at TL +0.5 for 75% or at TL +1 for 50% of the price (F:L4076); Acc, Man and Safe performance
modifiers; cruise and max in km/h; ceiling (altitude, a submersible's depth as a negative
figure, 'Space' or 'na'); DS; Size; type; cargo (kg, 't' a tonne) and passengers besides the
operator (F:L4050-4074). The indented rows under a vehicle are its other modes (the Crawler's
crawl, the Amphibious ATV afloat and submerged). The DS of Ultralight, Jet Pack and Fast Pack
are printed '+2', '+2', '+1', a sign in the DS column: read as 2, 2, 1 (AMB2-50).
"""

from typing import Annotated

from pydantic import Field

from service.rules.foresight.vehicles.terrain import VehicleType
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["VEHICLES", "VehicleMode", "VehicleRow", "find"]


class VehicleMode(Model):
    """Another mode of the vehicle above it; null is the vehicle's own value."""

    label: str
    acc: int
    man: int
    safe: int
    cruise_kmh: float
    max_kmh: float
    ceiling: str | None
    ceiling_m: float | None
    size: int | None
    types: list[VehicleType] | None
    source: str


class VehicleRow(Model):
    name: str
    written: str = Field(description="As printed: 'Crawler (20k*)'.")
    price_svu: float | None = Field(description="Null for a human.")
    cheaper_at_higher_tl: bool = Field(description="'*': TL +0.5 for 75%, TL +1 for 50%.")
    tl: float | None
    acc: int
    man: int
    safe: int
    cruise_kmh: float | None
    max_kmh: float | None
    speed_note: str | None = Field(description="'See Stamina' for a human.")
    ceiling: str = Field(description="As printed: '2.5km', '-100m', 'Space', 'na'.")
    ceiling_m: float | None = Field(description="In metres, negative a depth; null na/Space.")
    ds: float
    ds_written: str = Field(description="As printed; '+2' read as 2 (AMB2-50).")
    size: int
    types: list[VehicleType] = Field(description="'airplane spacecraft': both.")
    cargo: str | None = Field(description="As printed: '250t', 'varies'.")
    cargo_kg: float | None
    passengers: int = Field(description="Besides the operator.")
    modes: list[VehicleMode]
    source: str


VEHICLES = table(__name__, "vehicles", VehicleRow)


class CatalogInput(Model):
    name: Annotated[str, Field(max_length=60)] | None = Field(
        default=None, description="Part of the name, any case: 'atv', 'transport'."
    )
    tl: float | None = Field(default=None, ge=0, le=20, description="Exactly this TL.")
    tl_min: float | None = Field(default=None, ge=0, le=20)
    tl_max: float | None = Field(default=None, ge=0, le=20)
    type: VehicleType | None = Field(default=None, description="Vehicles of this type.")


class Catalog(Model):
    count: int
    vehicles: list[VehicleRow]


def _matches(row: VehicleRow, request: CatalogInput) -> bool:
    if request.name is not None and request.name.casefold() not in row.name.casefold():
        return False
    if request.type is not None and request.type not in row.types:
        return False
    tl = row.tl
    if tl is None:
        return request.tl is None and request.tl_min is None and request.tl_max is None
    return (
        (request.tl is None or tl == request.tl)
        and (request.tl_min is None or tl >= request.tl_min)
        and (request.tl_max is None or tl <= request.tl_max)
    )


def find(request: CatalogInput) -> list[VehicleRow]:
    return [row for row in VEHICLES if _matches(row, request)]


@operation(
    name="vehicle/catalog",
    kind=Kind.LOOKUP,
    covers=("foresight.vehicle.catalog",),
    example={"name": "atv", "tl_min": 6},
)
def vehicle_catalog(request: CatalogInput) -> Catalog:
    """The vehicle table (F:L4076-4136), searched by part of the name, TL (exact or a range)
    and type: the Automobile (10k) is TL 4.5, Acc 0, Man 0, Safe -1, cruise 60 and max 100
    km/h, DS 3, Size 0, wheeled, 200 kg and 4 passengers. A human, with no TL, is found only
    when no TL is asked for."""
    low, high = request.tl_min, request.tl_max
    if low is not None and high is not None and low > high:
        raise InputError(("tl_max",), "tl_max is below tl_min")
    found = find(request)
    return Catalog(count=len(found), vehicles=found)
