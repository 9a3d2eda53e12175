"""The 4SIGHT oracle (oracle.py) against the catalogue's probabilities (4sight-4d8.md A4, A5),
transcribed into ./data, and against icepool.

A printed decimal with d digits agrees if it is within 0.5 * 10**-d (+1e-12) of the exact
value; a printed fraction or whole number must be exact. A combat distribution leaves out the
chains longer than `oracle.DEPTH` extra dice, so its probabilities are lower bounds and the
true value lies within `mass_cut` above (about 1e-16 here): that interval must meet the
printed one.
"""

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from . import oracle

DATA = Path(__file__).parent / "data"


@cache
def load(name: str) -> Any:
    return json.loads((DATA / f"{name}.json").read_text())


def agrees(value: Fraction, printed: str, cut: Fraction = Fraction(0)) -> bool:
    """Whether [value, value + cut] meets the printed number's rounding interval."""
    if "." in printed:
        digits = len(printed.split(".")[1])
        tol = Fraction(1, 2 * 10**digits) + Fraction(1, 10**12)
    else:
        tol = Fraction(0)  # "5/54", "0", "1": exact
    exact = Fraction(printed)
    return value - tol <= exact <= value + cut + tol


def misses(found: dict[Any, Fraction], printed: dict[Any, str], cut=Fraction(0)) -> list[str]:
    """The entries that disagree, as readable text (empty when all agree)."""
    return [
        f"{key}: printed {printed[key]}, oracle {float(found[key]):.8f}"
        for key in printed
        if not agrees(found[key], printed[key], cut)
    ]


def rows_of(name: str, table: str) -> list[tuple[str, dict[str, Any]]]:
    return [(expertise, row) for expertise, rows in load(name)[table].items() for row in rows]


def row_id(case: Any) -> str:
    return f"{case[0]}-t{case[1]['trait']}"


# --- A5.2 / A5.3: P(success) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "case"),
    [
        (name, case)
        for name in ("a5_2_plain", "a5_3_controlled")
        for case in rows_of(name, "tables")
    ],
    ids=lambda x: x if isinstance(x, str) else row_id(x),
)
def test_success_tables(name, case):
    """A5.2 (no manifestation) and A5.3 (controlled manifestation), non-combat: P(result >=
    TN) = P(success), S:L36, L140."""
    table = load(name)
    expertise, row = case
    outcomes = oracle.check_outcomes(
        row["trait"],
        1 + table["expertise_dice"][expertise],
        manifestation=table["check"]["manifestation"],
    )
    found = {tn: oracle.p_at_least(outcomes, tn) for tn in table["tns"]}
    assert not misses(found, dict(zip(table["tns"], row["p"], strict=True)))


def test_adverse_episode_can_still_succeed():
    """A3.1 edge case: t = 6, specialty, TN 4 with a manifestation: 5/6 + 1/1296 (S-A08)."""
    outcomes = oracle.check_outcomes(6, 3, manifestation="controlled")
    assert oracle.p_at_least(outcomes, 4) == Fraction(5, 6) + Fraction(1, 1296)


# --- A5.4: degrees at TN 7 -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "case"),
    [
        (table, case)
        for table in ("without_manifestation", "controlled_manifestation")
        for expertise, rows in load("a5_4_degrees")[table]["tables"].items()
        for case in ((expertise, row) for row in rows)
    ],
    ids=lambda x: x if isinstance(x, str) else row_id(x),
)
def test_degree_tables(table, case):
    """A5.4: fail/Bare/Moderate/Good/Excellent/Perfect at TN 7 (S:L152-159)."""
    data = load("a5_4_degrees")
    expertise, row = case
    manifestation = "none" if table == "without_manifestation" else "controlled"
    dice = 1 + data["expertise_dice"][expertise]
    outcomes = oracle.check_outcomes(row["trait"], dice, manifestation=manifestation)
    printed = {degree: row[degree] for degree in data["degrees"]}
    assert not misses(oracle.degrees(outcomes, data["tn"]), printed)


