"""The catalogue of systems and operations, derived from the registry: what each operation
covers, its options with defaults, the limits of its input and (over REST) its JSON Schemas
and example requests.

Made at startup, the JSON Schemas took most of the time the service took to start, and most
of them were made two or three times; `Catalogue` makes nothing until it is asked, and each
schema and document once. The schemas are made in one pass over the registry, so that a
model many operations share is made once rather than once for each; the app's catalogue
makes OpenAPI's in the same pass, and the document is written from its definitions.
"""

import inspect
import re
import threading
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import orjson
from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, models_json_schema

from service.rules.cost import BUDGET
from service.rules.model import AMBIGUITY, Model
from service.rules.registry import Operation, Registry, System, camel, pascal

__all__ = [
    "Catalogue",
    "LimitInfo",
    "Names",
    "OperationInfo",
    "OptionInfo",
    "SystemInfo",
    "definitions",
    "describe",
    "describe_system",
    "example",
    "json_schema",
    "odds_example",
    "system_entry",
    "wire_models",
]

#: The JSON Schema of a model in a mode: `json_schema`, or a catalogue's remembered one.
Schemas = Callable[[type[BaseModel], JsonSchemaMode], dict[str, Any]]


def json_schema(model: type[BaseModel], mode: JsonSchemaMode) -> dict[str, Any]:
    return model.model_json_schema(mode=mode)


_SYSTEM_CLASS = re.compile(r"^(service\.rules\.(\w+)\.(?:\w+\.)+)(\w+)(:\d+)?$")


class Names(GenerateJsonSchema):
    """Schema names as in GraphQL: a system's classes carry its name (`FourD8Reading`), so
    the same class name in two systems names two schemas."""

    def get_defs_ref(self, core_mode_ref: Any) -> Any:
        core_ref, mode = core_mode_ref
        match = _SYSTEM_CLASS.match(core_ref)
        if match:
            prefix = pascal(match.group(2))
            name = match.group(3)
            if not name.startswith(prefix):
                core_ref = f"{match.group(1)}{prefix}{name}{match.group(4) or ''}"
        return super().get_defs_ref((core_ref, mode))


Key = tuple[type[BaseModel], JsonSchemaMode]


#: Each model's definition name, and the definitions by name.
Definitions = tuple[dict[Key, str], dict[str, Any]]


def definitions(models: Iterable[Key]) -> Definitions:
    """The JSON Schema definitions of `models`, each in its mode, made in one pass so that a
    model many share is made once; each refers to the others as `#/$defs/<name>`."""
    keys = list(dict.fromkeys(models))
    refs, made = models_json_schema(keys, ref_template="#/$defs/{model}", schema_generator=Names)
    return {key: _name(refs[key]) for key in keys}, made.get("$defs", {})


def wire_models(registry: Registry) -> Iterable[Key]:
    """Every operation's request and result models, and its odds request and odds models,
    each in the mode it is used in."""
    for system in registry.systems:
        for op in system.operations:
            yield op.request_model, "validation"
            yield op.result_model, "serialization"
            if op.odds_request_model is not None and op.odds_model is not None:
                yield op.odds_request_model, "validation"
                yield op.odds_model, "serialization"


def _name(ref: dict[str, Any]) -> str:
    return str(ref["$ref"]).rsplit("/", 1)[-1]


def _standalone(name: str, defs: dict[str, Any]) -> dict[str, Any]:
    """The definition `name` with the definitions it reaches, as `model_json_schema` gives."""
    reached: dict[str, None] = {}
    pending = [defs[name]]
    while pending:
        for ref in _refs(pending.pop()):
            if ref not in reached:
                reached[ref] = None
                pending.append(defs[ref])
    schema = dict(defs[name])
    if reached:
        schema["$defs"] = {ref: defs[ref] for ref in sorted(reached)}
    return schema


def _refs(node: Any) -> Iterable[str]:
    if isinstance(node, dict):
        if "$ref" in node:
            yield _name(node)
        for child in node.values():
            yield from _refs(child)
    elif isinstance(node, list):
        for child in node:
            yield from _refs(child)


