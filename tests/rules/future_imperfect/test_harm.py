"""Future Imperfect harm (catalogue 2.7, 2.8, 3.7-3.9) against the chapter (FI:L423-623), the
hit-location, damage, concussion and stun tables of section 5 (T6, T7, T8, T11, T19) and the
independent oracle. Worked examples E-21 to E-27 cite their seed lines."""

from fractions import Fraction
from itertools import product
from math import comb, floor

import pytest

from service.rules.future_imperfect.combat.fire import explosives
from service.rules.future_imperfect.harm.armor import penetration
from service.rules.future_imperfect.harm.damage import combat_damage, hand_to_hand, unarmed
from service.rules.future_imperfect.harm.damage_brawling import martial_arts, nonlethal
from service.rules.future_imperfect.harm.healing import ct_healing, medical, natural
from service.rules.future_imperfect.harm.location import concealment, hit_location
from service.rules.future_imperfect.harm.tables import ARMOR_MATERIALS, DAMAGE_COLUMNS
from service.rules.future_imperfect.harm.wounds import (
    apply,
    bleeding,
    concussion,
    death,
    modifier,
    recovery,
    stun_check,
)
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.future_imperfect.oracle import check_outcomes, open_ended

# Hit location (FI:L423-460)

#: Catalogue T6: the d20 chart with m added, clamped, in twentieths.
T6 = {
    -2: {"legs": 6, "lower_torso": 5, "vitals": 1, "arms": 4, "upper_torso": 4, "head": 0},
    -1: {"legs": 5, "lower_torso": 5, "vitals": 1, "arms": 4, "upper_torso": 5, "head": 0},
    0: {"legs": 4, "lower_torso": 5, "vitals": 1, "arms": 4, "upper_torso": 5, "head": 1},
    1: {"legs": 3, "lower_torso": 5, "vitals": 1, "arms": 4, "upper_torso": 5, "head": 2},
    2: {"legs": 2, "lower_torso": 5, "vitals": 1, "arms": 4, "upper_torso": 5, "head": 3},
    4: {"legs": 0, "lower_torso": 5, "vitals": 1, "arms": 4, "upper_torso": 5, "head": 5},
    6: {"legs": 0, "lower_torso": 3, "vitals": 1, "arms": 4, "upper_torso": 5, "head": 7},
}


def chart(roll: int) -> str:
    """FI:L431-437, written out again."""
    roll = min(max(roll, 1), 20)
    for high, region in ((4, "legs"), (9, "lower_torso"), (10, "vitals"), (14, "arms"),
                         (19, "upper_torso"), (20, "head")):  # fmt: skip
        if roll <= high:
            return region
    raise AssertionError


@pytest.mark.parametrize("m", sorted(T6))
def test_the_d20_chart_matches_t6_and_the_chart(m):
    """T6 and FI:L431-437: m added to the d20, clamped to 1-20 (A-54)."""
    found = table(odds(hit_location, {"modifier": m}).region)
    expected = {r: Fraction(n, 20) for r, n in T6[m].items() if n}
    assert found == expected
    brute: dict[str, Fraction] = {}
    for face in range(1, 21):
        brute[chart(face + m)] = brute.get(chart(face + m), Fraction(0)) + Fraction(1, 20)
    assert found == brute


def test_at_m_0_the_torso_takes_eleven_twentieths_and_each_limb_two():
    """T6: vitals and both torso rows are the torso (FI:L429, FI:L556); odd is left (FI:L427)."""
    found = table(odds(hit_location, {}).location)
    assert found == {"torso": Fraction(11, 20), "head": Fraction(1, 20),
                     **{f"{s}_{p}": Fraction(2, 20) for s in ("left", "right")
                        for p in ("arm", "leg")}}  # fmt: skip
    assert run(hit_location, {"dice": {"values": [3]}}).location == "left_leg"
    assert run(hit_location, {"dice": {"values": [12]}}).location == "right_arm"


def test_fighting_height_and_point_blank_each_add_two():
    """FI:L440-442: fighting with height advantage is +4, a point-blank shot +2 (FI:L450)."""
    melee = table(odds(hit_location, {"melee": True, "height_advantage": True}).region)
    assert melee == table(odds(hit_location, {"modifier": 4}).region)
    shot = run(hit_location, {"point_blank": True, "dice": {"values": [18]}})
    assert (shot.roll, shot.region, shot.bonus_cards) == (20, "head", 2)
    with pytest.raises(InputError) as refused:
        run(hit_location, {"height_advantage": True, "dice": {"values": [1]}})
    assert refused.value.loc == ("height_advantage",)
    with pytest.raises(InputError) as refused:
        run(hit_location, {"melee": True, "point_blank": True, "dice": {"values": [1]}})
    assert refused.value.loc == ("point_blank",)


@pytest.mark.parametrize("bumps", [0, 1, 2, 5])
def test_each_bump_moves_the_roll_one_so_b_bumps_reach_the_head_from_20_minus_b(bumps):
    """FI:L446 and T6's note: with b bumps the head is reached from any d20 of 20 - b on."""
    found = table(odds(hit_location, {"bumps": bumps, "aim_for": "head"}).region)
    assert found["head"] == Fraction(bumps + 1, 20)
    moved = run(hit_location, {"bumps": 2, "shift": -2, "dice": {"values": [6]}})
    assert (moved.roll, moved.region) == (4, "legs")
    with pytest.raises(InputError) as refused:
        run(hit_location, {"bumps": 1, "shift": 2, "dice": {"values": [6]}})
    assert refused.value.loc == ("shift",)


