"""One attack end to end (`attack`): the attack and defence rolls, blocking, location, armor,
the damage table and the defender's condition. Odds are checked against catalogue part 2,
section 4 (Q6 melee P(hit), Q3 wound levels) and a brute force over every pair of D100 rolls
written here from the rule text, sharing no code with the service. Seed lines are F:L<n>."""

from fractions import Fraction

import pytest

from service.rules.model import InputError
from tests.rules.foresight.calls import odds, run
from tests.rules.foresight.oracle import BLOCK, YIELD, qr
from tests.rules.foresight.test_combat_melee import Q6

#: (score, BEF) giving each SC of the catalogue's Q6 at EF = BEF.
SC = {30: (6, 5), 40: (8, 5), 45: (9, 5), 50: (10, 5), 60: (12, 5), 75: (15, 5), 90: (18, 5),
      100: (20, 5), 120: (20, 6)}  # fmt: skip


def task(sc: int) -> dict:
    score, bef = SC[sc]
    return {"task": {"score": score, "bef": bef}}


def brute_final(attack_sc: int, defense_sc: int | None, botch_helps: bool = True) -> dict:
    """Every pair of D100 rolls: the attack's QR blocked by the defence's (F:L1511-1519); a
    botched defence leaves the attack as rolled unless it helps (AMB2-18)."""
    found: dict[int, Fraction] = {}
    for a in range(1, 101):
        qa = qr(a, attack_sc)
        if defense_sc is None:
            found[qa] = found.get(qa, 0) + Fraction(1, 100)
            continue
        for d in range(1, 101):
            qd = qr(d, defense_sc)
            final = qa if qd == 10 and not botch_helps else BLOCK[qa][qd]
            found[final] = found.get(final, 0) + Fraction(1, 10_000)
    return found


def hit(final: dict) -> Fraction:
    return sum((p for q, p in final.items() if q <= 4), Fraction(0))


#: Catalogue Q6 (attack SC, defence SC, P(final QR1..QR4), P(hit), without the botch, undefended),
#: transcribed once in the melee tests.


def p_hit(attack_sc: int, defense_sc: int | None, **options) -> Fraction:
    request = {"attacker": task(attack_sc), "damage_class": "DC8", "options": options}
    if defense_sc is not None:
        request["defense"] = task(defense_sc)
    return Fraction(odds("attack", request).hit.exact)


@pytest.mark.parametrize(("a", "d", "qrs", "defended", "botch_off", "undefended"), Q6)
def test_q6_melee_p_hit_is_the_catalogue_and_the_brute_force(a, d, qrs, defended, botch_off,
                                                             undefended):  # fmt: skip
    """Catalogue Q6: P(final QR) and P(hit) with the botched-defence boost (the default,
    AMB2-18), without it, and undefended; each to the catalogue's four places and exactly to
    the brute force over the 10,000 roll pairs."""
    found = odds("attack", {"attacker": task(a), "defense": task(d), "damage_class": "DC8"})
    final = {int(row.outcome[2:]): Fraction(row.exact) for row in found.final.qr}
    assert final == brute_final(a, d)
    for q, printed in zip((1, 2, 3, 4), qrs.split(), strict=True):
        assert round(float(final.get(q, 0)), 4) == float(printed)
    assert round(float(p_hit(a, d)), 4) == float(defended)
    assert p_hit(a, d, defense_botch_helps_attack=False) == hit(brute_final(a, d, False))
    assert round(float(p_hit(a, d, defense_botch_helps_attack=False)), 4) == float(botch_off)
    assert round(float(p_hit(a, None)), 4) == float(undefended)


