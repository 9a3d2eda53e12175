"""Vehicle modifications (catalogue part 2, #98; F:L4138-4154).

Each modification adds to the TL, Acc, Man, Safe and Size columns and multiplies the speeds,
ceiling, DS, cargo and passengers ('-' leaves a column alone); its price multiplier is in
parentheses, and Primitive/Improvised lists none (F:L4144-4154). Several modifications apply
one after another (additions add, multipliers multiply); passengers are rounded half up once
at the end, never below 0 (the catalogue's recommendation). Availability is the GM's call
(F:L4140).
"""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.mortality.damage import MAX_DS, decimal
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.vehicles.catalog import VEHICLES, VehicleRow
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["MODIFICATIONS", "Modification", "ModificationRow"]


class Modification(StrEnum):
    CARGO = "cargo"
    CHEAP_OLD = "cheap_old"
    FAST = "fast"
    HEAVY = "heavy"
    HUGE = "huge"
    LIGHT_COMPACT = "light_compact"
    LUXURY = "luxury"
    MILITARY_PARAMILITARY = "military_paramilitary"
    PASSENGER = "passenger"
    PRIMITIVE_IMPROVISED = "primitive_improvised"
    SPORTY = "sporty"


class ModificationRow(Model):
    """A row of the Vehicle Modifications table; null is its '-' (no change)."""

    name: str
    written: str
    price_multiplier: float | None
    tl: float | None
    acc: float | None
    man: float | None
    safe: float | None
    cruise: float | None
    max: float | None
    ceiling: float | None
    ds: float | None
    size: float | None
    cargo: float | None
    passengers: float | None
    source: str


MODIFICATIONS = table(__name__, "vehicle-modifications", ModificationRow)
MODIFICATION_ROWS = {
    Modification(row.name.casefold().replace("/", "_")): row for row in MODIFICATIONS
}

#: Columns a modification adds to, and those it multiplies: the row's name, the vehicle's.
ADDED = {"tl": "tl", "acc": "acc", "man": "man", "safe": "safe", "size": "size"}
MULTIPLIED = {
    "cruise": "cruise_kmh",
    "max": "max_kmh",
    "ceiling": "ceiling_m",
    "ds": "ds",
    "cargo": "cargo_kg",
    "passengers": "passengers",
}
#: Limits stay within GraphQL's 32-bit Int, in which the catalogue publishes them.
BIG = 10**9


class VehicleStats(Model):
    """A vehicle's row: null where the table has none (a human's TL, 'na' ceiling)."""

    tl: float | None = Field(default=None, ge=0, le=20)
    acc: int = Field(ge=-20, le=20)
    man: int = Field(ge=-20, le=20)
    safe: int = Field(ge=-20, le=20)
    cruise_kmh: float | None = Field(default=None, ge=0, le=BIG)
    max_kmh: float | None = Field(default=None, ge=0, le=BIG)
    ceiling_m: float | None = Field(default=None, ge=-BIG, le=BIG)
    ds: float = Field(gt=0, le=MAX_DS)
    size: int = Field(ge=-20, le=20)
    cargo_kg: float | None = Field(default=None, ge=0, le=BIG)
    passengers: int = Field(ge=0, le=1_000_000)
    price_svu: float | None = Field(default=None, ge=0, le=BIG)


class VehicleBase(VehicleStats):
    """The stats modified: a request's, or a table row (an Interstellar Carrier costs 10B svu)."""

    # Past the 10^9 a request may give, which the catalogue publishes as a 32-bit GraphQL Int.
    price_svu: float | None = Field(default=None, description="F:L4130, F:L4134.")


class ModifyInput(Model):
    vehicle: Annotated[str, Field(max_length=60)] | None = Field(
        default=None, description="A vehicle of the table by name, any case: 'Automobile'."
    )
    tl: float | None = Field(
        default=None, ge=0, le=20, description="With 'vehicle': which, when several share it."
    )
    stats: VehicleStats | None = Field(default=None, description="Instead of 'vehicle'.")
    modifications: Annotated[tuple[Modification, ...], Field(min_length=1, max_length=11)]


class ModificationStep(Model):
    modification: Modification
    column: str
    change: str = Field(description="'+1', 'x1.5'.")
    before: Exact | None
    after: Exact | None


class ModifiedVehicle(Model):
    tl: Exact | None
    acc: int
    man: int
    safe: int
    cruise_kmh: Exact | None
    max_kmh: Exact | None
    ceiling_m: Exact | None
    ds: Exact
    size: int
    cargo_kg: Exact | None
    passengers: int = Field(description="Rounded half up, at least 0.")
    price_svu: Exact | None
    price_multiplier: Exact


