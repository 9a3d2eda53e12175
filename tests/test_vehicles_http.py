"""FORESIGHT vehicles, accidents and safety rolls over HTTP and GraphQL as a new user meets
them (issue 24). Seed lines are cited as F:L<n>."""

from fractions import Fraction
from functools import partial

from tests import http

BASE = "/v1/foresight"

post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="foresight")


def test_find_a_vehicle_and_modify_it(client):
    """F:L4085, F:L4154: the Automobile from the table, made Sporty, REST and GraphQL."""
    found = post(client, "/vehicle/catalog", {"name": "automobile"})
    assert found["count"] == 1
    assert found["vehicles"][0]["ds"] == 3
    modified = post(client, "/vehicle/modify", {"vehicle": "Automobile",
                                                "modifications": ["sporty"]})  # fmt: skip
    assert modified["vehicle"]["max_kmh"]["exact"] == "125/1"
    assert modified["vehicle"]["passengers"] == 2
    query = """{ foresight { vehicleCatalog(input: {type: VTOL, tlMin: 6.5}) { count
        vehicles { name ds types } } } }"""
    assert graphql(client, query)["vehicleCatalog"] == {
        "count": 2,
        "vehicles": [
            {"name": "Fast Pack", "ds": 1.0, "types": ["VTOL"]},
            {"name": "Super Pack", "ds": 1.0, "types": ["VTOL"]},
        ],
    }
    query = """{ foresight { vehicleModify(input: {vehicle: "Automobile",
        modifications: [SPORTY, MILITARY_PARAMILITARY]}) { vehicle { acc man safe
        priceMultiplier { exact } } steps { column change } } } }"""
    found = graphql(client, query)["vehicleModify"]
    assert found["vehicle"] == {"acc": 2, "man": 2, "safe": -3,
                                "priceMultiplier": {"exact": "9/2"}}  # fmt: skip
    assert found["steps"][0] == {"column": "tl", "change": "+0.25"}


def test_the_tables_are_served(client):
    for name in ("vehicles", "vehicle-types", "vehicle-modifications", "vehicle-hit-locations",
                 "accident-avoidance", "safety-roll"):  # fmt: skip
        response = client.get(f"{BASE}/tables/{name}")
        assert response.status_code == 200, name
        assert response.json()["source"].startswith("F:L")


def test_terrain_performance(client):
    """F:L4014, F:L4001-4009: a "Jeep" in marsh of value 2, REST and GraphQL."""
    jeep = {"acc": -1, "man": 1, "safe": -1, "cruise_kmh": 60, "max_kmh": 100}
    body = {"vehicle_type": "4wd", "terrain": "marsh", "terrain_value": 2, "vehicle": jeep}
    found = post(client, "/vehicle/terrain-performance", body)
    assert (found["cruise_kmh"]["exact"], found["acc"], found["safe"]) == ("24/1", -6, 2)
    query = """{ foresight { vehicleTerrainPerformance(input: {vehicleType: WHEELED,
        terrain: MARSH, terrainValue: 1, vehicle: {acc: 0, man: 0, safe: -1, cruiseKmh: 60,
        maxKmh: 100}}) { allowed reason } } }"""
    found = graphql(client, query)["vehicleTerrainPerformance"]
    assert found["allowed"] is False
    assert "cannot be used" in found["reason"]


def test_a_vehicle_takes_an_impact(client):
    """F:L3486-3490: DC12 impact on DS 3 at QR2: DC10, 4 levels to the engine."""
    body = {"dc": 12, "attack_type": "impact", "qr": 2, "ds": 3, "dice": {"values": [2]}}
    found = post(client, "/vehicle/damage", body)
    assert (found["levels"], found["state"], found["hit"]["location"]) == (
        4, "incapacitated", "engine_transmission")  # fmt: skip
    query = """{ foresight { vehicleDamage(input: {dc: 12, attackType: IMPACT, qr: QR2, ds: 3,
        dice: {values: [2]}}) { levels state hit { location } rolls { sides value } } } }"""
    found = graphql(client, query)["vehicleDamage"]
    assert found == {"levels": 4, "state": "INCAPACITATED",
                     "hit": {"location": "ENGINE_TRANSMISSION"},
                     "rolls": [{"sides": 10, "value": 2}]}  # fmt: skip
    odds = post(client, "/vehicle/damage/odds", {"dc": 12, "attack_type": "impact", "ds": 3})
    assert sum(Fraction(row["exact"]) for row in odds["levels"]) == 1


