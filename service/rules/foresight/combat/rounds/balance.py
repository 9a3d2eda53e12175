"""Balance (F:L3332-3336): 'a character who has just moved, turned, changed stance, dodged a
blow, or performed some other feat of agility, will not be well balanced to aim and fire a
weapon (and will not have a longarm shouldered)'.

The Actions Table marks Attack, Feint, Dash, Evade, Move, Rise and Turn as unbalancing; the
rule's 'changed stance' adds Dive, Drop, Kneel, Squat and Roll (catalogue #54); Pivot and
Step are the ones made 'without becoming unbalanced' (F:L3044, F:L3050). Every reflex
unbalances (F:L3101-3108). Recover restores balance and may shoulder a longarm (F:L3045); a
shouldered longarm stays so until the character is unbalanced (F:L3033). An unbalanced firer
takes -2 with ranged weapons (F:L3268); a prepared bow or thrown weapon loses its preparation
(F:L3658); melee is unaffected (F:L3336).
"""

from typing import Annotated

from pydantic import Field

from service.rules.foresight.combat.rounds.catalog import (
    ACTIONS,
    REFLEXES,
    CombatAction,
    ReflexAction,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["BalanceInput", "BalanceState", "balance"]

MAX_LOG = 64
#: 'Firer is unbalanced' (F:L3268).
UNBALANCED_RANGED = -2


class BalanceEntry(Model):
    """One action or reflex, in the order made."""

    action: CombatAction | None = None
    reflex: ReflexAction | None = None
    shoulder: bool = Field(
        default=True, description="On Recover: shoulder the longarm, if holding one (F:L3045)."
    )


class BalanceStart(Model):
    balanced: bool = True
    longarm: bool = Field(default=False, description="Holding a longarm (a rifle, a shotgun).")
    shouldered: bool = Field(default=False, description="The longarm is shouldered.")
    prepared: bool = Field(
        default=False,
        description="A bow or thrown weapon with its prepare action done ('[1]' ROF, F:L3658).",
    )


class BalanceInput(Model):
    log: Annotated[tuple[BalanceEntry, ...], Field(max_length=MAX_LOG)] = Field(
        description="Actions and reflexes in the order made."
    )
    start: BalanceStart = Field(default=BalanceStart())


class BalanceState(Model):
    entry: str = Field(description="The action or reflex ('reflex dodge'); 'start' first.")
    balanced: bool
    shouldered: bool
    prepared: bool
    changed: list[str] = Field(description="What the entry did to the state.")


class BalanceResult(Model):
    steps: list[BalanceState]
    balanced: bool
    shouldered: bool
    prepared: bool
    ranged_modifier: int = Field(description="-2 while unbalanced (F:L3268).")
    melee_modifier: int = Field(description="Always 0: balance does not affect melee (F:L3336).")


def _name(entry: BalanceEntry, index: int) -> str:
    if (entry.action is None) == (entry.reflex is None):
        raise InputError(("log", index), "give either 'action' or 'reflex'")
    return entry.action.value if entry.action is not None else f"reflex {entry.reflex}"


def _unbalances(entry: BalanceEntry) -> bool:
    if entry.action is not None:
        return ACTIONS[entry.action].unbalancing
    assert entry.reflex is not None
    return REFLEXES[entry.reflex].unbalancing


def _step(state: BalanceState, entry: BalanceEntry, index: int, longarm: bool) -> BalanceState:
    name = _name(entry, index)
    balanced, shouldered, prepared = state.balanced, state.shouldered, state.prepared
    changed = []
    if entry.action is CombatAction.SHOULDER:
        if not longarm:
            raise InputError(("log", index, "action"), "only a longarm is shouldered (F:L3033)")
        if not balanced:
            # An unbalanced character 'will not have a longarm shouldered' (F:L3334): Recover
            # restores balance and shoulders it in one action (F:L3045).
            raise InputError(("log", index, "action"), "an unbalanced character cannot "
                             "shoulder a longarm (F:L3334): Recover first (F:L3045)")  # fmt: skip
        shouldered = True
        changed.append("longarm shouldered (F:L3033)")
    if entry.action is CombatAction.RECOVER:
        balanced = True
        changed.append("balance recovered (F:L3045)")
        if longarm and entry.shoulder and not shouldered:
            shouldered = True
            changed.append("longarm shouldered as part of recovering (F:L3045)")
    if _unbalances(entry):
        balanced = False
        changed.append("unbalanced")
        if shouldered:
            shouldered = False
            changed.append("longarm no longer shouldered (F:L3033)")
        if prepared:
            prepared = False
            changed.append("bow or thrown weapon loses its preparation (F:L3658)")
    return BalanceState(entry=name, balanced=balanced, shouldered=shouldered,
                        prepared=prepared, changed=changed)  # fmt: skip


@operation(
    name="balance",
    kind=Kind.CALCULATION,
    covers=("foresight.balance",),
    example={
        "start": {"longarm": True, "shouldered": True},
        "log": [{"action": "move"}, {"reflex": "dodge"}, {"action": "recover"}, {"action": "aim"}],
    },
)
def balance(request: BalanceInput) -> BalanceResult:
    """Balance through a round's actions and reflexes: moving, turning, changing stance,
    attacking, feinting and every reflex unbalance the character (Pivot and Step do not);
    Recover restores balance and may shoulder a longarm, which stays shouldered until the
    next unbalancing (F:L3033, F:L3045, F:L3334). Unbalanced: -2 to ranged attacks (F:L3268)
    and a prepared bow or thrown weapon is unprepared (F:L3658); melee is unaffected
    (F:L3336)."""
    start = request.start
    if start.shouldered and not start.longarm:
        raise InputError(("start", "shouldered"), "only a longarm is shouldered (F:L3033)")
    if start.shouldered and not start.balanced:
        raise InputError(("start", "shouldered"), "an unbalanced character has no longarm "
                         "shouldered (F:L3334)")  # fmt: skip
    state = BalanceState(entry="start", balanced=start.balanced, shouldered=start.shouldered,
                         prepared=start.prepared, changed=[])  # fmt: skip
    steps = [state]
    for index, entry in enumerate(request.log):
        state = _step(state, entry, index, start.longarm)
        steps.append(state)
    return BalanceResult(
        steps=steps,
        balanced=state.balanced,
        shouldered=state.shouldered,
        prepared=state.prepared,
        ranged_modifier=0 if state.balanced else UNBALANCED_RANGED,
        melee_modifier=0,
    )