def test_a_prone_target_is_missed_outside_the_exposed_regions_unless_within_2_m():
    """FI:L454: no prone attribute, a miss; within 2 m the rule is ignored. The d20 has no
    attribute: head, arms and upper torso by default (A-55, prone_exposed_regions)."""
    prone = table(odds(hit_location, {"prone": True}).outcome)
    assert prone == {"hit": Fraction(10, 20), "miss_prone": Fraction(10, 20)}
    close = table(odds(hit_location, {"prone": True, "within_2m": True}).outcome)
    assert close == {"hit": Fraction(1)}
    only_head = {"prone": True, "options": {"prone_exposed_regions": ["head"]}}
    assert table(odds(hit_location, only_head).outcome)["hit"] == Fraction(1, 20)


def test_a_prone_miss_draws_no_bonus_cards():
    """FI:L454: 'Unless the result has the prone attribute, it's a miss', and a miss draws no
    damage, so the vitals' extra card (FI:L512) is not there to draw: bonus_cards 0. The old
    code reported 1 for a prone miss on a 10. Within 2 m the vitals are hit, with the card."""
    missed = run(hit_location, {"prone": True, "dice": {"values": [10]}})
    assert (missed.region, missed.outcome, missed.bonus_cards) == ("vitals", "miss_prone", 0)
    hit = run(hit_location, {"prone": True, "within_2m": True, "dice": {"values": [10]}})
    assert (hit.region, hit.outcome, hit.bonus_cards) == ("vitals", "hit", 1)
    head = {"prone": True, "options": {"prone_exposed_regions": ["arms"]}, "dice": {"values": [20]}}
    assert run(hit_location, head).bonus_cards == 0
    covered = run(hit_location, {"covered": ["head"], "dice": {"values": [20]}})
    assert (covered.outcome, covered.bonus_cards) == ("cover", 2)


def test_a_region_behind_cover_strikes_the_cover():
    """FI:L458-460: behind a bar, a shot to the lower torso goes into the wood."""
    found = run(hit_location, {"covered": ["legs", "lower_torso"], "dice": {"values": [7]}})
    assert (found.region, found.outcome) == ("lower_torso", "cover")
    assert table(odds(hit_location, {"covered": ["legs", "lower_torso"]}).outcome) == {
        "hit": Fraction(11, 20), "cover": Fraction(9, 20)}  # fmt: skip


def test_l458_leaning_around_a_corner_the_left_arm_alone_is_behind_cover():
    """FI:L458: 'If the hit location is a character's left arm and he's leaning around a corner
    to fire with his right, the bullet is going to hit the corner.' An odd arm is the left
    (FI:L425): 11 strikes the corner, 12 the right arm."""
    left = {"covered": ["left_arm"]}
    found = run(hit_location, {**left, "dice": {"values": [11]}})
    assert (found.location, found.outcome) == ("left_arm", "cover")
    found = run(hit_location, {**left, "dice": {"values": [12]}})
    assert (found.location, found.outcome) == ("right_arm", "hit")
    brute = {"hit": Fraction(0), "cover": Fraction(0)}
    for face in range(1, 21):
        left_arm, right_leg = face in (11, 13), face in (2, 4)
        behind = left_arm or right_leg
        brute["cover" if behind else "hit"] += Fraction(1, 20)
    both = {"covered": ["left_arm", "right_leg"]}
    assert table(odds(hit_location, both).outcome) == brute
    arms = table(odds(hit_location, {"covered": ["arms", "left_arm"]}).outcome)
    assert arms["cover"] == Fraction(4, 20)


@pytest.mark.parametrize(
    ("visibility", "possible", "mod", "armor"),
    [("visible", True, 0, False), ("partly_concealed", True, 0, True),
     ("concealed_located", True, -4, True), ("concealed_unknown", False, None, False)],
)  # fmt: skip
def test_concealment(visibility, possible, mod, armor):
    """FI:L508: partial concealment does not modify the attack but the cover is armor; a
    target completely concealed whose whereabouts are known is attacked at -4."""
    found = run(concealment, {"visibility": visibility})
    assert (found.attack_possible, found.modifier, found.cover_is_armor) == (possible, mod, armor)


# Armor and penetration (FI:L464-504)


def test_the_armor_and_column_tables_are_the_chapter_s():
    """FI:L472-477 and FI:L499-504: Armor N stops column N."""
    assert [(r.armor, r.stops_column) for r in ARMOR_MATERIALS] == [(n, n) for n in range(1, 6)]
    assert ARMOR_MATERIALS[2].materials == "metal, LBA"
    assert [r.column for r in DAMAGE_COLUMNS] == [1, 2, 3, 4, 5]
    assert DAMAGE_COLUMNS[1].weapon_types.endswith("pistols, large knives")


def test_e21_a_d12_attack_through_a_tree_drops_to_d10():
    """E-21, FI:L491: a tree at Armor 1, PN 1 (equal: the armor applies in full)."""
    found = run(penetration, {"column": 5, "pn": 1, "armor": [1]})
    assert (found.column, found.outcome) == (4, "reduced")


