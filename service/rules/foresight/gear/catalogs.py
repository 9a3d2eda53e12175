"""Toolkits, communications, power generators and navigation aids (catalogue part 2, #117,
#118, #120, #121; F:L4156-4263) as searchable data.

The three item tables share the equipment columns (F:L3498-3560): size (a word or metric),
weight, TL, price in svu, PM, failure range and DS; each is transcribed from the seed's cells,
a repeated name's key ending in its TL ('gps-receiver-5.5'). '-' is no PM or no failure range;
the chart priced '10k?' is read as 10k and flagged. The toolkit table gives each quality's PM,
its size for car-sized devices at the toolkit's TL and for devices 1 or 2 TL below it (the +1
and +2 columns, F:L4178), and its cost.
"""

from collections.abc import Iterable
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.mortality.damage import decimal
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["COMMUNICATIONS", "NAVIGATION_AIDS", "POWER_GENERATORS", "TOOLKITS", "GearItemRow"]


class GearItemRow(Model):
    key: str = Field(description="'gps-receiver-5.5': a repeated name ends in its TL.")
    name: str
    size: str = Field(description="As printed: 'Small', 'Luggable', '1m x 1m'.")
    weight: str = Field(description="As printed: '500g', '2t'.")
    weight_kg: float
    tl: float
    price: str = Field(description="As printed: '2k', '10k?'.")
    price_svu: float
    pm: int | None = Field(description="Performance modifier; null where printed '-'.")
    fail: str | None = Field(description="Failure range: '98-99', '99*'; null where '-'.")
    ds: float
    source: str


COMMUNICATIONS = table(__name__, "communications", GearItemRow)
POWER_GENERATORS = table(__name__, "power-generators", GearItemRow)
NAVIGATION_AIDS = table(__name__, "navigation-aids", GearItemRow)


class GearCatalogInput(Model):
    name: Annotated[str, Field(max_length=60)] | None = Field(
        default=None, description="Part of the name or key, any case: 'gps', 'phone'."
    )
    tl: float | None = Field(default=None, ge=0, le=20, description="Exactly this TL.")
    tl_min: float | None = Field(default=None, ge=0, le=20)
    tl_max: float | None = Field(default=None, ge=0, le=20)


class GearItem(Model):
    item: GearItemRow
    notes: list[str] = Field(description="What the text says of its use.")


class GearCatalog(Model):
    count: int
    items: list[GearItem]


def _find(
    rows: Iterable[GearItemRow], request: GearCatalogInput, notes: dict[str, list[str]]
) -> GearCatalog:
    low, high = request.tl_min, request.tl_max
    if low is not None and high is not None and low > high:
        raise InputError(("tl_max",), "tl_max is below tl_min")
    wanted = None if request.name is None else request.name.casefold()
    found = [
        GearItem(item=row, notes=_notes(row, notes))
        for row in rows
        if (wanted is None or wanted in row.name.casefold() or wanted in row.key)
        and (request.tl is None or row.tl == request.tl)
        and (low is None or row.tl >= low)
        and (high is None or row.tl <= high)
    ]
    return GearCatalog(count=len(found), items=found)


def _notes(row: GearItemRow, notes: dict[str, list[str]]) -> list[str]:
    found = [text for stem, texts in notes.items() if row.key.startswith(stem) for text in texts]
    if row.price.endswith("?"):
        found.append(f"Priced '{row.price}' in the book: uncertain; secret charts may be "
                     "priceless (F:L4259).")  # fmt: skip
    return found


# --- foresight.comms.catalog (#118) ----------------------------------------------------------

_COMMS_NOTES = {
    "phone-cellular": ["Cellular: needs major infrastructure, allowing smaller, cheaper units "
                       "(F:L4198)."],
    "transceiver-subspace": ["Future device: speculative, the GM decides (F:L4198)."],
    "transceiver-ansible": ["Future device: speculative, the GM decides (F:L4198)."],
}  # fmt: skip


@operation(
    name="comms/catalog",
    kind=Kind.LOOKUP,
    covers=("foresight.comms.catalog",),
    example={"name": "transceiver", "tl_max": 5.5},
)
def comms_catalog(request: GearCatalogInput) -> GearCatalog:
    """Communications equipment (F:L4182-4196), searched by part of the name or key and by TL:
    a handheld transceiver ('walkie talkie') is small, 1 kg, TL 5, 100 svu, fails on 99, DS
    0.1. Devices grow smaller, more reliable and capable with TL; future ones are the GM's
    (F:L4198)."""
    return _find(COMMUNICATIONS, request, _COMMS_NOTES)


# --- foresight.power.generator.catalog (#120) ------------------------------------------------

_GENERATOR_NOTES = {
    "driven-fission": ["Needs input power to start; stable when not running, minimal "
                       "shielding (F:L4227)."],
    "portable-": ["Portable fusion reactors are at best conceivable (F:L4227)."],
}  # fmt: skip


