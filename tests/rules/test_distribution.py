"""Exact distributions (service.rules.distribution) against brute-force enumeration."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.cost import metered
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Shape,
    added_states,
    exact,
    outcome_table,
    packed_states,
    repeated_states,
)


def ordered_rolls(sides: int, count: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(1, sides + 1), repeat=count))


def brute_force_pool(sides: int, count: int) -> Counter[tuple[int, ...]]:
    """How many ordered rolls show each multiset (sorted highest first)."""
    return Counter(tuple(sorted(roll, reverse=True)) for roll in ordered_rolls(sides, count))


# --- pools ------------------------------------------------------------------------------


def test_4d8_pool_has_330_outcomes_totalling_4096():
    pool = Distribution.pool(8, 4)
    assert len(list(pool.items())) == 330 == math.comb(8 + 4 - 1, 4)
    assert pool.total == 4096


def test_4d8_pool_agrees_with_itertools_product():
    """The multinomial weight of each multiset is the number of ordered rolls showing it."""
    assert dict(Distribution.pool(8, 4).items()) == brute_force_pool(8, 4)


@pytest.mark.parametrize(("sides", "count"), [(6, 1), (6, 2), (6, 3), (4, 5), (10, 2), (2, 6)])
def test_other_pools_agree_with_itertools_product(sides, count):
    pool = Distribution.pool(sides, count)
    assert dict(pool.items()) == brute_force_pool(sides, count)
    assert pool.total == sides**count


def test_pool_outcomes_are_sorted_highest_first():
    for outcome, _ in Distribution.pool(8, 4).items():
        assert list(outcome) == sorted(outcome, reverse=True)


def test_pool_sum_is_the_4d8_total():
    """The sum of the pool, versus the sum of every ordered roll (catalogue B5.1)."""
    totals = Distribution.pool(8, 4).map(sum)
    assert dict(totals.items()) == Counter(sum(r) for r in ordered_rolls(8, 4))
    assert totals.weight(18) == 344
    assert totals.probability_where(lambda t: t <= 18) == Fraction(2220, 4096)


# --- a single die, map, probabilities ----------------------------------------------------


def test_die():
    d6 = Distribution.die(6)
    assert dict(d6.items()) == {face: 1 for face in range(1, 7)}
    assert d6.total == 6
    assert d6.probability(3) == Fraction(1, 6)
    assert d6.probability(7) == 0
    assert d6.weight(7) == 0


def test_map_merges_equal_images():
    parity = Distribution.die(6).map(lambda face: face % 2)
    assert dict(parity.items()) == {1: 3, 0: 3}
    assert parity.total == 6


def test_probability_where():
    d8 = Distribution.die(8)
    assert d8.probability_where(lambda face: face >= 7) == Fraction(1, 4)
    assert d8.probability_where(lambda face: face > 8) == 0


def test_mean_is_each_outcome_by_its_probability_summed():
    assert Distribution.die(6).mean() == Fraction(7, 2)
    # A value of each outcome; a cut chain's mass (1 of 4 here) adds nothing.
    cut = Distribution({"low": 1, "high": 2}, total=4)
    assert cut.mean(lambda o: 10 if o == "high" else 1) == Fraction(1 * 1 + 10 * 2, 4)


def test_weights_merge_and_zeros_drop():
    merged = Distribution([("a", 1), ("b", 0), ("a", 2)])
    assert dict(merged.items()) == {"a": 3}
    assert merged.total == 3


def test_negative_weights_are_rejected():
    with pytest.raises(ValueError, match="non-negative"):
        Distribution({"a": -1})
    with pytest.raises(ValueError, match="non-negative"):
        Distribution([("a", 2), ("a", -1)])  # even where the sum would be positive


def test_every_pair_given_is_counted_as_a_state():
    with metered() as meter:
        Distribution([("a", 1), ("b", 0), ("a", 2)])
        Distribution({"a": 1, "b": 0})
        Distribution.die(6).map(lambda face: face % 2)
    assert meter.states == 3 + 2 + 6 + 6


def test_of_probabilities_puts_them_over_their_least_common_denominator():
    """1/4, 1/6 and 1/3 of the outcomes over 12; the 1/4 they leave is missing, and an
    outcome given twice adds up."""
    found = Distribution.of_probabilities(
        [("a", Fraction(1, 4)), ("b", Fraction(1, 6)), ("a", Fraction(1, 3) - Fraction(1, 4)),
         ("c", Fraction(1, 4))]
    )  # fmt: skip
    assert found.total == 12
    assert dict(found.items()) == {"a": 4, "b": 2, "c": 3}
    assert found.missing == Fraction(1, 4)
    assert Distribution.of_probabilities({"x": Fraction(1)}).total == 1


def test_reduced_divides_weights_and_total_by_what_they_share():
    """6/36 and 30/36 are 1/6 and 5/6; weights with nothing in common stay as they are, and a
    missing mass stays missing."""
    found = Distribution({1: 6, 2: 30}).reduced()
    assert (dict(found.items()), found.total) == ({1: 1, 2: 5}, 6)
    cut = Distribution({1: 2, 2: 4}, total=10).reduced()
    assert (dict(cut.items()), cut.total, cut.missing) == ({1: 1, 2: 2}, 5, Fraction(2, 5))
    assert Distribution.die(6).reduced() == Distribution.die(6)
    assert Distribution.die(6).reduced().total == 6


# --- then and exploding -----------------------------------------------------------------


def test_then_weighs_each_branch_by_its_own_total():
    """A d4, then a d(face) for face 1-2 or a coin for 3-4: totals 1, 2 and 2 meet at 2."""
    coin = Distribution({"heads": 1, "tails": 1})
    later = Distribution.die(4).then(lambda face: Distribution.die(face) if face <= 2 else coin)
    expected: Counter[object] = Counter()
    for face in range(1, 5):
        branch = list(range(1, face + 1)) if face <= 2 else ["heads", "tails"]
        for outcome in branch:
            expected[outcome] += Fraction(1, 4 * len(branch))
    assert {o: later.probability(o) for o, _ in later.items()} == expected
    assert later.total == 8


@pytest.mark.parametrize("last_explodes", [True, False])
@pytest.mark.parametrize("depth", [0, 1, 3])
def test_exploding_die_agrees_with_every_chain(depth, last_explodes):
    """A d4 exploding on 3 and 4, each face adding face - 1, against the chains of dice
    enumerated one by one to `depth` extra dice."""
    die = Distribution.exploding(
        4, depth, lambda face: face - 1, lambda face: face >= 3, last_explodes=last_explodes
    )
    expected: Counter[int] = Counter()
    for length in range(1, depth + 2):
        for chain in itertools.product(range(1, 5), repeat=length):
            *early, last = chain
            if any(face < 3 for face in early):
                continue  # a chain stops at its first face that does not explode
            if last >= 3 and (length <= depth or last_explodes):
                continue  # it goes on (or, past the depth, is cut off)
            expected[sum(face - 1 for face in chain)] += 4 ** (depth + 1 - length)
    assert dict(die.items()) == expected
    assert die.total == 4 ** (depth + 1)


# --- convolution --------------------------------------------------------------------------


def test_convolution_of_two_d6_is_2d6():
    two_d6 = Distribution.die(6) + Distribution.die(6)
    assert dict(two_d6.items()) == Counter(a + b for a, b in ordered_rolls(6, 2))
    assert two_d6.total == 36
    assert two_d6.probability(7) == Fraction(1, 6)


def test_convolution_of_four_d8_is_the_pool_sum():
    d8 = Distribution.die(8)
    four = d8 + d8 + d8 + d8
    assert four == Distribution.pool(8, 4).map(sum)
    assert dict(four.items()) == Counter(sum(r) for r in ordered_rolls(8, 4))


def test_convolution_with_weights():
    """Weights multiply: a loaded coin {0: 1, 1: 3} plus a d4."""
    coin = Distribution({0: 1, 1: 3})
    total = coin + Distribution.die(4)
    expected: Counter[int] = Counter()
    for (c, wc), (d, wd) in itertools.product(coin.items(), Distribution.die(4).items()):
        expected[c + d] += wc * wd
    assert dict(total.items()) == expected
    assert total.total == 16


weights = st.dictionaries(st.integers(-60, 60), st.integers(1, 10**30), min_size=1, max_size=25)


@settings(max_examples=300)
@given(weights, weights)
def test_convolution_is_the_sum_over_every_pair(a, b):
    """Dense, sparse, negative, huge-weighted and certain outcomes alike (the packed
    big-integer product, the pair loop and the shift each meet some of these) sum to what
    every pair adds."""
    expected: Counter[int] = Counter()
    for (x, wx), (y, wy) in itertools.product(a.items(), b.items()):
        expected[x + y] += wx * wy
    total = Distribution(a) + Distribution(b)
    assert dict(total.items()) == expected
    assert total.total == sum(a.values()) * sum(b.values())


def test_a_certain_outcome_shifts_the_other_side_and_counts_every_pair():
    """A score added to a pool's dice (one outcome, here of weight 3 out of 4) moves each of
    the dice's outcomes; the pairs and the sums are counted as a pair loop's are."""
    score = Distribution({7: 3}, total=4)
    d6 = Distribution.die(6)
    for total in (score + d6, d6 + score):
        assert dict(total.items()) == {7 + face: 3 for face in range(1, 7)}
        assert total.total == 24
    with metered() as meter:
        score + d6
    assert meter.states == 6 + 6


def test_convolution_of_fractional_outcomes():
    halves = Distribution({Fraction(1, 2): 1, Fraction(3, 2): 1})
    assert dict((halves + halves).items()) == {1: 1, 2: 2, 3: 1}


# --- equality ---------------------------------------------------------------------------


def test_equality_is_by_probability():
    """Two distributions are equal when every outcome has the same probability."""
    assert Distribution({1: 1, 2: 1}) == Distribution({1: 5, 2: 5})
    assert Distribution({1: 1, 2: 1}) != Distribution({1: 1, 2: 2})
    assert Distribution({1: 1}) != Distribution({2: 1})
    assert hash(Distribution({1: 1, 2: 1})) == hash(Distribution({1: 5, 2: 5}))


def test_equality_with_another_type_is_not_implemented():
    assert Distribution({1: 1}).__eq__(1) is NotImplemented


# --- formatting -------------------------------------------------------------------------


def test_exact_is_a_reduced_fraction_and_a_float():
    assert exact(Fraction(7, 36)) == Exact(exact="7/36", float=7 / 36)
    assert exact(Fraction(2220, 4096)).exact == "555/1024"
    assert exact(Fraction(1)).exact == "1/1"
    assert exact(Fraction(0)).exact == "0/1"


def test_outcome_table_sorts_numbers_numerically():
    """Sorted by value (10 after 9, not after 1), each with an exact fraction and a float."""
    table = outcome_table(Distribution({10: 1, 9: 1, 1: 2}))
    assert table == [
        OutcomeProbability(outcome="1", exact="1/2", float=0.5),
        OutcomeProbability(outcome="9", exact="1/4", float=0.25),
        OutcomeProbability(outcome="10", exact="1/4", float=0.25),
    ]


def test_outcome_table_puts_text_after_numbers():
    table = outcome_table(Distribution({"b": 1, 2: 1, "a": 1}))
    assert [row.outcome for row in table] == ["2", "a", "b"]


def test_outcome_table_in_a_given_order_skips_impossible_outcomes():
    table = outcome_table(Distribution({"hit": 3, "miss": 1}), ["miss", "crit", "hit"])
    assert [(row.outcome, row.exact) for row in table] == [("miss", "1/4"), ("hit", "3/4")]


def test_outcome_table_of_a_pool_sums_to_one():
    table = outcome_table(Distribution.pool(8, 4).map(sum))
    assert [row.outcome for row in table] == [str(t) for t in range(4, 33)]
    assert sum(Fraction(row.exact) for row in table) == 1
    assert math.isclose(sum(row.float for row in table), 1.0)


def _shape(found: Distribution[int]) -> Shape:
    outcomes = [o for o, _ in found.items()]
    heaviest = max(w for _, w in found.items())
    return Shape(len(outcomes), max(outcomes) - min(outcomes) + 1, heaviest.bit_length())


def test_a_packed_convolution_is_counted_by_its_work_where_that_is_less_than_its_pairs():
    """Five exploding d6 summed one by one: each convolution is counted as the fields of its
    factors and product and a thousandth of its digit products (`packed_states`) where that
    is less than its pairs, then its sums: never more than `added_states` of their shapes."""
    die = Distribution.exploding(6, 16, lambda n: n, lambda n: n == 6)
    total, pairs = Distribution({0: 1}), 0
    with metered() as meter:
        for _ in range(5):
            made = min(len(total) * len(die), packed_states(_shape(total), _shape(die)))
            bound = added_states(_shape(total), _shape(die))
            pairs += len(total) * len(die)
            before = meter.states
            total = total + die
            assert meter.states - before == made + len(total) <= bound
    assert meter.states < pairs / 5
    assert total.total == 6 ** (17 * 5)


@settings(max_examples=200)
@given(weights, st.integers(0, 6))
def test_repeated_draws_sum_as_every_draw_added(a, count):
    """`repeated(n)` is n draws added one by one, as a power where the outcomes pack (dense
    ones, long ones multiplied by GMP) and added draw by draw where they do not."""
    one = Distribution(a)
    expected = Distribution({0: 1})
    for _ in range(count):
        expected = expected + one
    found = one.repeated(count)
    assert dict(found.items()) == dict(expected.items())
    assert found.total == sum(a.values()) ** count


def test_repeated_exploding_dice_are_counted_as_their_power():
    """Five exploding d6 (a Future Imperfect damage pool): a power of a 24,240-bit integer, by GMP,
    counted by `repeated_states` of the die's shape, far fewer states than its pairs and no
    more than the five convolutions one by one."""
    die = Distribution.exploding(6, 16, lambda n: n, lambda n: n == 6)
    one_by_one = Distribution({0: 1})
    with metered() as added:
        for _ in range(5):
            one_by_one = one_by_one + die
    with metered() as meter:
        total = die.repeated(5)
    assert total == one_by_one
    assert total.total == 6 ** (17 * 5)
    assert meter.states == repeated_states(_shape(die), 5) < added.states
