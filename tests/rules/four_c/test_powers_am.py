"""4C powers A-M (issue 18; catalogue 4c.md 3.6, C:L470-740) against the seed's examples
(catalogue 4.1, 4.2), the catalogue's exact odds (5.4, 5.6) and an independent enumeration of
every d% face (oracle.py and itertools.product here)."""

from fractions import Fraction
from itertools import product

import pytest

from service.rules.four_c.powers import core
from service.rules.four_c.powers.anatomy import (
    claws,
    elasticity,
    extra_body_parts,
    fast_attack,
    growth_shrinking,
)
from service.rules.four_c.powers.assets import (
    HEADQUARTERS,
    astoundingly_wealthy,
    celebrity,
    improved_skills,
    magic,
)
from service.rules.four_c.powers.elements import (
    amplified_ee_control,
    ee_attack,
    ee_generation,
    ee_lift,
)
from service.rules.four_c.powers.locomotion import burrowing, dimension_jump, flight
from service.rules.four_c.powers.mind import animal_command, mind_control, mind_shield
from service.rules.four_c.powers.protection import absorption, body_armor, force_field
from service.rules.four_c.powers.senses import (
    chameleon,
    combat_awareness,
    contaminant_resistance,
    detection,
    invisibility_touch,
)
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.four_c import oracle

# The shared core (catalogue 3.0)


def test_greater_of_adds_ten_unless_told_not_to():
    """Catalogue 3.0: max(power, trait + 10); Claws and Mind Control eligibility add none."""
    assert core.greater_of(20, 30) == 40
    assert core.greater_of(45, 30) == 45
    assert core.greater_of(20, 30, 0) == 30


@pytest.mark.parametrize(
    ("rv", "band"),
    [(0, None), (1, "1-2"), (2, "1-2"), (3, "3-5"), (49, "40-49"), (50, "50-74"),
     (999, "150-999"), (1000, "1000"), (5000, "1000")],
)  # fmt: skip
def test_rank_bands_of_the_power_tables(rv, band):
    """Catalogue 3.0: above 1000 reads 1000; 0 has no band (the power does nothing)."""
    index = core.band_of(rv)
    assert (None if index is None else core.BANDS[index].label) == band


def test_half_rounds_up_unless_told_down():
    """A-11: one-half of 45 is 23, or 22 rounding down."""
    assert core.half(45) == 23
    assert core.half(45, core.HalfRounding.DOWN) == 22
    assert core.half(44) == 22


# Opposed d% (catalogue 5.6): Chameleon


def brute_opposed(k: int) -> tuple[Fraction, Fraction]:
    """P(active > reactive) and P(tie) when the active side's bonus exceeds the other's by k,
    over every face of four d10."""
    higher = tie = 0
    for a, b, c, d in product(range(10), repeat=4):
        diff = 10 * a + b + k - (10 * c + d)
        higher += diff > 0
        tie += diff == 0
    return Fraction(higher, 10_000), Fraction(tie, 10_000)


@pytest.mark.parametrize(
    ("k", "percent_higher", "percent_tie"),
    [(-50, "12.25", "0.50"), (-10, "40.05", "0.90"), (0, "49.50", "1.00"), (10, "59.05", "0.90"),
     (30, "75.15", "0.70"), (60, "91.80", "0.40"), (100, "100", "0")],
)  # fmt: skip
def test_opposed_odds_equal_the_catalogue_and_the_enumeration(k, percent_higher, percent_tie):
    found = core.opposed_odds(max(k, 0), max(-k, 0), core.OpposedTie.REACTIVE)
    first = table(found.first_roll)
    higher, tie = brute_opposed(k)
    assert first.get("active", Fraction(0)) == higher == Fraction(percent_higher) / 100
    assert first.get("tie", Fraction(0)) == tie == Fraction(percent_tie) / 100


def test_chameleon_30_against_awareness_20_stays_hidden_59_05_percent():
    """Catalogue 5.6: the hider must roll higher (C:L518), a tie finds them (A-31)."""
    found = odds(chameleon, {"power_rv": 30, "searcher_awareness": 20})
    assert Fraction(found.hidden.exact) == Fraction(5905, 10_000)
    higher, tie = brute_opposed(-10)
    assert table(found.winner) == {"active": higher + tie, "reactive": 1 - higher - tie}


