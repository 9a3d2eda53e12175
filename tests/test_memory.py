"""The in-process caches count at least the memory they hold: what each counts against its
byte budget is compared with what tracemalloc sees them allocate.

Registry-driven: every operation that remembers its outcomes (`operation(memo=True)`) is
filled with requests drawn at its schema's bounds (tests/contract/bounds.py) and fresh dice,
through `runtime.Results` as the REST layer serves them.
"""

import gc
import json
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from service.cache import MemoryCache
from service.graphql import DOCUMENT_BYTES_PER_CHARACTER, GraphQLApp, Limits, served_schema
from service.graphql_internals import core_schema, detach
from service.graphql_schema import build_schema
from service.rules.cost import BUDGET
from service.rules.memo import Memo
from service.rules.model import InputError
from service.rules.registry import Operation, load
from service.runtime import Odds, Results
from tests.contract.bounds import draw
from tests.definitions import strawberry_definitions

REGISTRY = load()
REMEMBERING = [op for s in REGISTRY.systems for op in s.operations if op.memo is not None]


@contextmanager
def allocated() -> Iterator[Callable[[], int]]:
    """The bytes allocated and still held since entering, read after the block."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    held: list[int] = []
    try:
        yield lambda: held[0]
    finally:
        gc.collect()
        held.append(tracemalloc.get_traced_memory()[0] - before)
        tracemalloc.stop()


def test_some_operation_remembers():
    assert REMEMBERING  # else the test below checks nothing


@pytest.mark.parametrize("op", REMEMBERING, ids=lambda op: f"{op.system}/{op.name}")
def test_a_memo_counts_at_least_what_it_holds(op: Operation):
    assert op.memo is not None
    saved = op.memo
    schema = op.request_model.model_json_schema()
    requests = []
    for seed in range(120):
        data = draw(schema, seed)
        data.pop("dice", None)
        try:
            requests.append(op.request_model.model_validate_json(json.dumps(data)))
        except ValueError:  # drawn outside a cross-field rule
            continue

    def fill(memo: Memo[object]) -> None:
        object.__setattr__(op, "memo", memo)
        results = Results()
        for request in requests:
            try:
                for _ in range(80):
                    results.json(op, request)
            except InputError:  # drawn outside a cross-field rule
                continue

    try:
        # Once first, so that what the process shares among all requests (the logged dice,
        # one object each) is made before the count; then a fresh memo, whose growth counts.
        fill(Memo(capacity=1 << 40))
        counts = []
        # tracemalloc counts the whole process: a thread an earlier test left running may
        # allocate during one count (0.3% over, once in CI), so the better of two is taken.
        for _ in range(2):
            memo: Memo[object] = Memo(capacity=1 << 40)
            object.__setattr__(op, "memo", memo)  # the one before let go before the count
            with allocated() as held:
                fill(memo)
            counts.append((held() - memo.size, held(), memo.size))
        _, bytes_held, size = min(counts)
        assert size > 1_000_000  # enough outcomes to measure
        assert bytes_held <= size
        assert size <= 2 * bytes_held  # and not so far over that the budget means nothing
    finally:
        object.__setattr__(op, "memo", saved)


def test_the_document_cache_counts_at_least_what_it_holds():
    limits = Limits(max_depth=12, max_aliases=16, max_tokens=2000, document_cache_bytes=1 << 30)
    odds = Odds(MemoryCache(), budget=BUDGET, deadline=5)
    app = GraphQLApp(served_schema(REGISTRY, odds, apart=False), limits, odds)
    warm = "{ fourD8 { check(input: {ease: 1}) { success } } }"
    app._prepared(warm)  # the validators' own first allocations are not the cache's
    with allocated() as held:
        for i in range(60):
            fields = " ".join(
                f"a{j}: check(input: {{ease: {j + 1}}}) {{ success chance }}" for j in range(16)
            )
            app._prepared(f"{{ fourD8 {{ {fields} }} }} # {i}")
    counted = app._prepared.kept.size - len(warm) * DOCUMENT_BYTES_PER_CHARACTER
    assert held() <= counted <= 2 * held()


def test_the_graphql_app_lets_strawberrys_types_go():
    """Answering keeps graphql-core's schema only: Strawberry's definitions of the object
    and input types (with their dataclasses, two thirds of the schema's memory) are
    collected. A few live on in the `typing` module's cache of the unions they were named
    in; the enums' stay, small, for graphql-core to read their values by."""
    odds = Odds(MemoryCache(), budget=BUDGET, deadline=5)
    schema = build_schema(REGISTRY, odds)
    definitions = strawberry_definitions(schema)
    assert len(definitions) > 2000
    limits = Limits(max_depth=12, max_aliases=16, max_tokens=2000)
    app = GraphQLApp(detach(core_schema(schema)), limits, odds)
    del schema
    gc.collect()
    alive = [d() for d in definitions if d() is not None]
    assert len(alive) < len(definitions) / 20, [getattr(a, "name", a) for a in alive[:20]]
    assert "FourD8Query" in app.schema.type_map  # answering: tests/test_graphql.py
