"""One attack end to end over REST and GraphQL, as a new user meets it (issue 23 item 4):
attacker and defender as data, both rolls, blocking, location, armor and the defender's new
condition. Seed lines are cited as F:L<n>."""

from fractions import Fraction

from tests.http import graphql, post
from tests.rules.foresight.test_combat_attack import brute_wound_level

SWORD_AGAINST_PARRY = {
    "attacker": {"task": {"score": 14, "bef": 5}},
    "defense": {"task": {"score": 12, "bef": 5}},
    "damage_class": "DC8",
    "armor": [{"rating": "3A", "locations": ["chest", "abdomen"]}],
    # The attack's D100 (QR1 at SC 70), the parry's (QR7 at SC 60), the location D10 (chest).
    "dice": {"values": [5, 61, 6]},
}


def test_a_parried_blow_lands_through_the_armor_and_wounds(client):
    """QR1 against a failed parry stays QR1 (F:L1511-1519); DC8 less the 3 of the 3A is DC5,
    QR1 3 wound levels, 2 after the A (F:L2640-2663)."""
    found = post(client, "/attack", SWORD_AGAINST_PARRY)
    assert (found["attack_qr"], found["defense_qr"], found["final"]["qr"]) == (1, 7, 1)
    hit = found["damage"]["hits"][0]
    assert (hit["location"], hit["dc_after_armor"]["float"], hit["result"]) == ("chest", 5, "2")
    assert found["damage"]["condition"]["wound_level"] == 2
    assert [roll["value"] for roll in found["rolls"]] == [5, 61, 6]


def test_the_odds_give_p_hit_and_the_wound_level(client):
    """Catalogue Q6: SC 50 against SC 50 hits 0.3525 of the time."""
    body = {"attacker": {"task": {"score": 10, "bef": 5}},
            "defense": {"task": {"score": 10, "bef": 5}}, "damage_class": "DC8",
            "aim": "chest"}  # fmt: skip
    found = post(client, "/attack/odds", body)
    assert found["hit"]["exact"] == "141/400"
    levels = {int(row["outcome"]): Fraction(row["exact"]) for row in found["damage"]["wound_level"]}
    assert levels == {k: p for k, p in brute_wound_level(50, 50, 8, 0, 0).items() if p}


def test_graphql_answers_the_same_attack(client):
    found = graphql(
        client,
        """{ foresight { attack(input: {attacker: {task: {score: 14, bef: 5}},
        defense: {task: {score: 12, bef: 5}}, damageClass: "DC8",
        armor: [{rating: "3A", locations: [CHEST, ABDOMEN]}],
        dice: {values: [5, 61, 6]}}) { finalQr: final { qr } hit
        damage { result condition { woundLevel } } } } }""",
    )
    damage = {"result": "2", "condition": {"woundLevel": 2}}
    assert found["attack"] == {"finalQr": {"qr": "QR1"}, "hit": True, "damage": damage}


def test_x27l_not_aiming_is_no_row_of_the_table(client):
    """X27l (F:L3322): the gunman fires back 'with -2 for not aiming, -3 for being wounded';
    the Ranged Attack Modifiers have no 'not aiming' row (F:L3263-3298, AMB2-25: follow the
    table), so it is refused naming the field; the wound's -3 is the task's own modifier."""
    pistol = {"name": "SL Pistol", "use": "H", "range_m": 3, "dc": "6i", "jam": "C"}
    shot = {"task": {"score": 9, "modifiers": [-3]}, "weapon": pistol, "distance_m": 4,
            "situations": [{"situation": "not_aiming"}]}  # fmt: skip
    response = client.post("/v1/foresight/attack", json={"attacker": {"ranged": shot}})
    assert response.status_code == 422
    assert "situation" in response.text
    shot["situations"] = []
    found = post(client, "/attack", {"attacker": {"ranged": shot}, "dice": {"seed": 1}})
    terms = [(t["source"], t["value"]) for t in found["attack"]["modifiers"]]
    # One full 3 m increment at 4 m: -1 (F:L3660); the wound's -3 as the task gave it.
    assert ("range", -1) in terms
    assert [value for _, value in terms if value == -3] == [-3]
