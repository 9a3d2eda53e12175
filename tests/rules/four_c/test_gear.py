"""The Weapons & Gear items and potions (C:L1598-1706) against the seed's numbers, transcribed
here, the catalogue's worked vectors (4c.md 4.1 E12, 4.2 T18-T19) and durations (5.4), and odds
checked against brute force: every d% or d10 face fed back as table dice, and the independent
colour enumeration (oracle.py)."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from pydantic import ValidationError

from service.rules.four_c.gear.ammo import omphalos_ammo
from service.rules.four_c.gear.dodging import dodging
from service.rules.four_c.gear.fist import voltaic_fist
from service.rules.four_c.gear.potions import drink, healing, invisibility, strength
from service.rules.four_c.gear.relay import shrouded_relay
from service.rules.four_c.gear.rifle import omphalos_attack
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

COLOURS = oracle.COLOURS


def d100(roll: int) -> list[int]:
    """A d% as table dice: tens then ones, a 0 face sent as 10."""
    return [face or 10 for face in divmod(roll, 10)]


def every_roll(op, payload, read, rolls=1):
    """How often each reading of the result comes up over every d% (or pair of d%)."""
    found: Counter[object] = Counter()
    for combo in itertools.product(range(100), repeat=rolls):
        values = [face for roll in combo for face in d100(roll)]
        found[read(run(op, {**payload, "dice": {"values": values}}))] += 1
    total = 100**rolls
    return {k: Fraction(n, total) for k, n in found.items()}


# The Omphalos IX (C:L1598-1624)


def rifle_by_hand(coordination, distance, roll, armor=0):
    """Catalogue 3.12.3's order (A-43): halve within 12, add 20, roll; close in, blue and yellow
    fall to red; far off, red steps up to blue, a Nail."""
    close = distance <= 12
    rv = (coordination // 2 if close else coordination) + 20
    row = oracle.row_index(rv, "libre-basic")
    colour = oracle.colour_at(row, roll, "libre-basic")
    if close and colour in ("blue", "yellow"):
        colour = "red"
    elif not close and colour == "red":
        colour = "blue"
    result = {"black": "miss", "red": "hit", "blue": "nail", "yellow": "dying"}[colour]
    if result == "dying" and 20 - armor // 2 <= 0:
        result = "hit"
    return colour, result


@pytest.mark.parametrize("distance", [0, 8, 12, 13, 15, 20])
@pytest.mark.parametrize("coordination", [1, 20, 30, 47])
def test_the_rifle_against_the_catalogue_order_on_every_roll(coordination, distance):
    payload = {"rv": coordination, "distance_sectors": distance}
    for roll in range(100):
        found = run(omphalos_attack, {**payload, "dice": {"values": d100(roll)}})
        assert (found.final_colour, found.result) == rifle_by_hand(coordination, distance, roll)


def test_t18_close_in_coordination_30_reads_35_and_never_beats_red():
    """T18: at 8 sectors, 30 halves to 15, +20 is 35 (row 30-39); blue and yellow become red
    (C:L1620)."""
    found = odds(omphalos_attack, {"rv": 30, "distance_sectors": 8})
    colours = oracle.colour_odds(35)
    assert table(found.final_colour) == {"black": colours["black"], "red": 1 - colours["black"]}
    assert table(found.result) == {"miss": colours["black"], "hit": 1 - colours["black"]}
    assert table(found.colour) == {c: colours[c] for c in COLOURS}
    rolled = run(omphalos_attack, {"rv": 30, "distance_sectors": 8, "dice": {"values": d100(96)}})
    assert (rolled.attack_rv, rolled.row, rolled.colour, rolled.final_colour) == (
        35, 6, "yellow", "red",
    )  # fmt: skip
    assert rolled.close_range


def test_t19_far_off_a_red_is_a_nail_through_halved_armor():
    """T19: at 15 sectors 30 + 20 = 50; a red steps up to a blue Nail (C:L1612); Body Armor 25
    halves to 12 (round down, C:L1614), so 20 - 12 = 8 gets through."""
    body = {"rv": 30, "distance_sectors": 15, "target_body_armor": 25}
    rolled = run(omphalos_attack, {**body, "dice": {"values": [5, 1]}})
    assert (rolled.attack_rv, rolled.colour, rolled.final_colour, rolled.result) == (
        50, "red", "blue", "nail",
    )  # fmt: skip
    assert (rolled.damage, rolled.armor, rolled.damage_taken) == (20, 12, 8)
    colours = oracle.colour_odds(50)
    found = odds(omphalos_attack, body)
    assert table(found.final_colour) == {
        "black": colours["black"],
        "blue": colours["red"] + colours["blue"],
        "yellow": colours["yellow"],
    }
    assert table(found.damage_taken) == {"0": colours["black"], "8": 1 - colours["black"]}
    miss = run(omphalos_attack, {**body, "dice": {"values": d100(3)}})
    assert (miss.result, miss.damage_taken) == ("miss", 0)


@pytest.mark.parametrize(("armor", "taken"), [(0, 20), (20, 10), (25, 8), (39, 1), (40, 0)])
def test_20_damage_through_body_armor_halved_round_down(armor, taken):
    """C:L1614, C:L1624; catalogue 5.9: against Body Armor 20 the rifle deals 10."""
    body = {"rv": 30, "distance_sectors": 15, "target_body_armor": armor}
    assert run(omphalos_attack, {**body, "dice": {"values": d100(60)}}).damage_taken == taken


def test_the_rifle_halves_only_body_armor_unless_all_armor():
    """C:L1616 halves "any target's Body Armor"; a Force Field 16 beside Body Armor 25 keeps
    its value by default, the highest counting (A-21): 20 - 16 = 4. With
    armor_piercing_scope all_armor it is halved too: 20 - max(12, 8) = 8. Run and odds."""
    body = {"rv": 30, "distance_sectors": 15, "target_body_armor": 25, "target_other_armor": [16]}
    hit = run(omphalos_attack, {**body, "dice": {"values": d100(60)}})
    assert (hit.armor, hit.damage_taken) == (16, 4)
    assert set(table(odds(omphalos_attack, body).damage_taken)) == {"0", "4"}
    reach_all = {**body, "options": {"armor_piercing_scope": "all_armor"}}
    hit = run(omphalos_attack, {**reach_all, "dice": {"values": d100(60)}})
    assert (hit.armor, hit.damage_taken) == (12, 8)
    assert set(table(odds(omphalos_attack, reach_all).damage_taken)) == {"0", "8"}


def test_the_odds_are_every_roll_counted():
    body = {"rv": 47, "distance_sectors": 12, "target_body_armor": 9}
    counted = every_roll(omphalos_attack, body, lambda r: r.result)
    assert table(odds(omphalos_attack, body).result) == counted


def test_the_rifle_options_of_a43_and_a48():
    """A-43: +20 before halving gives (30 + 20) // 2 = 25; 'within 12' without 12 itself; red
    held close in but stepped up anyway. A-48: with no auto-Nail a blue is a Hit unless
    called."""
    after = {"rv": 30, "distance_sectors": 8, "options": {"omphalos_halve_before_bonus": False}}
    assert run(omphalos_attack, {**after, "dice": {"values": [1, 1]}}).attack_rv == 25
    outside = {
        "rv": 30,
        "distance_sectors": 12,
        "options": {"omphalos_close_range_inclusive": False},
    }
    assert run(omphalos_attack, {**outside, "dice": {"values": [1, 1]}}).attack_rv == 50
    stepped = {"rv": 30, "distance_sectors": 8,
               "options": {"omphalos_close_range_override": False}}  # fmt: skip
    colours = oracle.colour_odds(35)
    assert table(odds(omphalos_attack, stepped).result) == {
        "miss": colours["black"], "nail": 1 - colours["black"],
    }  # fmt: skip
    plain = {"rv": 30, "distance_sectors": 15, "options": {"omphalos_auto_nail": False}}
    assert run(omphalos_attack, {**plain, "dice": {"values": [5, 1]}}).result == "hit"
    called = {**plain, "nail_declared": True}
    assert run(omphalos_attack, {**called, "dice": {"values": [5, 1]}}).result == "nail"


def test_a_dying_shot_stopped_by_armor_is_a_hit():
    """A-15: Body Armor 40 halves to 20 and stops all 20 points: a yellow is a Hit."""
    body = {"rv": 30, "distance_sectors": 15, "target_body_armor": 40}
    rolled = run(omphalos_attack, {**body, "dice": {"values": d100(95)}})
    assert (rolled.final_colour, rolled.result, rolled.damage_taken) == ("yellow", "hit", 0)
    off = {**body, "options": {"dying_requires_penetration": False}}
    assert run(omphalos_attack, {**off, "dice": {"values": d100(95)}}).result == "dying"


def test_the_range_penalty_and_a_dodge_take_row_steps():
    """A-28: -1 Row Step a sector; a yellow dodge -9 (C:L1159), both on the rifle's 50."""
    far = {"rv": 30, "distance_sectors": 15, "options": {"range_penalty": True}}
    assert table(odds(omphalos_attack, far).colour) == {
        c: p for c, p in oracle.colour_odds(50, -15).items() if p
    }
    dodged = {"rv": 30, "distance_sectors": 15, "defender_dodge": "yellow"}
    assert table(odds(omphalos_attack, dodged).colour) == {
        c: p for c, p in oracle.colour_odds(50, -9).items() if p
    }


