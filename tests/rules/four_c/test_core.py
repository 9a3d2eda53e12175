"""The 4C core against the seed's examples (catalogue 4c.md 4.1 E1-E5, 4.2 T26), the Master
Tables, and an independent enumeration of every d% (oracle.py; catalogue 5.4, 5.5)."""

from fractions import Fraction
from typing import Any

import pytest

from service.rules.four_c.combat.damage import damage
from service.rules.four_c.core.dice import d100, ndx
from service.rules.four_c.core.fortune import alter_roll, greater_of
from service.rules.four_c.core.master_table import check, resolve
from service.rules.four_c.core.ranks import apply_row_steps, rank_row
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

# Examples (catalogue 4.1)


def test_richard_rolls_83():
    """E1, C:L47: the tens die shows 8, the ones die 3: 83."""
    assert run(d100, {"dice": {"values": [8, 3]}}).roll == 83


def test_double_zero_is_zero():
    """C:L45: 00 is 0, not 100 (a d10's 0 face is sent as 10)."""
    rolled = run(d100, {"dice": {"values": [10, 10]}})
    assert (rolled.tens, rolled.ones, rolled.roll) == ((0,), (0,), 0)


@pytest.mark.parametrize(("steps", "row", "floor"), [([1], 6, 30), ([-2], 3, 6)])
def test_row_steps_move_a_row(steps, row, floor):
    """E2, E3, C:L951: +1 moves 20-29 to 30-39, -2 moves it to 6-9 (passing 10-19)."""
    moved = run(apply_row_steps, {"rv": 25, "row_steps": steps})
    assert (moved.row_before, moved.row, moved.rv_effective) == (5, row, floor)


def test_jessicas_karate_chop_reads_row_40_49():
    """E4, C:L953: Melee 30-39 with a +1 Row Step is 40-49 for this attack."""
    moved = run(apply_row_steps, {"rv": 35, "row_steps": [1]})
    assert (moved.row, moved.rv_effective) == (7, 40)
    found = run(rank_row, {"rv": moved.rv_effective})
    assert (found.rv_min, found.rv_max, found.description) == (40, 49, "Low superhuman")


def test_tony_buys_one_shift_and_keeps_12():
    """E5, C:L963: Tony wants blue down to black (50 Fortune) but has 37: one shift to red,
    the opponent still succeeds, and Tony keeps 12."""
    altered = run(
        alter_roll,
        {"colour": "blue", "contributions": [{"payer": "Tony", "fortune": 37, "shifts": -2}]},
    )
    assert altered.colour == "red"
    [paid] = altered.payments
    assert (paid.shifts_wanted, paid.shifts_bought, paid.spent, paid.fortune_left) == (
        -2,
        -1,
        25,
        12,
    )


def test_opposing_payers_cancel_and_both_pay():
    """T26 (A-67): a red roll, an ally pays +1, an enemy -2: net -1, black; both are charged."""
    altered = run(
        alter_roll,
        {
            "colour": "red",
            "contributions": [
                {"payer": "ally", "fortune": 25, "shifts": 1},
                {"payer": "enemy", "fortune": 60, "shifts": -2},
            ],
        },
    )
    assert (altered.colour, altered.net_shifts) == ("black", -1)
    assert [p.spent for p in altered.payments] == [25, 50]


def test_shifts_that_change_nothing_are_refused():
    """Catalogue 3.2.2: nobody pays to push a yellow roll further up."""
    with pytest.raises(InputError) as refused:
        run(
            alter_roll,
            {"colour": "yellow", "contributions": [{"payer": "a", "fortune": 99, "shifts": 1}]},
        )
    assert refused.value.loc == ("contributions",)
    with pytest.raises(InputError) as broke:
        run(
            alter_roll,
            {"colour": "red", "contributions": [{"payer": "a", "fortune": 24, "shifts": 1}]},
        )
    assert broke.value.loc == ("contributions", 0, "fortune")
    with pytest.raises(InputError) as idle:
        run(
            alter_roll,
            {"colour": "red", "contributions": [{"payer": "a", "fortune": 99, "shifts": 0}]},
        )
    assert idle.value.loc == ("contributions", 0, "shifts")


