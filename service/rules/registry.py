"""The operation table: the one place that binds a rule to its wire contract.

A rule is a plain function from a pydantic input model (and, when it rolls, a `Dice`) to a
pydantic output model. `operation(...)` registers it once; from the `Operation` alone the
service derives the REST route, the GraphQL field, the OpenAPI document, the catalogue entry,
the odds endpoint and the cache key. The envelope every result carries (the dice rolled, the
seed, the options applied and the rules version) is added here, never by a rule.
"""

import hashlib
import importlib
import inspect
import pkgutil
import re
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from operator import attrgetter
from types import ModuleType
from typing import Any, Generic, NamedTuple, overload

from pydantic import BaseModel, Field, create_model
from pydantic.fields import FieldInfo
from typing_extensions import TypeVar

from service.lru import LRU, PerObject, footprint
from service.rules import RULES_VERSION
from service.rules.cost import Estimate
from service.rules.dice import Dice, DiceError, DiceSpec, Roll
from service.rules.distribution import RolledOdds
from service.rules.memo import Memo
from service.rules.model import Model

__all__ = [
    "Kind",
    "Operation",
    "Reading",
    "Registry",
    "System",
    "Table",
    "Wire",
    "Wires",
    "camel",
    "load",
    "operation",
    "pascal",
    "system_of",
    "type_name",
]


#: The row type of a table; a bare `Table` holds any rows.
R = TypeVar("R", bound=Model, default=Model, covariant=True)


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
class Reading:
    """How a result reads as an outcome of one distribution of its odds, where reading the
    result's field of the distribution's name, written as the odds write it, would not do.

    `read` takes the rule's output and gives the outcome as the distribution names it, or None
    where the result does not show one (a long-run chain's); no `read`: the field of the same
    name is read; `best_first`, that the distribution lists its best
    outcome first (a FORESIGHT QR1 before QR10), so doing at least as well counts upwards.
    """

    read: Callable[[Any], object] | None = None
    best_first: bool = False


@dataclass(frozen=True, eq=False)
class Wire:
    """A model an operation derives for the wire: its name, the rule's model it extends and
    the fields it adds (annotation, field). `fields` reads it without deriving it; `model`
    derives it, once."""

    name: str
    base: type[Model]
    added: Mapping[str, tuple[Any, Any]]

    @cached_property
    def fields(self) -> dict[str, FieldInfo]:
        """Every field as the derived model has it: the base's, then those added."""
        added = {name: FieldInfo.from_annotated_attribute(annotation, field)
                 for name, (annotation, field) in self.added.items()}  # fmt: skip
        return {**self.base.model_fields, **added}

    @cached_property
    def model(self) -> type[Model]:
        return _derive(self.name, self.base, dict(self.added))


