"""The 4C grenades (Weapons & Gear, C:L1537-1596) against the seed's text, transcribed here
and not read from the service, the catalogue's test vectors (T20, T21, T23, T27, E13, 5.4,
5.9) and the independent colour enumeration (oracle.py). Each check grenade's odds are also
checked by running the rule on every face its dice can show, fed back as table dice."""

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from service.rules.dice import DiceError
from service.rules.four_c.grenades.afflictions import paralytic, scream, stench_gas
from service.rules.four_c.grenades.anti_arcane import anti_arcane
from service.rules.four_c.grenades.blasts import frag, incendiary, lightning
from service.rules.four_c.grenades.delivery import grenade_range, scatter
from service.rules.four_c.grenades.tables import THROWN_WEAPON_RANGE
from service.rules.model import InputError
from service.rules.registry import Operation
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

#: The colour tables as the seed prints them, black to yellow.
SEED = {
    "anti_arcane": ("unaffected", "halved", "disrupted", "disrupted"),  # C:L1544
    "paralytic": ("paralyzed", "resisted", "resisted", "resisted"),  # C:L1552
    "scream": ("incapacitated", "dazed", "stunned", "unaffected"),  # C:L1559-1562
    "stench_gas": ("incapacitated", "nauseous", "queasy", "unaffected"),  # C:L1569-1572
}

#: The Thrown Weapon Range table as the seed prints it (C:L1583-1594): label, sectors.
PRINTED = [
    ("1-2", 0), ("3-5", 0), ("6-9", 1), ("10-19", 2), ("10-29", 3), ("10-39", 4),
    ("40-49", 5), ("50-74", 6), ("75-99", 7), ("100-149", 8), ("150-999", 9), ("1000+", 10),
]  # fmt: skip


def d100(roll: int) -> list[int]:
    """A d% as table dice: tens then ones, a 0 face sent as 10."""
    return [face or 10 for face in divmod(roll, 10)]


def by_colour(colours: dict[str, Fraction], results: tuple[str, ...]) -> dict[str, Fraction]:
    found: dict[str, Fraction] = {}
    for colour, result in zip(oracle.COLOURS, results, strict=True):
        found[result] = found.get(result, Fraction(0)) + colours[colour]
    return {k: v for k, v in found.items() if v}


def every_face(op: Operation, payload: dict[str, Any]) -> tuple[Counter[str], Counter[int]]:
    """Run the rule on each d% and, where it rolls one, each duration d10: the results and the
    turns, weighted over 1,000 equally likely faces."""
    results: Counter[str] = Counter()
    turns: Counter[int] = Counter()
    for roll in range(100):
        try:
            found = [(run(op, {**payload, "dice": {"values": d100(roll)}}), 10)]
        except DiceError:
            found = [
                (run(op, {**payload, "dice": {"values": [*d100(roll), face]}}), 1)
                for face in range(1, 11)
            ]
        for result, weight in found:
            results[result.result] += weight
            turns[result.turns] += weight
    return results, turns


def fractions(counts: Counter[Any]) -> dict[str, Fraction]:
    total = sum(counts.values())
    return {str(k): Fraction(n, total) for k, n in counts.items() if n}


# Range (C:L1574-1596)


def test_brawn_20_throws_a_rock_3_sectors_and_a_grenade_4():
    """T23: 20-29 is 3 sectors (C:L1587), a grenade +1 (C:L1596)."""
    found = run(grenade_range, {"brawn": 20})
    assert (found.thrown_sectors, found.sectors) == (3, 4)


