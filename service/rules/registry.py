"""The operation table: the one place that binds a rule to its wire contract.

A rule is a plain function from a pydantic input model (and, when it rolls, a `Dice`) to a
pydantic output model. `operation(...)` registers it once; from the `Operation` alone the
service derives the REST route, the GraphQL field, the OpenAPI document, the catalogue entry,
the odds endpoint and the cache key. The envelope every result carries (the dice rolled, the
seed, the options applied and the rules version) is added here, never by a rule.
"""

import hashlib
import inspect
import re
import typing
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache, partial
from typing import Any

import pydantic_core
from pydantic import BaseModel, Field, create_model

from service.rules import RULES_VERSION
from service.rules.dice import Dice, DiceError, DiceSpec, Roll
from service.rules.model import Model

__all__ = [
    "Kind",
    "Operation",
    "Registry",
    "System",
    "Table",
    "camel",
    "load",
    "operation",
    "pascal",
    "type_name",
]


class Kind(StrEnum):
    CHECK = "check"
    CALCULATION = "calculation"
    LOOKUP = "lookup"
    GENERATION = "generation"
    VALIDATION = "validation"


def pascal(text: str) -> str:
    """'four-d8' -> 'FourD8'; 'character/create' -> 'CharacterCreate'."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-/_]", text) if part)


def type_name(cls: type) -> str:
    """The public name of a model or enum: classes of a system package carry the system's
    name ('Reading' of four_d8 -> 'FourD8Reading'), so systems never collide on the wire."""
    parts = cls.__module__.split(".")
    name = cls.__name__
    if len(parts) > 3 and parts[:2] == ["service", "rules"]:
        prefix = pascal(parts[2])
        if not name.startswith(prefix):
            return prefix + name
    return name


def camel(text: str) -> str:
    """'four-d8' -> 'fourD8'; 'character/create' -> 'characterCreate'."""
    name = pascal(text)
    return name[:1].lower() + name[1:]


@dataclass(frozen=True)
class Operation:
    """One registered rule and the wire models derived from it."""

    system: str
    name: str
    kind: Kind
    covers: tuple[str, ...]
    rule: Callable[..., Model]
    input: type[Model]
    output: type[Model]
    random: bool
    odds: Callable[[Any], Model] | None
    options: type[Model] | None
    request_model: type[Model]
    result_model: type[Model]
    odds_request_model: type[Model] | None
    odds_model: type[Model] | None
    _rendered: "_Rendered" = field(default_factory=lambda: _Rendered(), init=False, repr=False)

    @property
    def summary(self) -> str:
        return (inspect.getdoc(self.rule) or self.name).split("\n\n")[0].replace("\n", " ")

    @property
    def description(self) -> str:
        return inspect.getdoc(self.rule) or ""

    def run(self, request: Model) -> Model:
        """Run the rule on a validated request and wrap its result in the envelope."""
        outcome, extra = self._execute(request)
        return self._wrap(self.result_model, outcome, request, extra)

    def run_json(self, request: Model) -> bytes:
        """`run` as the JSON of its result, without building the result: the outcome's JSON
        (written once per outcome, `_Rendered`) joined with the envelope's. Building and
        serialising the wrapped result cost 19 µs of a 4D8 check (make bench, profiled)."""
        outcome, extra = self._execute(request)
        extra["rules_version"] = RULES_VERSION
        data = _joined(self._rendered.json(outcome), pydantic_core.to_json(extra))
        if self.options is None:
            return data
        options = self._rendered.json(getattr(request, "options"))  # noqa: B009
        return _joined(data, b'{"options_applied":' + options + b"}")

    def _execute(self, request: Model) -> tuple[Model, dict[str, Any]]:
        """The rule's outcome and the envelope's dice: the rolls and the seed."""
        if not self.random:
            return self.rule(request), {}
        spec: DiceSpec | None = getattr(request, "dice", None)
        dice = Dice(spec)
        try:
            outcome = self.rule(request, dice)
            dice.finish()
        except DiceError as error:
            raise DiceError(("dice", *error.loc), error.message) from None
        # A seed that drew no die (an automatic success) explains nothing: omit it.
        return outcome, {"rolls": dice.rolls, "seed": dice.seed if dice.rolls else None}

    def run_odds(self, request: Model) -> Model:
        """The exact odds of every outcome of the rule for this request (no dice)."""
        if self.odds is None or self.odds_model is None:
            raise LookupError(f"{self.system}/{self.name} has no odds")
        return self._wrap(self.odds_model, self.odds(request), request, {})

    def cache_key(self, request: Model) -> str:
        """`adjudicator:<rules_version>:<system>:<operation>:<sha256 of canonical input>`.

        The validated request dumps every field, defaults included, in declaration order,
        so two requests that mean the same thing share a key. Immutable requests are hashed
        by value and their key remembered: dumping a 4SIGHT combat request took a quarter of
        a cached odds request (make bench, profiled); one that holds a list is not hashable,
        and its key is worked out each time.
        """
        try:
            return _cache_key(self.system, self.name, request)
        except TypeError:
            return _cache_key.__wrapped__(self.system, self.name, request)

    def _wrap(
        self, model: type[Model], outcome: Model, request: Model, extra: dict[str, Any]
    ) -> Model:
        # Validated, not constructed: the values are already models and pass through as they
        # are, and pydantic's `model_construct` (Python) took twice as long as its validator.
        values = dict(outcome.__dict__)
        values.update(extra)
        if self.options is not None:
            values["options_applied"] = getattr(request, "options")  # noqa: B009
        values["rules_version"] = RULES_VERSION
        return model.model_validate(values)


@lru_cache(maxsize=4096)
def _cache_key(system: str, name: str, request: Model) -> str:
    digest = hashlib.sha256(request.model_dump_json().encode()).hexdigest()
    return f"adjudicator:{RULES_VERSION}:{system}:{name}:{digest}"


class _Rendered:
    """The JSON of each outcome a rule returned (and of the options applied), kept while that
    object lives.

    Models are immutable, and a rule that remembers its decisions (a 4D8 check decides each
    of the 4096 faces once) returns the same object again and again, as every request that
    omits its options shares the default options: its JSON is written once. An entry is
    dropped when its object is collected, so a rule that makes a new outcome every time holds
    nothing, and an identity is never mistaken for a later object's.
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


