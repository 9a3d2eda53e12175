"""FORESIGHT medical intervention (catalogue foresight-2.md 2.6, X17-X21; seed F:L2795-2927).
Odds are checked against the independent oracle (tests/rules/foresight/oracle.py), brute force
over the D100 rolls of each chained task."""

import itertools
from fractions import Fraction

import pytest

from service.rules.model import InputError
from tests.rules.foresight import oracle
from tests.rules.foresight.calls import odds, run

AMY = {"wound_level": 5, "max_wound_level": 5}


def table(rows):
    return {row.outcome: Fraction(row.exact) for row in rows}


def test_diagnosis_by_medical_knowledge():
    """F:L2801: the search is -2 with basic knowledge, +0 standard, +2 specialised: Search 12
    at BEF 5 is 60, at EF 3 36, at EF 7 84."""
    body = {"search": {"score": 12, "bef": 5}, "dice": {"values": [22]}}
    assert run("medical/diagnosis", body).success_chance == 60
    special = run("medical/diagnosis", {**body, "medical_knowledge": "specialization"})
    assert (special.success_chance, special.qr, special.cooperating_modifier) == (84, 3, 1)
    assert run("medical/diagnosis", {**body, "medical_knowledge": "basic"}).success_chance == 36


def test_treatment_builds_on_the_diagnosis():
    """F:L2805: choosing a treatment builds on the diagnosis' QR: +(4 - QR)."""
    body = {"theory": {"score": 11, "bef": 4}, "dice": {"values": [30]}}
    assert run("medical/treatment-plan", body).success_chance == 44
    assert run("medical/treatment-plan", {**body, "diagnosis_qr": 2}).success_chance == 66
    assert run("medical/treatment-plan", {**body, "diagnosis_qr": 7}).success_chance == 11
    found = {
        int(r.outcome[2:]): Fraction(r.exact)
        for r in odds("medical/treatment-plan", {**body, "diagnosis_qr": 2}).qr
    }
    assert found == {q: p for q, p in oracle.qr_distribution(66).items() if p}


def test_x18_amys_paramedics_bandage_her():
    """X18, X18b (F:L2862): the search is at -2 for major injury (max WL5) and -1 for
    multiple wounds; a QR3 bandage gives +2 to deterioration rolls."""
    body = {"condition": AMY, "search": {"score": 12, "bef": 5}, "dexterity": {"score": 11},
            "circumstances": ["multiple_wounds"], "dice": {"values": [20, 30]}}  # fmt: skip
    found = run("bleeding", body)
    assert [(t.source, t.value) for t in found.search.modifiers] == [
        ("Multiple Wounds", -1), ("Major Injury (WL5-6)", -2)]  # fmt: skip
    assert found.search.success_chance == 12 * 2  # EF 5 moved -3 is EF 2
    assert found.search.qr == 4
    assert found.dexterity.success_chance == 11 * 7
    assert (found.dexterity.qr, found.bandage_bonus, found.condition.bandage_bonus) == (3, 2, 2)


def test_bandaging_without_knowledge_or_supplies():
    """F:L2821: without Basic Medicine or Basic Surgery -3 to both rolls; no supplies, no go."""
    body = {"condition": AMY, "search": {"score": 12, "bef": 5}, "dexterity": {"score": 11},
            "first_aid_knowledge": False, "dice": {"values": [5, 5]}}  # fmt: skip
    found = run("bleeding", body)
    assert ("no Basic Medicine or Basic Surgery", -3) in [
        (t.source, t.value) for t in found.dexterity.modifiers]  # fmt: skip
    bare = run("bleeding", {**body, "medical_supplies": False, "dice": {"seed": 1}})
    assert (bare.search, bare.bandage_bonus) == (None, 0)


