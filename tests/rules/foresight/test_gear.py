"""FORESIGHT toolkits, communications, power and navigation aids (catalogue part 2, #117-#121,
2.12; X38): the tables against the seed's own cells, the battery arithmetic against a brute
force written here, and the worked example. Nothing here rolls dice, so there are no odds.
Seed lines are cited as F:L<n>."""

from fractions import Fraction
from pathlib import Path

import pytest

from service.rules.foresight.gear.catalogs import (
    COMMUNICATIONS,
    NAVIGATION_AIDS,
    POWER_GENERATORS,
    TOOLKITS,
)
from service.rules.foresight.gear.power import POWER_STORAGE
from service.rules.model import InputError
from tests.rules.foresight.calls import run

SEED = Path("/work/shared/seeds/004_0f2ce8cae6aa3515.txt")
SHARED = pytest.mark.skipif(not SEED.exists(), reason="the shared seed is not on this machine")
DASHES = ("-", "\u2013")


def cells(line: int) -> list[str]:
    text = SEED.read_text(encoding="utf-8").split("\n")[line - 1]
    return [cell.strip() for cell in text.split("\t")]


def line_of(source: str) -> int:
    assert source.startswith("F:L")
    return int(source[3:])


def grams(text: str) -> Fraction:
    """'500g', '10kg', '2t' in kilograms, parsed here apart from the service."""
    for unit, scale in (("kg", Fraction(1)), ("g", Fraction(1, 1000)), ("t", Fraction(1000))):
        if text.endswith(unit):
            return Fraction(text[: -len(unit)]) * scale
    raise AssertionError(text)


def svu(text: str) -> Fraction:
    text = text.rstrip("?")
    scale = {"k": 1000, "M": 10**6}.get(text[-1], 1)
    return Fraction(text.rstrip("kM")) * scale


# --- the tables are the seed's cells ----------------------------------------------------------


@SHARED
@pytest.mark.parametrize(("rows", "lines"), [
    (COMMUNICATIONS, range(4183, 4197)),
    (POWER_GENERATORS, range(4230, 4236)),
    (NAVIGATION_AIDS, range(4240, 4256)),
])  # fmt: skip
def test_every_item_row_is_its_seed_line(rows, lines):
    """F:L4183-4196, F:L4230-4235, F:L4240-4255: Size, Weight, TL, Price, PM, Fail, DS."""
    assert [line_of(row.source) for row in rows] == list(lines)
    for row in rows:
        name, size, weight, tl, price, pm, fail, ds = cells(line_of(row.source))
        assert (row.name, row.size, row.weight, row.price) == (name, size, weight, price)
        assert Fraction(str(row.weight_kg)) == grams(weight)
        assert Fraction(str(row.price_svu)) == svu(price)
        assert row.tl == float(tl)
        assert row.pm == (None if pm in DASHES else int(pm))
        assert row.fail == (None if fail in DASHES else fail.replace("\u2013", "-"))
        assert row.ds == float(ds)
    keys = [row.key for row in rows]
    assert len(set(keys)) == len(keys)


@SHARED
def test_every_power_storage_row_is_its_seed_line():
    """F:L4205-4222 (the header repeated at F:L4208): weight, TL, price and output per Wh."""
    lines = [line_of(row.source) for row in POWER_STORAGE]
    assert lines == [4205, 4206, *range(4209, 4223)]
    for row in POWER_STORAGE:
        name, weight, tl, price, output = cells(line_of(row.source))
        assert (row.name, row.weight_per_wh, row.output) == (name, weight, output)
        assert Fraction(str(row.weight_per_wh_g)) == grams(weight) * 1000
        assert (row.tl, row.price_per_wh_svu) == (float(tl), float(price))
        assert row.output_w_per_wh == float(output.rstrip("W"))


@SHARED
def test_every_toolkit_row_is_its_seed_line():
    """F:L4167-4172: PM, size at the base TL and the +1, +2 columns, cost."""
    assert [line_of(row.source) for row in TOOLKITS] == list(range(4167, 4173))
    for row in TOOLKITS:
        name, pm, *sizes, cost = cells(line_of(row.source))
        assert (row.name, row.pm, row.size, row.cost) == (name, int(pm), sizes, cost)
        assert [Fraction(str(kg)) for kg in row.size_kg] == [grams(s) for s in sizes]
        assert Fraction(str(row.cost_svu)) == svu(cost)


# --- foresight.power.battery (#119) ------------------------------------------------------------


def test_the_field_radio_battery_x38():
    """X38 (F:L4225): a TL4.8 radio at 25 W on lead acid (0.25 W a unit) needs 25 / 0.25 =
    100 units, 100 x 40 g = 4 kg. The book says they last one hour; 100 Wh at 25 W last 4
    hours (AMB2-33: the formula, no option). DS 0.1 a kg (F:L4224, AMB2-33): 0.4."""
    found = run("power/battery", {"storage": "rechargeable-battery-lead-acid", "draw_w": 25})
    assert (found.units_for_power, found.units, found.output_limited) == (100, 100, True)
    assert (found.mass_kg.exact, found.runtime_h.exact) == ("4/1", "4/1")
    assert (found.price_svu.exact, found.ds.exact) == ("10/1", "2/5")
    one_hour = run("power/battery", {"storage": "rechargeable-battery-lead-acid",
                                     "draw_w": 25, "hours": 1})  # fmt: skip
    assert one_hour.runtime_h.exact == "4/1"


def brute_units(draw: Fraction, hours: Fraction, output: Fraction) -> int:
    """The fewest whole Wh units that both deliver `draw` and store draw x hours, by counting
    up (F:L4224-4225)."""
    units = 0
    while units * output < draw or units < draw * hours:
        units += 1
    return units


