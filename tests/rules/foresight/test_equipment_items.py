"""FORESIGHT items (catalogue part 2, #99-#104, issue 24): failure checks and shifts, item
modifications, tech levels, units and size words. F:L<n> is line n of
shared/seeds/004_0f2ce8cae6aa3515.txt; X and Q ids are the catalogue's (foresight-2.md 3, 4).

The odds are checked against the catalogue's Q10 and against a count written here from the
Failure Ranges table's own words (F:L3570-3585), sharing no code with the service."""

from fractions import Fraction
from typing import Any

import pytest
from pydantic import ValidationError

from service.rules.foresight.equipment.failure import NumericFailureShift, shift
from service.rules.model import InputError
from tests.rules.foresight.calls import odds, run

# --- an independent reading of the Failure Ranges table (F:L3570-3585) ------------------------

FACES = range(1, 101)  # D100: 1..100, "00" is 100

#: Each letter's failing faces, from the words of the table (F:L3571-3579); B is C's 99 with a
#: D10 of 10 (F:L3585).
WORDS: dict[str, Any] = {
    "A": lambda face: False,  # "-"
    "B": lambda face: face == 99,  # 99*
    "C": lambda face: face == 99,  # "Any roll of 99"
    "D": lambda face: face in (50, 99),  # "Any roll of 50, or 99"
    "E": lambda face: face in (25, 50, 75, 99),
    "F": lambda face: face % 10 == 5,  # "Any roll ending in 5."
    "G": lambda face: face % 10 in (3, 8),
    "H": lambda face: face % 10 in (2, 5, 9),
    "I": lambda face: face % 2 == 0,  # "Any even roll." (100 is even)
}


def brute_failure(code: str) -> Fraction:
    """P(fail) per use over 100 faces x 10 follow-up D10 faces (the D10 counts for B only)."""
    if code == "J":
        return Fraction(1)
    if code in WORDS:
        test, starred = WORDS[code], code == "B"
    else:  # numeric 'low-high'
        low, _, high = code.rstrip("*").partition("-")
        bounds = (int(low), int(high or low))

        def test(face: int) -> bool:
            return bounds[0] <= face <= bounds[1]

        starred = code.endswith("*")
    count = sum(1 for face in FACES for d10 in range(1, 11)
                if test(face) and (not starred or d10 == 10))  # fmt: skip
    return Fraction(count, 1000)


#: Catalogue part 2, Q10: P(failure) per use, every row as printed.
Q10 = {
    "A": "0.0000", "B": "0.0010", "C": "0.0100", "D": "0.0200", "E": "0.0400", "F": "0.1000",
    "G": "0.2000", "H": "0.3000", "I": "0.5000", "J": "1.0000",
    "98-99": "0.0200", "97-99": "0.0300", "96-99": "0.0400", "91-99": "0.0900",
}  # fmt: skip


def p_fail(payload: dict[str, Any]) -> Fraction:
    return Fraction(odds("item/failure-check", payload).failure_probability.exact)


# --- foresight.item.failure_check (#99) -------------------------------------------------------


@pytest.mark.parametrize(("code", "printed"), Q10.items())
def test_q10_failure_probability_per_use(code: str, printed: str) -> None:
    """Catalogue Q10, every row: the odds equal the catalogue's figure and a count over every
    D100 face (and B's D10) from the table's words."""
    found = p_fail({"failure_range": code})
    assert found == brute_failure(code)
    assert found == Fraction(printed)


@pytest.mark.parametrize("code", ["B", "D", "H", "I", "99*", "96-99"])
def test_failure_check_against_every_face(code: str) -> None:
    """Every D100 face rolled by the operation itself (table dice), and a starred face's D10
    with it: the failures counted are the odds' probability, weighting a D100 face 10 and a
    D10 face 1."""
    failures = 0
    starred = {99} if code in ("B", "99*") else set()
    for face in FACES:
        if face not in starred:
            result = run("item/failure-check", {"failure_range": code, "dice": {"values": [face]}})
            assert result.follow_up_d10 is None
            failures += 10 * result.failed
            continue
        for d10 in range(1, 11):
            again = run("item/failure-check",
                        {"failure_range": code, "dice": {"values": [face, d10]}})  # fmt: skip
            assert (again.roll, again.follow_up_d10) == (face, d10)
            failures += again.failed
    assert Fraction(failures, 1000) == p_fail({"failure_range": code}) == brute_failure(code)


