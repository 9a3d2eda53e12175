"""Air and pressure (FI:L37-51): vacuum, choking and suffocation, held breath and high pressure.
Each round in vacuum a difficult (7) Fortitude check or the difference in CT; without a
suit, every 2 minutes another or 1(3) damage; choking checks every other round, a skilled
choke every round and one failure knocks out; breath held for 6 turns a Fortitude column;
a failed high-pressure check brings the bends."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import CHECK, DEPTH, Checked, check_cost, roll_check
from service.rules.future_imperfect.core.damage import (
    Draw,
    Size,
    damage_distribution,
    roll_concussion,
    roll_damage,
    roll_location,
    wounds_for,
    wounds_of,
)
from service.rules.future_imperfect.core.pools import parse
from service.rules.future_imperfect.environment.exposure import (
    UNHARMED,
    Exposed,
    Exposure,
    LossOdds,
    check_of,
    exposed,
    loss_odds,
    losses,
)
from service.rules.future_imperfect.environment.options import (
    ChokeScope,
    EnvironmentOptions,
    LossKind,
    Placement,
    Rounding,
)
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["breath_hold", "high_pressure", "suffocation", "vacuum_breathing", "vacuum_pressure"]

#: Vacuum and choking are difficult (FI:L39, FI:L43).
TN = 7
#: What vacuum pressure deals without a suit (FI:L39).
PRESSURE = "1(3)"


class BreathingInput(Exposure):
    oxygen: bool = Field(default=False, description="A source of oxygen negates it entirely.")
    size: Size = Field(default=6, description="For losses read as damage (A-18).")
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Breathing(Exposed):
    wounds: int = Field(description="Where the loss is read as damage (A-18); else 0.")


class BreathingOdds(LossOdds):
    wounds: list[OutcomeProbability]


def breathing_odds(request: BreathingInput) -> BreathingOdds:
    """The CT lost to one round of vacuum, exactly; read as damage (A-18), the wounds."""
    found = UNHARMED if request.oxygen else losses(check_of(request, TN, request.options))
    if request.options.vacuum_loss_kind is LossKind.DAMAGE:
        wounded = wounds_for(request.size)
        wounds = found.map(lambda o: wounded(o[1]))
        found = found.map(lambda o: (o[0], 0))
    else:
        wounds = found.map(lambda o: 0)
    return BreathingOdds(**dict(loss_odds(found)), wounds=outcome_table(wounds))


@operation(
    name="environment/vacuum/breathing",
    kind=Kind.CHECK,
    covers=("fi.environment.vacuum.breathing",),
    odds=breathing_odds,
    cost=check_cost,
    example={"pool": "II-3", "dice": {"values": [5, 2, 1]}},
)
def vacuum_breathing(request: BreathingInput, dice: Dice) -> Breathing:
    """Each round in vacuum (or air as thin, as the Master says), a difficult (7) Fortitude
    check; the damage is the difference between the EN and the TN, lost as CT like smoke's
    (A-18); only a source of oxygen negates it (FI:L39)."""
    if request.oxygen:
        return Breathing(check=None, ct_loss=0, wounds=0)
    found = exposed(check_of(request, TN, request.options), dice)
    if request.options.vacuum_loss_kind is LossKind.DAMAGE:
        wounds = wounds_of(found.ct_loss, request.size)
        return Breathing(check=found.check, ct_loss=0, wounds=wounds)
    return Breathing(**dict(found), wounds=0)


class PressureInput(Exposure):
    equipped: bool = Field(default=False, description="The appropriate equipment: no check.")
    size: Size = 6
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Pressure(Model):
    check: Checked | None
    damage: Draw | None = Field(description="1(3) on a failed check.")
    wounds: int
    location: str | None
    concussion: list[tuple[int, ...]]
    ct_loss: int


class PressureOdds(Model):
    wounds: list[OutcomeProbability]
    success: Exact
    truncation: Truncation | None


def pressure_odds(request: PressureInput) -> PressureOdds:
    """The wounds of one 2-minute interval without a suit, exactly."""
    if request.equipped:
        return PressureOdds(wounds=outcome_table(Distribution({0: 1})), success=exact(Fraction(1)),
                            truncation=None)  # fmt: skip
    passed = losses(check_of(request, TN, request.options)).map(lambda o: o[0])
    damage, depth = damage_distribution(parse(PRESSURE), request.options)
    wounds = damage.map(wounds_for(request.size))
    found = passed.then(lambda ok: Distribution({0: 1}) if ok else wounds)
    return PressureOdds(wounds=outcome_table(found), success=exact(passed.probability(True)),
                        truncation=truncation(found, max(depth, DEPTH)))  # fmt: skip


def pressure_cost(request: PressureInput) -> Estimate:
    """One check's kept die and one d8's chain (a few thousand states)."""
    return Estimate(CHECK.states + 10_000, ())


@operation(
    name="environment/vacuum/pressure",
    kind=Kind.CHECK,
    covers=("fi.environment.vacuum.pressure",),
    odds=pressure_odds,
    cost=pressure_cost,
    example={"pool": "II-2", "dice": {"values": [1, 3, 7, 12, 4]}},
)
def vacuum_pressure(request: PressureInput, dice: Dice) -> Pressure:
    """Caught in vacuum without the appropriate equipment, a difficult (7) Fortitude check
    every 2 minutes (12 rounds) or take 1(3) (FI:L39), at a random location or the torso
    (A-18); each wound level costs 1d6 CT (FI:L591)."""
    if request.equipped:
        return Pressure(check=None, damage=None, wounds=0, location=None, concussion=[],
                        ct_loss=0)  # fmt: skip
    checked = roll_check(check_of(request, TN, request.options), dice)
    if checked.success:
        return Pressure(check=checked, damage=None, wounds=0, location=None, concussion=[],
                        ct_loss=0)  # fmt: skip
    damage = roll_damage(parse(PRESSURE), dice, request.options, "pressure")
    wounds = wounds_of(damage.total, request.size)
    torso = request.options.pressure_damage_location is Placement.TORSO
    location = None if not wounds else "torso" if torso else roll_location(dice)
    concussion = roll_concussion(wounds, dice)
    return Pressure(check=checked, damage=damage, wounds=wounds, location=location,
                    concussion=concussion, ct_loss=sum(sum(d) for d in concussion))  # fmt: skip


class Choke(StrEnum):
    ENVIRONMENTAL = "environmental"
    CHOKING = "choking"
    ACTIVE_SKILLED = "active_skilled"


class SuffocationInput(Exposure):
    mode: Choke = Field(
        description="environmental or choking: a check every other round; active_skilled: "
        "choked by a skilled practitioner, a check every round (FI:L43)."
    )
    round: Annotated[int, Field(ge=1, le=10_000)] = Field(
        default=1, description="The round of choking, from 1: the first round checks."
    )
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Suffocation(Exposed):
    unconscious: bool = Field(description="A single failure under a skilled choke (A-19).")


def _checks(request: SuffocationInput) -> bool:
    return request.mode is Choke.ACTIVE_SKILLED or request.round % 2 == 1


def _knocks_out(request: SuffocationInput) -> bool:
    scope = request.options.choke_single_failure_scope
    return request.mode is Choke.ACTIVE_SKILLED or scope is ChokeScope.ALL


class SuffocationOdds(LossOdds):
    unconscious: list[OutcomeProbability]


def suffocation_odds(request: SuffocationInput) -> SuffocationOdds:
    """The CT lost this round and whether it knocks the character out, exactly: a failure
    that knocks him out still costs the difference in CT (`suffocation`)."""
    found = losses(check_of(request, TN, request.options)) if _checks(request) else UNHARMED
    out = found.map(lambda o: not o[0] and _knocks_out(request))
    return SuffocationOdds(**dict(loss_odds(found)), unconscious=outcome_table(out))


@operation(
    name="environment/suffocation",
    kind=Kind.CHECK,
    covers=("fi.environment.suffocation",),
    odds=suffocation_odds,
    cost=check_cost,
    example={"pool": "III-2", "mode": "choking", "round": 3, "dice": {"values": [4, 2]}},
)
def suffocation(request: SuffocationInput, dice: Dice) -> Suffocation:
    """Choking and suffocation work like vacuum: a difficult (7) Fortitude check, the
    difference lost in CT, but every other round (taken here as the odd rounds, the first
    included); actively choked by a skilled practitioner, every round, and a single failure
    knocks the character out (FI:L43, A-19). The knock-out comes on top of the CT: choking
    "works exactly the same way" as vacuum (FI:L43, FI:L39), CT is taken while the breath is
    held against it (FI:L47), and an unconscious character goes on losing CT (FI:L33)."""
    if not _checks(request):
        return Suffocation(check=None, ct_loss=0, unconscious=False)
    found = exposed(check_of(request, TN, request.options), dice)
    assert found.check is not None
    return Suffocation(**dict(found),
                       unconscious=_knocks_out(request) and not found.check.success)  # fmt: skip


class Exertion(StrEnum):
    LIGHT = "light"
    STRENUOUS = "strenuous"


class BreathInput(Model):
    fortitude_column: Annotated[int, Field(ge=1, le=5)]
    exertion: Exertion = Exertion.LIGHT
    turns_held: Annotated[int, Field(ge=0, le=1000)] = Field(
        default=0, description="Turns the breath has been held."
    )
    ct_taken: tuple[Annotated[int, Field(ge=0, le=1000)], ...] = Field(
        default=(), max_length=100, description="Each CT loss taken while holding it."
    )
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Breath(Model):
    turns: int = Field(description="Turns the breath can be held at all.")
    turns_left: float = Field(description="Halves kept where the option keeps them (A-20).")
    suffocating: bool = Field(description="Out of breath: suffocation checks begin (A-20).")


@operation(
    name="environment/breath-hold",
    kind=Kind.CALCULATION,
    covers=("fi.environment.breath_hold",),
    example={"fortitude_column": 3, "turns_held": 4, "ct_taken": [3]},
)
def breath_hold(request: BreathInput) -> Breath:
    """Where choking is environmental, breath holds 6 turns (one minute) a Fortitude column at
    light tasks, half as long at strenuous ones; each CT taken meanwhile takes half itself
    off the turns left (FI:L47)."""
    per_column = 6 if request.exertion is Exertion.LIGHT else 3
    turns = per_column * request.fortitude_column
    halves = [Fraction(ct, 2) for ct in request.ct_taken]
    if request.options.breath_rounding is Rounding.FLOOR:
        halves = [Fraction(int(h)) for h in halves]
    left = turns - request.turns_held - sum(halves, Fraction(0))
    return Breath(turns=turns, turns_left=float(left), suffocating=left <= 0)


class PressureDiveInput(Exposure):
    prepared: bool = Field(
        default=True, description="Properly equipped and skilled: the check is TN 5."
    )
    tn: Annotated[int, Field(ge=9, le=100)] = Field(
        default=9, description="Without proper equipment, the Master's TN, at least 9."
    )
    max_ct: Annotated[int, Field(ge=1, le=1000)]
    knowledge_column: Annotated[int, Field(ge=1, le=5)]
    options: EnvironmentOptions = Field(default=EnvironmentOptions())


class Bends(Model):
    check: Checked
    bends: bool
    max_ct: int = Field(description="Halved by the bends, rounded down (A-21).")
    knowledge_column: int = Field(description="One column left, never below 1 (A-21).")
    hours: int = Field(description="How long: a day, or until treated.")


def _dive_tn(request: PressureDiveInput) -> int:
    return 5 if request.prepared else request.tn


class BendsOdds(Model):
    bends: list[OutcomeProbability]
    truncation: Truncation | None


def high_pressure_odds(request: PressureDiveInput) -> BendsOdds:
    """The chance of the bends, exactly."""
    found = losses(check_of(request, _dive_tn(request), request.options)).map(lambda o: not o[0])
    return BendsOdds(bends=outcome_table(found),
                     truncation=truncation(found, DEPTH))  # fmt: skip


@operation(
    name="environment/high-pressure",
    kind=Kind.CHECK,
    covers=("fi.environment.high_pressure",),
    odds=high_pressure_odds,
    cost=check_cost,
    example={"pool": "III-2", "max_ct": 25, "knowledge_column": 3, "dice": {"values": [4, 2]}},
)
def high_pressure(request: PressureDiveInput, dice: Dice) -> Bends:
    """Properly equipped and skilled, an appropriate skill check at TN 5; without equipment
    the Master's TN, at least 9. Failure is the bends: maximum CT halved and Knowledge one
    column left, for a day or until treated (FI:L51)."""
    checked = roll_check(check_of(request, _dive_tn(request), request.options), dice)
    bent = not checked.success
    return Bends(
        check=checked,
        bends=bent,
        max_ct=request.max_ct // 2 if bent else request.max_ct,
        knowledge_column=max(request.knowledge_column - 1, 1) if bent else request.knowledge_column,
        hours=24 if bent else 0,
    )
