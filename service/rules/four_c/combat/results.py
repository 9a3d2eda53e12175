"""The follow-ups of a hit (C:L1260-1292): a Concuss or a Pound makes the defender roll
Fortitude, but only when the attacker's Brawn is greater ("in excess of", strictly, A-23)."""

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.combat.damage import Points
from service.rules.four_c.combat.options import CombatOptions, ConcussPoints
from service.rules.four_c.combat.tables import CONCUSS, POUND, ResultRow, results
from service.rules.four_c.core.dice import roll_ndx, written_dice
from service.rules.four_c.core.master_table import (
    MasterInput,
    Resolved,
    resolve_roll,
    result_distribution,
    table_cost,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.model import InputError, Model
from service.rules.registry import Kind, Table, operation

__all__ = ["concuss", "pound"]

NO_ROLL = "no_effect"


class FollowUpInput(MasterInput):
    rv: RankValue = Field(description="The defender's Fortitude Rank Value, which is rolled.")
    attacker_brawn: RankValue = Field(description="The attacker's effective Brawn.")
    damage_taken: Points | None = Field(
        default=None,
        description="What got through the armor (combat/armor): needed with "
        "impact_effects_require_penetration, when 0 stops the roll (A-15).",
    )
    options: CombatOptions = Field(default=CombatOptions())


class FollowUp(Model):
    triggered: bool = Field(description="The attacker's Brawn is greater: the defender rolls.")
    roll: Resolved | None
    result: str
    text: str
    unconscious_turns: int | None = Field(default=None, description="Concuss black: 1d10 turns.")


class FollowUpOdds(Model):
    result: list[OutcomeProbability]
    master_table: str


def _triggered(request: FollowUpInput, rival: int) -> bool:
    """Only Brawn in excess of the rival's makes the defender roll (A-23), whatever armor
    stopped: an impact, not a wound; with impact_effects_require_penetration, only when at
    least 1 point got through (A-15)."""
    if not request.options.impact_effects_require_penetration:
        return request.attacker_brawn > rival
    if request.damage_taken is None:
        raise InputError(
            ("damage_taken",), "impact_effects_require_penetration needs the damage_taken"
        )
    return request.attacker_brawn > rival and request.damage_taken > 0


def _follow_up(request: FollowUpInput, dice: Dice, table: Table[ResultRow], rival: int) -> FollowUp:
    if not _triggered(request, rival):
        return FollowUp(triggered=False, roll=None, result=NO_ROLL, text="No roll: no effect.")
    rolled = resolve_roll(request, dice)
    row = results(table)[rolled.colour]
    return FollowUp(triggered=True, roll=rolled, result=row.result, text=row.text)


def _odds(request: FollowUpInput, table: Table[ResultRow], rival: int) -> FollowUpOdds:
    if not _triggered(request, rival):
        found: Distribution[str] = Distribution({NO_ROLL: 1})
    else:
        found = result_distribution(request, {c: r.result for c, r in results(table).items()})
    order = list(dict.fromkeys(row.result for row in table))
    return FollowUpOdds(result=outcome_table(found, order), master_table=request.table_name)


class ConcussInput(FollowUpInput):
    damage_max: Points | None = Field(
        default=None,
        description="The defender's Damage maximum: needed with concuss_points=damage_points "
        "(A-16), which caps the points they wake with.",
    )


class Concussed(FollowUp):
    damage_points: int | None = Field(
        default=None,
        description="With concuss_points=damage_points (A-16), when knocked out: 0, not Dying.",
    )
    damage_points_on_waking: int | None = Field(
        default=None,
        description="With concuss_points=damage_points (A-16), when knocked out: the lesser "
        "of the Damage maximum and the Fortitude Rank Value (C:L1268).",
    )


def _as_damage(request: ConcussInput) -> bool:
    """Whether the lost points are Damage points (A-16), which needs the Damage maximum: the
    roll and its odds refuse the option without it alike."""
    as_damage = request.options.concuss_points is ConcussPoints.DAMAGE_POINTS
    if as_damage and request.damage_max is None:
        raise InputError(("damage_max",), "concuss_points=damage_points needs the damage_max")
    return as_damage


def concuss_odds(request: ConcussInput) -> FollowUpOdds:
    _as_damage(request)
    return _odds(request, CONCUSS, request.rv)


@operation(
    name="combat/result/concuss",
    kind=Kind.CHECK,
    covers=("4c.combat.result.concuss",),
    odds=concuss_odds,
    cost=table_cost,
    example={"rv": 10, "attacker_brawn": 30, "dice": {"values": [2, 2, 7]}},
)
def concuss(request: ConcussInput, dice: Dice) -> Concussed:
    """After the damage, if the attacker's Brawn is greater than the defender's Fortitude, the
    defender rolls Fortitude: black knocks them out for 1d10 turns, losing all "Fortitude
    points" and on waking recovering as many as the Fortitude Rank Value (C:L1264-1272).
    Those points name no pool: by default unconsciousness only; read as Damage points, they
    are 0 while out, without Dying, and at most the Damage maximum on waking (A-16)."""
    as_damage = _as_damage(request)
    found = Concussed(**dict(_follow_up(request, dice, CONCUSS, request.rv)))
    if found.result != "unconscious":
        return found
    # "1d10 turns" is written as dice: rolled whatever range_dice says.
    turns = roll_ndx(written_dice(1, 0, request.options), dice, "unconscious turns").total
    if not as_damage or request.damage_max is None:
        return found.model_copy(update={"unconscious_turns": turns})
    waking = min(request.damage_max, request.rv)
    return found.model_copy(
        update={"unconscious_turns": turns, "damage_points": 0, "damage_points_on_waking": waking}
    )


class PoundInput(FollowUpInput):
    defender_brawn: RankValue = Field(description="The defender's effective Brawn.")
    obstacle_material_value: RankValue | None = Field(
        default=None,
        description="The Material Value of an obstacle between the defender's sector and the "
        "one a black result knocks them into (C:L1288); null: none.",
    )


class Pounded(FollowUp):
    through_obstacle: bool | None = Field(
        default=None,
        description="Black with an obstacle: true when the attacker's Brawn is greater than "
        "its Material Value, knocked through it (C:L1288); false when it is not, stopped "
        "against it in their own sector, still knocked down (A-58). Null otherwise.",
    )


def pound_odds(request: PoundInput) -> FollowUpOdds:
    return _odds(request, POUND, request.defender_brawn)


@operation(
    name="combat/result/pound",
    kind=Kind.CHECK,
    covers=("4c.combat.result.pound",),
    odds=pound_odds,
    cost=table_cost,
    example={"rv": 20, "attacker_brawn": 40, "defender_brawn": 20, "dice": {"values": [3, 1]}},
)
def pound(request: PoundInput, dice: Dice) -> Pounded:
    """After the damage, if the attacker's Brawn is greater than the defender's, the defender
    rolls Fortitude: black knocks them down into an adjacent sector, red knocks them down in
    place; either loses the next turn getting up (C:L1284-1292). An obstacle on the way is
    knocked through only by Brawn greater than its Material Value (C:L1288); otherwise the
    defender stops against it, in their own sector, still knocked down (A-58)."""
    found = Pounded(**dict(_follow_up(request, dice, POUND, request.defender_brawn)))
    obstacle = request.obstacle_material_value
    if found.result != "knocked_back" or obstacle is None:
        return found
    if request.attacker_brawn > obstacle:
        text = f"{found.text} Knocked through the obstacle (Material Value {obstacle})."
        return found.model_copy(update={"through_obstacle": True, "text": text})
    text = (
        "Knocked down against the obstacle (Material Value "
        f"{obstacle}), in their own sector; loses the next turn getting up."
    )
    return found.model_copy(update={"through_obstacle": False, "text": text})
