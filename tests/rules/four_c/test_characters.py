"""4C character generation and advancement against the catalogue (4c.md 4.1 E10, 4.2 T1-T8,
T14, section 5.2, 5.7 and appendix B), every exact table checked against an enumeration
written here, independent of the service's code. Seed lines are cited as C:L<n>."""

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from service.rules.four_c.characters.advancement import new_power, new_skill, raise_rank
from service.rules.four_c.characters.companions import alter_ego, sidekick
from service.rules.four_c.characters.options import DuplicateNonrankPolicy
from service.rules.four_c.characters.origins import apply_advanced
from service.rules.four_c.characters.powers import (
    DuplicateChoice,
    PowerTable,
    count_roll,
    duplicate_resolve,
    held_distribution,
    select_advanced,
    select_basic,
    tracked_distribution,
)
from service.rules.four_c.characters.sheet import generate
from service.rules.four_c.characters.skills import skills_bonus, skills_contacts, skills_count
from service.rules.four_c.characters.tables import PowerName
from service.rules.four_c.characters.traits import (
    lifestyle_roll,
    repute_roll,
    secondary_damage,
    secondary_fortune,
    traits_roll,
)
from service.rules.model import InputError, Violations
from tests.rules.calls import odds, run, table


def d100(*rolls: int) -> list[int]:
    """Table dice for d% rolls: tens then ones, a 0 face sent as 10 (C:L43-45)."""
    return [face or 10 for roll in rolls for face in divmod(roll, 10)]


#: The Rank Value table as the seed prints it (C:L220-230), written out independently.
def rank_of(roll: int) -> int:
    for top, rv in ((4, 1), (9, 3), (19, 6), (39, 10), (59, 20), (79, 30), (95, 40), (99, 50)):
        if roll <= top:
            return rv
    raise AssertionError(roll)


# Worked examples


def test_t1_trait_rolls():
    """T1 (C:L220-230): 00, 04, 05, 19, 20, 59, 95, 96 give 1, 1, 3, 6, 10, 20, 40, 50."""
    rolls = (0, 4, 5, 19, 20, 59, 95, 96)
    for roll, expected in zip(rolls, (1, 1, 3, 6, 10, 20, 40, 50), strict=True):
        found = run(traits_roll, {"traits": ["melee"], "dice": {"values": d100(roll)}})
        assert (found.traits[0].roll, found.traits[0].rv) == (roll, expected)


def test_t2_repute_is_the_roll_divided_by_3_rounded_up():
    """T2 (C:L258)."""
    for roll, expected in zip((0, 1, 3, 4, 50, 97, 99), (0, 1, 1, 2, 17, 33, 33), strict=True):
        assert run(repute_roll, {"dice": {"values": d100(roll)}}).repute == expected


def test_t3_number_of_powers():
    """T3 (C:L341-356): 99 is Magic, the only power."""
    for roll, expected in zip((19, 20, 89, 90, 98), (2, 3, 4, 5, 5), strict=True):
        found = run(count_roll, {"dice": {"values": d100(roll)}})
        assert (found.powers, found.magic) == (expected, False)
    magic = run(count_roll, {"dice": {"values": d100(99)}})
    assert (magic.powers, magic.magic) == (1, True)


def test_t4_t5_power_selection():
    """T4 (C:L358-388), T5 (C:L392-448)."""
    basic = ["animal_command", "extra_body_parts", "growth_shrinking", "wall_crawling"]
    for roll, power in zip((0, 27, 43, 99), basic, strict=True):
        assert run(select_basic, {"dice": {"values": d100(roll)}}).power == power
    advanced = ["absorption", "elemental_energy_generation", "nine_lives", "weapon"]
    for roll, power in zip((0, 31, 53, 99), advanced, strict=True):
        assert run(select_advanced, {"dice": {"values": d100(roll)}}).power == power


T6 = {"melee": 30, "coordination": 20, "brawn": 40, "fortitude": 10}
T6_FORTUNE = {"intellect": 6, "awareness": 20, "willpower": 3}


def test_t6_t7_secondary_traits_and_a_robot():
    """T6: Damage 100, Fortune 29 (C:L240, C:L246); T7: a Robot's +10 each (C:L173) makes
    them 140 and 59, and its Repute 0."""
    assert run(secondary_damage, {**T6, "dice": {"seed": 1}}).damage == 100
    assert run(secondary_fortune, {**T6_FORTUNE, "dice": {"seed": 1}}).fortune == 29
    assert run(secondary_damage, {**T6, "origin": "robot", "dice": {"seed": 1}}).damage == 140
    robot = run(secondary_fortune, {**T6_FORTUNE, "origin": "robot", "dice": {"seed": 1}})
    assert robot.fortune == 59
    draft = {
        "traits": [{"trait": t, "rv": v} for t, v in {**T6, **T6_FORTUNE}.items()],
        "lifestyle": 20,
        "repute": 17,
        "skills": 2,
    }
    applied = run(apply_advanced, {"origin": "robot", "draft": draft})
    assert (applied.damage, applied.fortune, applied.repute) == (140, 59, 0)


