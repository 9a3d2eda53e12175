"""The base model of every rule input and output, and the error a rule raises on bad input.

Models are immutable and strict: a JSON string is never coerced into a number, and unknown
fields are rejected, so a typo in an option name is an error rather than a silent default.
"""

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

__all__ = ["InputError", "Model", "Violations"]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="forbid", defer_build=True)


class InputError(ValueError):
    """Input that passed the schema but breaks a rule; `loc` is the path of the bad field."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


class Violations(InputError):  # noqa: N818 - a collection of InputErrors, raised as one
    """Several broken rules found in one pass (a character sheet), so the caller can fix them
    all at once instead of one per request."""

    def __init__(self, errors: Sequence[InputError]) -> None:
        if not errors:
            raise ValueError("Violations needs at least one error")
        super().__init__(errors[0].loc, "; ".join(e.message for e in errors))
        self.errors = tuple(errors)
