"""Powers of sensing and being sensed: Chameleon (C:L516-518), Combat Awareness (C:L526-528),
Contaminant Resistance (C:L530-532), Detection (C:L534-548) and Invisibility (C:L720-722)."""

from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Exact, exact
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    OPPOSED_COST,
    Opposed,
    OpposedOdds,
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerOptions,
    PowerRoll,
    greater_of,
    opposed_odds,
    power_cost,
    power_odds,
    roll_opposed,
    roll_power,
    threshold,
)
from service.rules.model import Model, option
from service.rules.registry import Kind, operation

__all__ = [
    "chameleon",
    "combat_awareness",
    "contaminant_resistance",
    "detection",
    "invisibility_touch",
]


class ChameleonInput(Model):
    power_rv: RankValue = Field(description="Chameleon's Rank Value.")
    searcher_awareness: RankValue = Field(
        description="The searcher's Awareness: with Combat Awareness, the greater of its Rank "
        "Value or Awareness +10 (C:L528)."
    )
    options: PowerOptions = Field(default=PowerOptions())


class Chameleon(Opposed):
    hidden: bool


class ChameleonOdds(OpposedOdds):
    hidden: Exact = Field(description="The chance the character stays hidden.")


def chameleon_odds(request: ChameleonInput) -> ChameleonOdds:
    """Catalogue 5.6 with the searcher active: Chameleon 30 against Awareness 20 stays hidden
    59.05% of the time."""
    found = opposed_odds(request.searcher_awareness, request.power_rv, request.options.opposed_tie)
    hidden = sum((Fraction(o.exact) for o in found.winner if o.outcome == "reactive"), Fraction(0))
    return ChameleonOdds(**dict(found), hidden=exact(hidden))


def opposed_cost(request: object) -> Estimate:
    """Two d% rolls, every pair, and the tables: the same for every request."""
    return Estimate(OPPOSED_COST, ())


@operation(
    name="power/chameleon",
    kind=Kind.CHECK,
    covers=("4c.power.chameleon",),
    odds=chameleon_odds,
    cost=opposed_cost,
    example={"power_rv": 30, "searcher_awareness": 20, "dice": {"values": [4, 1, 5, 5]}},
)
def chameleon(request: ChameleonInput, dice: Dice) -> Chameleon:
    """The searcher rolls d% + Awareness, the character d% + this power; if the character rolls
    higher, they stay hidden (C:L518). A tie finds them (A-31)."""
    found = roll_opposed(dice, request.searcher_awareness, request.power_rv,
                         request.options.opposed_tie, ("searcher", "chameleon"))  # fmt: skip
    return Chameleon(**dict(found), hidden=found.winner == "reactive")


class Hazard(StrEnum):
    POISON = "poison"
    DISEASE = "disease"
    ENVIRONMENTAL = "environmental"
    STENCH_GAS = "stench_gas"
    PARALYTIC_GAS = "paralytic_gas"


class ContaminantScope(StrEnum):
    HAZARDS_AND_GAS_GRENADES = "hazards_and_gas_grenades"
    HAZARDS_ONLY = "hazards_only"


class ContaminantOptions(Model):
    contaminant_applies_to: ContaminantScope = option(
        ContaminantScope.HAZARDS_AND_GAS_GRENADES,
        ambiguity="A-76",
        description="Contaminant Resistance resists poison, disease and environmental hazards, "
        "and also the Stench Gas and Paralytic grenades' rolls, or only the former.",
    )


class AwarenessInput(Model):
    power_rv: RankValue = Field(description="Combat Awareness' Rank Value.")
    awareness: RankValue


class EffectiveRank(Model):
    rv: int = Field(description="The Rank Value rolled in place of the trait.")
    applies: bool = Field(description="False: the roll uses the trait alone.")


@operation(
    name="power/combat-awareness",
    kind=Kind.CALCULATION,
    covers=("4c.power.combat_awareness",),
    example={"power_rv": 20, "awareness": 30},
)
def combat_awareness(request: AwarenessInput) -> EffectiveRank:
    """In every use of Awareness (initiative, searching, noticing), the greater of the power's
    Rank Value or Awareness +10 (C:L526-528)."""
    return EffectiveRank(rv=greater_of(request.power_rv, request.awareness), applies=True)


