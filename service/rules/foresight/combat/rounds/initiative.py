"""Initiative (F:L2945-2962): each round every combatant rolls the Initiative skill, modified by
how well they can tell what is going on, and its QR says how many actions they get.

Initiative is (IN+PC)/2 at BEF 3 + E (F:L776-826); a character without the skill rolls the
formula at -1 (F:L2947, F:L1637). The awareness modifier is a row of the Initiative Modifiers
table (F:L2953-2960) or any integer the GM picks: the sniper example uses +3, which the table
does not print (F:L3304, AMB2-48). Stunned characters take -4 more (F:L2951), and a wounded
one -WL, as on any task (F:L2590). A success (QR1-QR4) gives two actions and a bonus-action
roll; a failure (QR7) one action and no bonus roll; a botch (QR10) freezes the character, who
can only do nothing or drop prone (F:L2962).
"""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Exact, OutcomeProbability, outcome_table
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QR_ROLLED, quality_odds, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Resolution,
    ResolutionOdds,
    distribution,
    roll,
    setup_at,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "AWARENESS",
    "INITIATIVE_MODIFIERS",
    "Awareness",
    "InitiativeInput",
    "InitiativeResult",
    "actions_after",
    "initiative",
]

#: Initiative's BEF is 3 + E (F:L776-826).
INITIATIVE_BEF_PLUS = 3
STUNNED = Term(source="stunned", value=-4)
UNSKILLED = Term(source="unskilled", value=-1)
#: The wound levels a conscious character can have (8 is dead, F:L2588).
MAX_WOUND_LEVEL = 7


class Awareness(StrEnum):
    """The rows of the Initiative Modifiers table (F:L2955-2960)."""

    UNAWARE_ENEMIES = "unaware_enemies"
    BETTER_GRASP = "better_grasp"
    POSITIONAL_ADVANTAGE = "positional_advantage"
    POSITIONAL_DISADVANTAGE = "positional_disadvantage"
    POOR_GRASP = "poor_grasp"
    SURPRISED = "surprised"


class AwarenessRow(Model):
    awareness: Awareness
    situation: str
    modifier: int
    line: int


INITIATIVE_MODIFIERS = table(__name__, "initiative-modifiers", AwarenessRow)
#: By key: 'unaware_enemies' +4, 'better_grasp' +2, 'positional_advantage' +1,
#: 'positional_disadvantage' -1, 'poor_grasp' -2, 'surprised' -4.
AWARENESS = {row.awareness: row for row in INITIATIVE_MODIFIERS}


class InitiativeInput(Model):
    """One combatant's Initiative roll for a round."""

    task: Task = Field(
        description="The Initiative skill: its score ((IN+PC)/2 rounded, for a character "
        "without the skill, with 'skilled' false), its BEF (3 + E, or 'bef_formula' "
        "{term: E, plus: 3}) and any other modifiers (exhaustion, ...)."
    )
    environment_familiarity: Annotated[int, Field(ge=0, le=3)] | None = Field(
        default=None,
        description="E, when the task gives no BEF: the BEF is then 3 + E (F:L776-826).",
    )
    skilled: bool = Field(
        default=True,
        description="False: the character lacks the skill and rolls its formula at -1 "
        "(F:L2947, F:L1637).",
    )
    awareness: Awareness | None = Field(
        default=None,
        description="A row of the Initiative Modifiers table (F:L2953-2960): "
        + ", ".join(f"'{key.value}' {row.modifier:+d}" for key, row in AWARENESS.items())
        + ".",
    )
    awareness_modifier: Annotated[int, Field(ge=-10, le=10)] | None = Field(
        default=None,
        description="Instead of 'awareness': the GM's own modifier, any integer; the sniper "
        "example gives +3 (F:L3304, AMB2-48).",
    )
    stunned: bool = Field(default=False, description="Stunned: -4 more (F:L2951).")
    wound_level: Annotated[int, Field(ge=0, le=MAX_WOUND_LEVEL)] = Field(
        default=0, description="The character's wound level: -WL, as on any task (F:L2590)."
    )
    options: ResolutionOptions = Field(default=ResolutionOptions())


class InitiativeActions(Model):
    """What an initiative QR gives the character this round (F:L2962)."""

    actions: int = Field(description="Normal actions: 2 on a success, 1 on QR7, 0 on QR10.")
    may_roll_bonus: bool = Field(description="A success may roll for bonus actions.")
    frozen: bool = Field(description="QR10: the character freezes.")
    may_drop_prone: bool = Field(description="A frozen character may still fall prone.")


