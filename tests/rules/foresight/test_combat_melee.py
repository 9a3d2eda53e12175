"""Melee combat (catalogue part 2, #55-#58, #64, #67, #68, #71-#73): weapons, the attack,
parry and dodge rolls, a defence against an attack, disarms, knockouts and knockbacks.

Worked examples are the catalogue's section 3 rows (X26, X26b, X32) with their seed lines
(F:L<n>); odds are compared with brute force over every D100 face (the QR read by the test
oracle's `qr`, the blocking table transcribed below from catalogue #58) and with section 4
(Q1, Q6)."""

from fractions import Fraction
from typing import Any

import pytest

from service.rules.foresight.combat.melee.situations import (
    ATTACK_MODIFIERS,
    DODGE_MODIFIERS,
    PARRY_MODIFIERS,
)
from service.rules.foresight.combat.options import DefenseOptions
from service.rules.model import InputError
from tests.rules.foresight.calls import by_qr, odds, run
from tests.rules.foresight.oracle import blocked_distribution, qr

QRS = (1, 2, 3, 4, 7, 10)
#: Catalogue #58, attack QR (rows) against defence QR (columns QR1 2 3 4 7 10), F:L1511-1519.
BLOCKING = {
    1: (7, 4, 3, 2, 1, 1),
    2: (7, 7, 4, 3, 2, 1),
    3: (7, 7, 7, 4, 3, 2),
    4: (7, 7, 7, 7, 4, 3),
    7: (7, 7, 7, 7, 7, 4),
    10: (10, 10, 10, 10, 10, 10),
}


def block(attack: int, defense: int, botch_helps: bool = True) -> int:
    if defense == 10 and not botch_helps:
        return attack
    return BLOCKING[attack][QRS.index(defense)]


def qr_odds(sc: Fraction | int) -> dict[int, Fraction]:
    """Each QR of the 100 faces against `sc`."""
    found: dict[int, Fraction] = {}
    for face in range(1, 101):
        q = qr(face, sc)
        found[q] = found.get(q, Fraction(0)) + Fraction(1, 100)
    return found


#: The ease-factor ladder (F:L249-258): rung 0 is EF 0.
LADDER = [Fraction(0), Fraction(1, 4), Fraction(1, 2), *map(Fraction, range(1, 16))]


def sc_of(score: int, bef: int, total: int) -> Fraction:
    """SC = score x EF, the BEF moved `total` rungs and clamped, rounded half up (F:L1340)."""
    rung = min(len(LADDER) - 1, max(0, LADDER.index(Fraction(bef)) + total))
    exact = score * LADDER[rung]
    return Fraction(int(exact + Fraction(1, 2)))


def modifiers(result: Any) -> dict[str, int]:
    return {term.source: term.value for term in result.modifiers}