def test_e22_pn_2_against_armor_1_is_the_register_s_contradiction():
    """E-22, FI:L493 says PN 2 against Armor 1 'reduces its damage class (column) by one
    step'; the rule stated twice (FI:L466, FI:L485) takes a level off the shift for each point
    of PN over the Armor, leaving no shift. The rule by default; the example under
    penetration_model flat_av (A-56)."""
    rule = run(penetration, {"column": 2, "pn": 2, "armor": [1]})
    example = run(penetration, {"column": 2, "pn": 2, "armor": [1],
                                "options": {"penetration_model": "flat_av"}})  # fmt: skip
    assert (rule.column, rule.outcome) == (2, "through")
    assert (example.column, example.outcome) == (1, "reduced")
    for model in ("pn_reduces", "flat_av"):  # Armor 2 is bulletproof to most pistols
        stopped = run(penetration, {"column": 2, "pn": 2, "armor": [2],
                                    "options": {"penetration_model": model}})  # fmt: skip
        assert (stopped.column, stopped.outcome) == (None, "stopped")


def test_a_pn_under_the_armor_deflects_and_layers_apply_in_turn():
    """FI:L466: less, the shot is deflected (no damage, A-57); cover then armor (A-57)."""
    assert run(penetration, {"column": 3, "pn": 1, "armor": [2]}).outcome == "deflected"
    reduced = {"column": 3, "pn": 1, "armor": [2], "options": {"deflected": "reduced_by_av"}}
    assert run(penetration, reduced).column == 1
    layered = run(penetration, {"column": 5, "pn": 3, "armor": [1, 3]})
    assert [layer.shift for layer in layered.layers] == [0, 3]
    assert layered.column == 2


# Damage (FI:L510-516)


def damage_oracle(sides: int, dice: int, size: int, levels: int) -> Fraction:
    """P(at least `levels` wounds) of `dice` open-ended d`sides` summed: 1 - P(total below
    levels x size), which needs only values below it (oracle.open_ended)."""
    below = levels * size
    values = open_ended(sides, below)
    short = Fraction(0)
    for roll in product(values.items(), repeat=dice):
        if sum(v for v, _ in roll) < below:
            chance = Fraction(1)
            for _, p in roll:
                chance *= p
            short += chance
    return 1 - short


#: Catalogue T7 (Size 6): P(>=1), P(>=2), P(>=3) wounds in percent, to 0.1.
T7 = {"1(1)": (18.8, 1.6, 0.3), "2(1)": (50.0, 12.1, 2.0), "3(2)": (95.4, 49.1, 17.1),
      "2(3)": (84.4, 31.6, 10.2), "1(4)": (50.0, 9.0, 3.0), "2(5)": (93.1, 61.8, 25.2),
      "4(2)": (99.6, 78.9, 38.9), "5(5)": (100.0, 99.8, 97.5)}  # fmt: skip
SIDES = {1: 4, 2: 6, 3: 8, 4: 10, 5: 12}


@pytest.mark.parametrize("code", sorted(T7))
def test_wound_odds_match_t7_and_the_oracle(code):
    """T7: N(C) totalled, wounds the total over Size 6 rounded down (FI:L514)."""
    found = odds(combat_damage, {"code": code})
    cut = Fraction(found.truncation.mass_cut.exact)
    tails = {row.levels: Fraction(row.probability.exact) for row in found.wounds_at_least}
    dice, column = int(code[0]), int(code[2])
    for k, percent in enumerate(T7[code], start=1):
        assert abs(float(tails.get(k, 0)) * 100 - percent) <= 0.05 + 1e-9
        if dice <= 3:
            assert 0 <= damage_oracle(SIDES[column], dice, 6, k) - tails[k] <= cut


def test_a_head_hit_draws_two_cards_more():
    """FI:L512 and T7's note: a 2(2) pistol to the head is 4(2), P(>=2 wounds) 78.9%."""
    head = odds(combat_damage, {"code": "2(2)", "region": "head"}).wounds_at_least
    plain = odds(combat_damage, {"code": "4(2)"}).wounds_at_least
    assert head == plain
    assert round(float(Fraction(head[1].probability.exact)), 3) == 0.789
    vitals = run(combat_damage, {"code": "1(1)", "region": "vitals",
                                 "dice": {"values": [3, 2]}})  # fmt: skip
    assert (vitals.code, vitals.total) == ("2(1)", 5)


def test_explosions_lose_a_column_every_10_m_and_add_no_location_cards():
    """FI:L307-311 (A-46): 15 m is a column left, past 30 m a 3(3) does nothing; the head
    adds no card."""
    found = run(combat_damage, {"code": "3(3)", "region": "head", "explosive_distance": 15,
                                "dice": {"values": [1, 2, 3]}})  # fmt: skip
    assert (found.code, found.total) == ("3(2)", 6)
    far = run(combat_damage, {"code": "3(3)", "explosive_distance": 35, "dice": {"seed": 1}})
    assert (far.code, far.total, far.wounds) == (None, 0, 0)


@pytest.mark.parametrize(("distance", "ceil_code", "floor_code"),
                         [(10, "3(4)", "3(3)"), (15, "3(3)", "3(3)"), (20, "3(3)", "3(2)"),
                          (40, "3(1)", None)])  # fmt: skip
