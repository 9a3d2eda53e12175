"""FORESIGHT weapons (catalogue part 2, #105-#110 and #122; F:L3618-3873): the ranged and
mêlée weapon tables as data, their modifications column by column, catalogue rows used by key
in the combat operations, the DC with the UCDC, shield cover and concealment. Worked examples
cite the seed as F:L<n> and the catalogue's X rows. The tables are checked cell by cell against
the seed's own lines and against the catalogue's independent transcription (foresight-2.md
2.10). None of these operations rolls dice, so there are no odds to check; section 4 has no
question on them."""

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from pydantic import ValidationError

from service.rules.foresight.weapons.melee import MELEE_MODIFICATIONS, MELEE_WEAPONS
from service.rules.foresight.weapons.ranged import RANGED_MODIFICATIONS, RANGED_WEAPONS
from service.rules.model import InputError
from tests.rules.foresight.calls import odds, run

SEED = Path("/work/shared/seeds/004_0f2ce8cae6aa3515.txt")
CATALOGUE = Path("/work/shared/rules/foresight-2.md")
EN_DASH = "\u2013"
SHARED = pytest.mark.skipif(not SEED.exists(), reason="the shared seed is not on this machine")


def seed_cells(line: int) -> list[str]:
    return [
        cell.strip() for cell in SEED.read_text(encoding="utf-8").split("\n")[line - 1].split("\t")
    ]


def catalogue_table(heading: str) -> list[list[str]]:
    """The rows of the first Markdown table after `heading` in the catalogue (2.10)."""
    text = CATALOGUE.read_text(encoding="utf-8")
    after = text[text.index(heading) :].split("\n")
    rows = [line for line in after if line.startswith("|")]
    start = after.index(rows[0])
    found = []
    for line in after[start:]:
        if not line.startswith("|"):
            break
        found.append([cell.strip() for cell in line.strip("|").split("|")])
    return [row for row in found[2:] if not row[0].startswith("*")]


def dash(text: str) -> str:
    return text.replace(EN_DASH, "-")


def kg(text: str) -> float | None:
    if text in ("-", EN_DASH):
        return None
    number, unit = re.fullmatch(r"([\d.]+)(kg|g)", text).groups()
    return float(number) / (1000 if unit == "g" else 1)


# --- the tables as the seed prints them --------------------------------------------------------


@SHARED
def test_every_ranged_row_is_its_seed_line():
    """F:L3666-3708 (#105): each row's cells are the seed line's, and each column read from
    them: • is recoil, '1k' 1000 svu, '500g' 0.5 kg."""
    assert len(RANGED_WEAPONS) == 38
    for row in RANGED_WEAPONS:
        cells = seed_cells(row.line)
        assert row.printed == cells
        weapon = row.weapon
        assert weapon.name == cells[0].replace("•", "").strip()
        assert weapon.recoil == cells[0].count("•")
        assert (weapon.pm, weapon.ammo, weapon.rof, weapon.dc) == (
            int(cells[1]),
            cells[2],
            cells[3],
            cells[4],
        )
        assert weapon.range_m == int(cells[5].removesuffix("m"))
        assert (weapon.draw, weapon.rl, weapon.jam, weapon.use.value) == (
            int(cells[6]),
            cells[7],
            cells[8],
            cells[10],
        )
        assert row.mass_kg == kg(cells[9])
        cost = cells[11].lower()
        assert row.cost_svu == (float(cost[:-1]) * 1000 if cost.endswith("k") else float(cost))
        assert row.tl == float(cells[12])


@SHARED
def test_the_ranged_table_agrees_with_the_catalogues_transcription():
    """The catalogue's 2.10 table (#105), transcribed independently, row for row."""
    rows = catalogue_table("#### `foresight.weapon.ranged.catalog` (#105)")
    assert [r[0] for r in rows] == [row.printed[0] for row in RANGED_WEAPONS]
    for printed, row in zip(rows, RANGED_WEAPONS, strict=True):
        assert printed == row.printed


def test_repeated_names_get_keys_of_their_tl():
    """Two Revolvers (F:L3681-3682), two SL Pistols, two Stun Pistols, Laser Pistols and Laser
    Rifles: the key ends in the TL. Both Stun Rifles print TL 7 (F:L3695, F:L3701): the second
    keeps its line."""
    keys = [row.key for row in RANGED_WEAPONS]
    assert len(set(keys)) == len(keys)
    assert {
        "revolver-4.25",
        "revolver-4.5",
        "sl-pistol-4.5",
        "sl-pistol-5",
        "stun-pistol-6.5",
        "stun-pistol-7",
        "stun-rifle-7",
        "stun-rifle-7-l3701",
        "laser-pistol-7",
        "laser-pistol-8",
    } <= set(keys)
    assert run("weapon/ranged/catalog", {"name": "revolver"}).count == 2