def test_the_greater_of_power_and_trait_plus_ten():
    """Catalogue 3.0: the power's Rank Value or the trait +10, whichever is greater."""
    found = run(greater_of, {"power_rv": 20, "trait_rv": 30})
    assert (found.rv, found.source) == (40, "trait")
    assert run(greater_of, {"power_rv": 50, "trait_rv": 30}).source == "power"
    assert run(greater_of, {"power_rv": 20, "trait_rv": 30, "bonus": 0}).rv == 30


# Rows and Master Tables


@pytest.mark.parametrize(
    ("rv", "ladder", "row"),
    [
        (0, "libre-basic", 0),
        (2, "libre-basic", 1),
        (1000, "libre-basic", 12),
        (5000, "libre-basic", 12),  # past 1000, the 1000 row (catalogue 3.1.2)
        (150, "libre-advanced", 11),
        (1200, "libre-advanced", 14),
        (99_999, "libre-advanced", 17),
    ],
)
def test_the_row_of_a_rank_value(rv, ladder, row):
    found = run(rank_row, {"rv": rv, "master_table": ladder})
    assert (found.row, found.master_table) == (row, ladder)


def test_rank_names_are_the_optional_rules():
    """C:L288-306: Rank Names of 150-999 and their abstract note."""
    found = run(rank_row, {"rv": 500})
    assert found.rank_names == ("Inconceivable", "Indescribable", "Unthinkable")
    assert found.note is not None
    assert "Move A" in found.note


def test_row_steps_are_summed_then_clamped():
    """A-04: penalties stop at row 0 (or row 1 by option), bonuses at the top row."""
    assert run(apply_row_steps, {"rv": 1, "row_steps": [-3, -2]}).row == 0
    clamp_one = {"rv": 1, "row_steps": [-5], "options": {"rs_clamp_min_row": 1}}
    assert run(apply_row_steps, clamp_one).row == 1
    assert run(apply_row_steps, {"rv": 30, "row_steps": [20, 5]}).row == 12
    assert run(apply_row_steps, {"rv": 30, "row_steps": [3, -3]}).rv_effective == 30


def test_no_row_step_leaves_the_value_on_a_row_clamped_up():
    """Catalogue 3.1.3 (A-04): with no net Row Step the Rank Value stands as it is; with
    rs_clamp_min_row=1 a Rank Value 0 reads row 1 but is still 0, so Brawn 0 throws for 0
    (C:L198, C:L1167), not 1."""
    clamped = {"rv": 0, "options": {"rs_clamp_min_row": 1}}
    found = run(apply_row_steps, clamped)
    assert (found.row, found.rv_effective) == (1, 0)
    assert run(apply_row_steps, {**clamped, "row_steps": [2, -2]}).rv_effective == 0
    assert run(apply_row_steps, {**clamped, "row_steps": [-1]}).rv_effective == 0
    thrown = {"attack": "thrown", "brawn": 0, "material_value": 20,
              "options": {"rs_clamp_min_row": 1, "thrown_damage": "brawn"}}  # fmt: skip
    assert run(damage, thrown).raw == 0
    unarmed = {"attack": "unarmed", "brawn": 0, "options": {"rs_clamp_min_row": 1}}
    assert run(damage, unarmed).raw == 0


@pytest.mark.parametrize("row_value", ["floor", "offset"])
def test_a_penalty_never_raises_a_rank_value_0(row_value):
    """Catalogue 3.1.3, C:L951: a -1 Row Step moves the value one row lower. With
    rs_clamp_min_row=1 a Rank Value 0 reads row 1 (A-04), but a penalty does not lift it to
    that row's 1: a red block (-1 Row Step on the attacker's Brawn, C:L1206-1211) on Brawn 0
    leaves 0 damage, not 1."""
    options = {"rs_clamp_min_row": 1, "row_value": row_value}
    found = run(apply_row_steps, {"rv": 0, "row_steps": [-1], "options": options})
    assert (found.row, found.rv_effective) == (1, 0)
    blocked = {"attack": "unarmed", "brawn": 0, "brawn_row_steps": -1, "options": options}
    assert run(damage, blocked).raw == 0
    # A value above row 1 still falls to row 1: its floor 1, or 2 keeping 5's place in 3-5.
    lowered = run(apply_row_steps, {"rv": 5, "row_steps": [-3], "options": options})
    assert lowered.rv_effective == {"floor": 1, "offset": 2}[row_value]


