"""4C combat rolls against the seed's result tables (transcribed here from the seed, not read
from the service) and the independent colour enumeration (oracle.py)."""

from fractions import Fraction

import pytest
from pydantic import ValidationError

from service.rules.four_c.combat.attacks import melee, ranged, rush
from service.rules.four_c.combat.defences import block, catch, dodge, evade
from service.rules.four_c.combat.results import concuss, pound
from service.rules.four_c.combat.wrestling import seize, slip, struggle
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

#: The result tables as the seed prints them, black to yellow.
SEED_TABLES = {
    "bashing": ("miss", "hit", "pound", "concuss"),  # C:L1050-1056
    "slashing": ("miss", "hit", "concuss", "dying"),  # C:L1060-1066
    "ranged": ("miss", "hit", "nail", "dying"),  # C:L1072-1079
    "rush": ("miss", "hit", "pound", "concuss"),  # C:L1107-1113
    "seize": ("miss", "miss", "snatch", "shatter"),  # C:L1121-1127
    "slip": ("fail", "fail", "elude", "turnabout"),  # C:L1131-1137
    "struggle": ("fail", "fail", "hold", "hold"),  # C:L1141-1147
    "evade": ("auto_hit", "evaded", "evaded_plus_1", "evaded_plus_2"),  # C:L1230-1236
    "dodge": ("0", "-3", "-6", "-9"),  # C:L1153-1159
}


def expected(colours: dict[str, Fraction], results: tuple[str, ...]) -> dict[str, Fraction]:
    found: dict[str, Fraction] = {}
    for colour, result in zip(oracle.COLOURS, results, strict=True):
        found[result] = found.get(result, Fraction(0)) + colours[colour]
    return {k: v for k, v in found.items() if v}


def test_a_bashing_attack_at_melee_30_with_a_row_step():
    """The issue's check: row 40-49, miss 30, hit 30, pound 30, concuss 10 in 100 (C:L953)."""
    found = table(odds(melee, {"rv": 30, "row_steps": [1]}).result)
    assert found == {
        "miss": Fraction(30, 100),
        "hit": Fraction(30, 100),
        "pound": Fraction(30, 100),
        "concuss": Fraction(10, 100),
    }


CASES = [(rv, steps) for rv in (1, 8, 25, 45, 120, 1000) for steps in (0, -1, 2)]


@pytest.mark.parametrize(("rv", "steps"), CASES)
@pytest.mark.parametrize(
    ("op", "extra", "seed_table"),
    [
        (melee, {"attack_mode": "bashing"}, "bashing"),
        (melee, {"attack_mode": "slashing"}, "slashing"),
        (ranged, {"nail_declared": True}, "ranged"),
        (seize, {}, "seize"),
        (slip, {}, "slip"),
        (struggle, {}, "struggle"),
        (evade, {}, "evade"),
        (dodge, {}, "dodge"),
    ],
    ids=["bashing", "slashing", "ranged", "seize", "slip", "struggle", "evade", "dodge"],
)
def test_result_odds_match_the_enumeration(op, extra, seed_table, rv, steps):
    found = odds(op, {"rv": rv, "row_steps": [steps], **extra})
    rows = found.result
    assert table(rows) == expected(oracle.colour_odds(rv, steps), SEED_TABLES[seed_table])


def test_an_undeclared_nail_is_a_hit():
    """C:L1077, catalogue 3.8.5: blue is a Nail only when called before the roll."""
    found = table(odds(ranged, {"rv": 20}).result)
    assert "nail" not in found
    colours = oracle.colour_odds(20)
    assert found["hit"] == colours["red"] + colours["blue"]
    assert run(ranged, {"rv": 20, "dice": {"values": [8, 1]}}).result == "hit"
    assert (
        run(ranged, {"rv": 20, "nail_declared": True, "dice": {"values": [8, 1]}}).result == "nail"
    )


def test_moving_costs_a_row_step_a_sector_and_rushing_gains_one():
    """C:L967: -1 Row Step per sector moved before attacking; C:L1101: a rush takes +1 per open
    sector instead."""
    moved = table(odds(melee, {"rv": 30, "sectors_moved": 2}).result)
    assert moved == expected(oracle.colour_odds(30, -2), SEED_TABLES["bashing"])
    rushed = table(odds(rush, {"rv": 30, "open_sectors": 2}).result)
    assert rushed == expected(oracle.colour_odds(30, 2), SEED_TABLES["rush"])
    # "unless you perform a rush" (C:L967): the sectors a rush moves into cost nothing.
    with pytest.raises(ValidationError, match="sectors_moved"):
        odds(rush, {"rv": 30, "open_sectors": 2, "sectors_moved": 2})


