"""Future Imperfect story chips (catalogue 2.10, 3.11.1-3.11.3) against the chapter
(FI:L712-751), table T17 (section 5.3) and the oracle."""

from fractions import Fraction
from math import comb

import pytest

from service.rules.dice import MAX_SIDES
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


def test_a_draw_from_the_largest_pot_replays_at_the_table():
    """A chip is a die of as many sides as the pot holds chips: the largest pot, 3,000
    chips, draws dice up to MAX_SIDES, and the draws a result reports replay it."""
    full = {"held": [0, 0], "pot": {"white": 1000, "red": 1000, "blue": 1000}}
    drawn = run(pot, {**full, "dice": {"seed": 1}})
    assert max(roll.sides for roll in drawn.rolls) == MAX_SIDES == 3000
    faces = [roll.value for roll in drawn.rolls]
    again = run(pot, {**full, "dice": {"values": faces}})
    assert (again.players, again.master) == (drawn.players, drawn.master)


#: T17: P(success) with no chip, a white chip (one die more) and a red or blue one (one
#: open-ended die of the column added to the result). The white column is not T17's: T17
#: judged the critical failure on the pool and the chip's die together (II-1 as 2d6, a
#: critical failure only on two ones); the chip is drawn "before choosing which to keep"
#: (FI:L724) and cannot be used on a critical failure (FI:L730), so the critical failure is
#: the pool's own dice's (catalogue 3.11.2 "Not usable on a CF"). II-1 at TN 5: 1/3 + 1/2 x
#: 1/3 = 1/2, not T17's 55.6%; `test_white_chip_odds_enumerated` checks each against dice.
T17 = {("III-2", 7): ("43.8", "57.4", "88.7"), ("III-3", 9): ("32.4", "40.3", "78.3"),
       ("II-1", 5): ("33.3", "50.0", "75.0"), ("IV-3", 11): ("26.8", "33.8", "78.1")}  # fmt: skip


@pytest.mark.parametrize(("case", "expected"), T17.items())
def test_chips_match_t17(case, expected):
    """T17, the white column corrected (FI:L724, FI:L730; see `T17`)."""
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


def test_white_chip_cannot_turn_a_roll_into_a_critical_failure():
    """FI:L724, FI:L730, catalogue 3.11.2: the white chip's card is drawn before choosing
    which to keep and is no use on a critical failure, so the critical failure is judged on
    the pool's own dice. III-2 showing 1 and 4 is no critical failure, and the chip's 1 only
    adds a die to choose from: 4 kept against TN 3 succeeds."""
    found = run(boost, {"pool": "III-2", "tn": 3, "white": 1, "dice": {"values": [1, 4, 1]}})
    assert (found.check.critical_failure, found.check.kept, found.success) == (False, 4, True)
    assert [d.value for d in found.check.dice] == [1, 4, 1]


def test_white_chip_is_no_use_on_a_critical_failure():
    """FI:L730, A-06: I-1 showing a 1 is a critical failure; the white chip draws nothing and,
    spent after the reveal (A-10), is kept."""
    found = run(boost, {"pool": "I-1", "tn": 3, "white": 1, "dice": {"values": [1]}})
    assert (found.check.critical_failure, found.success, found.spent.white) == (True, False, 0)
    assert [d.value for d in found.check.dice] == [1]


def _white_missed(sides: int, row: int, white: int, tn: int) -> Fraction:
    """P(failure) with `white` chips, enumerated: a critical failure of the pool's own first
    faces (every face plain, so exact); otherwise the own dice and each chip's die all ending
    below the TN (open-ended dice, every value below the TN enumerated)."""
    missed = sum((p for cf, _, p in check_outcomes(sides, row, 0, exploding=False) if cf),
                 Fraction(0))  # fmt: skip
    chip_below = sum(open_ended(sides, tn).values(), Fraction(0))
    for cf, kept, p in check_outcomes(sides, row, tn):
        if not cf and kept < tn:
            missed += p * chip_below**white
    return missed


@pytest.mark.parametrize(("pool", "sides", "row", "white", "tn"),
                         [("I-1", 4, 1, 1, 3), ("II-1", 6, 1, 1, 5), ("III-2", 8, 2, 1, 7),
                          ("II-3", 6, 3, 2, 9), ("I-2", 4, 2, 3, 6)])  # fmt: skip
