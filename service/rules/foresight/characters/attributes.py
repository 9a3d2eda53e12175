"""Attributes (catalogue 3.C.2-3.C.3, F:L450-483, F:L726-738): the nine inherent scores a
player distributes, 36 points over a start of 5 each, none over 12 for a human; and training
them up to four over inherent. The book gives no random method (catalogue 5.5), so the space
of valid distributions is reported instead: how many there are and how often each value
appears in one attribute."""

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["POINTS", "Allocation", "Range", "generate", "train", "training_steps"]

#: Points to distribute over the species minima (F:L473-477, F:L1137).
POINTS = 36
Score = Annotated[int, Field(ge=1, le=40)]


class Allocation(Model):
    """The nine inherent attributes (F:L454-464)."""

    ST: Score
    EN: Score
    DX: Score
    AG: Score
    IN: Score
    PC: Score
    EM: Score
    WP: Score
    AP: Score


class Range(Model):
    """An attribute's least and most inherent value: a species' (F:L1137), shifted by any
    character modifiers (F:L1113)."""

    attribute: Attribute
    low: Score
    high: Score


class GenerateInput(Model):
    inherent: Allocation
    ranges: tuple[Range, ...] | None = Field(
        default=None,
        min_length=len(Attribute),
        max_length=len(Attribute),
        description="Each of the nine attributes' range: a non-human's are its species' (the "
        "species operation's), whose minima it starts at (F:L1137); unset: minimum-maximum.",
        json_schema_extra={"x-unique-by": "attribute"},
    )
    minimum: Annotated[int, Field(ge=1, le=20)] = Field(
        default=5, description="Each attribute's least: 5 for a human (F:L473)."
    )
    maximum: Annotated[int, Field(ge=1, le=30)] = Field(
        default=12, description="Each attribute's most: 12 for a human (F:L467)."
    )
    bonus_points: Annotated[int, Field(ge=0, le=20)] = Field(
        default=0, description="Inherent points from background factors, within the range "
        "too (F:L603).",
    )  # fmt: skip


class Space(Model):
    arrays: int = Field(description="Valid distributions, attribute by attribute.")
    marginal: list[OutcomeProbability] = Field(
        description="How often each value is one attribute's, over them all (catalogue 5.5)."
    )


class Generated(Model):
    total: int
    space: Space


def space(total: int, bounds: Sequence[tuple[int, int]]) -> Space:
    """The arrays of scores, each within its (low, high), summing to `total`, and how often
    a value is an attribute's, over the nine attributes and the arrays."""
    ranges = [Distribution({v: 1 for v in range(low, high + 1)}) for low, high in bounds]
    arrays = _sum(ranges).weight(total)
    weights: dict[int, int] = {}
    for index, (low, high) in enumerate(bounds):
        others = _sum(ranges[:index] + ranges[index + 1 :])
        for v in range(low, high + 1):
            weights[v] = weights.get(v, 0) + others.weight(total - v)
    found = {v: w for v, w in weights.items() if w}
    marginal = Distribution(found, total=len(bounds) * arrays) if arrays else Distribution({}, 1)
    return Space(arrays=arrays, marginal=outcome_table(marginal))


def _sum(ranges: Sequence[Distribution[int]]) -> Distribution[int]:
    total = Distribution({0: 1})
    for one in ranges:
        total = total + one
    return total


def _bounds(request: GenerateInput) -> dict[Attribute, tuple[int, int]]:
    if request.ranges is None:
        if request.minimum > request.maximum:
            raise InputError(("minimum",), "the least is over the most")
        return {a: (request.minimum, request.maximum) for a in Attribute}
    found = {r.attribute: (r.low, r.high) for r in request.ranges}
    if len(found) != len(Attribute):
        raise InputError(("ranges",), "each of the nine attributes once")
    for index, r in enumerate(request.ranges):
        if r.low > r.high:
            raise InputError(("ranges", index, "low"), "the least is over the most")
    return found


@operation(
    name="attributes/generate",
    kind=Kind.VALIDATION,
    covers=("foresight.attributes.generate",),
    example={"inherent": {"ST": 7, "EN": 7, "DX": 8, "AG": 8, "IN": 11, "PC": 11, "EM": 10,
                          "WP": 9, "AP": 10}},
)  # fmt: skip
def generate(request: GenerateInput) -> Generated:
    """Every attribute starts at 5 and 36 points are distributed, none over 12 for a human
    (F:L473-477); a non-human starts at its species' minima, each attribute within its range
    (F:L1137); bonus points from background factors stay within the range (F:L603). Amy
    moves from nine 9s to ST 7, EN 7, DX 8, AG 8, IN 11, PC 11, EM 10, WP 9 and AP 10, 81 in
    all (F:L536-553)."""
    bounds = _bounds(request)
    values = request.inherent
    errors = [InputError(("inherent", a.value), f"{getattr(values, a.value)} is outside "
                         f"{low}-{high} (F:L467, F:L1137)")
              for a, (low, high) in bounds.items()
              if not low <= getattr(values, a.value) <= high]  # fmt: skip
    total = sum(getattr(values, a.value) for a in Attribute)
    least = sum(low for low, _ in bounds.values())
    wanted = least + POINTS + request.bonus_points
    if total != wanted:
        message = (f"the nine sum to {total}, not {wanted}: the minima ({least}) + 36 + bonus "
                   "(F:L473-477, F:L1137)")  # fmt: skip
        errors.append(InputError(("inherent",), message))
    if errors:
        raise Violations(errors)
    return Generated(total=total, space=space(wanted, list(bounds.values())))


class TrainingRow(Model):
    step: str
    cost: int


TRAINING = table(__name__, "training", TrainingRow)


class TrainInput(Model):
    inherent: Annotated[int, Field(ge=1, le=40)]
    trained: Annotated[int, Field(ge=0, le=44)] = Field(description="The trained value now.")
    to: Annotated[int, Field(ge=0, le=44)] = Field(description="The trained value wanted.")


class Training(Model):
    cost: int
    steps: list[int] = Field(description="What each step up costs.")


@operation(
    name="attributes/train",
    kind=Kind.CALCULATION,
    covers=("foresight.attributes.train",),
    example={"inherent": 10, "trained": 10, "to": 12},
)
def train(request: TrainInput) -> Training:
    """Training raises a trained attribute: 5 a point back up to the inherent value, then 5,
    5, 10 and 20 for inherent +1 to +4, which it may never exceed (F:L728-738): Amy pays 10
    each for DX, WP, AP and EM +2 and 5 each for IN and PC +1 (F:L873-877)."""
    if request.to < request.trained:
        raise InputError(("to",), "training raises; an attribute falls only by injury")
    steps = training_steps(request.inherent, request.trained, request.to)
    return Training(cost=sum(steps), steps=steps)


def training_steps(inherent: int, trained: int, to: int) -> list[int]:
    """What each point from `trained` up to `to` costs (F:L728-738)."""
    if to > inherent + 4:
        raise InputError(("to",), f"at most inherent + 4 = {inherent + 4} (F:L738)")
    above = [row.cost for row in TRAINING][1:]
    return [5 if v < inherent else above[v - inherent] for v in range(trained, to)]
