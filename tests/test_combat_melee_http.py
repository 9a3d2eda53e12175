"""Melee combat over REST and GraphQL as a new user meets it: a sword attack with its
modifiers shown, a parry and a dodge, a defence against an attack with its exact odds,
disarms, knockouts, knockbacks, weapons and their strength. Seed lines are cited as F:L<n>."""

from fractions import Fraction

from tests.http import graphql, post

BASE = "/v1/foresight"
LONGSWORD = {"name": "Sabre/Longsword", "normal": {"pm": 1, "dc": "+4m"}, "parry": 1, "draw": 3,
             "mass_kg": 1.25}  # fmt: skip
HTH = {"score": 12, "bef_formula": {"term": "G", "plus": 0, "familiarity": 3}}


def test_a_sword_attack_shows_every_modifier(client):
    """HTH Combat at BEF G (3), the longsword's +1 at normal range, a second attack with it
    this round -2, a stunned defender +1 (F:L3022, F:L3124-3149): EF 3, SC 36; 17 is QR3."""
    found = post(client, "/melee/attack", {
        "task": HTH, "use": {"weapon": LONGSWORD, "strength": 9}, "attacks_made": 1,
        "situations": [{"situation": "defender_stunned"}], "dice": {"values": [17]},
    })  # fmt: skip
    assert [(m["source"], m["value"]) for m in found["modifiers"]] == [
        ("Sabre/Longsword PM (normal)", 1),
        ("Defender is stunned", 1),
        ("earlier attacks with this weapon (1)", -2),
    ]
    assert (found["success_chance"], found["qr"]) == (36, 3)
    assert (found["weapon"]["dc"]["exact"], found["weapon"]["dc_written"]) == ("6/1", "6m")
    assert found["options_applied"]["ucdc_rounding"] == "nearest_half_up"


