"""Recovery and deterioration (F:L2596-2604): the periodic Endurance rolls of a wounded
character (the Willpower rolls that keep a badly wounded one acting or awake are
`consciousness`).

Each roll takes -(worst wound level since last healthy), not -WL (F:L2604); medical care adds
its modifier to both, a bandage only to deterioration (F:L2821). Recovery: QR1-QR4 one level
better, QR10 one worse (F:L2596). Deterioration: QR3 or better one level better, QR4 no
change, QR7 one worse, QR10 one worse and unconscious (F:L2600). At WL5 both are rolled and
summed ('they can cancel out', F:L2585).
"""

import math
from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    DEAD,
    HEALTHY,
    Condition,
    Consciousness,
    heal,
    is_dead,
    wound,
    wound_name,
)
from service.rules.foresight.mortality.stamina import exhaustion_of
from service.rules.foresight.mortality.wounds import DAY, schedule
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import InputError, Model, Violations, option
from service.rules.registry import Kind, operation

__all__ = ["HealingOptions", "deterioration_change", "recovery_change"]

CRITICAL = 5
#: The longest course the odds follow, in days, and the most recovery rolls it may hold
#: (days at the shortest interval): each roll adds about 20 digits to the exact figures, so
#: 120 rolls keep them near 2,300 digits (Python prints at most 4,300) and an answer near 2 MB.
MAX_DAYS = 120
MAX_COURSE_ROLLS = 120


class ImproveThreshold(StrEnum):
    QR3_OR_BETTER = "qr3_or_better"
    EXACTLY_QR3 = "exactly_qr3"


class ScheduleBasis(StrEnum):
    CURRENT = "current"
    MAX = "max"


class PenaltyBasis(StrEnum):
    MAX_WL = "max_wl"
    MAX_WL_PLUS_CURRENT = "max_wl_plus_current"


class HealingOptions(ResolutionOptions):
    """Readings of the recovery and deterioration rules (catalogue part 2, section 5)."""

    deterioration_improve_threshold: ImproveThreshold = option(
        ImproveThreshold.QR3_OR_BETTER,
        ambiguity="AMB2-10",
        description=(
            "'A QR3 results in the wound level miraculously dropping' (F:L2600): QR1 and QR2, "
            "being better, too; or QR3 only."
        ),
    )
    roll_schedule_basis: ScheduleBasis = option(
        ScheduleBasis.CURRENT,
        ambiguity="AMB2-11",
        description=(
            "Which level sets the rolls: the current one, as the table says (F:L2580-2588), "
            "or the worst since last healthy, so deterioration rolls go on after a critical "
            "patient improves (Amy at WL3 fails one, F:L2872)."
        ),
    )
    recovery_penalty_basis: PenaltyBasis = option(
        PenaltyBasis.MAX_WL,
        ambiguity="AMB2-12",
        description=("The rolls take -(worst level) instead of -WL (F:L2604), or both together."),
    )


def recovery_change(qr: QR) -> int:
    """QR1-QR4 one level better, QR7 nothing, QR10 one worse (F:L2596)."""
    return -1 if qr <= QR.QR4 else 1 if qr is QR.QR10 else 0


def deterioration_change(qr: QR, options: HealingOptions) -> int:
    """QR3 (or better, AMB2-10) one level better, QR4 nothing, QR7 and QR10 one worse
    (F:L2600)."""
    if options.deterioration_improve_threshold is ImproveThreshold.EXACTLY_QR3:
        better = qr is QR.QR3
    else:
        better = qr <= QR.QR3
    return -1 if better else 0 if qr <= QR.QR4 else 1


def _rolls(condition: Condition, options: HealingOptions) -> tuple[bool, bool]:
    """(recovery, deterioration): recovery while 1 <= WL <= 5 (F:L2596), deterioration while
    WL >= 5 (F:L2600), or while the worst level is (AMB2-11)."""
    level = condition.wound_level
    if level >= DEAD or level == 0:
        return False, False
    basis = (
        level
        if options.roll_schedule_basis is ScheduleBasis.CURRENT
        else max(level, condition.max_wound_level)
    )
    return level <= CRITICAL, basis >= CRITICAL


