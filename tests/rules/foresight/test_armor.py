"""FORESIGHT armor and exoskeletons (catalogue part 2, #111-#116, 2.11; X34-X37): the tables
against the seed's own cells, the worked examples, and the layers armor/protection hands to
damage/resolve. No op here rolls dice, so there are no odds; the coverage D10s are rolled by
damage/resolve, whose odds its own tests check. Seed lines are cited as F:L<n>."""

from fractions import Fraction
from pathlib import Path

import pytest

from service.rules.foresight.armor.catalog import ARMOR, ARMOR_LOCATIONS
from service.rules.foresight.armor.exoskeleton import EXOSKELETONS
from service.rules.foresight.mortality.condition import Location
from service.rules.foresight.mortality.hits import ArmorLayer
from service.rules.model import InputError
from tests.rules.foresight.calls import OPS, odds, run

SEED = Path("/work/shared/seeds/004_0f2ce8cae6aa3515.txt")
SHARED = pytest.mark.skipif(not SEED.exists(), reason="the shared seed is not on this machine")


def cells(line: int) -> list[str]:
    text = SEED.read_text(encoding="utf-8").split("\n")[line - 1]
    return [cell.strip() for cell in text.split("\t")]


def number(text: str) -> float:
    return float(text.replace("+", ""))


def line_of(source: str) -> int:
    assert source.startswith("F:L")
    return int(source[3:])


# --- the tables are the seed's cells ----------------------------------------------------------


@SHARED
def test_every_armor_row_is_its_seed_line():
    """F:L3896-3922: 26 rows, each the cells of its own line (the blank F:L3899 skipped)."""
    assert len(ARMOR) == 26
    lines = [line_of(row.source) for row in ARMOR]
    assert lines == [n for n in range(3896, 3923) if n != 3899]
    for row in ARMOR:
        name, melee, impact, beam, agdx, weight, cost, tl = cells(line_of(row.source))
        assert (row.name, row.melee, row.impact, row.beam) == (name, melee, impact, beam)
        assert (row.agdx, row.base_weight_kg, row.base_cost_svu, row.tl) == (
            int(agdx), number(weight), number(cost), number(tl))  # fmt: skip


@SHARED
def test_every_armor_location_is_its_seed_line():
    """F:L3935-3950: the multipliers, coverage and notes as printed."""
    assert [line_of(row.source) for row in ARMOR_LOCATIONS] == list(range(3935, 3951))
    for row in ARMOR_LOCATIONS:
        printed = [*cells(line_of(row.source)), ""]
        assert row.name == printed[0]
        assert (row.weight_multiplier, row.cost_multiplier) == (number(printed[1]),
                                                                number(printed[2]))  # fmt: skip
        assert (row.coverage_written, row.notes) == (printed[3], printed[4])


@SHARED
def test_every_exoskeleton_is_its_seed_line():
    """F:L3976-3983: Armor, Move, ST, DC, Stamina S/k, weight, TL, cost ('100k')."""
    assert [line_of(row.source) for row in EXOSKELETONS] == list(range(3976, 3984))
    for row in EXOSKELETONS:
        name, armor, move, st, dc, stamina, weight, tl, cost = cells(line_of(row.source))
        assert (row.name, row.armor_multiplier, row.move_m, row.st, row.dc) == (
            name, int(armor), int(move), int(st), int(dc))  # fmt: skip
        assert f"{row.stamina}/{row.recharge_kwh:g}" == stamina == row.written_stamina
        assert (row.weight_kg, row.tl, row.cost) == (number(weight), number(tl), cost)
        assert row.cost_svu == number(cost.rstrip("k")) * 1000


def test_keys_are_unique_and_a_repeated_name_ends_in_its_tl():
    keys = [row.key for row in ARMOR]
    assert len(set(keys)) == len(keys)
    assert [k for k in keys if "nanofiber" in k] == [
        "flexible-nanofiber-7", "rigid-nanofiber-7", "flexible-nanofiber-8",
        "rigid-nanofiber-8", "flexible-nanofiber-9", "rigid-nanofiber-9"]  # fmt: skip


# --- foresight.armor.catalog (#111) ------------------------------------------------------------