@SHARED
def test_every_melee_row_is_its_seed_line():
    """F:L3734-3768 (#107): (1-2) and (2) after a name are its hands; '-' a range it cannot be
    used at; '0' at close range is +0m; the Fixed Bayonet's Draw '*' and the unarmed '-' are
    null."""
    assert len(MELEE_WEAPONS) == 21
    for row in MELEE_WEAPONS:
        cells = seed_cells(row.line)
        assert row.printed == cells
        weapon = row.weapon
        hands = re.search(r"\((1[\u2013-]2|2)\)$", cells[0])
        assert weapon.hands.value == ("1" if not hands else dash(hands.group(1)))
        for index, reach in ((1, "close"), (3, "normal"), (5, "reach")):
            stats = getattr(weapon, reach)
            if dash(cells[index]) == "-":
                assert stats is None
            else:
                assert stats.pm == int(dash(cells[index]))
                assert stats.dc == ("+0m" if cells[index + 1] == "0" else dash(cells[index + 1]))
        parry = dash(cells[7])
        assert weapon.parry == (None if parry == "-" else int(parry))
        assert weapon.draw == (None if cells[8] in ("-", "*") else int(cells[8]))
        assert weapon.mass_kg == kg(cells[9])
        assert weapon.unarmed == (row.group == "Unarmed Combat")
    hands = {row.key: row.weapon.hands.value for row in MELEE_WEAPONS}
    assert (hands["hand-and-a-half"], hands["two-handed-sword"], hands["staff"]) == (
        "1-2",
        "2",
        "1-2",
    )


@SHARED
def test_the_melee_table_agrees_with_the_catalogues_transcription():
    rows = catalogue_table("#### `foresight.weapon.melee.catalog` (#107)")
    assert len(rows) == len(MELEE_WEAPONS)
    for printed, row in zip(rows, MELEE_WEAPONS, strict=True):
        assert [dash(c) for c in printed] == [dash(c) for c in row.printed]


@SHARED
def test_the_modification_tables_are_their_seed_lines():
    """F:L3779-3792 and F:L3802-3819, checked against the seed and the catalogue (#106, #108)."""
    for row in RANGED_MODIFICATIONS:
        assert row.printed == seed_cells(row.line)
    assert [r for r in catalogue_table("#### `foresight.weapon.ranged.modify` (#106)")] == [
        row.printed for row in RANGED_MODIFICATIONS
    ]
    for row in MELEE_MODIFICATIONS:
        assert row.printed == seed_cells(row.line)
    assert catalogue_table("#### `foresight.weapon.melee.modify` (#108)") == [
        row.printed for row in MELEE_MODIFICATIONS
    ]


@SHARED
def test_the_concealment_tables_are_their_seed_lines():
    """F:L3831-3871 (#110)."""
    found = run("concealment", {"weight_kg": 0.01})
    assert found.band.printed == seed_cells(3833)
    for key, line in (("hip_holster", 3855), ("taped_to_back", 3861)):
        assert run("concealment", {"weight_kg": 1, "carry": key}).carry_modifier == int(
            dash(seed_cells(line)[1])
        )


# --- catalogue searches -------------------------------------------------------------------------


def test_the_sl_rifle_row():
    """F:L3688: SL Rifle •• 0 10 1 9i2p 25m 3 3 B 4kg L 1k 5."""
    found = run("weapon/ranged/catalog", {"name": "SL RIFLE"})
    assert found.count == 1
    row = found.rows[0]
    assert (row.key, row.line, row.weapon.dc, row.weapon.range_m) == ("sl-rifle", 3688, "9i2p", 25)
    assert (row.weapon.recoil, row.weapon.jam, row.mass_kg, row.cost_svu, row.tl) == (
        2,
        "B",
        4,
        1000,
        5,
    )


def test_search_by_tl_and_use():
    found = run("weapon/ranged/catalog", {"tl_min": 8, "tl_max": 8})
    assert [row.key for row in found.rows] == [
        "laser-cannon",
        "laser-pistol-8",
        "laser-rifle-8",
        "dexax-sliver-pistol",
        "dexax-sliver-rifle",
    ]
    pistols = run("weapon/ranged/catalog", {"name": "pistol", "use": "H", "tl_max": 5})
    assert [row.tl for row in pistols.rows] == [3.5, 3.75, 4.5, 5]
    with pytest.raises(InputError):
        run("weapon/ranged/catalog", {"tl_min": 6, "tl_max": 5})


def test_repeating_rifle_keeps_the_tables_tl():
    """X29 (F:L3534, AMB-39): the text says TL 4.35; the catalogue serves the table's 4.25
    (F:L3683), as the register recommends."""
    row = run("weapon/ranged/catalog", {"name": "repeating"}).rows[0]
    assert (row.tl, row.line) == (4.25, 3683)


def test_revolver_range_increment():
    """X31 (F:L3660): a revolver's increment is 3 m (F:L3681)."""
    row = run("weapon/ranged/catalog", {"name": "revolver-4.25"}).rows[0]
    assert row.weapon.range_m == 3