class HealingInput(Model):
    condition: Condition
    endurance: Task = Field(description="The EN roll: EN score; BEF the attribute BEF if none.")
    care_modifier: int = Field(
        default=0, ge=-10, le=10, description="The medical care modifier (F:L2880-2891)."
    )
    days: int = Field(
        default=0,
        ge=0,
        le=MAX_DAYS,
        description=(
            "Odds only: follow the wound level day by day for this many days ('course'); "
            "0 gives the next period alone."
        ),
    )
    care_interval_pct: int = Field(
        default=100,
        ge=10,
        le=100,
        multiple_of=5,
        description=(
            "Odds course only: recovery intervals as a percentage of the usual under high-tech "
            "care (TL6 75, TL7 50, TL8 25, TL9 10; F:L2880-2889, see medical-care)."
        ),
    )
    options: HealingOptions = Field(default=HealingOptions())


def _penalty(condition: Condition, options: HealingOptions) -> list[Term]:
    """The modifiers 'to all activity' as these rolls take them: the worst wound level's in
    place of the current one's (F:L2604, AMB-12), and the exhaustion modifier (F:L2548-2552;
    catalogue #16)."""
    found = [Term(source="worst wound level", value=-condition.max_wound_level)]
    if options.recovery_penalty_basis is PenaltyBasis.MAX_WL_PLUS_CURRENT:
        found.append(Term(source="wound level", value=-condition.wound_level))
    found.append(Term(source="exhaustion", value=exhaustion_of(condition)))
    return found


def _setups(request: HealingInput) -> tuple[Setup | None, Setup | None]:
    """The recovery and deterioration rolls this period calls for (either may be None: a
    healthy or dead character rolls neither)."""
    recovery, deterioration = _rolls(request.condition, request.options)
    base = [
        *_penalty(request.condition, request.options),
        Term(source="medical care", value=request.care_modifier),
    ]
    bandage = Term(source="bandage", value=request.condition.bandage_bonus)
    attribute = request.options.attribute_bef

    def at(name: str, extra: list[Term]) -> Setup:
        terms = tuple(t for t in extra if t.value)
        return setup_at(("endurance",), request.endurance, request.options, terms, attribute)

    return (
        at("recovery", base) if recovery else None,
        at("deterioration", [*base, bandage]) if deterioration else None,
    )


class Healing(Model):
    recovery: Resolution | None
    deterioration: Resolution | None
    change: int = Field(description="Wound levels gained (+) or lost (-) this period.")
    condition: Condition
    wound_name: str
    dead: bool


def _after(condition: Condition, change: int, knocked_out: bool) -> Condition:
    """Improvement heals (at 0 fully recovered, F:L2851); worsening adds, unlocated."""
    after = heal(condition, -change) if change < 0 else wound(condition, change)
    if knocked_out:
        after = after.model_copy(update={"consciousness": Consciousness.UNCONSCIOUS})
    return after


def _odds_cost(request: Any) -> Estimate:
    return Estimate(5 * 200 + 64 * 40, ())


class CourseDay(Model):
    day: int
    wound_level: list[OutcomeProbability] = Field(
        description="The wound level at the end of the day: 0 healthy .. 4; 8 dead."
    )
    dead: Exact = Field(description="P(dead by the end of the day).")


class HealingOdds(Model):
    recovery: QualityOdds | None
    deterioration: QualityOdds | None
    change: list[OutcomeProbability]
    wound_level: list[OutcomeProbability] = Field(description="The wound level after one period.")
    dead: Exact = Field(description="P(dead after this period).")
    fate_dead: Exact | None = Field(
        description=(
            "For a critical patient (WL5-7): P(death) before the level leaves 5-7 on its own, "
            "rolls repeated with the worst level rising as it does (catalogue Q9)."
        )
    )
    fate_stabilised: Exact | None
    course: list[CourseDay] = Field(
        description=(
            "With 'days': the wound level at the start (day 0, any critical episode settled) "
            "and at the end of each day 1..days; 8 is dead."
        )
    )


