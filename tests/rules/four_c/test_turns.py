"""The 4C turn, initiative and the states Fortitude carries across turns (drowning,
exhaustion, dying) against the seed (catalogue 4c.md E6, T22, 5.6, 5.8) and the
enumeration (oracle.py)."""

from fractions import Fraction

import pytest
from pydantic import ValidationError

from service.rules.four_c.combat.endurance import dying, exhaustion, swimming
from service.rules.four_c.combat.turns import initiative, turn_sequence, wait
from service.rules.four_c.powers.physique import trait_boost
from service.rules.four_c.powers.protection import force_field
from service.rules.four_c.powers.travel import teleportation
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

# Initiative (catalogue 5.6)


def first_roll(k: int) -> dict[str, Fraction]:
    """Catalogue 5.6's closed forms for one roll each, k = players' bonus - GM's."""
    if k >= 0:
        players = 1 - Fraction((100 - k) * (101 - k), 20000)
    else:
        players = Fraction((99 - abs(k)) * (100 - abs(k)), 20000)
    tie = Fraction(100 - abs(k), 10000)
    found = {"players": players, "tie": tie, "gm": 1 - players - tie}
    return {side: p for side, p in found.items() if p}


def test_the_initiative_bonus_example():
    """E6, C:L987: the GM adds its best Awareness 20, the players their 50: the players win
    75.15% of single rolls, tie 0.70%, and 75.68% with ties rolled again."""
    payload = {"players_awareness": [50, 10], "gm_awareness": [20], "awareness_bonus": True}
    found = odds(initiative, payload)
    assert table(found.first_roll) == first_roll(30)
    assert table(found.first_roll)["players"] == Fraction(7515, 10000)
    winner = table(found.winner)
    assert winner["players"] == Fraction(7515, 10000) / (1 - Fraction(70, 10000))
    assert round(float(winner["players"]), 4) == 0.7568


@pytest.mark.parametrize("k", [-100, -50, -10, 0, 20, 60, 100])
def test_initiative_odds_match_the_closed_forms(k):
    players, gm = (k, 0) if k >= 0 else (0, -k)
    payload = {"players_awareness": [players], "gm_awareness": [gm], "awareness_bonus": True}
    assert table(odds(initiative, payload).first_roll) == first_roll(k)


def test_without_the_optional_rule_each_side_has_49_5_percent():
    assert table(odds(initiative, {}).first_roll) == {
        "players": Fraction(495, 1000), "tie": Fraction(1, 100), "gm": Fraction(495, 1000)
    }  # fmt: skip


def test_a_tie_is_rolled_again_or_given_by_option():
    """A-20: 11 against 11, then 20 against 10."""
    rolled = run(initiative, {"dice": {"values": [1, 1, 1, 1, 2, 10, 1, 10]}})
    assert (rolled.players_rolls, rolled.gm_rolls, rolled.winner) == ([11, 20], [11, 10], "players")
    tie = {"options": {"initiative_tie": "simultaneous"}, "dice": {"values": [1, 1, 1, 1]}}
    assert run(initiative, tie).winner == "both"
    assert table(odds(initiative, {"options": {"initiative_tie": "gm_wins"}}).winner) == {
        "players": Fraction(495, 1000), "gm": Fraction(505, 1000)
    }  # fmt: skip


def test_the_turn_and_waiting():
    """C:L969-981: the winners act, then the losers; C:L1238-1240: a winner may wait."""
    phases = run(turn_sequence, {"winner": "gm"}).phases
    assert [(p.step, p.who) for p in phases[3:5]] == [(4, "gm"), (5, "players")]
    waited = run(wait, {"winners": ["Nova", "Sparrow"], "waiting": ["Sparrow"]})
    assert (waited.act_first, waited.may_interrupt) == (["Nova"], ["Sparrow"])
    with pytest.raises(InputError):
        run(wait, {"winners": ["Nova"], "waiting": ["Brute"]})


