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
