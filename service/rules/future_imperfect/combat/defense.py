"""Defense (FI:L411-419): an active defense spends the highest card for an opposed Fighting or
Dodge check that stands as the attackers' TN until the defender's next action; a reserve card
may instead race the attacker's Reflexes to move first."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.combat.melee import (
    Contestant,
    Race,
    RaceOdds,
    race,
    race_cost,
    race_odds,
    side_check,
)
from service.rules.future_imperfect.combat.options import AttackOptions, DefenseSkill, RaceOptions
from service.rules.future_imperfect.core.checks import CHECK, DEPTH, Checked, results, roll_check
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["active_defense", "flee"]

Step = Annotated[int, Field(ge=0, le=14)]
#: An active defense without real movement (FI:L417).
STANDING = -4


class AttackKind(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"


class DefenseInput(Model):
    defender: Contestant | None = Field(
        default=None,
        description="The pool of the skill he defends with; or give 'fighting' and 'dodge' "
        "and let active_defense_skill choose (A-53).",
    )
    fighting: Contestant | None = Field(default=None, description="His Fighting, weapon in hand.")
    dodge: Contestant | None = Field(default=None, description="His Dodge.")
    attack: AttackKind = Field(default=AttackKind.MELEE, description="What he defends against.")
    moved: bool = Field(
        default=True,
        description="Real movement: behind cover, to the ground, or in melee a retreat of at "
        "least 1 m; otherwise -4 (FI:L417).",
    )
    hand: tuple[Step, ...] = Field(default=(), max_length=20, description="Cards held.")
    reserve: Step | None = Field(default=None, description="A card in reserve: the highest.")
    normal_tn: Annotated[int, Field(ge=0, le=300)] | None = Field(
        default=None, description="The attacker's TN without the defense."
    )
    options: AttackOptions = Field(default=AttackOptions())


class Defended(Model):
    skill: str = Field(description="fighting or dodge (A-53).")
    discarded: int = Field(description="The highest remaining card; the reserve if held.")
    hand: list[int]
    check: Checked
    defense: int = Field(description="The attackers' TN until his next action, when greater.")
    tn: int | None = Field(description="The greater of the normal TN and the defense.")


def _skill(request: DefenseInput) -> str:
    choice = request.options.active_defense_skill
    if choice is DefenseSkill.AUTO:
        return "fighting" if request.attack is AttackKind.MELEE else "dodge"
    return choice.value


def _pool(request: DefenseInput) -> tuple[Contestant, str]:
    """The pool rolled and its field: 'defender' as given, or the skill's own pool, Fighting
    against melee and Dodge against ranged attacks by default (A-53)."""
    skill = _skill(request)
    chosen = request.fighting if skill == "fighting" else request.dodge
    if request.defender is not None:
        if request.fighting is not None or request.dodge is not None:
            raise InputError(("defender",), "give 'defender', or 'fighting' and 'dodge'")
        return request.defender, "defender"
    if chosen is None:
        raise InputError((skill,), f"the defense is {skill} (A-53): give its pool")
    return chosen, skill


def _defender(request: DefenseInput) -> Contestant:
    if not request.hand and request.reserve is None:
        raise InputError(("hand",), "an active defense discards a card: none left (A-53)")
    pool, field = _pool(request)
    if request.moved:
        return pool
    mods = (*pool.modifiers, STANDING)
    if len(mods) > 5:
        raise InputError((field, "modifiers"), "at most 4 with the -4 for standing")
    return pool.model_copy(update={"modifiers": mods})


class DefenseOdds(Model):
    defense: list[OutcomeProbability] = Field(description="The defense result.")
    raises_tn: Exact | None = Field(description="The defense is over the normal TN.")
    truncation: Truncation | None


def defense_odds(request: DefenseInput) -> DefenseOdds:
    """The defense result, which stands whatever it is, even on a critical failure (the
    resister of catalogue 1.4), exactly."""
    found = results(side_check(_defender(request), request.options)).map(lambda o: o[1])
    normal = request.normal_tn
    raised = None if normal is None else exact(found.probability_where(lambda d: d > normal))
    return DefenseOdds(defense=outcome_table(found), raises_tn=raised,
                       truncation=truncation(found, DEPTH))  # fmt: skip


def defense_cost(request: DefenseInput) -> Estimate:
    return CHECK


@operation(
    name="combat/defense/active",
    kind=Kind.CHECK,
    covers=("fi.combat.defense.active",),
    odds=defense_odds,
    cost=defense_cost,
    example={"defender": {"pool": "III-2"}, "hand": [9, 4], "normal_tn": 7,
             "dice": {"values": [8, 6, 3]}},
)  # fmt: skip
def active_defense(request: DefenseInput, dice: Dice) -> Defended:
    """Declare an active defense and discard the highest remaining card (the reserve if
    held): the only way a card acts before its turn. The attacker's TN is the greater of his
    normal TN and an opposed Fighting/Dodge check, made once and kept until the defender's
    next action; no Story Chips on it once the attacker rolls (FI:L413-415). Without real
    movement, -4 (FI:L417). Given both pools, he defends with Fighting against melee and Dodge
    against ranged attacks, unless active_defense_skill says which (A-53)."""
    defender = _defender(request)
    hand = list(request.hand)
    if request.reserve is not None:
        discarded = request.reserve
    else:
        discarded = max(hand)
        hand.remove(discarded)
    rolled = roll_check(side_check(defender, request.options), dice)
    tn = None if request.normal_tn is None else max(request.normal_tn, rolled.en)
    return Defended(skill=_skill(request), discarded=discarded, hand=hand, check=rolled,
                    defense=rolled.en, tn=tn)  # fmt: skip


class FleeInput(Model):
    fleer: Contestant = Field(description="The Reflexes of the one fleeing.")
    attacker: Contestant = Field(description="The Reflexes of the one levelling a weapon.")
    reserve: Step | None = Field(description="The reserve card fleeing needs (FI:L419).")
    options: RaceOptions = Field(default=RaceOptions())


class Fled(Race):
    moves_first: bool = Field(description="Only a move: cover matters, or the range grows.")


def _reserve(request: FleeInput) -> None:
    if request.reserve is None:
        raise InputError(("reserve",), "running away needs a card in reserve (FI:L419)")


def flee_odds(request: FleeInput) -> RaceOdds:
    """P(the fleer moves first), exactly; a tie leaves the attack first (A-08)."""
    _reserve(request)
    return race_odds(request.fleer, request.attacker, request.options)


@operation(
    name="combat/defense/flee",
    kind=Kind.CHECK,
    covers=("fi.combat.defense.flee",),
    odds=flee_odds,
    cost=race_cost,
    example={"fleer": {"pool": "III-2"}, "attacker": {"pool": "IV-1"}, "reserve": 6,
             "dice": {"values": [5, 2, 3]}},
)  # fmt: skip
def flee(request: FleeInput, dice: Dice) -> Fled:
    """With a card in reserve, when someone levels a weapon at you, declare it and make the
    opposed Reflexes check: win and you move first. It is just a move, so have something to
    hide behind (FI:L419)."""
    _reserve(request)
    found = race(request.fleer, request.attacker, request.options, dice)
    return Fled(**dict(found), moves_first=found.winner == "initiator")
