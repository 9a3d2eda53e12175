"""The grenades that make each target roll to resist: Paralytic (C:L1552), Scream
(C:L1554-1562) and Stench Gas (C:L1564-1572). Each target in the area rolls its own Master
Table roll, with Combat Awareness (C:L526-528) or Contaminant Resistance (C:L530-532, A-76)
where they apply."""

from collections.abc import Mapping

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_c.core.master_table import MasterInput
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
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
from service.rules.four_c.grenades.options import (
    AfflictionOptions,
    GasOptions,
    RedDazeTurns,
    StenchOptions,
)
from service.rules.four_c.grenades.tables import (
    PARALYTIC,
    SCREAM,
    STENCH_GAS,
    Grenade,
    GrenadeEffectRow,
    GrenadeLasting,
    by_colour,
)
from service.rules.four_c.powers.core import greater_of
from service.rules.four_c.powers.senses import (
    ContaminantInput,
    ContaminantOptions,
    EffectiveRank,
    Hazard,
    contaminant_resistance,
)
from service.rules.registry import Kind, operation

__all__ = ["paralytic", "scream", "stench_gas"]

OUT_OF_AREA = "out_of_area"


def _out_of_area(which: Grenade) -> Absent:
    return Absent(result=OUT_OF_AREA, text=f"Out of the {which.value} grenade's area: no roll.")


def resisting(fortitude: int, power_rv: int, hazard: Hazard, options: ContaminantOptions) -> int:
    """Fortitude, or with Contaminant Resistance the greater of its Rank Value and Fortitude
    +10, as `power/contaminant-resistance` reads it (A-76)."""
    if power_rv == 0:
        return fortitude
    found = contaminant_resistance.rule(
        ContaminantInput(power_rv=power_rv, fortitude=fortitude, hazard=hazard, options=options)
    )
    assert isinstance(found, EffectiveRank)
    return found.rv


class GasInput(MasterInput):
    rv: RankValue = Field(description="The target's Fortitude.")
    contaminant_resistance: RankValue = Field(
        default=0, description="The target's Contaminant Resistance power; 0: none."
    )
    distance_sectors: Distance = 0


class ParalyticInput(GasInput):
    options: GasOptions = Field(default=GasOptions())


def _gassed(grenade: Grenade, hazard: Hazard, request: GasInput) -> MasterInput | Absent:
    """The Fortitude roll of a target in a gas grenade's area, its Contaminant Resistance
    counted (A-76); none outside it."""
    if not in_area(grenade, request.distance_sectors):
        return _out_of_area(grenade)
    options = request.options
    assert isinstance(options, ContaminantOptions)  # every gas grenade's options say
    rv = resisting(request.rv, request.contaminant_resistance, hazard, options)
    return request.model_copy(update={"rv": rv})


def _paralytic(request: ParalyticInput) -> MasterInput | Absent:
    return _gassed(Grenade.PARALYTIC, Hazard.PARALYTIC_GAS, request)


def paralytic_odds(request: ParalyticInput) -> GrenadeOdds:
    return effect_odds(_paralytic(request), by_colour(PARALYTIC), [OUT_OF_AREA],
                       request.table_name)  # fmt: skip


@operation(
    name="grenade/paralytic",
    kind=Kind.CHECK,
    covers=("4c.grenade.paralytic",),
    odds=paralytic_odds,
    cost=effect_cost,
    example={"rv": 20, "dice": {"values": [1, 5]}},
)
def paralytic(request: ParalyticInput, dice: Dice) -> GrenadeEffect:
    """Each character in the sector where it goes off rolls Fortitude: on black, paralyzed
    (knocked down and unconscious) for 5 turns; on any other colour no effect (C:L1552).
    Contaminant Resistance resists it (A-76)."""
    return roll_effect(_paralytic(request), by_colour(PARALYTIC), dice)


def _read_red(
    table: Mapping[Colour, GrenadeEffectRow], options: AfflictionOptions
) -> dict[Colour, GrenadeEffectRow]:
    """'The next turns' gives no count (A-42): one turn, or as long as a black result."""
    lasting = GrenadeLasting.ONE_TURN
    if options.grenade_red_daze_turns is RedDazeTurns.HALF_D10:
        lasting = GrenadeLasting.HALF_D10
    return {c: row.model_copy(update={"lasting": lasting})
            if row.lasting is GrenadeLasting.NEXT_TURNS else row
            for c, row in table.items()}  # fmt: skip


class ScreamInput(MasterInput):
    rv: RankValue = Field(description="The target's Awareness.")
    combat_awareness: RankValue = Field(
        default=0,
        description="The target's Combat Awareness power; 0: none. With it, the greater of its "
        "Rank Value and Awareness +10 (C:L526-528).",
    )
    distance_sectors: Distance = 0
    options: AfflictionOptions = Field(default=AfflictionOptions())


def _scream(request: ScreamInput) -> MasterInput | Absent:
    if not in_area(Grenade.SCREAM, request.distance_sectors):
        return _out_of_area(Grenade.SCREAM)
    rv = request.rv
    if request.combat_awareness:
        rv = greater_of(request.combat_awareness, rv)
    return request.model_copy(update={"rv": rv})


def scream_odds(request: ScreamInput) -> GrenadeOdds:
    table = _read_red(by_colour(SCREAM), request.options)
    return effect_odds(_scream(request), table, [OUT_OF_AREA], request.table_name)


@operation(
    name="grenade/scream",
    kind=Kind.CHECK,
    covers=("4c.grenade.scream",),
    odds=scream_odds,
    cost=effect_cost,
    example={"rv": 20, "distance_sectors": 3, "dice": {"values": [1, 5, 7]}},
)
def scream(request: ScreamInput, dice: Dice) -> GrenadeEffect:
    """Every target within 6 sectors rolls Awareness: black, incapacitated for 1d10/2 rounds
    (round down, minimum 1); red, dazed, no actions next turn (A-42); blue, stunned next round
    at -20 on d% rolls; yellow, unaffected (C:L1554-1562)."""
    table = _read_red(by_colour(SCREAM), request.options)
    return roll_effect(_scream(request), table, dice, request.options.grenade_d100_penalty)


class StenchInput(GasInput):
    options: StenchOptions = Field(default=StenchOptions())


def _stench(request: StenchInput) -> MasterInput | Absent:
    return _gassed(Grenade.STENCH_GAS, Hazard.STENCH_GAS, request)


def stench_odds(request: StenchInput) -> GrenadeOdds:
    table = _read_red(by_colour(STENCH_GAS), request.options)
    return effect_odds(_stench(request), table, [OUT_OF_AREA], request.table_name)


@operation(
    name="grenade/stench-gas",
    kind=Kind.CHECK,
    covers=("4c.grenade.stench_gas",),
    odds=stench_odds,
    cost=effect_cost,
    example={"rv": 30, "distance_sectors": 1, "dice": {"values": [5, 5]}},
)
def stench_gas(request: StenchInput, dice: Dice) -> GrenadeEffect:
    """Every target in the sector and adjacent sectors rolls Fortitude: black, incapacitated
    for 1d10/2 rounds (round down, minimum 1); red, nauseous, no actions next turn (A-42);
    blue, queasy next round at -20 on d% rolls; yellow, unaffected (C:L1564-1572).
    Contaminant Resistance resists it (A-76)."""
    table = _read_red(by_colour(STENCH_GAS), request.options)
    return roll_effect(_stench(request), table, dice, request.options.grenade_d100_penalty)
