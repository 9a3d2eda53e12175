"""Action Card hand management (FI:L147, FI:L231-235): the initiative Reflex check draws the
cards, the special cards discard or add, and the hero keeps two. A Reflex check against Easy
(3) draws 1 card, and 1 more for the success and each bump; a critical failure draws none
(a reserve card may still be used); the wound penalty comes off the Reflex total. The step 0
is discarded with the highest other card (a reserve card counts as the highest) and, while
an extended action is prepared, a preparation card unless the reserve went; the black joker,
step 14, is kept beside two others. After either joker the deck is shuffled at the end of
the round.

The service is stateless: the hand kept, the reserve card, the preparation stack and the
cards out of the deck come back in the result for the caller to carry to the next request.
"""

from math import comb
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    CHECK,
    DEPTH,
    Checked,
    CheckInput,
    Modifier,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.future_imperfect.time.cards import (
    BLACK_JOKER,
    FEATURES,
    HANDS,
    RED_JOKER,
    ActionCard,
    Features,
    Impulse,
    Out,
    acting_order,
    card,
    distinct,
    draw,
    hand_of,
    hands,
    left,
    mean_of,
    special,
)
from service.rules.future_imperfect.time.options import JokerCollision, TimeOptions
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["Managed", "cards_for", "initiative", "manage", "special_cards"]

#: Cards kept beside the black joker (FI:L147).
KEPT = 2
Preparation = Annotated[int, Field(ge=0, le=20)]


class Managed(Model):
    kept: list[ActionCard] = Field(description="The hand, in acting order.")
    discarded: list[ActionCard]
    reserve: ActionCard | None = Field(description="The reserve card after the draw.")
    reserve_lost: bool = Field(description="A step 0 took the reserve card, the highest.")
    preparation: int = Field(description="Cards in the extended action's preparation stack.")
    preparation_lost: bool
    extra_action: bool = Field(
        description="The black joker is kept: a third action, taken at any time, first, "
        "interrupting without a Reflex contest (FI:L231)."
    )
    step_0_drawn: bool
    step_14_drawn: bool
    reshuffle_after_round: bool = Field(description="A special card was drawn (FI:L235).")


def _zero(
    hand: list[ActionCard], reserve: ActionCard | None, preparation: int, options: TimeOptions
) -> tuple[list[ActionCard], ActionCard | None, int]:
    """The step 0 and the card it takes: the reserve, else the highest other (the black
    joker too, unless A-32 protects it); and a preparation card unless the reserve went."""
    gone = [c for c in hand if c.step == RED_JOKER]
    if reserve is not None:
        return gone, None, preparation
    others = [c for c in hand if c.step != RED_JOKER]
    if options.joker_collision is JokerCollision.PROTECT_14:
        others = [c for c in others if not special(c)]
    return gone + others[:1], None, max(preparation - 1, 0)


def manage(
    drawn: list[ActionCard],
    reserve: ActionCard | None,
    preparation: int,
    keep: tuple[int, ...] | None,
    options: TimeOptions,
) -> Managed:
    """Hand management after a draw (FI:L147, FI:L231-235); `keep` the impulses chosen, by
    default the two ordinary cards that act first."""
    hand = acting_order(drawn, options)
    zero = any(c.step == RED_JOKER for c in hand)
    gone: list[ActionCard] = []
    after, left_preparation = reserve, preparation
    if zero:
        gone, after, left_preparation = _zero(hand, reserve, preparation, options)
    rest = [c for c in hand if c not in gone]
    ordinary = [c for c in rest if not special(c)]
    chosen = ordinary[:KEPT] if keep is None else _chosen(ordinary, keep)
    kept = [c for c in rest if c.step == BLACK_JOKER or c in chosen]
    steps = {c.step for c in hand}
    return Managed(kept=kept, discarded=gone + [c for c in rest if c not in kept],
                   reserve=after, reserve_lost=reserve is not None and after is None,
                   preparation=left_preparation,
                   preparation_lost=left_preparation < preparation,
                   extra_action=any(c.step == BLACK_JOKER for c in kept),
                   step_0_drawn=zero, step_14_drawn=BLACK_JOKER in steps,
                   reshuffle_after_round=bool(steps & {RED_JOKER, BLACK_JOKER}))  # fmt: skip


def _chosen(ordinary: list[ActionCard], keep: tuple[int, ...]) -> list[ActionCard]:
    """The caller's two: ordinary cards of the hand left, as many as there are up to two."""
    distinct(keep, ("keep",))
    offered = {c.impulse: c for c in ordinary}
    for index, impulse in enumerate(keep):
        if impulse not in offered:
            raise InputError(("keep", index), f"impulse {impulse} is no ordinary card left "
                                              "in the hand to keep")  # fmt: skip
    if len(keep) != min(KEPT, len(ordinary)):
        raise InputError(("keep",), f"choose {min(KEPT, len(ordinary))} of the ordinary "
                                    "cards left (FI:L147)")  # fmt: skip
    return [offered[i] for i in keep]


