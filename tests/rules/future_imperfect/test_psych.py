"""Future Imperfect psychology (catalogue 2.9, 3.10) against the chapter (FI:L625-710), the
tables T9, T10, T21 and T22 (sections 5.4, 5.6) and the oracle."""

from fractions import Fraction

import pytest

from service.rules.future_imperfect.core.rolls import opposed
from service.rules.future_imperfect.psych.contests import (
    chip_resistance,
    contest,
    effects,
    simple_contest,
)
from service.rules.future_imperfect.psych.fear import fear, terrified, terror
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.future_imperfect.oracle import check_outcomes

EFFECTS = ("none", "annoyed", "distraught", "broken")
#: T9 (ties to the initiator) and T21 (to the resister): annoyed, distraught, broken; the
#: catalogue prints "no effect" as 100 less the rounded others, so it is checked as the rest.
T9 = {("III-3", "III-3"): ("35.6", "13.9", "5.4"), ("II-2", "II-2"): ("40.8", "12.6", "3.6"),
      ("IV-3", "II-2"): ("39.6", "23.5", "15.4"), ("II-2", "IV-3"): ("18.9", "4.9", "1.4"),
      ("V-4", "I-1"): ("16.0", "47.9", "32.5"),
      ("III-1", "III-1"): ("39.3", "10.3", "4.4")}  # fmt: skip
T21 = {("III-3", "III-3"): ("26.6", "12.0", "4.1"), ("II-2", "II-2"): ("30.3", "9.8", "2.8"),
       ("IV-3", "II-2"): ("43.0", "17.3", "13.2")}  # fmt: skip


def _effects(initiator: str, resister: str, tie: str) -> dict[str, Fraction]:
    return table(odds(contest, {"contest": "bluff", "initiator": {"pool": initiator},
                                "resister": {"pool": resister},
                                "options": {"tie_goes_to": tie}}).effect)  # fmt: skip


@pytest.mark.parametrize(("pools", "tie", "expected"),
                         [*((p, "initiator", e) for p, e in T9.items()),
                          *((p, "resister", e) for p, e in T21.items())])  # fmt: skip
def test_contest_effects_match_t9_and_t21(pools, tie, expected):
    """T9, T21: successes are 1 and 1 a bump over the resister's result (A-70); with ties to
    the resister his result plus one is the TN the bumps count from."""
    found = _effects(*pools, tie)
    for effect, printed in zip(EFFECTS[1:], expected, strict=True):
        # To its printed tenth; T21's 12.0 for III-3 is exactly 12.051%, so a hair more.
        assert abs(float(found.get(effect, 0)) * 100 - float(printed)) <= 0.06, effect


def test_a_contest_against_the_oracle():
    """1d6 against 1d6: the resister's critical failure still sets the TN (catalogue 1.4)."""
    found = _effects("II-1", "II-1", "initiator")
    expected = {e: Fraction(0) for e in EFFECTS}
    for a_cf, a, pa in check_outcomes(6, 1, 100):
        for _, b, pb in check_outcomes(6, 1, 100):
            successes = 0 if a_cf or a < b else 1 + (a - b) // 5
            expected[EFFECTS[min(successes, 3)]] += pa * pb
    for effect in ("annoyed", "distraught"):  # dice over 100 weigh under 6**-32
        assert abs(found[effect] - expected[effect]) < Fraction(1, 10**12)


@pytest.mark.parametrize(
    ("pools", "chance"), [(("III-2", "IV-1"), "61.0"), (("II-2", "II-2"), "56.9")]
)
def test_opposed_rolls_match_t22(pools, chance):
    """T22: P(the initiator wins), ties to him, his critical failure a loss. (The third row,
    III-3 against III-3, prints 54.9 where the exact value is 0.54984: a truncation.)"""
    found = odds(opposed, {"initiator": {"pool": pools[0]}, "resister": {"pool": pools[1]}})
    assert f"{found.initiator_wins.float * 100:.1f}" == chance


