"""Wounds and what follows them (FI:L524-601): five levels a location, added up only within
a location (FI:L526, L558); the highest wound's penalty on every roll but effect totals
(FI:L564); a Fortitude stun check at the Stun TN on each wound (FI:L575-577) and recovery
checks at the highest wound's TN (FI:L581); 1d6 CT open-ended a level (FI:L591); Concussed
at 0 CT (FI:L593); bleeding from Heavy wounds, to death at minus the starting CT (FI:L601).

One scale serves every table: level 0-5 (6 with `wound_cap` 6, "Maimed"), TN 1 + 2 x level
and never under 3, the tables' Scratched, Concussion and Wind rows being level 1 (A-62)."""

from enum import StrEnum
from math import ceil
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
    odds_of,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.damage import (
    ct_dice_only,
    depth_for,
    roll_concussion,
    sum_states,
    summed,
)
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.future_imperfect.harm.location import LOCATIONS, WoundLocation
from service.rules.future_imperfect.harm.options import (
    BleedAggregation,
    CtDeath,
    HarmOptions,
    StunBasis,
    StunTrigger,
)
from service.rules.future_imperfect.harm.tables import WOUND_LEVELS
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["Sheet", "level_tn", "level_within_cap", "penalty", "within_cap", "worst"]

Level = Annotated[int, Field(ge=0, le=6)]
Ct = Annotated[int, Field(ge=-10_000, le=10_000)]
MaxCt = Annotated[int, Field(ge=1, le=10_000, description="The starting CT (another chapter).")]
SERIOUS = 4
#: A limb or the head and torso: only the latter kill (FI:L560).
VITAL = (WoundLocation.HEAD, WoundLocation.TORSO)


class Sheet(Model):
    """The wound levels of the six locations (FI:L556)."""

    head: Level = 0
    torso: Level = 0
    left_arm: Level = 0
    right_arm: Level = 0
    left_leg: Level = 0
    right_leg: Level = 0

    def at(self, location: WoundLocation) -> int:
        level: int = getattr(self, location.value)
        return level


def worst(sheet: Sheet) -> int:
    return max(sheet.at(location) for location in LOCATIONS)


def within_cap(sheet: Sheet, options: HarmOptions) -> Sheet:
    """The sheet, if no location holds more than `wound_cap` levels."""
    for location in LOCATIONS:
        level_within_cap(sheet.at(location), options, ("sheet", location.value))
    return sheet


def level_within_cap(level: int, options: HarmOptions, field: tuple[str, ...]) -> int:
    """A location holds five levels (FI:L526); a sixth ('Maimed', TN 13) only with wound_cap 6
    (A-62). `field` names the input that gave the level."""
    if level > options.wound_cap:
        raise InputError(
            field,
            f"a location holds at most {options.wound_cap} wound levels (FI:L526); "
            "a sixth, 'Maimed', needs options.wound_cap 6 (A-62)",
        )
    return level


def penalty(sheet: Sheet, options: HarmOptions) -> int:
    """The highest wound's modifier (FI:L566-573); Serious is -4 or, by the example, -3 (A-63)."""
    level = worst(sheet)
    return options.serious_wound_penalty if level == SERIOUS else WOUND_LEVELS[level].penalty


def level_tn(level: int) -> int:
    """The Stun, recovery and healing TN of a level: 3, 5, 7, 9, 11, 13 (A-62)."""
    return WOUND_LEVELS[level].tn


class ApplyInput(Model):
    sheet: Sheet = Field(default=Sheet())
    location: WoundLocation
    levels: Annotated[int, Field(ge=0, le=1000)] = Field(description="Wound levels of the hit.")
    options: HarmOptions = Field(default=HarmOptions())


class Wounded(Model):
    sheet: Sheet
    taken: int = Field(description="Levels the location took; the rest are lost (A-62).")
    critically_injured: bool = Field(
        description="Head or torso Critical: 'generally means dead' (FI:L540)."
    )
    limbs_destroyed: list[WoundLocation] = Field(
        description="Critical limbs: out of action forever."
    )
    wound_penalty: int


