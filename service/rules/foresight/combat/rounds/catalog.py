"""What a combatant can do in a turn: the Actions Table (F:L3020-3053) with the stance changes
its rows describe, and the Reflex Actions (F:L3090-3112) with the rule that limits them.

Reflexes do not use up regular or bonus actions (F:L3110). Every parry already made this round
costs -2 on later parries, every dodge -2 on later dodges, counted apart, so the first of each
is free (F:L3101-3103, F:L3112); a bonus parry or dodge action parries or dodges without the
modifier (F:L3101, F:L3103) and, being a parry or dodge performed, still counts for the later
ones. Only one of the asterisked reflexes (pivot, step, squat, trigger) in a round, in total
(F:L3108). Every reflex leaves the character unbalanced (F:L3101-3108).
"""

import heapq
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "ACTIONS",
    "REFLEXES",
    "ActionStance",
    "CombatAction",
    "ReflexAction",
    "actions_catalog",
    "reflex_catalog",
]

MAX_REFLEXES = 32
#: 'a -2 (cumulative) modifier' per earlier parry or dodge (F:L3101, F:L3103).
PER_EARLIER = -2


class ActionCategory(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"
    MOVEMENT = "movement"
    MISCELLANEOUS = "miscellaneous"


class CombatAction(StrEnum):
    """The rows of the Actions Table (F:L3022-3053)."""

    ATTACK = "attack"
    FEINT = "feint"
    WIND_UP = "wind_up"
    PIN = "pin"
    MAINTAIN_PIN = "maintain_pin"
    AIM = "aim"
    BRACE = "brace"
    DRAW = "draw"
    SHOULDER = "shoulder"
    FIRE = "fire"
    RELOAD = "reload"
    THROW = "throw"
    DISCARD = "discard"
    DASH = "dash"
    DIVE = "dive"
    DROP = "drop"
    EVADE = "evade"
    KNEEL = "kneel"
    MOVE = "move"
    PIVOT = "pivot"
    RECOVER = "recover"
    RISE = "rise"
    ROLL = "roll"
    SQUAT = "squat"
    STEP = "step"
    TURN = "turn"
    CONCENTRATE = "concentrate"
    RECOVER_FROM_STUN = "recover_from_stun"


class ActionStance(StrEnum):
    STANDING = "standing"
    KNEELING = "kneeling"
    SQUATTING = "squatting"
    PRONE = "prone"
    LYING = "lying"


class ActionRow(Model):
    action: CombatAction
    name: str
    category: ActionCategory
    description: str
    marked_unbalancing: bool = Field(description="The table's text says it unbalances.")
    unbalancing: bool = Field(
        description="As `balance` reads it: the marked ones and the stance changes of "
        "'moved, turned, changed stance' (F:L3334); never Pivot or Step (F:L3044, F:L3050)."
    )
    line: int


class StanceTransition(Model):
    action: CombatAction
    from_stance: ActionStance
    to_stance: ActionStance
    actions: int = Field(description="How many of the action the change takes.")
    line: int


class ReflexAction(StrEnum):
    """The rows of Reflex Actions (F:L3098-3107)."""

    DODGE = "dodge"
    DROP = "drop"
    PARRY = "parry"
    PIVOT = "pivot"
    STEP = "step"
    SQUAT = "squat"
    TRIGGER = "trigger"


class ReflexRow(Model):
    reflex: ReflexAction
    name: str
    asterisked: bool = Field(description="One of these in total a round (F:L3108).")
    counter: ReflexAction | None = Field(description="Parries and dodges count apart (F:L3112).")
    unbalancing: bool
    description: str
    line: int


ACTIONS_TABLE = table(__name__, "actions", ActionRow)
STANCE_TRANSITIONS = table(__name__, "stance-transitions", StanceTransition)
REFLEX_TABLE = table(__name__, "reflex-actions", ReflexRow)
ACTIONS = {row.action: row for row in ACTIONS_TABLE}
REFLEXES = {row.reflex: row for row in REFLEX_TABLE}


class ActionsCatalogInput(Model):
    category: ActionCategory | None = Field(default=None, description="Only this category's rows.")
    action: CombatAction | None = Field(default=None, description="Only this action's row.")
    from_stance: ActionStance | None = Field(
        default=None, description="With 'to_stance': the path."
    )
    to_stance: ActionStance | None = None


class StancePath(Model):
    from_stance: ActionStance
    to_stance: ActionStance
    actions: list[CombatAction] = Field(
        description="The fewest actions that make the change, in order."
    )
    reachable: bool


class ActionsCatalog(Model):
    actions: list[ActionRow]
    stance_transitions: list[StanceTransition]
    path: StancePath | None = Field(description="From 'from_stance' to 'to_stance', if asked.")


def stance_path(start: ActionStance, goal: ActionStance) -> StancePath:
    """The fewest actions from one stance to another over the table's changes (standing from
    prone is three rises, F:L3046); between equally short ways, the one the table lists first
    (Drop before Dive)."""
    queue: list[tuple[int, int, str, list[CombatAction]]] = [(0, 0, start.value, [])]
    done: set[str] = set()
    pushed = 0
    while queue:
        cost, _, here, steps = heapq.heappop(queue)
        if here == goal.value:
            return StancePath(from_stance=start, to_stance=goal, actions=steps, reachable=True)
        if here in done:
            continue
        done.add(here)
        for row in STANCE_TRANSITIONS:
            if row.from_stance.value == here and row.to_stance.value not in done:
                pushed += 1
                more = [*steps, *[row.action] * row.actions]
                heapq.heappush(queue, (cost + row.actions, pushed, row.to_stance.value, more))
    return StancePath(from_stance=start, to_stance=goal, actions=[], reachable=False)


@operation(
    name="actions/catalog",
    kind=Kind.LOOKUP,
    covers=("foresight.actions.catalog",),
    example={"category": "movement", "from_stance": "prone", "to_stance": "standing"},
)
def actions_catalog(request: ActionsCatalogInput) -> ActionsCatalog:
    """The Actions Table (F:L3020-3053): each action's category, what it does and whether it
    unbalances the actor, with the stance changes of Rise, Drop, Dive, Kneel, Squat and Roll
    (squatting to standing is one rise, prone or lying to squatting two, kneeling to standing
    two, F:L3046) and the fewest actions between two stances."""
    if (request.from_stance is None) != (request.to_stance is None):
        raise InputError(("to_stance",), "give both 'from_stance' and 'to_stance', or neither")
    rows = [
        row
        for row in ACTIONS_TABLE
        if request.category in (None, row.category) and request.action in (None, row.action)
    ]
    path = None
    if request.from_stance is not None and request.to_stance is not None:
        path = stance_path(request.from_stance, request.to_stance)
    return ActionsCatalog(actions=rows, stance_transitions=list(STANCE_TRANSITIONS), path=path)


class ReflexUse(Model):
    reflex: ReflexAction
    bonus_action: bool = Field(
        default=False,
        description="A bonus parry or dodge action used for it: no modifier (F:L3101, F:L3103).",
    )


class ReflexInput(Model):
    reflexes: Annotated[tuple[ReflexUse, ...], Field(max_length=MAX_REFLEXES)] = Field(
        default=(), description="The reflexes of one round, in the order they are made."
    )


class ReflexOutcome(Model):
    reflex: ReflexAction
    allowed: bool
    modifier: int = Field(description="-2 per earlier one of the same kind, parry or dodge.")
    reason: str
    unbalancing: bool


class ReflexCatalog(Model):
    reflexes: list[ReflexRow]
    uses: list[ReflexOutcome]


def _use(use: ReflexUse, before: dict[ReflexAction, int], starred: bool) -> ReflexOutcome:
    row = REFLEXES[use.reflex]
    if row.asterisked and starred:
        return ReflexOutcome(reflex=use.reflex, allowed=False, modifier=0, unbalancing=False,
                             reason="only one asterisked reflex a round (F:L3108)")  # fmt: skip
    if row.counter is None:
        return ReflexOutcome(reflex=use.reflex, allowed=True, modifier=0, unbalancing=True,
                             reason="no modifier")  # fmt: skip
    earlier = before.get(row.counter, 0)
    if use.bonus_action:
        why = f"a bonus {row.reflex.value} action: no modifier"
        return ReflexOutcome(reflex=use.reflex, allowed=True, modifier=0, unbalancing=True,
                             reason=f"{why} (F:L{row.line})")  # fmt: skip
    return ReflexOutcome(
        reflex=use.reflex,
        allowed=True,
        modifier=PER_EARLIER * earlier,
        unbalancing=True,
        reason=f"{earlier} earlier {row.reflex.value}(s) this round (F:L3112)",
    )


def judge(uses: tuple[ReflexUse, ...]) -> list[ReflexOutcome]:
    before: dict[ReflexAction, int] = {}
    starred = False
    found = []
    for index, use in enumerate(uses):
        if use.bonus_action and REFLEXES[use.reflex].counter is None:
            loc = ("reflexes", index, "bonus_action")
            raise InputError(loc, "only parries and dodges come as bonus actions")
        outcome = _use(use, before, starred)
        if outcome.allowed:
            starred = starred or REFLEXES[use.reflex].asterisked
            before[use.reflex] = before.get(use.reflex, 0) + 1
        found.append(outcome)
    return found


@operation(
    name="reflex/catalog",
    kind=Kind.CALCULATION,
    covers=("foresight.reflex.catalog",),
    example={"reflexes": [{"reflex": r} for r in ("parry", "dodge", "parry", "dodge")]},
)
def reflex_catalog(request: ReflexInput) -> ReflexCatalog:
    """The Reflex Actions (F:L3096-3108) and the reflexes of one round judged in order: parries
    and dodges take -2 per earlier one of their own kind, so parry, dodge, parry, dodge is 0,
    0, -2, -2 and parry, parry, parry, dodge is 0, -2, -4, 0 (F:L3112); a bonus parry or
    dodge action takes none; one asterisked reflex a round at most (F:L3108)."""
    return ReflexCatalog(reflexes=list(REFLEX_TABLE), uses=judge(request.reflexes))
