"""4C vehicles (C:L1430-1511) against the seed's tables, transcribed here from the seed (not
read from the service), the catalogue's worked examples (4c.md 4.1-4.2) and the independent
colour enumeration over every face of the dice (oracle.py)."""

from fractions import Fraction

import pytest

from service.rules.four_c.combat.tables import THROWN_OBJECTS
from service.rules.four_c.powers.gear import vehicle as vehicle_power
from service.rules.four_c.vehicles.collisions import avoid, collision_damage
from service.rules.four_c.vehicles.maneuvers import crash, maneuver
from service.rules.four_c.vehicles.tables import AVOIDANCE, CRASHES, DIFFICULTIES, SAMPLES
from service.rules.four_c.vehicles.vehicles import attack, move, repair
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

#: The sample vehicles as the seed prints them: Durability, Handling, Velocity (C:L1509-1511).
SEED_SAMPLES = {
    "compact_car": ("Compact Car", 10, 6, 6),
    "sports_car": ("Sports Car", 10, 30, 12),
    "private_jet": ("Private Jet", 20, 10, 20),
}
#: The colour tables, black to yellow: maneuver difficulty (C:L1449-1452), crash location
#: (C:L1461-1464), collision avoidance (C:L1481-1484).
SEED_DIFFICULTIES = ("easy", "average", "difficult", "ridiculous")
SEED_CRASH = ("same_sector", "adjacent_sector", "adjacent_sector", "adjacent_sector")
SEED_AVOID = ("hit", "avoided", "avoided", "avoided")


def d100(*rolls: int) -> list[int]:
    """d% as table dice: tens then ones, a 0 face sent as 10."""
    return [face or 10 for roll in rolls for face in divmod(roll, 10)]


def at_least(colours: dict[str, Fraction], required: str) -> Fraction:
    level = oracle.COLOURS.index(required)
    return sum((colours[c] for c in oracle.COLOURS[level:]), Fraction(0))


# Tables


def test_the_tables_are_the_seed_s():
    assert {r.sample.value: (r.vehicle, r.durability, r.handling, r.velocity)
            for r in SAMPLES} == SEED_SAMPLES  # fmt: skip
    assert tuple(r.difficulty.value for r in DIFFICULTIES) == SEED_DIFFICULTIES
    assert tuple(r.colour.value for r in DIFFICULTIES) == oracle.COLOURS
    assert tuple(r.location.value for r in CRASHES) == SEED_CRASH
    assert tuple(r.result.value for r in AVOIDANCE) == SEED_AVOID


def test_a_compact_car_is_durability_10_but_thrown_material_value_40():
    """E18 (C:L1509 against C:L1178): two scales for one object, which no rule links; each
    table keeps its own number."""
    assert next(r.durability for r in SAMPLES if r.vehicle == "Compact Car") == 10
    assert next(r.material_value for r in THROWN_OBJECTS if r.item == "compact car") == 40


@pytest.mark.parametrize("sample", sorted(SEED_SAMPLES))
def test_a_sample_named_reads_as_its_traits(sample):
    _, durability, handling, velocity = SEED_SAMPLES[sample]
    traits = {"durability": durability, "handling": handling, "velocity": velocity}
    for vehicle in ({"sample": sample}, traits):
        assert run(move, {"vehicle": vehicle}).velocity == velocity
        assert run(attack, {"vehicle": vehicle, "damage": 25}).taken == 25 - durability
        found = odds(maneuver, {"vehicle": vehicle, "required": "blue"})
        assert Fraction(found.success.exact) == at_least(oracle.colour_odds(handling), "blue")


def test_a_sample_with_traits_of_its_own_is_refused():
    with pytest.raises(InputError) as refused:
        run(move, {"vehicle": {"sample": "sports_car", "velocity": 40}})
    assert refused.value.loc == ("vehicle", "velocity")
    with pytest.raises(InputError) as refused:
        run(move, {"vehicle": {"sample": "sports_car", "velocity": 40, "handling": 3}})
    assert {e.loc for e in refused.value.errors} == {
        ("vehicle", "velocity"),
        ("vehicle", "handling"),
    }


def test_a_missing_trait_is_named():
    with pytest.raises(InputError) as refused:
        run(maneuver, {"vehicle": {"durability": 10}, "dice": {"seed": 1}})
    assert refused.value.loc == ("vehicle", "handling")


