"""FORESIGHT vehicles (catalogue part 2, #83, #93-#98, #123): the vehicle tables as the seed
prints them, terrain, modifications, damage to vehicles, travel accidents and safety rolls.
Seed lines are cited as F:L<n>. The odds are held to brute-force enumerations written here
from the rule text (sharing nothing with the service but the oracle's D100 reading) and to the
catalogue's Q15 table."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from service.rules.foresight.mortality.condition import Condition
from service.rules.foresight.mortality.hits import DamageOptions
from service.rules.foresight.vehicles.occupants import occupant_strike
from service.rules.model import InputError
from tests.rules.foresight import oracle
from tests.rules.foresight.calls import odds, run

Dist = dict[object, Fraction]


def table_of(rows) -> Dist:
    return {row.outcome: Fraction(row.exact) for row in rows}


# --- independent arithmetic -------------------------------------------------------------

#: The D10 random QR (F:L1472-1477) and the yields of QR1-QR4 (F:L1367-1370).
RANDOM_QR = {1: 1, 2: 2, 3: 3, 4: 3, 5: 3, 6: 4, 7: 4, 8: 4, 9: 4, 10: 4}
YIELD = {1: Fraction(1), 2: Fraction(3, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}


def wound(dc: Fraction, qr: int, ds: Fraction = Fraction(1)) -> int | None:
    """The damage table (F:L2632, F:L2724): yield x DC / (2 x DS) half up; DC 0 is S on
    QR1-QR3 and '-' on QR4; below 0, '-'."""
    if dc < 0 or (dc == 0 and qr == 4):
        return None
    return oracle.round_half_up(YIELD[qr] * dc / (2 * ds))


#: The D10 faces of the limbs: 1-2 the legs, 8-9 the arms (F:L2703-2711).
LIMB_FACES = {1, 2, 8, 9}


def person_hit(dc: Fraction) -> dict[tuple[int, bool], Fraction]:
    """(wound levels, to a limb) of one hit with a random QR and a random location: the D10
    10 is the head, +1 to positive damage (F:L2705)."""
    found: Counter[tuple[int, bool]] = Counter()
    for qr_face, place in itertools.product(range(1, 11), repeat=2):
        levels = wound(dc, RANDOM_QR[qr_face]) or 0
        found[levels + (1 if place == 10 and levels > 0 else 0), place in LIMB_FACES] += 1
    return {k: Fraction(n, 100) for k, n in found.items()}


def after_hits(dcs: list[Fraction], limb_rule: bool = False) -> Dist:
    """A healthy person's wound level after each hit in turn: simply added, or by the Wound
    Accumulation rule, a limb's wound giving the higher of current + (new - 2) and new
    (F:L2612-2624)."""
    levels: Dist = {0: Fraction(1)}
    for dc in dcs:
        step: Dist = {}
        for level, p in levels.items():
            for (more, limb), q in person_hit(dc).items():
                then = max(level + max(0, more - 2), more) if limb_rule and limb else level + more
                step[then] = step.get(then, Fraction(0)) + p * q
        levels = step
    return levels


def as_levels(rows) -> Dist:
    return {int(k): v for k, v in table_of(rows).items()}


# --- the tables -----------------------------------------------------------------------------


def test_the_vehicle_table_has_every_row_of_the_seed():
    """F:L4080-4136: 48 vehicles; the Crawler's crawl mode and the Amphibious ATV's boat and
    submersible modes are its indented rows."""
    found = run("vehicle/catalog", {})
    assert found.count == 48
    by_name = {(v.name, v.tl): v for v in found.vehicles}
    crawler = by_name[("Crawler", 7)]
    assert (crawler.price_svu, crawler.cheaper_at_higher_tl, crawler.passengers) == (20000, True, 7)
    assert [(m.label, m.acc, m.man, m.safe, m.cruise_kmh, m.max_kmh) for m in crawler.modes] == [
        ("crawl", -3, 2, 0, 20, 50)
    ]
    amphibious = by_name[("Amphibious ATV", 6)]
    assert [(m.label, m.ceiling_m, m.types) for m in amphibious.modes] == [
        ("boat", None, ["boat"]),
        ("submersible", -75, ["submersible"]),
    ]


def test_automobile_row():
    """F:L4085: Automobile (10k) TL 4.5, Acc 0, Man 0, Safe -1, 60/100 km/h, na, DS 3,
    Size 0, wheel, 200/4."""
    (car,) = run("vehicle/catalog", {"name": "automobile"}).vehicles
    assert (car.tl, car.acc, car.man, car.safe, car.cruise_kmh, car.max_kmh) == (
        4.5, 0, 0, -1, 60, 100)  # fmt: skip
    assert (car.ceiling, car.ds, car.size, car.types, car.cargo_kg, car.passengers) == (
        "na", 3, 0, ["wheeled"], 200, 4)  # fmt: skip


@pytest.mark.parametrize(
    ("name", "ds"), [("Ultralight", 2), ("Jet Pack", 2), ("Fast Pack", 1), ("Super Pack", 1)]
)
def test_signed_ds_typos_read_as_numbers(name, ds):
    """F:L4103-4105 (AMB2-50): the DS column's '+2', '+2', '+1' are DS 2, 2, 1."""
    (row,) = run("vehicle/catalog", {"name": name}).vehicles
    assert row.ds == ds
    assert row.ds_written == ("+" if name != "Super Pack" else "") + str(ds)


