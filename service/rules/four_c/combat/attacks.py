"""Attacks (C:L1044-1113, C:L1149-1163): melee, ranged and rushing, each a Master Table roll on
the attacking trait read on its result table; a dodging defender takes Row Steps off it."""

from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.combat.options import CombatOptions, DodgeTiming
from service.rules.four_c.combat.tables import (
    DODGE,
    MELEE_BASHING,
    MELEE_SLASHING,
    MULTI_TARGET,
    RANGED,
    RUSH,
    ResultRow,
    results,
)
from service.rules.four_c.core.master_table import (
    MasterInput,
    Resolved,
    colour_distribution,
    master_cost,
    resolve_roll,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["AttackInput", "AttackResult", "attack_odds", "dodge_steps", "roll_attack"]

Sectors = Annotated[int, Field(ge=0, le=20)]


def dodge_steps(colour: Colour) -> int:
    """The Row Steps a dodge of this colour takes off every attacker: 0, -3, -6, -9
    (C:L1149-1159)."""
    return int(results(DODGE)[colour].result)


class AttackInput(MasterInput):
    """An attack roll on the attacking trait (`rv`)."""

    sectors_moved: Sectors = Field(
        default=0, description="Sectors moved into this turn: -1 Row Step each (C:L967)."
    )
    defender_dodge: Colour | None = Field(
        default=None, description="The colour of the defender's dodge this turn, if rolled."
    )
    dodging_coordination: RankValue | None = Field(
        default=None,
        description="A dodging defender's Coordination, when the dodge is still to be rolled: "
        "it is rolled first (and the odds weigh every dodge).",
    )
    before_defender_acts: bool = Field(
        default=False,
        description="This attack comes before the defender's side acts (dodge_timing, A-19).",
    )
    options: CombatOptions = Field(default=CombatOptions())


class DodgeRoll(Model):
    colour: Colour
    row_steps: int
    rolled: Resolved | None = Field(description="The dodge roll, when this request made it.")


class AttackResult(Resolved):
    result: str
    text: str
    dodge: DodgeRoll | None


def _with_steps(request: AttackInput, extra: tuple[int, ...]) -> AttackInput:
    return request.model_copy(update={"row_steps": (*request.row_steps, *extra)})


def _dodge(request: AttackInput) -> MasterInput:
    """The dodger's Coordination roll (C:L1149-1159), read on the same table with the same
    readings of the core as the attack (rs_clamp_min_row, A-04)."""
    assert request.dodging_coordination is not None
    return MasterInput(rv=request.dodging_coordination, master_table=request.master_table,
                       custom_master_table=request.custom_master_table,
                       options=request.options)  # fmt: skip


def _dodged(request: AttackInput) -> bool:
    """A declared dodge counts from the first attack on the dodger, or from their own action
    (A-19)."""
    too_early = request.before_defender_acts
    return not (too_early and request.options.dodge_timing is DodgeTiming.OWN_ACTION)


def _dodge_roll(request: AttackInput, dice: Dice) -> DodgeRoll | None:
    if request.defender_dodge is not None:
        colour = request.defender_dodge
        return DodgeRoll(colour=colour, row_steps=dodge_steps(colour), rolled=None)
    if request.dodging_coordination is None:
        return None
    rolled = resolve_roll(_dodge(request), dice, "dodge d%")
    return DodgeRoll(colour=rolled.colour, row_steps=dodge_steps(rolled.colour), rolled=rolled)


def roll_attack(
    request: AttackInput, dice: Dice, table: Mapping[Colour, ResultRow], extra: tuple[int, ...] = ()
) -> AttackResult:
    """Roll the dodge if it is still to come, then the attack with every Row Step."""
    dodge = _dodge_roll(request, dice) if _dodged(request) else None
    steps = (*extra, -request.sectors_moved, *([dodge.row_steps] if dodge else []))
    resolved = resolve_roll(_with_steps(request, steps), dice)
    row = table[resolved.colour]
    return AttackResult(**dict(resolved), result=row.result, text=row.text, dodge=dodge)


def result_distribution(
    request: AttackInput, table: Mapping[Colour, ResultRow], extra: tuple[int, ...] = ()
) -> Distribution[str]:
    """The result of the attack over every roll, and every dodge when it is to be rolled."""

    def attack(dodge: int) -> Distribution[str]:
        steps = (*extra, -request.sectors_moved, dodge)
        return colour_distribution(_with_steps(request, steps)).map(lambda c: table[c].result)

    if not _dodged(request):
        return attack(0)
    if request.defender_dodge is not None:
        return attack(dodge_steps(request.defender_dodge))
    if request.dodging_coordination is not None:
        return colour_distribution(_dodge(request)).then(lambda c: attack(dodge_steps(c)))
    return attack(0)


class AttackOdds(Model):
    result: list[OutcomeProbability]
    hit: list[OutcomeProbability] = Field(description="Whether the attack lands at all.")
    master_table: str


def attack_odds(
    request: AttackInput, table: Mapping[Colour, ResultRow], extra: tuple[int, ...] = ()
) -> AttackOdds:
    found = result_distribution(request, table, extra)
    order = list(dict.fromkeys(row.result for row in table.values()))
    hit = found.map(lambda r: "miss" if r == table[Colour.BLACK].result else "hit")
    return AttackOdds(result=outcome_table(found, order), hit=outcome_table(hit, ["hit", "miss"]),
                      master_table=request.table_name)  # fmt: skip


def attack_cost(request: object) -> Estimate:
    """A dodge roll and, for each of its colours, the attack roll (`master_cost` each), and
    the tables: the same for every request."""
    return Estimate(5 * master_cost(request).states + 50, ())


class Mode(StrEnum):
    BASHING = "bashing"
    SLASHING = "slashing"


class MeleeInput(AttackInput):
    rv: RankValue = Field(description="The attacker's Melee Rank Value.")
    attack_mode: Mode = Field(
        default=Mode.BASHING,
        description="Bashing: fists, feet, blunt weapons; slashing: knives, swords (C:L1046-1058).",
    )


def _melee_table(request: MeleeInput) -> Mapping[Colour, ResultRow]:
    return results(MELEE_SLASHING if request.attack_mode is Mode.SLASHING else MELEE_BASHING)


def melee_odds(request: MeleeInput) -> AttackOdds:
    return attack_odds(request, _melee_table(request))


@operation(
    name="combat/melee",
    kind=Kind.CHECK,
    covers=("4c.combat.melee",),
    odds=melee_odds,
    cost=attack_cost,
    example={"rv": 30, "row_steps": [1], "dice": {"values": [4, 2]}},
)
def melee(request: MeleeInput, dice: Dice) -> AttackResult:
    """Roll Melee on the Master Table: bashing misses on black, hits on red, pounds on blue and
    concusses on yellow; slashing concusses on blue and fatally wounds on yellow
    (C:L1044-1066)."""
    return roll_attack(request, dice, _melee_table(request))


class RangedInput(AttackInput):
    rv: RankValue = Field(description="The attacker's Coordination (or the power's) Rank Value.")
    nail_declared: bool = Field(
        default=False, description="A called shot declared before the roll (C:L1282)."
    )
    distance_sectors: Sectors = Field(
        default=0, description="Sectors to the target, counted with the target's (range_penalty)."
    )


def _ranged_table(request: RangedInput) -> Mapping[Colour, ResultRow]:
    """Blue is a Nail only when declared; otherwise a Hit (C:L1077, catalogue 3.8.5)."""
    table = results(RANGED)
    if request.nail_declared:
        return table
    return {**table, Colour.BLUE: table[Colour.RED]}


def _range_steps(request: RangedInput) -> tuple[int, ...]:
    return (-request.distance_sectors,) if request.options.range_penalty else ()


def ranged_odds(request: RangedInput) -> AttackOdds:
    return attack_odds(request, _ranged_table(request), _range_steps(request))


@operation(
    name="combat/ranged",
    kind=Kind.CHECK,
    covers=("4c.combat.ranged",),
    odds=ranged_odds,
    cost=attack_cost,
    example={"rv": 20, "nail_declared": True, "dice": {"values": [8, 1]}},
)
def ranged(request: RangedInput, dice: Dice) -> AttackResult:
    """Roll Coordination on the Master Table: black misses, red hits, blue nails a declared
    called shot (else hits), yellow fatally wounds (C:L1068-1079)."""
    return roll_attack(request, dice, _ranged_table(request), _range_steps(request))


class RushInput(AttackInput):
    rv: RankValue = Field(description="The rusher's Fortitude Rank Value.")
    open_sectors: Annotated[int, Field(ge=1, le=20)] = Field(
        description="Open sectors moved into toward the target: +1 Row Step each (C:L1101)."
    )
    sectors_moved: Annotated[int, Field(ge=0, le=0)] = Field(
        default=0,
        description="A rush takes no -1 Row Step for the sectors it moves into (C:L967): 0, "
        "the only value; its open sectors give +1 each instead.",
    )


def rush_odds(request: RushInput) -> AttackOdds:
    return attack_odds(request, results(RUSH), (request.open_sectors,))


@operation(
    name="combat/rush",
    kind=Kind.CHECK,
    covers=("4c.combat.rush",),
    odds=rush_odds,
    cost=attack_cost,
    example={"rv": 20, "open_sectors": 2, "dice": {"seed": 3}},
)
def rush(request: RushInput, dice: Dice) -> AttackResult:
    """Charge a target in another sector within reach: Fortitude on the Master Table, +1 Row
    Step per open sector moved into, read miss, hit, pound, concuss (C:L1097-1113)."""
    return roll_attack(request, dice, results(RUSH), (request.open_sectors,))


class MultiTargetInput(AttackInput):
    rv: RankValue = Field(description="The attacker's Melee Rank Value.")
    targets: Annotated[int, Field(ge=2, le=20)] = Field(
        description="Opponents surrounding the attacker in one sector (C:L1161)."
    )


def multi_target_odds(request: MultiTargetInput) -> AttackOdds:
    return attack_odds(request, results(MULTI_TARGET))


@operation(
    name="combat/multi-target",
    kind=Kind.CHECK,
    covers=("4c.combat.multi_target",),
    odds=multi_target_odds,
    cost=attack_cost,
    example={"rv": 40, "targets": 3, "dice": {"values": [9, 5]}},
)
def multi_target(request: MultiTargetInput, dice: Dice) -> AttackResult:
    """Surrounded in one sector, attack everyone at once: a yellow affects each as a red
    would, any other colour misses them all (C:L1161-1163)."""
    return roll_attack(request, dice, results(MULTI_TARGET))