@pytest.mark.parametrize(
    ("body", "field"),
    [({"winners": ["Nova", "Nova"]}, "winners"),
     ({"winners": ["Nova", "Sparrow"], "waiting": ["Sparrow", "Sparrow"]}, "waiting")],
)  # fmt: skip
def test_a_character_waits_once(body, field):
    """C:L1240: a character of the winning side may wait, once: a name twice is a 422 naming
    the list, not a character who interrupts twice."""
    with pytest.raises(InputError) as bad:
        run(wait, body)
    assert bad.value.loc == (field,)


# Drowning


def test_the_breath_lasts_fortitude_turns():
    """C:L1020: a sinking character holds their breath Fortitude turns."""
    held = run(swimming, {"rv": 10, "turns_under": 10})
    assert (held.holding_breath, held.rolled, held.sectors) == (True, None, 1)
    assert table(odds(swimming, {"rv": 10, "turns_under": 10}).result) == {"breath": 1}


@pytest.mark.parametrize(
    ("turns_under", "winded", "steps", "rv_row"), [(11, 0, 0, 10), (13, 0, -2, 10), (13, 1, -2, 6)]
)
def test_drowning_rolls_at_a_growing_penalty(turns_under, winded, steps, rv_row):
    """C:L1028, A-27: -0 on the first drowning roll, -1 more each turn; each winded result
    took Fortitude a row down (to its lowest value, A-03)."""
    payload = {"rv": 10, "turns_under": turns_under, "winded": winded}
    expected = oracle.colour_odds(rv_row, steps)
    wanted = {"dying": expected["black"], "winded": expected["red"],
              "no_effect": expected["blue"] + expected["yellow"]}  # fmt: skip
    assert table(odds(swimming, payload).result) == {k: v for k, v in wanted.items() if v}


def test_a_red_drowning_roll_winds():
    found = run(swimming, {"rv": 10, "turns_under": 11, "winded": 1, "dice": {"values": [5, 10]}})
    assert (found.result, found.winded) == ("winded", 2)


# Exhaustion


def test_exhaustion_rolls_after_fortitude_turns_then_at_minus_10():
    """C:L1032-1042, A-24: no roll for Fortitude turns; the first roll at full Fortitude,
    later ones at -10 (flat), or -10 more each (cumulative)."""
    assert run(exhaustion, {"rv": 30, "turns_moved": 30}).result == "no_roll"

    def wanted(rv: int) -> dict[str, Fraction]:
        colours = oracle.colour_odds(rv)
        found = {"collapse_3d10": colours["black"], "collapse_2d10": colours["red"],
                 "no_effect": colours["blue"] + colours["yellow"]}  # fmt: skip
        return {k: v for k, v in found.items() if v}

    assert table(odds(exhaustion, {"rv": 30, "turns_moved": 31}).result) == wanted(30)
    assert table(odds(exhaustion, {"rv": 30, "turns_moved": 33}).result) == wanted(20)
    cumulative = {"rv": 30, "turns_moved": 33, "options": {"exhaustion_penalty": "cumulative"}}
    assert table(odds(exhaustion, cumulative).result) == wanted(10)


def test_a_black_collapse_rests_3d10_turns():
    found = run(exhaustion, {"rv": 10, "turns_moved": 11, "dice": {"values": [1, 5, 4, 7, 2]}})
    assert (found.result, found.rest_turns) == ("collapse_3d10", 13)


def test_a_collapse_with_uniform_range_dice_rests_one_number_of_the_span():
    """C:L1037-1038 write the rests as spans, '3-30 turns' and '2-20 turns': with
    range_dice=uniform (A-25) each is one number from the span, as likely as any other, as
    dice/ndx reads it, not 3d10 or 2d10."""
    uniform = {"rv": 10, "turns_moved": 11, "options": {"range_dice": "uniform"}}
    black = run(exhaustion, {**uniform, "dice": {"values": [1, 5, 28]}})
    assert (black.result, black.rest_turns) == ("collapse_3d10", 30)
    red = run(exhaustion, {**uniform, "dice": {"values": [5, 10, 1]}})
    assert (red.result, red.rest_turns) == ("collapse_2d10", 2)
    ndx_zero = {"rv": 10, "turns_moved": 11, "options": {"d10_zero_is_ten": False}}
    zero = run(exhaustion, {**ndx_zero, "dice": {"values": [5, 10, 10, 10]}})
    assert (zero.result, zero.rest_turns) == ("collapse_2d10", 0)