def test_catalog_searches_by_name_and_tl():
    """F:L3906: heavy plate 5A/5/4A, -5, 5 kg, 300 svu, TL 3."""
    found = run("armor/catalog", {"name": "Heavy Plate"})
    assert found.count == 1
    row = found.armor[0]
    assert (row.melee, row.impact, row.beam, row.agdx, row.tl) == ("5A", "5", "4A", -5, 3)
    assert [r.key for r in run("armor/catalog", {"name": "nanofiber", "tl": 8}).armor] == [
        "flexible-nanofiber-8", "rigid-nanofiber-8"]  # fmt: skip
    plate = run("armor/catalog", {"name": "plate", "tl_max": 2.5}).armor
    assert [r.name for r in plate] == ["Bronze Light Plate", "Bronze Plate"]
    assert run("armor/catalog", {"tl_min": 6, "tl_max": 6}).count == 4
    assert "AMB2-56" in run("armor/catalog", {}).note
    with pytest.raises(InputError) as error:
        run("armor/catalog", {"tl_min": 5, "tl_max": 4})
    assert error.value.loc == ("tl_max",)


# --- foresight.armor.piece (#112) --------------------------------------------------------------


def test_the_silkweave_vest_weighs_3_kg_x36():
    """X36 (F:L3952-3954): 2 kg x 1.5 = 3 kg; 9/10 from front or rear, 6/10 from the sides;
    not on arms or legs, so its AG/DX is ignored."""
    vest = run("armor/piece", {"armor": "silkweave", "piece": "vest"})
    assert vest.weight_kg.exact == "3/1"
    assert vest.cost_svu.exact == "300/1"
    chest = next(c for c in vest.coverage if c.location == "chest")
    assert (chest.front, chest.rear, chest.side) == (9, 9, 6)
    assert [c.location.value for c in vest.coverage] == ["chest", "abdomen"]
    assert (vest.agility_tasks, vest.dexterity_tasks) == (False, False)
    assert run("armor/agdx-penalty", {"worn": [{"armor": "silkweave", "piece": "vest"}],
                                      "level": 0}).agility_modifier == 0  # fmt: skip


def test_piece_coverage_reads_the_notes():
    """F:L3936, F:L3937, F:L3940, F:L3941, F:L3945: overhead, behind, thighs, arms, rear."""
    infantry = run("armor/piece", {"armor": "kevlar", "piece": "infantry_helmet"}).coverage[0]
    assert (infantry.front, infantry.above) == (4, 8)
    open_faced = run("armor/piece", {"armor": "plate", "piece": "open_faced_helmet"}).coverage[0]
    assert (open_faced.front, open_faced.rear) == (6, 9)
    shirt = {c.location.value: c.front for c in run(
        "armor/piece", {"armor": "kevlar", "piece": "shirt_legs"}).coverage}  # fmt: skip
    assert shirt == {"chest": 10, "abdomen": 10, "right_leg": 3, "left_leg": 3}
    sleeved = {c.location.value: c.front for c in run(
        "armor/piece", {"armor": "kevlar", "piece": "shirt_arms"}).coverage}  # fmt: skip
    assert (sleeved["chest"], sleeved["right_arm"]) == (10, 8)
    shin = run("armor/piece", {"armor": "plate", "piece": "shinguards"}).coverage[0]
    assert (shin.front, shin.side, shin.rear) == (6, 6, 2)
    suit = run("armor/piece", {"armor": "heavy-plate", "piece": "full_suit"})
    assert "head" not in [c.location.value for c in suit.coverage]
    assert (suit.weight_kg.exact, suit.cost_svu.exact) == ("40/1", "3000/1")


def test_an_unknown_armor_is_a_422_naming_the_field():
    with pytest.raises(InputError) as error:
        run("armor/piece", {"armor": "mithril", "piece": "vest"})
    assert error.value.loc == ("armor",)
    with pytest.raises(InputError) as error:
        run("armor/protection", {"worn": [{"armor": "kevlar", "piece": "vest"},
                                          {"armor": "adamant", "piece": "boots"}]})  # fmt: skip
    assert error.value.loc == ("worn", 1, "armor")


# --- foresight.armor.protection (#113) ---------------------------------------------------------


