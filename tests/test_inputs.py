"""Every registered input is immutable and hashable (issue 12, item 4).

The core remembers a request's cache key and a rule's outcomes by the request itself
(`Operation.cache_key`, `operation(memo=True)`), so a request must be a value: frozen, and
holding tuples where JSON has arrays. Driven by the registry, so a new operation is checked
by existing:

* the request model, the odds request model and every model reachable from them through
  their fields are frozen, no field's annotation holds a list, dict or set (or an abstract
  collection, which pydantic fills with a list), and every default hashes;
* the operation's example, validated, hashes and compares equal to an equal copy, and so do
  the same request with every default stated and the example cut to its required fields
  (every other field default-filled); its cache key is found.
"""

import collections.abc as abc
import json
import typing
from collections.abc import Iterator
from enum import Enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from service.rules.model import Model
from service.rules.registry import Kind, Operation, load

#: Containers that are mutable or, for the abstract ones, that pydantic validates into one.
MUTABLE = (list, dict, set, abc.MutableSequence, abc.MutableMapping, abc.MutableSet)
ABSTRACT = {abc.Sequence, abc.Mapping, abc.Set, abc.Collection, abc.Iterable}

OPERATIONS = [
    pytest.param(op, id=f"{system.slug}/{op.name}")
    for system in load().systems
    for op in system.operations
]


def request_models(op: Operation) -> Iterator[tuple[str, type[Model]]]:
    yield "request", op.request_model
    if op.odds_request_model is not None:
        yield "odds request", op.odds_request_model


def requests(op: Operation) -> Iterator[tuple[str, type[Model], dict[str, Any]]]:
    """Each request model with the example it accepts: the odds take no dice."""
    yield "request", op.request_model, dict(op.example)
    if op.odds_request_model is not None:
        odds = {key: value for key, value in op.example.items() if key != "dice"}
        yield "odds request", op.odds_request_model, odds


def reachable(model: type[BaseModel]) -> Iterator[type[BaseModel]]:
    """`model` and every model its fields' annotations name, each once."""
    seen: set[type[BaseModel]] = set()
    todo = [model]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        yield current
        for info in current.model_fields.values():
            todo.extend(t for t in _types(info.annotation) if issubclass(t, BaseModel))


def mutable_fields(model: type[BaseModel]) -> Iterator[str]:
    """'Model.field: annotation' for each field whose annotation holds a mutable container."""
    for name, info in model.model_fields.items():
        for found in _origins(info.annotation):
            if found in ABSTRACT or (isinstance(found, type) and issubclass(found, MUTABLE)):
                yield f"{model.__name__}.{name}: {info.annotation}"
                break


def _origins(annotation: Any) -> Iterator[Any]:
    """The annotation and every type argument in it, each as its origin (`list` for
    `list[int]`); `Annotated`'s metadata is not a type and is skipped."""
    if typing.get_origin(annotation) is typing.Annotated:
        yield from _origins(typing.get_args(annotation)[0])
        return
    yield typing.get_origin(annotation) or annotation
    for argument in typing.get_args(annotation):
        yield from _origins(argument)


def _types(annotation: Any) -> Iterator[type]:
    for found in _origins(annotation):
        if isinstance(found, type) and not issubclass(found, Enum):
            yield found


def unhashable_defaults(model: type[BaseModel]) -> Iterator[str]:
    """'Model.field' for each default that does not hash (a `default_factory=list`)."""
    for name, info in model.model_fields.items():
        if not info.is_required():
            try:
                hash(info.get_default(call_default_factory=True))
            except TypeError:
                yield f"{model.__name__}.{name}"


@pytest.mark.parametrize("op", OPERATIONS)
def test_every_input_model_is_frozen_and_holds_no_mutable_container(op):
    for role, root in request_models(op):
        for model in reachable(root):
            where = f"{op.name} {role}: {model.__name__}"
            assert model.model_config.get("frozen"), where
            assert list(mutable_fields(model)) == [], where
            assert list(unhashable_defaults(model)) == [], where


@pytest.mark.parametrize("op", OPERATIONS)
def test_the_example_is_a_value(op):
    """Validated twice, the example gives two equal requests with one hash; stating every
    default (arrays included) changes neither; its cache key is found. The example cut to its
    required fields, every other field taking its default, is a value too."""
    for role, model, example in requests(op):
        first = model.model_validate_json(json.dumps(example))
        again = model.model_validate_json(json.dumps(example))
        stated = model.model_validate_json(first.model_dump_json())
        assert first is not again, role
        assert first == again == stated, role
        assert hash(first) == hash(again) == hash(stated), role
        assert op.cache_key(first) == op.cache_key(stated), role
        required = {k: v for k, v in example.items() if model.model_fields[k].is_required()}
        defaults = model.model_validate_json(json.dumps(required))
        copy = model.model_validate_json(defaults.model_dump_json())
        assert defaults == copy, role
        assert hash(defaults) == hash(copy), role


def test_a_list_is_found_however_deep():
    """The checks above can fail: a list inside a tuple of an optional nested model is found,
    and so are an abstract sequence, a list default under a tuple annotation and an unfrozen
    model; tuples, enums and literals pass."""

    class Leaf(BaseModel):
        values: tuple[int, ...] | None = None
        deep: tuple[list[int], ...] = ()
        abstract: abc.Sequence[int] = ()

    class Root(Model):
        leaf: Annotated[Leaf | None, Field(description="nested")] = None
        fine: tuple[Literal["a", "b"], ...] = ()
        kind: Kind = Kind.CHECK
        factory: tuple[int, ...] = Field(default_factory=list)

    models = list(reachable(Root))
    assert models == [Root, Leaf]
    assert [m.__name__ for m in models if not m.model_config.get("frozen")] == ["Leaf"]
    assert list(mutable_fields(Root)) == []
    assert [found.split(":")[0] for found in mutable_fields(Leaf)] == ["Leaf.deep", "Leaf.abstract"]
    assert list(unhashable_defaults(Root)) == ["Root.factory"]
    with pytest.raises(TypeError):
        hash(Root())
