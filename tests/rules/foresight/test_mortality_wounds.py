"""FORESIGHT wound levels, pain and stun (catalogue foresight-2.md 2.2-2.3, examples X2-X8,
X12-X14, odds Q8-Q9). Seed lines are cited as F:L<n>. Odds are checked against independent
computations written here from the rule text (the oracle's D100 QR distribution, then plain
recursions / value iteration), sharing no code with the service."""

from fractions import Fraction

import pytest

from service.rules.model import InputError
from tests.rules.foresight.calls import odds, run
from tests.rules.foresight.oracle import LADDER, qr_distribution


def accumulate(current, new, location):
    return run("wound-accumulation", {"condition": {"wound_level": current,
               "max_wound_level": current}, "wound_levels": new, "location": location})  # fmt: skip


def test_x2_simple_addition():
    """X2, F:L2594: WL2 + WL3 is 2 + 3 = 5 (critical) without the optional rule."""
    simple = {"options": {"wound_accumulation": "simple"}}
    found = run("wound-accumulation", {"condition": {"wound_level": 2}, "wound_levels": 3,
                                       "location": "left_leg", **simple})  # fmt: skip
    assert (found.wound_level, found.wound_name) == (5, "Critical")


def test_x5_to_x8_wound_accumulation():
    """X5 F:L2616: WL2 + WL3 to the head = 5. X6 F:L2620: WL3 + WL2 to the arm stays 3, WL1 +
    WL2 to the arm becomes 2. X7 F:L2622: WL3 + WL3 to a limb = 4. X8 F:L2624: WL1 + WL3 to a
    limb = 3."""
    assert accumulate(2, 3, "head").wound_level == 5
    assert accumulate(3, 2, "right_arm").wound_level == 3
    assert accumulate(1, 2, "left_arm").wound_level == 2
    assert accumulate(3, 3, "left_leg").wound_level == 4
    assert accumulate(1, 3, "right_leg").wound_level == 3
    assert accumulate(3, 3, "left_leg").condition.max_wound_level == 4


def test_the_worst_wound_level_resets_only_when_healthy():
    """F:L2604: the worst level stays until fully recovered. A WL1 patient whose worst was 3
    recovers (QR1, roll 1) to 0 and the worst resets (F:L2851)."""
    healed = run("wound-level/recovery-roll", {
        "condition": {"wound_level": 1, "max_wound_level": 3,
                      "wounds": [{"location": "abdomen", "levels": 3}]},
        "endurance": {"score": 10, "bef": 5}, "dice": {"values": [1]}})  # fmt: skip
    assert healed.condition.model_dump(include={"wound_level", "max_wound_level", "wounds"}) == {
        "wound_level": 0, "max_wound_level": 0, "wounds": ()}  # fmt: skip


def test_x3_recovery_rolls_take_the_worst_wound_level():
    """X3, F:L2604: heavily wounded once, now WL2: the recovery roll is at -3."""
    found = run("wound-level/recovery-roll", {"condition": {"wound_level": 2,
                "max_wound_level": 3}, "endurance": {"score": 9, "bef": 5},
                "dice": {"values": [50]}})  # fmt: skip
    assert found.recovery.modifier_total == -3
    assert found.deterioration is None


def test_x4_a_critical_patient_deteriorates():
    """X4, F:L2610: WL5 fails (QR7) deterioration at -5, then -6: WL7 (recovery rolls at WL5
    fail too, QR7)."""
    first = run("wound-level/recovery-roll", {"condition": {"wound_level": 5,
                "max_wound_level": 5}, "endurance": {"score": 9, "bef": 5},
                "dice": {"values": [95, 95]}})  # fmt: skip
    assert (first.change, first.condition.wound_level) == (1, 6)
    assert first.deterioration.modifier_total == -5
    second = run("wound-level/recovery-roll", {"condition": first.condition.model_dump(mode="json"),
                 "endurance": {"score": 9, "bef": 5}, "dice": {"values": [95]}})  # fmt: skip
    assert second.recovery is None
    assert second.deterioration.modifier_total == -6
    assert (second.condition.wound_level, second.wound_name) == (7, "Near Death")