def test_hit_location_and_damage_level(client):
    found = post(client, "/vehicle/hit-location", {"passengers": 3,
                                                   "dice": {"values": [9, 2]}})  # fmt: skip
    assert (found["location"], found["occupant"]["kind"]) == ("compartment", "passenger")
    odds = post(client, "/vehicle/hit-location/odds", {"passengers": 3})
    assert {r["outcome"]: r["exact"] for r in odds["occupant"]}["passenger"] == "9/40"
    query = """{ foresight { vehicleDamageLevel(input: {damageLevel: 2, event: ONE_LEVEL}) {
        damageLevel state } } }"""
    assert graphql(client, query)["vehicleDamageLevel"] == {"damageLevel": 3, "state": "HEAVY"}


def test_travel_accident_and_its_odds(client):
    """F:L3378 and catalogue Q15: a QR4 accident gives everyone inside DC4 with a random QR;
    P(WL1) = 0.72 for a healthy occupant."""
    body = {"driver": {"qr": 4}, "vehicle_man": 0, "occupants": [{}],
            "dice": {"values": [6, 5]}}  # fmt: skip
    found = post(client, "/travel/accident", body)
    assert (found["vehicle"]["state"], found["passenger_dc"]) == ("heavy", 4)
    assert found["occupants"][0]["condition"]["wound_level"] == 1
    odds = post(client, "/travel/accident/odds", {"driver": {"qr": 4}, "vehicle_man": 0})
    assert {r["outcome"]: r["float"] for r in odds["occupant"]["wound_level"]}["1"] == 0.72
    query = """{ foresight { travelAccidentOdds(input: {driver: {task: {score: 12, bef: 4}},
        vehicleMan: 1}) { driving { qr { outcome exact } } occupant { dead { exact } } } } }"""
    found = graphql(client, query)["travelAccidentOdds"]
    assert found["driving"]["qr"][0] == {"outcome": "QR1", "exact": "3/50"}
    assert found["occupant"]["dead"]["exact"] == "0/1"


def test_safety_roll(client):
    """F:L3475-3481: bid -1 against Safe +1 is -2; QR7 gives DC(8 - 3) = 5."""
    body = {"driver": {"task": {"score": 10, "bef": 4}}, "bid": -1, "safe": 1, "ds": 3,
            "occupants": [{}], "dice": {"values": [55, 6, 5]}}  # fmt: skip
    found = post(client, "/pursuit/safety-roll", body)
    assert found["driving"]["modifier_total"] == -2
    assert (found["qr"], found["vehicle"]["state"], found["passenger_dc"]["exact"]) == (
        7, "incapacitated", "5/1")  # fmt: skip
    query = """{ foresight { pursuitSafetyRoll(input: {driver: {qr: QR10}, bid: 0, safe: 0,
        ds: 3, options: {safetySpeedDcBonus: true}}) { passengerDc { exact } vehicle { state }
        optionsApplied { safetySpeedDcBonus vehicleDamageScale } } } }"""
    found = graphql(client, query)["pursuitSafetyRoll"]
    assert found == {"passengerDc": {"exact": "11/1"}, "vehicle": {"state": "DESTROYED"},
                     "optionsApplied": {"safetySpeedDcBonus": True,
                                        "vehicleDamageScale": "CATALOGUE"}}  # fmt: skip


def test_bad_input_names_the_field(client):
    both = client.post(BASE + "/travel/accident", json={"driver": {}, "vehicle_man": 0})
    assert both.status_code == 422
    assert both.json()["errors"][0]["pointer"] == "/driver"
    bid = client.post(BASE + "/pursuit/safety-roll", json={"driver": {"qr": 4}, "bid": 3,
                                                           "safe": 0, "ds": 3})  # fmt: skip
    assert bid.status_code == 422
    assert bid.json()["errors"][0]["pointer"] == "/bid"
    body = {"vehicle": "Automobile", "modifications": ["fast", "fast"]}
    twice = client.post(BASE + "/vehicle/modify", json=body)
    assert twice.status_code == 422
    assert twice.json()["errors"][0]["pointer"] == "/modifications"