def brute_wound_level(attack_sc: int, defense_sc: int, dc: int, reduction: int, absorb: int):
    """The defender's wound level from WL0 after one unlocated hit: the final QR, then the
    table's (yield x DC after armor) / 2 rounded half up (F:L2640-2659), less the A's."""
    found: dict[int, Fraction] = {}
    for final, p in brute_final(attack_sc, defense_sc).items():
        level = 0
        if final <= 4:
            eff = dc - reduction
            level = int(YIELD[final] * eff / 2 + Fraction(1, 2)) if eff > 0 else 0
            level = max(0, level - absorb)
        found[level] = found.get(level, 0) + p
    return found


@pytest.mark.parametrize(("a", "d", "dc", "rating", "reduction", "absorb"), [
    (50, 50, 8, None, 0, 0), (75, 50, 12, "3A", 3, 1), (90, 45, 10, "2", 2, 0),
    (60, 40, 6, "4A", 4, 1),
])  # fmt: skip
def test_the_defenders_wound_level_is_the_brute_force(a, d, dc, rating, reduction, absorb):
    """The distribution of the defender's wound level for an attack against a defence: the
    D100 x D100, then the damage table (issue 23 item 6)."""
    request = {"attacker": task(a), "defense": task(d), "damage_class": f"DC{dc}",
               "aim": "chest", "armor": [{"rating": rating}] if rating else []}  # fmt: skip
    found = odds("attack", request)
    table = {int(row.outcome): Fraction(row.exact) for row in found.damage.wound_level}
    assert table == {k: v for k, v in brute_wound_level(a, d, dc, reduction, absorb).items() if v}


def test_an_undefended_attack_is_the_catalogue_q3_row():
    """Catalogue Q3, SC 75 against DC10 and 3A (no defence): miss 0.25, S 0.38, 1 0.22,
    2 0.08, 3 0.07."""
    found = odds("attack", {"attacker": task(75), "damage_class": "DC10", "aim": "chest",
                            "armor": [{"rating": "3A"}]})  # fmt: skip
    table = {row.outcome: round(row.float, 4) for row in found.damage.result}
    assert table == {"miss": 0.25, "S": 0.38, "1": 0.22, "2": 0.08, "3": 0.07}


def test_a_parry_as_good_as_the_attack_stops_it():
    """F:L3189: a defence equal to or better than the attack avoids it; QR3 against QR3 is
    QR7, and nothing is rolled for the damage but the location is not rolled either."""
    found = run("attack", {"attacker": {"qr": 3}, "defense": {"qr": 3}, "damage_class": "DC8"})
    assert (found.final.qr.value, found.hit, found.damage.result) == (7, False, "miss")


def test_a_worse_parry_takes_notches_off_and_the_damage_follows():
    """A QR1 attack against a QR3 parry drops (5 - 3) = 2 notches to QR3 (F:L1507); DC8 at
    QR3 is 2 wound levels (F:L2640-2659) to the chest (table dice: location D10 5)."""
    found = run("attack", {"attacker": {"qr": 1}, "defense": {"qr": 3}, "damage_class": "DC8",
                           "dice": {"values": [5]}})  # fmt: skip
    assert found.final.qr.value == 3
    assert found.damage.hits[0].location == "chest"
    assert (found.damage.result, found.damage.condition.wound_level) == ("2", 2)


def test_a_botched_dodge_turns_a_miss_into_a_hit_unless_the_option_says_no():
    """AMB2-18: the blocking table lets a QR10 defence lift a QR7 attack to QR4
    (F:L1511-1519); with the option off the miss stands."""
    body = {"attacker": {"qr": 7}, "defense": {"qr": 10}, "damage_class": "DC8", "aim": "chest"}
    assert run("attack", body).final.qr.value == 4
    body["options"] = {"defense_botch_helps_attack": False}
    found = run("attack", body)
    assert (found.final.qr.value, found.hit, found.options_applied.defense_botch_helps_attack) == (
        7, False, False)  # fmt: skip


