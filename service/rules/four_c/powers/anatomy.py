"""Powers of the body: Claws (C:L520-524), Elasticity (C:L554-556), Extra Body Parts
(C:L614-632), Fast Attack (C:L634-643) and Growth/Shrinking (C:L675-697)."""

from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_c.combat.tables import MELEE_BASHING, MELEE_SLASHING, results
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    BandRow,
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerRoll,
    band_of,
    banded,
    greater_of,
    power_cost,
    power_odds,
    roll_power,
    tenth,
)
from service.rules.model import Model, option
from service.rules.registry import Kind, Table, operation
from service.rules.tables import table

__all__ = ["claws", "elasticity", "extra_body_parts", "fast_attack", "growth_shrinking"]


class ClawMode(StrEnum):
    SLASHING = "slashing"
    BASHING = "bashing"


class ClawsInput(PowerRoll):
    power_rv: RankValue = Field(description="Claws' Rank Value.")
    melee: RankValue
    brawn: RankValue
    attack_mode: ClawMode = Field(
        default=ClawMode.SLASHING,
        description="Slashing claws, or the optional weapon of another type, bashing or "
        "slashing, chosen once (C:L524).",
    )


class Claws(PowerCheck):
    attack_rv: int = Field(description="The greater of Melee and the power, no +10 (A-51).")
    damage: int = Field(description="Brawn +5, a one-handed weapon, before armor (C:L522).")


def _claw_outcomes(request: ClawsInput) -> dict[Colour, Outcome]:
    rows = results(MELEE_SLASHING if request.attack_mode is ClawMode.SLASHING else MELEE_BASHING)
    return {c: Outcome(result=r.result, text=r.text, success=c is not Colour.BLACK)
            for c, r in rows.items()}  # fmt: skip


def _claw_rv(request: ClawsInput) -> int:
    return greater_of(request.power_rv, request.melee, 0)


def claws_odds(request: ClawsInput) -> PowerCheckOdds:
    return power_odds(request, _claw_rv(request), _claw_outcomes(request))


@operation(
    name="power/claws",
    kind=Kind.CHECK,
    covers=("4c.power.claws",),
    odds=claws_odds,
    cost=power_cost,
    example={"power_rv": 30, "melee": 20, "brawn": 20, "dice": {"values": [8, 8]}},
)
def claws(request: ClawsInput, dice: Dice) -> Claws:
    """A slashing attack with Melee or the power's Rank Value, the greater (A-51); claws do a
    one-handed weapon's damage, Brawn +5 (C:L520-524, C:L1183)."""
    rolled = roll_power(request, _claw_rv(request), _claw_outcomes(request), dice)
    return Claws(**dict(rolled), attack_rv=_claw_rv(request), damage=request.brawn + 5)


class ReachInput(Model):
    power_rv: RankValue = Field(description="Elasticity's Rank Value.")


class Stretch(Model):
    sectors: int = Field(description="Sectors the character can stretch to attack into.")


@operation(
    name="power/elasticity",
    kind=Kind.LOOKUP,
    covers=("4c.power.elasticity",),
    example={"power_rv": 45},
)
def elasticity(request: ReachInput) -> Stretch:
    """The character stretches to attack a number of sectors away equal to the power's Rank
    Value divided by 10, rounded up (C:L554-556): 1, 10, 11, 45 reach 1, 1, 2, 5 (catalogue
    T12)."""
    return Stretch(sectors=tenth(request.power_rv))


class BodyPart(StrEnum):
    CLAWS = "claws"
    EXTRA_ARMS = "extra_arms"
    EXTRA_LEGS = "extra_legs"
    SHELL = "shell"
    TAIL = "tail"
    WINGS = "wings"
    OTHER = "other"


class BodyPartsInput(Model):
    power_rv: RankValue = Field(description="Extra Body Parts' Rank Value.")
    part: BodyPart = BodyPart.OTHER
    advanced: bool = Field(
        default=True, description="Advanced Extra Body Parts (C:L618); basic: description only."
    )
    owned_rv: RankValue | None = Field(
        default=None,
        description="Claws, Shell, Wings: the Rank Value of Claws, Body Armor or Flight the "
        "character already has.",
    )


class BodyParts(Model):
    extra_attacks: int = Field(description="Each turn.")
    extra_sectors: int = Field(description="Movement each turn.")
    power: str | None = Field(description="The power gained or raised.")
    power_rv: int | None = Field(description="Gained at this power's Rank Value (A-33), or +20.")
    text: str


_GRANTS = {BodyPart.CLAWS: "claws", BodyPart.SHELL: "body_armor", BodyPart.WINGS: "flight"}


