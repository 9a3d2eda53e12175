"""FORESIGHT travel and pursuit over HTTP and GraphQL as a new user meets it: issue 24's
acceptance checks. Seed lines are cited as F:L<n>."""

from functools import partial

from tests import http

post = partial(http.post, base="/v1/foresight")
graphql = partial(http.graphql, system="foresight")


def test_x28_two_cars_at_range_2_bidding_minus_1_and_0_end_at_range_3(client):
    """X28, F:L3446: the acceptance check, over REST and GraphQL; 100 m at car scale."""
    body = {"quarry_bid": -1, "pursuers": [{"name": "second car", "bid": 0, "range": 2}]}
    found = post(client, "/pursuit/speed-bid", body)
    assert found["pursuers"] == [
        {"name": "second car", "range": 3, "change": 1, "lost_contact": False, "closed": False}
    ]
    assert found["options_applied"] == {"range_steps_per_bid_point": 1}
    found = graphql(
        client,
        """{ foresight { pursuitSpeedBid(input: {quarryBid: -1, pursuers: [{bid: 0, range: 2}]})
        { pursuers { range change } } pursuitRangeTable(input: {scale: CAR_BOAT, range: 3})
        { distance distanceM roundLengthS } } }""",
    )
    assert found["pursuitSpeedBid"]["pursuers"] == [{"range": 3, "change": 1}]
    assert found["pursuitRangeTable"] == {"distance": "100m", "distanceM": 100, "roundLengthS": 10}


def test_the_space_ranges_are_answered_over_graphql(client):
    """5Mkm and 50Mkm (F:L3425-3426) are 5e9 and 5e10 m, past a 32-bit GraphQL Int."""
    found = graphql(
        client,
        """{ foresight { five: pursuitRangeTable(input: {scale: SPACE, range: 5}) { distanceM }
        six: pursuitRangeTable(input: {scale: SPACE, range: 6}) { distanceM } } }""",
    )
    assert found == {"five": {"distanceM": 5e9}, "six": {"distanceM": 5e10}}


def test_a_bid_over_plus_2_is_a_422_naming_the_field(client):
    """F:L3442: a speed bid is no greater than +2."""
    body = {"quarry_bid": 3, "pursuers": [{"bid": 0, "range": 2}]}
    answer = client.post("/v1/foresight/pursuit/speed-bid", json=body)
    assert answer.status_code == 422
    assert "quarry_bid" in answer.text


def test_a_leg_over_rest_and_graphql(client):
    """Score 12 at BEF 5 (SC 60) rolls 23, QR3: Cruise 60 km/h; a WP 6 driver covers 360 km
    of 500 in 6 h (F:L3350-3354)."""
    body = {
        "driving": {"task": {"score": 12, "bef": 5}},
        "cruise_kmh": 60,
        "max_kmh": 100,
        "distance_km": 500,
        "driver_wp": 6,
        "dice": {"values": [23]},
    }
    found = post(client, "/travel/leg", body)
    assert (found["qr"], found["average_speed_kmh"]["float"]) == (3, 60.0)
    assert (found["distance_covered_km"]["exact"], found["time_h"]["exact"]) == ("360/1", "6/1")
    assert found["rolls"][0]["value"] == 23
    found = graphql(
        client,
        """{ foresight { travelLeg(input: {driving: {task: {score: 12, bef: 5}}, cruiseKmh: 60,
        maxKmh: 100, distanceKm: 500, driverWp: 6, dice: {values: [23]}})
        { qr averageSpeedKmh { exact } distanceCoveredKm { float } completed } } }""",
    )
    assert found["travelLeg"] == {
        "qr": "QR3",
        "averageSpeedKmh": {"exact": "60/1"},
        "distanceCoveredKm": {"float": 360.0},
        "completed": False,
    }


def test_hasty_odds_are_q14(client):
    """Catalogue Q14, hasty at SC 60 (Automobile 60/100): P(mishap) 0.40, E[speed] 73.00."""
    body = {
        "driving": {"task": {"score": 20, "bef": 3}},
        "cruise_kmh": 60,
        "max_kmh": 100,
        "distance_km": 500,
    }
    found = post(client, "/travel/hasty/odds", body)
    assert found["mishap"]["exact"] == "2/5"
    assert found["mean_speed_kmh_given_no_mishap"]["exact"] == "73/1"
    assert [row["outcome"] for row in found["speed_kmh"]] == ["100", "90", "80", "60", "mishap"]
    found = graphql(
        client,
        """{ foresight { travelHastyOdds(input: {driving: {task: {score: 20, bef: 3}},
        cruiseKmh: 60, maxKmh: 100, distanceKm: 500}) { mishap { exact } } } }""",
    )
    assert found["travelHastyOdds"]["mishap"]["exact"] == "2/5"