class OptionInfo(Model):
    """An option as the JSON Schema of its request states it. GraphQL has no JSON scalar, so
    the default is typed as JSON text (`default_json`); REST also gives it as a JSON value
    (`default`)."""

    name: str
    ambiguity: str | None = Field(
        description="The id of the catalogue's ambiguity this option answers (`x-ambiguity` in "
        "the JSON Schema); null for an option that answers none."
    )
    type: str = Field(
        description="'enum', 'boolean', 'integer', 'number', 'string' or 'array of' one of them."
    )
    nullable: bool = Field(description="Whether null is allowed; the description says its meaning.")
    choices: list[str] = Field(description="The values of an enum (of each item of an array).")
    minimum: int | None = None
    maximum: int | None = None
    max_items: int | None = None
    default_json: str = Field(description="The default as JSON text: '\"shape\"', 'true', '[]'.")
    description: str

    @model_serializer(mode="wrap")
    def _with_default(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        data["default"] = orjson.loads(self.default_json)
        return data


class LimitInfo(Model):
    pointer: str
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    max_length: int | None = None


class CostInfo(Model):
    """What the exact odds of an operation may cost: a request estimated over the limit is
    refused with a 422 before anything is computed."""

    unit: str = Field(default="outcome states", description="What is counted.")
    limit: int = Field(description="The most one request may enumerate (MAX_ODDS_STATES).")
    estimate: str = Field(description="How the estimate grows with the input.")


def cost_info(op: Operation, limit: int) -> CostInfo | None:
    """The cost of an operation's odds, its estimate as its `cost` function states it."""
    if op.cost is None:
        return None
    estimate = " ".join((inspect.getdoc(op.cost) or "").split())
    return CostInfo(limit=limit, estimate=estimate)


class OperationInfo(Model):
    name: str
    kind: str
    summary: str
    covers: list[str]
    random: bool
    rest_path: str
    odds_path: str | None
    graphql_field: str
    graphql_odds_field: str | None
    options: list[OptionInfo]
    limits: list[LimitInfo]
    odds_cost: CostInfo | None


class TableInfo(Model):
    name: str
    title: str
    rest_path: str
    covers: list[str]


class SystemInfo(Model):
    slug: str
    title: str
    seed: str
    graphql_name: str
    operations: list[OperationInfo]
    tables: list[TableInfo]


def _options(options: type[Model] | None) -> list[OptionInfo]:
    return [] if options is None else list(_option_infos(options))


@cache
def _option_infos(options: type[Model]) -> tuple[OptionInfo, ...]:
    """Each option of a model, read from its JSON Schema: what callers send is what it says."""
    schema = options.model_json_schema()
    defs = schema.get("$defs", {})
    return tuple(_option(name, node, defs) for name, node in schema["properties"].items())


def _option(name: str, node: dict[str, Any], defs: dict[str, Any]) -> OptionInfo:
    kinds = [_resolved(kind, defs) for kind in node.get("anyOf", [node])]
    # One type, perhaps nullable: an option of two types would fail here, at startup.
    (kind,) = [k for k in kinds if k.get("type") != "null"]
    items = _resolved(kind["items"], defs) if "items" in kind else {}
    return OptionInfo(
        name=name,
        ambiguity=node.get(AMBIGUITY),
        type=_type(kind, items),
        nullable=len(kinds) > 1,
        choices=[str(value) for value in kind.get("enum", items.get("enum", []))],
        minimum=kind.get("minimum"),
        maximum=kind.get("maximum"),
        max_items=kind.get("maxItems"),
        default_json=orjson.dumps(node["default"]).decode(),
        description=node.get("description", ""),
    )


def _resolved(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        return {**defs[node["$ref"].rsplit("/", 1)[-1]], **node}
    return node


def _type(kind: dict[str, Any], items: dict[str, Any]) -> str:
    if "enum" in kind:
        return "enum"
    if kind["type"] == "array":
        return "array of " + _type(items, {})
    return str(kind["type"])


_LIMIT_KEYS = {
    "minimum": "minimum",
    "maximum": "maximum",
    "minItems": "min_items",
    "maxItems": "max_items",
    "maxLength": "max_length",
}


def _limits(schema: dict[str, Any]) -> list[LimitInfo]:
    """Every bound in a JSON Schema, with the pointer of the field it bounds."""
    defs = schema.get("$defs", {})
    found: list[LimitInfo] = []

    def walk(node: dict[str, Any], pointer: str, depth: int) -> None:
        if depth > 12:
            return
        if "$ref" in node:
            walk(defs[node["$ref"].rsplit("/", 1)[-1]], pointer, depth + 1)
        bounds = {_LIMIT_KEYS[k]: v for k, v in node.items() if k in _LIMIT_KEYS}
        if bounds:
            found.append(LimitInfo(pointer=pointer, **bounds))
        for name, child in node.get("properties", {}).items():
            walk(child, f"{pointer}/{name}", depth + 1)
        for child in node.get("anyOf", []):
            walk(child, pointer, depth + 1)
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{pointer}/-", depth + 1)

    walk(schema, "", 0)
    return found


def describe(
    system: System, op: Operation, schema: Schemas = json_schema, odds_limit: int = BUDGET
) -> OperationInfo:
    base = f"/v1/{system.slug}/{op.name}"
    has_odds = op.odds_request_model is not None
    return OperationInfo(
        name=op.name,
        kind=op.kind.value,
        summary=op.summary,
        covers=list(op.covers),
        random=op.random,
        rest_path=base,
        odds_path=f"{base}/odds" if has_odds else None,
        graphql_field=camel(op.name),
        graphql_odds_field=camel(op.name) + "Odds" if has_odds else None,
        options=_options(op.options),
        limits=_limits(schema(op.request_model, "validation")),
        odds_cost=cost_info(op, odds_limit),
    )


def describe_system(
    system: System, schema: Schemas = json_schema, odds_limit: int = BUDGET
) -> SystemInfo:
    return SystemInfo(
        slug=system.slug,
        title=system.title,
        seed=system.seed,
        graphql_name=system.graphql_name,
        operations=[describe(system, op, schema, odds_limit) for op in system.operations],
        tables=[
            TableInfo(
                name=t.name,
                title=t.title,
                rest_path=f"/v1/{system.slug}/tables/{t.name}",
                covers=list(t.covers),
            )
            for t in system.tables
        ],
    )


def example(op: Operation) -> dict[str, Any]:
    """The operation's example request, as published in OpenAPI and the catalogue."""
    return dict(op.example)


def odds_example(op: Operation) -> dict[str, Any] | None:
    """The example as an odds request: the same input without the dice."""
    if op.odds_request_model is None:
        return None
    return {name: value for name, value in op.example.items() if name != "dice"}


def system_entry(
    system: System, schema: Schemas = json_schema, odds_limit: int = BUDGET
) -> dict[str, Any]:
    """The REST form: the catalogue entry with each operation's JSON Schemas and examples."""

    def of(model: type[BaseModel] | None, mode: JsonSchemaMode) -> dict[str, Any] | None:
        return None if model is None else schema(model, mode)

    entry = describe_system(system, schema, odds_limit).model_dump()
    for info, op in zip(entry["operations"], system.operations, strict=True):
        info["input_schema"] = of(op.request_model, "validation")
        info["output_schema"] = of(op.result_model, "serialization")
        info["odds_input_schema"] = of(op.odds_request_model, "validation")
        info["odds_output_schema"] = of(op.odds_model, "serialization")
        info["example"] = example(op)
        info["odds_example"] = odds_example(op)
    return entry


class Catalogue:
    """The catalogue of one registry, each part made on first use and kept: every JSON
    Schema once (the REST entries, the limits and GraphQL's `systems` share them) and every
    document once, as the JSON bytes served. Safe to use from several threads: each part is
    made under one lock, so it is made once and then only read."""

    def __init__(
        self,
        registry: Registry,
        odds_limit: int = BUDGET,
        models: Callable[[Registry], Iterable[Key]] = wire_models,
    ) -> None:
        self.registry = registry
        self.odds_limit = odds_limit
        self._lock = threading.RLock()
        #: The models whose definitions are made in the one pass: at least the wire models
        #: (the app gives OpenAPI's, so that the document shares the pass).
        self._models = models
        self._definitions: Definitions | None = None
        self._schemas: dict[Key, dict[str, Any]] = {}
        self._infos: list[SystemInfo] | None = None
        self._entries: dict[str, memoryview] = {}
        self._all: bytes | None = None

    def definitions(self) -> Definitions:
        """The definitions of every model in `models`, made in one pass on first use."""
        with self._lock:
            if self._definitions is None:
                self._definitions = definitions(self._models(self.registry))
            return self._definitions

    def schema(self, model: type[BaseModel], mode: JsonSchemaMode) -> dict[str, Any]:
        """The model's JSON Schema standing alone, from the one pass when it is in it."""
        with self._lock:
            found = self._schemas.get((model, mode))
            if found is None:
                names, defs = self.definitions()
                name = names.get((model, mode))
                found = json_schema(model, mode) if name is None else _standalone(name, defs)
                self._schemas[model, mode] = found
            return found

    def infos(self) -> list[SystemInfo]:
        """Every system's entry without schemas (GraphQL's `systems`)."""
        with self._lock:
            if self._infos is None:
                systems = self.registry.systems
                self._infos = [
                    describe_system(system, self.schema, self.odds_limit) for system in systems
                ]
            return self._infos

    def system_json(self, slug: str) -> memoryview:
        """`GET /v1/systems/{slug}`: one system's entry with its schemas and examples, a view
        of the whole catalogue's bytes (so that they are kept once)."""
        if self.registry.system(slug) is None:
            raise LookupError(f"no system {slug!r}")
        self.json()
        return self._entries[slug]

    def json(self) -> bytes:
        """`GET /v1/systems`: `{"systems": [...]}`, each system's entry in registry order."""
        with self._lock:
            if self._all is None:
                systems = self.registry.systems
                entries = [
                    orjson.dumps(system_entry(system, self.schema, self.odds_limit))
                    for system in systems
                ]
                start = b'{"systems":['
                self._all = start + b",".join(entries) + b"]}"
                whole, offset = memoryview(self._all), len(start)
                for system, entry in zip(systems, entries, strict=True):
                    self._entries[system.slug] = whole[offset : offset + len(entry)]
                    offset += len(entry) + 1
            return self._all
