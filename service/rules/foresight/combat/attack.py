"""One attack end to end (catalogue part 2, 2.7 #55-#58 and #74 with 2.4 #24): the attack
roll, the defence that tries to block it, and what gets through as damage.

The attacker is a melee attack (its weapon gives the damage class), a ranged shot or burst at
a single target (its weapon's DC, the burst's +DC), or a bare task or QR with the damage class
given. A parry or dodge against a melee attack blocks it as an opposed task (F:L3189,
F:L1503-1521); a ranged attack is not parried or dodged (the book defends only against melee,
F:L3116-3120), its jam may lose the shot (F:L3664). A parry to disarm blocks as a parry and,
succeeding and strictly better than the attack, takes the attacker's weapon (an unarmed
attacker's limb is numbed instead, F:L3244-3246), as `melee/disarm` has it. The final QR is
the damage's QR (F:L3189, F:L3257): hit location, armor, the damage table and the
defender's condition follow as `damage/resolve` has them (F:L2628-2726). Every step is in
the result; the odds are the D100 x D100 of attack and defence, then every way the hit can
go.
"""

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from pydantic import ConfigDict, Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.combat.melee.attack import MeleeStrike, melee_setup
from service.rules.foresight.combat.melee.defense import (
    Dodge,
    Parry,
    ParryOptions,
    defense_setup,
)
from service.rules.foresight.combat.melee.disarm import Disarmed
from service.rules.foresight.combat.melee.weapons import profile
from service.rules.foresight.combat.options import DefenseOptions, defended
from service.rules.foresight.combat.ranged.attack import (
    JammedShot,
    RangedOptions,
    RangedShot,
    burst_of,
    ranged_setup,
    volley_of,
)
from service.rules.foresight.combat.ranged.bursts import Volley
from service.rules.foresight.combat.ranged.jam import JamReport, fire_outcomes, jam_test
from service.rules.foresight.combat.ranged.modifiers import RangedSituation
from service.rules.foresight.mortality.hits import (
    DamageInput,
    DamageOptions,
    DamageResult,
    Strike,
    Target,
)
from service.rules.foresight.mortality.location import Aim, called
from service.rules.foresight.mortality.notation import Notation
from service.rules.foresight.mortality.resolve import (
    DamageOdds,
    damage_cost,
    damage_odds,
    resolve_hits,
    with_hits,
)
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.odds import QualityOdds, contest_cost, quality_odds
from service.rules.foresight.resolution.quality import Quality, quality
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import InputError, Model, exactly_one_of
from service.rules.registry import Kind, Reading, operation

__all__ = ["AttackInput", "AttackOptions", "AttackResult", "attack"]


class AttackOptions(DamageOptions, DefenseOptions, ParryOptions, RangedOptions):
    """How the attack is rolled and blocked and how its damage is read (catalogue part 2,
    section 5)."""


class Attacker(Model):
    """Exactly one of: a melee attack, a ranged attack, a task, or the QR rolled at the table."""

    model_config = ConfigDict(json_schema_extra=exactly_one_of("melee", "ranged", "task", "qr"))

    melee: MeleeStrike | None = Field(default=None, description="As melee/attack takes it.")
    ranged: RangedShot | None = Field(
        default=None, description="As ranged/attack takes it: a shot or a burst at one target."
    )
    task: Task | None = Field(default=None, description="Any attack, its modifiers given.")
    qr: QR | None = Field(default=None, description="The attack's QR, rolled at the table.")


class Defense(Model):
    """Exactly one of: a parry, a dodge, a task, or the QR rolled at the table."""

    model_config = ConfigDict(json_schema_extra=exactly_one_of("parry", "dodge", "task", "qr"))

    parry: Parry | None = Field(default=None, description="As melee/parry takes it.")
    dodge: Dodge | None = Field(default=None, description="As melee/dodge takes it.")
    task: Task | None = None
    qr: QR | None = None


