"""FORESIGHT ranged combat (catalogue part 2, #74-#80, #99-#100): the fire roll and its
modifiers, range, recoil, aim, bursts, jams and ammunition. Worked examples cite the seed as
F:L<n> and the catalogue's X rows; odds are checked against brute force over every D100 face
(and a starred jam's D10) written here from the rule text, and against the catalogue's
section 4 (Q1, Q10, Q12)."""

from fractions import Fraction

import pytest

from service.rules.foresight.equipment.failure import (
    FAILURE_RANGES,
    fails,
    failure_probability,
    shift,
)
from service.rules.model import InputError
from tests.rules.foresight.calls import by_qr, nonzero, odds, run
from tests.rules.foresight.oracle import YIELD, qr, round_half_up

# --- weapons, as the Firearms table prints them (F:L3666-3708) -------------------------------

REVOLVER = {"name": "Revolver", "use": "H", "range_m": 3, "recoil": 2, "jam": "C", "rof": "[1]",
            "ammo": "6", "rl": "6*", "draw": 2, "dc": "6i"}  # F:L3681  # fmt: skip
#: The sniper's heavy target cartridge laser rifle: PM +1, 50 m x 1.25 (target) x 1.1 (heavy)
#: (F:L3693, F:L3788, F:L3792).
SNIPER_RIFLE = {"name": "Cartridge Laser Rifle, heavy, target", "use": "L", "pm": 1,
                "range_m": 50, "range_multipliers": [1.25, 1.1], "jam": "D", "ammo": "8",
                "rl": "3", "dc": "9b"}  # fmt: skip
#: The gunman's advanced SL rifle on auto long burst: 25 m x 0.7, 10i2p (F:L3688, F:L3782,
#: F:L3318); recoil •• +•• (F:L3782), Jam B two letters worse, D.
AUTO_RIFLE = {"name": "Advanced SL Rifle, auto long burst", "use": "L", "range_m": 25,
              "range_multipliers": [0.7], "recoil": 4, "jam": "D", "rof": "[6]", "ammo": "15",
              "rl": "3", "auto": "long", "dc": "10i2p"}  # fmt: skip


def attack(**fields) -> dict:
    return {"task": {"score": 12}, "weapon": SNIPER_RIFLE, "distance_m": 10, **fields}


def terms(result) -> dict[str, int]:
    return {term.source: term.value for term in result.fire.modifiers}


# --- range (#75) ------------------------------------------------------------------------------


def test_revolver_at_7_m_is_minus_2():
    """F:L3660 (X31): a revolver's increment is 3 m; 7 m is two full increments, -2."""
    found = run("ranged/range-penalty", {"distance_m": 7, "range_m": 3})
    assert (found.full_increments, found.range_modifier, found.modifier) == (2, -2, -2)


def test_under_one_increment_the_penalty_is_0_and_within_3_m_adds_1():
    """F:L3660 (X31): 'a target less than 3m away incurs no range penalty' (0); the table's
    'Target is within 3m +1' (F:L3272) is a row of its own, so the two add: +1 at 2 m. At
    exactly 3 m the first full increment (-1) and within 3 m (+1) cancel."""
    found = run("ranged/range-penalty", {"distance_m": 2, "range_m": 3})
    assert (found.range_modifier, found.within_3m_modifier, found.modifier) == (0, 1, 1)
    found = run("ranged/range-penalty", {"distance_m": 3, "range_m": 3})
    assert (found.range_modifier, found.within_3m_modifier, found.modifier) == (-1, 1, 0)
    found = run("ranged/range-penalty", {"distance_m": 3.5, "range_m": 25})
    assert (found.range_modifier, found.within_3m_modifier, found.modifier) == (0, 0, 0)


def test_heavy_target_laser_rifle_at_240_m_is_minus_3():
    """F:L3320 (X27h): 50 x 1.25 x 1.1 = 68.75 m, exactly (1.1 is 11/10, not a binary float);
    240 / 68.75 = 3.49, three full increments: -3."""
    found = run("ranged/range-penalty",
                {"distance_m": 240, "range_m": 50, "range_multipliers": [1.25, 1.1]})  # fmt: skip
    assert found.increment_m.exact == "275/4"
    assert found.modifier == -3
    # 275 m is exactly four increments: a full one more.
    found = run("ranged/range-penalty",
                {"distance_m": 275, "range_m": 50, "range_multipliers": [1.25, 1.1]})  # fmt: skip
    assert found.modifier == -4


