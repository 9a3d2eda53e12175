"""Future Imperfect combat time (catalogue 2.4, 3.4) against the chapter (FI:L141-235): the
examples E-06 to E-09 and E-15, the tables T4, T4b, T5 and T22 (section 5.4), and
independent computations: the oracle's dice and brute force over the Action Deck's hands."""

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from service.rules.future_imperfect.time.actions import action_class, action_speed, extended_action
from service.rules.future_imperfect.time.cards import card, deck, impulse
from service.rules.future_imperfect.time.hand import initiative, special_cards
from service.rules.future_imperfect.time.order import order, rush
from service.rules.future_imperfect.time.reserve import interrupt, reserve
from service.rules.future_imperfect.time.surprise import surprise
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.future_imperfect.oracle import check_outcomes

SIDES = {"I": 4, "II": 6, "III": 8, "IV": 10, "V": 12}


def steps(cards) -> list[int]:
    return [c.step for c in cards]


# The deck and its impulses (catalogue 1.6)


def test_the_deck_has_the_chapters_cards():
    """FI:L151-159: 54 impulses; steps 0 and 14 once, 1-13 four times, 4 fragments a step;
    every step and fragment on one card only (FI:L171)."""
    cards = [card(i) for i in range(54)]
    assert Counter(c.step for c in cards) == Counter({0: 1, 14: 1} | dict.fromkeys(range(1, 14), 4))
    assert len({(c.step, c.fragment) for c in cards}) == 54
    assert {c.fragment for c in cards if 1 <= c.step <= 13} == {1, 2, 3, 4}


def test_impulse_14_is_step_4_fragment_2():
    """E-06, FI:L157: the Master cuts impulse 14, open "until the 14th impulse (during the 4th
    step)". Counting down (A-34) that is (53 - 14) x 10/54 = 65/9 s, about 7.2 s, into the
    round; counting up 14 x 10/54 = 70/27 s."""
    found = run(impulse, {"impulse": 14})
    assert (found.card.step, found.card.fragment) == (4, 2)
    assert Fraction(found.seconds.exact) == Fraction(65, 9)
    up = run(impulse, {"impulse": 14, "options": {"impulse_direction": "countup"}})
    assert Fraction(up.seconds.exact) == Fraction(70, 27)
    assert run(impulse, {"step": 4, "fragment": 2}).card.impulse == 14
    assert run(impulse, {"step": 14, "fragment": 5}).card.impulse == 53
    with pytest.raises(InputError) as refused:
        run(impulse, {"step": 4, "fragment": 5})
    assert refused.value.loc == ("fragment",)


def test_a_jokers_step_alone_names_its_card():
    """Catalogue 1.6: impulse 0 for step 0 and 53 for step 14, the red and black jokers
    (FI:L151, FI:L155); each is the only card of its step, so no fragment is needed to find
    it. An ordinary step still needs its fragment (1-4, FI:L153)."""
    assert run(impulse, {"step": 0}).card.impulse == 0
    assert run(impulse, {"step": 14}).card.impulse == 53
    assert Fraction(run(impulse, {"step": 0}).seconds.exact) == Fraction(265, 27)
    with pytest.raises(InputError) as refused:
        run(impulse, {"step": 4})
    assert refused.value.loc == ("fragment",)


#: T5: P(step 0 among n), P(step 14), P(both) of a fresh deck, and E[highest ordinary step |
#: one drawn] to the printed 3 decimals.
T5 = {1: ("1/54", "0", "7.000"), 2: ("1/27", "1/1431", "9.036"), 3: ("1/18", "1/477", "10.170"),
      4: ("2/27", "2/477", "10.851"), 5: ("5/54", "10/1431", "11.303"),
      6: ("1/9", "5/477", None), 7: ("7/54", "7/477", None)}  # fmt: skip


@pytest.mark.parametrize("n", sorted(T5))
def test_the_deck_draws_as_t5_says(n):
    """T5: n cards of 54 without replacement; P(neither) is 1 less the others."""
    found = odds(deck, {"count": n})
    zero, both, mean = T5[n]
    assert table(found.step_0_drawn).get("true", 0) == Fraction(zero)
    assert table(found.step_14_drawn).get("true", 0) == Fraction(zero)
    assert Fraction(found.both_drawn.exact) == Fraction(both)
    assert Fraction(found.neither_drawn.exact) == 1 - 2 * Fraction(zero) + Fraction(both)
    if mean is not None:
        assert f"{found.mean_highest_ordinary_step.float:.3f}" == mean


