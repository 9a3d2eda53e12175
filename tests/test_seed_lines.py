"""Seed-line citations: line 47 of one seed is not line 47 of another, so each system cites its
seed's lines with a prefix of its own (`System.lines`: S 4SIGHT, D 4D8, F FORESIGHT, C the 4C
System, FI Future Imperfect), and its code and data use no other."""

import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import service.rules
from service.rules.registry import System, load

#: A seed-line citation, `D:L47` or `D:L47-49`: the prefix is group 1.
CITATION = re.compile(r"\b([A-Z]{1,3}):L\d+")

#: Prefixes kept for the systems still to come.
PLANNED: dict[str, str] = {}


def system_packages() -> Iterator[tuple[System, ModuleType]]:
    """Each system and the package that declares it."""
    for found in pkgutil.iter_modules(service.rules.__path__, "service.rules."):
        package = importlib.import_module(found.name)
        declared = getattr(package, "SYSTEM", None)
        if found.ispkg and isinstance(declared, System):
            yield declared, package


PACKAGES = [pytest.param(system, package, id=system.slug) for system, package in system_packages()]


def foreign_citations(root: Path, prefix: str) -> list[str]:
    """Every citation under `root` (code and data files) made with another prefix."""
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            for citation in CITATION.finditer(line):
                if citation.group(1) != prefix:
                    found.append(f"{path.relative_to(root)}:{number}: {citation.group(0)}")
    return found


def test_every_system_package_is_checked() -> None:
    assert [system.slug for system, _ in system_packages()] == [
        system.slug for system in load().systems
    ]


def test_prefixes_are_unique_across_systems_and_those_to_come() -> None:
    prefixes = [system.lines for system, _ in system_packages()] + list(PLANNED.values())
    assert len(set(prefixes)) == len(prefixes)
    assert all(re.fullmatch(r"[A-Z]{1,3}", prefix) for prefix in prefixes)


@pytest.mark.parametrize(("system", "package"), PACKAGES)
def test_a_system_states_its_prefix(system: System, package: ModuleType) -> None:
    """The package's docstring says how its seed lines are cited."""
    assert f"cited as {system.lines}:L<n>" in " ".join((package.__doc__ or "").split())


@pytest.mark.parametrize(("system", "package"), PACKAGES)
def test_a_system_cites_only_its_own_seed_lines(system: System, package: ModuleType) -> None:
    assert foreign_citations(Path(package.__path__[0]), system.lines) == []


@pytest.mark.parametrize(("system", "package"), PACKAGES)
def test_a_system_s_tests_cite_only_its_own_seed_lines(system: System, package: ModuleType) -> None:
    tests = Path(__file__).parent / "rules" / package.__name__.rsplit(".", 1)[-1]
    assert tests.is_dir()
    assert foreign_citations(tests, system.lines) == []


@pytest.mark.parametrize(("system", "package"), PACKAGES)
def test_every_table_names_its_seed_lines(system: System, package: ModuleType) -> None:
    loaded = load().system(system.slug)
    assert loaded is not None
    for table in loaded.tables:
        assert set(CITATION.findall(table.source)) == {system.lines}, table.name


def test_a_planted_citation_of_another_seed_is_found(tmp_path: Path) -> None:
    """The check reads code and data files, and tells F from FI."""
    (tmp_path / "rule.py").write_text('"""Roll under (D:L47-49), as in F:L251."""\n')
    (tmp_path / "concept").mkdir()
    (tmp_path / "concept" / "tables.json").write_text('{"t": {"source": "D:L2, FI:L3"}}\n')
    assert foreign_citations(tmp_path, "D") == [
        "concept/tables.json:1: FI:L3",
        "rule.py:1: F:L251",
    ]
    assert foreign_citations(tmp_path, "F") == [
        "concept/tables.json:1: D:L2",
        "concept/tables.json:1: FI:L3",
        "rule.py:1: D:L47",
    ]
