"""FORESIGHT species and character modifiers (catalogue 3.F): the species table, custom
species (checked against the catalogue's cross-check), frames, aging (5.6), unique insights
and gifts."""

from fractions import Fraction

import pytest

from service.rules.model import InputError, Violations
from tests.rules.foresight.calls import odds, run

#: Catalogue 5.6: attributes lowered by one aging.
AGING = {0: Fraction(27, 131072), 1: Fraction(459, 131072), 2: Fraction(819, 32768),
         3: Fraction(3175, 32768), 4: Fraction(14453, 65536), 5: Fraction(19533, 65536),
         6: Fraction(7623, 32768), 7: Fraction(3267, 32768), 8: Fraction(2835, 131072),
         9: Fraction(243, 131072)}  # fmt: skip
NINES = {a: 9 for a in ("ST", "EN", "DX", "AG", "IN", "PC", "EM", "WP", "AP")}


def test_the_dwarf():
    """F:L1147-1152: 15 general, ST 7-14, EN 6-13, AG 5-11."""
    found = run("species", {"species": "Dwarf"})
    ranges = {r.attribute: (r.low, r.high) for r in found.ranges}
    assert (found.general, found.education, found.ds) == (15, 0, "1")
    assert (ranges["ST"], ranges["EN"], ranges["AG"], ranges["AP"]) == (
        (7, 14),
        (6, 13),
        (5, 11),
        (5, 12),
    )


@pytest.mark.parametrize(
    ("species", "features", "ds_steps", "remainder"),
    [("Elf", [("ST", -1, -1), ("AG", 1, 1), ("IN", 1, 1), ("WP", 1, 1)], 0, 20),
     ("Halfling", [("ST", -2, -2), ("DX", 1, 1), ("AG", 1, 1), ("WP", 2, 2)], -1, 0),
     ("Orc", [("ST", 2, 2), ("EN", 2, 2), ("IN", -1, -2), ("EM", -2, -4), ("WP", -1, -2)], 0, 0)],
)  # fmt: skip
def test_the_book_species_priced_as_custom_ones(species, features, ds_steps, remainder):
    """F:L1177-1183 against the catalogue's cross-check (3.F.5): the ranges and DS cost what
    they cost, the species' points take more of the 80, and the rest prices its specials."""
    body = {"features": [{"attribute": a, "minimum": lo, "maximum": hi} for a, lo, hi in features],
            "ds_steps": ds_steps}  # fmt: skip
    found = run("species/custom", body)
    book = run("species", {"species": species})
    assert {(r.attribute, r.low, r.high) for r in found.ranges} == {
        (r.attribute, r.low, r.high) for r in book.ranges}  # fmt: skip
    assert found.remaining - book.general - book.education == remainder


def test_frames_shift_the_ranges():
    """F:L1112-1113 (AMB-31): Enormous Frame human ST 7-14 and AG 3-10, DS 5/4."""
    found = run("species", {"modifiers": ["enormous_frame"]})
    ranges = {r.attribute: (r.low, r.high) for r in found.ranges}
    assert (ranges["ST"], ranges["AG"], found.ds) == ((7, 14), (3, 10), "5/4")
    only_max = {"modifiers": ["tiny_frame"], "options": {"frame_shifts_minimum": False}}
    tiny = {r.attribute: (r.low, r.high) for r in run("species", only_max).ranges}
    assert (tiny["ST"], tiny["DX"]) == ((5, 10), (5, 13))
    with pytest.raises(InputError):
        run("species", {"modifiers": ["enormous_frame", "tiny_frame"]})


def test_aging_odds_match_5_6():
    found = odds("character-modifiers/aging", {"inherent": NINES})
    assert {int(r.outcome): Fraction(r.exact) for r in found.reduced_count} == AGING