def test_the_rifle_reaches_20_sectors_and_fires_a_round_an_attack():
    with pytest.raises(ValidationError):
        run(omphalos_attack, {"rv": 30, "distance_sectors": 21})
    shot = run(omphalos_attack, {"rv": 30, "distance_sectors": 15, "rounds_loaded": 5,
                                 "dice": {"seed": 1}})  # fmt: skip
    assert shot.rounds_loaded == 4
    with pytest.raises(InputError) as empty:
        run(omphalos_attack, {"rv": 30, "distance_sectors": 15, "rounds_loaded": 0})
    assert empty.value.loc == ("rounds_loaded",)


def test_the_magazine_holds_30_takes_4_turns_and_90_rounds_an_hour():
    """C:L1618."""
    fired = run(omphalos_ammo, {"ammunition": {"rounds_loaded": 30}, "action": "fire", "shots": 3})
    assert fired.ammunition.rounds_loaded == 27
    swapped = run(omphalos_ammo, {"ammunition": {"rounds_loaded": 3, "spare_magazines": 2},
                                  "action": "reload"})  # fmt: skip
    assert (swapped.ammunition.rounds_loaded, swapped.ammunition.spare_magazines) == (30, 1)
    assert (swapped.ammunition.loose_rounds, swapped.turns) == (3, 4)
    refilled = run(omphalos_ammo, {"ammunition": {"rounds_loaded": 10, "loose_rounds": 50},
                                   "action": "reload"})  # fmt: skip
    assert (refilled.ammunition.rounds_loaded, refilled.ammunition.loose_rounds) == (30, 30)
    made = run(omphalos_ammo, {"ammunition": {"rounds_loaded": 0}, "action": "craft", "hours": 2})
    assert (made.ammunition.loose_rounds, made.hours) == (180, 2)
    with pytest.raises(InputError) as over:
        run(omphalos_ammo, {"ammunition": {"rounds_loaded": 2}, "action": "fire", "shots": 3})
    assert over.value.loc == ("shots",)
    with pytest.raises(InputError) as none:
        run(omphalos_ammo, {"ammunition": {"rounds_loaded": 2}, "action": "reload"})
    assert none.value.loc == ("ammunition", "spare_magazines")
    with pytest.raises(ValidationError):
        run(omphalos_ammo, {"ammunition": {"rounds_loaded": 31}, "action": "fire"})


