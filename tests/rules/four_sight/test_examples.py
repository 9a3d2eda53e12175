"""The seed's worked examples with table dice (seeds/000, cited as S:L<n>), and the rules
around them: trait choice, expertise, manifestations, combat and injuries."""

from fractions import Fraction
from typing import Any

import pytest

from service.rules.four_sight.checks import check, opposed_check
from service.rules.four_sight.combat import (
    Weapon,
    attack,
    combat_expertise,
    grievous_check,
    turn_order,
)
from service.rules.four_sight.expertise import AFFINITIES, DEFENSIVE_TACTICS
from service.rules.four_sight.manifestations import recovery
from service.rules.four_sight.mooks import mook_horde
from service.rules.model import InputError
from tests.rules.four_sight.rulebook import odds, roller, run

CROSSBOW = {**roller(4, 2, trait_name="intelligence"), "target_number": 7}
COMPUTATION = {"manifestations": ["accelerated_computation"],
               "use_manifestation": "accelerated_computation"}  # fmt: skip


def dice(*values: int) -> dict[str, Any]:
    return {"dice": {"values": list(values)}}


def test_crossbow_cracks_the_safe_barely():
    """S:L171: Int 4 and a security-bypass specialty, d6 + 4 + 2d6 against TN 7; he rolls
    poorly, a final 9: a success, and a margin of 2 is Bare."""
    result = run(check, {**CROSSBOW, **dice(1, 2, 2)})
    assert (result.result, result.margin, result.success) == (9, 2, True)
    assert (result.degree, result.narrator) == ("bare", "gm")
    assert [d.role for d in result.dice] == ["base", "expertise", "expertise"]


def test_crossbow_with_accelerated_computation():
    """S:L173: a check of 14 and a 4 on the manifestation die make 56: 49 over TN 7 is a
    Perfect success and the player narrates."""
    result = run(check, {**CROSSBOW, **COMPUTATION, **dice(4, 3, 3, 4)})
    assert (result.base, result.result, result.margin) == (14, 56, 49)
    assert (result.degree, result.narrator) == ("perfect", "player")
    assert result.manifestations[0].multiplier == 4


def test_an_adverse_episode():
    """S:L140: a 1 on the manifestation die is -20 and unconsciousness, and the
    manifestation is lost until 24 hours of rest."""
    result = run(check, {**CROSSBOW, **COMPUTATION, **dice(4, 3, 3, 1)})
    assert (result.result, result.adverse_episode, result.unconscious) == (-6, True, True)
    assert (result.success, result.failure_margin) == (False, 13)
    assert result.locked_out == ["accelerated_computation"]
    locked = {**CROSSBOW, **COMPUTATION, "locked_out": ["accelerated_computation"]}
    with pytest.raises(InputError) as caught:
        run(check, locked)
    assert caught.value.loc == ("use_manifestation",)
    assert run(recovery, {"hours_rested": 23.5}).available is False
    assert run(recovery, {"hours_rested": 24}).available is True


@pytest.mark.parametrize(("raised_to", "chance"), [(4, Fraction(1, 2)), (5, Fraction(1, 3))])
def test_hurricane_winds_raise_a_stroll(raised_to, chance):
    """E3, S:L130: anyone strolls down the street (TN 1, S:L121), but hurricane-force winds
    may raise the target number to 4 or 5. A TN change, not a check modifier (S-A06): an
    average person (trait 0, S:L119) then makes it on a d6 of 4+ or 5+."""
    stroll = {**roller(0, trait_name="strength"), "target_number": 1}
    assert run(check, {**stroll, **dice(1)}).success is True
    assert Fraction(odds(check, stroll).success.exact) == 1
    windy = {**stroll, "tn_adjustment": raised_to - 1}
    result = run(check, {**windy, **dice(raised_to - 1)})
    assert (result.target_number, result.margin, result.success) == (raised_to, -1, False)
    assert run(check, {**windy, **dice(raised_to)}).success is True
    assert Fraction(odds(check, windy).success.exact) == chance


def test_megabyte_hacks_the_network():
    """S:L181-183: Megabyte (Int 3, affinity) rolls 5 and 2 for 10; the terrorist (Int 1,
    specialty) 11 on his dice for 12 (three dice, S-A15) and wins by 2, a Bare margin. With
    Accelerated Computation and a 4, Megabyte's 40 wins by 28: Excellent."""
    megabyte = roller(3, 1, trait_name="intelligence")
    terrorist = roller(1, 2, trait_name="intelligence")
    plain = run(
        opposed_check, {"aggressor": megabyte, "opponent": terrorist, **dice(5, 2, 4, 4, 3)}
    )
    assert (plain.aggressor.result, plain.opponent.result) == (10, 12)
    assert (plain.winner, plain.margin, plain.degree) == ("opponent", 2, "bare")
    manifest = {**megabyte, **COMPUTATION}
    boosted = run(
        opposed_check, {"aggressor": manifest, "opponent": terrorist, **dice(5, 2, 4, 4, 4, 3)}
    )
    assert (boosted.aggressor.result, boosted.winner) == (40, "aggressor")
    assert (boosted.margin, boosted.degree) == (28, "excellent")


