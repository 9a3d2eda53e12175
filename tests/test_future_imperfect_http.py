"""Future Imperfect part 1 over REST and GraphQL as a new user meets it: issue 15's acceptance
checks. Seed lines are cited as FI:L<n>."""

from fractions import Fraction
from functools import partial

from tests import http

BASE = "/v1/future-imperfect"


post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="futureImperfect")


def test_iv_2_and_2_4_are_one_pool(client):
    """FI:L177, FI:L512."""
    first = post(client, "/core/pool/parse", {"notation": "IV-2"})
    second = post(client, "/core/pool/parse", {"notation": "2(4)"})
    assert (first["column"], first["row"]) == (second["column"], second["row"]) == (4, 2)
    query = '{ futureImperfect { corePoolParse(input: {notation: "2(4)"}) { roman } } }'
    assert graphql(client, query)["corePoolParse"]["roman"] == "IV-2"


def test_kaylas_reflex_succeeds_with_no_bump(client):
    """FI:L177: 3d10 showing 3, 4 and 4 against TN 3."""
    found = post(client, "/core/check", {"pool": "3d10", "tn": 3, "dice": {"values": [3, 4, 4]}})
    assert (found["success"], found["bumps"]) == (True, 0)
    query = ("{ futureImperfect { coreCheck(input: {pool: \"IV-3\", tn: 3, "
             "dice: {values: [3, 4, 4]}}) { success bumps } } }")  # fmt: skip
    assert graphql(client, query)["coreCheck"] == {"success": True, "bumps": 0}


def test_iii_3_at_tn_7_succeeds_as_t1_says(client):
    """T1/T3: 145/256, less the chains left out."""
    found = post(client, "/core/check/odds", {"pool": "III-3", "tn": 7})
    cut = Fraction(found["truncation"]["mass_cut"]["exact"])
    assert Fraction(145, 256) - cut <= Fraction(found["success"]["exact"]) <= Fraction(145, 256)


def test_advancement_costs(client):
    """FI:L755-759: shooting 3 to 4 costs 4, Strength 4d6 to 5d6 10, a d4 to d6 trait 18."""
    assert (
        post(client, "/advancement/skill", {"skill": "shooting", "level": 3, "bounty": 4})["cost"]
        == 4
    )
    assert post(client, "/advancement/trait-training", {"dice": 4, "bounty": 10})["cost"] == 10
    assert post(client, "/advancement/trait-die", {"die_sides": 4, "bounty": 18})["cost"] == 18


def test_a_fall_and_a_fear_test_over_both_protocols(client):
    """FI:L27 and FI:L694-700 through REST and GraphQL alike."""
    fall = post(client, "/environment/falling/odds", {"distance": 12})
    assert fall["wounds"][0]["outcome"] == "0"
    query = ('{ futureImperfect { psychFearOdds(input: {pool: "II-2", tn: 5}) '
             "{ effect { outcome exact } } } }")  # fmt: skip
    rows = graphql(client, query)["psychFearOdds"]["effect"]
    rest = post(client, "/psych/fear/odds", {"pool": "II-2", "tn": 5})["effect"]
    assert rows == [{"outcome": r["outcome"], "exact": r["exact"]} for r in rest]


def test_a_fall_needing_column_6_is_answered_unrolled_and_only_beyond_1_km_refused(client):
    """FI:L27, A-12: 47 m is 5(6), returned with rollable false until column 6 has a die;
    past the service's kilometer the distance is a 422."""
    found = post(client, "/environment/falling", {"distance": 47, "dice": {"seed": 1}})
    assert (found["damage_code"], found["rollable"], found["wounds"]) == ("5(6)", False, None)
    chances = post(client, "/environment/falling/odds", {"distance": 47})
    assert (chances["damage_code"], chances["rollable"], chances["wounds"]) == ("5(6)", False, [])
    response = client.post(BASE + "/environment/falling", json={"distance": 1001})
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/distance"