def test_t8_a_mutant_s_lifestyle_is_at_least_1():
    """T8 (C:L177): Lifestyle 6 (roll 10-19) less 10 is 1."""
    found = run(lifestyle_roll, {"origin": "mutant", "dice": {"values": d100(15)}})
    assert (found.rolled, found.lifestyle) == (6, 1)


def test_a_05_the_gm_gives_lifestyle_only_with_the_manual_table():
    """A-05 (C:L248-252, "roll once on Table 1"): rolled on the primary rank table by
    default, or the GM's choice with lifestyle_table=manual. A choice sent where the table
    rolls would be silently ignored, so it is a 422 on `lifestyle`, as manual without one."""
    manual = {"lifestyle": 20, "origin": "mutant", "options": {"lifestyle_table": "manual"}}
    chosen = run(lifestyle_roll, manual)
    assert (chosen.roll, chosen.rolled, chosen.lifestyle) == (None, 20, 10)
    assert table(odds(lifestyle_roll, manual).lifestyle) == {"10": 1}
    sheet = run(generate, {"lifestyle": 40, "options": {"lifestyle_table": "manual"},
                           "dice": {"seed": 3}})  # fmt: skip
    assert sheet.lifestyle == 40  # the basic game: no origin, no Astoundingly Wealthy
    for refused in ({"lifestyle": 20}, {"options": {"lifestyle_table": "manual"}}):
        for call in (run, odds):
            with pytest.raises(InputError) as error:
                call(lifestyle_roll, refused)
            assert error.value.loc == ("lifestyle",)
        with pytest.raises(InputError) as error:
            run(generate, {**refused, "dice": {"seed": 3}})
        assert error.value.loc == ("lifestyle",)


def test_e10_joseph_raises_melee_30_to_31_for_30():
    """E10, C:L1519; T14: 30 to 40 costs 345 (catalogue 5.7)."""
    assert (
        run(raise_rank, {"trait": "melee", "current": 30, "target": 31, "fortune": 30}).cost == 30
    )
    assert (
        run(raise_rank, {"trait": "melee", "current": 30, "target": 40, "fortune": 400}).cost == 345
    )
    for (a, b), cost in {(1, 10): 45, (10, 50): 1180, (1, 50): 1225, (50, 100): 3725}.items():
        assert (
            run(raise_rank, {"what": "power", "current": a, "target": b, "fortune": 10_000}).cost
            == cost
            == sum(range(a, b))
        )


def test_advancement_violations_are_named_by_field():
    with pytest.raises(Violations) as found:
        run(raise_rank, {"what": "repute", "current": 30, "target": 30, "fortune": 0})
    assert {e.loc for e in found.value.errors} == {("what",), ("target",)}
    with pytest.raises(InputError) as short:
        run(raise_rank, {"trait": "melee", "current": 30, "target": 31, "fortune": 29})
    assert short.value.loc == ("fortune",)
    with pytest.raises(Violations) as power:
        run(new_power, {"fortune": 999, "dice": {"seed": 1}})
    assert {e.loc for e in power.value.errors} == {("fortune",), ("power",)}
    bought = run(new_power, {"fortune": 1000, "power": "flight", "dice": {"values": d100(96)}})
    assert (bought.rv, bought.fortune) == (50, 0)
    with pytest.raises(InputError):
        run(new_skill, {"fortune": 249, "skill": "Pilot"})
    assert run(new_skill, {"fortune": 250, "skill": "Pilot"}).fortune == 0


def test_raising_brawn_raises_the_damage_maximum():
    """A-35: a permanent change of a Damage trait changes its sum."""
    found = run(
        raise_rank, {"trait": "brawn", "current": 10, "target": 12, "fortune": 30, "damage_max": 80}
    )
    assert (found.cost, found.damage_max, found.fortune) == (21, 82, 9)


def test_magic_stays_the_only_power_bought():
    """Magic "is the sole power the character may have" (C:L726): a Magic user buys no new
    power (C:L1523), chosen or rolled, and Magic is not bought beside other powers."""
    for options in ({}, {"new_power_selection": "roll_advanced"}):
        body = {"fortune": 1000, "held": ["magic"], "options": options, "dice": {"seed": 1}}
        if not options:
            body["power"] = "flight"
        with pytest.raises(InputError) as held:
            run(new_power, body)
        assert held.value.loc == ("held",)
    with pytest.raises(InputError) as chosen:
        odds(new_power, {"fortune": 1000, "held": ["flight"], "power": "magic"})
    assert chosen.value.loc == ("power",)
    alone = run(new_power, {"fortune": 1000, "power": "magic", "dice": {"values": d100(96)}})
    assert (alone.power, alone.rv) == ("magic", 50)


