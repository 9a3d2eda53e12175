"""`make deploy-check`, second half: validate deploy/kubernetes offline.

Every kustomization's entries (resources, components, patch files) must exist; every other YAML
file must be listed by one (nothing lies there unvalidated or unused); and every object in those
files is validated strictly (unknown fields rejected) by kubernetes-validate against the schemas
of one Kubernetes version, which it bundles. Kustomization files are not Kubernetes objects and
are not validated as such. Where `kubectl` is installed, each overlay is also rendered with
`kubectl kustomize` and the result validated, which covers the overlays' patches; the output
says whether that happened.
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

ROOT = Path("deploy/kubernetes")
VALIDATE = Path(sys.executable).parent / "kubernetes-validate"


def kustomizations(root: Path) -> list[Path]:
    return sorted(root.rglob("kustomization.yaml"))


def listed(kustomization: Path) -> list[Path]:
    """The paths a kustomization names: resources, components and patch files."""
    spec: dict[str, Any] = yaml.safe_load(kustomization.read_text(encoding="utf-8"))
    names = [*spec.get("resources", []), *spec.get("components", [])]
    names += [p["path"] for p in spec.get("patches", []) if "path" in p]
    return [(kustomization.parent / name).resolve() for name in names]


def validate(files: list[Path], version: str) -> bool:
    command = [str(VALIDATE), "--strict", "--quiet", "-k", version, *map(str, files)]
    return subprocess.run(command, check=False).returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kubernetes-version", required=True)
    args = parser.parse_args(argv)
    problems: list[str] = []

    used: set[Path] = set()
    for k in kustomizations(ROOT):
        for path in listed(k):
            if path.is_dir() and not (path / "kustomization.yaml").is_file():
                problems.append(f"{k}: {path} is a directory without a kustomization.yaml")
            elif not path.exists():
                problems.append(f"{k}: lists {path}, which does not exist")
            used.add(path)

    manifests = sorted(p for p in ROOT.rglob("*.yaml") if p.name != "kustomization.yaml")
    problems += [f"{p}: listed by no kustomization" for p in manifests if p.resolve() not in used]
    for problem in problems:
        print(problem, file=sys.stderr)

    print(f"kubernetes-validate --strict, Kubernetes {args.kubernetes_version}: "
          f"{len(manifests)} manifests")  # fmt: skip
    ok = validate(manifests, args.kubernetes_version) and not problems

    kubectl = shutil.which("kubectl") or ""
    overlays = [k.parent for k in kustomizations(ROOT / "overlays")] if kubectl else []
    if not kubectl:
        print("kubectl not installed: the overlays' rendered output (their patches) not validated")
    for overlay in overlays:
        rendered = subprocess.run(
            [kubectl, "kustomize", str(overlay)], capture_output=True, text=True, check=False
        )
        if rendered.returncode != 0:
            print(f"{overlay}: kubectl kustomize failed\n{rendered.stderr}", file=sys.stderr)
            ok = False
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".yaml") as out:
            out.write(rendered.stdout)
            out.flush()
            print(f"kubectl kustomize {overlay}: validating what it renders")
            ok = validate([Path(out.name)], args.kubernetes_version) and ok
    print("deploy/kubernetes is valid" if ok else "deploy/kubernetes has problems")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
