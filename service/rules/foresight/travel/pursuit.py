"""Pursuit bookkeeping (F:L3384-3446): the range table and round length of each scale, the
conversion of Acceleration, Maneuver and Safe ratings between broad vehicle types, and how
the speed bids of the vehicles move the range each round."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.foresight.travel.driving import Bid, Rating
from service.rules.model import Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "LOST_CONTACT",
    "RANGES",
    "ROUND_LENGTHS",
    "TYPE_CONVERSION",
    "conversion",
    "metres",
    "moved",
]

#: Range 7: 'The pursuers have completely lost contact' (F:L3427).
LOST_CONTACT = 7
#: The GM starts a pursuit at range 0 (tailgating, side by side) to 5 (within sight) (F:L3415).
MAX_START = 5

Range = Annotated[int, Field(ge=0, le=LOST_CONTACT)]


class PursuitScale(StrEnum):
    FOOT = "foot"
    CAR_BOAT = "car_boat"
    PLANE = "plane"
    SHIP = "ship"
    SPACE = "space"


class PursuitRangeRow(Model):
    range: int
    foot: str | None
    car_boat: str | None
    plane: str | None
    ship: str | None
    space: str | None


class PursuitRoundLengthRow(Model):
    scale: PursuitScale
    heading: str
    seconds: int


RANGES = table(__name__, "pursuit-ranges", PursuitRangeRow)
ROUND_LENGTHS = table(__name__, "pursuit-round-length", PursuitRoundLengthRow)

#: The units the range table writes distances in (F:L3420-3426).
_UNITS = {"Mkm": 1_000_000_000, "km": 1000, "m": 1}


def metres(written: str) -> int:
    """A distance as the table writes it ('50,000km', '5Mkm') in metres."""
    for unit, size in _UNITS.items():
        if written.endswith(unit):
            return int(written.removesuffix(unit).replace(",", "")) * size
    raise ValueError(f"not a distance: {written!r}")


class PursuitRangeInput(Model):
    scale: PursuitScale = Field(
        description="On foot, cars/boats, planes, ships or space (F:L3419)."
    )
    range: Range = Field(description="The range number: 0 tailgating ... 7 contact lost.")


class PursuitRangeResult(Model):
    scale: PursuitScale
    range: int
    distance: str | None = Field(description="As the table writes it; null at range 7.")
    distance_m: float | None = Field(
        description="In metres, the range for weapons fire (F:L3430): a float, since space "
        "ranges (5Mkm, 50Mkm) pass the 32-bit integers GraphQL's Int holds."
    )
    lost_contact: bool = Field(description="Range 7: the pursuers have lost contact (F:L3427).")
    may_start_at: bool = Field(description="A pursuit may begin at this range: 0-5 (F:L3415).")
    round_length_s: int = Field(description="How long one pursuit round lasts (F:L3428).")


@operation(
    name="pursuit/range-table",
    kind=Kind.LOOKUP,
    covers=("foresight.pursuit.range_table",),
    example={"scale": "car_boat", "range": 2},
)
def range_table(request: PursuitRangeInput) -> PursuitRangeResult:
    """The pursuit range table (F:L3419-3428): each range number's distance at the scale of
    the vehicles, used as the range of weapons fire, and the length of a round (10 s; ships
    and space 30 s). A pursuit begins at range 0 to 5; at 7 the pursuers have lost contact."""
    row = next(r for r in RANGES if r.range == request.range)
    written: str | None = getattr(row, request.scale.value)
    seconds = next(r.seconds for r in ROUND_LENGTHS if r.scale is request.scale)
    return PursuitRangeResult(
        scale=request.scale,
        range=request.range,
        distance=written,
        distance_m=None if written is None else metres(written),
        lost_contact=request.range == LOST_CONTACT,
        may_start_at=request.range <= MAX_START,
        round_length_s=seconds,
    )


# --- type conversion --------------------------------------------------------------------------


class PursuitType(StrEnum):
    GROUND = "ground"
    WATER = "water"
    AIR = "air"
    SPACE = "space"


class TypeConversionRow(Model):
    convert_from: PursuitType
    convert_to: PursuitType
    category: str
    acc: int
    man: int
    safe: int


TYPE_CONVERSION = table(__name__, "pursuit-type-conversion", TypeConversionRow)


class ConversionTable(StrEnum):
    LITERAL = "literal"
    CONSISTENT = "consistent"


class TypeConversionOptions(Model):
    conversion_table: ConversionTable = option(
        ConversionTable.LITERAL,
        ambiguity="AMB2-35",
        description=(
            "Water<->Space Safe as printed, S+6 / S-6 (F:L3401, F:L3403), or 'consistent': "
            "+7 / -7, what every other path gives (Water->Air->Space is S+4+3, "
            "Water->Ground->Space S+1+6)."
        ),
    )


class PursuitRatings(Model):
    acc: Rating
    man: Rating
    safe: Rating


class PursuitTypeConversionInput(Model):
    convert_from: PursuitType = Field(description="The vehicle's broad type.")
    convert_to: PursuitType = Field(description="The type whose scale the pursuit uses.")
    ratings: PursuitRatings | None = Field(
        default=None, description="The vehicle's Acc, Man and Safe, to convert."
    )
    options: TypeConversionOptions = Field(default=TypeConversionOptions())


class ConvertedRatings(Model):
    acc: int
    man: int
    safe: int


class PursuitTypeConversion(Model):
    convert_from: PursuitType
    convert_to: PursuitType
    category: str | None = Field(
        description="The word the table's cell begins with (Groundcraft, Aircraft, "
        "Spacecraft), unexplained by the book; null for the same type."
    )
    acc: int = Field(description="Acceleration modifier (A).")
    man: int = Field(description="Maneuver modifier (M).")
    safe: int = Field(description="Safe modifier (S).")
    converted: ConvertedRatings | None = Field(description="The ratings given, modifiers added.")


def conversion(
    source: PursuitType, target: PursuitType, mode: ConversionTable
) -> TypeConversionRow:
    """The table's cell for converting `source` ratings to the `target` type (F:L3400-3403);
    the same type converts by nothing."""
    if source is target:
        return TypeConversionRow(
            convert_from=source, convert_to=target, category="", acc=0, man=0, safe=0
        )
    row = next(r for r in TYPE_CONVERSION if (r.convert_from, r.convert_to) == (source, target))
    water_space = {source, target} == {PursuitType.WATER, PursuitType.SPACE}
    if mode is ConversionTable.CONSISTENT and water_space:
        row = row.model_copy(update={"safe": 7 if target is PursuitType.SPACE else -7})
    return row


@operation(
    name="pursuit/type-conversion",
    kind=Kind.LOOKUP,
    covers=("foresight.pursuit.type_conversion",),
    example={
        "convert_from": "air",
        "convert_to": "ground",
        "ratings": {"acc": 2, "man": 4, "safe": 1},
    },
)
def type_conversion(request: PursuitTypeConversionInput) -> PursuitTypeConversion:
    """Acceleration and Maneuver ratings compare only within a broad type: land, water, air
    or space. Across types (a helicopter after a car) the GM converts to one scale, usually
    the slowest vehicle's, adding the table's A, M and S modifiers (F:L3394-3411)."""
    row = conversion(request.convert_from, request.convert_to, request.options.conversion_table)
    given = request.ratings
    converted = None
    if given is not None:
        converted = ConvertedRatings(
            acc=given.acc + row.acc, man=given.man + row.man, safe=given.safe + row.safe
        )
    return PursuitTypeConversion(
        convert_from=request.convert_from,
        convert_to=request.convert_to,
        category=row.category or None,
        acc=row.acc,
        man=row.man,
        safe=row.safe,
        converted=converted,
    )


# --- speed bids -------------------------------------------------------------------------------


class SpeedBidOptions(Model):
    range_steps_per_bid_point: Annotated[int, Field(ge=1, le=LOST_CONTACT)] = option(
        1,
        ambiguity="AMB2-37",
        description=(
            "Range numbers a vehicle gains or loses per round for each point its bid is "
            "lower or higher than the other's: 1 from the only example, bids -1 against 0 "
            "move range 2 to 3 (F:L3446)."
        ),
    )


class PursuitPursuer(Model):
    name: str = Field(default="", max_length=40, description="A label for the result.")
    bid: Bid = Field(description="The pursuer's speed bid this round (at most +2).")
    range: Range = Field(description="Its range from the quarry at the start of the round.")


class PursuitSpeedBidInput(Model):
    quarry_bid: Bid = Field(description="The speed bid of the vehicle in front (fleeing).")
    pursuers: Annotated[tuple[PursuitPursuer, ...], Field(min_length=1, max_length=16)] = Field(
        description="Each vehicle behind it, with its bid and range."
    )
    options: SpeedBidOptions = Field(default=SpeedBidOptions())


class PursuitRangeChange(Model):
    name: str
    range: int = Field(description="The range after this round's movement.")
    change: int = Field(description="Positive: the quarry draws away.")
    lost_contact: bool = Field(description="Range 7: the pursuers have lost contact.")
    closed: bool = Field(description="Range 0: tailgating or side by side.")


class PursuitSpeedBids(Model):
    pursuers: list[PursuitRangeChange]


def moved(start: int, quarry_bid: int, pursuer_bid: int, steps: int) -> int:
    """The range after a round: equal bids keep it; the faster (lower-bidding) vehicle moves
    up `steps` range numbers per point of difference (F:L3444-3446, AMB2-37), within 0 (side
    by side) and 7 (contact lost)."""
    if start == LOST_CONTACT:
        return start
    return min(LOST_CONTACT, max(0, start + (pursuer_bid - quarry_bid) * steps))


@operation(
    name="pursuit/speed-bid",
    kind=Kind.CALCULATION,
    covers=("foresight.pursuit.speed_bid",),
    example={"quarry_bid": -1, "pursuers": [{"name": "second car", "bid": 0, "range": 2}]},
)
def speed_bid(request: PursuitSpeedBidInput) -> PursuitSpeedBids:
    """Each round every operator declares a speed bid, an ease-factor modifier no greater
    than +2: the lower the bid, the faster and riskier (F:L3442). Vehicles at the same speed
    keep their distances; the faster moves up one range number per point of difference: two
    cars at 50 m (range 2) bid -1 and 0, and the first's lead grows to 100 m (range 3)
    (F:L3444-3446). At range 7 the pursuers have lost contact (F:L3427)."""
    steps = request.options.range_steps_per_bid_point
    found = []
    for pursuer in request.pursuers:
        after = moved(pursuer.range, request.quarry_bid, pursuer.bid, steps)
        found.append(
            PursuitRangeChange(
                name=pursuer.name,
                range=after,
                change=after - pursuer.range,
                lost_contact=after == LOST_CONTACT,
                closed=after == 0,
            )
        )
    return PursuitSpeedBids(pursuers=found)
