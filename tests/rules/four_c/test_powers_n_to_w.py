"""4C powers N-W (issue 18, catalogue 3.6): the seed's examples and the catalogue's test
vectors (cited C:L<n> and T<n>), every check's odds against the independent enumeration of
oracle.py, the Telepathy block against catalogue 5.6 and a brute force of both d% rolls, and
the durations' d10s face by face."""

from fractions import Fraction
from itertools import product

import pytest

from service.rules.cost import metered
from service.rules.four_c.powers.flora import plant_control
from service.rules.four_c.powers.gear import one_of_a_kind_weapon, vehicle, weapon
from service.rules.four_c.powers.perception import protected_sense, supersense
from service.rules.four_c.powers.physique import (
    nine_lives,
    paralyzing_touch,
    phasing,
    physical_metamorphosis,
    regeneration,
    trait_boost,
    trait_increase,
)
from service.rules.four_c.powers.psyche import (
    nullification,
    reflection,
    shapeshift,
    telekinesis,
    telepathy,
)
from service.rules.four_c.powers.travel import (
    super_leap,
    superspeed,
    teleportation,
    wall_crawling,
    water_native,
)
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

BLACK, RED, BLUE, YELLOW = oracle.COLOURS
CASES = [(rv, steps) for rv in (1, 8, 25, 45, 120, 1000) for steps in (0, -2, 3)]


def by_colour(colours: dict[str, Fraction], results: tuple[str, ...]) -> dict[str, Fraction]:
    """The oracle's colours read on a result table, black to yellow."""
    found: dict[str, Fraction] = {}
    for colour, result in zip(oracle.COLOURS, results, strict=True):
        found[result] = found.get(result, Fraction(0)) + colours[colour]
    return {k: v for k, v in found.items() if v}


def refused(op, payload, field):
    with pytest.raises(InputError) as error:
        run(op, payload)
    assert error.value.loc[0] == field
    return error.value


# The seed's examples and the catalogue's vectors


@pytest.mark.parametrize(
    "arsenal",
    [["rifle", "rifle"], ["pistol", "pistol", "pistol"], ["bow", "crossbow", "pistol"]],
)
def test_weapon_30_owns_two_rifles_three_pistols_or_a_bow_crossbow_and_pistol(arsenal):
    """C:L931 (catalogue E9): each arsenal deals exactly 30."""
    found = run(weapon, {"rv": 30, "weapons": arsenal})
    assert (found.total_damage, found.unused) == (30, 0)


def test_a_weapon_arsenal_past_the_rank_value_is_refused():
    refused(weapon, {"rv": 30, "weapons": ["rifle", "rifle", "pistol"]}, "weapons")
    error = refused(weapon, {"rv": 30, "weapons": ["pistol", "thrown"]}, "weapons")
    assert error.loc == ("weapons", 1)
    custom = {"rv": 30, "weapons": ["rifle"], "custom": [{"name": "sonic lance", "damage": 15}]}
    assert run(weapon, custom).total_damage == 30  # GM-approved new weapon (C:L933)


def test_nullifying_a_power_of_45_on_black_costs_23():
    """C:L748 (catalogue T11): black at Nullification 30 (row 30-39 is black on 00-34)."""
    found = run(nullification, {"rv": 30, "target_power_rv": 45, "dice": {"values": [1, 2]}})
    assert (found.colour, found.result, found.backlash_damage) == (BLACK, "failed", 23)
    assert found.target_power_rv_now == 45
    red = run(nullification, {"rv": 30, "target_power_rv": 45, "dice": {"values": [4, 10]}})
    assert (red.result, red.backlash_damage, red.target_power_rv_now) == ("halved", 0, 23)
    blue = run(nullification, {"rv": 30, "target_power_rv": 45, "dice": {"values": [7, 10]}})
    assert (blue.result, blue.target_power_rv_now) == ("negated", 0)


@pytest.mark.parametrize(("rv", "sectors"), [(1, 1), (10, 1), (11, 2), (45, 5)])
def test_nullification_reaches_a_tenth_of_its_rank_value(rv, sectors):
    """C:L748 (catalogue T12): one-tenth, rounded up."""
    found = run(nullification, {"rv": rv, "target_power_rv": 10, "dice": {"values": [5, 5]}})
    assert found.range_sectors == sectors
    far = {"rv": rv, "target_power_rv": 10, "distance_sectors": sectors + 1}
    refused(nullification, {**far, "dice": {"values": [5, 5]}}, "distance_sectors")


