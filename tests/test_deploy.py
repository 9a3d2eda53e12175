"""What an operator relies on in deploy/, held against the code: the probes hit routes the app
serves, the ports agree, the ConfigMap names real settings, the security context is what the
README promises, and the policies, autoscaler and budget select the pods they mean.
(`make deploy-check` validates the same files against the Kubernetes schemas.)"""

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.testclient import TestClient

from service.settings import Settings

KUBE = Path("deploy/kubernetes")
BASE = KUBE / "base"
SELF_CONTAINED = KUBE / "overlays" / "self-contained"


def load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return document


def objects() -> list[dict[str, Any]]:
    return [
        doc
        for p in sorted(KUBE.rglob("*.yaml"))
        if p.name != "kustomization.yaml"
        for doc in yaml.safe_load_all(p.read_text(encoding="utf-8"))
    ]


def the(kind: str, component: str = "api") -> dict[str, Any]:
    found = [
        o
        for o in objects()
        if o["kind"] == kind and o["metadata"]["labels"]["app.kubernetes.io/component"] == component
    ]
    assert len(found) == 1, f"one {kind} of the {component}, found {len(found)}"
    return found[0]


def pod_spec(kind: str, component: str = "api") -> dict[str, Any]:
    spec: dict[str, Any] = the(kind, component)["spec"]["template"]["spec"]
    return spec


def container() -> dict[str, Any]:
    (only,) = pod_spec("Deployment")["containers"]
    c: dict[str, Any] = only
    return c


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


API_LABELS = {"app.kubernetes.io/name": "adjudicator", "app.kubernetes.io/component": "api"}


@pytest.mark.parametrize("probe", ["startupProbe", "livenessProbe", "readinessProbe"])
def test_probes_are_routes_the_app_serves(client: TestClient, probe: str) -> None:
    check = container()[probe]["httpGet"]
    assert check["port"] == "http"
    assert client.get(check["path"]).status_code == 200