def test_hasty_serious_mishap_calls_for_an_accident_roll_at_man_minus_3(client):
    """F:L3370: a hasty QR10, given as rolled at the table."""
    body = {"driving": {"qr": 10}, "cruise_kmh": 60, "max_kmh": 100, "distance_km": 50, "man": 0}
    found = post(client, "/travel/hasty", body)
    assert found["mishap"] is True
    assert found["accident_roll"]["serious"] is True
    assert found["accident_roll"]["modifier"] == -3


def test_navigation_lost_on_qr10(client):
    """F:L3348: QR10 for navigation: lost."""
    found = graphql(
        client,
        """{ foresight { travelNavigation(input: {navigation: {qr: QR10}, driving: {qr: QR3}})
        { qr lost } } }""",
    )
    assert found["travelNavigation"] == {"qr": "QR3", "lost": True}


def test_type_conversion_option_over_graphql(client):
    """AMB2-35: Water -> Space Safe +6 as printed (F:L3401), +7 when 'consistent'."""
    found = graphql(
        client,
        """{ foresight { a: pursuitTypeConversion(input: {convertFrom: WATER,
        convertTo: SPACE}) { acc man safe category }
        b: pursuitTypeConversion(input: {convertFrom: WATER, convertTo: SPACE,
        options: {conversionTable: CONSISTENT}}) { safe } } }""",
    )
    assert found["a"] == {"acc": -7, "man": 3, "safe": 6, "category": "Spacecraft"}
    assert found["b"] == {"safe": 7}


def test_operate_over_the_safe_speed_with_a_failed_roll_needs_two_safety_rolls(client):
    """F:L3463, AMB2-46: a failed driving roll and a bid below Safe, two safety rolls, each
    at +(bid - Safe) = -2."""
    body = {
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": -2,
        "safe": 0,
        "dice": {"values": [95]},
    }
    found = post(client, "/pursuit/operate", body)
    assert found["safety_roll_count"] == 2
    assert [r["modifier"] for r in found["safety_rolls"]] == [-2, -2]
    odds = post(client, "/pursuit/operate/odds", {k: v for k, v in body.items() if k != "dice"})
    assert {row["outcome"] for row in odds["safety_roll_count"]} == {"1", "2"}


def test_force_at_range_1_is_a_422(client):
    """F:L3464: the target must be at range 0."""
    body = {
        "driving": {"qr": 3},
        "bid": 0,
        "vehicle": {"size": 0, "ds": 3},
        "target": {"size": 0, "ds": 3},
        "range": 1,
    }
    answer = client.post("/v1/foresight/pursuit/force", json=body)
    assert answer.status_code == 422
    assert "/range" in answer.text


def test_reverse_and_climb_over_graphql(client):
    """F:L3469: a successful reverse puts range 0, +3 a round; F:L3471: a QR1 dive gains one
    horizontal increment and two vertical."""
    found = graphql(
        client,
        """{ foresight { pursuitReverse(input: {driving: {qr: QR2}, bid: 0, range: 5})
        { newRange driftPerRound safetyRollCount }
        pursuitClimbDive(input: {driving: {qr: QR1}, bid: -1, direction: DIVE})
        { horizontalIncrements verticalIncrements } } }""",
    )
    assert found["pursuitReverse"] == {"newRange": 0, "driftPerRound": 3, "safetyRollCount": 0}
    assert found["pursuitClimbDive"] == {"horizontalIncrements": 1, "verticalIncrements": 2}


def test_the_pursuit_tables_are_served_as_data(client):
    """The range table and the type conversion as transcribed (F:L3419-3428, F:L3398-3403)."""
    found = client.get("/v1/foresight/tables/pursuit-ranges")
    assert found.status_code == 200, found.text
    assert found.json()["rows"][3]["space"] == "50,000km"
    found = client.get("/v1/foresight/tables/pursuit-type-conversion")
    assert found.status_code == 200, found.text
    assert len(found.json()["rows"]) == 12