def test_big_numbers_are_read():
    """F:L4133, F:L4135: '40k'/'500k' km/h, '1000t/500', '10B', 'Space'."""
    found = run("vehicle/catalog", {"name": "interstellar carrier", "tl": 8}).vehicles
    (carrier,) = found
    assert (carrier.price_svu, carrier.cruise_kmh, carrier.max_kmh) == (2e9, 40_000, 500_000)
    assert (carrier.cargo_kg, carrier.passengers, carrier.ceiling, carrier.ceiling_m) == (
        1_000_000, 500, "Space", None)  # fmt: skip


def test_search_by_name_tech_level_and_type():
    """Two Minisubs (TL 4.5 and 7, F:L4110, F:L4113); the TL range and the type filter."""
    assert [v.tl for v in run("vehicle/catalog", {"name": "MINISUB"}).vehicles] == [4.5, 7]
    assert [v.name for v in run("vehicle/catalog", {"name": "sub", "tl": 7}).vehicles] == [
        "Minisub"
    ]
    vtol = run("vehicle/catalog", {"type": "vtol", "tl_min": 6.5}).vehicles
    assert [v.name for v in vtol] == ["Fast Pack", "Super Pack"]
    planes = run("vehicle/catalog", {"type": "spacecraft", "tl_max": 6}).vehicles
    assert {v.name for v in planes} == {"Space Lander", "Orbital Transport",
                                        "Interplanetary Transport"}  # fmt: skip


def test_humans_have_no_tl_and_show_only_without_one():
    """F:L4095, F:L4119: 'Human (on foot)', 'See Stamina'."""
    names = [v.name for v in run("vehicle/catalog", {"name": "human"}).vehicles]
    assert names == ["Human (on foot)", "Human (swimming)"]
    assert run("vehicle/catalog", {"name": "human", "tl_min": 0}).count == 0
    (foot,) = run("vehicle/catalog", {"name": "on foot"}).vehicles
    assert (foot.cruise_kmh, foot.speed_note, foot.cargo_kg) == (None, "See Stamina", None)


def test_a_reversed_tl_range_is_refused():
    with pytest.raises(InputError) as error:
        run("vehicle/catalog", {"tl_min": 7, "tl_max": 5})
    assert error.value.loc == ("tl_max",)


# --- terrain ----------------------------------------------------------------------------


CAR = {"acc": 0, "man": 0, "safe": -1, "cruise_kmh": 60, "max_kmh": 100}
JEEP = {"acc": -1, "man": 1, "safe": -1, "cruise_kmh": 60, "max_kmh": 100}


def terrain(vehicle_type, category, value, vehicle=JEEP, **options):
    body = {"vehicle_type": vehicle_type, "terrain": category, "terrain_value": value,
            "vehicle": vehicle, "options": options}  # fmt: skip
    return run("vehicle/terrain-performance", body)


def test_a_4wd_in_marsh():
    """F:L4014 (4WD marsh +3), F:L4001-4009: value 2, MTV 5: speeds / 2.5, Acc and Man -5,
    Safe + round(2.5) = +3."""
    found = terrain("4wd", "marsh", 2)
    assert (found.allowed, found.modified_terrain_value) == (True, 5)
    assert Fraction(found.speed_divisor.exact) == Fraction(5, 2)
    assert (Fraction(found.cruise_kmh.exact), Fraction(found.max_kmh.exact)) == (24, 40)
    assert (found.acc, found.man, found.safe) == (-6, -4, 2)
    assert found.landing_modifier is None


def test_a_dash_forbids_the_terrain():
    """F:L3995, F:L4013: a wheeled vehicle cannot go into marsh; spacecraft go nowhere."""
    found = terrain("wheeled", "marsh", 0, CAR)
    assert not found.allowed
    assert found.cruise_kmh is None
    assert "cannot be used" in (found.reason or "")
    assert not terrain("spacecraft", "land", 0).allowed


def test_the_limit_uses_the_unadjusted_terrain_value():
    """F:L3997 (AMB2-51): 6WD land, Limit 4, rating -1: value 4 is allowed (MTV 3), value 5
    is not, though its MTV 4 would be within the Limit."""
    assert terrain("6wd", "land", 4).allowed
    refused = terrain("6wd", "land", 5)
    assert not refused.allowed
    assert refused.limit_uses == "unadjusted terrain value"


def test_good_terrain_never_speeds_a_vehicle_up():
    """A divisor of MTV/2 'or 1 if that is lower' (AMB2-34): MTV -1 divides by 1; Acc and Man
    gain 1; Safe + MTV/2 = -1/2, rounded as FORESIGHT rounds a negative value (its magnitude
    half up, catalogue part 1, 3.A.1): -1, a safer vehicle."""
    found = terrain("6wd", "land", 0, CAR)
    assert found.modified_terrain_value == -1
    assert Fraction(found.cruise_kmh.exact) == 60
    assert (found.acc, found.man, found.safe) == (1, 1, -2)


def test_divisor_rule_full_mtv():
    """AMB2-34's other reading: speeds / max(1, MTV): MTV 5 divides by 5."""
    found = terrain("4wd", "marsh", 2, terrain_divisor_rule="mtv")
    assert Fraction(found.cruise_kmh.exact) == 12


