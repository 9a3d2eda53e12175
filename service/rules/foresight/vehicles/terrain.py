"""How a vehicle type copes with terrain (catalogue part 2, #96; F:L3989-4040, F:L3413).

Each type rates each terrain category (land, marsh, water, snow/ice) '-' (cannot go there) or
an adjustment to the terrain's value, negative being good; its Limit is the highest
unadjusted terrain value it can operate in (F:L3995-3999). With the modified terrain value
(MTV): cruise and max speeds are divided by MTV/2 (or 1 if that is more), Acc and Man lose the
MTV, Safe gains MTV/2 (F:L4001-4009). Aircraft keep their speeds and land with -MTV
(F:L4037). The Environment Types Table of terrain values is referenced but not in the book
(F:L3991): the terrain value is the caller's (AMB2-34).
"""

from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.mortality.damage import decimal
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.model import Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["TYPES", "TerrainCategory", "VehicleType", "VehicleTypeRow"]

#: The highest speed a request may give, in km/h: the Interstellar Plane's max is 10M.
MAX_SPEED = 100_000_000


class VehicleType(StrEnum):
    WHEELED = "wheeled"
    FOUR_WD = "4wd"
    SIX_WD = "6wd"
    TWO_WHEELED = "2_wheeled"
    DIRT_BIKE = "dirt_bike"
    TRACKED = "tracked"
    BIPED = "biped"
    QUADRUPED = "quadruped"
    CRAWLER = "crawler"
    HOVERCRAFT = "hovercraft"
    BOAT = "boat"
    SHIP = "ship"
    SUBMERSIBLE = "submersible"
    SUBMARINE = "submarine"
    AIRBOAT = "airboat"
    HYDROFOIL = "hydrofoil"
    AIRPLANE = "airplane"
    STOL = "stol"
    VTOL = "vtol"
    SPACECRAFT = "spacecraft"


class TerrainCategory(StrEnum):
    LAND = "land"
    MARSH = "marsh"
    WATER = "water"
    SNOW_ICE = "snow_ice"


class VehicleTypeRow(Model):
    """A row of the Vehicle Type Table: null is the table's '-' (cannot be used there)."""

    type: VehicleType
    written: str
    land: int | None
    marsh: int | None
    water: int | None
    water_surface_only: bool = Field(description="Parenthesised: on the surface of water only.")
    snow_ice: int | None
    limit: int | None = Field(description="Highest unadjusted terrain value it operates in.")
    aircraft: bool = Field(description="Starred: normal speeds; -MTV to land (F:L4037).")
    source: str


TYPES = table(__name__, "vehicle-types", VehicleTypeRow)
TYPE_ROWS = {row.type: row for row in TYPES}


class TerrainDivisorRule(StrEnum):
    HALF_MTV = "half_mtv"
    MTV = "mtv"


class TerrainOptions(Model):
    """Readings of the terrain rules (AMB2-34, AMB2-51)."""

    terrain_divisor_rule: TerrainDivisorRule = option(
        TerrainDivisorRule.HALF_MTV,
        ambiguity="AMB2-34",
        description=(
            "Speeds are divided by max(1, MTV/2), reading 'divided by (Modified Terrain "
            "Value)/2 (or 1 if that is lower)' (F:L4001) as a divisor never below 1; or by "
            "max(1, MTV)."
        ),
    )
    aircraft_terrain_ratings: bool = option(
        True,
        ambiguity="AMB2-34",
        description=(
            "An aircraft's Acc, Man and Safe are modified by the terrain like any vehicle's "
            "('ratings of aircraft and watercraft are modified by terrain values', F:L3413), "
            "its speeds never (F:L4037); false: an aircraft's ratings are untouched too."
        ),
    )


class Performance(Model):
    """A vehicle's ratings, as the vehicle table gives them."""

    acc: int = Field(ge=-20, le=20)
    man: int = Field(ge=-20, le=20)
    safe: int = Field(ge=-20, le=20)
    cruise_kmh: float = Field(ge=0, le=MAX_SPEED)
    max_kmh: float = Field(ge=0, le=MAX_SPEED)


class TerrainPerformanceInput(Model):
    vehicle_type: VehicleType
    terrain: TerrainCategory
    terrain_value: int = Field(
        ge=-10, le=20, description="The terrain's value (the Environment Types Table, F:L3991)."
    )
    vehicle: Performance
    options: TerrainOptions = Field(default=TerrainOptions())