def test_bleeding_odds_are_the_chained_brute_force():
    body = {"condition": AMY, "search": {"score": 12, "bef": 5}, "dexterity": {"score": 11},
            "circumstances": ["multiple_wounds"]}  # fmt: skip
    expected: dict[str, Fraction] = {}
    search = oracle.qr_distribution(oracle.success_chance(12, 5, [-1, -2]))
    for qs, ps in search.items():
        dx = oracle.qr_distribution(oracle.success_chance(11, 7, [4 - qs]))
        for qd, pd in dx.items():
            bonus = str(5 - qd if qd <= 4 else 0)
            expected[bonus] = expected.get(bonus, Fraction(0)) + ps * pd
    assert table(odds("bleeding", body).bandage_bonus) == {k: p for k, p in expected.items() if p}


def test_x18c_artificial_blood_and_x18d_more_blood():
    """X18c (F:L2862): TL6 artificial blood takes Amy from WL5 to WL3, max 5. X18d (F:L2872):
    she fails a deterioration roll to WL4 (the book rolls at WL3, AMB2-11) and more blood
    restores her to WL3 (blood lowers at most to the level it can: 4 - 2 = 2 by the rule, the
    book's 3 if it was plasma; the test gives plasma, which the text leaves open)."""
    found = run("blood-pressure/restore", {"condition": AMY, "infusion": "artificial_blood",
                                           "tl": 6})  # fmt: skip
    assert (found.condition.wound_level, found.condition.max_wound_level) == (3, 5)
    again = run("blood-pressure/restore", {"condition": {"wound_level": 4, "max_wound_level": 5},
                                           "infusion": "saline_or_plasma", "tl": 6})  # fmt: skip
    assert again.condition.wound_level == 3


def test_x4_blood_pressure_and_its_limit():
    """X4b-c (F:L2610): plasma 7 -> 6; 'blood transfusions' at hospital 6 -> 5, where the
    rule gives 6 - 2 = 4: the 'blood_loss_levels_only' option (AMB2-13) explains the book
    when only one level was lost to blood."""
    dying = {"wound_level": 7, "max_wound_level": 7}
    plasma = run("blood-pressure/restore", {"condition": dying, "infusion": "saline_or_plasma",
                                            "tl": 6})  # fmt: skip
    assert plasma.condition.wound_level == 6
    hospital = {"condition": {"wound_level": 6, "max_wound_level": 7}, "infusion": "whole_blood",
                "tl": 6}  # fmt: skip
    assert run("blood-pressure/restore", hospital).condition.wound_level == 4
    limited = {**hospital, "blood_loss_levels": 1,
               "options": {"bp_restore_limit": "blood_loss_levels_only"}}  # fmt: skip
    assert run("blood-pressure/restore", limited).condition.wound_level == 5


def test_blood_pressure_preconditions_and_crude_substitutes():
    """F:L2827-2835: only heavily wounded or worse; whole blood below TL6 needs a compatible
    donor; artificial blood is TL6; a crude substitute restores a level half the time."""
    light = run("blood-pressure/restore", {"condition": {"wound_level": 2, "max_wound_level": 2},
                                           "infusion": "whole_blood", "tl": 6})  # fmt: skip
    assert (light.given, light.restored) == (False, 0)
    body = {"condition": AMY, "infusion": "whole_blood", "tl": 5, "compatible_donor": False}
    assert run("blood-pressure/restore", body).given is False
    with pytest.raises(InputError) as error:
        run("blood-pressure/restore", {**body, "infusion": "artificial_blood"})
    assert error.value.loc == ("tl",)
    crude = {"condition": AMY, "infusion": "crude_substitute", "tl": 4, "dice": {"values": [1]}}
    assert run("blood-pressure/restore", crude).condition.wound_level == 4
    miss = run("blood-pressure/restore", {**crude, "dice": {"values": [2]}})
    assert miss.condition.wound_level == 5
    assert table(odds("blood-pressure/restore", crude).restored) == {
        "0": Fraction(1, 2), "1": Fraction(1, 2)}  # fmt: skip


