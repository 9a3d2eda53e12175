"""Exact odds of a 4D8 check (catalogue B5), checked three ways:

(a) against the catalogue's tables B5.1-B5.4, transcribed into ./data;
(b) against an independent brute force over all 4,096 ordered rolls (oracle.py), written
    from the seed text without the service's scoring code;
(c) against icepool.

Odds requests are the check's input without dice (`op.input`). A chance above 32 is reached
with ease 32 plus a modifier (D:L6). All counts are out of 8**4 = 4,096 ordered rolls.
"""

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import icepool
import pytest

from service.rules.distribution import Distribution

from . import oracle
from .rulebook import catalogue, chance_of, check, counts, degree_counts, odds, successes

ALL = 4096
BASE: dict[str, Any] = {"special_combinations": False}  # B5.2, B5.4 "Base rules": no combinations
COMBINATIONS: dict[str, Any] = {}  # B5.3: shape precedence, snake-eyes 1 (the defaults)
BONUS_MODES = ("modified_dice", "natural_combos_plus_excess", "no_combos")
CHANCES = range(1, 41)
BAND_NAMES = tuple(oracle.BANDS)  # in the order of D:L61-68


def modes_at(chance: int) -> tuple[str, ...]:
    """How a chance is rolled: normally up to 32, by the player's choice over it (D:L7)."""
    return ("normal",) if chance <= 32 else ("automatic", "doubles", "bonus")


def odds_for(chance: int, mode: str, options: dict[str, Any]) -> Any:
    return odds(chance, None if mode == "normal" else mode, **options)