def test_durability_is_never_above_its_start():
    """C:L1440."""
    with pytest.raises(InputError) as refused:
        run(attack, {"vehicle": {"sample": "compact_car", "current_durability": 11}, "damage": 1})
    assert refused.value.loc == ("vehicle", "current_durability")


# Attacks (C:L1436-1440, C:L1474)


def test_durability_is_the_vehicle_s_armor_and_its_hit_points():
    """C:L1438-1440: a Sports Car (10) hit for 15 takes 5 and is left at 5; a hit for 10 does
    nothing; a hit for 50 leaves it at 0, not below, destroyed."""
    car = {"sample": "sports_car"}
    hit = run(attack, {"vehicle": car, "damage": 15})
    assert (hit.armor, hit.taken, hit.durability, hit.destroyed) == (10, 5, 5, False)
    assert run(attack, {"vehicle": car, "damage": 10}).taken == 0
    wreck = run(attack, {"vehicle": car, "damage": 50})
    assert (wreck.taken, wreck.durability, wreck.destroyed) == (40, 0, True)


def test_a_damaged_vehicle_s_armor_is_its_current_durability_a38():
    """A-38: Durability 'is decreased as the vehicle takes damage' (C:L1440), and so is the
    armor it gives: at 4 of 10, a 12-point hit takes 8 and destroys it; read from the starting
    10, it takes 2."""
    car = {"sample": "sports_car", "current_durability": 4}
    found = run(attack, {"vehicle": car, "damage": 12})
    assert (found.armor, found.taken, found.durability, found.destroyed) == (4, 8, 0, True)
    start = run(attack, {"vehicle": car, "damage": 12, "options": {"vehicle_armor": "starting"}})
    assert (start.armor, start.taken, start.durability) == (10, 2, 2)
    assert found.options_applied.vehicle_armor == "current"


def test_an_occupant_is_shielded_by_the_durability_or_their_own_armor():
    """C:L1438: a character in a Private Jet (20) wearing armor 10, shot for 25: the better
    armor counts (A-21), 5 gets through; summed, none does. The jet is unharmed."""
    body = {"vehicle": {"sample": "private_jet"}, "damage": 25, "target": "occupant",
            "armor": [10], "damage_points": 5}  # fmt: skip
    found = run(attack, body)
    assert (found.armor, found.taken, found.damage_points, found.dying) == (20, 5, 0, True)
    assert (found.durability, found.destroyed) == (20, False)
    summed = run(attack, {**body, "options": {"armor_stacking": "sum"}})
    assert (summed.armor, summed.taken, summed.damage_points) == (30, 0, 5)


def test_a_vehicle_has_no_armor_or_damage_points_of_its_own():
    with pytest.raises(InputError) as refused:
        run(attack, {"vehicle": {"sample": "compact_car"}, "damage": 5, "armor": [10]})
    assert refused.value.loc == ("armor",)


# Maneuvers (C:L1442-1454) and crashes (C:L1456-1466)

MANEUVERS = [
    (handling, required, steps)
    for handling in (1, 6, 30, 45, 120)
    for required in ("red", "blue", "yellow")
    for steps in (0, -2, 1)
]


@pytest.mark.parametrize(("handling", "required", "steps"), MANEUVERS)
def test_maneuver_odds_match_the_enumeration(handling, required, steps):
    """A maneuver succeeds at its colour or better, else the vehicle crashes (C:L1454):
    P(success) = P(>= required) of the Handling row (catalogue 5.1); a crash then lands in
    the same sector on the operator's black, else an adjacent one (C:L1461-1464)."""
    body = {"vehicle": {"handling": handling}, "required": required, "row_steps": [steps]}
    colours = oracle.colour_odds(handling, steps)
    success = at_least(colours, required)
    found = odds(maneuver, body)
    assert Fraction(found.success.exact) == success
    assert table(found.colour) == {c: p for c, p in colours.items() if p}
    assert table(found.outcome) == {
        k: v for k, v in {"success": success, "crash": 1 - success}.items() if v
    }
    assert {c.colour.value: Fraction(c.chance.exact) for c in found.success_by_required} == {
        c: at_least(colours, c) for c in oracle.COLOURS
    }
    crash_colours = oracle.colour_odds(25)
    located = odds(maneuver, {**body, "operator_coordination": 25})
    expected = {
        "success": success,
        "crash_same_sector": (1 - success) * crash_colours["black"],
        "crash_adjacent_sector": (1 - success) * (1 - crash_colours["black"]),
    }
    assert table(located.outcome) == {k: v for k, v in expected.items() if v}


