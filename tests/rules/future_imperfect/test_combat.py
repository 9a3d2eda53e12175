"""Future Imperfect ranged and melee combat and defense (catalogue 2.5, 2.6, 3.5, 3.6) against
the chapter's examples E-10 to E-20 (FI:L287-403), the catalogue's tables T13, T18 and T22
(sections 5.4, 5.5, 5.7) and an independent computation: the oracle's closed forms for the
dice, brute-force enumeration for the bystanders."""

from fractions import Fraction
from itertools import product
from math import comb
from typing import Any

import pytest

from service.rules.future_imperfect.combat.aiming import aim, aim_interrupt
from service.rules.future_imperfect.combat.defense import active_defense, flee
from service.rules.future_imperfect.combat.fire import (
    area_effect,
    explosives,
    reload,
    suppression,
    unintended_targets,
)
from service.rules.future_imperfect.combat.melee import (
    close,
    defensive_bonus,
    entangle,
    entangle_escape,
    melee_attack,
    weapon_speed,
)
from service.rules.future_imperfect.combat.modifiers import (
    called_shot,
    ranged_modifiers,
    ranged_range_tn,
    ranged_skill,
    target_size,
    target_speed,
    two_weapons,
)
from service.rules.future_imperfect.combat.ranged import attack, automatic
from service.rules.future_imperfect.combat.throwing import scatter, throw
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.future_imperfect.oracle import check_outcomes

SIDES = {"I": 4, "II": 6, "III": 8, "IV": 10, "V": 12}


def at_least(pool: str, target: int) -> Fraction:
    """P(no critical failure and the kept die at least `target`), exactly, from the oracle:
    the chance of no critical failure less that of every die ending below the target."""
    column, row = pool.split("-")
    sides, n = SIDES[column], int(row)
    cf = sum(comb(n, k) * Fraction(1, sides) ** k * Fraction(sides - 1, sides) ** (n - k)
             for k in range(n + 1) if 2 * k > n)  # fmt: skip
    below = sum(p for is_cf, _, p in check_outcomes(sides, n, max(target, 1)) if not is_cf)
    return 1 - cf - below


def close_to(found: Any, expected: Fraction, cut: Any) -> None:
    """The service's exact figure for the chains it follows: short of the whole by at most
    the mass it reports cut."""
    mass = Fraction(cut.mass_cut.exact) if cut else Fraction(0)
    assert expected - mass <= Fraction(found) <= expected


# Ranged: the TN and the modifiers


@pytest.mark.parametrize(("distance", "increment", "tn"), [(0, 10, 5), (9.9, 10, 5),
                         (10, 10, 6), (10, 5, 7), (30, 5, 11), (47, 20, 7)])  # fmt: skip
def test_the_range_tn_is_fair_and_a_step_each_increment(distance, increment, tn):
    """FI:L261: meters / Range Increment, rounded down, added to Fair (5); FI:L367: thrown,
    10 m is TN 7."""
    assert run(ranged_range_tn, {"distance": distance, "range_increment": increment}).tn == tn


def test_the_skill_is_the_specialization_at_dexterity_s_die():
    """FI:L247-249, FI:L257: a specialization rolls at Dexterity's die; a related one -2;
    none, Dexterity as a default, halved."""
    found = run(ranged_skill, {"dexterity": "III-2", "specialization": 3})
    assert (found.pool, found.modifier, found.halved) == ("III-3", 0, False)
    related = run(ranged_skill, {"dexterity": "III-2", "specialization": 3, "related": True})
    assert (related.skill, related.modifier) == ("related", -2)
    default = run(ranged_skill, {"dexterity": "III-2"})
    assert (default.pool, default.skill, default.halved) == ("III-2", "default", True)


#: Catalogue T18: size -> (halving, literal).
T18 = {42: (6, 6), 36: (5, 5), 30: (4, 4), 24: (3, 3), 18: (2, 2), 12: (1, 1), 11: (0, 0),
       6: (0, 0), 3.5: (0, 0), 3: (-1, -1), 2.5: (-1, -1), 2: (-1, -2), 1.5: (-2, -2),
       1: (-2, -3), 0.75: (-3, -3), 0.5: (-3, -4), 0.375: (-4, -4), 0.2: (-4, -5),
       0.1: (-5, -6), 0.05: (-6, -6)}  # fmt: skip


@pytest.mark.parametrize(("size", "expected"), T18.items())
def test_target_size_matches_t18(size, expected):
    """FI:L277: -1 at half human size, to -6 'increments at .5, .25'; +1 at 12, +2 at 18, to
    +6. A-42: halving (the default) or the literal 'two or less'."""
    halving = run(target_size, {"size": size}).modifier
    literal = run(target_size, {"size": size, "options": {"size_scale": "literal"}}).modifier
    assert (halving, literal) == expected