def test_a_draft_holding_magic_holds_nothing_else():
    """Magic "is the sole power the character may have" (C:L726): a draft listing Magic
    beside another power is refused, and a Mutant holding Magic, listed or flagged, gains
    no bonus power (A-08)."""
    traits = [{"trait": t, "rv": 10} for t in (*T6, *T6_FORTUNE)]
    draft = {"traits": traits, "lifestyle": 20, "repute": 20, "skills": 2}
    magic = {"power": "magic", "rv": 30}
    for powers, flag in (
        ([magic, {"power": "claws", "rv": 10}], False),
        ([{"power": "claws", "rv": 10}], True),
    ):
        with pytest.raises(InputError) as both:
            run(
                apply_advanced,
                {"origin": "robot", "draft": {**draft, "powers": powers, "magic": flag}},
            )
        assert both.value.loc == ("draft", "powers")
    alone = run(apply_advanced, {"origin": "mutant", "draft": {**draft, "powers": [magic]}})
    assert [(p.power, p.rv) for p in alone.powers] == [("magic", 30)]
    with pytest.raises(InputError) as bonus:
        run(apply_advanced, {"origin": "mutant", "draft": {**draft, "powers": [magic]},
                             "mutant_bonus_power": {"power": "claws", "rv": 10}})  # fmt: skip
    assert bonus.value.loc == ("mutant_bonus_power",)


def test_repeats_in_the_input_are_refused_by_field():
    """Each primary trait is rolled once (C:L218) and a power held once, a repeat being
    raised or rolled again (C:L390): the 422 names the field."""
    with pytest.raises(ValidationError) as traits:
        run(traits_roll, {"traits": ["melee", "melee"], "dice": {"seed": 1}})
    assert traits.value.errors()[0]["loc"] == ("traits",)
    held = [{"power": "claws", "rv": 1}, {"power": "claws", "rv": 5}]
    with pytest.raises(InputError) as twice:
        run(duplicate_resolve, {"held": held, "duplicate": "claws", "dice": {"seed": 1}})
    assert twice.value.loc == ("held",)


def test_raising_a_power_leaves_the_damage_maximum():
    """Damage is the sum of Melee, Coordination, Brawn and Fortitude (C:L240), Fortune of
    Intellect, Awareness and Willpower (C:L246): a power or Lifestyle raised (C:L1521)
    changes neither, even with a trait named alongside."""
    power = {"what": "power", "trait": "brawn", "current": 10, "target": 12, "fortune": 30}
    found = run(raise_rank, {**power, "damage_max": 80})
    assert (found.rv, found.cost, found.damage_max, found.fortune) == (12, 21, 80, 9)
    options = {"advance_lifestyle": True, "recompute_fortune": True}
    life = {**power, "what": "lifestyle", "trait": "willpower", "options": options}
    assert run(raise_rank, life).fortune == 9


def test_skills_bonus_contacts_and_count():
    skills = [
        {"name": "Acrobatics"},
        {"name": "Martial Arts", "kind": "advanced", "tags": ["melee"]},
        {"name": "Brawling", "tags": ["melee"]},
    ]
    assert run(skills_bonus, {"skills": skills, "action": ["melee"]}).row_steps == 2
    summed = {"skills": skills, "action": ["melee"], "options": {"skill_stacking": "sum"}}
    assert run(skills_bonus, summed).row_steps == 3
    assert run(skills_bonus, {"skills": skills, "action": ["melee"]}).slots == 4
    assert run(skills_contacts, {"skills": 2, "contacts": [{"name": "Ruiz"}]}).skills == 1
    with pytest.raises(InputError):
        run(skills_contacts, {"skills": 0, "contacts": [{"name": "Ruiz"}]})
    assert run(skills_count, {"origin": "skilled_human", "dice": {"values": d100(95)}}).skills == 7


def test_a_repeat_is_raised_or_rolled_again():
    held = [{"power": "flight", "rv": 20}]
    raised = run(duplicate_resolve, {"held": held, "duplicate": "flight", "dice": {"seed": 3}})
    assert (raised.action, raised.rv) == ("raised", 40)
    again = run(
        duplicate_resolve,
        {"held": held, "duplicate": "flight", "choice": "reroll", "dice": {"values": d100(32, 0)}},
    )
    assert (again.action, again.power, again.reroll_rolls) == ("new", "animal_command", [32, 0])


# Exact odds against enumerations written here


def enumerate_sum(count: int) -> dict[int, Fraction]:
    found = Counter(sum(rank_of(r) for r in rolls) for rolls in product(range(100), repeat=count))
    return {v: Fraction(n, 100**count) for v, n in found.items()}


@pytest.fixture(scope="module")
def damage_pmf() -> dict[int, Fraction]:
    # 8 values weigh the 100 faces: the 4-fold product of the weighted table, not 100**4 rolls.
    weights = Counter(rank_of(r) for r in range(100))
    found: Counter[int] = Counter()
    for rvs in product(weights, repeat=4):
        found[sum(rvs)] += weights[rvs[0]] * weights[rvs[1]] * weights[rvs[2]] * weights[rvs[3]]
    return {v: Fraction(n, 100**4) for v, n in found.items()}