class AttackInput(Target):
    """The attacker's roll and weapon, the defender's parry or dodge, armor and condition."""

    attacker: Attacker
    defense: Defense | None = Field(
        default=None, description="Against a melee attack; null when the defender does not."
    )
    damage_class: Notation | None = Field(
        default=None,
        description="For a task or QR attacker, or a ranged weapon without its 'dc'; a melee "
        "weapon gives its own.",
        examples=["DC8", "10i2p"],
    )
    ucdc: float | None = Field(
        default=None, ge=0, le=100, description="The wielder's UCDC, for a signed (relative) DC."
    )
    dc_modifier: int = Field(
        default=0, ge=-50, le=50, description="Added to the DC: special ammunition (F:L3634)."
    )
    options: AttackOptions = Field(default=AttackOptions())


def _one(side: Model, loc: str) -> str:
    given = [name for name in type(side).model_fields if getattr(side, name) is not None]
    if len(given) != 1:
        names = ", ".join(f"'{name}'" for name in type(side).model_fields)
        raise InputError((loc,), f"give exactly one of {names}")
    return given[0]


#: Where each called-shot row of the ranged table aims (F:L3292-3295): the first is where a
#: shot lands when 'aim' is random, and 'aim' may name any of them.
RANGED_AIMS = {
    RangedSituation.HEAD: (Aim.HEAD,),
    RangedSituation.LEGS: (Aim.LEGS, Aim.RIGHT_LEG, Aim.LEFT_LEG),
    RangedSituation.TORSO: (Aim.TORSO, Aim.CHEST, Aim.ABDOMEN),
    RangedSituation.SPECIFIC_ARM: (Aim.RIGHT_ARM, Aim.LEFT_ARM),
}
#: Rows that aim at the target's weapon, not its body (F:L3296-3297).
AT_WEAPONS = (RangedSituation.GUN_FROM_FRONT, RangedSituation.RIFLE_FROM_SIDE)


@dataclass(frozen=True)
class Plan:
    """The attack as the rules read it: its roll set up (None: a QR given), the defence's
    (None: none, or a QR given) and the blow's damage."""

    attack: Setup | None
    defense: Setup | None
    strike: Strike


@dataclass(frozen=True)
class Blow:
    """The damage a weapon gives: its class, the wielder's UCDC, the DC modifier, and the
    absolute DC a parry compares with its own (melee only)."""

    damage_class: str
    ucdc: float | None
    dc_modifier: int
    dc: Fraction | None = None


#: Aims whose melee row is +0 (F:L3148): a blow need not name them to land there.
FREE_MELEE_AIMS = (Aim.RANDOM, Aim.TORSO, Aim.CHEST, Aim.ABDOMEN)


def _aim(request: AttackInput) -> Aim:
    attacker, found = request.attacker, request.aim
    if attacker.melee is not None and attacker.melee.aim is not Aim.RANDOM:
        if found not in (Aim.RANDOM, attacker.melee.aim):
            raise InputError(("aim",), f"the melee attack aims at {attacker.melee.aim.value}")
        found = attacker.melee.aim
    if attacker.melee is not None and found not in FREE_MELEE_AIMS:
        found = _melee_aim(attacker.melee, found)
    if attacker.ranged is not None:
        found = _ranged_aim(attacker.ranged, found)
    return called(found, request.options)


def _melee_aim(strike: MeleeStrike, aim: Aim) -> Aim:
    """A blow lands on the legs, the head or an arm only if the attacker aimed it there and
    took that row's modifier: legs -1, head -4, a specific arm -2 (F:L3144-3149); so a
    called location needs the melee attack's own 'aim'."""
    if strike.aim is Aim.RANDOM:
        message = f"a blow at the {aim.value} takes its aiming row (F:L3144-3149)"
        raise InputError(("aim",), f"{message}: set attacker.melee.aim")
    return aim


