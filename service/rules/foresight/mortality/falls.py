"""Falling (F:L2761-2779): DC = (height - 1) x DS^2 x G, damage without a QR (random QR), and
the rolls and surfaces that shorten the effective fall.

A controlled fall (AG or Athletics) takes the impact on the legs and shortens the fall by
(5 - QR) m, an acrobatic landing (Acrobatics) by (7 - QR) m, a dive into water (Athletics or
Acrobatics) by (8 - QR) m; a soft landing by the height one could safely jump onto that
surface, 3 m for deep water (F:L2771-2779). The book says nothing of armor against a fall;
by default none counts, or its melee rating does (AMB2-27 'fall_armor').
"""

from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    DEAD,
    Condition,
    Location,
    accumulate,
    is_dead,
    wound,
    wound_name,
)
from service.rules.foresight.mortality.damage import DamageScale, decimal, written
from service.rules.foresight.mortality.hazards import HazardHit, hit_outcomes, roll_hazard_hit
from service.rules.foresight.mortality.hits import DamageOptions
from service.rules.foresight.mortality.location import Aim
from service.rules.foresight.mortality.notation import Notation, parse_armor_rating
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import Model, option
from service.rules.registry import Kind, operation

__all__ = ["fall_dc", "reduction"]

#: The highest fall a request may describe, in metres.
MAX_HEIGHT = 100_000


class FallMethod(StrEnum):
    CONTROLLED = "controlled"
    ACROBATIC = "acrobatic"
    WATER_DIVE = "water_dive"


#: The effective height a roll saves is this less the QR, in metres (F:L2771-2775).
SAVED = {FallMethod.CONTROLLED: 5, FallMethod.ACROBATIC: 7, FallMethod.WATER_DIVE: 8}


class FallControlOptions(ResolutionOptions):
    """Readings of the fall-control rolls (AMB2-27)."""

    fall_control_failure_penalty: bool = option(
        False,
        ambiguity="AMB2-27",
        description=(
            "A failed roll's negative value counts as 0, or lengthens the fall as the formula "
            "says: QR7 (5 - 7) = -2 m, QR10 -5 m for a controlled fall. A dive into water at "
            "QR7 saves 8 - 7 = 1 m either way."
        ),
    )


class FallControlInput(Model):
    method: FallMethod = Field(
        description="'controlled' (AG or Athletics), 'acrobatic' (Acrobatics), 'water_dive' "
        "(Athletics or Acrobatics) (F:L2771-2775)."
    )
    task: Task = Field(description="The roll; an attribute (AG) takes 'attribute_bef' if no BEF.")
    surprise_modifier: int = Field(
        default=0,
        ge=-10,
        le=0,
        description="The GM's penalty for a character caught by surprise, unless the fall is "
        "long enough to recover (F:L2777).",
    )
    options: FallControlOptions = Field(default=FallControlOptions())


class FallControl(Model):
    rolled: Resolution
    reduction_m: int = Field(description="Metres off the effective height; negative: longer.")
    on_legs: bool = Field(description="A successful controlled or acrobatic landing (F:L2771).")


def reduction(method: FallMethod, qr: QR, options: FallControlOptions) -> int:
    """(5 - QR), (7 - QR) or (8 - QR) m (F:L2771-2775), clamped at 0 unless the option says
    the formula's negative value stands (AMB2-27). The clamp is on the value, not on success:
    a dive into water at QR7 still saves 8 - 7 = 1 m, as the formula gives."""
    saved = SAVED[method] - qr.value
    return saved if options.fall_control_failure_penalty else max(0, saved)


def _on_legs(method: FallMethod, qr: QR) -> bool:
    return method is not FallMethod.WATER_DIVE and qr <= QR.QR4


def _control(request: FallControlInput) -> Setup:
    terms = [Term(source="surprise", value=request.surprise_modifier)]
    terms = [t for t in terms if t.value]
    return setup_at(("task",), request.task, request.options, terms, request.options.attribute_bef)


class FallControlOdds(Model):
    roll: QualityOdds
    reduction_m: list[OutcomeProbability]


