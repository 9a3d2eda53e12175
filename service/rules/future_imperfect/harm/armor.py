"""Armor and cover against damage (FI:L464-466, L481-504): each level of Armor shifts the
damage a column left, below column 1 it is stopped (FI:L491); a Penetration Number under the
Armor deflects the shot, and each point over it takes a level off the shift (FI:L466, L485).
The example of FI:L493 shifts by the full Armor instead (A-56, `penetration_model`)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.harm.options import Deflected, HarmOptions, PenetrationModel
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["Armor", "ArmorLayer", "Passed", "PenetrationInput", "penetrate", "through"]


class Passed(StrEnum):
    UNARMORED = "unarmored"
    THROUGH = "through"
    REDUCED = "reduced"
    DEFLECTED = "deflected"
    STOPPED = "stopped"


#: An obstacle's or armor's Armor value (FI:L499-504 lists 1-5).
Armor = Annotated[int, Field(ge=0, le=10)]
#: A weapon's Penetration Number, "mostly driven by TL" (FI:L485).
Penetration = Annotated[int, Field(ge=0, le=20)]


class ArmorLayer(Model):
    armor: int
    shift: int = Field(description="Columns the layer takes off the damage.")
    outcome: Passed
    column: int | None = Field(
        description="The damage column after it; null when it got no further."
    )


def penetrate(column: int, pn: int, armor: int, options: HarmOptions) -> ArmorLayer:
    """One layer: no armor, through it unshifted, reduced, deflected or stopped."""
    if armor <= 0:
        return ArmorLayer(armor=armor, shift=0, outcome=Passed.UNARMORED, column=column)
    if pn < armor and options.deflected is Deflected.NO_DAMAGE:
        return ArmorLayer(armor=armor, shift=0, outcome=Passed.DEFLECTED, column=None)
    if pn < armor or options.penetration_model is PenetrationModel.FLAT_AV:
        shift = armor
    else:
        shift = max(0, armor - (pn - armor))
    left = column - shift
    if left < 1:
        return ArmorLayer(armor=armor, shift=shift, outcome=Passed.STOPPED, column=None)
    return ArmorLayer(
        armor=armor, shift=shift, column=left, outcome=Passed.REDUCED if shift else Passed.THROUGH
    )


def through(
    column: int, pn: int, layers: tuple[int, ...], options: HarmOptions
) -> list[ArmorLayer]:
    """Cover then worn armor, in order, each with the same PN (A-57); the first that stops or
    deflects ends it."""
    found = []
    for armor in layers:
        layer = penetrate(column, pn, armor, options)
        found.append(layer)
        if layer.column is None:
            break
        column = layer.column
    return found


class PenetrationInput(Model):
    column: Annotated[int, Field(ge=1, le=7)] = Field(description="The damage column (FI:L472).")
    pn: Penetration = Field(
        description="The weapon's Penetration Number, mostly driven by its Tech Level: higher "
        "tech is 'better at penetrating impeding obstacles' (FI:L481, FI:L485). Tech Level has "
        "no other rule in chapter 3; the gear tables give PN."
    )
    armor: Annotated[tuple[Armor, ...], Field(min_length=1, max_length=4)] = Field(
        description="Each layer's Armor in the shot's path, cover first (FI:L499-504)."
    )
    options: HarmOptions = Field(default=HarmOptions())


class Penetrated(Model):
    layers: list[ArmorLayer]
    column: int | None = Field(description="The damage column left; null: no damage.")
    outcome: Passed = Field(description="The last layer's.")


@operation(
    name="armor/penetration",
    kind=Kind.LOOKUP,
    covers=("fi.armor.penetration", "fi.tech_level"),
    example={"column": 2, "pn": 2, "armor": [1]},
)
def penetration(request: PenetrationInput) -> Penetrated:
    """PN at least the Armor: the armor applies, one less for each point of PN over it; less,
    the shot is deflected (FI:L466, L485). Each level left shifts the damage a column left,
    below column 1 it is stopped (FI:L491): PN 2 against Armor 2 stops a pistol (FI:L493)."""
    layers = through(request.column, request.pn, request.armor, request.options)
    return Penetrated(layers=layers, column=layers[-1].column, outcome=layers[-1].outcome)