def test_protection_gives_damage_resolve_s_layers():
    """F:L3930, F:L3954: the vest's chest from the side is one 4A layer at 6/10; the layers are
    mortality's ArmorLayer, and pasted into damage/resolve they reduce DC8 by 4 and absorb one
    when the coverage D10 is 9 or less (9/10 from the front)."""
    body = {"worn": [{"armor": "silkweave", "piece": "vest"}], "location": "chest",
            "direction": "side"}  # fmt: skip
    side = run("armor/protection", body)
    assert side.layers == [ArmorLayer(name="silkweave vest", rating="4A", coverage=6,
                                      locations=(Location.CHEST,))]  # fmt: skip
    front = run("armor/protection", {**body, "direction": "front"}).layers
    assert front[0].coverage == 9
    layers = [layer.model_dump(mode="json") for layer in front]
    request = {"damage_class": "DC8i", "qr": 2, "aim": "chest", "armor": layers}
    covered = run("damage/resolve", {**request, "dice": {"values": [9]}})
    assert covered.hits[0].layers[0].protects
    assert (covered.result, covered.hits[0].absorbed) == ("1", 1)
    bare = run("damage/resolve", {**request, "dice": {"values": [10]}})
    assert (bare.result, bare.hits[0].layers[0].protects) == ("3", False)


def test_protection_layers_are_accepted_by_the_end_to_end_attack():
    """The same layers are `attack`'s target armor: its example's sword blow, run against a
    plate suit and helmet, meets them by name."""
    layers = run("armor/protection", {"worn": [{"armor": "plate", "piece": "full_suit"},
                                               {"armor": "plate", "piece": "full_faced_helmet"}],
                                      "damage_type": "melee"}).layers  # fmt: skip
    assert [(x.rating, x.coverage) for x in layers] == [("4A", 10), ("4A", 9)]
    armor = [x.model_dump(mode="json") for x in layers]
    met = set()
    for seed in range(12):
        found = run("attack", {**OPS["attack"].example, "armor": armor, "dice": {"seed": seed}})
        met |= {layer.name for hit in found.damage.hits for layer in hit.layers}
    assert met == {"plate full_suit", "plate full_faced_helmet"}


def test_protection_reads_the_damage_type_s_column():
    """F:L3879: stun meets the impact rating; F:L3921: flexible nanofiber TL8 is 3A/5AA/5A."""
    worn = {"worn": [{"armor": "flexible-nanofiber-8", "piece": "shirt"}], "location": "abdomen"}
    ratings = {t: run("armor/protection", {**worn, "damage_type": t}).layers[0].rating
               for t in ("melee", "impact", "beam", "stun")}  # fmt: skip
    assert ratings == {"melee": "3A", "impact": "5AA", "beam": "5A", "stun": "5AA"}


def test_protection_keeps_only_pieces_covering_the_location():
    worn = [{"armor": "heavy-kevlar", "piece": "vest"}, {"armor": "kevlar", "piece": "boots"},
            {"armor": "kevlar", "piece": "infantry_helmet"}]  # fmt: skip
    head = run("armor/protection", {"worn": worn, "location": "head", "direction": "above"})
    assert [(x.name, x.rating, x.coverage) for x in head.layers] == [
        ("kevlar infantry_helmet", "3A", 8)]  # fmt: skip
    arm = run("armor/protection", {"worn": worn, "location": "left_arm"})
    assert arm.layers == []
    assert arm.steps == ["no piece worn covers the location"]
    everywhere = run("armor/protection", {"worn": worn}).layers
    assert [x.locations for x in everywhere] == [
        ("chest", "abdomen"), ("right_leg", "left_leg"), ("head",)]  # fmt: skip


def test_gloves_complete_sleeves_of_the_same_armor():
    """F:L3941, F:L3949: gloves with sleeves or a sleeved shirt cover the arms 10/10; of
    another armor they stay two layers, each with its own coverage."""
    same = [{"armor": "kevlar", "piece": "shirt_arms"}, {"armor": "kevlar", "piece": "gloves"}]
    layers = run("armor/protection", {"worn": same, "location": "right_arm"}).layers
    assert [(x.name, x.coverage) for x in layers] == [("kevlar shirt_arms", 10)]
    other = [{"armor": "kevlar", "piece": "sleeves"}, {"armor": "plate", "piece": "gloves"}]
    layers = run("armor/protection", {"worn": other, "location": "right_arm"}).layers
    assert [(x.name, x.coverage) for x in layers] == [("kevlar sleeves", 8), ("plate gloves", 2)]
    vest = [{"armor": "kevlar", "piece": "vest"}, *same]
    layers = run("armor/protection", {"worn": vest, "location": "right_arm"}).layers
    assert [(x.name, x.coverage) for x in layers] == [("kevlar shirt_arms", 10)]