# --- recoil (#76) -----------------------------------------------------------------------------


def test_a_two_bullet_weapon_fired_three_times():
    """F:L3646 (X30): a •• weapon fired three times in a row: 0, -2, -4."""
    found = run("ranged/recoil", {"recoil": 2, "shots": 3})
    assert found.penalties == [0, -2, -4]
    assert found.modifier == -4


def test_recoil_in_the_fire_roll_and_aiming_resets_it():
    """F:L3646: 'if the character instead chose to fire, then aim, then fire, the second shot
    would incur no recoil modifier (and would gain a bonus for being aimed)'."""
    rifle = {**SNIPER_RIFLE, "recoil": 2}
    third = run("ranged/attack", {**attack(weapon=rifle, shot=3), "dice": {"values": [40]}})
    assert terms(third)["recoil"] == -4
    aimed = run(
        "ranged/attack", {**attack(weapon=rifle, aim={"aims": 1}), "dice": {"values": [40]}}
    )
    assert "recoil" not in terms(aimed)
    assert terms(aimed)["aim"] == 1
    with pytest.raises(InputError) as error:
        run("ranged/attack", {**attack(weapon=rifle, shot=2, aim={"aims": 1}), "dice": {"seed": 1}})
    assert error.value.loc == ("shot",)


# --- aim (#77) --------------------------------------------------------------------------------


def test_aim_is_one_per_action_capped_at_5_or_6():
    """F:L3030: +1 per aim action, at most +5; F:L3271: 'Maximum aim bonus is +6' (AMB2-03)."""
    assert run("ranged/aim", {"aims": 3}).modifier == 3
    assert run("ranged/aim", {"aims": 8}).modifier == 5
    assert run("ranged/aim", {"aims": 8, "options": {"aim_cap": 6}}).modifier == 6
    assert run("ranged/aim", {"aims": 4, "laser_sight_aim": True}).modifier == 5


def test_the_snipers_second_shot_loses_the_aim_and_gains_just_hit():
    """F:L3324 (X27m): the second shot loses the +3 for having just aimed but gains +2 for
    having just hit (equivalent to two aim actions)."""
    first = run("ranged/aim", {"aims": 3})
    second = run("ranged/aim", {"just_hit": True})
    assert [(t.source, t.value) for t in first.modifiers] == [("aim", 3)]
    assert [(t.source, t.value) for t in second.modifiers] == [("just_hit", 2)]
    shot = run("ranged/attack", {**attack(shot=2, aim={"just_hit": True}), "dice": {"values": [1]}})
    assert terms(shot)["just_hit"] == 2
    assert "aim" not in terms(shot)


def test_aiming_again_forfeits_just_hit():
    """F:L3646: 'stopping to aim or recover will negate the positive modifier for firing at a
    target you've just hit'."""
    found = run("ranged/aim", {"aims": 1, "just_hit": True})
    assert [(t.source, t.value) for t in found.modifiers] == [("aim", 1)]


def test_a_longarm_used_one_handed_cannot_aim():
    """F:L3291: 'Firer using longarm one-handed (may not aim)' -2."""
    with pytest.raises(InputError):
        run("ranged/aim", {"aims": 1, "one_handed_longarm": True})
    request = attack(situations=[{"situation": "longarm_one_handed"}], aim={"aims": 2})
    with pytest.raises(InputError) as error:
        run("ranged/attack", {**request, "dice": {"seed": 1}})
    assert error.value.loc == ("aim", "aims")
    found = run("ranged/attack", {**attack(situations=[{"situation": "longarm_one_handed"}]),
                                  "dice": {"values": [5]}})  # fmt: skip
    assert terms(found)["longarm_one_handed"] == -2


def test_a_longarm_used_one_handed_has_no_just_hit_bonus():
    """F:L3270: just hitting the target "counts as two aim actions", which a longarm used
    one-handed may not take (F:L3291): the +2 does not apply, in the bonus or the attack."""
    assert run("ranged/aim", {"just_hit": True, "one_handed_longarm": True}).modifiers == []
    request = attack(
        shot=2, situations=[{"situation": "longarm_one_handed"}], aim={"just_hit": True}
    )
    found = run("ranged/attack", {**request, "dice": {"values": [5]}})
    assert "just_hit" not in terms(found)