def _sc(score, bef, modifier):
    index = min(17, max(0, LADDER.index(Fraction(bef)) + modifier))
    return int(score * LADDER[index] + Fraction(1, 2))


def _q9(score, bef, bonus, start):
    """P(dead) by value iteration over (level, worst) until it settles (catalogue Q9)."""

    def moves(w, m):
        sc = _sc(score, bef, -m + bonus)
        dist = qr_distribution(sc)
        rec = {-1: sum(p for q, p in dist.items() if q <= 4), 0: dist.get(7, 0),
               1: dist.get(10, 0)} if w == 5 else {0: Fraction(1)}  # fmt: skip
        det = {-1: sum(p for q, p in dist.items() if q <= 3), 0: dist.get(4, 0),
               1: dist.get(7, 0) + dist.get(10, 0)}  # fmt: skip
        out = {}
        for a, pa in rec.items():
            for b, pb in det.items():
                out[a + b] = out.get(a + b, 0) + pa * pb
        return out

    dead = {(w, m): 0.0 for m in range(5, 8) for w in range(5, m + 1)}
    for _ in range(3000):
        dead = {(w, m): sum(float(p) * (1.0 if w + c >= 8 else 0.0 if w + c <= 4
                                        else dead[(w + c, max(m, w + c))])
                            for c, p in moves(w, m).items())
                for (w, m) in dead}  # fmt: skip
    return dead[(start, start)]


@pytest.mark.parametrize(("score", "bef", "bonus", "start", "book"), [
    (7, 5, 0, 5, 0.9800), (7, 7, 3, 5, 0.6354), (12, 7, 3, 5, 0.2153), (9, 7, 3, 6, 0.9047),
])  # fmt: skip
def test_q9_fate_of_a_critical_patient(score, bef, bonus, start, book):
    """Catalogue Q9: untreated, SC from EN x EF(base - worst + bonus), both rolls at WL5."""
    found = odds("wound-level/recovery-roll", {
        "condition": {"wound_level": start, "max_wound_level": start},
        "endurance": {"score": score, "bef": bef}, "care_modifier": bonus})  # fmt: skip
    assert found.fate_dead.float == pytest.approx(book, abs=5e-5)
    assert found.fate_dead.float == pytest.approx(_q9(score, bef, bonus, start), abs=1e-9)


def test_x12_amy_shrugs_off_two_stun_points():
    """X12, F:L2681: 2 points; success at -2 (score 8: EF 3, SC 24, roll 20 QR3) -> 1; failure
    at -1 (SC 32, roll 55 QR7) -> 1; success at -1 (roll 30 QR4) -> 0, unstunned."""
    condition = {"stun_points": 2, "stunned": True}
    for roll, modifier, left in ((20, -2, 1), (55, -1, 1), (30, -1, 0)):
        found = run("stun/recover", {"condition": condition, "pain_resistance": {"score": 8},
                                     "dice": {"values": [roll]}})  # fmt: skip
        assert (found.rolled.modifier_total, found.stun_points) == (modifier, left)
        condition = found.condition.model_dump(mode="json")
    assert not found.stunned


def test_x13_stun_to_the_arm_accumulates_like_wounds():
    """X13, F:L2685: at 1 point, 2 more to the arm: 2 with Wound Accumulation, 3 without."""
    hit = {"condition": {"stun_points": 1, "stunned": True}, "stun_points": 2,
           "location": "right_arm"}  # fmt: skip
    assert run("stun-damage/apply", hit).stun_points == 2
    simple = {**hit, "options": {"wound_accumulation": "simple"}}
    assert run("stun-damage/apply", simple).stun_points == 3


def test_x14_qr1_clears_all_and_qr10_knocks_out():
    """X14, F:L2687-2689: a QR1 (roll 1) clears every point; a QR10 (roll 90) knocks out."""
    base = {"condition": {"stun_points": 2, "stunned": True}, "pain_resistance": {"score": 8}}
    assert run("stun/recover", {**base, "dice": {"values": [1]}}).stun_points == 0
    out = run("stun/recover", {**base, "dice": {"values": [90]}})
    assert out.unconscious
    assert out.stun_points == 2