class Wires(NamedTuple):
    request: Wire
    result: Wire
    odds_request: Wire | None
    odds: Wire | None


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
    #: A request as JSON, published in OpenAPI and the catalogue and run by the contract suite.
    example: Mapping[str, Any]
    #: The odds requests callers ask most, which `make precompute` fills the cache with.
    standard: tuple[Mapping[str, Any], ...] = ()
    #: At most how many outcome states the odds of a request enumerate (`rules.cost`).
    cost: Callable[[Any], Estimate] | None = None
    #: Remembers each outcome by request and faces rolled (`operation(memo=True)`): `MEMO`.
    memo: Memo[Model] | None = field(default=None, repr=False, compare=False)
    #: How a result reads as outcomes of its odds, by distribution pointer (`Reading`), where
    #: the field of the distribution's name does not say it.
    rolled: Mapping[str, Reading] = field(default_factory=dict)

    @property
    def knows_odds(self) -> bool:
        """A roll that can say how likely its outcome was (`outcome_odds`)."""
        return self.random and self.odds is not None

    @property
    def module(self) -> str:
        return self.rule.__module__

    @property
    def summary(self) -> str:
        return (inspect.getdoc(self.rule) or self.name).split("\n\n")[0].replace("\n", " ")

    @property
    def description(self) -> str:
        return inspect.getdoc(self.rule) or ""

    # The four wire models are derived on first use: deriving every operation's at start took
    # half of a process's time to its first answer, a process serving REST alone uses few,
    # and the GraphQL schema is built from their `Wire` shapes, not from the models.
    # Two threads deriving one at once (Python 3.12 dropped cached_property's lock) would make
    # two equal classes of one name, either of which validates and writes the same JSON.

    @cached_property
    def wires(self) -> "Wires":
        """The request, the result, and the odds' request and result, as the wire names and
        shapes them."""
        request: dict[str, Any] = {}
        result = _envelope_fields(self.options)
        if self.random:
            request["dice"] = (
                DiceSpec | None,
                Field(default=None, description="Seed, table dice, or none for a fresh seed."),
            )
            result["rolls"] = (list[Roll], Field(description="Every die rolled, in order."))
            result["seed"] = (int | None, Field(default=None, description="Replay seed."))
        if self.knows_odds:
            request["outcome_odds"] = (bool, Field(default=False, description=_ASK_ODDS))
            result["outcome_odds"] = (
                list[RolledOdds] | None,
                Field(default=None, description=_ROLLED_ODDS),
            )
        prefix = pascal(self.system) + pascal(self.name)
        odds_request = odds = None
        if self.odds is not None:
            odds_output: type[Model] = typing.get_type_hints(self.odds)["return"]
            odds_request = Wire(f"{prefix}OddsRequest", self.input, {})
            odds = Wire(f"{prefix}OddsResult", odds_output, _envelope_fields(self.options))
        return Wires(
            request=Wire(f"{prefix}Request", self.input, request),
            result=Wire(f"{prefix}Result", self.output, result),
            odds_request=odds_request,
            odds=odds,
        )

    @property
    def request_model(self) -> type[Model]:
        """The rule's input, with the dice when it rolls and `outcome_odds` when it knows
        its odds."""
        return self.wires.request.model

    @property
    def result_model(self) -> type[Model]:
        """The rule's output in the envelope: the rules version, the options applied, and
        when it rolls the dice and the seed (and the outcome's odds, when asked)."""
        return self.wires.result.model

    @property
    def odds_request_model(self) -> type[Model] | None:
        """The rule's input under the odds' own name; None without odds."""
        wire = self.wires.odds_request
        return None if wire is None else wire.model

    @property
    def odds_model(self) -> type[Model] | None:
        """The odds' output in the envelope; None without odds."""
        wire = self.wires.odds
        return None if wire is None else wire.model

    def run(self, request: Model) -> Model:
        """Run the rule on a validated request and wrap its result in the envelope."""
        outcome, extra = self.execute(request)
        return self._wrap(self.result_model, outcome, request, extra)

    def execute(self, request: Model) -> tuple[Model, dict[str, Any]]:
        """The rule's outcome and the envelope's dice: the rolls and the seed."""
        outcome, _, extra = self.recall(request)
        return outcome, extra

    def recall(self, request: Model) -> tuple[Model, bytes | None, dict[str, Any]]:
        """`execute`, with the outcome's JSON where the memo keeps it (the REST edge writes
        it as it is), else None."""
        if not self.random:
            if self.memo is None:
                return self.rule(request), None, {}
            remembered = self.memo.recall(
                (self.system, self.name, request), None, self.rule, request
            )
            return *remembered, {}
        spec: DiceSpec | None = getattr(request, "dice", None)
        dice = Dice(spec)
        rendered = None
        try:
            if self.memo is None:
                outcome = self.rule(request, dice)
            else:
                # The dice are not part of what the rule decides from, nor is asking for the
                # odds of the outcome: one tree per operation and the request's other fields.
                key = (self.system, self.name, self._deciding(request))
                outcome, rendered = self.memo.recall(key, dice, self.rule, request)
            dice.finish()
        except DiceError as error:
            raise DiceError(("dice", *error.loc), error.message) from None
        # A seed that drew no die (an automatic success) explains nothing: omit it.
        return outcome, rendered, {"rolls": dice.rolls, "seed": dice.seed if dice.rolls else None}

    @cached_property
    def _deciding(self) -> Callable[[Model], tuple[Any, ...]]:
        """The values of the request's fields the rule decides from, as a tuple: the memo's
        key (a copy of the request without its dice cost more than the remembered rule)."""
        names = [n for n in self.request_model.model_fields if n not in _NOT_DECIDING]
        if len(names) > 1:
            return attrgetter(*names)
        return lambda request: tuple(getattr(request, n) for n in names)

    def run_odds(self, request: Model) -> Model:
        """The exact odds of every outcome of the rule for this request (no dice)."""
        if self.odds is None or self.odds_model is None:
            raise LookupError(f"{self.system}/{self.name} has no odds")
        return self._wrap(self.odds_model, self.odds(request), request, {})

    def estimate(self, request: Model) -> Estimate:
        """At most how many outcome states `run_odds(request)` enumerates."""
        if self.cost is None:
            raise LookupError(f"{self.system}/{self.name} has no odds")
        return self.cost(request)

    def cache_key(self, request: Model) -> str:
        """`adjudicator:<rules_version>:<system>:<operation>:<sha256 of canonical input>`.

        The validated request dumps every field, defaults included, in declaration order,
        so two requests that mean the same thing share a key. Every request is frozen and
        holds tuples, never lists (tests/test_inputs.py), so it hashes by value and a key is
        worked out once per distinct request (an LRU bounded in bytes). A request object met
        again (the REST edge keeps each body's) finds its key by identity: hashing a FORESIGHT
        attack by value, its weapon and armor included, took 4 µs, twice a lookup.
        """
        return self._keys(request)

    @cached_property
    def _keys(self) -> PerObject[Model, str]:
        return PerObject(self._key)

    def _key(self, request: Model) -> str:
        found = _KEYS.get((self.system, self.name, request))
        if found is None:
            digest = hashlib.sha256(request.model_dump_json().encode()).hexdigest()
            found = f"adjudicator:{RULES_VERSION}:{self.system}:{self.name}:{digest}"
            _KEYS.put((self.system, self.name, request), found)
        return found

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