def test_brawn_30_boosted_by_20():
    """C:L902 (catalogue T13): 50 for 5 turns, then 15 for 1d10 turns."""
    found = run(trait_boost, {"rv": 20, "trait": "brawn", "trait_rv": 30, "dice": {"values": [7]}})
    assert (found.boosted_rv, found.boost_turns, found.after_rv, found.after_turns) == (
        50,
        5,
        15,
        7,
    )
    ten = run(trait_boost, {"rv": 20, "trait": "brawn", "trait_rv": 30, "dice": {"values": [10]}})
    assert ten.after_turns == 10  # the 0 face is 10


def test_vehicle_30_on_a_sports_car():
    """C:L910 (catalogue T15): 10/30/12 becomes 25/45/27, two systems at 15."""
    car = {"name": "Sports Car", "durability": 10, "handling": 30, "velocity": 12}
    found = run(vehicle, {"rv": 30, "vehicle": car, "systems": ["missiles", "smoke screen"]})
    assert (found.durability, found.handling, found.velocity) == (25, 45, 27)
    assert [(s.name, s.rv) for s in found.systems] == [("missiles", 15), ("smoke screen", 15)]
    assert run(vehicle, {"rv": 45, "vehicle": car}).bonus == 23  # rounded up (C:L910)


def test_superspeed_10_with_coordination_30_runs_7_sectors():
    """C:L842-858 (catalogue T24): max(10, 30 + 10) = 40, the 40-49 band."""
    found = run(superspeed, {"rv": 10, "coordination": 30, "dice": {"seed": 1}})
    assert (found.speed_rv, found.sectors, found.maneuver) == (40, 7, None)
    assert found.rolls == []


def test_running_up_a_wall_rolls_superspeed():
    """C:L1310 (catalogue E14) and C:L862: the maneuver rolls max(RV, Coordination+10) and
    fails only on black; 27 is black at 40-49 (00-29), 30 red."""
    request = {"rv": 10, "coordination": 30, "maneuver": True}
    failed = run(superspeed, {**request, "dice": {"values": [2, 7]}})
    assert (failed.maneuver.colour, failed.maneuver.success) == (BLACK, False)
    assert run(superspeed, {**request, "dice": {"values": [3, 10]}}).maneuver.success


@pytest.mark.parametrize(
    ("rv", "sectors"),
    [
        (0, 0),
        (1, 1),
        (2, 1),
        (3, 2),
        (9, 3),
        (10, 4),
        (29, 5),
        (49, 7),
        (50, 8),
        (99, 9),
        (100, 10),
        (149, 10),
        (150, 15),
        (999, 15),
    ],
)
def test_the_superleap_table(rv, sectors):
    """C:L816-830."""
    found = run(super_leap, {"rv": rv})
    assert (found.sectors, found.circles_the_world) == (sectors, False)


@pytest.mark.parametrize("rv", [1000, 5000])
def test_a_superleap_of_1000_circles_the_world(rv):
    """C:L830-832; above 1000 reads 1000 (catalogue 3.0)."""
    found = run(super_leap, {"rv": rv})
    assert (found.sectors, found.circles_the_world) == (None, True)


@pytest.mark.parametrize(("rv", "sectors"), [(0, 0), (1, 1), (2, 1), (3, 2), (29, 2), (30, 3)])
def test_water_native_swims(rv, sectors):
    """C:L920-925."""
    assert run(water_native, {"rv": rv}).sectors == sectors


def test_wall_crawling_takes_the_gms_penalty_only_on_slippery_surfaces():
    """C:L914: the text names no number; the GM's is passed through."""
    assert run(wall_crawling, {}).row_steps == 0
    assert run(wall_crawling, {"slippery": True, "gm_row_steps": -2}).row_steps == -2
    refused(wall_crawling, {"gm_row_steps": -2}, "gm_row_steps")


def test_supersense_echolocation():
    """C:L836-838 (catalogue E16): the greater of the power and Awareness +10."""
    found = run(supersense, {"rv": 30, "awareness": 10, "sense": "echolocation"})
    assert (found.sense_rv, found.source) == (30, "power")
    assert run(supersense, {"rv": 10, "awareness": 30}).sense_rv == 40