def test_white_chip_odds_enumerated(pool, sides, row, white, tn):
    """FI:L724, FI:L730: the odds follow the run, the critical failure the pool's own dice's.
    I-1 against TN 3 with a white chip: 3/4 no critical failure, and then the d4 or the
    chip's d4 at least 3: 2/4 + 1/4 x 2/4 = 5/8. Chains cut off are all successes."""
    chances = odds(boost, {"pool": pool, "tn": tn, "white": white})
    cut = Fraction(chances.truncation.mass_cut.exact) if chances.truncation else Fraction(0)
    assert 1 - Fraction(chances.success.exact) - cut == _white_missed(sides, row, white, tn)
    if pool == "I-1":
        assert Fraction(chances.success.exact) + cut == Fraction(5, 8)


@pytest.mark.parametrize("case", [*T17, ("I-1", 3), ("II-2", 5), ("V-5", 13), ("I-3", 4),
                                  ("I-2", 2), ("II-4", 2)])  # fmt: skip
def test_a_white_chip_never_lowers_the_odds(case):
    """FI:L724: a card more to choose from, never a critical failure more (FI:L730). I-2 at
    TN 2 fails only on two ones, 1/16, chip or none; counting the chip's die toward the
    critical failure made it 2 ones of 3, 10/64. The chains cut off are all successes, so
    they are counted in (a die more cuts more of them)."""
    pool, tn = case
    found = []
    for white in range(3):
        chances = odds(boost, {"pool": pool, "tn": tn, "white": white})
        cut = Fraction(chances.truncation.mass_cut.exact) if chances.truncation else Fraction(0)
        found.append(Fraction(chances.success.exact) + cut)
    assert found[0] <= found[1] <= found[2]
    if case == ("I-2", 2):
        assert found == [Fraction(15, 16)] * 3


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


def test_a_boosted_bumps_table_keeps_every_bump():
    """FI:L147: a bump for each step over the TN, without a ceiling (FI:L133, open ended);
    a red chip adds a die (FI:L726, A-75). At +400 and a bump a point (A-05) the table once
    stopped at 199 bumps, leaving out every success."""
    request = {"pool": "I-1", "tn": 0, "modifiers": [50] * 8, "red": 1,
               "options": {"bump_step": 1}}  # fmt: skip
    found = odds(boost, request)
    rows = table(found.bumps)
    assert sum(rows.values()) + Fraction(found.truncation.mass_cut.exact) == 1
    assert min(int(o) for o in rows if o != "failure") >= 402


def test_a_boost_refuses_the_deck_engine():
    """Chips on a check are read in dice (A-75: a white chip a die more, a red or blue one a
    die added, FI:L724-728); `engine: deck` was accepted and the dice rolled anyway: it is
    refused, odds and roll."""
    request = {"pool": "III-2", "tn": 7, "red": 1, "options": {"engine": "deck"}}
    with pytest.raises(InputError, match="core/test"):
        odds(boost, request)
    with pytest.raises(InputError, match="core/test"):
        run(boost, {**request, "dice": {"seed": 1}})


def test_a_red_chip_adds_to_the_die_before_the_modifiers():
    """A red chip's card is added "to your result" (FI:L726) as catalogue 1.2 places it:
    after the highest die is kept, before the modifiers, the result floored at 0 last (A-09).
    I-1 showing 3 with -6: the chip's 3 makes 6, less 6 is 0, short of TN 3; the old code
    floored 3 - 6 at 0 first and added the chip's 3 after, a success."""
    request = {"pool": "I-1", "tn": 3, "modifiers": [-6], "red": 1}
    found = run(boost, {**request, "dice": {"values": [3, 3]}})
    assert (found.check.kept, found.added, found.en, found.success) == (3, [(3,)], 0, False)
    # No critical failure (the die not a 1) and the die and the chip's die 9 or more.
    die = open_ended(4, 9)
    short = sum(p * q for a, p in die.items() for b, q in die.items() if a != 1 and a + b < 9)
    chance = Fraction(3, 4) - short
    assert abs(Fraction(odds(boost, request).success.exact) - chance) < Fraction(1, 10**12)
