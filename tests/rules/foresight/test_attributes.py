"""FORESIGHT attributes (catalogue 3.C.2-3.C.3): Amy's point-buy (C1-C3), the space of valid
distributions (5.5) against an independent count, and training (C12)."""

from fractions import Fraction

import pytest

from service.rules.model import InputError, Violations
from tests.rules.foresight.calls import run

AMY = {"ST": 7, "EN": 7, "DX": 8, "AG": 8, "IN": 11, "PC": 11, "EM": 10, "WP": 9, "AP": 10}
#: Catalogue 5.5: valid human arrays with one attribute at each value.
MARGINAL = {5: 494166, 6: 586056, 7: 678588, 8: 767544, 9: 848443, 10: 916896, 11: 968976,
            12: 1001568}  # fmt: skip


def test_amys_attributes_sum_to_81_and_validate():
    """C1-C3 (F:L536-553)."""
    found = run("attributes/generate", {"inherent": AMY})
    assert found.total == 81


def test_the_point_buy_space():
    """Catalogue 5.5: 6,262,237 arrays and each value's share, against a count by repeated
    convolution of nine uniform 5-12 scores."""
    space = run("attributes/generate", {"inherent": AMY}).space
    ways = [1]  # ways[s]: eight scores of 0-7 over 5 summing to s
    for _ in range(8):
        ways = [sum(ways[i - k] for k in range(8) if 0 <= i - k < len(ways))
                for i in range(len(ways) + 7)]  # fmt: skip
    counts = {v: ways[81 - v - 8 * 5] for v in range(5, 13)}
    assert counts == MARGINAL
    arrays = sum(counts.values())
    assert space.arrays == arrays == 6_262_237
    assert {int(r.outcome): Fraction(r.exact) for r in space.marginal} == {
        v: Fraction(c, arrays) for v, c in MARGINAL.items()}  # fmt: skip


def test_a_sheet_with_every_mistake_named():
    """F:L467, F:L473: each attribute 5 to 12, the nine summing to 81."""
    bad = {**AMY, "ST": 13, "EN": 4}
    with pytest.raises(Violations) as refused:
        run("attributes/generate", {"inherent": bad})
    assert {e.loc for e in refused.value.errors} == {
        ("inherent", "ST"), ("inherent", "EN"), ("inherent",)}  # fmt: skip
    bonus = {**AMY, "IN": 12, "PC": 12, "EM": 12}
    assert run("attributes/generate", {"inherent": bonus, "bonus_points": 4}).total == 85


@pytest.mark.parametrize(
    ("inherent", "trained", "to", "cost"),
    [(8, 8, 9, 5), (10, 10, 12, 10), (11, 11, 14, 20), (9, 9, 13, 40), (10, 8, 10, 10),
     (10, 8, 11, 15)],
)  # fmt: skip
def test_training_an_attribute(inherent, trained, to, cost):
    """F:L728-738: 5 a point back up to inherent, then 5, 5, 10, 20; C12 (F:L873-877)."""
    assert (
        run("attributes/train", {"inherent": inherent, "trained": trained, "to": to}).cost == cost
    )


def test_amy_trains_for_50():
    """C12 (F:L873-877): DX 8, WP 9, AP 10 and EM 10 each +2 at 10; IN and PC 11 each +1 at 5."""
    steps = [(8, 10), (9, 11), (10, 12), (10, 12), (11, 12), (11, 12)]
    costs = [run("attributes/train", {"inherent": i, "trained": i, "to": t}).cost for i, t in steps]
    assert costs == [10, 10, 10, 10, 5, 5]


def test_training_never_passes_inherent_plus_4():
    with pytest.raises(InputError) as refused:
        run("attributes/train", {"inherent": 10, "trained": 10, "to": 15})
    assert refused.value.loc == ("to",)


def _ranges(species):
    found = run("species", {"species": species})
    return [{"attribute": r.attribute, "low": r.low, "high": r.high} for r in found.ranges]


def test_a_non_human_starts_at_its_species_minima():
    """F:L1137 (catalogue 3.C.2): a non-human starts at its species' minima and distributes
    36 points, each attribute within its range: an Elf array sums to 47 + 36 = 83. A Dwarf's
    space (AG 5-11, seven values) against a count by convolution written here."""
    elf = {"ST": 6, "EN": 7, "DX": 8, "AG": 9, "IN": 12, "PC": 11, "EM": 10, "WP": 10, "AP": 10}
    assert run("attributes/generate", {"inherent": elf, "ranges": _ranges("Elf")}).total == 83
    with pytest.raises(Violations):
        run("attributes/generate", {"inherent": elf})  # a human's 5-12 and 81
    dwarf = _ranges("Dwarf")
    bounds = [(r["low"], r["high"]) for r in dwarf]
    total = sum(low for low, _ in bounds) + 36
    counts = {0: 1}
    for low, high in bounds:
        nxt: dict[int, int] = {}
        for s, n in counts.items():
            for v in range(low, high + 1):
                nxt[s + v] = nxt.get(s + v, 0) + n
        counts = nxt
    array = {"ST": 11, "EN": 10, "DX": 9, "AG": 9, "IN": 9, "PC": 9, "EM": 9, "WP": 9, "AP": 9}
    found = run("attributes/generate", {"inherent": array, "ranges": dwarf})
    assert (found.total, found.space.arrays) == (total, counts[total])
    with pytest.raises(Violations) as refused:
        run("attributes/generate", {"inherent": {**array, "AG": 12, "ST": 8}, "ranges": dwarf})
    assert ("inherent", "AG") in {e.loc for e in refused.value.errors}