# The Shrouded Relay (C:L1626-1650)


def test_the_relay_grants_telepathy_willpower_and_a_mind_shield():
    """C:L1636-1648: Telepathy 50 with Relays only, or +10 to one's own; Trait Increase
    (Willpower) +15 (A-44), +5 if owned; Mind Shield 30 on the Willpower worn; ten minutes a
    Relay to tune."""
    plain = run(shrouded_relay, {"willpower": 20, "relays_in_set": 4, "dice": {"seed": 1}})
    assert (plain.telepathy_rv, plain.mind_reading, plain.willpower_worn) == (50, False, 35)
    assert plain.mind_shield.willpower_against_mind_control == 35 + 30
    assert plain.mind_shield.mental_force_field_rv == 15
    assert plain.tuning_minutes == 40
    assert plain.scars == []
    assert plain.seed is None
    gifted = run(shrouded_relay, {"willpower": 20, "telepathy_rv": 30,
                                  "trait_increase_willpower": True})  # fmt: skip
    assert (gifted.telepathy_rv, gifted.mind_reading, gifted.willpower_bonus) == (40, True, 5)
    twice = run(shrouded_relay, {"willpower": 20, "options": {"relay_trait_increase": "plus_20"}})
    assert twice.willpower_worn == 40


def test_psychic_scars_cost_a_point_of_willpower_on_black():
    """C:L1650. Willpower 15 worn at 30 (row 30-39, black 00-34); one scar leaves 14, worn at
    29 (row 20-29, black 00-39): the second test reads the lower row."""
    body = {"willpower": 15, "telepathy_uses": 2}
    rolled = run(shrouded_relay, {**body, "dice": {"values": [*d100(34), *d100(39)]}})
    assert [s.colour for s in rolled.scars] == ["black", "black"]
    assert [s.row for s in rolled.scars] == [6, 5]
    assert (rolled.willpower_lost, rolled.willpower, rolled.willpower_worn) == (2, 13, 28)
    assert rolled.fortune_change == 0
    first, second = oracle.colour_odds(30)["black"], oracle.colour_odds(29)["black"]
    assert table(odds(shrouded_relay, body).willpower_lost) == {
        "0": (1 - first) ** 2,
        "1": first * (1 - second) + (1 - first) * first,
        "2": first * second,
    }
    assert table(odds(shrouded_relay, body).willpower_lost) == {
        str(k): v
        for k, v in every_roll(shrouded_relay, body, lambda r: r.willpower_lost, 2).items()
    }


