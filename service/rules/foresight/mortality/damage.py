"""Combat damage (F:L2628-2695, F:L2716-2726): the damage table, armor, damage scale and one
hit resolved end to end.

Damage is the yield of the attack's QR times the damage class, over 2 x DS, rounded half up
(F:L2632-2636, F:L2724): 0 is 'S', no wound but a Pain Resistance roll (F:L2638). Armor's
number lowers the DC and each A absorbs one wound level; piercing cancels the number first,
then A's (F:L2661-2673). The optional Hit Location table adds 1 to positive damage to the
head and, by the optional rule, an extra wound level on a 1-2 of a further D10 to a vital
location (F:L2703-2712).
"""

from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.resolution.tables import QR, QUALITY_RATINGS
from service.rules.model import Model, at_least, option
from service.rules.registry import Kind, operation

__all__ = [
    "Absorbed",
    "ArmorReduction",
    "DamageLookupOptions",
    "DamageRounding",
    "DamageScale",
    "DamageTableOptions",
    "Dc0Rule",
    "DsMode",
    "HeadBonusStage",
    "PierceMode",
    "Qr2Yield",
    "armor_reduce",
    "damage_yield",
    "table_damage",
    "written",
]

#: Largest damage class, damage scale and layer count a request may give.
MAX_DC = 999
MAX_DS = 1000
#: The smallest damage scale: an egg's is 0.05 (F:L3593); smaller ones only make the wound
#: levels of one hit run past anything the tables mean.
MIN_DS = 0.01


#: A damage scale (F:L3593): 1 a person, 10 a truck, 0.05 an egg.
DamageScale = Annotated[
    float, Field(gt=0, le=MAX_DS), at_least(MIN_DS, "a damage scale (an egg's is 0.05)")
]


class Qr2Yield(StrEnum):
    PCT_75 = "75"
    PCT_80 = "80"


class Dc0Rule(StrEnum):
    TABLE = "table"
    ALWAYS_S = "always_S"
    ALWAYS_NONE = "always_none"


class DsMode(StrEnum):
    FORMULA = "formula"
    DIVIDE_DC_THEN_TABLE = "divide_dc_then_table"


class DamageRounding(StrEnum):
    HALF_UP = "half_up"
    EXACT = "exact"


class PierceMode(StrEnum):
    POOLED = "pooled"
    SEQUENTIAL = "sequential"
    PER_LAYER = "per_layer"


class Absorbed(StrEnum):
    S = "S"
    NONE = "none"


class HeadBonusStage(StrEnum):
    AFTER_ARMOR = "after_armor"
    BEFORE_ABSORB = "before_absorb"


class DamageTableOptions(ResolutionOptions):
    """Readings of the damage table (catalogue part 2, section 5)."""

    qr2_yield: Qr2Yield = option(
        Qr2Yield.PCT_75,
        ambiguity="AMB2-01",
        description=(
            "The yield of a QR2: 75% as in the QR table (F:L1367), which the printed damage "
            "table matches in all 72 cells, or the damage example's 80% (F:L2663)."
        ),
    )
    dc0_rule: Dc0Rule = option(
        Dc0Rule.TABLE,
        ambiguity="AMB2-06",
        description=(
            "DC 0: the table's S for QR1-QR3 and '-' (no effect) for QR4 (F:L2642-2650), or "
            "always S, or always nothing. A DC below 0 (armor above it) does nothing."
        ),
    )
    ds_mode: DsMode = option(
        DsMode.FORMULA,
        ambiguity="AMB2-07",
        description=(
            "Damage scale by the formula yield x DC / (2 x DS), rounded once at the end "
            "(F:L2724), or DC / DS rounded half up, then the table (F:L2726)."
        ),
    )


class DamageLookupOptions(DamageTableOptions):
    """Readings of the damage table as a lookup: its rounding too (AMB2-07). Only the lookup
    offers it: a condition holds whole wound levels, so every hit rounds them."""

    damage_rounding: DamageRounding = option(
        DamageRounding.HALF_UP,
        ambiguity="AMB2-07",
        description=(
            "The wound levels yield x DC / (2 x DS) rounded half up, as the table is built "
            "(F:L2632, F:L2724), or left as the exact fraction ('continuous values', "
            "F:L262-270): DC5 at QR2 is 15/8, not 2. The DC divided by DS is not rounded "
            "either, so 'divide_dc_then_table' gives the formula's fraction."
        ),
    )


def damage_yield(qr: QR, options: DamageTableOptions) -> Fraction:
    """The yield of a hitting QR: 100%, 75% (or 80%, AMB2-01), 50%, 25% (F:L1367-1370)."""
    if qr is QR.QR2 and options.qr2_yield is Qr2Yield.PCT_80:
        return Fraction(4, 5)
    return Fraction(QUALITY_RATINGS[qr].yield_pct, 100)


def table_damage(dc: Fraction, qr: QR, ds: Fraction, options: DamageTableOptions) -> int | None:
    """Wound levels of a hit (0 is 'S', None is '-', no effect): round_half_up(yield x DC /
    (2 x DS)) (F:L2632, F:L2724), or by the table after DC / DS (F:L2726). DC 0 follows the
    table's S for QR1-3 and '-' for QR4 (F:L2642-2650); a DC below 0 does nothing. QR7 and
    QR10 do not hit: None."""
    if qr > QR.QR4 or dc < 0:
        return None
    if options.ds_mode is DsMode.DIVIDE_DC_THEN_TABLE:
        dc, ds = Fraction(round_half_up(dc / ds)), Fraction(1)
    if dc == 0:
        if options.dc0_rule is Dc0Rule.ALWAYS_NONE:
            return None
        if options.dc0_rule is Dc0Rule.TABLE and qr is QR.QR4:
            return None
        return 0
    return round_half_up(damage_yield(qr, options) * dc / (2 * ds))