# --- the fire roll (#74) ----------------------------------------------------------------------


def test_the_snipers_modifiers_with_the_weapons_pm():
    """F:L3320 (X27j): -3 range, +1 braced and prone, +3 for three aims with a laser sight,
    -4 for the head, +1 unaware: the book nets -2, but leaves out the Cartridge Laser Rifle's
    PM +1 (F:L3693), which the table's first row says to use (F:L3266). Following the table
    (AMB2-25) the net is -1. Braced and prone together are one +1 (F:L3320)."""
    request = attack(
        distance_m=240,
        situations=[{"situation": "braced_or_prone"}, {"situation": "head"},
                    {"situation": "unaware"}],
        aim={"aims": 2, "laser_sight_aim": True},
    )  # fmt: skip
    found = run("ranged/attack", {**request, "dice": {"values": [30]}})
    assert terms(found) == {"weapon_pm": 1, "braced_or_prone": 1, "head": -4, "unaware": 1,
                            "aim": 3, "range": -3}  # fmt: skip
    assert found.fire.modifier_total == -1
    # Longarms BEF 4 (F:L803) moved one rung down is EF 3: SC 12 x 3 = 36.
    assert (found.fire.bef, found.fire.ease_factor, found.fire.success_chance) == (4, 3, 36)
    with pytest.raises(InputError):
        run("ranged/attack", {**attack(situations=[{"situation": "braced_or_prone"}] * 2),
                              "dice": {"seed": 1}})  # fmt: skip


def test_the_skill_bef_follows_the_weapons_use():
    """Handguns BEF 3 (F:L800), Longarms 4 (F:L803), Archery 3 (F:L782), Slings 3 (F:L818);
    Throw is G + 1 (F:L827): the task must give it."""
    for use, bef in (("H", 3), ("L", 4), ("A", 3), ("S", 3)):
        weapon = {**REVOLVER, "use": use}
        found = run("ranged/attack", {**attack(weapon=weapon), "dice": {"values": [40]}})
        assert found.fire.bef == bef
    with pytest.raises(InputError):
        run("ranged/attack", {**attack(weapon={**REVOLVER, "use": "T"}), "dice": {"seed": 1}})
    thrown = {**REVOLVER, "use": "T"}
    task = {"score": 10, "bef_formula": {"term": "G", "plus": 1, "familiarity": 3}}
    found = run("ranged/attack", {**attack(weapon=thrown, task=task), "dice": {"values": [5]}})
    assert found.fire.bef == 4


def test_ranged_rows_take_a_value_within_them_and_groups_exclude():
    """Poor light is -1 to -5 (F:L3274): the GM's value must lie within it; a target is one
    size, one cover, one stance and one motion."""
    light = [{"situation": "poor_light", "modifier": -3}]
    found = run("ranged/attack", {**attack(situations=light), "dice": {"values": [5]}})
    assert terms(found)["poor_light"] == -3
    found = run("ranged/attack", {**attack(situations=[{"situation": "poor_light"}]),
                                  "dice": {"values": [5]}})  # fmt: skip
    assert terms(found)["poor_light"] == -1
    bad = [{"situation": "poor_light", "modifier": -6}]
    with pytest.raises(InputError) as error:
        run("ranged/attack", {**attack(situations=bad), "dice": {"seed": 1}})
    assert error.value.loc == ("situations", 0, "modifier")
    both = [{"situation": "one_third_cover"}, {"situation": "two_thirds_cover"}]
    with pytest.raises(InputError) as error:
        run("ranged/attack", {**attack(situations=both), "dice": {"seed": 1}})
    assert error.value.loc == ("situations", 1, "situation")


def test_a_pinned_gun_hand_is_minus_4_and_unbalanced_minus_2():
    """F:L3209-3211: a successful defensive pin gives the shot -4; a firer who dodged it and is
    unbalanced -2 (F:L3268); both, -6."""
    request = attack(pinned_gun_hand=True, situations=[{"situation": "unbalanced"}])
    found = run("ranged/attack", {**request, "dice": {"values": [5]}})
    assert (terms(found)["pinned_gun_hand"], terms(found)["unbalanced"]) == (-4, -2)


