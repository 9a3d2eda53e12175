"""FORESIGHT close-range grappling over REST and GraphQL as a new user meets it (issue 23):
pins and what follows them, strangles, trips, entangling, grabs and throws. Seed lines are
cited as F:L<n>."""

from functools import partial

from tests import http

BASE = "/v1/foresight"

post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="foresight")


def test_x25_dragon_trip_needs_an_advantage_of_5(client):
    """X25, F:L3240: a four-legged dragon the attacker cannot drag; QR2 against QR7 is
    advantage 5, prone under the defaults (numeric, non-cumulative: AMB2-19, AMB2-20)."""
    body = {"attack": {"qr": 2}, "footing": {"qr": 7}, "legs": 4, "cannot_drag": True,
            "dice": {"seed": 3}}  # fmt: skip
    found = post(client, "/melee/trip", body)
    assert (found["outcome"], found["prone_at"], found["advantage"]) == ("prone", 5, 5)
    assert found["options_applied"]["trip_lift_drag_cumulative"] is False
    assert found["options_applied"]["qr_difference_mode"] == "numeric"
    found = graphql(
        client,
        """{ foresight { meleeTrip(input: {attack: {qr: QR2}, footing: {qr: QR7}, legs: 4,
        cannotDrag: true, options: {tripLiftDragCumulative: true}, dice: {seed: 3}}) {
        outcome kneelingAt proneAt } } }""",
    )
    assert found["meleeTrip"] == {"outcome": "KNEELING", "kneelingAt": 5, "proneAt": 6}


def test_six_legs_cannot_be_tripped(client):
    """F:L3240: 'not practical' is refused, naming the field."""
    response = client.post(f"{BASE}/melee/trip", json={"attack": {"qr": 1},
                           "footing": {"qr": 10}, "legs": 6, "dice": {"seed": 1}})  # fmt: skip
    assert response.status_code == 422
    assert "legs" in response.text


def test_trip_odds_q11_row(client):
    """Catalogue Q11, SC 60 against 40, extra 1 (cannot lift): P(prone) 0.3720 numeric."""
    body = {"attack": {"task": {"score": 12, "bef": 6}},
            "footing": {"task": {"score": 8, "bef": 5}}, "cannot_lift": True}  # fmt: skip
    rows = {r["outcome"]: r["float"] for r in post(client, "/melee/trip/odds", body)["outcome"]}
    assert round(rows["prone"], 4) == 0.3720
    assert round(rows["prone"] + rows["kneeling"], 4) == 0.3912


def test_pin_with_capture_and_the_contest_that_follows(client):
    """F:L3201-3203: -2 specific arm and +2 Capture; F:L3221: pinner one better immobilises."""
    body = {"attack": {"task": {"score": 12, "bef": 5}}, "capture_field": True,
            "dice": {"values": [5]}}  # fmt: skip
    found = post(client, "/melee/pin", body)
    assert found["pinned"]
    assert found["blow"]["final"]["qr"] == 1
    assert {m["source"] for m in found["blow"]["attack"]["modifiers"]} == {
        "striking at a specific arm", "Unarmed Combat Capture field"}  # fmt: skip
    contest = post(client, "/melee/pin-contest", {"pinner": {"qr": 3}, "pinned": {"qr": 4},
                                                   "dice": {"seed": 1}})  # fmt: skip
    assert contest["outcome"] == "immobilised"
    found = graphql(
        client,
        """{ foresight { meleePinContest(input: {pinner: {qr: QR4}, pinned: {qr: QR1},
        dice: {seed: 1}}) { outcome effect } } }""",
    )
    assert found["meleePinContest"] == {"outcome": "BROKEN", "effect": "the pin is broken"}


def test_pin_contest_odds_over_graphql(client):
    """Both ST rolls at the attribute BEF 7: the outcomes add up to 1."""
    found = graphql(
        client,
        """{ foresight { meleePinContestOdds(input: {pinner: {task: {score: 10}},
        pinned: {task: {score: 10}}, options: {qrDifferenceMode: NOTCH}}) {
        outcome { outcome float } } } }""",
    )
    rows = found["meleePinContestOdds"]["outcome"]
    assert abs(sum(r["float"] for r in rows) - 1) < 1e-9
    assert {r["outcome"] for r in rows} == {
        "restrained", "immobilised", "tie", "limb_at_minus_4", "broken"}  # fmt: skip


def test_pin_fall_and_defensive_pin(client):
    """F:L3213 both wishing to go prone: the ST winner on top; F:L3211 -6 when the firer
    dodged and was pinned all the same."""
    found = post(
        client,
        "/melee/pin-fall",
        {"wish": "both_prone", "pinner": {"qr": 4}, "pinned": {"qr": 2}, "dice": {"seed": 1}},
    )
    assert (found["outcome"], found["on_top"]) == ("pinned_on_top", "pinned")
    found = graphql(
        client,
        """{ foresight { meleeDefensivePin(input: {pin: {qr: QR2}, against: FIRE,
        firerDodge: {qr: QR7}, dice: {seed: 1}}) { held fireModifier } } }""",
    )
    assert found["meleeDefensivePin"] == {"held": True, "fireModifier": -6}


def test_strangle_breath_and_armor(client):
    """F:L3250, F:L2749: EN 10 holds breath 50 s; a full suit stopping the UCDC makes the
    strangle ineffective."""
    body = {"attack": {"qr": 3}, "endurance": 10, "dice": {"seed": 1},
            "armor": {"ucdc": 2, "armor": [{"rating": "4"}]}}  # fmt: skip
    found = post(client, "/melee/strangle", body)
    assert (found["held"], found["effective"], found["breath_limit_s"]) == (True, False, 50)
    found = graphql(
        client,
        """{ foresight { meleeStrangle(input: {attack: {qr: QR3}, endurance: 10,
        prepared: true, dice: {seed: 1}}) { held effective breathLimitS } } }""",
    )
    assert found["meleeStrangle"] == {"held": True, "effective": True, "breathLimitS": 100}


def test_entangle_grab_and_throw(client):
    """F:L3242 difference 2: prone, two concentrate actions; F:L3243 a sword needs two;
    F:L3249 a better dodge throws 3 m."""
    found = post(
        client, "/melee/entangle", {"attack": {"qr": 2}, "footing": {"qr": 4}, "dice": {"seed": 1}}
    )
    assert (found["outcome"], found["concentrate_actions"]) == ("prone", 2)
    found = graphql(
        client,
        """{ foresight { meleeGrab(input: {attack: {qr: QR3}, attackerStrength: {qr: QR3},
        holderStrength: {qr: QR4}, handleOnly: true, dice: {seed: 1}}) { outcome } } }""",
    )
    assert found["meleeGrab"]["outcome"] == "KEPT"
    found = post(
        client,
        "/melee/throw",
        {"mode": "dodge", "attack": {"qr": 4}, "defense": {"qr": 2}, "dice": {"seed": 1}},
    )
    assert (found["thrown"], found["distance_m"], found["fall_dc"]["exact"]) == (True, 3, "2/1")


def test_rolls_report_their_odds(client):
    """outcome_odds: how likely the trip's outcome was, from the same odds table."""
    body = {"attack": {"task": {"score": 12, "bef": 6}}, "footing": {"task": {"score": 10}},
            "dice": {"seed": 5}, "outcome_odds": True}  # fmt: skip
    found = post(client, "/melee/trip", body)
    entry = next(e for e in found["outcome_odds"] if e["distribution"] == "/outcome")
    assert entry["outcome"] == found["outcome"]