def test_every_maneuver_roll_reads_as_its_odds_say():
    """Brute force: a Sports Car (Handling 30) at blue, its operator at Coordination 20, every
    Handling roll and, after each that fails, every crash roll fed in as table dice; counted
    out of 100 x 100, they are the odds."""
    body = {"vehicle": {"sample": "sports_car"}, "required": "blue"}
    counts: dict[str, int] = {}
    for handling in range(100):
        if run(maneuver, {**body, "dice": {"values": d100(handling)}}).success:
            counts["success"] = counts.get("success", 0) + 100
            continue
        for coordination in range(100):
            result = run(maneuver, {**body, "operator_coordination": 20,
                                    "dice": {"values": d100(handling, coordination)}})  # fmt: skip
            counts[result.outcome] = counts.get(result.outcome, 0) + 1
    found = table(odds(maneuver, {**body, "operator_coordination": 20}).outcome)
    assert {k: Fraction(v, 10_000) for k, v in counts.items()} == found


def test_an_easy_maneuver_always_succeeds_unrolled():
    """Easy (black) succeeds on any colour (C:L1449, C:L1454): no die is rolled (catalogue
    3.10.2)."""
    found = run(maneuver, {"vehicle": {"sample": "compact_car"}, "required": "black",
                           "dice": {"seed": 5}})  # fmt: skip
    assert (found.success, found.outcome, found.colour, found.rolls, found.seed) == (
        True, "success", None, [], None
    )  # fmt: skip
    rolled = odds(maneuver, {"vehicle": {"sample": "compact_car"}, "required": "black"})
    assert table(rolled.outcome) == {"success": 1}
    assert table(rolled.colour) == {"not_rolled": 1}


def test_a_failed_maneuver_crashes_where_the_operator_s_roll_says():
    """Sports Car (Handling 30, row 30-39) jumping a broken bridge (blue): 41 is red, a crash;
    the operator (Coordination 20) rolls 27, black: the same sector (C:L1451, C:L1461)."""
    car = {"vehicle": {"sample": "sports_car"}, "required": "blue"}
    found = run(maneuver, {**car, "operator_coordination": 20, "dice": {"values": d100(41, 27)}})
    assert (found.colour, found.success, found.outcome) == ("red", False, "crash_same_sector")
    assert (found.crash.colour, found.crash.location) == ("black", "same_sector")
    alone = run(maneuver, {"vehicle": {"sample": "sports_car"}, "required": "blue",
                           "dice": {"values": d100(41)}})  # fmt: skip
    assert (alone.outcome, alone.crash) == ("crash", None)


@pytest.mark.parametrize(("rv", "steps"), [(rv, s) for rv in (1, 20, 30, 75, 1000)
                                           for s in (0, -3, 2)])  # fmt: skip
def test_crash_odds_match_the_enumeration(rv, steps):
    colours = oracle.colour_odds(rv, steps)
    found = odds(crash, {"rv": rv, "row_steps": [steps]})
    expected: dict[str, Fraction] = {}
    for colour, location in zip(oracle.COLOURS, SEED_CRASH, strict=True):
        expected[location] = expected.get(location, Fraction(0)) + colours[colour]
    assert table(found.location) == {k: v for k, v in expected.items() if v}
    assert table(found.colour) == {c: p for c, p in colours.items() if p}


def test_a_crash_roll_reads_the_seed_s_table():
    """Coordination 20 (row 20-29): 35 is black, the same sector; 55 red, an adjacent one."""
    assert run(crash, {"rv": 20, "dice": {"values": d100(35)}}).location == "same_sector"
    assert run(crash, {"rv": 20, "dice": {"values": d100(55)}}).location == "adjacent_sector"


# Collisions (C:L1476-1496)


@pytest.mark.parametrize(("rv", "steps"), [(rv, s) for rv in (0, 6, 10, 30, 150)
                                           for s in (0, -1, 3)])  # fmt: skip
