"""The service's 4SIGHT odds against the catalogue's tables (4sight-4d8.md A4, A5.2-A5.8,
transcribed in data/) and against the independent oracle (oracle.py: brute force for
non-exploding checks, chains to depth 20 and icepool for exploding ones)."""

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from service.rules.four_sight.checks import check, opposed_check
from service.rules.four_sight.combat import attack, grievous_check
from tests.rules.four_sight import oracle
from tests.rules.four_sight.rulebook import near, odds, roller, table

DATA = Path(__file__).parent / "data"
LABELS = {"failure": "fail"}  # the service says 'failure' where the tables say 'fail'


def load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def check_odds(trait: int, dice: int, tn: int, **spec: Any) -> Any:
    options = spec.pop("options", {})
    combat = spec.pop("combat", False)
    payload = {**roller(trait, dice, **spec), "target_number": tn, "combat": combat}
    return odds(check, {**payload, "options": options})


def degrees(result: Any) -> dict[str, Fraction]:
    return {LABELS.get(k, k): v for k, v in table(result.degree).items()}


# A5.2, A5.3: P(success) by trait, expertise and TN, non-combat.


@pytest.mark.parametrize(
    ("name", "manifestation"), [("a5_2_plain.json", "none"), ("a5_3_controlled.json", "controlled")]
)
def test_success_tables(name, manifestation):
    data = load(name)
    for expertise, rows in data["tables"].items():
        dice = data["expertise_dice"][expertise]
        for row in rows:
            for tn, printed in zip(data["tns"], row["p"], strict=True):
                found = check_odds(row["trait"], dice, tn, manifestation=manifestation)
                success = Fraction(found.success.exact)
                assert near(printed, success), (expertise, row["trait"], tn, printed, success)
                brute = oracle.check_outcomes(row["trait"], dice + 1, manifestation=manifestation)
                assert success == oracle.p_at_least(brute, tn)


# A5.4: degree distributions at TN 7, and the Crossbow check under every mode.


def test_degree_tables_at_tn_7():
    data = load("a5_4_degrees.json")
    for key, manifestation in (("without_manifestation", "none"),
                               ("controlled_manifestation", "controlled")):  # fmt: skip
        for expertise, rows in data[key]["tables"].items():
            for row in rows:
                dice = data["expertise_dice"][expertise]
                found = degrees(check_odds(row["trait"], dice, 7, manifestation=manifestation))
                for degree in data["degrees"]:
                    assert near(row[degree], found.get(degree, Fraction(0))), (row, degree)


@pytest.mark.parametrize("mode", ["none", "controlled", "deep_sight", "precognitive_flare"])
def test_crossbow_by_mode_exactly(mode):
    """Crossbow (S:L171-173): Int 4 with a specialty against TN 7, under each manifestation."""
    expected = load("a5_4_degrees.json")["crossbow"]["modes"][mode]
    found = degrees(check_odds(4, 2, 7, manifestation=mode, trait_name="intelligence"))
    assert {k: Fraction(v) for k, v in expected.items() if Fraction(v)} == found


def test_adverse_episode_rates():
    """A5.8: 1/6 per controlled use, 1/18 per check with Precognitive Flare; none for Deep
    Sight."""
    for mode, rate in (("controlled", "1/6"), ("precognitive_flare", "1/18"), ("deep_sight", "0")):
        found = check_odds(2, 1, 7, manifestation=mode)
        assert Fraction(found.adverse_episode.exact) == Fraction(rate)


# A5.5: exploding pools.


def test_exploding_pools():
    """A5.5: P(pool >= k) for 1-4 exploding dice, unhurt (dice 4 = specialty + Omega)."""
    data = load("a5_5_exploding.json")
    for dice in data["dice"]:
        expertise, omega = min(dice - 1, 2), dice == 4
        brute = oracle.check_outcomes(0, dice, combat=True)
        for row in data["rows"]:
            found = check_odds(0, expertise, row["k"], omega=omega, combat=True)
            success = Fraction(found.success.exact)
            assert Fraction(found.truncation.mass_cut.exact) < Fraction(1, 10**12)
            assert near(row["p"][dice - 1], success), (dice, row["k"])
            assert abs(success - oracle.p_at_least(brute, row["k"])) < Fraction(1, 10**12)


# A5.6: combat matchups.


def side(spec: dict[str, Any]) -> dict[str, Any]:
    return roller(
        spec["trait"], spec["expertise_dice"], penalty=spec["penalty"], omega=spec["omega"],
        manifestation=spec["manifestation"],
    )  # fmt: skip


@pytest.mark.parametrize("row", load("a5_6_matchups.json")["rows"], ids=lambda row: row["id"])
def test_combat_matchups(row):
    explodes = row["attacker"]["manifestation_die_explodes"]
    found = odds(attack, {
        "attacker": side(row["attacker"]), "defender": side(row["defender"]),
        "options": {"manifestation_die_explodes": explodes},
    })  # fmt: skip
    injury = table(found.injury)
    assert Fraction(found.truncation.mass_cut.exact) < Fraction(1, 10**12)
    for column, printed in row["p"].items():
        assert near(printed, injury.get(column, Fraction(0)), slack=1e-12), column
    for column, value in row.get("exact", {}).items():
        assert abs(injury[column] - Fraction(value)) < Fraction(1, 10**12)


