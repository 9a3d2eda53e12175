"""The Armor Table and Armor Locations (catalogue part 2, #111-#112; F:L3877-3954) as data.

An armor type has three ratings, against melee, impact and beam damage (F:L3879), each a
number (the damage class it takes off) and A's (damage absorbed outright, F:L3881); an AG/DX
modifier (F:L3883); a base weight and a base cost (F:L3889-3891) and a TL. A piece of armor is
a type made for a location (F:L3930): its weight and cost are the base values times the
location's multipliers, and where its coverage is less than 10/10 a D10 decides whether it
protects against each hit (F:L3930). Amy's silkweave vest: 2 kg x 1.5 = 3 kg, 9/10 from front
or rear and 6/10 from the sides (F:L3952-3954).

The table's rows are transcribed from the seed's cells; a repeated name's key ends in its TL
('flexible-nanofiber-7'). The text mentions a "Conceal" rating (F:L3887) the table does not
have: there is none here, it is the GM's call (AMB2-56).
"""

from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.mortality.condition import ARMS, LEGS, Location
from service.rules.foresight.mortality.damage import decimal
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "ARMOR",
    "ARMOR_LOCATIONS",
    "ArmorDirection",
    "ArmorKey",
    "ArmorPiece",
    "ArmorPieceRow",
    "ArmorRow",
    "WornArmor",
    "armor_row",
    "coverage_of",
    "piece_row",
    "piece_weight",
    "worn_coverage",
]

#: A row of armor/catalog by its key: 'heavy-plate', 'flexible-nanofiber-8' (any case).
ArmorKey = Annotated[
    str,
    Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9.-]+$",
          examples=["heavy-plate", "silkweave", "flexible-nanofiber-8"],
          description="An armor/catalog key."),
]  # fmt: skip


class ArmorRow(Model):
    key: str = Field(description="'heavy-plate'; a repeated name ends in its TL.")
    name: str
    melee: str = Field(description="ArmorProtection against melee damage (M): '5A'.")
    impact: str = Field(description="Against impact (I), and stun unless a weapon says not.")
    beam: str = Field(description="Against beam (B).")
    agdx: int = Field(description="The AG/DX modifier (F:L3883).")
    base_weight_kg: float
    base_cost_svu: float
    tl: float
    source: str


class ArmorPiece(StrEnum):
    """The rows of Armor Locations (F:L3935-3950)."""

    FULL_FACED_HELMET = "full_faced_helmet"
    INFANTRY_HELMET = "infantry_helmet"
    OPEN_FACED_HELMET = "open_faced_helmet"
    VEST = "vest"
    SHIRT = "shirt"
    SHIRT_LEGS = "shirt_legs"
    SHIRT_ARMS = "shirt_arms"
    SHIRT_ARMS_GLOVES = "shirt_arms_gloves"
    TROUSERS = "trousers"
    BOOTS = "boots"
    SHINGUARDS = "shinguards"
    VAMBRACES = "vambraces"
    SLEEVES = "sleeves"
    SLEEVES_GLOVES = "sleeves_gloves"
    GLOVES = "gloves"
    FULL_SUIT = "full_suit"


class ArmorDirection(StrEnum):
    """Where an attack comes from, as the coverage notes tell it apart (F:L3936-3954)."""

    FRONT = "front"
    REAR = "rear"
    SIDE = "side"
    ABOVE = "above"


class ArmorDirectionCoverage(Model):
    """A note's different coverage from one direction: the vest's 6/10 from the sides."""

    front: int | None = None
    rear: int | None = None
    side: int | None = None
    above: int | None = None


class ArmorPieceCoverage(Model):
    locations: list[Location]
    coverage: int = Field(description="n/10 from any direction the notes do not name.")
    by_direction: ArmorDirectionCoverage


class ArmorPieceRow(Model):
    piece: ArmorPiece
    name: str = Field(description="As printed: 'Vest (Chest & Abdomen)'.")
    weight_multiplier: float
    cost_multiplier: float
    coverage_written: str = Field(description="As printed: '10/10 (8/10 arms)'.")
    notes: str
    coverage: list[ArmorPieceCoverage] = Field(description="The coverage and notes, read.")
    pc_modifier: int = Field(description="A helmet's modifier to PC-related activity.")
    ignores_agdx: bool = Field(description="Boots: 'ignore AG/DX modifier'.")
    source: str