def test_chuks_reflex_8_draws_3_cards_over_both_protocols(client):
    """Issue 19, FI:L191: a Reflex 8 against Easy (3) is a success and a bump: 3 cards."""
    body = {"pool": "IV-2", "dice": {"values": [8, 2, 38, 22, 2]}}
    found = post(client, "/combat/initiative", body)
    assert (found["check"]["en"], found["cards_drawn"]) == (8, 3)
    assert [c["step"] for c in found["kept"]] == [10, 6]
    query = ('{ futureImperfect { combatInitiative(input: {pool: "IV-2", '
             "dice: {values: [8, 2, 38, 22, 2]}}) { cardsDrawn kept { step } } } }")  # fmt: skip
    assert graphql(client, query)["combatInitiative"] == {
        "cardsDrawn": 3, "kept": [{"step": 10}, {"step": 6}]}  # fmt: skip


def test_impulse_14_is_step_4_fragment_2_over_both_protocols(client):
    """Issue 19, FI:L157: "until the 14th impulse (during the 4th step)"."""
    card = post(client, "/combat/timing/impulse", {"impulse": 14})["card"]
    assert (card["step"], card["fragment"]) == (4, 2)
    query = ("{ futureImperfect { combatTimingImpulse(input: {impulse: 14}) "
             "{ card { step fragment } } } }")  # fmt: skip
    assert graphql(client, query)["combatTimingImpulse"]["card"] == {"step": 4, "fragment": 2}


def test_initiative_odds_over_both_protocols(client):
    """T4: Reflex I-1 draws 0, 1 or 2 cards 25%, 25%, 43.75% of the time (7/16: an open-ended
    d4 ending on 3, 5, 6 or 7, below the first bump at 8)."""
    rows = post(client, "/combat/initiative/odds", {"pool": "I-1"})["cards_drawn"]
    assert [Fraction(r["exact"]) for r in rows[:3]] == [Fraction(1, 4), Fraction(1, 4),
                                                        Fraction(7, 16)]  # fmt: skip
    query = ('{ futureImperfect { combatInitiativeOdds(input: {pool: "I-1"}) '
             "{ cardsDrawn { outcome exact } } } }")  # fmt: skip
    over_graphql = graphql(client, query)["combatInitiativeOdds"]["cardsDrawn"]
    assert over_graphql == [{"outcome": r["outcome"], "exact": r["exact"]} for r in rows]


# Future Imperfect part 2, harm (issue 19): damage and wounds over both protocols.


def test_hrulfgarrs_vibro_knife_totals_8_over_rest_and_graphql(client):
    """FI:L522: Strength 2(3) shows 4 and 7, the knife 2(2) 2 and 2: 4 + min(7, 4) = 8."""
    body = {"weapon": "2(2)", "strength": "2(3)", "dice": {"values": [4, 7, 2, 2]}}
    found = post(client, "/combat/damage/hand-to-hand", body)
    assert (found["total"], found["strength_added"], found["wounds"]) == (8, 4, 1)
    query = (
        '{ futureImperfect { combatDamageHandToHand(input: {weapon: "2(2)", '
        'strength: "2(3)", dice: {values: [4, 7, 2, 2]}}) { total strengthAdded } } }'
    )
    found = graphql(client, query)["combatDamageHandToHand"]
    assert found == {"total": 8, "strengthAdded": 4}


def test_a_15_point_bottle_to_a_size_6_head_is_6_ct_and_1_wound(client):
    """FI:L548: nonlethal, 3 CT a would-be level and a wound every full 2."""
    found = post(client, "/combat/damage/nonlethal", {"total": 15, "size": 6})
    assert (found["ct_loss"], found["wounds"], found["levels"]) == (6, 1, 2)
    query = ("{ futureImperfect { combatDamageNonlethal(input: {total: 15, size: 6}) "
             "{ ctLoss wounds } } }")  # fmt: skip
    assert graphql(client, query)["combatDamageNonlethal"] == {"ctLoss": 6, "wounds": 1}


