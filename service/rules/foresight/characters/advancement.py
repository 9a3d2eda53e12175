"""Advancement (catalogue 3.E, F:L1063-1105): experience character points awarded each
session, spent between adventures one point at a time with at most 10 left unspent, turned
into education points by an IN roll, a skill bought in play after an unskilled success, and
points from time spent training."""

from collections import Counter
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import OutcomeProbability, outcome_table
from service.rules.foresight.characters.backgrounds import Pool
from service.rules.foresight.characters.skills import skill_row
from service.rules.foresight.resolution.chance import Circumstances, Setup, setup
from service.rules.foresight.resolution.odds import task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.resolution.tables import QR, QUALITY_RATINGS
from service.rules.foresight.resolution.task import Resolution, distribution, roll
from service.rules.model import InputError, Model, Violations, option
from service.rules.registry import Kind, operation

__all__ = ["acquire_in_play", "award", "education_conversion", "spend", "training"]

Points = Annotated[int, Field(ge=0, le=10_000)]
#: A typical session played earns 5 (F:L1073); unspent points should not pass 10 (F:L1085).
SESSION, MOST_UNSPENT = 5, 10


class AwardInput(Model):
    played: bool = Field(default=True, description="Played for a typical session (4 h or so).")
    in_character: Annotated[int, Field(ge=0, le=5)] = Field(
        default=0, description="Kept in character throughout: 1 to 5 more."
    )
    objectives: Annotated[int, Field(ge=0, le=5)] = Field(
        default=0, description="Tough objectives achieved: 1 to 5 more."
    )
    rate_percent: Annotated[int, Field(ge=0, le=1000)] = Field(
        default=100, description="The GM's overall rate, in percent (F:L1075)."
    )


class Award(Model):
    award: int


@operation(
    name="experience/award",
    kind=Kind.CALCULATION,
    covers=("foresight.experience.award",),
    example={"in_character": 3, "objectives": 2},
)
def award(request: AwardInput) -> Award:
    """5 character points for a session played, 1 to 5 more for staying in character and 1
    to 5 for tough objectives achieved, so 5 to 15; never for particular deeds; the GM may
    scale the rate (F:L1063-1075)."""
    base = SESSION * request.played + request.in_character + request.objectives
    return Award(award=round_half_up(Fraction(base * request.rate_percent, 100)))


class Ability(StrEnum):
    ATTRIBUTE = "attribute"
    SKILL = "skill"
    FAMILIARITY = "familiarity"
    FIELD = "field"


class Purchase(Model):
    ability: Annotated[str, Field(min_length=1, max_length=60)]
    kind: Ability
    steps: Annotated[int, Field(ge=1, le=20)] = Field(
        default=1, description="Points of improvement: a level, an attribute point, a step."
    )
    cost: Annotated[int, Field(ge=0, le=1000)]
    pool: Pool = Pool.GENERAL
    acquired_now: bool = Field(
        default=False, description="A skill bought at level 0 on this occasion."
    )


class SpendOptions(Model):
    max_steps_per_occasion: Annotated[int, Field(ge=1, le=5)] = option(
        1,
        ambiguity="AMB-26",
        description="'No ability may be improved by more than one point at a time' (F:L1079): "
        "one level, point or field step an ability an occasion.",
    )


class SpendInput(Model):
    general: Points = Field(description="General experience points banked, the award in.")
    education: Points = 0
    purchases: tuple[Purchase, ...] = Field(max_length=50)
    options: SpendOptions = Field(default=SpendOptions())


class Spent(Model):
    general_left: int
    education_left: int
    forfeited: int = Field(description="Unspent points over 10 are lost (F:L1085, F:L1087).")


def _problems(request: SpendInput) -> list[InputError]:
    errors = []
    most = request.options.max_steps_per_occasion
    acquired = {p.ability.casefold() for p in request.purchases if p.acquired_now}
    raised: Counter[tuple[str, Ability]] = Counter()
    for index, item in enumerate(request.purchases):
        loc = ("purchases", index)
        if not item.acquired_now:
            raised[item.ability.casefold(), item.kind] += item.steps
        if item.steps > most:
            errors.append(InputError((*loc, "steps"), "one point at a time (F:L1079, AMB-26)"))
        elif raised[item.ability.casefold(), item.kind] > most:
            # Listed again, the same ability would rise by more than a point this occasion.
            message = f"{item.ability} is raised already: one point at a time (F:L1079, AMB-26)"
            errors.append(InputError((*loc, "ability"), message))
        raised_too_soon = not item.acquired_now and item.ability.casefold() in acquired
        if item.kind is Ability.SKILL and raised_too_soon:
            errors.append(InputError((*loc, "ability"), "a skill acquired now is raised later"))
        if item.kind is Ability.FIELD and item.pool is not Pool.EDUCATION:
            errors.append(InputError((*loc, "pool"), "fields are bought with education points, "
                                     "converted by study (F:L1081)"))  # fmt: skip
        if item.kind is not Ability.FIELD and item.pool is Pool.EDUCATION:
            errors.append(InputError((*loc, "pool"), "converted points go to the fields studied "
                                     "(F:L1081); the rest is spent as before"))  # fmt: skip
    for pool, banked in ((Pool.GENERAL, request.general), (Pool.EDUCATION, request.education)):
        used = sum(p.cost for p in request.purchases if p.pool is pool)
        if used > banked:
            errors.append(InputError((pool.value,), f"{used} {pool.value} points spent, "
                                     f"{banked} banked"))  # fmt: skip
    return errors


