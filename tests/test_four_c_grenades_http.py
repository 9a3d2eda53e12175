"""The 4C grenades over REST and GraphQL as a new user meets them (issue 22): each case is
worked out here by hand from the seed (C:L1537-1596) and the Libre Edition's Master Table
(rules/4c-master-table.md), not from the service."""

from fractions import Fraction
from functools import partial
from typing import Any

from tests import http

BASE = "/v1/four-c"

#: Row 20-29 of the basic Master Table: black 00-39, red 40-69, blue 70-93, yellow 94-99.
ROW_20 = {"black": Fraction(40, 100), "red": Fraction(30, 100), "blue": Fraction(24, 100),
          "yellow": Fraction(6, 100)}  # fmt: skip
#: Row 30-39: black 00-34, red 35-64, blue 65-93, yellow 94-99.
ROW_30_BLACK = Fraction(35, 100)
#: Row 40-49: black 00-29, red 30-59, blue 60-89, yellow 90-99.
ROW_40 = {"black": Fraction(30, 100), "red": Fraction(30, 100), "blue": Fraction(30, 100),
          "yellow": Fraction(10, 100)}  # fmt: skip


post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="fourC")


def table(rows: list[dict[str, Any]]) -> dict[str, Fraction]:
    return {row["outcome"]: Fraction(row["exact"]) for row in rows}


def test_brawn_20_throws_a_grenade_4_sectors(client):
    """T23: the Thrown Weapon Range row 20-29 (printed '10-29', C:L1587) is 3 sectors, and a
    grenade goes one more (C:L1596)."""
    found = post(client, "/grenade/throw-range", {"brawn": 20})
    assert (found["sectors"], found["thrown_sectors"]) == (4, 3)
    assert (found["table_row"]["label"], found["table_row"]["printed"]) == ("20-29", "10-29")
    query = "{ fourC { grenadeThrowRange(input: {brawn: 35}) { sectors tableRow { label } } } }"
    assert graphql(client, query)["grenadeThrowRange"] == {
        "sectors": 5, "tableRow": {"label": "30-39"}
    }  # fmt: skip


def test_the_served_range_table_corrects_the_two_typos(client):
    """E13: '10-29' and '10-39' (C:L1587-1588) are 20-29 and 30-39."""
    rows = client.get(BASE + "/tables/thrown-weapon-range").json()["rows"]
    assert [(r["printed"], r["label"]) for r in rows if r["printed"] != r["label"]] == [
        ("10-29", "20-29"), ("10-39", "30-39")
    ]  # fmt: skip
    assert [r["sectors"] for r in rows] == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def test_where_a_grenade_lands_says_the_source_has_no_rule(client):
    """F3: by default it goes off where it is thrown, with no roll."""
    found = post(client, "/grenade/scatter", {"rv": 20, "brawn": 20, "distance_sectors": 4})
    assert (found["landed"], found["in_source"], found["rolls"]) == ("target_sector", False, [])
    assert found["options_applied"]["grenade_delivery"] == "auto"
    assert "Not in the source" in found["note"]
    query = ("{ fourC { grenadeScatterOdds(input: {rv: 20, options: {grenadeDelivery: "
             "RANGED_ATTACK}}) { landed { outcome exact } inSource } } }")  # fmt: skip
    odds = graphql(client, query)["grenadeScatterOdds"]
    assert table(odds["landed"]) == {
        "gm_sector": ROW_20["black"],
        "target_sector": 1 - ROW_20["black"],
    }
    assert odds["inSource"] is False


def test_frag_and_incendiary_against_body_armor(client):
    """T20: Frag on Body Armor 15 deals 15 and 5 (C:L1546); T21: Incendiary on Body Armor 40
    that is not fire-proof deals 30 and 15 (C:L1548)."""
    assert post(client, "/grenade/frag", {"body_armor": 15})["taken"] == 15
    assert post(client, "/grenade/frag", {"body_armor": 15, "distance_sectors": 1})["taken"] == 5
    query = (
        "{ fourC { near: grenadeIncendiary(input: {bodyArmor: 40}) { taken } "
        "far: grenadeIncendiary(input: {bodyArmor: 40, distanceSectors: 1}) { taken } "
        "proof: grenadeIncendiary(input: {bodyArmor: 40, fireProof: true}) { taken } } }"
    )
    assert graphql(client, query) == {"near": {"taken": 30}, "far": {"taken": 15},
                                      "proof": {"taken": 0}}  # fmt: skip


def test_anti_arcane_rolls_40_against_each_magic_user(client):
    """C:L1544: black no effect, red half (round up), blue or yellow disrupted."""
    odds = post(client, "/grenade/anti-arcane/odds", {"magic_rv": 45})
    assert table(odds["result"]) == {"unaffected": ROW_40["black"], "halved": ROW_40["red"],
                                     "disrupted": ROW_40["blue"] + ROW_40["yellow"]}  # fmt: skip
    found = post(client, "/grenade/anti-arcane", {"magic_rv": 45, "dice": {"values": [4, 10]}})
    assert (found["roll"]["colour"], found["result"], found["magic_rv"]) == ("red", "halved", 23)
    query = ("{ fourC { grenadeAntiArcane(input: {magicRv: 45, dice: {values: [9, 10]}}) "
             "{ result magicRv turns } } }")  # fmt: skip
    assert graphql(client, query)["grenadeAntiArcane"] == {
        "result": "disrupted", "magicRv": 0, "turns": 1
    }  # fmt: skip