#: Appendix B.1 (percent, to 4 decimals) at the values the issue checks and the extremes.
APPENDIX_B1 = {
    4: "0.0006",
    43: "0.6080",
    56: "2.1360",
    82: "0.5424",
    90: "6.0160",
    100: "6.5664",
    121: "0.2547",
    150: "1.0189",
    190: "0.0041",
    200: "0.0003",
}
#: Appendix B.2.
APPENDIX_B2 = {3: "0.0125", 60: "7.5200", 70: "9.1200", 80: "9.1200", 120: "1.2736", 150: "0.0064"}


def test_starting_damage_is_appendix_b1(damage_pmf):
    found = table(odds(secondary_damage, {}).damage)
    assert found == {str(v): p for v, p in damage_pmf.items()}
    for value, percent in APPENDIX_B1.items():
        assert f"{float(found[str(value)] * 100):.4f}" == percent
    assert odds(secondary_damage, {}).mean.exact == "424/5"  # 84.8 (catalogue 5.3)
    assert sum(p for v, p in damage_pmf.items() if v >= 100) == Fraction(327424, 1_000_000)


def test_starting_fortune_is_appendix_b2():
    found = table(odds(secondary_fortune, {}).fortune)
    assert found == {str(v): p for v, p in enumerate_sum(3).items()}
    for value, percent in APPENDIX_B2.items():
        assert f"{float(found[str(value)] * 100):.4f}" == percent
    assert sum(p for v, p in found.items() if int(v) >= 25) == Fraction(1903, 2000)


def test_generate_odds_without_origins_are_appendix_b(damage_pmf):
    found = odds(generate, {})
    assert table(found.damage) == {str(v): p for v, p in damage_pmf.items()}
    assert table(found.origin) == {
        "robot": Fraction(1, 20),
        "alien": Fraction(1, 20),
        "skilled_human": Fraction(3, 10),
        "changed_human": Fraction(1, 5),
        "mutant": Fraction(1, 5),
        "technologically_enhanced": Fraction(1, 5),
    }


def test_robot_damage_is_b1_shifted_by_40(damage_pmf):
    found = table(odds(secondary_damage, {"origin": "robot"}).damage)
    assert found == {str(v + 40): p for v, p in damage_pmf.items()}


