"""The Omphalos IX Precision-Fire Rifle's attack (C:L1598-1624, catalogue 3.12.3): a ranged
attack on Coordination +20 whose colour the rifle then changes, Deadly Accuracy stepping red up
to a blue Nail far off and the Range Drawback holding everything to red within 12 sectors; 20
damage against Body Armor halved. The roll, the dodge before it and the odds are combat's."""

from collections.abc import Mapping
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.combat.attacks import (
    AttackInput,
    AttackResult,
    attack_cost,
    result_distribution,
    roll_attack,
)
from service.rules.four_c.combat.damage import Armors, pierced, through
from service.rules.four_c.combat.tables import RANGED, ResultRow, results
from service.rules.four_c.core.master_table import COLOURS
from service.rules.four_c.core.ranks import MAX_RV, RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.gear.options import RifleOptions
from service.rules.four_c.gear.tables import OMPHALOS
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["RifleAttack", "RifleAttackInput", "final_colour", "omphalos_attack"]

RIFLE = OMPHALOS[0]
RESULTS = ["miss", "hit", "nail", "dying"]
DEADLY = "Nail. Deadly Accuracy advances any Hit to a Nail, called or not (C:L1612)."


class RifleAttackInput(AttackInput):
    rv: RankValue = Field(description="The user's Coordination Rank Value.")
    distance_sectors: Annotated[int, Field(ge=0, le=20)] = Field(
        description="Sectors to the target: the rifle reaches 20 (C:L1622)."
    )
    target_body_armor: RankValue = Field(
        default=0, description="The target's Body Armor, halved by the rifle's rounds."
    )
    target_other_armor: Armors = Field(
        default=(),
        description="Each other armor of the target (a Force Field...): halved too only with "
        "armor_piercing_scope all_armor (A-21).",
    )
    nail_declared: bool = Field(
        default=False,
        description="A called shot declared before the roll (C:L1282); with omphalos_auto_nail "
        "off, a blue is a Nail only then.",
    )
    rounds_loaded: Annotated[int, Field(ge=0, le=30)] | None = Field(
        default=None, description="Rounds in the magazine, if tracked: each attack fires one."
    )
    options: RifleOptions = Field(default=RifleOptions())


class RifleAttack(AttackResult):
    close_range: bool = Field(description="Within 12 sectors: the Range Drawback applies.")
    attack_rv: int = Field(description="Coordination, halved close in, +20 (Accurate).")
    final_colour: Colour = Field(description="The colour after the rifle changes it.")
    damage: int = Field(description="The rifle's damage, 20.")
    armor: int = Field(
        description="The armor that counts: Body Armor halved (round down), with the others (A-21)."
    )
    damage_taken: int = Field(description="What gets through the armor, 0 on a miss.")
    rounds_loaded: int | None = Field(description="Rounds left in the magazine after the shot.")


def _close(request: RifleAttackInput) -> bool:
    """'Within 12 sectors', 12 itself included by default (A-43)."""
    near = RIFLE.close_range_sectors
    inclusive = request.options.omphalos_close_range_inclusive
    return request.distance_sectors <= near if inclusive else request.distance_sectors < near


def attack_rv(request: RifleAttackInput) -> int:
    """Accurate's +20; within 12 sectors Coordination is halved, round down, before it by
    default (A-43)."""
    coordination = max(request.rv + sum(request.rv_modifiers), 0)
    bonus = RIFLE.accurate_bonus
    if not _close(request):
        return coordination + bonus
    if request.options.omphalos_halve_before_bonus:
        return coordination // 2 + bonus
    return (coordination + bonus) // 2


def final_colour(rolled: Colour, close: bool, options: RifleOptions) -> Colour:
    """Close in, blue and yellow fall to red, and by default nothing raises it again; else
    Deadly Accuracy steps red up to blue (C:L1612, C:L1620, A-43)."""
    if close:
        if rolled.level > Colour.RED.level:
            rolled = Colour.RED
        if options.omphalos_close_range_override:
            return rolled
    return Colour.BLUE if rolled is Colour.RED else rolled


def _armor(request: RifleAttackInput) -> int:
    """The rounds halve Body Armor, round down (C:L1616), and other armor only with
    armor_piercing_scope all_armor (A-21)."""
    return pierced(
        request.target_body_armor,
        request.target_other_armor,
        lambda armor: armor // 2,
        request.options,
    )


def _taken(request: RifleAttackInput) -> int:
    return through(RIFLE.damage, _armor(request))


