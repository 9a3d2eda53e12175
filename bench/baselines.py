"""The bare baselines the service is measured against: the least a Starlette endpoint and a
Strawberry query can do, served exactly as the service is."""

from functools import partial

import strawberry
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from strawberry.asgi import GraphQL
from strawberry.extensions import ParserCache, ValidationCache

__all__ = ["starlette_app", "strawberry_app"]


def starlette_app() -> Starlette:
    """One POST endpoint: parse a small JSON body, return a small JSON body."""

    async def check(request: Request) -> JSONResponse:
        body = await request.json()
        return JSONResponse({"ease": body["ease"], "success": True, "degree": 7})

    return Starlette(routes=[Route("/check", check, methods=["POST"])])


@strawberry.type
class Check:
    ease: int
    success: bool
    degree: int


@strawberry.type
class Query:
    @strawberry.field
    def check(self, ease: int) -> Check:
        return Check(ease=ease, success=True, degree=7)


def strawberry_app() -> GraphQL[None, None]:
    """One query field returning three scalars, with the parser and validation caches on."""
    schema = strawberry.Schema(
        query=Query,
        extensions=[partial(ParserCache, maxsize=512), partial(ValidationCache, maxsize=512)],
    )
    return GraphQL(schema)