def _ranged_aim(shot: RangedShot, aim: Aim) -> Aim:
    """A shot lands where its called-shot row aims (F:L3292-3295): 'aim' may name a location
    within the row's, and must name the arm of a shot at a specific arm. Aiming at the head,
    legs or an arm takes that row's modifier, so it needs the row; the torso's is +0."""
    rows = [s.situation for s in shot.situations if s.situation in (*RANGED_AIMS, *AT_WEAPONS)]
    if rows and rows[0] in AT_WEAPONS:
        message = f"{rows[0].value} aims at a weapon and wounds no one: use ranged/attack"
        raise InputError(("attacker", "ranged", "situations"), message)
    if not rows:
        if aim in (Aim.RANDOM, *RANGED_AIMS[RangedSituation.TORSO]):
            return aim
        message = f"a shot at the {aim.value} takes its called-shot row (F:L3292-3295)"
        raise InputError(("aim",), f"{message} in attacker.ranged.situations")
    within = RANGED_AIMS[rows[0]]
    if aim is Aim.RANDOM:
        if rows[0] is RangedSituation.SPECIFIC_ARM:
            raise InputError(("aim",), "a shot at a specific arm names it: right_arm or left_arm")
        return within[0]
    if aim not in within:
        named = ", ".join(at.value for at in within)
        raise InputError(("aim",), f"the shot is called at the {rows[0].value}: aim {named}")
    return aim


def _weapon(request: AttackInput) -> Blow | None:
    """A melee weapon's damage as wielded, or a ranged weapon's with a burst's +DC."""
    attacker, options = request.attacker, request.options
    if attacker.melee is not None:
        loc = ("attacker", "melee", "use")
        found = profile(attacker.melee.use, options.ucdc_rounding, loc)
        ucdc = float(Fraction(found.ucdc))
        return Blow(found.damage_class, ucdc, found.dc_modifier, Fraction(found.dc.exact))
    if attacker.ranged is not None:
        if volley_of(attacker.ranged) is Volley.AREA:
            message = "area fire lands hits at random QRs: ranged/burst, then damage/resolve"
            raise InputError(("attacker", "ranged", "situations"), message)
        dc = burst_of(attacker.ranged, QR.QR1, options)[2]
        return None if dc is None else Blow(dc, None, 0)
    return None


def _strike(request: AttackInput) -> tuple[Strike, Fraction | None]:
    """The blow as `damage/resolve` takes it, and a melee weapon's absolute DC."""
    blow = _weapon(request)
    if blow is not None and request.damage_class is not None:
        raise InputError(("damage_class",), "the attacker's weapon gives the damage class")
    if blow is None:
        if request.damage_class is None:
            raise InputError(("damage_class",), "give the damage class of the blow")
        blow = Blow(request.damage_class, request.ucdc, 0)
    strike = Strike(
        damage_class=blow.damage_class,
        ucdc=blow.ucdc,
        dc_modifier=blow.dc_modifier + request.dc_modifier,
        aim=_aim(request),
        armor=request.armor,
        worn=request.worn,
        direction=request.direction,
        ds=request.ds,
        condition=request.condition,
    )
    return strike, None if blow.dc is None else blow.dc + request.dc_modifier


def _attack_setup(request: AttackInput) -> Setup | None:
    attacker, options = request.attacker, request.options
    if attacker.melee is not None:
        return melee_setup(attacker.melee, options, ("attacker", "melee"))
    if attacker.ranged is not None:
        return ranged_setup(attacker.ranged, options)
    if attacker.task is not None:
        return setup_at(("attacker", "task"), attacker.task, options)
    return None


def _defense_setup(request: AttackInput, blow_dc: Fraction | None) -> Setup | None:
    defense, options = request.defense, request.options
    if defense is None:
        return None
    if request.attacker.ranged is not None:
        raise InputError(("defense",), "a ranged attack is not parried or dodged (F:L3188)")
    chosen = _one(defense, "defense")
    if defense.task is not None:
        return setup_at(("defense", "task"), defense.task, options)
    parry = defense.parry
    if parry is not None and parry.attacker_dc is None and blow_dc is not None:
        # A parry compares the blow's DC with its own (F:L3161): the attacker's is known here.
        parry = parry.model_copy(update={"attacker_dc": float(blow_dc)})
    chosen_defense = parry or defense.dodge
    return (
        None
        if chosen_defense is None
        else defense_setup(chosen_defense, options, ("defense", chosen))
    )


def _plan(request: AttackInput) -> Plan:
    _one(request.attacker, "attacker")
    strike, blow_dc = _strike(request)
    return Plan(_attack_setup(request), _defense_setup(request, blow_dc), strike)