def error(name: str, payload: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as caught:
        run(name, payload)
    return caught.value


# --- weapons (#72, #73) ------------------------------------------------------------------

LONGSWORD = {"name": "Sabre/Longsword", "normal": {"pm": 1, "dc": "+4m"}, "parry": 1, "draw": 3,
             "mass_kg": 1.25}  # fmt: skip
HAND_AND_A_HALF = {"name": "Hand and a Half", "hands": "1-2",
                   "normal": {"pm": 0, "dc": "+4m"}, "reach": {"pm": -1, "dc": "+3m"},
                   "parry": -1, "draw": 4, "mass_kg": 2}  # fmt: skip
STAFF = {"name": "Staff", "hands": "1-2", "close": {"pm": 0, "dc": "0"},
         "normal": {"pm": 0, "dc": "+2m"}, "reach": {"pm": -1, "dc": "+1m"}, "parry": 0,
         "draw": 3, "mass_kg": 3}  # fmt: skip
TWO_HANDED_SWORD = {"name": "Two-Handed Sword", "hands": "2",
                    "normal": {"pm": 0, "dc": "+6m"}, "reach": {"pm": 0, "dc": "+5m"},
                    "parry": 0, "draw": 4, "mass_kg": 3}  # fmt: skip
UNARMED = {"name": "Unarmed", "close": {"pm": 0, "dc": "+0m"}, "normal": {"pm": 0, "dc": "+0m"},
           "parry": -2, "unarmed": True}  # fmt: skip
UNARMED_LETHAL = {"name": "Unarmed Lethal", "close": {"pm": -1, "dc": "+2m"},
                  "normal": {"pm": -1, "dc": "+2m"}, "unarmed": True}  # fmt: skip
#: Amy's briefcase (F:L3730): 4 kg, rated an improvised heavy club. The Club row (F:L3758:
#: close -1 +2m, normal 0 +2m, parry -1) with Heavy (normal DC +1) and Improvised (-1 to
#: every column, F:L3812, F:L3815). Taken as a (2) weapon: no two-hand bonus.
BRIEFCASE = {"name": "Briefcase (improvised heavy club)", "hands": "2",
             "close": {"pm": -3, "dc": "+1m"}, "normal": {"pm": -1, "dc": "+2m"},
             "parry": -2, "mass_kg": 4}  # fmt: skip


def test_x32_minimum_strength_one_handed() -> None:
    """X32 (F:L3730): the 4 kg briefcase one-handed needs ST 20 (4 x 5); Amy's ST 7 is 13
    short, -5 (a fraction of three counts as three)."""
    found = run("weapon/min-strength", {"mass_kg": 4, "strength": 7})
    assert Fraction(found.strength_required.exact) == 20
    assert Fraction(found.shortfall.exact) == 13
    assert found.penalty == -5


def test_x32_minimum_strength_two_handed() -> None:
    """X32 (F:L3730): two-handed it needs ST 12 (4 x 3): 5 short, -2."""
    found = run("weapon/min-strength", {"mass_kg": 4, "two_handed": True, "strength": 7})
    assert Fraction(found.strength_required.exact) == 12
    assert found.penalty == -2


def test_x32_briefcase_attack_is_minus_three() -> None:
    """X32 (F:L3730-3732): -2 for its weight and -1 for the improvised modification, -3 in
    all, on Amy's attack from behind (+2, F:L3134)."""
    attack = run("melee/attack", {
        "task": {"score": 10, "bef": 3},
        "use": {"weapon": BRIEFCASE, "strength": 7},
        "situations": [{"situation": "attacker_behind"}],
        "dice": {"values": [50]},
    })  # fmt: skip
    terms = modifiers(attack)
    weapon = terms["Briefcase (improvised heavy club) PM (normal)"]
    assert (terms["strength shortfall"], weapon) == (-2, -1)
    assert terms["Attacker is behind defender"] == 2
    assert attack.modifier_total == -1


@pytest.mark.parametrize(
    ("mass", "two", "strength", "penalty"),
    [(1, False, 5, 0), (1, False, 4, -1), (1, False, 2, -1), (1, False, 1, -2), (2, True, 6, 0),
     (1.25, False, 6, -1), (1.25, False, 7, 0), (0.5, False, 1, -1)],
)  # fmt: skip
def test_minimum_strength_rounds_each_part_of_three_up(
    mass: float, two: bool, strength: int, penalty: int
) -> None:
    """-1 for each three points or fraction of three (F:L3730): 1 short is -1, 3 short -1,
    4 short -2; a 1.25 kg sword needs 6.25 one-handed, so ST 6 is -1."""
    found = run("weapon/min-strength", {"mass_kg": mass, "two_handed": two, "strength": strength})
    required = Fraction(str(mass)) * (3 if two else 5)
    assert Fraction(found.strength_required.exact) == required
    assert found.penalty == penalty


def test_profile_of_a_longsword() -> None:
    """ST 9 is UCDC 2 (F:L497); a longsword's +4m at normal range (F:L3745) is DC 6m, one
    wind-up makes it 7m (F:L3024); its parry +1 and draw 3 are the row's."""
    found = run("melee/weapon-profile", {"weapon": LONGSWORD, "strength": 9, "wind_ups": 1})
    assert (found.ucdc, found.damage_class, found.dc_modifier) == ("2", "+4m", 1)
    assert (Fraction(found.dc.exact), found.dc_written) == (7, "7m")
    assert (found.pm, found.parry, found.draw, found.two_handed) == (1, 1, 3, False)


@pytest.mark.parametrize(
    ("weapon", "range_", "two", "pm", "dc"),
    [(HAND_AND_A_HALF, "normal", True, 1, 7), (HAND_AND_A_HALF, "reach", True, 0, 6),
     (HAND_AND_A_HALF, "normal", False, 0, 6), (STAFF, "close", True, 0, 3),
     (STAFF, "close", None, 0, 2), (TWO_HANDED_SWORD, "normal", None, 0, 8)],
)  # fmt: skip
def test_two_hands_on_a_one_or_two_handed_weapon(
    weapon: dict, range_: str, two: bool | None, pm: int, dc: int
) -> None:
    """A (1-2) weapon in two hands: +1 PM and +1 DC at normal and reach, +1 DC at close
    (F:L3720); a (2) weapon's row already is its two-handed use. UCDC 2 (ST 9)."""
    found = run("melee/weapon-profile",
                {"weapon": weapon, "range": range_, "two_handed": two, "strength": 9})  # fmt: skip
    assert (found.pm, Fraction(found.dc.exact)) == (pm, dc)


def test_numbed_and_exoskeleton() -> None:
    """Numbed: -1 to hit and DC (F:L3247); an exoskeleton adds to unarmed DC (F:L3966)."""
    body = {"weapon": UNARMED, "strength": 13, "numbed": True, "exoskeleton_dc": 2}
    found = run("melee/weapon-profile", body)
    assert found.pm == -1
    assert Fraction(found.dc.exact) == 3 + 0 - 1 + 2
    assert found.strength_required is None


def test_fractional_ucdc_is_exact() -> None:
    """ST 5 is UCDC 1/2 (F:L495): a dagger's +2m is DC 5/2."""
    dagger = {"name": "Dagger", "close": {"pm": 1, "dc": "+2m"}, "normal": {"pm": -1, "dc": "+2m"},
              "parry": -1, "draw": 1, "mass_kg": 0.5}  # fmt: skip
    found = run("melee/weapon-profile", {"weapon": dagger, "range": "close", "strength": 5})
    assert (found.dc.exact, found.dc_written, found.pm) == ("5/2", "5/2m", 1)


@pytest.mark.parametrize(
    ("payload", "loc"),
    [({"weapon": LONGSWORD, "range": "close", "strength": 9}, ("range",)),
     ({"weapon": LONGSWORD, "two_handed": True, "strength": 9}, ("two_handed",)),
     ({"weapon": TWO_HANDED_SWORD, "two_handed": False, "strength": 9}, ("two_handed",)),
     ({"weapon": LONGSWORD, "exoskeleton_dc": 1, "strength": 9}, ("exoskeleton_dc",)),
     ({"weapon": {**LONGSWORD, "normal": {"pm": 1, "dc": "2x4m"}}, "strength": 9},
      ("weapon", "normal", "dc"))],
)  # fmt: skip
def test_weapon_misuse_names_the_field(payload: dict, loc: tuple) -> None:
    """'-' in the table: the weapon cannot be used at that range; a one-handed weapon has no
    two-handed use and a (2) weapon no one-handed one; an exoskeleton adds to unarmed blows."""
    assert error("melee/weapon-profile", payload).loc == loc


def test_long_range_is_not_supported() -> None:
    """AMB2-42: long range (3 m) has no data (F:L3638); the range is not accepted."""
    op_input = {"weapon": LONGSWORD, "range": "long", "strength": 9}
    with pytest.raises(ValueError, match="range"):
        run("melee/weapon-profile", op_input)


# --- the attack (#55) --------------------------------------------------------------------

HTH = {"score": 12, "bef_formula": {"term": "G", "plus": 0, "familiarity": 3}}


def attack(**fields: Any) -> dict[str, Any]:
    return {"task": HTH, "use": {"weapon": LONGSWORD, "strength": 9},
            "dice": {"seed": 1}, **fields}  # fmt: skip


def test_attack_names_every_modifier() -> None:
    """HTH Combat at BEF G (G familiarity 3: BEF 3), the longsword's +1 at normal range, -2
    per attack already made with it (F:L3022), a stunned defender +1, aiming at the head -4
    (F:L3124-3149): -7 in all, EF 3 moved 7 rungs down to 0."""
    found = run("melee/attack", attack(attacks_made=2, aim="head",
                                       situations=[{"situation": "defender_stunned"}]))  # fmt: skip
    assert modifiers(found) == {
        "Sabre/Longsword PM (normal)": 1,
        "earlier attacks with this weapon (2)": -4,
        "Defender is stunned": 1,
        "Attacker is aiming for the head": -4,
    }
    assert found.bef == 3
    assert found.impossible


@pytest.mark.parametrize(
    ("aim", "value"),
    [("legs", -1), ("left_leg", -1), ("head", -4), ("torso", 0), ("chest", 0), ("right_arm", -2),
     ("random", 0)],
)  # fmt: skip
def test_aim(aim: str, value: int) -> None:
    """Legs -1, head -4, torso (chest or abdomen) +0, a specific arm -2 (F:L3144-3149)."""
    found = run("melee/attack", attack(aim=aim))
    assert found.modifier_total == 1 + value


def test_the_situation_choices_are_the_tables_rows() -> None:
    """Each choice a caller has is a row of its table; the rest are computed or aimed."""
    from service.rules.foresight.combat.melee.attack import AttackSituation
    from service.rules.foresight.combat.melee.defense import DodgeSituation, ParrySituation

    for choices, rows in ((AttackSituation, ATTACK_MODIFIERS), (ParrySituation, PARRY_MODIFIERS),
                          (DodgeSituation, DODGE_MODIFIERS)):  # fmt: skip
        chosen = {key for key, row in rows.items() if row.group not in ("computed", "aim")}
        assert {choice.value for choice in choices} == chosen


def test_every_situation_row_is_served() -> None:
    """Each row of the three tables is a choice or is computed; the table's values."""
    assert len(ATTACK_MODIFIERS) == 22
    assert len(PARRY_MODIFIERS) == 16
    assert len(DODGE_MODIFIERS) == 11
    small = ATTACK_MODIFIERS["defender_small"]
    assert (small.low, small.high) == (-3, -1)
    assert DODGE_MODIFIERS["poor_light"].high == 0


@pytest.mark.parametrize(
    ("situation", "modifier", "value"),
    [("defender_moving_quickly", None, -1), ("defender_moving_quickly", -3, -3),
     ("defender_large", 3, 3), ("poor_light", -2, -2), ("favors_weapon_class", 2, 2),
     ("dark", None, -4)],
)  # fmt: skip
def test_ranged_situations_take_the_gms_pick(
    situation: str, modifier: int | None, value: int
) -> None:
    """'-1 to -3' and the like take the value chosen, or the first printed (F:L3135-3141)."""
    found = run("melee/attack", attack(situations=[{"situation": situation, "modifier": modifier}]))
    assert found.modifier_total == 1 + value


@pytest.mark.parametrize(
    ("situations", "loc"),
    [([{"situation": "defender_moving_quickly", "modifier": -4}], ("situations", 0, "modifier")),
     ([{"situation": "dark", "modifier": -3}], ("situations", 0, "modifier")),
     ([{"situation": "defender_stunned"}, {"situation": "defender_stunned"}],
      ("situations", 1, "situation")),
     ([{"situation": "attacker_kneeling"}, {"situation": "attacker_prone"}],
      ("situations", 1, "situation")),
     ([{"situation": "poor_light"}, {"situation": "dark"}], ("situations", 1, "situation"))],
)  # fmt: skip
def test_situations_are_validated(situations: list, loc: tuple) -> None:
    assert error("melee/attack", attack(situations=situations)).loc == loc


def test_weapon_that_cannot_strike_at_the_range() -> None:
    use = {"weapon": LONGSWORD, "strength": 9, "range": "reach"}
    assert error("melee/attack", attack(use=use)).loc == ("use", "range")


def test_strength_shortfall_and_numbed_hit_the_attack() -> None:
    """ST 5 with a 1.25 kg sword (6.25 needed): -1 (F:L3732); numbed -1 (F:L3247)."""
    found = run("melee/attack", attack(use={"weapon": LONGSWORD, "strength": 5, "numbed": True}))
    assert modifiers(found)["strength shortfall"] == -1
    assert modifiers(found)["numbed appendage"] == -1


@pytest.mark.parametrize(("aim", "made", "behind"), [("torso", 0, False), ("head", 1, True)])
def test_attack_odds_equal_brute_force(aim: str, made: int, behind: bool) -> None:
    situations = [{"situation": "attacker_behind"}] if behind else []
    request = attack(aim=aim, attacks_made=made, situations=situations)
    total = 1 + {"torso": 0, "head": -4}[aim] - 2 * made + (2 if behind else 0)
    expected = qr_odds(sc_of(12, 3, total))
    assert by_qr(odds("melee/attack", request).qr) == expected


def test_attack_odds_match_q1() -> None:
    """Catalogue Q1, SC 60: 0.06 0.06 0.18 0.30 0.36 0.04 (score 12 at EF 5: BEF 3, the
    longsword's +1 and favouring its class +1)."""
    found = by_qr(odds("melee/attack", attack(situations=[{"situation": "favors_weapon_class"}],
                                              aim="torso")).qr)  # fmt: skip
    assert [float(found.get(q, 0)) for q in QRS] == [0.06, 0.06, 0.18, 0.30, 0.36, 0.04]


# --- parry (#56) and dodge (#57) ---------------------------------------------------------


def parry(**fields: Any) -> dict[str, Any]:
    return {"task": {"score": 12, "bef": 3}, "use": {"weapon": LONGSWORD, "strength": 9},
            "dice": {"seed": 1}, **fields}  # fmt: skip


@pytest.mark.parametrize(("attacker_dc", "value"), [(9, -2), (8, -1), (7, -1), (6, 0), (3, 0),
                                                    (6.5, 0), (12, -3)])  # fmt: skip
def test_parry_dc_comparison(attacker_dc: float, value: int) -> None:
    """-(difference/2) where the attacker's DC exceeds the defender's (F:L3161), half up:
    the longsword at ST 9 is DC 6; DC 7 is 1/2 -> -1, DC 9 is 3/2 -> -2, DC 6.5 is 1/4 -> 0."""
    found = run("melee/parry", parry(attacker_dc=attacker_dc))
    assert found.defender_dc == 6
    assert found.modifier_total == 1 + value


def test_parry_counts_earlier_parries_feints_and_disarm() -> None:
    """-2 per earlier parry (F:L3170), -1 per feint (F:L3023), -3 to disarm (AMB2-53)."""
    found = run("melee/parry", parry(parries_made=2, feints=1, disarm=True))
    assert found.modifier_total == 1 - 4 - 1 - 3
    bonus = run("melee/parry", parry(parries_made=2, bonus_parry=True))
    assert bonus.modifier_total == 1
    plain = run("melee/parry", parry(disarm=True, options={"parry_disarm_pm": 0}))
    assert plain.modifier_total == 1


def test_unarmed_parry() -> None:
    """Unarmed -2 (F:L3764); Unarmed Lethal cannot parry (F:L3766: '-')."""
    found = run("melee/parry", parry(use={"weapon": UNARMED, "range": "close", "strength": 9}))
    assert found.modifier_total == -2
    lethal = parry(use={"weapon": UNARMED_LETHAL, "strength": 9})
    assert error("melee/parry", lethal).loc == ("use", "weapon", "parry")


@pytest.mark.parametrize("situation", ["attacker_behind", "defender_unaware"])
def test_cannot_parry(situation: str) -> None:
    """'Cannot Parry!' (F:L3162-3163) is a 422 naming the situation."""
    found = error("melee/parry", parry(situations=[{"situation": situation}]))
    assert found.loc == ("situations", 0, "situation")
    assert "cannot parry" in found.message


def test_parry_situations_and_strength() -> None:
    """Parrying off-hand with a shield -1, the attacker prone +3 (F:L3165, F:L3169); a 4 kg
    medium shield at ST 9 one-handed needs 20: -4 (F:L3732)."""
    shield = {"name": "Medium Shield", "normal": {"pm": -1, "dc": "+1m"}, "parry": 3, "draw": 5,
              "mass_kg": 4}  # fmt: skip
    found = run("melee/parry", parry(use={"weapon": shield, "strength": 9}, situations=[
        {"situation": "off_hand_shield"}, {"situation": "attacker_prone"}]))  # fmt: skip
    assert modifiers(found) == {"Medium Shield parry": 3, "strength shortfall": -4,
                                "Defender is parrying with a shield in his/her off-hand": -1,
                                "Attacker is prone": 3}  # fmt: skip


def test_parry_at_a_range_the_weapon_cannot_strike() -> None:
    """A rapier cannot strike at close range but parries there, its DC its normal one."""
    rapier = {"name": "Rapier", "normal": {"pm": 1, "dc": "+3m2p"}, "parry": 1, "draw": 3,
              "mass_kg": 1}  # fmt: skip
    found = run("melee/parry", parry(use={"weapon": rapier, "range": "close", "strength": 9},
                                     attacker_dc=9))  # fmt: skip
    assert found.defender_dc == 5
    assert found.modifier_total == 1 - 2


def test_parry_odds_equal_brute_force() -> None:
    request = parry(attacker_dc=10, parries_made=1)
    assert by_qr(odds("melee/parry", request).qr) == qr_odds(sc_of(12, 3, 1 - 2 - 2))


def dodge(**fields: Any) -> dict[str, Any]:
    return {"task": {"score": 10}, "skill": "agility", "dice": {"seed": 1}, **fields}


def test_dodge_with_agility_takes_the_attribute_bef() -> None:
    """An AG dodge with no BEF takes the attribute BEF, 7 (AMB-01): SC 70."""
    found = run("melee/dodge", dodge())
    assert (found.bef, found.success_chance) == (7, 70)
    assert found.unbalanced


@pytest.mark.parametrize(
    ("fields", "total", "retreat"),
    [({"giving_ground": "giving_ground"}, 1, 1), ({"giving_ground": "desperately"}, 3, 2),
     ({"giving_ground": "desperately", "drop_to_squat": True}, 4, 2),
     ({"skill": "acrobatics", "task": {"score": 6, "bef": 5}}, 2, 0),
     ({"skill": "hth_combat", "task": {"score": 12, "bef": 3}, "specializations": 2}, 2, 0),
     ({"dodges_made": 2, "feints": 2}, -6, 0), ({"dodges_made": 2, "bonus_dodge": True}, 0, 0),
     ({"situations": [{"situation": "attack_from_behind"}, {"situation": "poor_light"}]}, -3, 0),
     ({"situations": [{"situation": "poor_light", "modifier": -1}]}, -1, 0)],
)  # fmt: skip
def test_dodge_modifiers(fields: dict, total: int, retreat: int) -> None:
    """Giving ground +1 (1 m), desperately +3 instead (2 m), dropping to a squat +1 with
    either; Acrobatics +2; HTH specializations +1 each, at most +2; -2 per earlier dodge
    unless a bonus dodge, -1 per feint; poor light 0 to -1 (F:L3098-3100, F:L3174-3187)."""
    found = run("melee/dodge", dodge(**fields))
    assert found.modifier_total == total
    assert found.retreat_m == retreat


def test_specialization_helps_hth_dodges_only() -> None:
    assert error("melee/dodge", dodge(specializations=1)).loc == ("specializations",)


def test_dodge_odds_equal_brute_force() -> None:
    request = dodge(giving_ground="desperately", dodges_made=1)
    assert by_qr(odds("melee/dodge", request).qr) == qr_odds(sc_of(10, 7, 1))


# --- the defence against the attack (#58) ------------------------------------------------

#: (score, BEF) giving each SC of the catalogue's Q6 at EF = BEF.
SC = {30: (6, 5), 40: (8, 5), 45: (9, 5), 50: (10, 5), 60: (12, 5), 75: (15, 5), 90: (18, 5),
      100: (20, 5), 120: (20, 6)}  # fmt: skip


def side(sc: int) -> dict:
    score, bef = SC[sc]
    return {"task": {"score": score, "bef": bef}}


def brute_final(attack_sc: int, defense_sc: int, botch_helps: bool = True) -> dict[int, Fraction]:
    """Every pair of D100 faces, the attack blocked by the defence (catalogue #58)."""
    found: dict[int, Fraction] = {}
    for qa, pa in qr_odds(attack_sc).items():
        for qd, pd in qr_odds(defense_sc).items():
            final = block(qa, qd, botch_helps)
            found[final] = found.get(final, Fraction(0)) + pa * pd
    return found


Q6 = [
    (30, 30, "0.0231 0.0297 0.0744 0.1557", "0.2829", "0.2388", "0.3000"),
    (50, 30, "0.0385 0.0495 0.1240 0.2175", "0.4295", "0.3980", "0.5000"),
    (50, 50, "0.0275 0.0425 0.1000 0.1825", "0.3525", "0.3300", "0.5000"),
    (60, 40, "0.0396 0.0552 0.1344 0.2292", "0.4584", "0.4368", "0.6000"),
    (75, 50, "0.0390 0.0645 0.1485 0.2525", "0.5045", "0.4935", "0.7500"),
    (90, 45, "0.0549 0.0810 0.1917 0.3042", "0.6318", "0.6264", "0.9000"),
    (100, 100, "0.0010 0.0500 0.0820 0.1919", "0.3249", "0.3249", "0.9900"),
    (120, 60, "0.0528 0.0936 0.2028 0.2776", "0.6268", "0.6264", "0.9900"),
]


@pytest.mark.parametrize(("a", "d", "finals", "hit", "no_botch", "undefended"), Q6)
def test_q6(a: int, d: int, finals: str, hit: str, no_botch: str, undefended: str) -> None:
    """Catalogue Q6, every column: P(final QR1-QR4), P(hit), P(hit) when a botched defence
    does not help (AMB2-18), P(hit) undefended (the attack's own success)."""
    found = odds("melee/defense-resolve", {"attack": side(a), "defense": side(d)})
    final = by_qr(found.final.qr)
    assert [f"{float(final.get(q, 0)):.4f}" for q in (1, 2, 3, 4)] == finals.split()
    assert f"{float(Fraction(found.hit.exact)):.4f}" == hit
    assert final == brute_final(a, d)
    assert final == {q: p for q, p in blocked_distribution(a, d).items() if p}
    options = {"defense_botch_helps_attack": False}
    off = odds("melee/defense-resolve", {"attack": side(a), "defense": side(d), "options": options})
    assert f"{float(Fraction(off.hit.exact)):.4f}" == no_botch
    assert by_qr(off.final.qr) == brute_final(a, d, botch_helps=False)
    assert f"{float(Fraction(found.attack.summary.success.exact)):.4f}" == undefended


@pytest.mark.parametrize("mode", ["table", "text_formula"])
@pytest.mark.parametrize("a", QRS)
@pytest.mark.parametrize("d", [7, 10])
def test_failed_defense_leaves_the_attack_when_it_may_not_help(mode: str, a: int, d: int) -> None:
    """With defense_botch_helps_attack false a failed parry or dodge (QR7 or QR10) leaves the
    attack as rolled: only 'a successful parry or dodge will degrade' it (F:L3189), so the
    blocking text's (5 - QR7) = -2 notches (F:L1507) must not boost it either (AMB2-18)."""
    options = {"defense_botch_helps_attack": False, "blocking_mode": mode}
    body = {"attack": {"qr": a}, "defense": {"qr": d}, "options": options}
    assert run("melee/defense-resolve", body).final.qr == a
    assert by_qr(odds("melee/defense-resolve", body).final.qr)[a] == 1


@pytest.mark.parametrize("a", QRS)
@pytest.mark.parametrize("d", QRS)
def test_defense_resolve_every_pair_of_qrs(a: int, d: int) -> None:
    """The 36 cells of the blocking table (catalogue #58, F:L1511-1519)."""
    found = run("melee/defense-resolve", {"attack": {"qr": a}, "defense": {"qr": d}})
    assert found.final.qr == block(a, d)
    assert found.hit == (block(a, d) <= 4)


@pytest.mark.parametrize(
    ("a", "d", "table", "text"),
    [(4, 7, 4, 2), (3, 7, 3, 1), (7, 7, 7, 7), (4, 10, 3, 1), (7, 10, 4, 1)],
)
def test_a_failed_defence_under_each_blocking_mode(a: int, d: int, table: int, text: int) -> None:
    """AMB2-18 with AMB-04: the table lets only a QR10 defence lift the attack, one notch
    (F:L1511-1519); the text drops it (5 - defending QR) notches (F:L1507), so a QR7 parry
    lifts a QR4 two notches to QR2 and a QR10 one lifts a QR7 to QR1; an equal defence still
    negates. The option's description says so for both modes."""
    body = {"attack": {"qr": a}, "defense": {"qr": d}}
    assert run("melee/defense-resolve", body).final.qr == table
    body["options"] = {"blocking_mode": "text_formula"}
    assert run("melee/defense-resolve", body).final.qr == text
    description = DefenseOptions.model_fields["defense_botch_helps_attack"].description or ""
    assert "text_formula" in description
    assert "two notches" in description


def test_botched_defence_leaves_the_attack_when_the_option_says() -> None:
    """AMB2-18 off: a QR10 parry leaves a QR7 miss a miss (the table would make it QR4)."""
    body = {"attack": {"qr": 7}, "defense": {"qr": 10}}
    assert run("melee/defense-resolve", body).final.qr == 4
    body["options"] = {"defense_botch_helps_attack": False}
    assert run("melee/defense-resolve", body).final.qr == 7


def test_defense_resolve_rolls_attack_then_defence() -> None:
    """SC 70 against SC 48: 23 is QR3, 31 is QR3; an equal defence stops the attack."""
    found = run("melee/defense-resolve", {"attack": {"task": {"score": 14, "bef": 5}},
                                          "defense": {"task": {"score": 12, "bef": 4}},
                                          "dice": {"values": [23, 31]}})  # fmt: skip
    assert (found.attack_qr, found.defense_qr, found.final.qr, found.hit) == (3, 4, 4, True)


# --- disarm (#67) ------------------------------------------------------------------------


def test_x26_equal_qrs_block_but_do_not_disarm() -> None:
    """X26 (F:L3247): Ruggiero's attack QR3, Rodomont's parry to disarm QR3: the parry
    blocks the attack but, not superior, does not disarm."""
    found = run("melee/disarm", {"attack": {"qr": 3}, "parry": {"qr": 3, "disarm": True}})
    assert (found.final.qr, found.damage) == (7, False)
    assert (found.attacker_disarmed, found.defender_disarmed) == ("no", "no")


def test_x26b_attack_to_disarm_against_parry_to_disarm() -> None:
    """X26b (F:L3247): Rodomont's attack to disarm QR2 against Ruggiero's parry to disarm
    QR3: no damage, and Ruggiero's sword is knocked away."""
    found = run("melee/disarm", {"attack": {"qr": 2, "disarm": True},
                                 "parry": {"qr": 3, "disarm": True}})  # fmt: skip
    assert found.final.qr == 4  # the blow got through the parry, but does no damage
    assert (found.damage, found.defender_disarmed, found.attacker_disarmed) == (False, "lost", "no")


def test_parry_to_disarm_numbs_an_appendage() -> None:
    """A superior parry to disarm against a fist numbs it (F:L3246)."""
    found = run("melee/disarm", {"attack": {"qr": 4, "appendage": True},
                                 "parry": {"qr": 2, "disarm": True}})  # fmt: skip
    assert (found.attacker_disarmed, found.final.qr, found.damage) == ("numbed", 7, False)


def test_disarm_pm_on_rolled_sides() -> None:
    """The table's -3 on the attack to disarm and (AMB2-53) the parry to disarm."""
    found = run("melee/disarm", {"attack": {"task": {"score": 15, "bef": 5}, "disarm": True},
                                 "parry": {"task": {"score": 13, "bef": 5}, "disarm": True},
                                 "dice": {"values": [12, 30]}})  # fmt: skip
    assert modifiers(found.attack) == {"attack to disarm": -3}
    assert modifiers(found.parry) == {"parry to disarm": -3}
    # BEF 5 three rungs down is EF 2 (F:L249-258).
    assert (found.attack.success_chance, found.parry.success_chance) == (30, 26)


@pytest.mark.parametrize(
    ("attack_disarm", "parry_disarm"), [(True, True), (False, True), (True, False)]
)
def test_disarm_odds_equal_brute_force(attack_disarm: bool, parry_disarm: bool) -> None:
    """Every pair of faces: a disarm succeeds when its side succeeds and is strictly better;
    an attack to disarm never damages; otherwise the blocked attack hits on QR4 or better.
    BEF 6 three rungs down (a disarm's -3) is EF 3."""
    body = {"attack": {"task": {"score": 15, "bef": 6}, "disarm": attack_disarm},
            "parry": {"task": {"score": 13, "bef": 6}, "disarm": parry_disarm}}  # fmt: skip
    found = odds("melee/disarm", body)
    lost = {"defender": Fraction(0), "attacker": Fraction(0)}
    damage = Fraction(0)
    sc_attack = 15 * (3 if attack_disarm else 6)
    sc_parry = 13 * (3 if parry_disarm else 6)
    for qa, pa in qr_odds(sc_attack).items():
        for qp, pp in qr_odds(sc_parry).items():
            if attack_disarm and qa <= 4 and qa < qp:
                lost["defender"] += pa * pp
            if parry_disarm and qp <= 4 and qp < qa:
                lost["attacker"] += pa * pp
            if not attack_disarm and block(qa, qp) <= 4:
                damage += pa * pp
    defender = {row.outcome: Fraction(row.exact) for row in found.defender_disarmed}
    attacker = {row.outcome: Fraction(row.exact) for row in found.attacker_disarmed}
    assert (defender.get("lost", 0), attacker.get("lost", 0)) == (
        lost["defender"],
        lost["attacker"],
    )
    assert Fraction(found.damage.exact) == damage


# --- knockout (#64), knockback (#68), strike variants (#71) ------------------------------

BLOW = {"damage_class": "+2m", "ucdc": 2}


@pytest.mark.parametrize(
    ("qr_", "behind", "blow", "outcome", "would_be"),
    [(1, False, BLOW, "unconscious", "2"), (2, False, BLOW, "unconscious", "2"),
     (3, False, BLOW, "miss", "1"), (3, True, BLOW, "unconscious", "1"),
     (4, True, BLOW, "miss", "1"), (7, False, BLOW, "miss", "miss"),
     (2, False, {"damage_class": "DC1"}, "pain_resistance", "S"),
     (2, False, {"damage_class": "DC4", "armor": "4"}, "pain_resistance", "S"),
     (2, False, {"damage_class": "DC4", "armor": "5"}, "no_effect", "none"),
     (2, False, {"damage_class": "DC4", "armor": "3A"}, "pain_resistance", "S"),
     (2, False, {**BLOW, "location": "head"}, "unconscious", "3")],
)  # fmt: skip
def test_knockout(qr_: int, behind: bool, blow: dict, outcome: str, would_be: str) -> None:
    """QR2 needed (QR3 from behind), else a miss; then the would-be damage: a wound level or
    more knocks out, an S is treated normally, none does nothing (F:L3241). DC4 at QR2 is
    round(0.75 x 4 / 2) = 2 (F:L2632); DC1 at QR2 is S; DC 4 against armor 4 is DC 0 at
    QR2: S by the table (F:L2642); against 5 it is below 0: nothing; against 3A it is DC1,
    at QR2 round(0.75 x 1 / 2) = 0: S."""
    found = run("melee/knockout", {"attack": {"qr": qr_}, "from_behind": behind, "blow": blow})
    assert (found.outcome, found.would_be) == (outcome, would_be)


def test_knockout_odds_equal_brute_force() -> None:
    body = {"attack": {"task": {"score": 14, "bef": 5}}, "from_behind": True, "blow": BLOW}
    found = {row.outcome: Fraction(row.exact) for row in odds("melee/knockout", body).outcome}
    table = qr_odds(70)
    # DC4: QR1 2, QR2 2 (0.75 x 2 = 1.5 -> 2), QR3 1: all knock out; QR4 and worse miss.
    assert found == {"unconscious": table[1] + table[2] + table[3],
                     "miss": table[4] + table[7] + table[10]}  # fmt: skip


def knockback_body(**fields: Any) -> dict[str, Any]:
    return {"attack": {"task": {"score": 14, "bef": 5}},
            "blow": {"damage_class": "+1m", "ucdc": 4, "location": "chest"},
            "balance": {"task": {"score": 11}}, **fields}  # fmt: skip


@pytest.mark.parametrize(
    ("faces", "pushed", "stance", "rolled"),
    [([3, 95], "2", "kneeling", True), ([3, 100], "2", "prone", True),
     ([3, 5], "2", "standing", True), ([10, 50], "1", "standing", True),
     ([30], "0", "standing", False),
     ([80], "miss", "standing", False)],
)  # fmt: skip
def test_knockback(faces: list, pushed: str, stance: str, rolled: bool) -> None:
    """DC 5 at SC 70: QR1 (3) 3 WL, pushed 3 - 1 = 2 m; QR2 (10) 2 WL, 1 m; QR3 (30) 1 WL,
    not more than DS 1: not pushed, no roll (AMB2-52). The AG roll (SC 77, BEF 7): 95 QR7
    kneeling, 100 QR10 prone (F:L3248)."""
    found = run("melee/knockback", knockback_body(dice={"values": faces}))
    assert (found.pushed_m, found.stance, found.balance is not None) == (pushed, stance, rolled)
    assert found.range_m == (None if pushed == "miss" else 0)


def test_knockback_roll_always() -> None:
    found = run(
        "melee/knockback",
        knockback_body(dice={"values": [30, 95]}, options={"knockback_roll_always": True}),
    )
    assert (found.pushed_m, found.stance) == ("0", "kneeling")


def test_knockback_against_a_larger_scale() -> None:
    """A DS 2 defender is pushed only by damage over 2."""
    body = knockback_body(dice={"values": [3]})
    body["blow"] = {**body["blow"], "ds": 2}
    found = run("melee/knockback", body)
    assert found.pushed_m == "0"


@pytest.mark.parametrize("always", [False, True])
def test_knockback_odds_equal_brute_force(always: bool) -> None:
    found = odds("melee/knockback", knockback_body(options={"knockback_roll_always": always}))
    attack, balance = qr_odds(70), qr_odds(77)
    pushed = {1: "2", 2: "1", 3: "0", 4: "0", 7: "miss", 10: "miss"}
    stance: dict[str, Fraction] = {}
    metres: dict[str, Fraction] = {}
    for qa, pa in attack.items():
        metres[pushed[qa]] = metres.get(pushed[qa], Fraction(0)) + pa
        rolls = qa <= 4 and (pushed[qa] != "0" or always)
        for qb, pb in balance.items() if rolls else [(1, Fraction(1))]:
            s = {7: "kneeling", 10: "prone"}.get(qb, "standing")
            stance[s] = stance.get(s, Fraction(0)) + pa * pb
    assert {r.outcome: Fraction(r.exact) for r in found.pushed_m} == metres
    assert {r.outcome: Fraction(r.exact) for r in found.stance} == stance


@pytest.mark.parametrize(("variant", "pm", "dc"), [("headbutt", -2, "+1m"), ("kick", -1, "+1m"),
                                                   ("lethal_strike", -1, "+1m")])  # fmt: skip
def test_strike_variants(variant: str, pm: int, dc: str) -> None:
    """Headbutt -2, kick -1, lethal strike -1, each DC UCDC+1m (F:L3251-3253)."""
    found = run("melee/strike-variants", {"variant": variant})
    assert (found.pm, found.damage_class) == (pm, dc)
    assert found.line in (3251, 3252, 3253)