def test_psychic_scars_options():
    """A-35 takes the lost point off Fortune; the Relay's own +15 left out of the test."""
    body = {"willpower": 15, "telepathy_uses": 1, "dice": {"values": d100(0)},
            "options": {"recompute_fortune": True, "psychic_scars_trait": "base"}}  # fmt: skip
    rolled = run(shrouded_relay, body)
    assert (rolled.scars[0].rv_effective, rolled.fortune_change) == (15, -1)
    base = odds(shrouded_relay, {"willpower": 15, "telepathy_uses": 1,
                                 "options": {"psychic_scars_trait": "base"}})  # fmt: skip
    assert Fraction(base.scar_chance.exact) == oracle.colour_odds(15)["black"]


# The Voltaic-Concussion Fist (C:L1652-1672)


def test_the_fist_without_and_with_matching_control():
    """A-45: Generation 40 and Amplified 30 control at 30/2 + 10 = 25 with amplified dice;
    with Control 30, +10 and +15 make 55; the option adds the matching +10 (C:L612): 65."""
    bare = run(voltaic_fist, {"melee": 20})
    assert (bare.generation_rv, bare.control_rv, bare.mode, bare.damage) == (
        40,
        25,
        "amplified",
        25,
    )
    assert bare.melee_attack_rv == 30  # the greater of 25 and Melee 20 + 10
    owned = run(voltaic_fist, {"control_rv": 30})
    assert (owned.generation_rv, owned.control_rv, owned.control_source) == (None, 55, "control")
    stacked = run(voltaic_fist, {"control_rv": 30, "options": {"fist_stack_matching_bonus": True}})
    assert (stacked.generation_rv, stacked.control_rv) == (50, 65)


