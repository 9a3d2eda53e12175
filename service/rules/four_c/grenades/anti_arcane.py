"""The Anti-Arcane grenade (C:L1544): each character with the Magic power in the sector where
it goes off, or an adjacent one, is rolled for at the grenade's Nullification (Magic) Rank
Value, 40. The roll is the grenade's: its better colours disrupt more (A-42), and either side
may spend Fortune on it as on any roll."""

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_c.core.master_table import MasterInput
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.grenades.core import (
    Absent,
    Distance,
    GrenadeEffect,
    GrenadeOdds,
    effect_cost,
    effect_odds,
    in_area,
    roll_effect,
)
from service.rules.four_c.grenades.tables import ANTI_ARCANE, Grenade, by_colour
from service.rules.four_c.powers.core import half
from service.rules.registry import Kind, operation

__all__ = ["anti_arcane"]

OUT_OF_AREA = "out_of_area"
NO_MAGIC = "no_magic"

#: The grenade's effective Nullification (Magic) Rank Value (C:L1544).
NULLIFICATION_RV = 40


class AntiArcaneInput(MasterInput):
    rv: RankValue = Field(
        default=NULLIFICATION_RV,
        description="The grenade's Nullification (Magic) Rank Value: 40 (C:L1544); a grenade of "
        "one's own design may differ (C:L1540).",
    )
    magic_rv: RankValue = Field(
        description="The character's Magic power; 0: none, and the grenade does nothing."
    )
    distance_sectors: Distance = 0


class AntiArcane(GrenadeEffect):
    magic_rv: int = Field(
        description="The Magic power's Rank Value this turn: half (rounded up) on red, 0 when "
        "disrupted."
    )


def _target(request: AntiArcaneInput) -> MasterInput | Absent:
    if not in_area(Grenade.ANTI_ARCANE, request.distance_sectors):
        return Absent(result=OUT_OF_AREA, text="Out of the grenade's area: no roll.")
    if request.magic_rv == 0:
        return Absent(result=NO_MAGIC, text="Without the Magic power the grenade does nothing.")
    return request


def anti_arcane_odds(request: AntiArcaneInput) -> GrenadeOdds:
    return effect_odds(_target(request), by_colour(ANTI_ARCANE), [OUT_OF_AREA, NO_MAGIC],
                       request.table_name)  # fmt: skip


def _magic_this_turn(result: str, magic_rv: int) -> int:
    """Red works at half effectiveness, rounded up (C:L1544; catalogue 3.12.2 reads it as
    the Rank Value halved); disrupted, it does not work this turn."""
    if result == "halved":
        return half(magic_rv)
    return 0 if result == "disrupted" else magic_rv


@operation(
    name="grenade/anti-arcane",
    kind=Kind.CHECK,
    covers=("4c.grenade.anti_arcane",),
    odds=anti_arcane_odds,
    cost=effect_cost,
    example={"magic_rv": 45, "dice": {"values": [5, 2]}},
)
def anti_arcane(request: AntiArcaneInput, dice: Dice) -> AntiArcane:
    """Roll the grenade's Rank Value 40 for each Magic user in its sector or an adjacent one:
    black fails to disrupt the Magic power; red halves it, rounded up; blue or yellow disrupt
    it, and it will not work this turn (C:L1544)."""
    found = roll_effect(_target(request), by_colour(ANTI_ARCANE), dice)
    return AntiArcane(**dict(found), magic_rv=_magic_this_turn(found.result, request.magic_rv))