_ASK_ODDS = (
    "Also return how likely the outcome rolled was, and doing at least that well, from the "
    "operation's exact odds (within their cost bounds, as the odds endpoint computes them)."
)
_ROLLED_ODDS = (
    "With 'outcome_odds' asked: each distribution of the odds that the result reads as an "
    "outcome, with its probability."
)


#: The request fields a rule does not decide from: a remembered outcome is shared by the
#: requests that differ only in them.
_NOT_DECIDING = frozenset({"dice", "outcome_odds"})


#: The outcomes of every remembering operation, within one budget of bytes (`MEMO_BYTES`).
MEMO: Memo[Model] = Memo()

#: Cache keys by request, for `Operation.cache_key`: the requests they hold are charged, and
#: the entry each request kept alive here has in its operation's `PerObject` of keys.
_KEYS: LRU[tuple[str, str, Model], str] = LRU(
    8 * 1024 * 1024, lambda k, _: footprint(k) + 250 + PerObject.ENTRY_BYTES
)


def operation(
    *,
    name: str,
    kind: Kind,
    covers: tuple[str, ...],
    example: Mapping[str, Any],
    odds: Callable[[Any], Model] | None = None,
    cost: Callable[[Any], Estimate] | None = None,
    standard: Iterable[Mapping[str, Any]] = (),
    memo: bool = False,
    rolled: Mapping[str, Reading] | None = None,
) -> Callable[[Callable[..., Model]], Operation]:
    """Register a rule of the system whose package holds it. Its input and output models are
    read from its annotations; it rolls dice when it takes a second parameter (the `Dice`).

    `example` is a request the operation answers; `odds`, the exact odds of a request;
    `cost`, which every operation with odds declares, an upper bound on the outcome states
    those odds enumerate (`rules.cost`; its docstring is published as the formula);
    `standard`, the odds requests worth precomputing; `memo`, that outcomes are remembered
    by request and faces (the rule must be a pure function of them, as every rule is);
    `rolled`, how a result reads as outcomes of its odds where its field names do not say it.
    """
    if (odds is None) != (cost is None):
        raise TypeError("an operation with odds declares their cost, and only then")

    def register(rule: Callable[..., Model]) -> Operation:
        system = system_of(rule.__module__).slug
        hints = typing.get_type_hints(rule)
        parameters = list(inspect.signature(rule).parameters)
        input_model: type[Model] = hints[parameters[0]]
        output_model: type[Model] = hints["return"]
        random = len(parameters) == 2
        if odds is not None and "return" not in typing.get_type_hints(odds):
            raise TypeError(f"{name}: the odds function names its output model")
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
            options=_options_model(input_model),
            example=example,
            standard=tuple(standard),
            cost=cost,
            memo=MEMO if memo else None,
            rolled=dict(rolled or {}),
        )

    return register


