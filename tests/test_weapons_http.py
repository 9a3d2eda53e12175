"""FORESIGHT weapons over HTTP and GraphQL as a new user meets them: issue 24's acceptance
checks for the weapon catalogues (#105-#108), shields (#109), concealment (#110) and the DC
with the UCDC (#122). Seed lines are cited as F:L<n>."""

from functools import partial

from tests import http

BASE = "/v1/foresight"

post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="foresight")


def test_the_ranged_catalogue_searched_by_name_and_tl(client):
    """#105 (F:L3666-3708): any case, part of the name, a TL range; each row with its line."""
    found = post(client, "/weapon/ranged/catalog", {"name": "Pistol", "tl_min": 4.5, "tl_max": 5})
    assert [(r["key"], r["line"]) for r in found["rows"]] == [("sl-pistol-4.5", 3685),
                                                              ("sl-pistol-5", 3687)]  # fmt: skip
    query = """{ foresight { weaponRangedCatalog(input: {name: "sl rifle"}) { count
        rows { key line tl massKg costSvu weapon { dc rangeM use jam recoil } } } } }"""
    row = graphql(client, query)["weaponRangedCatalog"]["rows"][0]
    assert row == {"key": "sl-rifle", "line": 3688, "tl": 5.0, "massKg": 4.0, "costSvu": 1000.0,
                   "weapon": {"dc": "9i2p", "rangeM": 25.0, "use": "LONGARMS", "jam": "B",
                              "recoil": 2}}  # fmt: skip


def test_the_melee_catalogue(client):
    """#107 (F:L3734-3768): the Halberd (2) reaches at +4m2p."""
    found = post(client, "/weapon/melee/catalog", {"name": "halberd"})["rows"][0]
    assert (found["weapon"]["hands"], found["weapon"]["reach"]) == ("2", {"pm": 0, "dc": "+4m2p"})
    query = """{ foresight { weaponMeleeCatalog(input: {name: "shield"}) { count
        rows { key weapon { parry draw } } } } }"""
    rows = graphql(client, query)["weaponMeleeCatalog"]["rows"]
    assert [(r["key"], r["weapon"]["parry"]) for r in rows] == [
        ("small-shield", 2), ("medium-shield", 3), ("large-shield", 3)]  # fmt: skip


def test_amys_sidearm_over_rest_and_graphql(client):
    """X33 (F:L3798): advanced x2 on weight and DC and a modern x2 laser sight: 8i, 1.338 kg;
    the range stays 3 m (AMB2-40)."""
    body = {"catalog": "sl-pistol-5", "modifications": [
        {"modification": "advanced", "columns": ["wgt", "dc"]},
        {"modification": "advanced", "columns": ["wgt", "dc"]},
        {"modification": "laser_sight", "sight_weight_g": 122.5}]}  # fmt: skip
    found = post(client, "/weapon/ranged/modify", body)
    assert (found["weapon"]["dc"], found["mass_kg"]["exact"]) == ("8i", "669/500")
    assert found["range_increment_m"]["exact"] == "3/1"
    assert found["options_applied"] == {"min_draw": 1, "energy_ammo_semantics": "per_shot"}
    query = """{ foresight { weaponRangedModify(input: {catalog: "sl-pistol-5", modifications: [
        {modification: ADVANCED, columns: [WGT, DC]}, {modification: ADVANCED, columns: [WGT, DC]},
        {modification: LASER_SIGHT, sightWeightG: 122.5}]}) { weapon { dc } massKg { exact }
        steps { column how } } } }"""
    found = graphql(client, query)["weaponRangedModify"]
    assert (found["weapon"]["dc"], found["massKg"]["exact"]) == ("8i", "669/500")
    assert {"column": "dc", "how": "7i +1 = 8i"} in found["steps"]


def test_a_modified_row_is_the_weapon_of_ranged_attack(client):
    """The modify result's 'weapon' goes straight into ranged/attack."""
    body = {"catalog": "sl-rifle", "modifications": [{"modification": "auto_long_burst"}]}
    weapon = post(client, "/weapon/ranged/modify", body)["weapon"]
    shot = {"task": {"score": 12}, "weapon": weapon, "distance_m": 6, "burst": True,
            "dice": {"values": [5]}}  # fmt: skip
    found = post(client, "/ranged/attack", shot)
    assert (found["rounds"], found["dc"]) == (6, "12i2p")


def test_an_attack_names_the_sl_rifle_by_key(client):
    """Issue 24: a weapon named in an attack brings its damage class and range: the SL Rifle
    (F:L3688) is 9i2p with a 25 m increment, so 30 m is -1."""
    body = {"attacker": {"ranged": {"task": {"score": 12}, "weapon": {"catalog": "sl-rifle"},
                                    "distance_m": 30}},
            "aim": "chest", "dice": {"values": [5]}}  # fmt: skip
    found = post(client, "/attack", body)
    assert found["damage"]["damage_class"]["notation"] == "9i2p"
    assert found["attack"]["modifiers"] == [{"source": "range", "value": -1}]
    query = """{ foresight { attack(input: {attacker: {ranged: {task: {score: 12},
        weapon: {catalog: "sl-rifle"}, distanceM: 30}}, aim: CHEST, dice: {values: [5]}}) {
        attack { modifiers { source value } } damage { damageClass { notation } } } } }"""
    found = graphql(client, query)["attack"]
    assert found["damage"]["damageClass"]["notation"] == "9i2p"
    assert found["attack"]["modifiers"] == [{"source": "range", "value": -1}]