def test_the_rolls_are_in_order_attack_defence_location():
    """Table dice: the attack's D100, the parry's D100, then the hit's location D10."""
    found = run("attack", {"attacker": task(50), "defense": task(50), "damage_class": "DC8",
                           "dice": {"values": [4, 81, 10]}})  # fmt: skip
    assert (found.attack.roll, found.defense.roll) == (4, 81)
    assert (found.attack_qr.value, found.defense_qr.value, found.final.qr.value) == (1, 7, 1)
    assert found.damage.hits[0].location == "head"
    # DC8 at QR1 is 4 wound levels, +1 to the head (F:L2705).
    assert found.damage.condition.wound_level == 5


def test_a_side_with_both_task_and_qr_is_refused():
    with pytest.raises(InputError) as error:
        run("attack", {"attacker": {"qr": 3, **task(50)}, "damage_class": "DC8"})
    assert error.value.loc == ("attacker",)


SWORD = {"name": "Sabre/Longsword", "normal": {"pm": 1, "dc": "+4m"}, "parry": 1, "draw": 3,
         "mass_kg": 1.25}  # fmt: skip
DAGGER = {"name": "Dagger", "close": {"pm": 1, "dc": "+1m1p"}, "normal": {"pm": 0, "dc": "+1m1p"},
          "parry": -1, "draw": 1, "mass_kg": 0.5}  # fmt: skip


def test_a_sword_brings_its_damage_and_the_parry_compares_dcs():
    """The melee attacker's weapon gives the blow: UCDC 2 at ST 12 (F:L491-501) + the sword's
    +4m at normal range = DC 6 (F:L3636); the dagger's parry (UCDC 1 at ST 8, +1m1p: DC 2)
    compares it with the attacker's: -(6 - 2)/2 = -2 (F:L3161), besides its own -1. A QR1
    blow against a failed parry stays QR1: DC6 at QR1 is 3 wound levels (F:L2640-2659)."""
    found = run("attack", {
        "attacker": {"melee": {"task": {"score": 14, "bef": 5},
                               "use": {"weapon": SWORD, "strength": 12}}},
        "defense": {"parry": {"task": {"score": 12, "bef": 5},
                              "use": {"weapon": DAGGER, "strength": 8}}},
        "aim": "chest", "dice": {"values": [3, 91]},
    })  # fmt: skip
    assert [(t.source, t.value) for t in found.attack.modifiers] == [
        ("Sabre/Longsword PM (normal)", 1)]  # fmt: skip
    terms = {t.source: t.value for t in found.defense.modifiers}
    assert terms["Dagger parry"] == -1
    assert [v for s, v in terms.items() if s.startswith("attacker's DC")] == [-2]
    assert found.final.qr.value == 1
    hit = found.damage.hits[0]
    assert (Fraction(hit.dc.exact), hit.result, found.damage.condition.wound_level) == (6, "3", 3)


def test_a_melee_weapon_and_a_damage_class_together_are_refused():
    with pytest.raises(InputError) as error:
        run("attack", {"attacker": {"melee": {"task": {"score": 14, "bef": 5},
                                              "use": {"weapon": SWORD, "strength": 12}}},
                       "damage_class": "DC8"})  # fmt: skip
    assert error.value.loc == ("damage_class",)


RIFLE = {"name": "Cartridge Laser Rifle, heavy, target", "use": "L", "pm": 1, "range_m": 50,
         "range_multipliers": [1.25, 1.1], "dc": "9b", "jam": "C"}  # fmt: skip
SNIPER = {"task": {"score": 12}, "weapon": RIFLE, "distance_m": 240, "aim": {"aims": 3},
          "situations": [{"situation": "head"}, {"situation": "braced_or_prone"},
                         {"situation": "unaware"}]}  # fmt: skip


