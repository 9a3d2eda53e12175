"""Requests drawn from a published JSON Schema, pushed to its bounds.

The cost suite (tests/test_cost.py) needs inputs where exact odds are heaviest: the longest
lists, the extreme numbers, every choice of every option. This draws them from the request
schema each operation publishes, so a new operation is sampled by existing: an integer is
its minimum, its maximum or a value between; a list is empty, as long as allowed, or between;
an optional field is present half the time. Every other seed draws at the edge: every field
present, every list as long as allowed, every integer at a bound. Seeded, so a failure
replays.
"""

import random
from typing import Any

__all__ = ["draw"]

#: A list or integer without a bound of its own is drawn within these.
_LIST_MAX = 8
_INT_SPAN = 1000


def draw(schema: dict[str, Any], seed: int) -> Any:
    """One request valid against `schema` (its `$defs` included), as JSON data."""
    return _Drawer(schema.get("$defs", {}), random.Random(seed), seed % 2 == 1).value(schema)


class _Drawer:
    def __init__(self, defs: dict[str, Any], rng: random.Random, edge: bool) -> None:
        self.defs = defs
        self.rng = rng
        self.edge = edge

    def value(self, node: dict[str, Any]) -> Any:
        if "$ref" in node:
            return self.value(self.defs[node["$ref"].rsplit("/", 1)[-1]])
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return self.rng.choice(node["enum"])
        for key in ("anyOf", "oneOf"):
            if key in node:
                # A nullable field's examples stand beside its choices, not in them.
                examples = {"examples": node["examples"]} if "examples" in node else {}
                return self.value({**examples, **self.rng.choice(node[key])})
        if "allOf" in node:
            return self.value(node["allOf"][0])
        kind = node.get("type")
        if kind == "object":
            return self.object(node)
        if kind == "array":
            return self.array(node)
        if kind == "integer":
            return self.integer(node)
        if kind == "number":
            return float(self.integer(node))
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "string":  # a published example meets any pattern the string has
            if "examples" in node:
                return self.rng.choice(node["examples"])
            return "x" * int(node.get("minLength", 1))
        if kind == "null":
            return None
        raise ValueError(f"cannot draw from {node}")

    def object(self, node: dict[str, Any]) -> dict[str, Any]:
        required = set(node.get("required", ()))
        found = {}
        for name, child in node.get("properties", {}).items():
            if name == "dice":
                continue  # odds take none
            if name in required or self.edge or self.rng.random() < 0.5:
                found[name] = self.value(child)
        return found

    def array(self, node: dict[str, Any]) -> list[Any]:
        low = int(node.get("minItems", 0))
        high = int(node.get("maxItems", max(low, _LIST_MAX)))
        length = high if self.edge else self.rng.choice((low, high, self.rng.randint(low, high)))
        items = node.get("items", {})
        prefix = node.get("prefixItems")
        if prefix:
            return [self.value(child) for child in prefix]
        drawn = [self.value(items) for _ in range(length)]
        key = node.get("x-unique-by")  # items that name, say, a location at most once each
        if key is not None:
            drawn = list({item[key]: item for item in drawn if key in item}.values())
        return drawn

    def integer(self, node: dict[str, Any]) -> int:
        low = node.get("minimum", node.get("exclusiveMinimum", -_INT_SPAN - 1) + 1)
        high = node.get("maximum", node.get("exclusiveMaximum", _INT_SPAN + 1) - 1)
        low, high = int(low), int(high)
        if self.edge:
            return self.rng.choice((low, high))
        return self.rng.choice((low, high, self.rng.randint(low, high), max(low, min(high, 0))))