def test_ninety_nine_star_needs_a_ten_on_the_d10() -> None:
    """F:L3585: "A failure range of 99* indicates the item only fails on a 99 if a subsequent
    D10 roll turns up a 10."""
    failed = run(
        "item/failure-check", {"failure_range": "99*", "roll": 99, "dice": {"values": [10]}}
    )
    held = run("item/failure-check", {"failure_range": "B", "roll": 99, "dice": {"values": [9]}})
    other = run("item/failure-check", {"failure_range": "B", "roll": 98})
    assert (failed.failed, failed.follow_up_d10) == (True, 10)
    assert (held.failed, held.follow_up_d10, held.name) == (False, 9, "Very Reliable")
    assert (other.failed, other.follow_up_d10, other.rolls) == (False, None, [])


def test_one_roll_is_the_task_and_the_failure_test() -> None:
    """F:L3585, F:L3587: "a roll of 50 or 99 results in the item malfunctioning"; the task's
    roll is the one tested. D (Average) fails on 50, not on 51."""
    assert run("item/failure-check", {"failure_range": "D", "roll": 50}).failed
    assert not run("item/failure-check", {"failure_range": "D", "roll": 51}).failed
    assert run("item/failure-check", {"failure_range": "98-99", "roll": 98}).failed
    assert not run("item/failure-check", {"failure_range": "98-99", "roll": 97}).failed


def test_a_roll_given_makes_the_odds_conditional() -> None:
    """The roll already made: the item fails surely, never, or on its D10's 10."""
    assert p_fail({"failure_range": "D", "roll": 50}) == 1
    assert p_fail({"failure_range": "D", "roll": 51}) == 0
    assert p_fail({"failure_range": "B", "roll": 99}) == Fraction(1, 10)


def test_letters_that_are_not_ranges() -> None:
    """F:L3580-3583: J fails on use; K must be repaired before each use; L also rebuilt after
    it; M is possibly useful for parts. None of them rolls a D100."""
    one_shot = run("item/failure-check", {"failure_range": "J"})
    assert (one_shot.failed, one_shot.roll, one_shot.rolls) == (True, None, [])
    assert run("item/failure-check", {"failure_range": "K"}).failed
    repaired = run("item/failure-check", {"failure_range": "K", "repaired": True})
    assert (repaired.failed, repaired.rebuild_after_use) == (False, False)
    falling = run("item/failure-check", {"failure_range": "L", "repaired": True})
    assert (falling.failed, falling.rebuild_after_use) == (False, True)
    assert run("item/failure-check", {"failure_range": "M", "repaired": True}).failed
    assert p_fail({"failure_range": "K", "repaired": True}) == 0
    assert p_fail({"failure_range": "L"}) == 1
    assert p_fail({"failure_range": "M"}) == 1


def test_an_item_with_no_stated_range_never_fails() -> None:
    """F:L3566: utterly reliable, A; its odds say so, and no mean uses to a failure."""
    found = odds("item/failure-check", {"failure_range": "A"})
    assert (Fraction(found.failure_probability.exact), found.uses_per_failure) == (0, None)
    assert not run("item/failure-check", {"failure_range": "A", "roll": 99}).failed


def test_mean_uses_to_a_failure_is_geometric() -> None:
    """A fresh roll each use: P = 1/100 for C, so 100 uses on average up to the failure."""
    found = odds("item/failure-check", {"failure_range": "C"})
    assert Fraction(found.uses_per_failure.exact) == 100