@pytest.mark.parametrize(("printed", "sectors"), PRINTED)
def test_each_row_of_the_printed_table_plus_one(printed, sectors):
    """Every row of the seed's table, read at its highest and lowest Rank Value, with the
    labels '10-29' and '10-39' read as 20-29 and 30-39 (E13): a grenade goes one more."""
    corrected = {"10-29": "20-29", "10-39": "30-39"}.get(printed, printed)
    low, _, high = corrected.rstrip("+").partition("-")
    for rv in (int(low), int(high or 5000)):
        found = run(grenade_range, {"brawn": rv})
        assert (found.thrown_sectors, found.sectors) == (sectors, sectors + 1)
        assert found.table_row.label == corrected
        assert found.table_row.printed == printed


def test_the_typo_labels_are_corrected_not_read_literally():
    """E13: read literally, '10-29' and '10-39' would put Brawn 15 at 3 or 4 sectors; the core
    rule (one sector per row from 6-9, C:L1087) gives 10-19 two. The served table says both."""
    assert run(grenade_range, {"brawn": 15}).thrown_sectors == 2
    typos = {row.printed: row.label for row in THROWN_WEAPON_RANGE if row.printed != row.label}
    assert typos == {"10-29": "20-29", "10-39": "30-39"}
    assert [(row.printed, row.sectors) for row in THROWN_WEAPON_RANGE] == PRINTED


def test_a_weak_thrower_still_gets_the_grenade_s_extra_sector():
    """Catalogue 3.12.1: rows 0-2 throw in their own sector; +1 makes a grenade go 1."""
    for brawn in (0, 1, 5):
        found = run(grenade_range, {"brawn": brawn})
        assert (found.thrown_sectors, found.sectors) == (0, 1)
    assert run(grenade_range, {"brawn": 0}).table_row is None


def test_the_advanced_rows_continue_the_formula():
    """Catalogue 3.7.8: 250-499 is 10 sectors on the advanced table; the supplement's table
    is of the basic rows only."""
    found = run(grenade_range, {"brawn": 300, "master_table": "libre-advanced"})
    assert (found.thrown_sectors, found.sectors, found.table_row) == (10, 11, None)


def test_coordination_reads_the_range_with_a_13():
    payload = {"brawn": 5, "coordination": 40, "options": {"thrown_range_trait": "coordination"}}
    assert run(grenade_range, payload).sectors == 6
    with pytest.raises(InputError):
        run(grenade_range, {**payload, "coordination": None})


# Delivery: not in the source (F3)


def test_by_default_a_grenade_goes_off_where_it_is_thrown_and_says_it_is_no_rule():
    found = run(scatter, {"rv": 20, "distance_sectors": 3})
    assert (found.landed, found.roll, found.rolls, found.in_source) == (
        "target_sector",
        None,
        [],
        False,
    )
    assert "Not in the source" in found.note
    assert table(odds(scatter, {"rv": 20}).landed) == {"target_sector": 1}


@pytest.mark.parametrize("rv", [1, 20, 45, 1000])
@pytest.mark.parametrize("distance", [0, 3])
@pytest.mark.parametrize("penalty", [False, True])
def test_as_a_ranged_attack_black_misses(rv, distance, penalty):
    """Catalogue 3.12.1: Coordination on the Master Table, -1 Row Step a sector with the
    range penalty (C:L1093-1095); black lands where the GM says."""
    options = {"grenade_delivery": "ranged_attack", "range_penalty": penalty}
    payload = {"rv": rv, "distance_sectors": distance, "options": options}
    colours = oracle.colour_odds(rv, -distance if penalty else 0)
    found = table(odds(scatter, payload).landed)
    expected = {"gm_sector": colours["black"], "target_sector": 1 - colours["black"]}
    assert found == {k: v for k, v in expected.items() if v}


def test_a_miss_lands_in_the_gm_s_sector():
    body = {"rv": 20, "scatter_sector": "the alley", "dice": {"values": d100(12)},
            "options": {"grenade_delivery": "ranged_attack"}}  # fmt: skip
    found = run(scatter, body)
    assert (found.roll.colour, found.landed, found.landing_sector) == (
        "black",
        "gm_sector",
        "the alley",
    )
    hit = run(scatter, {**body, "dice": {"values": d100(95)}})
    assert (hit.landed, hit.landing_sector) == ("target_sector", None)


