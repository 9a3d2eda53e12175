"""What exact odds may cost, counted in outcome states.

Exact odds enumerate outcomes, and how many grows with the input (dice, explosion depth,
manifestations, injuries). An operation with odds declares `cost`: a function of its request
giving an `Estimate`, an upper bound on the states its odds will enumerate and the fields
that drive it. The service refuses a request whose estimate is over the budget before it
computes anything (`check`; an estimate that can also count its states exactly is asked
first, `Estimate.within`), and counts, while the odds run, every state a `Distribution`
makes (`counted`), so a test can hold each estimate to what was really enumerated.

A state is one (outcome, weight) pair a distribution is built from: the unit of work of
every map, convolution and chain. This machine makes about a million a second.
"""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from service.rules.model import InputError, Violations

__all__ = [
    "BUDGET",
    "CostError",
    "DeadlineExceeded",
    "Estimate",
    "Meter",
    "OverLimit",
    "check",
    "counted",
    "metered",
]

#: The states one request's odds may enumerate by default (`MAX_ODDS_STATES`).
BUDGET = 400_000


@dataclass(frozen=True)
class Estimate:
    """At most `states` outcome states, driven by the request's `fields` (JSON pointers).

    A bound worked out from the request's numbers can be far above what the odds meet (a
    state space whose parts move together); `count`, where an operation has one, counts
    the states exactly without computing the odds, stopping once past the limit it is
    given, and is asked before a request is refused (`within`)."""

    states: int
    fields: tuple[str, ...]
    count: Callable[[int], int] | None = None
    #: The states were counted (`within`): past a limit, only that many were reached.
    counted: bool = False

    def within(self, limit: int) -> "Estimate":
        """This estimate, or, past `limit`, the exact count where there is one."""
        if self.states <= limit or self.count is None:
            return self
        return Estimate(self.count(limit), self.fields, counted=True)

    def after(self, states: int) -> "Estimate":
        """The same work, following `states` made first."""
        count = self.count
        then = None if count is None else (lambda limit: states + count(limit - states))
        return Estimate(states + self.states, self.fields, then)


class CostError(InputError):
    """A request whose exact odds would enumerate more states than the budget allows."""

    def __init__(self, loc: tuple[str | int, ...], message: str, limit: int) -> None:
        super().__init__(loc, message)
        self.limit = limit


class DeadlineExceeded(Exception):  # noqa: N818 - a condition, as TimeoutError is
    """The odds ran past their deadline: the caller should retry later."""


def check(estimate: Estimate, budget: int) -> None:
    """Raise `CostError` for each driving field when `estimate` is over `budget`."""
    if estimate.states <= budget:
        return
    states = (
        f"more than {budget:,} outcome states (counting stopped at {estimate.states:,})"
        if estimate.counted
        else f"up to {estimate.states:,} outcome states"
    )
    message = (
        f"exact odds of this request would enumerate {states}; the limit is {budget:,}: "
        f"lower {', '.join(estimate.fields) or 'the input'}"
    )
    errors = [CostError(_loc(f), message, budget) for f in estimate.fields or ("",)]
    raise errors[0] if len(errors) == 1 else Violations(errors)


def _loc(pointer: str) -> tuple[str | int, ...]:
    return tuple(p for p in pointer.split("/") if p)


class OverLimit(Exception):  # noqa: N818 - a condition, as TimeoutError is
    """A count stopped once past its limit (`metered`): at least `states` were made."""

    def __init__(self, states: int) -> None:
        super().__init__(f"stopped after {states:,} states")
        self.states = states


class Meter:
    """The states counted so far, and when to stop."""

    __slots__ = ("deadline", "limit", "states")

    def __init__(self, deadline: float, limit: float = float("inf")) -> None:
        self.states = 0
        self.deadline = deadline
        self.limit = limit

    def add(self, states: int) -> None:
        self.states += states
        if self.states > self.limit:
            raise OverLimit(self.states)
        if time.monotonic() > self.deadline:
            raise DeadlineExceeded(f"stopped after {self.states:,} states")


_meter: ContextVar[Meter | None] = ContextVar("meter", default=None)


def counted(states: int) -> None:
    """Count `states` into the meter of the computation running, if any."""
    meter = _meter.get()
    if meter is not None:
        meter.add(states)


@contextmanager
def metered(seconds: float = float("inf"), limit: float = float("inf")) -> Iterator[Meter]:
    """Count the states made inside the block; past `seconds`, raise `DeadlineExceeded`, and
    past `limit` states, `OverLimit`."""
    meter = Meter(time.monotonic() + seconds, limit)
    token = _meter.set(meter)
    try:
        yield meter
    finally:
        _meter.reset(token)