def test_the_contest_names_its_opposing_skill_and_effect():
    """FI:L637-646: bluff against scrutinize, intimidate against bravery; 2 successes make the
    target distraught."""
    found = run(contest, {"contest": "intimidate", "initiator": {"pool": "II-1"},
                          "resister": {"pool": "II-1"}, "dice": {"values": [6, 5, 2]}})  # fmt: skip
    assert (found.opposed_skill, found.successes, found.effect) == ("bravery", 2, "distraught")
    fumble = {"contest": "bluff", "initiator": {"pool": "I-1"}, "resister": {"pool": "I-1"},
              "dice": {"values": [1, 1]}}  # fmt: skip
    assert run(contest, fumble).effect == "none"


def test_the_effects_are_cumulative():
    """FI:L650-658: annoyed -4; distraught loses the highest card, or the reserve; broken
    draws the initiator a chip from the pot."""
    annoyed = run(effects, {"effect": "annoyed", "hand": [9, 4], "dice": {"seed": 1}})
    assert (annoyed.penalty, annoyed.lost_card, annoyed.hand) == (-4, None, [9, 4])
    upset = run(effects, {"effect": "distraught", "hand": [9, 4], "dice": {"seed": 1}})
    assert (upset.lost_card, upset.hand) == (9, [4])
    reserve = run(effects, {"effect": "distraught", "hand": [9, 4], "reserve": 12,
                            "dice": {"seed": 1}})  # fmt: skip
    assert (reserve.lost_card, reserve.lost_reserve, reserve.hand, reserve.reserve) == (
        12, True, [9, 4], None)  # fmt: skip
    broken = run(effects, {"effect": "broken", "hand": [9], "dice": {"values": [85]}})
    assert (broken.lost_card, broken.chip) == (9, "blue")
    chips = table(odds(effects, {"effect": "broken"}).chip)
    assert chips == {"white": Fraction(50, 85), "red": Fraction(25, 85), "blue": Fraction(10, 85)}


@pytest.mark.parametrize(
    ("target", "tn"),
    [("II-2", 3), ("III-2", 5), ("IV-2", 7), ("V-2", 7), ("III-3", 6), ("V-3", 8)],
)
def test_a_simple_contest_reads_its_tn_from_the_die_types(target, tn):
    """FI:L666-672: less 3, equal 5, greater 7, more than 2 greater 9; +1 at level 3."""
    found = run(simple_contest, {"initiator": {"pool": "III-2"}, "target": target,
                                 "dice": {"values": [2, 2]}})  # fmt: skip
    assert found.tn == tn


def test_more_than_two_greater():
    """A-72: three die steps up is 'more than 2 greater' (TN 9); counting sides, two do."""
    far = {"initiator": {"pool": "I-2"}, "target": "IV-1", "dice": {"values": [2, 2]}}
    assert run(simple_contest, far).tn == 9
    near = {"initiator": {"pool": "I-2"}, "target": "III-1", "dice": {"values": [2, 2]}}
    assert run(simple_contest, near).tn == 7
    sides = {**near, "options": {"simple_contest_gap_unit": "sides"}}
    assert run(simple_contest, sides).tn == 9


def test_counting_sides_reads_a_configured_column_6_die():
    """FI:L666-670, A-72 and A-02: counted in sides, a target rolling column 6 set to d20
    against an initiator's d12 is 8 sides greater, more than 2 greater: TN 9 (it was read as
    no die at all, 0 sides, 'less': TN 3); with no die set for column 6 the gap cannot be
    counted in sides and the request is refused."""
    base = {"initiator": {"pool": "V-2"}, "target": "VI-1"}
    rolled = {**base, "dice": {"values": [2, 2]}}
    sides = {"simple_contest_gap_unit": "sides"}
    assert run(simple_contest, {**rolled, "options": {**sides, "column_6_die": 20}}).tn == 9
    tiers = table(odds(simple_contest, {**base, "options": {**sides, "column_6_die": 20}}).tier)
    at_7 = table(odds(simple_contest, {"initiator": {"pool": "V-2"}, "target": "VI-1"}).tier)
    assert tiers["failure"] > at_7["failure"]  # TN 9, not the steps' 7
    with pytest.raises(InputError):
        run(simple_contest, {**rolled, "options": sides})
    with pytest.raises(InputError):
        odds(simple_contest, {**base, "options": sides})
    assert run(simple_contest, rolled).tn == 7  # steps: one column up, greater