def test_a_target_is_moving_only_over_a_relative_rate_of_20():
    """FI:L281 (A-41): equal speeds give no penalty; over 20, -4; the table's bare 'Target is
    moving -4' (FI:L270) is a threshold of 0."""
    assert run(target_speed, {"relative_rate": 20}).modifier == 0
    assert run(target_speed, {"relative_rate": 20.5}).modifier == -4
    table_reading = {"relative_rate": 1, "options": {"target_speed_threshold": 0}}
    assert run(target_speed, table_reading).modifier == -4


@pytest.mark.parametrize(("part", "penalty", "location"), [
    ("torso", -2, "torso"), ("leg", -4, "leg"), ("arm", -4, "arm"), ("head", -6, "head"),
    ("hand", -6, "arm"), ("foot", -6, "leg"), ("eyeball", -10, "head"),
    ("heart", -10, "vitals")])  # fmt: skip
def test_called_shots(part, penalty, location):
    """FI:L321-325; never on automatic (FI:L297)."""
    found = run(called_shot, {"part": part})
    assert (found.modifier, found.location) == (penalty, location)
    with pytest.raises(InputError) as error:
        run(called_shot, {"part": part, "automatic": True})
    assert error.value.loc == ("part",)


def test_two_weapons_and_a_rifle_in_one_hand():
    """FI:L351: -2 each, the off hand -6 in all; FI:L355: a rifle in one hand -2, two rifles
    both."""
    assert run(two_weapons, {"two_weapons": True}).total == -2
    assert run(two_weapons, {"two_weapons": True, "off_hand": True}).total == -6
    assert run(two_weapons, {"one_handed_long_arm": True}).total == -2
    both = {"two_weapons": True, "off_hand": True, "one_handed_long_arm": True}
    assert run(two_weapons, both).total == -8


def test_the_situation_adds_up():
    """FI:L265-281, FI:L329: running -4, size 3 -1, a target at relative Rate 30 -4, a rifle
    (2/-3) unaimed -3; a related specialization -2 (FI:L249)."""
    found = run(ranged_modifiers, {"running": True, "target_size": 3, "relative_rate": 30,
                                   "aim": {"x": 2, "y": -3}, "skill": "related"})  # fmt: skip
    assert found.total == -2 - 4 - 1 - 4 - 3
    with pytest.raises(InputError) as error:
        run(ranged_modifiers, {"aim": {"x": 2, "y": -3}, "automatic": True})
    assert error.value.loc == ("aim",)


# Ranged: the attack, bursts and their odds


def test_violet_hits_twice():
    """E-10, FI:L299: her Heavy Blasters roll is a 12 against TN 6, a success and a bump: 2
    hits. A IV-3 pool whose first d10 shows 10 and rolls again for 2 makes the 12."""
    request = {"pool": "IV-3", "tn": 6, "burst": 3, "dice": {"values": [10, 2, 3, 4]}}
    found = run(automatic, request)
    assert (found.targets[0].check.en, found.hits) == (12, 2)
    burst = run(attack, {**request, "fire": "burst"})
    assert (burst.shots[0].check.en, burst.hits) == (12, 2)


def test_violet_s_tn_folds_in_speed():
    """E-10's inconsistency (A-41): 'the TN is 6 because of range and speed' (FI:L299), where
    speed is a -4 to the roll (FI:L281). Given TN 6 and the pirates' speed, the default reading
    takes 4 more off her 12: 8, one hit; target_speed_modifier 0 reads the example's way."""
    request = {"pool": "IV-3", "tn": 6, "burst": 3, "situation": {"relative_rate": 30},
               "dice": {"values": [10, 2, 3, 4]}}  # fmt: skip
    assert run(automatic, request).hits == 1
    as_written = {**request, "options": {"target_speed_modifier": 0}}
    assert run(automatic, as_written).hits == 2


def test_a_burst_is_capped_by_its_rounds_and_the_one_hit_reading():
    """A-44: 1 and 1 a bump, at most the rounds; or a single hit."""
    request = {"pool": "IV-1", "tn": 3, "dice": {"values": [10, 10, 5]}}  # 25: 4 bumps
    assert run(automatic, {**request, "burst": 3}).hits == 3
    assert run(automatic, request).hits == 5
    single = {**request, "options": {"burst_hits_model": "one"}}
    assert run(automatic, single).hits == 1


def test_a_burst_split_between_targets():
    """FI:L297 (A-44): the pool's dice shared out, the first target the larger share, each
    extra target -1; more targets than dice is refused."""
    request = {"pool": "III-3", "tn": 5, "targets": [{}, {"tn": 7}],
               "dice": {"values": [6, 2, 7]}}  # fmt: skip
    found = run(automatic, request)
    assert [t.pool for t in found.targets] == ["III-2", "III-1"]
    assert [t.check.en for t in found.targets] == [5, 6]
    assert [t.hits for t in found.targets] == [1, 0]
    with pytest.raises(InputError) as error:
        run(automatic, {"pool": "III-1", "tn": 5, "targets": [{}, {}], "dice": {"seed": 1}})
    assert error.value.loc == ("targets",)


