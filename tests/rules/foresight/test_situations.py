"""FORESIGHT situational rules (catalogue 3.I.3-3.I.4, 3.I.8-3.I.9, 3.I.11, 3.I.13, 3.B.5)."""

import pytest

from service.rules.model import InputError
from tests.rules.foresight.calls import run


def test_charisma_and_confidence_read_by_qr():
    """F:L1717-1725, F:L1735-1742."""
    assert run("reaction/charisma", {"qr": 2}).reaction == "You're all right."
    assert run("reaction/confidence", {"qr": 7}).reaction == "They don't believe the lie."
    with pytest.raises(InputError):
        run("reaction/charisma", {"qr": 5})


def test_three_levels_drunk():
    """F:L2404: level 3 is +3 Pain Resistance, -2 to all activity, -3 more to concentration."""
    found = run("intoxication", {"level": 3})
    assert (found.pain_resistance, found.all_activity, found.concentration) == (3, -2, -3)
    mild = run("intoxication", {"level": 1})
    assert (mild.pain_resistance, mild.all_activity, mild.concentration) == (1, 0, -1)


def test_ranges_fields_tools_and_spin():
    """F:L1912-1919, F:L2386-2412, F:L2039, F:L2112-2114."""
    forest = run("engagement-ranges", {"terrain": "light forest, mountains"})
    assert (forest.contact, forest.observation) == (15, 250)
    assert "PM -1" in run("unarmed-fields", {"field": "Unarmed Combat Lethal"}).effect
    bare = run("tools-of-trade-substitute", {"has_tools_skill": False})
    assert (bare.ability, bare.modifier) == ("DX", -3)
    assert run("tools-of-trade-substitute", {"has_tools_skill": True}).bef == 6
    station = run("spin-gravity", {"gravity": 0.2})
    assert (station.band, station.most_activity, station.throwing_and_gymnastics) == (
        "LT", -1, -2)  # fmt: skip
