"""FORESIGHT travel and pursuit (issue 24; catalogue foresight-2.md 1.6 #81-#92, 2.8, X28, Q14),
called as the service calls them. Seed lines are cited as F:L<n>.

The odds are checked against an independent brute force written here from the rule text: the
100 D100 faces read by the catalogue's resolution contract (section 0.1), each face (or pair of
faces) carried through the travel and pursuit tables as transcribed below from the seed."""

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from pydantic import ValidationError

from service.rules.model import InputError
from tests.rules.foresight.calls import odds, run

# --- an independent oracle --------------------------------------------------------------------


def qr_of(face: int, sc: Fraction) -> int:
    """Catalogue 0.1: QR1 <= SC/10, QR2 <= SC/5, QR3 <= SC/2, QR4 <= SC (unrounded), else QR7,
    QR10 on a multiple of 10; 99 is at best QR4; 100 is QR7 against SC >= 100, else QR10."""
    if face == 100:
        return 7 if sc >= 100 else 10
    for qr, limit in ((1, sc / 10), (2, sc / 5), (3, sc / 2), (4, sc)):
        if face <= limit and not (face == 99 and qr < 4):
            return qr
    return 10 if face % 10 == 0 else 7


def faces(sc: int) -> Counter[int]:
    """How many of the 100 faces give each QR."""
    return Counter(qr_of(face, Fraction(sc)) for face in range(1, 101))


def table(rows: list[Any]) -> dict[str, Fraction]:
    return {row.outcome: Fraction(row.exact) for row in rows}