def test_the_sniper_s_head_shot_is_the_table_s_two_wound_levels():
    """X27j-k (F:L3320-3322): +1 PM, -4 head, +1 braced and prone, +1 unaware, +3 aims, -3
    for 240 m at 68.75 m: -1 in all (the book's -2 leaves out the PM, AMB2-25); Longarms BEF 4
    -1 is EF 3, SC 36 at score 12, where a roll of 20 is QR4. A QR4 hit with DC 9b to the head
    is 1 wound level by the table, 2 with the head's +1, not the text's 3 (AMB2-02)."""
    found = run("attack", {"attacker": {"ranged": SNIPER}, "dice": {"values": [20]}})
    assert found.attack.modifier_total == -1
    assert found.attack.qr.value == 4
    assert (found.jam.jammed, found.damage.hits[0].location) == (False, "head")
    assert (found.damage.result, found.damage.condition.wound_level) == ("2", 2)


def brute_ranged_wound_level(sc: int, jam_faces: set[int], dc: int, head_bonus: int) -> dict:
    """Every fire roll: its QR, a jam on `jam_faces` loses the shot (F:L3664), then the table
    at the DC (F:L2640-2659) plus the head's +1 to positive damage (F:L2705)."""
    found: dict[int, Fraction] = {}
    for face in range(1, 101):
        q = qr(face, sc)
        level = 0
        if q <= 4 and face not in jam_faces:
            level = int(YIELD[q] * dc / 2 + Fraction(1, 2))
            level += head_bonus if level else 0
        found[level] = found.get(level, 0) + Fraction(1, 100)
    return found


def test_the_sniper_s_odds_are_the_brute_force():
    """SC 36, Jam C (fails on a 99, F:L3575): the wound level of the head shot."""
    found = odds("attack", {"attacker": {"ranged": SNIPER}})
    table = {int(row.outcome): Fraction(row.exact) for row in found.damage.wound_level}
    assert table == {k: v for k, v in brute_ranged_wound_level(36, {99}, 9, 1).items() if v}
    assert Fraction(found.jammed.exact) == Fraction(1, 100)


def test_a_ranged_attack_is_not_parried():
    with pytest.raises(InputError) as error:
        run("attack", {"attacker": {"ranged": SNIPER}, "defense": {"qr": 3}})
    assert error.value.loc == ("defense",)


def test_area_fire_is_sent_to_the_burst_operation():
    """Area fire lands yield x rounds hits at random QRs (F:L3298): ranged/burst rolls them."""
    shot = {**SNIPER, "situations": [{"situation": "area_fire", "modifier": -2}]}
    with pytest.raises(InputError) as error:
        run("attack", {"attacker": {"ranged": shot}})
    assert error.value.loc == ("attacker", "ranged", "situations")


def _shot(row: str | None) -> dict:
    situations = [] if row is None else [{"situation": row}]
    return {"attacker": {"ranged": {**SNIPER, "situations": situations}}}


def test_a_shot_at_a_specific_arm_lands_on_the_arm_it_names():
    """'Trying to hit specific arm' (F:L3295) names the arm: the hit lands there, with no
    location die, and a random aim is refused, as are the legs and the chest."""
    found = run("attack", {**_shot("specific_arm"), "aim": "left_arm", "dice": {"values": [20]}})
    assert found.damage.hits[0].location == "left_arm"
    assert found.attack.modifier_total == 1 + 3 - 3 - 3  # PM, aims, range, the arm's -3
    assert [r.purpose for r in found.rolls] == ["D100 (attack)"]
    for aim in ("random", "right_leg", "chest"):
        with pytest.raises(InputError) as error:
            run("attack", {**_shot("specific_arm"), "aim": aim, "dice": {"values": [20]}})
        assert error.value.loc == ("aim",)