@pytest.mark.parametrize("mode", oracle.MODES)
def test_crossbow_by_manifestation_mode(mode):
    """A5.4 Crossbow-type check (Int 4, specialty, TN 7), exact, by mode (S:L140-148)."""
    crossbow = load("a5_4_degrees")["crossbow"]
    outcomes = oracle.check_outcomes(crossbow["trait"], crossbow["dice"], manifestation=mode)
    found = oracle.degrees(outcomes, crossbow["tn"])
    assert found == {k: Fraction(v) for k, v in crossbow["modes"][mode].items()}


# --- A4: the examples' oracle probabilities ------------------------------------------------


def test_crossbow_figures():
    """A4 / E4 (S:L171): Bare 5/54, Moderate 161/216, Good 35/216 and it cannot fail."""
    found = oracle.degrees(oracle.check_outcomes(4, 3), 7)
    assert found["bare"] == Fraction(5, 54)
    assert found["moderate"] == Fraction(161, 216)
    assert found["good"] == Fraction(35, 216)
    assert found["fail"] == 0


@pytest.mark.parametrize("case", ["without_manifestation", "accelerated_computation"])
def test_a4_crossbow(case):
    """A4 closing paragraph: Crossbow (E4, E5; S:L171-173) without and with a manifestation."""
    crossbow = load("a4_examples")["crossbow"]
    printed = dict(crossbow[case])
    manifestation = printed.pop("manifestation", "none")
    outcomes = oracle.check_outcomes(
        crossbow["trait"], crossbow["dice"], manifestation=manifestation
    )
    assert not misses(oracle.degrees(outcomes, crossbow["tn"]), printed)


@pytest.mark.parametrize("case", ["without_manifestation", "accelerated_computation"])
def test_a4_megabyte(case):
    """A4 closing paragraph: Megabyte vs the terrorist (E6, E7; S:L181-183, S-A14, S-A15)."""
    example = load("a4_examples")["megabyte_vs_terrorist"]
    printed = dict(example[case])
    manifestation = printed.pop("manifestation", "none")
    decimal = printed.pop("loses_decimal", None)
    aggressor = oracle.check_outcomes(**example["aggressor"], manifestation=manifestation)
    opponent = oracle.check_outcomes(**example["opponent"])
    result = oracle.opposed(aggressor, opponent)
    loses = sum((p for (winner, _), p in result.items() if winner == "opponent"), Fraction(0))
    found = {"loses": loses}
    found |= {degree: p for (winner, degree), p in result.items() if winner == "aggressor"}
    assert sum(result.values()) == 1
    assert not misses(found, printed)
    if decimal is not None:
        assert agrees(found["loses"], decimal)


# --- A5.5: exploding pools -------------------------------------------------------------------


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_exploding_pools(dice):
    """A5.5: P(pool >= k) for 1..4 unhurt exploding dice (S:L191, A3.15)."""
    table = load("a5_5_exploding")
    pool = oracle.exploding_pool(dice)
    cut = oracle.mass_cut(pool)
    column = table["dice"].index(dice)
    found = {
        r["k"]: sum((p for v, p in pool.items() if v >= r["k"]), Fraction(0)) for r in table["rows"]
    }
    printed = {r["k"]: r["p"][column] for r in table["rows"]}
    assert not misses(found, printed, cut)


def test_mass_cut_is_the_chains_left_out():
    """Each die leaves out the chains of more than DEPTH sixes: 6**-(DEPTH + 1)."""
    kept = 1 - Fraction(1, 6 ** (oracle.DEPTH + 1))
    for dice in range(1, 5):
        assert oracle.mass_cut(oracle.exploding_pool(dice)) == 1 - kept**dice
    assert float(oracle.mass_cut(oracle.exploding_pool(4))) < 2e-16


def test_exploding_die_closed_form():
    """A3.15, unpenalised: P(X >= 6k + r) = 6**-k (7 - r) / 6 for r in 1..6."""
    die = oracle.exploding_die()
    cut = oracle.mass_cut(die)
    for k in range(4):
        for r in range(1, 7):
            found = sum(p for v, p in die.items() if v >= 6 * k + r)
            assert found <= Fraction(7 - r, 6 * 6**k) <= found + cut