def test_ties_go_to_the_aggressor():
    """S:L179: if the PC's check equals or exceeds the NPC's, the action succeeds."""
    even = roller(0)
    tie = run(opposed_check, {"aggressor": even, "opponent": even, **dice(3, 3)})
    assert (tie.winner, tie.margin) == ("aggressor", 0)
    to_pc = {"opposed_tie_winner": "pc"}
    tie = run(opposed_check, {"aggressor": even, "opponent": even, "pc_side": "opponent",
                              "options": to_pc, **dice(3, 3)})  # fmt: skip
    assert tie.winner == "opponent"


def test_the_higher_trait_applies():
    """S:L136: when the GM rules two traits apply the higher is added (a two-by-four, S:L189)."""
    traits = [{"trait": "dexterity", "score": 2}, {"trait": "strength", "score": 5}]
    result = run(check, {"traits": traits, "target_number": 4, **dice(1)})
    assert (result.trait.trait, result.result) == ("strength", 6)


def test_deep_sight_and_the_flare():
    """S:L144-148: Deep Sight doubles on 5-6; the GM's secret flare die forces a manifestation
    roll on 5-6."""
    deep = run(check, {**roller(2, manifestation="deep_sight"), "target_number": 5,
                       **dice(3, 5)})  # fmt: skip
    assert (deep.base, deep.result) == (5, 10)
    flare = run(check, {**roller(2, manifestation="precognitive_flare"), "target_number": 5,
                        **dice(3, 6, 3)})  # fmt: skip
    assert flare.manifestations[0].gm_only is True
    assert (flare.result, flare.manifestations[1].multiplier) == (15, 3)


def test_combat_explodes_and_injures():
    """S:L191-207: a 6 rolls another die; the margin of 7 is Severe, -3 on every die after."""
    result = run(attack, {"attacker": roller(1), "defender": roller(1), **dice(6, 4, 4)})
    assert [(d.natural, d.exploded_from) for d in result.attack.dice] == [(6, None), (4, 0)]
    assert (result.attack.result, result.defence.result, result.margin) == (11, 5, 6)
    assert (result.hit, result.injury, result.defender_penalty_per_die) == (True, "moderate", 2)
    hurt = run(check, {**roller(3, penalty=3), "target_number": 4, **dice(5)})
    assert (hurt.dice[0].contribution, hurt.result) == (2, 5)


def test_a_grievous_injury_calls_for_a_constitution_check():
    """S:L197-199: a margin of 11 or more is Grievous; Constitution at TN 7 or fall."""
    result = run(attack, {"attacker": roller(5, 2), "defender": roller(0),
                          "defender_constitution": 2, "lethal_attack": True,
                          **dice(5, 5, 5, 1, 2)})  # fmt: skip
    assert (result.margin, result.injury, result.grievous_check_required) == (19, "grievous", True)
    assert result.grievous_check.result == 4
    assert result.grievous_check.fate == "dead"
    con = {**roller(6, trait_name="constitution"), "target_number": 7}
    del con["target_number"]
    assert run(grievous_check, {**con, **dice(1)}).fate == "functions"


def test_the_weapons_are_the_combat_specialties():
    """The weapon a request names is one of the Combat specialties of the catalogue (S:L75)."""
    combat = AFFINITIES[0]
    assert combat.name == "Combat"
    assert [w.value for w in Weapon] + [DEFENSIVE_TACTICS] == combat.specialties


def test_combat_expertise():
    """S:L189: Combat affinity 1 die both ways; weapon specialty 2 attacking with it;
    defensive tactics 2 defending."""

    def dice_for(role: str, held: list[str], weapon: str | None = None) -> int:
        return run(combat_expertise, {"role": role, "expertise": held, "weapon": weapon}).dice

    assert dice_for("attack", ["Combat", "firearms"], "firearms") == 2
    assert dice_for("defence", ["Combat", "firearms"]) == 1
    assert dice_for("defence", ["defensive tactics"]) == 2
    assert dice_for("attack", ["firearms"], "melee weapons") == 0


def test_mooks_and_turn_order():
    """S:L223: the horde is one TN; S:L209: alternating checks among the participants."""
    horde = run(mook_horde, {"horde_target_number": 8, "combat": False, "characters": [
        {**roller(3, 2), "name": "Crossbow"}, {**roller(1), "name": "Megabyte"}],
        **dice(6, 6, 6, 2)})  # fmt: skip
    assert [(c.name, c.graded.degree) for c in horde.checks] == [
        ("Crossbow", "good"),
        ("Megabyte", None),
    ]
    turns = run(turn_order, {"participants": ["A", "B"], "rounds": 2}).turns
    assert [t.participant for t in turns] == ["A", "B", "A", "B"]


def test_omega_operatives_roll_a_bonus_die_and_have_no_manifestations():
    """S:L229: no manifestations, a bonus d6 on physical checks."""
    omega = run(check, {**roller(2, 1, omega=True), "target_number": 4, **dice(1, 1, 1)})
    assert [d.role for d in omega.dice] == ["base", "expertise", "omega"]
    with pytest.raises(InputError) as caught:
        run(check, {**roller(2, omega=True, manifestation="deep_sight"), "target_number": 4})
    assert caught.value.loc == ("omega_physical_bonus",)
