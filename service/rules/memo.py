"""Remembered outcomes of pure rules, declared at registration (`operation(memo=True)`).

A rule is a pure function of its request and of the faces its dice show: the dice it asks
for next depend only on the request and the faces before. So the outcomes of one request
form a tree: each node is either the next die the rule asks for (its sides) with a child
per face, or the outcome. A call walks the tree drawing the face of each die it names and
returns the outcome at the leaf, logging the dice the rule logged on the way; where the tree
ends it rewinds the dice and runs the rule, whose roll log is the path to grow. Nothing in a
rule knows of this.

The memo is bounded in bytes: it holds at most `capacity` bytes as `weigh` counts them (a
node's own bytes, each outcome and request by `footprint`), dropping whole requests, oldest
first, to make room; a request that alone fills it keeps the outcomes it has and stops
growing (dropping it made a hot request start over each time it filled up). Oldest, not least
recently used: keeping a recency order cost more per remembered call than a rebuilt tree
costs now and then. Outcomes differ in size (a 4D8 check's holds about 2.5 KB), so a count
of nodes would bound nothing. Only paths at least as likely as one in `RAREST_PATH` are
remembered: a rarer one is seldom met again, and a pool of many dice (five d8, or four that
may explode) is answered by its rule for its rarer paths.
"""

import sys
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from hashlib import blake2b
from math import prod
from threading import Lock
from types import MappingProxyType
from typing import Any, Generic, TypeVar

import pydantic_core
from pydantic import BaseModel

from service.lru import footprint, own_bytes, share_field_names
from service.rules.dice import Dice, Roll

__all__ = ["Memo"]

R = TypeVar("R")

#: A node's own memory: the node (about 100 bytes), its map of children shared out among them
#: (360 bytes with the eight faces of a d8, more for the d10-d20 of an exploding pool), and
#: its entry in its parent's map; a Future Imperfect pool's tree holds 320 bytes a node.
NODE_BYTES = 330

#: The most outcomes the dice of one remembered path may have together, a 4D8 check's: a
#: rarer path is answered by its rule each time, so a tree holds at most this many outcomes.
#: Growing a tree by an outcome costs several times the rule (its parts weighed and shared),
#: and a rare path is seldom met again: a Future Imperfect III-3 pool's paths of two
#: explosions or more (one request in thirteen) kept its tree growing, past 8 MB after half a
#: million requests, where it now stays at 1.5 MB.
RAREST_PATH = 8**4

#: The children of every node no die has been rolled at yet (an outcome's, most of a tree's
#: nodes): one empty map shared, not one each.
_NO_CHILDREN: Mapping[int, "_Node[Any]"] = MappingProxyType({})


#: A tree's models by `_identity`: one of each, which its outcomes share.
_Parts = dict[tuple[type, int, bytes], Any]


@dataclass(eq=False, slots=True)
class _Node(Generic[R]):
    #: The sides of the die the rule rolls here, or None at an outcome: a walk needs only its
    #: face, and the outcome's `rolls` say what each die was for.
    sides: int | None = None
    done: bool = False
    outcome: R | None = None
    #: The outcome's JSON, which the REST edge writes as it is (`Operation.recall`).
    json: bytes | None = None
    #: The dice the rule logged on the way here: a walk only draws their faces (and the
    #: rule may have marked a die discarded since it rolled it).
    rolls: tuple[Roll, ...] = ()
    children: Mapping[int, "_Node[R]"] = field(default_factory=lambda: _NO_CHILDREN)


@dataclass(eq=False, slots=True)
class _Tree(Generic[R]):
    root: _Node[R]
    size: int = 0
    #: The most one of its outcomes has cost: a tree that cannot take that much more is
    #: full, and weighing each new outcome only to find so cost as much as the rule.
    largest: int = 0
    #: One of each model its outcomes hold, by `_identity`: the outcomes share them.
    parts: _Parts = field(default_factory=dict)