def test_explosion_damage_reads_the_explosives_bands(distance, ceil_code, floor_code):
    """FI:L309 (A-46): 10 and 20 m fall in two bands each; combat/damage takes the same
    `explosive_bands` option as combat/explosives and the same columns: ceil by default (10 m
    full), floor (10 m already a column left)."""
    for bands, code in (("ceil", ceil_code), ("floor", floor_code)):
        request = {"code": "3(4)", "explosive_distance": distance,
                   "options": {"explosive_bands": bands}}  # fmt: skip
        found = run(combat_damage, {**request, "dice": {"seed": 1}})
        shown = run(explosives, {"damage": "3(4)", "distance": distance,
                                 "options": {"explosive_bands": bands}})  # fmt: skip
        assert found.code == code == shown.damage
    assert run(combat_damage, {"code": "3(4)", "explosive_distance": 10,
                               "dice": {"seed": 1}}).code == "3(4)"  # fmt: skip


def test_area_effect_dice_join_the_total():
    """FI:L287: a shotgun's 4d6 bonus dice at 1-10 m (E-12), drawn with the damage."""
    found = run(combat_damage, {"code": "1(2)", "ae_dice": 2, "dice": {"values": [3, 4, 5]}})
    assert (found.total, found.wounds) == (12, 2)
    assert odds(combat_damage, {"code": "1(2)", "ae_dice": 2}).wounds_at_least == odds(
        combat_damage, {"code": "3(2)"}).wounds_at_least  # fmt: skip


def test_e24_hrulfgarrs_vibro_knife_does_8():
    """E-24, FI:L522: Strength 2(3) shows 4 and 7, the knife 2(2) 2 and 2; the 7 is cut to
    the weapon's 4 (FI:L520): 8, one wound against Size 6 (not stated)."""
    found = run(hand_to_hand, {"weapon": "2(2)", "strength": "2(3)",
                               "dice": {"values": [4, 7, 2, 2]}})  # fmt: skip
    assert (found.strength_highest, found.strength_added, found.total, found.wounds) == (7, 4, 8, 1)


def hand_to_hand_oracle(
    weapon: tuple[int, int], strength: tuple[int, int], levels: int
) -> Fraction:
    """P(W + min(S, W) < 6 k) by brute force: W a sum, S a highest, both open-ended."""
    below = 6 * levels
    w_values, s_values = open_ended(weapon[0], below), open_ended(strength[0], below)
    s_values[below] = 1 - sum(s_values.values())  # a Strength die of `below` or more
    short = Fraction(0)
    for w_roll in product(w_values.items(), repeat=weapon[1]):
        for s_roll in product(s_values.items(), repeat=strength[1]):
            w = sum(v for v, _ in w_roll)
            if w + min(max(v for v, _ in s_roll), w) < below:
                chance = Fraction(1)
                for _, p in (*w_roll, *s_roll):
                    chance *= p
                short += chance
    return 1 - short


@pytest.mark.parametrize(
    ("weapon", "strength", "t8"),
    [("2(2)", "2(3)", (96.7, 62.2, 22.6)), ("1(1)", "3(2)", (49.1, 13.2, 3.1)),
     ("2(3)", "3(3)", (98.4, 80.6, 39.3))],
)  # fmt: skip
def test_hand_to_hand_odds_match_t8_and_brute_force(weapon, strength, t8):
    """T8: the weapon's total plus the Strength test's highest die capped at it."""
    found = odds(hand_to_hand, {"weapon": weapon, "strength": strength})
    cut = Fraction(found.truncation.mass_cut.exact)
    tails = [Fraction(row.probability.exact) for row in found.wounds_at_least]
    assert tuple(round(float(t) * 100, 1) for t in tails[:3]) == t8
    if weapon == "2(2)":
        expected = hand_to_hand_oracle((6, 2), (8, 2), 2)
        assert 0 <= expected - tails[1] <= cut


def test_armor_that_stops_the_weapon_stops_the_strength():
    """FI:L495; and closed with the longer weapon, no Strength (FI:L401)."""
    stopped = run(hand_to_hand, {"weapon": "2(1)", "strength": "3(5)", "pn": 1, "armor": [1],
                                 "dice": {"seed": 3}})  # fmt: skip
    assert (stopped.total, stopped.strength, stopped.rolls) == (0, None, [])
    closed = run(hand_to_hand, {"weapon": "1(2)", "strength": "2(3)", "closed_longer": True,
                                "dice": {"values": [5]}})  # fmt: skip
    assert (closed.total, closed.strength_added) == (5, 0)


@pytest.mark.parametrize(("strength", "code"), [("2(1)", "2(1)"), ("2(2)", "2(1)"),
                                                ("3(3)", "3(1)"), ("1(5)", "1(3)")])  # fmt: skip
def test_unarmed_shifts_strength_left_once_to_column_2_twice_beyond(strength, code):
    """FI:L497 (A-59): the shifted Strength pool is the damage, never below column 1."""
    assert run(unarmed, {"strength": strength, "dice": {"seed": 4}}).code == code


