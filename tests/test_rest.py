"""The REST API of the 4D8 system, through the real ASGI app (build_app + TestClient).

Rules are cited by seed line: D:L<n> is line n of seeds/003_e1158ff398be9115.txt. The seeded
stream is checked against an independent implementation of DESIGN.md "Dice".
"""

import hashlib
import json
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from starlette.testclient import TestClient

from service.lru import footprint
from service.rest import _VALIDATED, remembered_bytes
from service.rules import RULES_VERSION
from service.rules.dice import MAX_TABLE_DICE
from service.rules.registry import load

CHECK = "/v1/four-d8/check"
ODDS = "/v1/four-d8/check/odds"
PROBLEM = "application/problem+json"
#: What the service accepts from a caller, and so what it must hand out itself.
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
ASPECTS = ["physical", "mental", "social", "magical"]
DEFAULT_OPTIONS = {
    "special_combinations": True,
    "combo_precedence": "shape",
    "snake_eyes_degree": "one",
    "doubles_roll_combinations": True,
    "bonus_roll_combo_mode": "modified_dice",
    "bonus_die_selection": "player_choice",
    "snake_eyes_in_bonus_roll": "flag",
    "energy_cap_applies_to": "positive_sum",
    "allow_plain_roll_over_32": False,
    "roll_when_impossible": False,
    "effect_text_version": "2",
}


def check(client: TestClient, ease: int, dice: dict[str, Any], **fields: Any) -> dict[str, Any]:
    response = client.post(CHECK, json={"ease": ease, "dice": dice, **fields})
    assert response.status_code == 200, response.text
    return response.json()


def odds(client: TestClient, **fields: Any) -> dict[str, Any]:
    response = client.post(ODDS, json=fields)
    assert response.status_code == 200, response.text
    return response.json()