def test_avoidance_odds_match_the_enumeration(rv, steps):
    """On foot Coordination, at the wheel Handling: black is hit, anything better avoids
    (C:L1476-1484)."""
    colours = oracle.colour_odds(rv, steps)
    for body in ({"coordination": rv}, {"vehicle": {"handling": rv}}):
        found = odds(avoid, {**body, "row_steps": [steps]})
        assert Fraction(found.avoided.exact) == 1 - colours["black"]
        assert table(found.result) == {k: v for k, v in
                                       {"hit": colours["black"],
                                        "avoided": 1 - colours["black"]}.items() if v}  # fmt: skip


def test_a_driver_avoids_with_the_vehicle_s_handling():
    """A Sports Car's driver (Handling 30) rolls 36: red, out of the way; a pedestrian of
    Coordination 30 rolling 34 is hit."""
    found = run(avoid, {"vehicle": {"sample": "sports_car"}, "dice": {"values": d100(36)}})
    assert (found.rolled_on, found.colour, found.avoided) == ("handling", "red", True)
    found = run(avoid, {"coordination": 30, "dice": {"values": d100(34)}})
    assert (found.rolled_on, found.result, found.avoided) == ("coordination", "hit", False)


def test_the_target_is_on_foot_or_at_the_wheel_not_both():
    for body in ({}, {"coordination": 20, "vehicle": {"sample": "sports_car"}}):
        with pytest.raises(InputError) as refused:
            run(avoid, {**body, "dice": {"seed": 1}})
        assert {e.loc for e in refused.value.errors} == {("coordination",), ("vehicle",)}


def test_t16_a_sports_car_rams_a_character_in_body_armor_20():
    """T16 (C:L1486-1494): the car deals its Durability 10, stopped by the armor (A-40); it
    takes the armor's 20 and is destroyed; its occupants take 10 for each of 5 sectors."""
    found = run(collision_damage, {"vehicle": {"sample": "sports_car"}, "sectors_moved": 5,
                                   "struck": {"kind": "character", "armor": [20],
                                              "damage_points": 60}})  # fmt: skip
    assert (found.struck_character.raw, found.struck_character.taken) == (10, 0)
    assert found.struck_character.damage_points == 60
    striker = found.striker
    assert (striker.taken, striker.durability, striker.destroyed) == (20, 0, True)
    assert (striker.occupant_damage, striker.moves_further) == (50, False)


def test_t17_a_crash_into_the_ground():
    """T17 (C:L1466, C:L1494): the ground's Material Value 50; 3 sectors, 30 to each inside."""
    found = run(collision_damage, {"vehicle": {"sample": "private_jet"}, "sectors_moved": 3,
                                   "struck": {"kind": "ground"}})  # fmt: skip
    assert (found.striker.taken, found.striker.durability, found.striker.destroyed) == (
        50, 0, True
    )  # fmt: skip
    assert (found.striker.occupant_damage, found.struck_object_damage) == (30, 20)


def test_two_vehicles_collide():
    """C:L1490, C:L1494, C:L1496: a Compact Car (10) that moved 6 hits a Private Jet (20)
    that moved 2: the jet takes 10, the car 20; those inside take 60 and 20; neither moves on.
    With Durability as armor against collisions (A-40) two Durability-10 cars never harm each
    other."""
    body = {"vehicle": {"sample": "compact_car"}, "sectors_moved": 6,
            "struck": {"kind": "vehicle", "vehicle": {"sample": "private_jet"},
                       "sectors_moved": 2}}  # fmt: skip
    found = run(collision_damage, body)
    jet, car = found.struck_vehicle, found.striker
    assert (jet.taken, jet.durability, jet.occupant_damage, jet.moves_further) == (
        10, 10, 20, False
    )  # fmt: skip
    assert (car.taken, car.durability, car.destroyed, car.occupant_damage) == (20, 0, True, 60)
    cars = {"vehicle": {"sample": "compact_car"}, "struck": {"kind": "vehicle",
            "vehicle": {"sample": "sports_car"}},
            "options": {"collision_vehicle_armor": True}}  # fmt: skip
    both = run(collision_damage, cars)
    assert (both.striker.taken, both.struck_vehicle.taken) == (0, 0)


