"""Running operations for either API: odds go through the probability cache."""

import pydantic_core

from service.cache import ProbabilityCache, cached
from service.rules.model import Model
from service.rules.registry import Operation

__all__ = ["odds_json"]


async def odds_json(cache: ProbabilityCache, op: Operation, request: Model) -> bytes:
    """The odds of `request` as JSON bytes, from the cache or computed and stored."""

    def compute() -> bytes:
        return pydantic_core.to_json(op.run_odds(request))

    return await cached(cache, op.cache_key(request), compute)