def test_unarmed_has_no_pn_and_its_readings():
    """A-59: any armor stops a fist; the highest die only, or a 1(1) weapon, by option."""
    assert run(unarmed, {"strength": "3(3)", "armor": [1], "dice": {"seed": 2}}).total == 0
    highest = {"strength": "3(3)", "options": {"unarmed_mode": "strength_highest_shifted"},
               "dice": {"values": [2, 3, 1]}}  # fmt: skip
    assert run(unarmed, highest).total == 3
    fixed = {"strength": "2(3)", "options": {"unarmed_mode": "fixed_1_1"},
             "dice": {"values": [7, 2, 3]}}  # fmt: skip
    assert run(unarmed, fixed).total == 6  # 1(1) shows 3, Strength 7 capped at 3


def test_e25_a_15_point_bottle_to_a_size_6_head_is_6_ct_and_a_wound():
    """E-25, FI:L548: 2 would-be levels, 3 CT each, a real wound each full 2 (FI:L546); the
    text's 'the hero suffers' means the enemy. No d6 on top (A-69, nonlethal_ct_mode)."""
    found = run(nonlethal, {"total": 15, "size": 6})
    assert (found.levels, found.ct_loss, found.wounds, found.ct_dice) == (2, 6, 1, [])
    added = run(nonlethal, {"total": 15, "size": 6, "options": {"nonlethal_ct_mode": "add_d6"},
                            "dice": {"values": [2, 3]}})  # fmt: skip
    assert added.ct_loss == 11
    glancing = run(nonlethal, {"total": 5, "dice": {"values": [4]}})
    assert (glancing.levels, glancing.ct_loss, glancing.wounds) == (0, 4, 0)


def test_basic_martial_arts_is_a_task_with_nonlethal_damage():
    """FI:L552: a level of 3 rolls 3 dice."""
    found = run(martial_arts, {"pool": "III-3", "tn": 7, "dice": {"values": [2, 7, 5]}})
    assert (found.success, found.nonlethal) == (True, True)


# Wounds (FI:L524-601)


def test_e26_two_light_wounds_to_one_arm_make_it_serious():
    """E-26, FI:L558; different locations never combine; five a location (FI:L526)."""
    found = run(apply, {"sheet": {"right_arm": 2}, "location": "right_arm", "levels": 2})
    assert (found.sheet.right_arm, found.wound_penalty) == (4, -4)
    capped = run(apply, {"sheet": {"torso": 3}, "location": "torso", "levels": 4})
    assert (capped.sheet.torso, capped.taken, capped.critically_injured) == (5, 2, True)
    limb = run(apply, {"location": "left_leg", "levels": 9})
    assert (limb.limbs_destroyed, limb.critically_injured) == (["left_leg"], False)


def test_e27_light_and_serious_take_the_table_s_minus_4_not_the_example_s_minus_3():
    """E-27, FI:L573 says 'the penalty for serious wounds (-3)'; the table says -4 (FI:L570).
    The table by default; serious_wound_penalty -3 reproduces the example (A-63)."""
    sheet = {"left_leg": 2, "torso": 4}
    assert run(modifier, {"sheet": sheet}).wound_penalty == -4
    example = run(modifier, {"sheet": sheet, "options": {"serious_wound_penalty": -3}})
    assert example.wound_penalty == -3


def test_wound_cap_6_keeps_the_maimed_row_as_a_sixth_level():
    """A-62: five levels a location, the rest lost (FI:L526); wound_cap 6 keeps 'Maimed' (TN
    13, FI:L589) as a sixth. Under the default a sheet cannot hold a sixth level (422), and a
    hit's CT dice stop at the levels a location holds (FI:L591)."""
    hit = {"sheet": {"torso": 3}, "location": "torso", "levels": 4}
    assert (run(apply, hit).sheet.torso, run(apply, hit).taken) == (5, 2)
    six = run(apply, {**hit, "options": {"wound_cap": 6}})
    assert (six.sheet.torso, six.taken, six.critically_injured) == (6, 3, True)
    maimed = run(modifier, {"sheet": {"torso": 6}, "options": {"wound_cap": 6}})
    assert (maimed.level, maimed.name, maimed.stun_tn, maimed.wound_penalty) == (
        6,
        "Maimed",
        13,
        -5,
    )
    for op, extra in ((modifier, {}), (death, {"ct": 1, "max_ct": 12}),
                      (bleeding, {"ct": 1, "max_ct": 12}),
                      (recovery, {"fortitude": "II-2", "dice": {"seed": 1}})):  # fmt: skip
        with pytest.raises(InputError) as error:
            run(op, {"sheet": {"torso": 6}, **extra})
        assert error.value.loc == ("sheet", "torso")
    surgery = {"pool": "III-3", "minutes_since_injury": 5, "skill": "medicine_surgery"}
    for op, request in ((medical, surgery), (natural, {"fortitude": "III-2"})):
        maimed_torso = {**request, "location": "torso", "level": 6, "dice": {"seed": 1}}
        with pytest.raises(InputError) as error:
            run(op, maimed_torso)
        assert error.value.loc == ("level",)
        assert run(op, {**maimed_torso, "options": {"wound_cap": 6}}).tn == 13
    lowest = {cap: min(int(ct) for ct in table(odds(concussion, {"levels": 6, "options":
              {"wound_cap": cap}}).ct_loss)) for cap in (5, 6)}  # fmt: skip
    assert lowest == {5: 5, 6: 6}
    assert len(run(concussion, {"levels": 6, "dice": {"values": [1] * 5}}).dice) == 5