def test_waiting_shortens_the_range_penalty():
    """E15, C:L1240: with the optional range penalty, a target d sectors away costs -d Row
    Steps; without the option, nothing."""
    near = {"rv": 30, "distance_sectors": 1, "options": {"range_penalty": True}}
    far = {**near, "distance_sectors": 4}
    assert table(odds(ranged, near).result) == expected(
        oracle.colour_odds(30, -1), ("miss", "hit", "hit", "dying")
    )
    assert table(odds(ranged, far).result) == expected(
        oracle.colour_odds(30, -4), ("miss", "hit", "hit", "dying")
    )
    assert table(odds(ranged, {**far, "options": {}}).result) == expected(
        oracle.colour_odds(30), ("miss", "hit", "hit", "dying")
    )


def test_the_hit_chance_against_a_dodging_defender():
    """Catalogue 5.1: sum over the dodge's colours of P(dodge) x P(red or better | -3 x level)."""
    found = table(odds(melee, {"rv": 40, "dodging_coordination": 30}).hit)
    dodges = oracle.colour_odds(30)
    wanted = Fraction(0)
    for level, colour in enumerate(oracle.COLOURS):
        attack = oracle.colour_odds(40, -3 * level)
        wanted += dodges[colour] * (1 - attack["black"])
    assert found["hit"] == wanted
    rolled = run(melee, {"rv": 40, "dodging_coordination": 30, "dice": {"values": [9, 9, 5, 5]}})
    assert (rolled.dodge.colour, rolled.dodge.row_steps) == ("yellow", -9)
    assert rolled.row == 0  # row 7 (40-49) less 9 Row Steps stops at row 0


def test_a_known_dodge_takes_its_row_steps():
    found = table(odds(melee, {"rv": 40, "defender_dodge": "blue"}).result)
    assert found == expected(oracle.colour_odds(40, -6), SEED_TABLES["bashing"])


@pytest.mark.parametrize(
    ("steps", "labels"), [("label", (0, -1, -4, -7)), ("body", (0, -1, -3, -6))]
)
def test_block_steps_by_option(steps, labels):
    """A-17 (C:L1208-1211): the table's labels 1, 4, 7 by default, its sentences 1, 3, 6."""
    found = table(odds(block, {"rv": 30, "options": {"block_steps": steps}}).brawn_row_steps)
    assert found == expected(oracle.colour_odds(30), tuple(str(s) for s in labels))
    rolled = run(block, {"rv": 30, "options": {"block_steps": steps}, "dice": {"values": [8, 8]}})
    assert rolled.colour == "blue"
    assert rolled.brawn_row_steps == labels[2]


def test_a_blue_catch_rolls_again():
    """C:L1220-1222: a second roll below blue harms the caught thing by the catcher's Brawn."""
    found = table(odds(catch, {"rv": 20}).result)
    colours = oracle.colour_odds(20)
    clean = colours["blue"] + colours["yellow"]
    assert found["caught"] == colours["blue"] * clean
    assert found["caught_damaged"] == colours["blue"] * (1 - clean)
    rough = run(catch, {"rv": 20, "catcher_brawn": 30, "dice": {"values": [8, 5, 3, 2]}})
    assert (rough.result, rough.damage_to_caught) == ("caught_damaged", 30)


def test_black_hits_the_catcher_only_when_thrown_to_harm():
    """C:L1218: black is a miss, and the catcher is automatically hit only "if the object was
    thrown to harm the catcher": a thing tossed to him is simply missed, in run and odds."""
    tossed = run(catch, {"rv": 20, "dice": {"values": [1, 1]}})
    assert (tossed.colour, tossed.result, tossed.catcher_hit) == ("black", "miss", False)
    thrown = run(catch, {"rv": 20, "thrown_to_harm": True, "dice": {"values": [1, 1]}})
    assert (thrown.result, thrown.catcher_hit) == ("miss_hit", True)
    colours = oracle.colour_odds(20)
    harmless = table(odds(catch, {"rv": 20}).result)
    assert "miss_hit" not in harmless
    assert harmless["miss"] == colours["black"] + colours["red"]
    harmful = table(odds(catch, {"rv": 20, "thrown_to_harm": True}).result)
    assert (harmful["miss_hit"], harmful["miss"]) == (colours["black"], colours["red"])


@pytest.mark.parametrize("op", [concuss, pound], ids=["concuss", "pound"])
def test_follow_ups_need_the_greater_brawn(op):
    """C:L1266, C:L1286: only an attacker whose Brawn is greater makes the defender roll."""
    even = {"rv": 20, "attacker_brawn": 30, "defender_brawn": 30}
    payload = even if op is pound else {"rv": 30, "attacker_brawn": 30}
    assert table(odds(op, payload).result) == {"no_effect": 1}
    assert not run(op, {**payload, "dice": {"seed": 1}}).triggered