def test_the_fists_charges():
    """C:L1668-1672: 20 uses in the backpack, 10 in the belt, 1 turn to switch."""
    used = run(voltaic_fist, {"action": "use", "uses": 3})
    assert used.power.backpack_uses == 17
    switched = run(voltaic_fist, {"action": "switch"})
    assert (switched.power.connected, switched.turns) == ("belt", 1)
    belt = run(voltaic_fist, {"action": "use", "power": {"connected": "belt", "belt_uses": 2},
                              "uses": 2})  # fmt: skip
    assert belt.power.belt_uses == 0
    with pytest.raises(InputError) as over:
        run(voltaic_fist, {"action": "use", "power": {"belt_uses": 1, "connected": "belt"},
                           "uses": 2})  # fmt: skip
    assert over.value.loc == ("uses",)


@pytest.mark.parametrize("action", ["wear", "use", "switch"])
def test_only_a_recharge_rolls(action):
    """C:L1672: the recharge time is rolled when a source recharges; wearing, using or
    switching rolls nothing, so their odds say so, as their results' null recharge_turns."""
    found = odds(voltaic_fist, {"action": action})
    assert (table(found.recharge_turns), found.mean_recharge_turns) == ({"not_rolled": 1}, None)
    assert run(voltaic_fist, {"action": action}).recharge_turns is None


def by_d10s(count, add, zero_is_ten=True):
    faces = range(1, 11) if zero_is_ten else range(10)
    sums = Counter(sum(f) + add for f in itertools.product(faces, repeat=count))
    return {k: Fraction(n, 10**count) for k, n in sums.items()}


@pytest.mark.parametrize(
    ("source", "count", "low", "high", "mean"),
    [("backpack", 3, 8, 35, Fraction(43, 2)), ("belt", 2, 7, 25, Fraction(16))],
)
def test_recharge_times_are_3d10_5_and_2d10_5(source, count, low, high, mean):
    """C:L1672; catalogue 5.4: 8-35 mean 21.5, 7-25 mean 16."""
    body = {"action": "recharge", "source": source, "power": {"backpack_uses": 0, "belt_uses": 0}}
    found = odds(voltaic_fist, body)
    expected = by_d10s(count, 5)
    assert table(found.recharge_turns) == {str(k): v for k, v in expected.items()}
    assert (min(expected), max(expected), Fraction(found.mean_recharge_turns.exact)) == (
        low, high, mean,
    )  # fmt: skip
    rolled = run(voltaic_fist, {**body, "dice": {"values": [10] * count}})
    assert (rolled.recharge_turns, rolled.turns) == (10 * count + 5, 10 * count + 5)
    assert getattr(rolled.power, f"{source}_uses") == (20 if source == "backpack" else 10)


@pytest.mark.parametrize(("source", "count"), [("backpack", 3), ("belt", 2)])
def test_a_recharge_written_as_dice_is_rolled_as_dice(source, count):
    """C:L1672 writes '3d10+5 turns' and '2d10+5 turns', dice, not a range such as '2-20
    turns': range_dice=uniform (A-25) leaves them summed d10s."""
    body = {"action": "recharge", "source": source, "options": {"range_dice": "uniform"}}
    expected = by_d10s(count, 5)
    assert table(odds(voltaic_fist, body).recharge_turns) == {
        str(k): v for k, v in expected.items()
    }
    rolled = run(voltaic_fist, {**body, "dice": {"values": [10] * count}})
    assert (rolled.recharge_turns, rolled.recharge_faces) == (10 * count + 5, (10,) * count)