def test_the_gunmans_long_burst_lands_3_of_6():
    """F:L3316 (X27e): area fire -2, aimed at the chest (+0), 6 m inside the first range
    increment (25 x 0.7 = 17.5 m), QR3: 50% of the 6-round burst hits. Area fire does the
    weapon's own DC, 10i2p, not the burst's +3 (note ++, F:L3794)."""
    request = {
        "task": {"score": 12},  # Longarms BEF 4, -2: EF 2, SC 24; a 10 is QR3 (10 <= 12)
        "weapon": AUTO_RIFLE,
        "distance_m": 6,
        "situations": [{"situation": "area_fire", "modifier": -2}, {"situation": "torso"}],
        "burst": True,
        "dice": {"values": [10]},
    }
    found = run("ranged/attack", request)
    assert terms(found) == {"area_fire": -2}
    assert found.fire.qr == 3
    assert (found.volley, found.rounds, found.hits, found.dc) == ("area", 6, 3, "10i2p")
    assert found.random_damage_qr
    dice = {"values": [6, 3, 5, 3, 7, 3]}
    burst = run("ranged/burst", {"attack": {"qr": 3}, "burst": "long", "volley": "area",
                                 "dc": "10i2p", "dice": dice})  # fmt: skip
    assert (burst.rounds, burst.hits) == (6, 3)
    # Each hit a random location and a random damage QR (F:L3318; d10 3 is QR3, F:L1475).
    assert [(h.location, h.qr, h.dc) for h in burst.damage] == [
        ("chest", 3, "10i2p"), ("chest", 3, "10i2p"), ("chest", 3, "10i2p")]  # fmt: skip


def test_a_burst_fires_its_own_rounds_and_other_rounds_are_refused():
    """An auto long burst fires [6] rounds, a short one [3] (F:L3782-3783); QR3 lands 3 of 6
    from area fire (F:L3316). 'rounds' counts single shots only: a long burst with rounds 20
    was silently read as 6 rounds; it is refused, naming the field, in the roll and the odds."""
    request = {"attack": {"qr": 3}, "burst": "long", "volley": "area", "dc": "9i"}
    assert run("ranged/burst", {**request, "rounds": 6, "dice": {"values": [3] * 6}}).hits == 3
    for call in (lambda body: odds("ranged/burst", body),
                 lambda body: run("ranged/burst", {**body, "dice": {"seed": 1}})):  # fmt: skip
        with pytest.raises(InputError) as error:
            call({**request, "rounds": 20})
        assert error.value.loc == ("rounds",)


def test_a_burst_at_one_target_is_one_hit_of_greater_dc():
    """F:L3261, F:L3794 (AMB2-24): a burst at a single target is 'a single shot of greater
    damage class': long +3, short +2 (F:L3782-3783), with the attack's QR; 'yield_rounds'
    counts yield x rounds at the weapon's DC instead."""
    base = {"attack": {"qr": 2}, "dc": "9i2p", "dice": {"seed": 1}}
    found = run("ranged/burst", {**base, "burst": "long"})
    assert (found.hits, found.dc) == (1, "12i2p")
    assert run("ranged/burst", {**base, "burst": "short"}).dc == "11i2p"
    found = run("ranged/burst", {**base, "burst": "long",
                                 "options": {"burst_model": "yield_rounds"}})  # fmt: skip
    assert (found.hits, found.dc) == (5, "9i2p")  # 0.75 x 6 = 4.5 -> 5
    missed = run("ranged/burst", {**base, "attack": {"qr": 7}, "burst": "long"})
    assert missed.hits == 0


def test_the_burst_dc_only_for_bursts():
    """Note ++ (F:L3794): single shots from an auto weapon do the unmodified DC."""
    single = attack(weapon=AUTO_RIFLE)
    assert run("ranged/attack", {**single, "dice": {"values": [5]}}).dc == "10i2p"
    found = run("ranged/attack", {**single, "burst": True, "dice": {"values": [5]}})
    assert (found.rounds, found.hits, found.dc) == (6, 1, "13i2p")
    with pytest.raises(InputError):
        run("ranged/attack", {**attack(burst=True), "dice": {"seed": 1}})


#: Catalogue part 2, Q12: round_half_up(yield x rounds) for QR1-QR4.
Q12 = {1: (1, 1, 1, 0), 2: (2, 2, 1, 1), 3: (3, 2, 2, 1), 4: (4, 3, 2, 1), 5: (5, 4, 3, 1),
       6: (6, 5, 3, 2), 10: (10, 8, 5, 3), 20: (20, 15, 10, 5)}  # fmt: skip


