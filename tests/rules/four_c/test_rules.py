"""4C combat numbers and gamemastering against the seed's examples (catalogue 4c.md 4.1 E7,
E8, E13; 4.2 T8-T9, T12, T23) and its tables."""

from fractions import Fraction

import pytest

from service.rules.four_c.combat.attacks import multi_target
from service.rules.four_c.combat.damage import armor, damage, hold_damage, pull_punch
from service.rules.four_c.combat.defences import block
from service.rules.four_c.combat.reach import (
    climb,
    ground,
    move_penalty,
    range_limit,
    range_penalty,
    thrown,
)
from service.rules.four_c.combat.tables import MATERIALS, THROWN_OBJECTS
from service.rules.four_c.gm.awards import (
    fortune_gain,
    heal_between_adventures,
    heal_nightly,
    repute_adjust,
)
from service.rules.four_c.gm.repute import reaction
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

# Damage and armor


def test_armor_10_against_a_20_point_punch():
    """E7, C:L1194: 10 points get through to Damage."""
    found = run(armor, {"raw": 20, "armor": [10], "damage_points": 50})
    assert (found.taken, found.damage_points, found.dying) == (10, 40, False)


def test_gina_pulls_her_pistol_to_a_nail():
    """E8, C:L1198: a Dying result pulled to a Nail; the pistol still deals its 10."""
    shot = run(damage, {"attack": "weapon", "weapon": "pistol"})
    pulled = run(pull_punch, {"raw": shot.raw, "result": "dying", "result_cap": "nail"})
    assert (pulled.raw, pulled.result) == (10, "nail")
    assert run(pull_punch, {"raw": 25, "result": "hit", "damage_cap": 5}).raw == 5


def test_a_two_handed_blow_through_body_armor():
    """T9: Brawn 30 with a two-handed weapon deals 40; Body Armor 20 leaves 20 (C:L1167)."""
    raw = run(damage, {"attack": "two_handed", "brawn": 30}).raw
    assert raw == 40
    assert run(armor, {"raw": raw, "armor": [20]}).taken == 20


@pytest.mark.parametrize(
    ("attack", "extra", "raw"),
    [
        ("unarmed", {"brawn": 30}, 30),
        ("one_handed", {"brawn": 30}, 35),
        ("thrown", {"brawn": 30, "material_value": 40}, 40),  # compact car, C:L1178
        ("thrown", {"brawn": 30, "material_value": 40, "options": {"thrown_damage": "brawn"}}, 30),
        ("thrown", {"brawn": 30, "material_value": 40, "options": {"thrown_damage": "lesser"}}, 30),
        ("weapon", {"weapon": "shotgun"}, 25),
        ("weapon", {"weapon": "rifle"}, 15),
        ("power", {"power_rv": 45}, 45),
        ("rush", {"brawn": 30, "fortitude": 20}, 30),
        ("rush", {"brawn": 30, "fortitude": 20, "options": {"rush_damage": "fortitude"}}, 20),
    ],
)
def test_raw_damage_by_attack(attack, extra, raw):
    """C:L1165-1190."""
    assert run(damage, {"attack": attack, **extra}).raw == raw


def test_a_weapon_attack_needs_a_weapon():
    with pytest.raises(InputError) as refused:
        run(damage, {"attack": "weapon"})
    assert refused.value.loc == ("weapon",)


def test_armor_stacking_and_dying_through_armor():
    """A-21: the highest armor counts, or the sum; A-15: a Dying result the armor stops
    entirely is a Hit for 0."""
    assert run(armor, {"raw": 30, "armor": [10, 15]}).taken == 15
    assert (
        run(armor, {"raw": 30, "armor": [10, 15], "options": {"armor_stacking": "sum"}}).taken == 5
    )
    stopped = run(armor, {"raw": 10, "armor": [50], "result": "dying"})
    assert (stopped.taken, stopped.result, stopped.dying) == (0, "hit", False)
    literal = {"raw": 10, "armor": [50], "result": "dying",
               "options": {"dying_requires_penetration": False}}  # fmt: skip
    assert run(armor, literal).dying
    assert run(armor, {"raw": 30, "armor": [5], "damage_points": 20}).dying  # 0 points left