def test_a_weapon_at_a_range_it_cannot_strike_is_a_422(client):
    """'-' in the Mêlée Weapons table (F:L3745): a longsword has no close range; long range
    (3 m) is not supported (AMB2-42)."""
    body = {"task": HTH, "use": {"weapon": LONGSWORD, "strength": 9, "range": "close"}}
    response = client.post(BASE + "/melee/attack", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/use/range"
    body["use"]["range"] = "long"
    response = client.post(BASE + "/melee/attack", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/use/range"


def test_a_situation_outside_its_range_is_a_422(client):
    """'Defender is moving quickly' is -1 to -3 (F:L3141)."""
    body = {"task": HTH, "use": {"weapon": LONGSWORD, "strength": 9},
            "situations": [{"situation": "defender_moving_quickly", "modifier": -4}]}  # fmt: skip
    response = client.post(BASE + "/melee/attack", json=body)
    assert response.status_code == 422
    error = response.json()["errors"][0]
    assert error["pointer"] == "/situations/0/modifier"
    assert "-1 to -3" in error["detail"]


def test_a_parry_from_behind_is_refused(client):
    """'Cannot Parry!' (F:L3162): there is no parry to roll; the attack goes undefended."""
    body = {"task": {"score": 12, "bef": 3}, "use": {"weapon": LONGSWORD, "strength": 9},
            "situations": [{"situation": "attacker_behind"}]}  # fmt: skip
    response = client.post(BASE + "/melee/parry", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/situations/0/situation"


def test_parry_against_a_heavier_blow(client):
    """The attacker's DC 9 against the longsword's 6: -(3/2) rounds to -2 (F:L3161); a
    second parry this round -2 (F:L3170)."""
    found = post(client, "/melee/parry", {
        "task": {"score": 12, "bef": 3}, "use": {"weapon": LONGSWORD, "strength": 9},
        "attacker_dc": 9, "parries_made": 1, "dice": {"values": [8]},
    })  # fmt: skip
    assert found["modifier_total"] == 1 - 2 - 2
    assert (found["success_chance"], found["qr"], found["defender_dc"]) == (6, 7, 6)


def test_the_defence_odds_are_q6(client):
    """Catalogue Q6: SC 50 against SC 50, P(hit) 0.3525 = 141/400, 0.3300 without the
    botched-defence boost (AMB2-18)."""
    body = {"attack": {"task": {"score": 10, "bef": 5}},
            "defense": {"task": {"score": 10, "bef": 5}}}  # fmt: skip
    found = post(client, "/melee/defense-resolve/odds", body)
    assert found["hit"]["exact"] == "141/400"
    body["options"] = {"defense_botch_helps_attack": False}
    found = post(client, "/melee/defense-resolve/odds", body)
    assert found["hit"]["exact"] == "33/100"
    assert found["options_applied"]["defense_botch_helps_attack"] is False


def test_a_rolled_defence_knows_how_likely_it_was(client):
    found = post(client, "/melee/defense-resolve", {
        "attack": {"task": {"score": 14, "bef": 5}}, "defense": {"task": {"score": 12, "bef": 4}},
        "dice": {"values": [23, 31]}, "outcome_odds": True,
    })  # fmt: skip
    final = next(e for e in found["outcome_odds"] if e["distribution"] == "/final/qr")
    assert final["outcome"] == "QR4"
    assert Fraction(final["probability"]["exact"]) > 0


def test_graphql_disarm_x26b(client):
    """X26b (F:L3247): an attack to disarm QR2 against a parry to disarm QR3: no damage,
    the defender's sword is lost."""
    found = graphql(
        client,
        """{ foresight { meleeDisarm(input: {
        attack: {qr: QR2, disarm: true}, parry: {qr: QR3, disarm: true}}) {
        damage defenderDisarmed attackerDisarmed final { qr } } } }""",
    )
    assert found["meleeDisarm"] == {"damage": False, "defenderDisarmed": "LOST",
                                    "attackerDisarmed": "NO", "final": {"qr": "QR4"}}  # fmt: skip


def test_graphql_min_strength_x32(client):
    """X32 (F:L3730): a 4 kg briefcase at ST 7: ST 20 one-handed (-5), 12 two-handed (-2)."""
    found = graphql(
        client,
        """{ foresight {
        one: weaponMinStrength(input: {massKg: 4, strength: 7}) {
          penalty strengthRequired { exact } }
        two: weaponMinStrength(input: {massKg: 4, twoHanded: true, strength: 7}) { penalty } } }""",
    )
    assert found["one"] == {"penalty": -5, "strengthRequired": {"exact": "20/1"}}
    assert found["two"] == {"penalty": -2}


def test_graphql_attack_and_rest_agree(client):
    body = {"task": {"score": 12, "bef": 3}, "use": {"weapon": LONGSWORD, "strength": 9},
            "aim": "head", "dice": {"seed": 5}}  # fmt: skip
    rest = post(client, "/melee/attack", body)
    found = graphql(
        client,
        """{ foresight { meleeAttack(input: {
        task: {score: 12, bef: 3}, aim: HEAD, dice: {seed: 5},
        use: {strength: 9, weapon: {name: "Sabre/Longsword", normal: {pm: 1, dc: "+4m"},
              parry: 1, draw: 3, massKg: 1.25}}}) {
        roll qr successChance modifiers { source value } } } }""",
    )["meleeAttack"]
    assert found["roll"] == rest["roll"]
    assert found["successChance"] == rest["success_chance"] == 6  # EF 3, -3 rungs: 0.5
    assert [(m["source"], m["value"]) for m in found["modifiers"]] == [
        ("Sabre/Longsword PM (normal)", 1),
        ("Attacker is aiming for the head", -4),
    ]


def test_knockout_and_knockback(client):
    """A QR2 knockout blow with DC 4 would wound: unconscious (F:L3241). A QR1 knockback of
    DC 5 would do 3 wound levels against DS 1: pushed 2 m, and the AG roll's QR7 kneels
    (F:L3248)."""
    blow = {"damage_class": "+2m", "ucdc": 2}
    found = post(client, "/melee/knockout", {"attack": {"qr": 2}, "blow": blow})
    assert (found["outcome"], found["would_be"]) == ("unconscious", "2")
    found = post(client, "/melee/knockback", {
        "attack": {"qr": 1}, "blow": {"damage_class": "+1m", "ucdc": 4},
        "balance": {"task": {"score": 11}}, "dice": {"values": [95]},
    })  # fmt: skip
    assert (found["pushed_m"], found["stance"], found["range_m"]) == ("2", "kneeling", 0)


def test_strike_variants_and_dodge(client):
    found = graphql(
        client,
        """{ foresight {
        kick: meleeStrikeVariants(input: {variant: KICK}) { pm damageClass }
        meleeDodge(input: {task: {score: 10}, skill: AGILITY, givingGround: DESPERATELY,
                   dice: {values: [23]}}) { successChance qr retreatM } } }""",
    )
    assert found["kick"] == {"pm": -1, "damageClass": "+1m"}
    assert found["meleeDodge"] == {"successChance": 100.0, "qr": "QR3", "retreatM": 2}