def _q8(score, level, points):
    clear = Fraction(1)
    for n in range(1, points + 1):
        dist = qr_distribution(_sc(score, 5, -n - level))
        a, b = dist.get(1, 0), sum(dist.get(q, 0) for q in (2, 3, 4))
        clear = (a + b * clear) / (1 - dist.get(7, 0))
    return 1 - clear


@pytest.mark.parametrize(("score", "level", "points", "book"), [
    (6, 0, 1, 0.25), (6, 2, 2, 0.7857), (10, 0, 3, 0.4685), (15, 2, 3, 0.7713), (8, 0, 5, 0.9472),
])  # fmt: skip
def test_q8_shaking_off_stun_damage(score, level, points, book):
    """Catalogue Q8: P(unconscious before clear), rolling at -(points) - WL each turn."""
    found = odds("stun/recover", {"condition": {"stun_points": points, "stunned": True,
                 "wound_level": level, "max_wound_level": level},
                 "pain_resistance": {"score": score}})  # fmt: skip
    assert found.chain.unconscious.float == pytest.approx(book, abs=5e-5)
    assert Fraction(found.chain.unconscious.exact) == _q8(score, level, points)


def test_the_gunman_rolls_pain_resistance_at_minus_his_new_wound_level():
    """F:L3322: newly at WL3 he rolls at -3; stunned (roll 95) after a head wound he falls
    unconscious (F:L2705)."""
    found = run("pain-resistance/stun-check", {"condition": {"wound_level": 3,
                "max_wound_level": 3}, "location": "head", "pain_resistance": {"score": 8},
                "dice": {"values": [95]}})  # fmt: skip
    assert found.rolled.modifier_total == -3
    assert found.stunned
    assert found.consequence == "falls_unconscious"
    assert found.condition.consciousness == "unconscious"


def test_exhaustion_weighs_on_every_roll_a_wounded_character_makes():
    """F:L2548-2552: exhausted now, -2 'to all activity' (catalogue #5), as -1 a wound level
    is (F:L2590): on the Pain Resistance rolls (#8, #9), the recovery and deterioration rolls
    at the worst wound level (#16, #17) and the willpower roll to stay conscious (#18)."""
    spent = {"stamina": 0, "exhausted_since_sleep": True}
    check = run("pain-resistance/stun-check", {"condition": {"wound_level": 1,
                "max_wound_level": 1, **spent}, "pain_resistance": {"score": 10},
                "dice": {"values": [95]}})  # fmt: skip
    assert [(m.source, m.value) for m in check.rolled.modifiers] == [
        ("wound level", -1), ("exhaustion", -2)]  # fmt: skip
    assert check.rolled.success_chance == 20  # EF 5 - 3 = 2 (F:L203-215)
    stunned = {"stun_points": 1, "stunned": True, "wound_level": 1, "max_wound_level": 1}
    recovering = run("stun/recover", {"condition": {**stunned, **spent},
                     "pain_resistance": {"score": 10}, "dice": {"values": [95]}})  # fmt: skip
    assert recovering.rolled.modifier_total == -4
    healing = run("wound-level/recovery-roll", {"condition": {"wound_level": 5,
                  "max_wound_level": 5, "exhausted_since_sleep": True},
                  "endurance": {"score": 10}, "dice": {"values": [50, 50]}})  # fmt: skip
    assert (healing.recovery.modifier_total, healing.deterioration.modifier_total) == (-6, -6)
    awake = run("wound-level/consciousness-wp", {"condition": {"wound_level": 4,
                "max_wound_level": 4, **spent}, "willpower": {"score": 10},
                "dice": {"values": [50]}})  # fmt: skip
    assert awake.rolled.modifier_total == -6


