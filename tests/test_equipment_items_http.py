"""FORESIGHT items over REST and GraphQL as a new user meets them: issue 24's acceptance checks
(failure ranges, item modifications, tech levels, units, size words). Seed lines are cited as
F:L<n>; X and Q ids are the catalogue's (foresight-2.md)."""

from functools import partial

from tests import http

BASE = "/v1/foresight"

post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="foresight")


def test_x40_one_kilogram_is_2_2_pounds(client):
    """X40, F:L3506: "multiply by two and add ten percent": 1 kg is 2.2 lb, exactly."""
    found = post(client, "/units/convert", {"amount": 1, "unit": "kg"})
    assert (found["converted"]["exact"], found["to"]) == ("11/5", "lb")
    found = graphql(
        client,
        """{ foresight { unitsConvert(input: {amount: 1, unit: KG}) {
        converted { exact float } to } } }""",
    )
    assert found["unitsConvert"] == {"converted": {"exact": "11/5", "float": 2.2}, "to": "LB"}


def test_svu_to_dollars(client):
    """F:L3554: a svu was about US$6 when the book was written."""
    found = post(client, "/units/convert", {"amount": 250, "unit": "svu"})
    assert (found["converted"]["exact"], found["to"]) == ("1500/1", "usd")


def test_q10_failure_odds_and_a_starred_check(client):
    """Q10: B fails 1 use in 1000; on a 99 its D10 decides (F:L3585): a 10 fails."""
    odds = post(client, "/item/failure-check/odds", {"failure_range": "B"})
    assert odds["failure_probability"]["exact"] == "1/1000"
    assert {row["outcome"]: row["exact"] for row in odds["failed"]} == {
        "true": "1/1000", "false": "999/1000"
    }  # fmt: skip
    body = {"failure_range": "B", "roll": 99, "dice": {"values": [10]}, "outcome_odds": True}
    found = post(client, "/item/failure-check", body)
    assert (found["failed"], found["follow_up_d10"], found["name"]) == (True, 10, "Very Reliable")
    assert found["outcome_odds"][0]["probability"]["exact"] == "1/10"
    found = graphql(
        client,
        """{ foresight { itemFailureCheck(input: {failureRange: "D", roll: 50}) {
        failed meaning } itemFailureCheckOdds(input: {failureRange: "I"}) {
        failureProbability { exact } } } }""",
    )
    assert found["itemFailureCheck"]["failed"] is True
    assert found["itemFailureCheckOdds"]["failureProbability"]["exact"] == "1/2"


def test_a_failure_check_rolls_the_task_d100_when_not_given(client):
    """With no roll, the operation rolls the D100 itself (a seed replays it)."""
    found = post(client, "/item/failure-check", {"failure_range": "F", "dice": {"seed": 5}})
    (die,) = found["rolls"]
    assert (die["sides"], die["value"]) == (100, found["roll"])
    assert found["failed"] == (found["roll"] % 10 == 5)


def test_shift_letters_and_numbers(client):
    """F:L3589: Average D one better is Reliable C; '98-99' one worse is '97-99' (AMB2-38,
    echoed in options_applied), refused when the caller asks."""
    found = post(client, "/item/failure-range/shift", {"failure_range": "D", "steps": 1})
    assert (found["after"], found["name"]) == ("C", "Reliable")
    found = post(client, "/item/failure-range/shift", {"failure_range": "98-99", "steps": -1})
    assert found["after"] == "97-99"
    assert found["options_applied"] == {"numeric_failure_shift": "low_end"}
    body = {"failure_range": "98-99", "steps": 1, "options": {"numeric_failure_shift": "refuse"}}
    response = client.post(BASE + "/item/failure-range/shift", json=body)
    assert response.status_code == 422
    assert "failure_range" in response.text
    found = graphql(
        client,
        """{ foresight { itemFailureRangeShift(input: {failureRange: "B", steps: -2,
        options: {numericFailureShift: LOW_END}}) { after failureRolls } } }""",
    )
    assert found["itemFailureRangeShift"] == {"after": "D", "failureRolls": "Any roll of 50, or 99"}


def test_x39_elegant_modern_flashy_chronometer(client):
    """X39, F:L3616: the modifications stack: price x 4 x 0.6 x 1.5 = 3.6, size 0.792,
    TL +0.35, one letter more reliable."""
    body = {"item": {"size_class": "tiny", "weight_kg": 0.05, "tl": 5.5, "price_svu": 10,
                     "fail": "C"}, "modifications": ["elegant", "modern", "flashy"]}  # fmt: skip
    found = post(client, "/item/modify", body)
    assert found["price_multiplier"]["exact"] == "18/5"
    assert found["size_multiplier"]["exact"] == "99/125"
    assert found["item"]["price_svu"]["exact"] == "36/1"
    assert (found["item"]["fail"], found["item"]["tl"]["exact"]) == ("B", "117/20")
    found = graphql(
        client,
        """{ foresight { itemModify(input: {item: {priceSvu: 10, fail: "C"},
        modifications: [ELEGANT, MODERN, FLASHY]}) { item { priceSvu { exact } fail }
        steps { modification column change } } } }""",
    )
    assert found["itemModify"]["item"] == {"priceSvu": {"exact": "36/1"}, "fail": "B"}
    assert found["itemModify"]["steps"][0] == {
        "modification": "ELEGANT", "column": "size_m", "change": "x0.9"
    }  # fmt: skip


def test_x29_tech_levels(client):
    """X29, F:L3540-3542: the typewriter of 1878 is "4.4 or so" (4.39 between TL 4's 1800 and
    TL 4.5's 1900); the repeating rifle keeps the weapon table's 4.25 and the answer notes the
    text's 4.35 (AMB2-39)."""
    found = post(client, "/tech-level/lookup", {"year": 1878})
    assert found["estimated_tl"]["exact"] == "439/100"
    assert found["row"]["description"] == "Industrial Revolution"
    assert "4.35" in found["note"]
    found = graphql(
        client,
        """{ foresight { techLevelLookup(input: {tl: 5.5}) { row { date description
        keyTechnology } next { tl } } } }""",
    )
    assert found["techLevelLookup"]["row"]["description"] == "Information Age"
    assert found["techLevelLookup"]["next"] == {"tl": 6.0}


def test_tech_level_needs_one_question(client):
    response = client.post(BASE + "/tech-level/lookup", json={"tl": 4, "year": 1800})
    assert response.status_code == 422
    assert "tl" in response.text


def test_size_words(client):
    """F:L3502: luggable is briefcase sized."""
    found = post(client, "/item/size-class", {"size": "luggable"})
    assert found["sizes"] == [
        {"size": "luggable", "order": 3, "like": "briefcase sized", "source": "F:L3502"}
    ]
    found = graphql(client, "{ foresight { itemSizeClass(input: {}) { sizes { size like } } } }")
    assert found["itemSizeClass"]["sizes"][0] == {"size": "TINY", "like": "the size of a coin"}


def test_tables_are_served(client):
    """The tables as data: GET /v1/foresight/tables/<name>."""
    for name, rows in (("item-modifications", 11), ("tech-levels", 18), ("item-sizes", 5)):
        response = client.get(f"{BASE}/tables/{name}")
        assert response.status_code == 200, name
        assert len(response.json()["rows"]) == rows


def test_bad_input_names_the_field(client):
    response = client.post(BASE + "/item/failure-check", json={"failure_range": "Z"})
    assert response.status_code == 422
    assert "failure_range" in response.text
    response = client.post(BASE + "/item/modify", json={"modifications": ["gold_plated"]})
    assert response.status_code == 422
    assert "modifications" in response.text