def _change(request: HealingInput, condition: Condition) -> Distribution[tuple[int, bool]]:
    """(change, knocked out) of one period from `condition`."""
    changed = request.model_copy(update={"condition": condition})
    recovery, deterioration = _setups(changed)
    options = request.options
    found: Distribution[tuple[int, bool]] = Distribution([((0, False), 1)])
    if recovery is not None:
        found = distribution(recovery).map(lambda qr: (recovery_change(qr), False))
    if deterioration is not None:
        worse = distribution(deterioration).map(
            lambda qr: (deterioration_change(qr, options), qr is QR.QR10)
        )
        found = found.then(lambda a: worse.map(lambda b: (a[0] + b[0], a[1] or b[1])))
    return found


def _fate(request: HealingInput) -> tuple[Fraction, Fraction] | None:
    """P(dead), P(stabilised at 4 or better) of a patient at WL5-7 rolling period after
    period: an absorbing chain on (level, worst level), solved exactly."""
    start = request.condition
    if not CRITICAL <= start.wound_level < DEAD:
        return None
    states = [(w, m) for m in range(CRITICAL, DEAD) for w in range(CRITICAL, m + 1)]
    index = {s: i for i, s in enumerate(states)}
    size = len(states)
    matrix = [[Fraction(0)] * (size + 1) for _ in range(size)]
    for (w, m), i in index.items():
        condition = start.model_copy(update={"wound_level": w, "max_wound_level": m})
        matrix[i][i] += 1
        period = _change(request, condition)
        for (change, _), weight in period.items():
            p = Fraction(weight, period.total)
            after = w + change
            if after >= DEAD:
                matrix[i][size] += p
            elif after >= CRITICAL:
                matrix[i][index[(after, max(m, after))]] -= p
    dead = _solve(matrix)
    first = dead[
        index[(start.wound_level, max(start.wound_level, min(start.max_wound_level, DEAD - 1)))]
    ]
    return first, 1 - first


def _solve(matrix: list[list[Fraction]]) -> list[Fraction]:
    """Gauss-Jordan elimination on an augmented square system, exactly."""
    size = len(matrix)
    for col in range(size):
        pivot = next(r for r in range(col, size) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        head = matrix[col][col]
        matrix[col] = [x / head for x in matrix[col]]
        for r in range(size):
            if r != col and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col], strict=True)]
    return [row[size] for row in matrix]


#: Time in a course, in hundredths of a second: an interval of `seconds` at `percent` of the
#: usual is seconds x percent of them, a whole number.
DAY_TICKS = DAY * 100

#: A patient between rolls: (wound level, worst level, ticks since the last roll). The healthy
#: and the dead roll no more.
State = tuple[int, int, int]
HEALED: State = (HEALTHY, HEALTHY, 0)
DIED: State = (DEAD, HEALTHY, 0)


def _critical_exits(request: HealingInput, level: int, worst: int) -> dict[State, Fraction]:
    """Where a critical episode entered at `level` (5-7) with `worst` ends: dead, or back at
    WL4 or WL3 (from WL5 both rolls may succeed) with the worst level it reached, rolled
    period after period like `_fate` (catalogue Q9), the minutes it takes left out."""
    start = (level, max(level, worst))
    band, moves = [start], {}
    for w, m in band:  # grows as new (level, worst) states are found
        condition = request.condition.model_copy(update={"wound_level": w, "max_wound_level": m})
        period = _change(request, condition)
        found: dict[tuple[int, int], Fraction] = {}
        for (change, _), weight in period.items():
            after = w + change
            key = (DEAD, HEALTHY) if after >= DEAD else (after, max(m, after))
            found[key] = found.get(key, Fraction(0)) + Fraction(weight, period.total)
            if CRITICAL <= after < DEAD and key not in band:
                band.append(key)
        moves[(w, m)] = found
    index = {state: i for i, state in enumerate(band)}
    ends = sorted({key for found in moves.values() for key in found if key not in index})
    exits: dict[State, Fraction] = {}
    for end in ends:
        matrix = [[Fraction(0)] * (len(band) + 1) for _ in band]
        for state, i in index.items():
            matrix[i][i] += 1
            for key, p in moves[state].items():
                if key in index:
                    matrix[i][index[key]] -= p
                elif key == end:
                    matrix[i][len(band)] += p
        exits[(*end, 0)] = _solve(matrix)[index[start]]
    return exits