def test_a_d10_read_0_to_9_shortens_the_recharge():
    """A-26."""
    body = {"action": "recharge", "options": {"d10_zero_is_ten": False}}
    assert table(odds(voltaic_fist, body).recharge_turns) == {
        str(k): v for k, v in by_d10s(3, 5, zero_is_ten=False).items()
    }


# Potions (C:L1674-1706)


def test_drinking_takes_a_turn_or_an_attack_and_works_next_turn():
    """C:L1678: Fast Attack 30 (3 attacks, C:L641) gives one up; the potion works from the next
    turn for 3 turns."""
    quick = run(drink, {"potion": "strength", "turn": 5, "fast_attack_rv": 30})
    assert (quick.action, quick.attacks_left, quick.first_turn, quick.last_turn) == (
        "attack", 2, 6, 8,
    )  # fmt: skip
    slow = run(drink, {"potion": "dodging", "grade": "greater", "turn": 5})
    assert (slow.action, slow.attacks_left, slow.turns, slow.last_turn) == ("turn", 0, 4, 9)
    healed = run(drink, {"potion": "healing", "turn": 5})
    assert (healed.turns, healed.first_turn, healed.last_turn) == (None, 6, 6)
    with pytest.raises(InputError) as graded:
        run(drink, {"potion": "healing", "grade": "lesser", "turn": 5})
    assert graded.value.loc == ("grade",)


def test_a_healing_potion_drunk_works_when_its_option_says():
    """C:L1690 'turn after' (A-46): with healing_potion_next_turn off the 25 points come the
    turn it is given, and drinking it says the same turn that potion/healing does."""
    body = {"turn": 5, "options": {"healing_potion_next_turn": False}}
    drunk = run(drink, {"potion": "healing", **body})
    given = run(healing, {"damage_points": 10, "starting_damage": 60, **body})
    assert (drunk.first_turn, drunk.last_turn, given.turn) == (5, 5, 5)
    later = run(drink, {"potion": "strength", **body})
    assert later.first_turn == 6  # every other potion still starts next turn (C:L1678)


def test_a_second_potion_while_the_first_lasts_negates_both():
    """C:L1678: a potion drunk on turn 1 works on turns 2-4; another on turn 4 negates both, on
    turn 5 it is fine."""
    assert run(drink, {"potion": "trait", "turn": 4, "active_until": 4}).negated
    later = run(drink, {"potion": "trait", "turn": 5, "active_until": 4})
    assert not later.negated
    assert later.first_turn == 6


def test_the_dodging_potion_replaces_the_dodge_table():
    """C:L1680-1688: black -1 (A-46), red -4, blue -8, yellow every attack fails."""
    body = {"rv": 30, "sectors_moved": 1}
    colours = oracle.colour_odds(30, -1)
    found = odds(dodging, body)
    assert table(found.result) == {
        "-1": colours["black"], "-4": colours["red"], "-8": colours["blue"],
        "auto_fail": colours["yellow"],
    }  # fmt: skip
    assert table(found.result) == every_roll(dodging, body, lambda r: r.result)
    yellow = run(dodging, {"rv": 30, "dice": {"values": d100(99)}})
    assert (yellow.attacks_fail, yellow.attacker_row_steps, yellow.turns) == (True, None, 3)
    zero = odds(dodging, {**body, "options": {"dodging_potion_black_row_steps": 0}})
    assert table(zero.result)["0"] == colours["black"]


def test_an_attacker_through_the_dodging_potion():
    """Catalogue 5.1: the sum over the dodge's colours of P(colour) x P(attacker red or better
    at -1, -4 or -8 Row Steps), nothing on yellow."""
    found = odds(dodging, {"rv": 30, "attacker_rv": 40, "grade": "lesser"})
    dodge = oracle.colour_odds(30)
    wanted = sum(
        dodge[c] * (1 - oracle.colour_odds(40, steps)["black"])
        for c, steps in (("black", -1), ("red", -4), ("blue", -8))
    )
    assert Fraction(found.attacker_hits.exact) == wanted