@dataclass(frozen=True)
class Table(Sequence[R], Generic[R]):
    """A reference table served as data: `GET /v1/{system}/tables/{name}`. `source` names
    the seed lines that state it; the system is the package's that holds it. A table is the
    sequence of its typed rows; `rules.tables.table` reads one from the data file beside the
    code, and `place` is where that file lists it, the order its system lists its tables in."""

    name: str
    title: str
    source: str
    covers: tuple[str, ...]
    rows: tuple[R, ...]
    place: tuple[str, int] = ("", 0)
    system: str = ""

    @overload
    def __getitem__(self, index: int) -> R: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[R, ...]: ...
    def __getitem__(self, index: int | slice) -> R | tuple[R, ...]:
        return self.rows[index]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[R]:
        return iter(self.rows)

    @cached_property
    def model(self) -> type[Model]:
        row_type = type(self.rows[0])
        return create_model(
            pascal(self.system) + pascal(self.name) + "Table",
            __base__=Model,
            name=(str, ...),
            title=(str, ...),
            source=(str, Field(description="Where the seed text states the table.")),
            rows=(list[row_type], ...),  # type: ignore[valid-type]
        )

    def document(self) -> Model:
        return self.model.model_validate(
            {"name": self.name, "title": self.title, "source": self.source, "rows": self.rows},
            strict=False,
        )


@dataclass(frozen=True)
class System:
    """One game system, declared once as `SYSTEM` in its package's `__init__.py`: its slug,
    title, seed text and the prefix its docstrings cite seed lines with (`"D"` for `D:L47`).
    `load` finds its operations and tables in the package's modules.

    Each system has its own prefix, and its code and data cite seed lines with no other (line
    47 of one seed is not line 47 of another): `S` 4SIGHT, `D` 4D8, `F` FORESIGHT, and, when
    they come, `C` the 4C System and `FI` Future Imperfect."""

    slug: str
    title: str
    seed: str
    lines: str
    operations: tuple[Operation, ...] = ()
    tables: tuple[Table, ...] = ()

    @property
    def graphql_name(self) -> str:
        return camel(self.slug)

    @property
    def standard_odds(self) -> Iterator[tuple[Operation, Mapping[str, Any]]]:
        """The odds `make precompute` fills the cache with: each operation's `standard`."""
        for op in self.operations:
            for request in op.standard:
                yield op, request

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

    def limit_memos(self, capacity: int) -> None:
        """Forget every remembered outcome and hold those to come within `capacity` bytes in
        all (`MEMO_BYTES`): an app's settings (the 4C Master Table it defaults to) may not
        be the last app's."""
        MEMO.resize(0)
        MEMO.resize(capacity)


def system_of(module: str) -> System:
    """The system declared (`SYSTEM`) by the nearest package that holds `module`."""
    parts = module.split(".")
    for end in range(len(parts) - 1, 0, -1):
        declared = getattr(importlib.import_module(".".join(parts[:end])), "SYSTEM", None)
        if isinstance(declared, System):
            return declared
    raise LookupError(f"{module} is not inside a system package (one that declares SYSTEM)")


def load(root: str = "service.rules") -> Registry:
    """Every system package under `root` with the operations and tables its modules define,
    in module order. Nothing is listed by hand: a rule exists by being registered."""
    systems = []
    for found in pkgutil.iter_modules(importlib.import_module(root).__path__, f"{root}."):
        package = importlib.import_module(found.name)
        declared = getattr(package, "SYSTEM", None)
        if found.ispkg and isinstance(declared, System):
            operations, tables = _defined(package)
            tables = tuple(replace(t, system=declared.slug) for t in tables)
            systems.append(replace(declared, operations=operations, tables=tables))
    return Registry(systems=tuple(systems))


def _defined(package: ModuleType) -> tuple[tuple[Operation, ...], tuple[Table, ...]]:
    """The operations defined in each module of a package (not imported into it), and the
    tables its modules hold, each once, in the order their data files list them."""
    operations: list[Operation] = []
    tables: dict[int, Table] = {}
    modules = pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    for name in sorted(m.name for m in modules):
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, Operation) and value.module == name:
                operations.append(value)
            elif isinstance(value, Table):
                tables.setdefault(id(value), value)
    return tuple(operations), tuple(sorted(tables.values(), key=lambda t: t.place))


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
