"""The base model of every rule input and output, and the error a rule raises on bad input.

Models are immutable and strict: a JSON string is never coerced into a number, and unknown
fields are rejected, so a typo in an option name is an error rather than a silent default.
"""

from pydantic import BaseModel, ConfigDict

__all__ = ["InputError", "Model"]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")


class InputError(ValueError):
    """Input that passed the schema but breaks a rule; `loc` is the path of the bad field."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message