def test_stun_tn_basis_reads_the_location_the_hit_or_the_worst_wound():
    """A-64: the Stun TN is the struck location's level after the hit by default; the levels
    this hit inflicted (at most a location's five), or the highest wound overall. The odds are
    the check at that TN: with the highest wound's TN they equal a hit to the worst location."""
    request = {"fortitude": "III-2", "sheet": {"torso": 2, "head": 4}, "location": "torso",
               "levels": 1, "dice": {"seed": 1}}  # fmt: skip
    tns = {basis: run(stun_check, {**request, "options": {"stun_tn_basis": basis}}).tn
           for basis in ("location_level", "levels_inflicted", "highest")}  # fmt: skip
    assert tns == {"location_level": 5, "levels_inflicted": 3, "highest": 9}
    inflicted = {**request, "levels": 9, "options": {"stun_tn_basis": "levels_inflicted"}}
    assert run(stun_check, inflicted).tn == 11
    inflicted["options"] = {**inflicted["options"], "wound_cap": 6}
    assert run(stun_check, inflicted).tn == 13
    del request["dice"]
    highest = table(odds(stun_check, {**request, "options": {"stun_tn_basis": "highest"}}).stunned)
    worst_hit = {**request, "sheet": {"head": 4}, "location": "head"}
    assert highest == table(odds(stun_check, worst_hit).stunned)
    assert highest != table(odds(stun_check, request).stunned)


def test_concussion_rolls_only_the_levels_the_location_can_still_take():
    """FI:L591: 1d6 CT for every wound level suffered; a location takes five (FI:L526) and
    the levels past that are lost (A-62), so they are not suffered. Three levels to an arm
    already Heavy (3) suffer 2, and roll 2d6; the old code rolled 3, capping at five as if
    the arm were unhurt. A Critical arm suffers none: the hit costs at least 1d6 (FI:L591)."""
    heavy = {"levels": 3, "held": 3}
    assert len(run(concussion, {**heavy, "dice": {"values": [1, 1]}}).dice) == 2
    assert table(odds(concussion, heavy).ct_loss) == table(odds(concussion, {"levels": 2}).ct_loss)
    critical = {"levels": 2, "held": 5, "dice": {"values": [4]}}
    assert run(concussion, critical).dice == [(4,)]
    assert run(concussion, {**critical, "options": {"wound_cap": 6}}).dice == [(4,)]  # Maimed
    assert len(run(concussion, {"levels": 3, "held": 2, "dice": {"values": [1] * 3}}).dice) == 3
    with pytest.raises(InputError) as refused:
        run(concussion, {"levels": 1, "held": 6, "dice": {"seed": 1}})
    assert refused.value.loc == ("held",)


@pytest.mark.parametrize("charge", [False, True])
def test_a_stopped_hit_with_wound_levels_is_refused(charge):
    """FI:L491: damage reduced below column one is stopped entirely, so a stopped hit
    inflicts no wound level; it was answered 0 CT, or with ct_on_armor_stop 3d6 for three
    levels instead of the stopped hit's one d6 (FI:L591, A-65). Now a 422."""
    request = {"levels": 3, "stopped": True, "options": {"ct_on_armor_stop": charge}}
    with pytest.raises(InputError):
        run(concussion, {**request, "dice": {"seed": 1}})
    with pytest.raises(InputError):
        odds(concussion, request)


def test_ct_on_armor_stop_charges_a_stopped_hit_its_d6():
    """A-65: a hit armor or cover stops costs no CT by default (FI:L591 reads of damage that
    got through); ct_on_armor_stop charges it the woundless hit's 1d6, open-ended."""
    stopped = {"levels": 0, "stopped": True, "options": {"ct_on_armor_stop": True}}
    assert run(concussion, {**stopped, "dice": {"values": [4]}}).ct_loss == 4
    found = table(odds(concussion, stopped).ct_loss)
    assert {int(k): v for k, v in found.items() if int(k) < 6} == {
        k: Fraction(1, 6) for k in range(1, 6)}  # fmt: skip
    assert table(odds(concussion, {"levels": 0, "stopped": True}).ct_loss) == {"0": 1}


#: Catalogue T11: stun pass chance in percent by Fortitude and the level of the new wound.
T11 = {"II-1": (50.0, 16.7, 8.3, 2.8, 1.4), "III-2": (85.9, 43.8, 20.7, 12.1, 3.1),
       "IV-3": (95.2, 77.2, 26.8, 21.9, 14.1), "V-5": (99.4, 96.5, 76.0, 35.2, 27.5)}  # fmt: skip