@operation(
    name="wounds/apply",
    kind=Kind.LOOKUP,
    covers=("fi.wounds.apply", "fi.wounds.critical"),
    example={"sheet": {"right_arm": 2}, "location": "right_arm", "levels": 2},
)
def apply(request: ApplyInput) -> Wounded:
    """Wounds add up only in the same location: a Light and then another Light wound to the
    right arm make it Serious (FI:L558); each location takes five (FI:L526). A Critical head
    or torso is critically injured, a Critical limb severed or crushed (FI:L540); arms and
    legs never kill (FI:L560)."""
    cap = request.options.wound_cap
    before = within_cap(request.sheet, request.options).at(request.location)
    after = min(cap, before + request.levels)
    sheet = request.sheet.model_copy(update={request.location.value: after})
    critical = [loc for loc in LOCATIONS if sheet.at(loc) >= 5]
    return Wounded(
        sheet=sheet,
        taken=after - before,
        critically_injured=any(loc in VITAL for loc in critical),
        limbs_destroyed=[loc for loc in critical if loc not in VITAL],
        wound_penalty=penalty(sheet, request.options),
    )


class ModifierInput(Model):
    sheet: Sheet
    options: HarmOptions = Field(default=HarmOptions())


class WoundModifier(Model):
    level: int = Field(description="The highest wound, wherever it is.")
    name: str
    wound_penalty: int = Field(description="On every roll but effect totals such as damage.")
    stun_tn: int


@operation(
    name="wounds/modifier",
    kind=Kind.LOOKUP,
    covers=("fi.wounds.modifier",),
    example={"sheet": {"left_leg": 2, "torso": 4}},
)
def modifier(request: ModifierInput) -> WoundModifier:
    """The penalty is the highest wound's, wherever it is: -1 Scratched, -2 Light, -3 Heavy,
    -4 Serious, -5 Critical (FI:L566-571). With a Light and a Serious wound the example
    subtracts 'the penalty for serious wounds (-3)' (FI:L573): the table's -4 by default,
    `serious_wound_penalty` -3 for the example (A-63)."""
    level = worst(within_cap(request.sheet, request.options))
    return WoundModifier(
        level=level,
        name=WOUND_LEVELS[level].name,
        wound_penalty=penalty(request.sheet, request.options),
        stun_tn=level_tn(level),
    )


class StunInput(Model):
    fortitude: PoolText
    sheet: Sheet = Field(description="The wounds after the hit.")
    location: WoundLocation = Field(description="Where the hit landed.")
    levels: Annotated[int, Field(ge=0, le=1000)] = Field(description="Levels this hit inflicted.")
    stunned: bool = Field(default=False, description="Already stunned: no check (FI:L577).")
    options: HarmOptions = Field(default=HarmOptions())


class Stun(Model):
    required: bool
    tn: int | None
    wound_penalty: int
    check: Checked | None
    stunned: bool


def _stun_level(request: StunInput) -> int:
    """The wound level whose Stun TN the check is at (A-64): a hit that wounds nothing
    (`stun_trigger` damage, FI:L575) the unwounded row's, TN 3, whatever the wounds already
    taken; otherwise as `stun_tn_basis` reads it."""
    options = request.options
    if request.levels == 0:
        return 0
    return {
        StunBasis.LOCATION_LEVEL: within_cap(request.sheet, options).at(request.location),
        StunBasis.LEVELS_INFLICTED: min(request.levels, options.wound_cap),
        StunBasis.HIGHEST: worst(request.sheet),
    }[options.stun_tn_basis]


def _stun_check(request: StunInput) -> CheckInput | None:
    """The check a hit calls for, or None (A-64); wound penalties apply (FI:L575)."""
    options = request.options
    within_cap(request.sheet, options)
    if request.stunned or (request.levels == 0 and options.stun_trigger is StunTrigger.WOUND):
        return None
    return CheckInput(
        pool=request.fortitude,
        tn=level_tn(_stun_level(request)),
        wound_penalty=penalty(request.sheet, options),
        options=options,
    )


