"""The Action Deck's cards as combat time reads them (catalogue 1.6, 3.4.2): 54 cards
("54 impulses", FI:L159), step 0 and step 14 once (the jokers), steps 1-13 four times
(FI:L151), each step split into 4 fragments (FI:L153) and each card a unique impulse 0-53
(FI:L155). Impulse 0 is step 0, impulse 53 step 14, and impulse 4(step - 1) + fragment the
rest, which puts impulse 14 "during the 4th step" (FI:L157) as step 4, fragment 2. The
jokers' fragments are 0 and 5 ([EXT] the suits, jokers 0 and 5).

The deck is shared and stateless here: the caller carries the impulses out of the deck
(drawn since the last shuffle) and the service draws the rest without replacement. Its odds
are exact over the cards left: `hands` counts every hand of n cards by what hand management
reads of it."""

from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import comb
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate, counted
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.future_imperfect.core.deck import CARDS
from service.rules.future_imperfect.time.options import (
    FragmentOrder,
    ImpulseDirection,
    TimeOptions,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "BLACK_JOKER",
    "CARDS",
    "FEATURES",
    "HANDS",
    "RED_JOKER",
    "ActionCard",
    "Features",
    "Impulse",
    "Out",
    "Step",
    "acting_order",
    "card",
    "deck",
    "distinct",
    "draw",
    "hand_of",
    "hands",
    "impulse",
    "impulse_of",
    "left",
    "mean_of",
    "rank",
    "special",
]

Impulse = Annotated[int, Field(ge=0, le=CARDS - 1)]
Step = Annotated[int, Field(ge=0, le=14)]
Out = Annotated[
    tuple[Impulse, ...],
    Field(max_length=CARDS, description="Impulses out of the deck: drawn since the last shuffle."),
]
#: The two special cards (FI:L151, FI:L231).
RED_JOKER, BLACK_JOKER = 0, 14
#: The fragment each joker shows ([EXT]: 0 and 5, catalogue 1.6).
JOKER_FRAGMENT = {RED_JOKER: 0, BLACK_JOKER: 5}


class ActionCard(Model):
    impulse: int = Field(description="Upper left corner, 0-53 (FI:L155).")
    step: int = Field(description="Upper right, 1-13; the jokers 0 and 14 (FI:L151).")
    fragment: int = Field(description="Lower left, 1-4; the jokers 0 and 5 (FI:L153).")