@pytest.mark.parametrize("rounds", sorted(Q12))
def test_q12_rounds_hitting_from_area_fire(rounds):
    """Catalogue part 2, Q12 (F:L3298, F:L3316): hits = round_half_up(yield x rounds), every
    row, against the table and the QR table's yields (F:L1367-1370)."""
    for at, rating in enumerate((1, 2, 3, 4)):
        request = {"attack": {"qr": rating}, "rounds": rounds, "volley": "area", "dc": "6i",
                   "dice": {"seed": 1}}  # fmt: skip
        found = run("ranged/burst", request).hits
        assert found == Q12[rounds][at] == round_half_up(YIELD[rating] * rounds)
        assert len(run("ranged/burst", request).damage) == found


def test_qr2_yield_80_is_the_damage_options_reading():
    """AMB2-01: QR2 yields 75% (F:L1367) or 80% (F:L2663); 20 rounds: 15 or 16 hits."""
    request = {"attack": {"qr": 2}, "rounds": 20, "volley": "area", "dc": "6i",
               "dice": {"seed": 1}}  # fmt: skip
    assert run("ranged/burst", request).hits == 15
    assert run("ranged/burst", {**request, "options": {"qr2_yield": "80"}}).hits == 16


# --- jams and failure ranges (#79, #99, #100) -------------------------------------------------


def book_fails(code: str, roll: int, d10: int) -> bool:
    """The Failure Ranges table's words (F:L3570-3585), read here independently."""
    ending = roll % 10
    return {
        "A": False,
        "B": roll == 99 and d10 == 10,
        "C": roll == 99,
        "D": roll in (50, 99),
        "E": roll in (25, 50, 75, 99),
        "F": ending == 5,
        "G": ending in (3, 8),
        "H": ending in (2, 5, 9),
        "I": roll % 2 == 0,
        "J": True,
        "98-99": roll in (98, 99),
        "97-99": 97 <= roll <= 99,
        "96-99": 96 <= roll <= 99,
        "91-99": 91 <= roll <= 99,
    }[code]


#: Catalogue part 2, Q10: P(failure) per use.
Q10 = {"A": "0", "B": "0.001", "C": "0.01", "D": "0.02", "E": "0.04", "F": "0.1", "G": "0.2",
       "H": "0.3", "I": "0.5", "J": "1", "98-99": "0.02", "97-99": "0.03", "96-99": "0.04",
       "91-99": "0.09"}  # fmt: skip


@pytest.mark.parametrize("code", sorted(Q10))
def test_q10_failure_probability_per_use(code):
    """Catalogue part 2, Q10, against every D100 face and D10 counted by the book's words,
    against the plain function and against the jam operation's odds."""
    brute = Fraction(sum(book_fails(code, r, d) for r in range(1, 101) for d in range(1, 11)),
                     1000)  # fmt: skip
    assert brute == Fraction(Q10[code]) == failure_probability(code)
    found = odds("ranged/jam", {"jam": code})
    assert Fraction(found.jam_probability.exact) == brute
    for r in range(1, 101):
        if code == "B" and r == 99:
            assert fails(code, r, 10)
            assert not fails(code, r, 9)
        else:
            assert fails(code, r, 10) == book_fails(code, r, 10)


def test_the_failure_table_matches_its_words():
    """Each row's faces are the ones its words name (F:L3571-3579)."""
    for code in "ABCDEFGHI":
        faces = {r for r in range(1, 101) if book_fails(code, r, 10)}
        assert set(FAILURE_RANGES[code].faces) == faces


def test_a_starred_range_needs_its_d10():
    """F:L3585: '99*' fails on a 99 only if a subsequent D10 turns up a 10."""
    with pytest.raises(ValueError, match="follow-up D10"):
        fails("B", 99)
    found = run("ranged/jam", {"jam": "B", "roll": 99, "dice": {"values": [10, 4]}})
    assert (found.follow_up_d10, found.jammed, found.concentrate_actions) == (10, True, 4)
    found = run("ranged/jam", {"jam": "B", "roll": 99, "dice": {"values": [9]}})
    assert (found.follow_up_d10, found.jammed) == (9, False)
    found = odds("ranged/jam", {"jam": "B", "roll": 99})
    assert found.jam_probability.exact == "1/10"


