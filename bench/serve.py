"""Serve one benchmark target with the service's own uvicorn settings:
`python -m bench.serve service|starlette|strawberry PORT`."""

import sys

import uvicorn

from service.__main__ import UVICORN
from service.server import PROTOCOL

TARGETS = {
    "service": "service.app:create_app",
    "starlette": "bench.baselines:starlette_app",
    "strawberry": "bench.baselines:strawberry_app",
}


def main() -> None:
    target, port = sys.argv[1], int(sys.argv[2])
    # The service with its connection limits, as `python -m service serve` runs it.
    http = {"http": PROTOCOL} if target == "service" else {}
    uvicorn.run(TARGETS[target], factory=True, host="127.0.0.1", port=port, workers=1,
                **UVICORN, **http)  # type: ignore[arg-type]  # fmt: skip


if __name__ == "__main__":
    main()
