"""FORESIGHT situational rules (catalogue 3.I.3-3.I.5, 3.I.8-3.I.9, 3.I.11, 3.I.13, 3.B.5)."""

from fractions import Fraction

import pytest

from service.rules.model import InputError
from tests.rules.foresight.calls import by_qr, odds, run


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


def test_the_urchin_picks_amys_pocket():
    """F:L1836-1838: his QR3 against her perception's QR4 is QR4 by the blocking table: she
    notices the brush a moment too late, and the phone is gone."""
    found = run("pickpocket", {"thief": {"qr": 3}, "victim": {"qr": 4}})
    assert (found.effective_qr, found.noticed, found.stolen) == (4, "as_it_happens", True)
    caught = run("pickpocket", {"thief": {"qr": 4}, "victim": {"qr": 1}})
    assert (caught.noticed, caught.stolen) == ("just_before", False)


def test_pickpocket_odds_follow_the_blocking_odds():
    """Rolled: each notice is the blocking QRs it stands for, as blocking-qr weighs them."""
    sides = {
        "thief": {"task": {"score": 12, "bef": 5}},
        "victim": {"task": {"score": 10, "bef": 7}},
    }
    found = {r.outcome: Fraction(r.exact) for r in odds("pickpocket", sides).noticed}
    blocking = odds("blocking-qr", {"attack": sides["thief"], "defense": sides["victim"]})
    effective = by_qr(blocking.effective.qr)
    assert found["not_noticed"] == sum(p for q, p in effective.items() if q <= 3)
    assert found.get("suspicion", Fraction(0)) == effective.get(10, Fraction(0))


def test_the_victims_perception_is_an_attribute_roll():
    """F:L1834: pickpocketing 'can be blocked, passively, by perception', the PC attribute;
    a PC task with no BEF takes the attribute BEF (AMB-01), as the option attribute_bef says,
    and not a refusal that leaves the option accepted but unused."""
    thief = {"task": {"score": 12, "bef": 5}}
    plain = odds("pickpocket", {"thief": thief, "victim": {"task": {"score": 10}}})
    seven = odds("pickpocket", {"thief": thief, "victim": {"task": {"score": 10, "bef": 7}}})
    assert plain.noticed == seven.noticed
    five = {"thief": thief, "victim": {"task": {"score": 10}}, "options": {"attribute_bef": 5}}
    given = {"thief": thief, "victim": {"task": {"score": 10, "bef": 5}}}
    assert odds("pickpocket", five).noticed == odds("pickpocket", given).noticed
    rolled = run("pickpocket", {**five, "dice": {"values": [50, 26]}})
    assert rolled.victim is not None
    assert rolled.victim.success_chance == 50