def _reserve(reserve: int | None, loc: tuple[str, ...]) -> ActionCard | None:
    if reserve is None:
        return None
    found = card(reserve)
    if special(found):
        raise InputError(loc, "special cards can never be reserved (FI:L231)")
    return found


class HandInput(Model):
    drawn: Annotated[tuple[Impulse, ...], Field(min_length=1, max_length=54)] = Field(
        description="The cards drawn, by impulse."
    )
    reserve: Impulse | None = Field(default=None, description="The reserve card held.")
    preparation: Preparation = Field(
        default=0, description="Cards in the preparation stack of an extended action."
    )
    keep: Annotated[tuple[Impulse, ...], Field(max_length=KEPT)] | None = Field(
        default=None, description="The two ordinary cards chosen; by default those acting first."
    )
    options: TimeOptions = Field(default=TimeOptions())


@operation(
    name="combat/special-cards",
    kind=Kind.CALCULATION,
    covers=("fi.combat.special_cards",),
    example={"drawn": [0, 37, 22, 53], "preparation": 2},
)
def special_cards(request: HandInput) -> Managed:
    """The step 0 is bad news: it is no action, and the highest other card goes with it, a
    reserve card counting as the highest; while preparing an extended action a preparation
    card goes too, unless the reserve did (FI:L233). The step 14 is kept beside two other
    cards, an extra action taken at any time, first, interrupting without a Reflex contest
    (FI:L147, FI:L231). Special cards can never be reserved; either one shuffles the deck
    after the round (FI:L235). The hero keeps two of the other cards (FI:L147)."""
    distinct(request.drawn, ("drawn",))
    reserve = _reserve(request.reserve, ("reserve",))
    if request.reserve in request.drawn:
        raise InputError(("reserve",), "the reserve card is not among the cards just drawn")
    return manage([card(i) for i in request.drawn], reserve, request.preparation, request.keep,
                  request.options)  # fmt: skip


class InitiativeInput(Model):
    pool: PoolText = Field(description="The Reflex pool.")
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=7)
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = Field(
        default=0, description="Subtracted from the Reflex total (FI:L147)."
    )
    aim_penalty: Annotated[int, Field(ge=-10, le=0)] = Field(
        default=0,
        description="The readied weapon's unaimed penalty, its Aim y, also the initiative "
        "penalty (FI:L329, A-47).",
    )
    surprised: bool = Field(default=False, description="No cards this round (FI:L165).")
    forgo_draw: bool = Field(
        default=False, description="Hold the reserve card instead of drawing (FI:L215)."
    )
    reserve: Impulse | None = Field(default=None, description="The reserve card held.")
    preparation: Preparation = Field(
        default=0, description="Cards in the preparation stack of an extended action."
    )
    out: Out = ()
    options: TimeOptions = Field(default=TimeOptions())


class Initiative(Managed):
    check: Checked | None = Field(description="The Reflex check; null when none is made.")
    cards_drawn: int = Field(description="0 on a critical failure, else 1, 1 for the success "
                                         "and 1 a bump, at most the cards left.")  # fmt: skip
    drawn: list[ActionCard] = Field(description="As drawn: another choice of the two kept "
                                                "is combat/special-cards'.")  # fmt: skip
    out: list[int] = Field(description="The impulses out of the deck now: carry them forward.")


def _check(request: InitiativeInput) -> CheckInput:
    """The Reflex check against Easy (3), less the wound penalty and, unless A-47 says not,
    the readied weapon's initiative penalty."""
    aim = request.aim_penalty if request.options.aim_initiative_penalty else 0
    return CheckInput(pool=request.pool, tn=request.options.initiative_tn,
                      modifiers=(*request.modifiers, aim), wound_penalty=request.wound_penalty,
                      options=request.options)  # fmt: skip


def cards_for(cf: bool, en: int, tn: int, step: int) -> int:
    """1 card, 1 for the success and 1 for each bump; none on a critical failure (FI:L147)."""
    if cf:
        return 0
    return 1 if en < tn else 2 + (en - tn) // step


def _deck(request: InitiativeInput) -> tuple[ActionCard | None, list[int]]:
    distinct(request.out, ("out",))
    reserve = _reserve(request.reserve, ("reserve",))
    if request.forgo_draw and reserve is None:
        raise InputError(("forgo_draw",), "only a hero holding a reserve card may forgo the "
                                          "draw (FI:L215)")  # fmt: skip
    gone = {*request.out, *(() if request.reserve is None else (request.reserve,))}
    return reserve, left(gone)