def task(sc: int) -> dict[str, Any]:
    """A task of score 20 at the BEF that makes `sc` (EF 2 .. 5: SC 40 .. 100)."""
    assert sc % 20 == 0
    return {"task": {"score": 20, "bef": sc // 20}}


# Speeds transcribed from the seed: normal F:L3353-3355, hasty F:L3365-3368; None = mishap.
def normal_speed(qr: int, cruise: Fraction, top: Fraction) -> Fraction | None:
    return {
        1: (cruise + top) / 2,
        2: (cruise + top) / 2,
        3: cruise,
        4: cruise,
        7: cruise / 2,
        10: None,
    }[qr]


def hasty_speed(qr: int, cruise: Fraction, top: Fraction) -> Fraction | None:
    qr3 = (top + cruise) / 2
    return {1: top, 2: max(top * 9 / 10, qr3), 3: qr3, 4: cruise, 7: None, 10: None}[qr]


LEG = {"cruise_kmh": 60, "max_kmh": 100, "distance_km": 500}


# --- travel legs ------------------------------------------------------------------------------


#: Catalogue Q14 (Automobile, Cruise 60 / Max 100): mode, SC, P(QR1..QR10), E[speed | no
#: mishap], P(mishap), as printed (4 and 2 decimals).
Q14 = [
    ("leg", 40, (0.0400, 0.0400, 0.1200, 0.2000, 0.5400, 0.0600), 44.47, 0.0600),
    ("leg", 60, (0.0600, 0.0600, 0.1800, 0.3000, 0.3600, 0.0400), 51.25, 0.0400),
    ("leg", 80, (0.0800, 0.0800, 0.2400, 0.4000, 0.1800, 0.0200), 57.76, 0.0200),
    ("leg", 100, (0.1000, 0.1000, 0.3000, 0.4900, 0.0100, 0.0000), 63.70, 0.0000),
    ("hasty", 40, (0.0400, 0.0400, 0.1200, 0.2000, 0.5400, 0.0600), 73.00, 0.6000),
    ("hasty", 60, (0.0600, 0.0600, 0.1800, 0.3000, 0.3600, 0.0400), 73.00, 0.4000),
    ("hasty", 80, (0.0800, 0.0800, 0.2400, 0.4000, 0.1800, 0.0200), 73.00, 0.2000),
    ("hasty", 100, (0.1000, 0.1000, 0.3000, 0.4900, 0.0100, 0.0000), 73.13, 0.0100),
]


@pytest.mark.parametrize(("mode", "sc", "qrs", "mean", "mishap"), Q14)
def test_leg_odds_are_catalogue_q14(
    mode: str, sc: int, qrs: tuple[float, ...], mean: float, mishap: float
) -> None:
    """Catalogue Q14, every row: the QR distribution, the mean speed given no mishap and the
    chance of a mishap of a normal and a hasty leg by an Automobile (F:L3350-3370)."""
    found = odds(f"travel/{mode}", {"driving": task(sc), **LEG})
    by_qr = table(found.roll.qr)
    for qr, p in zip(("QR1", "QR2", "QR3", "QR4", "QR7", "QR10"), qrs, strict=True):
        assert round(float(by_qr.get(qr, 0)), 4) == p
    assert round(found.mean_speed_kmh_given_no_mishap.float, 2) == mean
    assert round(found.mishap.float, 4) == mishap


@pytest.mark.parametrize("mode", ["leg", "hasty"])
@pytest.mark.parametrize("sc", [20, 40, 60, 80, 100])
@pytest.mark.parametrize(("cruise", "top"), [(60, 100), (45, 70), (90, 100), (33.3, 41.5)])
def test_leg_speed_odds_are_a_brute_force_over_the_faces(
    mode: str, sc: int, cruise: float, top: float
) -> None:
    """Each of the 100 faces read by the QR contract and carried through the transcribed
    travel table; (90, 100) makes hasty QR2 the QR3 speed, 95 > 90 (F:L3366)."""
    speed = normal_speed if mode == "leg" else hasty_speed
    c, m = Fraction(str(cruise)), Fraction(str(top))
    expected: Counter[str] = Counter()
    for qr, n in faces(sc).items():
        found = speed(qr, c, m)
        expected["mishap" if found is None else str(found)] += n
    request = {"driving": task(sc), "cruise_kmh": cruise, "max_kmh": top, "distance_km": 100}
    got = odds(f"travel/{mode}", request)
    assert table(got.speed_kmh) == {k: Fraction(n, 100) for k, n in expected.items()}
    assert Fraction(got.mishap.exact) == Fraction(expected["mishap"], 100)


def test_hasty_qr2_is_ninety_percent_of_max_or_the_qr3_speed() -> None:
    """F:L3366: 90% of Max 100 is 90 > (60 + 100) / 2; with Cruise 90 the QR3 speed, 95."""
    body = {"driving": {"qr": 2}, "max_kmh": 100, "distance_km": 10}
    assert run("travel/hasty", {**body, "cruise_kmh": 60}).average_speed_kmh.exact == "90/1"
    assert run("travel/hasty", {**body, "cruise_kmh": 90}).average_speed_kmh.exact == "95/1"


def test_a_leg_longer_than_the_drivers_wp_hours_stops_after_wp_hours() -> None:
    """F:L3350: at Cruise 60 (QR3) 500 km take 8 h 20 min; a driver with WP 6 covers
    60 x 6 = 360 km in 6 h and rests or hands over."""
    found = run("travel/leg", {"driving": {"qr": 3}, **LEG, "driver_wp": 6})
    assert found.average_speed_kmh.exact == "60/1"
    assert (found.distance_covered_km.exact, found.time_h.exact) == ("360/1", "6/1")
    assert not found.completed
    found = run("travel/leg", {"driving": {"qr": 3}, **LEG, "driver_wp": 9})
    assert (found.distance_covered_km.exact, found.time_h.exact) == ("500/1", "25/3")
    assert found.completed


def test_a_leg_rolls_the_driving_task() -> None:
    """Score 12 at BEF 5 is SC 60; 23 is QR3 (<= 30): Cruise speed. QR1-QR2 give the
    average of Cruise and Max, QR7 half Cruise (F:L3353-3355)."""
    driving = {"task": {"score": 12, "bef": 5}}
    for face, speed in ((5, "80/1"), (23, "60/1"), (61, "30/1")):
        found = run("travel/leg", {"driving": driving, **LEG, "dice": {"values": [face]}})
        assert found.average_speed_kmh.exact == speed
        assert found.roll.roll == face
        assert not found.mishap


def test_normal_qr10_is_a_mishap_calling_for_a_roll_at_man() -> None:
    """F:L3358: a mishap; the driver rolls again at the vehicle's Man rating."""
    found = run("travel/leg", {"driving": {"qr": 10}, **LEG, "man": 2})
    assert found.mishap
    assert not found.completed
    assert found.average_speed_kmh is None
    assert found.distance_covered_km is None
    assert found.accident_roll.modifier == 2
    assert not found.accident_roll.serious


def test_hasty_qr7_is_a_mishap_and_qr10_a_serious_one_at_man_minus_3() -> None:
    """F:L3369-3370: QR7 a mishap at Man; QR10 a serious mishap at Man -3."""
    seven = run("travel/hasty", {"driving": {"qr": 7}, **LEG, "man": 1})
    assert seven.mishap
    assert seven.accident_roll.modifier == 1
    ten = run("travel/hasty", {"driving": {"qr": 10}, **LEG, "man": 1})
    assert ten.accident_roll.serious
    assert ten.accident_roll.modifier == -2
    assert [t.source for t in ten.accident_roll.modifiers] == ["Man", "serious mishap"]
    assert run("travel/hasty", {"driving": {"qr": 10}, **LEG}).accident_roll.modifier is None


def test_max_below_cruise_is_refused() -> None:
    with pytest.raises(InputError) as error:
        run("travel/leg", {"driving": {"qr": 1}, "cruise_kmh": 60, "max_kmh": 50, "distance_km": 1})
    assert error.value.loc == ("max_kmh",)


def test_completed_odds_count_the_wp_limit() -> None:
    """500 km with WP 6 at SC 60: only QR1-QR2 (80 km/h, 6.25 h) miss; QR3/4 at 60 km/h take
    8.3 h, so with WP 6 no QR completes it, with WP 9 QR1-QR4 do (60/100)."""
    six = odds("travel/leg", {"driving": task(60), **LEG, "driver_wp": 6})
    assert Fraction(six.completed.exact) == 0
    nine = odds("travel/leg", {"driving": task(60), **LEG, "driver_wp": 9})
    assert Fraction(nine.completed.exact) == Fraction(60, 100)


# --- navigation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("navigation", "driving", "qr", "lost"),
    [(3, 1, 3, False), (1, 4, 4, False), (7, 2, 7, False), (10, 2, 2, True), (10, 10, 10, True)],
)
def test_navigation_takes_the_worse_qr_unless_lost(
    navigation: int, driving: int, qr: int, lost: bool
) -> None:
    """F:L3348: the worse of the Navigation and driving QRs sets the duration, except that a
    navigation QR10 means the party is lost (the driving QR still stands for the vehicle)."""
    found = run("travel/navigation", {"navigation": {"qr": navigation}, "driving": {"qr": driving}})
    assert (found.qr, found.lost) == (qr, lost)


NAVIGATION = {
    "navigation": {"task": {"score": 11, "bef": 4}},
    "driving": {"task": {"score": 12, "bef": 5}},
}


def test_navigation_odds_are_a_brute_force_over_face_pairs() -> None:
    """All 100 x 100 face pairs: navigation SC 44 (11 x 4), driving SC 60 (12 x 5)."""
    expected: Counter[int] = Counter()
    lost = 0
    for n in range(1, 101):
        nq = qr_of(n, Fraction(44))
        lost += nq == 10
        for d in range(1, 101):
            dq = qr_of(d, Fraction(60))
            expected[dq if nq == 10 else max(nq, dq)] += 1
    found = odds("travel/navigation", NAVIGATION)
    assert table(found.qr) == {f"QR{q}": Fraction(k, 10_000) for q, k in expected.items()}
    assert Fraction(found.lost.exact) == Fraction(lost, 100)


def test_navigation_rolls_navigation_then_driving() -> None:
    found = run("travel/navigation", {**NAVIGATION, "dice": {"values": [37, 23]}})
    assert (found.navigation_qr, found.driving_qr, found.qr) == (4, 3, 4)


# --- range table, type conversion, speed bids -------------------------------------------------


#: F:L3419-3428 as written: range number -> foot, cars/boats, planes, ships, space.
RANGES = {
    0: ("2m", "4m", "40m", "100m", "50km"),
    1: ("10m", "20m", "200m", "500m", "500km"),
    2: ("20m", "50m", "500m", "2km", "5000km"),
    3: ("50m", "100m", "2km", "5km", "50,000km"),
    4: ("100m", "500m", "10km", "10km", "500,000km"),
    5: ("200m", "2km", "30km", "20km", "5Mkm"),
    6: ("500m", "5km", "100km", "50km", "50Mkm"),
}
SCALES = ("foot", "car_boat", "plane", "ship", "space")


@pytest.mark.parametrize("number", range(7))
@pytest.mark.parametrize("scale", SCALES)
def test_the_range_table_is_the_seed(number: int, scale: str) -> None:
    """F:L3419-3428; round length 10 s, ships and space 30 s."""
    found = run("pursuit/range-table", {"scale": scale, "range": number})
    assert found.distance == RANGES[number][SCALES.index(scale)]
    assert found.round_length_s == (30 if scale in ("ship", "space") else 10)
    assert found.may_start_at == (number <= 5)
    assert not found.lost_contact


def test_range_table_metres() -> None:
    """'50,000km' is 5e7 m, '5Mkm' 5e9 m; range 2 at car scale is 50 m (F:L3446)."""
    assert run("pursuit/range-table", {"scale": "space", "range": 3}).distance_m == 50_000_000
    assert run("pursuit/range-table", {"scale": "space", "range": 5}).distance_m == 5 * 10**9
    assert run("pursuit/range-table", {"scale": "car_boat", "range": 2}).distance_m == 50


def test_range_seven_is_lost_contact() -> None:
    """F:L3427: 'The pursuers have completely lost contact.'"""
    found = run("pursuit/range-table", {"scale": "plane", "range": 7})
    assert found.lost_contact
    assert found.distance is None
    assert found.distance_m is None


#: F:L3400-3403 as printed: (from, to) -> A, M, S.
# fmt: off
CONVERSION = {
    ("ground", "water"): (1, 1, -1), ("ground", "air"): (-3, 3, 3),
    ("ground", "space"): (-6, 4, 6), ("water", "ground"): (-1, -1, 1),
    ("water", "air"): (-4, 2, 4), ("water", "space"): (-7, 3, 6),
    ("air", "ground"): (3, -3, -3), ("air", "water"): (4, -2, -4),
    ("air", "space"): (-3, 1, 3), ("space", "ground"): (6, -4, -6),
    ("space", "water"): (7, -3, -6), ("space", "air"): (3, -1, -3),
}
# fmt: on
TYPES = ("ground", "water", "air", "space")


def add(u: tuple[int, ...], v: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(u, v, strict=True))


def convert(source: str, target: str, mode: str = "literal") -> tuple[int, int, int]:
    body = {"convert_from": source, "convert_to": target, "options": {"conversion_table": mode}}
    found = run("pursuit/type-conversion", body)
    return found.acc, found.man, found.safe


@pytest.mark.parametrize(("pair", "cell"), CONVERSION.items())
def test_type_conversion_is_the_seed_by_default(pair: tuple[str, str], cell: Any) -> None:
    """F:L3398-3403, literally (AMB2-35 default)."""
    assert convert(*pair) == cell


def test_type_conversion_consistent_reading_composes() -> None:
    """AMB2-35: with 'consistent' every pair is antisymmetric and every path composes
    (Water->Space S+7 as via Air, 4 + 3, and via Ground, 1 + 6); the printed S+6/-6 does not."""
    assert convert("water", "space", "consistent") == (-7, 3, 7)
    assert convert("space", "water", "consistent") == (7, -3, -7)
    for mode in ("literal", "consistent"):
        for a in TYPES:
            assert convert(a, a, mode) == (0, 0, 0)
            for b in TYPES:
                back = convert(b, a, mode)
                assert convert(a, b, mode) == tuple(-x for x in back)
    broken = []
    for a in TYPES:
        for b in TYPES:
            for c in TYPES:
                if add(convert(a, b), convert(b, c)) != convert(a, c):
                    broken.append((a, b, c))
                via = add(convert(a, b, "consistent"), convert(b, c, "consistent"))
                assert via == convert(a, c, "consistent")
    assert broken
    assert all({"water", "space"} <= {a, b, c} for a, b, c in broken)


def test_type_conversion_applies_to_the_ratings_given() -> None:
    """A helicopter (Acc 2, Man 4, Safe 1) chasing a car: Air -> Ground is A+3, M-3, S-3."""
    body = {
        "convert_from": "air",
        "convert_to": "ground",
        "ratings": {"acc": 2, "man": 4, "safe": 1},
    }
    found = run("pursuit/type-conversion", body)
    assert (found.converted.acc, found.converted.man, found.converted.safe) == (5, 1, -2)
    assert found.category == "Aircraft"


def test_x28_bids_minus_one_and_zero_move_range_2_to_3() -> None:
    """X28, F:L3446: two cars 50 m apart (range 2), the first bids -1, the second 0: the
    lead stretches to 100 m (range 3)."""
    found = run("pursuit/speed-bid", {"quarry_bid": -1, "pursuers": [{"bid": 0, "range": 2}]})
    assert (found.pursuers[0].range, found.pursuers[0].change) == (3, 1)
    assert run("pursuit/range-table", {"scale": "car_boat", "range": 3}).distance == "100m"


# fmt: off
BIDS = [
    (0, 0, 4, 1, 4), (0, -2, 4, 1, 2), (-3, 2, 4, 1, 7), (1, -2, 2, 1, 0),
    (-1, 0, 2, 2, 4), (0, 0, 7, 1, 7), (2, -5, 6, 1, 0),
]
# fmt: on


@pytest.mark.parametrize(("quarry", "pursuer", "start", "steps", "after"), BIDS)
def test_speed_bids_move_one_step_per_point(
    quarry: int, pursuer: int, start: int, steps: int, after: int
) -> None:
    """Equal bids keep the range; the faster moves up per point of difference (AMB2-37),
    within 0 and 7 (contact lost); a lost pursuit stays lost."""
    body = {
        "quarry_bid": quarry,
        "pursuers": [{"bid": pursuer, "range": start}],
        "options": {"range_steps_per_bid_point": steps},
    }
    found = run("pursuit/speed-bid", body).pursuers[0]
    assert found.range == after
    assert found.lost_contact == (after == 7)
    assert found.closed == (after == 0)


def test_a_bid_above_plus_two_is_refused() -> None:
    with pytest.raises(ValidationError, match="less than or equal to 2"):
        run("pursuit/speed-bid", {"quarry_bid": 3, "pursuers": [{"bid": 0, "range": 2}]})


# --- manoeuvres -------------------------------------------------------------------------------


def modifiers(found: Any) -> dict[str, int]:
    return {t.source: t.value for t in found.roll.modifiers}


def test_operate_rolls_at_bid_plus_acc() -> None:
    """F:L3463: the driving roll at the speed bid, the Acceleration modifier applying."""
    body = {
        "driving": {"task": {"score": 12, "bef": 5, "modifiers": [-1]}},
        "bid": -2,
        "acc": 1,
        "safe": -3,
        "dice": {"values": [13]},
    }
    found = run("pursuit/operate", body)
    assert modifiers(found) == {"modifier": -1, "speed bid": -2, "Acc": 1}
    assert found.roll.modifier_total == -2
    assert found.roll.ease_factor == 3.0
    assert found.qr == 3
    assert found.safety_roll_count == 0


@pytest.mark.parametrize(
    ("qr", "bid", "safe", "rolls"),
    [(3, 0, 0, 0), (7, 0, 0, 1), (3, -1, 0, 1), (10, -1, 0, 2), (4, 2, 2, 0), (7, 1, 2, 2)],
)
def test_operate_safety_rolls(qr: int, bid: int, safe: int, rolls: int) -> None:
    """F:L3463, F:L3475, AMB2-46: a failed roll is one safety roll, a bid below Safe another;
    each at +(bid - Safe)."""
    found = run("pursuit/operate", {"driving": {"qr": qr}, "bid": bid, "safe": safe})
    assert found.safety_roll_count == rolls == len(found.safety_rolls)
    assert all(r.modifier == bid - safe and r.by == "driver" for r in found.safety_rolls)
    assert found.over_safe_speed == (bid < safe)


@pytest.mark.parametrize(("bid", "safe"), [(0, 0), (-2, 0), (2, 1)])
@pytest.mark.parametrize("score", [6, 12, 18])
def test_operate_odds_are_a_brute_force(bid: int, safe: int, score: int) -> None:
    """Score x EF by hand: BEF 4 moved by bid + Acc 1 along 0, 1/4, 1/2, 1, 2, ..."""
    ladder = [Fraction(0), Fraction(1, 4), Fraction(1, 2), *map(Fraction, range(1, 16))]
    index = min(max(ladder.index(Fraction(4)) + bid + 1, 0), 17)
    sc = Fraction(int(score * ladder[index] + Fraction(1, 2)))
    count: Counter[str] = Counter()
    for face in range(1, 101):
        count[str((qr_of(face, sc) > 4) + (bid < safe))] += 1
    body = {"driving": {"task": {"score": score, "bef": 4}}, "bid": bid, "acc": 1, "safe": safe}
    found = odds("pursuit/operate", body)
    assert table(found.safety_roll_count) == {k: Fraction(n, 100) for k, n in count.items()}


def test_force_modifier_and_who_rolls() -> None:
    """F:L3464: the final bid + (Size + DS/2 + Acc) - the target's; success, the target's
    driver makes a safety roll; failure, the forcing driver. DS 3 against 2: +1/2, rounded
    half up to +1; 0 + (3 - 2) + (1 - 2) + 1 = +1."""
    body = {
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": 0,
        "safe": 0,
        "vehicle": {"size": 3, "ds": 3, "acc": 1},
        "target": {"size": 2, "ds": 2, "acc": 2, "bid": -1, "safe": 1},
        "dice": {"values": [52]},
    }
    found = run("pursuit/force", body)
    assert found.roll.modifier_total == 1
    assert found.roll.success_chance == 72
    assert found.safety_roll_by == "target"
    assert found.safety_rolls[0].modifier == -2
    failed = run("pursuit/force", {**body, "dice": {"values": [95]}})
    assert failed.safety_roll_by == "driver"
    assert failed.safety_rolls[0].modifier == 0
    assert found.safety_roll_count == failed.safety_roll_count == 1


def test_force_equal_ds_cancels() -> None:
    """DS 3 against DS 3: 1.5 - 1.5 = 0, not 2 - 2 by rounding each."""
    body = {
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": 0,
        "vehicle": {"size": 0, "ds": 3},
        "target": {"size": 0, "ds": 3},
        "dice": {"values": [1]},
    }
    assert run("pursuit/force", body).roll.modifier_total == 0
    body = {**body, "target": {"size": 0, "ds": 2}}
    assert modifiers(run("pursuit/force", body)) == {"DS/2 - target DS/2": 1}
    body = {**body, "target": {"size": 0, "ds": 4}}
    assert modifiers(run("pursuit/force", body)) == {"DS/2 - target DS/2": -1}


def test_force_needs_range_0() -> None:
    body = {"driving": {"qr": 3}, "bid": 0, "vehicle": {"size": 0, "ds": 3}}
    body |= {"target": {"size": 0, "ds": 3}, "range": 1}
    with pytest.raises(InputError) as error:
        run("pursuit/force", body)
    assert error.value.loc == ("range",)


def test_force_odds_who_rolls() -> None:
    body = {
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": 0,
        "vehicle": {"size": 3, "ds": 3, "acc": 1},
        "target": {"size": 2, "ds": 2, "acc": 2},
    }
    found = odds("pursuit/force", body)
    won = sum(qr_of(face, Fraction(72)) <= 4 for face in range(1, 101))
    assert table(found.safety_roll_by) == {
        "target": Fraction(won, 100),
        "driver": Fraction(100 - won, 100),
    }


# fmt: off
TURNS = [
    (0, "wrong_way"), (1, "wrong_way"), (2, "may_need_quick_turn"),
    (3, "may_need_quick_turn"), (4, "search_or_lose_contact"), (6, "search_or_lose_contact"),
]
# fmt: on


@pytest.mark.parametrize(("at", "effect"), TURNS)
def test_quick_turn_effect_by_range(at: int, effect: str) -> None:
    """F:L3465: 0-1 wrong way, 2-3 maybe a quick turn, 4+ a Search roll against the QR."""
    found = run("pursuit/quick-turn", {"driving": {"qr": 2}, "bid": 0, "range": at})
    assert found.effect == effect
    assert found.safety_roll_count == 0
    assert found.search_to_beat == (2 if at >= 4 else None)
    failed = run("pursuit/quick-turn", {"driving": {"qr": 7}, "bid": 0, "range": at, "safe": 1})
    assert failed.effect == "failed"
    assert failed.safety_rolls[0].modifier == -1


def test_quick_turn_rolls_at_bid_plus_man() -> None:
    body = {
        "driving": {"task": {"score": 12, "bef": 5}},
        "bid": -1,
        "man": 3,
        "range": 4,
        "dice": {"values": [17]},
    }
    found = run("pursuit/quick-turn", body)
    assert modifiers(found) == {"speed bid": -1, "Man": 3}
    assert found.roll.success_chance == 12 * 7  # BEF 5 + 2 steps = EF 7


@pytest.mark.parametrize(
    ("qr", "start", "after", "drift"),
    [(1, 5, 0, 3), (4, 1, 0, 3), (7, 5, 1, 0), (7, 2, 1, 0), (10, 1, 0, 0), (7, 0, 0, 0)],
)
def test_reverse(qr: int, start: int, after: int, drift: int) -> None:
    """F:L3466-3469: success, range 0 then +3 a round; failure, a safety roll and range 1 if
    it was higher, 0 if it was 1."""
    found = run("pursuit/reverse", {"driving": {"qr": qr}, "bid": 0, "range": start})
    assert (found.new_range, found.drift_per_round) == (after, drift)
    assert found.safety_roll_count == (qr > 4)


def test_reverse_odds_are_a_brute_force() -> None:
    """Score 12, BEF 5 moved by bid -1 + Acc 1 + Man 2 = +2 steps: EF 7, SC 84; from range 3."""
    body = {"driving": {"task": {"score": 12, "bef": 5}}, "bid": -1, "acc": 1, "man": 2, "range": 3}
    count: Counter[str] = Counter(
        "0" if qr_of(face, Fraction(84)) <= 4 else "1" for face in range(1, 101)
    )
    assert table(odds("pursuit/reverse", body).new_range) == {
        k: Fraction(n, 100) for k, n in count.items()
    }


# fmt: off
CLIMBS = [
    ("climb", 1, -1, 2), ("climb", 3, -1, 1), ("dive", 2, 1, 2),
    ("dive", 4, 1, 1), ("dive", 7, 0, 0), ("climb", 10, 0, 0),
]
# fmt: on


@pytest.mark.parametrize(("direction", "qr", "horizontal", "vertical"), CLIMBS)
def test_climb_dive(direction: str, qr: int, horizontal: int, vertical: int) -> None:
    """F:L3471: a climb loses one horizontal increment, a dive gains one; 2 vertical on
    QR1-QR2, 1 on QR3-QR4; a failure calls for a safety roll."""
    body = {"driving": {"qr": qr}, "bid": 0, "direction": direction}
    found = run("pursuit/climb-dive", body)
    assert (found.horizontal_increments, found.vertical_increments) == (horizontal, vertical)
    assert found.safety_roll_count == (qr > 4)


def test_climb_dive_needs_a_ceiling() -> None:
    with pytest.raises(InputError) as error:
        run(
            "pursuit/climb-dive",
            {"driving": {"qr": 1}, "bid": 0, "direction": "climb", "has_ceiling": False},
        )
    assert error.value.loc == ("has_ceiling",)


def test_climb_dive_odds_are_a_brute_force() -> None:
    """Score 12, BEF 4 moved by Acc 1 + Man 2 = +3 steps: EF 7, SC 84."""
    body = {
        "driving": {"task": {"score": 12, "bef": 4}},
        "bid": 0,
        "direction": "dive",
        "acc": 1,
        "man": 2,
    }
    count: Counter[str] = Counter()
    for face in range(1, 101):
        qr = qr_of(face, Fraction(84))
        count[str(2 if qr <= 2 else 1 if qr <= 4 else 0)] += 1
    found = odds("pursuit/climb-dive", body)
    assert table(found.vertical_increments) == {k: Fraction(n, 100) for k, n in count.items()}
    assert Fraction(found.success.exact) == Fraction(count["1"] + count["2"], 100)


def test_a_side_needs_a_task_or_a_qr() -> None:
    with pytest.raises(InputError) as error:
        run("pursuit/operate", {"driving": {}, "bid": 0, "safe": 0})
    assert error.value.loc == ("driving",)