@operation(
    name="power/extra-body-parts",
    kind=Kind.CALCULATION,
    covers=("4c.power.extra_body_parts",),
    example={"power_rv": 20, "part": "wings", "owned_rv": 30},
)
def extra_body_parts(request: BodyPartsInput) -> BodyParts:
    """Extra parts grant no bonus attacks (C:L616). Advanced: Claws, Shell or Wings give Claws,
    Body Armor or Flight at this power's Rank Value (A-33), or +20 to one already owned; Extra
    Arms and Tail one more attack a turn; Extra Legs one more sector (C:L618-632)."""
    part = request.part
    if not request.advanced or part is BodyPart.OTHER:
        return BodyParts(extra_attacks=0, extra_sectors=0, power=None, power_rv=None,
                         text="Extra parts, no bonus attacks (C:L616).")  # fmt: skip
    if part in _GRANTS:
        owned = request.owned_rv
        rv = request.power_rv if owned is None else owned + 20
        verb = "gains" if owned is None else "raises"
        return BodyParts(extra_attacks=0, extra_sectors=0, power=_GRANTS[part], power_rv=rv,
                         text=f"The character {verb} {_GRANTS[part]} to {rv}.")  # fmt: skip
    if part is BodyPart.EXTRA_LEGS:
        return BodyParts(extra_attacks=0, extra_sectors=1, power=None, power_rv=None,
                         text="Movement +1 sector each turn (C:L626).")  # fmt: skip
    return BodyParts(extra_attacks=1, extra_sectors=0, power=None, power_rv=None,
                     text="One bonus attack each turn (C:L624, C:L630).")  # fmt: skip


class AttacksRow(BandRow):
    attacks: int


#: Attacks a turn by Fast Attack's Rank Value (C:L636-643).
FAST_ATTACKS: Table[AttacksRow] = table(__name__, "fast-attack", AttacksRow)


class AboveFifty(StrEnum):
    CAP = "cap"
    EXTEND = "extend"


class FastAttackOptions(Model):
    fast_attack_above_50: AboveFifty = option(
        AboveFifty.CAP,
        ambiguity="A-29",
        description="Fast Attack over 50, which its table stops at: 4 attacks, or one more for "
        "each rank band above 50-74 (75-99 5, 100-149 6, 150-999 7, 1000 8).",
    )


class FastAttackInput(Model):
    power_rv: RankValue = Field(description="Fast Attack's Rank Value.")
    options: FastAttackOptions = Field(default=FastAttackOptions())


class Attacks(Model):
    attacks_per_turn: int


@operation(
    name="power/fast-attack",
    kind=Kind.LOOKUP,
    covers=("4c.power.fast_attack",),
    example={"power_rv": 30},
)
def fast_attack(request: FastAttackInput) -> Attacks:
    """Attacks each turn: 2 at 1-29, 3 at 30-49, 4 at 50 (C:L634-643), and 4 above unless the
    option extends the table (A-29); at 0, the one attack everyone has (C:L967)."""
    row = banded(request.power_rv, FAST_ATTACKS)
    if row is None:
        return Attacks(attacks_per_turn=1)
    band = band_of(request.power_rv)
    assert band is not None
    if request.options.fast_attack_above_50 is AboveFifty.EXTEND and row.rv_max is None:
        return Attacks(attacks_per_turn=row.attacks + band - 7)
    return Attacks(attacks_per_turn=row.attacks)


class HeightRow(BandRow):
    maximum_height: str
    maximum_inches: int
    minimum_height: str
    minimum_sixteenths_inch: int


#: Growth's tallest and Shrinking's smallest height (C:L677-693).
HEIGHTS: Table[HeightRow] = table(__name__, "growth-shrinking", HeightRow)


class SizeChange(StrEnum):
    GROWTH = "growth"
    SHRINKING = "shrinking"


class GrowthInput(Model):
    power_rv: RankValue = Field(description="Growth/Shrinking's Rank Value.")
    power: SizeChange = Field(description="Chosen at creation (C:L677).")
    brawn: RankValue
    active: bool = Field(default=True, description="The character is grown (or shrunk) now (A-34).")


class Growth(Model):
    height: str | None = Field(description="The tallest (Growth) or smallest (Shrinking).")
    height_inches: str | None = Field(description="The same in inches, exactly: '1/16'.")
    brawn: int = Field(description="Brawn while the power is used; Damage is not recomputed.")
    attackers_row_steps: int = Field(description="On attacks against the character.")
    attack_row_steps: int = Field(description="On the character's own attacks.")


@operation(
    name="power/growth-shrinking",
    kind=Kind.LOOKUP,
    covers=("4c.power.growth_shrinking",),
    example={"power_rv": 30, "power": "growth", "brawn": 30},
)
def growth_shrinking(request: GrowthInput) -> Growth:
    """Growth reaches 9 feet at 1-2 up to 480 at 1000, its Brawn the greater of the power or
    Brawn +10, and attackers gain +1 RS; Shrinking reaches 4 feet down to 1/16 inch, Brawn
    unchanged, attackers -1 RS and the character +2 RS on attacks (C:L675-697). Temporary:
    Damage's maximum stays (A-35)."""
    row = banded(request.power_rv, HEIGHTS)
    if row is None or not request.active:
        return Growth(height=None, height_inches=None, brawn=request.brawn,
                      attackers_row_steps=0, attack_row_steps=0)  # fmt: skip
    if request.power is SizeChange.GROWTH:
        return Growth(height=row.maximum_height, height_inches=str(row.maximum_inches),
                      brawn=greater_of(request.power_rv, request.brawn),
                      attackers_row_steps=1, attack_row_steps=0)  # fmt: skip
    sixteenths = row.minimum_sixteenths_inch
    inches = _fraction(sixteenths)
    return Growth(height=row.minimum_height, height_inches=inches, brawn=request.brawn,
                  attackers_row_steps=-1, attack_row_steps=2)  # fmt: skip


def _fraction(sixteenths: int) -> str:
    value = Fraction(sixteenths, 16)
    return str(value)