class InitiativeResult(Resolution, InitiativeActions):
    """The Initiative roll and what its QR gives the character this round."""


def actions_after(qr: QR) -> InitiativeActions:
    """Two actions and a bonus-action roll on a success, one action and no bonus roll on a
    failure, nothing but dropping prone on a botch (F:L2962)."""
    frozen = qr is QR.QR10
    return InitiativeActions(
        actions=0 if frozen else 1 if qr is QR.QR7 else 2,
        may_roll_bonus=qr <= QR.QR4,
        frozen=frozen,
        may_drop_prone=frozen,
    )


def _awareness(request: InitiativeInput) -> list[Term]:
    if request.awareness is not None and request.awareness_modifier is not None:
        raise InputError(("awareness_modifier",), "give either 'awareness' or the modifier")
    if request.awareness is not None:
        row = AWARENESS[request.awareness]
        return [Term(source=f"awareness: {row.awareness.value}", value=row.modifier)]
    if request.awareness_modifier:
        return [Term(source="awareness", value=request.awareness_modifier)]
    return []


def _setup(request: InitiativeInput) -> Setup:
    """The Initiative task at BEF 3 + E (F:L776-826): the task's own BEF, or E; given both,
    E would be silently dropped, so the request is refused instead."""
    task = request.task
    default = None
    given_bef = task.bef is not None or task.bef_formula is not None
    if given_bef and request.environment_familiarity is not None:
        raise InputError(
            ("environment_familiarity",),
            "give either the task's 'bef' (or 'bef_formula') or 'environment_familiarity'",
        )
    if not given_bef:
        if request.environment_familiarity is None:
            raise InputError(
                ("task", "bef"),
                "Initiative's BEF is 3 + E: give the task's 'bef' or 'bef_formula', or "
                "'environment_familiarity'",
            )
        default = INITIATIVE_BEF_PLUS + request.environment_familiarity
    extra = [*_awareness(request)]
    if request.stunned:
        extra.append(STUNNED)
    if request.wound_level:
        extra.append(Term(source="wound level", value=-request.wound_level))
    if not request.skilled:
        extra.append(UNSKILLED)
    return setup_at(("task",), task, request.options, extra, default)


class InitiativeOdds(ResolutionOdds):
    actions: list[OutcomeProbability] = Field(description="Normal actions: 0, 1 or 2.")
    may_roll_bonus: Exact = Field(description="P(success): a bonus-action roll is allowed.")


def initiative_odds(request: InitiativeInput) -> InitiativeOdds:
    task = _setup(request)
    qrs = distribution(task)
    found = quality_odds(qrs)
    return InitiativeOdds(
        **dict(found),
        chance=task.chance,
        rolled=task.rolled,
        actions=outcome_table(qrs.map(lambda qr: actions_after(qr).actions)),
        may_roll_bonus=found.summary.success,
    )


def initiative_cost(request: InitiativeInput) -> Estimate:
    """One D100 read and its tables (as a task), then the actions of each of its QRs: the
    same for every request."""
    return Estimate(task_cost(request).states + len(QR), ())


@operation(
    name="initiative",
    kind=Kind.CHECK,
    covers=("foresight.initiative",),
    odds=initiative_odds,
    cost=initiative_cost,
    example={
        "task": {"score": 12, "bef_formula": {"term": "E", "plus": 3, "familiarity": 3}},
        "awareness_modifier": 3,
        "dice": {"values": [21]},
    },
    rolled=QR_ROLLED,
)
def initiative(request: InitiativeInput, dice: Dice) -> InitiativeResult:
    """Roll Initiative for a round: (IN+PC)/2 at BEF 3 + E, with the awareness modifier
    (Initiative Modifiers, F:L2953-2960, or any integer, AMB2-48), -4 if stunned (F:L2951),
    -WL if wounded (F:L2590), -1 without the skill (F:L2947).

    QR1-QR4: two actions and the character may roll for bonus actions; QR7: one action and
    no bonus roll; QR10: frozen, doing nothing or dropping prone (F:L2962). Wounds and stun
    may take more away: `actions/allowance`."""
    rolled = roll(_setup(request), dice, "D100 (Initiative)")
    return InitiativeResult(**dict(rolled), **dict(actions_after(rolled.qr)))