ARMOR = table(__name__, "armor", ArmorRow)
ARMOR_LOCATIONS = table(__name__, "armor-locations", ArmorPieceRow)
_BY_KEY = {row.key: row for row in ARMOR}
_PIECES = {row.piece: row for row in ARMOR_LOCATIONS}


def armor_row(key: str, loc: tuple[str | int, ...]) -> ArmorRow:
    """The catalogue row of `key` (any case), or a 422 at `loc`."""
    found = _BY_KEY.get(key.lower())
    if found is None:
        raise InputError(loc, f"no armor '{key}' in the catalogue (armor/catalog)")
    return found


def piece_row(piece: ArmorPiece) -> ArmorPieceRow:
    return _PIECES[piece]


def piece_weight(armor: ArmorRow, piece: ArmorPiece) -> Fraction:
    """Base weight x the location's weight multiplier (F:L3930), exactly."""
    return decimal(armor.base_weight_kg) * decimal(_PIECES[piece].weight_multiplier)


def coverage_of(piece: ArmorPiece, location: Location, direction: ArmorDirection) -> int:
    """n/10 the piece covers `location` against an attack from `direction`; 0 if it does not
    cover it at all."""
    for part in _PIECES[piece].coverage:
        if location in part.locations:
            special = getattr(part.by_direction, direction.value)
            return part.coverage if special is None else int(special)
    return 0


#: The pieces whose arm coverage gloves complete to 10/10 (F:L3941, F:L3949).
SLEEVED = frozenset({ArmorPiece.SLEEVES, ArmorPiece.SHIRT_ARMS})
ARM_LOCATIONS = (Location.RIGHT_ARM, Location.LEFT_ARM)


class WornArmor(Model):
    """A piece of catalogue armor worn: its type by key and its Armor Locations row."""

    armor: ArmorKey
    piece: ArmorPiece = Field(description="'vest', 'full_suit', 'full_faced_helmet'...")


def _gloved(worn: Sequence[WornArmor]) -> set[str]:
    """The armor keys worn as both gloves and sleeves (or a sleeved shirt)."""
    gloves = {w.armor.lower() for w in worn if w.piece is ArmorPiece.GLOVES}
    return {w.armor.lower() for w in worn if w.piece in SLEEVED and w.armor.lower() in gloves}


def worn_coverage(worn: Sequence[WornArmor], index: int, location: Location,
                  direction: ArmorDirection) -> tuple[int, str | None]:  # fmt: skip
    """n/10 the piece `worn[index]` covers `location` from `direction` (0: not at all), and
    why when the outfit changes it: gloves with sleeves or a sleeved shirt of the same armor
    make its arms 10/10 ('10/10 if you add gloves', F:L3941, F:L3949), the gloves counted in
    the sleeves."""
    piece = worn[index]
    if location in ARM_LOCATIONS and piece.armor.lower() in _gloved(worn):
        if piece.piece is ArmorPiece.GLOVES:
            return 0, None
        if piece.piece in SLEEVED:
            return 10, "with gloves of the same armor: 10/10 (F:L3941, F:L3949)"
    return coverage_of(piece.piece, location, direction), None


# --- foresight.armor.catalog (#111) ----------------------------------------------------------


class ArmorCatalogInput(Model):
    name: Annotated[str, Field(max_length=40)] | None = Field(
        default=None, description="Part of the name or key, any case: 'plate', 'nanofiber-8'."
    )
    tl: float | None = Field(default=None, ge=0, le=20, description="Exactly this TL.")
    tl_min: float | None = Field(default=None, ge=0, le=20)
    tl_max: float | None = Field(default=None, ge=0, le=20)


class ArmorCatalog(Model):
    count: int
    armor: list[ArmorRow]
    note: str


def _matches(row: ArmorRow, request: ArmorCatalogInput) -> bool:
    wanted = None if request.name is None else request.name.casefold()
    return (
        (wanted is None or wanted in row.name.casefold() or wanted in row.key)
        and (request.tl is None or row.tl == request.tl)
        and (request.tl_min is None or row.tl >= request.tl_min)
        and (request.tl_max is None or row.tl <= request.tl_max)
    )


