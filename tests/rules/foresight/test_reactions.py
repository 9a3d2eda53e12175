"""FORESIGHT NPC reactions (catalogue 3.I.1) against the demeanor table by net modifier (5.8)."""

from fractions import Fraction

import pytest

from tests.rules.foresight.calls import odds, run

ORDER = ("hostile", "unfriendly", "neutral", "friendly", "attracted")
#: Catalogue 5.8: percent of each demeanor and the mean interaction modifier, by net modifier.
T58 = {-5: ((60, 20, 20, 0, 0), "-2.0"), -4: ((50, 20, 30, 0, 0), "-1.7"),
       -3: ((40, 20, 40, 0, 0), "-1.4"), -1: ((20, 20, 40, 20, 0), "-0.6"),
       0: ((10, 20, 40, 20, 10), "0.0"), 1: ((0, 20, 40, 20, 20), "0.6"),
       3: ((0, 0, 40, 20, 40), "1.4"), 5: ((0, 0, 20, 20, 60), "2.0"),
       6: ((0, 0, 10, 20, 70), "2.3")}  # fmt: skip
#: A request with each net modifier: attraction, likeness and organisation.
NETS = {-5: (0, -2, "opposing"), -4: (1, -2, "opposing"), -3: (0, 0, "opposing"),
        -1: (0, -1, "none"), 0: (0, 0, "none"), 1: (0, 0, "friendly"), 3: (0, 0, "same"),
        5: (2, 0, "same"), 6: (2, 1, "same")}  # fmt: skip


@pytest.mark.parametrize("net", sorted(T58))
def test_demeanor_odds_match_5_8(net):
    attraction, likeness, organisation = NETS[net]
    found = odds("npc-reaction", {"attraction": attraction, "likeness": likeness,
                                  "organisation": organisation})  # fmt: skip
    shares = {r.outcome: Fraction(r.exact) for r in found.demeanor}
    percents, mean = T58[net]
    assert tuple(shares.get(d, Fraction(0)) * 100 for d in ORDER) == percents
    assert round(found.mean_interaction_modifier.float, 1) == float(mean)


def test_a_friendly_roll():
    """F:L2450-2455: 7 + 1 (attractive) + 1 (a friendly organisation) = 9: friendly, +1."""
    found = run("npc-reaction", {"attraction": 1, "organisation": "friendly",
                                 "dice": {"values": [7]}})  # fmt: skip
    assert (found.total, found.demeanor, found.interaction_modifier) == (9, "friendly", 1)


def test_rerolled_out_of_range():
    """AMB-51: rerolled, a -3 leaves the faces 4-10, totals 1-7: hostile 1 in 7, where
    clamped it is 4 in 10."""
    reroll = {"organisation": "opposing", "options": {"out_of_range": "reroll"}}
    shares = {r.outcome: Fraction(r.exact) for r in odds("npc-reaction", reroll).demeanor}
    assert shares == {"hostile": Fraction(1, 7), "unfriendly": Fraction(2, 7),
                      "neutral": Fraction(4, 7)}  # fmt: skip
