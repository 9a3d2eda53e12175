"""FORESIGHT free packages, sell-offs and wealth (catalogue 3.C.7, 3.C.8, 3.C.14): C6, C7,
C17 and the wealth table."""

from fractions import Fraction

import pytest

from service.rules.model import InputError
from tests.rules.foresight.calls import run


def test_amys_near_future_package():
    """C6, F:L712: English, Literacy, Interior 3, Suburban 2, Urban 2, Basic Physics, Basic
    Mathematics, Athletics and Stealth at level 0 (the gravities the example leaves out)."""
    found = run("free-packages", {"setting": "Near Future"})
    assert {e.environment: e.points for e in found.environments} == {
        "interior": 3, "urban": 2, "suburban": 2}  # fmt: skip
    assert found.environment_points_to_choose == 0
    assert {"Basic Physics", "Basic Math"} <= set(found.fields)
    assert found.skills == ["Athletics", "Stealth", "Initiative", "Pain Resistance", "Search",
                            "Stamina"]  # fmt: skip


def test_the_colony_world_has_8_points():
    """F:L708 says 8 but itemises 2 + 1 + 4: read as 8 with 5 to choose (AMB-20)."""
    assert (
        run("free-packages", {"setting": "Far Future Colony World"}).environment_points_to_choose
        == 5
    )
    with pytest.raises(InputError):
        run("free-packages", {"setting": "Atlantis"})


def test_pain_resistance_sells_for_3():
    """C7, F:L720: it would cost 6 at level 0."""
    found = run("free-items/sell-off", {"skill": "Pain Resistance"})
    assert (found.refund, found.ledger) == (3, "general")
    assert run("free-items/sell-off", {"skill": "Search"}).refund == 2  # 1.5 rounds up
    assert run("free-items/sell-off", {"cost": 5, "field": True}).ledger == "education"


def test_a_free_skill_refunds_general_points_only():
    """F:L720, F:L714: a skill is bought, so sold back, with general ('ability') points; a
    skill marked as a field is refused rather than refunded as education points."""
    with pytest.raises(InputError) as refused:
        run("free-items/sell-off", {"skill": "Stealth", "field": True})
    assert refused.value.loc == ("field",)


@pytest.mark.parametrize(
    ("body", "level", "worth", "cp"),
    [({}, "Average", 25_000, 0), ({"bought_rows": -1}, "Struggling", 5_000, -10),
     ({"bought_rows": 2}, "Rich", 500_000, 40), ({"background_rows": 4}, "Filthy Rich +1",
     10_000_000, 0), ({"start": "Poor", "background_rows": -5}, "Starvation", 40, 0)],
)  # fmt: skip
def test_wealth(body, level, worth, cp):
    """F:L1006-1015 and F:L747-748; C17 (F:L1023): Average to Struggling for +10 CP."""
    found = run("wealth", body)
    assert (found.level, Fraction(found.worth.exact), found.cp_cost) == (level, worth, cp)


def test_wealth_times_five_throughout():
    """AMB-15: the footer's x5 gives Rich 625,000 and Filthy Rich 3,125,000."""
    five = {"bought_rows": 3, "options": {"wealth_series": "times_five"}}
    assert Fraction(run("wealth", five).worth.exact) == 3_125_000


def test_the_richest_rows_are_exact():
    """Thirty rows past Average: Filthy Rich +27, 2,000,000 x 5^27, which no
    GraphQL integer holds, so the worth is exact as a string."""
    found = run("wealth", {"bought_rows": 10, "background_rows": 20})
    assert Fraction(found.worth.exact) == 2_000_000 * 5**27


def test_no_points_back_for_wealth_rows_below_starvation():
    """F:L748: -10 CPs a row given up; nothing is below Starvation (catalogue 3.C.14, clamped),
    so from Average (four rows up) at most four rows earn points back."""
    assert run("wealth", {"start": "Average", "bought_rows": -4}).cp_cost == -40
    found = run("wealth", {"start": "Average", "bought_rows": -5})
    assert (found.level, found.cp_cost) == ("Starvation", -40)
    assert run("wealth", {"start": "Starvation", "bought_rows": -1}).cp_cost == 0
    assert run("wealth", {"start": "Average", "bought_rows": 2}).cp_cost == 40
