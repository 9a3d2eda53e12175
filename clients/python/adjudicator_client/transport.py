"""HTTP for the generated client (client.py): JSON bodies out, validated models in, and every
answer of 400 or more raised as a ProblemError carrying the service's problem+json."""

import json
from collections.abc import Mapping
from typing import Self
from urllib.parse import quote

import httpx
from pydantic import BaseModel, JsonValue, ValidationError

from adjudicator_client.models import Problem

__all__ = ["ProblemError", "Transport", "json_of"]

Scalar = str | int | float | bool | None


class ProblemError(Exception):
    """An answer of 400 or more: its status, and the problem (each bad field named by a JSON
    pointer in `problem.errors`) when the body is one."""

    def __init__(self, status: int, problem: Problem | None, body: str) -> None:
        super().__init__(f"{status}: {problem.detail if problem else body[:200]}")
        self.status = status
        self.problem = problem
        self.body = body


class Transport:
    """One httpx.Client to the service at `base_url`, or `http`, configured by the caller
    (its own base_url, transport, auth)."""

    def __init__(
        self, base_url: str, *, timeout: float = 30.0, http: httpx.Client | None = None
    ) -> None:
        self._http = http or httpx.Client(base_url=base_url, timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(
        self,
        method: str,
        path: str,
        *,
        body: BaseModel | JsonValue = None,
        path_params: Mapping[str, Scalar] | None = None,
        query: Mapping[str, Scalar | list[Scalar]] | None = None,
        headers: Mapping[str, Scalar] | None = None,
    ) -> httpx.Response:
        url = path.format_map({k: quote(str(v), safe="") for k, v in (path_params or {}).items()})
        sent = {k: str(v) for k, v in (headers or {}).items() if v is not None}
        content = None
        if isinstance(body, BaseModel):
            # Only what the caller set: the service fills in its own defaults.
            content = body.model_dump_json(by_alias=True, exclude_unset=True)
        elif body is not None:
            content = json.dumps(body)
        if content is not None:
            sent["content-type"] = "application/json"
        params = {k: v for k, v in (query or {}).items() if v is not None}
        answer = self._http.request(method, url, content=content, params=params, headers=sent)
        if answer.status_code >= 400:
            raise ProblemError(answer.status_code, _problem(answer.content), answer.text)
        return answer


def json_of(answer: httpx.Response) -> JsonValue:
    """The JSON body of an answer whose schema names no model."""
    parsed: JsonValue = json.loads(answer.content) if answer.content else None
    return parsed


def _problem(content: bytes) -> Problem | None:
    try:
        return Problem.model_validate_json(content)
    except ValidationError:
        return None