def test_chameleon_ties_by_option():
    """A-31: re-rolled ties share out in proportion (catalogue 5.6, last column)."""
    found = odds(
        chameleon,
        {"power_rv": 50, "searcher_awareness": 20, "options": {"opposed_tie": "reroll"}},
    )
    higher, tie = brute_opposed(30)
    assert Fraction(found.hidden.exact) == higher / (1 - tie)
    assert round(found.hidden.float * 100, 2) == 75.68


def test_a_chameleon_roll_that_ties_is_found():
    """C:L518: the searcher's 41 + 20 against the chameleon's 31 + 30: a tie, found."""
    rolled = run(chameleon, {"power_rv": 30, "searcher_awareness": 20,
                             "dice": {"values": [4, 1, 3, 1]}})  # fmt: skip
    assert (rolled.active_total, rolled.reactive_total, rolled.hidden) == (61, 61, False)


# Checks on the Master Table against the enumeration


def brute_colours(rv: int, steps: int) -> dict[str, Fraction]:
    """Every face of the two d10 read on the catalogue's own table (oracle.py)."""
    return oracle.colour_odds(rv, steps)


def at_least(colours: dict[str, Fraction], colour: str) -> Fraction:
    return sum((colours[c] for c in oracle.COLOURS[oracle.COLOURS.index(colour) :]), Fraction(0))


RVS = [(rv, steps) for rv in (1, 8, 25, 45, 120, 1000) for steps in (0, -2, 3)]


@pytest.mark.parametrize(("power_rv", "steps"), RVS)
@pytest.mark.parametrize(("goal", "colour"), [("communicate", "red"), ("control", "yellow")])
def test_animal_command_odds(power_rv, steps, goal, colour):
    """C:L496: the greater of the power or Willpower +10; red communicates, yellow controls."""
    request = {"power_rv": power_rv, "willpower": 20, "goal": goal, "row_steps": [steps]}
    found = odds(animal_command, request)
    expected = at_least(brute_colours(max(power_rv, 30), steps), colour)
    assert Fraction(found.success.exact) == expected
    assert sum(table(found.result).values()) == 1


@pytest.mark.parametrize(("power_rv", "steps"), RVS)
def test_invisibility_touch_and_dimension_jump_odds(power_rv, steps):
    """C:L722 red or better turns the touched invisible; C:L552 black arrives dazed."""
    colours = brute_colours(power_rv, steps)
    touch = odds(invisibility_touch, {"power_rv": power_rv, "row_steps": [steps]})
    jump = odds(dimension_jump, {"power_rv": power_rv, "row_steps": [steps]})
    assert Fraction(touch.success.exact) == at_least(colours, "red")
    assert table(jump.result).get("arrives_dazed", Fraction(0)) == colours["black"]


def test_a_known_dimension_needs_no_roll():
    rolled = run(dimension_jump, {"power_rv": 1, "visited_before": True, "dice": {"seed": 1}})
    assert (rolled.result, rolled.check, rolled.rolls) == ("arrives", None, [])
    assert table(odds(dimension_jump, {"power_rv": 1, "visited_before": True}).result) == {
        "arrives": 1
    }


def test_a_black_dimension_jump_dazes():
    """C:L552: at Rank Value 20 a roll of 39 is black."""
    rolled = run(dimension_jump, {"power_rv": 20, "dice": {"values": [3, 9]}})
    assert (rolled.result, rolled.dazed, rolled.check.colour) == ("arrives_dazed", True, "black")


@pytest.mark.parametrize("mode", ["normal", "amplified"])
@pytest.mark.parametrize(("power_rv", "trait"), [(30, 10), (10, 30), (150, 20)])
def test_ee_attack_odds(power_rv, trait, mode):
    """C:L564: the greater of the power or Coordination +10, read on the ranged table; an
    amplified roll keeps the better tens die (C:L490, catalogue 5.5)."""
    request = {"power_rv": power_rv, "trait_rv": trait, "mode": mode}
    found = table(odds(ee_attack, request).result)
    colours = oracle.colour_odds(max(power_rv, trait + 10), 0, mode=mode)
    assert found == {
        k: v
        for k, v in {"miss": colours["black"], "hit": colours["red"] + colours["blue"],
                     "dying": colours["yellow"]}.items()
        if v
    }  # fmt: skip


def test_an_ee_attack_does_the_powers_damage_at_a_tenth_its_range():
    rolled = run(ee_attack, {"power_rv": 45, "trait_rv": 10, "dice": {"values": [7, 2]}})
    assert (rolled.attack_rv, rolled.damage, rolled.range_sectors) == (45, 45, 5)
    assert (rolled.colour, rolled.result) == ("blue", "hit")


