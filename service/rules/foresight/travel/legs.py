"""Long-distance travel (F:L3342-3382): a journey in legs of at most the driver's WP hours,
each with one driving roll that gives the leg's average speed or a mishap, normal
(unhurried) or hasty; and the navigation roll in unfamiliar country (F:L3348).

A leg's speeds are the vehicle's Cruise and Max already adjusted for terrain
(`foresight.vehicle.terrain_performance`). A mishap calls for a second driving roll at the
vehicle's Man rating (-3 more after a hasty QR10) read on the Accident Avoidance table
(`foresight.travel.accident`, F:L3372-3380): the result says so and does not make it.
"""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, contest_cost, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import MAX_SCORE
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Prepared, Resolution, Side, prepare
from service.rules.foresight.travel.driving import (
    ONE_ROLL,
    Rating,
    one_roll_cost,
)
from service.rules.model import InputError, Model, at_least
from service.rules.registry import Kind, Reading, Table, operation
from service.rules.tables import table

__all__ = ["HASTY", "NORMAL", "covered", "effective_qr", "leg_speed"]

#: The fastest speed and the longest leg a request may describe (km/h, km): beyond any
#: spacecraft's, so nothing reachable is unbounded.
MAX_SPEED = 1_000_000_000
#: The slowest (1 m/h): a leg's hours stay within what a float can show.
MIN_SPEED = 0.001


Speed = Annotated[float, Field(gt=0, le=MAX_SPEED), at_least(MIN_SPEED, "a speed (km/h)")]
#: Limits stay within GraphQL's 32-bit Int, in which the catalogue publishes them.
MAX_DISTANCE = 10**9
#: The Accident Avoidance roll after a hasty QR10 is at Man -3 (F:L3370).
SERIOUS_MISHAP = -3


class TravelSpeed(StrEnum):
    CRUISE_MAX_AVERAGE = "cruise_max_average"
    CRUISE = "cruise"
    HALF_CRUISE = "half_cruise"
    MAX = "max"
    NINETY_PERCENT_MAX = "ninety_percent_max"


class TravelMishap(StrEnum):
    NONE = "none"
    MISHAP = "mishap"
    SERIOUS = "serious"


class TravelRow(Model):
    qr: QR
    speed: TravelSpeed | None
    mishap: TravelMishap
    text: str


NORMAL = table(__name__, "travel-normal", TravelRow)
HASTY = table(__name__, "travel-hasty", TravelRow)


def _row(rows: Table[TravelRow], qr: QR) -> TravelRow:
    return next(row for row in rows if row.qr is qr)


def leg_speed(rule: TravelSpeed, cruise: Fraction, top: Fraction) -> Fraction:
    """A leg's average speed by the travel tables (F:L3353-3355, F:L3365-3368); hasty QR2 is
    90% of Max, or the QR3 speed if that is higher (F:L3366)."""
    average = (cruise + top) / 2
    speeds = {
        TravelSpeed.CRUISE_MAX_AVERAGE: average,
        TravelSpeed.CRUISE: cruise,
        TravelSpeed.HALF_CRUISE: cruise / 2,
        TravelSpeed.MAX: top,
        TravelSpeed.NINETY_PERCENT_MAX: max(Fraction(9, 10) * top, average),
    }
    return speeds[rule]


def covered(speed: Fraction, distance: Fraction, hours: int | None) -> tuple[Fraction, Fraction]:
    """(km covered, hours taken): the whole journey in distance / speed hours if that is
    within the driver's WP hours, else speed x WP km in WP hours (F:L3350)."""
    time = distance / speed
    if hours is None or time <= hours:
        return distance, time
    return speed * hours, Fraction(hours)


def _decimal(value: float) -> Fraction:
    """A decimal the caller typed, exactly (62.5 is 125/2)."""
    return Fraction(str(value))