def _result(request: RifleAttackInput, colour: Colour) -> str:
    """The ranged table's result of the final colour: a blue is a Nail with Deadly Accuracy
    or a declared called shot (A-48); a Dying stopped by the armor is a Hit (A-15)."""
    result = results(RANGED)[colour].result
    nail = request.options.omphalos_auto_nail or request.nail_declared
    if result == "nail" and not nail:
        return "hit"
    if result == "dying" and _taken(request) == 0 and request.options.dying_requires_penetration:
        return "hit"
    return result


def _table(request: RifleAttackInput) -> dict[Colour, ResultRow]:
    """What each rolled colour ends as."""
    close = _close(request)
    rows = {}
    for colour in Colour:
        final = final_colour(colour, close, request.options)
        result = _result(request, final)
        text = next(r.text for r in RANGED if r.result == result)
        if result == "nail" and request.options.omphalos_auto_nail:
            text = DEADLY
        rows[colour] = ResultRow(colour=colour, result=result, text=text)
    return rows


def _rolled(request: RifleAttackInput) -> AttackInput:
    """The attack as combat rolls it: at the rifle's Rank Value."""
    rv = min(attack_rv(request), MAX_RV)
    return request.model_copy(update={"rv": rv, "rv_modifiers": ()})


def _steps(request: RifleAttackInput) -> tuple[int, ...]:
    """The optional range penalty, -1 Row Step a sector (A-28)."""
    return (-request.distance_sectors,) if request.options.range_penalty else ()


class RifleAttackOdds(Model):
    result: list[OutcomeProbability]
    final_colour: list[OutcomeProbability] = Field(description="The colour after the rifle.")
    colour: list[OutcomeProbability] = Field(description="The colour rolled.")
    damage_taken: list[OutcomeProbability]
    master_table: str


def _loaded(request: RifleAttackInput) -> int | None:
    """The rounds in the magazine, if counted: an empty one fires nothing (C:L1618), so the
    shot and its odds refuse it alike."""
    if request.rounds_loaded == 0:
        raise InputError(
            ("rounds_loaded",), "the magazine is empty: reload it (4 turns, gear/omphalos-ix/ammo)"
        )
    return request.rounds_loaded


def _over(request: RifleAttackInput, read: Mapping[Colour, str]) -> Distribution[str]:
    rows = {c: ResultRow(colour=c, result=read[c], text="") for c in Colour}
    return result_distribution(_rolled(request), rows, _steps(request))


def omphalos_attack_odds(request: RifleAttackInput) -> RifleAttackOdds:
    """Every result, final colour and rolled colour, over the dodge when it is still to be
    rolled (catalogue 5.1)."""
    _loaded(request)
    close = _close(request)
    table = _table(request)
    found = _over(request, {c: row.result for c, row in table.items()})
    final = _over(request, {c: final_colour(c, close, request.options).value for c in Colour})
    taken = _taken(request)
    return RifleAttackOdds(
        result=outcome_table(found, RESULTS),
        final_colour=outcome_table(final, COLOURS),
        colour=outcome_table(_over(request, {c: c.value for c in Colour}), COLOURS),
        damage_taken=outcome_table(found.map(lambda r: 0 if r == "miss" else taken)),
        master_table=request.table_name,
    )


def omphalos_cost(request: object) -> Estimate:
    """Three readings of the attack (`attack_cost` each) and their tables: the same for every
    request."""
    return Estimate(3 * attack_cost(request).states + 200, ())


@operation(
    name="gear/omphalos-ix/attack",
    kind=Kind.CHECK,
    covers=("4c.gear.omphalos_ix.attack",),
    odds=omphalos_attack_odds,
    cost=omphalos_cost,
    example={"rv": 30, "distance_sectors": 15, "target_body_armor": 25,
             "dice": {"values": [5, 1]}},
)  # fmt: skip
def omphalos_attack(request: RifleAttackInput, dice: Dice) -> RifleAttack:
    """Fire the Omphalos IX: Coordination +20 (Accurate) on the Master Table; every red steps
    up to blue and every Hit becomes a Nail (Deadly Accuracy); within 12 sectors Coordination
    is halved, round down, and blue or yellow falls to red (Range Drawback); 20 damage, the
    target's Body Armor halved, round down (C:L1608-1624, A-43)."""
    loaded = _loaded(request)
    close = _close(request)
    found = roll_attack(_rolled(request), dice, _table(request), _steps(request))
    taken = 0 if found.result == "miss" else _taken(request)
    return RifleAttack(
        **dict(found),
        close_range=close,
        attack_rv=attack_rv(request),
        final_colour=final_colour(found.colour, close, request.options),
        damage=RIFLE.damage,
        armor=_armor(request),
        damage_taken=taken,
        rounds_loaded=None if loaded is None else loaded - 1,
    )