def expand(rows: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """One case per chance of a catalogue row that covers a range ("1-3", "33-40")."""
    return [(c, row) for row in rows for c in range(row["c_low"], row["c_high"] + 1)]


def mean_text(result: Any) -> str | None:
    """E[degree | success] as the catalogue prints it (4 decimals)."""
    mean = result.summary.mean_degree
    return None if mean is None else f"{float(Fraction(mean.exact)):.4f}"


def band_counts(result: Any) -> list[int]:
    found = counts(result.distributions.interpretation)
    return [found.get(name, 0) for name in BAND_NAMES]


def probabilities_sum_to_one(table: list[Any]) -> bool:
    return sum(Fraction(row.exact) for row in table) == 1


# --- spot values ------------------------------------------------------------------------


def test_success_at_ease_18():
    """D:L45, B5.1: P(4d8 <= 18) = 2220/4096."""
    assert odds(18).summary.success.exact == "555/1024"


def test_success_at_ease_25():
    """D:L45, B5.1: P(4d8 <= 25) = 3886/4096."""
    assert odds(25).summary.success.exact == "1943/2048"
    assert odds(25).summary.success.float == pytest.approx(0.948730, abs=5e-7)


# --- (a) the catalogue -------------------------------------------------------------------

B5_1 = catalogue("b5_1_totals")
B5_2 = catalogue("b5_2_bands_base")
B5_3 = catalogue("b5_3_bands_combos")
B5_4 = catalogue("b5_4_degrees")


@pytest.mark.parametrize(("chance", "row"), expand(B5_1["rows"]))
def test_b5_1_success_by_chance(chance, row):
    """B5.1, D:L45: count(total <= c) of 4,096, and P(success) to six decimals."""
    result = odds(chance)
    assert successes(result) == row["count_total_le"]
    expected = row["p_success"]
    assert f"{result.summary.success.float:.6f}" == f"{float(expected):.6f}"


@pytest.mark.parametrize(("chance", "row"), expand(B5_1["rows"]))
def test_b5_1_totals(chance, row):
    """B5.1: count(total = c) of 4d8, from the service's pool and by brute force."""
    totals = Distribution.pool(8, 4).map(sum)
    assert totals.weight(chance) == row["count_total_eq"]
    assert Counter(sum(dice) for dice in oracle.ROLLS)[chance] == row["count_total_eq"]


@pytest.mark.parametrize(("chance", "row"), expand(B5_1["over_32"]))
def test_b5_1_over_32(chance, row):
    """B5.1, D:L52-54: over 32 an automatic success never fails; doubles and bonus rolls fail
    only on 8,8,8,8."""
    result = odds(chance, row["mode"])
    assert result.mode == row["mode"]
    assert row["of"] == ALL
    assert successes(result) == row["count_success"]
    assert f"{result.summary.success.float:.6f}" == f"{float(row['p_success']):.6f}"


def test_b5_1_mean_total_is_18():
    """B5.1: the mean total of 4d8 is 18."""
    totals = Distribution.pool(8, 4).map(sum)
    mean = sum(Fraction(total * weight, totals.total) for total, weight in totals.items())
    assert mean == B5_1["mean_total"]


def test_b5_1_combination_types():
    """B5.1, D:L72-115: how often each shape falls (distinct 1680, pair 2016, two pairs 168,
    triplet 224, four same 8), by the service and by brute force."""
    expected = B5_1["combination_counts"]
    assert counts(odds(32).distributions.combination) == expected
    assert Counter(oracle.shape(dice) for dice in oracle.ROLLS) == expected


def band_cases(table: dict[str, Any]) -> list[Any]:
    """(chance, mode, bonus mode, row) for every row of a band table. A B5.2 bonus row is
    checked under all three bonus modes (they coincide without combinations); the B5.3
    `no_combos` row points at the B5.2 bonus rows."""
    cases: list[tuple[int, str, str | None, dict[str, Any]]] = []
    for chance, row in expand(table["rows"]):
        if "same_as" in row:
            base_rows = expand(B5_2["rows"])
            (base,) = [r for c, r in base_rows if c == chance and r["mode"] == "bonus"]
            cases.append((chance, "bonus", "no_combos", base))
        elif row["mode"] == "bonus" and "bonus_roll_combo_mode" not in row:
            cases.extend((chance, "bonus", mode, row) for mode in BONUS_MODES)
        else:
            cases.append((chance, row["mode"], row.get("bonus_roll_combo_mode"), row))
    return cases


def case_id(case: Any) -> str:
    chance, mode, bonus_mode, _ = case
    return f"c{chance}-{mode}" + (f"-{bonus_mode}" if bonus_mode else "")


def assert_band_row(result: Any, row: dict[str, Any]) -> None:
    assert successes(result) == row["succ"]
    assert mean_text(result) == row["mean_degree"]
    assert band_counts(result) == list(row["bands"].values())


@pytest.mark.parametrize("case", band_cases(B5_2), ids=case_id)
def test_b5_2_bands_base_rules(case):
    """B5.2, D:L47-49, D:L61-68: successes, mean degree and interpretation bands without the
    special combinations, every chance and every mode over 32."""
    chance, mode, bonus_mode, row = case
    options = {**BASE, "bonus_roll_combo_mode": bonus_mode} if bonus_mode else BASE
    assert_band_row(odds_for(chance, mode, options), row)


@pytest.mark.parametrize("case", band_cases(B5_3), ids=case_id)
def test_b5_3_bands_with_combinations(case):
    """B5.3, D:L47-49, D:L72-115, D:L54: the same with the special combinations, including
    the bonus-roll rows of each D-A05 mode."""
    chance, mode, bonus_mode, row = case
    options = {"bonus_roll_combo_mode": bonus_mode} if bonus_mode else COMBINATIONS
    assert_band_row(odds_for(chance, mode, options), row)


def distribution(line: dict[str, int], shift: int = 0) -> dict[int, int]:
    return {int(d) + shift: n for d, n in line.items()}


@pytest.mark.parametrize("chance", range(4, 33))
def test_b5_4_base_rules_normal_roll(chance):
    """B5.4 "Base rules, normal roll", D:L47-49: the degree of every success."""
    expected = distribution(B5_4["base_rules"]["normal"][str(chance)])
    assert degree_counts(odds(chance, **BASE)) == expected


@pytest.mark.parametrize("chance", range(33, 41))
def test_b5_4_base_rules_doubles(chance):
    """B5.4, D:L54: a doubles roll scores as chance 32 without the failing 8,8,8,8."""
    expected = distribution(B5_4["base_rules"]["normal"]["32"])
    del expected[32]
    assert degree_counts(odds(chance, "doubles", **BASE)) == expected


@pytest.mark.parametrize("bonus_mode", BONUS_MODES)
@pytest.mark.parametrize("chance", range(33, 41))
def test_b5_4_base_rules_bonus(chance, bonus_mode):
    """B5.4, D:L54: a bonus roll scores the highest die plus e = c - 32."""
    expected = distribution(B5_4["base_rules"]["bonus"]["offsets"], shift=chance - 32)
    options = {**BASE, "bonus_roll_combo_mode": bonus_mode}
    assert degree_counts(odds(chance, "bonus", **options)) == expected


@pytest.mark.parametrize("chance", range(4, 33))
def test_b5_4_combinations_normal_roll(chance):
    """B5.4 "With special combinations, normal roll", D:L72-115."""
    expected = distribution(B5_4["combinations"]["normal"][str(chance)])
    assert degree_counts(odds(chance)) == expected


@pytest.mark.parametrize("chance", range(33, 41))
def test_b5_4_combinations_doubles(chance):
    """B5.4, D:L54 (D-A04): a doubles roll with combinations is chance 32 without 32:1, mean
    12.0471."""
    section = B5_4["combinations"]
    expected = distribution(section["normal"]["32"])
    del expected[32]
    result = odds(chance, "doubles")
    assert degree_counts(result) == expected
    assert mean_text(result) == section["doubles"]["mean"]


@pytest.mark.parametrize("chance", range(33, 41))
def test_b5_4_combinations_bonus_modified_dice(chance):
    """B5.4, D:L54 (D-A05 `modified_dice`): listed for c = 33 and c = 40; every chance is
    the c = 33 line shifted by e - 1."""
    lines = B5_4["combinations_bonus_modified_dice"]["by_chance"]
    expected = distribution(lines["33"], shift=chance - 33)
    if str(chance) in lines:
        assert distribution(lines[str(chance)]) == expected
    assert degree_counts(odds(chance, "bonus")) == expected


@pytest.mark.parametrize("chance", range(33, 41))
def test_b5_4_combinations_bonus_natural_combos_plus_excess(chance):
    """B5.4, D:L54 (D-A05 `natural_combos_plus_excess`): the c = 33 line, shifted by e - 1."""
    lines = B5_4["combinations_bonus_natural_combos_plus_excess"]["by_chance"]
    expected = distribution(lines["33"], shift=chance - 33)
    options = {"bonus_roll_combo_mode": "natural_combos_plus_excess"}
    assert degree_counts(odds(chance, "bonus", **options)) == expected


# --- (b) brute force over the 4,096 ordered rolls ----------------------------------------

OPTION_SETS = {
    "base": BASE,
    "combinations": COMBINATIONS,
    "natural_combos_plus_excess": {"bonus_roll_combo_mode": "natural_combos_plus_excess"},
    "no_combos": {"bonus_roll_combo_mode": "no_combos"},
    "best_score": {"combo_precedence": "best_score"},
    "snake_eyes_sum": {"snake_eyes_degree": "sum"},
    "doubles_without_combinations": {"doubles_roll_combinations": False},
    "best_score_sum_natural": {
        "combo_precedence": "best_score",
        "snake_eyes_degree": "sum",
        "bonus_roll_combo_mode": "natural_combos_plus_excess",
    },
    "plain_over_32_and_impossible_rolls": {
        "allow_plain_roll_over_32": True,
        "roll_when_impossible": True,
        "snake_eyes_in_bonus_roll": "ignore",
    },
}


def brute_force_cases() -> list[Any]:
    cases: list[Any] = []
    for name, options in OPTION_SETS.items():
        for chance in CHANCES:
            modes = modes_at(chance)
            if chance > 32 and options.get("allow_plain_roll_over_32"):
                modes = (*modes, "plain")
            cases.extend(
                pytest.param(chance, mode, options, id=f"c{chance}-{mode}-{name}") for mode in modes
            )
    return cases


LUCKY_MODES = ("normal", "plain", "doubles")  # a bonus roll has none (D:L54)


def rolled(chance: int, mode: str, options: dict[str, Any]) -> bool:
    """Whether the dice are rolled at all (D:L52 automatic; D-A19 chance below 4)."""
    if mode == "automatic":
        return False
    return chance >= 4 or mode != "normal" or options.get("roll_when_impossible", False)


@pytest.mark.parametrize(("chance", "mode", "options"), brute_force_cases())
def test_brute_force_agrees(chance, mode, options):
    """D:L45-54, D:L72-115 read independently (oracle.py) over every ordered roll: the
    degree of every success, P(success), the mean degree, the interpretation bands
    (D:L61-68), the shapes rolled, snake-eyes and lucky breaks, and that every table of
    probabilities sums to 1."""
    result = odds_for(chance, mode, options)
    reading = oracle.reading_of(options)
    expected = oracle.degrees(chance, mode, reading)
    dice_rolled = rolled(chance, mode, options)
    assert result.chance == chance
    assert result.mode == (mode if dice_rolled or mode == "automatic" else "impossible")
    assert degree_counts(result) == expected
    assert successes(result) == expected.total()
    if expected.total():
        mean = Fraction(sum(d * n for d, n in expected.items()), expected.total())
        assert Fraction(result.summary.mean_degree.exact) == mean
    else:
        assert result.summary.mean_degree is None
    failures = ALL - expected.total()
    assert counts(result.distributions.degree).get("failure", 0) == failures
    bands = {name: n for name, n in oracle.bands(expected).items() if n}
    assert counts(result.distributions.interpretation) == (
        {**bands, "failure": failures} if failures else bands
    )

    if dice_rolled:
        shapes = Counter(oracle.shape(dice) for dice in oracle.ROLLS)
    elif mode == "automatic":
        shapes = Counter({oracle.shape(oracle.AUTOMATIC_DICE): ALL})
    else:
        shapes = Counter({"not_rolled": ALL})
    assert counts(result.distributions.combination) == shapes

    flagged = mode != "bonus" or options.get("snake_eyes_in_bonus_roll") != "ignore"
    snake = 1 if dice_rolled and flagged else 0
    assert Fraction(result.summary.snake_eyes.exact) == Fraction(snake, ALL)
    lucky_breaks = [(v, v, v, v) for v in range(2, 9)] if mode in LUCKY_MODES else []
    lucky = sum(1 for dice in lucky_breaks if oracle.roll(dice, chance, mode, reading))
    assert Fraction(result.summary.lucky_break.exact) == Fraction(lucky, ALL)

    tables = result.distributions
    for table in (tables.degree, tables.interpretation, tables.combination, tables.scored_as):
        assert probabilities_sum_to_one(table)


@pytest.mark.parametrize(
    ("chance", "mode", "options"),
    [
        (4, None, {}),
        (20, None, {}),
        (20, None, {"combo_precedence": "best_score"}),
        (33, "bonus", {}),
        (35, "bonus", {"bonus_roll_combo_mode": "natural_combos_plus_excess"}),
        (34, "doubles", {"snake_eyes_degree": "sum"}),
    ],
)
def test_every_ordered_table_roll_through_check_reproduces_the_odds(chance, mode, options):
    """D:L45, D:L74: the odds treat the four dice as a multiset, but each die is an aspect.
    Rolling all 4,096 ordered table rolls through `check` gives the same distribution, so
    which aspect shows which face (and takes a bonus, D-A06) never changes a degree."""
    extra = {} if mode is None else {"over32_mode": mode}
    found: Counter[str] = Counter()
    for dice in oracle.ROLLS:
        result = check(**chance_of(chance), **extra, options=options, dice=list(dice))
        found[str(result.degree) if result.success else "failure"] += 1
    assert dict(found) == counts(odds(chance, mode, **options).distributions.degree)


@pytest.mark.parametrize("chance", [33, 40])
def test_b5_3_shape_changes_of_a_bonus_roll(chance):
    """B5.3 (after the table), D:L54, D-A05 `modified_dice`: adding the excess to the highest
    die changes the shape of the scored dice; counts over the 4,095 successes, any e >= 1."""
    table = B5_3["shape_changes_modified_dice"]
    expected = {(c["natural"], c["modified"]): c["count"] for c in table["changes"]}
    found: Counter[tuple[str, str]] = Counter()
    for dice in oracle.ROLLS:
        result = check(**chance_of(chance), dice=list(dice))
        if result.success:
            found[result.combination, result.reading.combination] += 1
    assert found == expected
    assert found.total() == table["of"]


def test_seed_wins_over_the_catalogue_where_they_differ():
    """Where the catalogue and the seed disagree, the seed wins. Across B5.1-B5.4 the
    brute force above (the seed's rules, D:L45-54, D:L72-115) and the catalogue agree on
    every figure, so nothing needs overriding; the one example the catalogue marks as
    inconsistent, E7 (D:L14, "about fifty-fifty" at ease 25 or 26), is settled for the
    seed's dice rule D:L45 in test_examples.py. Here: the catalogue's own reading of D:L14
    (P(<= 25) = 94.87 %) is what the dice give."""
    row_25 = next(row for c, row in expand(B5_1["rows"]) if c == 25)
    by_the_dice = sum(1 for dice in oracle.ROLLS if sum(dice) <= 25)
    assert row_25["count_total_le"] == by_the_dice == successes(odds(25)) == 3886


# --- (c) icepool ---------------------------------------------------------------------------


def icepool_degree(sorted_dice: tuple[int, ...], combinations: bool) -> int:
    """The degree from the sorted faces a <= b <= c <= d (a third formulation)."""
    a, b, c, d = sorted_dice
    if a == d:
        return 1 if a == 1 else 4 * a  # snake-eyes, lucky break (D:L49)
    if not combinations:
        return d  # the highest die (D:L47)
    if a == c or b == d:
        return 2 * b + (d if a == c else a)  # triplet (D:L79-82)
    if a == b and c == d:
        return 2 * a + 2 * c + 5  # two pairs (D:L89-92)
    if a == b or b == c:
        return 2 * b + d  # a pair and the highest remaining die (D:L99-102)
    if c == d:
        return 2 * c + b
    return d


def icepool_degrees(chance: int, combinations: bool) -> dict[int, int]:
    """Degrees of successful rolls; failures (total over the chance) map to 0."""

    def outcome(sorted_dice: tuple[int, ...]) -> int:
        if sum(sorted_dice) > chance:
            return 0
        return icepool_degree(sorted_dice, combinations)

    die = icepool.map(outcome, icepool.d8.pool(4).expand(), star=False)
    return {d: n for d, n in die.items() if d != 0}


@pytest.mark.parametrize("chance", CHANCES)
def test_icepool_success(chance):
    """D:L45, D:L54: P(success) from icepool's 4d8 sum, per chance and mode."""
    total = 4 @ icepool.d8
    assert total.denominator() == ALL
    if chance <= 32:
        assert successes(odds(chance)) == total.quantity("<=", chance)
    else:
        anything_but_32 = total.quantity("<", 32)
        assert successes(odds(chance, "doubles")) == anything_but_32
        assert successes(odds(chance, "bonus")) == anything_but_32
        assert successes(odds(chance, "automatic")) == ALL


@pytest.mark.parametrize("combinations", [False, True], ids=["base", "combinations"])
@pytest.mark.parametrize("chance", range(4, 33))
def test_icepool_degrees(chance, combinations):
    """D:L47-49 (and D:L72-115): the degree distribution of a normal roll, from icepool's
    multiset pool of 4d8."""
    options = {} if combinations else BASE
    assert degree_counts(odds(chance, **options)) == icepool_degrees(chance, combinations)


def test_icepool_pool_weights_match_the_service_pool():
    """The 330 multisets of 4d8 with their weights agree with icepool (sorted ascending
    there, descending in the service)."""
    ours = {tuple(sorted(dice)): w for dice, w in Distribution.pool(8, 4).items()}
    theirs = dict(icepool.d8.pool(4).expand().items())
    assert ours == theirs
    assert len(ours) == 330


def test_oracle_enumerates_every_ordered_roll_once():
    """The brute force really walks 8**4 distinct ordered rolls."""
    assert len(set(oracle.ROLLS)) == len(oracle.ROLLS) == ALL
    assert set(itertools.chain.from_iterable(oracle.ROLLS)) == set(range(1, 9))