def test_aircraft_keep_speeds_and_land_at_minus_mtv():
    """F:L4037: aircraft use normal speeds and the net terrain value as a negative modifier to
    land; Acc/Man/Safe are modified (F:L3413, AMB2-34) unless the option says not."""
    heli = {"acc": -2, "man": 3, "safe": 0, "cruise_kmh": 100, "max_kmh": 220}
    found = terrain("vtol", "marsh", 3, heli)
    assert found.modified_terrain_value == 3
    assert Fraction(found.cruise_kmh.exact) == 100
    assert (found.acc, found.man, found.safe, found.landing_modifier) == (-5, 0, 2, -3)
    plain = terrain("vtol", "marsh", 3, heli, aircraft_terrain_ratings=False)
    assert (plain.acc, plain.man, plain.safe, plain.landing_modifier) == (-2, 3, 0, -3)


def test_surface_only_water():
    """F:L4039: parenthesised water ratings: on the surface only."""
    assert terrain("boat", "water", 1).surface_only
    assert not terrain("submarine", "water", 1).surface_only


# --- modifications ----------------------------------------------------------------------


def test_a_sporty_automobile():
    """F:L4085 and F:L4154: TL 4.5 + 0.25, Acc +1, Man +1, Safe -1, speeds x1.25, DS x0.8,
    cargo and passengers x0.5, price x1.5."""
    found = run("vehicle/modify", {"vehicle": "automobile", "modifications": ["sporty"]})
    car = found.vehicle
    assert Fraction(car.tl.exact) == Fraction(19, 4)
    assert (car.acc, car.man, car.safe, car.size, car.passengers) == (1, 1, -2, 0, 2)
    assert Fraction(car.cruise_kmh.exact) == 75
    assert Fraction(car.max_kmh.exact) == 125
    assert Fraction(car.ds.exact) == Fraction(12, 5)
    assert Fraction(car.cargo_kg.exact) == 100
    assert Fraction(car.price_svu.exact) == 15000
    assert [(s.column, s.change) for s in found.steps] == [
        ("tl", "+0.25"), ("acc", "+1"), ("man", "+1"), ("safe", "-1"), ("cruise_kmh", "x1.25"),
        ("max_kmh", "x1.25"), ("ceiling_m", "x1.25"), ("ds", "x0.8"), ("cargo_kg", "x0.5"),
        ("passengers", "x0.5"),
    ]  # fmt: skip


def test_modifications_stack_and_passengers_round_half_up():
    """F:L4144-4145: a Cheap/Old Cargo "Jeep": DS 3 x2 x0.8 = 4.8; 3 passengers x0.5 = 1.5,
    rounded up to 2; price 5k x2 x0.8 = 8k; Acc -1 -1 -1 = -3; Size +1."""
    body = {"vehicle": '"jeep"', "modifications": ["cargo", "cheap_old"]}
    car = run("vehicle/modify", body).vehicle
    assert Fraction(car.ds.exact) == Fraction(24, 5)
    assert (car.passengers, car.acc, car.man, car.safe, car.size) == (2, -3, -2, 0, 1)
    assert Fraction(car.price_svu.exact) == 8000
    assert Fraction(car.cargo_kg.exact) == 600
    assert Fraction(car.cruise_kmh.exact) == 48


def test_primitive_has_no_price_multiplier():
    """F:L4153: Primitive/Improvised lists no price multiplier: the price stands."""
    body = {"vehicle": "sailing boat", "modifications": ["primitive_improvised"]}
    boat = run("vehicle/modify", body).vehicle
    assert Fraction(boat.price_multiplier.exact) == 1
    assert Fraction(boat.tl.exact) == Fraction(3, 2)
    assert Fraction(boat.ds.exact) == Fraction(9, 4)


def test_modify_given_stats_and_refusals():
    stats = {"acc": 0, "man": 0, "safe": 0, "ds": 4, "size": 0, "passengers": 1,
             "ceiling_m": -100}  # fmt: skip
    found = run("vehicle/modify", {"stats": stats, "modifications": ["military_paramilitary"]})
    assert Fraction(found.vehicle.ceiling_m.exact) == -150
    assert found.vehicle.cruise_kmh is None
    with pytest.raises(InputError) as error:
        run("vehicle/modify", {"vehicle": "minisub", "modifications": ["fast"]})
    assert "Minisub (100k) TL 4.5, Minisub (100k) TL 7.0" in error.value.message
    assert run("vehicle/modify", {"vehicle": "minisub", "tl": 7, "modifications": ["fast"]})
    with pytest.raises(InputError):
        run("vehicle/modify", {"vehicle": "automobile", "modifications": ["fast", "fast"]})


@pytest.mark.parametrize(("tl", "price"), [(7, 10**10), (8, 2 * 10**9)])
def test_modify_the_dearest_vehicles_by_name(tl, price):
    """F:L4130, F:L4134: the Interstellar Carriers cost 10B and 2B svu, past the old 10**9
    bound on a price, so naming one failed inside the operation (a 500)."""
    body = {"vehicle": "Interstellar Carrier", "tl": tl, "modifications": ["fast"]}
    found = run("vehicle/modify", body).vehicle
    assert Fraction(found.price_svu.exact) == 2 * price