def exact_damage(
    dc: Fraction, qr: QR, ds: Fraction, options: DamageTableOptions
) -> Fraction | None:
    """Wound levels of a hit left unrounded (AMB2-07 'exact'): yield x DC / (2 x DS)
    (F:L2632, F:L2724), which DC / DS then the formula (F:L2726) also gives unrounded; DC 0,
    a DC below 0 and a miss as `table_damage`."""
    if qr > QR.QR4 or dc <= 0:
        whole = table_damage(dc, qr, ds, options)
        return None if whole is None else Fraction(whole)
    return damage_yield(qr, options) * dc / (2 * ds)


def written(damage: int | Fraction | None) -> str:
    """As the book writes a damage result: '-' none, 'S', or the wound levels (an exact
    fraction, '15/8', when they are not rounded)."""
    return "none" if damage is None else "S" if damage == 0 else str(damage)


class ArmorReduction(Model):
    """Armor against one hit, every step shown (F:L2661-2673)."""

    reduction: int = Field(description="The armor's numbers, summed over its layers.")
    absorb: int = Field(description="The armor's A's, summed over its layers.")
    pierce: int
    reduction_left: int = Field(description="What piercing left of the numbers.")
    absorb_left: int = Field(description="What piercing left of the A's.")


def armor_reduce(
    pierce: int, layers: Sequence[tuple[int, int]], mode: PierceMode
) -> ArmorReduction:
    """Piercing bypasses the armor's DC reduction first, then its A's; piercing left over
    gains nothing (F:L2669-2671): 4p against 3AA leaves A (F:L2673). Layers (reduction, A's)
    in the order the attack meets them: their piercing is pooled (one budget against the
    sum, which the walls example needs, F:L3318), consumed layer by layer, or applied whole
    to every layer (AMB2-04)."""
    if mode is PierceMode.POOLED:
        pooled = (sum(r for r, _ in layers), sum(a for _, a in layers))
        layers = [pooled] if layers else []
    left = pierce
    kept_r = kept_a = 0
    for reduction, absorb in layers:
        budget = pierce if mode is PierceMode.PER_LAYER else left
        through_r = min(budget, reduction)
        through_a = min(budget - through_r, absorb)
        kept_r += reduction - through_r
        kept_a += absorb - through_a
        left = budget - through_r - through_a
    return ArmorReduction(
        reduction=sum(r for r, _ in layers),
        absorb=sum(a for _, a in layers),
        pierce=pierce,
        reduction_left=kept_r,
        absorb_left=kept_a,
    )


class DamageTableInput(Model):
    """A damage class after armor, a hitting QR and the target's damage scale."""

    dc: float = Field(ge=-MAX_DC, le=MAX_DC, description="The DC after armor; may be fractional.")
    qr: QR
    ds: DamageScale = Field(default=1, description="Damage scale: 1 a person.")
    options: DamageLookupOptions = Field(default=DamageLookupOptions())


class DamageTableResult(Model):
    result: str = Field(description="'none' (the table's '-'), 'S', the wound levels or 'miss'.")
    wound_levels: int = Field(description="Whole wound levels, rounded half up.")
    wound_levels_exact: Exact = Field(
        description="The wound levels as 'damage_rounding' leaves them: whole, or the fraction."
    )
    yield_pct: Exact = Field(description="The yield of the QR, in percent.")
    unrounded: Exact = Field(description="yield x DC / (2 x DS) before rounding.")


def decimal(value: float) -> Fraction:
    """A decimal the caller typed, exactly: 0.05 is 1/20 (a DS of an egg, F:L3593)."""
    return Fraction(str(value))


@operation(
    name="damage/table",
    kind=Kind.LOOKUP,
    covers=("foresight.damage.table", "foresight.damage_scale.apply"),
    example={"dc": 5, "qr": 2},
)
def damage_table(request: DamageTableInput) -> DamageTableResult:
    """Wound levels from a damage class and a hitting QR: yield % of DC / (2 x DS), half up
    (F:L2632-2659, F:L2724). DC5 at QR2 is 0.75 x 5 / 2 = 1.875: 2 (F:L2663); DC9 at QR4 is
    1; DC0 at QR4 is '-'. A damage scale divides (a truck is DS 10, F:L3593). With
    'damage_rounding' 'exact' the result is the unrounded fraction (AMB2-07): 15/8."""
    dc, ds = decimal(request.dc), decimal(request.ds)
    found = table_damage(dc, request.qr, ds, request.options)
    shown: int | Fraction | None = found
    if request.options.damage_rounding is DamageRounding.EXACT:
        shown = exact_damage(dc, request.qr, ds, request.options)
    rate = damage_yield(request.qr, request.options)
    return DamageTableResult(
        result="miss" if request.qr > QR.QR4 else written(shown),
        wound_levels=found or 0,
        wound_levels_exact=exact(Fraction(shown or 0)),
        yield_pct=exact(rate * 100),
        unrounded=exact(rate * dc / (2 * ds)),
    )
