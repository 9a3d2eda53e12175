"""FORESIGHT's character-point ledger and the whole sheet (catalogue 3.C.1, 3.C.9, 3.C.16,
3.C.17, 4.2 and 4.3). Seed lines are cited as F:L<n>."""

import copy
from typing import Any

import pytest

from service.rules.foresight.characters.sheet import AMY
from service.rules.model import InputError, Violations
from tests.rules.foresight.calls import run

LEVEL_ZERO = ("Charisma", "Confidence", "Dance", "Disguise", "Groundcraft", "Hand-to-Hand Combat",
              "Handguns", "Lockpicking", "Teach", "Theory")  # fmt: skip


def amy(**changes: Any) -> dict[str, Any]:
    sheet = copy.deepcopy(AMY)
    sheet.update(changes)
    return sheet


def violations(name: str, payload: dict[str, Any]) -> list[tuple[Any, ...]]:
    with pytest.raises(Violations) as raised:
        run(name, payload)
    return [error.loc for error in raised.value.errors]


# The ledger: cp/spend


def test_amys_ten_bought_skills_at_level_0_cost_45_not_48():
    """F:L833-869 (C9, C10): the book multiplies 16 skills by 3, but the ten she buys cost 15
    in all, so 45 points, and 225 - 45 leaves 180, not 177 (AMB-10)."""
    skills = [{"skill": s, "to_level": 0} for s in LEVEL_ZERO]
    found = run("cp/spend", {"general": 225, "skills": skills})
    assert (found.general.spent, found.general.left) == (45, 180)


def test_amys_training_costs_50():
    """F:L873-877 (C12): DX, EM, WP and AP +2 at 10 each, IN and PC +1 at 5 each."""
    raised = {"DX": (8, 10), "IN": (11, 12), "PC": (11, 12), "EM": (10, 12), "WP": (9, 11),
              "AP": (10, 12)}  # fmt: skip
    found = run(
        "cp/spend",
        {
            "general": 50,
            "attributes": [
                {"attribute": a, "inherent": i, "trained": i, "to": t}
                for a, (i, t) in raised.items()
            ],
        },
    )
    assert (found.general.spent, found.general.left) == (50, 0)


def test_level_4_for_all_sixteen_then_search_charisma_confidence():
    """F:L879-883 (C13-C15): 4 levels of 26 cost points are 104; Search and Charisma +6 to
    10 and Confidence +11 to 15 cost 23, all at single cost (their doubling starts past 10,
    10 and 15)."""
    skills = [{"skill": s, "from_level": 4, "to_level": t}
              for s, t in (("Search", 10), ("Charisma", 10), ("Confidence", 15))]  # fmt: skip
    assert run("cp/spend", {"general": 23, "skills": skills}).general.left == 0
    over = [{"skill": "Confidence", "from_level": 15, "to_level": 16}]
    assert run("cp/spend", {"general": 9, "skills": over}).general.spent == 2  # cost 1, doubled


def test_every_kind_of_purchase_is_priced_by_the_table():
    """F:L726-748: E 2 a point, G 5, an LTF 5 x the skill's cost (x 2 with a field, F:L2063),
    ambidexterity 15, a wealth row 20, a field from the education points, two general for one
    education."""
    found = run("cp/spend", {
        "general": 200, "education": 0,
        "environments": [{"name": "forest", "from_points": 1, "to_points": 3}],
        "gravities": [{"name": "HY", "to_points": 1}],
        "long_term_familiarities": [{"subject": "her own pistol", "skill": "Handguns"},
                                    {"subject": "Boston law", "skill": None}],
        "ambidexterity": True, "wealth_rows": 1, "extra_weapon_classes": 1,
        "unique_insights": ["Charisma"],
        "fields": [{"field": "Law", "target": "standard"}],
        "transfers": [{"source": "general", "points": 40}],
    })  # fmt: skip
    costs = [line.cost for line in found.lines]
    assert costs == [4, 5, 10, 10, 10, 20, 15, 20, 10, 40, -20]
    assert (found.general.spent, found.education.spent, found.education.left) == (124, 0, 0)