@pytest.mark.parametrize(
    ("donor", "recipient", "compatible"),
    [
        (("O", False), ("AB", True), True),
        (("O", False), ("A", False), True),
        (("A", False), ("AB", True), True),
        (("A", True), ("A", False), False),
        (("B", False), ("A", True), False),
        (("AB", False), ("O", True), False),
        (("B", True), ("AB", True), True),
        (("AB", True), ("AB", True), True),
    ],
)
def test_blood_compatibility(donor, recipient, compatible):
    """F:L2831: O to A, B, AB; A to A, AB; B to B, AB; Rh- to Rh+."""
    body = {"donor": {"abo": donor[0], "rh_positive": donor[1]},
            "recipient": {"abo": recipient[0], "rh_positive": recipient[1]}}  # fmt: skip
    assert run("blood/compatibility", body).compatible is compatible


def test_x18efg_amys_surgery():
    """X18e-g (F:L2874-2876): the surgeon searches at +4 (TL6) -1 (multiple) -2 (WL5-6) = +1
    and gets QR3; surgery at +3 +1 (QR3 search) -1 -1 = +2; a QR2 reduces the maximum wound
    level by 7 - 2 = 5: from 5 to 0, though she is still heavily wounded (WL3)."""
    body = {"condition": {"wound_level": 3, "max_wound_level": 5}, "tl": 6,
            "circumstances": ["multiple_wounds"], "search": {"score": 12, "bef": 5},
            "surgery": {"score": 12}, "dice": {"values": [30, 15]}}  # fmt: skip
    found = run("surgery", body)
    assert found.search.modifier_total == 1
    assert found.search.qr == 3
    assert found.surgery.modifier_total == 2
    assert found.surgery.qr == 2
    assert found.reduction == 5
    assert (found.condition.max_wound_level, found.condition.wound_level) == (0, 3)


def test_x17_follow_up_surgery_and_tl_rows():
    """X17 (F:L2845): at TL6 follow-up surgery reduces by 5 - QR. TL5.5 uses the TL5 row
    (AMB2-30); with 'nearest' it is a tie and goes down too; TL5.8 nearest is TL6."""
    body = {"condition": {"wound_level": 6, "max_wound_level": 7}, "tl": 6, "follow_up": True,
            "search": {"score": 12, "bef": 5}, "surgery": {"score": 12},
            "dice": {"values": [30, 20]}}  # fmt: skip
    assert run("surgery", body).reduction == 5 - run("surgery", body).surgery.qr
    tl5 = run("surgery", {**body, "tl": 5.5, "follow_up": False})
    assert tl5.surgery.modifiers[0].source == "TL5"
    near = {**body, "tl": 5.8, "options": {"surgery_tl_row": "nearest"}}
    assert run("surgery", near).surgery.modifiers[0].source == "TL6"
    early = run("surgery", {**body, "tl": 3, "dice": {"seed": 1}})
    assert (early.performed, early.reduction) == (False, 0)
    light = run(
        "surgery",
        {**body, "condition": {"wound_level": 2, "max_wound_level": 2}, "dice": {"seed": 1}},
    )
    assert light.performed is False


def test_surgery_odds_are_the_chained_brute_force():
    """Catalogue 4 Q13 in the chained form: search QR -> surgery SC -> reduction."""
    body = {"condition": {"wound_level": 3, "max_wound_level": 5}, "tl": 6,
            "circumstances": ["multiple_wounds"], "search": {"score": 12, "bef": 5},
            "surgery": {"score": 12}}  # fmt: skip
    expected: dict[str, Fraction] = {}
    for qs, ps in oracle.qr_distribution(oracle.success_chance(12, 5, [4, -1, -2])).items():
        sc = oracle.success_chance(12, 6, [3, 4 - qs, -1, -1])
        for qr, pq in oracle.qr_distribution(sc).items():
            cut = str(max(0, 7 - qr) if qr <= 4 else 0)
            expected[cut] = expected.get(cut, Fraction(0)) + ps * pq
    assert table(odds("surgery", body).reduction) == {k: p for k, p in expected.items() if p}


