"""An example request changed one field at a time, each field to the values its published
JSON Schema allows at and near its edges: every choice of an enum or a flag, null where the
field is optional, an integer's bounds and a few small values, a list empty, of one item
and of that item twice. A rule's refusals sit at such edges (an empty magazine, an
exoskeleton on a sword, a name given twice), so the variants reach them without per-rule
code. Nested objects are changed inside, to `DEPTH` levels."""

import copy
import json
from collections.abc import Iterator
from typing import Any

__all__ = ["variants"]

#: How deep into nested objects fields are changed.
DEPTH = 3
#: Integers tried besides a field's bounds, where the bounds allow them.
_SMALL = (0, 1, 2, 5, 20, 100)


def variants(example: dict[str, Any], schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """`example` with one field changed, for every field and every value tried, each once."""
    defs = schema.get("$defs", {})
    seen = set()
    for path, value in _changes(example, schema, defs, ()):
        changed = _with(example, path, value)
        key = json.dumps(changed, sort_keys=True)
        if key not in seen:
            seen.add(key)
            yield changed


def _resolved(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _values(node: dict[str, Any], defs: dict[str, Any]) -> list[Any]:
    node = _resolved(node, defs)
    if "anyOf" in node:
        return [v for choice in node["anyOf"] for v in _values(choice, defs)]
    if "enum" in node:
        return list(node["enum"])
    if "const" in node:
        return [node["const"]]
    kind = node.get("type")
    if kind == "null":
        return [None]
    if kind == "boolean":
        return [True, False]
    if kind == "integer":
        low, high = node.get("minimum", -100), node.get("maximum", 1000)
        tried = {low, low + 1, high, *_SMALL}
        return sorted(v for v in tried if low <= v <= high)
    if kind == "array":
        items = [v for v in _values(node.get("items", {}), defs) if not isinstance(v, list)]
        return [[], *([v] for v in items[:4]), *([v, v] for v in items[:4])]
    return []


def _object(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any] | None:
    """The object schema a node holds, directly or as one choice of several."""
    node = _resolved(node, defs)
    if "properties" in node:
        return node
    for choice in node.get("anyOf", ()):
        found = _resolved(choice, defs)
        if "properties" in found:
            return found
    return None


def _changes(
    example: Any, node: dict[str, Any], defs: dict[str, Any], path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], Any]]:
    properties = (_object(node, defs) or {}).get("properties", {})
    for name, field in properties.items():
        if name == "dice":
            continue
        here = (*path, name)
        for value in _values(field, defs):
            yield here, value
        given = example.get(name) if isinstance(example, dict) else None
        if isinstance(given, list) and given and isinstance(given[0], dict):
            yield here, [given[0], given[0]]
        inner = _object(field, defs)
        if inner is not None and len(here) < DEPTH:
            yield from _changes(given if isinstance(given, dict) else {}, inner, defs, here)


def _with(example: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(example)
    at = changed
    for name in path[:-1]:
        if not isinstance(at.get(name), dict):
            at[name] = {}
        at = at[name]
    at[path[-1]] = value
    return changed
