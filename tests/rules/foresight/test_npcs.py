"""FORESIGHT instant NPCs (catalogue 3.G): C30-C32."""

import pytest
from pydantic import ValidationError

from service.rules.model import InputError
from tests.rules.foresight.calls import run


def _skills(found) -> dict[str, int]:
    return {s.skill: s.score for s in found.skills}


def test_a_competent_detective():
    """C30, F:L1226: Charisma 18, Search 18; best attributes PC and EM at 11, the rest 9."""
    found = run("npc/instant", {"competence": "Competent", "archetype": "Detective"})
    skills = _skills(found)
    assert (skills["Charisma"], skills["Search"], skills["Handguns"], skills["Stealth"]) == (
        18, 18, 12, 10)  # fmt: skip
    scores = {a.attribute: a.score for a in found.attributes}
    assert (scores["PC"], scores["EM"], scores["ST"]) == (11, 11, 9)


def test_an_educated_competent_detective_has_theory_12():
    """C31, F:L1245: the book says Theory 15, but Educated puts Theory among the secondary
    skills and a competent NPC's secondary score is 12 (F:L1233, AMB-13)."""
    found = run("npc/instant", {"competence": "Competent", "archetype": "Detective",
                                "modifiers": ["Educated"]})  # fmt: skip
    assert _skills(found)["Theory"] == 12


def test_the_gm_may_override_the_competence_row():
    """AMB-13 ('allow override'): the book's 15 for the educated competent detective's
    Theory (F:L1245) is the secondary tier at 15; the other tiers keep the printed row's."""
    detective = {"competence": "Competent", "archetype": "Detective"}
    override = {"secondary": "15", "best": 12}
    found = run("npc/instant", {**detective, "modifiers": ["Educated"],
                                "competence_override": override})  # fmt: skip
    skills = _skills(found)
    assert (skills["Theory"], skills["Handguns"], skills["Charisma"]) == (15, 15, 18)
    scores = {a.attribute: a.score for a in found.attributes}
    assert (scores["PC"], scores["ST"]) == (12, 9)
    expert = {"primary": "20+1", "other": "na"}
    plus = run("npc/instant", {**detective, "competence_override": expert})
    search = next(s for s in plus.skills if s.skill == "Search")
    assert (search.score, search.written) == (23, "20+1")
    assert "Stealth" not in _skills(plus)
    with pytest.raises(ValidationError):
        run("npc/instant", {**detective, "competence_override": {"primary": "x"}})


def test_a_charming_hotshot():
    """C32, F:L1245: Charming makes Charisma primary, the best tier of the two."""
    found = run("npc/instant", {"competence": "Veteran", "archetype": "Hotshot",
                                "modifiers": ["Charming"]})  # fmt: skip
    charisma = next(s for s in found.skills if s.skill == "Charisma")
    assert (charisma.tier, charisma.score, charisma.written) == ("primary", 23, "20+1")


def test_placeholders_and_na():
    """A placeholder takes its binding, else its 'e.g.'; Inept's 'other' tier has no score."""
    archery = [{"placeholder": "Weapon", "skill": "Archery"}]
    bound = run(
        "npc/instant", {"competence": "Inept", "archetype": "Assassin", "bindings": archery}
    )
    skills = _skills(bound)
    assert (skills["Archery"], "Longarms" in skills, "Disguise" in skills) == (10, False, False)
    with pytest.raises(InputError):
        run("npc/instant", {"competence": "Competent", "archetype": "Detective",
                            "modifiers": ["Rugged"]})  # fmt: skip


def _unlisted(found) -> dict[str, tuple[int, int, str]]:
    return {s.skill: (s.score, s.modifier, s.basis) for s in found.unlisted_skills}


def test_unlisted_skills_are_used_unskilled_from_the_npcs_attributes():
    """AMB-35 (default 'unskilled'): a competent detective (PC and EM 11, the rest 9) does not
    list Theory, so he rolls IN/2 = 4.5, rounded 5, at -1 (F:L1635-1637); Longarms is
    (DX+PC)/2 = 10; Sing is 10 (F:L816); Pain Resistance and Stamina are every character's
    at level 0 (F:L829): their formula, no -1. His HTH Combat is the table's Hand-to-Hand
    Combat (AMB-46), so it is listed, not unlisted."""
    found = run("npc/instant", {"competence": "Competent", "archetype": "Detective"})
    unlisted = _unlisted(found)
    assert unlisted["Theory"] == (5, -1, "unskilled")
    assert unlisted["Longarms"] == (10, -1, "unskilled")
    assert unlisted["Sing"] == (10, -1, "unskilled")
    assert unlisted["Pain Resistance"] == (9, 0, "free")
    assert unlisted["Stamina"] == (9, 0, "free")
    listed = {"Charisma", "Search", "Confidence", "Groundcraft", "Handguns", "Athletics",
              "Hand-to-Hand Combat", "Initiative", "Stealth"}  # fmt: skip
    assert not listed & set(unlisted)
    assert len(unlisted) + len(listed) == 45
    assert found.options_applied.unlisted_skill_mode == "unskilled"


def test_inept_na_skills_are_unskilled_or_absent():
    """AMB-35 covers Inept's 'na' tier too: an inept assassin's Disguise is not scored by the
    table, so it is (IN+EM)/4 = 12/4 = 3 unskilled (attributes 6, best AG DX PC 8); with
    'absent' the NPC has only the skills listed."""
    assassin = {"competence": "Inept", "archetype": "Assassin"}
    unlisted = _unlisted(run("npc/instant", assassin))
    assert unlisted["Disguise"] == (3, -1, "unskilled")
    assert unlisted["Charisma"] == (6, -1, "unskilled")
    assert unlisted["Pain Resistance"] == (6, 0, "free")
    absent = run("npc/instant", {**assassin, "options": {"unlisted_skill_mode": "absent"}})
    assert absent.unlisted_skills == []
    assert _skills(absent) == _skills(run("npc/instant", assassin))
