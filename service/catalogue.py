"""The catalogue of systems and operations, derived from the registry: what each operation
covers, its options with defaults, the limits of its input and (over REST) its JSON Schemas.
"""

from enum import Enum
from typing import Any

from pydantic import BaseModel, Field

from service.rules.model import Model
from service.rules.registry import Operation, Registry, System, camel

__all__ = [
    "LimitInfo",
    "OperationInfo",
    "OptionInfo",
    "SystemInfo",
    "catalogue",
    "describe",
    "describe_system",
    "system_entry",
]


class OptionInfo(Model):
    name: str
    choices: list[str] = Field(description="Allowed values ('true'/'false' for a switch).")
    default: str
    description: str


class LimitInfo(Model):
    pointer: str
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    max_length: int | None = None


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


def _text(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def _options(options: type[Model] | None) -> list[OptionInfo]:
    if options is None:
        return []
    found = []
    for name, info in options.model_fields.items():
        kind = info.annotation
        choices = (
            [_text(v) for v in kind]
            if isinstance(kind, type) and issubclass(kind, Enum)
            else ["true", "false"]
        )
        found.append(
            OptionInfo(
                name=name,
                choices=choices,
                default=_text(info.get_default(call_default_factory=True)),
                description=info.description or "",
            )
        )
    return found


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


def describe(system: System, op: Operation) -> OperationInfo:
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
        limits=_limits(op.request_model.model_json_schema()),
    )


def describe_system(system: System) -> SystemInfo:
    return SystemInfo(
        slug=system.slug,
        title=system.title,
        seed=system.seed,
        graphql_name=system.graphql_name,
        operations=[describe(system, op) for op in system.operations],
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


def _schema(model: type[BaseModel] | None, mode: str) -> dict[str, Any] | None:
    if model is None:
        return None
    return model.model_json_schema(mode="validation" if mode == "in" else "serialization")


def system_entry(system: System) -> dict[str, Any]:
    """The REST form: the catalogue entry with each operation's JSON Schemas."""
    entry = describe_system(system).model_dump()
    for info, op in zip(entry["operations"], system.operations, strict=True):
        info["input_schema"] = _schema(op.request_model, "in")
        info["output_schema"] = _schema(op.result_model, "out")
        info["odds_input_schema"] = _schema(op.odds_request_model, "in")
        info["odds_output_schema"] = _schema(op.odds_model, "out")
    return entry


def catalogue(registry: Registry) -> dict[str, Any]:
    return {"systems": [system_entry(system) for system in registry.systems]}
