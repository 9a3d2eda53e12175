"""The Future Imperfect core against the chapter's examples (catalogue 4: Kayla FI:L177, Chuk
FI:L191, Violet FI:L299), the catalogue's tables T1, T2, T3 and T16 (section 5.3), and a
brute-force enumeration of plain dice."""

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from service.rules.future_imperfect.core.checks import check, default_roll, test
from service.rules.future_imperfect.core.pools import parse_pool, shift_pool
from service.rules.future_imperfect.core.rolls import dice_roll, opposed
from service.rules.model import InputError
from tests.rules.calls import odds, run

SIDES = {"I": 4, "II": 6, "III": 8, "IV": 10, "V": 12}


# Pools


@pytest.mark.parametrize("notation", ["IV-2", "2(4)", "2d10"])
def test_the_notations_are_one_pool(notation):
    """FI:L177 (IV-2), FI:L512 (2(2): "the first integer is the number of cards")."""
    found = run(parse_pool, {"notation": notation})
    assert (found.column, found.row, found.roman, found.cards, found.die_sides) == (
        4,
        2,
        "IV-2",
        "2(4)",
        10,
    )


def test_kayla_rushes_all_the_way_to_i_1():
    """FI:L177: IV-2 shifted four times toward I-1: IV-1, III-1, II-1, I-1; then no further."""
    found = run(shift_pool, {"pool": "IV-2", "shift": "rush", "steps": 4})
    assert (found.roman, found.stopped) == ("I-1", False)
    assert run(shift_pool, {"pool": "IV-2", "shift": "rush", "steps": 5}).stopped


def test_a_fall_grows_to_the_5_7_cap():
    """FI:L27: row shifts, then column shifts, capped at 5(7)."""
    found = run(shift_pool, {"pool": "3(5)", "shift": "fall", "steps": 4})
    assert (found.cards, found.die_sides, found.stopped) == ("5(7)", None, False)
    assert run(shift_pool, {"pool": "3(5)", "shift": "fall", "steps": 5}).stopped


def test_columns_6_and_7_cannot_be_rolled():
    """A-02: the chapter gives them no die."""
    with pytest.raises(InputError) as refused:
        run(check, {"pool": "1(6)", "tn": 5, "dice": {"seed": 1}})
    assert refused.value.loc == ("pool",)


def test_a_malformed_pool_is_a_422(client):
    answer = client.post("/v1/future-imperfect/core/pool/parse", json={"notation": "IX-9"})
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["pointer"] == "/notation"


# Checks


def test_kayla_succeeds_with_no_bump():
    """FI:L177: her 3d10 Reflex shows 3, 4 and 4 against TN 3: the highest, 4, succeeds, no
    bump, so two cards (not the sum, 11, which would give three)."""
    found = run(check, {"pool": "IV-3", "tn": 3, "dice": {"values": [3, 4, 4]}})
    assert (found.kept, found.success, found.bumps, found.successes) == (4, True, 0, 1)


def test_chuk_s_8_against_3_is_a_bump():
    """FI:L191: 8 against TN 3 draws 3 cards: 1, and 1 for the success and 1 for the bump."""
    found = run(check, {"pool": "IV-1", "tn": 3, "dice": {"values": [8]}})
    assert (found.bumps, 1 + found.successes) == (1, 3)


def test_violet_s_12_against_6_is_a_success_and_a_bump():
    """FI:L299."""
    found = run(check, {"pool": "V-1", "tn": 6, "modifiers": [1], "dice": {"values": [11]}})
    assert (found.en, found.success, found.bumps) == (12, True, 1)


def test_a_maximum_rolls_again_and_more_than_half_ones_fail():
    """FI:L133: open-ended; A-06: two 1s of three dice are a critical failure, whose maxima
    are ignored."""
    exploded = run(check, {"pool": "II-1", "tn": 9, "dice": {"values": [6, 4]}})
    assert (exploded.kept, exploded.success) == (10, True)
    cf = run(check, {"pool": "II-3", "tn": 3, "dice": {"values": [1, 1, 6, 2]}})
    assert (cf.critical_failure, cf.success, cf.kept) == (True, False, 6)


def test_a_default_roll_halves_the_total():
    """FI:L247, A-09."""
    found = run(default_roll, {"pool": "III-1", "tn": 5, "modifiers": [3], "dice": {"values": [7]}})
    assert found.en == 5
    first = {
        "pool": "III-1",
        "tn": 5,
        "modifiers": [3],
        "options": {"default_halving_order": "before_modifiers"},
    }
    assert run(default_roll, {**first, "dice": {"values": [7]}}).en == 6


# Exact odds (catalogue 5.3)