class TravelLegInput(Model):
    driving: Side = Field(
        description="The driving roll: the vehicle skill as a task (Groundcraft (DX+PC)/2 BEF "
        "E+3, Aircraft (DX+PC)/2 BEF G+2, ...), or its QR rolled at the table; the QR from "
        "'travel/navigation' in unfamiliar country (F:L3348)."
    )
    cruise_kmh: Speed = Field(description="Cruise, adjusted for terrain.")
    max_kmh: Speed = Field(description="Max, adjusted for terrain.")
    distance_km: float = Field(ge=0, le=MAX_DISTANCE, description="What is left of the journey.")
    driver_wp: int | None = Field(
        default=None,
        ge=1,
        le=MAX_SCORE,
        description="The driver's WP: a leg lasts at most WP hours, then the driver rests or "
        "is relieved (F:L3346); null: no limit.",
    )
    man: Rating | None = Field(
        default=None, description="The vehicle's Man rating, to state the accident roll's modifier."
    )
    options: ResolutionOptions = Field(default=ResolutionOptions())


class AccidentRollDue(Model):
    """The second driving roll a mishap calls for, read on the Accident Avoidance table by
    `foresight.travel.accident` (F:L3372-3380)."""

    serious: bool = Field(description="A hasty QR10: a serious mishap, at Man -3 (F:L3370).")
    modifiers: list[Term] = Field(description="The vehicle's Man rating, and -3 if serious.")
    modifier: int | None = Field(description="Their sum; null when 'man' was not given.")


class TravelLeg(Model):
    roll: Resolution | None = Field(description="The driving roll; null when its QR was given.")
    qr: QR
    result: str = Field(description="The travel table's line for the QR.")
    mishap: bool
    accident_roll: AccidentRollDue | None = Field(description="The roll a mishap calls for.")
    average_speed_kmh: Exact | None = Field(description="Null after a mishap.")
    hours_allowed: int | None = Field(description="The driver's WP: the longest the leg lasts.")
    distance_covered_km: Exact | None = Field(description="Null after a mishap.")
    time_h: Exact | None = Field(description="Null after a mishap.")
    completed: bool = Field(description="The journey ends within this leg, without mishap.")


def _accident(row: TravelRow, man: int | None) -> AccidentRollDue | None:
    if row.mishap is TravelMishap.NONE:
        return None
    serious = row.mishap is TravelMishap.SERIOUS
    found = [Term(source="Man", value=man if man is not None else 0)]
    found += [Term(source="serious mishap", value=SERIOUS_MISHAP)] if serious else []
    total = None if man is None else sum(t.value for t in found)
    return AccidentRollDue(serious=serious, modifiers=found, modifier=total)


def _check_speeds(request: TravelLegInput) -> tuple[Fraction, Fraction]:
    cruise, top = _decimal(request.cruise_kmh), _decimal(request.max_kmh)
    if top < cruise:
        raise InputError(("max_kmh",), "Max speed is below Cruise speed")
    return cruise, top


def _driving(request: TravelLegInput) -> Prepared:
    return prepare(request.driving, request.options, "driving", purpose="driving")


def _leg(request: TravelLegInput, rows: Table[TravelRow], dice: Dice) -> TravelLeg:
    cruise, top = _check_speeds(request)
    rolled = _driving(request).roll(dice)
    row = _row(rows, rolled.qr)
    speed = distance = time = None
    completed = False
    if row.speed is not None:
        found = leg_speed(row.speed, cruise, top)
        way, hours = covered(found, _decimal(request.distance_km), request.driver_wp)
        speed, distance, time = exact(found), exact(way), exact(hours)
        completed = way == _decimal(request.distance_km)
    return TravelLeg(
        roll=rolled.resolution,
        qr=rolled.qr,
        result=row.text,
        mishap=row.mishap is not TravelMishap.NONE,
        accident_roll=_accident(row, request.man),
        average_speed_kmh=speed,
        hours_allowed=request.driver_wp,
        distance_covered_km=distance,
        time_h=time,
        completed=completed,
    )