def test_a_burst_s_rounds_are_shared_among_its_targets():
    """FI:L297, catalogue 3.5.5 step 3: the gunner decides how many shots each target gets,
    so a burst of 3 never hits more than 3 times: rounds given are kept, the rest shared
    evenly among the targets given none, the first the larger share (2 and 1); more given
    than the burst, or a target left no round, is refused. V-4 split V-2 and V-2, each -1
    (A-44); both kept dice are 12 + 12 + 5 = 29, less 1, 28 against TN 3: 5 bumps, capped
    at the rounds each target has."""
    request = {"pool": "V-4", "tn": 3, "burst": 3,
               "dice": {"values": [12, 12, 5, 2, 12, 12, 5, 2]}}  # fmt: skip
    shared = run(automatic, {**request, "targets": [{}, {}]})
    assert ([t.hits for t in shared.targets], shared.hits) == ([2, 1], 3)
    given = run(automatic, {**request, "targets": [{"rounds": 1}, {}]})
    assert ([t.hits for t in given.targets], given.hits) == ([1, 2], 3)
    with pytest.raises(InputError) as error:
        run(automatic, {**request, "targets": [{"rounds": 2}, {"rounds": 2}]})
    assert error.value.loc == ("targets",)
    with pytest.raises(InputError) as error:
        run(automatic, {**request, "targets": [{"rounds": 3}, {}]})
    assert error.value.loc == ("targets", 1, "rounds")
    with pytest.raises(InputError):
        odds(automatic, {"pool": "V-4", "tn": 3, "burst": 1, "targets": [{}, {}]})
    chances = odds(automatic, {"pool": "V-4", "tn": 3, "burst": 3, "targets": [{}, {}]})
    first, second = (table(t.hits) for t in chances.targets)
    assert (max(map(int, first)), max(map(int, second))) == (2, 1)
    close_to(first["2"], at_least("V-2", 3 + 1 + 5), chances.truncation)
    close_to(second["1"], at_least("V-2", 3 + 1), chances.truncation)


def test_a_whole_pool_burst_refuses_the_targets_dice():
    """'He splits his skill among them' (FI:L297, A-44): with target_split whole_pool every
    target is rolled with the whole pool, so a target's own dice would be silently ignored
    (a target given 1 die of IV-4 rolled all 4); the roll and the odds refuse them."""
    request = {"pool": "IV-4", "tn": 6, "targets": [{"dice": 1}, {"dice": 3}],
               "options": {"target_split": "whole_pool"}}  # fmt: skip
    with pytest.raises(InputError) as error:
        run(automatic, {**request, "dice": {"seed": 1}})
    assert error.value.loc == ("targets", 0, "dice")
    with pytest.raises(InputError):
        odds(automatic, request)
    whole = run(automatic, {**request, "targets": [{}, {}], "dice": {"seed": 1}})
    assert [t.pool for t in whole.targets] == ["IV-4", "IV-4"]


@pytest.mark.parametrize(("pool", "tn"), [("III-2", 7), ("II-3", 5), ("IV-1", 9), ("V-5", 12)])
def test_a_shot_s_odds_are_the_oracle_s(pool, tn):
    """FI:L239: at least the TN hits. P(hit) and P(at least 1 bump) from the oracle."""
    found = odds(attack, {"pool": pool, "tn": tn})
    close_to(found.hit.exact, at_least(pool, tn), found.truncation)
    bumps = table(found.bumps)
    one_or_more = sum((p for b, p in bumps.items() if b != "failure" and int(b) >= 1), Fraction(0))
    close_to(one_or_more, at_least(pool, tn + 5), found.truncation)


def test_shots_are_independent_tests():
    """FI:L253, FI:L351: each shot its own task: the hits of three shots are binomial."""
    found = odds(attack, {"pool": "III-2", "tn": 7, "shots": 3, "rate_of_fire": 3})
    p = at_least("III-2", 7)
    for k, chance in table(found.hits).items():
        expected = comb(3, int(k)) * p ** int(k) * (1 - p) ** (3 - int(k))
        assert abs(chance - expected) < Fraction(1, 10**12)
    with pytest.raises(InputError) as error:
        run(attack, {"pool": "III-2", "tn": 7, "shots": 2, "dice": {"seed": 1}})
    assert error.value.loc == ("shots",)


def test_a_burst_s_hits_are_the_oracle_s():
    """A-44: P(at least k hits) is P(success at TN + 5(k - 1)), capped by the rounds."""
    found = table(odds(automatic, {"pool": "IV-3", "tn": 6, "burst": 3}).targets[0].hits)
    at = {k: sum((p for h, p in found.items() if int(h) >= k), Fraction(0)) for k in (1, 2, 3)}
    for k in (1, 2, 3):
        assert abs(at[k] - at_least("IV-3", 6 + 5 * (k - 1))) < Fraction(1, 10**12)