def test_melee_search():
    """F:L3742 Sabre/Longsword; the unarmed rows have no TL, found only with no TL asked."""
    found = run("weapon/melee/catalog", {"name": "sword"})
    assert [row.key for row in found.rows] == [
        "shortsword",
        "rapier",
        "sabre-longsword",
        "hand-and-a-half",
        "two-handed-sword",
    ]
    sabre = found.rows[2].weapon
    assert (sabre.close, sabre.normal.pm, sabre.normal.dc, sabre.reach) == (None, 1, "+4m", None)
    assert run("weapon/melee/catalog", {"name": "unarmed"}).count == 3
    assert run("weapon/melee/catalog", {"name": "unarmed", "tl_max": 10}).count == 0
    assert run("weapon/melee/catalog", {"name": "shields"}).count == 3


# --- ranged modifications ------------------------------------------------------------------


AMY = [
    {"modification": "advanced", "columns": ["wgt", "dc"]},
    {"modification": "advanced", "columns": ["wgt", "dc"]},
    {"modification": "laser_sight", "sight_weight_g": 122.5},  # 0.7 x 0.7 x 250 g,
]


def test_amys_sidearm():
    """X33 (F:L3798, AMB-40): an SL pistol (TL 5, F:L3687) advanced x2 with a modern x2 laser
    sight. Weight x 0.9 x 0.9 = 0.81 (the book says '80%'), the sight 0.7 x 0.7 x 250 g = 122.5
    g -> 123 g, 6i + 1 + 1 = 8i. The book's 'slightly better range' would need a fifth
    improved column: two Advanced applications improve two columns each, and weight and DC
    take all four, so under the default reading the range stays 3 m."""
    found = run("weapon/ranged/modify", {"catalog": "sl-pistol-5", "modifications": AMY})
    assert found.weapon.dc == "8i"
    assert Fraction(found.mass_kg.exact) == Fraction(3, 2) * Fraction(81, 100) + Fraction(123, 1000)
    assert [s.how for s in found.steps if s.column == "wgt"][-1].startswith("+ 123 g")
    assert Fraction(found.range_increment_m.exact) == 3
    assert found.weapon.range_multipliers == ()
    assert Fraction(found.cost_svu.exact) == 750 * Fraction(6, 5) ** 2 + 1000
    assert Fraction(found.tl.exact) == 6  # 5 + 0.5 + 0.5; the sight's 5.5 is below it
    # The other reading: spend one Advanced column on range (x1.1): 3.3 m, but 90% weight.
    other = [AMY[0], {"modification": "advanced", "columns": ["range", "dc"]}, AMY[2]]
    found = run("weapon/ranged/modify", {"catalog": "sl-pistol-5", "modifications": other})
    assert (found.weapon.dc, Fraction(found.range_increment_m.exact)) == ("8i", Fraction(33, 10))


def test_the_gunmans_auto_rifle():
    """X27e and X27f (F:L3316-3318): an advanced SL rifle (F:L3688) on auto long burst: 10i2p
    a bullet (the Advanced DC), 25 m x 0.7 = 17.5 m, ROF [6], recoil •• +•• , Jam B two letters
    worse: D; the burst's +3 DC is for a burst at one target, left to ranged/attack."""
    mods = [
        {"modification": "advanced", "columns": ["dc", "ammo"]},
        {"modification": "auto_long_burst"},
    ]
    found = run("weapon/ranged/modify", {"catalog": "sl-rifle", "modifications": mods})
    weapon = found.weapon
    assert (weapon.dc, weapon.rof, weapon.auto, weapon.recoil, weapon.jam) == (
        "10i2p",
        "[6]",
        "long",
        4,
        "D",
    )
    assert weapon.ammo == "15"  # 10 x 1.5
    assert Fraction(found.range_increment_m.exact) == Fraction(35, 2)
    assert Fraction(found.tl.exact) == Fraction(11, 2)  # 5 + 0.5, and at least 4.5


def test_the_snipers_heavy_target_rifle():
    """X27h and X27k (F:L3320-3322): a heavy target cartridge laser rifle (F:L3693): range 50
    x 1.25 x 1.1 = 68.75 m; DC 9b + 1 - 1 = 9b; recoil +• -• = none."""
    mods = [{"modification": "heavy"}, {"modification": "target"}]
    found = run("weapon/ranged/modify", {"catalog": "cartridge-laser-rifle", "modifications": mods})
    assert Fraction(found.range_increment_m.exact) == Fraction(6875, 100)
    assert (found.weapon.dc, found.weapon.recoil) == ("9b", 0)
    assert found.weapon.range_multipliers == (1.1, 1.25)
    assert "target sights: +2 when rolling for bonus aim actions" in found.notes
    assert found.weapon.draw == 3 + 1 + 2


