"""Reference tables: each is written once, in the data file beside the code that uses it, read
through one core helper as typed rows, and served exactly as the file writes it."""

import importlib
import json
import sys
import zipfile
from collections.abc import Iterator
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

import pydantic_core
import pytest

import service.rules
from service.rules.distribution import exact
from service.rules.foresight.resolution.tables import EaseFactorRow
from service.rules.four_sight.tables import TargetNumber
from service.rules.model import Model
from service.rules.registry import System, Table, load
from service.rules.tables import FILE, table

REGISTRY = load()
TABLES = [
    pytest.param(table, id=f"{system.slug}/{table.name}")
    for system in REGISTRY.systems
    for table in system.tables
]


def data_file(package: str) -> dict[str, Any]:
    text = resources.files(package).joinpath(FILE).read_text(encoding="utf-8")
    tables: dict[str, Any] = json.loads(text)
    return tables


@pytest.mark.parametrize("found", TABLES)
def test_a_table_is_served_as_its_data_file_writes_it(found: Table) -> None:
    """Nothing is coerced or derived on the way: the rows, the title and the seed lines served
    are the file's."""
    entry = data_file(found.place[0])[found.name]
    served = json.loads(pydantic_core.to_json(found.document()))
    assert served == {"name": found.name, **entry}


@pytest.mark.parametrize("found", TABLES)
def test_a_table_holds_typed_rows(found: Table) -> None:
    assert all(isinstance(row, Model) and type(row) is type(found[0]) for row in found)
    assert list(found) == list(found.rows)
    assert len(found) == len(found.rows)


def test_every_table_of_a_data_file_is_served() -> None:
    """No data sits in a file without a table constant to serve it."""
    root = Path(service.rules.__file__).parent
    written = set()
    for path in root.rglob(FILE):
        package = ".".join(path.parent.relative_to(root.parent.parent).parts)
        written |= {(package, name) for name in data_file(package)}
    served = {(t.place[0], t.name) for s in REGISTRY.systems for t in s.tables}
    assert written == served


def test_four_sight_lists_its_tables_in_the_order_of_its_data_file() -> None:
    """Its tables are defined in five modules (degrees.py before traits.py) but listed, on the
    wire as before, in the order tables.json writes them."""
    system = REGISTRY.system("four-sight")
    assert system is not None
    names = [t.name for t in system.tables]
    assert names == list(data_file("service.rules.four_sight"))
    assert names == ["traits", "expertise", "manifestations", "target-numbers", "degrees",
                     "injuries"]  # fmt: skip


# The helper and the registry on a throw-away system package


class Row(Model):
    key: str
    value: int


THROWAWAY = {
    "__init__.py": (
        "from service.rules.registry import System\n"
        "SYSTEM = System(slug='throwaway', title='Throwaway', seed='none.txt', lines='T')\n"
    ),
    FILE: json.dumps(
        {
            "first": {"title": "First", "source": "T:L1", "rows": [{"key": "a", "value": 1}]},
            "second": {"title": "Second", "source": "T:L2", "rows": [{"key": "b", "value": 2}]},
            "grouped": {"title": "Grouped", "source": "T:L3", "rows": [{"key": "c", "value": 3}]},
            "empty": {"title": "Empty", "source": "T:L4", "rows": []},
            "wrong": {"title": "Wrong", "source": "T:L5", "rows": [{"key": "d", "value": "4"}]},
        }
    ),
    # Modules named against the file's order: the file's order wins.
    "a.py": (
        "from tests.test_tables import Row\nfrom service.rules.tables import table\n"
        "SECOND = table(__name__, 'second', Row)\n"
    ),
    "b.py": (
        "from tests.test_tables import Row\nfrom service.rules.tables import table\n"
        "FIRST = table(__name__, 'first', Row, covers=('throwaway.first',))\n"
        "# Tables inside a tuple are not constants: they are not served.\n"
        "GROUPED = (table(__name__, 'grouped', Row),)\n"
    ),
}


@pytest.fixture(params=["directory", "zip"])
def rules_root(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A root package holding the throw-away system, as files or inside a zip archive (which
    only `importlib.resources` reads, not a path beside `__file__`)."""
    root = f"throwaway_rules_{request.param}"
    files = {
        f"{root}/__init__.py": "",
        **{f"{root}/throwaway/{k}": v for k, v in THROWAWAY.items()},
    }
    if request.param == "zip":
        archive = tmp_path / "rules.zip"
        with zipfile.ZipFile(archive, "w") as written:
            for name, text in files.items():
                written.writestr(name, text)
        sys.path.insert(0, str(archive))
    else:
        for name, text in files.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(text, encoding="utf-8")
        sys.path.insert(0, str(tmp_path))
    importlib.invalidate_caches()
    try:
        yield root
    finally:
        sys.path.pop(0)
        for name in [m for m in sys.modules if m.startswith(root)]:
            del sys.modules[name]


def throwaway(root: str) -> System:
    (system,) = load(root).systems
    return system


def test_the_helper_reads_title_seed_lines_and_typed_rows(rules_root: str) -> None:
    module = importlib.import_module(f"{rules_root}.throwaway.b")
    first = module.FIRST
    assert (first.name, first.title, first.source, first.covers) == (
        "first", "First", "T:L1", ("throwaway.first",),
    )  # fmt: skip
    assert first.rows == (Row(key="a", value=1),)


def test_a_system_serves_its_module_level_tables_in_data_file_order(rules_root: str) -> None:
    system = throwaway(rules_root)
    assert [(t.name, t.system) for t in system.tables] == [
        ("first", "throwaway"),
        ("second", "throwaway"),
    ]
    assert list(system.covered) == ["throwaway.first"]


def test_an_unknown_table_names_the_data_file(rules_root: str) -> None:
    with pytest.raises(LookupError, match=rf"{rules_root}\.throwaway/tables\.json.*'third'"):
        table(f"{rules_root}.throwaway.a", "third", Row)


def test_a_row_that_does_not_fit_its_model_is_refused(rules_root: str) -> None:
    """Validated as JSON is: the string "4" is not the number 4."""
    with pytest.raises(ValueError, match="a row of 'wrong' is not a Row"):
        table(f"{rules_root}.throwaway.a", "wrong", Row)


def test_a_table_without_rows_is_refused(rules_root: str) -> None:
    with pytest.raises(ValueError, match="'empty' has no rows"):
        table(f"{rules_root}.throwaway.a", "empty", Row)


# Columns a data file states beside the figure they follow from are checked against it


def test_an_ease_factor_must_agree_with_its_exact_value() -> None:
    EaseFactorRow(index=1, value=0.25, exact="1/4")
    with pytest.raises(ValueError, match=r"ease factor 1/4 is not 0\.3"):
        EaseFactorRow(index=1, value=0.3, exact="1/4")


def test_a_target_number_succeeds_on_seven_minus_tn_in_six() -> None:
    """S:L119-130: TN 2 succeeds on 5 in 6, whatever the printed 84%."""
    row = {"target_number": 2, "printed_chance_pct": 84, "example": "Climbing a rope ladder"}
    TargetNumber(**row, exact_chance=exact(Fraction(5, 6)))
    with pytest.raises(ValueError, match="TN 2 does not succeed"):
        TargetNumber(**row, exact_chance=exact(Fraction(84, 100)))