@operation(
    name="power/generator/catalog",
    kind=Kind.LOOKUP,
    covers=("foresight.power.generator.catalog",),
    example={"name": "solar"},
)
def power_generator_catalog(request: GearCatalogInput) -> GearCatalog:
    """Portable power generators (F:L4229-4235), rated by output and endurance (F:L4227),
    searched by part of the name or key and by TL: the 5 kW diesel generator burns 2 L of
    fuel an hour, weighs 150 kg, TL 4.6, 2k svu, fails on 99*."""
    return _find(POWER_GENERATORS, request, _GENERATOR_NOTES)


# --- foresight.navigation.aids.catalog (#121) ------------------------------------------------

_NAVIGATION_NOTES = {
    "sextant": ["Much less useful without a compass and a chronometer; at night only with an "
                "ephemeris, otherwise pretty much only at noon (F:L4257)."],
    "astrolabe": ["A primitive sextant (F:L4257)."],
    "ephemeris": ["A navigator's almanac: lets a sextant be used at night (F:L4257)."],
    "navigational-chart": ["More accurate and cheaper as its information spreads; secret or "
                           "speculative charts may be priceless (F:L4259)."],
    "inertial-locator": ["Drifts with time and distance; recalibrated when convenient, e.g. "
                         "at airports (F:L4261)."],
    "gps-receiver": ["Needs a line of sight to several satellites; explorers and colonists "
                     "may have no network (F:L4263)."],
}  # fmt: skip


@operation(
    name="navigation/aids/catalog",
    kind=Kind.LOOKUP,
    covers=("foresight.navigation.aids.catalog",),
    example={"name": "gps"},
)
def navigation_aids_catalog(request: GearCatalogInput) -> GearCatalog:
    """Navigational aids (F:L4239-4255) with the text's constraints on their use (F:L4257-
    4263), searched by part of the name or key and by TL: the TL 5.5 GPS receiver is small,
    100 g, 25 svu, PM +2 to Navigate rolls when used as intended, fails on 99*."""
    return _find(NAVIGATION_AIDS, request, _NAVIGATION_NOTES)


# --- foresight.toolkit (#117) ----------------------------------------------------------------


class ToolkitQuality(StrEnum):
    BASIC = "basic"
    STANDARD = "standard"
    ADVANCED = "advanced"
    SMALL_FACILITY = "small_facility"
    LARGE_FACILITY = "large_facility"
    ADVANCED_FACILITY = "advanced_facility"


class ToolkitRow(Model):
    quality: ToolkitQuality
    name: str
    pm: int
    size: list[str] = Field(description="As printed: at the base TL, then the +1 and +2 columns.")
    size_kg: list[float]
    cost: str
    cost_svu: float
    source: str


TOOLKITS = table(__name__, "toolkits", ToolkitRow)
_TOOLKITS = {row.quality: row for row in TOOLKITS}


class ToolkitScale(StrEnum):
    """The class of objects the toolkit serves, against the table's car-sized devices."""

    CAR = "car"
    BICYCLE = "bicycle"


#: Bicycle tools are about 1/10 the size and cost of a car's (F:L4176).
SCALE = {ToolkitScale.CAR: Fraction(1), ToolkitScale.BICYCLE: Fraction(1, 10)}

CAPABILITY = {
    ToolkitQuality.BASIC: "minor temporary repairs only",
    ToolkitQuality.STANDARD: "minor maintenance and repairs",
    ToolkitQuality.ADVANCED: "major maintenance and moderate repairs",
}


class ToolkitInput(Model):
    quality: ToolkitQuality
    tl_below: int = Field(
        default=0, ge=0, le=2, description="The items are this many TL below the toolkit's."
    )
    scale: ToolkitScale = Field(default=ToolkitScale.CAR)


class Toolkit(Model):
    toolkit: ToolkitRow
    pm: int = Field(description="To tasks in its field (F:L4162).")
    size_kg: Exact
    cost_svu: Exact
    capability: str
    steps: list[str]


@operation(
    name="toolkit",
    kind=Kind.LOOKUP,
    covers=("foresight.toolkit",),
    example={"quality": "standard", "tl_below": 1},
)
def toolkit(request: ToolkitInput) -> Toolkit:
    """A toolkit's PM, size and cost by quality (F:L4164-4172): sizes are for car-sized devices
    at the toolkit's TL, smaller for items 1 or 2 TL below it (F:L4178), about 1/10 size and
    cost for bicycles (F:L4176). Basic kits make minor temporary repairs, standard minor
    maintenance and repairs, advanced major maintenance and moderate repairs; facilities build
    and rebuild (F:L4174). Using it off its field is a GM's negative modifier (F:L4162)."""
    row = _TOOLKITS[request.quality]
    scale = SCALE[request.scale]
    size = decimal(row.size_kg[request.tl_below]) * scale
    cost = decimal(row.cost_svu) * scale
    column = ["base", "+1", "+2"][request.tl_below]
    steps = [f"{row.name}: PM {row.pm:+d}, size ({column}) {row.size[request.tl_below]}, "
             f"cost {row.cost}"]  # fmt: skip
    if scale != 1:
        steps.append(f"{request.scale.value}-scale: x {scale} size and cost (F:L4176)")
    return Toolkit(toolkit=row, pm=row.pm, size_kg=exact(size), cost_svu=exact(cost),
                   capability=CAPABILITY.get(request.quality, "build or rebuild"),
                   steps=steps)  # fmt: skip
