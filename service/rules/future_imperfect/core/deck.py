"""The Action Deck (catalogue 1.3, 1.6): the chapter resolves tests by cards whose printed
contents it does not give (F2), so a deck is configuration (`FI_ACTION_DECK`). Its structure
is the chapter's: 54 cards, step 0 once, steps 1-13 four times, step 14 once (FI:L151), a
unique impulse 0-53 (FI:L155). Each card has a 5 x 5 grid of cells, one per column and row,
each a value, maybe marked CF, maybe with an asterisk that draws another card (FI:L131).
A deck may also give each card's hit location section (FI:L516, catalogue 1.6 `location`):
the place of the d20 chart it shows, an arm or leg with its side; every card or none.

Two readings (A-01, `card_model`): `cell` draws one card and reads the pool's cell (FI:L239,
FI:L345); `card_per_die` draws a card a die, reads its column's first row and keeps the
highest (FI:L299, FI:L522). Cards are drawn from a fresh deck without replacement; an
asterisk adds the next card's same cell, to `DEPTH` extra cards in the odds."""

from collections import Counter
from collections.abc import Iterator
from math import perm
from typing import Annotated, Literal, get_args

from pydantic import Field, model_validator

from service.rules.cost import counted
from service.rules.dice import Dice
from service.rules.distribution import Distribution
from service.rules.model import InputError, Model

__all__ = [
    "CARDS",
    "DEPTH",
    "PLACES",
    "Card",
    "Cell",
    "Deck",
    "Drawn",
    "Place",
    "chain_states",
    "configure",
    "configured",
    "deck_results",
    "draw",
]

#: The deck's size (FI:L159: "54 impulses").
CARDS = 54
#: Extra cards an asterisk chain is followed to in the odds; longer chains are cut and stated.
DEPTH = 3
#: How many cards of each step (FI:L151): the two jokers once, the rest four times.
STEPS = Counter({0: 1, 14: 1} | {step: 4 for step in range(1, 14)})


#: A place of the hit location chart (FI:L431-437) in its order, arms and legs by side: a
#: card's location section names one; the d20 takes the side from its parity (FI:L427).
Place = Literal[
    "left_leg", "right_leg", "lower_torso", "vitals", "left_arm", "right_arm", "upper_torso", "head"
]
PLACES: tuple[Place, ...] = get_args(Place)


class Cell(Model):
    value: Annotated[int, Field(ge=0, le=99)]
    cf: bool = Field(default=False, description="A critical failure (catalogue A-06).")
    asterisk: bool = Field(default=False, description="Draw another card and add it (FI:L131).")

    @model_validator(mode="after")
    def _one_mark(self) -> "Cell":
        if self.cf and self.asterisk:
            raise ValueError("a cell marked CF draws no more cards")
        return self


Column = Annotated[tuple[Cell, ...], Field(min_length=5, max_length=5)]


class Card(Model):
    step: Annotated[int, Field(ge=0, le=14)]
    fragment: Annotated[int, Field(ge=0, le=5)]
    impulse: Annotated[int, Field(ge=0, le=53)]
    grid: Annotated[tuple[Column, ...], Field(min_length=5, max_length=5)] = Field(
        description="Columns I to V, each rows 1 to 5."
    )
    location: Place | None = Field(
        default=None,
        description="Its hit location section (FI:L516): the place of the chart it shows; "
        "the chapter prints none (F2).",
    )

    def cell(self, column: int, row: int) -> Cell:
        return self.grid[column - 1][row - 1]


class Deck(Model):
    name: Annotated[str, Field(min_length=1, max_length=60)]
    cards: Annotated[tuple[Card, ...], Field(min_length=CARDS, max_length=CARDS)]

    @model_validator(mode="after")
    def _structure(self) -> "Deck":
        if sorted(card.impulse for card in self.cards) != list(range(CARDS)):
            raise ValueError("each impulse 0-53 is on exactly one card (FI:L155)")
        if Counter(card.step for card in self.cards) != STEPS:
            raise ValueError("step 0 and 14 once, steps 1-13 four times each (FI:L151)")
        if len({card.location is None for card in self.cards}) > 1:
            raise ValueError("every card shows a location section, or none does")
        return self


_deck: Deck | None = None


def configure(deck: Deck | None) -> None:
    """Make `deck` the Action Deck of the deck engine (`FI_ACTION_DECK`); None: no deck, and
    the engine is refused. Set once, as the service starts: replicas sharing a cache must be
    configured alike, as results name the deck they read."""
    global _deck
    _deck = deck


def configured(loc: tuple[str | int, ...]) -> Deck:
    if _deck is None:
        raise InputError(loc, "no Action Deck is configured (FI_ACTION_DECK): the chapter "
                              "does not print its cards (F2)")  # fmt: skip
    return _deck