def test_overspending_and_bad_purchases_are_named_together():
    payload = {"general": 10, "education": 5,
               "skills": [{"skill": "Theory", "to_level": 2}, {"skill": "Juggling", "to_level": 0}],
               "fields": [{"field": "Law", "target": "standard"}],
               "attributes": [{"attribute": "ST", "inherent": 7, "trained": 7,
                               "to": 12}]}  # fmt: skip
    assert violations("cp/spend", payload) == [
        ("attributes", 0, "to"),
        ("skills", 1, "skill"),
        ("general",),
        ("education",),
    ]


def test_spending_does_not_sell():
    payload = {"general": 10, "skills": [{"skill": "Theory", "from_level": 4, "to_level": 2}]}
    assert violations("cp/spend", payload) == [("skills", 0, "to")]


# Reallocation


def test_amys_reallocation_returns_26():
    """F:L1033-1041 (C18): Pain Resistance 4 to 0 gives 8, Athletics 4 to 3 gives 2, Disguise
    sold entirely 8 + 6 = 14, Teach 4 to 2 gives 2."""
    sold = [{"skill": "Pain Resistance", "from_level": 4, "to_level": 0, "free": True},
            {"skill": "Athletics", "from_level": 4, "to_level": 3, "free": True},
            {"skill": "Disguise", "from_level": 4, "to_level": -1},
            {"skill": "Teach", "from_level": 4, "to_level": 2}]  # fmt: skip
    found = run("character/reallocate", {"general": 0, "skills": sold})
    assert [line.cost for line in found.lines] == [-8, -2, -14, -2]
    assert found.general.left == 26


def test_amys_respending_with_the_right_sums():
    """F:L1043-1053 (C19-C25): Charisma 4 to 11 is 8 (to 12 would be 10), Confidence 4 to 13
    is 9, Theory 4 to 6 is 6, Dance 4 to 1 gives 3, and Search 4 to 9 is 5, not the book's 4
    (5 levels at cost 1; to 10 is 6, not 5): 1 point stays unspent (AMB-10)."""
    assert run("skill/cost", {"skill": "Charisma", "from_level": 4, "to_level": 12}).cost == 10
    moves = [{"skill": "Charisma", "from_level": 4, "to_level": 11},
             {"skill": "Confidence", "from_level": 4, "to_level": 13},
             {"skill": "Search", "from_level": 4, "to_level": 9, "free": True},
             {"skill": "Dance", "from_level": 4, "to_level": 1},
             {"skill": "Theory", "from_level": 4, "to_level": 6}]  # fmt: skip
    found = run("character/reallocate", {"general": 26, "skills": moves})
    assert [line.cost for line in found.lines] == [8, 9, 5, -3, 6]
    assert found.general.left == 1


def test_a_free_item_sells_for_half_and_in_play_needs_the_gm():
    """F:L720: Pain Resistance bought would cost 6, so selling it off gives 3; F:L1029: in
    play, only with the GM's permission."""
    sold = {"general": 0, "skills": [{"skill": "Pain Resistance", "from_level": 0,
                                      "to_level": -1, "free": True}]}  # fmt: skip
    assert run("character/reallocate", sold).general.left == 3
    assert violations("character/reallocate", {**sold, "in_play": True}) == [("gm_permission",)]
    assert run("character/reallocate", {**sold, "in_play": True, "gm_permission": True})
    field = {"general": 0, "fields": [{"field": "Literacy", "target": "standard", "sell": True,
                                       "free": True}]}  # fmt: skip
    assert run("character/reallocate", field).education.left == 8  # (5 + 10) / 2, half up


# The whole sheet: character/create