class TerrainPerformance(Model):
    allowed: bool
    reason: str | None = Field(description="Why the vehicle cannot operate there.")
    rating: int | None = Field(description="The type's adjustment for the category; null '-'.")
    limit: int | None
    limit_uses: str = Field(description="The Limit is compared with the unadjusted value.")
    surface_only: bool
    modified_terrain_value: int | None
    speed_divisor: Exact | None
    cruise_kmh: Exact | None
    max_kmh: Exact | None
    acc: int | None
    man: int | None
    safe: int | None
    landing_modifier: int | None = Field(description="Aircraft: -MTV to a roll to land there.")
    steps: list[str]


def _divisor(mtv: int, options: TerrainOptions) -> Fraction:
    value = Fraction(mtv, 2) if options.terrain_divisor_rule is TerrainDivisorRule.HALF_MTV else mtv
    return max(Fraction(1), Fraction(value))


def _refused(
    request: TerrainPerformanceInput, row: VehicleTypeRow, rating: int | None, reason: str
) -> TerrainPerformance:
    return TerrainPerformance(
        allowed=False, reason=reason, rating=rating, limit=row.limit,
        limit_uses="unadjusted terrain value", surface_only=False,
        modified_terrain_value=None, speed_divisor=None, cruise_kmh=None, max_kmh=None,
        acc=None, man=None, safe=None, landing_modifier=None, steps=[reason],
    )  # fmt: skip


@operation(
    name="vehicle/terrain-performance",
    kind=Kind.CALCULATION,
    covers=("foresight.vehicle.terrain_performance",),
    example={
        "vehicle_type": "4wd",
        "terrain": "marsh",
        "terrain_value": 2,
        "vehicle": {"acc": -1, "man": 1, "safe": -1, "cruise_kmh": 60, "max_kmh": 100},
    },
)
def terrain_performance(request: TerrainPerformanceInput) -> TerrainPerformance:
    """A vehicle in a terrain: '-' forbids it, and so does a terrain value above the type's
    Limit, which is compared with the unadjusted value (F:L3997, AMB2-51). MTV = value +
    the type's rating; cruise and max are divided by max(1, MTV/2), Acc and Man lose the MTV,
    Safe gains MTV/2 rounded half up (F:L4001-4009). Aircraft keep their speeds and take
    -MTV to land (F:L4037). A '4WD' "Jeep" in marsh of value 2: MTV 5, speeds / 2.5."""
    row = TYPE_ROWS[request.vehicle_type]
    rating: int | None = getattr(row, request.terrain.value)
    label = f"{row.written} in {request.terrain.value}"
    if rating is None:
        return _refused(request, row, rating, f"{label}: '-', it cannot be used there")
    if row.limit is None or request.terrain_value > row.limit:
        reason = f"{label}: terrain value {request.terrain_value} is above the Limit {row.limit}"
        return _refused(request, row, rating, reason)
    mtv = request.terrain_value + rating
    vehicle, options = request.vehicle, request.options
    steps = [f"MTV = {request.terrain_value} {rating:+d} = {mtv}"]
    divisor = Fraction(1) if row.aircraft else _divisor(mtv, options)
    steps.append("aircraft keep their speeds" if row.aircraft else f"speeds / {divisor}")
    rated = not row.aircraft or options.aircraft_terrain_ratings
    shift = mtv if rated else 0
    safe = vehicle.safe + (round_half_up(Fraction(mtv, 2)) if rated else 0)
    return TerrainPerformance(
        allowed=True,
        reason=None,
        rating=rating,
        limit=row.limit,
        limit_uses="unadjusted terrain value",
        surface_only=request.terrain is TerrainCategory.WATER and row.water_surface_only,
        modified_terrain_value=mtv,
        speed_divisor=exact(divisor),
        cruise_kmh=exact(decimal(vehicle.cruise_kmh) / divisor),
        max_kmh=exact(decimal(vehicle.max_kmh) / divisor),
        acc=vehicle.acc - shift,
        man=vehicle.man - shift,
        safe=safe,
        landing_modifier=-mtv if row.aircraft else None,
        steps=steps,
    )