def test_a_jam_takes_d10_concentrate_actions_and_a_dx_roll():
    """F:L3664: a jammed weapon needs D10 concentrate actions (the GM's secret), then a
    successful dexterity roll; a bow's string breaks instead."""
    found = run("ranged/jam", {"jam": "D", "roll": 50, "dice": {"values": [7]}})
    assert (found.jammed, found.concentrate_actions, found.then) == (
        True, 7, "a successful dexterity roll")  # fmt: skip
    bow = run("ranged/jam", {"jam": "D", "use": "A", "roll": 99, "dice": {"seed": 1}})
    assert (bow.jammed, bow.string_broken, bow.concentrate_actions) == (True, True, None)
    clear = run("ranged/jam", {"jam": "D", "roll": 51, "dice": {"seed": 1}})
    assert not clear.jammed
    found = odds("ranged/jam", {"jam": "D", "roll": 50})
    assert [row.outcome for row in found.concentrate_actions] == [str(n) for n in range(1, 11)]


def test_failure_ranges_shift_by_letters():
    """F:L3589: better moves up the table (towards A), worse down; Advanced +1 and Auto Long
    Burst -2 are such steps (F:L3781-3782). Numbers have no defined shift (AMB2-38)."""
    assert shift("D", 1) == "C"
    assert shift("B", -2) == "D"
    assert shift("A", 3) == "A"
    assert shift("L", -5) == "M"
    with pytest.raises(InputError):
        shift("98-99", 1)


# --- the fire roll's odds ---------------------------------------------------------------------


def brute_attack(sc: int, code: str, rounds: int, area: bool, burst: bool, lost: bool) -> dict:
    """Every D100 face (and D10 for a starred range's face): the QR read by the oracle, the jam
    by the book's words, hits as the rule text counts them."""
    found: dict[tuple[int, bool, int], Fraction] = {}
    for face in range(1, 101):
        rating = qr(face, sc)
        for d10 in range(1, 11):
            jammed = book_fails(code, face, d10)
            if rating > 4 or (jammed and lost):
                hits = 0
            elif area:
                hits = round_half_up(YIELD[rating] * rounds)
            else:
                hits = 1
            key = (rating, jammed, hits)
            found[key] = found.get(key, Fraction(0)) + Fraction(1, 1000)
    return found


def marginal(joint: dict, index: int) -> dict:
    out: dict = {}
    for key, p in joint.items():
        out[key[index]] = out.get(key[index], Fraction(0)) + p
    return out


@pytest.mark.parametrize(
    ("situations", "jam", "burst", "lost"),
    [
        ([], "C", False, True),
        ([{"situation": "area_fire", "modifier": -2}], "D", True, True),
        ([{"situation": "area_fire", "modifier": -4}], "F", True, False),
        ([], "B", True, True),
        ([{"situation": "poor_light", "modifier": -5}], "I", False, False),
    ],
)
def test_fire_odds_against_every_face(situations, jam, burst, lost):
    """QR, P(hit), P(jam) and the hits, jointly over the one D100 that is both the fire roll
    and the jam test (F:L3587, F:L3664), against brute force; SC from the oracle's reading of
    score x EF (Longarms BEF 4, F:L803)."""
    weapon = {**AUTO_RIFLE, "jam": jam}
    options = {"jammed_shot": "lost" if lost else "fired"}
    request = {"task": {"score": 15}, "weapon": weapon, "distance_m": 10,
               "situations": situations, "burst": burst, "options": options}  # fmt: skip
    found = odds("ranged/attack", request)
    total = sum(s["modifier"] for s in situations)
    sc = round_half_up(15 * [0, Fraction(1, 4), Fraction(1, 2), 1, 2, 3, 4, 5, 6][6 + total])
    area = any(s["situation"] == "area_fire" for s in situations)
    joint = brute_attack(sc, jam, 6 if burst else 1, area, burst, lost)
    assert nonzero(by_qr(found.fire.qr)) == nonzero(marginal(joint, 0))
    assert Fraction(found.jammed.exact) == marginal(joint, 1).get(True, 0)
    hits = {h: p for h, p in marginal(joint, 2).items() if p}
    assert {int(row.outcome): Fraction(row.exact) for row in found.hits} == hits
    assert Fraction(found.hit.exact) == sum(p for h, p in hits.items() if h > 0)
    both = sum(p for (q, j, h), p in joint.items() if j and h > 0)
    assert Fraction(found.hit_and_jammed.exact) == both