# --- the damage level -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "event", "levels", "expected", "state"),
    [
        (0, "damage", 3, 3, "heavy"),
        (2, "one_level", 0, 3, "heavy"),
        (0, "light", 0, 1, "light"),
        (3, "light", 0, 3, "heavy"),
        (1, "incapacitated", 0, 4, "incapacitated"),
        (5, "damage", 2, 7, "incapacitated"),
        (0, "destroyed", 0, 8, "destroyed"),
        (6, "damage", 2, 8, "destroyed"),
    ],
)
def test_the_damage_level_track(level, event, levels, expected, state):
    """F:L3490 (aggregates normally), F:L3479 (QR4 +1), F:L3376-3381 (named states): 1 light,
    2 medium, 3 heavy, 4 incapacitated, 8 destroyed (AMB2-36)."""
    body = {"damage_level": level, "event": event, "levels": levels}
    found = run("vehicle/damage-level", body)
    assert (found.damage_level, found.state) == (expected, state)


def test_the_compressed_scale():
    body = {"damage_level": 4, "event": "damage", "levels": 1,
            "options": {"vehicle_damage_scale": "compressed"}}  # fmt: skip
    assert run("vehicle/damage-level", body).state == "destroyed"
    body["options"] = {}
    assert run("vehicle/damage-level", body).state == "incapacitated"


# --- damage to vehicles -----------------------------------------------------------------


def test_an_impact_takes_half_the_ds_rounded():
    """F:L3486: impact DC12 against DS 3: 12 - round(1.5) = 10; QR2: 0.75 x 10 / 2 = 3.75, 4;
    D10 2 is the engine, which aggregates normally (F:L3490)."""
    body = {"dc": 12, "attack_type": "impact", "qr": 2, "ds": 3, "dice": {"values": [2]}}
    found = run("vehicle/damage", body)
    assert (found.dc_after.exact, found.table, found.hit.location) == (
        "10/1",
        "4",
        "engine_transmission",
    )
    assert (found.levels, found.damage_level, found.state) == (4, 4, "incapacitated")


def test_ds_rounding_and_division_options():
    """A beam takes DS/4 (F:L3486): 3/4 rounds to 1, or stays 0.75 exactly; the other DS
    reading also divides the damage by the DS (AMB2-36)."""
    body = {"dc": 12, "attack_type": "beam", "qr": 1, "ds": 3, "dice": {"values": [1]}}
    assert run("vehicle/damage", body).levels == 6  # 11 / 2 = 5.5
    exact_ds = {**body, "options": {"vehicle_ds_rounding": "exact"}}
    found = run("vehicle/damage", exact_ds)
    assert (found.dc_after.exact, found.levels) == ("45/4", 6)  # 45/8 = 5.625
    divided = {**body, "options": {"vehicle_ds_rule": "subtract_and_divide"}}
    assert run("vehicle/damage", divided).levels == 2  # 11 / 6 = 1.83
    melee = {**body, "attack_type": "melee", "armor": 2}
    assert run("vehicle/damage", melee).dc_after.exact == "7/1"


def test_accessory_and_compartment_hits_spare_a_car_but_not_an_aircraft():
    """F:L3490-3492."""
    body = {"dc": 10, "attack_type": "melee", "qr": 1, "ds": 2, "dice": {"values": [6]}}
    car = run("vehicle/damage", body)
    assert (car.hit.location, car.hit.aggregates, car.levels) == ("accessory", False, 0)
    plane = run("vehicle/damage", {**body, "compartment": {"aircraft_or_submarine": True}})
    assert (plane.levels, plane.state) == (4, "incapacitated")


def test_a_compartment_hit_strikes_a_passenger_through_damage_resolve():
    """F:L3492: operator, 2 passengers and 150 kg (2 lots): 5 slots; the D5 3 is the second
    passenger, who takes the reduced DC at the attack's QR (AMB2-36) on a D10 location."""
    body = {"dc": 12, "attack_type": "melee", "qr": 2, "ds": 4,
            "compartment": {"passengers": 2, "cargo_kg": 150},
            "dice": {"values": [9, 3, 10]}}  # fmt: skip
    found = run("vehicle/damage", body)
    assert (found.hit.occupant.kind, found.hit.occupant.number, found.hit.occupant.slots) == (
        "passenger", 2, 5)  # fmt: skip
    person = found.occupant_damage
    # DC 8 at QR2: 3, +1 to the head.
    assert (person.hits[0].location, person.result, person.condition.wound_level) == (
        "head", "4", 4)  # fmt: skip
    assert found.levels == 0
    whole = {**body, "options": {"compartment_hit_damage": "unreduced"}}
    assert run("vehicle/damage", whole).occupant_damage.result == "6"  # DC12: 4.5 -> 5, +1
    cargo = run("vehicle/damage", {**body, "dice": {"values": [9, 5]}})
    assert (cargo.hit.occupant.kind, cargo.hit.occupant.number) == ("cargo", 2)
    assert cargo.occupant_damage is None


def test_a_miss_does_nothing():
    body = {"dc": 12, "attack_type": "melee", "attack": {"score": 10, "bef": 3},
            "ds": 3, "dice": {"values": [95]}}  # fmt: skip
    found = run("vehicle/damage", body)
    assert (found.qr, found.table, found.hit, found.levels) == (7, "miss", None, 0)


