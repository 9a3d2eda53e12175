"""What a result says, in words a chat line can carry: its top-level plain fields.

A result's own fields (not the envelope's rolls, seed, options or version) that hold a plain
value, or a short list of them, are the outcome: `hit: yes`, `margin: 6`, `injury: moderate`.
Nested models are left to the JSON result; a chat message says what happened, not everything.
"""

from collections.abc import Iterator
from enum import Enum

from service.rules.model import Model
from service.rules.registry import Operation, system_of

__all__ = ["MAX_LIST", "line", "pairs", "title"]

#: A list of plain values is written out when it holds at most this many.
MAX_LIST = 12

_Plain = bool | int | float | str


def title(op: Operation) -> str:
    """`4SIGHT · combat-attack`: the system's title and the operation's name."""
    return f"{system_of(op.module).title} · {op.name}"


def pairs(op: Operation, result: Model) -> Iterator[tuple[str, str]]:
    """Each plain field of the rule's own output, in declaration order, as (label, value);
    fields that are None or nested are left out."""
    output = op.output
    for name in [*output.model_fields, *output.model_computed_fields]:
        written = _written(getattr(result, name, None))
        if written is not None:
            yield name.replace("_", " "), written


def line(op: Operation, result: Model) -> str:
    """The outcome on one line, `hit: yes · margin: 6`; the operation's summary when the
    result has no plain field to tell it."""
    found = " · ".join(f"{label}: {value}" for label, value in pairs(op, result))
    return found or op.summary


def _written(value: object) -> str | None:
    if isinstance(value, list | tuple):
        items = [_plain(item) for item in value[: MAX_LIST + 1]]
        if not items or len(items) > MAX_LIST or None in items:
            return None
        return ", ".join(items)  # type: ignore[arg-type]
    return _plain(value)


def _plain(value: object) -> str | None:
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, _Plain):
        return str(value)
    return None