@operation(
    name="armor/catalog",
    kind=Kind.LOOKUP,
    covers=("foresight.armor.catalog",),
    example={"name": "plate", "tl_max": 3},
)
def armor_catalog(request: ArmorCatalogInput) -> ArmorCatalog:
    """The Armor Table (F:L3893-3922), searched by part of the name or key and by TL (exact or
    a range): heavy plate is 5A melee, 5 impact, 4A beam, AG/DX -5, 5 kg and 300 svu a unit of
    coverage, TL 3. Each row is worn by its key in armor/piece and armor/protection."""
    low, high = request.tl_min, request.tl_max
    if low is not None and high is not None and low > high:
        raise InputError(("tl_max",), "tl_max is below tl_min")
    found = [row for row in ARMOR if _matches(row, request)]
    return ArmorCatalog(
        count=len(found),
        armor=found,
        note="Stun damage meets the impact rating unless the weapon says otherwise (F:L3879). "
        "The book names a Conceal rating (F:L3887) but gives none: the GM's call (AMB2-56).",
    )


# --- foresight.armor.piece (#112) ------------------------------------------------------------


class ArmorPieceInput(Model):
    armor: ArmorKey
    piece: ArmorPiece = Field(description="The Armor Locations row: 'vest', 'full_suit'.")


class ArmorLocationCoverage(Model):
    location: Location
    front: int
    rear: int
    side: int
    above: int


class ArmorPieceResult(Model):
    armor: ArmorRow
    piece: ArmorPieceRow
    weight_kg: Exact = Field(description="Base weight x the weight multiplier.")
    cost_svu: Exact = Field(description="Base cost x the cost multiplier.")
    coverage: list[ArmorLocationCoverage] = Field(description="n/10 by location and direction.")
    agility_tasks: bool = Field(description="Its AG/DX modifier applies to agility tasks.")
    dexterity_tasks: bool = Field(description="Its AG/DX modifier applies to DX tasks.")
    steps: list[str]


def agdx_reach(piece: ArmorPiece) -> tuple[bool, bool]:
    """Whether a piece's AG/DX modifier reaches agility tasks (worn on the legs) and dexterity
    tasks (on the arms) (F:L3883); boots 'ignore AG/DX modifier' (F:L3944)."""
    row = _PIECES[piece]
    if row.ignores_agdx:
        return False, False
    covered = {location for part in row.coverage for location in part.locations}
    return bool(covered & LEGS), bool(covered & ARMS)


@operation(
    name="armor/piece",
    kind=Kind.CALCULATION,
    covers=("foresight.armor.piece",),
    example={"armor": "silkweave", "piece": "vest"},
)
def armor_piece(request: ArmorPieceInput) -> ArmorPieceResult:
    """A piece of armor: the type's base weight and cost times the location's multipliers, and
    its coverage of each location from each direction (F:L3928-3950). A silkweave vest weighs
    2 x 1.5 = 3 kg and covers chest and abdomen 9/10 from front or rear, 6/10 from the sides
    (F:L3952-3954); it is not worn on arms or legs, so its AG/DX does not apply."""
    armor = armor_row(request.armor, ("armor",))
    row = _PIECES[request.piece]
    weight = piece_weight(armor, request.piece)
    cost = decimal(armor.base_cost_svu) * decimal(row.cost_multiplier)
    coverage = [
        ArmorLocationCoverage(
            location=location,
            **{d.value: coverage_of(request.piece, location, d) for d in ArmorDirection},
        )
        for location in Location
        if any(location in part.locations for part in row.coverage)
    ]
    legs, arms = agdx_reach(request.piece)
    return ArmorPieceResult(
        armor=armor,
        piece=row,
        weight_kg=exact(weight),
        cost_svu=exact(cost),
        coverage=coverage,
        agility_tasks=legs,
        dexterity_tasks=arms,
        steps=[
            f"weight {armor.base_weight_kg:g} kg x {row.weight_multiplier:g} = "
            f"{float(weight):g} kg",
            f"cost {armor.base_cost_svu:g} svu x {row.cost_multiplier:g} = {float(cost):g} svu",
        ],
    )