def test_one_roll_tables_are_the_seed_s_tables():
    assert table(odds(traits_roll, {}).rolled) == {
        str(rv): Fraction(n, 100) for rv, n in Counter(rank_of(r) for r in range(100)).items()
    }
    mutant = table(odds(lifestyle_roll, {"origin": "mutant"}).lifestyle)
    assert mutant == {
        "1": Fraction(40, 100),
        "10": Fraction(20, 100),
        "20": Fraction(20, 100),
        "30": Fraction(16, 100),
        "40": Fraction(4, 100),
    }
    assert odds(lifestyle_roll, {"origin": "mutant"}).mean.exact == "64/5"  # 12.8
    repute = table(odds(repute_roll, {}).repute)
    assert repute == {
        k: Fraction(n, 100) for k, n in Counter(str(-(-r // 3)) for r in range(100)).items()
    }
    skills = table(odds(skills_count, {"origin": "skilled_human"}).skills)
    assert skills == {
        "4": Fraction(1, 5),
        "5": Fraction(2, 5),
        "6": Fraction(3, 10),
        "7": Fraction(1, 10),
    }
    count = odds(count_roll, {"origin": "alien"})
    assert table(count.powers) == {
        "1": Fraction(21, 100),
        "2": Fraction(40, 100),
        "3": Fraction(30, 100),
        "4": Fraction(9, 100),
    }


@pytest.mark.parametrize(
    ("size", "repeats"),
    [
        (
            25,
            {
                2: Fraction(1, 25),
                3: Fraction(73, 625),
                4: Fraction(3481, 15625),
                5: Fraction(135601, 390625),
            },
        ),
        (
            50,
            {
                2: Fraction(1, 50),
                3: Fraction(37, 625),
                4: Fraction(1807, 15625),
                5: Fraction(72811, 390625),
            },
        ),
    ],
)
def test_repeats_among_selection_rolls_are_catalogue_5_2(size, repeats):
    table_ = PowerTable.BASIC if size == 25 else PowerTable.ADVANCED
    for n, expected in repeats.items():
        brute = (
            Fraction(sum(len(set(r)) < n for r in product(range(size), repeat=n)), size**n)
            if n <= 4
            else None
        )
        found = held_distribution(n, table_, DuplicateChoice.RAISE, DuplicateNonrankPolicy.WARN, 0)
        repeat = found.probability_where(lambda s, n=n: s[0] + s[1] < n)
        assert repeat == expected
        if brute is not None:
            assert brute == expected


def test_rerolls_make_the_powers_distinct_up_to_the_bound():
    """With enough rerolls a character holds as many powers as slots, all but the chance of
    running out: 5 slots of 25 with 20 rerolls, a repeat each time w.p. k/25."""
    found = held_distribution(
        3, PowerTable.BASIC, DuplicateChoice.REROLL, DuplicateNonrankPolicy.WARN, 20
    )
    assert found.probability_where(lambda s: s[0] == 3) > Fraction(999_999, 1_000_000)


def test_resolve_odds_follow_the_rerolls():
    held = [{"power": "flight", "rv": 20}]
    found = table(
        odds(
            duplicate_resolve,
            {"held": held, "duplicate": "flight", "choice": "reroll", "max_rerolls": 2},
        ).action
    )
    assert found == {"new": 1 - Fraction(1, 25) ** 2, "raised": Fraction(1, 625)}


# Generation


def test_a_generated_character_replays_from_its_seed_and_its_roll_log():
    for seed in (0, 18, 99):
        body = {"advanced_origins": True, "dice": {"seed": seed}}
        first = run(generate, body)
        assert run(generate, body) == first
        values = [r.value for r in first.rolls]
        replayed = run(generate, {"advanced_origins": True, "dice": {"values": values}})
        assert replayed.model_dump(exclude={"seed"}) == first.model_dump(exclude={"seed"})
        assert all(r.purpose for r in first.rolls)
        assert first.damage == sum(t.rv for t in first.traits[:4])


def test_generation_by_table_dice_in_the_catalogue_s_order():
    """Origin 15 Skilled Human; traits; Lifestyle 50 (20); Repute 50 (17); skills 95 (4);
    powers 10 (2): Flight then Claws, ranks 96 (50) and 00 (1)."""
    rolls = d100(15, 96, 80, 60, 40, 20, 10, 5, 50, 50, 95, 10, 33, 96, 8, 0)
    sheet = run(generate, {"dice": {"values": rolls}})
    assert sheet.origin == "skilled_human"
    assert [t.rv for t in sheet.traits] == [50, 40, 30, 20, 10, 6, 3]
    assert (sheet.damage, sheet.fortune, sheet.lifestyle, sheet.repute, sheet.skills) == (
        140,
        19,
        20,
        17,
        4,
    )
    assert [(p.power, p.rv) for p in sheet.powers] == [("flight", 50), ("claws", 1)]
    assert [r.purpose for r in sheet.rolls][:2] == ["origin tens", "origin ones"]


def test_e_e_control_and_generation_of_one_type_get_10_more_each():
    """C:L612: "matching Elemental/Energy Control and Elemental/Energy Generation gains a
    permanent +10 Rank Value bonus to both powers". The advanced table's 28 is Control and
    30 Generation (C:L413-414); ranks 96 (50) and 00 (1) become 60 and 11. Chosen of
    different types (ee_same_element false) they keep the rolls."""
    rolls = d100(15, 96, 80, 60, 40, 20, 10, 5, 50, 50, 95, 10, 28, 96, 30, 0)
    sheet = run(generate, {"power_table": "advanced", "dice": {"values": rolls}})
    assert [(p.power, p.rv) for p in sheet.powers] == [
        ("elemental_energy_control", 60), ("elemental_energy_generation", 11)]  # fmt: skip
    assert any("C:L612" in note for note in sheet.notes)
    apart = run(generate, {"power_table": "advanced", "ee_same_element": False,
                           "dice": {"values": rolls}})  # fmt: skip
    assert [p.rv for p in apart.powers] == [50, 1]


def test_gaining_the_other_e_e_power_later_raises_both():
    """C:L612 and the catalogue ("apply at creation, and on acquisition"): a new E/E
    Generation with Control held is rolled +10 and says Control gains 10 too. Rolled on the
    advanced table, the Rank Value odds are the rank table's, 10 higher on the 2 in 100 that
    select Generation (30-31), counted here over every pair of d% rolls."""
    held = {"fortune": 1000, "held": ["elemental_energy_control"]}
    chosen = {**held, "power": "elemental_energy_generation", "dice": {"values": d100(96)}}
    gained = run(new_power, chosen)
    assert (gained.rv, gained.matched_element) == (60, 10)
    apart = run(new_power, {**chosen, "ee_same_element": False})
    assert (apart.rv, apart.matched_element) == (50, 0)
    alone = run(new_power, {**chosen, "held": []})
    assert (alone.rv, alone.matched_element) == (50, 0)
    rolled = {**held, "options": {"new_power_selection": "roll_advanced"}}
    counted = Counter(rank_of(rank) + (10 if selection in (30, 31) else 0)
                      for selection in range(100) for rank in range(100))  # fmt: skip
    expected = {str(rv): Fraction(n, 100 * 100) for rv, n in counted.items()}
    assert table(odds(new_power, rolled).rv) == expected


def test_an_alien_loses_one_of_the_powers_it_holds_after_repeats_are_settled():
    """Powers are rolled as usual, then the origin modifies them (C:L168): an Alien loses one
    power, keeping at least one (C:L174). Three selections, Body Armor twice (raised +20,
    C:L390) and Phasing, hold two powers; the Alien loses the last, Phasing, as
    `character/origin/apply-advanced` does with the same draft (catalogue 3.3.5 steps 5-6)."""
    rolls = d100(5, 42, 80, 85, 20, 65, 83, 83, 61, 85, 17, 53, 4, 27, 7, 58, 77)
    sheet = run(generate, {"advanced_origins": True, "dice": {"values": rolls}})
    assert sheet.origin == "alien"
    assert [(p.power, p.rv, p.times) for p in sheet.powers] == [("body_armor", 30, 2)]
    assert sheet.power_count == 1
    assert any(note.startswith("Alien: lost phasing") for note in sheet.notes)
    rolled = [{"power": "body_armor", "rv": 30}, {"power": "phasing", "rv": 30}]
    draft = {"traits": [{"trait": t, "rv": 10} for t in ("melee", "coordination", "brawn",
             "fortitude", "intellect", "awareness", "willpower")], "lifestyle": 20,
             "repute": 20, "skills": 2, "powers": rolled}  # fmt: skip
    applied = run(apply_advanced, {"origin": "alien", "draft": draft})
    assert [(p.power, p.rv) for p in applied.powers] == [("body_armor", 30)]


def test_alter_ego_and_sidekick_keep_their_limits():
    parent = {"traits": {**T6, **T6_FORTUNE}, "power_count": 3}
    for seed in range(30):
        ego = run(alter_ego, {"parent": parent, "dice": {"seed": seed}})
        assert (ego.origin, ego.powers, ego.origin_roll) == ("skilled_human", [], None)
        assert all(t.rv <= 30 for t in ego.traits)
        kick = run(sidekick, {"parent": parent, "dice": {"seed": seed}})
        assert all(
            t.rv <= v for t, v in zip(kick.traits, {**T6, **T6_FORTUNE}.values(), strict=True)
        )
        assert kick.power_count <= 2
    ego_damage = table(odds(alter_ego, {}).damage)
    capped = Counter()
    weights = Counter(min(rank_of(r), 30) for r in range(100))
    for rvs in product(weights, repeat=4):
        capped[sum(rvs)] += weights[rvs[0]] * weights[rvs[1]] * weights[rvs[2]] * weights[rvs[3]]
    assert ego_damage == {str(v): Fraction(n, 100**4) for v, n in capped.items()}


# Which powers a generated character holds (issue 18)

#: The powers whose Rank Value does nothing (C:L484-486, C:L500-514, C:L716-718; A-09).
NO_RANK = {"alter_ego", "astoundingly_wealthy", "celebrity", "improved_skills"}
#: The origins as catalogue 5.2 gives them, and the number-of-powers rows (C:L341-356).
ORIGIN_ODDS = {
    "robot": Fraction(5, 100),
    "alien": Fraction(5, 100),
    "skilled_human": Fraction(30, 100),
    "changed_human": Fraction(20, 100),
    "mutant": Fraction(20, 100),
    "technologically_enhanced": Fraction(20, 100),
}
COUNT_ODDS = {2: Fraction(20, 100), 3: Fraction(40, 100), 4: Fraction(30, 100), 5: Fraction(9, 100)}
RANK_ODDS = Counter(rank_of(r) for r in range(100))


def entries(size: int) -> list[str]:
    """The selection table's entries, each 100/size faces of the d% (C:L358-448)."""
    found = table(odds(select_basic if size == 25 else select_advanced, {}).power)
    assert len(found) == size
    assert set(found.values()) == {Fraction(1, size)}
    return list(found)


def play(draws, slots, choice, policy, rerolls):
    """The chain of C:L390 and A-09 played on a fixed run of selections: each slot takes the
    next draw; a repeat is drawn again while rerolls are left if the player rerolls or it is
    a no-rank power under force_reroll; a repeat left is rolled again (raised or stacked).
    The held powers in the order first rolled, with the times each was rolled."""
    held: dict[str, int] = {}
    draws, left = iter(draws), rerolls
    for _ in range(slots):
        power = next(draws)
        while (
            power in held
            and left
            and (choice == "reroll" or (power in NO_RANK and policy == "force_reroll"))
        ):
            power, left = next(draws), left - 1
        held[power] = held.get(power, 0) + 1
    return held


@pytest.mark.parametrize(
    ("size", "slots", "choice", "policy", "rerolls"),
    [
        (25, 2, "raise", "warn", 0),
        (25, 3, "raise", "warn", 0),
        (25, 2, "reroll", "warn", 1),
        (25, 3, "reroll", "warn", 1),
        (50, 2, "raise", "force_reroll", 1),
        (50, 2, "reroll", "stack_effects", 1),
    ],
)
def test_a_tracked_power_is_every_run_of_selections(size, slots, choice, policy, rerolls):
    """Every run of slots + rerolls selections, each entry alike (itertools.product): how many
    powers are held, where the tracked one came first and how often it was rolled."""
    names = entries(size)
    tracked = ["flight", "celebrity"] if size == 50 else ["flight"]
    brute = {p: Counter() for p in tracked}
    for draws in product(names, repeat=slots + rerolls):
        held = play(draws, slots, choice, policy, rerolls)
        order = list(held)
        for p in tracked:
            place = order.index(p) if p in held else -1
            brute[p][(len(held), place, held.get(p, 0))] += 1
    total = size ** (slots + rerolls)
    for p in tracked:
        found = tracked_distribution(
            slots,
            PowerTable.BASIC if size == 25 else PowerTable.ADVANCED,
            PowerName(p),
            DuplicateChoice(choice),
            DuplicateNonrankPolicy(policy),
            rerolls,
        )
        assert {o: found.probability(o) for o, _ in found.items()} == {
            o: Fraction(n, total) for o, n in brute[p].items()
        }


@pytest.mark.parametrize(
    ("size", "repeats"),
    [
        (25, {5: Fraction(135601, 390625), 6: "47.7711", "count": "15.2798"}),
        (50, {5: Fraction(72811, 390625), 6: "26.7757", "count": "7.9150"}),
    ],
)
def test_a_tracked_power_s_chain_repeats_as_catalogue_5_2(size, repeats):
    """At least one repeat among n selection rolls: catalogue 5.2's table, for n = 5, the
    Mutant's 6, and over the count distribution (Magic never repeats), for either kind."""
    table_ = PowerTable.BASIC if size == 25 else PowerTable.ADVANCED
    for power in [PowerName.FLIGHT, PowerName.CELEBRITY][: 1 + (size == 50)]:

        def repeat(n, power=power):
            found = tracked_distribution(
                n, table_, power, DuplicateChoice.RAISE, DuplicateNonrankPolicy.WARN, 0
            )
            return found.probability_where(lambda t: t[0] < n)

        assert repeat(5) == repeats[5]
        assert f"{float(repeat(6)) * 100:.4f}" == repeats[6]
        over = sum(p * repeat(n) for n, p in COUNT_ODDS.items())
        assert f"{float(over) * 100:.4f}" == repeats["count"]


def held_odds(found):
    return {p.power: Fraction(p.held.exact) for p in found.powers}


def mean_count(found):
    return sum(int(k) * v for k, v in table(found.power_count).items())


@pytest.mark.parametrize(
    ("body", "each", "places"),
    [
        ({}, "12.3598", 4),
        ({"duplicates": "reroll", "max_rerolls": 20}, "13.0000", 4),
        ({"power_table": "advanced"}, "6.3380", 4),
        ({"power_table": "advanced", "duplicates": "reroll", "max_rerolls": 20}, "6.5000", 4),
    ],
)
def test_a_specific_power_is_held_as_catalogue_5_2(body, each, places):
    """'P(a specific power is present)': +20 1 - E[(1 - 1/N)^n], exact; with rerolls the
    powers are distinct but for running out of 20 rerolls, E[n]/N = 3.25/N."""
    found = held_odds(odds(generate, body))
    size = 50 if body.get("power_table") == "advanced" else 25
    names = entries(size)
    assert sorted(found) == sorted([*names, "magic"])
    assert list(found)[-1] == "magic"
    assert len(set(found[p] for p in names)) == 1
    assert f"{float(found['flight']) * 100:.{places}f}" == each
    assert found["magic"] == Fraction(1, 100)
    if body.get("duplicates") != "reroll":
        miss = 1 - Fraction(1, size)
        assert found["flight"] == sum(p * (1 - miss**n) for n, p in COUNT_ODDS.items())
    else:
        assert 0 < Fraction(325, 100 * size) - found["flight"] < Fraction(1, 10**12)


def kept_odds(n: int, keep: Callable[[int], int], size: int = 25) -> Fraction:
    """+20 with no rerolls: n independent selections of `size` powers, of whose `held`
    different ones the first `keep(held)` new ones are kept. The chain follows the number
    held and the place among them at which one power (Flight) first came, if it came."""
    states: Counter[tuple[int, int | None]] = Counter({(0, None): Fraction(1)})
    for _ in range(n):
        following: Counter[tuple[int, int | None]] = Counter()
        for (held, place), p in states.items():
            others = held - (place is not None)
            following[(held + 1, held) if place is None else (held, place)] += p / size
            following[(held, place)] += p * Fraction(others, size)
            following[(held + 1, place)] += p * Fraction(size - 1 - others, size)
        states = following
    return sum(
        (p for (held, place), p in states.items() if place is not None and place < keep(held)),
        Fraction(0),
    )


def test_a_sidekick_s_dropped_power_gives_nothing():
    """A Sidekick "cannot possess more than one-half the number of powers" of its parent,
    the excess "automatically reduced" (C:L810; A-62, the last rolled dropped). A parent
    with 1 power allows 1: Flight (36) is kept and Trait Increase (90, C:L444) dropped, so
    its +15 to Brawn and Fortitude (C:L906) never applies: they stay at the rolled 20."""
    parent = {"traits": dict.fromkeys(T6, 50) | dict.fromkeys(T6_FORTUNE, 50), "power_count": 1}
    rolls = d100(15, 40, 40, 40, 40, 40, 40, 40, 50, 50, 20, 10, 36, 50, 90, 50)
    kick = run(sidekick, {"parent": parent, "power_table": "advanced", "dice": {"values": rolls}})
    assert [(p.power, p.rv) for p in kick.powers] == [("flight", 20)]
    assert [t.rv for t in kick.traits] == [20] * 7
    assert (kick.damage, kick.fortune, kick.power_count) == (80, 60, 1)
    assert any("dropped ['trait_increase']" in note for note in kick.notes)


def test_trait_increase_raises_two_different_traits():
    """Trait Increase raises "any two primary traits by +15 each" (C:L906): one trait named
    twice is refused, naming the field, rather than raised once."""
    for op, body in [(generate, {}), (sidekick, {"parent": {"traits": {**T6, **T6_FORTUNE},
                                                             "power_count": 3}})]:  # fmt: skip
        with pytest.raises(ValidationError, match="trait_increase_traits"):
            run(op, {**body, "trait_increase_traits": ["brawn", "brawn"], "dice": {"seed": 1}})
    with pytest.raises(ValidationError, match="trait_increase_traits"):
        odds(generate, {"trait_increase_traits": ["melee", "melee"]})


def test_origins_and_a_sidekick_s_limit_keep_the_first_powers():
    """Advanced origins (A-08): a Mutant rolls n + 1 and keeps them, an Alien rolls n and
    loses the last new power of those it holds, keeping one (C:L168, C:L174); a Sidekick
    keeps at most half its parent's powers, rounded up (C:L808-810), the last rolled dropped
    (A-62). Magic 1%, alone."""
    parent = {"traits": {**T6, **T6_FORTUNE}, "power_count": 3}
    for cap, op, body in [(None, generate, {}), (2, sidekick, {"parent": parent})]:
        expected = Fraction(0)
        for origin, po in ORIGIN_ODDS.items():
            for n, pn in COUNT_ODDS.items():

                def keep(held: int, origin: str = origin, cap: int | None = cap) -> int:
                    kept = held - 1 if origin == "alien" and held > 1 else held
                    return min(kept, cap) if cap else kept

                expected += po * pn * kept_odds(n + (origin == "mutant"), keep)
        found = odds(op, {**body, "advanced_origins": True})
        held = held_odds(found)
        assert held["flight"] == expected
        assert held["magic"] == Fraction(1, 100)
        assert sum(held.values()) == mean_count(found)


def test_a_held_power_s_rank_value_counts_its_raises():
    """+20 for each repeat (C:L390): held k >= 1 times of n ~ Binomial(n, 1/25), the rank
    roll (C:L454-468) plus 20(k - 1), given that it is held."""
    joint = Counter()
    for n, pn in COUNT_ODDS.items():
        for k in range(1, n + 1):
            pk = Fraction(math.comb(n, k)) * Fraction(1, 25) ** k * Fraction(24, 25) ** (n - k)
            for rv, w in RANK_ODDS.items():
                joint[rv + 20 * (k - 1)] += pn * pk * Fraction(w, 100)
    held = sum(joint.values())
    found = next(p for p in odds(generate, {}).powers if p.power == "flight")
    assert Fraction(found.held.exact) == held
    assert table(found.rv_if_held) == {str(v): p / held for v, p in joint.items()}


def test_stacked_repeats_and_magic_keep_the_rank_roll():
    """Trait Increase rolled twice gives +20 to each trait, not +20 Rank Value (C:L906);
    stack_effects repeats a no-rank power's bonuses instead (A-09); Magic is rolled once."""
    plain = {str(rv): Fraction(w, 100) for rv, w in RANK_ODDS.items()}
    body = {"power_table": "advanced", "options": {"duplicate_nonrank_policy": "stack_effects"}}
    found = {p.power: p for p in odds(generate, body).powers}
    for power in ("trait_increase", "celebrity", "magic"):
        assert table(found[power].rv_if_held) == plain
    assert table(found["flight"].rv_if_held) != plain
    warned = {p.power: p for p in odds(generate, {"power_table": "advanced"}).powers}
    assert table(warned["celebrity"].rv_if_held) == table(warned["flight"].rv_if_held)


@pytest.mark.parametrize(
    "body",
    [
        {"power_table": "advanced", "options": {"duplicate_nonrank_policy": "force_reroll"}},
        {
            "power_table": "advanced",
            "advanced_origins": True,
            "max_rerolls": 3,
            "options": {"duplicate_nonrank_policy": "force_reroll"},
        },
        {"advanced_origins": True, "duplicates": "reroll", "max_rerolls": 2},
    ],
)
def test_the_powers_held_add_up_to_the_power_count(body):
    """Each power held adds one to the count (Magic too), whichever the kinds' odds: under
    force_reroll a no-rank power is held less often, its repeats rolled away (A-09)."""
    found = odds(generate, body)
    held = held_odds(found)
    assert sum(held.values()) == mean_count(found)
    if body.get("power_table") == "advanced":
        assert held["celebrity"] < held["flight"]
    parent = {"traits": {**T6, **T6_FORTUNE}, "power_count": 1}
    kick = odds(sidekick, {**body, "parent": parent})
    assert sum(held_odds(kick).values()) == mean_count(kick) == 1
    assert odds(alter_ego, body).powers == []