def test_column_arithmetic():
    """Ammo rounds half up (12 x 0.8 = 9.6 -> 10); '-' stays '-'; RL keeps its '*'; a thrown
    weapon keeps '1*'; Wh a shot divide (AMB2-41); Jam moves a letter a point (+ better)."""
    found = run(
        "weapon/ranged/modify",
        {"catalog": "sl-pistol-5", "modifications": [{"modification": "cheap_shoddy"}]},
    )
    weapon = found.weapon
    assert (weapon.ammo, weapon.dc, weapon.draw, weapon.rl, weapon.jam, weapon.pm) == (
        "10",
        "5i",
        3,
        "4",
        "C",
        -1,
    )
    assert weapon.recoil == 2
    dagger = run(
        "weapon/ranged/modify",
        {"catalog": "thrown-dagger", "modifications": [{"modification": "cheap_shoddy"}]},
    )
    assert (dagger.weapon.ammo, dagger.weapon.rl, dagger.weapon.dc) == ("1*", "-", "+0m")
    revolver = run(
        "weapon/ranged/modify",
        {"catalog": "revolver-4.25", "modifications": [{"modification": "cheap_shoddy"}]},
    )
    assert (revolver.weapon.rl, revolver.weapon.ammo) == ("7*", "5")  # 6 x 0.8 = 4.8 -> 5
    laser = run(
        "weapon/ranged/modify",
        {"catalog": "laser-pistol-8", "modifications": [{"modification": "light"}]},
    )
    assert laser.weapon.ammo == "8Wh"  # 10 Wh a shot / 1.25 (AMB2-41)
    assert laser.weapon.dc == "10b"


@pytest.mark.parametrize(
    ("mods", "per_shot", "capacity"),
    [
        ([{"modification": "light"}], "8Wh", "12.5Wh"),
        ([{"modification": "heavy"}], "13.33Wh", "7.5Wh"),
        ([{"modification": "advanced", "columns": ["ammo", "dc"]}], "6.67Wh", "15Wh"),
        ([{"modification": "custom", "improve": "ammo", "worsen": "range"}], "8.7Wh", "11.5Wh"),
    ],
)
def test_energy_ammo_factors_follow_the_wh_reading(mods, per_shot, capacity):
    """F:L3648: a laser pistol's 10 Wh (F:L3703) is 'the amount of energy it consumes per
    shot' by the catalogue's recommendation (AMB2-41), and the Ammo column's factor is one of
    'ammunition capacity' (F:L3794): a light pistol fires 1.25 times the shots from a pack,
    so a shot takes 10 / 1.25 = 8 Wh, not 12.5 (which would fire fewer). Read as a capacity
    the factor multiplies."""
    body = {"catalog": "laser-pistol-8", "modifications": mods}
    found = run("weapon/ranged/modify", body)
    assert found.weapon.ammo == per_shot
    assert found.options_applied.energy_ammo_semantics == "per_shot"
    body["options"] = {"energy_ammo_semantics": "capacity_shots"}
    assert run("weapon/ranged/modify", body).weapon.ammo == capacity


def test_draw_is_at_least_min_draw():
    """AMB-43: cut down (-1) and light (-1) take a pistol's Draw 2 to 0: 1 by default, 0 when
    the option allows it."""
    mods = [{"modification": "cut_down_handgun"}, {"modification": "light"}]
    found = run("weapon/ranged/modify", {"catalog": "sl-pistol-5", "modifications": mods})
    assert found.weapon.draw == 1
    assert found.options_applied.min_draw == 1
    found = run(
        "weapon/ranged/modify",
        {"catalog": "sl-pistol-5", "modifications": mods, "options": {"min_draw": 0}},
    )
    assert found.weapon.draw == 0


def test_custom_trades_one_column_for_another():
    """Note † (F:L3794): ammo x1.15 (12 -> 13.8 -> 14) for Jam one letter worse, cost x5."""
    mods = [{"modification": "custom", "improve": "ammo", "worsen": "jam"}]
    found = run("weapon/ranged/modify", {"catalog": "sl-pistol-5", "modifications": mods})
    assert (found.weapon.ammo, found.weapon.jam) == ("14", "C")
    assert Fraction(found.cost_svu.exact) == 750 * 5


@pytest.mark.parametrize(
    ("mods", "where"),
    [
        ([{"modification": "advanced", "columns": ["dc"]}], "columns"),
        ([{"modification": "advanced", "columns": ["dc", "dc"]}], "columns"),
        ([{"modification": "advanced", "columns": ["dc", "draw"]}], "columns"),
        ([{"modification": "heavy", "columns": ["dc", "wgt"]}], "columns"),
        ([{"modification": "custom", "improve": "dc"}], "improve"),
        ([{"modification": "heavy", "sight_weight_g": 100}], "sight_weight_g"),
        ([{"modification": "auto_long_burst"}, {"modification": "auto_short_burst"}], 1),
    ],
)
def test_malformed_modifications_are_refused(mods, where):
    with pytest.raises(InputError) as error:
        run("weapon/ranged/modify", {"catalog": "sl-rifle", "modifications": mods})
    assert where in error.value.loc