class Memo(Generic[R]):
    """Outcomes of one rule by request and faces rolled; at most `capacity` bytes."""

    def __init__(self, capacity: int = 16 * 1024 * 1024) -> None:
        self.capacity = capacity
        self.size = 0
        self._trees: dict[Hashable, _Tree[R]] = {}
        self._lock = Lock()

    def __call__(self, key: Hashable, dice: Dice | None, rule: Callable[..., R], request: Any) -> R:
        """`rule(request, dice)` (or `rule(request)` without dice) for the request `key`,
        remembered."""
        return self.recall(key, dice, rule, request)[0]

    def recall(
        self, key: Hashable, dice: Dice | None, rule: Callable[..., R], request: Any
    ) -> tuple[R, bytes | None]:
        """The outcome, as `__call__`, and its JSON where the memo keeps it (None: not kept)."""
        tree = self._trees.get(key)
        start = dice.mark() if dice is not None else None
        if tree is not None:
            node: _Node[R] | None = tree.root
            while node is not None and node.sides is not None:
                assert dice is not None
                node = node.children.get(dice.face(node.sides))
            if node is not None and node.done:
                if dice is not None:
                    dice.rolls += node.rolls
                return node.outcome, node.json  # type: ignore[return-value]
        if dice is None:
            return self._grow(key, rule(request), [])
        assert start is not None
        dice.rewind(start)
        outcome = rule(request, dice)
        rolled = dice.rolls[start[0] :]
        if prod(roll.sides for roll in rolled) > RAREST_PATH:
            return outcome, None  # seldom met again: answered, not remembered
        return self._grow(key, outcome, rolled)

    def _grow(self, key: Hashable, outcome: R, rolled: list[Roll]) -> tuple[R, bytes | None]:
        with self._lock:
            tree = self._trees.get(key)
            if not self.capacity or (tree and tree.size + tree.largest > self.capacity):
                return outcome, None  # this request fills the memo: answered, not remembered
            nodes, new = self._nodes(tree, key, rolled)
            json = pydantic_core.to_json(outcome)
            # The outcome's parts are swapped for the equal ones the tree holds as it is
            # weighed; the new ones join the tree only with the outcome.
            staged: _Parts = {}
            held = _outcome_shared(outcome, tree.parts if tree else {}, staged) if new else 0
            logged = tuple(rolled)
            held += sys.getsizeof(logged)
            estimate = nodes + (held + sys.getsizeof(json) if new else 0)
            self._make_room(estimate, key)
            if self.size + estimate > self.capacity:
                return outcome, None
            if tree is None:
                tree = self._trees[key] = _Tree(_Node())
            tree.largest = max(tree.largest, estimate)
            node = tree.root
            for roll in rolled:
                node.sides = roll.sides
                if not isinstance(node.children, dict):
                    node.children = {}
                node = node.children.setdefault(roll.value, _Node())
            if not node.done:
                tree.parts.update(staged)
                node.outcome, node.json, node.rolls, node.done = outcome, json, logged, True
            tree.size += estimate
            self.size += estimate
        return node.outcome, node.json  # type: ignore[return-value]

    @staticmethod
    def _nodes(tree: _Tree[R] | None, key: Hashable, rolled: list[Roll]) -> tuple[int, bool]:
        """The bytes the nodes to the end of `rolled` would add, and whether that end holds
        no outcome yet."""
        node = None if tree is None else tree.root
        cost = 0 if tree is not None else NODE_BYTES + footprint(key)
        for roll in rolled:
            node = None if node is None else node.children.get(roll.value)
            cost += NODE_BYTES if node is None else 0
        return cost, node is None or not node.done

    def resize(self, capacity: int) -> None:
        """Hold at most `capacity` bytes from now on."""
        with self._lock:
            self.capacity = capacity
            self._make_room(0, None)

    def _make_room(self, cost: int, keep: Hashable | None) -> None:
        # Oldest request first (a dict keeps insertion order), never the one growing: a
        # request whose tree fills the memo keeps what it has rather than start over.
        for oldest in list(self._trees):
            if self.size + cost <= self.capacity:
                return
            if oldest != keep:
                self.size -= self._trees.pop(oldest).size


#: What a shared part adds to its tree's map beside itself: the key and the map's entry.
PART_BYTES = 240


def _outcome_shared(outcome: Any, parts: _Parts, staged: _Parts) -> int:
    """Replace each model `outcome` holds by an equal one `parts` or `staged` holds, staging
    the new ones; the bytes `outcome` now holds that no other outcome of the tree does.

    Outcomes differ in few of their parts: a 4D8 check's 4,096 hold 28,643 models (dice,
    groups, readings), 974 of them different. Models are frozen and never changed in place,
    so an equal one serves as well, and swapping it in is the memo's business alone."""
    if not isinstance(outcome, BaseModel):
        return footprint(outcome)
    share_field_names(outcome)
    return _fields_shared(outcome, parts, staged)


def _fields_shared(model: BaseModel, parts: _Parts, staged: _Parts) -> int:
    held = own_bytes(model)
    for name, value in model.__dict__.items():
        model.__dict__[name], more = _shared_part(value, parts, staged)
        held += more
    return held


def _shared_part(value: Any, parts: _Parts, staged: _Parts) -> tuple[Any, int]:
    """`value` or the equal one the tree holds, and the bytes it adds."""
    if isinstance(value, BaseModel):
        share_field_names(value)
        key = _identity(value)
        found = parts.get(key, staged.get(key))
        if found is not None:
            return found, 0
        staged[key] = value
        return value, _fields_shared(value, parts, staged) + PART_BYTES
    if type(value) in (tuple, list):
        items = [_shared_part(item, parts, staged) for item in value]
        kept = type(value)(item for item, _ in items)
        return kept, sys.getsizeof(kept) + sum(more for _, more in items)
    return value, footprint(value)


def _identity(model: BaseModel) -> tuple[type, int, bytes]:
    """What makes two models interchangeable: their class, the fields they were given (a
    set `share_field_names` makes one per content) and their JSON, which tells 1 from 1.0
    and True (equality does not), hashed short."""
    text = pydantic_core.to_json(model)
    return type(model), id(model.__pydantic_fields_set__), blake2b(text, digest_size=16).digest()
