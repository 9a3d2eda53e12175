"""FORESIGHT damage, armor and hit location (catalogue foresight-2.md 2.4, examples X9-X11,
X27f-X27k, odds Q2-Q4). Seed lines are cited as F:L<n>. The odds are checked against an
independent brute force written here from the rule text (itertools.product over every die),
sharing no code with the service, and against the catalogue's section-4 tables."""

import itertools
from fractions import Fraction

import pytest
from pydantic import ValidationError

from service.rules.foresight.mortality.notation import parse_damage_class
from service.rules.model import InputError
from tests.rules.foresight.calls import odds, run
from tests.rules.foresight.oracle import qr_distribution

# The book's damage table, F:L2640-2659: rows QR1-QR4, columns DC0-DC17; 0 is S, None is '-'.
BOOK = {
    1: [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9],
    2: [0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 6, 6, 6],
    3: [0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4],
    4: [None, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2],
}
YIELD = {1: Fraction(1), 2: Fraction(3, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
RANDOM_QR = {1: 1, 2: 2, 3: 3, 4: 3, 5: 3, 6: 4, 7: 4, 8: 4, 9: 4, 10: 4}  # F:L1472-1477
LOCATION = {10: "head", 9: "right_arm", 8: "left_arm", 7: "chest", 6: "chest", 5: "chest",
            4: "abdomen", 3: "abdomen", 2: "right_leg", 1: "left_leg"}  # fmt: skip


def written(found):
    return "none" if found is None else "S" if found == 0 else str(found)


@pytest.mark.parametrize("qr", [1, 2, 3, 4])
@pytest.mark.parametrize("dc", range(18))
def test_the_damage_table_is_the_book_cell_by_cell(qr, dc):
    """F:L2640-2659: all 72 cells, from the formula with a 75% QR2 yield (AMB2-01)."""
    assert run("damage/table", {"dc": dc, "qr": qr}).result == written(BOOK[qr][dc])


def test_an_80_percent_qr2_yield_breaks_three_cells_of_the_table():
    """AMB2-01: the example's 80% (F:L2663) gives DC9, 14, 17 at QR2 as 4, 6, 7, not 3, 5, 6."""
    eighty = {"options": {"qr2_yield": "80"}}
    assert [run("damage/table", {"dc": dc, "qr": 2, **eighty}).result for dc in (9, 14, 17)] == [
        "4", "6", "7"]  # fmt: skip


def test_damage_scale_formula_and_divided_dc_differ():
    """F:L2724-2726 (AMB2-07): DC9 DS2 QR1 is 9/4 = 2.25 -> 2 by the formula; 9/2 -> DC5 -> 3."""
    assert run("damage/table", {"dc": 9, "qr": 1, "ds": 2}).result == "2"
    divided = {"options": {"ds_mode": "divide_dc_then_table"}}
    assert run("damage/table", {"dc": 9, "qr": 1, "ds": 2, **divided}).result == "3"


@pytest.mark.parametrize("qr", [1, 2, 3, 4])
@pytest.mark.parametrize(("dc", "ds"), [(5, 1), (9, 2), (7, 1), (3.5, 1), (1, 4), (0, 1), (-1, 1)])
def test_exact_damage_rounding_leaves_the_fraction(qr, dc, ds):
    """AMB2-07 'damage_rounding': half up by default (F:L2632), or yield x DC / (2 x DS) left
    exact: DC5 at QR2 is 15/8, not 2 (F:L2663). Whole wound levels stay the rounded ones."""
    body = {"dc": dc, "qr": qr, "ds": ds}
    rounded = run("damage/table", body)
    found = run("damage/table", {**body, "options": {"damage_rounding": "exact"}})
    unrounded = YIELD[qr] * Fraction(str(dc)) / (2 * ds)
    hits = dc > 0 or (dc == 0 and qr < 4)
    expected = unrounded if dc > 0 else Fraction(0) if hits else None
    assert found.result == written(expected)
    assert Fraction(found.wound_levels_exact.exact) == (expected or 0)
    assert found.wound_levels == rounded.wound_levels
    assert Fraction(rounded.wound_levels_exact.exact) == rounded.wound_levels
    assert rounded.options_applied.damage_rounding == "half_up"
    assert found.options_applied.damage_rounding == "exact"


def test_exact_damage_rounding_example_and_divided_dc():
    """DC5 QR2 (F:L2663): '2' by default, '15/8' exact; DC9 DS2 QR1 divided first (F:L2726)
    is DC 9/2 unrounded, the formula's 9/4 (the default's '3' rounds DC/DS to 5)."""
    exact = {"damage_rounding": "exact"}
    assert run("damage/table", {"dc": 5, "qr": 2}).result == "2"
    assert run("damage/table", {"dc": 5, "qr": 2, "options": exact}).result == "15/8"
    divided = {"dc": 9, "qr": 1, "ds": 2, "options": {"ds_mode": "divide_dc_then_table"}}
    assert run("damage/table", divided).result == "3"
    divided["options"] = {**divided["options"], **exact}
    assert run("damage/table", divided).result == "9/4"


def test_x9_dc8_against_3a_at_qr2_leaves_one_wound_level():
    """X9, F:L2663: DC8 - 3 = DC5; 0.75 x 5 / 2 = 1.875 -> 2, less the A = 1. The book says
    80% of 5 is 4, halved 2: the same 2 (the table uses 75%, AMB2-01)."""
    hit = run("damage/resolve", {"damage_class": "DC8", "qr": 2, "aim": "chest",
                                 "armor": [{"rating": "3A"}]})  # fmt: skip
    assert (hit.hits[0].table, hit.hits[0].absorbed, hit.result) == ("2", 1, "1")
    assert hit.condition.wound_level == 1
    assert hit.pain_resistance_roll


def test_x10_dc12i4p_against_3aa_leaves_one_a():
    """X10, F:L2673: 4p bypasses the 3 and one A of 3AA, leaving A; unarmored it is DC12."""
    hit = run("damage/resolve", {"damage_class": "DC12i4p", "qr": 2, "aim": "chest",
                                 "armor": [{"rating": "3AA"}]}).hits[0]  # fmt: skip
    assert (hit.armor.reduction_left, hit.armor.absorb_left) == (0, 1)
    assert (hit.dc_after_armor.exact, hit.table, hit.result) == ("12/1", "5", "4")
    bare = run("damage/resolve", {"damage_class": "DC12i4p", "qr": 2, "aim": "chest"}).hits[0]
    assert (bare.dc_after_armor.exact, bare.result) == ("12/1", "5")


def test_x11_armor_piercing_pistol_against_ballistic_cloth():
    """X11, F:L3634: 6i with AP rounds (-1 DC, +2p) is 5i2p; against 3A it is treated as 1A."""
    hit = run("damage/resolve", {"damage_class": "5i2p", "qr": 1, "aim": "chest",
                                 "armor": [{"rating": "3A"}]}).hits[0]  # fmt: skip
    assert (hit.armor.reduction_left, hit.armor.absorb_left) == (1, 1)


def test_x27f_two_walls_pooled_piercing_make_6i():
    """X27f, F:L3318 (AMB2-04): 10i2p through two walls of 3 is 6i when piercing is pooled;
    applied whole to each wall it would be 8i."""
    walls = [{"rating": "3", "name": "wall"}, {"rating": "3", "name": "wall"}]
    shot = {"damage_class": "10i2p", "qr": 3, "aim": "chest", "armor": walls}
    assert run("damage/resolve", shot).hits[0].dc_after_armor.exact == "6/1"
    per_layer = {**shot, "options": {"pierce_mode": "per_layer"}}
    assert run("damage/resolve", per_layer).hits[0].dc_after_armor.exact == "8/1"


def test_x27g_a_bullet_past_the_vest_at_random_qr3_is_a_medium_wound():
    """X27g, F:L3318: random QR3 (D10 4), the vest's 9/10 missed (D10 10): DC6 QR3 = 2."""
    vest = [{"rating": "3"}, {"rating": "3"}, {"rating": "4A", "coverage": 9}]
    hit = run("damage/resolve", {"damage_class": "10i2p", "aim": "chest", "armor": vest,
                                 "dice": {"values": [4, 10]}})  # fmt: skip
    assert (hit.hits[0].qr, hit.result, hit.wound_name) == (3, "2", "Medium Wound")


def test_x27k_the_sniper_headshot_follows_the_table_not_the_text():
    """X27k, F:L3322 (AMB2-02): DC9b at QR4 is 1 by the table, +1 to the head = 2 (medium),
    so the gunman's Pain Resistance is at -2; the book's 2 + 1 = 3 miscounts."""
    hit = run("damage/resolve", {"damage_class": "DC9b", "qr": 4, "aim": "head"})
    assert (hit.result, hit.condition.wound_level) == ("2", 2)


def test_the_vest_example_p_unhurt_is_0_729():
    """Catalogue 3 (derived from X27f-g): three bullets at a 9/10 vest, random QR each."""
    vest = [{"rating": "3"}, {"rating": "3"}, {"rating": "4A", "coverage": 9}]
    found = odds("damage/resolve", {"damage_class": "10i2p", "hits": 3, "aim": "chest",
                                    "armor": vest})  # fmt: skip
    table = {row.outcome: Fraction(row.exact) for row in found.wound_level}
    assert Fraction(found.summary.unhurt.exact) == Fraction(729, 1000)
    assert table["1"] == Fraction("0.1215")
    assert table["2"] == Fraction("0.10395")
    assert table["3"] == Fraction("0.035225")
    assert sum(p for wl, p in table.items() if int(wl) >= 4) == Fraction("0.010325")
    # Independently: every random QR and coverage die of the three bullets.
    brute = {}
    for rolls in itertools.product(range(1, 11), repeat=6):
        level = 0
        for qr_face, cover in zip(rolls[::2], rolls[1::2], strict=True):
            qr = RANDOM_QR[qr_face]
            dc, absorb = (2, 1) if cover <= 9 else (6, 0)
            raw = BOOK[qr][dc]
            level += max(0, raw - absorb) if raw else 0
        brute[level] = brute.get(level, 0) + Fraction(1, 10**6)
    assert {int(k): v for k, v in table.items()} == brute


def _oracle_hit(sc, dc, reduction, absorb):
    """One located-nowhere hit at an attack SC: 'miss', 'none', 'S' or the wound levels."""
    found = {}
    for qr, p in qr_distribution(sc).items():
        if qr > 4:
            key = "miss"
        else:
            eff = dc - reduction
            raw = None if eff < 0 else round_half(YIELD[qr] * eff / 2)
            if eff == 0:
                raw = None if qr == 4 else 0
            if raw:
                raw = max(0, raw - absorb)
            key = written(raw)
        found[key] = found.get(key, 0) + p
    return found


def round_half(x):
    return int(x + Fraction(1, 2))


@pytest.mark.parametrize(("score", "dc", "armor", "rating"), [
    (15, 10, (3, 2), "3AA"), (15, 12, (0, 0), None), (20, 12, (3, 1), "3A"),
    (20, 4, (4, 1), "4A"), (15, 10, (4, 1), "4A"), (20, 8, (2, 0), "2"),
])  # fmt: skip
def test_q3_wound_levels_of_one_attack(score, dc, armor, rating):
    """Catalogue Q3: SC 75 (15 x 5) and 100 (20 x 5); e.g. SC 75, DC10 against 3AA is miss
    0.25, S 0.60, 1 0.08, 2 0.07; SC 100 DC4 against 4A is none 0.49, S 0.50."""
    request = {"damage_class": f"DC{dc}", "attack": {"score": score, "bef": 5},
               "located": False, "armor": [{"rating": rating}] if rating else []}  # fmt: skip
    found = {row.outcome: Fraction(row.exact) for row in odds("damage/resolve", request).result}
    assert found == {k: v for k, v in _oracle_hit(score * 5, dc, *armor).items() if v}


def test_q3_row_sc75_dc10_3aa_as_printed():
    request = {"damage_class": "DC10", "attack": {"score": 15, "bef": 5}, "located": False,
               "armor": [{"rating": "3AA"}]}  # fmt: skip
    found = {row.outcome: row.float for row in odds("damage/resolve", request).result}
    assert found == pytest.approx({"miss": 0.25, "S": 0.60, "1": 0.08, "2": 0.07})


@pytest.mark.parametrize("dc", range(21))
def test_q2_damage_without_a_qr(dc):
    """Catalogue Q2, F:L2691-2695: random QR, DS1, no armor, no location."""
    request = {"damage_class": f"DC{dc}", "located": False}
    found = {row.outcome: Fraction(row.exact) for row in odds("damage/resolve", request).result}
    brute = {}
    for face in range(1, 11):
        qr = RANDOM_QR[face]
        raw = round_half(YIELD[qr] * dc / 2) if dc else (None if qr == 4 else 0)
        brute[written(raw)] = brute.get(written(raw), 0) + Fraction(1, 10)
    assert found == brute


def test_a_called_group_splits_by_the_d10_or_is_the_attackers_choice():
    """Catalogue #27: 'torso' and 'legs' name groups (F:L3292-3295); split as the D10 does
    by default (torso 3/5 chest, 2/5 abdomen; a leg each), or, with called_group_resolution
    attacker_choice, the attacker names the location: a group alone is then refused, in the
    hit location, the damage and the attack alike."""
    torso = {
        row.outcome: Fraction(row.exact) for row in odds("hit-location", {"aim": "torso"}).location
    }
    assert {k: v for k, v in torso.items() if v} == {
        "chest": Fraction(3, 5),
        "abdomen": Fraction(2, 5),
    }
    choice = {"options": {"called_group_resolution": "attacker_choice"}}
    chest = odds("hit-location", {"aim": "chest", **choice}).location
    assert {row.outcome: Fraction(row.exact) for row in chest if Fraction(row.exact)} == {
        "chest": 1
    }
    attack = {"attacker": {"qr": 1}, "defense": {"qr": 10}, "damage_class": "DC8"}
    resolve = {"damage_class": "DC8", "qr": 1}
    for name, body in (("hit-location", {}), ("damage/resolve", resolve), ("attack", attack)):
        for aim in ("torso", "legs"):
            request = {**body, "aim": aim, **choice}
            with pytest.raises(InputError) as error:
                odds(name, request)
            assert error.value.loc == ("aim",)
            with pytest.raises(InputError):
                run(name, {**request, "dice": {"seed": 1}})
        assert run(name, {**body, "aim": "legs", "dice": {"seed": 1}}) is not None


def test_q4_hit_location_and_vital_extra():
    """Catalogue Q4, F:L2703-2712: head, arms, legs 0.1 each, chest 0.3, abdomen 0.2; with the
    optional rule a DC8 QR1 hit (4 WL) gains 1 on a vital location with P 0.2: 0.12 overall."""
    found = {row.outcome: Fraction(row.exact) for row in odds("hit-location", {}).location}
    assert found == {"head": Fraction(1, 10), "right_arm": Fraction(1, 10),
                     "left_arm": Fraction(1, 10), "chest": Fraction(3, 10),
                     "abdomen": Fraction(1, 5), "right_leg": Fraction(1, 10),
                     "left_leg": Fraction(1, 10)}  # fmt: skip
    vital = odds("damage/resolve", {"damage_class": "DC8", "qr": 1,
                                    "options": {"vital_extra": True}})  # fmt: skip
    result = {row.outcome: Fraction(row.exact) for row in vital.result}
    brute = {}
    for loc_face, vital_face in itertools.product(range(1, 11), repeat=2):
        place = LOCATION[loc_face]
        level = 4 + (place == "head") + (place in ("head", "chest", "abdomen") and vital_face <= 2)
        brute[str(level)] = brute.get(str(level), 0) + Fraction(1, 100)
    assert result == brute
    # 6 is only the head with the extra (0.1 x 0.2); 5 the head without it or the torso with it.
    assert result["6"] == Fraction(2, 100)
    assert result["5"] == Fraction(8, 100) + Fraction(10, 100)


@pytest.mark.parametrize(("notation", "position"), [
    ("DC12q4p", 5), ("12i4", 5), ("DC", 3), ("3x", 3), ("12i4p5p", 6),
    ("\u00b3", 1), ("DC1\u00b2i", 4),  # superscripts are digits to str.isdigit, not to int
])  # fmt: skip
def test_malformed_damage_classes_name_the_character(notation, position):
    with pytest.raises(InputError) as found:
        parse_damage_class(notation)
    assert f"at character {position}" in found.value.message


def test_damage_class_notation():
    """F:L348, F:L2673, F:L3636, F:L2677: DC12i4p, +3m2p, 5is, 2x16b, and the bare 0."""
    found = parse_damage_class("DC12i4p")
    assert (found.value, found.type, found.pierce, found.stun) == (12, "i", 4, False)
    relative = parse_damage_class("+3m2p")
    assert (relative.relative, relative.value, relative.pierce) == (True, 3, 2)
    assert parse_damage_class("5is").stun
    assert parse_damage_class("2x16b").count == 2
    zero = parse_damage_class("0")
    assert (zero.relative, zero.type) == (True, "m")
    assert run("armor-rating/parse", {"notation": "3AA"}).model_dump(
        include={"reduction", "absorb"}) == {"reduction": 3, "absorb": 2}  # fmt: skip
    assert run("armor-rating/parse", {"notation": "A"}).reduction == 0


def test_a_rolled_hit_with_the_vital_extra_rolls_its_d10_only_for_a_vital_location():
    """The rolled side of Q4 (F:L2703-2712): the D10 is rolled once the hit has wounded a vital
    location, and then it decides the extra level (a fuzzed request found it unrolled)."""
    seen = set()
    for seed in range(40):
        found = run("damage/resolve", {"damage_class": "DC8", "qr": 1, "dice": {"seed": seed},
                                       "options": {"vital_extra": True}})  # fmt: skip
        (hit,) = found.hits
        vital = hit.location in ("head", "chest", "abdomen")
        assert (hit.vital_roll is not None) == vital
        if vital:
            seen.add(hit.vital_roll <= 2)
    assert seen == {True, False}


def test_a_damage_scale_below_an_egg_s_is_refused():
    """DS 0.05 is an egg (F:L3593); a vanishing scale would make a hit's levels unbounded."""
    with pytest.raises(ValidationError) as error:
        run("damage/table", {"dc": 5, "qr": 2, "ds": 1e-300})
    assert error.value.errors()[0]["loc"] == ("ds",)


def test_stun_points_are_held_at_the_bound_a_condition_carries():
    """A stun hit on a character already at the most stun points a condition holds keeps
    them there, so the condition that comes back can be sent again (fuzzing found 1001)."""
    found = run("damage/resolve", {"damage_class": "5is", "qr": 3, "located": False,
                                   "condition": {"stun_points": 1000}})  # fmt: skip
    assert found.condition.stun_points == 1000


def _one_attack_roll_then_two_hits(task_sc: int, dc: int) -> dict[str, Fraction]:
    """Brute force: one D100 attack roll (SC `task_sc`, thresholds SC/10, /5, /2, SC), then
    two hits at the chest with that QR, added (F:L2612-2614)."""
    found: dict[str, Fraction] = {}
    for roll in range(1, 101):
        if roll > task_sc or roll == 100:
            qr = None
        else:
            qr = 1 if 10 * roll <= task_sc else 2 if 5 * roll <= task_sc else (
                3 if 2 * roll <= task_sc else 4)  # fmt: skip
        level = 0 if qr is None else 2 * BOOK[qr][dc]
        found[str(level)] = found.get(str(level), Fraction(0)) + Fraction(1, 100)
    return found


@pytest.mark.parametrize("dc", [4, 8, 13, 16])
def test_the_hits_of_one_attack_share_its_roll(dc):
    """2x16b is two hits of one shot (F:L3630; catalogue #20, #24: the QR is found once,
    then location, armor and damage for each hit). A 2xDC attack at SC 60 hits both times or
    neither: P(unhurt) is P(miss) = 0.4, not 0.4 squared as two attack rolls would give."""
    request = {"attack": {"score": 12, "bef": 5}, "damage_class": f"2x{dc}b", "aim": "chest"}
    found = odds("damage/resolve", request)
    got = {row.outcome: Fraction(row.exact) for row in found.wound_level if Fraction(row.exact)}
    assert got == {k: v for k, v in _one_attack_roll_then_two_hits(60, dc).items() if v}
    attack = odds("attack", {"attacker": {"task": {"score": 12, "bef": 5}},
                             "damage_class": f"2x{dc}b", "aim": "chest"})  # fmt: skip
    assert attack.damage.wound_level == found.wound_level
    rolled = run("damage/resolve", {**request, "dice": {"values": [3]}})
    assert [hit.qr for hit in rolled.hits] == [1, 1]
    assert [hit.qr_roll for hit in rolled.hits] == [3, 3]


def _random_qr_per_damage(dcs: int, hits: int, dc: int) -> dict[str, Fraction]:
    """Brute force: each of `hits` draws a D10 random QR (1 QR1, 2 QR2, 3-5 QR3, 6-10 QR4,
    F:L1472) that its `dcs` hits at the chest share, all added (F:L2612-2614)."""
    one: dict[int, Fraction] = {}
    for face in range(1, 11):
        qr = 1 if face == 1 else 2 if face == 2 else 3 if face <= 5 else 4
        one[dcs * BOOK[qr][dc]] = one.get(dcs * BOOK[qr][dc], Fraction(0)) + Fraction(1, 10)
    found: dict[str, Fraction] = {}
    for levels in itertools.product(one, repeat=hits):
        weight = Fraction(1)
        for level in levels:
            weight *= one[level]
        found[str(sum(levels))] = found.get(str(sum(levels)), Fraction(0)) + weight
    return found


@pytest.mark.parametrize(("damage_class", "dcs", "hits"), [("2x8b", 2, 1), ("2x8b", 2, 2),
                                                           ("8b", 1, 3)])  # fmt: skip
def test_damage_without_a_qr_draws_one_random_qr_for_its_class_s_hits(damage_class, dcs, hits):
    """#24 step 1 draws the random QR once (F:L2695), then repeats location, armor and damage
    for each hit of '2x8b'; separate hits (area fire's, F:L3318) each draw their own."""
    request = {"damage_class": damage_class, "aim": "chest", "hits": hits}
    found = odds("damage/resolve", request)
    got = {row.outcome: Fraction(row.exact) for row in found.wound_level if Fraction(row.exact)}
    assert got == {k: v for k, v in _random_qr_per_damage(dcs, hits, 8).items() if v}
    faces = [1, 7, 2][:hits]
    rolled = run("damage/resolve", {**request, "dice": {"values": faces}})
    assert [hit.qr_roll for hit in rolled.hits] == [f for f in faces for _ in range(dcs)]