@pytest.mark.parametrize("code", ["N", "0-5", "99-98", "101", "abc", "1-2-3"])
def test_bad_failure_ranges_are_refused(code: str) -> None:
    with pytest.raises((InputError, ValidationError)):
        run("item/failure-check", {"failure_range": code, "roll": 5})


# --- foresight.item.failure_range.shift (#100) ------------------------------------------------


def shifted(code: str, steps: int, mode: str | None = None) -> str:
    payload: dict[str, Any] = {"failure_range": code, "steps": steps}
    if mode is not None:
        payload["options"] = {"numeric_failure_shift": mode}
    return str(run("item/failure-range/shift", payload).after)


@pytest.mark.parametrize(("code", "steps", "after"), [
    ("D", 1, "C"), ("D", 2, "B"), ("B", -2, "D"), ("A", 3, "A"), ("L", -5, "M"),
    ("C", -1, "D"), ("M", 12, "A"), ("A", -12, "M"), ("E", 0, "E"),
])  # fmt: skip
def test_letters_shift_one_a_step(code: str, steps: int, after: str) -> None:
    """F:L3589: a better (+) modifier moves the range up the table (towards A), a worse (-)
    one down; the ends hold."""
    assert shifted(code, steps) == after


@pytest.mark.parametrize(("code", "steps", "after"), [
    ("98-99", -1, "97-99"), ("98-99", 1, "99"), ("91-99", 3, "94-99"), ("96-99", -5, "91-99"),
    ("99", 1, "99*"), ("99", 2, "A"), ("99*", -1, "99"), ("99*", -2, "98-99"),
    ("98-99*", 1, "99*"), ("98-99*", -1, "98-99"), ("2-99", -5, "1-99"), ("50", 0, "50"),
])  # fmt: skip
def test_numeric_ranges_move_at_the_low_end(code: str, steps: int, after: str) -> None:
    """AMB2-38, the catalogue's recommendation: one face a step at the low end; a single face
    goes as C's 99 does to B's 99* and A (F:L3572-3573); face 1 is as wide as it gets."""
    assert shifted(code, steps) == after


def test_numeric_ranges_refused_when_asked() -> None:
    """AMB2-38 'refuse': the book defines no shift for numbers; letters still shift."""
    with pytest.raises(InputError) as refused:
        shifted("98-99", 1, "refuse")
    assert refused.value.loc == ("failure_range",)
    assert shifted("D", 1, "refuse") == "C"


def test_the_plain_shift_still_refuses_numbers_by_default() -> None:
    """ranged/jam's callers keep the refusal unless they ask (NumericFailureShift)."""
    with pytest.raises(InputError):
        shift("98-99", 1)
    assert shift("98-99", 1, numeric=NumericFailureShift.LOW_END) == "99"


def test_a_shift_reports_the_probabilities() -> None:
    """D to C halves P(fail): 2/100 to 1/100 (Q10); 98-99 worse is 3/100."""
    found = run("item/failure-range/shift", {"failure_range": "D", "steps": 1})
    assert (found.name, found.failure_rolls) == ("Reliable", "Any roll of 99")
    assert Fraction(found.failure_probability_before.exact) == Fraction(2, 100)
    assert Fraction(found.failure_probability_after.exact) == brute_failure("C")
    wider = run("item/failure-range/shift", {"failure_range": "98-99", "steps": -1})
    assert Fraction(wider.failure_probability_after.exact) == brute_failure("97-99")


# --- foresight.item.modify (#101) -------------------------------------------------------------

