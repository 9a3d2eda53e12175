"""Operations named in the body rather than the path.

`POST /v1/batch` runs up to `MAX_CALLS` of them in one request, each with its own dice and its
own answer (a result, or the problem the same call alone would get), so a virtual tabletop
resolves a whole round in one round trip; their odds share one request's allowance, as the
fields of one GraphQL request do. `POST /v1/foundry` and `POST /v1/discord` run one rolling
operation and answer as a Foundry VTT `Roll` or a Discord message (`service.adapters`).
"""

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import orjson
from pydantic import Field, ValidationError
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from service.adapters.discord import DiscordMessage, discord_message
from service.adapters.foundry import FoundryRoll, foundry_roll
from service.errors import FieldError, Problem
from service.rest import RETRY_AFTER_SECONDS, Endpoints, invalid
from service.rules.cost import DeadlineExceeded
from service.rules.model import InputError, Model
from service.rules.registry import Operation, Registry
from service.runtime import Odds
from service.wire import busy, json_body, problem, respond

__all__ = [
    "EXAMPLES",
    "MAX_CALLS",
    "SCHEMAS",
    "Batch",
    "BatchAnswer",
    "BatchResult",
    "Call",
    "call_routes",
]

#: The most calls one batch may carry: a round of a busy table, within one body.
MAX_CALLS = 32


#: What system slugs and operation names are made of.
_NAME = r"^[a-z0-9][a-z0-9/-]*$"


class Call(Model):
    """One operation, named: what its own path would be sent, as `input`."""

    system: str = Field(
        max_length=32, pattern=_NAME, description="The system's slug, e.g. 'four-sight'."
    )
    operation: str = Field(
        max_length=64,
        pattern=_NAME,
        description="The operation's name, e.g. 'combat-attack' or 'dice/d100'.",
    )
    input: dict[str, Any] = Field(
        default_factory=dict,
        description="The request the operation's own path takes, its dice included.",
    )
    odds: bool = Field(
        default=False, description="Answer its exact odds instead (the input without dice)."
    )


class Batch(Model):
    """Several calls, answered in order, each on its own."""

    calls: Annotated[tuple[Call, ...], Field(min_length=1, max_length=MAX_CALLS)]


class BatchAnswer(Model):
    """One call's answer: the status its own request would get, and its result or problem."""

    status: int
    result: dict[str, Any] | None = Field(description="The operation's result or odds.")
    problem: Problem | None = Field(description="Why the call was refused (status 4xx or 503).")


class BatchResult(Model):
    answers: list[BatchAnswer]


def call_routes(registry: Registry, endpoints: Endpoints, odds: Odds) -> list[BaseRoute]:
    """`POST /v1/batch`, `/v1/foundry` and `/v1/discord`, over the operations' own endpoints."""

    async def batch(data: bytes) -> bytes | Response:
        try:
            calls = Batch.model_validate_json(data).calls
        except ValidationError as error:
            return invalid(error)
        with odds.shared():
            answers = [await _answer(endpoints, call) for call in calls]
        return b'{"answers":[' + b",".join(answers) + b"]}"

    def adapter(make: Callable[[Operation, Model], Model]) -> Callable[[bytes], Awaitable[Any]]:
        async def answer(data: bytes) -> bytes | Response:
            try:
                call = Call.model_validate_json(data)
            except ValidationError as error:
                return invalid(error)
            try:
                op = _rolling(registry, call)
                request = op.request_model.model_validate_json(_encoded(call.input))
                return make(op, await odds.run(op, request)).model_dump_json(by_alias=True).encode()
            except ValidationError as error:
                return invalid(error, prefix="/input")
            except InputError as error:
                return invalid(error)
            except DeadlineExceeded:  # odds of the outcome asked for, past the deadline
                return busy(RETRY_AFTER_SECONDS)

        return answer

    return [
        Route("/v1/batch", _Body(batch), methods=["POST"]),
        Route("/v1/foundry", _Body(adapter(foundry_roll)), methods=["POST"]),
        Route("/v1/discord", _Body(adapter(discord_message)), methods=["POST"]),
    ]


#: The models of these routes' bodies and answers, and an example body, for the OpenAPI
#: document.
SCHEMAS: dict[str, tuple[type[Model], type[Model]]] = {
    "/v1/batch": (Batch, BatchResult),
    "/v1/foundry": (Call, FoundryRoll),
    "/v1/discord": (Call, DiscordMessage),
}
_ATTACK = {
    "system": "four-sight",
    "operation": "combat-attack",
    "input": {
        "attacker": {"traits": [{"trait": "dexterity", "score": 3}]},
        "defender": {"traits": [{"trait": "dexterity", "score": 2}]},
        "dice": {"seed": 11},
    },
}
EXAMPLES = {
    "/v1/batch": {
        "calls": [
            _ATTACK,
            {"system": "four-d8", "operation": "check", "input": {"ease": 20, "dice": {"seed": 7}}},
            {"system": "four-d8", "operation": "check", "input": {"ease": 18}, "odds": True},
        ]
    },
    "/v1/foundry": _ATTACK,
    "/v1/discord": _ATTACK,
}


async def _answer(endpoints: Endpoints, call: Call) -> bytes:
    endpoint = endpoints.get((call.system, call.operation, call.odds))
    answer: bytes | Response
    if endpoint is None:
        answer = _unknown(endpoints, call)
    else:
        try:
            answer = await endpoint.reply(_encoded(call.input))
        except InputError as error:
            answer = invalid(error)
    if isinstance(answer, Response):
        return b'{"status":%d,"result":null,"problem":%s}' % (answer.status_code, answer.body)
    return b'{"status":200,"result":%s,"problem":null}' % answer


def _encoded(input: dict[str, Any]) -> bytes:
    """The call's input as the body of its own request. JSON parsed into Python may hold what
    no operation takes and JSON cannot be written back from (an integer past 64 bits, a lone
    surrogate): that is the caller's input error."""
    try:
        return orjson.dumps(input)
    except orjson.JSONEncodeError as error:
        raise InputError(("input",), f"not an operation's input: {error}") from None


def _unknown(endpoints: Endpoints, call: Call) -> Response:
    known = any(system == call.system for system, _, _ in endpoints)
    where = "operation" if known else "system"
    what = f"{'odds of ' if call.odds else ''}{call.system}/{call.operation}"
    error = FieldError(pointer=f"/{where}", type="unknown", detail=f"no {what}")
    return problem(422, "Invalid input", f"No {what}.", errors=[error])


def _rolling(registry: Registry, call: Call) -> Operation:
    """The rolling operation `call` names, or an `InputError` saying which field is wrong."""
    system = registry.system(call.system)
    if system is None:
        raise InputError(("system",), f"no system '{call.system}'")
    op = next((o for o in system.operations if o.name == call.operation), None)
    if op is None:
        raise InputError(("operation",), f"{call.system} has no operation '{call.operation}'")
    if not op.random or call.odds:
        raise InputError(("operation",) if call.odds is False else ("odds",),
                         "only a roll of dice answers as dice")  # fmt: skip
    return op


class _Body:
    """A raw ASGI endpoint of a JSON body, answered by `answer` with JSON bytes or a problem."""

    def __init__(self, answer: Callable[[bytes], Awaitable[bytes | Response]]) -> None:
        self.answer = answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        data = await json_body(scope, receive)
        await respond(scope, receive, send, data if isinstance(data, Response) else
                      await self.answer(data))  # fmt: skip
