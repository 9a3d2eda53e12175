"""A least-recently-used map bounded in bytes, for every cache the service keeps in process.

A count of entries is no bound on memory when entries differ in size: 512 parsed GraphQL
documents of 4.8 KB queries held 540 MB. So each entry is weighed when it is stored, by a
function of the caller's that estimates the bytes it holds, and the oldest entries go
until the total fits the budget again.
"""

import sys
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from enum import Enum
from functools import partial
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

__all__ = ["LRU", "PerObject", "footprint", "own_bytes", "share_field_names"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")


class LRU(Generic[K, V]):
    """Values by key within `budget` bytes as `weigh(key, value)` counts them.

    An entry heavier than an eighth of the budget is not kept, so that one huge entry does
    not flush all the others. Not thread-safe: use it from one thread (the event loop).
    """

    def __init__(self, budget: int, weigh: Callable[[K, V], int]) -> None:
        if budget < 0:
            raise ValueError("budget must not be negative")
        self.budget = budget
        self.size = 0
        self._weigh = weigh
        self._kept: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: K) -> V | None:
        found = self._kept.get(key)
        if found is None:
            return None
        self._kept.move_to_end(key)
        return found[0]

    def put(self, key: K, value: V) -> None:
        weight = self._weigh(key, value)
        if weight > self.budget // 8:
            return
        old = self._kept.pop(key, None)
        if old is not None:
            self.size -= old[1]
        self._kept[key] = (value, weight)
        self.size += weight
        while self.size > self.budget:
            self.size -= self._kept.popitem(last=False)[1][1]

    def clear(self) -> None:
        self._kept.clear()
        self.size = 0


class PerObject(Generic[T, V]):
    """`derive(obj)`, worked out once for each live object and found again by its identity.

    For immutable objects met again and again (a validated request the REST edge keeps, a
    remembered outcome), where finding the value by the object's value would hash it whole
    on every call. An entry goes when its object is collected, so the values kept are as
    many as the objects alive, and an identity is never mistaken for a later object's.
    """

    #: What an entry adds beside its value, at most (tracemalloc: about 450 bytes), for the
    #: budget of a cache whose objects it holds keys for.
    ENTRY_BYTES = 512

    def __init__(self, derive: Callable[[T], V]) -> None:
        self._derive = derive
        self._values: dict[int, tuple[weakref.ref[Any], V]] = {}

    def __len__(self) -> int:
        return len(self._values)

    def __call__(self, obj: T) -> V:
        key = id(obj)
        found = self._values.get(key)
        if found is not None and found[0]() is obj:
            return found[1]
        value = self._derive(obj)
        self._values[key] = (weakref.ref(obj, partial(self._drop, key)), value)
        return value

    def _drop(self, key: int, gone: object) -> None:
        self._values.pop(key, None)


def footprint(value: Any) -> int:
    """The bytes a model and what it holds take, by `sys.getsizeof`: an over-estimate, as
    strings it shares with tables or other models count in full (enum members, None, booleans,
    small integers and the field name sets `share_field_names` shares, always shared, do not).
    About 1.3 times what tracemalloc sees for a 4D8 check's outcome, and 30 µs."""
    if isinstance(value, BaseModel):
        return own_bytes(value) + sum(map(footprint, value.__dict__.values()))
    if isinstance(value, list | tuple | frozenset | set):
        return sys.getsizeof(value) + sum(map(footprint, value))
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(footprint(k) + footprint(v) for k, v in value.items())
    if (
        value is None
        or isinstance(value, bool | Enum)
        or (type(value) is int and -5 <= value <= 256)
    ):
        return 0  # one object the interpreter shares
    return sys.getsizeof(value)


def own_bytes(model: BaseModel) -> int:
    """A model's own bytes, what it holds left out (see `footprint`)."""
    own = sys.getsizeof(model) + sys.getsizeof(model.__dict__)
    if id(model.__pydantic_fields_set__) not in _SHARED:
        own += sys.getsizeof(model.__pydantic_fields_set__)
    return own


#: One set of field names for each set a kept model was given, and their identities.
_FIELD_SETS: dict[frozenset[str], set[str]] = {}
_SHARED: set[int] = set()


def share_field_names(model: BaseModel) -> None:
    """Make `model` share the set of the fields it was given with every other kept model
    given the same fields. That set is pydantic's own, one per model, and half the bytes of
    a 4D8 check's outcome; models are frozen, so pydantic never changes it in place (a copy
    gets its own). The sets are as many as the models' shapes, not inputs."""
    given = model.__pydantic_fields_set__
    if id(given) not in _SHARED:
        one = _FIELD_SETS.setdefault(frozenset(given), given)
        _SHARED.add(id(one))
        object.__setattr__(model, "__pydantic_fields_set__", one)
