"""The order of a round (F:L2964-2968, F:L3000): who declares their focus when, who acts when,
and who learns what.

Combatants declare the focus of their attention from the worst initiative QR to the best and
act from the best to the worst, ties broken by Initiative score (F:L2964, F:L3000). The book
does not say which way the score breaks a tie; the higher score acts first and so declares
last, seeing more before committing, and a tie on both QR and score is settled by the option
`initiative_full_tie` (AMB2-21): at random (the default: a fair shuffle, one die per place),
at the same time, or by the GM. Declaring is acting in reverse. A declaration reaches only
the combatants aware of the declarer: 'combatants will not know the initiative QR or focus
of combatants of whom they are unaware' (F:L2966-2968).
"""

from collections.abc import Sequence
from enum import StrEnum
from itertools import groupby
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.foresight.resolution.scores import MAX_SCORE
from service.rules.foresight.resolution.tables import QR
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation

__all__ = [
    "InitiativeFullTie",
    "OrderCombatant",
    "OrderInput",
    "OrderOptions",
    "OrderResult",
    "order",
]

MAX_COMBATANTS = 16
Id = Annotated[str, Field(min_length=1, max_length=32)]


class InitiativeFullTie(StrEnum):
    RANDOM = "random"
    SIMULTANEOUS = "simultaneous"
    GM = "gm"


class OrderOptions(Model):
    """How combatants equal in initiative QR and score are ordered (AMB2-21)."""

    initiative_full_tie: InitiativeFullTie = option(
        InitiativeFullTie.RANDOM,
        ambiguity="AMB2-21",
        description=(
            "Combatants with the same initiative QR and the same Initiative score, which the "
            "book leaves unresolved (F:L3000): ordered at random (one die per place, every "
            "order equally likely), acting (and declaring) at the same time, or left to the GM."
        ),
    )


class OrderCombatant(Model):
    id: Id = Field(description="A name the caller gives, unique in the request.")
    qr: QR = Field(description="This round's initiative QR.")
    score: Annotated[int, Field(ge=0, le=MAX_SCORE)] = Field(description="Initiative score.")
    aware_of: Annotated[tuple[Id, ...], Field(max_length=MAX_COMBATANTS)] | None = Field(
        default=None,
        description="The ids of the combatants this one is aware of; null: all the others.",
    )


class OrderInput(Model):
    combatants: Annotated[
        tuple[OrderCombatant, ...], Field(min_length=1, max_length=MAX_COMBATANTS)
    ]
    options: OrderOptions = Field(default=OrderOptions())


class OrderTurn(Model):
    """A place in the order: one combatant, or several tied ones acting at once or as the GM
    decides."""

    position: int = Field(description="1 is first.")
    ids: list[str]
    qr: QR
    score: int
    full_tie: InitiativeFullTie | None = Field(
        description="How a tie on QR and score was settled; null: no such tie."
    )


class OrderView(Model):
    id: str
    frozen: bool = Field(description="QR10: can do nothing but drop prone (F:L2962).")
    declares_at: int
    acts_at: int
    declaration_seen_by: list[str] = Field(
        description="Those aware of this combatant: they learn its QR and focus (F:L2964)."
    )
    sees_declarations_of: list[str] = Field(description="Those this combatant is aware of.")


class OrderResult(Model):
    declaring: list[OrderTurn] = Field(description="Worst QR first (F:L2964).")
    acting: list[OrderTurn] = Field(description="Best QR first (F:L3000).")
    acting_first: str = Field(description="Who acts first; tied ones acting at once: 'a & b'.")
    combatants: list[OrderView]


def _checked(request: OrderInput) -> dict[str, OrderCombatant]:
    found: dict[str, OrderCombatant] = {}
    for index, combatant in enumerate(request.combatants):
        if combatant.id in found:
            raise InputError(("combatants", index, "id"), f"'{combatant.id}' appears twice")
        found[combatant.id] = combatant
    for index, combatant in enumerate(request.combatants):
        for place, other in enumerate(combatant.aware_of or ()):
            if other not in found or other == combatant.id:
                loc = ("combatants", index, "aware_of", place)
                raise InputError(loc, f"'{other}' is not another combatant of the request")
    return found


def _groups(request: OrderInput) -> list[list[OrderCombatant]]:
    """Best QR first, then the higher score; each group ties on both."""

    def rank(combatant: OrderCombatant) -> tuple[int, int]:
        return (combatant.qr.value, -combatant.score)

    ranked = sorted(request.combatants, key=rank)
    return [list(group) for _, group in groupby(ranked, key=rank)]


def _shuffled(group: list[OrderCombatant], dice: Dice) -> list[OrderCombatant]:
    """A fair shuffle: a die as large as the number still unplaced picks the next to act."""
    left, placed = list(group), []
    names = " & ".join(c.id for c in group)
    while len(left) > 1:
        placed.append(left.pop(dice.roll(len(left), f"tie-break ({names})") - 1))
    return placed + left