def test_x19_medical_care_at_a_top_tl6_facility():
    """X19 (F:L2891): Amy's top-notch TL6 facility: 75% intervals and +6, which is outside
    the table's +2..+5: kept with a warning by default, clamped or refused (AMB2-31)."""
    found = run("medical-care", {"tl": 6, "modifier": 6})
    assert (found.modifier, found.interval_pct, found.warning is not None) == (6, 75, True)
    clamp = run("medical-care", {"tl": 6, "modifier": 6,
                                 "options": {"care_modifier_range_check": "clamp"}})  # fmt: skip
    assert clamp.modifier == 5
    with pytest.raises(InputError) as error:
        run("medical-care", {"tl": 6, "modifier": 6,
                             "options": {"care_modifier_range_check": "error"}})  # fmt: skip
    assert error.value.loc == ("modifier",)
    assert run("medical-care", {"tl": 6, "quality": 1.0}).modifier == 5
    assert run("medical-care", {"tl": 3}).modifier == -3
    assert run("medical-care", {"tl": 8.5, "quality": 0.5}).modifier == 6


def test_x20_watson_loses_health():
    """X20 (F:L2910): dying (WL6) costs 1 inherent and 3 trained: EN 6/8 becomes 5/5."""
    body = {"worst_wound_level": 6, "location": "abdomen", "attribute": "EN", "inherent": 6,
            "trained": 8}  # fmt: skip
    found = run("major-injury", body)
    assert (found.inherent_after, found.trained_after, found.severity) == (5, 5, "Dying")
    assert found.suggested[0] == "EN"
    cumulative = run("major-injury", {**body, "options": {"major_injury_mode": "cumulative"}})
    assert (cumulative.inherent_lost, cumulative.trained_lost) == (1, 6)
    critical = run("major-injury", {"worst_wound_level": 5, "attribute": "IN"})
    assert (critical.trained_lost, critical.physical_only) == (0, True)
    assert run("major-injury", {"worst_wound_level": 3}).severity is None


def test_x21_watson_in_the_sanitarium():
    """X21 (F:L2927): TL4 periods are 6 months; he succeeds (+1 EN), then fails; twelve months
    of self-help later he rolls a QR10 and will never improve again. WP 11 at BEF 7: SC 77."""
    body = {"tl": 4, "willpower_roll": {"score": 11}, "inherent_lost": 1, "trained_lost": 3}
    first = run("physiotherapy", {**body, "dice": {"values": [30]}})
    assert (first.period, first.inherent_recovered, first.trained_recovered) == (
        "6 months", 1, 1)  # fmt: skip
    lost = {**body, "inherent_lost": 1, "trained_lost": 2}
    second = run("physiotherapy", {**lost, "dice": {"values": [85]}})
    assert (second.inherent_recovered, second.stopped) == (0, False)
    home = run("physiotherapy", {**lost, "tl": None, "dice": {"values": [90]}})
    assert (home.period, home.stopped, home.inherent_recovered) == ("12 months", True, 0)
    after = run("physiotherapy", {**lost, "stopped": True, "dice": {"seed": 1}})
    assert after.willpower_rolls == []
    assert after.stopped
    untrained = run("physiotherapy", {**body, "options": {"physio_restores_trained": False},
                                      "dice": {"values": [30]}})  # fmt: skip
    assert untrained.trained_recovered == 0


def test_physiotherapy_odds_are_the_markov_chain():
    """Each period: success +1, QR10 stops for good, else nothing (F:L2916)."""
    body = {"tl": 4, "willpower_roll": {"score": 11}, "inherent_lost": 2, "periods": 3}
    dist = oracle.qr_distribution(oracle.success_chance(11, 7))
    gain = sum((p for q, p in dist.items() if q <= 4), Fraction(0))
    stop = dist.get(10, Fraction(0))
    states = {(0, False): Fraction(1)}
    for _ in range(3):
        after: dict[tuple[int, bool], Fraction] = {}
        for (won, stopped), p in states.items():
            moves = ([((won, stopped), Fraction(1))] if stopped or won >= 2 else
                     [((won + 1, False), gain), ((won, True), stop),
                      ((won, False), 1 - gain - stop)])  # fmt: skip
            for key, q in moves:
                after[key] = after.get(key, Fraction(0)) + p * q
        states = after
    found = odds("physiotherapy", body)
    recovered: dict[str, Fraction] = {}
    for (won, _), p in states.items():
        recovered[str(won)] = recovered.get(str(won), Fraction(0)) + p
    assert table(found.inherent_recovered) == {k: p for k, p in recovered.items() if p}


