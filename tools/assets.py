"""Vendor the API explorers' third-party assets (`make assets`): Swagger UI for /docs and
GraphiQL with React for /graphiql, into service/static/vendor/<package>/.

Each package is fetched by `npm pack` at a pinned version and its tarball checked against
the pinned SHA-512 (the registry's `dist.integrity`), so a re-run writes the same bytes;
only the minified files the pages load are kept, with the package's licence files. The
result is committed: the service serves it with no network and `make run` needs no npm.

Usage: python tools/assets.py [--check]. `--check` writes nothing and fails when the
committed files differ from what the pinned tarballs give.
"""

import argparse
import base64
import hashlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "service" / "static" / "vendor"

#: A source map comment: the maps are not vendored, so a browser's devtools would ask for
#: files that are not there.
SOURCE_MAP = re.compile(rb"\n?(//# sourceMappingURL=\S+|/\*# sourceMappingURL=[^*]+\*/)\s*$")


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    integrity: str
    files: tuple[str, ...]
    licences: tuple[str, ...] = ("LICENSE",)


PACKAGES = (
    Package(
        "swagger-ui-dist",
        "5.35.0",
        "sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4YmXkn/h0wCDNsXdGarTNNHC3sU8yVUQ==",
        ("swagger-ui-bundle.js", "swagger-ui.css"),
        ("LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"),
    ),
    # GraphiQL 3 is the last with a standalone (UMD) build over React 18; it bundles
    # CodeMirror and its fonts, so it loads nothing else.
    Package(
        "graphiql",
        "3.9.0",
        "sha512-rJYFlHdBbug9+YbFSwRVvgfPjCayC7wHecZkx/qB4XLuQPFQZw/yB9pmHFtOJV6RiNBBHro3u1GdocKa3YcGRA==",
        ("graphiql.min.js", "graphiql.min.css"),
    ),
    Package(
        "react",
        "18.3.1",
        "sha512-wS+hAgJShR0KhEvPJArfuPVN1+Hz1t0Y6n5jLrGQbkb4urgPE/0Rve+1kMB1v/oWgHgm4WIcV+i7F2pTVj+2iQ==",
        ("umd/react.production.min.js",),
    ),
    Package(
        "react-dom",
        "18.3.1",
        "sha512-5m4nQKp+rZRb09LNH59GM4BxTh9251/ylbKIbpe7TpGxfJ+9kv6BLkLBXIjjspbgbnIBNqlI23tRnTWT0snUIw==",
        ("umd/react-dom.production.min.js",),
    ),
)


def tarball(package: Package, directory: Path) -> bytes:
    """The package's tarball, by `npm pack`, once its SHA-512 is the pinned one."""
    subprocess.run(
        [
            "npm",
            "pack",
            "--loglevel=warn",
            f"{package.name}@{package.version}",
            "--pack-destination",
            str(directory),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    data = (directory / f"{package.name}-{package.version}.tgz").read_bytes()
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if integrity != package.integrity:
        raise SystemExit(
            f"{package.name}@{package.version}: integrity {integrity}, pinned {package.integrity}"
        )
    return data


def contents(package: Package, data: bytes) -> dict[str, bytes]:
    """Vendored file name -> bytes: the package's files, their source map comments cut, and
    its licences."""
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for path in (*package.files, *package.licences):
            member = archive.extractfile(f"package/{path}")
            if member is None:
                raise SystemExit(f"{package.name}@{package.version} has no {path}")
            body = member.read()
            if path in package.files:
                body = SOURCE_MAP.sub(b"\n", body)
            found[Path(path).name] = body
    return found


def differences(package: Package, files: dict[str, bytes]) -> list[str]:
    """The vendored files of `package` that are missing, changed or not its own."""
    folder = VENDOR / package.name
    present = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
    changed = [
        name
        for name, body in files.items()
        if name not in present or (folder / name).read_bytes() != body
    ]
    return [*changed, *sorted(present - set(files))]


def write(package: Package, files: dict[str, bytes]) -> None:
    folder = VENDOR / package.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, body in files.items():
        (folder / name).write_bytes(body)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    check = parser.parse_args(argv).check
    failed = False
    with tempfile.TemporaryDirectory() as directory:
        for package in PACKAGES:
            files = contents(package, tarball(package, Path(directory)))
            label = f"{package.name}@{package.version}"
            if check:
                stale = differences(package, files)
                failed |= bool(stale)
                print(f"{label}: {'differs: ' + ', '.join(stale) if stale else 'as pinned'}")
            else:
                write(package, files)
                size = sum(len(body) for body in files.values())
                print(f"{label}: {', '.join(files)} ({size:,} bytes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