def test_row_value_offset_keeps_the_place_in_the_row():
    """A-03: 25 up one row is 30 (the floor), or 35 keeping its offset."""
    offset = {"rv": 25, "row_steps": [1], "options": {"row_value": "offset"}}
    assert run(apply_row_steps, offset).rv_effective == 35


def test_coordination_1000_is_black_only_on_00_to_04():
    """The basic table's top row keeps five black faces (rules/4c-master-table.md)."""
    assert run(resolve, {"rv": 1000, "dice": {"values": [10, 4]}}).colour == "black"
    assert run(resolve, {"rv": 1000, "dice": {"values": [10, 5]}}).colour == "red"
    assert table(odds(resolve, {"rv": 1000}).colour)["black"] == Fraction(5, 100)


def test_a_roll_modifier_piles_up_at_00():
    """Catalogue 5.1: with -20, the rolls 00-20 all read 00 (21 of 100)."""
    rolled = run(resolve, {"rv": 20, "roll_modifier": -20, "dice": {"values": [1, 5]}})
    assert (rolled.d100.roll, rolled.roll_used) == (15, 0)


def test_a_check_succeeds_at_the_required_colour_or_better():
    assert run(check, {"rv": 20, "required": "blue", "dice": {"values": [7, 10]}}).success
    assert not run(check, {"rv": 20, "required": "blue", "dice": {"values": [6, 9]}}).success


def test_a_table_of_ones_own_is_read_and_named():
    rows = [
        {"row": 0, "rv_min": 0, "rv_max": 9, "bands": {"black": [0, 49], "yellow": [50, 99]}},
        {"row": 1, "rv_min": 10, "rv_max": None, "bands": {"red": [0, 99]}},
    ]
    request = {"rv": 12, "custom_master_table": {"name": "house", "rows": rows}}
    assert (run(resolve, {**request, "dice": {"values": [1, 1]}}).colour) == "red"
    assert table(odds(resolve, request).colour) == {"red": 1}
    assert odds(resolve, request).master_table == "house"


@pytest.mark.parametrize(
    ("bands", "message"),
    [
        ({"black": [0, 49], "red": [49, 99]}, "start at 50"),
        ({"black": [0, 49], "red": [60, 99]}, "start at 50"),
        ({"black": [0, 89]}, "cover every roll"),
        ({"red": [0, 49], "black": [50, 99]}, "start at 00"),
    ],
)
def test_a_table_whose_bands_do_not_cover_the_roll_is_refused(bands, message, client):
    rows = [{"row": 0, "rv_min": 0, "rv_max": None, "bands": bands}]
    answer = client.post(
        "/v1/four-c/master-table/resolve",
        json={"rv": 5, "custom_master_table": {"name": "bad", "rows": rows}},
    )
    assert answer.status_code == 422
    [error] = answer.json()["errors"]
    assert error["pointer"].startswith("/custom_master_table/rows/0/bands")
    assert message in error["detail"]


def test_a_table_with_a_gap_in_its_rank_values_is_refused(client):
    bands = {"black": [0, 99]}
    rows = [
        {"row": 0, "rv_min": 0, "rv_max": 9, "bands": bands},
        {"row": 1, "rv_min": 11, "rv_max": None, "bands": bands},
    ]
    answer = client.post(
        "/v1/four-c/master-table/resolve",
        json={"rv": 5, "custom_master_table": {"name": "gap", "rows": rows}},
    )
    assert answer.status_code == 422
    assert "start at Rank Value 10" in answer.text


# Exact odds against the enumeration


CASES = [
    (rv, steps, modifier, mode, ladder)
    for rv in (0, 1, 7, 25, 35, 60, 150, 1000, 3000)
    for steps in (0, -2, 3)
    for modifier in (0, -20)
    for mode in ("normal", "amplified", "nine_lives")
    for ladder in ("libre-basic", "libre-advanced")
]