T1_TNS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15)
T1 = {  # pool: (P(CF), P(success) at each TN), percent to 0.1
    "I-1": (25.0, 50.0, 25.0, 25.0, 18.8, 12.5, 6.2, 6.2, 4.7, 3.1, 1.6, 0.8),
    "I-4": (5.1, 90.6, 66.8, 66.8, 55.2, 40.6, 22.4, 22.4, 17.2, 11.7, 6.0, 3.0),
    "II-2": (2.8, 88.9, 75.0, 55.6, 30.6, 30.6, 25.8, 21.0, 16.0, 10.8, 5.5, 3.7),
    "II-5": (3.5, 96.2, 94.0, 84.6, 58.6, 58.6, 51.6, 43.7, 34.6, 24.4, 12.9, 8.8),
    "III-3": (4.3, 94.9, 91.8, 85.2, 73.8, 56.6, 32.4, 32.4, 28.8, 25.1, 17.3, 8.9),
    "IV-2": (1.0, 96.0, 91.0, 84.0, 75.0, 64.0, 51.0, 36.0, 19.0, 19.0, 15.4, 11.6),
    "IV-5": (0.9, 99.1, 99.0, 98.2, 96.2, 91.6, 82.7, 66.9, 40.8, 40.8, 34.0, 26.5),
    "V-1": (8.3, 83.3, 75.0, 66.7, 58.3, 50.0, 41.7, 33.3, 25.0, 16.7, 8.3, 6.9),
    "V-3": (2.0, 97.8, 96.9, 94.9, 91.6, 86.5, 79.3, 69.7, 57.3, 41.8, 22.8, 19.3),
}


def near(value: Any, printed: float) -> bool:
    """The catalogue prints percentages to 0.1: within half of that (6.25 may print 6.2)."""
    return abs(float(Fraction(value.exact)) * 100 - printed) <= 0.05 + 1e-9


@pytest.mark.parametrize("pool", sorted(T1))
def test_table_t1(pool):
    cf, *chances = T1[pool]
    for tn, printed in zip(T1_TNS, chances, strict=True):
        found = odds(check, {"pool": pool, "tn": tn})
        assert near(found.success, printed), (pool, tn)
        assert near(found.critical_failure, cf)
        assert Fraction(found.truncation.mass_cut.exact) < Fraction(1, 10**12)


@pytest.mark.parametrize(
    ("pool", "tn", "success", "cf"),
    [("I-1", 5, "1/4", "1/4"), ("II-1", 5, "1/3", "1/6"), ("III-2", 5, "3/4", "1/64"),
     ("IV-3", 3, "121/125", "7/250"), ("III-3", 7, "145/256", "11/256"),
     ("II-2", 11, "35/324", "1/36"), ("III-1", 11, "3/32", "1/8")],
)  # fmt: skip
def test_table_t3_exactly_but_for_the_mass_cut(pool, tn, success, cf):
    """T3's fractions are of unending explosions: the service's are below them by at most
    the mass it states it left out."""
    found = odds(check, {"pool": pool, "tn": tn})
    cut = Fraction(found.truncation.mass_cut.exact)
    assert 0 <= Fraction(success) - Fraction(found.success.exact) <= cut
    assert Fraction(found.critical_failure.exact) == Fraction(cf)


def brute_force(pool: str, tn: int) -> Fraction:
    """Plain dice: every face of every die, the highest kept, more than half 1s failing."""
    column, row = pool.split("-")
    sides, n = SIDES[column], int(row)
    wins = sum(1 for faces in product(range(1, sides + 1), repeat=n)
               if 2 * faces.count(1) <= n and max(faces) >= tn)  # fmt: skip
    return Fraction(wins, sides**n)


@pytest.mark.parametrize("pool", [f"{c}-{n}" for c in SIDES for n in range(1, 6)])
def test_plain_dice_match_the_enumeration(pool):
    """T2 (asterisks off, as for lifting): nothing explodes."""
    for tn in (3, 5, 7, 9, 11):
        found = odds(test, {"pool": pool, "tn": tn, "allow_asterisks": False})
        assert Fraction(found.success.exact) == brute_force(pool, tn)
        assert found.truncation is None


@pytest.mark.parametrize(
    ("pool", "tn", "printed"),
    [("II-1", 5, 8.3), ("III-2", 5, 20.7), ("III-3", 6, 21.3), ("IV-3", 7, 19.4), ("V-4", 5, 68.3)],
)
def test_table_t16_defaults(pool, tn, printed):
    """T16: untrained Dexterity, the total halved: success needs twice the TN."""
    assert near(odds(default_roll, {"pool": pool, "tn": tn}).success, printed)


def test_a_test_without_a_deck_is_refused_on_the_deck_engine():
    with pytest.raises(InputError) as refused:
        run(test, {"pool": "III-3", "tn": 7, "options": {"engine": "deck"}, "dice": {"seed": 1}})
    assert refused.value.loc == ("options", "engine")


def test_opposed_rolls():
    """The resister's result is the initiator's TN; ties to the initiator (A-08)."""
    found = run(opposed, {"initiator": {"pool": "III-2"}, "resister": {"pool": "IV-1"},
                          "dice": {"values": [5, 7, 7]}})  # fmt: skip
    assert (found.initiator.kept, found.resister.kept, found.winner) == (7, 7, "initiator")
    quo = {"initiator": {"pool": "III-2"}, "resister": {"pool": "IV-1"},
           "options": {"tie_goes_to": "status_quo"}, "dice": {"values": [5, 7, 7]}}  # fmt: skip
    assert run(opposed, quo).winner == "status_quo"
    chances = odds(opposed, {"initiator": {"pool": "I-1"}, "resister": {"pool": "I-1"}})
    total = sum(Fraction(row.exact) for row in chances.winner)
    assert total == 1 - Fraction(chances.truncation.mass_cut.exact)