def test_claws_attack_with_the_greater_of_melee_and_the_power_and_do_brawn_plus_5():
    """C:L522 (A-51): Melee 20 and Claws 30 attack at 30; damage is Brawn 20 + 5."""
    rolled = run(claws, {"power_rv": 30, "melee": 20, "brawn": 20, "dice": {"values": [8, 8]}})
    assert (rolled.attack_rv, rolled.damage, rolled.colour, rolled.result) == (
        30, 25, "blue", "concuss"
    )  # fmt: skip
    colours = brute_colours(30, 0)
    found = table(odds(claws, {"power_rv": 30, "melee": 20, "brawn": 20}).result)
    assert found["dying"] == colours["yellow"]


@pytest.mark.parametrize(
    ("target", "shield", "eligible"),
    [(19, 0, True), (20, 0, False), (10, 10, False), (10, 5, True)],
)
def test_mind_control_eligibility_is_strict_and_without_plus_10(target, shield, eligible):
    """C:L732 and A-32: Willpower (with Mind Shield, C:L738) below the greater of the power and
    the user's Willpower; the roll then adds +10 (C:L734)."""
    request = {"power_rv": 20, "willpower": 15, "target_willpower": target,
               "target_mind_shield": shield}  # fmt: skip
    rolled = run(mind_control, {**request, "dice": {"values": [9, 9]} if eligible else {"seed": 1}})
    assert rolled.eligible is eligible
    assert rolled.control_rv == 25
    found = odds(mind_control, request)
    if eligible:
        assert rolled.result == "controlled"
        assert Fraction(found.success.exact) == at_least(brute_colours(25, 0), "red")
    else:
        assert (rolled.result, rolled.check, rolled.rolls) == ("ineligible", None, [])
        assert Fraction(found.success.exact) == 0


def test_breaking_free_rolls_the_targets_willpower_with_mind_shield():
    request = {"stage": "break_free", "power_rv": 50, "willpower": 10,
               "target_willpower": 10, "target_mind_shield": 20}  # fmt: skip
    found = odds(mind_control, request)
    assert Fraction(found.success.exact) == at_least(brute_colours(30, 0), "red")


def brute_force_field(fortitude: int) -> dict[int, Fraction]:
    """Turns out for a mental field breached: every d% and d10 face (catalogue 5.4)."""
    counts: dict[int, int] = {}
    for tens, ones, d10 in product(range(10), range(10), range(1, 11)):
        black = oracle.colour_at(oracle.row_index(fortitude, "libre-basic"), 10 * tens + ones,
                                 "libre-basic") == "black"  # fmt: skip
        turns = d10 if black else 1
        counts[turns] = counts.get(turns, 0) + 1
    return {str(k): Fraction(v, 1000) for k, v in counts.items()}


def test_a_breached_mental_force_field_dazes():
    """C:L673: a mental field of the greater of 20 or Willpower 20 +10 is 30; 40 damage
    breaches it: 10 gets through and Fortitude is rolled, black dazing for 1-10 turns."""
    request = {"power_rv": 20, "kind": "mental", "willpower": 20, "fortitude": 30, "damage": 40}
    rolled = run(force_field, {**request, "dice": {"values": [2, 5, 7]}})
    assert (rolled.armor_rv, rolled.damage_taken, rolled.exceeded) == (30, 10, True)
    assert (rolled.fortitude_check.colour, rolled.dazed_turns) == ("black", 7)
    assert table(odds(force_field, request).turns_out) == brute_force_field(30)


def test_a_device_field_shorts_out_only_past_its_rank_value():
    """C:L671 (A-23 strictly greater): 20 damage on a field of 20 holds; 21 shorts it out for
    1d10 turns."""
    held = run(force_field, {"power_rv": 20, "damage": 20, "dice": {"seed": 1}})
    assert (held.exceeded, held.damage_taken, held.shorted_turns) == (False, 0, None)
    shorted = run(force_field, {"power_rv": 20, "damage": 21, "dice": {"values": [10]}})
    assert (shorted.damage_taken, shorted.shorted_turns) == (1, 10)
    found = table(odds(force_field, {"power_rv": 20, "damage": 21}).turns_out)
    assert found == {str(n): Fraction(1, 10) for n in range(1, 11)}