class StunOdds(Model):
    stunned: list[OutcomeProbability]
    check: CheckOdds | None
    truncation: Truncation | None


def stun_odds(request: StunInput) -> StunOdds:
    """P(stunned), exactly (catalogue 5.6 T11)."""
    check = _stun_check(request)
    if check is None:
        none = Distribution({request.stunned: 1})
        return StunOdds(stunned=outcome_table(none), check=None, truncation=None)
    found = results(check).map(lambda r: r[0] or r[1] < check.tn)
    return StunOdds(
        stunned=outcome_table(found, [True, False]),
        check=odds_of(check),
        truncation=truncation(found, DEPTH),
    )


def check_bound(request: Model) -> Estimate:
    """One check (core/check's bound) read twice."""
    return Estimate(2 * CHECK.states, ())


@operation(
    name="wounds/stun-check",
    rolled=CHECK_BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.wounds.stun_check",),
    odds=stun_odds,
    cost=check_bound,
    example={
        "fortitude": "III-2",
        "sheet": {"torso": 2},
        "location": "torso",
        "levels": 2,
        "dice": {"values": [4, 8, 3]},
    },
)
def stun_check(request: StunInput, dice: Dice) -> Stun:
    """Whenever a character takes a wound (unless already stunned) he makes a Fortitude check,
    wound penalties applied, against the Stun TN: 3 Scratched, 5 Light, 7 Heavy, 9 Serious, 11
    Critical (FI:L566-577); failing, he is stunned until a recovery check succeeds. The TN is
    the struck location's level after the hit (A-64)."""
    check = _stun_check(request)
    if check is None:
        return Stun(
            required=False,
            tn=None,
            wound_penalty=penalty(request.sheet, request.options),
            check=None,
            stunned=request.stunned,
        )
    checked = roll_check(check, dice)
    return Stun(
        required=True,
        tn=check.tn,
        wound_penalty=check.wound_penalty,
        check=checked,
        stunned=not checked.success,
    )


class RecoveryInput(Model):
    fortitude: PoolText
    sheet: Sheet = Field(default=Sheet())
    options: HarmOptions = Field(default=HarmOptions())


class Recovered(StrEnum):
    RECOVERED = "recovered"
    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"


class Recovery(Model):
    tn: int
    check: Checked
    outcome: Recovered
    hours_unconscious: int | None = Field(
        description="1d6 on a critical failure, or until a Fair (5) medicine roll wakes him."
    )


def _recovery_check(request: RecoveryInput) -> CheckInput:
    return CheckInput(
        pool=request.fortitude,
        tn=level_tn(worst(within_cap(request.sheet, request.options))),
        wound_penalty=penalty(request.sheet, request.options),
        options=request.options,
    )


def _recovered(cf: bool, success: bool) -> Recovered:
    if cf:
        return Recovered.UNCONSCIOUS
    return Recovered.RECOVERED if success else Recovered.STUNNED


class RecoveryOdds(Model):
    outcome: list[OutcomeProbability]
    truncation: Truncation | None


def recovery_odds(request: RecoveryInput) -> RecoveryOdds:
    """P(recover), P(still stunned), P(unconscious), exactly."""
    check = _recovery_check(request)
    found = results(check).map(lambda r: _recovered(r[0], r[1] >= check.tn))
    return RecoveryOdds(
        outcome=outcome_table(found, list(Recovered)), truncation=truncation(found, DEPTH)
    )


@operation(
    name="wounds/recovery",
    kind=Kind.CHECK,
    covers=("fi.wounds.recovery",),
    odds=recovery_odds,
    cost=check_bound,
    example={"fortitude": "III-2", "sheet": {"left_arm": 3}, "dice": {"values": [8, 2, 3]}},
)
def recovery(request: RecoveryInput, dice: Dice) -> Recovery:
    """A recovery check takes an entire action: Fortitude, wound penalties applied, against the
    highest current wound's TN (3 with none, the Concussion row; 5, 7, 9, 11; FI:L581-589).
    A critical failure knocks him out for 1d6 hours (FI:L581)."""
    check = _recovery_check(request)
    checked = roll_check(check, dice)
    outcome = _recovered(checked.critical_failure, checked.success)
    hours = dice.roll(6, "hours unconscious") if outcome is Recovered.UNCONSCIOUS else None
    return Recovery(tn=check.tn, check=checked, outcome=outcome, hours_unconscious=hours)