def test_a_scream_at_awareness_20(client):
    """C:L1556-1562 on row 20-29; black lasts 1d10/2 rounds (1: 3/10, 2-4: 1/5, 5: 1/10,
    catalogue 5.4) and red one turn (A-42)."""
    odds = post(client, "/grenade/scream/odds", {"rv": 20})
    results = ("incapacitated", "dazed", "stunned", "unaffected")
    assert table(odds["result"]) == dict(zip(results, ROW_20.values(), strict=True))
    black = ROW_20["black"]
    assert table(odds["turns"]) == {
        "0": ROW_20["yellow"],
        "1": ROW_20["red"] + ROW_20["blue"] + black * Fraction(3, 10),
        "2": black / 5, "3": black / 5, "4": black / 5, "5": black / 10,
    }  # fmt: skip
    found = post(client, "/grenade/scream",
                 {"rv": 20, "dice": {"values": [1, 5, 7]}, "outcome_odds": True})  # fmt: skip
    assert (found["result"], found["duration_die"], found["turns"]) == ("incapacitated", 7, 3)
    read = {e["distribution"]: e["probability"]["exact"] for e in found["outcome_odds"]}
    assert read["/result"] == "2/5"


def test_a_stunned_target_takes_minus_20_on_its_next_d100(client):
    """C:L1561: blue is stunned next round at -20 on d% rolls (A-42: the roll's modifier)."""
    found = post(client, "/grenade/scream", {"rv": 20, "dice": {"values": [8, 10]}})
    assert (found["result"], found["penalty"]["roll_modifier"]) == ("stunned", -20)
    query = (
        "{ fourC { grenadeScream(input: {rv: 20, options: {grenadeD100Penalty: RANK_VALUE}, "
        "dice: {values: [8, 10]}}) { result penalty { rollModifier rvModifier } } } }"
    )
    assert graphql(client, query)["grenadeScream"]["penalty"] == {"rollModifier": 0,
                                                                  "rvModifier": -20}  # fmt: skip


def test_stench_gas_and_contaminant_resistance(client):
    """C:L1564-1572, C:L530-532: Fortitude 20 with Contaminant Resistance 25 rolls 30 (row
    30-39, black 35%); with contaminant_applies_to=hazards_only it rolls 20 (A-76)."""
    body = {"rv": 20, "contaminant_resistance": 25, "distance_sectors": 1}
    odds = post(client, "/grenade/stench-gas/odds", body)
    assert (odds["rv"], table(odds["result"])["incapacitated"]) == (30, ROW_30_BLACK)
    only = {**body, "options": {"contaminant_applies_to": "hazards_only"}}
    assert (
        table(post(client, "/grenade/stench-gas/odds", only)["result"])["incapacitated"]
        == (ROW_20["black"])
    )
    far = post(client, "/grenade/stench-gas", {**body, "distance_sectors": 2, "dice": {"seed": 5}})
    assert (far["reached"], far["result"], far["roll"]) == (False, "out_of_area", None)


def test_paralytic_at_fortitude_30(client):
    """C:L1552: paralyzed 5 turns on black, 35% on row 30-39."""
    query = (
        "{ fourC { grenadeParalyticOdds(input: {rv: 30}) { result { outcome exact } } "
        "grenadeParalytic(input: {rv: 30, dice: {values: [3, 4]}}) { result turns } } }"
    )
    found = graphql(client, query)
    assert table(found["grenadeParalyticOdds"]["result"]) == {
        "paralyzed": ROW_30_BLACK, "resisted": 1 - ROW_30_BLACK
    }  # fmt: skip
    assert found["grenadeParalytic"] == {"result": "paralyzed", "turns": 5}


def test_bad_input_names_each_field(client):
    bad = {"rv": -1, "distance_sectors": 500, "options": {"grenade_red_daze_turns": "two"}}
    refused = client.post(BASE + "/grenade/scream", json=bad)
    assert refused.status_code == 422
    pointers = {e["pointer"] for e in refused.json()["errors"]}
    assert pointers == {"/rv", "/distance_sectors", "/options/grenade_red_daze_turns"}
    far = client.post(
        BASE + "/grenade/scatter", json={"rv": 20, "brawn": 20, "distance_sectors": 5}
    )
    assert far.status_code == 422
    assert [e["pointer"] for e in far.json()["errors"]] == ["/distance_sectors"]


def test_the_catalogue_lists_the_grenade_options_with_their_ambiguities(client):
    ops = {op["name"]: op for op in client.get("/v1/systems/four-c").json()["operations"]}
    options = {o["name"]: (o["ambiguity"], o["default"]) for o in ops["grenade/scream"]["options"]}
    assert options["grenade_red_daze_turns"] == ("A-42", "one")
    assert options["grenade_d100_penalty"] == ("A-42", "roll_modifier")
    stench = {o["name"]: o["ambiguity"] for o in ops["grenade/stench-gas"]["options"]}
    assert stench["contaminant_applies_to"] == "A-76"
    delivery = {o["name"]: o["ambiguity"] for o in ops["grenade/scatter"]["options"]}
    assert delivery["grenade_delivery"] is None
    frag = {o["name"]: o["default"] for o in ops["grenade/frag"]["options"]}
    assert frag == {
        "armor_stacking": "highest",
        "armor_piercing_scope": "body_armor",
        "grenade_frag_armor": "this_attack",
    }
