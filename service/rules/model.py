"""The base model of every rule input and output, and the error a rule raises on bad input.

Models are immutable and strict: a JSON string is never coerced into a number, and unknown
fields are rejected, so a typo in an option name is an error rather than a silent default.
"""

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic.fields import FieldInfo

__all__ = [
    "AMBIGUITY",
    "InputError",
    "Model",
    "Violations",
    "ambiguity_of",
    "at_least",
    "exactly_one_of",
    "not_null",
    "option",
]

#: The JSON Schema keyword naming the catalogue ambiguity an option answers.
AMBIGUITY = "x-ambiguity"


class Model(BaseModel):
    # Each model's schema, validator and serializer are built by its first use, so a process
    # holds those of the operations it answers (14 MB less after make bench). Built late,
    # they escape startup's freeze: harmless for a few, but every model is many objects to
    # walk, so what needs them all freezes them once made (`Lazy`: the catalogue), or is
    # made in a child (the GraphQL schema, `graphql.served_schema`).
    model_config = ConfigDict(frozen=True, strict=True, extra="forbid", defer_build=True)


def option(default: Any, *, ambiguity: str | None, description: str) -> Any:
    """A field of an options model: a reading of the rules where the catalogue's ambiguity
    register offers several, defaulting to its recommendation. `ambiguity` is the register's
    id (`"D-A02"`), published in the JSON Schema as `x-ambiguity`; None says the option answers
    no register entry, and the description says why it exists."""
    return Field(default=default, description=description, json_schema_extra={AMBIGUITY: ambiguity})


def ambiguity_of(field: FieldInfo) -> str | None:
    """The register id an option answers; a field not declared by `option` is an error."""
    extra = field.json_schema_extra
    if not isinstance(extra, dict) or AMBIGUITY not in extra:
        raise LookupError(f"not declared with option(): {field}")
    found = extra[AMBIGUITY]
    assert found is None or isinstance(found, str)
    return found


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


def not_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A nullable field's JSON Schema as a required one's: its non-null choice, no default."""
    found = {key: value for key, value in schema.items() if key not in ("anyOf", "default")}
    choices = [c for c in schema.get("anyOf", []) if c.get("type") != "null"]
    return {**found, **choices[0]} if choices else found


def exactly_one_of(*names: str) -> Callable[[dict[str, Any]], None]:
    """Publish a model whose fields are alternatives (give exactly one) as what it is in
    JSON Schema: one closed shape per field. The model stays one type, as GraphQL input
    must be, and refuses anything else itself; this tells a REST client the shapes."""

    def publish(schema: dict[str, Any]) -> None:
        properties: dict[str, Any] = schema.pop("properties")
        schema.pop("required", None)
        schema.pop("additionalProperties", None)  # each shape closes itself
        schema["anyOf"] = [
            {"type": "object", "additionalProperties": False,
             "properties": {name: not_null(properties[name])}, "required": [name]}
            for name in names
        ]  # fmt: skip

    return publish


def at_least(minimum: float, what: str) -> AfterValidator:
    """A floor for a positive number below which a rule's arithmetic leaves what a float can
    hold (a time divided by a speed of 1e-300). It is checked here, not published as the
    schema's minimum, because the catalogue lists limits as integers."""

    def check(value: float) -> float:
        if value < minimum:
            raise ValueError(f"{what} is at least {minimum:g}")
        return value

    return AfterValidator(check)