def test_amys_sheet_is_the_catalogues():
    """Catalogue 4.3: Amy after the book's reallocation, with the right sums: 198 of 225
    general points spent, 27 left (the book's ledger loses 3 at F:L867, 23 at F:L1031 and 1
    at F:L1051), all 95 education points spent (F:L984-992)."""
    sheet = run("character/create", AMY)
    assert (sheet.general.spent, sheet.general.left) == (198, 27)
    assert (sheet.education.spent, sheet.education.left) == (95, 0)
    rows = {s.skill: (s.base, s.level, s.score, s.twenty_plus.written, s.bef, s.max_level,
                      s.level_zero_cp, s.levels_cp) for s in sheet.skills}  # fmt: skip
    assert rows == {
        "Athletics": (8, 3, 11, "11", "G+3", 8, 0, 6),
        "Charisma": (12, 11, 23, "20+1", "5", 12, 3, 12),
        "Confidence": (6, 13, 19, "19", "5", 18, 3, 13),
        "Dance": (10, 1, 11, "11", "G+2", 12, 3, 1),
        "Groundcraft": (11, 4, 15, "15", "E+3", 12, 3, 4),
        "Hand-to-Hand Combat": (10, 4, 14, "14", "G", 12, 6, 8),
        "Handguns": (11, 4, 15, "15", "3", 12, 6, 8),
        "Initiative": (12, 4, 16, "16", "E+3", 12, 0, 8),
        "Lockpicking": (5, 4, 9, "9", "5", 15, 3, 4),
        "Pain Resistance": (9, 0, 9, "9", "5", 11, 0, 0),
        "Search": (12, 9, 21, "20", "E+3", 12, 0, 9),
        "Stamina": (9, 4, 13, "13", "5", 11, 0, 8),
        "Stealth": (10, 4, 14, "14", "E+3", 12, 0, 8),
        "Teach": (12, 2, 14, "14", "5", 12, 3, 2),
        "Theory": (6, 6, 12, "12", "5", 18, 9, 18),
    }
    assert (sheet.ucdc.ucdc, sheet.carrying_capacity.carry, sheet.carrying_capacity.drag) == (
        "1", 6, 96)  # fmt: skip
    assert (sheet.stamina.maximum, sheet.stamina.reserve, sheet.stamina.threshold) == (13, 7, 2)
    assert (sheet.theory_favored_picks, sheet.hth_favored_picks) == (1, 1)
    assert (sheet.wealth.level, sheet.competence) == ("Average", "Inexperienced")
    assert sheet.years_of_background == [3, 15]  # three factors after childhood (F:L667)
    assert sum(a.inherent for a in sheet.attributes) == 81


def test_the_free_package_is_free_and_struggling_gives_10():
    """F:L712: the Near Future package's language, literacy, basic physics and mathematics and
    seven environment points cost nothing; F:L1021-1023 (C17): Struggling gives 10 more."""
    sheet = run("character/create", amy(wealth_rows=-1))
    assert (sheet.general.left, sheet.wealth.level) == (37, "Struggling")
    free = {f.field: f.cost for f in sheet.fields if f.cost == 0}
    assert set(free) == {"Language (English)", "Literacy", "Physics", "Mathematics"}
    assert sum(e.cost for e in sheet.environments) == 0
    environments = [*AMY["environments"], {"name": "forest", "points": 2}]
    forest = run("character/create", amy(environments=environments))
    assert forest.general.left == 23


def test_selling_a_free_skill_off_at_creation():
    """F:L720 (C7): Pain Resistance sold off gives 3 and leaves the sheet; the GM hears why."""
    skills = [s for s in AMY["skills"] if s["skill"] != "Pain Resistance"]
    sheet = run("character/create", amy(skills=skills, sold_off=["Pain Resistance"]))
    assert sheet.general.left == 30
    assert "Pain Resistance" not in {s.skill for s in sheet.skills}
    assert any("Pain Resistance" in item for item in sheet.requires_gm_approval)