def test_custom_can_trade_the_rof_column():
    """F:L3785: Custom marks ROF with † among the columns it may improve or worsen by one
    (note †, F:L3794). An SL Rifle (ROF 1, 4 kg, 1k, F:L3688) custom ROF for weight: ROF 2,
    4 x 1.15 = 4.6 kg, 5k svu; a Laser Cannon (ROF 2, 2x16b, F:L3702) custom DC for ROF:
    2x17b at ROF 1. A bracketed ROF (F:L3658) has no such step, nor can ROF fall below 1."""
    found = run("weapon/ranged/modify", {"catalog": "sl-rifle", "modifications": [
        {"modification": "custom", "improve": "rof", "worsen": "wgt"}]})  # fmt: skip
    assert (found.weapon.rof, found.mass_kg.exact, found.cost_svu.exact) == ("2", "23/5", "5000/1")
    found = run("weapon/ranged/modify", {"catalog": "laser-cannon", "modifications": [
        {"modification": "custom", "improve": "dc", "worsen": "rof"}]})  # fmt: skip
    assert (found.weapon.rof, found.weapon.dc) == ("1", "2x17b")
    for key, improve, worsen in (("revolver-4.5", "rof", "wgt"), ("sl-rifle", "dc", "rof")):
        with pytest.raises(InputError) as error:
            run("weapon/ranged/modify", {"catalog": key, "modifications": [
                {"modification": "custom", "improve": improve, "worsen": worsen}]})  # fmt: skip
        assert error.value.loc == ("modifications", 0)


def test_a_row_sent_as_data_is_modified():
    row = {
        "weapon": {"name": "Zip gun", "use": "H", "range_m": 2, "dc": "4i", "jam": "E"},
        "mass_kg": 0.5,
        "cost_svu": 20,
        "tl": 4,
    }
    found = run("weapon/ranged/modify", {"row": row, "modifications": [{"modification": "heavy"}]})
    assert (found.weapon.dc, found.weapon.range_multipliers) == ("5i", (1.1,))
    with pytest.raises(InputError):
        run("weapon/ranged/modify", {"modifications": []})
    with pytest.raises(InputError):
        run("weapon/ranged/modify", {"catalog": "no-such-gun", "modifications": []})


# --- melee modifications -------------------------------------------------------------------


def test_amys_briefcase_as_an_improvised_heavy_club():
    """X32 (F:L3732): the briefcase is an improvised heavy club: -1 for its unwieldiness at
    normal range (improvised -1, heavy +0), DC +2m -1 +1 = +2m; the weight the GM rates (4 kg)
    gives ST 20 one-handed (-5 at ST 7) and 12 two-handed (-2): -3 in all."""
    mods = [{"modification": "improvised"}, {"modification": "heavy"}]
    found = run("weapon/melee/modify", {"catalog": "club", "modifications": mods})
    club = found.weapon
    assert (club.normal.pm, club.normal.dc, club.close.pm, club.close.dc) == (-1, "+2m", -3, "+1m")
    assert (club.parry, club.draw, club.mass_kg, club.reach) == (-2, 3, 2.6, None)
    assert any("printed '?'" in note for note in found.notes)
    assert run("weapon/min-strength", {"mass_kg": 4, "strength": 7}).penalty == -5
    assert (
        run("weapon/min-strength", {"mass_kg": 4, "two_handed": True, "strength": 7}).penalty == -2
    )


def test_melee_dashes_stay_and_heavy_adds_hands():
    """'-' stays '-' (a rapier has no close or reach, F:L3741); heavy can make a one-handed
    weapon (1-2) (F:L3823), one hand a heavy."""
    found = run(
        "weapon/melee/modify", {"catalog": "rapier", "modifications": [{"modification": "long"}]}
    )
    assert (found.weapon.close, found.weapon.reach) == (None, None)
    assert found.weapon.draw == 4
    assert Fraction(found.cost_svu.exact) == 300
    heavy = {"catalog": "sabre-longsword", "modifications": [{"modification": "heavy"}]}
    assert run("weapon/melee/modify", {**heavy, "hands": "1-2"}).weapon.hands.value == "1-2"
    with pytest.raises(InputError):
        run("weapon/melee/modify", {**heavy, "hands": "2"})
    with pytest.raises(InputError):
        run(
            "weapon/melee/modify",
            {"catalog": "sabre-longsword", "modifications": [], "hands": "1-2"},
        )


def test_melee_draw_is_at_least_min_draw():
    """AMB-43: a short dagger: Draw 1 - 1 = 0, kept at 1."""
    mods = [{"modification": "short"}]
    assert run("weapon/melee/modify", {"catalog": "dagger", "modifications": mods}).weapon.draw == 1
    found = run(
        "weapon/melee/modify",
        {"catalog": "dagger", "modifications": mods, "options": {"min_draw": 0}},
    )
    assert found.weapon.draw == 0


