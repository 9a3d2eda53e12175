"""FORESIGHT fields of knowledge (catalogue 3.C.12): Amy's education (C16) and languages."""

import pytest

from service.rules.foresight.characters.fields import FIELDS
from service.rules.model import InputError
from tests.rules.foresight.calls import run


def test_the_table_has_52_fields():
    """F:L923-977; a blank cell is no such level."""
    assert len(FIELDS) == 52
    photography = next(r for r in FIELDS if r.field == "Photography")
    assert (photography.basic, photography.standard, photography.specialization) == (None, 5, 10)


def test_amys_education_costs_95():
    """C16 (F:L982-992): Computer Science, Law, Psychology and Forensic Science 5 + 15 each;
    Photography 5 (the book says "(Basic)", but the field has no basic level, AMB-19: its
    entry is standard at 5); Surveillance basic 5; Unarmed Combat Defensive 5."""
    buys = [("Computer Science", "standard"), ("Law", "standard"), ("Psychology", "standard"),
            ("Forensic Science", "standard"), ("Photography", "standard"),
            ("Surveillance", "basic"), ("Unarmed Combat Defensive", "standard")]  # fmt: skip
    costs = [run("field/level", {"field": f, "target": t}).cost for f, t in buys]
    assert costs == [20, 20, 20, 20, 5, 5, 5]
    assert sum(costs) == 95


def test_specializations_need_standard_knowledge():
    """F:L901; optionally on basic knowledge at 20% more (F:L903)."""
    owned = {"field": "Physics", "owned": "standard", "target": "specialization"}
    assert run("field/level", owned).cost == 10
    with pytest.raises(InputError) as refused:
        run("field/level", {**owned, "owned": "basic"})
    assert refused.value.loc == ("owned",)
    assert run("field/level", {**owned, "owned": "basic", "with_basic_only": True}).cost == 12
    with pytest.raises(InputError):
        run("field/level", {"field": "Photography", "target": "basic"})
    early = {"field": "Physics", "target": "standard", "early": True}
    assert run("field/level", early).cost == 25  # basic doubled one TL early (F:L909)


@pytest.mark.parametrize(
    ("body", "cost", "pool"),
    [({"language": "Language (New Alphabet)", "target": "standard"}, 35, "education"),
     ({"language": "Language (New Alphabet)", "target": "standard", "immersion": True}, 18,
      "education"),
     ({"language": "Language", "target": "standard", "wide_travels": True}, 20, "general"),
     ({"language": "Language", "target": "standard", "wide_travels": True,
       "options": {"wide_travels_mode": "one_for_one_half_price"}}, 10, "general"),
     ({"language": "Language", "target": "standard", "wide_travels": True, "immersion": True,
       "options": {"wide_travels_mode": "one_for_one_half_price"}}, 10, "general")],
)  # fmt: skip
def test_languages(body, cost, pool):
    """F:L2250: immersion halves a language (17.5 rounds up); F:L635, AMB-18: Wide Travels'
    general points buy languages one for one; never more than half off in all."""
    found = run("field/language-discount", body)
    assert (found.cost, found.pool) == (cost, pool)


@pytest.mark.parametrize(
    ("named", "row"),
    [("Forensics", "Forensic Science"), ("Musical Composition", "Musical Theory"),
     ("Market Field (Vehicles)", "Generic Market Field"), ("Vehicle Maintenance", "Generic Trade"),
     ("Language (French)", "Language")],
)  # fmt: skip
def test_the_book_s_other_names_for_fields(named, row):
    """AMB-46's alias table: the detective's 'Forensics' (F:L1204) is Forensic Science,
    'Musical Composition' (F:L2316) Musical Theory, the Mechanic's 'Market Field (Vehicles)'
    (F:L1220) a market field and his 'Vehicle Maintenance' a trade (car mechanics, F:L2434)."""
    found = run("field/level", {"field": named, "target": "standard"})
    assert found.field == row
    assert found.cost == run("field/level", {"field": row, "target": "standard"}).cost