def test_a_protected_sense_is_immune_up_to_its_rank_value_but_never_touch():
    """C:L794: 'equal to or less than'; touch cannot be protected."""
    assert run(protected_sense, {"rv": 30, "sense": "sight", "attack_rv": 30}).immune
    assert not run(protected_sense, {"rv": 30, "sense": "hearing", "attack_rv": 31}).immune
    refused(protected_sense, {"rv": 30, "sense": "touch", "attack_rv": 1}, "sense")


def test_phasing_and_metamorphosis_armor():
    """C:L766, C:L770, C:L784: armor at the Rank Value; metal Brawn is max(RV, Brawn+10)."""
    assert run(phasing, {"rv": 30, "damage": 40}).damage_taken == 10
    assert run(phasing, {"rv": 30, "phased": False, "damage": 40}).damage_taken == 40
    metal = run(physical_metamorphosis, {"rv": 40, "form": "metal", "brawn": 20, "damage": 50})
    assert (metal.armor, metal.damage_taken, metal.brawn, metal.attack_damage) == (40, 10, 40, None)
    fire = {"rv": 40, "form": "fire", "brawn": 35, "power_damage": True}
    found = run(physical_metamorphosis, fire)
    assert (found.brawn, found.attack_damage) == (35, 40)
    assert run(physical_metamorphosis, {**fire, "form": "metal"}).brawn == 45


def test_regeneration_heals_its_rank_value_up_to_the_maximum():
    """C:L802; the cap is A-55's default."""
    found = run(regeneration, {"rv": 20, "damage_points": 45, "maximum": 60})
    assert (found.damage_points, found.healed) == (60, 15)
    loose = {"rv": 20, "damage_points": 45, "maximum": 60, "options": {"regeneration_cap": False}}
    assert run(regeneration, loose).damage_points == 65
    refused(regeneration, {"rv": 20, "damage_points": 70, "maximum": 60}, "damage_points")


def test_trait_increase_raises_two_traits_by_15_or_by_20_when_rolled_twice():
    """C:L906; the Damage maximum follows the four physical traits (A-35)."""
    traits = [{"trait": "brawn", "rv": 30}, {"trait": "intellect", "rv": 10}]
    once = run(trait_increase, {"traits": traits})
    assert [(t.trait, t.rv) for t in once.traits] == [("brawn", 45), ("intellect", 25)]
    assert (once.damage_max_change, once.fortune_change) == (15, 0)
    twice = run(trait_increase, {"traits": traits, "times_rolled": 2})
    assert [t.rv for t in twice.traits] == [50, 30]
    derived = {"traits": traits, "options": {"recompute_fortune": True}}
    assert run(trait_increase, derived).fortune_change == 15
    refused(trait_increase, {"traits": [traits[0], traits[0]]}, "traits")


def test_nine_lives_pool_and_its_lucky_roll():
    """C:L744: a pool of twice the Rank Value; the tens die chosen after the roll (3 and 8
    read 83, the better of 38 and 83)."""
    found = run(nine_lives, {"rv": 20, "spent": 25, "lucky_roll": True, "dice": {"values": [3, 8]}})
    assert (found.pool, found.remaining, found.shifts) == (40, 15, 0)
    assert (sorted(found.lucky_roll.readings), found.lucky_roll.roll) == ([38, 83], 83)
    refused(nine_lives, {"rv": 20, "spent": 41}, "spent")
    refused(nine_lives, {"rv": 20, "lucky_roll": True, "lucky_roll_used": True}, "lucky_roll")


def test_the_one_of_a_kind_weapon_attacks_at_the_greater_and_deals_its_rank_value():
    """C:L752-758."""
    request = {
        "rv": 30,
        "kind": "ranged",
        "trait_rv": 10,
        "incorporated_power_rv": 20,
        "dice": {"values": [8, 8]},
    }
    found = run(one_of_a_kind_weapon, request)
    assert (found.attack_rv, found.damage, found.range_sectors) == (30, 30, 3)
    assert found.incorporated_power_rv == 30
    assert found.result == "hit"  # 88, blue, is a Nail only when called (C:L1077)
    melee = {"rv": 20, "kind": "melee", "trait_rv": 30, "dice": {"values": [8, 8]}}
    assert (
        run(one_of_a_kind_weapon, melee).attack_rv,
        run(one_of_a_kind_weapon, melee).result,
    ) == (
        40,
        "pound",
    )
    refused(one_of_a_kind_weapon, {**melee, "distance_sectors": 1}, "distance_sectors")


