"""Running operations for either API: results written as JSON, odds through the cache.

Writing a result is the web edge's business, so its speed tricks live here, not in the
rules: `Results.json` writes a result as its outcome's JSON joined with the envelope's, and
writes each outcome's JSON once while that outcome lives (a remembered rule hands back the
same outcome again and again). Building and serialising the wrapped result cost 19 µs of a
4D8 check (make bench, profiled).
"""

import weakref
from functools import partial

import pydantic_core

from service.cache import ProbabilityCache, cached
from service.rules import RULES_VERSION
from service.rules.model import Model
from service.rules.registry import Operation

__all__ = ["Results", "odds_json"]


async def odds_json(cache: ProbabilityCache, op: Operation, request: Model) -> bytes:
    """The odds of `request` as JSON bytes, from the cache or computed and stored."""

    def compute() -> bytes:
        return pydantic_core.to_json(op.run_odds(request))

    return await cached(cache, op.cache_key(request), compute)


class Results:
    """Results of operations as JSON, equal member for member to `Operation.run`'s."""

    def __init__(self) -> None:
        self._rendered = _Rendered()

    def json(self, op: Operation, request: Model) -> bytes:
        outcome, extra = op.execute(request)
        extra["rules_version"] = RULES_VERSION
        data = _joined(self._rendered.json(outcome), pydantic_core.to_json(extra))
        if op.options is None:
            return data
        options = self._rendered.json(getattr(request, "options"))  # noqa: B009
        return _joined(data, b'{"options_applied":' + options + b"}")


class _Rendered:
    """The JSON of each outcome a rule returned (and of the options applied), kept while that
    object lives.

    Models are immutable, and a remembered rule (a 4D8 check decides each of the 4096 faces
    once) returns the same object again and again, as every request that omits its options
    shares the default options: its JSON is written once. An entry is dropped when its
    object is collected, so a rule that makes a new outcome every time holds nothing, and an
    identity is never mistaken for a later object's.
    """

    def __init__(self) -> None:
        self._json: dict[int, tuple[weakref.ref[Model], bytes]] = {}

    def json(self, outcome: Model) -> bytes:
        key = id(outcome)
        found = self._json.get(key)
        if found is not None and found[0]() is outcome:
            return found[1]
        data = pydantic_core.to_json(outcome)
        self._json[key] = (weakref.ref(outcome, partial(self._drop, key)), data)
        return data

    def _drop(self, key: int, gone: object) -> None:
        self._json.pop(key, None)


def _joined(first: bytes, second: bytes) -> bytes:
    """Two JSON objects' members as one object."""
    if first == b"{}":
        return second
    if second == b"{}":
        return first
    return first[:-1] + b"," + second[1:]