def brute_vehicle(dc, ds, divisor, qrs, aggregating, slots, divide=False) -> tuple[Dist, Dist]:
    """Levels added and who is struck, by enumeration: each QR, D10 location, each slot;
    `divide`: the DS also divides the damage (AMB2-36's other reading)."""
    share = oracle.round_half_up(Fraction(ds) / divisor)
    levels: Counter[int] = Counter()
    struck: Dist = {}
    total = sum(n for _, n in slots)
    for qr_value, p in qrs.items():
        for face in range(1, 11):
            w = p / 10
            if qr_value > 4:
                levels[0] += w
                struck["no_hit"] = struck.get("no_hit", 0) + w
                continue
            zone = "engine" if face <= 4 else "accessory" if face <= 7 else "compartment"
            scale = Fraction(ds) if divide else Fraction(1)
            hurt = wound(Fraction(dc) - share, qr_value, scale) or 0
            levels[hurt if zone == "engine" or aggregating else 0] += w
            if zone != "compartment":
                struck["no_hit"] = struck.get("no_hit", 0) + w
                continue
            for kind, n in slots:
                struck[kind] = struck.get(kind, 0) + w * Fraction(n, total)
    return {str(k): Fraction(v) for k, v in levels.items() if v}, struck


@pytest.mark.parametrize(("aircraft", "divide"), [(False, False), (True, False), (True, True)])
def test_vehicle_damage_odds_against_enumeration(aircraft, divide):
    """Random QR (F:L2695), D10 location, uniform slot: levels and occupant by brute force."""
    compartment = {"passengers": 3, "cargo_kg": 250, "aircraft_or_submarine": aircraft}
    rule = "subtract_and_divide" if divide else "subtract"
    body = {"dc": 25, "attack_type": "impact", "ds": 5, "compartment": compartment,
            "options": {"vehicle_ds_rule": rule}}  # fmt: skip
    found = odds("vehicle/damage", body)
    qrs = {q: Fraction(sum(1 for f in RANDOM_QR.values() if f == q), 10) for q in (1, 2, 3, 4)}
    slots = [("operator", 1), ("passenger", 3), ("cargo", 3)]
    levels, struck = brute_vehicle(25, 5, 2, qrs, aircraft, slots, divide)
    assert table_of(found.levels) == levels
    assert table_of(found.occupant) == struck
    assert sum(table_of(found.state).values()) == 1


def test_vehicle_damage_odds_with_an_attack_roll():
    """An attack at SC 40 (score 10, BEF 4): misses on QR7 and QR10 place nothing."""
    body = {"dc": 9, "attack_type": "collision", "ds": 2, "attack": {"score": 10, "bef": 4}}
    found = odds("vehicle/damage", body)
    qrs = oracle.qr_distribution(oracle.success_chance(10, 4))
    levels, struck = brute_vehicle(9, 2, 1, qrs, False, [("operator", 1)])
    assert table_of(found.levels) == levels
    assert table_of(found.occupant) == struck
    assert table_of(found.location)["miss"] == qrs[7] + qrs[10]


def test_hit_location_odds():
    """F:L3488-3492: 4/10 engine, 3/10 accessory, 3/10 compartment split over the slots."""
    found = odds("vehicle/hit-location", {"passengers": 4, "cargo_kg": 500})
    tenths = {"engine_transmission": 4, "accessory": 3, "compartment": 3}
    assert table_of(found.location) == {k: Fraction(n, 10) for k, n in tenths.items()}
    hundredths = {"no_hit": 70, "operator": 3, "passenger": 12, "cargo": 15}
    assert table_of(found.occupant) == {k: Fraction(n, 100) for k, n in hundredths.items()}
    assert Fraction(found.aggregates.exact) == Fraction(2, 5)
    empty = odds("vehicle/hit-location", {"operator_aboard": False, "aircraft_or_submarine": True})
    assert table_of(empty.occupant)["none"] == Fraction(3, 10)
    assert Fraction(empty.aggregates.exact) == 1


def test_hit_location_rolls():
    found = run("vehicle/hit-location", {"passengers": 3, "dice": {"values": [10, 1]}})
    assert (found.location, found.occupant.kind, found.occupant.roll) == (
        "compartment",
        "operator",
        1,
    )
    alone = run("vehicle/hit-location", {"dice": {"values": [8]}})
    assert (alone.occupant.kind, alone.occupant.roll) == ("operator", None)
    engine = run("vehicle/hit-location", {"dice": {"values": [4]}})
    assert (engine.location, engine.occupant, engine.aggregates) == (
        "engine_transmission",
        None,
        True,
    )


# --- travel accidents -----------------------------------------------------------------------

#: Catalogue Q15: P(WL = 1..7), P(dead) and E[WL] for a healthy occupant, to 4 places.
Q15 = {
    "accident QR4 (DC4)": ([4], [0.72, 0.26, 0.02, 0, 0, 0, 0], 0, 1.3),
    "accident QR7 (DC8)": ([8], [0.45, 0.32, 0.12, 0.10, 0.01, 0, 0], 0, 1.9),
    "accident QR10 (DC10)": ([10], [0.45, 0.05, 0.27, 0.12, 0.10, 0.01, 0], 0, 2.4),
    "explosion (DC10 then DC12)": (
        [10, 12], [0, 0, 0.2025, 0.1665, 0.1510, 0.1824, 0.1410], 0.1566, 5.5),
    "safety QR7, DS3 car": ([5], [0.72, 0.17, 0.10, 0.01, 0, 0, 0], 0, 1.4),
    "safety QR10, DS3 car": ([9], [0.45, 0.32, 0.12, 0.01, 0.09, 0.01, 0], 0, 2.0),
}  # fmt: skip


