"""An independent reading of the 4C core for the tests: the Master Tables parsed from the
catalogue's own transcription (data/4c-master-table.md, not the service's
tables.json), and every d% enumerated face by face."""

import json
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

__all__ = ["COLOURS", "colour_odds", "ladder", "roll_of"]

#: A copy of ../shared/rules/4c-master-table.md, as the catalogue transcribes the tables.
MASTER_TABLES = Path(__file__).parent / "data" / "4c-master-table.md"
COLOURS = ("black", "red", "blue", "yellow")


@cache
def ladder(name: str) -> list[dict[str, object]]:
    text = MASTER_TABLES.read_text(encoding="utf-8")
    block = text[text.index("```json") + len("```json") : text.rindex("```")]
    rows: list[dict[str, object]] = json.loads(block)[name]
    return rows


def row_index(rv: int, name: str) -> int:
    rows = ladder(name)
    for row in rows:
        if row["rv_max"] is None or rv <= row["rv_max"]:  # type: ignore[operator]
            return int(row["row"])  # type: ignore[call-overload]
    return len(rows) - 1


def colour_at(row: int, roll: int, name: str) -> str:
    bands = ladder(name)[row]["bands"]
    for colour in COLOURS:
        low, high = bands[colour]  # type: ignore[index]
        if low <= roll <= high:
            return colour
    raise AssertionError(roll)


def roll_of(faces: tuple[int, ...], mode: str) -> int:
    """A d% from d10 faces 0-9 (catalogue 3.1.1)."""
    if mode == "normal":
        return 10 * faces[0] + faces[1]
    if mode == "amplified":
        return 10 * max(faces[0], faces[1]) + faces[2]
    a, b = faces
    return max(10 * a + b, 10 * b + a)


def colour_odds(
    rv: int, steps: int = 0, modifier: int = 0, mode: str = "normal", name: str = "libre-basic"
) -> dict[str, Fraction]:
    """P(colour) by brute force over every face of the dice."""
    row = min(max(row_index(rv, name) + steps, 0), len(ladder(name)) - 1)
    dice = 3 if mode == "amplified" else 2
    counts = dict.fromkeys(COLOURS, 0)
    for faces in product(range(10), repeat=dice):
        used = min(max(roll_of(faces, mode) + modifier, 0), 99)
        counts[colour_at(row, used, name)] += 1
    total = 10**dice
    return {c: Fraction(n, total) for c, n in counts.items()}
