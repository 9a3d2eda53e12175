"""Getting a grenade there: its range, the thrower's thrown range +1 (C:L1574-1596), and where
it goes off, which the source never says (catalogue F3): by default in the sector chosen, or,
as an option, after a ranged attack whose miss lands where the GM says (catalogue 3.12.1)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.combat.options import ThrowingTrait
from service.rules.four_c.combat.reach import thrown_range
from service.rules.four_c.core.master_table import (
    COLOURS,
    MasterInput,
    Resolved,
    colour_distribution,
    master_cost,
    resolve_roll,
)
from service.rules.four_c.core.ranks import Ladder, Laddered, RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.grenades.options import DeliveryOptions, GrenadeDelivery, ThrowOptions
from service.rules.four_c.grenades.tables import THROWN_WEAPON_RANGE, ThrownWeaponRangeRow
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["grenade_range", "scatter"]


class GrenadeRangeInput(Laddered):
    brawn: RankValue = Field(description="The thrower's Brawn.")
    coordination: RankValue | None = Field(
        default=None, description="The thrower's Coordination, with thrown_range_trait."
    )
    options: ThrowOptions = Field(default=ThrowOptions())


class GrenadeRange(Model):
    sectors: int = Field(description="How many sectors away a grenade can be thrown.")
    thrown_sectors: int = Field(
        description="The thrower's range for an object not made for throwing; 0: own sector."
    )
    table_row: ThrownWeaponRangeRow | None = Field(
        description="The Thrown Weapon Range row read (C:L1583-1594), its label corrected; "
        "none off the basic Master Table or at Rank Value 0."
    )


def _row(rv: int, request: Laddered) -> ThrownWeaponRangeRow | None:
    """The supplement's table is of the basic rows; its '10-29' and '10-39' are 20-29 and
    30-39 (catalogue E13)."""
    if request.table_name != Ladder.LIBRE_BASIC.value:
        return None
    return next((r for r in THROWN_WEAPON_RANGE if r.rv_min <= rv and
                 (r.rv_max is None or rv <= r.rv_max)), None)  # fmt: skip


def _thrower_rv(request: GrenadeRangeInput) -> int:
    if request.options.thrown_range_trait is ThrowingTrait.COORDINATION:
        if request.coordination is None:
            raise InputError(("coordination",), "thrown_range_trait=coordination needs it")
        return request.coordination
    return request.brawn


def range_of(request: GrenadeRangeInput) -> GrenadeRange:
    rv = _thrower_rv(request)
    return GrenadeRange(sectors=thrown_range(rv, request, True),
                        thrown_sectors=thrown_range(rv, request, False),
                        table_row=_row(rv, request))  # fmt: skip


@operation(
    name="grenade/throw-range",
    kind=Kind.LOOKUP,
    covers=("4c.grenade.throw_range",),
    example={"brawn": 20},
)
def grenade_range(request: GrenadeRangeInput) -> GrenadeRange:
    """A thrower's thrown range, one sector per Master Table row from 6-9 up, and a grenade
    one sector more (C:L1574-1596): Brawn 20 throws a rock 3 sectors and a grenade 4
    (catalogue T23); below 6, a grenade still goes 1 sector (catalogue 3.12.1)."""
    return range_of(request)


class Landed(StrEnum):
    TARGET_SECTOR = "target_sector"
    GM_SECTOR = "gm_sector"


class ScatterInput(MasterInput):
    rv: RankValue = Field(
        description="The thrower's Coordination, rolled with grenade_delivery=ranged_attack."
    )
    brawn: RankValue | None = Field(
        default=None, description="The thrower's Brawn: when given, the target must be in range."
    )
    distance_sectors: Annotated[int, Field(ge=0, le=100)] = Field(
        default=0, description="Sectors to the target sector, not counting the thrower's."
    )
    scatter_sector: Annotated[str, Field(min_length=1, max_length=60)] | None = Field(
        default=None, description="Where the GM says a missed grenade lands (ranged_attack)."
    )
    options: DeliveryOptions = Field(default=DeliveryOptions())


class Scatter(Model):
    in_source: bool = Field(description="False: the source has no rule for this (F3).")
    note: str
    delivery: GrenadeDelivery
    roll: Resolved | None = Field(description="The Coordination roll, with ranged_attack.")
    landed: Landed
    landing_sector: str | None = Field(
        description="The GM's sector for a miss; none in the target sector, or not yet given."
    )


NOTE = (
    "Not in the source (catalogue F3): Weapons & Gear gives no rule for aiming a grenade or for "
    "a miss. This reading is grenade_delivery's; no scatter dice are invented, and a missed "
    "grenade lands where the GM says."
)


def _steps(request: ScatterInput) -> tuple[int, ...]:
    return (-request.distance_sectors,) if request.options.range_penalty else ()


def _aimed(request: ScatterInput) -> MasterInput:
    return request.model_copy(update={"row_steps": (*request.row_steps, *_steps(request))})


def _in_range(request: ScatterInput) -> None:
    if request.brawn is None:
        return
    reach = thrown_range(request.brawn, request, True)
    if request.distance_sectors > reach:
        raise InputError(
            ("distance_sectors",), f"beyond the thrower's grenade range of {reach} sectors"
        )


#: A miss first: the odds list outcomes worst first for the thrower.
_WORST_FIRST = [Landed.GM_SECTOR.value, Landed.TARGET_SECTOR.value]


def _landed(colour: Colour) -> Landed:
    """Black misses the target sector; red or better hits it (catalogue 3.12.1)."""
    return Landed.GM_SECTOR if colour is Colour.BLACK else Landed.TARGET_SECTOR


class ScatterOdds(Model):
    landed: list[OutcomeProbability]
    colour: list[OutcomeProbability] = Field(description="Each colour; none without a roll.")
    in_source: bool
    master_table: str


def scatter_odds(request: ScatterInput) -> ScatterOdds:
    _in_range(request)
    if request.options.grenade_delivery is GrenadeDelivery.AUTO:
        landed = Distribution({Landed.TARGET_SECTOR.value: 1})
        return ScatterOdds(landed=outcome_table(landed), colour=[], in_source=False,
                           master_table=request.table_name)  # fmt: skip
    colours = colour_distribution(_aimed(request))
    return ScatterOdds(
        landed=outcome_table(colours.map(lambda c: _landed(c).value), _WORST_FIRST),
        colour=outcome_table(colours.map(lambda c: c.value), COLOURS),
        in_source=False,
        master_table=request.table_name,
    )


def scatter_cost(request: object) -> Estimate:
    """One Master Table roll (`master_cost`) and its tables: the same for every request."""
    return Estimate(master_cost(request).states + 50, ())


@operation(
    name="grenade/scatter",
    kind=Kind.CHECK,
    covers=("4c.grenade.scatter",),
    odds=scatter_odds,
    cost=scatter_cost,
    example={"rv": 20, "brawn": 20, "distance_sectors": 3, "scatter_sector": "the alley",
             "options": {"grenade_delivery": "ranged_attack"}, "dice": {"values": [1, 2]}},
)  # fmt: skip
def scatter(request: ScatterInput, dice: Dice) -> Scatter:
    """Where a thrown grenade goes off: NOT IN THE SOURCE (catalogue F3, 3.12.1). By default
    in the sector chosen, if within range; with grenade_delivery=ranged_attack, a Coordination
    roll (with the range penalty if on): black lands where the GM says, red or better in the
    target sector."""
    _in_range(request)
    delivery = request.options.grenade_delivery
    if delivery is GrenadeDelivery.AUTO:
        return Scatter(in_source=False, note=NOTE, delivery=delivery, roll=None,
                       landed=Landed.TARGET_SECTOR, landing_sector=None)  # fmt: skip
    rolled = resolve_roll(_aimed(request), dice)
    landed = _landed(rolled.colour)
    sector = request.scatter_sector if landed is Landed.GM_SECTOR else None
    return Scatter(in_source=False, note=NOTE, delivery=delivery, roll=rolled, landed=landed,
                   landing_sector=sector)  # fmt: skip