# --- secondary options of the register ------------------------------------------------------


def test_a_failed_bandage_by_the_formula():
    """'bandage_failure_bonus' (catalogue 2.6 #40): a failed DX roll gives 0 by default; the
    formula +(5 - QR) gives QR7 -2 and QR10 -5 (F:L2821), which untended wounds keep and a
    better bandage replaces. The deterioration roll then takes it."""
    body = {"condition": AMY, "search": {"score": 12, "bef": 5}, "dexterity": {"score": 11},
            "dice": {"values": [20, 80]}}  # fmt: skip
    formula = {"bandage_failure_bonus": "formula"}
    plain = run("bleeding", body)
    assert (plain.dexterity.qr, plain.bandage_bonus, plain.condition.bandage_bonus) == (10, 0, 0)
    assert plain.options_applied.bandage_failure_bonus == "0"
    botched = run("bleeding", {**body, "options": formula})
    assert (botched.bandage_bonus, botched.condition.bandage_bonus) == (-5, -5)
    missed = run("bleeding", {**body, "options": formula, "dice": {"values": [20, 79]}})
    assert missed.bandage_bonus == -2
    bandaged = {**AMY, "bandage_bonus": 2}
    kept = run("bleeding", {**body, "condition": bandaged, "options": formula})
    assert (kept.bandage_bonus, kept.condition.bandage_bonus) == (-5, 2)
    after = run("wound-level/recovery-roll", {"condition": botched.condition.model_dump(),
                                              "endurance": {"score": 9, "bef": 12},
                                              "dice": {"values": [20, 35]}})  # fmt: skip
    assert ("bandage", -5) in [(t.source, t.value) for t in after.deterioration.modifiers]


def test_formula_bandage_odds_are_the_chained_brute_force():
    body = {"condition": AMY, "search": {"score": 12, "bef": 5}, "dexterity": {"score": 11},
            "circumstances": ["multiple_wounds"],
            "options": {"bandage_failure_bonus": "formula"}}  # fmt: skip
    expected: dict[str, Fraction] = {}
    search_sc = oracle.success_chance(12, 5, [-1, -2])
    for search_roll in range(1, 101):
        qs = oracle.qr(search_roll, search_sc)
        dx_sc = oracle.success_chance(11, 7, [4 - qs])
        for dx_roll in range(1, 101):
            bonus = str(5 - oracle.qr(dx_roll, dx_sc))
            expected[bonus] = expected.get(bonus, Fraction(0)) + Fraction(1, 100 * 100)
    assert table(odds("bleeding", body).bandage_bonus) == {k: p for k, p in expected.items() if p}


def test_blood_pressure_with_a_roll():
    """AMB2-13 'bp_requires_roll': no roll is specified (F:L2827), so by default plasma just
    works; with the option the provider rolls 'treatment' and only a success restores; a
    crude substitute then has its 50% (F:L2835)."""
    body = {"condition": AMY, "infusion": "saline_or_plasma", "tl": 5,
            "treatment": {"score": 10, "bef": 5}}  # fmt: skip
    plain = run("blood-pressure/restore", body)
    assert (plain.treatment, plain.restored, plain.options_applied.bp_requires_roll) == (
        None, 1, False)  # fmt: skip
    rolled = {**body, "options": {"bp_requires_roll": True}}
    failed = run("blood-pressure/restore", {**rolled, "dice": {"values": [61]}})
    assert (failed.treatment.qr, failed.restored, failed.condition.wound_level) == (7, 0, 5)
    worked = run("blood-pressure/restore", {**rolled, "dice": {"values": [50]}})
    assert (worked.treatment.qr, worked.restored, worked.condition.wound_level) == (4, 1, 4)
    crude = {**rolled, "infusion": "crude_substitute", "dice": {"values": [10, 2]}}
    assert run("blood-pressure/restore", crude).restored == 0
    with pytest.raises(InputError) as error:
        run("blood-pressure/restore", {**rolled, "treatment": None})
    assert error.value.loc == ("treatment",)


