"""4C vehicles over REST and GraphQL as a new user meets them: the sample vehicles as data
and by name, a maneuver's odds with the crash it can cause, a ram and its damage, and the
options with the register entries they answer. Expected values are worked out here from the
seed (C:L<n>) and the Master Table (../shared/rules/4c-master-table.md row 30-39: black
00-34, red 35-64, blue 65-93, yellow 94-99; row 20-29: black 00-39)."""

from fractions import Fraction
from functools import partial
from typing import Any

from starlette.testclient import TestClient

from tests import http

BASE = "/v1/four-c"


post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="fourC")


def pointers(client: TestClient, path: str, body: dict[str, Any]) -> set[str]:
    response = client.post(BASE + path, json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    return {error["pointer"] for error in response.json()["errors"]}


def test_the_sample_vehicles_are_served_as_data(client):
    """C:L1506-1511."""
    response = client.get(BASE + "/tables/sample-vehicles")
    assert response.status_code == 200
    found = response.json()
    assert found["source"] == "C:L1502-1511"
    traits = [(r["vehicle"], r["durability"], r["handling"], r["velocity"]) for r in found["rows"]]
    assert traits == [
        ("Compact Car", 10, 6, 6), ("Sports Car", 10, 30, 12), ("Private Jet", 20, 10, 20)
    ]  # fmt: skip
    query = "{ fourC { tables { sampleVehicles { rows { sample vehicle durability } } } } }"
    rows = graphql(client, query)["tables"]["sampleVehicles"]["rows"]
    assert rows[2] == {"sample": "PRIVATE_JET", "vehicle": "Private Jet", "durability": 20}


def test_a_sports_car_jumping_a_broken_bridge(client):
    """Handling 30 at blue (C:L1451): success on 65-99, 35 in 100. Failing, the operator
    (Coordination 20) crashes in the same sector on 00-39 (C:L1461): 65/100 x 40/100 = 13/50;
    in an adjacent one 65/100 x 60/100 = 39/100."""
    body = {"vehicle": {"sample": "sports_car"}, "required": "blue", "operator_coordination": 20}
    found = post(client, "/vehicle/maneuver/odds", body)
    assert found["success"]["exact"] == "7/20"
    assert {r["outcome"]: Fraction(r["exact"]) for r in found["outcome"]} == {
        "success": Fraction(35, 100),
        "crash_same_sector": Fraction(13, 50),
        "crash_adjacent_sector": Fraction(39, 100),
    }
    rolled = post(client, "/vehicle/maneuver",
                  {**body, "dice": {"values": [4, 1, 2, 7]}, "outcome_odds": True})  # fmt: skip
    assert (rolled["colour"], rolled["outcome"], rolled["crash"]["location"]) == (
        "red", "crash_same_sector", "same_sector"
    )  # fmt: skip
    read = {e["distribution"]: e["probability"]["exact"] for e in rolled["outcome_odds"]}
    assert read["/outcome"] == "13/50"
    query = """{ fourC { vehicleManeuverOdds(input: {vehicle: {sample: SPORTS_CAR},
        required: BLUE, operatorCoordination: 20}) {
        success { exact } outcome { outcome exact } } } }"""
    odds = graphql(client, query)["vehicleManeuverOdds"]
    assert odds["success"]["exact"] == "7/20"
    assert {"outcome": "crash_adjacent_sector", "exact": "39/100"} in odds["outcome"]


def test_a_pedestrian_dodges_a_ram_and_a_driver_is_rammed(client):
    """C:L1476-1484: Coordination 20 gets out of the way on 40-99, 60 in 100; the Sports Car
    driver rolls Handling 30, out of the way on 35-99."""
    on_foot = post(client, "/vehicle/collision/avoid/odds", {"coordination": 20})
    assert on_foot["avoided"]["exact"] == "3/5"
    query = """{ fourC { vehicleCollisionAvoidOdds(input: {vehicle: {sample: SPORTS_CAR}}) {
        avoided { exact } } } }"""
    assert graphql(client, query)["vehicleCollisionAvoidOdds"]["avoided"]["exact"] == "13/20"
    assert pointers(client, "/vehicle/collision/avoid", {"dice": {"seed": 1}}) == {
        "/coordination", "/vehicle"
    }  # fmt: skip


def test_t16_the_ram_s_damage_to_each_party(client):
    """T16 (C:L1486-1494): the Sports Car (Durability 10) that moved 5 sectors into Body
    Armor 20 does no harm, takes 20 and is destroyed; its occupants take 50 each."""
    body = {"vehicle": {"sample": "sports_car"}, "sectors_moved": 5,
            "struck": {"kind": "character", "armor": [20]}}  # fmt: skip
    found = post(client, "/vehicle/collision/damage", body)
    assert found["struck_character"]["taken"] == 0
    assert (found["striker"]["taken"], found["striker"]["destroyed"]) == (20, True)
    assert found["striker"]["occupant_damage"] == 50
    assert found["options_applied"]["collision_character_armor"] is True
    bare = {**body, "options": {"collision_character_armor": False}}
    assert post(client, "/vehicle/collision/damage", bare)["struck_character"]["taken"] == 10
    query = """{ fourC { vehicleCollisionDamage(input: {vehicle: {sample: SPORTS_CAR},
        sectorsMoved: 5, struck: {kind: CHARACTER, armor: [20]}}) {
        striker { taken destroyed occupantDamage } struckCharacter { taken } } } }"""
    assert graphql(client, query)["vehicleCollisionDamage"] == {
        "striker": {"taken": 20, "destroyed": True, "occupantDamage": 50},
        "struckCharacter": {"taken": 0},
    }
    missing = {"vehicle": {"sample": "sports_car"}, "struck": {"kind": "object"}}
    assert pointers(client, "/vehicle/collision/damage", missing) == {"/struck/material_value"}


def test_attacks_move_and_repair(client):
    """A Sports Car shot for 15 is left at 5 (C:L1438-1440); it moves 12 a turn (C:L1509) and
    none after a collision (C:L1496); between adventures it is whole (C:L1500)."""
    hit = post(client, "/vehicle/attack", {"vehicle": {"sample": "sports_car"}, "damage": 15})
    assert (hit["taken"], hit["durability"]) == (5, 5)
    moved = post(client, "/vehicle/move", {"vehicle": {"sample": "sports_car"}, "collided": True})
    assert (moved["velocity"], moved["sectors_left"]) == (12, 0)
    car = {"sample": "sports_car", "current_durability": 5}
    fixed = post(client, "/vehicle/repair", {"vehicle": car, "between_adventures": True})
    assert fixed["durability"] == 10
    bad = {"vehicle": {"sample": "sports_car", "durability": 99}, "damage": -1}
    assert pointers(client, "/vehicle/attack", bad) >= {"/damage"}
    assert pointers(client, "/vehicle/attack", {**bad, "damage": 1}) == {"/vehicle/durability"}


def test_the_catalogue_shows_the_vehicle_options_and_their_entries(client):
    """A-38, A-40 (and A-21 for several armors), each default the catalogue's."""
    system = client.get("/v1/systems/four-c").json()
    damage = next(op for op in system["operations"] if op["name"] == "vehicle/collision/damage")
    options = {o["name"]: (o["ambiguity"], o["default_json"]) for o in damage["options"]}
    assert options == {
        "vehicle_armor": ("A-38", '"current"'),
        "armor_stacking": ("A-21", '"highest"'),
        "collision_vehicle_armor": ("A-40", "false"),
        "collision_character_armor": ("A-40", "true"),
        "occupant_collision_armor": ("A-40", "false"),
    }