def _draws(request: InitiativeInput) -> bool:
    return not (request.surprised or request.forgo_draw)


class InitiativeOdds(Model):
    cards_drawn: list[OutcomeProbability] = Field(description="Catalogue T4, T4b.")
    mean_cards: Exact
    step_0_drawn: list[OutcomeProbability]
    step_14_drawn: list[OutcomeProbability]
    special_drawn: Exact = Field(description="P(step 0 or 14 in the cards drawn).")
    best_step_kept: list[OutcomeProbability] = Field(
        description="The step the hand kept acts first at (14 for the black joker); 'none' "
        "without a card kept. A reserve card held is not counted."
    )
    mean_best_step_kept: Exact | None = Field(description="Its mean, given a card is kept.")
    truncation: Truncation | None


def _counts(request: InitiativeInput, cards_left: int) -> Distribution[int]:
    if not _draws(request):
        return Distribution({0: 1})
    tn, step = request.options.initiative_tn, request.options.bump_step
    return results(_check(request)).map(lambda r: min(cards_for(r[0], r[1], tn, step), cards_left))


Outcome = tuple[int, bool, bool, int | None]


def initiative_odds(request: InitiativeInput) -> InitiativeOdds:
    """The cards drawn (catalogue T4, T4b), then the hand they make, exactly: each count of
    cards is a hypergeometric draw from the cards left (every hand of that size once, T5),
    managed as the hero would, keeping the two that act first."""
    reserve, deck = _deck(request)
    counts = _counts(request, len(deck))
    by_size = hands(deck)
    seen: dict[Features, int | None] = {}

    def best(features: Features) -> int | None:
        if features not in seen:
            kept = manage(hand_of(features), reserve, request.preparation, None,
                          request.options).kept  # fmt: skip
            seen[features] = max((c.step for c in kept), default=None)
        return seen[features]

    def hand(n: int) -> Distribution[Outcome]:
        sized = Distribution(by_size[n], total=comb(len(deck), n))
        return sized.map(lambda f: (n, f[0], f[1], best(f)))

    found = counts.then(hand)
    bests = found.map(lambda o: o[3])
    return InitiativeOdds(
        cards_drawn=outcome_table(found.map(lambda o: o[0])),
        mean_cards=exact(counts.mean()),
        step_0_drawn=outcome_table(found.map(lambda o: o[1]), [True, False]),
        step_14_drawn=outcome_table(found.map(lambda o: o[2]), [True, False]),
        special_drawn=exact(found.probability_where(lambda o: o[1] or o[2])),
        best_step_kept=outcome_table(
            bests.map(lambda s: "none" if s is None else s), ["none", *range(1, 15)]
        ),
        mean_best_step_kept=mean_of(bests),
        truncation=truncation(found, DEPTH),
    )


def initiative_cost(request: InitiativeInput) -> Estimate:
    """The Reflex check (`core/check`), every hand of every size of the cards left by what
    it shows (`cards.HANDS`), each of the 55 card counts followed by the hands of its size
    (`cards.FEATURES`), and the outcomes read eight ways."""
    return Estimate(CHECK.states + HANDS + 55 * 3 * FEATURES + 8 * 55 * 2 * 2 * 15, ())


@operation(
    name="combat/initiative",
    kind=Kind.CHECK,
    covers=("fi.combat.initiative",),
    odds=initiative_odds,
    cost=initiative_cost,
    example={"pool": "IV-3", "dice": {"values": [3, 4, 4, 30, 12]}},
)
def initiative(request: InitiativeInput, dice: Dice) -> Initiative:
    """Once the Master declares combat time, make a Reflex check against Easy (3) and draw 1
    card, and 1 more for every success and bump; none on a critical failure; an injured hero
    subtracts the penalty from his Reflex total. Keep two cards, and the black joker besides;
    a step 0 goes with the highest other card (FI:L147). Kayla's 3, 4 and 4 draw 2 cards
    (FI:L177); Chuk's 8 draws 3 (FI:L191). A surprised hero draws none (FI:L165); one holding
    a reserve card may forgo the draw to keep it (FI:L215)."""
    reserve, deck = _deck(request)
    checked, count, drawn = None, 0, []
    if _draws(request):
        checked = roll_check(_check(request), dice)
        count = min(cards_for(checked.critical_failure, checked.en, request.options.initiative_tn,
                              request.options.bump_step), len(deck))  # fmt: skip
        drawn = draw(deck, count, dice)
    managed = manage(drawn, reserve, request.preparation, None, request.options)
    return Initiative(**dict(managed), check=checked, cards_drawn=count, drawn=drawn,
                      out=[*request.out, *(c.impulse for c in drawn)])  # fmt: skip