def test_a_target_beyond_the_thrower_s_range_is_refused():
    """Brawn 20 throws a grenade 4 sectors (T23)."""
    assert run(scatter, {"rv": 20, "brawn": 20, "distance_sectors": 4}).landed == "target_sector"
    with pytest.raises(InputError) as refused:
        run(scatter, {"rv": 20, "brawn": 20, "distance_sectors": 5})
    assert refused.value.loc == ("distance_sectors",)


# Damage (C:L1546-1550, 5.9)


def test_frag_against_body_armor_15():
    """T20: 20 - (15 - 10) = 15 in the sector, 10 - 5 = 5 adjacent (C:L1546)."""
    assert run(frag, {"body_armor": 15}).taken == 15
    assert run(frag, {"body_armor": 15, "distance_sectors": 1}).taken == 5
    beyond = run(frag, {"body_armor": 15, "distance_sectors": 2})
    assert (beyond.reached, beyond.taken, beyond.body_armor_after) == (False, 0, 15)


@pytest.mark.parametrize(
    "op", [frag, incendiary, lightning], ids=["frag", "incendiary", "lightning"]
)
def test_a_target_beyond_the_blast_keeps_its_armor(op):
    """C:L1546-1550: each grenade changes the Body Armor of the targets it affects, in its
    sector and the adjacent ones; two sectors away nothing is affected, so the armor reported
    is the target's own, as after the blast."""
    beyond = run(op, {"body_armor": 15, "other_armor": [12], "distance_sectors": 2,
                      "options": {"armor_piercing_scope": "all_armor"}})  # fmt: skip
    assert (beyond.reached, beyond.body_armor, beyond.armor, beyond.taken) == (False, 15, 15, 0)
    assert beyond.body_armor_after == 15


def test_incendiary_ignores_body_armor_40_unless_fire_proof():
    """T21 (C:L1548)."""
    assert run(incendiary, {"body_armor": 40}).taken == 30
    assert run(incendiary, {"body_armor": 40, "distance_sectors": 1}).taken == 15
    assert run(incendiary, {"body_armor": 40, "fire_proof": True}).taken == 0
    assert run(incendiary, {"body_armor": 20, "fire_proof": True}).taken == 10


def test_lightning_ignores_body_armor_unless_electric_proof():
    """C:L1550."""
    assert run(lightning, {"body_armor": 20}).taken == 30
    assert run(lightning, {"body_armor": 20, "electric_proof": True}).taken == 10
    assert (
        run(lightning, {"body_armor": 10, "distance_sectors": 1, "electric_proof": True}).taken == 5
    )
    assert "Electricity" in run(lightning, {}).counts_as


def test_against_body_armor_20_as_catalogue_5_9():
    """Catalogue 5.9: Frag 10/0, Incendiary 30/15 against Body Armor 20 (C:L1546-1548)."""
    taken = [run(op, {"body_armor": 20, "distance_sectors": d}).taken
             for op in (frag, incendiary) for d in (0, 1)]  # fmt: skip
    assert taken == [10, 0, 30, 15]


def test_frag_s_armor_loss_lasts_only_with_the_option():
    """A-42: for this attack only, by default."""
    assert run(frag, {"body_armor": 15}).body_armor_after == 15
    lasting = {"body_armor": 15, "options": {"grenade_frag_armor": "lasting"}}
    assert run(frag, lasting).body_armor_after == 5
    assert (
        run(frag, {"body_armor": 5, "options": {"grenade_frag_armor": "lasting"}}).body_armor_after
        == 0
    )


