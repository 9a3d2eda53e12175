"""Problem details (RFC 9457) and the field errors shared by REST and GraphQL.

Bad input always names the field (as a JSON pointer into the request) and, where the schema
sets one, the limit it broke.
"""

from pydantic import Field, ValidationError

from service.rules.cost import CostError
from service.rules.model import InputError, Model, Violations

__all__ = ["FieldError", "Problem", "field_errors"]


class FieldError(Model):
    pointer: str = Field(description="JSON pointer to the offending field ('' = the body).")
    detail: str
    type: str
    limit: int | float | str | None = Field(
        default=None, description="The bound that was broken, when there is one."
    )


class Problem(Model):
    """An error response (application/problem+json)."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    errors: list[FieldError] | None = None


_LIMIT_KEYS = ("le", "ge", "lt", "gt", "max_length", "min_length", "expected")


def _pointer(loc: tuple[str | int, ...]) -> str:
    escaped = (str(part).replace("~", "~0").replace("/", "~1") for part in loc)
    return "".join("/" + part for part in escaped)


def field_errors(error: ValidationError | InputError) -> list[FieldError]:
    if isinstance(error, Violations):
        return [e for one in error.errors for e in field_errors(one)]
    if isinstance(error, CostError):
        return [FieldError(pointer=_pointer(error.loc), detail=error.message, type="cost",
                           limit=error.limit)]  # fmt: skip
    if isinstance(error, InputError):
        return [FieldError(pointer=_pointer(error.loc), detail=error.message, type="rule")]
    found = []
    items = error.errors(include_url=False, include_input=False)
    failed = [item["loc"] for item in items]
    for item in items:
        loc = item["loc"]
        if item["type"] == "too_short" and any(f[: len(loc)] == loc and f != loc for f in failed):
            continue  # pydantic counts only the items that passed: the short list is their fault
        context = item.get("ctx") or {}
        limit = next((context[k] for k in _LIMIT_KEYS if k in context), None)
        found.append(
            FieldError(
                pointer=_pointer(item["loc"]),
                detail=item["msg"],
                type=item["type"],
                limit=limit
                if limit is None or isinstance(limit, int | float | str)
                else str(limit),
            )
        )
    return found
