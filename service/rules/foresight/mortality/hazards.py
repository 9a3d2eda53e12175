"""Hazards (F:L2739-2759): asphyxiation and explosive decompression, and the hazard damage
that poison, falls and burns share.

Hazard damage has no attack: it is 'damage without a QR', a random QR on D10 (1 QR1, 2 QR2,
3-5 QR3, 6-10 QR4, F:L1472, F:L2695), read on the damage table like any hit (F:L2632) and,
when it has a location, with the location's effects (F:L2703-2712). Any damage that lands,
even an S, calls for a Pain Resistance roll (F:L2564), which `pain-resistance/stun-check`
makes (poison.py rolls it each dose, as its rule asks, F:L2741).
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    DEAD,
    VITAL,
    Condition,
    Consciousness,
    Location,
    accumulate,
    is_dead,
    wound,
    wound_name,
)
from service.rules.foresight.mortality.damage import written
from service.rules.foresight.mortality.hits import DamageOptions, HitDamage, inflict
from service.rules.foresight.mortality.location import Aim, location_distribution, roll_location
from service.rules.foresight.mortality.notation import DamageClass, DamageType
from service.rules.foresight.mortality.stamina import activity_terms
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.quality import random_qr
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import Model, option
from service.rules.registry import Kind, operation

__all__ = [
    "HazardHit",
    "breath_limit",
    "breath_rolls",
    "hazard_hit",
    "hit_outcomes",
    "roll_hazard_hit",
]

#: The longest stretch a hazard request may cover: a week, in seconds.
MAX_SECONDS = 7 * 24 * 3600
#: The longest a character may go without air in one request: an hour.
MAX_BREATHLESS_S = 3600
#: Most doses of one poison in a request.
MAX_DOSES = 100
#: Beyond the breath-hold limit an EN roll every 5 s (F:L2749).
BREATH_STEP_S = 5


def _typeless(type_: DamageType = DamageType.NONE) -> DamageClass:
    """The damage class of a hazard: a bare DC, no piercing, wounds not stun."""
    return DamageClass(
        notation="hazard", count=1, relative=False, value=0, type=type_, pierce=0, stun=False
    )


def random_qrs() -> Distribution[QR]:
    """Damage without a QR: D10 1 QR1, 2 QR2, 3-5 QR3, 6-10 QR4 (F:L1472, F:L2695)."""
    return Distribution((random_qr(face), 1) for face in range(1, 11))


def hazard_hit(
    dc: Fraction,
    qr: QR,
    location: Location | None,
    ds: Fraction,
    vital_face: int | None,
    options: DamageOptions,
    layers: tuple[tuple[int, int], ...] = (),
    type_: DamageType = DamageType.NONE,
) -> HitDamage:
    """One hazard hit through the combat damage rules (`damage/resolve`'s `inflict`)."""
    return inflict(dc, _typeless(type_), qr, location, layers, ds, vital_face, options)


#: A hazard hit's outcome: where, and its damage (None '-', 0 'S', n wound levels).
Outcome = tuple[Location | None, int | None]


def hit_outcomes(
    dc: Fraction,
    ds: Fraction,
    aim: Aim | None,
    options: DamageOptions,
    layers: tuple[tuple[int, int], ...] = (),
    type_: DamageType = DamageType.NONE,
) -> Distribution[Outcome]:
    """Every way one hazard hit can go: random QR, location (None: unlocated), vital D10."""
    places: Distribution[Location | None] = Distribution([(None, 1)])
    if aim is not None:
        places = Distribution(location_distribution(aim).items())

    def at(qr: QR, location: Location | None) -> Distribution[Outcome]:
        vital = options.vital_extra and location in VITAL
        faces = range(1, 11) if vital else (None,)
        return Distribution(
            ((location, hazard_hit(dc, qr, location, ds, f, options, layers, type_).damage), 1)
            for f in faces
        )

    return random_qrs().then(lambda qr: places.then(lambda location: at(qr, location)))


class HazardHit(Model):
    """One hazard hit, every step shown."""

    qr: QR
    qr_roll: int = Field(description="The D10 of the random QR (F:L2695).")
    location: Location | None
    location_roll: int | None
    vital_roll: int | None
    dc: Exact
    result: str = Field(description="'none' (the table's '-'), 'S' or the wound levels.")
    wound_levels: int
    steps: list[str]


def roll_hazard_hit(
    dc: Fraction,
    ds: Fraction,
    aim: Aim | None,
    dice: Dice,
    options: DamageOptions,
    layers: tuple[tuple[int, int], ...] = (),
    type_: DamageType = DamageType.NONE,
) -> tuple[HazardHit, HitDamage]:
    face = dice.roll(10, "random QR")
    qr = random_qr(face)
    location, location_roll = None, None
    if aim is not None:
        location, location_roll = roll_location(aim, dice)
    hit = hazard_hit(dc, qr, location, ds, None, options, layers, type_)
    vital_roll = None
    if hit.damage and options.vital_extra and location in VITAL:
        vital_roll = dice.roll(10, "vital location")
        hit = hazard_hit(dc, qr, location, ds, vital_roll, options, layers, type_)
    report = HazardHit(
        qr=qr,
        qr_roll=face,
        location=location,
        location_roll=location_roll,
        vital_roll=vital_roll,
        dc=exact(dc),
        result=written(hit.damage),
        wound_levels=hit.damage or 0,
        steps=list(hit.steps),
    )
    return report, hit


# Asphyxiation


class BreathOptions(ResolutionOptions):
    """How the EN rolls past the breath-hold limit are set up (an attribute roll) and when the
    first falls."""

    asphyxia_first_roll_at_limit: bool = option(
        False,
        ambiguity=None,
        description=(
            "'Beyond this, the character must make an EN roll every 5s' (F:L2749): the first "
            "roll 5 s past the limit, or at the limit itself."
        ),
    )


def breath_limit(endurance: int, prepared: bool) -> int:
    """EN x 5 s without preparing (or after exhaling), EN x 10 s prepared (F:L2749)."""
    return endurance * (10 if prepared else 5)


def breath_rolls(limit: int, seconds: int, at_limit: bool) -> list[int]:
    """When the EN rolls fall by `seconds`: every 5 s past the limit (F:L2749)."""
    first = limit if at_limit else limit + BREATH_STEP_S
    return list(range(first, seconds + 1, BREATH_STEP_S))


def _en_roll(condition: Condition, task: Task, options: ResolutionOptions) -> Setup:
    """The EN roll takes the condition's modifiers to all activity (wound level, exhaustion)."""
    return setup_at(("endurance",), task, options, activity_terms(condition), options.attribute_bef)


@dataclass(frozen=True)
class Breath:
    limit: int
    rolls: list[Resolution]
    times: list[int]
    asphyxiated_at: int | None


def hold_breath(
    condition: Condition,
    task: Task,
    prepared: bool,
    seconds: int,
    options: BreathOptions,
    dice: Dice,
) -> Breath:
    """Roll EN every 5 s past the limit until the first failure: asphyxiated (F:L2749)."""
    limit = breath_limit(task.score, prepared)
    setup = _en_roll(condition, task, options)
    rolls: list[Resolution] = []
    times = breath_rolls(limit, seconds, options.asphyxia_first_roll_at_limit)
    for at in times:
        rolls.append(roll(setup, dice, f"EN at {at} s"))
        if not rolls[-1].success:
            return Breath(limit, rolls, times[: len(rolls)], at)
    return Breath(limit, rolls, times, None)


def _breath_odds(
    condition: Condition, task: Task, prepared: bool, seconds: int, options: BreathOptions
) -> tuple[Distribution[QR], int, Fraction, Fraction | None]:
    """(EN QR distribution, rolls due, P(asphyxiated by then), expected seconds to
    asphyxiation if breathless on): geometric, one roll every 5 s."""
    limit = breath_limit(task.score, prepared)
    found = distribution(_en_roll(condition, task, options))
    fail = found.probability_where(lambda qr: qr > QR.QR4)
    count = len(breath_rolls(limit, seconds, options.asphyxia_first_roll_at_limit))
    first = limit if options.asphyxia_first_roll_at_limit else limit + BREATH_STEP_S
    expected = None if fail == 0 else first + BREATH_STEP_S * (1 / fail - 1)
    return found, count, 1 - (1 - fail) ** count, expected


class AsphyxiationInput(Model):
    condition: Condition = Field(default=Condition())
    endurance: Task = Field(description="The EN roll: score = EN; BEF 'attribute_bef' if none.")
    prepared: bool = Field(default=False, description="A breath drawn in preparation (F:L2749).")
    seconds: int = Field(ge=0, le=MAX_BREATHLESS_S, description="Time without air.")
    options: BreathOptions = Field(default=BreathOptions())


class Asphyxiation(Model):
    breath_limit_s: int = Field(description="EN x 5 s, or EN x 10 s prepared (F:L2749).")
    endurance_rolls: list[Resolution]
    roll_times_s: list[int]
    asphyxiated: bool = Field(description="Unconscious, dying shortly afterwards (F:L2749).")
    asphyxiated_at_s: int | None
    condition: Condition


class AsphyxiationOdds(Model):
    endurance: QualityOdds
    rolls: int = Field(description="EN rolls due by 'seconds' if none fails.")
    asphyxiated: Exact
    expected_seconds: Exact | None = Field(
        description="Expected time to asphyxiation without air; null when no roll can fail."
    )


def _asphyxiation_odds(request: AsphyxiationInput) -> AsphyxiationOdds:
    found, count, asphyxiated, expected = _breath_odds(
        request.condition, request.endurance, request.prepared, request.seconds, request.options
    )
    return AsphyxiationOdds(
        endurance=quality_odds(found),
        rolls=count,
        asphyxiated=exact(asphyxiated),
        expected_seconds=None if expected is None else exact(expected),
    )


def _unconscious(condition: Condition) -> Condition:
    return condition.model_copy(update={"consciousness": Consciousness.UNCONSCIOUS})


@operation(
    name="asphyxiation",
    kind=Kind.CHECK,
    covers=("foresight.asphyxiation",),
    odds=_asphyxiation_odds,
    cost=lambda request: Estimate(300, ()),
    example={"endurance": {"score": 8}, "seconds": 60, "dice": {"values": [20, 30, 95]}},
)
def asphyxiation(request: AsphyxiationInput, dice: Dice) -> Asphyxiation:
    """A character holds his/her breath for EN x 5 s, or EN x 10 s prepared; beyond that an
    EN roll every 5 s, and the first failure asphyxiates: unconscious, dying shortly
    afterwards unless promptly revived (F:L2749-2751)."""
    breath = hold_breath(
        request.condition,
        request.endurance,
        request.prepared,
        request.seconds,
        request.options,
        dice,
    )
    out = breath.asphyxiated_at is not None
    condition = _unconscious(request.condition) if out else request.condition
    return Asphyxiation(
        breath_limit_s=breath.limit,
        endurance_rolls=breath.rolls,
        roll_times_s=breath.times,
        asphyxiated=out,
        asphyxiated_at_s=breath.asphyxiated_at,
        condition=condition,
    )


# Explosive decompression

#: Sudden exposure to vacuum: DC6, random QR, to the chest (F:L2755).
DECOMPRESSION_DC = 6


class DecompressionOptions(DamageOptions, BreathOptions):
    """Readings of explosive decompression (AMB2-47) and of its damage and EN rolls."""

    vacuum_window_s: Annotated[int, Field(ge=30, le=60)] = option(
        30,
        ambiguity="AMB2-47",
        description="'30-60s to get back into a pressurised environment or die horribly' "
        "(F:L2757): how long this character has.",
    )


class DecompressionInput(Model):
    condition: Condition = Field(default=Condition())
    endurance: Task = Field(description="The EN roll: score = EN; BEF 'attribute_bef' if none.")
    seconds: int = Field(ge=0, le=MAX_BREATHLESS_S, description="Time in vacuum.")
    options: DecompressionOptions = Field(default=DecompressionOptions())


class Decompression(Model):
    hit: HazardHit
    pain_resistance_roll: bool = Field(description="The hit calls for one (F:L2564).")
    breath_limit_s: int = Field(description="EN x 5 s: the character has exhaled (F:L2757).")
    endurance_rolls: list[Resolution]
    asphyxiated: bool
    past_window: bool = Field(description="Still in vacuum past the window: dead (F:L2757).")
    condition: Condition
    wound_name: str
    dead: bool


def _killed(condition: Condition) -> Condition:
    level = max(condition.wound_level, DEAD)
    return condition.model_copy(
        update={"wound_level": level, "max_wound_level": max(level, condition.max_wound_level)}
    )


class DecompressionHitOdds(Model):
    result: list[OutcomeProbability] = Field(description="The DC6 hit: 'S', 1, 2, 3 (+1 vital).")


class DecompressionOdds(Model):
    hit: DecompressionHitOdds
    wound_level: list[OutcomeProbability] = Field(
        description="The wound level at the end: after the hit, and Dead past the window."
    )
    asphyxiated: Exact = Field(description="P(asphyxiated by 'seconds', alive after the hit).")
    dead: Exact


def decompression_odds(request: DecompressionInput) -> DecompressionOdds:
    options = request.options
    start = request.condition
    one = hit_outcomes(Fraction(DECOMPRESSION_DC), Fraction(1), Aim.CHEST, options)
    levels = one.map(lambda o: accumulate(start.wound_level, o[1] or 0, o[0], options))
    asphyxiated = Fraction(0)
    for level, weight in levels.items():
        if level < DEAD:
            condition = start.model_copy(update={"wound_level": level})
            found = _breath_odds(condition, request.endurance, False, request.seconds, options)
            asphyxiated += Fraction(weight, levels.total) * found[2]
    past = request.seconds > options.vacuum_window_s
    final = levels.map(lambda w: max(w, DEAD)) if past else levels
    return DecompressionOdds(
        hit=DecompressionHitOdds(result=outcome_table(one.map(lambda o: written(o[1])))),
        wound_level=outcome_table(final),
        asphyxiated=exact(asphyxiated),
        dead=exact(final.probability_where(lambda w: w >= DEAD)),
    )


@operation(
    name="decompression",
    kind=Kind.GENERATION,
    covers=("foresight.decompression",),
    odds=decompression_odds,
    cost=lambda request: Estimate(2_000, ()),
    example={"endurance": {"score": 5}, "seconds": 30, "dice": {"values": [4, 50]}},
)
def decompression(request: DecompressionInput, dice: Dice) -> Decompression:
    """Sudden, unprepared exposure to vacuum is DC6 at once, random QR, to the chest (F:L2755);
    the character has exhaled, so holds his/her breath only EN x 5 s before EN rolls every
    5 s (F:L2757, F:L2749), and has 30-60 s to reach pressure or die (F:L2757, AMB2-47)."""
    options = request.options
    report, hit = roll_hazard_hit(Fraction(DECOMPRESSION_DC), Fraction(1), Aim.CHEST, dice, options)
    condition = wound(request.condition, hit.damage or 0, Location.CHEST, options)
    breath = Breath(breath_limit(request.endurance.score, False), [], [], None)
    if not is_dead(condition):
        breath = hold_breath(condition, request.endurance, False, request.seconds, options, dice)
    if breath.asphyxiated_at is not None:
        condition = _unconscious(condition)
    past = request.seconds > options.vacuum_window_s
    if past:
        condition = _killed(condition)
    return Decompression(
        hit=report,
        pain_resistance_roll=hit.damage is not None,
        breath_limit_s=breath.limit,
        endurance_rolls=breath.rolls,
        asphyxiated=breath.asphyxiated_at is not None,
        past_window=past,
        condition=condition,
        wound_name=wound_name(condition.wound_level),
        dead=is_dead(condition),
    )