def test_liveness_and_readiness_use_their_own_endpoints() -> None:
    assert container()["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container()["readinessProbe"]["httpGet"]["path"] == "/readyz"


def test_the_container_port_is_the_command_s_and_the_image_s() -> None:
    command = container()["command"]
    port = int(command[command.index("--port") + 1])
    assert container()["ports"] == [{"name": "http", "containerPort": port, "protocol": "TCP"}]
    dockerfile = Path("deploy/Dockerfile").read_text(encoding="utf-8")
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    assert cmd is not None
    assert yaml.safe_load(cmd.group(1)) == command
    assert f"EXPOSE {port}\n" in dockerfile
    assert f"127.0.0.1:{port}/healthz" in dockerfile  # HEALTHCHECK


def test_the_configmap_names_real_settings() -> None:
    fields = {name.upper() for name in Settings.model_fields}
    data = the("ConfigMap")["data"]
    assert set(data) <= fields, set(data) - fields
    assert "REDIS_URL" not in data  # it comes from the Secret
    Settings(**{k.lower(): v for k, v in data.items()})  # and every value is a valid one


def test_the_deployment_reads_the_configmap_and_redis_url_from_the_secret() -> None:
    c = container()
    assert c["envFrom"] == [{"configMapRef": {"name": the("ConfigMap")["metadata"]["name"]}}]
    env = {e["name"]: e for e in c["env"]}
    ref = env["REDIS_URL"]["valueFrom"]["secretKeyRef"]
    assert ref["key"] == "REDIS_URL"
    secret = the("Secret", "redis")
    assert secret["metadata"]["name"] == ref["name"]
    assert set(secret["stringData"]) == {"REDIS_URL"}
    # The bundled Redis's address, through its Service.
    service = the("Service", "redis")
    assert secret["stringData"]["REDIS_URL"].startswith(
        f"redis://{service['metadata']['name']}:{service['spec']['ports'][0]['port']}/"
    )
    # The worker count the CLI reads (service/__main__.py), not a Settings field.
    assert int(env["WEB_CONCURRENCY"]["value"]) >= 1


@pytest.mark.parametrize(("kind", "component"), [("Deployment", "api"), ("StatefulSet", "redis")])
def test_security_context(kind: str, component: str) -> None:
    pod = pod_spec(kind, component)
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert pod["automountServiceAccountToken"] is False
    for c in pod["containers"]:
        context = c["securityContext"]
        assert context["runAsNonRoot"] is True
        assert context["allowPrivilegeEscalation"] is False
        assert context["readOnlyRootFilesystem"] is True
        assert context["capabilities"]["drop"] == ["ALL"]
        assert c["resources"]["requests"]
        assert c["resources"]["limits"]


def test_the_pod_runs_as_the_image_s_user() -> None:
    dockerfile = Path("deploy/Dockerfile").read_text(encoding="utf-8")
    user = pod_spec("Deployment")["securityContext"]["runAsUser"]
    assert f"USER {user}:" in dockerfile


def test_shutdown_fits_the_grace_period() -> None:
    """SIGTERM starts the service's own drain (service/drain.py), no preStop hook: it serves
    while the endpoint removal spreads, then finishes what is in flight, all before SIGKILL."""
    assert "lifecycle" not in container()
    data = the("ConfigMap")["data"]
    settings = Settings(**{k.lower(): v for k, v in data.items()})
    grace = pod_spec("Deployment")["terminationGracePeriodSeconds"]
    assert settings.shutdown_drain_seconds >= 5  # kube-proxy and ingress-nginx take seconds
    # The requests in flight include odds, which give up at their deadline.
    assert settings.odds_deadline_seconds < settings.shutdown_timeout_seconds
    # Room to spare for the lifespan's shutdown and the process's exit.
    assert settings.shutdown_drain_seconds + settings.shutdown_timeout_seconds + 5 <= grace


def test_the_service_selects_the_pods_and_targets_the_named_port() -> None:
    service = the("Service")
    labels = the("Deployment")["spec"]["template"]["metadata"]["labels"]
    assert selects(service["spec"]["selector"], labels)
    assert service["spec"]["ports"][0]["targetPort"] == "http"


def test_the_deployment_selector_matches_its_pods() -> None:
    deployment = the("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert labels == API_LABELS
    assert selects(deployment["spec"]["selector"]["matchLabels"], labels)
    assert "replicas" not in deployment["spec"]  # the autoscaler owns it


def test_the_autoscaler_targets_the_deployment() -> None:
    hpa = the("HorizontalPodAutoscaler")
    deployment = the("Deployment")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": deployment["apiVersion"],
        "kind": "Deployment",
        "name": deployment["metadata"]["name"],
    }
    assert 2 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    assert "cpu" in container()["resources"]["requests"]  # utilization is relative to it


def test_the_disruption_budget_selects_the_same_pods() -> None:
    pdb = the("PodDisruptionBudget")
    assert (
        pdb["spec"]["selector"]["matchLabels"]
        == the("Deployment")["spec"]["selector"]["matchLabels"]
    )
    assert pdb["spec"]["maxUnavailable"] < the("HorizontalPodAutoscaler")["spec"]["minReplicas"]


def test_only_the_service_reaches_redis() -> None:
    policy = the("NetworkPolicy", "redis")
    redis_labels = pod_spec_labels("StatefulSet", "redis")
    assert selects(policy["spec"]["podSelector"]["matchLabels"], redis_labels)
    assert policy["spec"]["policyTypes"] == ["Ingress"]
    (rule,) = policy["spec"]["ingress"]
    (peer,) = rule["from"]
    assert set(peer) == {"podSelector"}  # no namespaceSelector, no ipBlock
    admitted = peer["podSelector"]["matchLabels"]
    assert selects(admitted, API_LABELS)
    assert not selects(admitted, redis_labels)
    assert rule["ports"] == [{"protocol": "TCP", "port": 6379}]
    assert the("Service", "redis")["spec"]["ports"][0]["port"] == 6379


def pod_spec_labels(kind: str, component: str) -> dict[str, str]:
    labels: dict[str, str] = the(kind, component)["spec"]["template"]["metadata"]["labels"]
    return labels


def test_the_ingress_is_tls_rate_limited_and_public_api_only(client: TestClient) -> None:
    ingress = the("Ingress")
    annotations = ingress["metadata"]["annotations"]
    for key in ("limit-rps", "limit-burst-multiplier", "limit-connections"):
        assert int(annotations[f"nginx.ingress.kubernetes.io/{key}"]) > 0
    hosts = {rule["host"] for rule in ingress["spec"]["rules"]}
    assert hosts <= {h for tls in ingress["spec"]["tls"] for h in tls["hosts"]}
    paths = {p["path"] for rule in ingress["spec"]["rules"] for p in rule["http"]["paths"]}
    assert paths == {"/v1", "/graphql"}
    assert client.get("/v1/systems").status_code == 200
    for p in ingress["spec"]["rules"][0]["http"]["paths"]:
        assert p["backend"]["service"] == {"name": the("Service")["metadata"]["name"],
                                           "port": {"name": "http"}}  # fmt: skip


def test_the_controller_answers_429_with_retry_after() -> None:
    config = load(Path("deploy/ingress-nginx/values.yaml"))["controller"]["config"]
    assert config["limit-req-status-code"] == config["limit-conn-status-code"] == "429"
    assert "more_set_headers -s 429" in config["location-snippet"]
    assert "Retry-After" in config["location-snippet"]


def test_every_kustomization_entry_exists_and_every_manifest_is_listed() -> None:
    used: set[Path] = set()
    for k in KUBE.rglob("kustomization.yaml"):
        for entry in load(k).get("resources", []):
            path = (k.parent / entry).resolve()
            assert path.is_file() or (path / "kustomization.yaml").is_file(), (k, entry)
            used.add(path)
    manifests = {p.resolve() for p in KUBE.rglob("*.yaml") if p.name != "kustomization.yaml"}
    assert manifests <= used
    assert BASE.resolve() in used
    assert {"namespace", "images"} <= set(load(SELF_CONTAINED / "kustomization.yaml"))


def test_the_dockerfile_runs_the_cli_with_its_worker_count_from_the_environment() -> None:
    dockerfile = Path("deploy/Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ARG PYTHON_IMAGE=\S+:\d+\.\d+\.\d+-slim-bookworm$", dockerfile, re.M)
    assert "WEB_CONCURRENCY=1" in dockerfile
    assert "--workers" not in shlex.split(dockerfile.split("CMD ", 1)[1].splitlines()[0])
