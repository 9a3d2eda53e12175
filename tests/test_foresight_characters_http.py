"""FORESIGHT characters over HTTP and GraphQL as a new user meets them: issue 16's acceptance
checks. Seed lines are cited as F:L<n>."""

import copy
from functools import partial

from service.rules.foresight.characters.sheet import AMY
from tests import http

BASE = "/v1/foresight"
AMY_INHERENT = {"ST": 7, "EN": 7, "DX": 8, "AG": 8, "IN": 11, "PC": 11, "EM": 10, "WP": 9,
                "AP": 10}  # fmt: skip
LEVEL_ZERO = ("Charisma", "Confidence", "Dance", "Disguise", "Groundcraft", "Hand-to-Hand Combat",
              "Handguns", "Lockpicking", "Teach", "Theory")  # fmt: skip


post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="foresight")


def test_amys_attributes_sum_to_81_and_validate(client):
    """F:L536-553 (C1-C3)."""
    found = post(client, "/attributes/generate", {"inherent": AMY_INHERENT})
    assert found["total"] == 81
    sheet = post(client, "/character/validate", AMY)
    assert (sheet["general"]["left"], sheet["education"]["left"]) == (27, 0)


def test_sixteen_level_0_skills_cost_45(client):
    """F:L867 (C9): the ten skills Amy buys at level 0 cost 3 x 15 = 45 points, not the book's
    16 x 3 = 48; her six free ones cost nothing."""
    skills = [{"skill": s, "to_level": 0} for s in LEVEL_ZERO]
    free = ("Athletics", "Initiative", "Pain Resistance", "Search", "Stamina", "Stealth")
    skills += [{"skill": s, "to_level": 0, "free": True} for s in free]
    found = post(client, "/cp/spend", {"general": 225, "skills": skills})
    assert (found["general"]["spent"], found["general"]["left"]) == (45, 180)


def test_theory_and_charisma_costs(client):
    """F:L764 (C8): Theory, cost 3 and limit 1.5, is 9 at level 0; F:L1043-1045 (C19):
    Charisma 4 to 12 is 10."""
    assert post(client, "/skill/cost", {"skill": "Theory", "to_level": 0})["cost"] == 9
    raised = {"skill": "Charisma", "from_level": 4, "to_level": 12}
    assert post(client, "/skill/cost", raised)["cost"] == 10


def test_a_sheet_with_six_mistakes_gets_one_422_naming_all_six(client):
    sheet = copy.deepcopy(AMY)
    sheet["inherent"] = {**AMY_INHERENT, "ST": 4, "IN": 12, "PC": 12, "EM": 11}
    sheet["trained"] = {**sheet["trained"], "ST": 4, "AP": 17}
    sheet["skills"] = [{"skill": "Athletics", "level": 9}, *AMY["skills"][1:]]
    sheet["environments"] = [*AMY["environments"], {"name": "urban", "points": 1}]
    sheet["fields"] = [*AMY["fields"], {"field": "Tracking", "level": "basic"}]
    del sheet["handedness"]
    response = client.post(BASE + "/character/validate", json=sheet)
    assert response.status_code == 422, response.text
    pointers = [e["pointer"] for e in response.json()["errors"]]
    assert pointers == ["/inherent/ST", "/trained/AP", "/skills/0/level", "/fields/11/level",
                        "/environments/3/name", "/handedness"]  # fmt: skip


def test_amys_sheet_over_graphql(client):
    """Catalogue 4.3 over GraphQL: Charisma 23, written 20+1; 27 general points left."""
    found = graphql(
        client,
        """{ foresight { characterCreate(input: {
        backgrounds: [{background: "Comfortable Childhood"}, {background: "Full-Time Education"},
                      {background: "Field/Specialist Training"}, {background: "Field Experience"}],
        inherent: {ST: 7, EN: 7, DX: 8, AG: 8, IN: 11, PC: 11, EM: 10, WP: 9, AP: 10},
        trained: {ST: 7, EN: 7, DX: 10, AG: 8, IN: 12, PC: 12, EM: 12, WP: 11, AP: 12},
        skills: [{skill: "Charisma", level: 11}], handedness: RIGHT}) {
        general { spent left } skills { skill score twentyPlus { written } }
        stamina { maximum } } } }""",
    )
    sheet = found["characterCreate"]
    charisma = next(s for s in sheet["skills"] if s["skill"] == "Charisma")
    assert (charisma["score"], charisma["twentyPlus"]["written"]) == (23, "20+1")
    assert sheet["general"] == {"spent": 50 + 3 + 12, "left": 225 - 65}
    assert sheet["stamina"] == {"maximum": 9}


def test_reallocation_over_graphql(client):
    """F:L1037: Disguise sold entirely returns 8 + 6 = 14."""
    found = graphql(
        client,
        """{ foresight { characterReallocate(input: {general: 0,
        skills: [{skill: "Disguise", fromLevel: 4, toLevel: -1}]}) { general { left } } } }""",
    )
    assert found["characterReallocate"]["general"]["left"] == 14