@pytest.mark.parametrize("op", [concuss, pound], ids=["concuss", "pound"])
def test_impacts_ignore_armor_unless_they_must_penetrate(op):
    """A-15: Concuss and Pound model impact, not wounds: only their Brawn comparison gates
    them (C:L1266, C:L1286), so a hit the armor stopped still makes the defender roll; with
    impact_effects_require_penetration a 0 damage_taken means no roll, in run and odds."""
    payload = {"rv": 10, "attacker_brawn": 30, "defender_brawn": 20, "damage_taken": 0}
    if op is concuss:
        del payload["defender_brawn"]
    rolled = table(odds(op, payload).result)
    assert rolled != {"no_effect": 1}
    assert run(op, {**payload, "dice": {"seed": 1}}).triggered is True
    gated = {**payload, "options": {"impact_effects_require_penetration": True}}
    assert table(odds(op, gated).result) == {"no_effect": 1}
    assert run(op, {**gated, "dice": {"seed": 1}}).triggered is False
    through = {**gated, "damage_taken": 1}
    assert table(odds(op, through).result) == rolled
    with pytest.raises(InputError) as error:
        odds(op, {**gated, "damage_taken": None})
    assert error.value.loc == ("damage_taken",)


def test_a_concussed_defender_is_out_for_a_d10_of_turns():
    """C:L1268: black, unconscious for 1d10 turns."""
    found = run(concuss, {"rv": 10, "attacker_brawn": 30, "dice": {"values": [2, 2, 7]}})
    assert (found.result, found.unconscious_turns) == ("unconscious", 7)
    colours = oracle.colour_odds(10)
    assert (
        table(odds(concuss, {"rv": 10, "attacker_brawn": 30}).result)["unconscious"]
        == colours["black"]
    )


def test_concussed_fortitude_points_read_as_damage_points():
    """C:L1268: the knocked-out defender "loses all Fortitude points" and on waking recovers
    as many as the Fortitude Rank Value. A-16: no pool by default; read as Damage points,
    0 while out (not Dying) and on waking the lesser of the maximum and the Rank Value."""
    out = {"rv": 10, "attacker_brawn": 30, "dice": {"values": [2, 2, 7]}}
    plain = run(concuss, out)
    assert (plain.damage_points, plain.damage_points_on_waking) == (None, None)
    assert plain.options_applied.concuss_points == "none"
    as_damage = {**out, "options": {"concuss_points": "damage_points"}}
    assert run(concuss, {**as_damage, "damage_max": 90}).damage_points_on_waking == 10
    knocked = run(concuss, {**as_damage, "damage_max": 6})
    assert (knocked.damage_points, knocked.damage_points_on_waking) == (0, 6)
    standing = run(concuss, {**as_damage, "damage_max": 90, "dice": {"values": [9, 9]}})
    assert (standing.result, standing.damage_points) == ("no_effect", None)
    with pytest.raises(InputError, match="damage_max"):
        run(concuss, as_damage)


def test_pound_knocks_back_on_black_and_down_on_red():
    colours = oracle.colour_odds(20)
    found = table(odds(pound, {"rv": 20, "attacker_brawn": 40, "defender_brawn": 20}).result)
    assert (found["knocked_back"], found["knocked_down"]) == (colours["black"], colours["red"])


@pytest.mark.parametrize(
    ("obstacle", "through"), [(None, None), (39, True), (40, False), (60, False)]
)
def test_a_pound_knocks_through_an_obstacle_only_with_greater_brawn(obstacle, through):
    """C:L1288: on black the defender goes through an obstacle on the way only "if the
    attacker's Brawn is greater than the Material Value of the obstacle"; otherwise they stop
    against it, still knocked down (A-58). Brawn 40, Fortitude 20 rolls 31: black."""
    payload = {"rv": 20, "attacker_brawn": 40, "defender_brawn": 20, "dice": {"values": [3, 1]}}
    if obstacle is not None:
        payload["obstacle_material_value"] = obstacle
    found = run(pound, payload)
    assert (found.result, found.through_obstacle) == ("knocked_back", through)
    if through is False:
        assert "against the obstacle" in found.text


def test_an_obstacle_changes_nothing_unless_the_pound_is_black():
    """C:L1288 is part of the black row only: red knocks down in place."""
    payload = {"rv": 20, "attacker_brawn": 40, "defender_brawn": 20, "obstacle_material_value": 10}
    found = run(pound, {**payload, "dice": {"values": [5, 5]}})
    assert (found.result, found.through_obstacle) == ("knocked_down", None)