#: Item Modifications (F:L3601-3612) as printed: size, weight, TL, price, PM, fail, DS.
PRINTED = {
    "cheap_shoddy": (None, "1.2", None, "0.7", -1, "worse", "0.8"),
    "crude": ("1.1", "1.2", "-0.5", None, -1, "worse", None),
    "large": ("1.5", "3.0", None, "2.5", None, None, "2.5"),
    "compact": ("0.8", "0.6", "0.1", "1.5", None, None, "0.6"),
    "miniature": ("0.5", "0.25", "0.5", "2.0", None, None, "0.3"),
    "micro": ("0.1", "0.01", "1.0", "1.0", None, None, "0.01"),
    "modern": ("0.8", "0.7", "0.25", "0.6", None, "better", "0.8"),
    "reliable": (None, None, "0.1", "5.0", None, "better", None),
    "ruggedized": ("1.1", "1.2", None, "2.0", None, None, "1.5"),
    "flashy": ("1.1", "1.1", None, "1.5", None, None, None),
    "elegant": ("0.9", "0.9", "0.1", "4.0", None, None, "0.6"),
}

ITEM = {"size_m": 1, "weight_kg": 1, "tl": 5, "price_svu": 100, "pm": 0, "fail": "D", "ds": 1}


def modified(modifications: list[str], item: dict[str, Any] | None = None) -> Any:
    return run("item/modify", {"item": item or ITEM, "modifications": modifications})


def value(figure: Any) -> Fraction | None:
    return None if figure is None else Fraction(figure.exact)


@pytest.mark.parametrize("name", PRINTED)
def test_each_row_as_printed(name: str) -> None:
    """A unit item through one modification is the row (F:L3601-3612): '-' leaves a column
    alone, Better and Worse move D one letter (F:L3589)."""
    size, weight, tl, price, pm, fail, ds = PRINTED[name]
    found = modified([name]).item

    def times(printed: str | None) -> Fraction:
        return Fraction(printed) if printed is not None else Fraction(1)

    assert value(found.size_m) == times(size)
    assert value(found.weight_kg) == times(weight)
    assert value(found.tl) == 5 + (Fraction(tl) if tl is not None else 0)
    assert value(found.price_svu) == 100 * times(price)
    assert found.pm == (pm or 0)
    assert found.fail == {"better": "C", "worse": "E", None: "D"}[fail]
    assert value(found.ds) == times(ds)


def test_x39_elegant_modern_flashy_chronometer() -> None:
    """X39, F:L3616: Amy's "elegant, modern, flashy chronometer"; the book gives no figures,
    the modifications stack: size 0.9 x 0.8 x 1.1 = 0.792, weight 0.9 x 0.7 x 1.1 = 0.693,
    price 4.0 x 0.6 x 1.5 = 3.6, DS 0.6 x 0.8 = 0.48, TL +0.1 +0.25 = +0.35, one letter more
    reliable (Modern)."""
    watch = {"size_class": "tiny", "weight_kg": 0.05, "tl": 5.5, "price_svu": 10, "fail": "C",
             "ds": 0.1}  # fmt: skip
    found = modified(["elegant", "modern", "flashy"], watch)
    assert value(found.size_multiplier) == Fraction("0.792")
    assert value(found.weight_multiplier) == Fraction("0.693")
    assert value(found.price_multiplier) == Fraction("3.6")
    assert value(found.ds_multiplier) == Fraction("0.48")
    assert value(found.tl_change) == Fraction("0.35")
    assert (found.pm_change, found.fail_steps) == (0, 1)
    item = found.item
    assert value(item.weight_kg) == Fraction("0.05") * Fraction("0.693")
    assert value(item.price_svu) == 36
    assert value(item.tl) == Fraction("5.85")
    assert value(item.ds) == Fraction("0.048")
    assert (item.fail, item.size_class, item.size_m) == ("B", "tiny", None)


def test_modifications_stack_in_any_order() -> None:
    """Multipliers multiply and additions add: the order changes only the steps shown."""
    one = modified(["elegant", "modern", "flashy"]).item
    other = modified(["flashy", "elegant", "modern"]).item
    assert one == other


