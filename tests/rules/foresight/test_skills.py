"""FORESIGHT skills (catalogue 3.C.10-3.C.11) against the book's examples (C8, C9, C11,
C19-C24 of catalogue 4.2; Amy's sheet of 4.3) and the catalogue's cumulative cost table."""

import pytest

from service.rules.foresight.characters.skills import SKILLS, cost_to_own
from service.rules.model import InputError
from tests.rules.foresight.calls import run

AMY = {"ST": 7, "EN": 7, "DX": 10, "AG": 8, "IN": 12, "PC": 12, "EM": 12, "WP": 11, "AP": 12}

#: Catalogue 3.C.11: the cumulative cost to own each level, level 0 included.
CUMULATIVE = {
    (1, "1"): [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37],
    (1, "1.5"): [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 22, 24, 26, 28, 30,
                 32],
    (2, "1"): [6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62, 66,
               70, 74],
    (2, "1.5"): [6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 40, 44, 48, 52, 56,
                 60, 64],
    (3, "1.5"): [9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 60, 66, 72, 78, 84,
                 90, 96],
}  # fmt: skip


def test_the_table_has_45_skills_and_four_free():
    """F:L776-829: 45 skills; Initiative, Pain Resistance, Search and Stamina free (F:L829)."""
    assert len(SKILLS) == 45
    assert [row.skill for row in SKILLS if row.free] == [
        "Initiative", "Pain Resistance", "Search", "Stamina"]  # fmt: skip
    theory = next(row for row in SKILLS if row.skill == "Theory")
    assert (theory.formula, theory.cost, theory.bef, theory.limit) == ("IN/2", 3, "5", "1.5")


@pytest.mark.parametrize(("key", "levels"), CUMULATIVE.items())
def test_cumulative_costs_match_the_catalogue(key, levels):
    """Catalogue 3.C.11's oracle table, level by level, through the service."""
    cost, limit = key
    skill = next(r.skill for r in SKILLS if r.cost == cost and r.limit == limit)
    found = [run("skill/cost", {"skill": skill, "to_level": level}).cost for level in range(23)]
    assert found == levels


def test_theory_costs_9_at_level_0_then_3_and_6():
    """C8, F:L764: cost 3, limit 1.5: 9 CP at level 0, 3 a level to 15, 6 a level beyond."""
    assert run("skill/cost", {"skill": "Theory", "to_level": 0}).cost == 9
    assert run("skill/cost", {"skill": "Theory", "from_level": 14, "to_level": 15}).cost == 3
    assert run("skill/cost", {"skill": "Theory", "from_level": 15, "to_level": 16}).cost == 6


def test_amys_level_0_skills_cost_45_not_48():
    """C9, F:L867: the book writes '16 x 3 = 48', but her ten bought skills' costs sum to 15
    (sixteen is the count of her whole list), so 45."""
    bought = ["Charisma", "Confidence", "Dance", "Disguise", "Groundcraft",
              "Hand-to-Hand Combat", "Handguns", "Lockpicking", "Teach", "Theory"]  # fmt: skip
    assert sum(run("skill/cost", {"skill": s, "to_level": 0}).cost for s in bought) == 45
    every = [*bought, "Athletics", "Initiative", "Pain Resistance", "Search", "Stamina", "Stealth"]
    assert sum(run("skill/cost", {"skill": s, "to_level": 1, "from_level": 0}).cost
               for s in every) == 26  # C11, F:L871  # fmt: skip


def test_a_free_skill_costs_nothing_at_level_0():
    """F:L829; C7, F:L720: Pain Resistance would cost 6 at level 0, so it sells for 3."""
    assert run("skill/cost", {"skill": "Pain Resistance", "to_level": 0}).cost == 6
    assert run("skill/cost", {"skill": "Pain Resistance", "to_level": 0, "free": True}).cost == 0
    assert run("skill/cost", {"skill": "Search", "to_level": 4, "free": True}).cost == 4


@pytest.mark.parametrize(
    ("skill", "levels", "cost"),
    [("Charisma", (4, 12), 10), ("Charisma", (4, 11), 8), ("Confidence", (4, 13), 9),
     ("Theory", (4, 7), 9), ("Search", (4, 10), 6), ("Search", (4, 9), 5)],
)  # fmt: skip
def test_amys_reallocation_costs(skill, levels, cost):
    """C19-C22 (F:L1043-1051); C23 and C24 (F:L1051): the book says Search 4 to 10 costs 5
    and 4 to 9 costs 4, but at 1 a level they are 6 and 5."""
    found = run("skill/cost", {"skill": skill, "from_level": levels[0], "to_level": levels[1]})
    assert found.cost == cost


@pytest.mark.parametrize(
    ("skill", "level", "score", "written", "top"),
    [("Athletics", 3, 11, "11", 8), ("Charisma", 11, 23, "20+1", 12), ("Confidence", 13, 19,
     "19", 18), ("Lockpicking", 4, 9, "9", 15), ("Search", 9, 21, "20", 12),
     ("Teach", 2, 14, "14", 12), ("Theory", 6, 12, "12", 18)],
)  # fmt: skip
def test_amys_final_sheet(skill, level, score, written, top):
    """Catalogue 4.3: formula rounded half up plus level (F:L762), 20+n (F:L233), and the
    maximum level: limit x the highest formula attribute, rounded up (F:L740)."""
    found = run("skill/score", {"skill": skill, "level": level, "attributes": AMY})
    assert (found.score, found.twenty_plus.written, found.max_level) == (score, written, top)
    assert run("skill/max-level", {"skill": skill, "attributes": AMY}).max_level == top