def test_a_dodge_counts_from_the_first_attack_or_from_the_dodgers_action():
    """A-19: by default every attack on the dodger this turn takes the dodge's Row Steps;
    with own_action, attacks before the dodger's side acts do not."""
    early = {"rv": 40, "defender_dodge": "blue", "before_defender_acts": True}
    assert table(odds(melee, early).result) == expected(
        oracle.colour_odds(40, -6), SEED_TABLES["bashing"]
    )
    late = {**early, "options": {"dodge_timing": "own_action"}}
    assert table(odds(melee, late).result) == expected(
        oracle.colour_odds(40), SEED_TABLES["bashing"]
    )
    assert run(melee, {**late, "dice": {"seed": 2}}).dodge is None


def test_an_evade_answers_one_attack_or_all_of_them():
    """A-18: the named opponent's first melee attack, or every one this turn."""
    one = run(evade, {"rv": 30, "attacks": 2, "dice": {"values": [7, 1]}})
    assert (one.result, one.attacks_answered) == ("evaded_plus_1", 1)
    every = {"rv": 30, "attacks": 2, "options": {"evade_scope": "all_attacks_from_opponent"}}
    assert run(evade, {**every, "dice": {"values": [7, 1]}}).attacks_answered == 2


def test_a_black_evade_lets_every_answered_attack_hit():
    """C:L1233: on black "your opponent automatically hits you". With
    evade_scope=all_attacks_from_opponent (A-18) the evade answers all three of the
    opponent's attacks, so all three hit as red Hits, not only the first; red or better,
    none does."""
    every = {"rv": 30, "attacks": 3, "options": {"evade_scope": "all_attacks_from_opponent"}}
    black = run(evade, {**every, "dice": {"values": [1, 1]}})
    assert (black.result, black.attacks_answered, black.automatic_hits) == ("auto_hit", 3, 3)
    one = run(evade, {**every, "options": {}, "dice": {"values": [1, 1]}})
    assert (one.result, one.attacks_answered, one.automatic_hits) == ("auto_hit", 1, 1)
    evaded = run(evade, {**every, "dice": {"values": [7, 1]}})
    assert (evaded.result, evaded.automatic_hits) == ("evaded_plus_1", 0)


def test_a_dodge_rolled_with_the_attack_reads_the_attacks_options():
    """The dodger's Coordination roll (C:L1149-1159) reads rs_clamp_min_row as the attack
    does (A-04): Coordination 0 rolls on row 1 (1-2), where 60 is red, not on row 0, where it
    is black; the odds weigh the row-1 dodge too."""
    clamped = {"rv": 150, "dodging_coordination": 0, "options": {"rs_clamp_min_row": 1}}
    found = run(melee, {**clamped, "dice": {"values": [6, 10, 5, 10]}})
    assert found.dodge is not None
    assert (found.dodge.colour.value, found.dodge.row_steps) == ("red", -3)
    bashing = {"black": "miss", "red": "hit", "blue": "pound", "yellow": "concuss"}
    wanted: dict[str, Fraction] = {}
    for j, (dodged, chance) in enumerate(oracle.colour_odds(1).items()):
        assert dodged == ["black", "red", "blue", "yellow"][j]
        for colour, p in oracle.colour_odds(150, -3 * j).items():
            wanted[bashing[colour]] = wanted.get(bashing[colour], Fraction(0)) + chance * p
    assert table(odds(melee, clamped).result) == {k: v for k, v in wanted.items() if v}


# Seeded rolls recorded before the 1d10 went through core/dice's roll_ndx: {seed: turns} with
# d10_zero_is_ten true and false.
_SEEDED_UNCONSCIOUS = {
    True: {0: 4, 7: 1, 8: 10, 9: 8, 16: 10},
    False: {0: 4, 7: 1, 8: 0, 9: 8, 16: 0},
}


@pytest.mark.parametrize("zero_is_ten", [True, False])
def test_seeded_unconscious_turns_are_unchanged_through_the_shared_d10(zero_is_ten):
    """C:L1264-1272: black knocks the defender out for 1d10 turns, dice written as dice
    (A-25) counted by d10_zero_is_ten (A-26): the same seed rolls the same die, logged as
    'unconscious turns', as before it was rolled by core/dice."""
    options = {"d10_zero_is_ten": zero_is_ten}
    for seed, turns in _SEEDED_UNCONSCIOUS[zero_is_ten].items():
        found = run(concuss, {"rv": 10, "attacker_brawn": 30, "options": options,
                              "dice": {"seed": seed}})  # fmt: skip
        assert (found.result, found.unconscious_turns) == ("unconscious", turns), seed
        assert found.rolls[-1].purpose == "unconscious turns"
