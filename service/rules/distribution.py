"""Exact discrete distributions with integer weights.

A `Distribution` maps outcomes to integer weights over a common total; a probability is
always the exact `Fraction` weight / total, never a float estimate. An exploding die is
enumerated to a stated depth; the chains cut off keep their share of the total without an
outcome (`missing`), so every probability is exact for the truncated process and the mass cut
is stated exactly. Every (outcome, weight) pair a distribution is made from is counted as
one state (`cost.counted`), the work exact odds are bounded by; a convolution multiplied as
big integers counts its fields and digit products where they are fewer than its pairs
(`packed_states`). Dice pools are enumerated
as multisets with their multinomial weights, so 4d8 is 330 sorted outcomes rather than 4,096
ordered ones; rules that do not care which die is which read the sorted tuple.

The wire models `Exact` and `OutcomeProbability` give each figure as an exact fraction
string and a float.
"""

import builtins
import itertools
import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, NamedTuple, TypeVar

from pydantic import Field, TypeAdapter

from service.rules.cost import counted
from service.rules.model import Model

__all__ = [
    "NOT_ROLLED",
    "Distribution",
    "Exact",
    "OutcomeProbability",
    "RolledOdds",
    "Shape",
    "Truncation",
    "added_states",
    "exact",
    "exact_fields",
    "not_rolled",
    "outcome_table",
    "packed_states",
    "repeated_states",
    "written",
]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