def test_two_dex_1_fighters_miss_three_times_in_seven():
    """Two identical single exploding dice tie with probability 1/7, so the defender wins
    3/7 (A5 method note)."""
    dex1 = roller(1)
    found = odds(attack, {"attacker": dex1, "defender": dex1})
    assert abs(table(found.injury)["no_hit"] - Fraction(3, 7)) < Fraction(1, 10**12)
    cut = Fraction(found.truncation.mass_cut.exact)
    assert Fraction(found.hit.exact) + table(found.injury)["no_hit"] + cut == 1


# A5.7: the grievous Constitution check.


@pytest.mark.parametrize("row", load("a5_7_grievous.json")["rows"], ids=lambda r: str(r["con"]))
def test_grievous_check(row):
    columns = load("a5_7_grievous.json")["columns"]
    for name, column in columns.items():
        payload = {
            **roller(row["con"], trait_name="constitution"),
            "combat": column["combat"],
            "options": {"grievous_check_includes_new_penalty": column["penalty"] == 4},
        }
        found = odds(grievous_check, payload)
        assert near(row[name], Fraction(found.functions.exact)), (name, row)


# A5.8: penalties and the die floor.


def test_average_person_under_injury():
    data = load("a5_8_penalties.json")["average_person"]
    for row in data["rows"]:
        for tn, printed in zip(data["tns"], row["p"], strict=True):
            found = check_odds(0, 0, tn, penalty=row["penalty"])
            assert Fraction(found.success.exact) == Fraction(printed)


@pytest.mark.parametrize("floor", ["none", "0", "1"])
def test_die_floor(floor):
    """t = 3, specialty, -4 per die, TN 7: 5/108, 19/216 or 91/216 by S-A19(ii)."""
    data = load("a5_8_penalties.json")["die_floor"]
    found = check_odds(3, 2, 7, penalty=4, options={"die_floor": floor})
    assert Fraction(found.success.exact) == Fraction(data["floors"][floor]["exact"])


# A4: the seed's examples as odds.


def test_megabyte_against_the_terrorist():
    """Megabyte (Int 3, Sciences affinity) hacks against the terrorist (Int 1, computers
    specialty), S:L181-183."""
    data = load("a4_examples.json")["megabyte_vs_terrorist"]
    for key, mode in (("without_manifestation", "none"), ("accelerated_computation", "controlled")):
        found = odds(opposed_check, {
            "aggressor": roller(3, 1, manifestation=mode, trait_name="intelligence"),
            "opponent": roller(1, 2, trait_name="intelligence"),
        })  # fmt: skip
        outcome = table(found.outcome)
        loses = sum((p for o, p in outcome.items() if o.startswith("opponent")), Fraction(0))
        assert near(data[key]["loses"], loses)
        for degree in ("bare", "moderate", "good", "excellent", "perfect"):
            if degree in data[key]:
                assert near(data[key][degree], outcome.get(f"aggressor:{degree}", Fraction(0)))


# Matchups beyond the tables, against the oracle.

CASES = random.Random(4).sample(
    [
        (t, x, p, m)
        for t in (-2, 0, 3, 7)
        for x in (0, 1, 2)
        for p in (0, 1, 3)
        for m in ("none", "controlled", "deep_sight", "precognitive_flare")
    ],
    24,
)


@pytest.mark.parametrize(("trait", "expertise", "penalty", "mode"), CASES)
def test_random_checks_match_brute_force(trait, expertise, penalty, mode):
    found = check_odds(trait, expertise, 9, penalty=penalty, manifestation=mode)
    brute = oracle.check_outcomes(trait, expertise + 1, penalty=penalty, manifestation=mode)
    assert degrees(found) == {k: v for k, v in oracle.degrees(brute, 9).items() if v}
    results = {int(k): v for k, v in table(found.result).items()}
    assert results == {k: v for k, v in oracle.results(brute).items() if v}


@pytest.mark.parametrize(("trait", "expertise", "penalty", "mode"), CASES[:8])
def test_random_attacks_match_the_oracle(trait, expertise, penalty, mode):
    mode = "controlled" if mode != "none" else mode  # in combat the declared one matters
    attacker = roller(trait, expertise, penalty=penalty, manifestation=mode)
    defender = roller(2, 1)
    found = table(odds(attack, {"attacker": attacker, "defender": defender}).injury)
    a = oracle.check_outcomes(trait, expertise + 1, penalty=penalty, manifestation=mode,
                              combat=True)  # fmt: skip
    d = oracle.check_outcomes(2, 2, combat=True)
    expected = oracle.combat(a, d)
    for label, value in expected.items():
        assert abs(found.get(label, Fraction(0)) - value) < Fraction(1, 10**12), label


@pytest.mark.parametrize(("trait", "expertise", "penalty", "mode"), CASES[8:14])
def test_random_opposed_checks_match_brute_force(trait, expertise, penalty, mode):
    aggressor = roller(trait, expertise, penalty=penalty, manifestation=mode)
    opponent = roller(3, 1)
    found = table(odds(opposed_check, {"aggressor": aggressor, "opponent": opponent}).outcome)
    a = oracle.check_outcomes(trait, expertise + 1, penalty=penalty, manifestation=mode)
    expected = oracle.opposed(a, oracle.check_outcomes(3, 2))
    assert found == {f"{w}:{d}": p for (w, d), p in expected.items() if p}