def test_steps_show_each_change() -> None:
    """Each modification's columns, before and after, in order."""
    found = modified(["crude", "cheap_shoddy"])
    crude = [(s.column, s.change, s.before, s.after) for s in found.steps
             if s.modification == "crude"]  # fmt: skip
    assert crude == [("size_m", "x1.1", "1/1", "11/10"), ("weight_kg", "x1.2", "1/1", "6/5"),
                     ("tl", "-0.5", "5/1", "9/2"), ("pm", "-1", "0", "-1"),
                     ("fail", "worse", "D", "E")]  # fmt: skip
    assert (found.item.pm, found.item.fail, found.fail_steps) == (-2, "F", -2)
    assert value(found.item.weight_kg) == Fraction(36, 25)


def test_a_negative_tl_modifier_can_go_below_zero() -> None:
    """F:L3614: a negative TL modifier is low-tech manufacture; a TL 0.25 item made crude is
    TL -0.25, shown as it is."""
    assert value(modified(["crude"], {"tl": 0.25}).item.tl) == Fraction(-1, 4)


def test_no_failure_range_stated_is_a() -> None:
    """F:L3566: an item with no stated range is utterly reliable (A); Worse makes it B."""
    assert modified(["cheap_shoddy"], {"weight_kg": 2}).item.fail == "B"
    assert modified(["reliable"], {"price_svu": 10}).item.fail == "A"


def test_numeric_failure_ranges_shift_as_the_option_says() -> None:
    """A numeric Fail (communications, F:L4184 '98-99') made reliable: AMB2-38."""
    radio = {"weight_kg": 10, "fail": "98-99"}
    assert modified(["reliable"], radio).item.fail == "99"
    with pytest.raises(InputError) as refused:
        run("item/modify", {"item": radio, "modifications": ["reliable"],
                            "options": {"numeric_failure_shift": "refuse"}})  # fmt: skip
    assert refused.value.loc == ("modifications", 0)


def test_exact_arithmetic() -> None:
    """Micro thrice: 0.01^3 exactly, never a float's 1.0000000000000002e-06."""
    found = modified(["micro", "micro", "micro"], {"weight_kg": 1})
    assert value(found.item.weight_kg) == Fraction(1, 10**6)


# --- foresight.tech_level.lookup (#102) -------------------------------------------------------


def tech(payload: dict[str, Any]) -> Any:
    return run("tech-level/lookup", payload)


@pytest.mark.parametrize(("tl", "row", "date", "era"), [
    (0, 0, "na", "None"), (0.5, 0.5, "40,000 BC", "Paleolithic"),
    (2.75, 2.75, "700 AD", "Dark Ages"),
    (4, 4, "1800 AD", "Industrial Revolution"), (4.4, 4, "1800 AD", "Industrial Revolution"),
    (4.25, 4, "1800 AD", "Industrial Revolution"), (5.5, 5.5, "2000 AD", "Information Age"),
    (10, 10, "2400 AD", "Interuniversal"), (12, 10, "2400 AD", "Interuniversal"),
])  # fmt: skip
def test_tl_rows(tl: float, row: float, date: str, era: str) -> None:
    """The TL table (F:L3514-3532); a fractional TL reads the row below it."""
    found = tech({"tl": tl}).row
    assert (found.tl, found.date, found.description) == (row, date, era)


def test_tl4_key_technology() -> None:
    """F:L3524: TL 4, 1800 AD, Industrial Revolution: steam engine, battery, telegraph, steel."""
    found = tech({"tl": 4})
    assert found.row.key_technology == "steam engine, battery, telegraph, steel"
    assert (found.next.tl, found.estimated_tl) == (4.5, None)


def test_x29_typewriter_and_repeating_rifle() -> None:
    """X29, F:L3540-3542: the typewriter (1874, first successful model 1878) is "4.4 or so":
    1878 lies 78/100 of the way from TL 4 (1800) to 4.5 (1900), 4.39. The Volcanic rifle of the
    1850s "might" be 4.25 (1850 exactly); the 1873 rifle the text makes 4.35, which the line
    puts at 4.365. The weapon table lists the repeating rifle at 4.25 (F:L3683): the answer
    keeps the table and notes the text (AMB2-39)."""
    typewriter = tech({"year": 1878})
    assert Fraction(typewriter.estimated_tl.exact) == Fraction("4.39")
    assert typewriter.row.description == "Industrial Revolution"
    assert Fraction(tech({"year": 1850}).estimated_tl.exact) == Fraction("4.25")
    assert Fraction(tech({"year": 1873}).estimated_tl.exact) == Fraction("4.365")
    for text in ("4.25", "4.35", "AMB2-39"):
        assert text in typewriter.note


