"""FORESIGHT background factors, competence and point transfers (catalogue 3.C.4-3.C.6,
3.C.15) against the book's examples (C4, C5, C28)."""

import pytest

from service.rules.foresight.characters.backgrounds import BACKGROUNDS, WORTH
from service.rules.model import InputError, Violations
from tests.rules.foresight.calls import run

AMY = ["Comfortable Childhood", "Full-Time Education", "Field/Specialist Training",
       "Field Experience"]  # fmt: skip


def _value(row) -> int:
    """What a standard factor is worth: 10 an attribute point, 20 a wealth row up, -10 down."""
    points = row.free_points + sum(g.points for g in row.grants) + 2 * bool(row.either)
    wealth = 20 * row.wealth if row.wealth > 0 else 10 * row.wealth
    return (row.general or 0) + row.education + 10 * points + wealth + 40 * bool(row.choose_two)


@pytest.mark.parametrize("row", [r for r in BACKGROUNDS if r.general is not None and not r.talent
                                 and r.background != "Religious Transformation"],
                         ids=lambda r: r.background)  # fmt: skip
def test_every_standard_factor_is_worth_80(row):
    """F:L655: 'A background factor is simply worth 80 character points'."""
    assert _value(row) == WORTH


def test_amys_backgrounds_give_225_and_95():
    """C4, C5 (F:L671-681, F:L752)."""
    found = run("background", {"backgrounds": [{"background": b} for b in AMY]})
    assert (found.general, found.education, found.childhood_factors) == (225, 95, 1)
    assert found.requires_gm_approval == []


def test_kirth_gersen():
    """C28 (F:L651): ten factors, 570 general, 160 education and 7 inherent points; with 70
    for those points, 800 = 10 x 80."""
    factors = [{"background": "Personal Tragedy", "attribute": "WP"},
               {"background": "Mysterious Mentor"}, {"background": "Trained from Childhood"},
               {"background": "Field/Specialist Training"},
               {"background": "Field/Specialist Training"},
               {"background": "Full-Time Education"}, {"background": "Academic Experience"},
               {"background": "Field Experience"}, {"background": "Field Experience"},
               {"background": "School of Hard Knocks"}]  # fmt: skip
    found = run("background", {"backgrounds": factors})
    points = found.free_attribute_points + sum(g.points for g in found.grants)
    assert (found.general, found.education, points) == (570, 160, 7)
    assert found.general + found.education + 10 * points == 800
    assert run("character/competence", {"background_factors": 10}).competence == "Capable"


def test_every_mistake_is_named_at_once():
    """F:L663: a factor marked * is taken once; F:L646: Martial Arts Academy needs inherent
    AG, WP and PC of 10 or more; AMB-16: Ch'i Talent has no printed points."""
    bad = [{"background": "Superior Specimen"}, {"background": "Superior Specimen"},
           {"background": "Martial Arts Academy", "choices": ["+2 AG", "+2 AG"]},
           {"background": "Ch'i Talent"}, {"background": "Astronaut"}]  # fmt: skip
    with pytest.raises(Violations) as refused:
        run("background", {"backgrounds": bad, "inherent": {"AG": 10, "WP": 9, "PC": 12}})
    assert {e.loc for e in refused.value.errors} == {
        ("backgrounds", 1, "background"), ("inherent",), ("backgrounds", 3, "general"),
        ("backgrounds", 4, "background")}  # fmt: skip


def test_choices_and_gm_values():
    """F:L646: two different options (AMB-16b); the GM may price a blank talent (AMB-16)."""
    academy = {"background": "Martial Arts Academy", "choices": ["+2 AG", "+2 WP"]}
    high = {"AG": 10, "WP": 10, "PC": 10}
    found = run("background", {"backgrounds": [academy], "inherent": high})
    assert [(g.attribute, g.points) for g in found.grants] == [("AG", 2), ("WP", 2)]
    twice = {**academy, "choices": ["+2 AG", "+2 AG"]}
    with pytest.raises(InputError):
        run("background", {"backgrounds": [twice], "inherent": high})
    allowed = {"backgrounds": [twice], "inherent": high,
               "options": {"allow_duplicate_choice": True}}  # fmt: skip
    assert len(run("background", allowed).grants) == 2
    chi = run("background", {"backgrounds": [{"background": "Ch'i Talent", "general": 40}]})
    assert (chi.general, chi.talents, chi.requires_gm_approval) == (40, ["Ch'i"], ["Ch'i Talent"])


@pytest.mark.parametrize(
    ("count", "label", "prose"),
    [(2, "Bumbling", "hopelessly inexperienced"), (4, "Inexperienced", "competent"),
     (5, "Competent", "competent"), (6, "Competent", "formidable"), (15, "Awesome", "formidable")],
)  # fmt: skip
def test_competence(count, label, prose):
    """F:L567-573, and the prose's rough guide (F:L563, AMB-14)."""
    assert run("character/competence", {"background_factors": count}).competence == label
    rough = {"background_factors": count, "options": {"scale": "prose"}}
    assert run("character/competence", rough).competence == prose


def test_a_custom_factor_is_worth_80():
    """F:L655-657: 10 an inherent attribute point; F:L747-748: wealth 20 up, 10 down."""
    assert run(
        "background/custom", {"general": 50, "education": 10, "attribute_points": 2}
    ).balanced
    short = run("background/custom", {"general": 50, "education": 10})
    assert (short.balanced, short.short_by) == (False, 20)
    assert run("background/custom", {"general": 70, "education": 20, "wealth_rows": -1}).balanced


def test_two_points_buy_one_of_the_other_kind():
    """F:L714."""
    found = run("cp/transfer", {"source": "general", "points": 10})
    assert (found.target, found.received) == ("education", 5)