def _highest(hand: tuple[int, ...]) -> int | None:
    return max((s for s in hand if 1 <= s <= 13), default=None)


@pytest.mark.parametrize(("n", "out"), [(3, ()), (2, (53, 52, 1, 5, 9, 30))])
def test_the_deck_against_every_hand(n, out):
    """Brute force: every n-card hand of the cards left, equally likely."""
    left = [card(i).step for i in range(54) if i not in out]
    hands = list(combinations(left, n))
    found = odds(deck, {"count": n, "out": list(out)})
    expected = Counter(_highest(h) for h in hands)
    got = table(found.highest_ordinary_step)
    assert got == {("none" if s is None else str(s)): Fraction(k, len(hands))
                   for s, k in expected.items()}  # fmt: skip
    assert table(found.step_0_drawn).get("true", 0) == Fraction(sum(0 in h for h in hands),
                                                                len(hands))  # fmt: skip


def test_a_draw_takes_cards_left_and_passes_the_deck_on():
    """The deck is shared and stateless: cards out are never drawn; a special drawn asks
    for the shuffle after the round (FI:L235)."""
    found = run(deck, {"count": 2, "out": [1, 2], "dice": {"values": [1, 1]}})
    assert [c.impulse for c in found.cards] == [0, 3]
    assert found.out == [1, 2, 0, 3]
    assert found.step_0_drawn
    assert found.reshuffle_after_round
    with pytest.raises(InputError) as refused:
        run(deck, {"count": 53, "out": [1, 2], "dice": {"seed": 1}})
    assert refused.value.loc == ("count",)
    with pytest.raises(InputError) as refused:
        run(deck, {"count": 1, "out": [1, 1], "dice": {"seed": 1}})
    assert refused.value.loc == ("out", 1)


# Initiative (FI:L147)


def test_kayla_draws_2_cards():
    """E-07, FI:L177: Reflex 3d10 showing 3, 4 and 4 against Easy (3): a success, no bump,
    2 cards (the highest die is kept; a sum, 11, would have drawn 3)."""
    found = run(initiative, {"pool": "3d10", "dice": {"values": [3, 4, 4, 26, 18]}})
    assert (found.check.en, found.cards_drawn) == (4, 2)
    assert steps(found.kept) == [7, 5]


def test_chuk_draws_3_cards():
    """E-08, FI:L191: a Reflex roll of 8 draws 1 + 1 + 1 bump = 3 cards; he keeps two."""
    found = run(initiative, {"pool": "IV-2", "dice": {"values": [8, 2, 38, 22, 2]}})
    assert (found.check.en, found.cards_drawn) == (8, 3)
    assert steps(found.drawn) == [10, 6, 1]
    assert steps(found.kept) == [10, 6]
    assert steps(found.discarded) == [1]
    assert found.out == [37, 21, 1]


def test_a_critical_failure_draws_nothing_and_the_wound_penalty_counts():
    """FI:L147: no cards on a critical failure; the penalty comes off the Reflex total, and
    the readied weapon's initiative penalty too (FI:L329, A-47)."""
    assert run(initiative, {"pool": "II-2", "dice": {"values": [1, 1]}}).cards_drawn == 0
    hurt = {"pool": "II-1", "wound_penalty": -2, "dice": {"values": [4, 10]}}
    assert run(initiative, hurt).cards_drawn == 1
    aimed = {"pool": "II-1", "aim_penalty": -3, "dice": {"values": [5, 10]}}
    assert run(initiative, aimed).cards_drawn == 1
    ignored = {
        **aimed,
        "options": {"aim_initiative_penalty": False},
        "dice": {"values": [5, 10, 9]},
    }
    assert run(initiative, ignored).cards_drawn == 2


def test_surprised_or_holding_no_draw():
    """FI:L165: a surprised hero gets no cards; FI:L215: a reserve may be held instead."""
    assert run(initiative, {"pool": "III-3", "surprised": True}).cards_drawn == 0
    held = run(initiative, {"pool": "III-3", "forgo_draw": True, "reserve": 30})
    assert (held.check, held.reserve.impulse) == (None, 30)
    with pytest.raises(InputError) as refused:
        run(initiative, {"pool": "III-3", "forgo_draw": True, "dice": {"seed": 1}})
    assert refused.value.loc == ("forgo_draw",)


