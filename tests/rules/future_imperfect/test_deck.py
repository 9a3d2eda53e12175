"""The Action Deck engine (catalogue 1.3, 1.6): a deck of the chapter's structure is
configuration, drawn without replacement; its odds against brute-force enumeration of the
card orders."""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from service.app import build_app, configure_action_deck
from service.cache import MemoryCache
from service.rules.future_imperfect.core import deck as decks
from service.rules.future_imperfect.core.checks import test
from service.rules.model import InputError
from service.settings import Settings
from tests.rules.calls import odds, run


def card(impulse: int) -> dict[str, Any]:
    """Card `impulse` of a made-up deck: steps and fragments as catalogue 1.6 reads them; a
    cell's value from 1 to 9 by impulse, column and row, some CF, some with asterisks."""
    step = 0 if impulse == 0 else 14 if impulse == 53 else (impulse - 1) // 4 + 1
    fragment = 0 if step == 0 else 5 if step == 14 else (impulse - 1) % 4 + 1

    def cell(column: int, row: int) -> dict[str, Any]:
        value = (impulse * (column + 2) + row) % 9 + 1
        return {"value": value, "cf": value == 1 and row == 1, "asterisk": value == 9}

    grid = [[cell(c, r) for r in range(1, 6)] for c in range(1, 6)]
    return {"step": step, "fragment": fragment, "impulse": impulse, "grid": grid}


DECK = {"name": "made-up", "cards": [card(i) for i in range(54)]}


@contextmanager
def configured(data: dict[str, Any]) -> Iterator[decks.Deck]:
    """`data` as the configured Action Deck for the length of the block."""
    deck = decks.Deck.model_validate_json(json.dumps(data))
    decks.configure(deck)
    try:
        yield deck
    finally:
        decks.configure(None)


@pytest.fixture
def made_up() -> Iterator[decks.Deck]:
    with configured(DECK) as deck:
        yield deck


def test_no_deck_no_deck_engine():
    """F2: the chapter prints no card; without FI_ACTION_DECK the engine is a 422."""
    with pytest.raises(InputError) as refused:
        run(test, {"pool": "III-3", "tn": 7, "options": {"engine": "deck"}, "dice": {"seed": 1}})
    assert refused.value.loc == ("options", "engine")


def test_a_deck_has_the_chapters_structure():
    """FI:L151-159: 54 cards, steps 0 and 14 once, 1-13 four times, impulses 0-53."""
    doubled = {**DECK, "cards": [card(1), *DECK["cards"][1:]]}
    with pytest.raises(ValidationError):
        decks.Deck.model_validate_json(json.dumps(doubled))
    with pytest.raises(ValidationError):
        decks.Deck.model_validate_json(json.dumps({**DECK, "cards": DECK["cards"][:53]}))


def test_one_card_reads_the_pools_cell(made_up):
    """FI:L345: 'draws an action card (Impulse 1) and checks the III-3 column result'."""
    found = run(test, {"pool": "III-3", "tn": 5, "options": {"engine": "deck"},
                       "dice": {"values": [2, 1]}})  # fmt: skip
    # Impulse 1's III-3 cell is a 9 with an asterisk: the next card, impulse 0's 4, is added.
    assert (found.cards[0].impulses, found.cards[0].values) == ((1, 0), (9, 4))
    assert (found.kept, found.success, found.bumps, found.deck) == (13, True, 1, "made-up")


def _cell_odds(deck: decks.Deck, column: int, row: int, tn: int) -> Fraction:
    """P(success) of one card and its asterisk chain, card by card without replacement, a
    chain past DEPTH extra cards left out."""

    def chance(used: tuple[int, ...], total: int) -> Fraction:
        hit = Fraction(0)
        for index, drawn in enumerate(deck.cards):
            if index in used:
                continue
            cell = drawn.cell(column, row)
            first_cf = deck.cards[used[0]].cell(column, row).cf if used else cell.cf
            if cell.asterisk:
                if len(used) < decks.DEPTH:
                    hit += chance((*used, index), total + cell.value) / (54 - len(used))
            elif not first_cf and total + cell.value >= tn:
                hit += Fraction(1, 54 - len(used))
        return hit

    return chance((), 0)


@pytest.mark.parametrize(("column", "row", "tn"), [(1, 1, 5), (3, 2, 9)])
def test_cell_odds_against_every_order(made_up, column, row, tn):
    pool = f"{['I', 'II', 'III', 'IV', 'V'][column - 1]}-{row}"
    found = odds(test, {"pool": pool, "tn": tn, "options": {"engine": "deck"}})
    assert Fraction(found.success.exact) == _cell_odds(made_up, column, row, tn)


def test_card_per_die_odds_against_every_order(made_up):
    """Two cards, no asterisks (as lifting, FI:L131): the higher of two distinct cards."""
    request = {"pool": "II-2", "tn": 7, "allow_asterisks": False,
               "options": {"engine": "deck", "card_model": "card_per_die"}}  # fmt: skip
    found = odds(test, request)
    cells = [c.cell(2, 1) for c in made_up.cards]
    hit = sum(1 for a, b in permutations(cells, 2)
              if not (a.cf and b.cf) and max(a.value, b.value) >= 7)  # fmt: skip
    assert Fraction(found.success.exact) == Fraction(hit, 54 * 53)
    assert found.truncation is None


def test_the_deck_is_configured_from_a_file(tmp_path):
    """FI_ACTION_DECK: read as the service starts; the deck engine then answers over REST."""
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(DECK))
    try:
        settings = Settings(log_requests=False, fi_action_deck=str(path))
        with TestClient(build_app(settings, MemoryCache())) as client:
            body = {"pool": "I-1", "tn": 3, "options": {"engine": "deck"}, "dice": {"seed": 4}}
            answer = client.post("/v1/future-imperfect/core/test", json=body)
            assert answer.status_code == 200, answer.text
            assert answer.json()["deck"] == "made-up"
    finally:
        configure_action_deck(None)


def test_a_test_not_open_ended_draws_no_more_cards(made_up):
    """Stepping up is not open-ended (FI:L102), nor a lift's test (FI:L131 "Do not draw or
    use extra cards on asterisks"): the deck engine reads `open_ended: false` as the dice
    engine does, as if the asterisks were off, in the odds and at the table."""
    base = {"pool": "III-1", "tn": 9, "options": {"engine": "deck"}}
    closed = odds(test, {**base, "open_ended": False})
    assert closed.success == odds(test, {**base, "allow_asterisks": False}).success
    assert closed.success != odds(test, base).success
    for seed in range(40):
        found = run(test, {**base, "open_ended": False, "dice": {"seed": seed}})
        assert all(len(drawn.values) == 1 for drawn in found.cards)


def test_the_deck_engine_refuses_stopping_a_die(made_up):
    """Stopping a die on a maximum (A-07, `max_rerolls`) is the dice engine's: the deck
    engine draws every card an asterisk calls for (FI:L131), so the stops are refused, not
    ignored."""
    options = {"engine": "deck", "explode_policy": "client_choice"}
    request = {"pool": "III-1", "tn": 9, "max_rerolls": [0], "options": options}
    with pytest.raises(InputError, match="stopping a die"):
        odds(test, request)
    with pytest.raises(InputError, match="stopping a die"):
        run(test, {**request, "dice": {"seed": 3}})