# --- worn armor by name in damage/resolve and attack -------------------------------------------


def test_worn_armor_by_name_meets_the_damage_class_s_column():
    """F:L3879, F:L3930, F:L3954: a silkweave vest named in damage/resolve's `worn` is 4A
    against impact, 9/10 from the front and 6/10 from the side: DC8i at QR2 to the chest is
    DC4, table 2, 1 after the A when the D10 keeps it, 3 when it does not (F:L2663)."""
    body = {"damage_class": "DC8i", "qr": 2, "aim": "chest",
            "worn": [{"armor": "silkweave", "piece": "vest"}]}  # fmt: skip
    covered = run("damage/resolve", {**body, "dice": {"values": [9]}})
    assert [(x.name, x.rating, x.coverage, x.protects) for x in covered.hits[0].layers] == [
        ("silkweave vest", "4A", 9, True)]  # fmt: skip
    assert covered.result == "1"
    assert run("damage/resolve", {**body, "dice": {"values": [10]}}).result == "3"
    table = odds("damage/resolve", body).result
    assert {str(row.outcome): row.exact for row in table} == {"1": "9/10", "3": "1/10"}
    side = run("damage/resolve", {**body, "direction": "side", "dice": {"values": [7]}})
    assert (side.hits[0].layers[0].coverage, side.result) == (6, "3")
    melee = run("damage/resolve", {**body, "damage_class": "DC8m", "dice": {"values": [1]}})
    assert melee.hits[0].layers[0].rating == "2"  # silkweave is 2 against melee (F:L3913)


@pytest.mark.parametrize("direction", ["front", "rear", "side", "above"])
@pytest.mark.parametrize(("damage_class", "column"),
                         [("DC12i4p", "impact"), ("DC9m", "melee"), ("DC14b", "beam"),
                          ("6is", "stun")])  # fmt: skip
def test_worn_pieces_have_the_odds_of_protection_s_layers(direction, damage_class, column):
    """Naming the outfit in `worn` is the same armor as pasting armor/protection's layers for
    every location: the same odds at every location, direction and damage type."""
    worn = [{"armor": "kevlar", "piece": "infantry_helmet"},
            {"armor": "heavy-kevlar", "piece": "vest"},
            {"armor": "kevlar", "piece": "shirt_arms"}, {"armor": "kevlar", "piece": "gloves"},
            {"armor": "plate", "piece": "shinguards"}]  # fmt: skip
    pasted = run("armor/protection", {"worn": worn, "direction": direction,
                                      "damage_type": column}).layers  # fmt: skip
    layers = [x.model_dump(mode="json") for x in pasted]
    assert len(layers) <= 8
    for aim in ("random", "head", "right_arm", "right_leg"):
        body = {"damage_class": damage_class, "aim": aim, "condition": {"wound_level": 2}}
        by_name = odds("damage/resolve", {**body, "worn": worn, "direction": direction})
        given = odds("damage/resolve", {**body, "armor": layers})
        assert by_name == given, aim


def test_worn_armor_in_the_end_to_end_attack():
    """attack's target takes the outfit by name too: the example's sword blow (melee) meets
    a plate suit's 4A and the full-faced helmet's 4A at 9/10 (F:L3905, F:L3935)."""
    worn = [{"armor": "plate", "piece": "full_suit"},
            {"armor": "plate", "piece": "full_faced_helmet"}]  # fmt: skip
    met = set()
    for seed in range(12):
        found = run("attack", {**OPS["attack"].example, "armor": [], "worn": worn,
                               "dice": {"seed": seed}})  # fmt: skip
        met |= {(x.name, x.rating) for hit in found.damage.hits for x in hit.layers}
    assert met == {("plate full_suit", "4A"), ("plate full_faced_helmet", "4A")}