def test_wound_odds_and_the_penetration_option_over_both_protocols(client):
    """T7 (2(2) to the head is 4(2): P(>=2 wounds) 78.9%) and E-22 (A-56)."""
    found = post(client, "/combat/damage/odds", {"code": "2(2)", "region": "head"})
    assert round(found["wounds_at_least"][1]["probability"]["float"], 3) == 0.789
    query = ('{ futureImperfect { armorPenetration(input: {column: 2, pn: 2, armor: [1], '
             "options: {penetrationModel: FLAT_AV}}) { column } } }")  # fmt: skip
    assert graphql(client, query)["armorPenetration"] == {"column": 1}
    assert post(client, "/armor/penetration", {"column": 2, "pn": 2, "armor": [1]})["column"] == 2


def test_a_shift_beyond_the_bumps_is_a_422_naming_it(client):
    """FI:L446: each bump moves the location roll one."""
    response = client.post(BASE + "/combat/hit-location",
                           json={"bumps": 1, "shift": 3, "dice": {"values": [5]}})  # fmt: skip
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/shift"


# Issue 19: ranged and melee combat and defense.


def test_violet_s_12_against_tn_6_hits_twice(client):
    """FI:L299: a success and a bump, 2 hits, over REST (a burst and the automatic routine)
    and GraphQL alike."""
    dice = {"values": [10, 2, 3, 4]}
    burst = post(client, "/combat/ranged/attack",
                 {"pool": "IV-3", "tn": 6, "fire": "burst", "dice": dice})  # fmt: skip
    assert (burst["shots"][0]["check"]["en"], burst["hits"]) == (12, 2)
    auto = post(client, "/combat/automatic", {"pool": "IV-3", "tn": 6, "dice": dice})
    assert auto["hits"] == 2
    query = ('{ futureImperfect { combatAutomatic(input: {pool: "IV-3", tn: 6, '
             "dice: {values: [10, 2, 3, 4]}}) { hits targets { check { en } } } } }")  # fmt: skip
    found = graphql(client, query)["combatAutomatic"]
    assert (found["hits"], found["targets"][0]["check"]["en"]) == (2, 12)


def test_hrulfgarr_closes_over_both_protocols(client):
    """FI:L403: the close at TN 8 succeeds on an 8; then 7 and 9."""
    closing = post(client, "/combat/melee/close",
                   {"pool": "IV-3", "defender_level": 2, "attacker": {"unarmed": True},
                    "defender": {"db": 1}, "dice": {"values": [8, 2, 5]}})  # fmt: skip
    assert (closing["tn"], closing["closed"]) == (8, "attacker_inside")
    query = ('{ futureImperfect { combatMeleeAttack(input: {pool: "III-2", defenderLevel: 3, '
             'attacker: {db: 1}, defender: {unarmed: true}, closed: DEFENDER_INSIDE, '
             "dice: {values: [3, 3]}}) { tn strengthAdds } } }")  # fmt: skip
    assert graphql(client, query)["combatMeleeAttack"] == {"tn": 9, "strengthAdds": False}


def test_bystander_odds_over_both_protocols(client):
    """T13: a d20 check hits a bystander 1 time in 20, a spray 1 in 10 (A-49)."""
    rest = post(client, "/combat/unintended-targets/odds",
                {"missed_rounds": 1, "bystanders": 1, "spray": True})  # fmt: skip
    assert rest["check"]["exact"] == "1/10"
    query = ("{ futureImperfect { combatUnintendedTargetsOdds(input: {missedRounds: 1, "
             "bystanders: 1}) { check { exact } } } }")  # fmt: skip
    assert graphql(client, query)["combatUnintendedTargetsOdds"]["check"]["exact"] == "1/20"


def test_a_throw_beyond_the_strength_range_is_a_422_naming_the_distance(client):
    """FI:L367-371: Kayla's Strength 3d6 throws 30 m at most."""
    response = client.post(BASE + "/combat/throw",
                           json={"pool": "II-3", "distance": 31, "strength": "3d6"})  # fmt: skip
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/distance"