def test_a_grenade_s_armor_rule_reaches_other_armor_only_with_all_armor():
    """A-21: Frag's -10 (C:L1546), Incendiary (C:L1548) and Lightning (C:L1550) switching
    armor off are written for Body Armor; a Force Field 12 keeps its value by default, the
    highest armor counting, and is reached too with armor_piercing_scope all_armor."""
    target = {"body_armor": 15, "other_armor": [12]}
    reach_all = {"options": {"armor_piercing_scope": "all_armor"}}
    found = run(frag, target)
    assert (found.body_armor, found.armor, found.taken) == (5, 12, 8)
    found = run(frag, {**target, **reach_all})
    assert (found.body_armor, found.armor, found.taken) == (5, 5, 15)
    for op in (incendiary, lightning):
        assert (run(op, target).armor, run(op, target).taken) == (12, 18)
        assert run(op, {**target, **reach_all}).taken == 30
    summed = {**target, "options": {"armor_stacking": "sum"}}
    assert run(frag, summed).taken == 20 - (5 + 12)


def test_a_blast_can_leave_a_target_dying():
    found = run(frag, {"damage_points": 20})
    assert (found.damage_points, found.dying) == (0, True)
    assert run(frag, {"damage_points": 21}).dying is False


# Checks (C:L1544-1572)

CHECKS = [
    pytest.param(paralytic, {}, "paralytic", id="paralytic"),
    pytest.param(scream, {}, "scream", id="scream"),
    pytest.param(stench_gas, {}, "stench_gas", id="stench_gas"),
    pytest.param(anti_arcane, {"magic_rv": 30}, "anti_arcane", id="anti_arcane"),
]


@pytest.mark.parametrize(("op", "extra", "seed"), CHECKS)
@pytest.mark.parametrize(("rv", "steps"), [(1, 0), (8, 0), (20, 0), (40, 0), (45, -1), (120, 2)])
def test_check_odds_match_the_enumeration(op, extra, seed, rv, steps):
    payload = {"rv": rv, "row_steps": [steps], **extra}
    found = odds(op, payload)
    colours = oracle.colour_odds(rv, steps)
    assert table(found.result) == by_colour(colours, SEED[seed])
    assert table(found.colour) == {k: v for k, v in colours.items() if v}


@pytest.mark.parametrize(("op", "extra", "seed"), CHECKS)
@pytest.mark.parametrize("options", [{}, {"d10_zero_is_ten": False}])
def test_check_odds_are_every_face_of_the_dice(op, extra, seed, options):
    """Results and turns as the rule gives them on all 1,000 faces of d% and d10."""
    payload = {"rv": 30, **extra, "options": options}
    results, turns = every_face(op, payload)
    found = odds(op, payload)
    assert table(found.result) == fractions(results)
    assert table(found.turns) == fractions(turns)


def test_anti_arcane_rolls_rank_value_40():
    """C:L1544: row 40-49 whatever the character's Magic; red halves it, rounded up."""
    assert table(odds(anti_arcane, {"magic_rv": 10}).colour) == oracle.colour_odds(40)
    found = run(anti_arcane, {"magic_rv": 45, "dice": {"values": d100(52)}})
    assert (found.roll.rv_effective, found.roll.colour, found.result) == (40, "red", "halved")
    assert (found.magic_rv, found.turns) == (23, 1)
    disrupted = run(anti_arcane, {"magic_rv": 45, "dice": {"values": d100(99)}})
    assert (disrupted.result, disrupted.magic_rv) == ("disrupted", 0)
    missed = run(anti_arcane, {"magic_rv": 45, "dice": {"values": d100(0)}})
    assert (missed.result, missed.magic_rv, missed.turns) == ("unaffected", 45, 0)


def test_anti_arcane_reaches_adjacent_sectors_and_magic_users_only():
    assert run(
        anti_arcane, {"magic_rv": 45, "distance_sectors": 1, "dice": {"values": d100(99)}}
    ).reached
    far = run(anti_arcane, {"magic_rv": 45, "distance_sectors": 2, "dice": {"seed": 1}})
    assert (far.reached, far.result, far.roll, far.rolls) == (False, "out_of_area", None, [])
    plain = run(anti_arcane, {"magic_rv": 0, "dice": {"seed": 1}})
    assert (plain.result, plain.roll) == ("no_magic", None)
    assert table(odds(anti_arcane, {"magic_rv": 0}).result) == {"no_magic": 1}