@operation(
    name="experience/spend",
    kind=Kind.VALIDATION,
    covers=("foresight.experience.spend",),
    example={"general": 13, "purchases": [{"ability": "Medicine", "kind": "field",
                                           "cost": 4, "pool": "education"}], "education": 4},
)  # fmt: skip
def spend(request: SpendInput) -> Spent:
    """Experience points are spent between adventures at the costs of creation; no ability
    improves by more than one point at a time (F:L1079); fields need education points, and
    education points go to fields (F:L1081); a character should not keep more than 10
    unspent (F:L1085): with 13 banked, at least 3 must go now or be lost (F:L1087)."""
    errors = _problems(request)
    if errors:
        raise Violations(errors)
    general = request.general - sum(p.cost for p in request.purchases if p.pool is Pool.GENERAL)
    education = request.education - sum(
        p.cost for p in request.purchases if p.pool is Pool.EDUCATION
    )
    over = max(0, general + education - MOST_UNSPENT)
    # What is lost comes off the general points first: education points are the dearer.
    lost_general = min(over, general)
    return Spent(general_left=general - lost_general,
                 education_left=education - (over - lost_general), forfeited=over)  # fmt: skip


class ConversionOptions(ResolutionOptions):
    botch_penalty: bool = option(
        False,
        ambiguity="AMB-26b",
        description="A QR10's yield of -25% (F:L1404) takes a quarter of the award off the "
        "general points, or (default) merely converts nothing.",
    )


class ConversionInput(Circumstances):
    award: Annotated[int, Field(ge=0, le=1000)]
    intelligence: Annotated[int, Field(ge=0, le=40)] = Field(description="Trained IN.")
    options: ConversionOptions = Field(default=ConversionOptions())


class Converted(Model):
    roll: Resolution
    education: int
    general: int


def _setup(request: ConversionInput) -> Setup:
    return setup(request, request.intelligence, request.options,
                 default_bef=request.options.attribute_bef)  # fmt: skip


def converted(award: int, qr: QR, botch: bool) -> tuple[int, int]:
    """The QR's yield of the award becomes education points (QR1 all, QR2 75%, QR3 half, QR4
    a quarter, F:L1081, the yield column F:L1394-1408); a botch's negative yield takes that
    share off the general points only when the option says (AMB-26b)."""
    share = Fraction(QUALITY_RATINGS[qr].yield_pct, 100)
    education = round_half_up(award * max(share, Fraction(0)))
    penalty = round_half_up(award * -share) if botch and share < 0 else 0
    return education, award - education - penalty


class ConversionOdds(Model):
    education: list[OutcomeProbability]


def conversion_odds(request: ConversionInput) -> ConversionOdds:
    """How many education points the award becomes, exactly, over the IN roll's QRs."""
    botch = request.options.botch_penalty
    found = distribution(_setup(request)).map(lambda q: converted(request.award, q, botch)[0])
    return ConversionOdds(education=outcome_table(found))


@operation(
    name="experience/education-conversion",
    kind=Kind.CHECK,
    covers=("foresight.experience.education_conversion",),
    odds=conversion_odds,
    cost=task_cost,
    example={"award": 8, "intelligence": 12, "dice": {"values": [30]}},
)
def education_conversion(request: ConversionInput, dice: Dice) -> Converted:
    """A character who studied may roll IN to turn experience points into education points:
    the QR's yield of the award (QR1 all, QR2 75%, QR3 half, QR4 a quarter), the rest stays
    general (F:L1081): an award of 8 at QR3 is 4 and 4 (F:L1087)."""
    result = roll(_setup(request), dice, "D100 (IN)")
    education, general = converted(request.award, result.qr, request.options.botch_penalty)
    return Converted(roll=result, education=education, general=general)


class AcquireInput(Model):
    skill: Annotated[str, Field(min_length=1, max_length=40)]
    qr: QR = Field(description="The unskilled attempt's QR.")
    banked: Points = Field(description="General points unspent.")


class Acquired(Model):
    may_buy: bool = Field(description="An unskilled QR3 or better (F:L1091).")
    cost: int = Field(description="3 x cost, for level 0.")
    affordable: bool


@operation(
    name="skill/acquire-in-play",
    kind=Kind.CALCULATION,
    covers=("foresight.skill.acquire_in_play",),
    example={"skill": "Aircraft", "qr": 3, "banked": 5},
)
def acquire_in_play(request: AcquireInput) -> Acquired:
    """A character who uses a skill unskilled and scores QR3 or better may buy it at level 0
    at once from his unspent points: landing a plane talked down by radio at QR3 buys
    Aircraft for 3 (F:L1089-1091)."""
    cost = 3 * skill_row(request.skill).cost
    may = request.qr <= QR.QR3.value
    return Acquired(may_buy=may, cost=cost, affordable=may and cost <= request.banked)


class TrainingInput(Model):
    months: Annotated[int, Field(ge=0, le=1200)] = Field(description="Months of study or practice.")
    dedicated: bool = Field(
        default=True, description="The WP roll the GM may call for succeeded (or none was)."
    )


class Trained(Model):
    points: int = Field(description="5 for each full three months (F:L1099).")


@operation(
    name="training",
    kind=Kind.CALCULATION,
    covers=("foresight.training",),
    example={"months": 9},
)
def training(request: TrainingInput) -> Trained:
    """Time out of play may be given as background factors, or as 5 character points for each
    three months of study or practice; the GM may ask a WP roll to stay dedicated (failing
    it, none) and IN rolls for the share that can go to education (F:L1097-1101)."""
    return Trained(points=SESSION * (request.months // 3) if request.dedicated else 0)