def test_worn_armor_needs_a_typed_damage_class_and_fits_the_layer_bound():
    with pytest.raises(InputError) as found:
        run("damage/resolve", {"damage_class": "DC8", "worn": [{"armor": "plate",
                                                                "piece": "vest"}]})  # fmt: skip
    assert found.value.loc == ("worn",)
    with pytest.raises(InputError) as found:
        run("damage/resolve", {"damage_class": "DC8i", "worn": [{"armor": "mithril",
                                                                 "piece": "vest"}]})  # fmt: skip
    assert found.value.loc == ("worn", 0, "armor")
    with pytest.raises(InputError) as found:
        run("damage/resolve", {"damage_class": "DC8i", "armor": [{"rating": "1"}] * 5,
                               "worn": [{"armor": "plate", "piece": "vest"}] * 4})  # fmt: skip
    assert found.value.loc == ("worn",)


def test_every_layer_name_fits_armor_layer():
    """ArmorLayer names hold 40 characters: the longest key and piece fit."""
    for row in ARMOR:
        for piece in ARMOR_LOCATIONS:
            found = run("armor/protection", {"worn": [{"armor": row.key, "piece": piece.piece}]})
            assert all(len(x.name or "") <= 40 for x in found.layers)


# --- foresight.armor.agdx_penalty (#114) -------------------------------------------------------


def test_heavy_plate_with_armor_exo_14_is_minus_1_x34():
    """X34 (F:L3885): 14 / 4 = 3.5, rounds off to 4; -5 + 4 = -1."""
    found = run("armor/agdx-penalty", {"agdx": -5, "level": 14})
    assert (found.mitigation, found.agility_modifier, found.dexterity_modifier) == (4, -1, -1)
    suit = run("armor/agdx-penalty", {"worn": [{"armor": "heavy-plate", "piece": "full_suit"}],
                                      "level": 14})  # fmt: skip
    assert (suit.agility_modifier, suit.dexterity_modifier) == (-1, -1)


@pytest.mark.parametrize(("agdx", "level", "expected"), [
    (-5, 0, -5), (-5, 1, -5), (-5, 2, -4), (-5, 13, -2), (-4, 18, 0), (-1, 20, 0), (-2, 6, 0),
])  # fmt: skip
def test_mitigation_is_a_quarter_rounded_off_and_never_a_bonus(agdx, level, expected):
    """F:L3883: level / 4 rounded half up (F:L264); the net modifier is never positive."""
    quarter = Fraction(level, 4)
    mitigation = int(quarter) + (1 if quarter - int(quarter) >= Fraction(1, 2) else 0)
    assert min(0, agdx + mitigation) == expected
    found = run("armor/agdx-penalty", {"agdx": agdx, "level": level})
    assert (found.mitigation, found.agility_modifier) == (mitigation, expected)


def test_the_penalty_reaches_the_limbs_the_armor_is_worn_on():
    """F:L3883: legs -> agility tasks, arms -> dexterity tasks; boots ignore it (F:L3944); the
    worst piece on a limb counts; helmets -3/-1 to PC (F:L3935, F:L3937); an armored
    exoskeleton ignores it for agility (F:L3964)."""

    def penalty(worn, **more):
        found = run("armor/agdx-penalty", {"worn": worn, "level": 4, **more})
        return found.agility_modifier, found.dexterity_modifier, found.pc_modifier

    assert penalty([{"armor": "plate", "piece": "trousers"}]) == (-3, 0, 0)
    assert penalty([{"armor": "plate", "piece": "sleeves"}]) == (0, -3, 0)
    assert penalty([{"armor": "heavy-plate", "piece": "boots"}]) == (0, 0, 0)
    assert penalty([{"armor": "kevlar", "piece": "trousers"},
                    {"armor": "heavy-plate", "piece": "shinguards"}]) == (-4, 0, 0)  # fmt: skip
    assert penalty([{"armor": "plate", "piece": "full_faced_helmet"},
                    {"armor": "plate", "piece": "open_faced_helmet"}]) == (0, 0, -3)  # fmt: skip
    suit = [{"armor": "impermasuit", "piece": "full_suit"}]
    assert penalty(suit, armored_exoskeleton=True) == (0, -2, 0)