def test_plant_control_needs_a_plant_per_attack_and_the_range():
    """C:L790."""
    request = {
        "rv": 40,
        "melee": 10,
        "attacks_per_turn": 2,
        "plants": 2,
        "distance_sectors": 4,
        "dice": {"values": [5, 5]},
    }
    found = run(plant_control, request)
    assert (found.action_rv, found.plants_per_turn, found.range_sectors) == (40, 2, 4)
    assert found.check.result == "hit"
    refused(plant_control, {**request, "plants": 3}, "plants")
    refused(plant_control, {**request, "distance_sectors": 5}, "distance_sectors")
    block = run(plant_control, {**request, "action": "block", "dice": {"seed": 5}})
    assert block.check is None
    assert block.rolls == []


def test_telekinesis_lifts_at_the_greater_and_attacks_with_willpower():
    """C:L866-884: lift on max(RV, Willpower+10); the attack rolls Willpower (A-52)."""
    found = run(telekinesis, {"rv": 40, "willpower": 20, "dice": {"seed": 1}})
    assert (found.lift_rv, found.lift.weight, found.lift.pounds) == (40, "10 tons", 20_000)
    assert (found.attack_rv, found.damage, found.range_sectors, found.attack) == (20, 40, 4, None)
    greater = {"rv": 40, "willpower": 20, "options": {"telekinesis_attack": "greater_of"}}
    assert run(telekinesis, {**greater, "dice": {"seed": 1}}).attack_rv == 40
    assert (
        run(telekinesis, {"rv": 0, "willpower": 0, "dice": {"seed": 1}}).lift.weight == "400 lbs."
    )
    far = {"rv": 40, "willpower": 20, "attack": True, "distance_sectors": 5, "dice": {"seed": 1}}
    refused(telekinesis, far, "distance_sectors")


def test_telepathy_reads_a_weaker_will_and_a_telepath_may_block():
    """C:L888-892."""
    plain = run(telepathy, {"rv": 30, "willpower": 20, "target_willpower": 25, "dice": {"seed": 1}})
    assert (plain.telepathy_rv, plain.readable, plain.read, plain.block) == (30, True, True, None)
    strong = {"rv": 30, "willpower": 20, "target_willpower": 30, "dice": {"seed": 1}}
    assert not run(telepathy, strong).read  # 'lower than', strictly
    contest = {"rv": 30, "willpower": 20, "target_willpower": 25, "target_telepathy_rv": 20}
    found = run(telepathy, {**contest, "dice": {"values": [6, 1, 4, 8]}})
    # 61 + 30 = 91 against 48 + 35 = 83: the telepath wins.
    assert (found.block.active_total, found.block.reactive_total) == (91, 83)
    assert (found.blocked, found.read) == (False, True)
    tie = run(telepathy, {**contest, "dice": {"values": [5, 5, 5, 10]}})  # 85 against 85
    assert (tie.blocked, tie.read) == (False, True)  # the blocker must roll higher
    reactive = {**contest, "options": {"opposed_tie": "reactive"}}
    assert run(telepathy, {**reactive, "dice": {"values": [5, 5, 5, 10]}}).blocked


def test_teleportation():
    """C:L896-898: RV sectors; black dazed a turn; a blind jump into a solid bounces."""
    base = {"rv": 20, "fortitude": 10, "sectors": 12}
    found = run(teleportation, {**base, "dice": {"values": [1, 1]}})  # 11: black
    assert (found.arrived, found.dazed_turns) == (True, 1)
    found = run(teleportation, {**base, "dice": {"values": [5, 1]}})  # 51: red
    assert (found.arrived, found.dazed_turns) == (True, 0)
    solid = run(teleportation, {**base, "into_solid": True, "dice": {"values": [4, 4, 10, 3, 7]}})
    assert (solid.arrived, solid.bounce.colour, solid.daze_dice, solid.dazed_turns) == (
        False,
        BLACK,
        [7],
        7,
    )
    light = run(teleportation, {**base, "into_solid": True, "dice": {"values": [4, 4, 9, 9]}})
    assert (light.dazed_turns, light.daze_dice) == (1, [])
    refused(teleportation, {**base, "sectors": 21, "dice": {"values": [1, 1]}}, "sectors")
    tenth = {**base, "sectors": 2, "options": {"teleport_distance": "tenth"}}
    assert run(teleportation, {**tenth, "dice": {"values": [5, 1]}}).limit_sectors == 2
    refused(teleportation, {**tenth, "sectors": 3, "dice": {"values": [5, 1]}}, "sectors")


