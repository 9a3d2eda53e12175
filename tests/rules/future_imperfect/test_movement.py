"""Future Imperfect movement and load (catalogue 2.3, 3.3) against the chapter's examples
(E-01 to E-05, E-33; FI:L69-139), tables T12 and T15 (section 5.7) and the oracle."""

from collections.abc import Iterator
from fractions import Fraction

import pytest

from service.rules.future_imperfect.core import deck as decks
from service.rules.future_imperfect.core.checks import test
from service.rules.future_imperfect.movement.load import encumbrance, gravity, lifting
from service.rules.future_imperfect.movement.rate import action_move, rate, step_up
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.future_imperfect.oracle import check_outcomes
from tests.rules.future_imperfect.test_deck import DECK, configured

SIDES = {"I": 4, "II": 6, "III": 8, "IV": 10, "V": 12}


def test_ryssh_runs_16_meters_and_steps_up_d4_plus_1_for_1_ct():
    """E-01, FI:L106: Dexterity 8, running, 16 m a round; stepping up, d4+1 more for 1 CT (he
    pays CT, so he is an Avatar, a MekPurr or a Canine, not a Transhuman)."""
    found = run(rate, {"dexterity": "2d8"})
    assert (found.rate, found.run_per_action, found.most_per_round) == (8, 8, 16)
    stepped = run(step_up, {"species": "canine", "dice": {"values": [3]}})
    assert (stepped.meters, stepped.ct_cost, stepped.ct_paid_by) == (4, 1, "self")
    transhuman = run(step_up, {"species": "transhuman", "dice": {"values": [3]}})
    assert transhuman.ct_cost == 0  # FI:L104


def test_climbing_and_swimming_rates():
    """FI:L93-100: climbing 2 + level, Max 8; swimming the level; neither runs (FI:L85)."""
    climb = run(rate, {"move_type": "climbing", "skill_level": 9})
    assert (climb.rate, climb.run_per_action, climb.most_per_round, climb.max) == (11, None, 8, 8)
    swim = run(rate, {"move_type": "swimming", "skill_level": 3})
    assert (swim.rate, swim.step_up_die) == (3, 2)  # swimming's blank row read as climbing's
    blank = run(rate, {"move_type": "swimming", "skill_level": 3,
                       "options": {"swimming_row": "blank"}})  # fmt: skip
    assert blank.step_up_die is None
    with pytest.raises(InputError) as refused:
        run(rate, {"move_type": "driving"})
    assert refused.value.loc == ("vehicle_rate",)


@pytest.mark.parametrize(
    ("meters", "mode", "penalty"),
    [(4, "walk", 0), (4.5, "run", -4), (8, "run", -4), (9, "illegal", 0)],
)
def test_half_the_rate_walks_and_the_rate_runs(meters, mode, penalty):
    """FI:L73, FI:L77: up to half the Rate in an action walks; over it, to the Rate, runs, at
    -4 to the other actions; so running covers 2 x Rate a round (E-33)."""
    found = run(action_move, {"rate": 8, "meters": meters})
    assert (found.mode, found.running_penalty) == (mode, penalty)


def test_two_move_actions_and_no_running_up_a_cliff():
    """FI:L75: still two move actions with a reserve card or a step 14; FI:L85: climbing and
    swimming never run nor pass the Max, though a step up may (A-27)."""
    assert run(action_move, {"rate": 8, "meters": 2, "move_number": 3}).mode == "illegal"
    assert run(action_move, {"rate": 8, "meters": 11, "stepped_up": 3}).mode == "run"
    climbing = {"move_type": "climbing", "rate": 11, "meters": 5, "moved_this_round": 3}
    assert run(action_move, climbing).mode == "walk"
    assert run(action_move, {**climbing, "meters": 6}).mode == "illegal"
    over = {**climbing, "meters": 7, "stepped_up": 2}
    assert run(action_move, over).mode == "walk"
    assert (
        run(action_move, {**over, "options": {"step_up_can_exceed_max": False}}).mode == "illegal"
    )


@pytest.mark.parametrize(
    ("request_", "faces"),
    [({"move_type": "foot"}, {1, 2, 3, 4}),
     ({"move_type": "foot", "species": "avatar"}, {2, 3, 4, 5}),
     ({"move_type": "climbing"}, {1, 2}), ({"move_type": "climbing", "claws": True}, {2, 3}),
     ({"move_type": "swimming", "webbed": True}, {2, 3})],
)  # fmt: skip
def test_step_up_meters_follow_t15(request_, faces):
    """T15: the step-up die is never rolled again on a Max (FI:L102); uniform on its faces."""
    found = table(odds(step_up, request_).meters)
    assert found == {str(f): Fraction(1, len(faces)) for f in faces}


