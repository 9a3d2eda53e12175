"""The Future Imperfect environment (catalogue 2.2, 3.2) against the chapter (FI:L13-67), the
falling table T14 and heat stroke T20 (section 5), and the independent oracle."""

from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from service.rules.future_imperfect.environment.air import (
    breath_hold,
    high_pressure,
    suffocation,
    vacuum_breathing,
    vacuum_pressure,
)
from service.rules.future_imperfect.environment.falling import fall, soft_landing, water_landing
from service.rules.future_imperfect.environment.fire import LOCATIONS, on_fire, smoke
from service.rules.future_imperfect.environment.senses import darkness, species_norms
from service.rules.future_imperfect.environment.temperature import (
    cold,
    diagnose,
    heat,
    heat_stroke,
)
from service.rules.future_imperfect.environment.water import drowning
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.future_imperfect.oracle import check_outcomes, open_ended

# Drowning (FI:L15-23)


@pytest.mark.parametrize(
    ("water", "tn"),
    [("swift_creek", 5), ("rapid_river", 7), ("rough_ocean", 9), ("stormy_seas", 11)],
)
def test_the_water_sets_the_tn_and_a_miss_costs_the_difference(water, tn):
    """FI:L17-23: 'If the swimmer doesn't make the TN, he takes the difference in CT.'"""
    found = run(drowning, {"water": water, "swimming": "II-2", "dice": {"values": [2, 3]}})
    assert (found.required, found.tn, found.check.en, found.ct_loss) == (True, tn, 3, tn - 3)


def test_calm_water_asks_nothing_of_a_swimmer_but_a_non_swimmer_over_his_head_rolls():
    """FI:L17: the YMCA pool needs no check 'unless the character has no swimming skill'; a
    non-swimmer over his head goes through the steps: Easy (3), his trait halved (A-15)."""
    calm = run(drowning, {"water": "calm", "swimming": "I-1", "dice": {"seed": 1}})
    assert (calm.required, calm.ct_loss, calm.check) == (False, 0, None)
    sinking = run(drowning, {"water": "calm", "trait": {"pool": "III-1"},
                             "dice": {"values": [5]}})  # fmt: skip
    assert (sinking.tn, sinking.check.en, sinking.ct_loss) == (3, 2, 1)
    with pytest.raises(InputError) as refused:
        run(drowning, {"water": "rapid_river", "dice": {"values": [1]}})
    assert refused.value.loc == ("trait",)


def test_drowning_losses_match_the_oracle():
    """P(losing k CT) needs only the dice below the TN: exact against the oracle."""
    found = table(odds(drowning, {"water": "rough_ocean", "swimming": "III-2"}).ct_loss)
    expected: dict[int, Fraction] = {}
    for cf, kept, p in check_outcomes(8, 2, 9):
        if cf or kept < 9:
            expected[9 - kept] = expected.get(9 - kept, Fraction(0)) + p
    assert {k: v for k, v in found.items() if k != "0"} == {str(k): v for k, v in expected.items()}


# Fire (FI:L31-35)


def test_smoke_is_difficult_and_a_wet_cloth_adds_two():
    """FI:L33: TN 7, +2 with a wet cloth, the difference lost in CT."""
    bare = run(smoke, {"pool": "II-2", "dice": {"values": [3, 2]}})
    cloth = run(smoke, {"pool": "II-2", "wet_cloth": True, "dice": {"values": [3, 2]}})
    assert (bare.ct_loss, cloth.ct_loss) == (4, 2)
    unconscious = {"pool": "II-2", "conscious": False, "dice": {"values": [6, 3, 2]}}
    assert run(smoke, unconscious).ct_loss == 0  # he goes on rolling
    automatic = {**unconscious, "options": {"smoke_unconscious_mode": "automatic_failure"},
                 "dice": {"seed": 1}}  # fmt: skip
    assert run(smoke, automatic).ct_loss == 7