def _recovery_roll(request: HealingInput, level: int, worst: int) -> dict[State, Fraction]:
    """The states after one recovery roll at WL1-4 (F:L2596): one better (at 0 healthy, the
    worst level reset, F:L2851), unchanged, or one worse; WL5 is a critical episode, settled
    at once (`_critical_exits`). The clock of the next roll starts now."""
    condition = request.condition.model_copy(
        update={"wound_level": level, "max_wound_level": worst}
    )
    period = _change(request, condition)
    found: dict[State, Fraction] = {}
    for (change, _), weight in period.items():
        after = max(HEALTHY, level + change)
        p = Fraction(weight, period.total)
        if after >= CRITICAL:
            ends = _critical_exits(request, after, max(worst, after))
        elif after == HEALTHY:
            ends = {HEALED: Fraction(1)}
        else:
            ends = {(after, max(worst, after), 0): Fraction(1)}
        for state, q in ends.items():
            found[state] = found.get(state, Fraction(0)) + p * q
    return found


def _interval(level: int, percent: int) -> int:
    """Ticks between recovery rolls at WL1-4 (F:L2580-2584), shortened by high-tech care
    (F:L2880-2889)."""
    seconds = schedule(level).recovery_interval_s
    assert seconds is not None
    return seconds * percent


Roll = Callable[[int, int], Distribution[State]]
#: A state in the course of a day: the ticks left in it, or None once it is done.
_Moment = tuple[State, int | None]


def course_day(states: Distribution[State], roll: Roll, percent: int) -> Distribution[State]:
    """One day of a wounded patient: whenever a level's interval has run since the last roll,
    a recovery roll (`roll`), and the next interval runs from it. The healthy and the dead
    stay as they are."""
    intervals = {level: _interval(level, percent) for level in range(HEALTHY + 1, CRITICAL)}

    def step(moment: _Moment) -> Distribution[_Moment]:
        state, left = moment
        level, worst, since = state
        if left is not None and HEALTHY < level < DEAD:
            wait = intervals[level] - since
            if wait <= left:
                return roll(level, worst).map(lambda after: (after, left - wait))
            state = (level, worst, since + left)  # no roll before the day ends
        done: _Moment = (state, None)
        return Distribution({done: 1})

    day: Distribution[_Moment] = states.map(lambda state: (state, DAY_TICKS))
    while any(left is not None for (_, left), _ in day.items()):
        day = day.then(step)
    return day.map(lambda moment: moment[0]).reduced()