@pytest.mark.parametrize("event", list(Q15))
def test_q15_against_enumeration(event):
    """Catalogue Q15 (F:L3378-3380, F:L3480-3481): the occupant's wound level after each
    event's DC with a random QR and location (head +1), no armor, simply added."""
    dcs, levels, dead, mean = Q15[event]
    found = after_hits([Fraction(dc) for dc in dcs])
    for level, p in enumerate(levels, start=1):
        assert round(float(found.get(level, 0)), 4) == p
    assert round(float(sum(p for k, p in found.items() if k >= 8)), 4) == dead
    assert sum(k * p for k, p in found.items()) == Fraction(str(mean))
    assert found.get(0, 0) == 0


QR_OF = {1: 1, 2: 2, 3: 3, 4: 4, 7: 7, 10: 10}


@pytest.mark.parametrize(
    ("qr", "explosion", "dcs"),
    [(4, False, [4]), (7, False, [8]), (10, False, [10]), (10, True, [10, 12]), (3, False, [])],
)
def test_accident_occupant_odds_are_q15(qr, explosion, dcs):
    """The service's occupant odds for a given QR equal the enumeration (and so Q15)."""
    body = {"driver": {"qr": qr}, "vehicle_man": 0, "explosion": explosion,
            "options": {"wound_accumulation": "simple"}}  # fmt: skip
    found = as_levels(odds("travel/accident", body).occupant.wound_level)
    assert found == after_hits([Fraction(dc) for dc in dcs])


def test_an_explosion_under_the_wound_accumulation_rule():
    """The default accumulation (the book's optional rule) spares limbs: the wreck and its
    explosion kill less often than Q15's simply added 0.1566 (its note says so)."""
    body = {"driver": {"qr": 10}, "vehicle_man": 0, "explosion": True}
    found = odds("travel/accident", body).occupant
    expected = after_hits([Fraction(10), Fraction(12)], limb_rule=True)
    assert as_levels(found.wound_level) == {k: v for k, v in expected.items() if v}
    dead = sum(p for k, p in expected.items() if k >= 8)
    assert Fraction(found.dead.exact) == dead < Fraction(1566, 10000)


def test_occupant_armor_counts_only_with_accident_armor():
    """Catalogue #83: a crash's DC is typeless, so no armor applies by default; with
    accident_armor melee or impact the occupants' armor lowers the DC like any hit
    (F:L2661): a layer rated 3 takes the QR7 crash's DC8 to DC5, and a safety roll's QR10
    DC(12 - 3) to DC5 under 4. Odds against the enumeration; the run's hit reports it."""
    three = {"armor": [{"rating": "3"}]}
    crash = {"driver": {"qr": 7}, "vehicle_man": 0, "occupant_armor": three,
             "options": {"wound_accumulation": "simple"}}  # fmt: skip
    found = as_levels(odds("travel/accident", crash).occupant.wound_level)
    assert found == after_hits([Fraction(8)])
    for reading in ("melee", "impact"):
        typed = {**crash, "options": {**crash["options"], "accident_armor": reading}}
        found = as_levels(odds("travel/accident", typed).occupant.wound_level)
        assert found == after_hits([Fraction(5)])
    impact = {**crash, "options": {**crash["options"], "accident_armor": "impact"}}
    hit = run("travel/accident", {**impact, "occupants": [{}], "dice": {"seed": 3}})
    assert Fraction(hit.occupants[0].hits[0].hits[0].dc_after_armor.exact) == 5
    safety = {"driver": {"qr": 10}, "bid": 0, "safe": 0, "ds": 3,
              "occupant_armor": {"armor": [{"rating": "4"}]},
              "options": {"wound_accumulation": "simple", "accident_armor": "impact"}}  # fmt: skip
    found = as_levels(odds("pursuit/safety-roll", safety).occupant.wound_level)
    assert found == after_hits([Fraction(5)])


def test_occupant_armor_coverage_mixes_covered_and_bare_hits():
    """A layer rated 3 covering 5/10 (F:L3930) protects when its D10 is at most 5: the QR7
    crash's wound level is half the DC5 hit's and half the bare DC8's."""
    crash = {"driver": {"qr": 7}, "vehicle_man": 0,
             "occupant_armor": {"armor": [{"rating": "3", "coverage": 5}]},
             "options": {"wound_accumulation": "simple", "accident_armor": "melee"}}  # fmt: skip
    found = as_levels(odds("travel/accident", crash).occupant.wound_level)
    covered, bare = after_hits([Fraction(5)]), after_hits([Fraction(8)])
    mixed = {k: (covered.get(k, 0) + bare.get(k, 0)) / 2 for k in covered | bare}
    assert found == {k: v for k, v in mixed.items() if v}