@pytest.mark.parametrize(
    ("op", "body", "field"),
    [
        (teleportation, {"rv": 20, "sectors": 21}, "sectors"),  # C:L896
        (teleportation, {"rv": 20, "sectors": 3, "options": {"teleport_distance": "tenth"}},
         "sectors"),
        (nullification, {"rv": 30, "target_power_rv": 45, "distance_sectors": 4},
         "distance_sectors"),  # C:L748
        (telekinesis, {"rv": 40, "willpower": 20, "attack": True, "distance_sectors": 5},
         "distance_sectors"),
        (one_of_a_kind_weapon, {"rv": 30, "kind": "ranged", "trait_rv": 10,
                                "distance_sectors": 4}, "distance_sectors"),
        (one_of_a_kind_weapon, {"rv": 30, "kind": "melee", "trait_rv": 10,
                                "distance_sectors": 1}, "distance_sectors"),
        (plant_control, {"rv": 40, "melee": 10, "plants": 2}, "plants"),  # C:L790
        (plant_control, {"rv": 40, "melee": 10, "distance_sectors": 5}, "distance_sectors"),
        (nine_lives, {"rv": 20, "spent": 41}, "spent"),  # C:L744
        (nine_lives, {"rv": 20, "lucky_roll": True, "lucky_roll_used": True}, "lucky_roll"),
    ],
)  # fmt: skip
def test_the_odds_refuse_what_the_roll_refuses(op, body, field):
    """C:L744, C:L748, C:L790, C:L896: a jump, a target or a plant past the power's reach,
    or Fortune past the Nine Lives pool, is refused by the roll; its odds refused none of
    them (they answered as if the rule allowed it), and now refuse them alike."""
    refused(op, body, field)
    with pytest.raises(InputError) as error:
        odds(op, body)
    assert error.value.loc[0] == field


def test_shapeshift_rolls_only_to_impersonate():
    """C:L806."""
    free = run(shapeshift, {"rv": 20, "dice": {"seed": 3}})
    assert (free.changed, free.check, free.identified, free.rolls) == (True, None, False, [])
    caught = run(shapeshift, {"rv": 20, "impersonating": True, "dice": {"values": [3, 3]}})
    assert (caught.check.colour, caught.identified) == (BLACK, True)


def test_paralyzing_touch():
    """C:L762: a hit with no damage, then black on Fortitude paralyzes for RV/10 rounds."""
    request = {"rv": 25, "melee": 20, "target_fortitude": 10}
    found = run(paralyzing_touch, {**request, "dice": {"values": [7, 2, 1, 4]}})
    assert (found.attack.result, found.resist.colour, found.paralyzed, found.rounds) == (
        "pound",
        BLACK,
        True,
        3,
    )
    missed = run(paralyzing_touch, {**request, "dice": {"values": [1, 2]}})
    assert (missed.resist, missed.paralyzed, missed.rounds) == (None, False, 0)


# Odds against the enumeration

NULLIFIED = ("failed", "halved", "negated", "negated")
REFLECTED = ("failed", "both", "reflected", "reflected")


@pytest.mark.parametrize(("rv", "steps"), CASES)
def test_check_odds_are_the_enumerated_colours(rv, steps):
    colours = oracle.colour_odds(rv, steps)
    found = odds(nullification, {"rv": rv, "target_power_rv": 45, "row_steps": [steps]})
    assert table(found.result) == by_colour(colours, NULLIFIED)
    assert table(found.backlash_damage) == by_colour(colours, ("23", "0", "0", "0"))
    assert table(found.target_power_rv_now) == by_colour(colours, ("45", "23", "0", "0"))
    assert Fraction(found.success.exact) == 1 - colours[BLACK]
    found = odds(reflection, {"rv": rv, "row_steps": [steps]})
    assert table(found.result) == by_colour(colours, REFLECTED)
    found = odds(shapeshift, {"rv": rv, "impersonating": True, "row_steps": [steps]})
    assert table(found.identified) == by_colour(colours, ("true", "false", "false", "false"))


