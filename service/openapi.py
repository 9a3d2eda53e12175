"""The OpenAPI 3.1 document, generated from the registry: one path per operation, odds
endpoint and table, each with its request and response schemas and its problem responses."""

from collections.abc import Iterable
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode

from service.calls import EXAMPLES, SCHEMAS
from service.catalogue import Catalogue, CostInfo, cost_info, example, odds_example, wire_models
from service.errors import Problem
from service.rules import RULES_VERSION
from service.rules.cost import BUDGET
from service.rules.registry import Registry

__all__ = ["openapi", "published"]

_COMPONENTS = "#/components/schemas/"
_REF = _COMPONENTS + "{model}"


def _problem(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": _REF.format(model="Problem")}}},
    }


_ERRORS = {
    "400": _problem("Malformed JSON."),
    "404": _problem("Unknown system, operation or table."),
    "413": _problem("Body too large."),
    "415": _problem("Body is not application/json."),
    "422": _problem("Invalid input: each bad field named by a JSON pointer."),
}


Refs = dict[tuple[Any, JsonSchemaMode], Any]


def _json(schema: Any, description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _post(
    summary: str, description: str, request: Any, response: Any, tag: str, request_example: Any
) -> Any:
    body = {"schema": request, "example": request_example}
    return {
        "post": {
            "summary": summary,
            "description": description,
            "tags": [tag],
            "requestBody": {"required": True, "content": {"application/json": body}},
            "responses": {"200": _json(response), **_ERRORS},
        }
    }


def _get(summary: str, response: Any, tag: str) -> Any:
    return {
        "get": {
            "summary": summary,
            "tags": [tag],
            "responses": {"200": _json(response), "404": _ERRORS["404"]},
        }
    }


def published(registry: Registry) -> Iterable[tuple[type[BaseModel], JsonSchemaMode]]:
    """Every model the document has a schema of: problems, the operations' wire models, the
    tables and the calls' bodies and answers."""
    yield Problem, "serialization"
    yield from wire_models(registry)
    for system in registry.systems:
        yield from ((table.model, "serialization") for table in system.tables)
    for body, answer in SCHEMAS.values():
        yield from ((body, "validation"), (answer, "serialization"))


def _cost_text(cost: CostInfo) -> str:
    return (
        f"Cost: at most {cost.limit:,} {cost.unit} by default (MAX_ODDS_STATES); a request "
        f"estimated over it is a 422 naming its fields. Estimate: {cost.estimate}"
    )


def _paths(registry: Registry, refs: Refs) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for system in registry.systems:
        tag = system.slug
        for op in system.operations:
            base = f"/v1/{system.slug}/{op.name}"
            paths[base] = _post(
                op.summary, op.description, refs[op.request_model, "validation"],
                refs[op.result_model, "serialization"], tag, example(op),
            )  # fmt: skip
            cost = cost_info(op, BUDGET)
            if op.odds_request_model is not None and op.odds_model is not None and cost:
                paths[f"{base}/odds"] = _post(
                    f"Exact odds: {op.summary}", f"{op.description}\n\n{_cost_text(cost)}",
                    refs[op.odds_request_model, "validation"],
                    refs[op.odds_model, "serialization"], tag, odds_example(op),
                )  # fmt: skip
                paths[f"{base}/odds"]["post"]["x-cost"] = cost.model_dump()
                paths[f"{base}/odds"]["post"]["responses"]["503"] = _problem(
                    "The odds ran past the deadline (ODDS_DEADLINE_SECONDS): retry after "
                    "the Retry-After header's seconds."
                )
        for table in system.tables:
            paths[f"/v1/{system.slug}/tables/{table.name}"] = _get(
                table.title, refs[table.model, "serialization"], tag
            )
        paths[f"/v1/systems/{system.slug}"] = _get(
            f"Catalogue of {system.title}, with JSON Schemas.", {"type": "object"}, "catalogue"
        )
    for path, (body, answer) in SCHEMAS.items():
        summary, description = (body.__doc__ or "").strip(), (answer.__doc__ or "").strip()
        paths[path] = _post(summary, description, refs[body, "validation"],
                            refs[answer, "serialization"], "calls", EXAMPLES[path])  # fmt: skip
    paths["/v1/systems"] = _get(
        "Every system and operation, with JSON Schemas.",
        {"type": "object", "required": ["systems"]},
        "catalogue",
    )
    return paths


def openapi(registry: Registry, catalogue: Catalogue | None = None) -> dict[str, Any]:
    """The document, from the definitions of `catalogue` (whose one pass must have made the
    `published` models: the app's does) or of a pass of its own."""
    names, defs = (catalogue or Catalogue(registry, models=published)).definitions()
    refs = {key: {"$ref": _REF.format(model=name)} for key, name in names.items()}
    # The catalogue's definitions refer to each other as `#/$defs/<name>` (in `$ref` and in
    # discriminator mappings). In JSON text `"#/$defs/` can only open a string (a quote
    # inside one is escaped), and the only strings that open so are those references.
    written = orjson.dumps(defs).replace(b'"#/$defs/', f'"{_COMPONENTS}'.encode())
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Adjudicator",
            "version": RULES_VERSION,
            "description": "Rules, dice and exact odds for five tabletop role-playing games.",
        },
        "paths": _paths(registry, refs),
        "components": {"schemas": orjson.loads(written)},
    }