@pytest.mark.parametrize(("rv", "steps", "modifier", "mode", "ladder"), CASES)
def test_colour_odds_match_the_enumeration(rv, steps, modifier, mode, ladder):
    payload = {"rv": rv, "row_steps": [steps], "roll_modifier": modifier, "mode": mode,
               "master_table": ladder}  # fmt: skip
    expected = oracle.colour_odds(rv, steps, modifier, mode, ladder)
    assert table(odds(resolve, payload).colour) == {c: p for c, p in expected.items() if p}


@pytest.mark.parametrize("required", oracle.COLOURS)
def test_check_odds_with_a_fortune_budget(required):
    """Catalogue 5.1: with k shifts to buy, success is P(colour >= required - k)."""
    found = odds(check, {"rv": 20, "required": required})
    expected = oracle.colour_odds(20)
    need = oracle.COLOURS.index(required)
    for bought in found.with_fortune:
        wanted = sum(
            p for c, p in expected.items() if oracle.COLOURS.index(c) >= need - bought.shifts
        )
        assert Fraction(bought.success.exact) == wanted
        assert bought.fortune == 25 * bought.shifts
    short = sum(p * max(need - oracle.COLOURS.index(c), 0) for c, p in expected.items())
    assert Fraction(found.expected_fortune_to_succeed.exact) == 25 * short


def survival(rows: Any, x: int) -> Fraction:
    return sum((p for roll, p in table(rows).items() if int(roll) >= x), Fraction(0))


@pytest.mark.parametrize(
    ("x", "plain", "amplified", "nine_lives"),
    [
        (10, "90", "99.0", "99"),
        (50, "50", "75.0", "75"),
        (80, "20", "36.0", "36"),
        (90, "10", "19.0", "19"),
        (95, "5", "9.5", "9"),
    ],
)
def test_special_readings_match_the_catalogue(x, plain, amplified, nine_lives):
    """Catalogue 5.5: P(roll >= x) of each mode."""
    for mode, printed in (("normal", plain), ("amplified", amplified), ("nine_lives", nine_lives)):
        assert survival(odds(d100, {"mode": mode}).roll, x) == Fraction(printed) / 100, mode


@pytest.mark.parametrize(
    ("mode", "mean"), [("normal", "49.5"), ("amplified", "66"), ("nine_lives", "64.35")]
)
def test_reading_means_match_the_catalogue(mode, mean):
    assert Fraction(odds(d100, {"mode": mode}).mean.exact) == Fraction(mean)


@pytest.mark.parametrize(
    ("count", "add", "low", "high", "mean"),
    [(1, 0, 1, 10, "5.5"), (2, 0, 2, 20, "11"), (3, 0, 3, 30, "16.5"), (2, 10, 12, 30, "21"),
     (2, 5, 7, 25, "16"), (3, 5, 8, 35, "21.5")],
)  # fmt: skip
def test_durations_match_the_catalogue(count, add, low, high, mean):
    """Catalogue 5.4: NdX+add ranges and means, each d10 reading 1-10 (A-26)."""
    found = odds(ndx, {"count": count, "add": add})
    totals = [int(row.outcome) for row in found.total]
    assert (min(totals), max(totals), Fraction(found.mean.exact)) == (low, high, Fraction(mean))


def test_a_d10_read_0_to_9_and_a_uniform_range():
    """A-26: the 0 face as 0; A-25: '2-20' as one number from 2 to 20."""
    zero = odds(ndx, {"count": 1, "options": {"d10_zero_is_ten": False}})
    assert sorted(int(r.outcome) for r in zero.total) == list(range(10))
    assert (
        run(
            ndx, {"count": 1, "options": {"d10_zero_is_ten": False}, "dice": {"values": [10]}}
        ).total
        == 0
    )
    uniform = table(odds(ndx, {"count": 2, "options": {"range_dice": "uniform"}}).total)
    assert uniform == {str(n): Fraction(1, 19) for n in range(2, 21)}