def test_a_device_field_shorts_out_for_a_span_read_as_range_dice_says():
    """C:L671 '1-10 turns' is a span (A-25): with range_dice=uniform it is one number from 1
    to 10 whatever a d10's 0 face counts as (A-26), as a teleport's '1-10 turns' daze is."""
    options = {"range_dice": "uniform", "d10_zero_is_ten": False}
    request = {"power_rv": 20, "damage": 21, "options": options}
    shorted = run(force_field, {**request, "dice": {"values": [10]}})
    assert shorted.shorted_turns == 10
    found = table(odds(force_field, request).turns_out)
    assert found == {str(n): Fraction(1, 10) for n in range(1, 11)}


# Examples and lookups (catalogue 4.1, 4.2)


def test_body_armor_10_against_a_20_point_punch():
    """E7, C:L1194: armor 10 against a punch of 20 leaves 10."""
    assert run(body_armor, {"power_rv": 10, "damage": 20}).damage_taken == 10


def test_brawn_30_two_handed_against_body_armor_20():
    """T9, C:L1185, C:L506: 30 + 10 = 40 against 20: 20 damage."""
    assert run(body_armor, {"power_rv": 20, "damage": 40}).damage_taken == 20


@pytest.mark.parametrize(("rv", "sectors"), [(0, 0), (1, 1), (10, 1), (11, 2), (45, 5)])
def test_elasticity_reaches_a_tenth_rounded_up(rv, sectors):
    """T12, C:L556."""
    assert run(elasticity, {"power_rv": rv}).sectors == sectors


@pytest.mark.parametrize(
    ("rv", "cap", "extend"), [(0, 1, 1), (29, 2, 2), (30, 3, 3), (50, 4, 4), (70, 4, 4),
                              (75, 4, 5), (1000, 4, 8)]
)  # fmt: skip
def test_fast_attack(rv, cap, extend):
    """T25, C:L636-643: 29, 30, 50, 70 attack 2, 3, 4, 4 (A-29 caps at 4 by default)."""
    assert run(fast_attack, {"power_rv": rv}).attacks_per_turn == cap
    options = {"fast_attack_above_50": "extend"}
    assert run(fast_attack, {"power_rv": rv, "options": options}).attacks_per_turn == extend


@pytest.mark.parametrize(("rv", "sectors"), [(0, 0), (1, 1), (10, 4), (100, 10), (999, 15),
                                             (1000, None), (4000, None)])  # fmt: skip
def test_flight_speed(rv, sectors):
    """C:L649-665: 1000 circles the world in a turn."""
    assert run(flight, {"power_rv": rv}).sectors_per_turn == sectors


@pytest.mark.parametrize(("rv", "weight", "pounds"), [(1, "50 lb.", 50), (35, "1 ton", 2000),
                                                      (1000, "400 tons", 800_000)])  # fmt: skip
def test_lift(rv, weight, pounds):
    """C:L568-584."""
    found = run(ee_lift, {"power_rv": rv})
    assert (found.weight, found.pounds) == (weight, pounds)


def test_growth_and_shrinking():
    """C:L682-697: Growth 30 reaches 24 feet with Brawn max(30, 20+10); Shrinking 100 goes
    down to a quarter inch, attackers -1 RS, the character +2 RS."""
    grown = run(growth_shrinking, {"power_rv": 30, "power": "growth", "brawn": 20})
    assert (grown.height, grown.brawn, grown.attackers_row_steps) == ("24 feet", 30, 1)
    shrunk = run(growth_shrinking, {"power_rv": 100, "power": "shrinking", "brawn": 20})
    assert (shrunk.height, shrunk.height_inches, shrunk.brawn) == ("¼ inch", "1/4", 20)
    assert (shrunk.attackers_row_steps, shrunk.attack_row_steps) == (-1, 2)


def test_headquarters_guide_reads_its_top_row_at_50_and_beyond():
    """E11, C:L712-714: a Rank Value 50 headquarters is an orbital complex or the like (and
    may be just a well-outfitted mansion); above 50 reads 50 (A-29)."""
    assert core.banded(50, HEADQUARTERS) == core.banded(80, HEADQUARTERS)
    top = core.banded(50, HEADQUARTERS)
    assert top is not None
    assert top.size_and_contents.startswith("An orbital complex")


def test_absorption_heals_up_to_the_maximum_and_pools_hits():
    """C:L476-482: 30 fire damage against Absorption 20: 20 absorbed, 10 taken; healing 20
    from 40 - 10 gives 50. Two hits pool for next turn's attack (A-54)."""
    healed = run(absorption, {"power_rv": 20, "hits": [30], "use": "heal", "damage_points": 40,
                              "maximum": 90})  # fmt: skip
    assert (healed.absorbed, healed.taken, healed.damage_points) == (20, 10, 50)
    attack = run(absorption, {"power_rv": 20, "hits": [15, 25], "armor_rv": 3, "use": "attack"})
    assert (attack.absorbed, attack.taken, attack.attack_rv) == (35, 2, 35)