@pytest.mark.parametrize(
    ("request_", "field"),
    [({"move_type": "foot", "step_up_die": 6}, "step_up_die"),
     ({"move_type": "climbing", "step_up_die": 4}, "step_up_die"),
     ({"move_type": "foot", "control": "II-1"}, "control"),
     ({"move_type": "swimming", "control": "II-1"}, "control")],
)  # fmt: skip
def test_step_up_refuses_what_the_table_and_the_text_do_not_allow(request_, field):
    """FI:L91-93 print d4 on foot and d2 climbing: a mount's or vehicle's die is no
    override for them (the old code stepped a human up a d6 on foot). Only a rider or a
    driver makes a Fair (5) check to step up (FI:L83-85): a check given on foot was ignored."""
    for call in (lambda: odds(step_up, request_),
                 lambda: run(step_up, {**request_, "dice": {"values": [1, 1]}})):  # fmt: skip
        with pytest.raises(InputError) as refused:
            call()
        assert refused.value.loc == (field,)


def test_a_mount_steps_up_on_a_fair_riding_check_and_pays_the_ct():
    """FI:L83: a Fair (5) riding check; the animal takes the CT. FI:L85: a vehicle takes none."""
    riding = {"move_type": "riding", "step_up_die": 6, "control": "III-1"}
    found = run(step_up, {**riding, "dice": {"values": [5, 4]}})
    assert (found.meters, found.ct_cost, found.ct_paid_by) == (4, 1, "mount")
    failed = run(step_up, {**riding, "dice": {"values": [4]}})
    assert (failed.meters, failed.ct_cost) == (0, 0)
    chances = table(odds(step_up, riding).meters)
    assert chances["0"] == Fraction(1, 2)  # 1d8 reaches 5 half the time
    driving = run(step_up, {"move_type": "driving", "step_up_die": 4, "control": "III-1",
                            "dice": {"values": [6, 2]}})  # fmt: skip
    assert (driving.ct_cost, driving.ct_paid_by) == (0, "none")


def test_tara_7s_loads():
    """E-03, FI:L116: Strength 6 carries 18 kg freely; 18 light, 36 medium, 60 heavy; her
    Lift is 90 (FI:L129). The lower bounds are inclusive (A-28)."""
    loads = {kg: run(encumbrance, {"strength": "3d6", "kilograms": kg}).load
             for kg in (17.9, 18, 35.9, 36, 59.9, 60, 90, 90.1)}  # fmt: skip
    assert loads == {17.9: "none", 18: "light", 35.9: "light", 36: "medium", 59.9: "medium",
                     60: "heavy", 90: "heavy", 90.1: "heavy"}  # fmt: skip
    assert run(encumbrance, {"strength": "3d6", "kilograms": 0}).lift == 90
    over = run(encumbrance, {"strength": "3d6", "kilograms": 90.1, "rate": 6})
    assert (over.over_lift, over.rate) == (True, 0)


def test_a_heavy_load_leaves_a_rate_of_8_at_2():
    """E-02, FI:L112; 3/4 and 1/2 of the Rate for light and medium loads, rounded down."""
    rates = [run(encumbrance, {"strength": "2d6", "kilograms": kg, "rate": 8}).rate
             for kg in (10, 20, 40, 60)]  # fmt: skip
    assert rates == [8, 6, 4, 2]
    odd = {"strength": "2d6", "kilograms": 20, "rate": 7}
    assert run(encumbrance, odd).rate == 5
    assert run(encumbrance, {**odd, "options": {"rate_rounding": "none"}}).rate == 5.25


@pytest.mark.parametrize(
    ("species", "light"), [("ursoid", 5), ("saurian", 4), ("avian", 2), ("human", 3)]
)
def test_species_move_the_multipliers(species, light):
    """E-04, FI:L123: 5 x Strength is a light load for an Ursoid; Saurians add one, Avians
    take one away."""
    found = run(encumbrance, {"strength": "1d6", "species": species, "kilograms": 0})
    assert found.light == light * 6


def test_allison_in_low_gravity():
    """E-05, FI:L139: 47 kg at 0.17 G feels like 7.99 kg. The example calls it light there and
    heavy at 1 G, which no reading of a human with Strength 3d6 gives: by her die (the
    default, A-03, as Tara 7 and Ryssh need) it is no load and medium; counted in dice, only
    an Avian or IRSOL (thresholds 6, 15, 27) gets the example's light and heavy."""
    assert run(gravity, {"kilograms": 47, "g": 0.17}).weight == 7.99
    allison = {"strength": "3d6", "kilograms": 47}
    assert run(encumbrance, {**allison, "g": 0.17}).load == "none"
    assert run(encumbrance, allison).load == "medium"
    book = {**allison, "species": "avian", "options": {"trait_value_basis": "dice_count"}}
    assert run(encumbrance, {**book, "g": 0.17}).load == "light"
    assert run(encumbrance, book).load == "heavy"
    literal = {"kilograms": 47, "g": 0.17, "options": {"gravity_scales": "thresholds"}}
    assert (run(gravity, literal).weight, run(gravity, literal).threshold_factor) == (47, 0.17)