# --- catalogue rows used by name in combat -------------------------------------------------


SABRE_ROW = {
    "name": "Sabre/Longsword",
    "normal": {"pm": 1, "dc": "+4m"},
    "parry": 1,
    "draw": 3,
    "mass_kg": 1.25,
}


def test_a_catalogue_key_is_the_row_in_melee_operations():
    by_row = run("melee/weapon-profile", {"weapon": SABRE_ROW, "strength": 9, "wind_ups": 1})
    by_key = run(
        "melee/weapon-profile",
        {"weapon": {"catalog": "Sabre-Longsword"}, "strength": 9, "wind_ups": 1},
    )
    assert by_key.model_dump() == by_row.model_dump()
    assert by_key.dc_written == "7m"
    attack = {
        "task": {"score": 12, "bef": 5},
        "use": {"weapon": {"catalog": "dagger"}, "range": "close", "strength": 9},
    }
    assert run("melee/attack", {**attack, "dice": {"values": [50]}}).weapon.damage_class == "+2m"
    heavy = {"catalog": "club", "modifications": [{"modification": "heavy"}], "mass_kg": 4}
    found = run("melee/weapon-profile", {"weapon": heavy, "strength": 7})
    assert (found.damage_class, found.strength_penalty) == ("+3m", -5)  # 4 x 5 - 7 = 13 short
    with pytest.raises(ValidationError):
        run("melee/weapon-profile", {"weapon": {"catalog": "no-such-blade"}, "strength": 9})
    with pytest.raises(ValidationError):
        run("melee/weapon-profile", {"weapon": {"parry": 1}, "strength": 9})


SL_RIFLE_ROW = {
    "name": "SL Rifle",
    "use": "L",
    "range_m": 25,
    "recoil": 2,
    "jam": "B",
    "rof": "1",
    "ammo": "10",
    "rl": "3",
    "draw": 3,
    "dc": "9i2p",
}


def test_a_catalogue_key_is_the_row_in_ranged_attack():
    """The SL Rifle by key brings its 9i2p, its 25 m increment and Longarms' BEF 4."""
    shot = {"task": {"score": 12}, "distance_m": 30}
    by_key = odds("ranged/attack", {**shot, "weapon": {"catalog": "sl-rifle"}})
    by_row = odds("ranged/attack", {**shot, "weapon": SL_RIFLE_ROW})
    assert by_key.model_dump() == by_row.model_dump()
    fired = run(
        "ranged/attack", {**shot, "weapon": {"catalog": "sl-rifle"}, "dice": {"values": [5]}}
    )
    assert fired.dc == "9i2p"
    assert [(t.source, t.value) for t in fired.fire.modifiers] == [("range", -1)]
    assert fired.fire.bef == 4
    burst = {"catalog": "sl-rifle", "modifications": [{"modification": "auto_long_burst"}]}
    fired = run(
        "ranged/attack",
        {**shot, "distance_m": 6, "weapon": burst, "burst": True, "dice": {"values": [5]}},
    )
    assert (fired.rounds, fired.dc) == (6, "12i2p")  # +3 at a single target (note ++)
    overridden = run(
        "ranged/attack",
        {**shot, "weapon": {"catalog": "sl-rifle", "dc": "5i"}, "dice": {"values": [5]}},
    )
    assert overridden.dc == "5i"
    with pytest.raises(InputError) as error:
        run(
            "ranged/attack", {**shot, "weapon": {"catalog": "blunderbuss"}, "dice": {"values": [5]}}
        )
    assert error.value.loc == ("weapon", "catalog")
    with pytest.raises(InputError) as error:
        run("ranged/attack", {**shot, "weapon": {"use": "L"}, "dice": {"values": [5]}})
    assert error.value.loc == ("weapon", "range_m")


def test_an_attack_by_catalogue_key_end_to_end():
    """`attack` with {'ranged': {'weapon': {'catalog': 'sl-rifle'}}}: the blow is 9i2p; the
    odds equal those of the row written out."""
    ranged = {"task": {"score": 12}, "distance_m": 30}
    by_key = {"attacker": {"ranged": {**ranged, "weapon": {"catalog": "sl-rifle"}}}, "aim": "chest"}
    by_row = {"attacker": {"ranged": {**ranged, "weapon": SL_RIFLE_ROW}}, "aim": "chest"}
    assert odds("attack", by_key).model_dump() == odds("attack", by_row).model_dump()
    found = run("attack", {**by_key, "dice": {"values": [5]}})
    assert found.damage.damage_class.notation == "9i2p"
    melee = {
        "attacker": {
            "melee": {
                "task": {"score": 14, "bef": 5},
                "use": {"weapon": {"catalog": "sabre-longsword"}, "strength": 12},
            }
        },
        "aim": "chest",
    }
    assert (
        odds("attack", melee).hit.exact
        == odds(
            "attack",
            {
                **melee,
                "attacker": {
                    "melee": {
                        "task": {"score": 14, "bef": 5},
                        "use": {"weapon": SABRE_ROW, "strength": 12},
                    }
                },
            },
        ).hit.exact
    )


