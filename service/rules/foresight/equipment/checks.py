"""Item failure (catalogue part 2, #99-#100; F:L3564-3589): does an item fail when used, and
how its failure range moves when its reliability is made better or worse.

The task's own D100 is the failure test (F:L3587): the caller passes the roll made at the
table, or the operation rolls it. A starred range's face fails only if a further D10 shows 10
(F:L3585). J, K, L and M are not ranges of faces: a one-shot item fails on use, K and L must be
repaired before each use (L rebuilt after it too), M is only good for parts (F:L3580-3583).
The GM may give each of several items its own roll (F:L3587): one request per item then.
"""

from typing import Annotated, Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.equipment.failure import (
    FAILURE_RANGES,
    FailureCode,
    FailureKind,
    FailureRange,
    NumericFailureShift,
    fails,
    failure_outcomes,
    failure_probability,
    needs_follow_up,
    parse_failure_range,
    shift,
)
from service.rules.model import Model, option
from service.rules.registry import Kind, operation

__all__ = ["ItemFailureShiftOptions", "failure_meaning", "shift_failure_range"]

#: The most steps a request shifts by: enough to walk any range from face 1 to none.
MAX_STEPS = 120


class ItemFailureShiftOptions(Model):
    """How a failure range written as faces shifts (AMB2-38)."""

    numeric_failure_shift: NumericFailureShift = option(
        NumericFailureShift.LOW_END,
        ambiguity="AMB2-38",
        description=(
            "A range of faces ('98-99', '99*') has no defined shift (F:L3589). 'low_end': one "
            "face a step at its low end, better narrowing ('98-99' -> '99' -> '99*' -> 'A'), "
            "worse widening ('99*' -> '99' -> '98-99'); 'refuse': only letters shift."
        ),
    )


# --- foresight.item.failure_check (#99) ------------------------------------------------------


class ItemFailureCheckInput(Model):
    failure_range: FailureCode = Field(description="The item's Fail (F:L3570-3585).")
    roll: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="The task's D100, rolled at the table (the same roll tests the item, "
        "F:L3587); null: roll it here. Not rolled for J, K, L and M.",
    )
    repaired: bool = Field(
        default=False,
        description="K and L: repaired before this use, so it works (F:L3581-3582).",
    )


class ItemFailureCheck(Model):
    failure_range: str
    name: str | None = Field(description="The letter's name: 'Reliable'; null for faces.")
    failure_rolls: str = Field(description="What fails, as the table prints it, or the faces.")
    roll: int | None = Field(description="The D100 tested; null when none is needed.")
    follow_up_d10: int | None = Field(description="A starred face's D10: fails on a 10.")
    failed: bool = Field(description="The item malfunctions or breaks down on this use.")
    rebuild_after_use: bool = Field(description="L: rebuilt after each use (F:L3582).")
    meaning: str


def failure_meaning(found: FailureRange, failed: bool) -> str:
    """What the outcome means for the item, in the table's words (F:L3570-3585)."""
    kind = found.kind
    if kind is FailureKind.FAILS_ON_USE:
        return "One shot: it fails on use (J)."
    if kind is FailureKind.PARTS_ONLY:
        return "Dysfunctional: possibly useful for parts (M)."
    if kind is FailureKind.REPAIR_BEFORE_USE or kind is FailureKind.REPAIR_AND_REBUILD:
        rebuilt = " and rebuilt after it" if kind is FailureKind.REPAIR_AND_REBUILD else ""
        state = "repaired, it works" if not failed else "not repaired, it fails"
        return f"Must be repaired before each use{rebuilt}: {state}."
    if failed:
        return "The item malfunctions or breaks down (F:L3585)."
    return "The item works."


def _printed(found: FailureRange) -> str:
    row = FAILURE_RANGES.get(found.code)
    if row is not None:
        return row.failure_rolls
    low, high = min(found.faces), max(found.faces)
    faces = str(low) if low == high else f"{low} to {high}"
    return f"Any roll of {faces}" + (", if a further D10 shows 10" if found.follow_up_d10 else "")


class ItemFailureOdds(Model):
    failure_probability: Exact = Field(description="P(the item fails on this use).")
    failed: list[OutcomeProbability] = Field(description="Fails on this use, or not.")
    uses_per_failure: Exact | None = Field(
        description="Mean uses up to and including the first failure, a fresh roll each use "
        "(1 / P); null when it never fails."
    )


def failure_distribution(request: ItemFailureCheckInput) -> Distribution[bool]:
    """Whether it fails, over the D100 faces (the one given, or all 100), a starred face
    split 1 in 10 by its D10 (F:L3585)."""
    found = parse_failure_range(request.failure_range, ("failure_range",))
    faces = range(1, 101) if request.roll is None else (request.roll,)
    return failure_outcomes(found, faces, request.repaired)