def test_a_melee_attack_names_its_weapon_by_key(client):
    """The Sabre/Longsword (F:L3742) by key: +4m at ST 9 after a wind-up is 7m."""
    body = {"weapon": {"catalog": "sabre-longsword"}, "strength": 9, "wind_ups": 1}
    assert post(client, "/melee/weapon-profile", body)["dc_written"] == "7m"
    query = """{ foresight { meleeWeaponProfile(input: {weapon: {catalog: "sabre-longsword",
        modifications: [{modification: HEAVY}]}, strength: 9}) { dcWritten weapon } } }"""
    found = graphql(client, query)["meleeWeaponProfile"]
    assert found == {"dcWritten": "7m", "weapon": "Sabre/Longsword (heavy)"}


def test_dc_with_ucdc(client):
    """#122: +4m, ST 9, one wind-up: 7m (F:L3636, F:L3024)."""
    found = post(client, "/weapon/dc-with-ucdc", {"dc": "+4m", "strength": 9, "wind_ups": 1})
    assert found["dc_written"] == "7m"
    query = """{ foresight { weaponDcWithUcdc(input: {dc: "+4m", ucdc: 2, hands: EITHER,
        twoHanded: true}) { dcWritten dcModifier } } }"""
    assert graphql(client, query)["weaponDcWithUcdc"] == {"dcWritten": "7m", "dcModifier": 1}


def test_shield_cover(client):
    """#109 (F:L3769): a large shield covers the head 4/10 from the front, as plate if metal."""
    body = {"size": "large", "metal": True, "location": "head", "damage_type": "i"}
    found = post(client, "/shield/cover", body)
    assert (found["cover"], found["rating"], found["cost_factor"]) == (4, "3", 3)
    query = """{ foresight { shieldCover(input: {size: SMALL, direction: REAR,
        location: CHEST}) { cover layers { coverage locations } } } }"""
    found = graphql(client, query)["shieldCover"]
    assert found == {"cover": 0, "layers": [{"coverage": 7, "locations": ["LEFT_ARM"]}]}


def test_concealment(client):
    """#110 (F:L3831-3871): a 1.5 kg pistol, shoulder holster, trench coat."""
    body = {"weight_kg": 1.5, "carry": "shoulder_holster", "clothing": "trench_coat", "draw": 2}
    found = post(client, "/concealment", body)
    assert (found["notice"], found["frisk"], found["draw"]) == (-1, 1, 3)
    query = """{ foresight { concealment(input: {weightKg: 13}) { notice frisk
        band { size line } } } }"""
    found = graphql(client, query)["concealment"]
    assert found == {"notice": None, "frisk": None, "band": {"size": "12+kg", "line": 3848}}


def test_bad_input_is_a_422_naming_the_field(client):
    """An unknown key, Advanced without its two columns, a row without its range."""
    body = {"task": {"score": 12}, "weapon": {"catalog": "blunderbuss"}, "distance_m": 6}
    response = client.post(BASE + "/ranged/attack", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/weapon/catalog"
    body = {"catalog": "sl-rifle", "modifications": [{"modification": "advanced"}]}
    response = client.post(BASE + "/weapon/ranged/modify", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/modifications/0/columns"
    response = client.post(BASE + "/melee/weapon-profile",
                           json={"weapon": {"catalog": "excalibur"}, "strength": 9})  # fmt: skip
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/weapon"


def test_graphql_defaults_do_not_replace_the_catalogue_row(client):
    """GraphQL fills every input default in: a catalogue row keeps its own Jam (B, F:L3688),
    recoil and Draw, and only a column given with a value of its own replaces the row's."""
    query = """{ foresight { rangedAttack(input: {task: {score: 12}, weapon: {catalog: "sl-rifle"},
        distanceM: 30, shot: 2, dice: {values: [5]}}) { jam { jam } dc
        fire { modifiers { source value } } } } }"""
    found = graphql(client, query)["rangedAttack"]
    assert (found["jam"]["jam"], found["dc"]) == ("B", "9i2p")
    assert {"source": "recoil", "value": -2} in found["fire"]["modifiers"]
    query = """{ foresight { rangedAttack(input: {task: {score: 12}, weapon: {catalog: "sl-rifle",
        jam: "D"}, distanceM: 30, dice: {values: [5]}}) { jam { jam } } } }"""
    assert graphql(client, query)["rangedAttack"]["jam"]["jam"] == "D"
    query = """{ foresight { meleeWeaponProfile(input: {weapon: {catalog: "halberd"},
        range: REACH, strength: 9}) { twoHanded damageClass } } }"""
    found = graphql(client, query)["meleeWeaponProfile"]
    assert found == {"twoHanded": True, "damageClass": "+4m2p"}