def _course_rolls(request: HealingInput) -> int:
    """The most recovery rolls a course may hold: one a day at the shortest interval, shortened
    by care (days x 100 / care_interval_pct, rounded up)."""
    return -(-request.days * 100 // request.care_interval_pct)


def course(request: HealingInput) -> list[CourseDay]:
    """The wound level day by day, exactly: a Markov chain on (level 1-4, worst level, time
    since the last roll) stepping by the schedule's intervals (F:L2580-2584) shortened by care
    (`care_interval_pct`, F:L2880-2889), each critical episode (WL5-7) settled within the step
    it starts in. Day 0 is the start: the first roll comes a full interval later."""
    if request.days == 0:
        return []
    if request.options.roll_schedule_basis is ScheduleBasis.MAX:
        raise InputError(
            ("days",),
            "the course follows the table's schedule ('roll_schedule_basis': 'current')",
        )
    if _course_rolls(request) > MAX_COURSE_ROLLS:
        message = f"at most {MAX_COURSE_ROLLS} daily rolls: days x 100 / care_interval_pct"
        raise Violations([InputError((field,), message) for field in ("days", "care_interval_pct")])
    roll: Roll = cache(
        lambda level, worst: Distribution.of_probabilities(_recovery_roll(request, level, worst))
    )
    level, worst = request.condition.wound_level, request.condition.max_wound_level
    states: Distribution[State]
    if level >= DEAD:
        states = Distribution({DIED: 1})
    elif level >= CRITICAL:
        states = Distribution.of_probabilities(_critical_exits(request, level, worst))
    elif level == HEALTHY:
        states = Distribution({HEALED: 1})
    else:
        states = Distribution({(level, worst, 0): 1})
    days = [_course_day(0, states)]
    for day in range(1, request.days + 1):
        states = course_day(states, roll, request.care_interval_pct)
        days.append(_course_day(day, states))
    return days


def _course_day(day: int, states: Distribution[State]) -> CourseDay:
    levels = states.map(lambda state: state[0])
    return CourseDay(
        day=day,
        wound_level=outcome_table(levels),
        dead=exact(levels.probability(DEAD)),
    )


def _course_cost(request: HealingInput) -> int:
    """States `course_day` may hold, times its passes a day, times the days: (level 1-4,
    worst level up to 8 values, the times since a roll) plus the healthy and the dead; a pass
    for each roll a day may hold, and one more. Every roll falls a sum of intervals after the
    start, so at a day's end the times since a roll differ by multiples of the intervals'
    greatest common divisor: at most a level's interval over it, whatever the care. Exact
    weights gain digits with every roll: 12 states a roll squared (the slowest course of 120
    rolls, 0.21 s with the other core busy, counted 130,000: 15 µs a roll squared)."""
    percent = request.care_interval_pct
    intervals = [_interval(level, percent) for level in range(HEALTHY + 1, CRITICAL)]
    step = math.gcd(*intervals)
    states = 8 * sum(-(-interval // step) for interval in intervals) + 2
    passes = DAY_TICKS // step + 2
    rolls = _course_rolls(request)
    return request.days * passes * states + 12 * rolls**2 + (2_000 if request.days else 0)


def _healing_cost(request: HealingInput) -> Estimate:
    return Estimate(64 * 1_500 + _course_cost(request), ("/days", "/care_interval_pct"))


def healing_odds(request: HealingInput) -> HealingOdds:
    recovery, deterioration = _setups(request)
    change = _change(request, request.condition)
    level = request.condition.wound_level
    after = change.map(lambda c: max(0, level + c[0]))
    fate = _fate(request)
    return HealingOdds(
        recovery=None if recovery is None else quality_odds(distribution(recovery)),
        deterioration=None if deterioration is None else quality_odds(distribution(deterioration)),
        change=outcome_table(change.map(lambda c: c[0])),
        wound_level=outcome_table(after),
        dead=exact(after.probability_where(lambda w: w >= DEAD)),
        fate_dead=None if fate is None else exact(fate[0]),
        fate_stabilised=None if fate is None else exact(fate[1]),
        course=course(request),
    )


@operation(
    name="wound-level/recovery-roll",
    kind=Kind.CHECK,
    covers=("foresight.wound_level.recovery_roll", "foresight.wound_level.deterioration_roll"),
    odds=healing_odds,
    cost=_healing_cost,
    example={
        "condition": {"wound_level": 5, "max_wound_level": 5},
        "endurance": {"score": 9},
        "dice": {"values": [20, 35]},
    },
)
def recovery_roll(request: HealingInput, dice: Dice) -> Healing:
    """One period's Endurance rolls for a wounded character: recovery at WL1-WL5 (QR1-QR4
    one level better, QR10 one worse, F:L2596), deterioration at WL5 and worse (QR3 or
    better one level better, QR7 one worse, QR10 one worse and unconscious, F:L2600), both
    at WL5 and summed (F:L2585); each at -(worst level since last healthy) (F:L2604)."""
    recovery_setup, deterioration_setup = _setups(request)
    recovery = None if recovery_setup is None else roll(recovery_setup, dice, "recovery")
    deterioration = (
        None if deterioration_setup is None else roll(deterioration_setup, dice, "deterioration")
    )
    change = 0 if recovery is None else recovery_change(recovery.qr)
    botch = False
    if deterioration is not None:
        change += deterioration_change(deterioration.qr, request.options)
        botch = deterioration.qr is QR.QR10
    after = _after(request.condition, change, botch)
    return Healing(
        recovery=recovery,
        deterioration=deterioration,
        change=change,
        condition=after,
        wound_name=wound_name(after.wound_level),
        dead=is_dead(after),
    )