#: T4 (TN 3) and T4b (wound penalty 2): % of 0, 1, 2, 3, 4, 5+ cards, then E[cards].
T4 = {
    "I-1": ("25.0 25.0 43.8 4.7 1.3 0.3 1.332", "25.0 50.0 20.3 3.9 0.7 0.1 1.056"),
    "I-2": ("6.2 18.8 62.9 9.0 2.5 0.6 1.847", "6.2 50.0 34.6 7.6 1.4 0.2 1.485"),
    "I-3": ("15.6 6.2 61.7 12.1 3.5 0.8 1.842", "15.6 31.2 40.6 10.4 1.9 0.3 1.526"),
    "I-4": ("5.1 4.3 68.3 16.4 4.9 1.1 2.153", "5.1 28.1 49.6 14.1 2.7 0.4 1.824"),
    "I-5": ("10.4 1.6 62.0 18.9 5.8 1.4 2.126", "10.4 18.8 50.7 16.5 3.2 0.5 1.850"),
    "II-1": ("16.7 16.7 52.8 11.1 2.3 0.5 1.673", "16.7 50.0 25.0 6.5 1.5 0.4 1.273"),
    "II-2": ("2.8 8.3 63.0 20.4 4.6 0.9 2.188", "2.8 41.7 39.6 12.3 2.9 0.8 1.734"),
    "II-3": ("7.4 1.9 55.8 27.1 6.5 1.3 2.281", "7.4 25.0 45.3 17.0 4.2 1.1 1.892"),
    "II-4": ("1.6 0.8 52.8 34.2 8.8 1.8 2.539", "1.6 18.8 50.4 22.1 5.6 1.5 2.163"),
    "II-5": ("3.5 0.2 44.6 38.7 10.7 2.3 2.605", "3.5 11.8 50.0 25.9 6.9 1.9 2.269"),
    "III-1": ("12.5 12.5 62.5 6.2 4.9 1.4 1.832", "12.5 37.5 39.1 7.8 2.1 1.0 1.528"),
    "III-2": ("1.6 4.7 70.3 11.3 9.4 2.7 2.315", "1.6 23.4 54.3 14.5 4.2 1.9 2.028"),
    "III-3": ("4.3 0.8 62.5 15.1 13.3 4.0 2.460", "4.3 10.5 56.3 19.9 6.1 2.9 2.224"),
    "III-4": ("0.7 0.3 57.7 18.6 17.4 5.3 2.698", "0.7 5.9 56.4 25.1 8.1 3.8 2.466"),
    "III-5": ("1.6 0.0 50.0 20.9 20.8 6.6 2.817", "1.6 2.8 52.0 29.0 9.8 4.8 2.584"),
    "IV-1": ("10.0 10.0 50.0 22.0 5.0 3.0 2.122", "10.0 30.0 50.0 4.0 5.0 1.0 1.678"),
    "IV-2": ("1.0 3.0 45.0 35.6 9.4 5.9 2.697", "1.0 15.0 65.0 7.4 9.7 2.0 2.172"),
    "IV-3": ("2.8 0.4 32.0 42.9 13.2 8.6 2.929", "2.8 5.4 65.0 10.0 13.8 2.9 2.378"),
    "IV-4": ("0.4 0.1 23.6 47.5 16.9 11.5 3.196", "0.4 2.4 62.8 12.4 18.0 3.9 2.601"),
    "IV-5": ("0.9 0.0 16.4 48.8 19.9 14.1 3.350", "0.9 0.9 57.5 14.3 21.6 4.9 2.734"),
    "V-1": ("8.3 8.3 41.7 33.3 3.5 4.9 2.321", "8.3 25.0 41.7 18.1 3.5 3.5 1.950"),
    "V-2": ("0.7 2.1 31.2 50.0 6.5 9.5 2.924", "0.7 10.4 45.1 30.3 6.6 6.8 2.547"),
    "V-3": ("2.0 0.2 18.5 56.5 9.0 13.8 3.183", "2.0 3.1 37.6 38.0 9.3 10.0 2.833"),
    "V-4": ("0.2 0.1 11.4 59.0 11.3 18.1 3.441", "0.2 1.2 30.3 43.3 11.8 13.2 3.100"),
    "V-5": ("0.5 0.0 6.6 57.7 13.2 22.0 3.600", "0.5 0.4 23.1 45.9 14.0 16.2 3.273"),
}