def _damage(plan: Plan, options: AttackOptions, qr: QR | None = None) -> DamageInput:
    fields = {name: getattr(plan.strike, name) for name in Strike.model_fields}
    return DamageInput(**fields, qr=qr, options=options)


def _disarmed(request: AttackInput, attack: QR, defense: QR) -> Disarmed:
    """A parry to disarm that succeeds and is superior to the attack, strictly better, loses
    the attacker his weapon, or numbs a bodily appendage (F:L3244-3246; X26: QR3 against QR3
    disarms no one). A task or QR attacker is read as armed."""
    parry = None if request.defense is None else request.defense.parry
    if parry is None or not parry.disarm or defense > QR.QR4 or defense >= attack:
        return Disarmed.NO
    melee = request.attacker.melee
    return Disarmed.NUMBED if melee is not None and melee.use.weapon.unarmed else Disarmed.LOST


def _lands(request: AttackInput, qr: QR, jammed: bool) -> QR:
    """The QR the blow lands with: a jam that loses the shot is a miss (F:L3664)."""
    lost = jammed and request.options.jammed_shot is JammedShot.LOST
    return QR.QR7 if lost else qr


class AttackResult(Model):
    attack: Resolution | None = Field(description="The attack's roll; null when its QR was given.")
    jam: JamReport | None = Field(description="A ranged attack's jam test on the same D100.")
    defense: Resolution | None = Field(description="The defence's roll; null when given or none.")
    attack_qr: QR
    defense_qr: QR | None
    final: Quality = Field(description="The attack's QR after the defence (F:L3189).")
    hit: bool = Field(description="The blow lands: a success not lost to a jam.")
    attacker_disarmed: Disarmed = Field(
        description="A parry to disarm better than the attack (F:L3244-3246): 'lost', the "
        "attacker's weapon; 'numbed', an unarmed attacker's limb; 'no'."
    )
    damage: DamageResult = Field(description="The blow through location, armor and the table.")


class AttackOdds(Model):
    attack: QualityOdds
    defense: QualityOdds | None
    final: QualityOdds = Field(description="After the defence (before a jam).")
    jammed: Exact = Field(description="P(a ranged weapon jams on the attack's D100).")
    hit: Exact = Field(description="P(the blow lands).")
    attacker_disarmed: list[OutcomeProbability] = Field(
        description="By a parry to disarm (F:L3244-3246)."
    )
    damage: DamageOdds = Field(description="'wound_level': the defender's afterwards.")


def _hits_at(request: AttackInput) -> Callable[[QR], int] | None:
    """The rounds a ranged attack's QR lands on its target: one, or for a burst under
    'burst_model' yield_rounds round_half_up(yield x rounds) at the weapon's DC (F:L3257,
    F:L3298; AMB2-24), as ranged/attack counts them."""
    ranged, options = request.attacker.ranged, request.options
    if ranged is None:
        return None
    return lambda qr: burst_of(ranged, qr, options)[1]


def _side(setup: Setup | None, qr: QR | None) -> Distribution[QR]:
    if setup is not None:
        return distribution(setup)
    assert qr is not None
    return Distribution({qr: 1})


def attack_odds(request: AttackInput) -> AttackOdds:
    plan = _plan(request)
    ranged = request.attacker.ranged
    fired: Distribution[tuple[QR, bool]]
    if ranged is not None and plan.attack is not None:
        fired = fire_outcomes(plan.attack, ranged.arms.jam)
    else:
        fired = _side(plan.attack, request.attacker.qr).map(lambda qr: (qr, False))
    attack = fired.map(lambda pair: pair[0])
    defense = None
    final = fired.map(lambda pair: (*pair, Disarmed.NO))
    if request.defense is not None:
        defense = _side(plan.defense, request.defense.qr)
        options = request.options
        final = fired.then(lambda pair: defense.map(lambda d: (defended(pair[0], d, options),
                           pair[1], _disarmed(request, pair[0], d))))  # fmt: skip
    lands = final.map(lambda found: _lands(request, found[0], found[1]))
    return AttackOdds(
        attack=quality_odds(attack),
        defense=None if defense is None else quality_odds(defense),
        final=quality_odds(final.map(lambda found: found[0])),
        jammed=exact(fired.probability_where(lambda pair: pair[1])),
        hit=exact(lands.probability_where(lambda qr: qr <= QR.QR4)),
        attacker_disarmed=outcome_table(final.map(lambda found: found[2]), list(Disarmed)),
        damage=damage_odds(_damage(plan, request.options), lands, _hits_at(request)),
    )