def test_antares_blathers_the_desk_sergeant():
    """E-28, FI:L678: fail and Harry is noticed; success and he gets past; a bump and he is in
    and out unseen."""
    stakes = {"failure": "noticed", "success": "gets past", "bump": "in and out unseen"}
    base = {"initiator": {"pool": "III-3"}, "target": "III-2", "stakes": stakes}
    tiers = [run(simple_contest, {**base, "dice": {"values": v}}).stake
             for v in ([4, 2, 3], [6, 2, 3], [8, 3, 2, 3])]  # fmt: skip
    assert tiers == ["noticed", "gets past", "in and out unseen"]
    chances = table(odds(simple_contest, base).tier)
    assert float(chances["failure"]) == pytest.approx(1 - 0.852, abs=5e-4)  # T1 III-3 at TN 5


def test_resistance_can_be_paid_in_chips():
    """FI:L686: a chip for each success of the NPC's task, or he learns the information."""
    assert run(chip_resistance, {"successes": 2, "pay": True, "chips_held": 3}).chips_paid == 2
    assert run(chip_resistance, {"successes": 2, "pay": False, "chips_held": 3}).revealed
    with pytest.raises(InputError):
        run(chip_resistance, {"successes": 4, "pay": True, "chips_held": 3})


T10 = {("II-2", 5): ("2.8", "41.7", "39.6", "12.3", "3.7"),
       ("III-3", 7): ("4.3", "39.1", "35.4", "16.7", "4.5"),
       ("IV-4", 9): ("0.4", "40.7", "33.8", "17.4", "7.8"),
       ("V-2", 11): ("0.7", "68.8", "18.4", "6.6", "5.5"),
       ("III-3", 11): ("4.3", "70.6", "20.6", "2.3", "2.3")}  # fmt: skip


@pytest.mark.parametrize(("case", "expected"), T10.items())
def test_fear_matches_t10(case, expected):
    """T10, FI:L696-702: 0 successes broken, 1 distraught, 2 annoyed, 3+ nothing; CF terrified."""
    found = table(odds(fear, {"pool": case[0], "tn": case[1]}).effect)
    order = ("terrified", "broken", "distraught", "annoyed", "none")
    assert tuple(f"{float(found.get(e, 0)) * 100:.1f}" for e in order) == expected


def test_terror_adds_the_red_joker():
    """FI:L706: a critical failure or drawing a step 0 makes the Hero catatonic; one side card
    of 54 is drawn in the dice engine (A-74)."""
    chances = odds(fear, {"pool": "III-3", "tn": 7})
    fear_odds = table(chances.effect)
    terror_odds = table(odds(terror, {"pool": "III-3", "tn": 7}).effect)
    rest = 1 - fear_odds["terrified"] - Fraction(chances.truncation.mass_cut.exact)
    assert terror_odds["catatonic"] == fear_odds["terrified"] + Fraction(1, 54) * rest
    assert terror_odds["broken"] == fear_odds["broken"] * Fraction(53, 54)
    found = run(terror, {"pool": "III-3", "tn": 7, "dice": {"values": [8, 3, 2, 1, 1]}})
    assert (found.step_0, found.effect) == (True, "catatonic")
    ignored = {"pool": "III-3", "tn": 7, "options": {"terror_step0": "ignore"}}
    assert table(odds(terror, ignored).effect)["catatonic"] == fear_odds["terrified"]


def test_catatonic_then_terrified():
    """FI:L706: catatonic: no cards, no actions, not even active defenses; then terrified:
    one card, and flight from the terror (FI:L710)."""
    first = run(terrified, {"state": "catatonic"})
    assert (first.cards, first.may_act, first.active_defense, first.next_state) == (
        0, False, False, "terrified")  # fmt: skip
    second = run(terrified, {"state": first.next_state})
    assert (second.cards, second.must_flee, second.next_state) == (1, True, "steady")