class Distribution(Generic[T]):
    """Outcomes with integer weights. Immutable; every operation returns a new one."""

    __slots__ = ("_weights", "total")

    def __init__(
        self, weights: Mapping[T, int] | Iterable[tuple[T, int]], total: int | None = None
    ) -> None:
        if isinstance(weights, Mapping):
            # A mapping has each outcome once: nothing to merge.
            counted(len(weights))
            merged = {outcome: weight for outcome, weight in weights.items() if weight}
            if merged and min(merged.values()) < 0:
                raise ValueError("weights must be non-negative")
        else:
            merged = _merged(weights)
        self._weights = merged
        present = sum(merged.values())
        if total is not None and total < present:
            raise ValueError("the total cannot be less than the weights present")
        self.total = present if total is None else total

    @property
    def missing(self) -> Fraction:
        """The probability mass with no outcome: chains cut off by truncation."""
        return Fraction(self.total - sum(self._weights.values()), self.total)

    @classmethod
    def die(cls, sides: int) -> "Distribution[int]":
        """One fair die showing 1..sides."""
        return Distribution((face, 1) for face in range(1, sides + 1))

    @classmethod
    def of_probabilities(
        cls, probabilities: Mapping[T, Fraction] | Iterable[tuple[T, Fraction]]
    ) -> "Distribution[T]":
        """Outcomes with exact probabilities (an outcome may come more than once), as whole
        weights over their least common denominator; what they leave short of 1 is missing."""
        pairs = list(probabilities.items() if isinstance(probabilities, Mapping) else probabilities)
        total = math.lcm(*(p.denominator for _, p in pairs))
        return cls(((o, p.numerator * (total // p.denominator)) for o, p in pairs), total)

    def reduced(self) -> "Distribution[T]":
        """The same distribution over the least total: weights and total divided by what
        they share. Chained steps multiply totals; this keeps their digits few."""
        counted(len(self._weights))
        shared = math.gcd(self.total, *self._weights.values())
        weights = {outcome: w // shared for outcome, w in self._weights.items()}
        return Distribution._made(weights, self.total // shared)

    @classmethod
    def pool(cls, sides: int, count: int) -> "Distribution[tuple[int, ...]]":
        """`count` fair dice of `sides` sides, as sorted (descending) multisets.

        The weight of a multiset is the number of ordered rolls that show it:
        count! / (m1! m2! ...) for the multiplicities m of its faces.
        """
        faces = range(sides, 0, -1)
        top = math.factorial(count)
        return Distribution(
            (combo, top // math.prod(math.factorial(m) for m in Counter(combo).values()))
            for combo in itertools.combinations_with_replacement(faces, count)
        )

    @classmethod
    def exploding(
        cls,
        sides: int,
        depth: int,
        value: Callable[[int], int],
        explodes: Callable[[int], bool],
        *,
        last_explodes: bool = True,
    ) -> "Distribution[int]":
        """One die that rolls again and adds while `explodes(face)`, to `depth` extra dice.

        Each face adds `value(face)`. A chain that would need more than `depth` extra dice is
        cut off and its mass left `missing`; with `last_explodes=False` the last die allowed
        simply counts its face instead (a chain of exactly `depth` extra dice, no truncation).
        A chain of k + 1 dice has weight sides**(depth - k) over sides**(depth + 1).
        """
        # Each face's value and whether it explodes, read once rather than per chain.
        faces = [(value(face), explodes(face)) for face in range(1, sides + 1)]
        finished: dict[int, int] = {}
        running = {0: 1}
        for k in range(depth + 1):
            counted(len(running) * sides)
            weight = sides ** (depth - k)
            rolling: dict[int, int] = {}
            for sum_so_far, w in running.items():
                for added, again in faces:
                    total = sum_so_far + added
                    if again and k < depth:
                        rolling[total] = rolling.get(total, 0) + w
                    elif not again or not last_explodes:
                        finished[total] = finished.get(total, 0) + w * weight
            running = rolling
        counted(len(finished))
        return Distribution._made(finished, sides ** (depth + 1))

    def items(self) -> Iterator[tuple[T, int]]:
        return iter(self._weights.items())

    def __len__(self) -> int:
        """The number of outcomes with a weight."""
        return len(self._weights)

    def weight(self, outcome: T) -> int:
        return self._weights.get(outcome, 0)

    def map(self, function: Callable[[T], U]) -> "Distribution[U]":
        """The distribution of `function(outcome)`; weights of equal images add up."""
        counted(len(self._weights))
        images: dict[U, int] = {}
        get = images.get
        for outcome, w in self._weights.items():
            image = function(outcome)
            images[image] = get(image, 0) + w
        return Distribution._made(images, self.total)

    @classmethod
    def _made(cls, weights: dict[T, int], total: int) -> "Distribution[T]":
        """A distribution of weights already merged, positive and within `total` (made from
        another distribution's): nothing to check, and counted by the caller."""
        made: Distribution[T] = cls.__new__(cls)
        made._weights = weights
        made.total = total
        return made

    def then(self, step: Callable[[T], "Distribution[U]"]) -> "Distribution[U]":
        """Follow each outcome with the random process `step(outcome)` (a later die that
        depends on what came before); inner totals are brought to their least common multiple."""
        inner = {outcome: step(outcome) for outcome in self._weights}
        common = math.lcm(*(d.total for d in inner.values())) if inner else 1
        later: dict[U, int] = {}
        get = later.get
        for outcome, w in self._weights.items():
            after = inner[outcome]
            counted(len(after._weights))
            scale = w * (common // after.total)
            for value, wl in after._weights.items():
                later[value] = get(value, 0) + scale * wl
        return Distribution._made(later, self.total * common)

    def probability(self, outcome: T) -> Fraction:
        return Fraction(self.weight(outcome), self.total)

    def mean(self, value: Callable[[T], int] | None = None) -> Fraction:
        """The expected outcome (or `value` of it), exactly: whole weights summed, one
        division. Mass missing (chains cut off) adds nothing."""
        read: Callable[[Any], int] = _itself if value is None else value
        return Fraction(sum(read(o) * w for o, w in self._weights.items()), self.total)

    def probability_where(self, predicate: Callable[[T], bool]) -> Fraction:
        hit = sum(w for outcome, w in self._weights.items() if predicate(outcome))
        return Fraction(hit, self.total)

    def __add__(self, other: "Distribution[int]") -> "Distribution[int]":
        """Convolution: the distribution of the sum of two independent integer outcomes."""
        pairs = len(self._weights) * len(other._weights)
        sums: dict[int, int] | None
        if len(self._weights) == 1 or len(other._weights) == 1:
            # A certain outcome (a score, a modifier) shifts the other side's outcomes.
            one, many = (self, other) if len(self._weights) == 1 else (other, self)
            ((by, scale),) = one._weights.items()
            counted(pairs)
            sums = {outcome + by: w * scale for outcome, w in many._weights.items()}  # type: ignore[operator]
        elif (sums := _packed_sums(self._weights, other._weights)) is None:  # type: ignore[arg-type]
            counted(pairs)
            sums = {}
            for a, wa in self._weights.items():
                for b, wb in other.items():
                    key = a + b  # type: ignore[operator]
                    sums[key] = sums.get(key, 0) + wa * wb
        else:
            mine = _shape(self._weights)  # type: ignore[arg-type]
            counted(min(pairs, packed_states(mine, _shape(other._weights))))
        counted(len(sums))
        return Distribution._made(sums, self.total * other.total)

    def repeated(self, count: int) -> "Distribution[int]":
        """The total of `count` independent draws of this distribution of integers (icepool's
        `count @ die`). Where the outcomes pack (`_packed_sums`), one big-integer power
        (`repeated_states`); else added draw by draw."""
        if count < 1:
            return Distribution({0: 1})
        sums = _packed_power(self._weights, count)  # type: ignore[arg-type]
        if sums is None:
            total: Distribution[int] = self  # type: ignore[assignment]
            for _ in range(count - 1):
                total = total + self  # type: ignore[operator]
            return total
        counted(repeated_states(_shape(self._weights), count))  # type: ignore[arg-type]
        return Distribution._made(sums, self.total**count)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return all(
            self.probability(o) == other.probability(o)
            for o in set(self._weights) | set(other._weights)
        )

    def __hash__(self) -> int:
        return hash(frozenset((o, Fraction(w, self.total)) for o, w in self._weights.items()))

    def __repr__(self) -> str:
        return f"Distribution({self._weights!r})"


def _itself(outcome: Any) -> Any:
    return outcome


def _merged(pairs: Iterable[tuple[T, int]]) -> dict[T, int]:
    """The weights of `pairs`, equal outcomes' added up, each pair counted as a state."""
    merged: dict[T, int] = {}
    get = merged.get
    states = 0
    for states, (outcome, weight) in enumerate(pairs, 1):  # noqa: B007
        if weight < 0:
            raise ValueError("weights must be non-negative")
        if weight:
            merged[outcome] = get(outcome, 0) + weight
    counted(states)
    return merged


class Shape(NamedTuple):
    """What a convolution's work depends on: outcomes with a weight, the integers they
    span, and the bits of the heaviest weight."""

    outcomes: int
    span: int
    bits: int


def _shape(weights: Mapping[int, int]) -> Shape:
    return Shape(len(weights), max(weights) - min(weights) + 1, max(weights.values()).bit_length())


#: Outcomes spread over more than this many integers per outcome are summed pair by pair.
_SPARSE = 4


def _packed_sums(a: Mapping[int, int], b: Mapping[int, int]) -> dict[int, int] | None:
    """The convolution of two integer-outcome weight maps as one big-integer product, or
    None when an outcome is not an int or the outcomes are too sparse to pack.

    Each map becomes a polynomial (weight of outcome k at power k - lowest) packed into an
    integer with a field per power wide enough for any coefficient of the product; their
    product's fields are the summed weights (Kronecker substitution). Exact, and the
    multiplying is done by big integers (`_product`), not a loop of pairs.
    """
    if not _packs(a) or not _packs(b):
        return None
    low_a, low_b = min(a), min(b)
    span_a, span_b = max(a) - low_a + 1, max(b) - low_b + 1
    width = (
        max(a.values()).bit_length()
        + max(b.values()).bit_length()
        + min(len(a), len(b)).bit_length()
        + 7
    ) // 8
    product = _product(_packed(a, low_a, span_a, width), _packed(b, low_b, span_b, width))
    return _unpacked(product, width, span_a + span_b - 1, low_a + low_b)


def _packed_power(a: Mapping[int, int], count: int) -> dict[int, int] | None:
    """The weights of `count` draws of `a` summed, as one power of `a` packed (`_packed_sums`),
    or None where `a` does not pack. A field holds any coefficient of the power: a sum of at
    most len(a) ** (count - 1) products of `count` weights."""
    if not _packs(a):
        return None
    low, span = min(a), max(a) - min(a) + 1
    width = _power_width(_shape(a), count)
    power = _power(_packed(a, low, span, width), count)
    return _unpacked(power, width, count * (span - 1) + 1, count * low)


def _packs(weights: Mapping[int, int]) -> bool:
    """Whether `weights` pack into one integer: int outcomes, spread over at most `_SPARSE`
    integers each."""
    if not weights or not all(type(k) is int for k in weights):
        return False
    return max(weights) - min(weights) + 1 <= _SPARSE * len(weights)


def _power_width(a: Shape, count: int) -> int:
    return (count * a.bits + (count - 1) * a.outcomes.bit_length() + 7) // 8


def _unpacked(packed: int, width: int, span: int, low: int) -> dict[int, int]:
    """The non-zero fields of `packed`, `width` bytes each, as weights of low, low + 1, ..."""
    raw = packed.to_bytes(width * span, "little")
    sums = {}
    for power, start in enumerate(range(0, len(raw), width)):
        weight = int.from_bytes(raw[start : start + width], "little")
        if weight:
            sums[low + power] = weight
    return sums


#: Factors of at least this many bits on both sides are multiplied by GMP.
_GMP_BITS = 2048


def _product(a: int, b: int) -> int:
    """`a * b`. Where both are long, GMP multiplies them (gmpy2, imported on first need: it
    holds 6 MB, which a process that sums no long runs never pays): a damage pool's packed
    sums are 100,000-bit products, which the interpreter's Karatsuba takes 1 ms over and GMP
    0.1 ms, conversions included."""
    if min(a.bit_length(), b.bit_length()) < _GMP_BITS:
        return a * b
    from gmpy2 import mpz

    return int(mpz(a) * mpz(b))


def _power(a: int, count: int) -> int:
    """`a ** count`, by GMP where `a` is long (`_product`)."""
    if a.bit_length() < _GMP_BITS:
        power: int = a**count  # a whole power: count is positive
        return power
    from gmpy2 import mpz

    return int(mpz(a) ** count)


#: Digit products (of the interpreter's 30-bit digits) a big-integer product makes in the
#: time of about one state.
DIGIT_PRODUCTS = 1000


def packed_states(a: Shape, b: Shape) -> int:
    """The states a packed convolution (`_packed_sums`) is counted as: each field of the two
    factors and of the product packed or read, and the digit products of multiplying them,
    schoolbook (the interpreter's Karatsuba makes fewer), a thousand to a state. A loop of
    pairs would count each pair; `__add__` counts whichever is fewer."""
    width = (a.bits + b.bits + min(a.outcomes, b.outcomes).bit_length() + 7) // 8
    digits_a, digits_b = (-(-8 * width * x.span // 30) for x in (a, b))
    return 2 * (a.span + b.span) + digits_a * digits_b // DIGIT_PRODUCTS


def added_states(a: Shape, b: Shape) -> int:
    """At most the states `__add__` counts for two runs of integers of these shapes (or
    smaller): their pairs or their packed product, whichever is fewer, then the sums."""
    return min(a.outcomes * b.outcomes, packed_states(a, b)) + a.span + b.span - 1


def repeated_states(a: Shape, count: int) -> int:
    """The states `repeated` counts for `count` draws of a packing distribution of this shape:
    its fields packed and the power's read, and the digit products of raising it by squaring
    (left to right, schoolbook, as `packed_states`)."""
    span = count * (a.span - 1) + 1
    width = _power_width(a, count)

    def digits(k: int) -> int:
        return -(-8 * width * (k * (a.span - 1) + 1) // 30)

    products, k = 0, 1
    for bit in bin(count)[3:]:
        products += digits(k) ** 2
        k *= 2
        if bit == "1":
            products += digits(k) * digits(1)
            k += 1
    return a.span + span + products // DIGIT_PRODUCTS


def _packed(weights: Mapping[int, int], low: int, span: int, width: int) -> int:
    dense = [0] * span
    for outcome, weight in weights.items():
        dense[outcome - low] = weight
    return int.from_bytes(b"".join(w.to_bytes(width, "little") for w in dense), "little")


class Exact(Model):
    """An exact rational figure (a probability, a mean) and its nearest float."""

    exact: str = Field(description="Exact value as a reduced fraction, e.g. '7/36'.")
    float: builtins.float


class OutcomeProbability(Model):
    """The probability of one outcome of a distribution."""

    outcome: str
    exact: str
    float: builtins.float


class RolledOdds(Model):
    """How likely the outcome a roll gave was, read from the exact odds of the same request."""

    distribution: str = Field(
        description="JSON pointer of the distribution (or event) in the operation's odds result."
    )
    outcome: str = Field(description="The outcome rolled, as that distribution names it.")
    probability: Exact = Field(description="The probability of exactly this outcome.")
    at_least: Exact | None = Field(
        description="The probability of doing at least this well: this outcome or one listed "
        "after it, the odds listing outcomes from worst to best for the one rolling (or one "
        "listed before it, for a distribution listed best first). None for a yes/no event."
    )


class Truncation(Model):
    """Where an infinite process (exploding dice) was cut, and the probability mass left out."""

    depth: int = Field(
        description="Extra dice a chain was followed to: the system's full depth, or the "
        "deepest at which the odds fit the cost budget."
    )
    mass_cut: Exact = Field(description="The probability of the longer chains left out.")


def truncation(found: "Distribution[Any]", depth: int) -> Truncation | None:
    """The mass `found` left out by chains cut at `depth` extra dice; None if none was."""
    missing = found.missing
    return Truncation(depth=depth, mass_cut=exact(missing)) if missing else None


def exact(value: Fraction) -> Exact:
    return Exact(exact=_fraction_text(value), float=float(value))


def outcome_table(
    distribution: Distribution[T], order: Iterable[T] | None = None
) -> list[OutcomeProbability]:
    """Every outcome with non-zero probability, in `order` if given (else sorted)."""
    weights = distribution._weights
    if order is not None:
        outcomes = [o for o in order if weights.get(o)]
    else:
        outcomes = list(weights)
        if all(type(o) is int for o in outcomes):
            outcomes.sort()  # type: ignore[call-arg]  # five times faster than by a key
        else:
            outcomes.sort(key=_sort_key)
    total = distribution.total
    rows = []
    for outcome in outcomes:
        row = exact_fields(weights[outcome], total)
        row["outcome"] = written(outcome)
        rows.append(row)
    return _TABLE.validate_python(rows)


#: The outcome of a roll the request does not make.
NOT_ROLLED = "not_rolled"


def not_rolled() -> list[OutcomeProbability]:
    """The table of a roll the request does not make: 'not_rolled', certainly."""
    return outcome_table(Distribution({NOT_ROLLED: 1}))


#: A table's rows made in one call: half the time of making each row's model in turn.
_TABLE = TypeAdapter(list[OutcomeProbability])


def exact_fields(weight: int, total: int) -> dict[str, Any]:
    """The fields of `Exact` for `weight / total`: the fraction reduced and its float (int
    division is correctly rounded, as `float(Fraction)` is), without making a `Fraction`,
    for a table of them validated in one call."""
    common = math.gcd(weight, total)
    return {"exact": f"{weight // common}/{total // common}", "float": weight / total}


def written(outcome: object) -> str:
    """An outcome as the result writes it: a boolean as JSON does."""
    if isinstance(outcome, bool):
        return "true" if outcome else "false"
    return str(outcome)


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _sort_key(outcome: object) -> tuple[int, builtins.float, str]:
    if isinstance(outcome, int | builtins.float):
        return (0, outcome, "")
    return (1, 0.0, str(outcome))