def test_the_mitigation_basis_option():
    """The catalogue's `armor_mitigation_basis` (2.11): 'skill level' as written, or the
    example's 'skill of 14' read as a score."""
    level = run("armor/agdx-penalty", {"agdx": -5, "level": 2, "score": 14})
    assert level.agility_modifier == -4
    assert level.options_applied.armor_mitigation_basis == "level"
    score = run("armor/agdx-penalty", {"agdx": -5, "level": 2, "score": 14,
                                       "options": {"armor_mitigation_basis": "score"}})  # fmt: skip
    assert score.agility_modifier == -1
    with pytest.raises(InputError) as error:
        run("armor/agdx-penalty", {"agdx": -5, "options": {"armor_mitigation_basis": "score"}})
    assert error.value.loc == ("score",)
    with pytest.raises(InputError) as error:
        run("armor/agdx-penalty", {"level": 3})
    assert error.value.loc == ("agdx",)


# --- foresight.armor.encumbrance (#115) --------------------------------------------------------


def test_heavy_plate_full_suit_counts_20_kg_x35():
    """X35 (F:L3924): 5 kg x 8 = 40 kg worn counts 50%: 20 kg. The book prints 22.5 kg, half
    of 45 kg (as if with a 5 kg open-faced helmet); half of 40 is 20 (AMB2-32, no option). It
    still burdens average ST 9 (laden 16 < 20 <= burden 32); ST 15 carries 24 unhindered."""
    suit = [{"armor": "heavy-plate", "piece": "full_suit"}]
    found = run("armor/encumbrance", {"worn": suit, "strength": 9})
    assert (found.armor_kg.exact, found.counted_kg.exact) == ("40/1", "20/1")
    assert (found.state, found.agility_modifier) == ("burdened", -2)
    strong = run("armor/encumbrance", {"worn": suit, "strength": 15})
    assert (strong.state, strong.agility_modifier) == ("unencumbered", 0)
    helmeted = [*suit, {"armor": "heavy-plate", "piece": "open_faced_helmet"}]
    assert run("armor/encumbrance", {"worn": helmeted}).counted_kg.exact == "45/2"


def test_carried_armor_and_the_armored_exoskeleton():
    """F:L505: carried armor counts in full; F:L3964: an armored exoskeleton's armor does not
    encumber. Other load adds in full, as the character rules have it."""
    vest = [{"armor": "silkweave", "piece": "vest"}]
    assert run("armor/encumbrance", {"worn": vest, "worn_on_body": False}).counted_kg.float == 3
    assert run("armor/encumbrance", {"worn": vest, "armored_exoskeleton": True,
                                     "other_load_kg": 5}).load_kg.exact == "5/1"  # fmt: skip
    mixed = run("armor/encumbrance", {"worn": vest, "other_armor_kg": [2.5],
                                      "other_load_kg": 10, "strength": 9})  # fmt: skip
    assert (mixed.armor_kg.exact, mixed.load_kg.exact, mixed.state) == ("11/2", "51/4", "laden")
    assert run("armor/encumbrance", {"worn": vest}).state is None


# --- foresight.exoskeleton (#116) --------------------------------------------------------------


def test_tl6_combat_exo_covered_with_impermasuit_carries_60_kg_x37():
    """X37 (F:L3985): 30 x 2 = 60 kg of armor; its cost 30 x 200 svu."""
    found = run("exoskeleton", {"exoskeleton": "combat-6", "armor": "impermasuit"})
    assert (found.armor_kg.exact, found.armor_cost_svu.exact) == ("60/1", "6000/1")
    assert (found.total_kg.exact, found.total_cost_svu.exact) == ("260/1", "106000/1")
    assert found.full_recharge_kwh.exact == "5/1"  # 25 points x 0.2 kWh (F:L3972)


def test_an_exoskeleton_s_strength_and_task_scores():
    """F:L3960: DX/AG tasks at the lower score; F:L3968-3970: ST added (UCDC of ST 18 is 5,
    F:L499), DC added besides."""
    found = run("exoskeleton", {"exoskeleton": "Combat-6", "strength": 12, "task_score": 15,
                                "armor_exoskeleton_score": 11})  # fmt: skip
    assert (found.strength, found.ucdc, found.unarmed_dc_bonus) == (18, "5", 4)
    assert (found.task_score, found.move_bonus_m, found.armor) == (11, 2, None)
    assert found.ignores == []
    with pytest.raises(InputError) as error:
        run("exoskeleton", {"exoskeleton": "combat-6", "task_score": 15})
    assert error.value.loc == ("armor_exoskeleton_score",)
    with pytest.raises(InputError) as error:
        run("exoskeleton", {"exoskeleton": "combat-5"})
    assert error.value.loc == ("exoskeleton",)
