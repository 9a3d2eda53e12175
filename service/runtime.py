"""Running operations for either API: results written as JSON, odds through the cache and
within their cost bounds.

Writing a result is the web edge's business, so its speed tricks live here, not in the
rules: `Results.json` writes a result as its outcome's JSON joined with the envelope's: the
JSON a remembered rule's memo keeps beside the outcome, or else written once while the
outcome lives. Building and serialising the wrapped result cost 19 µs of a
4D8 check (make bench, profiled).
"""

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar

import orjson
import pydantic_core

from service.cache import ProbabilityCache
from service.lru import PerObject
from service.rolled import odds_request, rolled_odds
from service.rules import RULES_VERSION
from service.rules.cost import DeadlineExceeded, Estimate, check, metered
from service.rules.distribution import RolledOdds
from service.rules.model import Model
from service.rules.registry import Operation

__all__ = ["Allowance", "Odds", "Results"]


class Allowance:
    """The outcome states one request may still spend on exact odds. A GraphQL request shares
    one among all its fields (aliases included); a REST request has its own."""

    def __init__(self, states: int) -> None:
        self.states = states

    def spend(self, estimate: Estimate) -> None:
        """Take `estimate` out of the allowance (counted exactly where it is over and can
        be), or raise `CostError` naming its fields."""
        estimate = estimate.within(self.states)
        check(estimate, self.states)
        self.states -= estimate.states


_allowance: ContextVar[Allowance | None] = ContextVar("allowance", default=None)


class Odds:
    """Exact odds for either API: from the cache, or computed within the budget, off the
    event loop and by a deadline.

    A table the cache holds is answered at once. Otherwise a worker thread estimates the
    states its odds would enumerate (`Operation.estimate`), refuses it when that is over the
    request's allowance (`CostError`, a 422 naming the fields and the limit), and computes
    it, counting states as it goes: past `deadline` seconds from the request the count
    raises `DeadlineExceeded`, as does waiting for the thread (a 503 with Retry-After). The
    event loop keeps answering other requests and health checks meanwhile.
    """

    def __init__(
        self, cache: ProbabilityCache, *, budget: int, deadline: float, workers: int = 1
    ) -> None:
        self.cache = cache
        self.budget = budget
        self.deadline = deadline
        self._workers = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="odds")

    async def json(self, op: Operation, request: Model) -> bytes:
        """The odds of `request` as JSON bytes, from the cache or computed and stored."""
        key = op.cache_key(request)
        value = await self.cache.get(key)
        if value is not None:
            self.cache.stats.hits += 1
            return value
        self.cache.stats.misses += 1
        value = await self._computed(op, request, _allowance.get() or Allowance(self.budget))
        await self.cache.set(key, value)
        return value

    async def run(self, op: Operation, request: Model) -> Model:
        """`op.run(request)`, with how likely its outcome was when the request asks
        (`outcome_odds`): from the odds of the same inputs, cached or computed as those of an
        odds request are."""
        result = op.run(request)
        if not getattr(request, "outcome_odds", False):
            return result
        return result.model_copy(update={"outcome_odds": await self.rolled(op, request, result)})

    async def rolled(self, op: Operation, request: Model, result: Model) -> list[RolledOdds]:
        odds = orjson.loads(await self.json(op, odds_request(op, request)))
        return rolled_odds(op, result, result.model_dump(mode="json"), odds)

    @contextmanager
    def shared(self) -> Iterator[Allowance]:
        """One allowance for every odds field computed inside the block (a GraphQL request)."""
        allowance = Allowance(self.budget)
        token = _allowance.set(allowance)
        try:
            yield allowance
        finally:
            _allowance.reset(token)

    async def _computed(self, op: Operation, request: Model, allowance: Allowance) -> bytes:
        deadline = time.monotonic() + self.deadline

        def compute() -> bytes:
            allowance.spend(op.estimate(request))
            with metered(deadline - time.monotonic()):
                return pydantic_core.to_json(op.run_odds(request))

        running = asyncio.get_running_loop().run_in_executor(self._workers, compute)
        try:
            async with asyncio.timeout(self.deadline):
                return await running
        except TimeoutError:
            raise DeadlineExceeded(f"no answer within {self.deadline} s") from None

    def close(self) -> None:
        self._workers.shutdown(wait=False, cancel_futures=True)


class Results:
    """Results of operations as JSON, equal member for member to `Operation.run`'s."""

    def __init__(self) -> None:
        # Models are immutable, and every request that omits its options shares the default
        # options (a remembered rule's outcomes come with their JSON): each one's JSON is
        # written once.
        self._rendered = PerObject(pydantic_core.to_json)

    def json(self, op: Operation, request: Model) -> bytes:
        """The outcome's members, then the envelope's: the rules version, the options applied,
        the dice (each logged die is a shared object, written once), the seed, and
        `outcome_odds` (asked for, `Odds.run` answers instead)."""
        outcome, rendered, extra = op.recall(request)
        if rendered is None:
            rendered = self._rendered(outcome)
        members = [rendered[1:-1], _RULES_VERSION]
        if op.options is not None:
            options = self._rendered(getattr(request, "options"))  # noqa: B009
            members.append(b'"options_applied":' + options)
        if op.random:
            rolls = b",".join([self._rendered(roll) for roll in extra["rolls"]])
            members.append(b'"rolls":[%b],"seed":%b' % (rolls, orjson.dumps(extra["seed"])))
        if op.knows_odds:
            members.append(b'"outcome_odds":null')
        return b"{" + b",".join([m for m in members if m]) + b"}"


#: The envelope's first member, the same in every result.
_RULES_VERSION = b'"rules_version":' + orjson.dumps(RULES_VERSION)
