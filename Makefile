# Adjudicator. `make run` serves on 127.0.0.1:8000; `make test` runs everything CI runs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test pytest lint typecheck schema schema-check fuzz fuzz-long precompute bench soak clean deploy-check image cluster screenshot clients clients-check assets

install: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m service serve --host 127.0.0.1 --port 8000

# pytest runs last so its summary is the closing line of the run.
test: lint deploy-check typecheck schema-check clients-check fuzz pytest

# Every core shares the suite, a file to a worker; the tests marked `alone` (timings, load,
# browsers, replicas) then run by themselves, so a busy neighbour cannot fail them.
pytest: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadfile -m "not alone"
	$(BIN)/python -m pytest -m alone

# The README's picture of the playground, taken by its browser test (Debian's chromium).
screenshot: $(STAMP)
	PLAYGROUND_SCREENSHOT=docs/playground.png $(BIN)/python -m pytest -q tests/test_playground.py

lint: $(STAMP)
	$(BIN)/ruff check service tests tools bench
	$(BIN)/ruff format --check service tests tools bench

# Offline: hadolint on the image definition; kubernetes-validate --strict on every manifest
# (the schemas of KUBE_VERSION are bundled) and the kustomizations' entries (tools/deploy_check.py).
KUBE_VERSION ?= 1.33
deploy-check: $(STAMP)
	$(BIN)/hadolint deploy/Dockerfile
	$(BIN)/python tools/deploy_check.py --kubernetes-version $(KUBE_VERSION)

# Build deploy/Dockerfile with podman and run the service from it (tools/image.sh says what it
# verified, and on which base: the pinned one, or a stand-in when no registry is reachable).
image:
	bash tools/image.sh

typecheck: $(STAMP)
	$(BIN)/mypy service bench
	$(BIN)/mypy tools

schema: $(STAMP)
	$(BIN)/python -m service export-schemas

schema-check: $(STAMP)
	$(BIN)/python -m service check-schemas

# The TypeScript and Python clients in clients/, generated from openapi/openapi.json (after
# `npm ci` in clients/typescript); clients-check regenerates them aside and fails on any drift.
clients: $(STAMP)
	$(BIN)/python tools/clients.py generate

clients-check: $(STAMP)
	$(BIN)/python tools/clients.py check

# The explorers' third-party files (Swagger UI, GraphiQL, React) into service/static/vendor/,
# by `npm pack` at pinned versions checked against their SHA-512 (tools/assets.py). They are
# committed: `make run` needs no npm. ASSETS_ARGS=--check compares instead of writing.
assets:
	$(PYTHON) tools/assets.py $(ASSETS_ARGS)

# At least 5,000 cases against each API; fuzz-long: 100,000 in all, then the cost suite.
fuzz: $(STAMP)
	$(BIN)/python tools/fuzz.py

fuzz-long: $(STAMP)
	$(BIN)/python tools/fuzz.py --long

precompute: $(STAMP)
	$(BIN)/python -m service precompute

# Ratios against bare Starlette and bare Strawberry measured in the same run (bench/run.py);
# BENCH_ARGS=--baselines-last measures the baselines after the service.
bench: $(STAMP)
	command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	command -v redis-server >/dev/null || (apt-get update -qq && apt-get install -y -qq redis-server)
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# Mixed load for SOAK_SECONDS (600) watching the server's memory (tools/soak.py); with its own
# redis-server when one is installed. SOAK_ARGS=--cache=memory soaks the in-memory cache.
soak: $(STAMP)
	$(BIN)/python -m tools.soak $(SOAK_ARGS)

# Three replicas sharing one redis-server behind HAProxy, all on loopback, and the checks that
# they answer as one service: identical seeded bodies, odds shared through Redis, a replica and
# then Redis restarted under load with no failed request (tools/cluster.py). It installs
# haproxy with apt-get when missing.
cluster: $(STAMP)
	$(BIN)/python -m tools.cluster

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
