"""FORESIGHT hazards: poison, asphyxiation, decompression, falling, burns (catalogue
foresight-2.md 2.5, X15-X16, odds Q5 and Q16; seed F:L2739-2793). Odds are checked against
the catalogue's section 4 tables and against independent brute force here: every D10 of the
random QR (F:L1472) and every D100 (tests/rules/foresight/oracle.py), the damage table as the
book states it, yield x DC / 2 rounded half up (F:L2632)."""

import itertools
from fractions import Fraction

import pytest

from service.rules.model import InputError
from tests.rules.foresight import oracle
from tests.rules.foresight.calls import odds, run

#: The random QR by D10 face (F:L1472-1477) and the yield of each QR (F:L1367-1370).
RANDOM_QR = {1: 1, 2: 2, 3: 3, 4: 3, 5: 3, 6: 4, 7: 4, 8: 4, 9: 4, 10: 4}
YIELD = {1: Fraction(1), 2: Fraction(3, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
#: The hit-location D10 (F:L2703-2711).
LOCATION = {
    10: "head",
    9: "right_arm",
    8: "left_arm",
    7: "chest",
    6: "chest",
    5: "chest",
    4: "abdomen",
    3: "abdomen",
    2: "right_leg",
    1: "left_leg",
}
LIMBS = {"right_arm", "left_arm", "right_leg", "left_leg"}


def table(rows):
    return {row.outcome: Fraction(row.exact) for row in rows}


def damage(dc, qr):
    """The damage table (F:L2632-2659): None for '-', 0 for S."""
    if dc < 0 or (dc == 0 and qr == 4):
        return None
    return oracle.round_half_up(YIELD[qr] * Fraction(dc) / 2)


def accumulate(level, new, location):
    """Wound Accumulation (F:L2612-2624): vital locations and unlocated add; limbs max."""
    if location in LIMBS:
        return max(level + max(0, new - 2), new)
    return level + new


# --- poison ---------------------------------------------------------------------------------


def _poison_oracle(doses):
    """P(dead) after each dose: every sequence of D10 faces, DC4 each, simply added."""
    per_dose: dict[int, Fraction] = {}
    for face in range(1, 11):
        hurt = damage(4, RANDOM_QR[face])
        per_dose[hurt] = per_dose.get(hurt, Fraction(0)) + Fraction(1, 10)
    found = []
    for n in range(1, doses + 1):
        dead = Fraction(0)
        for seq in itertools.product(per_dose, repeat=n):
            weight = Fraction(1)
            for hurt in seq:
                weight *= per_dose[hurt]
            dead += weight if sum(seq) >= 8 else 0
        found.append(dead)
    return found


#: Catalogue Q16: P(dead) after each dose of rattlesnake venom, to 4 places.
Q16 = [0, 0, 0, 0.0016, 0.0579, 0.3446, 0.7903, 1, 1, 1, 1, 1]


def test_x15_rattlesnake_venom():
    """X15, F:L2741: DC4 every 5 minutes for an hour is 12 doses (AMB2-29); each random-QR
    dose is 1 or 2 wound levels, so the untreated victim is dead by the 8th (40 min) and
    P(dead by 30 min) = 0.3446 (catalogue Q16)."""
    found = odds("poison", {"dc": 4, "interval_s": 300, "duration_s": 3600})
    assert [d.seconds for d in found.doses] == [300 * k for k in range(1, 13)]
    dead = [Fraction(d.dead.exact) for d in found.doses]
    assert [float(p) for p in dead] == pytest.approx(Q16, abs=5e-5)
    assert dead[5] == Fraction(34464, 100000)
    assert dead[:10] == _poison_oracle(10)
    assert table(found.dose_damage) == {"1": Fraction(4, 5), "2": Fraction(1, 5)}


def test_poison_options_amb2_29():
    """A dose at the bite makes 13; 'max' stacking never kills a healthy victim of DC4."""
    at_zero = {"dc": 4, "options": {"poison_first_dose_at_zero": True}}
    assert len(odds("poison", at_zero).doses) == 13
    worst = odds("poison", {"dc": 4, "options": {"poison_stacking": "max"}})
    assert table(worst.wound_level) == {"2": 1 - Fraction(4, 5) ** 12, "1": Fraction(4, 5) ** 12}
    limb = odds("poison", {"dc": 4, "options": {"poison_stacking": "accumulation_rule"}})
    assert Fraction(limb.doses[-1].dead.exact) == 0


def test_poison_accumulation_stacking_follows_the_wound_accumulation_option():
    """'accumulation_rule' stacking joins doses as the Wound Accumulation rule joins a limb
    wound (F:L2618); that rule is optional (F:L2612), and with it off every wound simply adds
    (F:L2592). The option was ignored: a victim of three DC4 doses stayed at WL1-2 under
    'simple' too. Three doses of 1 or 2 levels (D10 1 QR1 is 2, else 1) add to 3..6."""
    body = {"dc": 4, "interval_s": 300, "duration_s": 900}
    limb = odds("poison", {**body, "options": {"poison_stacking": "accumulation_rule"}})
    assert table(limb.wound_level) == {"1": Fraction(4, 5) ** 3, "2": 1 - Fraction(4, 5) ** 3}
    simple = {"poison_stacking": "accumulation_rule", "wound_accumulation": "simple"}
    added = odds("poison", {**body, "options": simple})
    expected: dict[str, Fraction] = {}
    for doses in itertools.product((1, 2), repeat=3):
        p = Fraction(1)
        for dose in doses:
            p *= Fraction(1, 5) if dose == 2 else Fraction(4, 5)
        expected[str(sum(doses))] = expected.get(str(sum(doses)), Fraction(0)) + p
    assert table(added.wound_level) == expected
    rolled = run("poison", {**body, "options": simple, "dice": {"values": [1, 1, 7]}})
    assert [dose.wound_level for dose in rolled.doses] == [2, 4, 5]


def test_a_botched_pain_resistance_roll_after_a_dose_follows_the_stun_check_option():
    """A dose calls for a Pain Resistance roll 'as if he/she were in combat' (F:L2741), so a
    QR10 knocks out under 'initial_pr_botch_unconscious' (AMB2-16) as pain-resistance/
    stun-check does; poison ignored the option. D10 6 is a QR4 dose of DC4 (1 level); D100
    100 is a QR10."""
    body = {"dc": 4, "interval_s": 300, "duration_s": 300, "pain_resistance": {"score": 8},
            "dice": {"values": [6, 100]}}  # fmt: skip
    plain = run("poison", body)
    assert (plain.condition.stunned, plain.condition.consciousness) == (True, "conscious")
    botch = run("poison", {**body, "options": {"initial_pr_botch_unconscious": True}})
    assert botch.doses[0].pain_resistance.qr == 10
    assert (botch.condition.stunned, botch.condition.consciousness) == (True, "unconscious")
    check = run("pain-resistance/stun-check", {
        "condition": {"wound_level": 1, "max_wound_level": 1}, "pain_resistance": {"score": 8},
        "options": {"initial_pr_botch_unconscious": True}, "dice": {"values": [100]}})  # fmt: skip
    assert check.condition.consciousness == "unconscious"


def test_poison_run_rolls_pain_resistance_each_dose():
    """F:L2741: each dose, damage then Pain Resistance at -WL; a failure stuns. Faces: D10 2
    (QR2, 2 levels), D100 94 against PR 8 at BEF 5 -2 (SC 24): stunned."""
    body = {
        "dc": 4,
        "duration_s": 300,
        "pain_resistance": {"score": 8},
        "dice": {"values": [2, 94]},
    }
    found = run("poison", body)
    dose = found.doses[0]
    assert (dose.hit.result, dose.wound_level, dose.incapacitated) == ("2", 2, True)
    assert dose.pain_resistance.success_chance == 24
    assert found.condition.stunned


def test_poison_odds_keep_a_dead_victims_level():
    """The dead take no more doses (F:L2741): the roll reports the level they had, so the
    odds do too, rather than 8 in its place."""
    body = {"dc": 4, "interval_s": 300, "duration_s": 3600, "condition": {"wound_level": 20}}
    assert table(odds("poison", body).wound_level) == {"20": 1}
    assert run("poison", {**body, "dice": {"seed": 1}}).wound_level == 20


def test_a_lethal_poison_works_on_after_its_victim_passes_out():
    """F:L2741: a dose every 5 minutes for the hour. Dying (WL6-7) leaves the victim
    unconscious (F:L2586), and the doses go on until death, as the odds' chain has them: with
    seed 0's dice the sixth dose leaves WL7 and the seventh kills."""
    found = run("poison", {"dc": 4, "interval_s": 300, "duration_s": 3600,
                           "dice": {"seed": 0}})  # fmt: skip
    assert [dose.wound_level for dose in found.doses] == [1, 2, 3, 4, 5, 7, 8]
    dead = odds("poison", {"dc": 4, "interval_s": 300, "duration_s": 3600}).doses[6].dead
    assert Fraction(dead.exact) > 0


def test_non_lethal_poison_needs_the_roll_and_incapacitates():
    """F:L2743: a paralysing poison only acts through a failed Pain Resistance roll."""
    with pytest.raises(InputError) as error:
        run("poison", {"effect": "paralysis", "dice": {"seed": 1}})
    assert error.value.loc == ("pain_resistance",)
    body = {"effect": "unconsciousness", "duration_s": 900, "pain_resistance": {"score": 10}}
    found = odds("poison", body)
    fail = oracle.qr_distribution(oracle.success_chance(10, 5))
    p = fail[7] + fail[10]
    assert [Fraction(d.incapacitated.exact) for d in found.doses] == [
        1 - (1 - p) ** k for k in (1, 2, 3)
    ]
    assert all(Fraction(d.dead.exact) == 0 for d in found.doses)


# --- asphyxiation and decompression ---------------------------------------------------------


def _breath_oracle(score, level, rolls):
    """P(asphyxiated) over every sequence of D100 rolls at -WL (F:L2590), EN at BEF 7."""
    sc = oracle.success_chance(score, 7, [-level] if level else [])
    out = Fraction(0)
    for faces in itertools.product(range(1, 101), repeat=rolls):
        if any(oracle.qr(face, sc) > 4 for face in faces):
            out += Fraction(1, 100**rolls)
    return out


@pytest.mark.parametrize(
    ("score", "prepared", "seconds", "level", "rolls"),
    [(8, False, 50, 0, 2), (6, True, 70, 2, 2), (8, False, 40, 0, 0)],
)
def test_asphyxiation_odds_are_the_brute_force(score, prepared, seconds, level, rolls):
    """F:L2749: EN x 5 s (x 10 s prepared), then an EN roll every 5 s: EN 8 unprepared holds
    40 s and rolls at 45 and 50 s."""
    body = {
        "condition": {"wound_level": level, "max_wound_level": level},
        "endurance": {"score": score},
        "prepared": prepared,
        "seconds": seconds,
    }
    found = odds("asphyxiation", body)
    assert found.rolls == rolls
    assert Fraction(found.asphyxiated.exact) == _breath_oracle(score, level, rolls)


def test_asphyxiation_run_and_expected_time():
    """Catalogue 4.1 (13): geometric, expected time limit + 5/p (first roll at limit + 5)."""
    body = {"endurance": {"score": 8}, "seconds": 60, "dice": {"values": [20, 30, 95]}}
    found = run("asphyxiation", body)
    assert (found.breath_limit_s, found.roll_times_s, found.asphyxiated_at_s) == (
        40,
        [45, 50, 55],
        55,
    )
    assert found.condition.consciousness == "unconscious"
    p = Fraction(44, 100)  # EN 8 x EF 7 = 56: 44 faces fail
    assert Fraction(odds("asphyxiation", body).expected_seconds.exact) == 45 + 5 * (1 / p - 1)
    at_limit = {**body, "options": {"asphyxia_first_roll_at_limit": True}}
    assert odds("asphyxiation", at_limit).rolls == 5


def test_decompression_dc6_to_the_chest_and_the_window():
    """F:L2755-2757: DC6 random QR to the chest (3, 2, 2, 1 by QR), breath EN x 5 s, dead
    past 30 s (AMB2-47: 30-60 s, default 30)."""
    body = {"endurance": {"score": 8}, "seconds": 30}
    found = odds("decompression", body)
    expected: dict[str, Fraction] = {}
    for face in range(1, 11):
        key = str(damage(6, RANDOM_QR[face]))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 10)
    assert (
        table(found.hit.result)
        == expected
        == {"3": Fraction(1, 10), "2": Fraction(2, 5), "1": Fraction(1, 2)}
    )
    assert Fraction(found.dead.exact) == 0
    assert Fraction(odds("decompression", {**body, "seconds": 31}).dead.exact) == 1
    longer = {**body, "seconds": 45, "options": {"vacuum_window_s": 60}}
    assert Fraction(odds("decompression", longer).dead.exact) == 0
    ran = run("decompression", {**body, "dice": {"values": [1]}})
    assert (ran.hit.result, ran.condition.wound_level, ran.hit.location) == ("3", 3, "chest")
    assert ran.condition.wounds[0].location == "chest"
    assert ran.pain_resistance_roll


def test_decompression_odds_end_at_the_wound_level_the_roll_reports():
    """Past the window the character dies (F:L2757): the roll reports WL8, so the odds' wound
    level is 8 however the hit fell, as their 'dead' already said. A level already at the
    cap (1000, long dead) stays there in both."""
    body = {"endurance": {"score": 5}, "seconds": 100}
    found = odds("decompression", body)
    assert (table(found.wound_level), Fraction(found.dead.exact)) == ({"8": 1}, 1)
    for face in range(1, 11):
        ran = run("decompression", {**body, "dice": {"values": [face, 50]}})
        assert ran.condition.wound_level == 8
    capped = {**body, "seconds": 30, "condition": {"wound_level": 1000}}
    assert table(odds("decompression", capped).wound_level) == {"1000": 1}
    assert run("decompression", {**capped, "dice": {"values": [1]}}).condition.wound_level == 1000


# --- falling --------------------------------------------------------------------------------


def _fall_oracle(height, located=True, dc0_table=True):
    """Every D10 of the random QR and every location D10 (head +1 to positive damage)."""
    dc = height - 1
    found: dict[str, Fraction] = {}
    for qr_face, place in itertools.product(range(1, 11), range(1, 11)):
        hurt = damage(dc, RANDOM_QR[qr_face]) if dc > 0 or dc0_table else None
        if hurt and located and LOCATION[place] == "head":
            hurt += 1
        key = "none" if hurt is None else "S" if hurt == 0 else str(hurt)
        found[key] = found.get(key, Fraction(0)) + Fraction(1, 100)
    return found


#: Catalogue Q5, 'loc' rows: height -> P(S), P(1) .. P(7), P(dead).
Q5 = {
    2: [0.9, 0.09, 0.01, 0, 0, 0, 0, 0, 0],
    5: [0, 0.72, 0.26, 0.02, 0, 0, 0, 0, 0],
    10: [0, 0.45, 0.32, 0.12, 0.01, 0.09, 0.01, 0, 0],
    17: [0, 0, 0.45, 0.05, 0.27, 0.03, 0.09, 0.01, 0.10],
    30: [0, 0, 0, 0, 0.45, 0.05, 0, 0.27, 0.23],
}


@pytest.mark.parametrize("height", sorted(Q5))
def test_q5_falls_match_the_catalogue_and_brute_force(height):
    found = odds("falling", {"height_m": height})
    result = table(found.result)
    assert result == {k: p for k, p in _fall_oracle(height).items() if p}
    levels = table(found.wound_level)
    book = Q5[height]
    assert float(result.get("S", 0)) == pytest.approx(book[0])
    for wl in range(1, 8):
        assert float(levels.get(str(wl), 0)) == pytest.approx(book[wl])
    assert float(Fraction(found.dead.exact)) == pytest.approx(book[8])


def test_falls_of_a_metre_and_q5_base():
    """DC 0 at 1 m: nothing by default (AMB2-06), the table's 50% S with 'table' (Q5). Q5
    'base' (no location effects) at 17 m: 0.1 dead."""
    assert table(odds("falling", {"height_m": 1}).result) == {"none": 1}
    dc0 = odds("falling", {"height_m": 1, "options": {"hazard_dc0_rule": "table"}})
    assert table(dc0.result) == {"S": Fraction(1, 2), "none": Fraction(1, 2)}
    base = odds("falling", {"height_m": 17, "located": False})
    assert table(base.result) == {k: p for k, p in _fall_oracle(17, False).items() if p}
    assert Fraction(base.dead.exact) == Fraction(1, 10)


def test_x16_soft_landing_in_water():
    """X16, F:L2779: deep water is a 3 m soft landing: a 3 m jump into it does nothing."""
    found = run("falling", {"height_m": 3, "soft_landing_m": 3, "dice": {"seed": 1}})
    assert (Fraction(found.effective_height_m.exact), found.hit) == (0, None)
    assert found.condition.wound_level == 0
    assert not found.pain_resistance_roll


def test_fall_formula_with_ds_and_gravity():
    """F:L2765: DC = (H - 1) x DS^2 x G; a DS2 creature falling 5 m at 0.5 g is DC8, its
    damage over 2 x DS (F:L2724)."""
    found = run(
        "falling",
        {"height_m": 5, "ds": 2, "gravity": 0.5, "located": False, "dice": {"values": [1]}},
    )
    assert Fraction(found.dc.exact) == 8
    assert found.hit.result == "2"  # QR1: 8 / (2 x 2)


@pytest.mark.parametrize(
    ("method", "qr", "saved", "penalty"),
    [
        ("controlled", 1, 4, 4),
        ("controlled", 4, 1, 1),
        ("controlled", 7, 0, -2),
        ("acrobatic", 2, 5, 5),
        ("acrobatic", 10, 0, -3),
        ("acrobatic", 7, 0, 0),
        ("water_dive", 3, 5, 5),
        ("water_dive", 7, 1, 1),
        ("water_dive", 10, 0, -2),
    ],
)
def test_fall_control_reductions(method, qr, saved, penalty):
    """F:L2771-2775: (5 - QR), (7 - QR), (8 - QR) m, clamped at 0 unless AMB2-27 says the
    negative value stands: the clamp is on the value, so a QR7 dive into water (F:L2775)
    still saves 8 - 7 = 1 m (catalogue 2.5 #35: 'QR7: -2, -0, +1 ... clamp at 0')."""
    sc = 70  # score 10 at BEF 7
    face = {1: 7, 2: 14, 3: 35, 4: 70, 7: 71, 10: 80}[qr]
    body = {"method": method, "task": {"score": 10}, "dice": {"values": [face]}}
    found = run("falling/control", body)
    assert (found.rolled.success_chance, found.rolled.qr, found.reduction_m) == (sc, qr, saved)
    strict = {**body, "options": {"fall_control_failure_penalty": True}}
    assert run("falling/control", strict).reduction_m == penalty
    assert found.on_legs == (qr <= 4 and method != "water_dive")


def test_controlled_fall_odds_are_the_brute_force():
    """A controlled fall from 8 m: each D100 of the roll (AG 10 at BEF 7, SC 70), then the
    fall of 8 - (5 - QR) m on the legs (D2), or 8 m at a random location."""
    found = odds(
        "falling", {"height_m": 8, "control": {"method": "controlled", "task": {"score": 10}}}
    )
    expected: dict[str, Fraction] = {}
    for face in range(1, 101):
        qr = oracle.qr(face, 70)
        height = 8 - (5 - qr if qr <= 4 else 0)
        places = ["left_leg", "right_leg"] if qr <= 4 else [LOCATION[p] for p in range(1, 11)]
        for qr_face, place in itertools.product(range(1, 11), places):
            hurt = damage(height - 1, RANDOM_QR[qr_face])
            if hurt and place == "head":
                hurt += 1
            key = "none" if hurt is None else "S" if hurt == 0 else str(hurt)
            weight = Fraction(1, 100 * 10 * len(places))
            expected[key] = expected.get(key, Fraction(0)) + weight
    assert table(found.result) == {k: p for k, p in expected.items() if p}


def _armored_fall_oracle(height, reduction, absorb):
    """Every D10 of the random QR and of the location: the DC less the armor's number, the
    table, the A's absorb (an absorbed wound is still S), the head's +1 after them."""
    found: dict[str, Fraction] = {}
    for qr_face, place in itertools.product(range(1, 11), range(1, 11)):
        hurt = damage(height - 1 - reduction, RANDOM_QR[qr_face])
        if hurt:
            hurt = max(0, hurt - absorb)
            if hurt and LOCATION[place] == "head":
                hurt += 1
        key = "none" if hurt is None else "S" if hurt == 0 else str(hurt)
        found[key] = found.get(key, Fraction(0)) + Fraction(1, 100)
    return found


def test_fall_armor_counts_only_with_the_option():
    """AMB2-27 'fall_armor': the book gives falls no armor (F:L2761-2779), so by default a
    3A suit changes nothing; with 'melee' a 10 m fall (DC9) meets it like a blow: QR1 is
    DC6, 3, less the A: 2 (F:L2661-2673)."""
    body = {"height_m": 10, "armor": "3A", "dice": {"values": [1, 5]}}
    bare = run("falling", {**body, "armor": None})
    plain = run("falling", body)
    assert plain.hit.result == bare.hit.result == "5"
    assert plain.options_applied.fall_armor == "none"
    armored = run("falling", {**body, "options": {"fall_armor": "melee"}})
    assert (armored.hit.result, armored.condition.wound_level) == ("2", 2)
    assert armored.options_applied.fall_armor == "melee"
    assert table(odds("falling", body).result) == table(odds("falling", {"height_m": 10}).result)


ARMORED_FALLS = [(10, "3A", (3, 1)), (17, "2AA", (2, 2)), (5, "A", (0, 1)), (30, "8", (8, 0))]


@pytest.mark.parametrize(("height", "armor", "cut"), ARMORED_FALLS)
def test_armored_fall_odds_are_the_brute_force(height, armor, cut):
    found = odds("falling", {"height_m": height, "armor": armor,
                             "options": {"fall_armor": "melee"}})  # fmt: skip
    expected = _armored_fall_oracle(height, *cut)
    assert table(found.result) == {k: p for k, p in expected.items() if p}


# --- burns ----------------------------------------------------------------------------------


def test_burn_dc_doubling_and_halving():
    """F:L2791: per location per round; engulfed doubles, brief and/or small halves once
    (AMB2-28), or once each."""

    def dc(**flags):
        body = {"source": "fire", "dc": 3, "locations": ["chest"], "dice": {"seed": 1}, **flags}
        return Fraction(run("burn", body).dc.exact)

    assert dc() == 3
    assert dc(engulfed=True) == 6
    assert dc(brief=True, small_area=True) == Fraction(3, 2)
    assert dc(brief=True, small_area=True, options={"burn_halving": "per_condition"}) == Fraction(
        3, 4
    )
    assert run(
        "burn", {"source": "electricity", "dc": 3, "locations": ["chest"], "dice": {"seed": 1}}
    ).examples == ["Mains"]


def test_burn_odds_are_the_brute_force():
    """Head and right arm in a DC3 blowtorch for 2 rounds, 1A beam armor for the first round
    only (AMB2-28): every D10 of the four hits, armor and head rules as in damage/resolve."""
    body = {
        "source": "fire",
        "dc": 3,
        "locations": ["head", "right_arm"],
        "rounds": 2,
        "armor": "1A",
    }
    found = odds("burn", body)
    expected: dict[str, Fraction] = {}
    hits = [("head", True), ("right_arm", True), ("head", False), ("right_arm", False)]
    for faces in itertools.product(range(1, 11), repeat=4):
        level = 0
        for face, (place, armored) in zip(faces, hits, strict=True):
            hurt = damage(3 - (1 if armored else 0), RANDOM_QR[face])
            if hurt and armored:
                hurt -= 1  # the A
            if hurt and place == "head":
                hurt += 1
            level = accumulate(level, hurt or 0, place)
        expected[str(level)] = expected.get(str(level), Fraction(0)) + Fraction(1, 10**4)
    assert table(found.wound_level) == expected


def test_cardiac_arrest_on_a_pain_resistance_botch():
    """F:L2793: after electrical damage a QR10 Pain Resistance roll stops the heart. PR 9 at
    BEF 5, -2 for WL2: SC 27; a roll of 100 is QR10."""
    body = {"condition": {"wound_level": 2, "max_wound_level": 2}, "pain_resistance": {"score": 9}}
    found = run("burn/cardiac-arrest", {**body, "dice": {"values": [100]}})
    assert (found.rolled.success_chance, found.heart_stopped, found.stunned) == (27, True, True)
    assert found.condition.consciousness == "unconscious"
    chances = odds("burn/cardiac-arrest", body)
    dist = oracle.qr_distribution(oracle.success_chance(9, 5, [-2]))
    assert Fraction(chances.heart_stopped.exact) == dist[10]
    assert Fraction(chances.stunned.exact) == dist[7] + dist[10]
    calm = run("burn/cardiac-arrest", {**body, "dice": {"values": [5]}})
    assert (calm.stunned, calm.heart_stopped) == (False, False)