class ConcussionInput(Model):
    levels: Annotated[int, Field(ge=0, le=6)] = Field(
        description="Wound levels the hit inflicted, at most what a location holds (A-62)."
    )
    held: Level = Field(
        default=0,
        description="Wound levels the struck location held before the hit: the levels past "
        "what it can still take are lost and roll no CT (FI:L526, A-62).",
    )
    stopped: bool = Field(default=False, description="Armor or cover stopped the hit (A-65).")
    options: HarmOptions = Field(default=HarmOptions())


class Concussion(Model):
    dice: list[tuple[int, ...]]
    ct_loss: int


def _ct_dice(request: ConcussionInput) -> int:
    """The d6 the hit rolls: one a level the struck location can still take (the rest are lost,
    A-62), at least one (FI:L591); a hit armor or cover
    stopped got no damage through, so it inflicted no level (FI:L491), and costs nothing or,
    with `ct_on_armor_stop`, the woundless hit's one d6 (A-65). CT is dice: the deck engine
    is refused, even where no die is rolled (`ct_dice_only`)."""
    ct_dice_only(request.options)
    room = request.options.wound_cap - level_within_cap(request.held, request.options, ("held",))
    if request.stopped and request.levels:
        raise InputError(("levels",), "a hit armor or cover stopped inflicts no wound levels "
                                      "(FI:L491): give levels 0 (A-65)")  # fmt: skip
    if request.stopped and not request.options.ct_on_armor_stop:
        return 0
    return max(min(request.levels, room), 1)


class ConcussionOdds(Model):
    ct_loss: list[OutcomeProbability]
    truncation: Truncation | None


def concussion_odds(request: ConcussionInput) -> ConcussionOdds:
    """The CT lost: the sum of that many open-ended d6, exactly (catalogue 5.5 T19)."""
    count = _ct_dice(request)
    found = summed([6] * count)
    return ConcussionOdds(
        ct_loss=outcome_table(found), truncation=truncation(found, depth_for([6] * count))
    )


def concussion_cost(request: ConcussionInput) -> Estimate:
    """At most six open-ended d6 summed, and the table."""
    return Estimate(2 * sum_states([6] * 6) + 100, ())


@operation(
    name="wounds/concussion",
    kind=Kind.GENERATION,
    covers=("fi.wounds.concussion",),
    odds=concussion_odds,
    cost=concussion_cost,
    example={"levels": 2, "dice": {"values": [6, 3, 2]}},
)
def concussion(request: ConcussionInput, dice: Dice) -> Concussion:
    """For every wound level suffered, 1d6 CT; a hit that wounds nothing still costs at least
    1d6; open-ended (FI:L591). Levels past the `wound_cap` a location holds are lost, and roll
    nothing (A-62): a hit of 3 levels to an arm already Heavy (3) suffers 2, and one to a
    Critical arm none, so it costs the woundless hit's 1d6. A hit armor stopped costs none, or
    1d6 with `ct_on_armor_stop` (A-65)."""
    count = _ct_dice(request)
    rolled = roll_concussion(count, dice) if count else []
    return Concussion(dice=rolled, ct_loss=sum(sum(d) for d in rolled))


class DeathInput(Model):
    sheet: Sheet = Field(default=Sheet())
    ct: Ct = Field(description="Current CT.")
    max_ct: MaxCt
    bled: bool = Field(default=False, description="The last CT was lost to bleeding (FI:L601).")
    options: HarmOptions = Field(default=HarmOptions())