@pytest.mark.parametrize(("year", "tl", "estimate"), [
    (-50000, 0, None), (-40000, 0.5, "0.5"), (-25000, 0.5, "0.75"), (0, 2.5, "2.5"),
    (1000, 2.75, "2.875"), (1969, 5, "5.19"), (2400, 10, "10"), (3000, 10, "10"),
])  # fmt: skip
def test_years(year: int, tl: float, estimate: str | None) -> None:
    """By year: the row whose date it has reached, and the TL on the line between dates."""
    found = tech({"year": year})
    assert found.row.tl == tl
    assert value(found.estimated_tl) == (None if estimate is None else Fraction(estimate))


def test_tl_or_year_not_both() -> None:
    with pytest.raises(InputError):
        tech({"tl": 4, "year": 1800})
    with pytest.raises(InputError):
        tech({})


# --- foresight.units.convert (#103) -----------------------------------------------------------


def test_x40_one_kilogram_is_2_2_pounds() -> None:
    """X40, F:L3506: "multiply by two and add ten percent": 1 kg x 2 = 2, + 10% = 2.2 lb."""
    found = run("units/convert", {"amount": 1, "unit": "kg"})
    assert Fraction(found.converted.exact) == Fraction(2) + Fraction(2, 10)
    assert found.to == "lb"


@pytest.mark.parametrize(("amount", "unit", "to", "converted"), [
    (4, "kg", "lb", "8.8"), (11, "lb", "kg", "5"), (2.2, "lb", "kg", "1"), (0.5, "kg", "lb", "1.1"),
    (100, "svu", "usd", "600"), (60, "usd", "svu", "10"), (0, "kg", "lb", "0"),
])  # fmt: skip
def test_conversions(amount: float, unit: str, to: str, converted: str) -> None:
    """kg <-> lb at 2.2 (F:L3506); svu <-> US$ at about 6 (F:L3554), exactly."""
    found = run("units/convert", {"amount": amount, "unit": unit})
    assert (found.to, Fraction(found.converted.exact)) == (to, Fraction(converted))


def test_the_svu_rate_is_the_callers() -> None:
    """'About US $6' was the rate when the book was written (F:L3554): give today's."""
    found = run("units/convert", {"amount": 10, "unit": "svu", "usd_per_svu": 12.5})
    assert Fraction(found.converted.exact) == 125


# --- foresight.item.size_class (#104) ---------------------------------------------------------


def test_size_words() -> None:
    """F:L3502: tiny (coin), small (handgun), luggable (briefcase), hefty (suitcase), large
    (coffin), smallest first."""
    found = run("item/size-class", {}).sizes
    assert [(row.size, row.like) for row in found] == [
        ("tiny", "the size of a coin"),
        ("small", "the size of a handgun"),
        ("luggable", "briefcase sized"),
        ("hefty", "suitcase sized"),
        ("large", "the size of a coffin"),
    ]
    assert [row.order for row in found] == [1, 2, 3, 4, 5]
    assert run("item/size-class", {"size": "hefty"}).sizes[0].like == "suitcase sized"


def test_numeric_ranges_are_written_out() -> None:
    """A range of faces says what fails, its star as F:L3585 words it."""
    found = run("item/failure-range/shift", {"failure_range": "99", "steps": 1})
    assert found.failure_rolls == "Any roll of 99, if a further D10 shows 10"
    assert Fraction(found.failure_probability_after.exact) == brute_failure("99*")
    found = run("item/failure-check", {"failure_range": "96-99", "roll": 3})
    assert (found.failure_rolls, found.failed, found.name) == ("Any roll of 96 to 99", False, None)