@pytest.mark.parametrize("penalty", [0, 1, 2, 3, 4])
def test_exploding_die_mean(penalty):
    """A3.15: the mean of a penalised exploding die is 1.2 (3.5 - p)."""
    die = oracle.exploding_die(penalty)
    mean = sum(v * p for v, p in die.items())
    assert abs(mean - Fraction(6, 5) * (Fraction(7, 2) - penalty)) < Fraction(1, 10**13)


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize(("penalty", "floor"), [(0, None), (2, None), (4, None), (4, 0), (3, 1)])
def test_exploding_pool_matches_icepool(dice, penalty, floor):
    """Two computations of an unbounded exploding pool: chains by hand with convolution,
    and icepool's explode. They differ only where each truncates: within 1e-15."""
    mine = oracle.exploding_pool(dice, penalty, floor)
    theirs = oracle.icepool_dist(oracle.icepool_exploding_pool(dice, penalty, floor))
    tol = Fraction(1, 10**15)
    for value in mine.keys() | theirs.keys():
        assert abs(mine.get(value, Fraction(0)) - theirs.get(value, Fraction(0))) <= tol
    lowest, highest = min(theirs), max(theirs)
    for k in range(lowest, highest + 2):
        mine_at_least = sum((p for v, p in mine.items() if v >= k), Fraction(0))
        theirs_at_least = sum((p for v, p in theirs.items() if v >= k), Fraction(0))
        assert abs(mine_at_least - theirs_at_least) <= tol


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("penalty", [0, 3])
def test_single_chain_matches_icepool_exactly(dice, penalty):
    """S-A16 `single`: one extra, non-exploding die per 6. Finite, so both are exact."""
    mine = oracle.exploding_pool(dice, penalty, chain="single")
    theirs = oracle.icepool_exploding_pool(dice, penalty, chain="single")
    assert mine == oracle.icepool_dist(theirs)
    assert oracle.mass_cut(mine) == 0


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("penalty", [0, 2])
def test_plain_pool_matches_icepool(dice, penalty):
    """Non-combat pools (A5.1), brute force against icepool, exactly."""
    theirs = oracle.icepool_dist(oracle.icepool_plain_pool(dice, penalty))
    assert oracle.plain_pool(dice, penalty) == theirs


# --- A5.6: combat matchups ---------------------------------------------------------------


def side(spec: dict[str, Any]) -> oracle.Outcomes:
    """One side of a matchup: the base die, the expertise dice and the Omega die explode."""
    return oracle.check_outcomes(
        spec["trait"],
        1 + spec["expertise_dice"] + int(spec["omega"]),
        penalty=spec["penalty"],
        manifestation=spec["manifestation"],
        manifestation_die_explodes=spec["manifestation_die_explodes"],
        combat=True,
    )


@pytest.mark.parametrize("row", load("a5_6_matchups")["rows"], ids=lambda row: row["id"])
def test_matchups(row):
    """A5.6: no hit / Minor / Moderate / Severe / Grievous (S:L189-197; ties hit, S-A18)."""
    attacker, defender = side(row["attacker"]), side(row["defender"])
    cut = oracle.mass_cut(attacker) + oracle.mass_cut(defender)
    assert cut < Fraction(3, 10**16)  # the catalogue's stated truncation error
    found = oracle.combat(attacker, defender)
    assert not misses(found, row["p"], cut)
    for key, exact in row.get("exact", {}).items():
        assert abs(found[key] - Fraction(exact)) <= cut


def test_two_dex_1_fighters():
    """A5 method cross-check (i): single exploding dice tie with P 1/7, so no hit = 3/7."""
    fighter = oracle.check_outcomes(1, 1, combat=True)
    assert abs(float(oracle.combat(fighter, fighter)["no_hit"]) - 3 / 7) <= 1e-12


def test_8c_is_not_the_add_to_base_reading():
    """A5.6 row 8c is reproduced with the extra die added after the x6 (6 * base + X);
    added to the base before multiplying, 6 * (base + X), Severe and Grievous miss."""
    row = next(r for r in load("a5_6_matchups")["rows"] if r["id"] == "8c")
    spec = row["attacker"] | {"manifestation_die_explodes": "add_to_base"}
    found = oracle.combat(side(spec), side(row["defender"]))
    assert misses(found, row["p"], Fraction(1, 10**15))