@pytest.mark.parametrize("penalty", [0, -2])
@pytest.mark.parametrize("pool", sorted(T4))
def test_initiative_cards_match_t4(pool, penalty):
    """T4, T4b: each count of cards to its printed tenth of a percent (5+ summed), and the
    mean to its printed thousandth."""
    found = odds(initiative, {"pool": pool, "wound_penalty": penalty})
    cards = {int(k): v for k, v in table(found.cards_drawn).items()}
    printed = T4[pool][0 if penalty == 0 else 1].split()
    got = [cards.get(k, 0) for k in range(5)] + [sum(v for k, v in cards.items() if k >= 5)]
    for value, text in zip(got, printed[:6], strict=True):
        assert abs(float(value) * 100 - float(text)) <= 0.05 + 1e-9, (pool, got, printed)
    assert abs(found.mean_cards.float - float(printed[6])) <= 0.0005 + 1e-9


@pytest.mark.parametrize(("pool", "penalty"), [("I-1", 0), ("II-2", 0), ("III-3", -2), ("V-2", 0)])
def test_initiative_cards_against_the_oracle(pool, penalty):
    """0 on a critical failure, 1 on a failure, 2 and 1 a bump on a success, from the
    oracle's dice: counts 1 to 3 need only results below 13 and are exact; a critical
    failure's other dice may be anything, so count 0 is exact to the oracle's missing mass."""
    column, row = pool.split("-")
    outcomes = list(check_outcomes(SIDES[column], int(row), 14 - penalty))
    expected: Counter[int] = Counter()
    for cf, kept, chance in outcomes:
        en = max(kept + penalty, 0)
        expected[0 if cf else 1 if en < 3 else 2 + (en - 3) // 5] += chance
    rows = odds(initiative, {"pool": pool, "wound_penalty": penalty}).cards_drawn
    found = {int(k): v for k, v in table(rows).items()}
    for count in range(1, 4):
        assert found.get(count, 0) == expected[count], count
    missing = 1 - sum(chance for _, _, chance in outcomes)
    assert abs(found[0] - expected[0]) <= missing


def _kept_best(hand: tuple[int, ...]) -> int | None:
    """The chapter's hand management written plainly (FI:L147): a step 0 goes with the
    highest other card; then the 14 and the two highest ordinary cards are kept."""
    cards = sorted(hand, reverse=True)
    if 0 in cards:
        cards.remove(0)
        if cards:
            cards.remove(cards[0])
    if 14 in cards:
        return 14
    return cards[0] if cards else None


def test_the_best_step_kept_against_every_hand():
    """The hand after a draw, exactly: each count of cards (T4's) times every hand of that
    size of the cards left, managed by hand; on a deck of 10 cards left, both jokers in."""
    out = [i for i in range(54) if i not in (0, 53, 1, 5, 9, 20, 30, 40, 44, 52)]
    found = odds(initiative, {"pool": "III-3", "out": out})
    left = [card(i).step for i in range(54) if i not in out]
    counts = {int(k): v for k, v in table(found.cards_drawn).items()}
    expected: Counter[str] = Counter()
    for n, chance in counts.items():
        hands = list(combinations(left, n))
        for hand in hands:
            best = _kept_best(hand)
            expected["none" if best is None else str(best)] += chance / len(hands)
    cut = Fraction(found.truncation.mass_cut.exact)
    assert table(found.best_step_kept) == dict(expected)
    assert sum(expected.values()) == 1 - cut
    special = sum(c * (1 - Fraction(len([h for h in combinations(left, n) if 0 not in h
                                         and 14 not in h]), len(list(combinations(left, n)))))
                  for n, c in counts.items())  # fmt: skip
    assert Fraction(found.special_drawn.exact) == special


# Special cards (FI:L147, FI:L231-235)


def test_step_0_takes_the_highest_other_card():
    """FI:L147: the step 0 and the highest other card are discarded before choosing; with
    the 14 the literal highest other card is the 14 (A-32)."""
    found = run(special_cards, {"drawn": [0, 37, 22, 9]})
    assert steps(found.kept) == [6, 3]
    assert steps(found.discarded) == [0, 10]
    both = {"drawn": [0, 53, 37, 22]}
    assert steps(run(special_cards, both).kept) == [10, 6]
    protected = run(special_cards, {**both, "options": {"joker_collision": "protect_14"}})
    assert steps(protected.kept) == [14, 6]
    assert protected.extra_action


def test_a_reserve_card_counts_as_the_highest():
    """FI:L147, FI:L233: the reserve goes instead of a card in hand; then no preparation card
    is lost; without a reserve, a preparation card goes too."""
    found = run(special_cards, {"drawn": [0, 37, 22], "reserve": 45, "preparation": 3})
    assert steps(found.kept) == [10, 6]
    assert found.reserve_lost
    assert found.preparation == 3
    bare = run(special_cards, {"drawn": [0, 37, 22], "preparation": 3})
    assert steps(bare.kept) == [6]
    assert bare.preparation_lost
    assert bare.preparation == 2


def test_the_black_joker_is_kept_beside_two():
    """FI:L147, FI:L231: the 14 is kept in addition to two other cards; either joker
    shuffles the deck after the round (FI:L235); the hero chooses his two."""
    found = run(special_cards, {"drawn": [53, 37, 22, 9, 1]})
    assert steps(found.kept) == [14, 10, 6]
    assert found.extra_action
    assert found.reshuffle_after_round
    chosen = run(special_cards, {"drawn": [53, 37, 22, 9, 1], "keep": [9, 1]})
    assert steps(chosen.kept) == [14, 3, 1]
    with pytest.raises(InputError) as refused:
        run(special_cards, {"drawn": [37, 22, 9], "keep": [9]})
    assert refused.value.loc == ("keep",)
    with pytest.raises(InputError) as refused:
        run(special_cards, {"drawn": [37, 22], "reserve": 53})
    assert refused.value.loc == ("reserve",)


# Order, rushing (FI:L167-181)


def test_steps_count_down_and_fragments_break_ties():
    """FI:L169-171: steps from 14 down, fragments on ties (high first, A-33); the 14 always
    first (FI:L231); the step 0 is no action (FI:L233)."""
    plays = [{"actor": "Kayla", "card": 26}, {"actor": "agent", "card": 27},
             {"actor": "Chuk", "card": 40}, {"actor": "Frost", "card": 53},
             {"actor": "bug", "card": 0}]  # fmt: skip
    found = run(order, {"plays": plays})
    assert [t.actor for t in found.turns] == ["Frost", "Chuk", "agent", "Kayla"]
    assert [t.actor for t in found.no_action] == ["bug"]
    low = run(order, {"plays": plays, "options": {"fragment_order": "low_first"}})
    assert [t.actor for t in low.turns] == ["Frost", "Chuk", "Kayla", "agent"]
    with pytest.raises(InputError) as refused:
        run(order, {"plays": [{"actor": "a", "card": 5}, {"actor": "b", "card": 5}]})
    assert refused.value.loc == ("plays", 1)


def test_a_rush_keeps_its_fragment():
    """FI:L181: a rushed 7 of fragment 2 acting at 11 still follows an 11 of fragment 3."""
    plays = [{"actor": "Kayla", "card": 26, "acts_at": 11}, {"actor": "agent", "card": 43}]
    assert [t.actor for t in run(order, {"plays": plays}).turns] == ["agent", "Kayla"]


@pytest.mark.parametrize("fragments", ["high_first", "low_first"])
def test_a_rush_to_step_14_is_ordered_after_the_black_joker(fragments):
    """FI:L169: the Master counts down from 14, so a card may be rushed to the 14 called
    (FI:L175), and combat/rush answers acts_at_step 14; combat/order took only 0-13 and
    refused it. The black joker still goes first (FI:L231), whatever the fragments (A-33):
    its fragment 5 put it after a rushed card's under low_first."""
    rushed = run(rush, {"pool": "IV-2", "card_step": 13, "called_step": 14,
                        "dice": {"values": [8]}})  # fmt: skip
    assert rushed.acts_at_step == 14
    plays = [{"actor": "Kayla", "card": 50, "acts_at": rushed.acts_at_step},
             {"actor": "Frost", "card": 53}, {"actor": "agent", "card": 52}]  # fmt: skip
    found = run(order, {"plays": plays, "options": {"fragment_order": fragments}})
    assert [(t.actor, t.step) for t in found.turns] == [("Frost", 14), ("Kayla", 14),
                                                        ("agent", 13)]  # fmt: skip


def test_kaylas_rush_shifts_to_i_1():
    """E-07, FI:L177: Dexterity IV-2, card 7, rushing at 11: four shifts, IV-1, III-1, II-1,
    I-1. An open-ended d4 reaches 3 half the time, 5 a quarter (T1), less the chains cut."""
    found = run(rush, {"pool": "IV-2", "card_step": 7, "called_step": 11, "tn": 3,
                       "dice": {"values": [3]}})  # fmt: skip
    assert (found.shifts, found.pool, found.test.success, found.acts_at_step) == (
        4,
        "I-1",
        True,
        11,
    )
    for tn, chance in ((3, Fraction(1, 2)), (None, Fraction(1, 4))):
        rushed = odds(rush, {"pool": "IV-2", "card_step": 7, "called_step": 11, "tn": tn})
        cut = Fraction(rushed.truncation.mass_cut.exact)
        assert Fraction(rushed.success.exact) + cut == chance
        assert table(rushed.acts_at_step)["5"] == 1 - chance


def test_a_failed_rush_acts_two_steps_after_its_card():
    """FI:L179: a trip or hesitation, two steps after the card; past step 1 the end of the
    round (A-36); never before I-1 (FI:L175)."""
    late = run(rush, {"pool": "I-2", "card_step": 2, "called_step": 3, "dice": {"values": [1]}})
    assert (late.test.success, late.acts_at_step) == (False, 0)
    with pytest.raises(InputError) as refused:
        run(rush, {"pool": "IV-2", "card_step": 7, "called_step": 12, "dice": {"seed": 1}})
    assert refused.value.loc == ("called_step",)


# Surprise (FI:L165)


@pytest.mark.parametrize(("expecting", "last", "tn"), [(True, False, 5), (False, False, 11),
                                                       (False, True, 3)])  # fmt: skip
def test_surprise_against_the_oracle(expecting, last, tn):
    """Bravery against Standard (5) expecting danger, Incredible (11) not, Easy (3) to act
    again (FI:L165, A-35): P(surprised) is P(not a success) of the oracle's dice."""
    request = {"pool": "II-2", "expecting_danger": expecting, "surprised_last_round": last}
    found = odds(surprise, request)
    # Two dice fail critically only both showing 1, so dice below the TN decide it exactly.
    missed = sum(p for cf, kept, p in check_outcomes(6, 2, tn) if cf or kept < tn)
    assert table(found.surprised)["true"] == missed
    assert run(surprise, {**request, "dice": {"values": [2, 3]}}).tn == tn


# Action speed, class, extended actions (FI:L185-227)


def test_chuk_prepares_on_10_and_fires_on_6():
    """E-08, FI:L191: the MMG in its harness has speed 2: he raises it on 10, fires on 6."""
    found = run(action_speed, {"speed": 2, "cards": [6, 10]})
    assert [(p.step, p.use) for p in found.plan] == [(10, "prepare"), (6, "resolve")]
    assert run(action_speed, {"speed": 1, "cards": [9], "rate_of_fire": 3}).shots_per_card == 3
    three = run(action_speed, {"speed": 3, "cards": [9], "prepared": 1})
    assert (three.prepared, three.resolved, three.may_reserve_several) == (2, False, True)


def test_the_chapters_actions_have_their_classes():
    """FI:L199-201; a stun check is read as the recovery check (A-38)."""
    assert run(action_class, {"action": "Reloading a weapon"}).cards == 1
    assert run(action_class, {"action": "talking"}).with_complex
    assert run(action_class, {"action": "building a shelter"}).cards is None
    assert "FI:L581" in run(action_class, {"action": "making a stun check"}).note
    with pytest.raises(InputError):
        run(action_class, {"action": "juggling"})


def test_frost_arms_her_charge():
    """E-09, FI:L225-227: 6 cards; with 5 prepared the next waits in reserve, and she stops
    drawing (FI:L223); the trigger blows the tunnel."""
    armed = run(extended_action, {"speed": 6, "prepared": 5, "event": "prepare"})
    assert (armed.armed, armed.draws_next_round) == (True, False)
    blown = run(extended_action, {"speed": 6, "prepared": 5, "armed": True, "event": "trigger"})
    assert blown.resolves
    early = run(extended_action, {"speed": 6, "prepared": 3, "event": "trigger"})
    assert (early.resolves, early.not_ready, early.prepared) == (False, True, 3)
    zero = run(extended_action, {"speed": 6, "prepared": 5, "armed": True, "event": "step_0"})
    assert (zero.reserve_lost, zero.prepared) == (True, 5)
    with pytest.raises(InputError) as refused:
        run(extended_action, {"speed": 6, "prepared": 2, "armed": True, "event": "trigger"})
    assert refused.value.loc == ("prepared",)


# Reserve and interrupts (FI:L205-217, FI:L231)


def test_one_reserve_card_until_it_is_flushed():
    """FI:L207-213: one card (more for an action of speed over 2, A-37); never a special
    card (FI:L231); flushed by resolving another card; an aim keeps it (FI:L329)."""
    held = run(reserve, {"event": "reserve", "card": 37})
    assert steps(held.reserve) == [10]
    with pytest.raises(InputError):
        run(reserve, {"reserve": [37], "event": "reserve", "card": 20})
    two = run(reserve, {"reserve": [37], "event": "reserve", "card": 20, "preparing_speed": 3})
    assert steps(two.reserve) == [10, 5]
    speed_2 = {"reserve": [37], "event": "reserve", "card": 20, "preparing_speed": 2,
               "options": {"multi_reserve_min_speed": 2}}  # fmt: skip
    assert len(run(reserve, speed_2).reserve) == 2
    with pytest.raises(InputError) as refused:
        run(reserve, {"event": "reserve", "card": 53})
    assert refused.value.loc == ("card",)
    assert steps(run(reserve, {"reserve": [37], "event": "aim"}).reserve) == [10]
    flushed = run(reserve, {"reserve": [37], "event": "resolve_other_card"})
    assert (flushed.reserve, steps(flushed.flushed)) == ([], [10])
    assert run(reserve, {"reserve": [37], "event": "play"}).acts


def test_harry_wins_the_reflex_contest():
    """E-15, FI:L347: Harry's III-2 Reflex scores 4, the bug's IV-1 a 1: Harry first."""
    found = run(interrupt, {"interrupter": {"pool": "III-2"}, "actor": {"pool": "IV-1"},
                            "dice": {"values": [4, 2, 1]}})  # fmt: skip
    assert (found.interrupter.en, found.actor.en, found.first) == (4, 1, "interrupter")
    joker = run(interrupt, {"interrupter": {"pool": "I-1"}, "actor": {"pool": "V-5"}, "card": 53})
    assert (joker.contest, joker.first) == (False, "interrupter")


@pytest.mark.parametrize(("pools", "chance"), [(("III-2", "IV-1"), "61.0"),
                                               (("II-2", "II-2"), "56.9")])  # fmt: skip
def test_interrupts_match_t22(pools, chance):
    """T22 gives ties to the interrupter; by default a tie leaves the declared action first
    (A-39), less likely."""
    request = {"interrupter": {"pool": pools[0]}, "actor": {"pool": pools[1]}}
    tied = odds(interrupt, {**request, "options": {"interrupt_tie": "interrupter"}})
    assert f"{tied.interrupter_first.float * 100:.1f}" == chance
    assert odds(interrupt, request).interrupter_first.float < tied.interrupter_first.float


def test_an_interrupt_against_the_oracle():
    """1d6 against 1d6: the interrupter goes first on a higher result, never on his own
    critical failure; the actor's critical failure still sets the bar (catalogue 1.4)."""
    found = odds(interrupt, {"interrupter": {"pool": "II-1"}, "actor": {"pool": "II-1"}})
    die = list(check_outcomes(6, 1, 60))
    expected = sum(pa * pb for a_cf, a, pa in die for _, b, pb in die if not a_cf and a > b)
    missing = 1 - sum(p for _, _, p in die) ** 2 + Fraction(found.truncation.mass_cut.exact)
    assert abs(Fraction(found.interrupter_first.exact) - expected) <= missing
    assert missing < Fraction(1, 10**7)
