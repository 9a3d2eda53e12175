"""The in-process caches' shared pieces (`service.lru`)."""

import gc
import tracemalloc

import pydantic_core

from service.lru import PerObject
from service.rules.dice import Roll


def test_a_value_per_object_goes_with_its_object():
    """A value is kept only while its object lives: objects made afresh every time hold
    nothing, and a later object at the same address is not mistaken for the first."""
    made: list[Roll] = []
    rendered = PerObject(lambda roll: made.append(roll) or pydantic_core.to_json(roll))
    outcome = Roll(sides=8, value=3, purpose="physical")
    assert rendered(outcome) == rendered(outcome) == outcome.model_dump_json().encode()
    assert made == [outcome]
    assert len(rendered) == 1
    made.clear()
    del outcome
    gc.collect()
    assert len(rendered) == 0
    later = Roll(sides=6, value=2, purpose="physical")
    assert rendered(later) == later.model_dump_json().encode()


def test_equal_objects_each_derive_their_own():
    """Found by identity, not by value: an equal object is worked out again."""
    calls = []
    derived = PerObject(lambda roll: calls.append(roll) or roll.value)
    one, other = (Roll(sides=8, value=3, purpose="physical") for _ in range(2))
    assert one == other
    assert one is not other
    assert derived(one) == derived(other) == 3
    assert len(calls) == 2


def test_an_entry_costs_at_most_what_caches_charge_for_it():
    """`PerObject.ENTRY_BYTES` is what a cache charges for the entry its objects have."""
    objects = [Roll(sides=8, value=i % 8 + 1, purpose=f"p{i}") for i in range(5000)]
    keys = PerObject(lambda roll: "key")
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for roll in objects:
            keys(roll)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    added = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert 0 < added / len(objects) <= PerObject.ENTRY_BYTES
