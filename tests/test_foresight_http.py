"""FORESIGHT resolution over HTTP and GraphQL as a new user meets it: the issue's acceptance
checks. Seed lines are cited as F:L<n>; the probability oracles are the catalogue's section 5."""

from fractions import Fraction
from typing import Any

import pytest
from starlette.testclient import TestClient

BASE = "/v1/foresight"
LOCKPICKING = {"score": 14, "bef": 5, "modifiers": [-1, 1]}
SC70 = {"score": 14, "bef": 5}
SC50 = {"score": 10, "bef": 5}
HANDGUNS = {"score": 19, "bef": 3}
DEFAULT_OPTIONS = {
    "sc_rounding": "nearest_half_up",
    "qr_thresholds": "exact",
    "roll_impossible_tasks": False,
    "attribute_bef": 7,
    "twenty_plus_in_sum": True,
    "bef_zero_is_impossible": False,
}


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> Any:
    response = client.post(BASE + path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def get(client: TestClient, path: str) -> Any:
    response = client.get(BASE + path)
    assert response.status_code == 200, response.text
    return response.json()


def graphql(client: TestClient, query: str) -> Any:
    response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200, response.text
    return response.json()


def exact(figure: dict[str, Any]) -> Fraction:
    return Fraction(figure["exact"])


def table(outcomes: list[dict[str, Any]]) -> dict[str, Fraction]:
    return {o["outcome"]: Fraction(o["exact"]) for o in outcomes}


def problem(client: TestClient, path: str, body: dict[str, Any]) -> list[str]:
    response = client.post(BASE + path, json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    return [e["pointer"] for e in response.json()["errors"]]


# REST ------------------------------------------------------------------------------------


def test_amys_lockpicking(client):
    """F:L304-319: BEF 5, -1 tumbler lock, +1 lockpicks, score 14: SC 70; she rolls 32,
    over 70/5 but under 70/2, a QR3."""
    result = post(client, "/resolve", {**LOCKPICKING, "dice": {"values": [32]}})
    assert result["ease_factor"] == 5
    assert result["success_chance"] == 70
    assert (result["roll"], result["qr"]) == (32, 3)
    assert result["quality"]["name"] == "Competent Success"
    assert result["success"] is True
    assert [(r["value"], r["purpose"]) for r in result["rolls"]] == [(32, "D100")]
    assert DEFAULT_OPTIONS.items() <= result["options_applied"].items()


def test_amys_other_rolls(client):
    """F:L323: 36-70 would be QR4; over 70 a failure, QR7, except 80, 90 or 100: QR10."""
    for roll in range(36, 101):
        result = post(client, "/resolve", {**LOCKPICKING, "dice": {"values": [roll]}})
        expected = 4 if roll <= 70 else 10 if roll in (80, 90, 100) else 7
        assert result["qr"] == expected, roll


def test_stun_pistol_success_chance(client):
    """F:L245: handguns BEF 3, -2 range, -2 moving, +1 braced, +1 aimed, +1 balance: EF 2;
    score 17 gives SC 34."""
    chance = post(client, "/success-chance", {"score": 17, "bef": 3,
                                              "modifiers": [-2, -2, 1, 1, 1]})  # fmt: skip
    assert chance["ease_factor"] == 2
    assert chance["success_chance"] == 34


def test_ease_factor_arithmetic(client):
    """F:L254-256: BEF 5 +1 is 6; BEF 4 -5 is 0.25; BEF 6 with +10 and -4 is 12, not 11,
    because the modifiers are summed first."""
    twelve = post(client, "/ease-factor/add", {"bef": 6, "modifiers": [10, -4]})
    assert (twelve["ease_factor"], twelve["clamped"]) == (12, False)
    assert post(client, "/ease-factor/add", {"bef": 4, "modifiers": [-5]})["ease_factor"] == 0.25
    assert post(client, "/ease-factor/add", {"bef": 5, "modifiers": [1]})["ease_factor"] == 6


def test_success_chance_rounds_half_up(client):
    """F:L268: 13 x 0.25 = 3.25 rounds down to 3; with no rounding it stays 3.25."""
    rounded = post(client, "/success-chance", {"score": 13, "bef": 0.25})
    assert rounded["success_chance"] == 3
    assert rounded["success_chance_exact"] == "13/4"
    kept = post(client, "/success-chance",
                {"score": 13, "bef": 0.25, "options": {"sc_rounding": "none"}})  # fmt: skip
    assert kept["success_chance"] == 3.25
    assert kept["options_applied"]["sc_rounding"] == "none"


def test_rolls_of_99_and_100(client):
    """F:L1375-1376: 100 against SC 100 or more is QR7, against less it is QR10; 99 is never
    better than QR4."""
    assert post(client, "/quality-rating", {"roll": 100, "success_chance": 120})["qr"] == 7
    assert post(client, "/quality-rating", {"roll": 100, "success_chance": 70})["qr"] == 10
    assert post(client, "/quality-rating", {"roll": 99, "success_chance": 300})["qr"] == 4


def assert_sc_70(odds: Any) -> None:
    """Catalogue 5.1, SC 70: 7 / 7 / 21 / 35 / 27 / 3 in 100 (F:L323)."""
    assert table(odds["qr"]) == {
        "QR1": Fraction(7, 100), "QR2": Fraction(7, 100), "QR3": Fraction(21, 100),
        "QR4": Fraction(35, 100), "QR7": Fraction(27, 100), "QR10": Fraction(3, 100),
    }  # fmt: skip
    assert exact(odds["summary"]["success"]) == Fraction(7, 10)
    assert exact(odds["summary"]["botch"]) == Fraction(3, 100)


def test_odds_at_sc_70(client):
    """F:L1366-1373 and catalogue 5.1, SC 70: 7 / 7 / 21 / 35 / 27 / 3 in 100."""
    odds = post(client, "/resolve/odds", SC70)
    assert_sc_70(odds)


@pytest.mark.parametrize(
    ("modifiers", "roll", "sc", "qr"),
    [
        ([1, 1], 75, 95, 4),  # F:L1384: over 47.5, under 95
        ([1, -1, 2], 44, 95, 3),  # F:L1386: under 47.5, over 19
        ([1, -2, 2], 78, 76, 7),  # F:L1388: EF 4, SC 76, a narrow miss
        ([1, 1], 4, 95, 1),  # F:L1390: under 9.5, bull's eye
        ([1, -1, 2], 99, 95, 7),  # F:L1390: a 99 misses
        ([1, -2], 19, 38, 3),  # F:L1390: EF 2, exactly half of 38
        ([1, 1], 49, 95, 4),  # F:L1392: just over 47.5
        ([1, -2, 2], 75, 76, 4),  # F:L1392: just barely hits
    ],
)
def test_handgun_qualification(client, modifiers, roll, sc, qr):
    """F:L1384-1392: Amy, handguns 19 at BEF 3, qualifies at the range."""
    result = post(client, "/resolve",
                  {**HANDGUNS, "modifiers": modifiers, "dice": {"values": [roll]}})  # fmt: skip
    assert (result["success_chance"], result["roll"], result["qr"]) == (sc, roll, qr)


def test_who_won(client):
    """F:L1491-1495: QR4 against QR4 is a tie; QR3 against QR3 is broken by the scores, and
    Junkers' higher search score wins."""
    tie = post(client, "/opposed", {"a": {"qr": 4}, "b": {"qr": 4}})
    assert tie["winner"] == "tie"
    assert tie["rolls"] == []
    broken = post(client, "/opposed", {"a": {"qr": 3, "score": 12}, "b": {"qr": 3, "score": 16},
                                       "options": {"tie_policy": "score"}})  # fmt: skip
    assert (broken["winner"], broken["decided_by"]) == ("b", "score")


def test_who_won_odds(client):
    """Catalogue 5.2, SC 70 against SC 50: 0.4755 / 0.2490 / 0.2755 a round; 5.3, ties
    rerolled: A eventually wins 0.6332."""
    body = {"a": {"task": SC70}, "b": {"task": SC50}}
    one_round = post(client, "/opposed/odds", body)["round"]
    assert exact(one_round["a_wins"]) == Fraction(951, 2000)
    assert exact(one_round["tie"]) == Fraction(249, 1000)
    assert exact(one_round["b_wins"]) == Fraction(551, 2000)
    rerolled = post(client, "/opposed/odds", {**body, "options": {"tie_policy": "reroll"}})
    assert round(rerolled["eventual"]["a_wins"]["float"], 4) == 0.6332


def test_pickpocket_blocked(client):
    """F:L1838: the urchin's QR3 pickpocketing, partially blocked by Amy's QR4 perception,
    is a QR4."""
    blocked = post(client, "/blocking-qr", {"attack": {"qr": 3}, "defense": {"qr": 4}})
    assert blocked["effective"]["qr"] == 4


def test_blocking_odds(client):
    """Catalogue 5.4, attack SC 50 against defense SC 50."""
    odds = post(client, "/blocking-qr/odds", {"attack": {"task": SC50}, "defense": {"task": SC50}})
    floats = {o["outcome"]: o["float"] for o in odds["effective"]["qr"]}
    expected = {"QR1": 0.0275, "QR2": 0.0425, "QR3": 0.1, "QR4": 0.1825, "QR7": 0.5975,
                "QR10": 0.05}  # fmt: skip
    assert floats == pytest.approx(expected, abs=1e-12)


def test_qrs_as_modifiers(client):
    """F:L1545-1551: Smith's QR7 gives hackers +3; opposing Anderson's QR2 is -2; building on
    it is +2."""
    for qr, relation, modifier in [(7, "opposing", 3), (2, "opposing", -2),
                                   (2, "cooperating", 2)]:  # fmt: skip
        result = post(client, "/qr-as-modifier", {"qr": qr, "relation": relation})
        assert result["modifier"] == modifier, (qr, relation)


def test_cooperative_follow_up(client):
    """F:L1551: the next hacker builds on Anderson's QR2 with +2."""
    body = {"first": {"qr": 2}, "relation": "cooperating", "follow_up": SC50,
            "dice": {"values": [50]}}  # fmt: skip
    result = post(client, "/cooperative", body)
    assert result["follow_up"]["ease_factor"] == 7
    assert 2 in [m["value"] for m in result["follow_up"]["modifiers"]]
    assert len(result["rolls"]) == 1


def test_attribute_as_skill(client):
    """F:L3304: the sniper's PC 12 is SC 7 x 12 = 84, and 63 is a QR4; F:L3314: the gunman's
    DX 9 is SC 63, and 62 is a QR4."""
    sniper = post(client, "/attribute-as-skill",
                  {"attribute": "PC", "value": 12, "dice": {"values": [63]}})  # fmt: skip
    assert (sniper["success_chance"], sniper["qr"]) == (84, 4)
    gunman = post(client, "/attribute-as-skill",
                  {"attribute": "DX", "value": 9, "dice": {"values": [62]}})  # fmt: skip
    assert (gunman["success_chance"], gunman["qr"]) == (63, 4)


def test_bad_input_names_the_field(client):
    """F:L251: a BEF must be on the ladder; a task has a BEF or a BEF formula, not both; a
    side of a contest is a task or a QR."""
    assert problem(client, "/resolve", {"score": 14, "bef": 0.3}) == ["/bef"]
    formula = {"term": "G", "plus": 2, "familiarity": 0}
    assert problem(client, "/resolve", {"score": 14, "bef": 5, "bef_formula": formula}) == [
        "/bef_formula"
    ]
    assert problem(client, "/resolve", {"score": 100, "bef": 5}) == ["/score"]
    assert problem(client, "/opposed", {"a": {}, "b": {"qr": 4}}) == ["/a"]


def test_tables(client):
    """F:L1511-1519: the blocking table, literally; F:L251: 18 ease factors, 0 to 15."""
    rows = get(client, "/tables/blocking")["rows"]
    columns = ["against_qr1", "against_qr2", "against_qr3", "against_qr4", "against_qr7",
               "against_qr10"]  # fmt: skip
    assert [[row["attack"], *(row[c] for c in columns)] for row in rows] == [
        [1, 7, 4, 3, 2, 1, 1],
        [2, 7, 7, 4, 3, 2, 1],
        [3, 7, 7, 7, 4, 3, 2],
        [4, 7, 7, 7, 7, 4, 3],
        [7, 7, 7, 7, 7, 7, 4],
        [10, 10, 10, 10, 10, 10, 10],
    ]
    ladder = get(client, "/tables/ease-factors")["rows"]
    assert len(ladder) == 18
    assert [row["value"] for row in ladder] == [0, 0.25, 0.5, *range(1, 16)]


# GraphQL ---------------------------------------------------------------------------------


def test_lockpicking_over_graphql(client):
    """F:L304-319 over GraphQL."""
    body = graphql(
        client,
        """{ foresight { resolve(input: {score: 14, bef: 5, modifiers: [-1, 1],
        dice: {values: [32]}}) { qr successChance quality { name } rolls { value purpose } } } }""",
    )
    assert "errors" not in body, body
    result = body["data"]["foresight"]["resolve"]
    assert (result["qr"], result["successChance"]) == ("QR3", 70.0)
    assert result["quality"]["name"] == "Competent Success"
    assert result["rolls"] == [{"value": 32, "purpose": "D100"}]


def test_odds_over_graphql(client):
    """Catalogue 5.1, SC 70, over GraphQL."""
    body = graphql(
        client,
        """{ foresight { resolveOdds(input: {score: 14, bef: 5}) {
        qr { outcome exact } summary { success { exact } botch { exact } } } } }""",
    )
    assert "errors" not in body, body
    odds = body["data"]["foresight"]["resolveOdds"]
    assert_sc_70(odds)


def test_quality_rating_over_graphql(client):
    """F:L1376: a roll of 100 against SC 120 is QR7."""
    body = graphql(
        client,
        """{ foresight {
        qualityRating(input: {roll: 100, successChance: 120}) { qr name } } }""",
    )
    assert "errors" not in body, body
    assert body["data"]["foresight"]["qualityRating"] == {"qr": "QR7", "name": "Failure"}


def test_bad_input_over_graphql(client):
    """F:L251: a BEF off the ladder is the user's mistake, and the error says where."""
    body = graphql(client, "{ foresight { resolve(input: {score: 14, bef: 0.3}) { qr } } }")
    error = body["errors"][0]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert [e["pointer"] for e in error["extensions"]["errors"]] == ["/bef"]