def test_a_called_shot_lands_within_its_row():
    """A shot at the legs (F:L3292) lands on a leg, the one named if 'aim' names one; a shot at
    the torso (F:L3294) may name chest or abdomen, but not the head."""
    named = run("attack", {**_shot("legs"), "aim": "left_leg", "dice": {"values": [20]}})
    assert named.damage.hits[0].location == "left_leg"

    def levels(request: dict) -> dict[str, Fraction]:
        found = odds("attack", request).damage.wound_level
        return {row.outcome: Fraction(row.exact) for row in found}

    either = levels(_shot("legs"))
    right, left = (levels({**_shot("legs"), "aim": leg}) for leg in ("right_leg", "left_leg"))
    assert either == {k: (right.get(k, 0) + left.get(k, 0)) / 2 for k in right | left}
    assert either != levels(_shot("torso"))
    with pytest.raises(InputError) as error:
        run("attack", {**_shot("torso"), "aim": "head", "dice": {"values": [20]}})
    assert error.value.loc == ("aim",)
    assert run("attack", {**_shot("torso"), "aim": "abdomen", "dice": {"values": [20]}})


def test_an_aim_needs_its_called_shot_row():
    """Aiming a shot at the head without 'Trying to hit head' would skip its -4 (F:L3293); the
    torso's row is +0 (F:L3294), so a chest aim needs none. A shot at the target's weapon
    (F:L3296-3297) wounds no one and is ranged/attack's."""
    with pytest.raises(InputError) as error:
        run("attack", {**_shot(None), "aim": "head", "dice": {"values": [20]}})
    assert error.value.loc == ("aim",)
    chest = run("attack", {**_shot(None), "aim": "chest", "dice": {"values": [20]}})
    assert chest.damage.hits[0].location == "chest"
    with pytest.raises(InputError) as error:
        run("attack", {**_shot("gun_from_front"), "dice": {"values": [20]}})
    assert error.value.loc == ("attacker", "ranged", "situations")


def test_a_melee_blow_aimed_at_the_head_takes_its_row():
    """'Attacker is aiming for the head -4' (F:L3147), legs -1 (F:L3144), a specific arm -2
    (F:L3149): a blow lands there only if attacker.melee.aim takes the row. A top-level aim at
    the head with an unaimed blow was a free called shot (P(hit) 3/5 instead of 3/25); it is
    refused, as a shot without its called-shot row is. The torso's row is +0 (F:L3148)."""
    blow = {"task": {"score": 12, "bef": 4}, "use": {"weapon": SWORD, "strength": 10}}
    for aim in ("head", "legs", "left_leg", "right_arm"):
        with pytest.raises(InputError) as error:
            odds("attack", {"attacker": {"melee": blow}, "aim": aim})
        assert error.value.loc == ("aim",)
        with pytest.raises(InputError):
            run("attack", {"attacker": {"melee": blow}, "aim": aim, "dice": {"seed": 1}})
    aimed = odds("attack", {"attacker": {"melee": {**blow, "aim": "head"}}, "aim": "head"})
    assert Fraction(aimed.hit.exact) == Fraction(3, 25)
    chest = run("attack", {"attacker": {"melee": blow}, "aim": "chest", "dice": {"values": [20]}})
    assert chest.damage.hits[0].location == "chest"


def test_a_burst_under_yield_rounds_lands_its_rounds_as_hits():
    """AMB2-24 'yield_rounds': a burst at one target lands round_half_up(yield x rounds) hits
    at the weapon's DC (F:L3257, F:L3298), as ranged/attack counts them; attack dealt one.
    Long burst [6] at SC 48 (score 12, Longarms BEF 4), chest, no armor, 6i each: a QR1
    lands 6 hits of DC6 at QR1 (3 wound levels each, added at the chest, F:L2612)."""
    rifle = {"name": "SL", "use": "L", "range_m": 25, "recoil": 4, "jam": "A", "rof": "[6]",
             "auto": "long", "dc": "6i"}  # fmt: skip
    shot = {"task": {"score": 12}, "weapon": rifle, "distance_m": 6, "burst": True}
    request = {"attacker": {"ranged": shot}, "aim": "chest",
               "options": {"burst_model": "yield_rounds"}}  # fmt: skip
    counted = odds("ranged/attack", {**shot, "options": {"burst_model": "yield_rounds"}})
    assert {row.outcome: row.exact for row in counted.hits}["6"] == "1/25"
    found = run("attack", {**request, "dice": {"values": [3]}})
    assert (len(found.damage.hits), found.damage.result) == (6, "18")
    # Brute force over the D100: QR1 6 hits x 3, QR2 5 x 2 (DC6 x 75% / 2 = 2.25),
    # QR3 3 x 2 (1.5), QR4 2 x 1 (0.75); SC 48: QR1 1-4, QR2 5-9, QR3 10-24, QR4 25-48.
    expected = {"0": Fraction(52, 100), "18": Fraction(4, 100), "10": Fraction(5, 100),
                "6": Fraction(15, 100), "2": Fraction(24, 100)}  # fmt: skip
    levels = odds("attack", request).damage.wound_level
    assert {row.outcome: Fraction(row.exact) for row in levels} == expected