@pytest.mark.parametrize(("fire", "code"), [("small", "1(5)"), ("larger", "2(5)")])
def test_flames_burn_the_areas_on_fire(fire, code):
    """FI:L35: 1(5) for a burning sleeve, 2(5) to the areas of a larger fire; a d12 column."""
    found = run(on_fire, {"fire": fire, "areas": ["left_arm"], "dice": {"seed": 2}})
    assert found.draws[0].code == code
    assert all(1 <= face <= 12 for d in found.draws[0].dice for face in d)


def test_a_character_consumed_burns_everywhere_at_once():
    """FI:L35: 3(5) 'with the wounds applied to every area at once': one draw (A-17)."""
    found = run(on_fire, {"fire": "consumed", "dice": {"seed": 11}})
    assert len(found.draws) == 1
    assert [b.location for b in found.burns] == list(LOCATIONS)
    assert {b.damage for b in found.burns} == {found.draws[0].total}
    assert found.wounds == 6 * (found.draws[0].total // 6)
    assert len(found.concussion) == max(found.wounds, 1)
    with pytest.raises(InputError):
        run(on_fire, {"fire": "small", "areas": ["head", "torso"], "dice": {"seed": 1}})


def test_fire_odds_against_the_oracle():
    """One d12, open-ended, against Size 6: 1 wound on 6-11; and per-area draws add."""
    one = table(odds(on_fire, {"fire": "small", "areas": ["torso"]}).wounds)
    assert (one["0"], one["1"]) == (Fraction(5, 12), Fraction(1, 2))
    two = table(odds(on_fire, {"fire": "larger", "areas": ["torso", "head"]}).wounds)
    d12 = open_ended(12, 12)
    area_unhurt = sum(p * q for a, p in d12.items() for b, q in d12.items() if a + b < 6)
    assert two["0"] == area_unhurt**2  # two areas, each 2(5) summed under 6


# Air and pressure (FI:L37-51)


def test_vacuum_costs_the_difference_unless_there_is_oxygen():
    """FI:L39: a difficult (7) Fortitude check each round; an oxygen source negates it."""
    found = run(vacuum_breathing, {"pool": "II-2", "dice": {"values": [4, 2]}})
    assert found.ct_loss == 3
    assert run(vacuum_breathing, {"pool": "II-2", "oxygen": True, "dice": {"seed": 1}}).ct_loss == 0
    damage = {"pool": "II-2", "options": {"vacuum_loss_kind": "damage"}, "size": 3,
              "dice": {"values": [4, 2]}}  # fmt: skip
    assert (run(vacuum_breathing, damage).wounds, run(vacuum_breathing, damage).ct_loss) == (1, 0)


def test_vacuum_pressure_deals_1_3_without_a_suit():
    """FI:L39: without the equipment, every 2 minutes TN 7 or take 1(3), a d8."""
    found = run(vacuum_pressure, {"pool": "II-2", "options": {"pressure_damage_location": "torso"},
                                  "dice": {"values": [2, 3, 8, 4, 5, 4]}})  # fmt: skip
    assert (found.damage.total, found.wounds, found.location, found.ct_loss) == (12, 2, "torso", 9)
    suit = run(vacuum_pressure, {"pool": "II-2", "equipped": True, "dice": {"seed": 1}})
    assert (suit.check, suit.wounds) == (None, 0)


def test_choking_checks_every_other_round_and_a_skilled_choke_knocks_out():
    """FI:L43: 'Test every other round'; actively choked by a skilled practitioner, every
    round, and 'a single failure causes the character to fall unconscious' (A-19)."""
    second = run(suffocation, {"pool": "II-2", "mode": "choking", "round": 2, "dice": {"seed": 1}})
    assert second.check is None
    first = run(suffocation, {"pool": "II-2", "mode": "choking", "dice": {"values": [3, 2]}})
    assert (first.ct_loss, first.unconscious) == (4, False)
    choke = run(suffocation, {"pool": "II-2", "mode": "active_skilled", "round": 2,
                              "dice": {"values": [3, 2]}})  # fmt: skip
    assert (choke.unconscious, choke.ct_loss) == (True, 4)
    chances = odds(suffocation, {"pool": "II-2", "mode": "active_skilled"})
    cut = Fraction(chances.truncation.mass_cut.exact)
    assert table(chances.unconscious)["true"] + Fraction(chances.success.exact) + cut == 1


@pytest.mark.parametrize(
    ("mode", "scope"),
    [
        ("active_skilled", "active_skilled"),
        ("active_skilled", "all"),
        ("choking", "all"),
        ("environmental", "all"),
    ],
)
def test_a_choke_that_knocks_out_still_costs_the_difference_in_ct(mode, scope):
    """FI:L43: choking 'works exactly the same way' as vacuum, whose failed check costs the
    difference between the EN and the TN (FI:L39); a skilled choke's single failure knocks the
    character out on top of it (A-19), as CT is taken while holding the breath (FI:L47) and an
    unconscious character goes on losing CT (FI:L33). The loss is the oracle's TN - EN."""
    request = {"pool": "II-2", "mode": mode, "options": {"choke_single_failure_scope": scope}}
    found = run(suffocation, {**request, "dice": {"values": [3, 2]}})
    assert (found.unconscious, found.ct_loss) == (True, 4)
    chances = odds(suffocation, request)
    expected: dict[str, Fraction] = {}
    for cf, kept, p in check_outcomes(6, 2, 7):
        if cf or kept < 7:
            expected[str(7 - kept)] = expected.get(str(7 - kept), Fraction(0)) + p
    losses = table(chances.ct_loss)
    assert {k: v for k, v in losses.items() if k != "0"} == expected
    assert table(chances.unconscious)["true"] == sum(expected.values())


def test_breath_is_held_six_turns_a_column_less_half_the_ct():
    """FI:L47: 6 turns per Fortitude column at light tasks, half at strenuous ones; each CT
    taken takes half itself off (kept as halves, A-20)."""
    light = run(breath_hold, {"fortitude_column": 3, "ct_taken": [3]})
    assert (light.turns, light.turns_left, light.suffocating) == (18, 16.5, False)
    hard = run(breath_hold, {"fortitude_column": 3, "exertion": "strenuous", "turns_held": 8,
                             "ct_taken": [3], "options": {"breath_rounding": "floor"}})  # fmt: skip
    assert (hard.turns, hard.turns_left, hard.suffocating) == (9, 0.0, True)


def test_the_bends_halve_max_ct_and_shift_knowledge():
    """FI:L51: TN 5 equipped and skilled (9 at least without); failure halves the maximum CT
    and shifts Knowledge one step left for a day."""
    bent = run(high_pressure, {"pool": "II-1", "max_ct": 25, "knowledge_column": 1,
                               "dice": {"values": [4]}})  # fmt: skip
    assert (bent.bends, bent.max_ct, bent.knowledge_column, bent.hours) == (True, 12, 1, 24)
    fine = run(high_pressure, {"pool": "II-1", "max_ct": 25, "knowledge_column": 3,
                               "dice": {"values": [5]}})  # fmt: skip
    assert (fine.bends, fine.max_ct) == (False, 25)
    deep = run(high_pressure, {"pool": "II-1", "prepared": False, "max_ct": 25,
                               "knowledge_column": 3, "dice": {"values": [5]}})  # fmt: skip
    assert deep.bends


# Temperature (FI:L53-57)


def test_heat_costs_1_1_a_failure_and_heat_stroke_wounds_the_torso():
    """FI:L55: every 6 turns (12 with fluids) a failure loses 1(1) CT; below zero CT the
    checks go on with no CT, and a draw over twice the Fortitude column wounds the torso."""
    hot = run(
        heat, {"pool": "I-2", "tn": 7, "ct": 3, "fluids": True, "dice": {"values": [3, 2, 4, 1]}}
    )
    assert (hot.ct_loss, hot.heat_stroke, hot.next_check_turns) == (5, False, 12)
    stroke = run(heat_stroke, {"pool": "I-2", "tn": 7, "dice": {"values": [3, 2, 3]}})
    assert (stroke.ct_loss, stroke.torso_wound) == (0, True)
    at_zero = {"pool": "I-2", "tn": 7, "ct": 0, "dice": {"values": [3, 2, 3]}}
    assert not run(heat, at_zero).heat_stroke
    assert run(heat, {**at_zero, "options": {"heat_stroke_threshold": "le0"}}).heat_stroke


@pytest.mark.parametrize("column", [1, 2, 3, 4, 5])
def test_heat_stroke_wounds_with_the_odds_of_t20(column):
    """T20: P(1(1) > 2 x Fortitude column) = 2**-column, times the chance of failing."""
    pool = f"{['I', 'II', 'III', 'IV', 'V'][column - 1]}-1"
    chances = odds(heat_stroke, {"pool": pool, "tn": 100})
    failed = sum(open_ended(2 * column + 2, 100).values())
    wound = table(chances.torso_wound)["true"]
    assert abs(wound - failed / 2**column) < Fraction(1, 10**12)


def test_each_cold_failure_takes_a_column_of_acuity():
    """FI:L57: impaired after one failure, apathetic after two, unconscious at Acuity 0."""
    found = run(cold, {"pool": "II-2", "tn": 7, "acuity_column": 2, "dice": {"values": [3, 2]}})
    assert (found.acuity_column, found.failures, found.state) == (1, 1, "impaired")
    again = run(cold, {"pool": "II-2", "tn": 7, "acuity_column": 1, "failures": 1,
                       "dice": {"values": [3, 2]}})  # fmt: skip
    assert (again.acuity_column, again.state) == (0, "unconscious")
    chances = table(odds(cold, {"pool": "II-2", "tn": 7, "acuity_column": 3, "failures": 1}).state)
    assert chances["apathy"] == 1 - Fraction(11, 36)  # II-2 at TN 7: T1's 30.6%


@pytest.mark.parametrize(("skill", "tn"), [("first_aid", 5), ("medicine", 3)])
def test_the_cold_is_diagnosed_with_first_aid_or_medicine(skill, tn):
    """FI:L57: a Standard (5) First Aid or Easy (3) Medicine check."""
    found = run(diagnose, {"pool": "II-1", "skill": skill, "dice": {"values": [4]}})
    assert (found.tn, found.diagnosed) == (tn, tn <= 4)


# Falling (FI:L25-29)


@pytest.mark.parametrize(
    ("meters", "code"),
    [(4.9, None), (5, "2(1)"), (9.9, "2(1)"), (10, "3(1)"), (15, "4(1)"), (20, "5(1)"),
     (25, "5(2)"), (30, "5(3)"), (35, "5(4)"), (40, "5(5)"), (44, "5(5)")],
)  # fmt: skip
def test_a_fall_grows_a_row_then_a_column_every_5_meters(meters, code):
    """FI:L27: 2(1) for the first 5 m, a row more each 5 m, then a column (catalogue 3.2.2)."""
    assert run(fall, {"distance": meters, "dice": {"seed": 1}}).damage_code == code


@pytest.mark.parametrize(
    ("least", "meters", "code"),
    [(5, 4.9, None), (2, 1.9, None), (2, 2, "2(1)"), (0, 0, None), (0, 0.5, "2(1)"),
     (0, 3, "2(1)")],
)  # fmt: skip
def test_min_fall_m_makes_a_short_fall_2_1_and_0_any_fall(least, meters, code):
    """A-11 (b): 2(1) for any fall of 'a few meters' (FI:L27), from min_fall_m; 0 is any fall,
    in run and odds alike."""
    request = {"distance": meters, "options": {"min_fall_m": least}}
    assert run(fall, {**request, "dice": {"seed": 1}}).damage_code == code
    found = table(odds(fall, request).wounds)
    d4 = open_ended(4, 6)
    none = sum(p * q for a, p in d4.items() for b, q in d4.items() if a + b < 6)
    assert found["0"] == (1 if code is None else none)


@pytest.mark.parametrize(
    ("meters", "code"), [(45, "5(6)"), (49.9, "5(6)"), (50, "5(7)"), (80, "5(7)"), (1000, "5(7)")]
)
def test_a_fall_needing_column_6_or_7_answers_its_code_unrolled(meters, code):
    """FI:L27 caps at 5(7), but the chapter never says what columns 6 and 7 roll: until the
    options give them dice the tier is returned with rollable false (A-12, A-02)."""
    found = run(fall, {"distance": meters, "dice": {"seed": 1}})
    assert (found.damage_code, found.rollable, found.wounds) == (code, False, None)
    assert found.damage == []
    chances = odds(fall, {"distance": meters})
    assert (chances.damage_code, chances.rollable, chances.wounds) == (code, False, [])
    wet = run(fall, {"distance": meters, "landing": "soft", "roll": {"pool": "III-1"},
                     "dice": {"values": [7]}})  # fmt: skip
    assert (wet.landing.outcome, wet.total) == ("halved", None)


def test_a_fall_beyond_a_kilometer_is_refused():
    """The service bounds the distance (a kilometer, 200 draws of 2(1) with falling_mode
    per_segment, A-11); everything up to it is answered."""
    with pytest.raises(ValidationError):
        run(fall, {"distance": 1000.5, "dice": {"seed": 1}})
    assert run(fall, {"distance": 1000, "dice": {"seed": 1}}).damage_code == "5(7)"


def test_columns_6_and_7_roll_the_dice_the_options_give():
    """A-02: column_6_die and column_7_die make the capped tiers rollable (A-12)."""
    configured = {"column_6_die": 14, "column_7_die": 16}
    found = run(fall, {"distance": 80, "options": configured, "dice": {"seed": 1}})
    assert (found.damage_code, found.rollable) == ("5(7)", True)
    assert all(face <= 16 for d in found.damage[0].dice for face in d)


def test_a_45_m_fall_on_configured_d14s_against_the_oracle():
    """5(6) with column 6 a d14: P(w wounds) for Size 6 is P(6w <= sum of five open-ended d14
    < 6w + 6), the sum convolved die by die from the oracle, for totals under 30."""
    d14, sums = open_ended(14, 30), {0: Fraction(1)}
    for _ in range(5):
        grown: dict[int, Fraction] = {}
        for (a, p), (b, q) in product(sums.items(), d14.items()):
            if a + b < 30:
                grown[a + b] = grown.get(a + b, Fraction(0)) + p * q
        sums = grown
    found = table(odds(fall, {"distance": 45, "options": {"column_6_die": 14}}).wounds)
    for w in range(5):
        assert found.get(str(w), 0) == sum(p for t, p in sums.items() if t // 6 == w), w


T14 = {5: ("50.0", "2.0", "0.0"), 10: ("84.4", "7.9", "0.3"), 15: ("98.0", "20.0", "1.3"),
       20: ("99.9", "38.5", "3.9"), 25: ("100.0", "64.0", "12.4"),
       30: ("100.0", "84.7", "28.5"), 35: ("100.0", "94.1", "48.9"),
       40: ("100.0", "97.5", "68.4")}  # fmt: skip


@pytest.mark.parametrize("meters", sorted(T14))
def test_falling_wounds_match_t14(meters):
    """T14: P(at least 1, 3 and 5 wounds) against Size 6, to its printed tenth."""
    found = table(odds(fall, {"distance": meters}).wounds)
    at_least = [sum(p for w, p in found.items() if int(w) >= k) for k in (1, 3, 5)]
    assert [f"{float(p) * 100:.1f}" for p in at_least] == list(T14[meters])


def test_a_short_fall_against_the_oracle():
    """2(1): P(no wound) = P(two open-ended d4 sum under 6), exactly."""
    d4 = open_ended(4, 6)
    none = sum(p * q for a, p in d4.items() for b, q in d4.items() if a + b < 6)
    assert table(odds(fall, {"distance": 7}).wounds)["0"] == none


@pytest.mark.parametrize("landing", [{"landing": "water", "roll": {"pool": "II-2"}},
                                     {"landing": "soft", "roll": {"pool": "III-2"}}])  # fmt: skip
def test_a_fall_too_short_to_harm_wounds_nobody_whatever_the_landing(landing):
    """FI:L27 (A-11): a fall under 5 m does no damage, so its wounds are 0 with certainty.
    The landing roll of FI:L29 can only lessen damage that is not there: its dice cannot
    matter, and none are cut off. The old code read the wounds off the cut-off landing check
    and answered 1 - 2e-17 with no truncation reported."""
    found = odds(fall, {"distance": 3, **landing})
    assert table(found.wounds) == {"0": Fraction(1)}
    assert found.truncation is None


def test_water_breaks_a_fall_and_soft_ground_halves_it():
    """FI:L29: a Fair (5) swimming roll halves the damage up to 50 m and negates it up to
    20 m; a soft obstacle halves it on a difficult (7) Dexterity roll."""
    near = run(water_landing, {"pool": "II-1", "distance": 20, "dice": {"values": [5]}})
    far = run(water_landing, {"pool": "II-1", "distance": 21, "dice": {"values": [5]}})
    high = run(water_landing, {"pool": "II-1", "distance": 51, "dice": {"seed": 1}})
    assert (near.outcome, far.outcome, high.outcome, high.check) == (
        "negated",
        "halved",
        "full",
        None,
    )
    soft = run(soft_landing, {"pool": "III-1", "distance": 12, "dice": {"values": [7]}})
    assert (soft.outcome, soft.factor) == ("halved", 0.5)
    halved = run(fall, {"distance": 12, "landing": "soft", "roll": {"pool": "III-1"},
                        "dice": {"values": [7, 4, 3, 3, 2, 4, 2]}})  # fmt: skip
    assert (halved.damage[0].total, halved.total, halved.locations) == (12, 6, ["right_leg"])
    chances = table(odds(water_landing, {"pool": "II-1", "distance": 30}).outcome)
    assert chances["halved"] == Fraction(1, 3) - (1 - sum(chances.values()))


def test_water_beyond_50_m_needs_no_swimming_roll():
    """FI:L29: water breaks a fall of up to 50 m; further, no roll is made, so a fall into
    water from 60 m is answered without one (it was refused, asking for a pool it never
    read), as a hard landing, in the roll and in the odds."""
    given = {"distance": 60, "landing": "water", "options": {"column_6_die": 14,
             "column_7_die": 16}}  # fmt: skip
    wet = run(fall, {**given, "dice": {"seed": 3}})
    hard = run(fall, {**given, "landing": "hard", "dice": {"seed": 3}})
    assert (wet.landing.check, wet.landing.outcome, wet.total) == (None, "full", hard.total)
    assert table(odds(fall, given).wounds) == table(odds(fall, {**given, "landing": "hard"}).wounds)


def test_falling_odds_follow_the_landing():
    """Negated in water up to 20 m on a success: no wound then, so P(0 wounds) grows by it."""
    hard = table(odds(fall, {"distance": 12}).wounds)["0"]
    wet = table(odds(fall, {"distance": 12, "landing": "water", "roll": {"pool": "II-1"}}).wounds)
    success = Fraction(1, 3)
    assert abs(wet["0"] - (success + (1 - success) * hard)) < Fraction(1, 10**12)


# Species norms and darkness (FI:L59-67)


def test_hazards_are_measured_from_the_crew_norm():
    """FI:L61-63: the norm of the crew's races; an Edge may exempt a Hero."""
    norm = {"coldest": -10, "hottest": 35, "lowest_pressure": 0.7, "highest_pressure": 3,
            "gas": "oxygen"}  # fmt: skip
    space = {"temperature": -100, "pressure": 0, "gas": "none"}
    found = run(species_norms, {"norm": norm, "conditions": space, "exemptions": ["vacuum"]})
    assert (found.hazards, found.exempt) == (["cold", "breathing"], ["vacuum"])


def test_darkness_shifts_acuity_two_columns_left():
    """FI:L67: two columns left, minimum 1, for targets over 10 m; a lit target as the Master
    says; attacks keep their pool (A-24)."""
    assert run(darkness, {"pool": "IV-3"}).roman == "II-3"
    assert run(darkness, {"pool": "II-2"}).roman == "I-2"
    assert run(darkness, {"pool": "IV-3", "target_distance": 10}).roman == "IV-3"
    assert run(darkness, {"pool": "IV-3", "illuminated_shift": 1}).roman == "III-3"
    assert run(darkness, {"pool": "IV-3", "task": "attack"}).roman == "IV-3"
    wide = {"pool": "IV-3", "task": "attack", "options": {"darkness_scope": "acuity_and_targets"}}
    assert run(darkness, wide).roman == "II-3"