def test_a_default_roll_is_halved():
    """FI:L247: Dexterity 2d8 without the specialization: 7, halved to 3, misses TN 5."""
    found = run(attack, {"pool": "III-2", "tn": 5, "situation": {"skill": "default"},
                         "dice": {"values": [7, 2]}})  # fmt: skip
    assert (found.halved, found.shots[0].check.en, found.hits) == (True, 3, 0)


def test_an_active_defense_raises_the_tn():
    """FI:L415: the greater of the normal TN and the defense."""
    found = run(attack, {"pool": "III-2", "distance": 12, "range_increment": 10,
                         "active_defense": 9, "dice": {"values": [7, 2]}})  # fmt: skip
    assert (found.tn, found.hits) == (9, 0)


def test_give_the_tn_or_the_distance():
    with pytest.raises(InputError) as error:
        run(attack, {"pool": "III-2", "dice": {"seed": 1}})
    assert error.value.loc == ("distance",)
    with pytest.raises(InputError) as error:
        run(attack, {"pool": "III-2", "tn": 5, "distance": 3, "dice": {"seed": 1}})
    assert error.value.loc == ("tn",)


# Area effect, explosives, suppression, reloading


@pytest.mark.parametrize(("distance", "damage", "shooting"),
                         [(0.5, 4, 0), (10, 4, 0), (10.5, 3, 1), (19.5, 3, 1), (20, 3, 1),
                          (21, 2, 2), (45, 0, 4)])  # fmt: skip
def test_a_shotgun_s_dice_by_range(distance, damage, shooting):
    """E-12, FI:L287: 4d6 at 1-10 m, 3d6 at 11-20; E-11, FI:L289-291: Kayla, just under
    20 m, 1 shooting die a shot and 3 damage dice a hit."""
    found = run(area_effect, {"ae": "4d6", "distance": distance})
    assert (found.bonus_damage_dice, found.bonus_shooting_dice) == (damage, shooting)


def test_a_grenade_falls_off_as_an_explosive():
    """A-43: grenades take the explosives' columns by default."""
    found = run(area_effect, {"ae": "3d6", "distance": 5, "weapon": "grenade"})
    assert (found.bonus_damage_dice, found.note is not None) == (0, True)
    bands = {"ae": "3d6", "distance": 15, "weapon": "grenade",
             "options": {"grenade_rule": "area_effect"}}  # fmt: skip
    assert run(area_effect, bands).bonus_damage == "2(2)"


@pytest.mark.parametrize(("distance", "ceil_code", "floor_code"),
                         [(10, "3(4)", "3(3)"), (15, "3(3)", "3(3)"), (20, "3(3)", "3(2)"),
                          (25, "3(2)", "3(2)"), (40, "3(1)", None), (41, None, None)])  # fmt: skip
def test_explosives_lose_a_column_every_10_meters(distance, ceil_code, floor_code):
    """E-13, FI:L309: full to 10 m, one column left at 10-20, two at 21-30; off the table no
    damage. A-46: 10 and 20 m are in two bands each; ceil (default) or floor."""
    assert run(explosives, {"damage": "3(4)", "distance": distance}).damage == ceil_code
    literal = {"damage": "3(4)", "distance": distance, "options": {"explosive_bands": "floor"}}
    assert run(explosives, literal).damage == floor_code


def test_an_explosion_to_the_head_is_as_to_the_arm():
    """FI:L311 (A-46): no extra damage by location."""
    found = run(explosives, {"damage": "2(3)", "distance": 1})
    assert (found.location_bonus, found.head_counts_as) == (False, "head, without its extra cards")
    arm = {"damage": "2(3)", "distance": 1, "options": {"explosive_head_mode": "record_as_arm"}}
    assert run(explosives, arm).head_counts_as == "arm"


def test_covering_fire_is_not_in_the_source():
    """FI:L301-303 (A-45): 'COVERING FIRE PROCEDURE NEEDED'."""
    found = run(suppression, {})
    assert (found.covering_fire_defined, found.bystander_hit_faces, found.bystander_radius_m) == (
        False, 2, 2)  # fmt: skip
    assert found.covering_fire.startswith("not in the source")


@pytest.mark.parametrize(("request_", "actions", "at_least"), [
    ({"reload": "single_round", "rounds": 3}, 3, False), ({"reload": "magazine"}, 2, False),
    ({"reload": "heavy", "reload_attribute": 4}, 4, False),
    ({"reload": "black_powder"}, 5, True), ({"reload": "speed_load"}, None, False)])  # fmt: skip
def test_reloading(request_, actions, at_least):
    """FI:L361-363; speed-loading is in 'Chapter XX'."""
    found = run(reload, request_)
    assert (found.actions, found.at_least, found.complex_action) == (actions, at_least, True)


# Unintended targets