def _control_odds(request: FallControlInput) -> FallControlOdds:
    found = distribution(_control(request))
    saved = found.map(lambda qr: reduction(request.method, qr, request.options))
    return FallControlOdds(roll=quality_odds(found), reduction_m=outcome_table(saved))


@operation(
    name="falling/control",
    kind=Kind.CHECK,
    covers=("foresight.falling.control",),
    odds=_control_odds,
    cost=task_cost,
    example={"method": "acrobatic", "task": {"score": 12, "bef": 4}, "dice": {"values": [18]}},
)
def falling_control(request: FallControlInput, dice: Dice) -> FallControl:
    """A roll to control a fall: a controlled fall (AG or Athletics) takes the impact on the
    legs and saves (5 - QR) m, an acrobatic landing (Acrobatics) (7 - QR) m, a dive into
    water (Athletics or Acrobatics) (8 - QR) m; surprise costs a modifier (F:L2771-2777)."""
    rolled = roll(_control(request), dice, f"{request.method.value} fall")
    return FallControl(
        rolled=rolled,
        reduction_m=reduction(request.method, rolled.qr, request.options),
        on_legs=_on_legs(request.method, rolled.qr),
    )


class HazardDc0(StrEnum):
    NONE = "none"
    TABLE = "table"


class FallArmor(StrEnum):
    NONE = "none"
    MELEE = "melee"


class FallOptions(DamageOptions, FallControlOptions):
    """Readings of the falling rule (AMB2-06, AMB2-27) and of its damage."""

    fall_armor: FallArmor = option(
        FallArmor.NONE,
        ambiguity="AMB2-27",
        description=(
            "Armor against a fall, which the book does not mention (F:L2761-2779): none "
            "counts, or the faller's melee (m) rating, given in 'armor', lowers the DC and "
            "absorbs with its A's like any hit (F:L2661-2673)."
        ),
    )

    hazard_dc0_rule: HazardDc0 = option(
        HazardDc0.NONE,
        ambiguity="AMB2-06",
        description=(
            "A fall of DC 0 or less (1 m or less): nothing, as '(Height - 1)' means the first "
            "metre is harmless, or the damage table's DC 0 (S on QR1-QR3)."
        ),
    )


class ControlRoll(Model):
    method: FallMethod
    task: Task
    surprise_modifier: int = Field(default=0, ge=-10, le=0)


class FallInput(Model):
    condition: Condition = Field(default=Condition())
    height_m: float = Field(ge=0, le=MAX_HEIGHT, description="Distance fallen, in metres.")
    ds: DamageScale = Field(default=1, description="Damage scale of the faller.")
    gravity: float = Field(default=1, ge=0, le=100, description="Ambient gravity, in g.")
    control: ControlRoll | None = Field(default=None, description="A roll to control the fall.")
    soft_landing_m: float = Field(
        default=0, ge=0, le=MAX_HEIGHT, description="A soft landing: deep water is 3 m (F:L2779)."
    )
    located: bool = Field(
        default=True, description="False: no hit-location effects (the catalogue's Q5 'base')."
    )
    armor: Notation | None = Field(
        default=None,
        description="The melee (m) rating of the faller's armor, over every location: '3A'. "
        "Counted only with 'fall_armor' 'melee' (AMB2-27).",
    )
    options: FallOptions = Field(default=FallOptions())


def fall_dc(height: Fraction, ds: Fraction, gravity: Fraction) -> Fraction:
    """DC = (Height - 1) x DS^2 x G (F:L2765); for people on Earth, Height - 1 (F:L2769)."""
    return (height - 1) * ds * ds * gravity


class Fall(Model):
    control: FallControl | None
    effective_height_m: Exact
    dc: Exact
    hit: HazardHit | None = Field(description="Null when the fall does no damage (DC 0 or less).")
    pain_resistance_roll: bool
    condition: Condition
    wound_name: str
    dead: bool


def _control_request(request: FallInput) -> FallControlInput | None:
    if request.control is None:
        return None
    return FallControlInput(
        **dict(request.control),
        options=FallControlOptions(
            **{k: getattr(request.options, k) for k in FallControlOptions.model_fields}
        ),
    )