class TravelLegOdds(Model):
    roll: QualityOdds
    speed_kmh: list[OutcomeProbability] = Field(
        description="The leg's average speed in km/h, or 'mishap' (catalogue Q14)."
    )
    mishap: Exact
    completed: Exact = Field(description="P(the journey ends within this leg, no mishap).")
    mean_speed_kmh_given_no_mishap: Exact | None = Field(
        description="E[average speed | no mishap] (catalogue Q14); null if a mishap is certain."
    )


#: How a speed reads as an outcome of `speed_kmh`: km/h as a fraction, or 'mishap'.
MISHAP = "mishap"


def _speed_label(speed: Fraction | None) -> str:
    return MISHAP if speed is None else str(speed)


def _leg_odds(request: TravelLegInput, rows: Table[TravelRow]) -> TravelLegOdds:
    cruise, top = _check_speeds(request)
    distance = _decimal(request.distance_km)
    qrs = _driving(request).distribution()

    def speed(qr: QR) -> Fraction | None:
        rule = _row(rows, qr).speed
        return None if rule is None else leg_speed(rule, cruise, top)

    speeds = qrs.map(speed)
    order = list(dict.fromkeys(_speed_label(speed(qr)) for qr in QR))
    safe = [(s, w) for s, w in speeds.items() if s is not None]
    weight = sum(w for _, w in safe)
    mean = sum(s * w for s, w in safe) / weight if weight else None
    done = speeds.probability_where(
        lambda s: s is not None and covered(s, distance, request.driver_wp)[0] == distance
    )
    return TravelLegOdds(
        roll=quality_odds(qrs),
        speed_kmh=outcome_table(speeds.map(_speed_label), order),
        mishap=exact(speeds.probability(None)),
        completed=exact(done),
        mean_speed_kmh_given_no_mishap=None if mean is None else exact(Fraction(mean)),
    )


def _read_speed(result: TravelLeg) -> str:
    speed = result.average_speed_kmh
    return _speed_label(None if speed is None else Fraction(speed.exact))


LEG_ROLLED = {**ONE_ROLL, "/speed_kmh": Reading(read=_read_speed)}


def _normal_odds(request: TravelLegInput) -> TravelLegOdds:
    return _leg_odds(request, NORMAL)


def _hasty_odds(request: TravelLegInput) -> TravelLegOdds:
    return _leg_odds(request, HASTY)


@operation(
    name="travel/leg",
    kind=Kind.CHECK,
    covers=("foresight.travel.leg",),
    odds=_normal_odds,
    cost=one_roll_cost,
    rolled=LEG_ROLLED,
    example={
        "driving": {"task": {"score": 12, "bef": 5}},
        "cruise_kmh": 60,
        "max_kmh": 100,
        "distance_km": 500,
        "driver_wp": 6,
        "man": 1,
        "dice": {"values": [23]},
    },
)
def travel_leg(request: TravelLegInput, dice: Dice) -> TravelLeg:
    """Normal (unhurried) travel: one driving roll per leg gives its average speed, QR1-QR2
    the average of Cruise and Max, QR3-QR4 Cruise, QR7 half Cruise, QR10 a mishap that calls
    for a driving roll at the vehicle's Man to avoid an accident (F:L3350-3358). The leg
    takes distance / speed hours; if that is more than the driver's WP hours, speed x WP km
    are covered in WP hours and the driver rests or is relieved (F:L3346, F:L3350)."""
    return _leg(request, NORMAL, dice)


@operation(
    name="travel/hasty",
    kind=Kind.CHECK,
    covers=("foresight.travel.hasty",),
    odds=_hasty_odds,
    cost=one_roll_cost,
    rolled=LEG_ROLLED,
    example={
        "driving": {"task": {"score": 12, "bef": 5}},
        "cruise_kmh": 60,
        "max_kmh": 100,
        "distance_km": 500,
        "driver_wp": 6,
        "dice": {"values": [5]},
    },
)
def travel_hasty(request: TravelLegInput, dice: Dice) -> TravelLeg:
    """Hasty travel, in a vehicle (not on foot): QR1 Max speed, QR2 90% of Max or the QR3
    speed if higher, QR3 the average of Max and Cruise, QR4 Cruise; QR7 a mishap (a driving
    roll at the vehicle's Man to mitigate an accident), QR10 a serious one (at Man -3); the
    leg as in normal travel otherwise (F:L3360-3370)."""
    return _leg(request, HASTY, dice)