def test_a_pain_stun_botched_knocks_out_only_under_its_option():
    """Catalogue #9, AMB-16: stunned by pain alone, a QR10 (roll 90 at SC 40) knocks out by
    default; with stun_recover_botch_unconscious false it only leaves the stun, on the roll
    and in its odds alike."""
    pain = {"condition": {"stunned": True}, "pain_resistance": {"score": 10}}
    found = {row.outcome: Fraction(row.exact) for row in odds("stun/recover", pain).stun_points}
    assert found == {"0": Fraction(19, 20), "unconscious": Fraction(1, 20)}
    kept = {**pain, "options": {"stun_recover_botch_unconscious": False}}
    found = {row.outcome: Fraction(row.exact) for row in odds("stun/recover", kept).stun_points}
    assert found == {"0": Fraction(1)}
    assert not run("stun/recover", {**kept, "dice": {"values": [90]}}).unconscious
    assert run("stun/recover", {**pain, "dice": {"values": [90]}}).unconscious


def test_the_dying_are_unconscious():
    """F:L2586-2587 (catalogue #18): at WL6-7 a character is assumed unconscious, coming round
    only by a Willpower roll after a good deterioration roll. A head wound taking WL4 to 6,
    and a critical patient's failed rolls (QR10 recovery, QR7 deterioration: 5 to 7), leave
    the character out; a wound short of 6 does not."""
    hit = {"condition": {"wound_level": 4, "max_wound_level": 4}, "location": "head"}
    assert run("wound-accumulation", {**hit, "wound_levels": 2}).condition.consciousness == (
        "unconscious")  # fmt: skip
    assert run("wound-accumulation", {**hit, "wound_levels": 1}).condition.consciousness == (
        "conscious")  # fmt: skip
    worse = run("wound-level/recovery-roll", {"condition": {"wound_level": 5,
                "max_wound_level": 5}, "endurance": {"score": 9},
                "dice": {"values": [20, 35]}})  # fmt: skip
    assert (worse.condition.wound_level, worse.condition.consciousness) == (7, "unconscious")


def test_wound_level_descriptions_and_schedule():
    """F:L2578-2588."""
    critical = run("wound-level/describe", {"wound_level": 5})
    assert critical.name == "Critical"
    assert (critical.schedule.recovery_interval_s, critical.schedule.deterioration_interval_s) == (
        1800, 1800)  # fmt: skip
    assert (
        run("wound-level/describe", {"wound_level": 3}).schedule.recovery_interval_s == 20 * 86400
    )
    assert run("wound-level/describe", {"wound_level": 9}).name == "Dead"


def test_a_wounded_arm_doubles_the_wound_modifier():
    """F:L2590, F:L2706, F:L2709: -WL; doubled using a wounded arm; -1 more on Pain Resistance
    with a wounded abdomen."""
    condition = {"wound_level": 2, "max_wound_level": 2,
                 "wounds": [{"location": "right_arm", "levels": 2}]}  # fmt: skip
    assert run("wound-level/task-modifier", {"condition": condition}).modifier == -2
    arm = {"condition": condition, "arms_used": ["right_arm"]}
    assert run("wound-level/task-modifier", arm).modifier == -4
    belly = {**condition, "wounds": [{"location": "abdomen", "levels": 2}]}
    pr = {"condition": belly, "pain_resistance": True}
    assert run("wound-level/task-modifier", pr).modifier == -3


def test_arms_used_names_only_arms():
    """F:L2706: the doubled modifier is for 'using wounded arm(s)'; a leg or the head named in
    'arms_used' was accepted and silently ignored (a wounded left leg gave -2, not an error)."""
    condition = {"wound_level": 2, "max_wound_level": 2,
                 "wounds": [{"location": "left_leg", "levels": 2}]}  # fmt: skip
    for wrong in (["left_leg"], ["head"], ["right_arm", "abdomen"]):
        with pytest.raises(InputError) as raised:
            run("wound-level/task-modifier", {"condition": condition, "arms_used": wrong})
        assert raised.value.loc == ("arms_used",)
    both = {"condition": condition, "arms_used": ["right_arm", "left_arm"]}
    assert run("wound-level/task-modifier", both).modifier == -2


def test_stun_state_effects():
    """F:L2566, F:L2951, F:L3140, F:L3289, F:L2710."""
    found = run("stun/state-effects", {"condition": {"stunned": True}, "location": "left_leg"})
    assert (found.initiative_modifier, found.melee_attack_bonus, found.consequence) == (
        -4, 1, "falls_prone")  # fmt: skip
