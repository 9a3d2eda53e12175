"""The turn (C:L965-987, C:L1238-1240): each side rolls d% for initiative, the higher total
acts first; with the optional rule a side adds its best Awareness; a winner may wait."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.combat.options import CombatOptions, InitiativeTie
from service.rules.four_c.core.dice import DiceMode, d100_distribution, roll_d100
from service.rules.four_c.core.ranks import RankValue
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["initiative", "turn_sequence", "wait"]

#: Rolls again on a tie at most this often; the chance of going further is below 1e-100.
REROLLS = 50
Awareness = Annotated[tuple[RankValue, ...], Field(max_length=50)]


class Side(StrEnum):
    PLAYERS = "players"
    GM = "gm"
    BOTH = "both"


class InitiativeInput(Model):
    players_awareness: Awareness = Field(
        default=(), description="The player characters' Awareness, for the optional bonus."
    )
    gm_awareness: Awareness = Field(default=(), description="The GM characters' Awareness.")
    awareness_bonus: bool = Field(
        default=False, description="Optional rule: each side adds its highest Awareness (C:L983)."
    )
    options: CombatOptions = Field(default=CombatOptions())


class Initiative(Model):
    players_rolls: list[int] = Field(description="Each roll, ties rolled again.")
    gm_rolls: list[int]
    players_bonus: int
    gm_bonus: int
    winner: Side = Field(description="'both' when a tie is simultaneous (A-20).")


def _bonuses(request: InitiativeInput) -> tuple[int, int]:
    if not request.awareness_bonus:
        return 0, 0
    return max(request.players_awareness, default=0), max(request.gm_awareness, default=0)


def _tied(request: InitiativeInput) -> Side:
    tie = request.options.initiative_tie
    return {InitiativeTie.PLAYERS_WIN: Side.PLAYERS, InitiativeTie.GM_WINS: Side.GM}.get(
        tie, Side.BOTH
    )


class InitiativeOdds(Model):
    winner: list[OutcomeProbability]
    first_roll: list[OutcomeProbability] = Field(description="One roll each, ties as ties.")


def initiative_odds(request: InitiativeInput) -> InitiativeOdds:
    """Catalogue 5.6: P(players > GM), P(tie) from one roll each; re-rolled ties share out
    in proportion, any other reading of A-20 gives the tie to its side."""
    players_bonus, gm_bonus = _bonuses(request)
    roll = d100_distribution(DiceMode.NORMAL)
    first = roll.then(lambda p: roll.map(lambda g: _side(p + players_bonus - g - gm_bonus)))
    tie = first.weight("tie")
    if request.options.initiative_tie is InitiativeTie.REROLL and tie < first.total:
        weights = {s: first.weight(s) for s in ("players", "gm")}
        winner = Distribution({k: w for k, w in weights.items() if w}, total=first.total - tie)
    else:
        winner = first.map(lambda s: _tied(request).value if s == "tie" else s)
    return InitiativeOdds(winner=outcome_table(winner, [s.value for s in Side]),
                          first_roll=outcome_table(first, ["players", "tie", "gm"]))  # fmt: skip


def _side(difference: int) -> str:
    return "players" if difference > 0 else "gm" if difference < 0 else "tie"


def initiative_cost(request: object) -> Estimate:
    """Two d% rolls, every pair (10,000), and the tables: the same for every request."""
    return Estimate(3 * 10_000 + 500, ())


@operation(
    name="combat/initiative",
    kind=Kind.CHECK,
    covers=("4c.combat.initiative",),
    odds=initiative_odds,
    cost=initiative_cost,
    example={"players_awareness": [50], "gm_awareness": [20], "awareness_bonus": True,
             "dice": {"seed": 4}},
)  # fmt: skip
def initiative(request: InitiativeInput, dice: Dice) -> Initiative:
    """One player and the GM each roll d%, the higher total wins (C:L975); with the optional
    rule each side adds its highest Awareness (C:L983-987). Ties are rolled again (A-20)."""
    players_bonus, gm_bonus = _bonuses(request)
    players, gm = [], []
    for _ in range(REROLLS):
        players.append(roll_d100(dice, DiceMode.NORMAL, "players initiative").roll)
        gm.append(roll_d100(dice, DiceMode.NORMAL, "gm initiative").roll)
        difference = players[-1] + players_bonus - gm[-1] - gm_bonus
        if difference or request.options.initiative_tie is not InitiativeTie.REROLL:
            break
    winner = Side.PLAYERS if difference > 0 else Side.GM if difference < 0 else _tied(request)
    return Initiative(players_rolls=players, gm_rolls=gm, players_bonus=players_bonus,
                      gm_bonus=gm_bonus, winner=winner)  # fmt: skip


class TurnInput(Model):
    winner: Side = Field(description="The side that won initiative this turn.")


class Phase(Model):
    step: int
    who: str
    does: str


class Turn(Model):
    phases: list[Phase]


@operation(
    name="combat/turn-sequence",
    kind=Kind.LOOKUP,
    covers=("4c.combat.turn_sequence",),
    example={"winner": "players"},
)
def turn_sequence(request: TurnInput) -> Turn:
    """A turn: the GM secretly decides the GM characters' actions, the players state theirs,
    initiative is rolled, the winning side acts, then the losing side (C:L969-981). One attack
    a turn (C:L967)."""
    first, second = (
        ("players", "gm")
        if request.winner is Side.PLAYERS
        else ("gm", "players")
        if request.winner is Side.GM
        else ("both sides at once", "nobody")
    )  # fmt: skip
    phases = [
        Phase(step=1, who="gm", does="secretly decides the GM characters' actions"),
        Phase(step=2, who="players", does="state their characters' actions"),
        Phase(step=3, who="both", does="roll d% for initiative (combat/initiative)"),
        Phase(step=4, who=first, does="act"),
        Phase(step=5, who=second, does="act"),
        Phase(step=6, who="both", does="repeat until the combat is over"),
    ]
    return Turn(phases=phases)


class WaitInput(Model):
    winners: Annotated[tuple[Annotated[str, Field(min_length=1, max_length=60)], ...],
                       Field(min_length=1, max_length=50)]  # fmt: skip
    waiting: Annotated[tuple[Annotated[str, Field(min_length=1, max_length=60)], ...],
                       Field(max_length=50)] = ()  # fmt: skip


class Waiting(Model):
    act_first: list[str] = Field(description="The winning side's characters who do not wait.")
    then: str
    may_interrupt: list[str] = Field(description="Those waiting: they act when they choose.")


@operation(
    name="combat/wait",
    kind=Kind.LOOKUP,
    covers=("4c.combat.wait",),
    example={"winners": ["Nova", "Sparrow"], "waiting": ["Sparrow"]},
)
def wait(request: WaitInput) -> Waiting:
    """Advanced: a character whose side won initiative may wait, let opponents act, and
    interrupt at the best moment (C:L1238-1240)."""
    for field, names in (("winners", request.winners), ("waiting", request.waiting)):
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise InputError((field,), f"each character once: {', '.join(twice)}")
    unknown = [name for name in request.waiting if name not in request.winners]
    if unknown:
        raise InputError(("waiting",), f"only the winning side may wait: {', '.join(unknown)}")
    acting = [name for name in request.winners if name not in request.waiting]
    return Waiting(act_first=acting, then="the losing side acts",
                   may_interrupt=list(request.waiting))  # fmt: skip