def test_kirth_gersens_background_makes_him_capable():
    """F:L651-655 (C28): ten factors are 'Capable'; 570 general, 160 education and seven
    inherent points (Personal Tragedy +2, Mysterious Mentor +2, Trained from Childhood +3)."""
    factors = [{"background": "Personal Tragedy", "attribute": "WP"},
               {"background": "Mysterious Mentor"}, {"background": "Trained from Childhood"},
               {"background": "Field/Specialist Training"},
               {"background": "Field/Specialist Training"},
               {"background": "Full-Time Education"}, {"background": "Academic Experience"},
               {"background": "Field Experience"}, {"background": "Field Experience"},
               {"background": "School of Hard Knocks"}]  # fmt: skip
    inherent = {"ST": 10, "EN": 10, "DX": 12, "AG": 12, "IN": 10, "PC": 12, "EM": 6, "WP": 10,
                "AP": 6}  # 81 + 7  # fmt: skip
    sheet = run("character/validate", {"backgrounds": factors, "inherent": inherent,
                                       "handedness": "left"})  # fmt: skip
    assert (sheet.general.available, sheet.education.available) == (570, 160)
    assert (sheet.background_factors, sheet.competence) == (10, "Capable")
    assert "Mysterious Mentor" in sheet.requires_gm_approval


def test_a_sheet_with_six_mistakes_names_all_six():
    """Catalogue 3.C.17: every violation at once, by field."""
    mistakes = amy(
        inherent={**AMY["inherent"], "ST": 4, "IN": 12, "PC": 12, "EM": 11},  # ST under 5
        trained={**AMY["trained"], "AP": 17},                            # over inherent + 4
        skills=[*AMY["skills"][:-1], {"skill": "Theory", "level": 19}],  # over 1.5 x 12 = 18
        handedness=None,                                                 # none chosen
        fields=[*AMY["fields"], {"field": "Tracking", "level": "basic"}],  # no basic level
        backgrounds=[*AMY["backgrounds"], {"background": "Mystic Talent"},
                     {"background": "Mystic Talent"}],                   # starred, twice
    )  # fmt: skip
    found = violations("character/validate", mistakes)
    assert found == [
        ("backgrounds", 5, "background"),
        ("inherent", "ST"),
        ("trained", "AP"),
        ("skills", 14, "level"),
        ("fields", 11, "level"),
        ("handedness",),
    ]


def test_sums_and_ranges_count_the_background_points():
    """F:L603: 15 Minutes of Fame gives AP +2, so the nine sum to 83, and AP 12 stands on a
    base of 10; points never lift a value past the range."""
    famous = [*AMY["backgrounds"], {"background": "15 Minutes of Fame"}]
    assert violations("character/validate", amy(backgrounds=famous)) == [("inherent",)]
    raised = {**AMY["inherent"], "AP": 12}
    sheet = run("character/validate", amy(backgrounds=famous, inherent=raised))
    assert sheet.general.left == 27 + 50 + 10  # its 50 points, and AP 12 needs no training
    low = {**raised, "AP": 6, "ST": 10, "EN": 10}  # a base of 4 under the +2
    trained = {**AMY["trained"], "ST": 10, "EN": 10, "AP": 10}
    found = violations("character/validate", amy(backgrounds=famous, inherent=low, trained=trained))
    assert found == [("inherent", "AP")]


def test_overspent_pools_and_favored_picks():
    """F:L752: the pools; F:L799: Hand-to-Hand 4 favors one class; F:L826: Theory 6 one field,
    known past basic."""
    rich = amy(wealth_rows=2, favored_weapons=["unarmed", "knives"],
               favored_fields=[{"field": "Surveillance"}])  # fmt: skip
    assert violations("character/validate", rich) == [
        ("favored_weapons",),
        ("favored_fields",),
        ("general",),
    ]
    fine = amy(favored_weapons=["unarmed"], favored_fields=[{"field": "Law"}])
    assert run("character/validate", fine).general.left == 27