def problem(response: Any, status: int) -> dict[str, Any]:
    """The problem+json body of an error response, after checking its status and type."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    body = response.json()
    assert body["status"] == status
    assert body["title"]
    assert body["detail"]
    assert "Traceback" not in response.text
    return body


def pointers(body: dict[str, Any]) -> list[str]:
    return [error["pointer"] for error in body["errors"]]


def seeded_d8(seed: int, count: int) -> list[int]:
    """DESIGN.md "Dice": draw k is the first 8 bytes, big-endian, of SHA-256 of "<seed>:<k>";
    2**64 is a multiple of 8, so a d8 never rejects a draw and shows d % 8 + 1."""
    draws = (hashlib.sha256(f"{seed}:{k}".encode("ascii")).digest()[:8] for k in range(count))
    return [int.from_bytes(draw, "big") % 8 + 1 for draw in draws]


# The check, with table dice


def test_triplet_scores_twice_the_triplet_plus_the_fourth_die(client):
    """D:L82: 5, 5, 5 and 3 is (5 x 2) + 3 = 13, a superb result (D:L66)."""
    result = check(client, 20, {"values": [5, 5, 5, 3]})
    assert result["success"] is True
    assert result["chance"] == 20
    assert result["natural_total"] == 18
    assert result["degree"] == 13
    assert result["combination"] == "triplet"
    assert result["interpretation"] == "Superb result"
    assert result["snake_eyes"] is False


def test_design_example_with_an_ability_bonus(client):
    """The DESIGN.md example: ease 20 + THIEVERY 2 is a chance of 22 (D:L6); 5, 5, 5, 3 scores 13
    under shape precedence (D:L82)."""
    result = check(
        client,
        20,
        {"values": [5, 5, 5, 3]},
        ability_bonuses=[{"ability": "THIEVERY", "bonus": 2}],
        options={"combo_precedence": "shape"},
    )
    assert result["chance"] == 22
    assert result["natural_total"] == 18
    assert (result["success"], result["degree"], result["combination"]) == (True, 13, "triplet")
    assert result["interpretation"] == "Superb result"


@pytest.mark.parametrize(
    ("dice", "degree", "combination", "interpretation"),
    [
        # D:L92: 4, 4, 2 and 2 is (4 + 4 + 2 + 2) + 5 = 17, an exceptional success (D:L67).
        ([4, 4, 2, 2], 17, "two_pairs", "Exceptional success"),
        # D:L102: 6, 6, 3 and 1 is 6 + 6 + 3 = 15, a superb result (D:L66).
        ([6, 6, 3, 1], 15, "pair", "Superb result"),
    ],
)
def test_the_seeds_combination_examples(client, dice, degree, combination, interpretation):
    """The worked examples of two pairs (D:L92) and a pair (D:L102), at ease 20."""
    result = check(client, 20, {"values": dice})
    assert result["success"] is True
    assert result["degree"] == degree
    assert result["combination"] == combination
    assert result["interpretation"] == interpretation


def test_basic_degree_is_the_highest_die(client):
    """D:L47: 2, 5, 6 and 8 total 21 and score the highest die, 8."""
    result = check(client, 21, {"values": [2, 5, 6, 8]})
    assert result["success"] is True
    assert result["natural_total"] == 21
    assert result["degree"] == 8
    assert result["combination"] == "distinct"


def test_a_total_over_the_chance_fails(client):
    """D:L45: a total greater than the chance of success fails, and has no degree."""
    result = check(client, 17, {"values": [5, 5, 5, 3]})
    assert result["success"] is False
    assert result["degree"] is None
    assert result["interpretation"] is None


def test_snake_eyes_score_one(client):
    """D:L49: four 1s are snake-eyes, an exception to the lucky break: degree 1."""
    result = check(client, 20, {"values": [1, 1, 1, 1]})
    assert result["success"] is True
    assert result["snake_eyes"] is True
    assert result["degree"] == 1
    assert result["lucky_break"] is False
    assert result["interpretation"] == "Barely succeeded by a whisker"


def test_a_bonus_roll_fails_on_four_eights(client):
    """D:L54: ease 32 + 3 is a chance of 35; a bonus roll succeeds on anything but four 8s."""
    result = check(client, 32, {"values": [8, 8, 8, 8]}, other_modifiers=[3], over32_mode="bonus")
    assert result["chance"] == 35
    assert result["over_32"] is True
    assert result["mode"] == "bonus"
    assert result["success"] is False
    assert result["degree"] is None


def test_result_carries_rolls_options_and_rules_version(client):
    """DESIGN.md: every result carries its rolls, the options applied and the rules version;
    the four dice stand for physical, mental, social and magical (D:L74)."""
    result = check(client, 20, {"values": [5, 5, 5, 3]})
    assert result["rolls"] == [
        {"sides": 8, "value": value, "purpose": aspect, "exploded_from": None, "discarded": False}
        for value, aspect in zip([5, 5, 5, 3], ASPECTS, strict=True)
    ]
    assert result["options_applied"] == DEFAULT_OPTIONS
    assert result["rules_version"] == RULES_VERSION
    assert result["seed"] is None  # table dice: no seed was used


# Seeds


def test_same_seed_gives_the_same_body(client):
    first = client.post(CHECK, json={"ease": 20, "dice": {"seed": 42}})
    second = client.post(CHECK, json={"ease": 20, "dice": {"seed": 42}})
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert first.json()["seed"] == 42


def test_seeded_dice_follow_the_published_stream(client):
    """DESIGN.md "Dice": any client can verify a result from its seed."""
    for seed in (0, 42, 2**31 - 1):
        result = check(client, 20, {"seed": seed})
        assert [roll["value"] for roll in result["rolls"]] == seeded_d8(seed, 4)


def test_a_fresh_seed_is_returned_and_replays(client):
    response = client.post(CHECK, json={"ease": 20})
    assert response.status_code == 200
    result = response.json()
    seed = result["seed"]
    assert isinstance(seed, int)
    assert 0 <= seed <= 2**31 - 1
    replay = check(client, 20, {"seed": seed})
    assert replay["rolls"] == result["rolls"]
    assert replay == result


# Odds


def test_odds_at_ease_18(client):
    """D:L45: P(4d8 <= 18) = 2220/4096 = 555/1024 (catalogue B5.1)."""
    result = odds(client, ease=18)
    assert result["summary"]["success"] == {"exact": "555/1024", "float": 555 / 1024}
    assert result["chance"] == 18
    assert result["mode"] == "normal"
    assert result["truncation"] is None
    assert result["options_applied"] == DEFAULT_OPTIONS
    assert result["rules_version"] == RULES_VERSION


def test_odds_at_ease_25_are_far_from_fifty_fifty(client):
    """D:L14 calls ease 25 about fifty-fifty; the dice say 3886/4096 = 1943/2048 (D-A12)."""
    assert odds(client, ease=25)["summary"]["success"]["exact"] == "1943/2048"


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"ease": 3}, "0/1"),  # below the lowest total, 4 (D-A19)
        ({"ease": 4}, "1/4096"),  # only snake-eyes (D:L49)
        ({"ease": 32}, "1/1"),  # every total is at most 32 (D:L8)
        ({"ease": 32, "other_modifiers": [1]}, "4095/4096"),  # bonus roll: not four 8s (D:L54)
        ({"ease": 32, "other_modifiers": [1], "over32_mode": "automatic"}, "1/1"),  # D:L52
    ],
)
def test_probability_of_success(client, fields, expected):
    assert odds(client, **fields)["summary"]["success"]["exact"] == expected


@pytest.mark.parametrize(
    "fields",
    [
        {"ease": 18},
        {"ease": 25, "options": {"special_combinations": False}},
        {"ease": 2},
        {"ease": 30, "other_modifiers": [5]},
        {"ease": 30, "other_modifiers": [5], "over32_mode": "doubles"},
        {"ease": 30, "other_modifiers": [5], "over32_mode": "automatic"},
    ],
)
def test_every_distribution_sums_to_one(client, fields):
    result = odds(client, **fields)
    for name, rows in result["distributions"].items():
        assert sum(Fraction(row["exact"]) for row in rows) == 1, name
        for row in rows:
            assert row["float"] == pytest.approx(float(Fraction(row["exact"])))
    degrees = {row["outcome"]: Fraction(row["exact"]) for row in result["distributions"]["degree"]}
    success = Fraction(result["summary"]["success"]["exact"])
    assert success == 1 - degrees.get("failure", Fraction(0))


def test_odds_take_no_dice(client):
    body = problem(client.post(ODDS, json={"ease": 18, "dice": {"seed": 1}}), 422)
    assert pointers(body) == ["/dice"]


# Errors


def test_ease_over_32_is_rejected_with_its_limit(client):
    """D:L16: 32 is the highest possible ease."""
    body = problem(client.post(CHECK, json={"ease": 33}), 422)
    assert body["errors"][0]["pointer"] == "/ease"
    assert body["errors"][0]["limit"] == 32


def test_ease_as_a_string_is_not_coerced(client):
    body = problem(client.post(CHECK, json={"ease": "20"}), 422)
    assert pointers(body) == ["/ease"]


def test_a_die_out_of_range_is_named(client):
    body = problem(client.post(CHECK, json={"ease": 20, "dice": {"values": [9, 5, 5, 3]}}), 422)
    assert pointers(body) == ["/dice/values/0"]


@pytest.mark.parametrize("values", [[5, 5, 3], [5, 5, 3, 3, 3]])
def test_the_wrong_number_of_table_dice_is_rejected(client, values):
    body = problem(client.post(CHECK, json={"ease": 20, "dice": {"values": values}}), 422)
    assert pointers(body) == ["/dice/values"]


def test_seed_and_values_together_are_rejected(client):
    dice = {"seed": 1, "values": [5, 5, 5, 3]}
    body = problem(client.post(CHECK, json={"ease": 20, "dice": dice}), 422)
    assert pointers(body) == ["/dice"]


def test_an_unknown_field_is_rejected(client):
    body = problem(client.post(CHECK, json={"ease": 20, "eese": 3}), 422)
    assert pointers(body) == ["/eese"]
    assert body["errors"][0]["type"] == "extra_forbidden"


def test_an_unknown_option_is_rejected(client):
    body = problem(client.post(CHECK, json={"ease": 20, "options": {"combo": "shape"}}), 422)
    assert pointers(body) == ["/options/combo"]


def test_a_large_body_is_refused(client):
    body = b'{"ease": 20, "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    response = client.post(CHECK, content=body, headers={"content-type": "application/json"})
    problem(response, 413)


def test_a_large_chunked_body_is_refused(client):
    """Without a declared length the limit is enforced while reading."""

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 1024

    response = client.post(CHECK, content=chunks(), headers={"content-type": "application/json"})
    problem(response, 413)


def test_a_body_that_is_not_json_is_refused(client):
    headers = {"content-type": "text/plain"}
    problem(client.post(CHECK, content=b'{"ease": 20}', headers=headers), 415)


def test_malformed_json_is_a_bad_request(client):
    headers = {"content-type": "application/json"}
    problem(client.post(CHECK, content=b'{"ease": ', headers=headers), 400)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/v1/four-d8/nope"),  # unknown operation
        ("POST", "/v1/nope/check"),  # unknown system
        ("GET", "/v1/four-d8/tables/nope"),
        ("GET", "/v1/systems/nope"),
    ],
)
def test_unknown_paths_are_problems(client, method, path):
    problem(client.request(method, path, json={"ease": 20}), 404)


def test_wrong_method_is_a_problem(client):
    response = client.get(CHECK)
    problem(response, 405)
    assert response.headers["allow"] == "POST"


# Reference tables and the catalogue


@pytest.mark.parametrize(
    ("table", "rows", "first"),
    [
        ("ease-meanings", 7, {"low": None, "high": 0, "meaning": "Impossible"}),  # D:L20
        (
            "degree-interpretations",
            6,
            {"low": 1, "high": 4, "meaning": "Barely succeeded by a whisker"},  # D:L63
        ),
        ("effect-texts", 22, None),
    ],
)
def test_tables(client, table, rows, first):
    response = client.get(f"/v1/four-d8/tables/{table}")
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == table
    assert body["source"].startswith("D:L")
    assert len(body["rows"]) == rows
    if first is not None:
        assert body["rows"][0] == first


def test_effect_texts_cover_both_versions(client):
    """D-A01: the combination rules appear twice (D:L72-115, D:L117-174) with different prose."""
    rows = client.get("/v1/four-d8/tables/effect-texts").json()["rows"]
    assert {row["version"] for row in rows} == {"1", "2"}
    assert {row["combination"] for row in rows} == {"four_same", "triplet", "two_pairs", "pair"}


def operation(catalogue: dict[str, Any], name: str) -> dict[str, Any]:
    return next(op for op in catalogue["operations"] if op["name"] == name)


def test_system_catalogue(client):
    response = client.get("/v1/systems/four-d8")
    assert response.status_code == 200
    system = response.json()
    assert system["slug"] == "four-d8"
    assert system["graphql_name"] == "fourD8"
    assert {op["name"] for op in system["operations"]} == {
        "check",
        "chance-of-success",
        "degree-of-success",
    }
    check_op = operation(system, "check")
    assert check_op["kind"] == "check"
    assert check_op["random"] is True
    assert "4d8.check" in check_op["covers"]
    assert check_op["rest_path"] == CHECK
    assert check_op["odds_path"] == ODDS
    options = {option["name"]: option for option in check_op["options"]}
    assert options["combo_precedence"]["default"] == "shape"
    assert options["combo_precedence"]["choices"] == ["shape", "best_score"]
    assert options["combo_precedence"]["ambiguity"] == "D-A02"
    assert (
        options["special_combinations"]["type"],
        options["special_combinations"]["choices"],
    ) == (
        "boolean",
        [],
    )
    assert {name: option["default"] for name, option in options.items()} == DEFAULT_OPTIONS
    limits = {limit["pointer"]: limit for limit in check_op["limits"]}
    assert limits["/ease"]["maximum"] == 32
    assert limits["/dice/seed"]["maximum"] == 2**31 - 1
    assert limits["/dice/values"]["max_items"] == MAX_TABLE_DICE
    ease = check_op["input_schema"]["properties"]["ease"]
    assert (ease["type"], ease["maximum"]) == ("integer", 32)
    assert "dice" not in check_op["odds_input_schema"]["properties"]
    assert [table["name"] for table in system["tables"]] == [
        "ease-meanings",
        "degree-interpretations",
        "effect-texts",
    ]


def test_all_systems_lists_each_system(client):
    response = client.get("/v1/systems")
    assert response.status_code == 200
    systems = response.json()["systems"]
    assert [system["slug"] for system in systems] == [
        "foresight",
        "four-c",
        "four-d8",
        "four-sight",
        "future-imperfect",
    ]
    for system in systems:
        assert system == client.get(f"/v1/systems/{system['slug']}").json()


# Request ids


def test_every_response_has_a_request_id(client):
    responses = [
        client.post(CHECK, json={"ease": 20, "dice": {"seed": 1}}),
        client.post(CHECK, json={"ease": 33}),
        client.get("/v1/nope"),
        client.get("/v1/systems"),
    ]
    ids = [response.headers["x-request-id"] for response in responses]
    assert all(REQUEST_ID.fullmatch(request_id) for request_id in ids)
    assert len(set(ids)) == len(ids)


def test_a_valid_request_id_is_echoed(client):
    response = client.post(ODDS, json={"ease": 18}, headers={"x-request-id": "trace-42.a_b"})
    assert response.headers["x-request-id"] == "trace-42.a_b"


@pytest.mark.parametrize("incoming", ["has space", "x" * 65, "semi;colon"])
def test_an_invalid_request_id_is_replaced(client, incoming):
    response = client.get("/v1/systems", headers={"x-request-id": incoming})
    assert response.headers["x-request-id"] != incoming
    assert REQUEST_ID.fullmatch(response.headers["x-request-id"])


def test_a_remembered_request_is_weighed_above_its_footprint():
    """Validated requests are kept by body, each weighed by its body's length: the weight
    must cover what the request holds for every operation's example."""
    for system in load().systems:
        for op in system.operations:
            body = json.dumps(op.example).encode()
            request = op.request_model.model_validate_json(body)
            assert footprint(request) <= remembered_bytes(body), f"{system.slug}/{op.name}"


def test_a_body_sent_again_is_answered_the_same_and_a_bad_one_is_not_kept(client):
    def post(body: bytes) -> Any:
        return client.post(CHECK, content=body, headers={"content-type": "application/json"})

    body = b'{"ease": 20, "dice": {"seed": 77}}'
    first = post(body)
    assert any(key[1] == body for key in _VALIDATED._kept)
    assert post(body).content == first.content
    bad = b'{"ease": 99}'
    for _ in range(2):
        response = post(bad)
        assert response.status_code == 422
        assert response.json()["errors"][0]["pointer"] == "/ease"
    assert not any(key[1] == bad for key in _VALIDATED._kept)