@pytest.mark.parametrize("infusion", ["saline_or_plasma", "whole_blood", "crude_substitute"])
def test_blood_pressure_roll_odds_are_the_brute_force(infusion):
    body = {"condition": AMY, "infusion": infusion, "tl": 6, "treatment": {"score": 9, "bef": 4},
            "options": {"bp_requires_roll": True}}  # fmt: skip
    levels = {"saline_or_plasma": 1, "whole_blood": 2, "crude_substitute": 1}[infusion]
    d2 = (1, 2) if infusion == "crude_substitute" else (1,)
    sc = oracle.success_chance(9, 4)
    expected: dict[str, Fraction] = {}
    for face, half in itertools.product(range(1, 101), d2):
        restored = str(levels if oracle.qr(face, sc) <= 4 and half == 1 else 0)
        expected[restored] = expected.get(restored, Fraction(0)) + Fraction(1, 100 * len(d2))
    assert table(odds("blood-pressure/restore", body).restored) == expected


AMY_AT_SURGERY = {"condition": {"wound_level": 3, "max_wound_level": 5}, "tl": 6,
                  "circumstances": ["multiple_wounds"], "search": {"score": 12, "bef": 5},
                  "surgery": {"score": 12}}  # fmt: skip


def test_a_botched_surgery_costs_attributes_with_the_option():
    """AMB2-30 'surgery_botch_effect': a QR10 surgery reduces nothing; by default nothing
    more, or, as botched treatment may (F:L2912), the major-injury row one worse than the
    maximum wound level: Amy at max 5 takes the Dying row (6); a heavy wound (3) the
    Incapacitated row (4)."""
    body = {**AMY_AT_SURGERY, "dice": {"values": [30, 100]}}
    plain = run("surgery", body)
    assert (plain.surgery.qr, plain.reduction, plain.major_injury_wound_level) == (10, 0, None)
    assert plain.options_applied.surgery_botch_effect == "none"
    botch = {"surgery_botch_effect": "major_injury"}
    found = run("surgery", {**body, "options": botch})
    assert (found.reduction, found.major_injury_wound_level) == (0, 6)
    assert found.condition == plain.condition
    heavy = {**body, "condition": {"wound_level": 3, "max_wound_level": 3},
             "surgery": {"score": 6}, "options": botch}  # fmt: skip
    heavy_found = run("surgery", heavy)
    assert (heavy_found.surgery.qr, heavy_found.major_injury_wound_level) == (10, 4)
    fine = run("surgery", {**body, "options": botch, "dice": {"values": [30, 15]}})
    assert (fine.reduction, fine.major_injury_wound_level) == (5, None)
    assert odds("surgery", AMY_AT_SURGERY).botched_major_injury is None


@pytest.mark.parametrize("surgery_score", [12, 6])
def test_botched_surgery_odds_are_the_chained_brute_force(surgery_score):
    body = {**AMY_AT_SURGERY, "surgery": {"score": surgery_score},
            "options": {"surgery_botch_effect": "major_injury"}}  # fmt: skip
    expected: dict[str, Fraction] = {}
    botched = Fraction(0)
    search_sc = oracle.success_chance(12, 5, [4, -1, -2])
    for search_roll, surgery_roll in itertools.product(range(1, 101), repeat=2):
        qs = oracle.qr(search_roll, search_sc)
        qr = oracle.qr(surgery_roll, oracle.success_chance(surgery_score, 6, [3, 4 - qs, -1, -1]))
        cut = str(max(0, 7 - qr) if qr <= 4 else 0)
        expected[cut] = expected.get(cut, Fraction(0)) + Fraction(1, 100 * 100)
        botched += Fraction(1, 100 * 100) if qr == 10 else 0
    found = odds("surgery", body)
    assert table(found.reduction) == {k: p for k, p in expected.items() if p}
    assert Fraction(found.botched_major_injury.exact) == botched
    assert table(
        odds("surgery", AMY_AT_SURGERY | {"surgery": {"score": surgery_score}}).reduction
    ) == (table(found.reduction))
