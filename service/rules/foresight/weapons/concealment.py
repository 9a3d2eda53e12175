"""Concealing weapons and other items (#110; F:L3827-3873): the item's weight gives the
observer's EF modifiers to notice it (Perception) and to find it frisking (Search), for
pistol-dense items; a pistol's carry and the clothing add to both and change the Draw actions.
A band includes its upper weight ('Up to 25g' includes 25 g). 'Obvious' is no modifier: the
item is seen. A holster conceals only with clothing that suits it (F:L3864): the caller says
whether it does (`clothing_suits`); if not, the carry's concealment is lost but not what gives
the item away (a hip holster's +2). Draw is kept at 'min_draw' or more (AMB2-43)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.foresight.weapons.refs import DrawOptions
from service.rules.model import Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["CLOTHING", "CONCEALMENT", "PISTOL_CARRY", "Concealment", "concealment"]


class ConcealmentCarry(StrEnum):
    HIP_HOLSTER = "hip_holster"
    SHOULDER_HOLSTER = "shoulder_holster"
    INVERTED_SHOULDER_HOLSTER = "inverted_shoulder_holster"
    SMALL_OF_BACK = "small_of_back"
    ANKLE = "ankle"
    INNER_THIGH = "inner_thigh"
    TAPED_TO_BACK = "taped_to_back"


class ConcealmentClothing(StrEnum):
    BEDOUIN_ROBES = "bedouin_robes"
    TRENCH_COAT = "trench_coat"
    BUSINESS_SUIT = "business_suit"
    LITTLE_BLACK_DRESS = "little_black_dress"


class ConcealmentBand(Model):
    """A row of the Concealment Table (F:L3833-3848); null: 'Obvious'."""

    size: str
    above_kg: float
    up_to_kg: float | None
    notice: int | None
    frisk: int | None
    printed: list[str]
    line: int


class ConcealmentRow(Model):
    """A row of Pistol Concealment (F:L3855-3861) or Clothing (F:L3868-3871)."""

    key: str
    description: str
    notice: int = Field(description="Notice/Search: added to the observer's EF.")
    draw: int = Field(description="Added to the Draw actions.")
    printed: list[str]
    line: int


CONCEALMENT = table(__name__, "concealment", ConcealmentBand)
PISTOL_CARRY = table(__name__, "pistol-concealment", ConcealmentRow)
CLOTHING = table(__name__, "clothing-concealment", ConcealmentRow)
_CARRY = {ConcealmentCarry(row.key): row for row in PISTOL_CARRY}
_CLOTHING = {ConcealmentClothing(row.key): row for row in CLOTHING}


class ConcealmentInput(Model):
    weight_kg: float = Field(gt=0, le=100_000, description="The item's weight.")
    carry: ConcealmentCarry | None = Field(default=None, description="How a pistol is carried.")
    clothing: ConcealmentClothing | None = None
    clothing_suits: bool = Field(
        default=True, description="The clothing suits the carry; if not, the carry hides "
        "nothing (an ankle holster under a skirt, F:L3864): its minus is lost, a plus stays."
    )  # fmt: skip
    draw: Annotated[int, Field(ge=0, le=20)] | None = Field(
        default=None, description="The weapon's Draw actions, to be changed."
    )
    options: DrawOptions = Field(default=DrawOptions())


class Concealment(Model):
    band: ConcealmentBand
    carry_modifier: int
    clothing_modifier: int
    notice: int | None = Field(description="The observer's EF modifier; null: obvious.")
    frisk: int | None = Field(description="The frisker's EF modifier; null: obvious.")
    draw_change: int
    draw: int | None = Field(description="'draw' + the change, at least 'min_draw'.")


def _carry_modifier(notice: int, clothing_suits: bool) -> int:
    """A carry's Notice/Search modifier (F:L3855-3861). Under clothing that does not suit it
    the carry hides nothing (F:L3864), so its concealment (a negative modifier) is lost; what
    gives the item away (the hip holster's +2) stays."""
    return notice if clothing_suits else max(notice, 0)


def band_of(weight_kg: float) -> ConcealmentBand:
    """The band whose upper weight is the first at or above the item's (F:L3833-3848)."""
    for band in CONCEALMENT:
        if band.up_to_kg is None or weight_kg <= band.up_to_kg:
            return band
    raise AssertionError("the last band has no upper weight")


@operation(
    name="concealment",
    kind=Kind.LOOKUP,
    covers=("foresight.concealment",),
    example={"weight_kg": 1.5, "carry": "shoulder_holster", "clothing": "trench_coat", "draw": 2},
)
def concealment(request: ConcealmentInput) -> Concealment:
    """How hard an item is to notice and to find frisking (F:L3831-3873): its weight band's
    modifiers (up to 25 g -10 and -6 ... 8-12 kg +6 and obvious, 12+ kg obvious), plus the
    pistol carry's (hip holster +2 ... taped to back -3) and the clothing's (Bedouin robes -4
    ... little black dress +1); the carry and the clothing change the Draw actions too. A 1.5
    kg pistol in a shoulder holster under a trench coat: notice +1 + 0 - 2 = -1, frisk +3 + 0
    - 2 = +1, Draw 2 + 0 + 1 = 3."""
    band = band_of(request.weight_kg)
    carry = _CARRY[request.carry] if request.carry is not None else None
    worn = _CLOTHING[request.clothing] if request.clothing is not None else None
    carry_notice = 0 if carry is None else _carry_modifier(carry.notice, request.clothing_suits)
    clothing_notice = worn.notice if worn is not None else 0
    added = carry_notice + clothing_notice
    change = (carry.draw if carry else 0) + (worn.draw if worn else 0)
    draw = None if request.draw is None else max(request.options.min_draw, request.draw + change)
    return Concealment(
        band=band,
        carry_modifier=carry_notice,
        clothing_modifier=clothing_notice,
        notice=None if band.notice is None else band.notice + added,
        frisk=None if band.frisk is None else band.frisk + added,
        draw_change=change,
        draw=draw,
    )