def attack_cost(request: AttackInput) -> Estimate:
    """The attack's D100 (with a jam's D10) and the defence's, their pairs, then the damage
    as `damage/resolve` counts it, its hit landing with any QR (a miss among them): at
    least the ways the blow can land."""
    landing = Distribution({qr: 1 for qr in QR})
    found = damage_cost(_damage(_plan(request), request.options), landing, _hits_at(request))
    return found.after(contest_cost(request).states + 5 * 101)


def _rolled(setup: Setup | None, given: QR | None, dice: Dice, purpose: str) -> tuple[
        Resolution | None, QR]:  # fmt: skip
    if setup is None:
        assert given is not None
        return None, given
    found = roll(setup, dice, purpose)
    return found, found.qr


SWORD = {"name": "Sabre/Longsword", "normal": {"pm": 1, "dc": "+4m"}, "parry": 1, "draw": 3,
         "mass_kg": 1.25}  # fmt: skip
SWORD_AT_ST_12 = {"weapon": SWORD, "strength": 12}
SWORD_AT_ST_9 = {"weapon": SWORD, "strength": 9}


@operation(
    name="attack",
    kind=Kind.GENERATION,
    covers=(),
    odds=attack_odds,
    cost=attack_cost,
    rolled={
        "/final/qr": Reading(read=lambda result: result.final.qr.name, best_first=True),
        "/damage/wound_level": Reading(read=lambda result: result.damage.condition.wound_level),
        "/damage/stun_points": Reading(read=lambda result: result.damage.condition.stun_points),
    },
    example={
        "attacker": {
            "melee": {"task": {"score": 14, "bef": 5}, "use": {"weapon": SWORD, "strength": 12}}
        },
        "defense": {
            "parry": {"task": {"score": 12, "bef": 5}, "use": {"weapon": SWORD, "strength": 9}}
        },
        "armor": [{"rating": "3A", "locations": ["chest", "abdomen"]}],
        "dice": {"seed": 7},
    },
)
def attack(request: AttackInput, dice: Dice) -> AttackResult:
    """One attack end to end: roll the attack (a ranged one's D100 also tests the weapon's
    Jam, F:L3664); a parry or dodge blocks a melee attack as an opposed task: a defence as
    good as the attack or better stops it, a worse one takes notches off it (F:L3189,
    F:L1503-1521), and a parry to disarm better than the attack takes the attacker's weapon
    (F:L3244-3246); the final QR's blow then goes through location, armor, the damage table
    and the defender's condition (F:L2628-2726). A Pain Resistance roll the hit calls for is
    `pain-resistance/stun-check` on the condition returned."""
    plan = _plan(request)
    rolled, attack_qr = _rolled(plan.attack, request.attacker.qr, dice, "D100 (attack)")
    jam, jammed = None, False
    ranged = request.attacker.ranged
    if ranged is not None:
        face = None if rolled is None else rolled.roll
        jam = jam_test(ranged.arms.jam, ranged.arms.use, face, dice)
        jammed = jam.jammed
    parried, defense_qr, final, disarmed = None, None, attack_qr, Disarmed.NO
    if request.defense is not None:
        parried, defense_qr = _rolled(plan.defense, request.defense.qr, dice, "D100 (defense)")
        final = defended(attack_qr, defense_qr, request.options)
        disarmed = _disarmed(request, attack_qr, defense_qr)
    lands = _lands(request, final, jammed)
    return AttackResult(
        attack=rolled,
        jam=jam,
        defense=parried,
        attack_qr=attack_qr,
        defense_qr=defense_qr,
        final=quality(final),
        hit=lands <= QR.QR4,
        attacker_disarmed=disarmed,
        damage=resolve_hits(
            with_hits(_damage(plan, request.options, lands), _hits_at(request), lands), dice
        ),
    )