@pytest.mark.parametrize("pool", sorted(T11))
def test_stun_checks_match_t11_and_the_oracle(pool):
    """T11, FI:L566-577: Fortitude with the wound's penalty against its Stun TN."""
    column, dice = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}[pool.split("-")[0]], int(pool[-1])
    for level, percent in enumerate(T11[pool], start=1):
        found = odds(stun_check, {"fortitude": pool, "sheet": {"torso": level},
                                  "location": "torso", "levels": level})  # fmt: skip
        passed = table(found.stunned)["false"]
        assert round(float(passed) * 100, 1) == percent
        need = 1 + 2 * level + level  # TN and |penalty|
        top = SIDES[column]
        cf = sum(comb(dice, k) * Fraction(1, top) ** k * Fraction(top - 1, top) ** (dice - k)
                 for k in range(dice // 2 + 1, dice + 1))  # fmt: skip
        short = sum(p for is_cf, kept, p in check_outcomes(top, dice, need)
                    if not is_cf and kept < need)  # fmt: skip
        expected = 1 - cf - short
        assert 0 <= expected - passed <= Fraction(found.truncation.mass_cut.exact)


def test_a_stunned_character_or_a_woundless_hit_needs_no_stun_check():
    """FI:L577 (A-64): a check a wound, unless already stunned; stun_trigger damage checks a
    woundless hit at TN 3."""
    base = {"fortitude": "II-2", "sheet": {}, "location": "torso", "dice": {"seed": 1}}
    assert run(stun_check, {**base, "levels": 0}).required is False
    assert run(stun_check, {**base, "levels": 2, "stunned": True}).required is False
    hit = run(stun_check, {**base, "levels": 0, "options": {"stun_trigger": "damage"}})
    assert (hit.required, hit.tn) == (True, 3)


def test_a_woundless_hit_checks_at_tn_3_whatever_the_old_wounds():
    """FI:L575 and A-64 (stun_trigger damage): a hit that wounds nothing checks at TN 3, not
    the Stun TN of the wound already at the struck location (Heavy, 7); the Heavy wound's
    penalty, -3, still applies (FI:L575 "Wound penalties apply"). The odds are the same
    check's: III-2 (2d8) at TN 3 less 3, so a kept 6 is needed; stunned on a critical
    failure (both dice 1) or both dice below 6."""
    request = {"fortitude": "III-2", "sheet": {"torso": 3}, "location": "torso", "levels": 0,
               "options": {"stun_trigger": "damage"}}  # fmt: skip
    found = run(stun_check, {**request, "dice": {"seed": 2}})
    assert (found.required, found.tn, found.wound_penalty) == (True, 3, -3)
    assert found.check.success is (found.check.en >= 3 and not found.check.critical_failure)
    found_odds = odds(stun_check, request)
    chances = table(found_odds.stunned)
    stunned = sum((p for cf, kept, p in check_outcomes(8, 2, 6) if cf or kept < 6), Fraction(0))
    assert chances["true"] == stunned  # every die below 6, so no chain is cut
    cut = Fraction(found_odds.truncation.mass_cut.exact)
    assert chances["false"] == 1 - stunned - cut
    wounded = run(stun_check, {**request, "levels": 1, "dice": {"seed": 2}})
    assert wounded.tn == 7


def test_recovery_is_at_the_highest_wound_and_a_critical_failure_knocks_out():
    """FI:L581-589: TN 3 with no wound (the Concussion row), 7 for Heavy; a critical failure
    is 1d6 hours out."""
    clear = run(recovery, {"fortitude": "II-2", "dice": {"values": [3, 2]}})
    assert (clear.tn, clear.outcome) == (3, "recovered")
    out = run(recovery, {"fortitude": "II-2", "sheet": {"head": 3}, "dice": {"values": [1, 1, 5]}})
    assert (out.tn, out.outcome, out.hours_unconscious) == (7, "unconscious", 5)
    found = odds(recovery, {"fortitude": "II-1"})
    chances = table(found.outcome)
    assert chances["unconscious"] == Fraction(1, 6)
    assert chances["stunned"] == Fraction(1, 6)
    assert 0 <= Fraction(2, 3) - chances["recovered"] <= Fraction(found.truncation.mass_cut.exact)


#: Catalogue T19: P(CT >= 5), P(CT >= 10) in percent for L wound levels.
T19 = {1: (33.3, 8.3), 2: (83.3, 30.6), 3: (98.1, 66.4), 4: (99.9, 90.6), 5: (100.0, 98.4)}


@pytest.mark.parametrize("levels", sorted(T19))
def test_concussion_is_an_open_ended_d6_a_level_as_t19(levels):
    """FI:L591, T19: each level 1d6 CT, open-ended."""
    found = table(odds(concussion, {"levels": levels}).ct_loss)
    for threshold, percent in zip((5, 10), T19[levels], strict=True):
        tail = sum(p for ct, p in found.items() if int(ct) >= threshold)
        assert round(float(tail) * 100, 1) == percent
    below = {v: p for v, p in open_ended(6, 12).items()}
    if levels == 1:
        assert {int(k): v for k, v in found.items() if int(k) < 12} == below


def test_a_woundless_hit_costs_a_d6_and_a_stopped_one_nothing():
    """FI:L591 (A-65)."""
    assert run(concussion, {"levels": 0, "dice": {"values": [4]}}).ct_loss == 4
    assert run(concussion, {"levels": 0, "stopped": True, "dice": {"seed": 1}}).ct_loss == 0


def test_concussed_at_zero_and_dead_at_minus_the_starting_ct():
    """FI:L593, FI:L601 (A-66): any loss to minus the starting CT kills by default; only
    bleeding under ct_death_rule bleeding_only."""
    assert run(death, {"ct": 0, "max_ct": 12}).state == "concussed"
    assert run(death, {"ct": -12, "max_ct": 12}).dead is True
    literal = {"ct": -12, "max_ct": 12, "options": {"ct_death_rule": "bleeding_only"}}
    assert run(death, literal).dead is False
    assert run(death, {**literal, "bled": True}).dead is True
    assert run(death, {"sheet": {"head": 5}, "ct": 4, "max_ct": 12}).state == "critically_injured"


def test_bleeding_rates_and_rounds_to_bleed_out():
    """FI:L601: Heavy 1, Serious 2, a Critical limb 3 CT a round (A-67: the worst)."""
    found = run(bleeding, {"sheet": {"torso": 4, "left_arm": 3}, "ct": 5, "max_ct": 12,
                           "rounds": 9})  # fmt: skip
    assert (found.rate, found.rounds_to_death, found.ct_after, found.bled_to_death) == (
        2, 9, -13, True)  # fmt: skip
    summed = {"sheet": {"torso": 4, "left_arm": 3}, "ct": 5, "max_ct": 12,
              "options": {"bleed_aggregation": "sum"}}  # fmt: skip
    assert run(bleeding, summed).rounds_to_death == 6
    assert run(bleeding, {"sheet": {"torso": 2}, "ct": 5, "max_ct": 12}).rounds_to_death is None


def test_a_critical_head_or_torso_bleeds_3_as_a_critical_limb():
    """FI:L601 names only 'critically wounded limbs' at 3 CT a round; a Critical head or torso
    is 'generally dead' (FI:L540), and if medicine keeps him alive it bleeds 3 (A-67 [REC])."""
    for where in ("head", "torso", "right_leg"):
        assert run(bleeding, {"sheet": {where: 5}, "ct": 5, "max_ct": 12}).rate == 3


# Healing (FI:L605-623)


def test_ct_care_restores_everything_otherwise_a_ct_a_minute():
    """FI:L607: a simple (3) medicine roll, default included."""
    cared = run(ct_healing, {"pool": "II-2", "ct": -3, "max_ct": 12, "minutes": 5,
                             "dice": {"values": [4, 2]}})  # fmt: skip
    assert cared.ct == 12
    alone = run(ct_healing, {"ct": -3, "max_ct": 12, "minutes": 7, "dice": {"seed": 1}})
    assert alone.ct == 4


def test_ct_care_odds_follow_the_run():
    """FI:L607: care restores all CT on a simple (3) medicine roll "in about 5 minutes": no
    one tending him, nothing is rolled and nothing restored; under 5 minutes a success
    restores nothing yet. II-2 (2d6) at TN 3 fails on a critical failure (both 1) or both dice
    below 3: 1/36 + 3/36, so 8/9 restores, the chains cut off all successes."""
    untended = {"ct": -3, "max_ct": 12, "minutes": 7}
    found = odds(ct_healing, untended)
    assert (table(found.restored).get("true", Fraction(0)), found.check) == (Fraction(0), None)
    assert run(ct_healing, {**untended, "dice": {"seed": 1}}).check is None
    early = {"pool": "II-2", "ct": -3, "max_ct": 12, "minutes": 2}
    rolled = run(ct_healing, {**early, "dice": {"values": [4, 2]}})
    assert (rolled.check.success, rolled.ct) == (True, -1)
    found = odds(ct_healing, early)
    assert table(found.restored).get("true", Fraction(0)) == 0
    assert Fraction(found.check.success.exact) > 0
    missed = sum((p for cf, kept, p in check_outcomes(6, 2, 3) if cf or kept < 3), Fraction(0))
    assert missed == Fraction(4, 36)
    found = odds(ct_healing, {**early, "minutes": 5})
    cut = Fraction(found.truncation.mass_cut.exact)
    assert table(found.restored)["true"] + cut == 1 - missed
    assert table(found.restored)["false"] == missed


def test_medical_treatment_scope_hour_and_tn():
    """FI:L609-619 (A-68): general heals Light and Heavy, surgery worse, first aid Light;
    within the hour; a Critical limb never."""
    base = {"pool": "III-3", "minutes_since_injury": 20, "location": "torso"}
    heavy = run(medical, {**base, "skill": "medicine_general", "level": 3,
                          "dice": {"values": [7, 2, 5]}})  # fmt: skip
    assert (heavy.tn, heavy.level) == (7, 2)
    assert run(medical, {**base, "skill": "medicine_general", "level": 4,
                         "dice": {"seed": 1}}).allowed is False  # fmt: skip
    assert run(medical, {**base, "skill": "medicine_surgery", "level": 4,
                         "dice": {"seed": 1}}).tn == 9  # fmt: skip
    late = {**base, "skill": "first_aid", "level": 1, "minutes_since_injury": 61}
    assert run(medical, {**late, "dice": {"seed": 1}}).allowed is False
    arm = {**base, "location": "left_arm", "skill": "medicine_surgery", "level": 5}
    assert run(medical, {**arm, "dice": {"seed": 1}}).allowed is False


def test_natural_healing_every_five_days():
    """FI:L623: Fortitude against the same TNs, one level on success."""
    found = run(natural, {"fortitude": "III-2", "location": "torso", "level": 2,
                          "dice": {"values": [6, 1]}})  # fmt: skip
    assert (found.tn, found.level) == (5, 1)
    assert table(odds(natural, {"fortitude": "I-1", "location": "torso", "level": 1})
                 .check.bumps)["failure"] == Fraction(1, 2)  # fmt: skip


def test_wounds_are_the_total_over_size_truncated():
    """FI:L514: every full multiple of Size is a wound."""
    found = run(combat_damage, {"code": "2(2)", "size": 7, "dice": {"values": [6, 5, 3]}})
    assert (found.total, found.wounds) == (14, floor(14 / 7))
