"""Weapons & Gear's items and potions over REST and GraphQL as a new user meets them (issue 22):
cases worked out by hand from the seed (C:L<n>) and the Master Table data, not read from the
service."""

from fractions import Fraction
from functools import partial
from typing import Any

from tests import http

BASE = "/v1/four-c"


post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="fourC")


def rows(found: list[dict[str, Any]]) -> dict[str, Fraction]:
    return {row["outcome"]: Fraction(row["exact"]) for row in found}


def test_the_rifle_far_off_nails_through_halved_armor(client):
    """C:L1610-1624: Coordination 30 + 20 = 50 (row 50-74: black 00-24, red 25-54, blue 55-89,
    yellow 90-99); a 51 is red, stepped up to a blue Nail; Body Armor 25 halves to 12, so 8 of
    the 20 points get through."""
    body = {"rv": 30, "distance_sectors": 15, "target_body_armor": 25, "dice": {"values": [5, 1]}}
    found = post(client, "/gear/omphalos-ix/attack", {**body, "outcome_odds": True})
    assert (found["colour"], found["final_colour"], found["result"]) == ("red", "blue", "nail")
    assert found["damage_taken"] == 8
    final = next(o for o in found["outcome_odds"] if o["distribution"] == "/final_colour")
    assert Fraction(final["probability"]["exact"]) == Fraction(65, 100)  # red 30 + blue 35
    odds = post(client, "/gear/omphalos-ix/attack/odds", {"rv": 30, "distance_sectors": 15})
    assert rows(odds["result"]) == {"miss": Fraction(25, 100), "nail": Fraction(65, 100),
                                    "dying": Fraction(10, 100)}  # fmt: skip
    query = ("{ fourC { gearOmphalosIxAttack(input: {rv: 30, distanceSectors: 15, "
             "targetBodyArmor: 25, dice: {values: [5, 1]}}) { result finalColour damageTaken "
             "optionsApplied { omphalosAutoNail } } } }")  # fmt: skip
    assert graphql(client, query)["gearOmphalosIxAttack"] == {
        "result": "nail", "finalColour": "BLUE", "damageTaken": 8,
        "optionsApplied": {"omphalosAutoNail": True},
    }  # fmt: skip


def test_the_rifle_close_in_is_held_to_red(client):
    """C:L1620: at 8 sectors 30 halves to 15, +20 is 35 (row 30-39, black 00-34); a 96 is
    yellow, held to red: a Hit."""
    body = {"rv": 30, "distance_sectors": 8, "dice": {"values": [9, 6]}}
    found = post(client, "/gear/omphalos-ix/attack", body)
    assert (found["attack_rv"], found["final_colour"], found["result"]) == (35, "red", "hit")
    odds = post(client, "/gear/omphalos-ix/attack/odds", {"rv": 30, "distance_sectors": 8})
    assert rows(odds["final_colour"]) == {"black": Fraction(35, 100), "red": Fraction(65, 100)}