@pytest.mark.parametrize("die", [4, 6, 8, 10, 12, 20])
@pytest.mark.parametrize("spray", [False, True])
def test_a_bystander_check_matches_t13(die, spray):
    """T13: a check hits on 1 (1-2 for a spray) of the column's die (A-49)."""
    found = odds(unintended_targets, {"missed_rounds": 1, "bystanders": 1, "spray": spray,
                                      "options": {"bystander_die": die}})  # fmt: skip
    assert Fraction(found.check.exact) == Fraction(2 if spray else 1, die)
    assert Fraction(found.bystanders[0].hit.exact) == Fraction(2 if spray else 1, die)


def test_bystander_odds_by_brute_force():
    """FI:L379 (A-49): each missed round checks the bystanders most likely first until one is
    hit. Three rounds, three bystanders, a d4 spray: every roll of the dice enumerated."""
    found = odds(unintended_targets, {"missed_rounds": 3, "bystanders": 3, "spray": True,
                                      "options": {"bystander_die": 4}})  # fmt: skip
    expected = [Fraction(0)] * 3
    anyone = Fraction(0)
    for faces in product(range(1, 5), repeat=9):
        hit = [False] * 3
        for r in range(3):
            for b in range(3):
                if faces[3 * r + b] <= 2:
                    hit[b] = True
                    break
        for b in range(3):
            expected[b] += Fraction(hit[b], 4**9)
        anyone += Fraction(any(hit), 4**9)
    assert [Fraction(b.hit.exact) for b in found.bystanders] == expected
    assert Fraction(found.any_bystander.exact) == anyone


def test_a_round_stops_at_the_bystander_it_hits():
    found = run(unintended_targets, {"missed_rounds": 2, "bystanders": 3,
                                     "dice": {"values": [7, 1, 15, 9, 20]}})  # fmt: skip
    assert [r.bystander for r in found.rounds] == [2, None]
    assert found.hits == [0, 1, 0]
    shield = run(unintended_targets, {"missed_rounds": 1, "bystanders": 3, "shielding": True,
                                      "dice": {"seed": 1}})  # fmt: skip
    assert (shield.shielded, shield.rounds) == (True, [])


# Aiming


def test_unaimed_pistol_and_rifle():
    """E-14, FI:L331: a TL8 blast pistol 1/-1 unaimed -1; a blast rifle 2/-3, -3."""
    assert run(aim, {"aim": {"x": 1, "y": -1}}).modifier == -1
    rifle = run(aim, {"aim": {"x": 2, "y": -3}})
    assert (rifle.modifier, rifle.initiative_penalty) == (-3, -3)
    assert run(aim, {"aim": {"x": 2, "y": -3}, "options": {"aim_initiative_penalty": False}}
               ).initiative_penalty == 0  # fmt: skip


@pytest.mark.parametrize(("current", "modifier", "actions"),
                         [(12, -3, 0), (11, -3, 0), (10, 0, 1), (9, 0, 1), (8, 2, 2), (6, 4, 3),
                          (0, 4, 3)])  # fmt: skip
def test_harry_s_aim(current, modifier, actions):
    """E-15, FI:L343-345: declared at 12, a 2/-3 rifle: 2 steps cancel the -3, 4 give +2 (at
    step 8); at 9 he has three markers, no penalty; three aim actions at most (FI:L337)."""
    found = run(aim, {"aim": {"x": 2, "y": -3}, "declared_step": 12, "current_step": current})
    assert (found.modifier, found.aim_actions) == (modifier, actions)


def test_another_action_loses_the_aim_and_the_reserve():
    """FI:L337."""
    found = run(aim, {"aim": {"x": 2, "y": -3, "markers": 5}, "interrupted": True})
    assert (found.markers, found.modifier, found.reserve_lost) == (0, -3, True)


HARRY = {"shooter_reflex": "III-2", "target_reflex": "IV-1",
         "aim": {"x": 2, "y": -3, "markers": 3}, "pool": "III-3", "tn": 5}  # fmt: skip


def test_harry_shoots_the_bug():
    """E-15, FI:L345-347: TN 5 at close range, his III-3 shows 7, a hit; his III-2 Reflex 4
    beats the bug's IV-1 showing 1. The example draws the shot first, where the procedure
    races first (FI:L339, A-47): race_order shot_first takes the dice in the example's order;
    the default takes the race's dice first, with the same end."""
    example = run(aim_interrupt, {**HARRY, "options": {"race_order": "shot_first"},
                                  "dice": {"values": [7, 3, 2, 4, 2, 1]}})  # fmt: skip
    assert (example.shot.en, example.shooter.en, example.target.en) == (7, 4, 1)
    assert (example.aimed, example.outcome, example.modifiers) == (True, "hit", [])
    procedure = run(aim_interrupt, {**HARRY, "dice": {"values": [4, 2, 1, 7, 3, 2]}})
    assert (procedure.shot.en, procedure.outcome) == (7, "hit")