@pytest.mark.parametrize(("key", "draw", "hours"), [
    ("battery-alkaline", "10", "5"),
    ("rechargeable-battery-nicad", "1", "0"),
    ("rechargeable-battery-nicad", "1", "2.75"),
    ("rechargeable-battery-lithium-ion", "3.5", "0.5"),
    ("rechargeable-battery-nanogel", "12", "0.25"),
    ("battery-wet-cell", "0.3", "10"),
    ("rechargeable-battery-aerogel-capacitor", "7", "0.1"),
])  # fmt: skip
def test_units_mass_price_runtime_against_a_brute_force(key, draw, hours):
    row = next(r for r in POWER_STORAGE if r.key == key)
    output = Fraction(str(row.output_w_per_wh))
    units = brute_units(Fraction(draw), Fraction(hours), output)
    found = run("power/battery", {"storage": key, "draw_w": float(draw), "hours": float(hours)})
    assert found.units == units
    assert Fraction(found.mass_kg.exact) == units * Fraction(str(row.weight_per_wh_g)) / 1000
    assert Fraction(found.price_svu.exact) == units * Fraction(str(row.price_per_wh_svu))
    assert Fraction(found.runtime_h.exact) == units / Fraction(draw)
    assert Fraction(found.runtime_h.exact) >= Fraction(hours)
    assert found.output_limited == (found.units_for_power > found.units_for_energy)


def test_antimatter_is_exact():
    """F:L4222: 0.0000001 g a Wh; 1 W for 1000 h is 1000 units, 1/10^7 kg, exactly."""
    found = run("power/battery", {"storage": "battery-antimatter", "draw_w": 1, "hours": 1000})
    assert (found.units, found.mass_kg.exact, found.price_svu.exact) == (1000, "1/10000000", "1/1")


def test_an_unknown_storage_is_a_422():
    with pytest.raises(InputError) as error:
        run("power/battery", {"storage": "flux-capacitor", "draw_w": 1})
    assert error.value.loc == ("storage",)


# --- foresight.toolkit (#117) ------------------------------------------------------------------


def test_toolkits_by_quality_tl_and_scale():
    """F:L4167-4178: a basic kit is PM -1, 10 kg, 100 svu; an advanced kit for items 2 TL
    lower is 250 kg; bicycle tools are 1/10 the size and cost (F:L4176)."""
    basic = run("toolkit", {"quality": "basic"})
    assert (basic.pm, basic.size_kg.exact, basic.cost_svu.exact) == (-1, "10/1", "100/1")
    assert basic.capability == "minor temporary repairs only"
    advanced = run("toolkit", {"quality": "advanced", "tl_below": 2})
    assert (advanced.pm, advanced.size_kg.exact) == (1, "250/1")
    assert advanced.cost_svu.exact == "100000/1"
    bicycle = run("toolkit", {"quality": "standard", "scale": "bicycle"})
    assert (bicycle.size_kg.exact, bicycle.cost_svu.exact) == ("5/1", "200/1")
    facility = run("toolkit", {"quality": "advanced_facility", "tl_below": 1})
    assert (facility.pm, facility.size_kg.exact) == (4, "200000/1")
    assert facility.capability == "build or rebuild"


# --- the catalogues (#118, #120, #121) ---------------------------------------------------------


def test_comms_catalog_by_name_and_tl():
    """F:L4185, F:L4192-4193: the walkie talkie; two cellular phones told apart by TL."""
    talkie = run("comms/catalog", {"name": "walkie"}).items
    assert [(i.item.key, i.item.weight_kg, i.item.fail) for i in talkie] == [
        ("transceiver-handheld-walkie-talkie", 1.0, "99")]  # fmt: skip
    phones = run("comms/catalog", {"name": "cellular"}).items
    assert [(i.item.key, i.item.price_svu) for i in phones] == [
        ("phone-cellular-5.4", 200), ("phone-cellular-5.5", 25)]  # fmt: skip
    assert run("comms/catalog", {"tl_min": 7}).count == 2
    with pytest.raises(InputError):
        run("comms/catalog", {"tl_min": 7, "tl_max": 5})


def test_navigation_aids_carry_their_constraints():
    """F:L4257-4263: the sextant needs compass, chronometer and (at night) ephemeris; GPS a
    line of sight to satellites; the TL3.5 chart's '10k?' is flagged."""
    sextant = run("navigation/aids/catalog", {"name": "sextant"}).items[0]
    assert (sextant.item.pm, sextant.item.fail) == (1, "99*")
    assert "chronometer" in sextant.notes[0]
    gps = run("navigation/aids/catalog", {"name": "gps", "tl": 5.5}).items
    assert [(i.item.weight_kg, i.item.pm) for i in gps] == [(0.1, 2)]
    assert "line of sight" in gps[0].notes[0]
    charts = run("navigation/aids/catalog", {"name": "chart"}).items
    assert [(i.item.tl, i.item.pm) for i in charts] == [(3.5, -1), (4, 0), (4.5, 1)]
    assert any("priceless" in note and "10k?" in note for note in charts[0].notes)
    assert run("navigation/aids/catalog", {"tl_max": 3}).count == 2


def test_power_generators():
    """F:L4227-4233: the driven fission reactor needs input power to start."""
    found = run("power/generator/catalog", {"name": "fission"}).items[0]
    assert (found.item.weight_kg, found.item.tl, found.item.price_svu) == (5, 5.8, 1000)
    assert "input power" in found.notes[0]
    fusion = run("power/generator/catalog", {"name": "fusion"}).items
    assert [i.item.key for i in fusion] == ["portable-he3-fusion-1mw-1y", "portable-h-fusion-1gw"]
    assert all("conceivable" in i.notes[0] for i in fusion)
    assert run("power/generator/catalog", {}).count == 6