def test_aging_lowers_inherent_and_trained():
    """F:L1116: ST 75% (a d4 at 1-3), PC 50% (a d2 at 1), IN 25% (a d4 at 1)."""
    faces = [3, 4, 4, 4, 1, 2, 2, 2, 4]  # ST, EN, DX, AG, IN, PC, EM, WP, AP
    found = run("character-modifiers/aging", {"inherent": NINES, "trained": {"ST": 11},
                                              "dice": {"values": faces}})  # fmt: skip
    assert (found.reduced, found.inherent.ST, found.trained.ST, found.trained.IN) == (
        ["ST", "IN"], 8, 10, 8)  # fmt: skip
    kept = {"inherent": NINES, "trained": {"ST": 11}, "options": {"reduce_trained": False},
            "dice": {"values": faces}}  # fmt: skip
    assert run("character-modifiers/aging", kept).trained.ST == 11


def test_a_unique_insight_needs_the_maximum_and_26():
    """C29, F:L1117: Charisma at its maximum with AP and EM 13: 13 + 13 = 26, 10 x 1 CP."""
    found = run(
        "character-modifiers/unique-insight",
        {"skill": "Charisma", "level": 13, "attributes": {"AP": 13, "EM": 13}},
    )
    assert (found.eligible, found.cost) == (True, 10)
    short = run(
        "character-modifiers/unique-insight",
        {"skill": "Charisma", "level": 12, "attributes": {"AP": 12, "EM": 12}},
    )
    assert not short.eligible
    assert len(short.reasons) == 1  # 24: the score falls short, though 12 is the maximum


def test_a_unique_gift():
    """F:L1120 (AMB-33): skills of cost 4 at most sharing an attribute; or +2 to an attribute
    within a point of its maximum; with a deficit."""
    found = run(
        "character-modifiers/unique-gift",
        {"gift": "skills", "skills": ["Charisma", "Seduction"], "deficit": "hunted"},
    )
    assert found.effects[:2] == ["+2 BEF to Charisma", "+2 BEF to Seduction"]
    with pytest.raises(Violations):
        run(
            "character-modifiers/unique-gift",
            {
                "gift": "skills",
                "skills": ["Sing", "Charisma"],
                "deficit": "attribute",
                "deficit_attribute": None,
            },
        )
    beauty = {"gift": "attribute", "gift_attribute": "AP", "inherent": 11, "deficit": "attribute",
              "deficit_attribute": "WP"}  # fmt: skip
    assert run("character-modifiers/unique-gift", beauty).effects[1] == "-4 inherent WP"
    twice = {"gift": "skills", "skills": ["Charisma", "charisma"], "deficit": "hunted"}
    with pytest.raises(Violations, match="each skill once"):
        run("character-modifiers/unique-gift", twice)


def test_aging_a_trained_score_of_1():
    """A trained AG of 1 (fallen far below inherent) that ages stays at 0, not below."""
    faces = [4, 4, 4, 1, 4, 2, 2, 2, 4]
    found = run("character-modifiers/aging", {"inherent": NINES, "trained": {"AG": 1, "ST": 0},
                                              "dice": {"values": faces}})  # fmt: skip
    assert (found.trained.AG, found.trained.ST, found.inherent.AG) == (0, 0, 8)


def test_a_gifted_attribute_is_11_or_12_for_a_human():
    """F:L1120: the +2 goes to an inherent attribute 'within one point of its range maximum
    already (i.e. 11 or 12 for humans)'; 10 is too low, and 13 is past the human range (5-12,
    F:L467), not within a point of its maximum."""
    gift = {"gift": "attribute", "gift_attribute": "AP", "deficit": "hunted"}
    for inherent in (11, 12):
        assert run("character-modifiers/unique-gift", {**gift, "inherent": inherent}).effects
    for inherent in (10, 13):
        with pytest.raises(Violations, match="within one point"):
            run("character-modifiers/unique-gift", {**gift, "inherent": inherent})
    orc_em = {**gift, "gift_attribute": "EM", "range_maximum": 8}  # the Orc's EM is 3-8
    assert run("character-modifiers/unique-gift", {**orc_em, "inherent": 8}).effects
    with pytest.raises(Violations, match="within one point"):
        run("character-modifiers/unique-gift", {**orc_em, "inherent": 9})