def test_harry_s_race_matches_t22():
    """T22: III-2 against IV-1, ties to him, 61.0%. By default a tie leaves the bug's move
    first (A-08: status quo for an interrupt), so his chance is lower."""
    ties_his = odds(aim_interrupt, {**HARRY, "options": {"tie_goes_to": "initiator"}})
    outcome = table(ties_his.outcome)
    assert f"{float(outcome['miss'] + outcome['hit']) * 100:.1f}" == "61.0"
    shot = at_least("III-3", 5)
    assert abs(outcome["hit"] / (outcome["miss"] + outcome["hit"]) - shot) < Fraction(1, 10**9)
    default = table(odds(aim_interrupt, HARRY).outcome)
    assert default["target_moves_first"] > outcome["target_moves_first"]


# Throwing


def test_kayla_throws_a_plasma_grenade():
    """E-17, FI:L371: Strength 3d6 heaves it 30 m at TN 11; E-16, FI:L367: 10 m is TN 7."""
    found = run(throw, {"pool": "II-3", "distance": 30, "strength": "3d6",
                        "dice": {"values": [6, 5, 2, 4]}})  # fmt: skip
    assert (found.tn, found.max_range, found.check.en, found.hit) == (11, 30, 11, True)
    near = run(throw, {"pool": "II-3", "distance": 10, "strength": "3d6",
                       "dice": {"values": [1, 1, 3]}})  # fmt: skip
    assert (near.tn, near.hit, near.scatter_from) == (7, False, "thrower")
    with pytest.raises(InputError) as error:
        run(throw, {"pool": "II-3", "distance": 31, "strength": "3d6", "dice": {"seed": 1}})
    assert error.value.loc == ("distance",)


def test_a_heavy_throw_has_no_range_in_the_source():
    """FI:L369 'REDO THIS' (A-48): past 1-2 lb no maximum, unless taken as average."""
    heavy = {"pool": "II-3", "distance": 50, "strength": "3d6", "weight_lb": 20,
             "dice": {"values": [2, 2, 3]}}  # fmt: skip
    found = run(throw, heavy)
    assert (found.max_range, found.tn) == (None, 15)
    assert found.note is not None
    with pytest.raises(InputError):
        run(throw, {**heavy, "options": {"heavy_throw": "as_average"}})


def test_throw_odds_are_a_shot_s():
    found = odds(throw, {"pool": "II-3", "distance": 30, "strength": "3d6"})
    close_to(found.hit.exact, at_least("II-3", 11), found.truncation)


def test_scatter_is_invented():
    """FI:L373 (A-48): from the thrower on a critical failure; a d12 clock and the miss
    margin, at most the throw, by default; or nothing rolled."""
    found = run(scatter, {"critical_failure": True, "miss_margin": 40, "thrown_distance": 15,
                          "dice": {"values": [4]}})  # fmt: skip
    assert (found.defined, found.origin, found.direction, found.distance) == (
        False, "thrower", 4, 15)  # fmt: skip
    judged = run(scatter, {"miss_margin": 3, "thrown_distance": 15,
                           "options": {"scatter": "not_defined"}, "dice": {"seed": 1}})  # fmt: skip
    assert (judged.direction, judged.origin) == (None, "target")
    assert table(odds(scatter, {"miss_margin": 3, "thrown_distance": 15}).direction) == {
        str(h): Fraction(1, 12) for h in range(1, 13)}  # fmt: skip


# Melee


def test_antares_punches_the_canine():
    """E-18, FI:L387: the target's Brawling 2 on TN 5 makes 7."""
    found = run(melee_attack, {"pool": "III-2", "defender_level": 2, "dice": {"values": [7, 3]}})
    assert (found.tn, found.hit, found.strength_adds) == (7, True, True)


def test_a_human_s_sword_against_an_unarmed_ursoid_is_relative_db_0():
    """E-19, FI:L399 (A-50): the Ursoid's size over the human's is his DB 1; the sword's 1
    less that is 0. The absolute reading adds the Ursoid's whole DB."""
    ursoid_attacks = {"attacker": {"size": 7}, "defender": {"db": 1, "size": 6}}
    assert run(defensive_bonus, ursoid_attacks).tn_bonus == 0
    human_attacks = {"attacker": {"db": 1, "size": 6}, "defender": {"size": 7}}
    assert run(defensive_bonus, human_attacks).tn_bonus == 0
    absolute = {**human_attacks, "options": {"db_model": "absolute"}}
    assert run(defensive_bonus, absolute).tn_bonus == 1


