"""Actions (FI:L183-227): an action's speed is the cards it takes, the first ones spent
preparing as their steps come up and the last resolving it; simple actions cost no card,
complex ones one, extended ones as many as the Master assigns, prepared in a stack and, with
a reserve card, held armed for a trigger."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.future_imperfect.time.options import TimeOptions
from service.rules.future_imperfect.time.tables import ACTION_CLASSES
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["action_class", "action_speed", "extended_action"]

Speed = Annotated[int, Field(ge=1, le=20)]


class ActionSpeedInput(Model):
    speed: Speed = Field(description="Cards the action takes: normal actions 1 (FI:L185).")
    cards: Annotated[tuple[Annotated[int, Field(ge=1, le=14)], ...], Field(max_length=20)] = Field(
        description="The steps of the cards held for it."
    )
    prepared: Annotated[int, Field(ge=0, le=19)] = Field(
        default=0, description="Cards already spent preparing (the counter, a d6)."
    )
    rate_of_fire: Annotated[int, Field(ge=1, le=100)] | None = Field(
        default=None, description="A weapon's: at speed 1 it fires up to this a card."
    )
    options: TimeOptions = Field(default=TimeOptions())


class CardUse(StrEnum):
    PREPARE = "prepare"
    RESOLVE = "resolve"
    SPARE = "spare"


class Spent(Model):
    step: int
    use: CardUse = Field(description="Spent preparing, resolving the action, or left for another.")


class Paced(Model):
    plan: list[Spent] = Field(description="The cards as their steps are called, 14 down.")
    prepared: int = Field(description="Cards spent preparing after the plan, if unresolved.")
    resolved: bool
    shots_per_card: int | None = Field(description="Speed 1 with a weapon: its rate of fire.")
    may_reserve_several: bool = Field(
        description="Preparing it may hold more than one reserve card (FI:L207, A-37)."
    )


@operation(
    name="combat/action-speed",
    kind=Kind.CALCULATION,
    covers=("fi.combat.action_speed",),
    example={"speed": 2, "cards": [10, 6]},
)
def action_speed(request: ActionSpeedInput) -> Paced:
    """The action speed is the number of cards it takes to resolve an action. At speed 2 or
    more the hero spends cards as they come up to prepare, then resolves with the last; a
    speed-1 weapon fires up to its rate of fire a card. The cards held to prepare go back
    into the deck if it is shuffled, the count kept on a die (FI:L185-189). Chuk's MMG in its
    harness, speed 2, on steps 10 and 6: he raises it on 10 and fires on 6 (FI:L191)."""
    if request.prepared >= request.speed:
        raise InputError(("prepared",), f"an action of speed {request.speed} is prepared by "
                                        f"{request.speed - 1} cards")  # fmt: skip
    prepared, resolved, plan = request.prepared, False, []
    for step in sorted(request.cards, reverse=True):
        if resolved:
            plan.append(Spent(step=step, use=CardUse.SPARE))
        elif prepared < request.speed - 1:
            prepared += 1
            plan.append(Spent(step=step, use=CardUse.PREPARE))
        else:
            resolved = True
            plan.append(Spent(step=step, use=CardUse.RESOLVE))
    several = request.speed >= request.options.multi_reserve_min_speed
    return Paced(plan=plan, prepared=0 if resolved else prepared, resolved=resolved,
                 shots_per_card=request.rate_of_fire if request.speed == 1 else None,
                 may_reserve_several=several)  # fmt: skip


class ClassInput(Model):
    action: Annotated[str, Field(min_length=1, max_length=80)] = Field(
        description="One of the chapter's examples (FI:L199-201): 'reloading a weapon'."
    )


class Classed(Model):
    action: str
    action_class: str = Field(description="simple, complex or extended.")
    cards: int | None = Field(description="Action Cards it takes; null: the Master's speed.")
    with_complex: bool = Field(description="A simple action goes with any complex one.")
    note: str


@operation(
    name="combat/action-class",
    kind=Kind.LOOKUP,
    covers=("fi.combat.action_class",),
    example={"action": "making a stun check"},
)
def action_class(request: ClassInput) -> Classed:
    """A hero performs a simple action together with any complex action; a complex action
    takes an Action Card; an extended action several (FI:L195-201). "Making a stun check",
    listed complex, is read as the recovery check (A-38)."""
    wanted = request.action.strip().lower()
    for row in ACTION_CLASSES:
        if row.action == wanted:
            return Classed(action=row.action, action_class=row.action_class, cards=row.cards,
                           with_complex=row.action_class == "simple", note=row.note)  # fmt: skip
    names = ", ".join(row.action for row in ACTION_CLASSES)
    raise InputError(("action",), f"not an example of the chapter (FI:L199-201): {names}")


class ExtendedEvent(StrEnum):
    PREPARE = "prepare"
    TRIGGER = "trigger"
    OTHER_ACTION = "other_action"
    STEP_0 = "step_0"
    SHUFFLE = "shuffle"


class ExtendedInput(Model):
    speed: Annotated[int, Field(ge=2, le=20)] = Field(description="The Master's (FI:L221).")
    prepared: Annotated[int, Field(ge=0, le=19)] = Field(
        default=0, description="Cards in the preparation stack."
    )
    armed: bool = Field(default=False, description="The final card is held in reserve.")
    consecutive: bool = Field(
        default=False, description="The Master rules the preparation must be uninterrupted."
    )
    event: ExtendedEvent = Field(
        description="prepare: play the next card; trigger: the contingency occurs; "
        "other_action: another action card resolved; step_0: a step 0 drawn; shuffle: the "
        "deck is shuffled."
    )


class Extended(Model):
    prepared: int
    armed: bool
    resolves: bool = Field(description="The prepared action happens now.")
    not_ready: bool = Field(description="The trigger came first: not ready, could be disrupted.")
    lost: int = Field(description="Preparation cards lost.")
    reserve_lost: bool
    back_to_deck: int = Field(description="Preparation cards shuffled back, progress counted.")
    draws_next_round: bool = Field(description="Holding the armed card forgoes the draw.")


def _after(request: ExtendedInput) -> tuple[int, bool, bool, bool]:
    """(prepared, armed, resolves, not ready) after the event; losses are read from them."""
    prepared, armed = request.prepared, request.armed
    if prepared >= request.speed or (armed and prepared != request.speed - 1):
        message = (f"speed {request.speed}: up to {request.speed - 1} cards prepared, all "
                   "before the final card is armed")  # fmt: skip
        raise InputError(("prepared",), message)
    match request.event:
        case ExtendedEvent.PREPARE if armed:
            raise InputError(("event",), "fully prepared: the final card waits in reserve")
        case ExtendedEvent.PREPARE if prepared < request.speed - 1:
            return prepared + 1, False, False, False
        case ExtendedEvent.PREPARE:
            return prepared, True, False, False
        case ExtendedEvent.TRIGGER:
            return (0, False, True, False) if armed else (prepared, False, False, True)
        case ExtendedEvent.OTHER_ACTION:
            # Resolving another card flushes a reserve (FI:L213); consecutive work restarts.
            return (0 if request.consecutive else prepared), False, False, False
        case ExtendedEvent.STEP_0:
            # The reserve is the highest card; else a preparation card goes (FI:L233).
            return (prepared, False, False, False) if armed else (max(prepared - 1, 0), False,
                                                                  False, False)  # fmt: skip
    return prepared, armed, False, False


@operation(
    name="combat/extended-action",
    kind=Kind.CALCULATION,
    covers=("fi.combat.extended_action",),
    example={"speed": 6, "prepared": 5, "event": "prepare"},
)
def extended_action(request: ExtendedInput) -> Extended:
    """The Master assigns an extended action its speed, and says whether it is prepared
    consecutively or in chunks. Each card played goes to the preparation stack; once enough
    are, the final card waits in reserve for the declared contingency, and resolves when it
    comes; a trigger before then finds the action not ready. Preparing does not stop the draw
    each round; holding the armed card does (FI:L221-223). Frost needs 6 cards to set the
    charge; with 5 prepared her next card waits for Chuk to pass (FI:L225-227)."""
    prepared, armed, resolves, not_ready = _after(request)
    lost = 0 if resolves else request.prepared - prepared
    return Extended(prepared=prepared, armed=armed, resolves=resolves, not_ready=not_ready,
                    lost=lost, reserve_lost=request.armed and not armed and not resolves,
                    back_to_deck=prepared if request.event is ExtendedEvent.SHUFFLE else 0,
                    draws_next_round=not armed)  # fmt: skip