T12 = {"I-1": ("50.0", "0.0"), "I-3": ("78.1", "0.0"), "I-5": ("88.1", "0.0"),
       "II-1": ("66.7", "0.0"), "II-3": ("90.7", "0.0"), "II-5": ("96.2", "0.0"),
       "III-1": ("75.0", "0.0"), "III-3": ("94.9", "0.0"), "III-5": ("98.3", "0.0"),
       "IV-1": ("80.0", "10.0"), "IV-3": ("96.8", "26.8"), "IV-5": ("99.1", "40.8"),
       "V-1": ("83.3", "25.0"), "V-3": ("97.8", "57.3"), "V-5": ("99.5", "76.0")}  # fmt: skip


@pytest.mark.parametrize("pool", sorted(T12))
def test_lifting_odds_match_t12(pool):
    """T12: over the heavy load TN 3; 5% over the Lift needs TN 5 and a bump; the test rolls
    no die again (FI:L131), so 10% over is never lifted."""
    heavy = 10 * SIDES[pool.split("-")[0]]
    figures = []
    for kilograms in (heavy + 1, heavy * 1.5 * 1.05, heavy * 1.5 * 1.1):
        found = table(odds(lifting, {"strength": pool, "kilograms": kilograms}).lifted)
        figures.append(found.get("true", Fraction(0)))
    assert [f"{float(p) * 100:.1f}" for p in figures[:2]] == list(T12[pool])
    assert figures[2] == 0


def test_lifting_against_the_oracle():
    """Plain dice (no asterisks): P(lift at TN 3) by enumeration."""
    for sides, dice in ((6, 2), (10, 3)):
        pool = f"{dice}d{sides}"
        expected = sum(p for cf, kept, p in check_outcomes(sides, dice, 0, exploding=False)
                       if not cf and kept >= 3)  # fmt: skip
        found = table(odds(lifting, {"strength": pool, "kilograms": 10 * sides + 1}).lifted)
        assert found["true"] == expected


def test_a_lift_with_time_needs_no_test():
    """FI:L129: with as much time as necessary, the full Lift goes up; over it, a test."""
    easy = run(lifting, {"strength": "3d6", "kilograms": 85, "time_matters": False,
                         "dice": {"seed": 1}})  # fmt: skip
    assert (easy.check, easy.lifted) == (None, True)
    hard = run(lifting, {"strength": "3d10", "kilograms": 151, "dice": {"values": [9, 2, 4]}})
    assert (hard.tn, hard.lifted, hard.most) == (5, False, 150.0)  # 9 at TN 5: no bump
    bumped = run(lifting, {"strength": "3d10", "kilograms": 155, "time_matters": False,
                           "options": {"lift_open_ended": True},
                           "dice": {"values": [10, 3, 2, 4]}})  # fmt: skip
    assert (bumped.check.en, bumped.lifted, bumped.most) == (13, True, 157.5)


@pytest.mark.parametrize("open_ended", [False, True])
@pytest.mark.parametrize(("kilograms", "time_matters"), [(20, True), (60, True), (85, False)])
def test_an_untested_lift_goes_up_certainly(open_ended, kilograms, time_matters):
    """FI:L129: up to the heavy load (60 kg for 3d6), or up to the Lift with as much time as
    necessary, the weight goes up with no test at all, so the odds are exactly 1 with nothing
    cut off, even when the crew makes lifting an open-ended check (FI:L133): no dice are
    rolled whose chains could be truncated. The old code mapped a cut-off check to True and
    answered 1 - 2e-17 without reporting a truncation."""
    found = odds(lifting, {"strength": "3d6", "kilograms": kilograms, "time_matters": time_matters,
                           "options": {"lift_open_ended": open_ended}})  # fmt: skip
    assert table(found.lifted) == {"true": Fraction(1)}
    assert found.truncation is None


@pytest.fixture
def action_deck() -> Iterator[decks.Deck]:
    """test_deck's made-up deck, configured for the test's length."""
    with configured(DECK) as deck:
        yield deck


def test_a_lift_is_a_test_and_reads_the_deck(action_deck):
    """FI:L131: "A lift is a standard test ... Do not draw or use extra cards on asterisks."
    With the deck engine (A-01) the lift draws an Action Card, its asterisks off, as
    core/test does; the old code rolled dice whatever the engine, so options.engine 'deck'
    was accepted and ignored. III-3 Strength: heavy 80 kg, Lift 120; 100 kg is TN 3."""
    deck = {"engine": "deck"}
    tested = odds(test, {"pool": "III-3", "tn": 3, "allow_asterisks": False, "options": deck})
    found = table(odds(lifting, {"strength": "III-3", "kilograms": 100, "options": deck}).lifted)
    assert found["true"] == Fraction(tested.success.exact)
    cells = [c.cell(3, 3) for c in action_deck.cards]
    assert found["true"] == Fraction(sum(1 for c in cells if not c.cf and c.value >= 3), 54)
    # Impulse 1's III-3 cell is a 9 with an asterisk: no card is added (FI:L131).
    lifted = run(lifting, {"strength": "III-3", "kilograms": 100, "options": deck,
                           "dice": {"values": [2]}})  # fmt: skip
    assert (lifted.check.dice[0].faces, lifted.check.en, lifted.lifted) == ((9,), 9, True)
