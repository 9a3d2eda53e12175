"""Healing with no equipment (FI:L605-623): a simple (3) medicine roll of any kind restores all
CT in about 5 minutes, otherwise 1 CT a minute (FI:L607); within an hour of the injury a healer
rolls once for each wounded area at its level's TN, success taking a level off (FI:L609-619);
after that, a Fortitude roll every 5 days for each area does the same (FI:L623)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    OutcomeProbability,
    Truncation,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    CHECK,
    CHECK_BUMPS_ROLLED,
    DEPTH,
    Checked,
    CheckInput,
    CheckOdds,
    graded,
    odds_of,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.future_imperfect.harm.location import WoundLocation
from service.rules.future_imperfect.harm.options import HarmOptions
from service.rules.future_imperfect.harm.wounds import MaxCt, level_tn, level_within_cap
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["ct_healing", "medical", "natural"]

SIMPLE = 3
#: Minutes a successful care takes (FI:L607) and the hour treatment must come within (FI:L609).
CARE_MINUTES, GOLDEN_HOUR = 5, 60
Penalty = Annotated[int, Field(ge=-20, le=0)]
AreaLevel = Annotated[int, Field(ge=1, le=6)]
LIMB_LOST = 5


def _cost(request: Model) -> Estimate:
    """One check (core/check's bound)."""
    return CHECK


class CtInput(Model):
    pool: PoolText | None = Field(
        default=None,
        description="The carer's medicine pool, or the trait of a default roll; "
        "null: no one tends him.",
    )
    default: bool = Field(
        default=False,
        description="An unskilled default roll, halved (FI:L247): 'any kind (including default)'.",
    )
    wound_penalty: Penalty = 0
    ct: Annotated[int, Field(ge=-10_000, le=10_000)]
    max_ct: MaxCt
    minutes: Annotated[int, Field(ge=0, le=100_000)] = Field(description="Minutes passed.")
    options: HarmOptions = Field(default=HarmOptions())


class CtHealed(Model):
    check: Checked | None
    ct: int = Field(description="CT after the minutes passed.")


def _ct_check(request: CtInput) -> CheckInput | None:
    if request.pool is None:
        return None
    return CheckInput(
        pool=request.pool, tn=SIMPLE, wound_penalty=request.wound_penalty, options=request.options
    )


def _restores(success: bool, request: CtInput) -> bool:
    """The care restores all CT: the roll succeeds and it has had its 5 minutes (FI:L607)."""
    return success and request.minutes >= CARE_MINUTES


class CtOdds(Model):
    restored: list[OutcomeProbability] = Field(
        description="P(the care restores all CT): never untended or under 5 minutes (FI:L607)."
    )
    check: CheckOdds | None = Field(description="The roll's own odds; null, no one tends him.")
    truncation: Truncation | None


def ct_odds(request: CtInput) -> CtOdds:
    """P(the care restores all CT), exactly, by the run's rule (`_restores`)."""
    check = _ct_check(request)
    if check is None:
        return CtOdds(restored=outcome_table(Distribution({False: 1}), [True, False]),
                      check=None, truncation=None)  # fmt: skip
    found = results(check, request.default).map(
        lambda r: _restores(graded(r[1], r[0], check)[0], request)
    )
    return CtOdds(restored=outcome_table(found, [True, False]),
                  check=odds_of(check, request.default),
                  truncation=truncation(found, DEPTH))  # fmt: skip


def ct_cost(request: CtInput) -> Estimate:
    """One check (core/check's bound) read twice."""
    return Estimate(2 * CHECK.states, ())


@operation(
    name="healing/ct",
    rolled=CHECK_BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.healing.ct",),
    odds=ct_odds,
    cost=ct_cost,
    example={"pool": "II-2", "ct": -3, "max_ct": 12, "minutes": 5, "dice": {"values": [4, 2]}},
)
def ct_healing(request: CtInput, dice: Dice) -> CtHealed:
    """On a simple (3) medicine roll of any kind, default included, anyone restores all CT in
    about 5 minutes; otherwise CT comes back at 1 a minute (FI:L607), up to the starting CT."""
    check = _ct_check(request)
    checked = roll_check(check, dice, request.default) if check else None
    natural = min(request.max_ct, request.ct + request.minutes)
    if checked and _restores(checked.success, request):
        return CtHealed(check=checked, ct=max(request.max_ct, request.ct))
    return CtHealed(check=checked, ct=max(natural, request.ct))


class Healer(StrEnum):
    FIRST_AID = "first_aid"
    GENERAL = "medicine_general"
    SURGERY = "medicine_surgery"


#: The highest level each skill treats: general Light and Heavy (FI:L609), surgery 'more
#: severe wounds' (FI:L609); first aid's is an option (A-68).
GENERAL_MAX = 3


class MedicalInput(Model):
    pool: PoolText = Field(description="The healer's skill pool.")
    skill: Healer
    minutes_since_injury: Annotated[int, Field(ge=0, le=100_000)]
    location: WoundLocation
    level: AreaLevel = Field(description="The area's wound level.")
    wound_penalty: Penalty = Field(default=0, description="The healer's own.")
    options: HarmOptions = Field(default=HarmOptions())


class Healed(Model):
    allowed: bool
    reason: str | None = Field(description="Why no roll is allowed.")
    tn: int | None
    check: Checked | None
    level: int = Field(description="The area's level after.")


def _limb_lost(location: WoundLocation, level: int) -> bool:
    return level >= LIMB_LOST and location not in (WoundLocation.HEAD, WoundLocation.TORSO)


def _refused(request: MedicalInput) -> str | None:
    top = {
        Healer.FIRST_AID: request.options.first_aid_max_level,
        Healer.GENERAL: GENERAL_MAX,
        Healer.SURGERY: 6,
    }[request.skill]
    if request.minutes_since_injury > GOLDEN_HOUR:
        return "after an hour only time heals a wound (FI:L621)"
    if _limb_lost(request.location, request.level):
        return "a critical limb cannot be healed by normal means (FI:L611)"
    if request.level > top:
        return f"{request.skill.value} treats wounds up to level {top} (FI:L609, A-68)"
    return None


def _medical_check(request: MedicalInput) -> CheckInput | None:
    level_within_cap(request.level, request.options, ("level",))
    if _refused(request):
        return None
    return CheckInput(
        pool=request.pool,
        tn=level_tn(request.level),
        wound_penalty=request.wound_penalty,
        options=request.options,
    )


class HealingOdds(Model):
    allowed: bool
    check: CheckOdds | None


def medical_odds(request: MedicalInput) -> HealingOdds:
    """P(the area improves a level), exactly."""
    check = _medical_check(request)
    return HealingOdds(allowed=check is not None, check=odds_of(check) if check else None)


def _healed(check: CheckInput | None, level: int, reason: str | None, dice: Dice) -> Healed:
    if check is None:
        return Healed(allowed=False, reason=reason, tn=None, check=None, level=level)
    checked = roll_check(check, dice)
    return Healed(
        allowed=True,
        reason=None,
        tn=check.tn,
        check=checked,
        level=level - 1 if checked.success else level,
    )


@operation(
    name="healing/medical",
    rolled=CHECK_BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.healing.medical",),
    odds=medical_odds,
    cost=_cost,
    example={
        "pool": "III-3",
        "skill": "medicine_general",
        "minutes_since_injury": 20,
        "location": "left_arm",
        "level": 3,
        "dice": {"values": [7, 2, 5]},
    },
)
def medical(request: MedicalInput, dice: Dice) -> Healed:
    """Only those skilled in medicine or first aid treat real wounds, within an hour of the
    injury; medicine: general heals Light and Heavy wounds, only surgery worse ones (FI:L609).
    One roll each wounded area, at its level's TN (5 Light, 7 Heavy, 9 Serious, 11
    Critical); success takes a level off; a Critical limb cannot be healed (FI:L611-619)."""
    return _healed(_medical_check(request), request.level, _refused(request), dice)


class NaturalInput(Model):
    fortitude: PoolText
    location: WoundLocation
    level: AreaLevel
    wound_penalty: Penalty = Field(default=0, description="The patient's own (FI:L564).")
    options: HarmOptions = Field(default=HarmOptions())


def _natural_check(request: NaturalInput) -> CheckInput | None:
    level_within_cap(request.level, request.options, ("level",))
    if _limb_lost(request.location, request.level):
        return None
    return CheckInput(
        pool=request.fortitude,
        tn=level_tn(request.level),
        wound_penalty=request.wound_penalty,
        options=request.options,
    )


def natural_odds(request: NaturalInput) -> HealingOdds:
    """P(the area improves a level in 5 days), exactly."""
    check = _natural_check(request)
    return HealingOdds(allowed=check is not None, check=odds_of(check) if check else None)


@operation(
    name="healing/natural",
    rolled=CHECK_BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.healing.natural",),
    odds=natural_odds,
    cost=_cost,
    example={"fortitude": "III-2", "location": "torso", "level": 2, "dice": {"values": [6, 1]}},
)
def natural(request: NaturalInput, dice: Dice) -> Healed:
    """Every 5 days a Fortitude roll for each wounded area against the same TNs: success
    improves it one level (FI:L623). A Critical limb does not heal by normal means (FI:L611)."""
    reason = "a critical limb cannot be healed by normal means (FI:L611)"
    return _healed(_natural_check(request), request.level, reason, dice)