#: Catalogue part 2, Q1 rows: SC -> P(QR1, QR2, QR3, QR4, QR7, QR10).
Q1 = {63: "0.06 0.06 0.19 0.32 0.33 0.04", 40: "0.04 0.04 0.12 0.20 0.54 0.06",
      60: "0.06 0.06 0.18 0.30 0.36 0.04"}  # fmt: skip


@pytest.mark.parametrize(("sc", "score", "bef"), [(63, 9, 7), (40, 8, 5), (60, 12, 5)])
def test_q1_rows_as_fire_rolls(sc, score, bef):
    """Catalogue part 2, Q1: the fire roll at SC 63 (the gunman's DX 9 x 7, F:L3314), 40, 60."""
    request = {"task": {"score": score, "bef": bef}, "weapon": SNIPER_RIFLE, "distance_m": 10}
    request["weapon"] = {**SNIPER_RIFLE, "pm": 0, "jam": "A"}
    found = odds("ranged/attack", request)
    expected = dict(zip((1, 2, 3, 4, 7, 10), map(Fraction, Q1[sc].split()), strict=True))
    assert by_qr(found.fire.qr) == expected
    assert found.jammed.exact == "0/1"


def test_a_jammed_shot_is_lost_or_fired():
    """F:L3664 says a jam 'results in the weapon becoming jammed or misfiring'; by default the
    shot is lost, 'fired' resolves it as rolled. A face of 5 with Jam F (any roll ending in 5,
    F:L3576) at SC 60 is QR1."""
    request = {**attack(weapon={**SNIPER_RIFLE, "jam": "F"}), "dice": {"values": [5, 3]}}
    lost = run("ranged/attack", request)
    assert (lost.fire.qr, lost.jammed, lost.hit, lost.hits) == (1, True, False, 0)
    assert lost.jam.concentrate_actions == 3
    fired = run("ranged/attack", {**request, "options": {"jammed_shot": "fired"}})
    assert (fired.fire.qr, fired.jammed, fired.hit, fired.hits) == (1, True, True, 1)


# --- ammunition (#80) -------------------------------------------------------------------------


def test_gunslingers_revolver_actions_under_both_readings():
    """X22, F:L3012-3018: with one action left Joe fires; Noname 'can aim and fire or fire two
    shots'. The revolver is ROF [1], a prepare and a fire action a shot (F:L3658, F:L3681), so
    by the rule two shots take four actions (three if the first was prepared earlier); the
    example's reading ('revolver_single_action', AMB2-23) takes one action a shot."""
    base = {"weapon": REVOLVER, "shots": 2}
    assert run("ranged/ammo", base).fire_actions == 4
    assert run("ranged/ammo", {**base, "prepared": True}).fire_actions == 3
    single = {"revolver_single_action": True}
    assert run("ranged/ammo", {**base, "options": single}).fire_actions == 2
    joe = {"weapon": REVOLVER, "shots": 1}
    assert run("ranged/ammo", joe).fire_actions == 2
    assert run("ranged/ammo", {**joe, "options": single}).fire_actions == 1
    # A ROF [1] longarm is a prepare and a fire whatever the option (Bolt Action, F:L3684).
    bolt = {**REVOLVER, "use": "L", "ammo": "5", "rl": "4"}
    assert run("ranged/ammo", {"weapon": bolt, "shots": 2, "options": single}).fire_actions == 4


def test_reloads_and_rounds_left():
    """F:L3662: RL is the reload actions; '6*' one round per action (the revolver, F:L3681)."""
    found = run("ranged/ammo", {"weapon": REVOLVER, "shots": 2})
    assert (found.rounds_left, found.reload_actions, found.one_round_per_reload) == (4, 2, True)
    rifle = run("ranged/ammo", {"weapon": AUTO_RIFLE, "shots": 2, "burst": True})
    assert (rifle.rounds_used, rifle.rounds_left, rifle.fire_actions, rifle.reload_actions) == (
        12, 3, 2, 3)  # fmt: skip
    with pytest.raises(InputError) as error:
        run("ranged/ammo", {"weapon": AUTO_RIFLE, "loaded": 5, "shots": 1, "burst": True})
    assert error.value.loc == ("shots",)