@pytest.mark.parametrize("model", ["relative_clamped", "absolute"])
def test_hrulfgarr_closes_on_the_constable(model):
    """E-20, FI:L403: the constable (truncheon DB 1, fighting 2) against Brawl 3 is TN 8, his
    5 misses; Hrulfgarr closes at TN 8 (5 + 2 + 1) and makes 8; then he attacks at 7, the
    constable at 9, and no Strength adds to the constable's hits. Both DB models agree."""
    options = {"db_model": model}
    constable, hrulfgarr = {"db": 1}, {"unarmed": True}
    swing = run(melee_attack, {"pool": "III-2", "defender_level": 3, "attacker": constable,
                               "defender": hrulfgarr, "options": options,
                               "dice": {"values": [5, 2]}})  # fmt: skip
    assert (swing.tn, swing.hit) == (8, False)
    closing = run(close, {"pool": "IV-3", "defender_level": 2, "attacker": hrulfgarr,
                          "defender": constable, "options": options,
                          "dice": {"values": [8, 2, 5]}})  # fmt: skip
    assert (closing.tn, closing.check.en, closing.closed) == (8, 8, "attacker_inside")
    his = run(melee_attack, {"pool": "IV-3", "defender_level": 2, "attacker": hrulfgarr,
                             "defender": constable, "closed": "attacker_inside",
                             "options": options, "dice": {"values": [3, 3, 3]}})  # fmt: skip
    theirs = run(melee_attack, {"pool": "III-2", "defender_level": 3, "attacker": constable,
                                "defender": hrulfgarr, "closed": "defender_inside",
                                "options": options, "dice": {"values": [3, 3]}})  # fmt: skip
    assert (his.tn, theirs.tn, theirs.strength_adds) == (7, 9, False)


def test_only_a_shorter_weapon_closes():
    """FI:L401 (A-51): shorter by length, else by DB; reopening is for the one closed on."""
    with pytest.raises(InputError) as error:
        run(close, {"pool": "III-2", "defender_level": 2, "attacker": {"db": 1},
                    "defender": {"db": 1}, "dice": {"seed": 1}})  # fmt: skip
    assert error.value.loc == ("attacker",)
    reopen = run(close, {"pool": "III-2", "defender_level": 3, "attacker": {"db": 1},
                         "defender": {"unarmed": True}, "closed": "defender_inside",
                         "maneuver": "reopen", "dice": {"values": [7, 2]}})  # fmt: skip
    assert (reopen.tn, reopen.closed) == (9, "defender_inside")


def test_melee_odds_are_the_oracle_s():
    found = odds(melee_attack, {"pool": "III-3", "defender_level": 2})
    close_to(found.hit.exact, at_least("III-3", 7), found.truncation)


def test_weapon_speed():
    """FI:L391-393: speed 2 readies an action first; two weapons, two attacks at -2 and -6."""
    slow = run(weapon_speed, {"speed": 2})
    assert (slow.ready_actions, slow.attacks_per_action) == (1, 1)
    pair = run(weapon_speed, {"speed": 1, "two_weapons": True})
    assert (pair.ready_actions, pair.attacks_per_action, pair.modifiers) == (0, 2, [-2, -6])


def test_entangling_is_an_opposed_task():
    """FI:L407: fighting skill against Dexterity; the tie to the attacker (A-08) as T22."""
    found = odds(entangle, {"attacker": {"pool": "III-2"}, "target": {"pool": "IV-1"}})
    assert f"{found.initiator_wins.float * 100:.1f}" == "61.0"
    won = run(entangle, {"attacker": {"pool": "II-1"}, "target": {"pool": "II-1"},
                         "effect": "trip", "dice": {"values": [4, 4]}})  # fmt: skip
    assert (won.success, won.condition is not None) == (True, True)


def test_breaking_an_entanglement():
    """FI:L407 (A-52): a Strength check against the weapon's TN breaks a fragile weapon; the
    others are wriggled out of, opposed Dexterity against the attacker's skill."""
    broke = run(entangle_escape, {"route": "strength", "strength": {"pool": "II-2"},
                                  "weapon_tn": 5, "fragile": True,
                                  "dice": {"values": [5, 2]}})  # fmt: skip
    assert (broke.freed, broke.weapon_broken) == (True, True)
    strict = run(entangle_escape, {"route": "strength", "strength": {"pool": "II-2"},
                                   "weapon_tn": 5, "fragile": True,
                                   "options": {"entangle_break_compare": "gt"},
                                   "dice": {"values": [5, 2]}})  # fmt: skip
    assert strict.freed is False
    with pytest.raises(InputError) as error:
        run(entangle_escape, {"route": "strength", "strength": {"pool": "II-2"},
                              "weapon_tn": 5, "dice": {"seed": 1}})  # fmt: skip
    assert error.value.loc == ("fragile",)
    chances = table(odds(entangle_escape, {"route": "strength", "strength": {"pool": "II-2"},
                                           "weapon_tn": 5, "fragile": True}).freed)  # fmt: skip
    assert abs(chances["true"] - at_least("II-2", 5)) < Fraction(1, 10**12)


# Defense


