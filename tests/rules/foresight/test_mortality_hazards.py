"""FORESIGHT stamina and fatigue (catalogue foresight-2.md 2.1, X1; seed F:L2527-2558,
exposure F:L2728-2737). Odds are checked against the independent oracle (tests/rules/foresight/
oracle.py): brute force over the D100 rolls, one EN roll after another."""

import itertools
from fractions import Fraction

import pytest

from service.rules.model import InputError
from tests.rules.foresight import oracle
from tests.rules.foresight.calls import odds, run


def table(rows):
    return {row.outcome: Fraction(row.exact) for row in rows}


def test_pools_are_score_en_and_en_over_three():
    """F:L2529, F:L2544-2546: Amy's Stamina 13 with EN 7: reserve 7, threshold 7/3 -> 2."""
    found = run("stamina/pools", {"stamina_score": 13, "endurance": 7})
    assert (found.maximum, found.reserve, found.threshold) == (13, 7, 2)
    assert run("stamina/pools", {"stamina_score": 25, "endurance": 8}).threshold == 3


def test_exertion_rates_and_load():
    """F:L2537-2542: 1 per action / 5 s / minute / 5 minutes; laden x2, burdened x4."""

    def cost(level, encumbrance="unencumbered", **amount):
        body = {"condition": {"stamina": 20}, "endurance": 7, "level": level,
                "encumbrance": encumbrance, **amount}  # fmt: skip
        return run("stamina/exertion", body).cost

    assert cost("extreme", actions=3) == 3
    assert cost("heavy", seconds=60) == 12
    assert cost("heavy", "laden", seconds=60) == 24
    assert cost("heavy", "burdened", seconds=60) == 48
    assert cost("medium", seconds=150) == 2  # completed minutes only
    assert cost("light", seconds=1500) == 5
    assert cost("extreme", "burdened", actions=2) == 8
    with pytest.raises(InputError) as error:
        cost("heavy", actions=3)
    assert error.value.loc == ("seconds",)
    with pytest.raises(InputError):
        cost("heavy", "lifting", seconds=10)


def test_exertion_exhausts_and_flags_overdraw():
    """F:L2548: at 0 or below the character is exhausted; below -EN stamina/overdraw applies."""
    body = {"condition": {"stamina": 2}, "endurance": 7, "level": "heavy", "seconds": 10}
    found = run("stamina/exertion", body)
    assert (found.condition.stamina, found.exhausted, found.overdrawn) == (0, True, False)
    assert found.condition.exhausted_since_sleep
    deep = run("stamina/exertion", {**body, "seconds": 50})
    assert (deep.condition.stamina, deep.overdrawn) == (-8, True)
    with pytest.raises(InputError) as error:
        run("stamina/exertion", {**body, "condition": {}})
    assert error.value.loc == ("condition", "stamina")


@pytest.mark.parametrize(
    ("temperature", "clothing", "seconds", "degree", "cost"),
    [
        (60, "none", 600, "extreme_heat", 10),
        (45, "none", 3600, "heat", 6),
        (45, "ordinary", 3600, "heat", 3),  # 50% against heat (F:L2730)
        (0, "none", 3600, "cold", 6),
        (-10, "ordinary", 3600, "cold", 1),  # 75% against cold: 1.5 -> 1 whole point
        (-30, "none", 600, "extreme_cold", 10),
        (-35, "ordinary", 3600, "extreme_cold", 15),
        (-35, "climate_controlled", 3600, "extreme_cold", 0),
        (20, "none", 3600, None, 0),
        (39.9, "none", 3600, None, 0),
    ],
)
def test_exposure_bands(temperature, clothing, seconds, degree, cost):
    """Exposure Effects (F:L2732-2737) and clothing (F:L2730)."""
    found = run("exposure", {"condition": {"stamina": 13}, "endurance": 7,
                             "air_temperature": temperature, "seconds": seconds,
                             "clothing": clothing})  # fmt: skip
    assert (found.degree, found.cost) == (degree, cost)


def test_x1_exhausted_then_a_few_minutes_rest():
    """X1, F:L2552: currently exhausted is -2; a few minutes' rest brings stamina to threshold,
    still -1 until a good night's sleep."""
    tired = {"stamina": -3, "exhausted_since_sleep": True}
    assert run("stamina/exhaustion-modifier", {"condition": tired}).modifier == -2
    rest = {"stamina_score": 13, "endurance": 7, "rest": "few_minutes"}
    rested = run("stamina/rest", {"condition": tired, **rest}).condition
    assert (rested.stamina, rested.exhausted_since_sleep) == (2, True)
    assert run("stamina/exhaustion-modifier", {"condition": dict(rested)}).modifier == -1
    slept = run("stamina/rest", {"condition": dict(rested), **rest, "rest": "nights_sleep"})
    assert (slept.condition.stamina, slept.condition.exhausted_since_sleep) == (13, False)
    assert run("stamina/exhaustion-modifier", {"condition": {"stamina": 13}}).modifier == 0
    # A flag-less caller at 0 stamina is still -2: exhausted now means exhausted since sleep.
    assert run("stamina/exhaustion-modifier", {"condition": {"stamina": 0}}).modifier == -2