class ContaminantInput(Model):
    power_rv: RankValue = Field(description="Contaminant Resistance's Rank Value.")
    fortitude: RankValue
    hazard: Hazard = Hazard.POISON
    options: ContaminantOptions = Field(default=ContaminantOptions())


_GAS = (Hazard.STENCH_GAS, Hazard.PARALYTIC_GAS)


@operation(
    name="power/contaminant-resistance",
    kind=Kind.CALCULATION,
    covers=("4c.power.contaminant_resistance",),
    example={"power_rv": 30, "fortitude": 10, "hazard": "stench_gas"},
)
def contaminant_resistance(request: ContaminantInput) -> EffectiveRank:
    """Rolls to resist poison, disease or similar environmental hazards use the greater of the
    power's Rank Value or Fortitude +10 (C:L530-532); the Stench Gas and Paralytic grenades
    too, by default (A-76)."""
    scope = request.options.contaminant_applies_to
    gas_only = scope is ContaminantScope.HAZARDS_ONLY and request.hazard in _GAS
    if gas_only:
        return EffectiveRank(rv=request.fortitude, applies=False)
    return EffectiveRank(rv=greater_of(request.power_rv, request.fortitude), applies=True)


class DetectionType(StrEnum):
    MAGIC = "magic"
    MAGNETIC = "magnetic"
    PSIONIC = "psionic"
    RADIOACTIVE = "radioactive"
    SPIRIT = "spirit"
    OTHER = "other"


_DETECTS = {
    DetectionType.MAGIC: "Magical energy: spells, artifacts, those able to use magic (C:L540).",
    DetectionType.MAGNETIC: "Magnetic fields, usually of magnetic control powers (C:L542).",
    DetectionType.PSIONIC: "Psionic activity or ability: a power used or possessed (C:L544).",
    DetectionType.RADIOACTIVE: "Radioactive energy (C:L546).",
    DetectionType.SPIRIT: "Spiritual activity, such as ghosts (C:L548).",
    DetectionType.OTHER: "A form the Gamemaster approves (C:L538).",
}


class DetectionInput(Model):
    power_rv: RankValue
    detects: DetectionType = DetectionType.MAGIC


class Detection(Model):
    range_sectors: int = Field(description="Equal to the Rank Value, not a tenth (A-53).")
    detects: str


@operation(
    name="power/detection",
    kind=Kind.LOOKUP,
    covers=("4c.power.detection",),
    example={"power_rv": 20, "detects": "psionic"},
)
def detection(request: DetectionInput) -> Detection:
    """The character detects one chosen form of energy, power or presence within a number of
    sectors equal to the power's Rank Value (C:L534-548)."""
    return Detection(range_sectors=request.power_rv, detects=_DETECTS[request.detects])


class InvisibilityInput(PowerRoll):
    power_rv: RankValue = Field(description="Invisibility's Rank Value.")


_TOUCH = threshold(
    Colour.RED,
    Outcome(result="visible", text="The touched item or character stays visible.", success=False),
    Outcome(
        result="invisible",
        text="The touched item or character is invisible as long as the character touches it.",
        success=True,
    ),
)


def invisibility_odds(request: InvisibilityInput) -> PowerCheckOdds:
    return power_odds(request, request.power_rv, _TOUCH)


@operation(
    name="power/invisibility/touch",
    kind=Kind.CHECK,
    covers=("4c.power.invisibility.touch",),
    odds=invisibility_odds,
    cost=power_cost,
    example={"power_rv": 20, "dice": {"values": [4, 10]}},
)
def invisibility_touch(request: InvisibilityInput, dice: Dice) -> PowerCheck:
    """The character is invisible at will; to turn a touched object or character invisible,
    roll the power's Rank Value: red or better, invisible while touched (C:L720-722). Spotting
    or attacking an invisible character takes the GM's Row Steps (A-71)."""
    return roll_power(request, request.power_rv, _TOUCH, dice)