# Dying


def test_dying_from_fortitude_30():
    """T22, C:L1274: Fortitude drops a row each turn-end, 20, 10, 6, 3, 1, then 0: dead at the
    end of turn 6."""
    fortitude, seen = 30, []
    for _ in range(6):
        found = run(dying, {"fortitude": fortitude})
        fortitude = found.fortitude
        seen.append(fortitude)
    assert seen == [20, 10, 6, 3, 1, 0]
    assert found.dead


@pytest.mark.parametrize(
    ("fortitude", "turns"), [(1, 1), (4, 2), (9, 3), (15, 4), (75, 9), (1000, 12)]
)
def test_turns_to_death(fortitude, turns):
    """Catalogue 5.8: entering Dying with Fortitude in row r, death at the end of turn r."""
    count = 0
    while True:
        count += 1
        found = run(dying, {"fortitude": fortitude})
        fortitude = found.fortitude
        if found.dead:
            break
    assert count == turns


def test_stabilizing():
    """C:L1274-1276: at 01-02, 10 Fortune a turn holds it; a full turn of aid stabilizes."""
    held = run(dying, {"fortitude": 2, "fortune": 25, "spend_fortune": True})
    assert (held.fortitude, held.fortune, held.stabilized, held.dead) == (2, 15, True, False)
    with pytest.raises(InputError):
        run(dying, {"fortitude": 6, "fortune": 25, "spend_fortune": True})
    with pytest.raises(InputError):
        run(dying, {"fortitude": 1, "fortune": 5, "spend_fortune": True})
    assert run(dying, {"fortitude": 30, "aided": True}).stabilized


@pytest.mark.parametrize("request_", [{"aided": True}, {}], ids=["aided", "alone"])
def test_fortitude_0_is_dead_aided_or_not(request_):
    """C:L1274: Fortitude drops "until it reaches Rank Value 0, at which point you are dead";
    aid comes "before you die" (C:L1276), so at Fortitude 0 it stabilizes no one."""
    found = run(dying, {"fortitude": 0, **request_})
    assert (found.fortitude, found.stabilized, found.dead) == (0, False, True)


def test_the_dropped_fortitude_follows_row_value():
    """C:L1274, A-03: the row Fortitude drops to is read as its lowest value by default (35
    goes to 20), or as the old value moved down by the rows' difference (35 goes to 25); the
    rows, and so the turns to death, are the same either way."""
    floor = run(dying, {"fortitude": 35})
    offset = run(dying, {"fortitude": 35, "options": {"row_value": "offset"}})
    assert (floor.fortitude, floor.turns_to_death) == (20, 5)
    assert (offset.fortitude, offset.turns_to_death) == (25, 5)


def test_dying_takes_only_the_row_value_option():
    """C:L1274: the drop goes on to Rank Value 0, so a floor on a roll's penalties (A-04) is no
    option of Dying's; row_value (A-03) is, and the result echoes it."""
    found = run(dying, {"fortitude": 35, "options": {"row_value": "offset"}})
    assert found.options_applied.model_dump(mode="json") == {"row_value": "offset"}
    with pytest.raises(ValidationError):
        run(dying, {"fortitude": 2, "options": {"rs_clamp_min_row": 1}})


@pytest.mark.parametrize(
    ("op", "payload", "purpose"),
    [
        (force_field, {"power_rv": 20, "damage": 21, "dice": {"values": [10]}}, "shorted turns"),
        (force_field, force_field.example, "dazed turns"),
        (trait_boost, trait_boost.example, "after-effect turns"),
        (teleportation, teleportation.example, "dazed turns"),
        (exhaustion, exhaustion.example, "rest turns"),
    ],
)
def test_a_span_or_written_d10_is_logged_for_what_it_counts(op, payload, purpose):
    """The turns a force field shorts or dazes (C:L671-673), a Trait Boost's after-effect
    (C:L902), a teleport's daze (C:L898) and an exhausted rest (C:L1037-1038) are rolled
    through core/dice's roll_ndx, each die logged as what it counts, so a result explains
    itself."""
    found = run(op, payload)
    assert found.rolls[-1].purpose == purpose