def _effective(request: FallInput, saved: int) -> Fraction:
    height = decimal(request.height_m) - saved - decimal(request.soft_landing_m)
    return max(Fraction(0), height)


def _layers(request: FallInput) -> tuple[tuple[int, int], ...]:
    """The armor a fall meets: none (the book's silence), or its melee rating (AMB2-27)."""
    if request.armor is None or request.options.fall_armor is FallArmor.NONE:
        return ()
    found = parse_armor_rating(request.armor, ("armor",))
    return ((found.reduction, found.absorb),)


def _harms(request: FallInput, dc: Fraction) -> bool:
    return dc > 0 or (request.options.hazard_dc0_rule is HazardDc0.TABLE and dc == 0)


def _aim(request: FallInput, on_legs: bool) -> Aim | None:
    if not request.located:
        return None
    return Aim.LEGS if on_legs else Aim.RANDOM


class FallOdds(Model):
    result: list[OutcomeProbability] = Field(description="'none', 'S', 1, 2 .. (catalogue Q5).")
    wound_level: list[OutcomeProbability]
    dead: Exact
    pain_resistance_roll: Exact


def _fall_odds(request: FallInput) -> FallOdds:
    """Every control QR (if any), then every way the hit goes."""
    options = request.options
    ds = decimal(request.ds)
    layers = _layers(request)
    control_request = _control_request(request)
    controls: Distribution[tuple[int, bool]] = Distribution({(0, False): 1})
    if control_request is not None:
        method = control_request.method
        controls = distribution(_control(control_request)).map(
            lambda qr: (reduction(method, qr, control_request.options), _on_legs(method, qr))
        )

    def hits(control: tuple[int, bool]) -> Distribution[tuple[Location | None, int | None]]:
        dc = fall_dc(_effective(request, control[0]), ds, decimal(request.gravity))
        if not _harms(request, dc):
            nothing: tuple[Location | None, int | None] = (None, None)
            return Distribution({nothing: 1})
        return hit_outcomes(dc, ds, _aim(request, control[1]), options, layers)

    found = controls.then(hits)
    start = request.condition.wound_level
    levels = found.map(lambda o: accumulate(start, o[1] or 0, o[0], options))
    return FallOdds(
        result=outcome_table(found.map(lambda o: written(o[1]))),
        wound_level=outcome_table(levels),
        dead=exact(levels.probability_where(lambda w: w >= DEAD)),
        pain_resistance_roll=exact(found.probability_where(lambda o: o[1] is not None)),
    )


@operation(
    name="falling",
    kind=Kind.GENERATION,
    covers=("foresight.falling",),
    odds=_fall_odds,
    cost=lambda request: Estimate(4_000, ()),
    example={"height_m": 6, "dice": {"values": [7, 5]}},
)
def falling(request: FallInput, dice: Dice) -> Fall:
    """Falling damage is DC = (Height - 1) x DS^2 x G, for people on Earth Height - 1
    (F:L2765-2769), resolved as damage without a QR; a controlled or acrobatic landing takes
    it on the legs (F:L2771). A control roll and a soft landing shorten the effective height;
    into deep water, 3 m (F:L2779). Armor counts only with 'fall_armor' (AMB2-27)."""
    options = request.options
    layers = _layers(request)
    control_request = _control_request(request)
    control = None if control_request is None else falling_control.rule(control_request, dice)
    assert control is None or isinstance(control, FallControl)
    height = _effective(request, 0 if control is None else control.reduction_m)
    dc = fall_dc(height, decimal(request.ds), decimal(request.gravity))
    condition, report, pain = request.condition, None, False
    if _harms(request, dc):
        aim = _aim(request, control is not None and control.on_legs)
        report, hit = roll_hazard_hit(dc, decimal(request.ds), aim, dice, options, layers)
        condition = wound(condition, hit.damage or 0, hit.location, options)
        pain = hit.damage is not None
    return Fall(
        control=control,
        effective_height_m=exact(height),
        dc=exact(dc),
        hit=report,
        pain_resistance_roll=pain,
        condition=condition,
        wound_name=wound_name(condition.wound_level),
        dead=is_dead(condition),
    )