def operation(
    *,
    system: str,
    name: str,
    kind: Kind,
    covers: tuple[str, ...],
    odds: Callable[[Any], Model] | None = None,
) -> Callable[[Callable[..., Model]], Operation]:
    """Register a rule. Its input and output models are read from its annotations; it rolls
    dice when it takes a second parameter (the `Dice`)."""

    def register(rule: Callable[..., Model]) -> Operation:
        hints = typing.get_type_hints(rule)
        parameters = list(inspect.signature(rule).parameters)
        input_model: type[Model] = hints[parameters[0]]
        output_model: type[Model] = hints["return"]
        random = len(parameters) == 2
        options = _options_model(input_model)
        prefix = pascal(system) + pascal(name)
        envelope = _envelope_fields(options)
        request_fields: dict[str, Any] = {}
        if random:
            request_fields["dice"] = (
                DiceSpec | None,
                Field(default=None, description="Seed, table dice, or none for a fresh seed."),
            )
        result_fields = dict(envelope)
        if random:
            result_fields["rolls"] = (list[Roll], Field(description="Every die rolled, in order."))
            result_fields["seed"] = (int | None, Field(default=None, description="Replay seed."))
        odds_request_model = odds_model = None
        if odds is not None:
            odds_output: type[Model] = typing.get_type_hints(odds)["return"]
            odds_request_model = _derive(f"{prefix}OddsRequest", input_model, {})
            odds_model = _derive(f"{prefix}OddsResult", odds_output, envelope)
        return Operation(
            system=system,
            name=name,
            kind=kind,
            covers=covers,
            rule=rule,
            input=input_model,
            output=output_model,
            random=random,
            odds=odds,
            options=options,
            request_model=_derive(f"{prefix}Request", input_model, request_fields),
            result_model=_derive(f"{prefix}Result", output_model, result_fields),
            odds_request_model=odds_request_model,
            odds_model=odds_model,
        )

    return register


@dataclass(frozen=True)
class Table:
    """A reference table served as data: `GET /v1/{system}/tables/{name}`."""

    system: str
    name: str
    title: str
    source: str
    covers: tuple[str, ...]
    rows: tuple[Model, ...]
    model: type[Model] = field(init=False)

    def __post_init__(self) -> None:
        row_type = type(self.rows[0])
        model = create_model(
            pascal(self.system) + pascal(self.name) + "Table",
            __base__=Model,
            name=(str, ...),
            title=(str, ...),
            source=(str, Field(description="Where the seed text states the table.")),
            rows=(list[row_type], ...),  # type: ignore[valid-type]
        )
        object.__setattr__(self, "model", model)

    def document(self) -> Model:
        return self.model.model_validate(
            {"name": self.name, "title": self.title, "source": self.source, "rows": self.rows},
            strict=False,
        )


@dataclass(frozen=True)
class System:
    """One game system: its slug, its seed text, its operations and reference tables."""

    slug: str
    title: str
    seed: str
    operations: tuple[Operation, ...]
    tables: tuple[Table, ...] = ()
    #: The odds `make precompute` fills the cache with: (operation, request) pairs of the
    #: questions callers ask most, each a plain JSON request without dice.
    standard_odds: tuple[tuple[Operation, dict[str, Any]], ...] = ()

    @property
    def graphql_name(self) -> str:
        return camel(self.slug)

    @property
    def covered(self) -> Iterator[str]:
        for op in self.operations:
            yield from op.covers
        for table in self.tables:
            yield from table.covers


@dataclass(frozen=True)
class Registry:
    systems: tuple[System, ...]

    def system(self, slug: str) -> System | None:
        return next((s for s in self.systems if s.slug == slug), None)


def load() -> Registry:
    """Every finished system. Imported here, lazily, so the core stays import-cycle free."""
    from service.rules import foresight, four_d8, four_sight

    return Registry(systems=(four_sight.SYSTEM, four_d8.SYSTEM, foresight.SYSTEM))


def _options_model(input_model: type[Model]) -> type[Model] | None:
    options = input_model.model_fields.get("options")
    if options is None:
        return None
    annotation = options.annotation
    assert isinstance(annotation, type)
    assert issubclass(annotation, BaseModel)
    return annotation  # type: ignore[return-value]


def _envelope_fields(options: type[Model] | None) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "rules_version": (str, Field(description="Version of the rules that computed this."))
    }
    if options is not None:
        fields["options_applied"] = (
            options,
            Field(description="Every option, defaults filled in, as applied."),
        )
    return fields


def _derive(name: str, base: type[Model], fields: dict[str, Any]) -> type[Model]:
    model: type[Model] = create_model(name, __base__=base, **fields)
    model.__doc__ = base.__doc__
    return model