def test_single_shots_from_a_burst_weapon_take_an_action_each():
    """F:L3658: a plain ROF counts shots a fire action; a burst modification's [6] or [3]
    (F:L3782-3783) is the rounds of one burst (AMB2-23), not six single shots in one action.
    Fired singly, as ranged/attack fires them (one round a shot), each shot is a fire action;
    a burst is one action of six rounds."""
    single = run("ranged/ammo", {"weapon": AUTO_RIFLE, "shots": 6})
    assert (single.rounds_used, single.fire_actions) == (6, 6)
    burst = run("ranged/ammo", {"weapon": AUTO_RIFLE, "shots": 1, "burst": True})
    assert (burst.rounds_used, burst.fire_actions) == (6, 1)
    short = {**AUTO_RIFLE, "rof": "[3]", "auto": "short"}
    assert run("ranged/ammo", {"weapon": short, "shots": 3}).fire_actions == 3
    # A plain ROF 2 (the Laser Cannon, F:L3702) still fires two shots an action.
    cannon = {"name": "Laser Cannon", "use": "HW", "range_m": 100, "rof": "2", "ammo": "30Wh",
              "rl": "3"}  # fmt: skip
    found = run("ranged/ammo", {"weapon": cannon, "power_pack_wh": 300, "shots": 3})
    assert found.fire_actions == 2


def test_a_thrown_weapon_is_its_own_ammunition():
    """F:L3648: ammo '1*': after 'firing' a new weapon must be drawn or the old one retrieved
    (the thrown dagger, F:L3668)."""
    dagger = {"name": "Dagger", "use": "T", "range_m": 2, "rof": "[1]", "ammo": "1*", "dc": "+1m"}
    found = run("ranged/ammo", {"weapon": dagger, "shots": 1, "prepared": True})
    assert (found.ammunition, found.rounds_left, found.redraw, found.reload_actions) == (
        "weapon", 0, True, None)  # fmt: skip
    assert found.fire_actions == 1


def test_energy_weapons_spend_watt_hours_a_shot():
    """F:L3648 (AMB2-41): a Laser Rifle's 20 Wh (F:L3697) is spent per shot by default, so a
    100 Wh pack holds 5 shots; read as a capacity, it holds 20 shots."""
    laser = {"name": "Laser Rifle", "use": "L", "pm": 1, "range_m": 50, "ammo": "20Wh", "rl": "3"}
    found = run("ranged/ammo", {"weapon": laser, "power_pack_wh": 100, "shots": 2})
    assert (found.capacity, found.rounds_left, found.wh_per_shot.exact) == (5, 3, "20/1")
    shots = {"energy_ammo_semantics": "capacity_shots"}
    found = run("ranged/ammo", {"weapon": laser, "shots": 2, "options": shots})
    assert (found.capacity, found.rounds_left) == (20, 18)
    with pytest.raises(InputError) as error:
        run("ranged/ammo", {"weapon": laser, "shots": 1})
    assert error.value.loc == ("power_pack_wh",)


@pytest.mark.parametrize(("volley", "model"), [("area", "single_hit"),
                                               ("single_target", "single_hit"),
                                               ("single_target", "yield_rounds")])  # fmt: skip
def test_burst_odds_against_every_face(volley, model):
    """The hits of a long burst over every D100 face of its fire roll (SC 12 x 2 = 24): one hit
    on any success at a single target (single_hit), else round_half_up(yield x 6)."""
    request = {"attack": {"task": {"score": 12, "bef": 2}}, "burst": "long", "volley": volley,
               "dc": "9i2p", "options": {"burst_model": model}}  # fmt: skip
    found = odds("ranged/burst", request)
    brute: dict[int, Fraction] = {}
    for face in range(1, 101):
        rating = qr(face, 24)
        if rating > 4:
            hits = 0
        elif volley == "single_target" and model == "single_hit":
            hits = 1
        else:
            hits = round_half_up(YIELD[rating] * 6)
        brute[hits] = brute.get(hits, Fraction(0)) + Fraction(1, 100)
    assert {int(row.outcome): Fraction(row.exact) for row in found.hits} == brute
    assert Fraction(found.hit.exact) == 1 - brute.get(0, Fraction(0)) == Fraction(24, 100)