def test_an_active_defense_discards_the_highest_card():
    """FI:L413-417: the highest remaining card (the reserve if held); the check is the TN
    when greater; no real movement, -4; no cards, no defense (A-53)."""
    found = run(active_defense, {"defender": {"pool": "III-2"}, "hand": [9, 4],
                                 "normal_tn": 7, "dice": {"values": [8, 6, 3]}})  # fmt: skip
    assert (found.discarded, found.hand, found.defense, found.tn, found.skill) == (
        9, [4], 14, 14, "fighting")  # fmt: skip
    reserved = run(active_defense, {"defender": {"pool": "III-1"}, "hand": [9], "reserve": 2,
                                    "moved": False, "attack": "ranged",
                                    "dice": {"values": [6]}})  # fmt: skip
    assert (reserved.discarded, reserved.hand, reserved.defense, reserved.skill) == (
        2, [9], 2, "dodge")  # fmt: skip
    with pytest.raises(InputError) as error:
        run(active_defense, {"defender": {"pool": "III-1"}, "dice": {"seed": 1}})
    assert error.value.loc == ("hand",)


def test_given_both_pools_the_defense_skill_follows_the_attack_or_the_option():
    """A-53: Fighting (weapon in hand) against melee, Dodge against ranged attacks by default;
    active_defense_skill forces one. The pool rolled is that skill's, in run and odds."""
    pools = {"fighting": {"pool": "IV-2"}, "dodge": {"pool": "I-1"}, "hand": [5]}
    melee = run(active_defense, {**pools, "dice": {"values": [9, 4]}})
    assert (melee.skill, melee.defense) == ("fighting", 9)
    shot = run(active_defense, {**pools, "attack": "ranged", "dice": {"values": [3]}})
    assert (shot.skill, shot.defense) == ("dodge", 3)
    forced = {**pools, "attack": "ranged", "options": {"active_defense_skill": "fighting"}}
    assert run(active_defense, {**forced, "dice": {"values": [9, 4]}}).skill == "fighting"
    expected = odds(active_defense, {"defender": {"pool": "IV-2"}, "hand": [5]}).defense
    assert odds(active_defense, forced).defense == expected
    assert odds(active_defense, {**pools, "attack": "ranged"}).defense != expected
    with pytest.raises(InputError) as error:
        odds(active_defense, {"fighting": {"pool": "IV-2"}, "hand": [5], "attack": "ranged"})
    assert error.value.loc == ("dodge",)
    with pytest.raises(InputError) as error:
        odds(active_defense, {**pools, "defender": {"pool": "II-1"}})
    assert error.value.loc == ("defender",)


def test_active_defense_odds():
    found = odds(active_defense, {"defender": {"pool": "III-2"}, "hand": [3], "normal_tn": 7})
    close_to(found.raises_tn.exact, at_least("III-2", 8), found.truncation)


def test_fleeing_needs_a_reserve_and_a_tie_leaves_the_attack_first():
    """FI:L419 (A-08): an opposed Reflexes check; the declared attack goes first on a tie."""
    with pytest.raises(InputError) as error:
        run(flee, {"fleer": {"pool": "II-1"}, "attacker": {"pool": "II-1"}, "reserve": None,
                   "dice": {"seed": 1}})  # fmt: skip
    assert error.value.loc == ("reserve",)
    tie = run(flee, {"fleer": {"pool": "II-1"}, "attacker": {"pool": "II-1"}, "reserve": 5,
                     "dice": {"values": [4, 4]}})  # fmt: skip
    assert (tie.winner, tie.moves_first) == ("status_quo", False)
    found = odds(flee, {"fleer": {"pool": "III-2"}, "attacker": {"pool": "IV-1"}, "reserve": 5,
                        "options": {"tie_goes_to": "initiator"}})  # fmt: skip
    assert f"{found.initiator_wins.float * 100:.1f}" == "61.0"


@pytest.mark.parametrize(("op", "payload", "where"), [
    (melee_attack, {"pool": "III-2", "defender_level": 2, "active_defense": 300},
     ("active_defense",)),
    (attack, {"pool": "III-2", "distance": 1000, "range_increment": 1}, ("distance",)),
    (attack, {"pool": "III-2", "tn": 5, "active_defense": 150}, ("active_defense",)),
])  # fmt: skip
def test_a_tn_past_what_a_check_takes_is_the_input_s_fault(op, payload, where):
    """A core check takes a TN up to 100; an attack whose TN comes to more is refused naming
    the input it came from (fuzzed requests met a 500 here)."""
    with pytest.raises(InputError) as error:
        run(op, payload)
    assert error.value.loc == where


def test_a_shots_bumps_table_keeps_every_bump():
    """FI:L147: a bump for each step over the TN, without a ceiling (FI:L133, open ended). At
    TN 0, +80 and a bump a point (A-05), a d12 chain past 119 makes 200 bumps or more: the
    table once left that mass out unreported."""
    request = {"pool": "V-1", "tn": 0, "situation": {"modifiers": [20] * 4},
               "options": {"bump_step": 1}}  # fmt: skip
    found = odds(attack, request)
    rows = {row.outcome: Fraction(row.exact) for row in found.bumps}
    assert sum(rows.values()) + Fraction(found.truncation.mass_cut.exact) == 1
    assert max(int(o) for o in rows if o != "failure") > 199