def test_worn_occupant_armor_reads_the_crash_s_column():
    """Ringmail is 3 against melee and 2 against impact (F:L3898): a vest of it meets the
    crash's DC8 as damage/resolve meets DC8m or DC8i with the vest worn, and the two
    readings differ. Worn armor cannot meet a typeless crash, so 'none' ignores it."""
    vest = {"worn": [{"armor": "ringmail", "piece": "vest"}]}
    crash = {"driver": {"qr": 7}, "vehicle_man": 0, "occupant_armor": vest}
    found = {}
    for reading, dc_type in (("melee", "m"), ("impact", "i")):
        typed = {**crash, "options": {"accident_armor": reading}}
        found[reading] = odds("travel/accident", typed).occupant.wound_level
        alone = odds("damage/resolve", {"damage_class": f"DC8{dc_type}", **vest})
        assert found[reading] == alone.wound_level
    assert found["melee"] != found["impact"]
    bare = odds("travel/accident", {"driver": {"qr": 7}, "vehicle_man": 0})
    assert odds("travel/accident", crash).occupant == bare.occupant


def test_accident_odds_mix_the_driving_roll():
    """Driving at score 12, BEF 4, with Man +1 (F:L3372): SC 60; every QR's state and the
    occupant's wound level mixed by the QR's probability."""
    body = {"driver": {"task": {"score": 12, "bef": 4}}, "vehicle_man": 1}
    found = odds("travel/accident", body)
    qrs = oracle.qr_distribution(oracle.success_chance(12, 4, [1]))
    state = {1: "ok", 2: "light", 3: "medium", 4: "heavy", 7: "incapacitated", 10: "destroyed"}
    assert table_of(found.state) == {state[q]: p for q, p in qrs.items() if p}
    dcs = {1: [], 2: [], 3: [], 4: [4], 7: [8], 10: [10]}
    mixed: Dist = {}
    for q, p in qrs.items():
        for level, w in after_hits([Fraction(dc) for dc in dcs[q]]).items():
            mixed[level] = mixed.get(level, 0) + p * w
    assert as_levels(found.occupant.wound_level) == {k: v for k, v in mixed.items() if v}
    serious = odds("travel/accident", {**body, "serious": True})
    harder = oracle.qr_distribution(oracle.success_chance(12, 4, [1, -3]))
    assert table_of(serious.driving.qr) == {f"QR{q}": p for q, p in harder.items() if p}


def test_accident_results():
    """F:L3376: QR2 light damage, an hour's delay, the journey completed as a QR4 one."""
    found = run("travel/accident", {"driver": {"qr": 2}, "vehicle_man": 0, "occupants": [{}]})
    assert (found.vehicle.state, found.delay_hours, found.journey) == (
        "light",
        1,
        "completed_as_qr4",
    )
    assert len(found.occupants) == 1
    assert found.occupants[0].hits == []


def test_a_wreck_that_explodes():
    """F:L3380: QR10 destroys the vehicle, DC10 to each occupant, and an explosion DC12 more:
    random QR 1 (DC10: 5) to the chest, then QR1 (DC12: 6) to the chest: WL 11, dead."""
    body = {"driver": {"qr": 10}, "vehicle_man": 0, "explosion": True,
            "occupants": [{}], "options": {"wound_accumulation": "simple"},
            "dice": {"values": [1, 5, 1, 6]}}  # fmt: skip
    found = run("travel/accident", body)
    assert (found.vehicle.state, found.vehicle.damage_level) == ("destroyed", 8)
    assert (found.passenger_dc, found.explosion_dc) == (10, 12)
    (person,) = found.occupants
    assert [h.result for h in person.hits] == ["5", "6"]
    assert (person.condition.wound_level, person.dead) == (11, True)


def test_the_driving_roll_takes_man_and_the_serious_penalty():
    """F:L3369-3372: Man -1 and -3 after a hasty QR10: four rungs down the ladder 0, 1/4,
    1/2, 1, 2, 3, 4 from BEF 4 is EF 1/2; score 12: SC 6; a roll of 3 is half of it: QR3."""
    body = {"driver": {"task": {"score": 12, "bef": 4}}, "vehicle_man": -1, "serious": True,
            "dice": {"values": [3]}}  # fmt: skip
    found = run("travel/accident", body)
    assert [(m.source, m.value) for m in found.driving.modifiers] == [
        ("vehicle Man", -1), ("serious mishap", -3)]  # fmt: skip
    assert (found.driving.success_chance, found.qr) == (6, 3)
    with pytest.raises(InputError):
        run("travel/accident", {"driver": {}, "vehicle_man": 0})


# --- safety rolls -----------------------------------------------------------------------


def test_safety_roll_modifier_and_results():
    """F:L3475: +(bid - Safe): bid -1, Safe +1: -2; score 10, BEF 4 (EF 4) at -2: EF 2, SC 20.
    F:L3479: QR4 raises the damage level by one."""
    body = {"driver": {"task": {"score": 10, "bef": 4}}, "bid": -1, "safe": 1, "ds": 3,
            "damage_level": 1, "dice": {"values": [15]}}  # fmt: skip
    found = run("pursuit/safety-roll", body)
    assert [(m.source, m.value) for m in found.driving.modifiers] == [("speed bid - Safe", -2)]
    assert (found.driving.success_chance, found.qr) == (20, 4)
    assert (found.vehicle.damage_level, found.vehicle.state) == (2, "medium")
    assert found.passenger_dc is None


