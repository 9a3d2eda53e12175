"""FORESIGHT advancement (catalogue 3.E): awards, spending, education conversion (C26), skills
bought in play (C27) and training; the conversion's odds against the QR distribution."""

from fractions import Fraction

import pytest
from pydantic import ValidationError

from service.rules.model import InputError, Violations
from tests.rules.foresight.calls import by_qr, odds, run


@pytest.mark.parametrize(
    ("body", "points"),
    [({}, 5), ({"in_character": 5, "objectives": 5}, 15), ({"played": False}, 0),
     ({"in_character": 3, "rate_percent": 50}, 4)],
)  # fmt: skip
def test_awards(body, points):
    """F:L1071-1075: 5 a session, 1-5 more twice, so 5 to 15; the GM may scale (F:L1069)."""
    assert run("experience/award", body).award == points


def test_amy_converts_8_at_qr3_into_4_and_4():
    """C26, F:L1087: an IN roll at QR3 (50% yield) turns 4 of 8 into education points; later
    5 at QR1 are all education. IN 12 at the attribute BEF 7 is SC 84: a 30 is QR3."""
    found = run("experience/education-conversion", {"award": 8, "intelligence": 12,
                                                    "dice": {"values": [30]}})  # fmt: skip
    assert (found.roll.qr, found.education, found.general) == (3, 4, 4)
    best = run("experience/education-conversion", {"award": 5, "intelligence": 12,
                                                   "dice": {"values": [5]}})  # fmt: skip
    assert (best.roll.qr, best.education) == (1, 5)


def test_conversion_odds_follow_the_qr_table():
    """Each QR's yield of the award, weighted as the resolution odds weigh the QRs."""
    chances = odds("experience/education-conversion", {"award": 8, "intelligence": 12})
    qrs = by_qr(odds("attribute-as-skill", {"attribute": "IN", "value": 12}).qr)
    expected: dict[str, Fraction] = {}
    for qr, p in qrs.items():
        share = {1: Fraction(1), 2: Fraction(3, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
        key = str(int(8 * share.get(qr, Fraction(0)) + Fraction(1, 2)))
        expected[key] = expected.get(key, Fraction(0)) + p
    assert {r.outcome: Fraction(r.exact) for r in chances.education} == expected


def test_a_botch_can_cost_a_quarter():
    """AMB-26b: QR10's -25% yield takes 2 of 8 off the general points when the option says."""
    body = {"award": 8, "intelligence": 12, "options": {"botch_penalty": True},
            "dice": {"values": [100]}}  # fmt: skip
    found = run("experience/education-conversion", body)
    assert (found.roll.qr, found.education, found.general) == (10, 0, 6)


def test_spending_keeps_at_most_10():
    """F:L1085-1087: 13 banked (4 education, 9 general after a conversion): spending the 4 on
    Medicine leaves 9, none lost; spending nothing loses 3."""
    medicine = {"ability": "Medicine", "kind": "field", "cost": 4, "pool": "education"}
    assert run("experience/spend", {"general": 9, "education": 4, "purchases": [medicine]}
               ).forfeited == 0  # fmt: skip
    idle = run("experience/spend", {"general": 9, "education": 4, "purchases": []})
    assert (idle.forfeited, idle.general_left, idle.education_left) == (3, 6, 4)


def test_spending_rules_named_at_once():
    """F:L1079: one point at a time, a new skill not raised with it; F:L1081: fields with
    education points; and never more than banked."""
    bad = [{"ability": "Stealth", "kind": "skill", "steps": 2, "cost": 4},
           {"ability": "Dance", "kind": "skill", "cost": 3, "acquired_now": True},
           {"ability": "Dance", "kind": "skill", "cost": 1},
           {"ability": "Law", "kind": "field", "cost": 5}]  # fmt: skip
    with pytest.raises(Violations) as refused:
        run("experience/spend", {"general": 10, "purchases": bad})
    assert {e.loc for e in refused.value.errors} == {
        ("purchases", 0, "steps"), ("purchases", 2, "ability"), ("purchases", 3, "pool"),
        ("general",)}  # fmt: skip


def test_a_skill_bought_in_play():
    """C27, F:L1091: QR3 landing a plane unskilled buys Aircraft at level 0 for 3."""
    found = run("skill/acquire-in-play", {"skill": "Aircraft", "qr": 3, "banked": 5})
    assert (found.may_buy, found.cost, found.affordable) == (True, 3, True)
    assert not run("skill/acquire-in-play", {"skill": "Aircraft", "qr": 4, "banked": 5}).may_buy
    with pytest.raises(InputError):
        run("skill/acquire-in-play", {"skill": "Flying Carpet", "qr": 1, "banked": 5})


def test_training_time():
    """F:L1099: 5 character points for every three months; a failed WP roll, none."""
    assert run("training", {"months": 9}).points == 15
    assert run("training", {"months": 8}).points == 10
    assert run("training", {"months": 9, "dedicated": False}).points == 0


def test_one_point_an_ability_an_occasion_however_it_is_listed():
    """F:L1079 (AMB-26): no ability improves by more than one point at a time, listed twice
    or not; an unskilled attempt's QR is 1-4, 7 or 10 (F:L1091)."""
    twice = [{"ability": "Theory", "kind": "skill", "cost": 3}] * 2
    with pytest.raises(Violations) as error:
        run("experience/spend", {"general": 10, "purchases": twice})
    assert error.value.errors[0].loc == ("purchases", 1, "ability")
    found = run("experience/spend", {"general": 10, "purchases": twice[:1]})
    assert found.general_left == 7
    two = {"general": 10, "purchases": twice, "options": {"max_steps_per_occasion": 2}}
    assert run("experience/spend", two).general_left == 4
    with pytest.raises(ValidationError, match="qr"):
        run("skill/acquire-in-play", {"skill": "Aircraft", "qr": 5, "banked": 5})


def test_education_points_buy_fields_only():
    """F:L1081: the points an IN roll converts 'should be spent on the field(s) the character
    was supposedly studying' while 'the unconverted points can be spent on other stuff'; so
    education points do not buy a skill, an attribute or a familiarity."""
    for kind, ability in (("skill", "Stealth"), ("attribute", "DX"), ("familiarity", "Urban")):
        item = {"ability": ability, "kind": kind, "cost": 2, "pool": "education"}
        with pytest.raises(Violations) as refused:
            run("experience/spend", {"general": 4, "education": 5, "purchases": [item]})
        assert {e.loc for e in refused.value.errors} == {("purchases", 0, "pool")}
    general = {"ability": "Stealth", "kind": "skill", "cost": 2}
    found = run("experience/spend", {"general": 4, "education": 5, "purchases": [general]})
    assert (found.general_left, found.education_left) == (2, 5)