# --- DC with the UCDC (#122) -----------------------------------------------------------------


def ucdc(strength: int) -> Fraction:
    """The UCDC by ST (F:L491-501, catalogue 0.1), written out here: 1-2 1/8, 3-4 1/4, 5-6
    1/2, 7-8 1, 9-12 2, 13-14 3, 15-16 4, 17-18 5, above 18 round(ST/2 - 4)."""
    for top, value in (
        (2, Fraction(1, 8)),
        (4, Fraction(1, 4)),
        (6, Fraction(1, 2)),
        (8, 1),
        (12, 2),
        (14, 3),
        (16, 4),
        (18, 5),
    ):
        if strength <= top:
            return Fraction(value)
    return Fraction(math.floor(Fraction(strength, 2) - 4 + Fraction(1, 2)))


def test_a_longsword_with_a_wind_up():
    """F:L3636, F:L3024: +4m at ST 9 (UCDC 2) after one wind-up is DC 7m."""
    found = run("weapon/dc-with-ucdc", {"dc": "+4m", "strength": 9, "wind_ups": 1})
    assert (found.dc_written, found.ucdc, found.dc_modifier) == ("7m", "2", 1)


@pytest.mark.parametrize("strength", [1, 3, 5, 7, 9, 12, 13, 15, 17, 19, 20, 25, 40])
@pytest.mark.parametrize(
    ("hands", "both"), [("1", False), ("1-2", True), ("1-2", False), ("2", None)]
)
def test_dc_with_ucdc_against_the_rule_written_out(strength, hands, both):
    """UCDC + modifier + wind-ups + 1 for a (1-2) weapon in two hands - 1 numbed (F:L3720,
    F:L3247), computed independently."""
    for dc, wind_ups, numbed in (("+3m2p", 0, False), ("+0m", 2, True), ("-1m", 1, False)):
        found = run(
            "weapon/dc-with-ucdc",
            {
                "dc": dc,
                "strength": strength,
                "hands": hands,
                "two_handed": both,
                "wind_ups": wind_ups,
                "numbed": numbed,
            },
        )
        value = int(re.match(r"[+-]\d+", dc).group(0))
        expected = ucdc(strength) + value + wind_ups + (1 if both else 0) - (1 if numbed else 0)
        assert Fraction(found.dc.exact) == expected


def test_dc_with_a_given_ucdc_and_an_exoskeleton():
    """An exoskeleton adds to unarmed attacks only (F:L3966)."""
    found = run(
        "weapon/dc-with-ucdc", {"dc": "+0m", "ucdc": 2.5, "unarmed": True, "exoskeleton_dc": 3}
    )
    assert Fraction(found.dc.exact) == Fraction(11, 2)
    with pytest.raises(InputError):
        run("weapon/dc-with-ucdc", {"dc": "+4m", "ucdc": 2, "exoskeleton_dc": 3})
    with pytest.raises(InputError):
        run("weapon/dc-with-ucdc", {"dc": "+4m"})
    with pytest.raises(InputError) as error:
        run("weapon/dc-with-ucdc", {"dc": "6i", "strength": 9})
    assert error.value.loc == ("dc",)


# --- shields (#109) --------------------------------------------------------------------------

#: The note under the table (F:L3769), written out: limb, chest and abdomen, legs and head.
NOTE = {"small": (7, 3, 0), "medium": (8, 5, 0), "large": (8, 7, 4)}
BODY = {"chest": 1, "abdomen": 1, "head": 2, "left_leg": 2, "right_leg": 2}


@pytest.mark.parametrize("size", NOTE)
@pytest.mark.parametrize("direction", ["front", "shield_side", "other_side", "rear"])
@pytest.mark.parametrize("arm", ["left", "right"])
def test_shield_cover_is_the_note(size, direction, arm):
    """F:L3769: the body's cover from the front and the shield side; the limb's from any."""
    facing = direction in ("front", "shield_side")
    for location in ("head", "right_arm", "left_arm", "chest", "abdomen", "right_leg", "left_leg"):
        found = run(
            "shield/cover", {"size": size, "direction": direction, "arm": arm, "location": location}
        )
        if location == f"{arm}_arm":
            expected = NOTE[size][0]
        elif location in BODY and facing:
            expected = NOTE[size][BODY[location]]
        else:
            expected = 0
        assert found.cover == expected, location