def test_amplified_and_generation_halves():
    """C:L490-492, C:L610-612, A-11."""
    assert run(amplified_ee_control, {"power_rv": 25, "control_rv": 30}).control_rv == 43
    down = {"power_rv": 25, "control_rv": 30, "options": {"half_rounding": "down"}}
    assert run(amplified_ee_control, down).control_rv == 42
    generated = run(amplified_ee_control, {"power_rv": 20, "generation_rv": 50})
    assert (generated.control_rv, generated.source) == (25, "generation")
    with pytest.raises(InputError):
        run(amplified_ee_control, {"power_rv": 20})
    alone = run(ee_generation, {"power_rv": 35})
    assert (alone.generation_rv, alone.control_rv, alone.matched) == (35, 18, False)
    matched = run(ee_generation, {"power_rv": 30, "matching_control_rv": 20})
    assert (matched.generation_rv, matched.control_rv) == (40, 30)


def test_mind_shield():
    """C:L738-740: Willpower +30 against Mind Control; a field of 15, or +15 on a mental Force
    Field of max(20, 20 + 10)."""
    alone = run(mind_shield, {"power_rv": 30, "willpower": 20})
    assert (alone.willpower_against_mind_control, alone.mental_force_field_rv) == (50, 15)
    both = run(mind_shield, {"power_rv": 30, "willpower": 20, "mental_force_field_rv": 20})
    assert both.mental_force_field_rv == 45


def test_effective_ranks():
    """C:L528, C:L532, A-76."""
    assert run(combat_awareness, {"power_rv": 20, "awareness": 30}).rv == 40
    gas = {"power_rv": 50, "fortitude": 10, "hazard": "stench_gas"}
    assert run(contaminant_resistance, gas).rv == 50
    only = {**gas, "options": {"contaminant_applies_to": "hazards_only"}}
    found = run(contaminant_resistance, only)
    assert (found.rv, found.applies) == (10, False)
    poison = {**only, "hazard": "poison"}
    assert run(contaminant_resistance, poison).rv == 50


def test_detection_range_is_the_rank_value():
    """C:L540 (A-53): sectors equal to the Rank Value, not a tenth."""
    assert run(detection, {"power_rv": 20}).range_sectors == 20


def test_burrowing():
    """C:L510: through material rank up to the power, at running speed (C:L993-997)."""
    assert run(burrowing, {"power_rv": 30, "coordination": 20, "material_value": 30}).model_dump(
        include={"can_burrow", "sectors_per_turn"}
    ) == {"can_burrow": True, "sectors_per_turn": 2}
    hard = run(burrowing, {"power_rv": 30, "coordination": 20, "material_value": 31})
    assert (hard.can_burrow, hard.sectors_per_turn) == (False, 0)


def test_extra_body_parts():
    """C:L616-632 (A-33): Wings give Flight at this power's Rank Value, or +20 to it."""
    wings = run(extra_body_parts, {"power_rv": 20, "part": "wings"})
    assert (wings.power, wings.power_rv) == ("flight", 20)
    owned = run(extra_body_parts, {"power_rv": 20, "part": "wings", "owned_rv": 30})
    assert owned.power_rv == 50
    assert run(extra_body_parts, {"power_rv": 20, "part": "tail"}).extra_attacks == 1
    basic = run(extra_body_parts, {"power_rv": 20, "part": "tail", "advanced": False})
    assert basic.extra_attacks == 0


def test_not_powers_and_magic():
    """C:L502, C:L514, C:L718, C:L726-728."""
    wealthy = run(astoundingly_wealthy, {"lifestyle": 10, "repute": 5})
    assert (wealthy.lifestyle, wealthy.repute) == (60, 25)
    famous = run(celebrity, {"repute": 5})
    assert (famous.repute, famous.secret_identity_allowed) == (35, False)
    skilled = run(improved_skills, {"skills": 2})
    assert (skilled.skills, skilled.improved_skill_row_steps) == (4, 3)
    assert run(magic, {"magic_rv": 40, "spell": "Flight"}).rv == 40
    with pytest.raises(InputError):
        run(magic, {"magic_rv": 40, "spell": "Flight", "spells_this_turn": 1})