def test_safety_roll_qr7_and_qr10():
    """F:L3480-3481: QR7 incapacitated, DC(8 - DS); QR10 totalled, DC(12 - DS); optionally
    (2 - bid) more (F:L3482)."""
    body = {"driver": {"qr": 7}, "bid": 0, "safe": 0, "ds": 3, "occupants": [{}],
            "dice": {"values": [6, 5]}}  # fmt: skip
    found = run("pursuit/safety-roll", body)
    assert (found.vehicle.state, found.passenger_dc.exact) == ("incapacitated", "5/1")
    assert found.occupants[0].hits[0].result == "1"  # DC5 QR4: 1.25 -> 1
    totalled = run("pursuit/safety-roll", {**body, "driver": {"qr": 10}, "bid": -2,
                                           "options": {"safety_speed_dc_bonus": True}})  # fmt: skip
    assert (totalled.vehicle.state, totalled.passenger_dc.exact) == ("destroyed", "13/1")


@pytest.mark.parametrize(
    ("manoeuvre", "extra"), [("pursuit/operate", {}), ("pursuit/quick-turn", {"range": 2})]
)
def test_a_safety_roll_takes_every_bid_the_manoeuvre_owing_it_takes(manoeuvre, extra):
    """F:L3442: a bid is at most +2, with no floor in the book; F:L3463 and F:L3475: a failed
    manoeuvre, or a bid below Safe, owes a safety roll at +(bid - Safe). A bid of -17 that
    'pursuit/operate' accepts must be accepted by the safety roll it calls for (it stopped at
    -10): QR7 at bid -17 totals nothing new but the passengers' DC with the optional rule is
    8 - 3 + (2 + 17) = 24 (F:L3480, F:L3482)."""
    owed = run(manoeuvre, {"driving": {"qr": 7}, "bid": -17, "safe": 0, **extra})
    assert owed.safety_rolls[0].modifier == -17
    body = {"driver": {"qr": 7}, "bid": -17, "safe": 0, "ds": 3,
            "options": {"safety_speed_dc_bonus": True}}  # fmt: skip
    found = run("pursuit/safety-roll", body)
    assert (found.vehicle.state, found.passenger_dc.exact) == ("incapacitated", "24/1")
    rolled = run("pursuit/safety-roll", {**body, "driver": {"task": {"score": 10, "bef": 4}}})
    assert [(m.source, m.value) for m in rolled.driving.modifiers] == [("speed bid - Safe", -17)]
    assert odds("pursuit/safety-roll", {**body, "occupants": [{}]}).occupant.wound_level


def test_a_fractional_or_negative_passenger_dc():
    """A modified vehicle's DS 3.75 (a Fast "Jeep", x1.25): DC(8 - 3.75) = 4.25 through the
    damage rules exactly; DS 10: DC -2 harms no one."""
    body = {"driver": {"qr": 7}, "bid": 0, "safe": 0, "ds": 3.75, "occupants": [{}],
            "dice": {"values": [1, 5]}}  # fmt: skip
    found = run("pursuit/safety-roll", body)
    assert found.passenger_dc.exact == "17/4"
    hit = found.occupants[0].hits[0].hits[0]
    assert (hit.dc.exact, hit.result) == ("17/4", "2")  # 4.25 / 2 = 2.125
    body.pop("dice")
    tough = run("pursuit/safety-roll", {**body, "ds": 10})
    assert tough.occupants[0].hits == []
    assert tough.occupants[0].condition.wound_level == 0


def test_safety_odds():
    """The roll's QRs at SC 30 (score 10, BEF 4, bid 0 - Safe 1 = -1: EF 3) and the Q15
    safety rows for a DS 3 car."""
    body = {"driver": {"task": {"score": 10, "bef": 4}}, "bid": 0, "safe": 1, "ds": 3}
    found = odds("pursuit/safety-roll", body)
    qrs = oracle.qr_distribution(oracle.success_chance(10, 4, [-1]))
    assert table_of(found.driving.qr) == {f"QR{q}": p for q, p in qrs.items() if p}
    levels = {1: 0, 2: 0, 3: 0, 4: 1, 7: 4, 10: 8}
    expected: Dist = {}
    for q, p in qrs.items():
        expected[levels[q]] = expected.get(levels[q], 0) + p
    assert as_levels(found.damage_level) == {k: v for k, v in expected.items() if v}
    mixed: Dist = {}
    dcs = {1: [], 2: [], 3: [], 4: [], 7: [5], 10: [9]}
    for q, p in qrs.items():
        for level, w in after_hits([Fraction(dc) for dc in dcs[q]]).items():
            mixed[level] = mixed.get(level, 0) + p * w
    assert as_levels(found.occupant.wound_level) == {k: v for k, v in mixed.items() if v}
    assert Fraction(found.occupant.dead.exact) == 0
    assert math.isclose(sum(float(Fraction(r.exact)) for r in found.state), 1)


def test_an_occupant_hit_past_dc_100_with_a_fraction_is_still_a_dc():
    """A fractional DC is sent to the damage rules as its whole part relative to the fraction
    left as a UCDC, which is at most 100: DC 775.578... (found by the fuzzer) is +775 and 0.578."""
    dc = Fraction(7755784563382784, 10**13)
    strike = occupant_strike(dc, Condition(), DamageOptions())
    assert strike is not None
    assert (strike.damage_class, round(strike.ucdc, 6)) == ("+775", 0.578456)
    small = occupant_strike(Fraction(17, 4), Condition(), DamageOptions())
    assert small is not None
    assert (small.damage_class, small.ucdc) == ("+4", 0.25)