def test_sing_is_fixed_at_22_and_doubles_after_10():
    """F:L816: formula 10, limit '22 (fixed)' (AMB-09)."""
    assert run("skill/max-level", {"skill": "Sing", "attributes": {}}).max_level == 22
    assert run("skill/cost", {"skill": "Sing", "from_level": 10, "to_level": 11}).cost == 2
    later = {"skill": "Sing", "from_level": 10, "to_level": 11,
             "options": {"sing_double_cost_after": 22}}  # fmt: skip
    assert run("skill/cost", later).cost == 1
    assert cost_to_own(1, 10, 22) == 37


def test_a_formula_needs_its_attributes():
    with pytest.raises(InputError) as refused:
        run("skill/score", {"skill": "Handguns", "level": 1, "attributes": {"DX": 10}})
    assert refused.value.loc == ("attributes", "PC")


def test_favored_weapons():
    """F:L1786: unarmed once and swords twice: a sword is dodged at +2, anything else at +1;
    picks at levels 0 and 10, more from 10 at 10 CP (F:L799)."""
    found = run("skill/hth-favored", {"level": 10, "favored": ["unarmed", "swords", "swords"],
                                      "attacker_weapon": "swords"})  # fmt: skip
    assert (found.free_picks, found.extra_picks, found.extra_cost, found.defense_bonus) == (
        2, 1, 10, 2)  # fmt: skip
    axe = run("skill/hth-favored", {"level": 10, "favored": ["unarmed", "swords", "swords"],
                                    "attacker_weapon": "axes"})  # fmt: skip
    assert axe.defense_bonus == 1
    with pytest.raises(InputError):
        run("skill/hth-favored", {"level": 9, "favored": ["unarmed", "swords"]})
    with pytest.raises(InputError):
        run("skill/hth-favored", {"level": 20, "favored": ["swords"] * 3})


def test_theory_favors_a_field_a_5_levels():
    """F:L1965: Theory 9 gives one pick, 10 two; Physics and Astrophysics favored make +2 on
    Astrophysics; a field known only at basic cannot be favored."""
    known = [{"field": "Physics", "standard": True, "specializations": ["Astrophysics"]},
             {"field": "Biology", "standard": False}]  # fmt: skip
    both = [{"field": "Physics"}, {"field": "Physics", "specialization": "Astrophysics"}]
    found = run("skill/theory-favored", {"level": 10, "known": known, "favored": both,
                                         "working_on": both[1]})  # fmt: skip
    assert (found.picks, found.bonus) == (2, 2)
    assert run("skill/theory-favored", {"level": 9, "known": known, "favored": []}).picks == 1
    with pytest.raises(InputError):
        run("skill/theory-favored", {"level": 9, "known": known, "favored": both})
    with pytest.raises(InputError):
        run("skill/theory-favored", {"level": 5, "known": known, "favored": [{"field": "Biology"}]})
    with pytest.raises(InputError):
        run("skill/theory-favored", {"level": 5, "known": known, "favored": [both[1]]})


def test_harpsichord_12_starts_piano_at_9():
    """F:L796, F:L2003: 75% of 12 is 9; the skill is still acquired at 3 x cost (AMB-29)."""
    found = run("skill/generic-transfer", {"skill": "Generic Musical Instrument",
                                           "existing_level": 12, "percent": 75})  # fmt: skip
    assert (found.start_level, found.acquisition_cost) == (9, 3)
    half = {"skill": "Generic Musical Instrument", "existing_level": 5, "percent": 50}
    assert run("skill/generic-transfer", half).start_level == 3  # 2.5 rounds up
    with pytest.raises(InputError):
        run("skill/generic-transfer", {"skill": "Theory", "existing_level": 5, "percent": 50})


@pytest.mark.parametrize(
    ("named", "row"),
    [("Navigation", "Navigate"), ("HTH Combat", "Hand-to-Hand Combat"),
     ("Watercraft", "Watercraft, Powered"), ("Rowing", "Generic Sporting Skill"),
     ("kendo", "Generic Sporting Skill")],
)  # fmt: skip
def test_the_book_s_other_names_for_skills(named, row):
    """AMB-46's alias table: the Explorer's 'Navigation' (F:L1210) is the table's Navigate,
    'HTH Combat' (F:L646) Hand-to-Hand Combat, Rowing and kendo sporting skills (F:L1999,
    F:L1764); each is priced as its row."""
    found = run("skill/cost", {"skill": named, "to_level": 0})
    assert found.skill == row
    assert found.cost == run("skill/cost", {"skill": row, "to_level": 0}).cost


def test_animal_training_is_the_gm_s_to_define():
    """AMB-46: the book names Animal Training (F:L1689) but gives it no formula, cost or BEF."""
    with pytest.raises(InputError) as error:
        run("skill/cost", {"skill": "Animal Training", "to_level": 0})
    assert "GM" in error.value.message