def test_a_dying_result_drops_damage_points_to_0():
    """C:L1274: "You are dying. Your Damage points drop to 0", whatever got through the armor
    (catalogue 3.8.2: on entry, Damage points = 0); a Dying result the armor stopped is a Hit
    (A-15) and takes only its damage."""
    found = run(armor, {"raw": 20, "armor": [10], "damage_points": 50, "result": "dying"})
    assert (found.taken, found.damage_points, found.result, found.dying) == (10, 0, "dying", True)
    stopped = run(armor, {"raw": 20, "armor": [30], "damage_points": 50, "result": "dying"})
    assert (stopped.damage_points, stopped.result, stopped.dying) == (50, "hit", False)
    literal = {"raw": 20, "armor": [30], "damage_points": 50, "result": "dying",
               "options": {"dying_requires_penetration": False}}  # fmt: skip
    assert (run(armor, literal).damage_points, run(armor, literal).dying) == (0, True)


def test_a_hold_hurts_from_the_next_turn():
    """C:L1280, A-50: the holder's Brawn each turn the hold is kept, less armor."""
    assert run(hold_damage, {"holder_brawn": 30, "armor": [10], "turn": 1}).taken == 0
    assert run(hold_damage, {"holder_brawn": 30, "armor": [10]}).taken == 20
    at_once = {"holder_brawn": 30, "turn": 1, "options": {"hold_damage_on_establish": True}}
    assert run(hold_damage, at_once).taken == 30


def test_one_roll_against_every_surrounding_opponent():
    """C:L1161-1163: yellow hits them all, anything else misses them all."""
    found = table(odds(multi_target, {"rv": 40, "targets": 3}).result)
    colours = oracle.colour_odds(40)
    assert found == {"all_miss": 1 - colours["yellow"], "all_hit": colours["yellow"]}


# Reach


@pytest.mark.parametrize(
    ("coordination", "on_ground", "climbing"),
    [(0, 0, 0), (2, 1, 1), (3, 2, 1), (29, 2, 1), (30, 3, 2)],
)
def test_movement_by_coordination(coordination, on_ground, climbing):
    """C:L993-1006; Coordination 0 moves nowhere (A-61)."""
    assert run(ground, {"coordination": coordination}).sectors == on_ground
    assert run(climb, {"coordination": coordination}).sectors == climbing


def test_extra_legs_add_a_sector():
    assert run(ground, {"coordination": 30, "extra_legs": True}).sectors == 4


def test_moving_penalises_attacks_and_dodges_but_not_rushes():
    """C:L967, C:L1101."""
    assert run(move_penalty, {"sectors_moved": 2}).row_steps == -2
    assert run(move_penalty, {"sectors_moved": 2, "action": "dodge"}).row_steps == -2
    assert run(move_penalty, {"sectors_moved": 2, "action": "rush"}).row_steps == 0


@pytest.mark.parametrize(
    ("weapon", "sectors"),
    [("bow", 4), ("crossbow", 4), ("pistol", 4), ("rifle", 8), ("shotgun", 2)],
)
def test_weapon_ranges(weapon, sectors):
    """C:L1083-1089."""
    assert run(range_limit, {"weapon": weapon}).sectors == sectors


@pytest.mark.parametrize(("rv", "sectors"), [(1, 1), (10, 1), (11, 2), (45, 5)])
def test_power_ranges_are_a_tenth_rounded_up(rv, sectors):
    """C:L1091, T12."""
    assert run(range_limit, {"weapon": "power", "power_rv": rv}).sectors == sectors


THROWN = [(0, 0), (2, 0), (5, 0), (6, 1), (15, 2), (25, 3), (35, 4), (45, 5), (60, 6), (80, 7),
          (120, 8), (500, 9), (1000, 10), (5000, 10)]  # fmt: skip


@pytest.mark.parametrize(("brawn", "sectors"), THROWN)
def test_the_thrown_range_table(brawn, sectors):
    """E13, C:L1578-1596 (its '10-29' and '10-39' rows are 20-29 and 30-39)."""
    assert run(thrown, {"brawn": brawn}).sectors == sectors
    assert run(range_limit, {"weapon": "thrown", "thrower_rv": brawn}).sectors == sectors


def test_a_rock_and_a_grenade_thrown_at_brawn_20():
    """T23: 3 sectors, and 4 for a grenade made for throwing (C:L1596)."""
    assert run(thrown, {"brawn": 20}).sectors == 3
    assert run(thrown, {"brawn": 20, "designed_for_throwing": True}).sectors == 4


def test_thrown_range_by_coordination_and_on_the_advanced_table():
    """A-13; the advanced rows go on one a row (catalogue 3.7.8)."""
    by_coordination = {
        "brawn": 2,
        "coordination": 25,
        "options": {"thrown_range_trait": "coordination"},
    }
    assert run(thrown, by_coordination).sectors == 3
    assert run(thrown, {"brawn": 5000, "master_table": "libre-advanced"}).sectors == 15


