"""The 4C core over REST and GraphQL as a new user meets it: issue 14's acceptance checks
that the core answers. Seed lines are cited as C:L<n>."""

import json
from fractions import Fraction
from typing import Any

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from service.app import build_app, configure_master_table
from service.cache import MemoryCache
from service.settings import Settings

BASE = "/v1/four-c"


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    response = client.post(BASE + path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def graphql(client: TestClient, query: str) -> Any:
    response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body
    return body["data"]["fourC"]


def test_richards_dice_read_83(client):
    """C:L47."""
    assert post(client, "/dice/d100", {"dice": {"values": [8, 3]}})["roll"] == 83
    found = graphql(client, "{ fourC { diceD100(input: {dice: {values: [8, 3]}}) { roll } } }")
    assert found["diceD100"]["roll"] == 83


def test_melee_30_39_with_a_row_step_reads_row_40_49(client):
    """C:L953."""
    moved = post(client, "/rank/apply-row-steps", {"rv": 35, "row_steps": [1]})
    assert (moved["row"], moved["rv_effective"], moved["master_table"]) == (7, 40, "libre-basic")
    query = "{ fourC { rankApplyRowSteps(input: {rv: 35, rowSteps: [1]}) { row rvEffective } } }"
    assert graphql(client, query)["rankApplyRowSteps"] == {"row": 7, "rvEffective": 40}


def test_coordination_1000_is_black_only_on_00_to_04(client):
    found = post(client, "/master-table/resolve/odds", {"rv": 1000})
    colours = {row["outcome"]: Fraction(row["exact"]) for row in found["colour"]}
    assert colours["black"] == Fraction(5, 100)
    assert found["master_table"] == "libre-basic"
    query = "{ fourC { masterTableResolveOdds(input: {rv: 1000}) { colour { outcome exact } } } }"
    rows = graphql(client, query)["masterTableResolveOdds"]["colour"]
    assert {"outcome": "black", "exact": "1/20"} in rows


def test_tonys_37_fortune_buys_one_shift_and_keeps_12(client):
    """C:L963."""
    body = {"colour": "blue", "contributions": [{"payer": "Tony", "fortune": 37, "shifts": -2}]}
    found = post(client, "/fortune/alter-roll", body)
    assert found["colour"] == "red"
    assert found["payments"][0]["fortune_left"] == 12


def test_a_configured_master_table_is_the_default(tmp_path):
    """FOUR_C_MASTER_TABLE: a table of one's own read by requests that name none, named in
    every result; a request may still name the Libre tables."""
    rows = [{"row": 0, "rv_min": 0, "rv_max": None, "bands": {"blue": [0, 99]}}]
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"name": "house", "rows": rows}))
    try:
        settings = Settings(log_requests=False, four_c_master_table=str(path))
        with TestClient(build_app(settings, MemoryCache())) as configured:
            found = post(configured, "/master-table/resolve/odds", {"rv": 30})
            assert found["master_table"] == "house"
            assert [(c["outcome"], c["exact"]) for c in found["colour"]] == [("blue", "1/1")]
            libre = {"rv": 30, "master_table": "libre-basic"}
            assert post(configured, "/master-table/resolve/odds", libre)["master_table"] == (
                "libre-basic"
            )
    finally:
        configure_master_table(None)


def test_a_bad_configured_master_table_stops_the_service(tmp_path):
    rows = [{"row": 0, "rv_min": 0, "rv_max": None, "bands": {"black": [0, 50]}}]
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"name": "bad", "rows": rows}))
    with pytest.raises(ValidationError):
        configure_master_table(str(path))
    configure_master_table(None)