class Condition(StrEnum):
    ACTIVE = "active"
    CONCUSSED = "concussed"
    CRITICALLY_INJURED = "critically_injured"
    DEAD = "dead"


class Death(Model):
    concussed: bool = Field(description="At 0 CT or less: no cards, no actions (FI:L593).")
    at_risk: bool = Field(description="Concussed: more CT risks death (FI:L593).")
    critically_injured: bool = Field(description="Head or torso Critical (FI:L540).")
    dead: bool
    state: Condition


@operation(
    name="death",
    kind=Kind.LOOKUP,
    covers=("fi.death", "fi.wounds.concussed"),
    example={"sheet": {"torso": 3}, "ct": -12, "max_ct": 12, "bled": True},
)
def death(request: DeathInput) -> Death:
    """At 0 CT or lower a character is Concussed: no cards, no actions (FI:L593). Reduced to
    minus his starting CT by bleeding he has bled to death (FI:L601); by any loss too, by
    default (A-66). A Critical head or torso is critically injured, 'generally dead'
    (FI:L540); only head and torso kill (FI:L560)."""
    concussed = request.ct <= 0
    rule = request.options.ct_death_rule
    counts = rule is CtDeath.ANY_SOURCE or (rule is CtDeath.BLEEDING_ONLY and request.bled)
    dead = counts and request.ct <= -request.max_ct
    sheet = within_cap(request.sheet, request.options)
    critical = any(sheet.at(loc) >= 5 for loc in VITAL)
    state = (
        Condition.DEAD
        if dead
        else Condition.CRITICALLY_INJURED
        if critical
        else Condition.CONCUSSED
        if concussed
        else Condition.ACTIVE
    )
    return Death(
        concussed=concussed,
        at_risk=concussed and not dead,
        critically_injured=critical,
        dead=dead,
        state=state,
    )


class BleedingInput(Model):
    sheet: Sheet
    ct: Ct
    max_ct: MaxCt
    stopped: Annotated[tuple[WoundLocation, ...], Field(max_length=6)] = Field(
        default=(), description="Locations whose bleeding a medical roll stopped (A-67)."
    )
    rounds: Annotated[int, Field(ge=0, le=10_000)] = Field(default=0, description="Rounds to run.")
    options: HarmOptions = Field(default=HarmOptions())


class Bleeding(Model):
    rate: int = Field(description="CT lost a round: 1 Heavy, 2 Serious, 3 Critical (FI:L601).")
    rounds_to_death: int | None = Field(
        description="Rounds until CT reaches minus the starting CT; null while nothing bleeds."
    )
    ct_after: int = Field(description="CT after `rounds` rounds.")
    bled_to_death: bool


@operation(
    name="bleeding",
    kind=Kind.LOOKUP,
    covers=("fi.bleeding",),
    example={"sheet": {"torso": 4}, "ct": 5, "max_ct": 12, "rounds": 3},
)
def bleeding(request: BleedingInput) -> Bleeding:
    """A Heavy wound bleeds 1 CT a round, Serious 2, a Critical limb 3; reduced to minus his
    starting CT by bleeding, a character has bled to death (FI:L601). Several bleeding
    locations bleed at the worst one's rate by default (A-67). The text gives 3 for Critical
    limbs only (FI:L601): a Critical head or torso is 'generally dead' (FI:L540), and one kept
    alive by medicine bleeds 3 as well (catalogue A-67)."""
    sheet = within_cap(request.sheet, request.options)
    rates = [
        WOUND_LEVELS[sheet.at(loc)].bleeding for loc in LOCATIONS if loc not in request.stopped
    ]
    rate = (
        max(rates, default=0)
        if request.options.bleed_aggregation is BleedAggregation.MAX
        else sum(rates)
    )
    floor_ct = -request.max_ct
    rounds = None if rate == 0 else max(0, ceil((request.ct - floor_ct) / rate))
    after = request.ct - rate * request.rounds
    return Bleeding(
        rate=rate,
        rounds_to_death=rounds,
        ct_after=after,
        bled_to_death=rate > 0 and after <= floor_ct,
    )
