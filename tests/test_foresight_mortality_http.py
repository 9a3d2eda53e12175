"""FORESIGHT mortality over HTTP and GraphQL as a new user meets it: issue 20's acceptance
checks. Seed lines are cited as F:L<n>. Part A (stun, wounds, damage, hit location) first;
part B (stamina, hazards, medicine) appends below."""

from functools import partial

from tests import http

BASE = "/v1/foresight"


post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="foresight")


# --- part A: stun, wounds, damage, hit location ---------------------------------------------


def test_wl2_plus_wl3_to_the_head_is_wl5(client):
    """F:L2616 (X5), REST and GraphQL."""
    body = {"condition": {"wound_level": 2, "max_wound_level": 2}, "wound_levels": 3,
            "location": "head"}  # fmt: skip
    assert post(client, "/wound-accumulation", body)["wound_level"] == 5
    found = graphql(
        client,
        """{ foresight { woundAccumulation(input: {condition: {woundLevel: 2,
        maxWoundLevel: 2}, woundLevels: 3, location: HEAD}) { woundLevel woundName } } }""",
    )
    assert found["woundAccumulation"] == {"woundLevel": 5, "woundName": "Critical"}


def test_wl3_plus_wl3_to_a_limb_is_4(client):
    """F:L2622 (X7), REST and GraphQL."""
    body = {"condition": {"wound_level": 3, "max_wound_level": 3}, "wound_levels": 3,
            "location": "left_leg"}  # fmt: skip
    found = post(client, "/wound-accumulation", body)
    assert (found["wound_level"], found["condition"]["max_wound_level"]) == (4, 4)
    found = graphql(
        client,
        """{ foresight { woundAccumulation(input: {condition: {woundLevel: 3},
        woundLevels: 3, location: LEFT_ARM}) { woundLevel } } }""",
    )
    assert found["woundAccumulation"]["woundLevel"] == 4


def test_dc8_against_3a_at_qr2_leaves_one_wound_level(client):
    """F:L2663 (X9): DC5 after the 3, 2 wound levels, 1 after the A."""
    body = {"damage_class": "DC8", "qr": 2, "aim": "chest", "armor": [{"rating": "3A"}]}
    found = post(client, "/damage/resolve", body)
    assert (found["result"], found["condition"]["wound_level"]) == ("1", 1)
    assert found["hits"][0]["steps"][1] == "armor 3A pierced by 0: 3A; DC 8 - 3 = 5"
    found = graphql(
        client,
        """{ foresight { damageResolve(input: {damageClass: "DC8", qr: QR2,
        aim: CHEST, armor: [{rating: "3A"}]}) { result condition { woundLevel }
        hits { table absorbed } } } }""",
    )
    assert found["damageResolve"]["result"] == "1"
    assert found["damageResolve"]["hits"] == [{"table": "2", "absorbed": 1}]


def test_dc12i4p_against_3aa_parses_and_resolves_as_x10(client):
    """F:L2673 (X10): the 4p bypasses the 3 and one A: A is left."""
    parsed = post(client, "/damage-class/parse", {"notation": "DC12i4p"})
    assert (parsed["value"], parsed["type"], parsed["pierce"]) == (12, "i", 4)
    armor = post(client, "/armor-rating/parse", {"notation": "3AA"})
    assert (armor["reduction"], armor["absorb"]) == (3, 2)
    body = {"damage_class": "DC12i4p", "qr": 2, "aim": "chest", "armor": [{"rating": "3AA"}]}
    hit = post(client, "/damage/resolve", body)["hits"][0]
    assert (hit["armor"]["reduction_left"], hit["armor"]["absorb_left"]) == (0, 1)
    found = graphql(
        client,
        """{ foresight { damageResolve(input: {damageClass: "DC12i4p",
        qr: QR2, aim: CHEST, armor: [{rating: "3AA"}]}) { hits { armor { absorbLeft } } } } }""",
    )
    assert found["damageResolve"]["hits"][0]["armor"]["absorbLeft"] == 1


def test_malformed_notation_is_a_422_naming_the_character(client):
    response = client.post(BASE + "/damage-class/parse", json={"notation": "DC12q4p"})
    assert response.status_code == 422
    error = response.json()["errors"][0]
    assert error["pointer"] == "/notation"
    assert "character 5" in error["detail"]
    bad = {"damage_class": "DC8", "qr": 2, "armor": [{"rating": "3B"}]}
    response = client.post(BASE + "/damage/resolve", json=bad)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/armor/0/rating"


def test_amys_stun_points_clear_as_x12(client):
    """F:L2681 (X12): 2 points; success at -2, failure at -1, success at -1: unstunned."""
    condition = {"stun_points": 2, "stunned": True}
    for roll, left in ((20, 1), (55, 1), (30, 0)):
        found = post(client, "/stun/recover", {"condition": condition,
                     "pain_resistance": {"score": 8}, "dice": {"values": [roll]}})  # fmt: skip
        assert found["stun_points"] == left
        condition = found["condition"]
    assert found["stunned"] is False
    found = graphql(
        client,
        """{ foresight { stunRecover(input: {condition: {stunPoints: 1,
        stunned: true}, painResistance: {score: 8}, dice: {values: [30]}}) {
        stunPoints stunned } } }""",
    )
    assert found["stunRecover"] == {"stunPoints": 0, "stunned": False}


def test_the_vest_example_odds_over_rest(client):
    """Catalogue 3 (X27f-g): P(unhurt) = 0.729 for three bullets at a 9/10 vest."""
    vest = [{"rating": "3"}, {"rating": "3"}, {"rating": "4A", "coverage": 9}]
    body = {"damage_class": "10i2p", "hits": 3, "aim": "chest", "armor": vest}
    found = post(client, "/damage/resolve/odds", body)
    assert found["summary"]["unhurt"]["exact"] == "729/1000"


