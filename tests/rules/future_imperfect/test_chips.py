"""Future Imperfect story chips (catalogue 2.10, 3.11.1-3.11.3) against the chapter
(FI:L712-751), table T17 (section 5.3) and the oracle."""

from fractions import Fraction
from math import comb

import pytest

from service.rules.future_imperfect.progress.chips import boost, help_crewmate, impetus, pot, soak
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.future_imperfect.oracle import check_outcomes, open_ended


def test_each_player_draws_up_to_three():
    """E-29, FI:L714: holding two a player draws one, holding five none; the Master draws one
    for the extras."""
    found = run(pot, {"held": [2, 5, 0], "dice": {"seed": 3}})
    assert [len(chips) for chips in found.players] == [1, 0, 3]
    assert found.master is not None
    assert found.pot.white + found.pot.red + found.pot.blue == 85 - 5
    drawn = found.drawn
    assert drawn.white + drawn.red + drawn.blue == 5


def test_the_pot_draws_without_replacement():
    """FI:L714: 10 blue, 25 red and 50 white; a session's draws come out together, so each
    colour's count is hypergeometric."""
    chances = odds(pot, {"held": [0, 0]})  # six players' chips and the Master's: 7 draws
    blue = table(chances.drawn.blue)
    assert blue == {str(k): Fraction(comb(10, k) * comb(75, 7 - k), comb(85, 7))
                    for k in range(8)}  # fmt: skip
    last = run(pot, {"held": [0], "pot": {"white": 0, "red": 0, "blue": 2}, "dice": {"seed": 1}})
    assert (last.players, last.master) == ([["blue", "blue"]], None)


#: T17: P(success) with no chip, a white chip (one die more) and a red or blue one (one
#: open-ended die of the column added to the result).
T17 = {("III-2", 7): ("43.8", "56.6", "88.7"), ("III-3", 9): ("32.4", "41.3", "78.3"),
       ("II-1", 5): ("33.3", "55.6", "75.0"), ("IV-3", 11): ("26.8", "34.4", "78.1")}  # fmt: skip


@pytest.mark.parametrize(("case", "expected"), T17.items())
def test_chips_match_t17(case, expected):
    pool, tn = case
    figures = [Fraction(odds(boost, {"pool": pool, "tn": tn, **chips}).success.exact)
               for chips in ({}, {"white": 1}, {"red": 1})]  # fmt: skip
    assert tuple(f"{float(p) * 100:.1f}" for p in figures) == expected
    blue = Fraction(odds(boost, {"pool": pool, "tn": tn, "blue": 1}).success.exact)
    assert blue > figures[2]  # a blue chip may rescue a critical failure too


def test_a_red_chip_against_the_oracle():
    """1d6 at TN 9 with a red chip: no critical failure, and the die and the chip's d6
    (open-ended both) reach 9. Every pair under 9 is enumerated, so the miss is exact."""
    d6 = open_ended(6, 9)
    missed = sum(p for cf, _, p in check_outcomes(6, 1, 40) if cf)
    missed += sum(p * q for cf, kept, p in check_outcomes(6, 1, 9) if not cf
                  for extra, q in d6.items() if kept + extra < 9)  # fmt: skip
    chances = odds(boost, {"pool": "II-1", "tn": 9, "red": 1})
    cut = Fraction(chances.truncation.mass_cut.exact)
    assert 1 - Fraction(chances.success.exact) - cut == missed


def test_no_white_or_red_on_a_critical_failure_but_blue():
    """FI:L724-730: a white chip draws one card more before choosing; a red adds a card; a
    blue the same even on a critical failure (A-75: reaching the TN succeeds)."""
    white = run(boost, {"pool": "II-1", "tn": 5, "white": 1, "dice": {"values": [2, 5]}})
    assert (white.check.kept, white.success) == (5, True)
    red = run(boost, {"pool": "II-1", "tn": 5, "red": 1, "dice": {"values": [1]}})
    assert (red.added, red.success, red.spent.red) == ([], False, 0)  # kept, after the reveal
    declared = {"pool": "II-1", "tn": 5, "red": 1, "options": {"chip_timing": "before_reveal"},
                "dice": {"values": [1]}}  # fmt: skip
    assert run(boost, declared).spent.red == 1
    blue = run(boost, {"pool": "II-1", "tn": 5, "blue": 1, "dice": {"values": [1, 4]}})
    assert (blue.en, blue.success) == (5, True)
    weak = {"pool": "II-1", "tn": 5, "blue": 1, "options": {"blue_on_cf": "mitigate_only"},
            "dice": {"values": [1, 4]}}  # fmt: skip
    assert (run(boost, weak).en, run(boost, weak).success) == (5, False)
    with pytest.raises(InputError) as refused:
        run(boost, {"pool": "II-1", "tn": 5, "white": 1, "terror": True, "dice": {"seed": 1}})
    assert refused.value.loc == ("terror",)


def test_any_chip_makes_an_impetus_check_skilled():
    """FI:L732."""
    found = run(impetus, {"chips": {"white": 0, "red": 1, "blue": 0}, "colour": "red",
                          "invoking_impetus": True})  # fmt: skip
    assert (found.skilled, found.chips.red) == (True, 0)
    with pytest.raises(InputError):
        run(impetus, {"chips": {"white": 1, "red": 0, "blue": 0}, "colour": "white",
                      "invoking_impetus": False})  # fmt: skip


@pytest.mark.parametrize(
    ("colour", "wounds", "ct"), [("white", 1, 5), ("red", 2, 10), ("blue", 3, 15)]
)
def test_saving_your_skin(colour, wounds, ct):
    """FI:L740-743: white negates up to 1 wound or 5 CT, red 2 or 10, blue 3 or 15."""
    spend = [{"colour": colour, "on": "wounds"}, {"colour": colour, "on": "ct"}]
    found = run(soak, {"wounds": 3, "ct": 20, "chips": spend})
    assert (found.wounds, found.ct) == (3 - wounds, 20 - ct)


def test_red_and_blue_short_of_their_value_negate_the_ct_roll():
    """FI:L738: negated wounds do not stop the CT (rolled for the attack's levels, A-76);
    FI:L745: a red or blue chip negating less than its full value negates the CT roll too."""
    white = run(soak, {"wounds": 2, "chips": [{"colour": "white", "on": "wounds"}]})
    assert (white.wounds, white.ct_dice_levels, white.ct_roll_negated) == (1, 2, False)
    remaining = {"wounds": 2, "chips": [{"colour": "white", "on": "wounds"}],
                 "options": {"soak_ct_basis": "remaining_levels"}}  # fmt: skip
    assert run(soak, remaining).ct_dice_levels == 1
    blue = run(soak, {"wounds": 2, "chips": [{"colour": "blue", "on": "wounds"}]})
    assert (blue.wounds, blue.ct_dice_levels, blue.ct_roll_negated) == (0, 0, True)
    full = run(soak, {"wounds": 2, "chips": [{"colour": "red", "on": "wounds"}]})
    assert (full.ct_dice_levels, full.ct_roll_negated) == (2, False)


def test_no_chips_for_the_damage_of_a_crewmate_with_chips():
    """FI:L751."""
    assert not run(help_crewmate, {"purpose": "damage", "beneficiary_chips": 1}).allowed
    assert run(help_crewmate, {"purpose": "damage", "beneficiary_chips": 0}).allowed
    assert run(help_crewmate, {"purpose": "roll", "beneficiary_chips": 3}).allowed
