"""Reference tables as data: how every system keeps its tables.

A system package (or a concept subpackage of one) keeps its tables in `tables.json` beside the
code that uses them, as written in the seed and served as they are:

    {"traits": {"title": "Traits", "source": "S:L51-67", "rows": [{...}, ...]}, ...}

and each table is one module-level constant, found by `registry.load`:

    TRAITS = table(__name__, "traits", TraitInfo, covers=("4sight.traits_catalog",))

The rows are validated as the row model, so a rule reads them typed (`for row in TRAITS`).
The file is read through `importlib.resources`, so it travels with the installed package.
"""

import importlib
import json
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError
from typing_extensions import TypeVar

from service.rules.model import Model
from service.rules.registry import Table

__all__ = ["FILE", "table"]

#: The data file beside the code, one per package that has tables.
FILE = "tables.json"

R = TypeVar("R", bound=Model)


def table(module: str, name: str, row: type[R], *, covers: tuple[str, ...] = ()) -> Table[R]:
    """The table `name` of the data file beside `module` (pass `__name__`): its title, the
    seed lines that state it and its rows, each validated as `row`. `covers` names the
    catalogue ids the table answers."""
    package = importlib.import_module(module).__package__ or module
    tables = _read(package)
    where = f"{package}/{FILE}"
    if name not in tables:
        raise LookupError(f"{where} has no table {name!r}")
    entry = tables[name]
    try:
        # Each row is validated as the JSON it is, strictly: an enum reads from its value and
        # a string is never a number.
        rows = tuple(row.model_validate_json(json.dumps(r)) for r in entry["rows"])
    except ValidationError as error:
        raise ValueError(f"{where}: a row of {name!r} is not a {row.__name__}: {error}") from None
    if not rows:
        raise ValueError(f"{where}: table {name!r} has no rows")
    place = (package, list(tables).index(name))
    return Table(name, entry["title"], entry["source"], covers, rows, place)


@cache
def _read(package: str) -> dict[str, Any]:
    text = resources.files(package).joinpath(FILE).read_text(encoding="utf-8")
    tables: dict[str, Any] = json.loads(text)
    return tables