class Drawn(Model):
    impulses: tuple[int, ...] = Field(description="The cards read, by impulse: a chain's in turn.")
    values: tuple[int, ...] = Field(description="Their cells' values.")
    cf: bool


def draw(deck: Deck, dice: Dice, cells: list[tuple[int, int]], asterisks: bool) -> list[Drawn]:
    """Draw, without replacement, a card for each (column, row) in `cells` and the chain its
    asterisks call for."""
    left = list(deck.cards)
    found = []
    for column, row in cells:
        chain: list[Card] = []
        while not chain or (asterisks and chain[-1].cell(column, row).asterisk and left):
            chain.append(left.pop(dice.roll(len(left), "Action Card") - 1))
        first = chain[0].cell(column, row)
        found.append(Drawn(impulses=tuple(c.impulse for c in chain),
                           values=tuple(c.cell(column, row).value for c in chain),
                           cf=first.cf))  # fmt: skip
    return found


#: A kind of cell: its value, CF and asterisk.
Kind = tuple[int, bool, bool]
#: Cards drawn so far: the counts of each kind left, cards used, CF cards and the bests.
State = tuple[tuple[int, ...], int, int, int, int]


def _kinds(deck: Deck, column: int, row: int) -> tuple[tuple[Kind, ...], tuple[int, ...]]:
    found = Counter((c.cell(column, row).value, c.cell(column, row).cf,
                     c.cell(column, row).asterisk) for c in deck.cards)  # fmt: skip
    kinds = tuple(sorted(found))
    return kinds, tuple(found[k] for k in kinds)


def _chains(
    kinds: tuple[Kind, ...], counts: tuple[int, ...], asterisks: bool
) -> Iterator[tuple[tuple[int, ...], int, bool, int, int, int]]:
    """Every chain one card starts: (counts left, ways, CF, first value, total, cards)."""

    def walk(counts: tuple[int, ...], ways: int, first: int | None, cf: bool, total: int,
             cards: int) -> Iterator[tuple[tuple[int, ...], int, bool, int, int, int]]:  # fmt: skip
        for index, (value, is_cf, asterisk) in enumerate(kinds):
            if not counts[index]:
                continue
            left = (*counts[:index], counts[index] - 1, *counts[index + 1 :])
            start = value if first is None else first
            mark = is_cf if first is None else cf
            if not (asterisks and asterisk):
                yield left, ways * counts[index], mark, start, total + value, cards + 1
            elif cards + 1 <= DEPTH:  # a chain is cut past DEPTH extra cards
                yield from walk(left, ways * counts[index], start, mark, total + value, cards + 1)

    yield from walk(counts, 1, None, False, 0, 0)


def chain_states(deck: Deck, column: int, row: int, cards: int) -> int:
    """At most how many chains `cards` cards start: each of the first card's kinds times the
    asterisked kinds it may run through, to `DEPTH` (an upper bound for `rules.cost`)."""
    kinds, _ = _kinds(deck, column, row)
    starred = sum(1 for k in kinds if k[2])
    per_card = len(kinds) * sum(starred**k for k in range(DEPTH + 1))
    return int(per_card**cards * (cards + 1))


def deck_results(
    deck: Deck, column: int, row: int, cards: int, asterisks: bool
) -> Distribution[tuple[int, int, int]]:
    """(CF cards, highest first value, highest total) of `cards` chains drawn from a fresh
    deck, exactly, chains cut past `DEPTH` extra cards. A path of L cards has weight the
    product of the counts it drew times the ways to draw the rest of the cards the longest
    path could use, over 54 x 53 x ... for that many cards."""
    kinds, counts = _kinds(deck, column, row)
    most = min(cards * (DEPTH + 1), CARDS)
    # Draws that leave the same cards and the same result so far are one state.
    states: dict[State, int] = {(counts, 0, 0, 0, 0): 1}
    for _ in range(cards):
        following: dict[State, int] = {}
        for (left, used, cfs, best_first, best), ways in states.items():
            for after, w, cf, first, value, drawn in _chains(kinds, left, asterisks):
                state = (after, used + drawn, cfs + cf, max(best_first, first), max(best, value))
                following[state] = following.get(state, 0) + ways * w
        counted(len(following))
        states = following
    outcomes: dict[tuple[int, int, int], int] = {}
    for (_, used, cfs, best_first, best), ways in states.items():
        key = (cfs, best_first, best)
        outcomes[key] = outcomes.get(key, 0) + ways * perm(CARDS - used, most - used)
    return Distribution(outcomes, total=perm(CARDS, most))