@pytest.mark.parametrize(("rv", "steps"), CASES)
def test_attack_odds_roll_the_derived_rank_value(rv, steps):
    """Superspeed and Plant Control at max(RV, trait+10); Telekinesis at Willpower (A-52);
    the One-of-a-Kind Weapon at max(RV, trait+10), on their tables."""
    speed = odds(superspeed, {"rv": rv, "coordination": 30, "maneuver": True, "row_steps": [steps]})
    colours = oracle.colour_odds(max(rv, 40), steps)
    assert table(speed.maneuver.result) == by_colour(colours, ("failed", "done", "done", "done"))
    plants = odds(plant_control, {"rv": rv, "melee": 20, "row_steps": [steps]})
    bashing = ("miss", "hit", "pound", "concuss")
    assert table(plants.check.result) == by_colour(oracle.colour_odds(max(rv, 30), steps), bashing)
    wrestle = odds(
        plant_control, {"rv": rv, "melee": 20, "action": "wrestle", "row_steps": [steps]}
    )
    holds = ("fail", "fail", "hold", "hold")
    assert table(wrestle.check.result) == by_colour(oracle.colour_odds(max(rv, 30), steps), holds)
    mind = odds(
        telekinesis,
        {"rv": rv, "willpower": 20, "attack": True, "nail_declared": True, "row_steps": [steps]},
    )
    ranged = ("miss", "hit", "nail", "dying")
    assert table(mind.attack.result) == by_colour(oracle.colour_odds(20, steps), ranged)
    weapon_odds = odds(
        one_of_a_kind_weapon,
        {"rv": rv, "kind": "melee", "trait_rv": 6, "attack_mode": "slashing", "row_steps": [steps]},
    )
    slashing = ("miss", "hit", "concuss", "dying")
    assert table(weapon_odds.result) == by_colour(oracle.colour_odds(max(rv, 16), steps), slashing)


def test_odds_without_a_roll():
    assert odds(superspeed, {"rv": 10, "coordination": 30}).maneuver is None
    assert table(odds(shapeshift, {"rv": 10}).identified) == {"false": 1}
    assert odds(telekinesis, {"rv": 10, "willpower": 30}).attack is None
    assert odds(plant_control, {"rv": 10, "melee": 30, "action": "block"}).check is None
    assert table(odds(nine_lives, {"rv": 10}).roll) == {"not_rolled": 1}