def test_healing_restores_25_to_the_starting_value():
    """C:L1690: 25 points the turn after, never past the starting Damage points (A-46, A-56)."""
    found = run(healing, {"damage_points": 10, "starting_damage": 60, "turn": 3})
    assert (found.healed, found.damage_points, found.turn) == (25, 35, 4)
    capped = run(healing, {"damage_points": 50, "starting_damage": 60, "turn": 3})
    assert (capped.healed, capped.damage_points) == (10, 60)
    now = run(healing, {"damage_points": 0, "starting_damage": 60, "turn": 3,
                        "options": {"healing_potion_next_turn": False}})  # fmt: skip
    assert (now.turn, now.dying_ended) == (3, True)
    with pytest.raises(InputError) as bad:
        run(healing, {"damage_points": 70, "starting_damage": 60, "turn": 3})
    assert bad.value.loc == ("damage_points",)


def test_invisibility_lasts_the_turns_the_option_supplies():
    """C:L1692 leaves the number out ('for turns'): 3 by default (A-46); lesser 2 and greater 4
    are the seed's (C:L1704)."""
    found = run(invisibility, {"turn": 2})
    assert (found.power, found.turns, found.first_turn, found.last_turn) == (
        "invisibility", 3, 3, 5,
    )  # fmt: skip
    assert not found.in_source
    assert run(invisibility, {"turn": 2, "options": {"invisibility_potion_turns": 5}}).turns == 5
    lesser = run(invisibility, {"turn": 2, "grade": "lesser"})
    assert (lesser.turns, lesser.in_source) == (2, True)


def test_e12_a_lesser_potion_of_fortitude():
    """E12, C:L1706: Fortitude +2d10+10 for 2 turns; 3 and 8 on the dice make +21."""
    found = run(strength, {"trait": "fortitude", "trait_rv": 20, "grade": "lesser", "turn": 1,
                           "dice": {"values": [3, 8]}})  # fmt: skip
    assert (found.trait, found.bonus, found.rv, found.turns) == ("fortitude", 21, 41, 2)
    assert (found.first_turn, found.last_turn) == (2, 3)


def test_strength_is_2d10_plus_10_for_3_turns():
    """C:L1694; catalogue 5.4: 12-30, mean 21."""
    found = odds(strength, {"trait_rv": 30})
    expected = by_d10s(2, 10)
    assert table(found.bonus) == {str(k): v for k, v in expected.items()}
    assert table(found.rv) == {str(k + 30): v for k, v in expected.items()}
    assert Fraction(found.mean_bonus.exact) == 21
    brawn = run(strength, {"trait_rv": 30, "dice": {"values": [10, 10]}})
    assert (brawn.trait, brawn.rv, brawn.turns) == ("brawn", 60, 3)
    greater = run(strength, {"grade": "greater", "dice": {"values": [1, 1]}})
    assert (greater.bonus, greater.turns) == (12, 4)


def test_strength_written_as_dice_is_rolled_as_dice():
    """C:L1694 writes '2d10+10', dice, not a range such as '2-20 turns': range_dice=uniform
    (A-25) leaves it 12-30 with mean 21 (catalogue 5.4), and two dice on the table."""
    body = {"trait_rv": 30, "options": {"range_dice": "uniform"}}
    assert table(odds(strength, body).bonus) == {str(k): v for k, v in by_d10s(2, 10).items()}
    rolled = run(strength, {**body, "dice": {"values": [3, 8]}})
    assert (rolled.faces, rolled.bonus, rolled.rv) == ((3, 8), 21, 51)


def test_a_power_potion_grants_the_power_at_2d10_plus_10():
    """C:L1700, an extrapolation the result says it is (catalogue 3.12.6)."""
    found = run(strength, {"power": "flight", "dice": {"values": [5, 5]}})
    assert (found.trait, found.power, found.rv, found.extrapolated) == (None, "flight", 20, True)