def test_plain_and_open_ended_dice():
    """FI:L591: the CT d6 is open-ended; FI:L581: hours unconscious are not."""
    assert (
        run(
            dice_roll, {"count": 1, "sides": 6, "open_ended": True, "dice": {"values": [6, 2]}}
        ).total
        == 8
    )
    assert run(dice_roll, {"count": 1, "sides": 6, "dice": {"values": [6]}}).total == 6


def test_a_player_may_stop_a_die_on_its_maximum():
    """A-07 ([EXT] chapter 1): with several maxima a player may keep one instead of rolling
    it again; by default every maximum rolls again."""
    body = {"pool": "II-2", "tn": 5, "dice": {"values": [6, 6, 3, 2]}}
    assert run(check, body).kept == 15
    stopped = {**body, "max_rerolls": [0], "options": {"explode_policy": "client_choice"},
               "dice": {"values": [6, 6, 3]}}  # fmt: skip
    found = run(check, stopped)
    assert ([d.faces for d in found.dice], found.kept) == ([(6,), (6, 3)], 9)
    with pytest.raises(InputError) as refused:
        run(check, {**body, "max_rerolls": [0]})
    assert refused.value.loc == ("max_rerolls",)


def test_stopped_dice_odds_by_enumeration():
    """A d6 stopped at its first maximum is a plain d6, and the other rolls every maximum:
    P(no critical failure and a die at 8 or more), enumerated."""
    plain = {v: Fraction(1, 6) for v in range(1, 7)}
    rolling = {v: Fraction(1, 6) ** (v // 6 + 1) for v in range(1, 200) if v % 6}
    expected = sum(p * q for a, p in plain.items() for b, q in rolling.items()
                   if not (a == 1 and b == 1) and max(a, b) >= 8)  # fmt: skip
    found = odds(check, {"pool": "II-2", "tn": 8, "max_rerolls": [0],
                         "options": {"explode_policy": "client_choice"}})  # fmt: skip
    cut = Fraction(found.truncation.mass_cut.exact)
    assert abs(Fraction(found.success.exact) - expected) <= cut + Fraction(1, 10**12)


def test_a_wound_penalty_lowers_the_result_not_the_tn():
    """E-27, FI:L573 against FI:L570: a Light and a Serious wound cost the Serious penalty,
    which the table gives as -4 and the example as -3; the check takes the penalty it is
    given (the table lookup, A-63, is part 2's `fi.wounds.modifier`): -4 takes a 7 to 3."""
    body = {"pool": "III-1", "tn": 6, "wound_penalty": -4, "dice": {"values": [7]}}
    found = run(check, body)
    assert (found.kept, found.en, found.success) == (7, 3, False)
    assert run(check, {**body, "wound_penalty": -1, "dice": {"values": [7]}}).success


@pytest.mark.parametrize("operation", [check, test, default_roll])
def test_the_bumps_table_keeps_every_bump_however_many(operation):
    """FI:L147: a success and a bump for each step over the TN, and a check has no ceiling
    (FI:L133, "always open ended"). I-1 at TN 0 with +400 and a bump a point (A-05): a 2
    makes 402 bumps, a 2 or a 3 201 on a default (the total halved, FI:L247, A-09); the table
    once stopped at 99 bumps and held only the failures."""
    request = {"pool": "I-1", "tn": 0, "modifiers": [50] * 8, "options": {"bump_step": 1}}
    found = odds(operation, request)
    rows = {row.outcome: Fraction(row.exact) for row in found.bumps}
    assert sum(rows.values()) + Fraction(found.truncation.mass_cut.exact) == 1
    assert rows["failure"] == Fraction(1, 4)  # the 1: a critical failure
    if operation is default_roll:
        assert rows["201"] == Fraction(1, 2)
    else:
        assert rows["402"] == Fraction(1, 4)
    assert run(operation, {**request, "dice": {"values": [2]}}).bumps == (
        201 if operation is default_roll else 402
    )


@pytest.mark.parametrize(
    ("rule", "request_"),
    [
        (check, {"pool": "III-3", "tn": 5}),
        (default_roll, {"pool": "III-3", "tn": 5}),
        (opposed, {"initiator": {"pool": "III-2"}, "resister": {"pool": "IV-1"}}),
    ],
)
def test_rolls_of_dice_refuse_the_deck_engine(rule, request_):
    """Checks are rolled with dice ("Checks are always open ended", FI:L133; catalogue A-01
    reading (c)); only core/test reads an Action Deck. `engine: deck` here was accepted and
    the dice rolled anyway, even with no deck configured: it is refused, odds and roll."""
    deck = {**request_, "options": {"engine": "deck"}}
    with pytest.raises(InputError, match="core/test"):
        odds(rule, deck)
    with pytest.raises(InputError, match="core/test"):
        run(rule, {**deck, "dice": {"seed": 1}})