# --- part B: stamina and fatigue, medicine ---------------------------------------------------


def test_a_laden_run_then_rest_over_rest_and_graphql(client):
    """F:L2538, F:L2542, F:L2546: a minute's laden run costs 24 of Amy's 13; a few minutes'
    rest brings her back to threshold 2, still exhausted until she sleeps (X1, F:L2552)."""
    ran = post(client, "/stamina/exertion", {"condition": {"stamina": 13}, "endurance": 7,
                                             "level": "heavy", "seconds": 60,
                                             "encumbrance": "laden"})  # fmt: skip
    assert (ran["cost"], ran["condition"]["stamina"], ran["overdrawn"]) == (24, -11, True)
    rested = post(client, "/stamina/rest", {"condition": ran["condition"], "stamina_score": 13,
                                            "endurance": 7, "rest": "few_minutes"})  # fmt: skip
    assert rested["condition"]["stamina"] == 2
    query = """{ foresight { stamina: staminaExhaustionModifier(input: {condition: {stamina: 2,
        exhaustedSinceSleep: true}}) { modifier exhausted } } }"""
    assert graphql(client, query)["stamina"] == {"modifier": -1, "exhausted": False}


def test_amys_surgery_over_rest_and_its_odds(client):
    """F:L2874-2876 (X18e-g): QR3 search, QR2 surgery at TL6: max wound level 5 -> 0."""
    body = {"condition": {"wound_level": 3, "max_wound_level": 5}, "tl": 6,
            "circumstances": ["multiple_wounds"], "search": {"score": 12, "bef": 5},
            "surgery": {"score": 12}}  # fmt: skip
    found = post(client, "/surgery", {**body, "dice": {"values": [30, 15]}})
    assert (found["reduction"], found["condition"]["max_wound_level"]) == (5, 0)
    chances = post(client, "/surgery/odds", body)["reduction"]
    assert sum(float(row["float"]) for row in chances) == 1.0


def test_bad_medical_input_names_the_field(client):
    """A 422 names each bad field: artificial blood before TL6 (F:L2829), a tech level past
    the schema's bound."""
    early = client.post(BASE + "/blood-pressure/restore", json={
        "condition": {"wound_level": 5}, "infusion": "artificial_blood", "tl": 5})  # fmt: skip
    assert early.status_code == 422
    assert early.json()["errors"][0]["pointer"] == "/tl"
    far = client.post(BASE + "/medical-care", json={"tl": 99})
    assert far.status_code == 422
    assert far.json()["errors"][0]["pointer"] == "/tl"


# --- part C: hazards ------------------------------------------------------------------------


def test_rattlesnake_odds_over_rest_and_graphql(client):
    """F:L2741 (X15, catalogue Q16): DC4 every 5 minutes, P(dead by 30 min) = 0.34464."""
    found = post(client, "/poison/odds", {"dc": 4, "interval_s": 300, "duration_s": 3600})
    assert found["doses"][5]["dead"]["exact"] == "1077/3125"
    assert found["options_applied"]["poison_stacking"] == "add"
    query = """{ foresight { poisonOdds(input: {dc: 4, intervalS: 300, durationS: 1800}) {
        doses { seconds dead { float } } } } }"""
    assert graphql(client, query)["poisonOdds"]["doses"][5] == {
        "seconds": 1800,
        "dead": {"float": 0.34464},
    }


def test_a_fall_into_water_and_a_bad_height(client):
    """F:L2779 (X16): a 3 m jump into deep water does nothing; a negative height is a 422."""
    found = post(client, "/falling", {"height_m": 3, "soft_landing_m": 3, "dice": {"seed": 1}})
    assert (found["hit"], found["condition"]["wound_level"]) == (None, 0)
    bad = client.post(BASE + "/falling", json={"height_m": -1})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["pointer"] == "/height_m"
    query = """{ foresight { fallingOdds(input: {heightM: 17}) { dead { float } } } }"""
    assert graphql(client, query)["fallingOdds"]["dead"]["float"] == 0.1


def test_too_many_poison_doses_names_the_interval(client):
    """At most 100 doses in a request: the 422 names interval_s."""
    bad = client.post(BASE + "/poison", json={"interval_s": 1, "duration_s": 3600})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["pointer"] == "/interval_s"


def test_a_recovery_course_over_rest_and_graphql(client):
    """F:L2581, F:L2604 (X3): WL2, worst 3, EN 9 (BEF 5, SC 18): no roll until day 5, then
    WL1 at 18/100."""
    body = {"condition": {"wound_level": 2, "max_wound_level": 3},
            "endurance": {"score": 9, "bef": 5}, "days": 5}  # fmt: skip
    found = post(client, "/wound-level/recovery-roll/odds", body)
    assert [day["wound_level"][0]["outcome"] for day in found["course"]] == ["2"] * 5 + ["1"]
    assert found["course"][5]["wound_level"][0]["exact"] == "9/50"
    query = """{ foresight { woundLevelRecoveryRollOdds(input: {condition: {woundLevel: 2,
        maxWoundLevel: 3}, endurance: {score: 9, bef: 5}, days: 5, careIntervalPct: 100}) {
        course { day dead { exact } woundLevel { outcome exact } } } } }"""
    course = graphql(client, query)["woundLevelRecoveryRollOdds"]["course"]
    assert course[5]["woundLevel"][0] == {"outcome": "1", "exact": "9/50"}
    assert course[5]["dead"] == {"exact": "0/1"}