@pytest.mark.parametrize(("rv", "steps"), [(25, 0), (45, -3), (8, 2)])
@pytest.mark.parametrize("fortitude", [1, 10, 75])
def test_paralysis_odds_by_brute_force(rv, steps, fortitude):
    """Every face of the attack's two d10 and the resist's two d10."""

    def colour(rv_: int, steps_: int, faces: tuple[int, int]) -> str:
        row = min(max(oracle.row_index(rv_, "libre-basic") + steps_, 0), 12)
        return oracle.colour_at(row, 10 * faces[0] + faces[1], "libre-basic")

    counts = {True: 0, False: 0}
    for faces in product(range(10), repeat=4):
        hit = colour(20, steps, faces[:2]) != BLACK
        counts[hit and colour(fortitude, 0, faces[2:]) == BLACK] += 1
    request = {"rv": rv, "melee": 20, "target_fortitude": fortitude, "row_steps": [steps]}
    found = odds(paralyzing_touch, request)
    expected = {str(k).lower(): Fraction(v, 10**4) for k, v in counts.items() if v}
    assert table(found.paralyzed) == expected
    rounds = {("0" if k == "false" else str(-(-rv // 10))): v for k, v in expected.items()}
    assert table(found.rounds) == rounds


@pytest.mark.parametrize("zero_is_ten", [True, False])
@pytest.mark.parametrize("range_dice", ["ndx", "uniform"])
@pytest.mark.parametrize(("rv", "fortitude"), [(20, 10), (5, 75)])
def test_teleport_daze_odds_by_brute_force(zero_is_ten, range_dice, rv, fortitude):
    """Every face of the teleport d%, the Fortitude d% and the 1-10 turns (A-25, A-26:
    '1-10' as one number from 1 to 10 is the d10 read 1-10, whatever its 0 face)."""
    options = {"d10_zero_is_ten": zero_is_ten, "range_dice": range_dice}
    counts: dict[int, int] = {}
    for tens, ones, daze in product(range(10), range(10), range(1, 11)):
        black = (
            oracle.colour_at(
                oracle.row_index(fortitude, "libre-basic"), 10 * tens + ones, "libre-basic"
            )
            == BLACK
        )
        long = daze if (zero_is_ten or range_dice == "uniform") else daze % 10
        turns = long if black else 1
        counts[turns] = counts.get(turns, 0) + 1
    request = {
        "rv": rv,
        "fortitude": fortitude,
        "sectors": 1,
        "into_solid": True,
        "options": options,
    }
    found = odds(teleportation, request)
    assert table(found.dazed_turns) == {str(k): Fraction(v, 1000) for k, v in counts.items()}
    assert table(found.arrived) == {"false": 1}
    plain = odds(teleportation, {"rv": rv, "fortitude": fortitude, "sectors": 1})
    black = oracle.colour_odds(rv)[BLACK]
    assert table(plain.dazed_turns) == {k: v for k, v in {"0": 1 - black, "1": black}.items() if v}


@pytest.mark.parametrize(
    ("zero_is_ten", "faces", "mean"),
    [(True, range(1, 11), Fraction(11, 2)), (False, range(10), Fraction(9, 2))],
)
def test_trait_boost_after_effect_is_a_d10(zero_is_ten, faces, mean):
    """C:L902 '1d10 turns' (catalogue 5.4), the 0 face as 10 or 0 (A-26)."""
    request = {
        "rv": 20,
        "trait": "brawn",
        "trait_rv": 30,
        "options": {"d10_zero_is_ten": zero_is_ten},
    }
    found = odds(trait_boost, request)
    assert table(found.after_turns) == {str(f): Fraction(1, 10) for f in faces}
    assert Fraction(found.mean_after_turns.exact) == mean


@pytest.mark.parametrize(("zero_is_ten", "faces"), [(True, range(1, 11)), (False, range(10))])
def test_trait_boost_after_effect_is_dice_whatever_range_dice_says(zero_is_ten, faces):
    """C:L902 writes '1d10 turns' as dice, as C:L1694 writes '2d10+10': range_dice=uniform
    reads only a span such as C:L671's '1-10 turns' (A-25), so the roll and the odds stay one
    d10, its 0 face read as d10_zero_is_ten says (A-26), as core/dice's written_dice does."""
    options = {"range_dice": "uniform", "d10_zero_is_ten": zero_is_ten}
    request = {"rv": 20, "trait": "brawn", "trait_rv": 30, "options": options}
    rolled = [run(trait_boost, {**request, "dice": {"values": [f]}}).after_turns
              for f in range(1, 11)]  # fmt: skip
    assert sorted(rolled) == list(faces)
    assert table(odds(trait_boost, request).after_turns) == {str(f): Fraction(1, 10) for f in faces}


def test_the_lucky_roll_matches_catalogue_5_5():
    """C:L744: the tens die chosen after the roll; P(roll >= x) and the mean 64.35."""
    found = table(odds(nine_lives, {"rv": 10, "lucky_roll": True}).roll)
    survival = {10: 99, 20: 96, 30: 91, 40: 84, 50: 75, 60: 64, 70: 51, 80: 36, 90: 19, 95: 9}
    for x, percent in survival.items():
        assert sum(p for r, p in found.items() if int(r) >= x) == Fraction(percent, 100)
    brute: dict[int, int] = {}
    for a, b in product(range(10), repeat=2):
        roll = max(10 * a + b, 10 * b + a)
        brute[roll] = brute.get(roll, 0) + 1
    assert found == {str(r): Fraction(n, 100) for r, n in brute.items()}
    mean = odds(nine_lives, {"rv": 10, "lucky_roll": True}).mean
    assert Fraction(mean.exact) == Fraction(6435, 100)


# The Telepathy block (catalogue 5.6)


def p_active_higher(k: int) -> Fraction:
    """Catalogue 5.6's closed form of P(A > B), k = bonus_A - bonus_B."""
    if k >= 0:
        return 1 - Fraction((100 - k) * (101 - k), 20000) if k <= 100 else Fraction(1)
    return Fraction((99 - abs(k)) * (100 - abs(k)), 20000) if k >= -100 else Fraction(0)


def brute_block(active: int, reactive: int, tie: str) -> Fraction:
    """P(blocked) over every pair of d% rolls."""
    higher = ties = 0
    for a, b in product(range(100), repeat=2):
        difference = b + reactive - a - active
        higher += difference > 0
        ties += difference == 0
    if tie == "reroll":
        return Fraction(higher, 10_000 - ties)
    return Fraction(higher + (ties if tie == "reactive" else 0), 10_000)


#: Catalogue 5.6, P(A > B) by k: the blocker is B, so P(blocked) is P(B > A) at -k.
TABLE_5_6 = {
    -50: "12.25",
    -30: "24.15",
    -10: "40.05",
    0: "49.50",
    10: "59.05",
    30: "75.15",
    50: "87.25",
    80: "97.90",
}


@pytest.mark.parametrize("k", sorted(TABLE_5_6))
def test_the_block_matches_catalogue_5_6(k):
    """Telepath T = 100 (RV 100) against a blocker whose T is 100 - k."""
    request = {"rv": 100, "willpower": 20, "target_willpower": 0, "target_telepathy_rv": 100 - k}
    found = odds(telepathy, request)
    active = Fraction(TABLE_5_6[k]) / 100
    assert table(found.block.winner)["active"] == active + Fraction(100 - abs(k), 10_000)
    assert table(found.read)["true"] == active + Fraction(100 - abs(k), 10_000)
    assert p_active_higher(k) == active


@pytest.mark.parametrize("tie", ["active", "reactive", "reroll"])
@pytest.mark.parametrize(
    ("rv", "willpower", "target_rv", "target_willpower"),
    [(30, 20, 20, 25), (10, 50, 90, 5), (100, 0, 1, 0), (5, 5, 5, 5)],
)
def test_the_block_matches_a_brute_force_of_both_rolls(
    tie, rv, willpower, target_rv, target_willpower
):
    request = {
        "rv": rv,
        "willpower": willpower,
        "target_willpower": target_willpower,
        "target_telepathy_rv": target_rv,
        "options": {"opposed_tie": tie},
    }
    found = odds(telepathy, request)
    telepath = max(rv, willpower + 10)
    if target_willpower >= telepath:
        assert table(found.read) == {"false": 1}
        return
    blocked = brute_block(telepath, max(target_rv, target_willpower + 10), tie)
    assert table(found.blocked) == {
        k: v for k, v in {"true": blocked, "false": 1 - blocked}.items() if v
    }
    assert sum(table(found.read).values()) == 1


def test_a_target_who_does_not_block_is_read():
    request = {
        "rv": 30,
        "willpower": 20,
        "target_willpower": 25,
        "target_telepathy_rv": 50,
        "block": False,
    }
    assert table(odds(telepathy, request).read) == {"true": 1}


def test_the_estimates_hold_what_the_odds_enumerate():
    for op, request in [
        (telepathy, {"rv": 30, "willpower": 20, "target_willpower": 25, "target_telepathy_rv": 20}),
        (teleportation, {"rv": 20, "fortitude": 10, "sectors": 1, "into_solid": True}),
        (paralyzing_touch, {"rv": 25, "melee": 20, "target_fortitude": 10}),
    ]:
        model = op.odds_request_model.model_validate(request)
        with metered() as meter:
            op.run_odds(model)
        assert 0 < meter.states <= op.estimate(model).states


# Over the wire


@pytest.mark.parametrize(
    ("path", "body", "pointer"),
    [
        ("power/teleportation", {"rv": 20, "sectors": 21}, "/sectors"),
        ("power/teleportation/odds", {"rv": 20, "sectors": 21}, "/sectors"),
        ("power/nine-lives/odds", {"rv": 20, "spent": 41}, "/spent"),
        ("power/protected-sense", {"rv": 30, "sense": "touch", "attack_rv": 1}, "/sense"),
        ("power/weapon", {"rv": 20, "weapons": ["rifle", "rifle"]}, "/weapons"),
        ("power/trait-increase", {"traits": [{"trait": "brawn", "rv": 3}] * 2}, "/traits/1/trait"),
        ("power/telepathy", {"rv": 30, "willpower": 20, "target_willpower": -1},
         "/target_willpower"),
    ],
)  # fmt: skip
def test_bad_input_is_a_422_naming_the_field(client, path, body, pointer):
    response = client.post(f"/v1/four-c/{path}", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert pointer in [e["pointer"] for e in response.json()["errors"]]


def test_the_block_over_graphql():
    """The Telepathy block's odds by GraphQL, as REST gives them (catalogue 5.6, k = 10)."""
    from starlette.testclient import TestClient

    from service.app import build_app
    from service.cache import MemoryCache
    from service.settings import Settings

    with TestClient(build_app(Settings(), MemoryCache())) as client:
        query = (
            "{ fourC { powerTelepathyOdds(input: {rv: 40, willpower: 0, targetWillpower: 0, "
            "targetTelepathyRv: 30}) { blocked { outcome exact } } } }"
        )
        body = client.post("/graphql", json={"query": query}).json()
    rows = body["data"]["fourC"]["powerTelepathyOdds"]["blocked"]
    # P(blocked) = P(B > A) at k = 10: 40.05%.
    assert {"outcome": "true", "exact": "801/2000"} in rows