def test_a_shot_past_20_sectors_is_a_422_naming_the_distance(client):
    response = client.post(
        BASE + "/gear/omphalos-ix/attack", json={"rv": 30, "distance_sectors": 21}
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/distance_sectors"
    empty = client.post(BASE + "/gear/omphalos-ix/attack",
                        json={"rv": 30, "distance_sectors": 5, "rounds_loaded": 0})  # fmt: skip
    assert empty.status_code == 422
    assert empty.json()["errors"][0]["pointer"] == "/rounds_loaded"


def test_reloading_takes_4_turns_and_an_hour_makes_90_rounds(client):
    """C:L1618."""
    body = {"ammunition": {"rounds_loaded": 3, "spare_magazines": 1}, "action": "reload"}
    found = post(client, "/gear/omphalos-ix/ammo", body)
    assert (found["ammunition"]["rounds_loaded"], found["turns"]) == (30, 4)
    query = ("{ fourC { gearOmphalosIxAmmo(input: {ammunition: {roundsLoaded: 0}, action: CRAFT, "
             "hours: 3}) { ammunition { looseRounds } hours } } }")  # fmt: skip
    assert graphql(client, query)["gearOmphalosIxAmmo"] == {
        "ammunition": {"looseRounds": 270}, "hours": 3,
    }  # fmt: skip


def test_the_relay_and_its_psychic_scars(client):
    """C:L1636-1650: Willpower 20 worn at 35 (row 30-39, black 00-34); two uses, a point lost on
    each black: 0 lost 0.65 x 0.65, 1 lost 2 x 0.35 x 0.65, 2 lost 0.35 x 0.35."""
    body = {"willpower": 20, "telepathy_uses": 2, "dice": {"values": [2, 5, 7, 1]}}
    found = post(client, "/gear/shrouded-relay", body)
    assert (found["telepathy_rv"], found["mind_reading"], found["willpower_worn"]) == (
        50,
        False,
        34,
    )
    assert (found["willpower_lost"], found["willpower"]) == (1, 19)
    assert found["mind_shield"]["willpower_against_mind_control"] == 64
    query = ("{ fourC { gearShroudedRelayOdds(input: {willpower: 20, telepathyUses: 2}) "
             "{ willpowerLost { outcome exact } } } }")  # fmt: skip
    lost = graphql(client, query)["gearShroudedRelayOdds"]["willpowerLost"]
    assert rows(lost) == {"0": Fraction(4225, 10000), "1": Fraction(4550, 10000),
                          "2": Fraction(1225, 10000)}  # fmt: skip


def test_the_fist_controls_at_25_and_recharges_in_3d10_plus_5(client):
    """C:L1662-1672, catalogue A-45: no Control of its own, the wearer controls at 25 with
    amplified dice; 4, 7 and 2 recharge the backpack in 18 turns; 3d10+5 is 8 once in 1,000."""
    body = {"power": {"backpack_uses": 0}, "action": "recharge", "dice": {"values": [4, 7, 2]}}
    found = post(client, "/gear/voltaic-fist", body)
    assert (found["control_rv"], found["mode"], found["recharge_turns"]) == (25, "amplified", 18)
    assert found["power"]["backpack_uses"] == 20
    query = (
        "{ fourC { gearVoltaicFistOdds(input: {action: RECHARGE, source: BELT}) "
        "{ recharge_turns: rechargeTurns { outcome exact } meanRechargeTurns { exact } } } }"
    )
    odds = graphql(client, query)["gearVoltaicFistOdds"]
    assert rows(odds["recharge_turns"])["7"] == Fraction(1, 100)
    assert odds["meanRechargeTurns"]["exact"] == "16/1"


def test_a_lesser_potion_of_fortitude(client):
    """E12, C:L1706: Fortitude +2d10+10 for 2 turns."""
    query = ("{ fourC { potionStrength(input: {trait: FORTITUDE, traitRv: 20, grade: LESSER, "
             "dice: {values: [3, 8]}}) { bonus rv turns } } }")  # fmt: skip
    assert graphql(client, query)["potionStrength"] == {"bonus": 21, "rv": 41, "turns": 2}
    odds = post(client, "/potion/strength/odds", {"trait": "fortitude"})
    assert rows(odds["bonus"])["21"] == Fraction(10, 100)
    assert odds["mean_bonus"]["exact"] == "21/1"


def test_potions_start_next_turn_and_a_second_negates_both(client):
    """C:L1678, C:L1692 (A-46: 3 turns of invisibility, the number missing)."""
    found = post(client, "/potion/drink", {"potion": "invisibility", "turn": 4})
    assert (found["first_turn"], found["last_turn"]) == (5, 7)
    assert found["options_applied"]["invisibility_potion_turns"] == 3
    negated = post(client, "/potion/drink", {"potion": "trait", "turn": 6, "active_until": 7})
    assert negated["negated"]
    query = ("{ fourC { potionHealing(input: {damagePoints: 50, startingDamage: 60, turn: 2}) "
             "{ healed turn } } }")  # fmt: skip
    assert graphql(client, query)["potionHealing"] == {"healed": 10, "turn": 3}


def test_the_dodging_potion_and_its_table(client):
    """C:L1680-1688: Coordination 30 (row 30-39) dodges at black 35, red 30, blue 29, yellow 6
    in 100; the table is served as data."""
    odds = post(client, "/potion/dodging/odds", {"rv": 30})
    assert rows(odds["result"]) == {
        "-1": Fraction(35, 100), "-4": Fraction(30, 100), "-8": Fraction(29, 100),
        "auto_fail": Fraction(6, 100),
    }  # fmt: skip
    served = client.get(BASE + "/tables/dodging-potion")
    assert served.status_code == 200
    assert [r["result"] for r in served.json()["rows"]] == ["-1", "-4", "-8", "auto_fail"]


def test_reloading_past_the_loose_rounds_limit_is_a_422(client):
    """A reload keeps the rounds taken out loose: at the limit of loose rounds a request could
    hold, that is a 422 naming the field, as crafting past it is (a 500 found by fuzzing)."""
    body = {"ammunition": {"rounds_loaded": 30, "spare_magazines": 1, "loose_rounds": 1_000_000},
            "action": "reload"}  # fmt: skip
    response = client.post(BASE + "/gear/omphalos-ix/ammo", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/ammunition/loose_rounds"


def test_crafting_past_the_loose_rounds_limit_is_a_422_naming_the_hours(client):
    body = {"ammunition": {"rounds_loaded": 30, "loose_rounds": 999_990}, "action": "craft",
            "hours": 1}  # fmt: skip
    response = client.post(BASE + "/gear/omphalos-ix/ammo", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/hours"
    body["ammunition"]["loose_rounds"] = 1_000_000 - 90  # exactly to the limit: an hour makes 90
    assert post(client, "/gear/omphalos-ix/ammo", body)["ammunition"]["loose_rounds"] == 1_000_000


def test_the_fists_matching_bonus_stops_at_the_end_of_the_scale(client):
    """With the matching bonus stacked (A-45), Control at the top of the scale stays there
    before Amplified's 15 are added, as it does without the option (a 500 found by fuzzing)."""
    for stacked in (False, True):
        body = {"control_rv": 100_000, "action": "switch",
                "options": {"fist_stack_matching_bonus": stacked}}  # fmt: skip
        assert post(client, "/gear/voltaic-fist", body)["control_rv"] == 100_015