def card(impulse: int) -> ActionCard:
    """The card of an impulse (catalogue 1.6)."""
    if impulse == 0:
        return ActionCard(impulse=0, step=RED_JOKER, fragment=0)
    if impulse == CARDS - 1:
        return ActionCard(impulse=impulse, step=BLACK_JOKER, fragment=5)
    return ActionCard(impulse=impulse, step=(impulse - 1) // 4 + 1, fragment=(impulse - 1) % 4 + 1)


def impulse_of(step: int, fragment: int) -> int | None:
    """The impulse of a step and fragment, None if no card shows them."""
    if step in (RED_JOKER, BLACK_JOKER):
        return {(0, 0): 0, (14, 5): CARDS - 1}.get((step, fragment))
    return 4 * (step - 1) + fragment if 1 <= fragment <= 4 else None


def special(found: ActionCard) -> bool:
    return found.step in (RED_JOKER, BLACK_JOKER)


def distinct(impulses: Sequence[int], loc: tuple[str | int, ...]) -> None:
    """Every card is unique (FI:L171): an impulse given twice is refused."""
    for index, impulse in enumerate(impulses):
        if impulse in impulses[:index]:
            raise InputError((*loc, index), f"impulse {impulse} is given twice: each card is "
                                            "unique (FI:L171)")  # fmt: skip


def left(out: Iterable[int]) -> list[int]:
    """The impulses still in the deck."""
    gone = set(out)
    return [i for i in range(CARDS) if i not in gone]


def draw(deck: list[int], count: int, dice: Dice) -> list[ActionCard]:
    """Draw `count` cards without replacement: a die of as many sides as cards left picks the
    next, counting the cards left in impulse order."""
    deck = list(deck)
    return [card(deck.pop(dice.roll(len(deck), "Action Card") - 1)) for _ in range(count)]


def rank(found: ActionCard, options: TimeOptions) -> tuple[int, int]:
    """Who acts first: the higher step, then the fragment as the option says (A-33)."""
    high = options.fragment_order is FragmentOrder.HIGH_FIRST
    return found.step, found.fragment if high else -found.fragment


def acting_order(cards: Iterable[ActionCard], options: TimeOptions) -> list[ActionCard]:
    return sorted(cards, key=lambda c: rank(c, options), reverse=True)


#: What hand management reads of a hand: the red joker, the black joker, the two highest
#: ordinary steps (highest first) and whether there are more ordinary cards than those.
Features = tuple[bool, bool, tuple[int, ...], bool]


def hands(deck: Sequence[int]) -> dict[int, dict[Features, int]]:
    """For every hand size n, how many n-card hands of `deck` have each `Features`: steps
    are taken from 14 down, so the first ordinary steps taken are the highest."""
    by_step = [sum(1 for i in deck if card(i).step == s) for s in range(15)]
    states: dict[tuple[int, Features], int] = {(0, (False, False, (), False)): 1}
    for step in range(14, -1, -1):
        following: dict[tuple[int, Features], int] = {}
        for (n, (zero, joker, tops, more)), ways in states.items():
            for taken in range(by_step[step] + 1):
                if step == RED_JOKER:
                    feature = (zero or taken > 0, joker, tops, more)
                elif step == BLACK_JOKER:
                    feature = (zero, joker or taken > 0, tops, more)
                else:
                    both = tops + (step,) * taken
                    feature = (zero, joker, both[:2], more or len(both) > 2)
                key = (n + taken, feature)
                following[key] = following.get(key, 0) + ways * comb(by_step[step], taken)
        counted(len(following))
        states = following
    found: dict[int, dict[Features, int]] = {}
    for (n, feature), ways in states.items():
        found.setdefault(n, {})[feature] = ways
    return found


def hand_of(features: Features) -> list[ActionCard]:
    """A hand with these features: the ordinary cards given the highest fragments free (a
    third card at the second's step stands for every lower one)."""
    zero, joker, tops, more = features
    steps = [*tops, *(tops[-1:] if more else ())]
    found = [card(0)] * zero + [card(CARDS - 1)] * joker
    for index, step in enumerate(steps):
        found.append(card(4 * (step - 1) + 4 - steps[:index].count(step)))
    return found


#: The states `hands` makes from a full deck, 21,872 (fewer cards reach fewer), rounded up.
HANDS = 22_000
#: The most features the hands of one size show (364 from a full deck), rounded up.
FEATURES = 400


class DeckInput(Model):
    count: Annotated[int, Field(ge=1, le=CARDS)] = Field(description="Cards to draw.")
    out: Out = ()


class DeckDraw(Model):
    cards: list[ActionCard]
    out: list[int] = Field(description="The impulses out of the deck now: carry them forward.")
    step_0_drawn: bool
    step_14_drawn: bool
    reshuffle_after_round: bool = Field(
        description="A special card has been drawn: shuffle after the round (FI:L147, FI:L235)."
    )


def _left(request: DeckInput) -> list[int]:
    distinct(request.out, ("out",))
    deck = left(request.out)
    if request.count > len(deck):
        raise InputError(("count",), f"{len(deck)} cards are left in the deck")
    return deck


class DeckOdds(Model):
    step_0_drawn: list[OutcomeProbability]
    step_14_drawn: list[OutcomeProbability]
    both_drawn: Exact
    neither_drawn: Exact
    highest_ordinary_step: list[OutcomeProbability] = Field(
        description="The highest step 1-13 drawn, the jokers aside; 'none' without one."
    )
    mean_highest_ordinary_step: Exact | None = Field(
        description="Its mean, given one is drawn (catalogue T5); null if none can be."
    )


def mean_of(found: Distribution[int | None]) -> Exact | None:
    present = Fraction(sum(w for v, w in found.items() if v is not None), found.total)
    if not present:
        return None
    total = Fraction(sum(v * w for v, w in found.items() if v is not None), found.total)
    return exact(total / present)


def deck_odds(request: DeckInput) -> DeckOdds:
    """What `count` cards from the cards left show, exactly: hypergeometric, every hand of
    that size counted once (catalogue T5)."""
    deck = _left(request)
    found = Distribution(hands(deck)[request.count], total=comb(len(deck), request.count))
    highest = found.map(lambda f: f[2][0] if f[2] else None)
    return DeckOdds(
        step_0_drawn=outcome_table(found.map(lambda f: f[0]), [True, False]),
        step_14_drawn=outcome_table(found.map(lambda f: f[1]), [True, False]),
        both_drawn=exact(found.probability_where(lambda f: f[0] and f[1])),
        neither_drawn=exact(found.probability_where(lambda f: not (f[0] or f[1]))),
        highest_ordinary_step=outcome_table(
            highest.map(lambda s: "none" if s is None else s), ["none", *range(1, 14)]
        ),
        mean_highest_ordinary_step=mean_of(highest),
    )


def deck_cost(request: DeckInput) -> Estimate:
    """Every hand of every size of the cards left, by what it shows (`HANDS`), and the
    hands of the size drawn, read five ways."""
    return Estimate(HANDS + 6 * FEATURES, ())


@operation(
    name="combat/deck",
    kind=Kind.GENERATION,
    covers=("fi.combat.deck",),
    odds=deck_odds,
    cost=deck_cost,
    example={"count": 3, "out": [53, 12], "dice": {"values": [1, 17, 40]}},
)
def deck(request: DeckInput, dice: Dice) -> DeckDraw:
    """Draw from the shared Action Deck, without replacement: 54 cards, steps 1-13 four times
    and the two jokers, step 0 and step 14, once (FI:L151-159). Whenever a special card is
    drawn, the deck is shuffled after the round (FI:L235): then carry an empty `out`. The
    Master cuts it to time an event (FI:L157)."""
    drawn = draw(_left(request), request.count, dice)
    out = [*request.out, *(c.impulse for c in drawn)]
    steps = {c.step for c in drawn}
    specials = {card(i).step for i in out} & {RED_JOKER, BLACK_JOKER}
    return DeckDraw(cards=drawn, out=out, step_0_drawn=RED_JOKER in steps,
                 step_14_drawn=BLACK_JOKER in steps,
                 reshuffle_after_round=bool(specials))  # fmt: skip


class ImpulseInput(Model):
    impulse: Impulse | None = Field(default=None, description="The impulse read, or:")
    step: Step | None = Field(
        default=None, description="A card's step, with its fragment (a joker's may be left out)."
    )
    fragment: Annotated[int, Field(ge=0, le=5)] | None = None
    options: TimeOptions = Field(default=TimeOptions())


class Timed(Model):
    card: ActionCard
    seconds: Exact = Field(description="When the impulse falls, from the start of the round.")
    of_round: Exact = Field(description="That as a share of the round's 10 seconds.")


#: A round is about 10 seconds (FI:L141) in 54 impulses (FI:L159).
ROUND_SECONDS = 10


def _impulse(request: ImpulseInput) -> int:
    if request.impulse is not None:
        if request.step is not None or request.fragment is not None:
            raise InputError(("step",), "give an impulse, or a step and a fragment, not both")
        return request.impulse
    if request.step is None:
        raise InputError(("step",), "give an impulse, or a step and a fragment")
    fragment = request.fragment
    if fragment is None:
        # One card shows each joker's step: impulse 0 for step 0, 53 for step 14, whatever
        # fragment ([EXT] 0 and 5) is left unsaid (catalogue 1.6).
        if request.step not in (RED_JOKER, BLACK_JOKER):
            raise InputError(("fragment",), "give an impulse, or a step and a fragment")
        fragment = JOKER_FRAGMENT[request.step]
    found = impulse_of(request.step, fragment)
    if found is None:
        raise InputError(("fragment",), f"no card shows step {request.step}, fragment "
                                        f"{request.fragment}: 1-4 on steps 1-13, 0 on step "
                                        "0, 5 on step 14")  # fmt: skip
    return found


@operation(
    name="combat/timing/impulse",
    kind=Kind.LOOKUP,
    covers=("fi.combat.timing.impulse",),
    example={"impulse": 14},
)
def impulse(request: ImpulseInput) -> Timed:
    """A card's impulse times an event: the round's 10 seconds are 54 impulses of about .19
    seconds (FI:L159). The Master cuts impulse 14: the forcefield stays open until the 14th
    impulse, "during the 4th step" (FI:L157): step 4, fragment 2. Steps count down from 14
    (FI:L169), so the round starts at impulse 53 and impulse i falls (53 - i) x 10/54 seconds
    in (A-34); counting up, i x 10/54."""
    found = card(_impulse(request))
    down = request.options.impulse_direction is ImpulseDirection.COUNTDOWN
    elapsed = Fraction((CARDS - 1 - found.impulse) if down else found.impulse, CARDS)
    return Timed(card=found, seconds=exact(elapsed * ROUND_SECONDS), of_round=exact(elapsed))
