"""A roll that knows its odds: the probability of the outcome a result rolled, and of doing at
least that well, read from the exact odds of the same request (the cached table an odds
request would get).

Every distribution of the odds (a list of outcomes with their probabilities, at any depth)
and every yes/no event (a lone probability) is matched with the result: by the operation's
`Reading` for that pointer when it declares one, otherwise by the result's field of the same
name (at the top or inside one of its objects), written as the odds write outcomes. Of
several fields of that name, the one inside the objects the pointer names: the odds'
`/final/summary/success` is the result's `final.success`, not `attack.success`; then the
shallowest. A distribution the result does not read as one of its outcomes is left out.
"""

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from service.rules.distribution import RolledOdds, exact, written
from service.rules.model import Model
from service.rules.registry import Operation, Reading

__all__ = ["odds_request", "rolled_odds"]

#: Envelope fields, which say how a result was made, not what it was.
_ENVELOPE = frozenset({"rolls", "seed", "rules_version", "options_applied", "outcome_odds"})
#: How deep the odds and the result are searched: their tables sit at most this far down.
_DEPTH = 4


def odds_request(op: Operation, request: Model) -> Model:
    """The odds request for the same inputs as `request`: without its dice or the flag."""
    assert op.odds_request_model is not None
    data = request.model_dump_json(exclude={"dice", "outcome_odds"})
    return op.odds_request_model.model_validate_json(data)


def rolled_odds(
    op: Operation, outcome: Model, result: dict[str, Any], odds: dict[str, Any]
) -> list[RolledOdds]:
    """Each distribution and event of `odds` that `result` (the rule's `outcome` with its
    envelope, as JSON data) reads as an outcome, with that outcome's probabilities."""
    fields: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
    for path, value in _fields(result, (), 0):
        fields.setdefault(path[-1], []).append((path, value))
    keys = set(_keys(result, 0))
    found = []
    for pointer, table in _tables(odds, "", 0):
        reading = op.rolled.get(pointer, _BY_NAME)
        read = reading.read
        values = [read(outcome)] if read is not None else _by_place(pointer, fields, keys)
        values = [value for value in values if value is not None]
        entries = (_entry(pointer, written(v), table, reading.best_first) for v in values)
        entry = next((e for e in entries if e is not None), None)
        if entry is not None:
            found.append(entry)
    return found


_BY_NAME = Reading()


def _entry(pointer: str, outcome: str, table: Any, best_first: bool) -> RolledOdds | None:
    if isinstance(table, dict):  # a yes/no event: its probability is of "true"
        if outcome not in ("true", "false"):
            return None
        event = Fraction(table["exact"])
        event = event if outcome == "true" else 1 - event
        return RolledOdds(
            distribution=pointer, outcome=outcome, probability=exact(event), at_least=None
        )
    labels = [row["outcome"] for row in table]
    if outcome not in labels:
        return None
    place = labels.index(outcome)
    chance = exact(Fraction(table[place]["exact"]))
    if set(labels) <= {"true", "false"}:  # yes or no: neither is the better in general
        return RolledOdds(distribution=pointer, outcome=outcome, probability=chance, at_least=None)
    rows = table[: place + 1] if best_first else table[place:]
    return RolledOdds(
        distribution=pointer,
        outcome=outcome,
        probability=chance,
        at_least=exact(sum((Fraction(row["exact"]) for row in rows), Fraction(0))),
    )


def _tables(node: Any, pointer: str, depth: int) -> Iterator[tuple[str, Any]]:
    """(JSON pointer, table) of each distribution and event in the odds `node`."""
    if not isinstance(node, dict) or depth > _DEPTH:
        return
    for key, value in node.items():
        if key in _ENVELOPE or key == "truncation":
            continue
        here = f"{pointer}/{key}"
        if _is_distribution(value) or _is_event(value):
            yield here, value
        elif isinstance(value, dict):
            yield from _tables(value, here, depth + 1)


def _is_distribution(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(row, dict) and "outcome" in row and "exact" in row for row in value)
    )


def _is_event(value: Any) -> bool:
    return isinstance(value, dict) and value.keys() == {"exact", "float"}


def _fields(
    node: dict[str, Any], path: tuple[str, ...], depth: int
) -> Iterator[tuple[tuple[str, ...], Any]]:
    """The result's scalar fields by path of keys (None is no outcome), shallowest first."""
    nested = []
    for key, value in node.items():
        if key in _ENVELOPE:
            continue
        if isinstance(value, dict) and depth < _DEPTH:
            nested.append((key, value))
        elif isinstance(value, bool | int | float | str):
            yield (*path, key), value
    for key, child in nested:
        yield from _fields(child, (*path, key), depth + 1)


def _by_place(
    pointer: str, fields: dict[str, list[tuple[tuple[str, ...], Any]]], keys: set[str]
) -> list[Any]:
    """The values of the fields named as the pointer ends that lie inside every object the
    pointer passes through which the result has (a null one holds none: the footing not
    rolled is not the attack's success), the most of those objects first, then the
    shallowest."""
    *within, name = pointer.strip("/").split("/")
    needed = [key for key in within if key in keys]
    found = [f for f in fields.get(name, []) if _shared(needed, f[0][:-1]) == len(needed)]
    ranked = sorted(found, key=lambda field: -_shared(within, field[0][:-1]))  # stable
    return [value for _, value in ranked]


def _keys(node: dict[str, Any], depth: int) -> Iterator[str]:
    """Every key of the result's objects, whatever its value, null included."""
    for key, value in node.items():
        if key in _ENVELOPE:
            continue
        yield key
        if isinstance(value, dict) and depth < _DEPTH:
            yield from _keys(value, depth + 1)


def _shared(within: list[str], path: tuple[str, ...]) -> int:
    """How many of the objects `within` names the object `path` lies in, in order."""
    count, start = 0, 0
    for key in path:
        if key in within[start:]:
            count, start = count + 1, within.index(key, start) + 1
    return count