def _failure_odds(request: ItemFailureCheckInput) -> ItemFailureOdds:
    found = failure_distribution(request)
    p = found.probability(True)
    return ItemFailureOdds(
        failure_probability=exact(p),
        failed=outcome_table(found),
        uses_per_failure=exact(1 / p) if p else None,
    )


def _failure_cost(request: Any) -> Estimate:
    """Each D100 face, a starred one twice (its D10 of 10 or not), then the yes/no table:
    at most 2 x 100 + 2 + 40 states."""
    return Estimate(2 * 100 + 2 + 40, ())


@operation(
    name="item/failure-check",
    kind=Kind.CHECK,
    covers=("foresight.item.failure_check",),
    odds=_failure_odds,
    cost=_failure_cost,
    example={"failure_range": "B", "roll": 99, "dice": {"values": [10]}},
)
def item_failure_check(request: ItemFailureCheckInput, dice: Dice) -> ItemFailureCheck:
    """Does the item fail on this use? Its failure range is tested against the task's own
    D100 (F:L3587): C fails on 99, D on 50 or 99, I on any even roll; B ('99*') on a 99 only
    if a further D10 shows 10 (F:L3570-3585). J fails on use; K and L fail unless repaired
    before the use (L is rebuilt after it); M never works. An item with no stated range is
    utterly reliable, A (F:L3566)."""
    found = parse_failure_range(request.failure_range, ("failure_range",))
    face, follow_up = request.roll, None
    if found.kind is FailureKind.ROLLS and face is None:
        face = dice.roll(100, "D100 (the task's roll, which tests the item)")
    if face is not None and needs_follow_up(found, face):
        follow_up = dice.roll(10, "D10 (starred failure range: fails on a 10)")
    failed = fails(found, face or 0, follow_up, request.repaired)
    row = FAILURE_RANGES.get(found.code)
    return ItemFailureCheck(
        failure_range=found.code,
        name=row.name if row is not None else None,
        failure_rolls=_printed(found),
        roll=face if found.kind is FailureKind.ROLLS else None,
        follow_up_d10=follow_up,
        failed=failed,
        rebuild_after_use=found.kind is FailureKind.REPAIR_AND_REBUILD,
        meaning=failure_meaning(found, failed),
    )


# --- foresight.item.failure_range.shift (#100) -----------------------------------------------


class ItemFailureShiftInput(Model):
    failure_range: FailureCode = Field(description="A letter A-M or faces: '98-99', '99*'.")
    steps: Annotated[int, Field(ge=-MAX_STEPS, le=MAX_STEPS)] = Field(
        description="Better (+, towards A) or worse (-, towards M), one step each (F:L3589)."
    )
    options: ItemFailureShiftOptions = Field(default=ItemFailureShiftOptions())


class ItemFailureShift(Model):
    before: str
    after: str
    name: str | None = Field(description="The new letter's name: 'Average'; null for faces.")
    failure_rolls: str = Field(description="What fails now, as the table prints it.")
    failure_probability_before: Exact = Field(description="Per use, not repaired.")
    failure_probability_after: Exact


def shift_failure_range(
    code: str, steps: int, options: ItemFailureShiftOptions, loc: tuple[str | int, ...]
) -> str:
    """`code` moved `steps` better (+) or worse (-), numbers as the options say (AMB2-38)."""
    return shift(code, steps, loc, options.numeric_failure_shift)


@operation(
    name="item/failure-range/shift",
    kind=Kind.CALCULATION,
    covers=("foresight.item.failure_range.shift",),
    example={"failure_range": "D", "steps": 1},
)
def item_failure_range_shift(request: ItemFailureShiftInput) -> ItemFailureShift:
    """A failure range made more or less reliable: a better (+) step moves it one letter up
    the table towards A, a worse (-) one down towards M, stopping at either end (F:L3589;
    Average D +1 is Reliable C, Very Reliable B -2 is Average D). A range of faces moves one
    face a step at its low end ('98-99' worse is '97-99'), or is refused, as the option says
    (AMB2-38)."""
    after = shift_failure_range(
        request.failure_range, request.steps, request.options, ("failure_range",)
    )
    found = parse_failure_range(after, ("failure_range",))
    row = FAILURE_RANGES.get(after)
    before = parse_failure_range(request.failure_range, ("failure_range",))
    return ItemFailureShift(
        before=request.failure_range,
        after=after,
        name=row.name if row is not None else None,
        failure_rolls=_printed(found),
        failure_probability_before=exact(failure_probability(before)),
        failure_probability_after=exact(failure_probability(found)),
    )
