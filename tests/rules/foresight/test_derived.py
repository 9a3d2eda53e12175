"""FORESIGHT values derived from Strength and Endurance (catalogue 3.D) against the book's
tables and examples (C35, C36, Amy's sheet in catalogue 4.3)."""

import pytest

from tests.rules.foresight.calls import run


@pytest.mark.parametrize(
    ("strength", "expected"),
    [(1, "1/8"), (4, "1/4"), (6, "1/2"), (7, "1"), (12, "2"), (14, "3"), (16, "4"), (18, "5"),
     (19, "6"), (20, "6"), (21, "7"), (30, "11")],
)  # fmt: skip
def test_ucdc(strength, expected):
    """F:L491-501; over 18, ST/2 - 4 rounded off to the nearest (AMB-24): 19 and 20 give 6."""
    assert run("ucdc", {"strength": strength}).ucdc == expected


def test_ucdc_of_strength_0_is_0():
    """Catalogue 3.D.1 (AMB-24): the table (F:L491-499) starts at ST 1 and 'ST <= 0 undefined
    (recommended: 0)'; injury or aging (whose trained value may fall to 0) can leave ST 0,
    which was refused with a 422."""
    found = run("ucdc", {"strength": 0})
    assert (found.ucdc, found.value) == ("0", 0.0)


def test_ucdc_truncated():
    truncated = {"strength": 19, "options": {"ucdc_rounding": "truncate"}}
    assert run("ucdc", truncated).ucdc == "5"


@pytest.mark.parametrize(
    ("strength", "carry"),
    [(1, 1), (3, 3), (5, 4), (7, 6), (9, 8), (11, 12), (13, 16), (15, 24), (17, 32), (19, 48),
     (21, 64), (22, 96), (23, 96), (24, 128), (26, 192), (28, 256), (30, 384), (33, 512)],
)  # fmt: skip
def test_carrying_capacity(strength, carry):
    """F:L519-534: each column doubles the last; past the table, the second-last row with ST
    + 4 and the weights doubled: C35, 22-23 gives 96/192/384/768/1536."""
    found = run("carrying-capacity", {"strength": strength})
    assert [found.carry, found.laden, found.burden, found.lift, found.drag] == [
        carry * 2**k for k in range(5)]  # fmt: skip


def test_worn_plate_burdens_strength_9():
    """C36 (part 2, F:L3924): 40 kg of plate worn counts half, 20 kg (the book prints 22.5);
    ST 9 carries 8, is laden to 16 and burdened to 32, so burdened: -2 to agility."""
    found = run("encumbrance", {"strength": 9, "items": [{"weight": 40, "well_distributed": True}]})
    assert (found.load, found.state, found.agility_modifier) == (20, "burdened", -2)


@pytest.mark.parametrize(
    ("load", "maxima", "minima"),
    [(8, "unencumbered", "unencumbered"), (16, "laden", "laden"), (17, "burdened", "laden"),
     (64, "lifting", "lifting"), (128, "dragging", "dragging"), (129, "immovable", "dragging")],
)  # fmt: skip
def test_encumbrance_boundaries(load, maxima, minima):
    """AMB-23: the glossary's maxima (F:L340-341) or the text's 'carrying his/her laden
    weight' (F:L511)."""
    body = {"strength": 9, "items": [{"weight": load}]}
    assert run("encumbrance", body).state == maxima
    assert (
        run("encumbrance", {**body, "options": {"encumbrance_boundary": "minima"}}).state == minima
    )
    assert run("encumbrance", body).must_put_down == (
        maxima in ("lifting", "dragging", "immovable")
    )


def test_amys_stamina():
    """Catalogue 4.3: EN 7, WP 11, Stamina level 4: maximum 13, reserve 7, threshold 2."""
    found = run("stamina", {"endurance": 7, "willpower": 11, "level": 4})
    assert (found.maximum, found.reserve, found.threshold) == (13, 7, 2)
    big = run("stamina", {"endurance": 20, "willpower": 20, "level": 10})
    assert big.maximum == 30  # never read as 20+n (F:L372)