def test_an_object_and_the_armor_options():
    """C:L1492: a car that moved 4 into a steel beam (Material Value 30, C:L1177) takes 30;
    the beam takes 10. A-40 switches: the character's armor ignored, the occupants shielded
    by the Durability. A-38: a damaged car (4 of 10) deals 4, or 10 read from the start."""
    beam = {"vehicle": {"sample": "sports_car"}, "sectors_moved": 4,
            "struck": {"kind": "object", "material_value": 30}}  # fmt: skip
    found = run(collision_damage, beam)
    assert (found.striker.taken, found.struck_object_damage) == (30, 10)
    shielded = run(collision_damage, {**beam, "options": {"occupant_collision_armor": True}})
    assert shielded.striker.occupant_damage == 40 - 10
    bare = {"vehicle": {"sample": "sports_car"}, "struck": {"kind": "character", "armor": [5]},
            "options": {"collision_character_armor": False}}  # fmt: skip
    assert run(collision_damage, bare).struck_character.taken == 10
    assert run(collision_damage, bare).striker.taken == 5
    damaged = {**beam, "vehicle": {"sample": "sports_car", "current_durability": 4}}
    assert run(collision_damage, damaged).struck_object_damage == 4
    start = {**damaged, "options": {"vehicle_armor": "starting"}}
    assert run(collision_damage, start).struck_object_damage == 10


def test_what_a_struck_thing_lacks_or_does_not_have_is_named():
    with pytest.raises(InputError) as refused:
        run(collision_damage, {"vehicle": {"sample": "sports_car"},
                               "struck": {"kind": "object"}})  # fmt: skip
    assert refused.value.loc == ("struck", "material_value")
    ground = {"kind": "ground", "armor": [3], "sectors_moved": 2}
    with pytest.raises(InputError) as refused:
        run(collision_damage, {"vehicle": {"sample": "sports_car"}, "struck": ground})
    assert {e.loc for e in refused.value.errors} == {("struck", "armor"),
                                                     ("struck", "sectors_moved")}  # fmt: skip


# Movement (C:L1468-1470, C:L1496) and repair (C:L1498-1500)


def test_velocity_is_sectors_a_turn_until_a_collision():
    jet = {"sample": "private_jet"}
    assert (run(move, {"vehicle": jet}).velocity, run(move, {"vehicle": jet}).sectors_left) == (
        20, 20
    )  # fmt: skip
    assert run(move, {"vehicle": jet, "sectors_moved": 5}).sectors_left == 15
    assert run(move, {"vehicle": jet, "sectors_moved": 5, "collided": True}).sectors_left == 0
    wreck = run(move, {"vehicle": {**jet, "current_durability": 0}})
    assert (wreck.sectors_left, wreck.destroyed) == (0, True)
    with pytest.raises(InputError) as refused:
        run(move, {"vehicle": jet, "sectors_moved": 21})
    assert refused.value.loc == ("sectors_moved",)


def test_t15_a_vehicle_power_s_traits_drive_the_rules():
    """T15 (C:L910): Vehicle 30 makes a Sports Car 25/45/27; its Handling 45 reads row 40-49
    and it moves 27 sectors."""
    power = run(vehicle_power, {"rv": 30, "vehicle": {"name": "Sports Car", "durability": 10,
                                                      "handling": 30, "velocity": 12}})  # fmt: skip
    traits = {"durability": power.durability, "handling": power.handling,
              "velocity": power.velocity}  # fmt: skip
    assert traits == {"durability": 25, "handling": 45, "velocity": 27}
    assert run(move, {"vehicle": traits}).velocity == 27
    found = odds(maneuver, {"vehicle": traits, "required": "red"})
    assert Fraction(found.success.exact) == Fraction(70, 100)


def test_repair_never_passes_the_start_and_never_mends_a_wreck():
    """C:L1440, C:L1500: 4 of 10 repaired by 3 is 7, by 9 is 10; between adventures it is
    whole again; at 0 it is destroyed and stays so."""
    car = {"sample": "sports_car", "current_durability": 4}
    assert run(repair, {"vehicle": car, "points": 3}).durability == 7
    assert run(repair, {"vehicle": car, "points": 9}).durability == 10
    whole = run(repair, {"vehicle": car, "between_adventures": True})
    assert (whole.durability, whole.repaired, whole.destroyed) == (10, 6, False)
    wreck = run(repair, {"vehicle": {**car, "current_durability": 0}, "between_adventures": True})
    assert (wreck.durability, wreck.repaired, wreck.destroyed) == (0, 0, True)
