"""Reading any operation's odds generically: its distributions, the mass each leaves out, and
the result fields each describes.

A distribution is a list of `OutcomeProbability` rows (`outcome`, `exact`, `float`) anywhere
in an odds result. Its cut-off mass is `truncation.mass_cut.exact` of the nearest object
around it that reports a `truncation` (4SIGHT's exploding dice); none, or a null one, is 0.

Which result fields a distribution describes, and how a value is written as an outcome:

* A distribution is named by its path of keys in the odds (`distributions.degree`, `a.qr`,
  `injury`). Of the fields the result's schema declares (by path of keys, list positions
  skipped, so a list of rounds gives one field), it describes those whose path ends with the
  longest tail of that name any of them has, and of those the nearest the top:
  `distributions.degree` is a 4D8 check's `degree` (not `reading.degree`, which repeats
  it); `a.qr` of an opposed FORESIGHT task is `rounds[*].a.qr`; `attack.qr` of a block is
  `attack.qr`, not `defense.qr` or `attack.quality.qr`.
* A value is written as `str(value)` (`13`, `triplet`; a boolean `true`/`false`), or a
  number after its field's name in capitals (`qr` 3 is `QR3`, as FORESIGHT writes QRs).
* A null value (a field the rule did not reach: the degree of a failed 4D8 check, the
  injury of a miss) is written as one of `ABSENT`.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = [
    "ABSENT",
    "Described",
    "Distribution",
    "describe",
    "distributions",
    "exact_figures",
    "schema_paths",
]

Path = tuple[str, ...]

#: How the odds write a null result field: a failed 4D8 check has no degree, band or
#: scoring rule ('failure') and an impossible one rolls no shape ('not_rolled'); a 4SIGHT
#: attack that misses inflicts no injury ('no_hit').
ABSENT = ("failure", "not_rolled", "no_hit")


@dataclass(frozen=True)
class Distribution:
    path: Path
    rows: tuple[Mapping[str, Any], ...]
    cut: Fraction

    @property
    def name(self) -> str:
        return ".".join(self.path)

    def probability(self, outcome: str) -> Fraction:
        found = [Fraction(row["exact"]) for row in self.rows if row["outcome"] == outcome]
        return sum(found, Fraction(0))

    def outcome_of(self, field: str, value: Any) -> str | None:
        """The outcome naming `value` of the result field `field`, or None."""
        found = {row["outcome"] for row in self.rows} & set(written(field, value))
        assert len(found) <= 1, (self.name, value, found)
        return found.pop() if found else None


@dataclass(frozen=True)
class Described:
    """A distribution and the result fields it describes."""

    distribution: Distribution
    fields: tuple[Path, ...]

    def outcomes(self, result: Any) -> Iterator[tuple[Path, Any, str | None]]:
        """Each value of the fields in a result, with the outcome that names it (or None)."""
        values = _values(result)
        for path in self.fields:
            for value in values.get(path, []):
                yield path, value, self.distribution.outcome_of(path[-1], value)


def written(field: str, value: Any) -> tuple[str, ...]:
    """Every way the odds may write `value` of the result field `field`."""
    if value is None:
        return ABSENT
    if isinstance(value, bool):
        return ("true" if value else "false",)
    if isinstance(value, int):
        return (str(value), f"{field.upper()}{value}")
    return (str(value),)


def distributions(odds: Any) -> Iterator[Distribution]:
    """Every distribution in an odds result, with the mass cut off around it."""

    def walk(node: Any, path: Path, cut: Fraction) -> Iterator[Distribution]:
        if isinstance(node, dict):
            truncation = node.get("truncation")
            if isinstance(truncation, dict):
                cut = Fraction(truncation["mass_cut"]["exact"])
            for key, child in node.items():
                if isinstance(child, list) and child and all(_is_row(row) for row in child):
                    yield Distribution((*path, key), tuple(child), cut)
                else:
                    yield from walk(child, (*path, key), cut)
        elif isinstance(node, list):
            for child in node:
                yield from walk(child, path, cut)

    yield from walk(odds, (), Fraction(0))


def describe(odds: Any, result_fields: list[Path]) -> list[Described]:
    """Each distribution of `odds` that describes any of `result_fields` (module docstring)."""
    found = []
    for distribution in distributions(odds):
        name = distribution.path
        for start in range(len(name)):
            tail = name[start:]
            matching = [p for p in result_fields if p[-len(tail) :] == tail]
            if matching:
                top = min(len(p) for p in matching)
                nearest = tuple(p for p in matching if len(p) == top)
                found.append(Described(distribution, nearest))
                break
    return found


def exact_figures(node: Any) -> Iterator[Mapping[str, Any]]:
    """Every `{exact, float}` figure in an odds result, rows included."""
    if isinstance(node, dict):
        if isinstance(node.get("exact"), str) and isinstance(node.get("float"), float | int):
            yield node
        for child in node.values():
            yield from exact_figures(child)
    elif isinstance(node, list):
        for child in node:
            yield from exact_figures(child)


def schema_paths(schema: Mapping[str, Any], definitions: Mapping[str, Any]) -> list[Path]:
    """The path of keys of every property a JSON Schema declares, list positions skipped;
    `definitions` resolve `#/components/schemas/<name>` references."""
    found: list[Path] = []

    def walk(node: Mapping[str, Any], path: Path, seen: tuple[str, ...]) -> None:
        reference = node.get("$ref")
        if isinstance(reference, str):
            name = reference.rsplit("/", 1)[-1]
            if name not in seen:  # a model that holds itself is walked once
                walk(definitions[name], path, (*seen, name))
        for key, child in node.get("properties", {}).items():
            found.append((*path, key))
            walk(child, (*path, key), seen)
        for child in node.get("anyOf", []) + node.get("oneOf", []) + node.get("allOf", []):
            walk(child, path, seen)
        if isinstance(node.get("items"), dict):
            walk(node["items"], path, seen)

    walk(schema, (), ())
    return list(dict.fromkeys(found))


def _is_row(node: Any) -> bool:
    return isinstance(node, dict) and set(node) == {"outcome", "exact", "float"}


def _values(result: Any) -> dict[Path, list[Any]]:
    """Every plain value of a result by its path of keys, list positions skipped."""
    found: dict[Path, list[Any]] = {}

    def walk(node: Any, path: Path) -> None:
        if isinstance(node, dict):
            for key, child in node.items():
                walk(child, (*path, key))
        elif isinstance(node, list):
            for child in node:
                walk(child, path)
        elif path:
            found.setdefault(path, []).append(node)

    walk(result, ())
    return found