def _slots(
    request: OrderInput, dice: Dice | None
) -> list[tuple[list[OrderCombatant], InitiativeFullTie | None]]:
    tie = request.options.initiative_full_tie
    slots: list[tuple[list[OrderCombatant], InitiativeFullTie | None]] = []
    for group in _groups(request):
        if len(group) == 1:
            slots.append((group, None))
        elif tie is InitiativeFullTie.RANDOM:
            shuffled = group if dice is None else _shuffled(group, dice)
            slots.extend(([one], tie) for one in shuffled)
        else:
            slots.append((group, tie))
    return slots


def _turns(
    slots: Sequence[tuple[list[OrderCombatant], InitiativeFullTie | None]],
) -> list[OrderTurn]:
    return [
        OrderTurn(
            position=place,
            ids=[c.id for c in group],
            qr=group[0].qr,
            score=group[0].score,
            full_tie=tie,
        )
        for place, (group, tie) in enumerate(slots, start=1)
    ]


def _aware(combatant: OrderCombatant, everyone: dict[str, OrderCombatant]) -> list[str]:
    if combatant.aware_of is None:
        return [other for other in everyone if other != combatant.id]
    return [other for other in everyone if other in combatant.aware_of]


class OrderPositionOdds(Model):
    id: str
    acting_position: list[OutcomeProbability]


class OrderOdds(Model):
    acting_first: list[OutcomeProbability] = Field(
        description="Who acts first: a shuffled tie makes each of its combatants equally likely."
    )
    positions: list[OrderPositionOdds] = Field(
        description="Each combatant's place in the acting order; uniform over its tie's places."
    )


def order_odds(request: OrderInput) -> OrderOdds:
    _checked(request)
    shuffled = request.options.initiative_full_tie is InitiativeFullTie.RANDOM
    groups = _groups(request)
    place: dict[str, Distribution[int]] = {}
    start = 1
    for group in groups:
        width = len(group) if shuffled else 1
        for combatant in group:
            place[combatant.id] = Distribution((start + k, 1) for k in range(width))
        start += width
    if shuffled:
        first = Distribution((c.id, 1) for c in groups[0])
    else:
        first = Distribution({" & ".join(c.id for c in groups[0]): 1})
    return OrderOdds(
        acting_first=outcome_table(first),
        positions=[
            OrderPositionOdds(id=c.id, acting_position=outcome_table(place[c.id]))
            for c in request.combatants
        ],
    )


def order_cost(request: OrderInput) -> Estimate:
    """n combatants: each one's place, uniform over at most n places (n x n), and who of at
    most n acts first: n x n + n."""
    n = len(request.combatants)
    return Estimate(n * n + n, ("/combatants",))


@operation(
    name="initiative/order",
    kind=Kind.GENERATION,
    covers=("foresight.initiative.order",),
    odds=order_odds,
    cost=order_cost,
    example={
        "combatants": [
            {"id": "sniper", "qr": 3, "score": 14},
            {"id": "gunman", "qr": 3, "score": 11, "aware_of": ["amy"]},
            {"id": "amy", "qr": 4, "score": 11},
            {"id": "officer", "qr": 4, "score": 11},
        ],
        "dice": {"values": [2]},
    },
    rolled={"/acting_first": Reading(read=lambda result: result.acting_first)},
)
def order(request: OrderInput, dice: Dice) -> OrderResult:
    """The order of a round: focus declared from the worst initiative QR to the best, turns
    taken from the best to the worst (F:L2964, F:L3000); on equal QRs the higher Initiative
    score acts first and declares last; a tie on both is shuffled at random by default
    (AMB2-21). A declaration is heard only by those aware of the declarer (F:L2964-2968): the
    hidden sniper's QR and focus stay unknown to the gunman who has not seen him."""
    everyone = _checked(request)
    acting = _turns(_slots(request, dice))
    declaring = [
        turn.model_copy(update={"position": place})
        for place, turn in enumerate(reversed(acting), start=1)
    ]
    acts_at = {i: turn.position for turn in acting for i in turn.ids}
    declares_at = {i: turn.position for turn in declaring for i in turn.ids}
    known = [
        OrderView(
            id=c.id,
            frozen=c.qr is QR.QR10,
            declares_at=declares_at[c.id],
            acts_at=acts_at[c.id],
            declaration_seen_by=[o for o in everyone if c.id in _aware(everyone[o], everyone)],
            sees_declarations_of=_aware(c, everyone),
        )
        for c in request.combatants
    ]
    first = " & ".join(acting[0].ids)
    return OrderResult(declaring=declaring, acting=acting, acting_first=first, combatants=known)
