"""A mêlée or thrown weapon's DC with the wielder's UCDC (#122; F:L378, F:L3636, F:L3024,
F:L3720, F:L3247, F:L3966): the table's DC is a modifier to the UCDC ('+4m'); the absolute DC
adds 1 per wind-up, the two-hand bonus of a (1-2) weapon, -1 numbed and an exoskeleton's
bonus to unarmed attacks. The arithmetic is `melee/weapon-profile`'s (`combat.melee.weapons`),
reused here for a DC given on its own.

The DC is not floored at 0: a weak wielder (UCDC 0.125, F:L493) of a '+0m' weapon, numbed
(-1, F:L3247), has DC -7/8. No line of the seed bounds a DC, and the damage rules read a DC
below 0 as doing nothing (catalogue AMB2-06, as `damage/table` has it), where a floor would
make it DC 0, which the table turns into S for QR1-QR3 (F:L2642-2649)."""

from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.characters.derived import UcdcOptions, ucdc_of
from service.rules.foresight.combat.melee.weapons import (
    Hands,
    MeleeRange,
    MeleeWeapon,
    RangeStats,
    WeaponUse,
    melee_dc,
    profile,
    written_dc,
)
from service.rules.foresight.mortality.notation import Notation, parse_damage_class
from service.rules.foresight.resolution.modifiers import Term
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["DcWithUcdc", "DcWithUcdcInput", "dc_with_ucdc"]


class DcWithUcdcInput(Model):
    dc: Notation = Field(description="The weapon's DC, a modifier to the UCDC: '+4m', '+3m2p'.")
    strength: Annotated[int, Field(ge=1, le=60)] | None = Field(
        default=None, description="The wielder's ST, giving the UCDC (F:L491-501)."
    )
    ucdc: float | None = Field(
        default=None, ge=0, le=100, description="Instead of 'strength': the UCDC itself."
    )
    hands: Hands = Field(default=Hands.ONE, description="The weapon's '1', '1-2' or '2'.")
    range: MeleeRange = MeleeRange.NORMAL
    two_handed: bool | None = Field(
        default=None, description="Wielded two-handed; null: as its hands allow."
    )
    wind_ups: Annotated[int, Field(ge=0, le=10)] = Field(default=0, description="+1 DC each.")
    numbed: bool = Field(default=False, description="-1 DC (F:L3247).")
    unarmed: bool = Field(default=False, description="A bodily attack (an exoskeleton adds).")
    exoskeleton_dc: Annotated[int, Field(ge=0, le=20)] = 0
    options: UcdcOptions = Field(default=UcdcOptions())


class DcWithUcdc(Model):
    weapon_dc: str = Field(description="As given, relative to the UCDC.")
    ucdc: str
    dc_modifier: int = Field(description="Wind-ups, two hands, numbing, exoskeleton.")
    dc_terms: list[Term]
    two_handed: bool
    dc: Exact = Field(description="UCDC + the weapon's + 'dc_modifier'.")
    dc_written: str = Field(description="As the book writes a DC: '7m'.")


@operation(
    name="weapon/dc-with-ucdc",
    kind=Kind.CALCULATION,
    covers=("foresight.weapon.dc_with_ucdc",),
    example={"dc": "+4m", "strength": 9, "wind_ups": 1},
)
def dc_with_ucdc(request: DcWithUcdcInput) -> DcWithUcdc:
    """The absolute DC of a weapon whose DC is a modifier to the UCDC (F:L3636): UCDC (from ST,
    F:L491-501, or given) + the modifier + 1 per wind-up (F:L3024) + 1 for a (1-2) weapon in
    two hands (F:L3720) - 1 numbed (F:L3247) + an exoskeleton's bonus unarmed (F:L3966). A
    longsword (+4m) swung by ST 9 (UCDC 2) after one wind-up is DC 7m."""
    if (request.strength is None) == (request.ucdc is None):
        raise InputError(("strength",), "give either 'strength' or 'ucdc'")
    parsed_dc = parse_damage_class(request.dc, ("dc",))
    if not parsed_dc.relative or parsed_dc.count != 1:
        raise InputError(("dc",), "a modifier to the UCDC, as the melee table writes it: '+4m'")
    stats = RangeStats(pm=0, dc=request.dc)
    weapon = MeleeWeapon(name=request.dc, hands=request.hands, unarmed=request.unarmed)
    weapon = weapon.model_copy(update={request.range.value: stats})
    use = WeaponUse.model_validate(
        {"weapon": weapon.model_dump(), "range": request.range, "strength": request.strength or 1,
         "two_handed": request.two_handed, "wind_ups": request.wind_ups,
         "numbed": request.numbed, "exoskeleton_dc": request.exoskeleton_dc},
        strict=False,
    )  # fmt: skip
    rounding = request.options.ucdc_rounding
    found = profile(use, rounding)
    dc, parsed = melee_dc(use, rounding)
    ucdc = found.ucdc
    if request.ucdc is not None:
        given = Fraction(repr(request.ucdc))
        dc += given - Fraction(ucdc_of(use.strength, rounding).ucdc)
        ucdc = f"{float(given):g}"
    return DcWithUcdc(weapon_dc=request.dc, ucdc=ucdc, dc_modifier=found.dc_modifier,
                      dc_terms=found.dc_terms, two_handed=found.two_handed, dc=exact(dc),
                      dc_written=written_dc(dc, parsed))  # fmt: skip