def test_half_hour_rest_to_reserve_or_by_threshold():
    """F:L2544: to reserve (EN), or up by threshold if better; capped at the pool (AMB2-14)."""
    body = {"stamina_score": 13, "endurance": 7, "rest": "half_hour"}
    assert run("stamina/rest", {"condition": {"stamina": 1}, **body}).condition.stamina == 7
    assert run("stamina/rest", {"condition": {"stamina": 9}, **body}).condition.stamina == 11
    assert run("stamina/rest", {"condition": {"stamina": 12}, **body}).condition.stamina == 13
    free = {**body, "options": {"rest_caps_at_maximum": False, "reserve_rest_minutes": 60}}
    found = run("stamina/rest", {"condition": {"stamina": 12}, **free})
    assert (found.condition.stamina, found.minutes) == (14, 60)
    hungry = {**body, "rest": "nights_sleep", "food_and_shelter": False}
    assert run("stamina/rest", {"condition": {"stamina": 1}, **hungry}).recovered == 0


def test_overdraw_resets_and_rolls_en():
    """F:L2558: below -EN stamina resets to 0 and a failed EN roll is +1 wound level. EN 7 at
    BEF 7 and the -2 of exhaustion (the reset to 0, AMB2-15) is SC 7 x 5 = 35: 75 fails."""
    body = {"condition": {"stamina": -8}, "endurance_roll": {"score": 7}, "dice": {"values": [75]}}
    found = run("stamina/overdraw", body)
    assert found.overdrawn
    assert found.endurance_rolls[0].success_chance == 35
    assert (found.condition.stamina, found.condition.wound_level, found.wound_levels) == (0, 1, 1)
    calm = run("stamina/overdraw", {**body, "condition": {"stamina": -7}, "dice": {"seed": 1}})
    assert (calm.overdrawn, calm.endurance_rolls, calm.condition.stamina) == (False, [], -7)
    chance = table(odds("stamina/overdraw", body).wound_levels)
    assert chance == {"0": Fraction(35, 100), "1": Fraction(65, 100)}


def _sleep_oracle(score, start, days):
    """Brute force over every sequence of D100 rolls, one per day: a failure (QR7/QR10) is +1
    wound level and -1 to every later roll (F:L2556, F:L2590); the dead stop rolling."""
    found: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 101), repeat=days):
        level, weight = start, Fraction(1, 100**days)
        for face in faces:
            if level >= 8:
                break
            sc = oracle.success_chance(score, 7, [-level])
            level += oracle.qr(face, sc) > 4
        found[level - start] = found.get(level - start, Fraction(0)) + weight
    return found


@pytest.mark.parametrize(("score", "start", "days"), [(9, 0, 2), (12, 6, 2), (6, 2, 2)])
def test_sleep_deprivation_odds_are_the_brute_force(score, start, days):
    body = {"condition": {"wound_level": start, "max_wound_level": start},
            "hours_without_rest": 24 * days + 23, "endurance_roll": {"score": score}}  # fmt: skip
    found = odds("fatigue/sleep-deprivation", body)
    expected = _sleep_oracle(score, start, days)
    assert table(found.wound_levels) == {str(k): p for k, p in expected.items() if p}
    dead = sum((p for k, p in expected.items() if start + k >= 8), Fraction(0))
    assert table(found.dead).get("true", Fraction(0)) == dead


def test_sleep_deprivation_rolls_once_a_day():
    """F:L2556: 72 h is three EN rolls; EN 9 at BEF 7 is SC 63, then 54 after a failure."""
    body = {"condition": {}, "hours_without_rest": 72, "endurance_roll": {"score": 9},
            "dice": {"values": [70, 50, 20]}}  # fmt: skip
    found = run("fatigue/sleep-deprivation", body)
    assert [r.success_chance for r in found.endurance_rolls] == [63, 54, 54]
    assert (found.wound_levels, found.condition.wound_level, found.dead) == (1, 1, False)


def test_half_an_hours_rest_past_the_pool_is_held_at_the_bound_a_condition_carries():
    """F:L2544: with AMB2-14's cap off a half hour adds the threshold even past the pool; the
    condition that comes back stays within what a condition may carry, to be sent again."""
    found = run("stamina/rest", {"condition": {"stamina": 10_000}, "stamina_score": 20,
                                 "endurance": 30, "rest": "half_hour",
                                 "options": {"rest_caps_at_maximum": False}})  # fmt: skip
    assert found.condition.stamina == 10_000