def test_paralytic_paralyzes_for_5_turns_on_black_in_its_own_sector_only():
    """C:L1552."""
    found = run(paralytic, {"rv": 20, "dice": {"values": d100(15)}})
    assert (found.roll.colour, found.result, found.turns) == ("black", "paralyzed", 5)
    assert run(paralytic, {"rv": 20, "dice": {"values": d100(85)}}).turns == 0
    adjacent = run(paralytic, {"rv": 20, "distance_sectors": 1, "dice": {"seed": 2}})
    assert (adjacent.reached, adjacent.result) == (False, "out_of_area")


def test_contaminant_resistance_resists_the_gases_by_a_76():
    """C:L530-532: Fortitude 10 with Contaminant Resistance 15 rolls 20; with the option
    hazards_only, Fortitude 10."""
    for op in (paralytic, stench_gas):
        payload = {"rv": 10, "contaminant_resistance": 15}
        assert odds(op, payload).rv == 20
        assert table(odds(op, payload).colour) == oracle.colour_odds(20)
        only = {**payload, "options": {"contaminant_applies_to": "hazards_only"}}
        assert odds(op, only).rv == 10


def test_combat_awareness_counts_against_a_scream():
    """C:L526-528: the greater of the power and Awareness +10."""
    assert odds(scream, {"rv": 20, "combat_awareness": 10}).rv == 30
    assert odds(scream, {"rv": 20, "combat_awareness": 45}).rv == 45
    assert odds(scream, {"rv": 20}).rv == 20


def test_scream_black_lasts_half_a_d10_rounded_down_at_least_1():
    """T27: d10 = 1, 2, 3, 9, 10 give 1, 1, 1, 4, 5 rounds (C:L1559)."""
    found = [run(scream, {"rv": 20, "dice": {"values": [*d100(15), face]}})
             for face in (1, 2, 3, 9, 10)]  # fmt: skip
    assert [(f.result, f.duration_die, f.turns) for f in found] == [
        ("incapacitated", 1, 1), ("incapacitated", 2, 1), ("incapacitated", 3, 1),
        ("incapacitated", 9, 4), ("incapacitated", 10, 5),
    ]  # fmt: skip


@pytest.mark.parametrize("op", [scream, stench_gas])
def test_black_durations_are_catalogue_5_4(op):
    """Catalogue 5.4 for 1d10/2 rounds (C:L1559, C:L1569): 1: 30%, 2-4: 20% each, 5: 10%;
    with a d10's 0 read as 0 (A-26), 1: 40%, 2-4: 20% each."""
    durations = {d.result: table(d.lasting) for d in odds(op, {"rv": 20}).durations}
    assert durations["incapacitated"] == {
        "1": Fraction(3, 10), "2": Fraction(1, 5), "3": Fraction(1, 5), "4": Fraction(1, 5),
        "5": Fraction(1, 10),
    }  # fmt: skip
    zero = {"rv": 20, "options": {"d10_zero_is_ten": False}}
    durations = {d.result: table(d.lasting) for d in odds(op, zero).durations}
    assert durations["incapacitated"] == {
        "1": Fraction(2, 5), "2": Fraction(1, 5), "3": Fraction(1, 5), "4": Fraction(1, 5)
    }  # fmt: skip


