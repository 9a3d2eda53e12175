#!/usr/bin/env bash
# `make image`: build deploy/Dockerfile with podman (no daemon) and run the service from it the
# way the Kubernetes manifests do (read-only root, no capabilities, no privilege escalation, its
# own non-root user), then check it answers: /healthz, /readyz, a REST rule, a GraphQL query, the
# image's HEALTHCHECK, WEB_CONCURRENCY worker processes, and a clean stop on SIGTERM.
#
# The pinned base (deploy/Dockerfile's PYTHON_IMAGE) comes from Docker Hub. When it cannot be
# pulled (a machine that reaches package indexes but no container registry), the script says so
# and builds on a stand-in instead: Debian 12 with its python3 (3.11) made by debootstrap from
# deb.debian.org. Then what is verified is the Dockerfile's steps and the running image, not the
# pinned base itself. IMAGE_STANDIN=0 fails instead; PYTHON_IMAGE=... builds on another base.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-localhost/adjudicator:dev}
PORT=${IMAGE_PORT:-18080}
PINNED=$(sed -n 's/^ARG PYTHON_IMAGE=//p' deploy/Dockerfile)
STANDIN=localhost/adjudicator-standin-python:3.11-bookworm
NAME=adjudicator-image-check

say() { printf '\n== %s\n' "$*"; }

install() {  # Debian packages, only when their command is missing
  local missing=()
  for pair in "$@"; do command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}"); done
  if ((${#missing[@]})); then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

install podman:podman
# On a host with cgroups v1 or hybrid (some CI sandboxes) crun refuses to start containers;
# runc with the cgroupfs manager does.
RUNTIME=()
if [[ $(podman info --format '{{.Host.CgroupsVersion}}') != v2 ]]; then
  install runc:runc
  RUNTIME=(--runtime runc --cgroup-manager cgroupfs)
fi

BASE=${PYTHON_IMAGE:-}
if [[ -z $BASE ]]; then
  say "pulling the pinned base $PINNED"
  if podman pull -q "$PINNED" >/dev/null; then
    BASE=$PINNED
  elif [[ ${IMAGE_STANDIN:-1} == 0 ]]; then
    echo "cannot pull $PINNED: no container registry reachable" >&2
    exit 1
  else
    say "CANNOT PULL $PINNED (no container registry reachable): building on a stand-in base," \
        "Debian 12's python3 made by debootstrap; the pinned base itself is NOT verified"
    if ! podman image exists "$STANDIN"; then
      install debootstrap:debootstrap
      root=$(mktemp -d)
      debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
        bookworm "$root" http://deb.debian.org/debian >/dev/null
      rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
      tar -C "$root" -c . | podman import -q - "$STANDIN" >/dev/null
      rm -rf "$root"
    fi
    BASE=$STANDIN
  fi
fi

# Where this host's pip trusts an extra certificate authority (PIP_CERT, a TLS-intercepting
# proxy), the build's pip is given the same bundle; nothing of it enters the image.
BUILD_EXTRA=()
if [[ -n ${PIP_CERT:-} && -f $PIP_CERT ]]; then
  conf=$(mktemp)
  printf '[global]\ncert = /run/host-ca.crt\n' >"$conf"
  BUILD_EXTRA=(--volume "$PIP_CERT:/run/host-ca.crt:ro" --volume "$conf:/etc/pip.conf:ro")
fi

say "building $IMAGE on $BASE"
# --format docker keeps HEALTHCHECK (the OCI format has none); chroot isolation runs the RUN
# steps without an OCI runtime.
podman build -q --format docker --isolation chroot --network host "${BUILD_EXTRA[@]}" \
  --build-arg "PYTHON_IMAGE=$BASE" -f deploy/Dockerfile -t "$IMAGE" . >/dev/null
podman image inspect "$IMAGE" \
  --format 'user {{.Config.User}}, command {{.Config.Cmd}}, size {{.Size}} bytes'

say "running it: read-only root, capabilities dropped, WEB_CONCURRENCY=2"
podman rm -f "$NAME" >/dev/null 2>&1 || true
trap 'podman rm -f "$NAME" >/dev/null 2>&1 || true' EXIT
# Modest explicit limits: podman otherwise raises them, which an unprivileged sandbox refuses.
podman "${RUNTIME[@]}" run -d --name "$NAME" --read-only --cap-drop ALL \
  --security-opt no-new-privileges --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 \
  -e WEB_CONCURRENCY=2 -p "127.0.0.1:$PORT:8000" "$IMAGE" >/dev/null
url=http://127.0.0.1:$PORT
for _ in $(seq 60); do curl -fs "$url/healthz" >/dev/null && break || sleep 0.5; done

check() {  # name, expected substring, curl arguments...
  local name=$1 want=$2 got
  shift 2
  got=$(curl -fsS "$@")
  if [[ $got != *"$want"* ]]; then
    echo "FAILED $name: $got" >&2
    podman logs "$NAME" >&2
    exit 1
  fi
  echo "ok  $name"
}
check /healthz '"status":"ok"' "$url/healthz"
check /readyz '"status":"ready"' "$url/readyz"
check 'REST 4D8 check' '"degree":13' "$url/v1/four-d8/check" -H 'content-type: application/json' \
  -d '{"ease": 20, "dice": {"values": [5, 5, 5, 3]}}'
check 'GraphQL 4D8 check' '"degree":13' "$url/graphql" -H 'content-type: application/json' \
  -d '{"query": "{ fourD8 { check(input: {ease: 20, dice: {values: [5, 5, 5, 3]}}) { degree } } }"}'
check /metrics 'adjudicator_requests_total' "$url/metrics"
fail() { echo "FAILED $*" >&2; podman logs "$NAME" >&2; exit 1; }
podman "${RUNTIME[@]}" healthcheck run "$NAME" >/dev/null || fail "HEALTHCHECK"
echo "ok  HEALTHCHECK"
uid=$(podman "${RUNTIME[@]}" exec "$NAME" python -c 'import os; print(os.getuid())')
[[ $uid == 10001 ]] || fail "runs as uid $uid, not 10001"
echo "ok  runs as uid $uid"
workers=$(podman logs "$NAME" 2>&1 | grep -c 'Started server process' || true)
[[ $workers == 2 ]] || fail "$workers worker processes, not 2"
echo "ok  $workers worker processes"

start=$(date +%s%N)
podman "${RUNTIME[@]}" stop -t 30 "$NAME" >/dev/null
code=$(podman inspect "$NAME" --format '{{.State.ExitCode}}')
echo "ok  stopped by SIGTERM in $((($(date +%s%N) - start) / 1000000)) ms, exit code $code"

if [[ $BASE == "$STANDIN" ]]; then
  say "verified on the STAND-IN base $STANDIN, not on $PINNED"
else
  say "verified on $BASE"
fi