def test_bad_names_are_violations_not_crashes():
    odd = amy(free_package="Atlantis", sold_off=["Juggling"], species="Vulcan",
              long_term_familiarities=[{"subject": "x", "skill": "Juggling"}],
              unique_insights=["Charisma"])  # fmt: skip
    found = violations("character/validate", odd)
    assert {loc[0] for loc in found} >= {"species", "free_package", "sold_off",
                                         "long_term_familiarities", "unique_insights"}  # fmt: skip
    with pytest.raises(InputError):
        run("character/create", amy(transfers=[{"source": "general", "points": 300}]))


def test_a_sheet_holds_one_insight_into_a_skill_and_one_ltf_by_any_name():
    """F:L1117: one unique insight into a skill; F:L1316, F:L2067: one long-term familiarity
    for an ability and subject, the skill known by any of its names (AMB-46), as cp/spend
    counts them."""
    twice = amy(unique_insights=["Charisma", "charisma"])
    assert ("unique_insights", 1) in violations("character/validate", twice)
    sword = {"subject": "my sword", "skill": "Hand-to-Hand Combat"}
    aliased = amy(long_term_familiarities=[sword, {**sword, "skill": "HTH Combat"}])
    assert violations("character/validate", aliased) == [("long_term_familiarities", 1)]


def test_background_points_that_cannot_fit():
    """AMB-17: by default a +2 that would lift AP past 12 is refused (the player lowers the
    base); `cap_and_waste` lets the sheet keep AP 12 and lose the points."""
    famous = [*AMY["backgrounds"], {"background": "15 Minutes of Fame"}]
    capped = {**AMY["inherent"], "AP": 12}  # base 12: the +2 is lost, the sum stays 83 - 2 + 2
    capped["EM"] = 8
    trained = {**AMY["trained"], "EM": 12}
    sheet = amy(backgrounds=famous, inherent=capped, trained=trained)
    assert violations("character/validate", sheet) == [("inherent",)]
    waste = {**sheet, "options": {"bonus_overflow": "cap_and_waste"}}
    assert run("character/validate", waste).options_applied.bonus_overflow == "cap_and_waste"


def test_a_long_term_familiarity_with_a_field_or_attribute_costs_ten():
    """F:L2063: N x 5 CPs, N the skill's Cost or 2 with a field of knowledge or an attribute;
    the ledger charges what familiarity/ltf says (a pistol with Handguns, Cost 2: 10 CPs,
    F:L2065; a ship known as a field: 10 CPs, not 2)."""
    found = run("cp/spend", {"general": 50, "long_term_familiarities": [{"subject": "my ship"}]})
    assert [line.cost for line in found.lines] == [10]
    assert found.general.left == 40
    assert run("familiarity/ltf", {"basis": "field"}).cost_cp == 10
    pistol = {"subject": "my pistol", "skill": "Handguns"}
    assert run("cp/spend", {"general": 50, "long_term_familiarities": [pistol]}).general.left == 40


def test_one_long_term_familiarity_and_one_insight_each_when_spending():
    """F:L2067: 'A character may not buy three long-term familiarities with handguns using a
    specific pistol' (and F:L1316: one LTF with a given situation or object); F:L1117: only one
    unique insight into a particular skill. The ledger charged the second of each again."""
    pistol = {"subject": "my pistol", "skill": "Handguns"}
    again = {**pistol, "subject": "My Pistol"}
    twice = {"general": 300, "long_term_familiarities": [pistol, again],
             "unique_insights": ["Charisma", "charisma"]}  # fmt: skip
    for name in ("cp/spend", "character/reallocate"):
        assert violations(name, twice) == [("long_term_familiarities", 1), ("unique_insights", 1)]
    other = {
        "general": 300,
        "unique_insights": ["Charisma", "Theory"],
        "long_term_familiarities": [
            pistol,
            {"subject": "my pistol", "skill": "Theory"},
            {"subject": "her rifle", "skill": "Handguns"},
        ],
    }
    assert [line.cost for line in run("cp/spend", other).lines] == [10, 15, 10, 10, 30]