def test_dazed_lasts_one_turn_or_as_black_by_a_42():
    """C:L1560 gives no count for 'the next turns'."""
    red = {"rv": 20, "dice": {"values": d100(50)}}
    found = run(scream, red)
    assert (found.roll.colour, found.result, found.turns, found.duration_die) == (
        "red",
        "dazed",
        1,
        None,
    )
    rolled = {**red, "dice": {"values": [*d100(50), 9]},
              "options": {"grenade_red_daze_turns": "half_d10"}}  # fmt: skip
    assert (run(scream, rolled).turns, run(scream, rolled).duration_die) == (4, 9)
    found_odds = odds(scream, {k: v for k, v in rolled.items() if k != "dice"})
    durations = {d.result: table(d.lasting) for d in found_odds.durations}
    assert durations["dazed"] == durations["incapacitated"]


def test_stunned_is_a_roll_modifier_of_minus_20_or_a_rank_value_penalty():
    """C:L1561, A-42: a -20 on d% rolls next round."""
    blue = {"rv": 20, "dice": {"values": d100(90)}}
    found = run(scream, blue)
    assert (found.result, found.turns) == ("stunned", 1)
    assert (found.penalty.roll_modifier, found.penalty.rv_modifier) == (-20, 0)
    on_rv = run(scream, {**blue, "options": {"grenade_d100_penalty": "rank_value"}})
    assert (on_rv.penalty.roll_modifier, on_rv.penalty.rv_modifier) == (0, -20)
    queasy = run(stench_gas, blue)
    assert (queasy.result, queasy.penalty.roll_modifier) == ("queasy", -20)


def test_scream_reaches_6_sectors_and_stench_gas_the_adjacent_ones():
    """C:L1554, C:L1564."""
    assert run(scream, {"rv": 20, "distance_sectors": 6, "dice": {"values": d100(99)}}).reached
    assert (
        run(scream, {"rv": 20, "distance_sectors": 7, "dice": {"seed": 1}}).result == "out_of_area"
    )
    assert run(stench_gas, {"rv": 20, "distance_sectors": 1, "dice": {"values": d100(99)}}).reached
    assert (
        run(stench_gas, {"rv": 20, "distance_sectors": 2, "dice": {"seed": 1}}).result
        == "out_of_area"
    )
    far = odds(stench_gas, {"rv": 20, "distance_sectors": 2})
    assert (table(far.result), far.colour, table(far.turns)) == ({"out_of_area": 1}, [], {"0": 1})


def test_a_stunned_target_s_next_roll_takes_the_penalty():
    """The -20 goes on the d%, piling up at 00 (catalogue 5.1, 5.5): a stench roll at
    Fortitude 20 with it."""
    found = odds(stench_gas, {"rv": 20, "roll_modifier": -20})
    assert table(found.colour) == {
        k: v for k, v in oracle.colour_odds(20, modifier=-20).items() if v
    }


# Seeded rolls recorded before the 1d10 of a duration went through core/dice's roll_ndx:
# {seed: (the d10 as it counts, turns)} with d10_zero_is_ten true and false.
_SEEDED_DURATIONS = {
    True: {7: (1, 1), 8: (10, 5), 9: (8, 4), 14: (2, 1), 31: (6, 3)},
    False: {7: (1, 1), 8: (0, 1), 9: (8, 4), 14: (2, 1), 31: (6, 3)},
}


@pytest.mark.parametrize("zero_is_ten", [True, False])
def test_seeded_durations_are_unchanged_through_the_shared_d10(zero_is_ten):
    """C:L1559: '1d10/2 rounds', the d10 rolled as dice written as dice (A-25) and counted by
    d10_zero_is_ten (A-26): the same seed rolls the same die, logged as 'duration d10', and
    the same turns as before it was rolled by core/dice."""
    options = {"d10_zero_is_ten": zero_is_ten}
    for seed, (die, turns) in _SEEDED_DURATIONS[zero_is_ten].items():
        found = run(scream, {"rv": 20, "distance_sectors": 1, "options": options,
                             "dice": {"seed": seed}})  # fmt: skip
        assert (found.duration_die, found.turns) == (die, turns), seed
        assert found.rolls[-1].purpose == "duration d10"