# --- A5.7: the grievous-injury Constitution check ---------------------------------------


@pytest.mark.parametrize("row", load("a5_7_grievous")["rows"], ids=lambda row: f"con{row['con']}")
def test_grievous_con_check(row):
    """A5.7: Con check at TN 7, one die, by S-A20 (new -4 penalty) and S-A17 (exploding)."""
    table = load("a5_7_grievous")
    found, printed, cut = {}, {}, Fraction(0)
    for name, column in table["columns"].items():
        outcomes = oracle.check_outcomes(
            row["con"], table["dice"], penalty=column["penalty"], combat=column["combat"]
        )
        found[name] = oracle.p_at_least(outcomes, table["tn"])
        printed[name] = row[name]
        cut = max(cut, oracle.mass_cut(outcomes))
    assert not misses(found, printed, cut)


# --- A5.8: penalties ------------------------------------------------------------------------


@pytest.mark.parametrize("row", load("a5_8_penalties")["average_person"]["rows"], ids=str)
def test_average_person_penalties(row):
    """A5.8: the TN guide of S:L121-128 for t = 0 under a penalty per die (S:L201-207)."""
    table = load("a5_8_penalties")["average_person"]
    outcomes = oracle.check_outcomes(table["trait"], table["dice"], penalty=row["penalty"])
    found = {tn: oracle.p_at_least(outcomes, tn) for tn in table["tns"]}
    assert not misses(found, dict(zip(table["tns"], row["p"], strict=True)))


@pytest.mark.parametrize("floor", ["none", "0", "1"])
def test_die_floor(floor):
    """A5.8, S-A19(ii): t = 3, specialty, -4 per die, TN 7, by die floor."""
    case = load("a5_8_penalties")["die_floor"]
    printed = case["floors"][floor]
    outcomes = oracle.check_outcomes(
        case["trait"],
        case["dice"],
        penalty=case["penalty"],
        floor=None if floor == "none" else int(floor),
    )
    found = oracle.p_at_least(outcomes, case["tn"])
    assert found == Fraction(printed["exact"])
    assert agrees(found, printed["decimal"])
    if "minimum_result" in printed:
        assert min(oracle.results(outcomes)) == printed["minimum_result"]


def test_penalised_trigger_dice():
    """A5.8: what the trigger dice would do if penalties applied to them (not the default)."""
    data = load("a5_8_penalties")["penalised_trigger_dice"]
    for penalty, printed in enumerate(data["deep_sight_trigger_p_by_penalty"]):
        fires = sum(Fraction(1, 6) for f in oracle.FACES if oracle.contribution(f, penalty) >= 5)
        assert fires == Fraction(printed)
    for penalty, (low, high) in data["multiplier_faces_2_to_6_by_penalty"].items():
        faces = [oracle.contribution(f, int(penalty)) for f in range(2, 7)]
        assert (faces[0], faces[-1]) == (low, high)


def test_other_exact_facts():
    """A5.8: P(adverse) 1/6 per controlled use and 1/18 per Flare check; Deep Sight doubles
    with P 1/3 (S:L140-148)."""
    facts = load("a5_8_penalties")["other_exact_facts"]

    def adverse(mode: str) -> Fraction:
        outcomes = oracle.check_outcomes(2, 1, manifestation=mode)
        return sum((p for (_, flag), p in outcomes.items() if flag), Fraction(0))

    assert adverse("controlled") == Fraction(facts["p_adverse_per_controlled_use"])
    assert adverse("precognitive_flare") == Fraction(
        facts["p_adverse_per_check_precognitive_flare"]
    )
    assert adverse("deep_sight") == 0
    doubled = oracle.check_outcomes(10, 0, manifestation="deep_sight")  # no dice: base 10
    assert doubled[20, False] == Fraction(facts["p_deep_sight_doubles"])


def test_non_combat_distributions_are_complete():
    """Brute force leaves nothing out."""
    for mode in oracle.MODES:
        assert oracle.mass_cut(oracle.check_outcomes(1, 4, manifestation=mode)) == 0