class Modified(Model):
    base: VehicleBase
    vehicle: ModifiedVehicle
    steps: list[ModificationStep]


def _from_table(request: ModifyInput) -> VehicleBase:
    name = (request.vehicle or "").casefold()
    rows = [row for row in VEHICLES if row.name.casefold() == name]
    if request.tl is not None:
        rows = [row for row in rows if row.tl == request.tl]
    if len(rows) != 1:
        found = ", ".join(f"{row.written} TL {row.tl}" for row in rows) or "none"
        raise InputError(("vehicle",), f"'{request.vehicle}' names {found}: give one (and 'tl')")
    return _stats(rows[0])


def _stats(row: VehicleRow) -> VehicleBase:
    fields = set(VehicleBase.model_fields)
    return VehicleBase(**{k: v for k, v in row.model_dump().items() if k in fields})


def _base(request: ModifyInput) -> VehicleBase:
    if (request.vehicle is None) == (request.stats is None):
        raise InputError(("vehicle",), "give either 'vehicle' or 'stats'")
    if len(set(request.modifications)) != len(request.modifications):
        raise InputError(("modifications",), "each modification applies once")
    if request.stats is None:
        return _from_table(request)
    return VehicleBase(**dict(request.stats))


def _apply(
    values: dict[str, Fraction | None], modification: Modification
) -> list[ModificationStep]:
    row = MODIFICATION_ROWS[modification]
    steps = []
    for column, mine in [*ADDED.items(), *MULTIPLIED.items()]:
        change = getattr(row, column)
        before = values[mine]
        if change is None:
            continue
        amount = decimal(change)
        if column in ADDED:
            after = None if before is None else before + amount
            written = f"{float(amount):+g}"
        else:
            after = None if before is None else before * amount
            written = f"x{float(amount):g}"
        values[mine] = after
        steps.append(ModificationStep(
            modification=modification, column=mine, change=written,
            before=None if before is None else exact(before),
            after=None if after is None else exact(after),
        ))  # fmt: skip
    return steps


def _maybe(value: Fraction | None) -> Exact | None:
    return None if value is None else exact(value)


@operation(
    name="vehicle/modify",
    kind=Kind.CALCULATION,
    covers=("foresight.vehicle.modify",),
    example={"vehicle": "Automobile", "modifications": ["sporty", "military_paramilitary"]},
)
def vehicle_modify(request: ModifyInput) -> Modified:
    """A vehicle with modifications (F:L4138-4154): each adds to TL, Acc, Man, Safe and Size
    and multiplies speeds, ceiling, DS, cargo and passengers, and the price by its multiplier
    (none for Primitive/Improvised). A Sporty Automobile: TL 4.75, Acc +1, Man +1, Safe -2,
    75 and 125 km/h, DS 2.4, 100 kg and 2 passengers, 15,000 svu."""
    base = _base(request)
    dumped = base.model_dump()
    values: dict[str, Fraction | None] = {
        key: None if dumped[key] is None else decimal(dumped[key])
        for key in [*ADDED.values(), *MULTIPLIED.values()]
    }
    steps: list[ModificationStep] = []
    price = Fraction(1)
    for modification in request.modifications:
        steps += _apply(values, modification)
        multiplier = MODIFICATION_ROWS[modification].price_multiplier
        price *= decimal(multiplier) if multiplier is not None else 1
    passengers = values["passengers"] or Fraction(0)

    def whole(key: str) -> int:
        found = values[key]
        assert found is not None
        assert found.denominator == 1
        return int(found)

    ds = values["ds"]
    assert ds is not None
    return Modified(
        base=base,
        vehicle=ModifiedVehicle(
            tl=_maybe(values["tl"]),
            acc=whole("acc"),
            man=whole("man"),
            safe=whole("safe"),
            cruise_kmh=_maybe(values["cruise_kmh"]),
            max_kmh=_maybe(values["max_kmh"]),
            ceiling_m=_maybe(values["ceiling_m"]),
            ds=exact(ds),
            size=whole("size"),
            cargo_kg=_maybe(values["cargo_kg"]),
            passengers=max(0, round_half_up(passengers)),
            price_svu=None if base.price_svu is None else exact(decimal(base.price_svu) * price),
            price_multiplier=exact(price),
        ),
        steps=steps,
    )
