"""The documents behind the API explorers: `GET /openapi.json`, which Swagger UI (`/docs`)
reads, and `GET /graphiql/examples.json`, the example query of every operation that
GraphiQL's picker (`/graphiql`) offers. Both are made from the registry by their first
request, as the catalogue is: they grow with every rule and take seconds to make."""

from collections.abc import Callable

import orjson
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from service.catalogue import Catalogue
from service.lazy import Lazy
from service.openapi import openapi
from service.rules.registry import Registry

__all__ = ["explorer_routes"]


def _document(make: Callable[[], object]) -> Lazy:
    return Lazy(lambda: Response(orjson.dumps(make()), media_type="application/json"))


def explorer_routes(registry: Registry, graphql: Lazy, catalogue: Catalogue) -> list[BaseRoute]:
    """The two documents; `graphql` is the service's `POST /graphql` app, whose schema the
    example queries are written from (and which it builds, if no query has yet), and the
    OpenAPI document's schemas are `catalogue`'s (made in one pass for both)."""

    def examples() -> object:
        # Imported here, as the app imports GraphQL: Strawberry is slow to import.
        from service.graphql import GraphQLApp
        from service.graphql_examples import examples

        app = graphql.prepare()
        assert isinstance(app, GraphQLApp)
        return {"systems": examples(registry, app.schema)}

    return [
        Route("/openapi.json", _document(lambda: openapi(registry, catalogue)), methods=["GET"]),
        Route("/graphiql/examples.json", _document(examples), methods=["GET"]),
    ]
