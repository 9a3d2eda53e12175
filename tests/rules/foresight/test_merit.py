"""FORESIGHT merit points (catalogue 3.H): ranks, starting merit (C33, C34) and transfers."""

import pytest

from service.rules.model import Violations
from tests.rules.foresight.calls import run


@pytest.mark.parametrize(
    ("points", "rank"),
    [(0, 0), (5, 0), (6, 1), (35, 3), (100, 5), (250, 7), (400, 8), (1000, 10), (5000, 10)],
)
def test_ranks(points, rank):
    """F:L1281-1294; C33 (F:L1273): 10 factors at 10 is 100, rank 5; at 25, 250, which the text
    calls rank 6 but the table makes 7 (AMB-11); at 40, 400, rank 8; past 1000, 10 (AMB-34)."""
    assert run("merit-points", {"merit_points": points}).rank == rank


def test_amy_starts_an_inspector():
    """C34, F:L1277-1279: 0 + 10 + 10 + 15 = 35, rank 3."""
    spent = [{"merit_points": m, "inside": inside}
             for m, inside in [(0, False), (10, False), (10, False), (15, True)]]  # fmt: skip
    found = run("merit-points/starting", {"backgrounds": spent})
    assert (found.merit_points, found.rank) == (35, 3)
    wrong = [{"merit_points": 25, "inside": False}, {"merit_points": 5, "inside": True}]
    with pytest.raises(Violations) as refused:
        run("merit-points/starting", {"backgrounds": wrong})
    assert len(refused.value.errors) == 2


def test_navy_merit_counts_half_toward_intelligence():
    """F:L1300."""
    assert run("merit-points/transfer", {"merit_points": 35, "percent": 50}).credited == 18