def test_the_range_penalty_counts_sectors_to_the_target():
    """C:L1093-1095: the same sector is 0, the adjacent one -1."""
    assert [run(range_penalty, {"distance_sectors": d}).row_steps for d in (0, 1, 4)] == [0, -1, -4]


# Gamemastering


def test_healing():
    """C:L1333-1339: all between adventures; Fortitude a night, up to the maximum."""
    assert run(heal_between_adventures, {"damage_points": 3, "maximum": 90}).damage_points == 90
    night = {"damage_points": 40, "maximum": 90, "fortitude": 30}
    assert run(heal_nightly, night).damage_points == 70
    assert run(heal_nightly, {**night, "nights": 2}).damage_points == 90


@pytest.mark.parametrize(
    ("heal", "extra"), [(heal_between_adventures, {}), (heal_nightly, {"fortitude": 30})]
)
def test_damage_points_above_their_maximum_are_a_422(heal, extra):
    """C:L1331: Damage points start at M+C+B+F and are only lost, so never above it; both
    healing rules refuse more, naming the field."""
    with pytest.raises(InputError) as bad:
        run(heal, {"damage_points": 95, "maximum": 90, **extra})
    assert bad.value.loc == ("damage_points",)


@pytest.mark.parametrize(("scale", "points"), [("personal", 5), ("city", 25), ("global", 100)])
def test_fortune_by_scale(scale, points):
    """C:L1345-1371."""
    assert run(fortune_gain, {"fortune": 29, "scale": scale}).value == 29 + points
    assert run(fortune_gain, {"fortune": 29, "scale": scale, "gained": False}).value == max(
        29 - points, 0
    )


def test_fortune_may_go_negative_by_option():
    """A-37."""
    lost = {"fortune": 10, "scale": "city", "gained": False, "options": {"fortune_floor": False}}
    assert run(fortune_gain, lost).value == -15


def test_repute_changes_double_with_celebrity():
    """C:L1417-1428, C:L514."""
    assert run(repute_adjust, {"repute": 17, "event": "save_a_life"}).value == 19
    assert run(repute_adjust, {"repute": 17, "event": "save_a_life", "celebrity": True}).value == 21
    assert run(repute_adjust, {"repute": 1, "event": "commit_criminal_activity"}).value == 0
    famous = {"repute": 17, "event": "save_a_life", "bonus": 3}
    assert run(repute_adjust, famous).change == 5


@pytest.mark.parametrize(
    ("audience", "option", "readings"),
    [
        (
            "citizens",
            "mirror",
            ("unfavorable", "favorable", "very_favorable", "extremely_favorable"),
        ),
        (
            "criminals",
            "mirror",
            ("extremely_favorable", "very_favorable", "favorable", "unfavorable"),
        ),
        (
            "criminals",
            "black_favorable_only",
            ("favorable", "unfavorable", "unfavorable", "unfavorable"),
        ),
    ],
)
def test_public_reactions(audience, option, readings):
    """C:L1397-1405; criminals reversed (C:L1415, A-36)."""
    payload = {"rv": 17, "audience": audience, "options": {"criminal_reaction": option}}
    colours = oracle.colour_odds(17)
    expected: dict[str, Fraction] = {}
    for colour, reading in zip(oracle.COLOURS, readings, strict=True):
        expected[reading] = expected.get(reading, Fraction(0)) + colours[colour]
    assert table(odds(reaction, payload).reaction) == expected
    rolled = run(reaction, {**payload, "dice": {"values": [10, 1]}})  # 01: black
    assert rolled.reaction == readings[0]


@pytest.mark.parametrize(("steps", "raw"), [("label", 8), ("body", 11)])
def test_a_blocked_one_handed_blow(steps, raw):
    """T10, A-17: Brawn 30 (row 6) blocked on blue loses 4 rows to row 2 (3) or 3 to row 3
    (6), then +5 for the one-handed weapon (C:L1167, C:L1208-1211; A-03 floor)."""
    blocked = run(block, {"rv": 30, "options": {"block_steps": steps}, "dice": {"values": [8, 8]}})
    found = run(
        damage, {"attack": "one_handed", "brawn": 30, "brawn_row_steps": blocked.brawn_row_steps}
    )
    assert found.raw == raw


def test_a_thrown_steel_beam_deals_its_listed_30():
    """E17, A-77: the listed item value (30, C:L1177) though steel's band is 50-74 (C:L1256)."""
    beam = next(row for row in THROWN_OBJECTS if row.item == "steel beam")
    assert run(damage, {"attack": "thrown", "material_value": beam.material_value}).raw == 30
    steel = next(row for row in MATERIALS if row.substance == "Steel")
    assert (steel.mv_min, steel.mv_max) == (50, 74)