SWORD = {"name": "Sabre/Longsword", "normal": {"pm": 1, "dc": "+4m"}, "parry": 1, "draw": 3,
         "mass_kg": 1.25}  # fmt: skip
FIST = {"name": "Punch", "normal": {"pm": 0, "dc": "+0m"}, "parry": 0, "unarmed": True}
#: HTH 12 at BEF 5 with the sabre's parry +1 and the disarm's -3 (AMB2-53): EF 3, SC 36.
PARRY_TO_DISARM = {"task": {"score": 12, "bef": 5}, "use": {"weapon": SWORD, "strength": 12},
                   "disarm": True}  # fmt: skip


@pytest.mark.parametrize(
    ("face", "parry_qr", "disarmed"), [(10, 3, "no"), (5, 2, "lost"), (2, 1, "lost"), (51, 7, "no")]
)
def test_a_parry_to_disarm_better_than_the_attack_takes_the_attackers_weapon(
    face, parry_qr, disarmed
):
    """F:L3244-3246: 'if the disarming ... parry is superior to the opponent's ... attack then
    the opponent's weapon is lost or dropped'; a parry to disarm 'still blocks damage as if it
    were an ordinary parry'. Ruggiero's QR3 attack against Rodomont's QR3 parry to disarm is
    blocked and keeps his sword (X26, F:L3247); a QR2 parry takes it."""
    body = {"attacker": {"qr": 3}, "defense": {"parry": PARRY_TO_DISARM}, "damage_class": "DC8",
            "aim": "chest", "dice": {"values": [face]}}  # fmt: skip
    found = run("attack", body)
    assert (found.defense_qr, found.attacker_disarmed) == (parry_qr, disarmed)
    assert found.hit == (parry_qr > 4)
    plain = {**body, "defense": {"parry": {**PARRY_TO_DISARM, "disarm": False}}}
    assert run("attack", plain).attacker_disarmed == "no"


def test_an_unarmed_attacker_parried_to_disarm_is_numbed():
    """F:L3246: '(in the case of a bodily appendage) numbed'."""
    punch = {"task": {"score": 12, "bef": 5}, "use": {"weapon": FIST, "strength": 12}}
    body = {"attacker": {"melee": punch}, "defense": {"parry": PARRY_TO_DISARM},
            "aim": "chest", "dice": {"values": [40, 2]}}  # fmt: skip
    found = run("attack", body)
    assert (found.attack_qr, found.defense_qr, found.attacker_disarmed) == (4, 1, "numbed")


def test_the_odds_of_a_disarming_parry():
    """Against a QR3 attack the SC-36 parry to disarm must be QR1 or QR2: rolls 1-7, 7%."""
    body = {"attacker": {"qr": 3}, "defense": {"parry": PARRY_TO_DISARM}, "damage_class": "DC8",
            "aim": "chest"}  # fmt: skip
    found = {row.outcome: Fraction(row.exact) for row in odds("attack", body).attacker_disarmed}
    assert found == {"no": Fraction(93, 100), "lost": Fraction(7, 100)}