# --- navigation -------------------------------------------------------------------------------


class TravelNavigationInput(Model):
    navigation: Side = Field(
        description="The Navigation roll (Navigate (IN+PC)/2, BEF E+3) or its QR."
    )
    driving: Side = Field(description="The driving roll (the vehicle skill) or its QR.")
    options: ResolutionOptions = Field(default=ResolutionOptions())


class TravelNavigation(Model):
    navigation: Resolution | None = Field(description="Null when its QR was given.")
    driving: Resolution | None = Field(description="Null when its QR was given.")
    navigation_qr: QR
    driving_qr: QR
    qr: QR = Field(
        description="The QR that sets the leg's speed ('driving' of 'travel/leg'): the worse "
        "of the two, or the driving QR when the party is lost."
    )
    lost: bool = Field(description="Navigation QR10: lost, at best well off course (F:L3348).")


def effective_qr(navigation: QR, driving: QR) -> QR:
    """The worse of the navigation and driving QRs sets the journey's duration, except that
    a navigation QR10 means the party is lost (F:L3348): a navigation roll causes no mishap,
    so the driving QR still stands for the vehicle, and where the party ends up is the GM's."""
    if navigation is QR.QR10:
        return driving
    return max(navigation, driving)


def _sides(request: TravelNavigationInput) -> tuple[Prepared, Prepared]:
    options = request.options
    return (
        prepare(request.navigation, options, "navigation", purpose="navigation"),
        prepare(request.driving, options, "driving", purpose="driving"),
    )


class TravelNavigationOdds(Model):
    navigation: QualityOdds
    driving: QualityOdds
    qr: list[OutcomeProbability] = Field(description="The effective QR.")
    lost: Exact


def _navigation_odds(request: TravelNavigationInput) -> TravelNavigationOdds:
    navigation, driving = (side.distribution() for side in _sides(request))
    pairs: Distribution[tuple[QR, QR]] = navigation.then(lambda n: driving.map(lambda d: (n, d)))
    found = pairs.map(lambda pair: effective_qr(*pair))
    return TravelNavigationOdds(
        navigation=quality_odds(navigation),
        driving=quality_odds(driving),
        qr=outcome_table(found.map(lambda qr: qr.name), [qr.name for qr in QR]),
        lost=exact(navigation.probability(QR.QR10)),
    )


@operation(
    name="travel/navigation",
    kind=Kind.CHECK,
    covers=("foresight.travel.navigation",),
    odds=_navigation_odds,
    cost=contest_cost,
    rolled={
        "/navigation/qr": Reading(read=lambda r: r.navigation_qr.name, best_first=True),
        "/driving/qr": Reading(read=lambda r: r.driving_qr.name, best_first=True),
        "/qr": Reading(read=lambda r: r.qr.name, best_first=True),
    },
    example={
        "navigation": {"task": {"score": 11, "bef": 4}},
        "driving": {"task": {"score": 12, "bef": 5}},
        "dice": {"values": [37, 23]},
    },
)
def travel_navigation(request: TravelNavigationInput, dice: Dice) -> TravelNavigation:
    """In unfamiliar country someone navigates: the worse of the Navigation and driving QRs
    sets the leg's duration, except that a navigation QR10 means the party is lost, at best
    considerably off course (F:L3348). Navigation rolled first, then driving."""
    navigation, driving = (side.roll(dice) for side in _sides(request))
    return TravelNavigation(
        navigation=navigation.resolution,
        driving=driving.resolution,
        navigation_qr=navigation.qr,
        driving_qr=driving.qr,
        qr=effective_qr(navigation.qr, driving.qr),
        lost=navigation.qr is QR.QR10,
    )
