"""The pages people open in a browser, served from files packaged with the service: the
playground, the API explorers and the assets they load. Nothing is fetched from a CDN, so
they work on a machine with no internet access (and behind a strict firewall)."""

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

__all__ = ["STATIC", "page_routes"]

#: The packaged files: `playground/`, the explorers' pages and `vendor/` (third-party assets,
#: fetched by `make assets` at pinned versions).
STATIC = Path(__file__).parent / "static"


def _page(path: Path) -> Route:
    async def serve(request: Request) -> Response:
        return FileResponse(path, media_type="text/html")

    return Route(f"/{path.parent.name}", serve, methods=["GET", "HEAD"])


def page_routes() -> list[BaseRoute]:
    """`/` redirects to the playground; `/<page>` serves `static/<page>/index.html`; every
    packaged file is under `/static/`."""

    async def home(request: Request) -> Response:
        return RedirectResponse("/playground", status_code=307)

    pages = sorted(STATIC.glob("*/index.html"))
    return [
        Route("/", home, methods=["GET", "HEAD"]),
        *(_page(path) for path in pages),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