def test_shield_protection_and_layers():
    """Wood protects as chainmail (2A, 2, 2; F:L3902), metal as plate (4A, 3, 3A; F:L3905) at
    3x the cost; the layers are damage/resolve's armor."""
    wood = run("shield/cover", {"size": "medium", "damage_type": "m"})
    assert (wood.rating, wood.protects_as, wood.cost_factor, wood.off_hand_modifier) == (
        "2A",
        "Chainmail",
        1,
        -1,
    )
    metal = run("shield/cover", {"size": "large", "metal": True, "damage_type": "b"})
    assert (metal.rating, metal.cost_factor) == ("3A", 3)
    assert [(layer.coverage, layer.locations) for layer in metal.layers] == [
        (8, ("left_arm",)),
        (7, ("chest", "abdomen")),
        (4, ("head", "right_leg", "left_leg")),
    ]
    hit = run(
        "damage/resolve",
        {
            "damage_class": "DC8",
            "qr": 2,
            "aim": "chest",
            "armor": [layer.model_dump(mode="json") for layer in wood.layers],
            "dice": {"values": [1]},
        },
    )
    assert hit.hits[0].layers


# --- concealment (#110) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kg", "notice", "frisk"),
    [
        (0.025, -10, -6),
        (0.0251, -8, -4),
        (0.1, -8, -4),
        (0.4, -4, 0),
        (1, -1, 2),
        (1.25, 0, 3),
        (1.5, 1, 3),
        (3, 3, 5),
        (5, 4, 6),
        (8, 5, 8),
        (12, 6, None),
        (12.5, None, None),
    ],
)
def test_concealment_bands_include_their_upper_weight(kg, notice, frisk):
    """F:L3833-3848: 'Up to 25g' includes 25 g; 8-12 kg is obvious to a frisk; 12+ kg is obvious."""
    found = run("concealment", {"weight_kg": kg})
    assert (found.notice, found.frisk) == (notice, frisk)


def test_a_pistol_under_a_trench_coat():
    """A 1.5 kg pistol (band +1/+3, F:L3841) in a shoulder holster (+0, +0, F:L3856) under a
    trench coat (-2, +1, F:L3869): notice -1, frisk +1, Draw 2 + 1 = 3."""
    found = run(
        "concealment",
        {"weight_kg": 1.5, "carry": "shoulder_holster", "clothing": "trench_coat", "draw": 2},
    )
    assert (found.notice, found.frisk, found.draw_change, found.draw) == (-1, 1, 1, 3)


def test_concealment_draw_and_unsuitable_clothing():
    """AMB-43: a hip holster (-2 Draw, F:L3855) on a Draw 2 pistol: 0, kept at 1; an ankle
    holster under clothes that do not suit it hides nothing (F:L3864)."""
    found = run("concealment", {"weight_kg": 1, "carry": "hip_holster", "draw": 2})
    assert (found.notice, found.draw) == (-1 + 2, 1)
    found = run(
        "concealment",
        {"weight_kg": 1, "carry": "hip_holster", "draw": 2, "options": {"min_draw": 0}},
    )
    assert found.draw == 0
    found = run("concealment", {"weight_kg": 1, "carry": "ankle", "clothing_suits": False})
    assert (found.carry_modifier, found.notice) == (0, -1)


def test_unsuitable_clothing_loses_the_carrys_concealment_not_its_giveaway():
    """F:L3864: a holster conceals only under clothing that suits it. An ankle holster's -2
    (F:L3859) is lost under the wrong clothes; a hip holster's +2 (F:L3855) conceals nothing,
    so the wrong clothes cannot make it harder to notice: 1 kg (-1, +2, F:L3839) stays +1, +4."""
    for suits in (True, False):
        request = {"weight_kg": 1, "carry": "hip_holster", "clothing_suits": suits}
        found = run("concealment", request)
        assert (found.carry_modifier, found.notice, found.frisk) == (2, 1, 4)
    found = run("concealment", {"weight_kg": 1, "carry": "ankle", "clothing_suits": False,
                                "clothing": "trench_coat"})  # fmt: skip
    assert (found.carry_modifier, found.clothing_modifier, found.notice) == (0, -2, -3)


def test_modifications_past_a_bound_are_a_422_not_a_fault():
    """A row's own eight range factors and one more from a modification break the bound of
    eight: refused at the modifications (a 422), not a fault."""
    row = {"weapon": {"name": "Odd gun", "use": "H", "range_m": 3, "range_multipliers": [1.1] * 8},
           "mass_kg": 1, "cost_svu": 1, "tl": 5}  # fmt: skip
    with pytest.raises(InputError) as error:
        run("weapon/ranged/modify", {"row": row, "modifications": [{"modification": "light"}]})
    assert error.value.loc == ("modifications",)
    assert "range_multipliers" in error.value.message


def test_a_dc_below_0_is_not_floored():
    """No seed line bounds a DC: a '+0m' weapon at UCDC 0.125 (ST 1, F:L493), numbed (-1,
    F:L3247), is DC -7/8, which does nothing (AMB2-06); a floor at 0 would make it S at
    QR1-QR3 (F:L2642-2649)."""
    found = run("weapon/dc-with-ucdc", {"dc": "+0m", "strength": 1, "numbed": True})
    assert Fraction(found.dc.exact) == Fraction(-7, 8)
