"""FORESIGHT ranged combat over REST and GraphQL as a new user meets it (issue 23's acceptance
checks for #74-#80). Seed lines are cited as F:L<n>."""

from tests.http import graphql, post

BASE = "/v1/foresight"
#: The gunman's advanced SL rifle on auto long burst (F:L3688, F:L3782, F:L3316-3318).
AUTO_RIFLE = {"name": "Advanced SL Rifle", "use": "L", "range_m": 25, "range_multipliers": [0.7],
              "recoil": 4, "jam": "D", "rof": "[6]", "ammo": "15", "rl": "3", "auto": "long",
              "dc": "10i2p"}  # fmt: skip


def test_a_revolver_at_7_m_is_minus_2(client):
    """F:L3660 (X31), REST and GraphQL."""
    found = post(client, "/ranged/range-penalty", {"distance_m": 7, "range_m": 3})
    assert found["modifier"] == -2
    query = """{ foresight { rangedRangePenalty(input: {distanceM: 7, rangeM: 3}) {
        fullIncrements rangeModifier within3mModifier modifier } } }"""
    found = graphql(client, query)["rangedRangePenalty"]
    assert (found["fullIncrements"], found["modifier"]) == (2, -2)


def test_a_target_within_3_m(client):
    """F:L3660: no range penalty under one increment; the table's +1 within 3 m (F:L3272)."""
    found = post(client, "/ranged/range-penalty", {"distance_m": 2, "range_m": 3})
    assert (found["range_modifier"], found["within_3m_modifier"], found["modifier"]) == (0, 1, 1)


def test_the_snipers_range_at_240_m(client):
    """F:L3320 (X27h): 50 x 1.25 x 1.1 = 68.75 m; 240 m is -3."""
    body = {"distance_m": 240, "range_m": 50, "range_multipliers": [1.25, 1.1]}
    found = post(client, "/ranged/range-penalty", body)
    assert (found["increment_m"]["float"], found["modifier"]) == (68.75, -3)


def test_recoil_of_three_shots(client):
    """F:L3646 (X30): a •• weapon fired three times: 0, -2, -4."""
    query = "{ foresight { rangedRecoil(input: {recoil: 2, shots: 3}) { penalties } } }"
    assert graphql(client, query)["rangedRecoil"]["penalties"] == [0, -2, -4]


def test_the_aim_cap_is_an_option(client):
    """F:L3030 +5 against F:L3271 +6 (AMB2-03), echoed in the result."""
    found = post(client, "/ranged/aim", {"aims": 7})
    assert (found["modifier"], found["options_applied"]["aim_cap"]) == (5, 5)
    query = """{ foresight { rangedAim(input: {aims: 7, options: {aimCap: 6}}) { modifier } } }"""
    assert graphql(client, query)["rangedAim"]["modifier"] == 6


def test_a_long_burst_at_6_m_with_qr3_lands_3_of_6(client):
    """F:L3316 (X27e): area fire -2, chest +0, 6 m inside the first increment; QR3 lands 3
    of the 6 rounds at the weapon's own DC (F:L3794)."""
    body = {"task": {"score": 12}, "weapon": AUTO_RIFLE, "distance_m": 6, "burst": True,
            "situations": [{"situation": "area_fire", "modifier": -2}, {"situation": "torso"}],
            "dice": {"values": [10]}}  # fmt: skip
    found = post(client, "/ranged/attack", body)
    assert (found["fire"]["qr"], found["rounds"], found["hits"], found["dc"]) == (3, 6, 3, "10i2p")
    assert [m["source"] for m in found["fire"]["modifiers"]] == ["area_fire"]
    query = """{ foresight { rangedAttack(input: {task: {score: 12}, weapon: {name: "SL",
        use: LONGARMS, rangeM: 25, rangeMultipliers: [0.7], recoil: 4, jam: "D", rof: "[6]",
        auto: LONG, dc: "10i2p"}, distanceM: 6, burst: true, situations: [{situation:
        AREA_FIRE, modifier: -2}, {situation: TORSO}], dice: {values: [10]}}) {
        fire { qr successChance } hits rounds dc jammed volley } } }"""
    found = graphql(client, query)["rangedAttack"]
    assert found == {"fire": {"qr": "QR3", "successChance": 24.0}, "hits": 3, "rounds": 6,
                     "dc": "10i2p", "jammed": False, "volley": "AREA"}  # fmt: skip


def test_the_fire_odds_and_the_jam_share_one_d100(client):
    """F:L3587, F:L3664: P(jam) over the fire roll itself; Jam D fails on 50 or 99."""
    body = {"task": {"score": 12}, "weapon": AUTO_RIFLE, "distance_m": 6}
    found = post(client, "/ranged/attack/odds", body)
    assert found["jammed"]["exact"] == "1/50"
    assert found["hit"] == found["fire"]["summary"]["success"]
    query = """{ foresight { rangedJamOdds(input: {jam: "B"}) { jamProbability { exact } } } }"""
    assert graphql(client, query)["rangedJamOdds"]["jamProbability"]["exact"] == "1/1000"


def test_a_jammed_weapon_takes_d10_concentrate_actions(client):
    """F:L3664: the GM's secret D10 of concentrate actions, then a dexterity roll."""
    found = post(client, "/ranged/jam", {"jam": "D", "roll": 99, "dice": {"values": [4]}})
    assert (found["jammed"], found["concentrate_actions"]) == (True, 4)
    assert found["rolls"][0]["sides"] == 10


def test_burst_models(client):
    """F:L3261, F:L3257 (AMB2-24): one hit at +3 DC, or yield x rounds at the base DC."""
    body = {"attack": {"qr": 2}, "burst": "long", "dc": "9i2p", "dice": {"seed": 3}}
    found = post(client, "/ranged/burst", body)
    assert (found["hits"], found["dc"]) == (1, "12i2p")
    found = post(client, "/ranged/burst", {**body, "options": {"burst_model": "yield_rounds"}})
    assert (found["hits"], found["dc"]) == (5, "9i2p")


def test_revolver_actions_under_both_readings(client):
    """X22 (F:L3012-3018) against ROF [1] (F:L3658), AMB2-23."""
    revolver = {"name": "Revolver", "use": "H", "range_m": 3, "rof": "[1]", "ammo": "6",
                "rl": "6*"}  # fmt: skip
    found = post(client, "/ranged/ammo", {"weapon": revolver, "shots": 2})
    assert (found["fire_actions"], found["rounds_left"], found["reload_actions"]) == (4, 4, 2)
    query = """{ foresight { rangedAmmo(input: {weapon: {use: HANDGUNS, rangeM: 3, rof: "[1]",
        ammo: "6", rl: "6*"}, shots: 2, options: {revolverSingleAction: true}}) {
        fireActions } } }"""
    assert graphql(client, query)["rangedAmmo"]["fireActions"] == 2


def test_bad_input_is_a_422_naming_the_field(client):
    """A ranged row's value outside it, a burst from a weapon without one, a bad jam code."""
    light = {"task": {"score": 12}, "weapon": AUTO_RIFLE, "distance_m": 6,
             "situations": [{"situation": "poor_light", "modifier": -6}]}  # fmt: skip
    response = client.post(BASE + "/ranged/attack", json=light)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/situations/0/modifier"
    single = {**AUTO_RIFLE, "auto": None}
    body = {"task": {"score": 12}, "weapon": single, "distance_m": 6, "burst": True}
    response = client.post(BASE + "/ranged/attack", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/burst"
    response = client.post(BASE + "/ranged/jam", json={"jam": "Q"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/jam"
