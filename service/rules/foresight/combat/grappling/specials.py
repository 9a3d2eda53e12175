"""Special melee attacks that grapple (catalogue part 2, 2.7 #63, #65, #66, #69; Special
Melee Attacks, F:L3233-3253): trip, entangle, grab and throw. Each is an attack (PM from the
special attacks table, F:L3239) that a parry or dodge may block as any melee attack does
(F:L3189); what it does then turns on a second roll and a QR advantage, counted numerically
by default (AMB2-19)."""

from collections.abc import Callable
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
    exact,
    outcome_table,
)
from service.rules.foresight.combat.grappling.sides import (
    PAIR_STATES,
    SIDE_STATES,
    Attack,
    GrappleAttack,
    GrappleAttackOdds,
    prepare_attack,
    succeeded,
    term,
)
from service.rules.foresight.combat.options import (
    DefenseOptions,
    DifferenceOptions,
    qr_difference,
)
from service.rules.foresight.combat.special import SPECIAL_ATTACKS
from service.rules.foresight.mortality.damage import DamageScale, decimal
from service.rules.foresight.mortality.falls import fall_dc
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Prepared, Resolution, Side, prepare
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation

__all__ = ["entangle", "grab", "throw", "trip"]


def _pm(attack: str) -> int:
    pm = SPECIAL_ATTACKS[attack].pm
    assert pm is not None
    return pm


def _three_cost(request: object) -> Estimate:
    """Three rolls (attack, defence, the second roll), each 100 faces and a table of QRs;
    the attack against the defence's QRs, then the final QR against the second roll's:
    3 x 200 + 2 x 400 states, whatever the request."""
    return Estimate(3 * SIDE_STATES + 2 * PAIR_STATES, ())


def _four_cost(request: object) -> Estimate:
    """Four rolls (attack, defence and two ST rolls), each 100 faces and a table of QRs,
    and three tables of pairs: 4 x 200 + 3 x 400 states, whatever the request."""
    return Estimate(4 * SIDE_STATES + 3 * PAIR_STATES, ())


_FINAL = {"/blow/final/qr": Reading(read=lambda r: r.blow.final.qr.name, best_first=True)}


def _after_hit(
    blow: Attack, second: Prepared, read: Callable[[QR, QR], str], missed: str
) -> Distribution[str]:
    """What happens over every final attack QR and second roll: a miss rolls nothing more."""
    later = second.distribution()
    return blow.distribution().then(
        lambda a: later.map(lambda b: read(a, b)) if succeeded(a) else Distribution({missed: 1})
    )


def _resisted(
    blow: GrappleAttack, second: Prepared, dice: Dice
) -> tuple[Resolution | None, QR | None]:
    if not blow.hit:
        return None, None
    found = second.roll(dice)
    return found.resolution, found.qr


# Trip (#63)


class GrappleStance(StrEnum):
    PRONE = "prone"
    KNEELING = "kneeling"
    NO_EFFECT = "no_effect"
    MISS = "miss"


class TripOptions(DefenseOptions, DifferenceOptions):
    """How the trip is blocked, how its advantage counts, and what a heavy defender adds."""

    trip_lift_drag_cumulative: bool = option(
        False,
        ambiguity="AMB2-20",
        description=(
            "A defender the attacker cannot lift needs one more QR advantage, one he cannot "
            "drag two more (F:L3240): the larger of them (the dragon needs 5 to be prone), or "
            "both added up (one who cannot be dragged cannot be lifted either: 1 + 2, so the "
            "dragon's 5 is for kneeling)."
        ),
    )


class TripInput(Model):
    """A trip: the attack, the parry or dodge against it, and the defender's footing roll."""

    attack: Side = Field(description="The trip attack (polearm or leg): task or QR. PM -1.")
    defense: Side | None = Field(default=None, description="A parry or dodge; null when none.")
    footing: Side = Field(
        description="The defender's AG (attribute BEF by default) or Acrobatics roll."
    )
    cannot_lift: bool = Field(default=False, description="The attacker could not lift him.")
    cannot_drag: bool = Field(default=False, description="The attacker could not drag him.")
    legs: Annotated[int, Field(ge=0, le=100)] = Field(
        default=2, description="The defender's legs: four (or five) +1; six or more, refused."
    )
    options: TripOptions = Field(default=TripOptions())


class Trip(Model):
    blow: GrappleAttack
    footing: Resolution | None = Field(description="The defender's roll; null if not rolled.")
    footing_qr: QR | None
    advantage: int | None = Field(description="The attack's final QR ahead of the footing's.")
    kneeling_at: int = Field(description="The advantage that brings him to kneeling.")
    prone_at: int
    outcome: GrappleStance


class TripOdds(Model):
    blow: GrappleAttackOdds
    footing: QualityOdds
    outcome: list[OutcomeProbability]


def trip_extra(request: TripInput) -> int:
    """The advantage a heavy or four-legged defender adds (F:L3240)."""
    if request.legs >= 6:
        raise InputError(("legs",), "tripping six-or-more-legged creatures is not practical")
    four_legged = 1 if request.legs >= 4 else 0
    lift = 1 if request.cannot_lift or request.cannot_drag else 0
    drag = 2 if request.cannot_drag else 0
    if request.options.trip_lift_drag_cumulative:
        return lift + drag + four_legged
    return max(lift, drag) + four_legged


def trip_stance(advantage: int, extra: int) -> GrappleStance:
    if advantage >= 2 + extra:
        return GrappleStance.PRONE
    return GrappleStance.KNEELING if advantage >= 1 + extra else GrappleStance.NO_EFFECT


def _trip_sides(request: TripInput) -> tuple[Attack, Prepared, int]:
    extra = trip_extra(request)
    blow = prepare_attack(request.attack, request.defense, request.options,
                          term("trip PM", _pm("trip")))  # fmt: skip
    return blow, prepare(request.footing, request.options, "footing", attribute=True), extra


def trip_odds(request: TripInput) -> TripOdds:
    blow, footing, extra = _trip_sides(request)
    mode = request.options.qr_difference_mode
    outcomes = _after_hit(blow, footing,
                          lambda a, b: trip_stance(qr_difference(a, b, mode), extra).value,
                          GrappleStance.MISS.value)  # fmt: skip
    return TripOdds(blow=blow.odds(), footing=quality_odds(footing.distribution()),
                    outcome=outcome_table(outcomes, [s.value for s in GrappleStance]))  # fmt: skip


@operation(
    name="melee/trip",
    kind=Kind.CHECK,
    covers=("foresight.melee.trip",),
    odds=trip_odds,
    cost=_three_cost,
    rolled={**_FINAL, "/outcome": Reading(read=lambda r: r.outcome.value)},
    example={
        "attack": {"task": {"score": 12, "bef": 5}},
        "footing": {"task": {"score": 10}},
        "legs": 4,
        "cannot_drag": True,
        "dice": {"seed": 7},
    },
)
def trip(request: TripInput, dice: Dice) -> Trip:
    """A trip (PM -1) that lands is resisted by the defender's AG or Acrobatics roll: an
    attack QR one better brings him to kneeling, two better prone (F:L3240). One he could not
    lift needs one more, one he could not drag two more (the larger, AMB2-20), a four-legged
    one one more; six or more legs cannot be tripped (refused: the book rules it out, there
    is nothing to roll). A trip that misses, or is parried or dodged away, does nothing."""
    blow, footing, extra = _trip_sides(request)
    found = blow.roll(dice)
    rolled, qr = _resisted(found, footing, dice)
    advantage = None
    outcome = GrappleStance.MISS
    if qr is not None:
        advantage = qr_difference(found.final.qr, qr, request.options.qr_difference_mode)
        outcome = trip_stance(advantage, extra)
    return Trip(blow=found, footing=rolled, footing_qr=qr, advantage=advantage,
                kneeling_at=1 + extra, prone_at=2 + extra, outcome=outcome)  # fmt: skip


# Entangle (#65)


class SpecialOptions(DefenseOptions, DifferenceOptions):
    """How the attack is blocked and how a QR advantage counts (AMB2-18, AMB2-19)."""


class EntangleInput(Model):
    attack: Side = Field(description="The attack with the lasso, bola or net: task or QR.")
    defense: Side | None = Field(default=None, description="A parry or dodge; null when none.")
    footing: Side = Field(description="The defender's AG (attribute BEF) or Acrobatics roll.")
    options: SpecialOptions = Field(default=SpecialOptions())


class Entangle(Model):
    blow: GrappleAttack
    footing: Resolution | None
    footing_qr: QR | None
    difference: int | None = Field(description="The attack's final QR ahead of the footing's.")
    entangled: bool
    outcome: GrappleStance = Field(description="Kneeling if entangled by one, prone by more.")
    concentrate_actions: int = Field(description="To free himself: the difference (F:L3242).")


class EntangleOdds(Model):
    blow: GrappleAttackOdds
    footing: QualityOdds
    outcome: list[OutcomeProbability]
    concentrate_actions: list[OutcomeProbability] = Field(description="0: not entangled.")


def entangle_stance(difference: int) -> GrappleStance:
    if difference >= 2:
        return GrappleStance.PRONE
    return GrappleStance.KNEELING if difference == 1 else GrappleStance.NO_EFFECT


def _entangle_sides(request: EntangleInput) -> tuple[Attack, Prepared]:
    blow = prepare_attack(request.attack, request.defense, request.options,
                          term("entangle PM", _pm("entangle")))  # fmt: skip
    return blow, prepare(request.footing, request.options, "footing", attribute=True)


def entangle_odds(request: EntangleInput) -> EntangleOdds:
    blow, footing = _entangle_sides(request)
    mode = request.options.qr_difference_mode
    differences = _after_hit(blow, footing, lambda a, b: str(max(0, qr_difference(a, b, mode))),
                             "miss")  # fmt: skip
    stances = differences.map(lambda d: GrappleStance.MISS.value if d == "miss"
                              else entangle_stance(int(d)).value)  # fmt: skip
    actions = differences.map(lambda d: 0 if d == "miss" else int(d))
    return EntangleOdds(blow=blow.odds(), footing=quality_odds(footing.distribution()),
                        outcome=outcome_table(stances, [s.value for s in GrappleStance]),
                        concentrate_actions=outcome_table(actions))  # fmt: skip


@operation(
    name="melee/entangle",
    kind=Kind.CHECK,
    covers=("foresight.melee.entangle",),
    odds=entangle_odds,
    cost=_three_cost,
    rolled={**_FINAL, "/outcome": Reading(read=lambda r: r.outcome.value)},
    example={
        "attack": {"task": {"score": 12, "bef": 4}},
        "footing": {"task": {"score": 10}},
        "dice": {"seed": 7},
    },
)
def entangle(request: EntangleInput, dice: Dice) -> Entangle:
    """A defender struck with an entangling weapon (lasso, bola, net; PM +0) rolls AG or
    Acrobatics: an attack QR better than his entangles him, kneeling if better by one, prone
    if by more, and the difference is the concentrate actions he needs to get free
    (F:L3242). Whether he could break it effortlessly (then it does nothing) is the GM's."""
    blow, footing = _entangle_sides(request)
    found = blow.roll(dice)
    rolled, qr = _resisted(found, footing, dice)
    difference, outcome = None, GrappleStance.MISS
    if qr is not None:
        difference = qr_difference(found.final.qr, qr, request.options.qr_difference_mode)
        outcome = entangle_stance(difference)
    entangled = outcome in (GrappleStance.KNEELING, GrappleStance.PRONE)
    return Entangle(blow=found, footing=rolled, footing_qr=qr, difference=difference,
                    entangled=entangled, outcome=outcome,
                    concentrate_actions=difference if entangled and difference else 0)  # fmt: skip


# Grab (#66)


class GrabPossession(StrEnum):
    TAKEN = "taken"
    BOTH_GRIP = "both_grip"
    KEPT = "kept"
    MISS = "miss"


class GrabInput(Model):
    attack: Side = Field(
        description="The grab (unarmed, PM +0): task or QR, the object's size modifier added."
    )
    defense: Side | None = Field(default=None, description="A parry or dodge; null when none.")
    attacker_strength: Side = Field(description="The grabber's ST roll (attribute BEF).")
    holder_strength: Side = Field(description="The holder's ST roll (attribute BEF).")
    holder_has_handle: bool = Field(
        default=False, description="The holder holds the object's distinct handle or grip: +2."
    )
    handle_only: bool = Field(
        default=False,
        description="Designed to be held only by that handle (a sword): advantage 2 needed.",
    )
    options: SpecialOptions = Field(default=SpecialOptions())


class Grab(Model):
    blow: GrappleAttack
    attacker_strength: Resolution | None
    holder_strength: Resolution | None
    attacker_qr: QR | None
    holder_qr: QR | None
    advantage: int | None = Field(description="The grabber's ST QR ahead of the holder's.")
    outcome: GrabPossession


class GrabOdds(Model):
    blow: GrappleAttackOdds
    outcome: list[OutcomeProbability]


def possession(advantage: int, handle_only: bool) -> GrabPossession:
    """Strictly better takes it (by two for a handle-only object); equal, both keep a grip."""
    if advantage == 0:
        return GrabPossession.BOTH_GRIP
    return GrabPossession.TAKEN if advantage >= (2 if handle_only else 1) else GrabPossession.KEPT


def _grab_sides(request: GrabInput) -> tuple[Attack, Prepared, Prepared]:
    options = request.options
    blow = prepare_attack(request.attack, request.defense, options,
                          term("grab PM", _pm("grab")))  # fmt: skip
    handle = term("holds the handle", 2, request.holder_has_handle)
    return (blow, prepare(request.attacker_strength, options, "attacker_strength", attribute=True),
            prepare(request.holder_strength, options, "holder_strength", handle,
                    attribute=True))  # fmt: skip


def grab_odds(request: GrabInput) -> GrabOdds:
    blow, mine, theirs = _grab_sides(request)
    mode, only = request.options.qr_difference_mode, request.handle_only
    holder = theirs.distribution()
    contest = mine.distribution().then(
        lambda a: holder.map(lambda b: possession(qr_difference(a, b, mode), only).value)
    )
    outcomes = blow.distribution().then(
        lambda a: contest if succeeded(a) else Distribution({GrabPossession.MISS.value: 1})
    )
    return GrabOdds(blow=blow.odds(),
                    outcome=outcome_table(outcomes, [p.value for p in GrabPossession]))  # fmt: skip


@operation(
    name="melee/grab",
    kind=Kind.CHECK,
    covers=("foresight.melee.grab",),
    odds=grab_odds,
    cost=_four_cost,
    rolled={**_FINAL, "/outcome": Reading(read=lambda r: r.outcome.value)},
    example={
        "attack": {"task": {"score": 12, "bef": 5}},
        "attacker_strength": {"task": {"score": 12}},
        "holder_strength": {"task": {"score": 10}},
        "holder_has_handle": True,
        "handle_only": True,
        "dice": {"seed": 7},
    },
)
def grab(request: GrabInput, dice: Dice) -> Grab:
    """A grab at an object someone holds (unarmed, PM +0; the object's size modifiers are
    the caller's). If it lands, not parried or dodged, both roll ST: the grabber takes it
    with a strictly better QR, equal QRs both keep their grip, otherwise the holder keeps it.
    Holding its distinct handle gives +2; an object made to be held only by it (a sword)
    needs an advantage of two (F:L3243)."""
    blow, mine, theirs = _grab_sides(request)
    found = blow.roll(dice)
    if not found.hit:
        return Grab(blow=found, attacker_strength=None, holder_strength=None, attacker_qr=None,
                    holder_qr=None, advantage=None, outcome=GrabPossession.MISS)  # fmt: skip
    pulled, held = mine.roll(dice), theirs.roll(dice)
    advantage = qr_difference(pulled.qr, held.qr, request.options.qr_difference_mode)
    return Grab(blow=found, attacker_strength=pulled.resolution,
                holder_strength=held.resolution, attacker_qr=pulled.qr, holder_qr=held.qr,
                advantage=advantage,
                outcome=possession(advantage, request.handle_only))  # fmt: skip


# Throw (#69)


class ThrowMode(StrEnum):
    DODGE = "dodge"
    ATTACK = "attack"


class ThrowWeapon(StrEnum):
    UNARMED = "unarmed"
    POLEARM = "polearm"
    OTHER = "other"


THROWN_M = 3  # Past the thrower (F:L3249).


class ThrowOptions(DefenseOptions):
    """How the attack is blocked, and what a dodge-throw needs."""

    throw_dodge_must_succeed: bool = option(
        True,
        ambiguity=None,
        description=(
            "Not in the register. A dodge-throw throws when 'the dodge QR is superior to the "
            "attack' (F:L3249): true, a successful dodge that is (a QR7 dodge does not throw "
            "a QR10 attacker, as a trip needs a hit, catalogue Q11); false, any better QR."
        ),
    )


class ThrowInput(Model):
    """A throw: as an attack at close range, or as a dodge of an unarmed or polearm attack."""

    mode: ThrowMode
    attack: Side = Field(
        description="'attack': the thrower's attack (-2); 'dodge': the opponent's attack."
    )
    defense: Side | None = Field(
        default=None,
        description="'attack': a parry or dodge against it; 'dodge': the thrower's dodge (-1).",
    )
    throws_field: bool = Field(
        default=False, description="The thrower knows Unarmed Combat Throws; without it -2."
    )
    attacker_weapon: ThrowWeapon = Field(
        default=ThrowWeapon.UNARMED, description="'dodge': the attack's weapon: unarmed or polearm."
    )
    ds: DamageScale = Field(default=1, description="The thrown character's damage scale.")
    gravity: float = Field(default=1, ge=0, le=100, description="Ambient gravity, in g.")
    options: ThrowOptions = Field(default=ThrowOptions())


class Throw(Model):
    mode: ThrowMode
    blow: GrappleAttack = Field(description="The attack, blocked by the parry or dodge.")
    thrown: bool
    distance_m: int | None = Field(description="3 m past the thrower when thrown.")
    fall_dc: Exact | None = Field(
        description="The DC of a 3 m fall, (3 - 1) x DS^2 x G (F:L2765), when thrown: the "
        "falling damage he may suffer, the GM's call (roll it with 'falling')."
    )


class ThrowOdds(Model):
    blow: GrappleAttackOdds
    thrown: Exact


def _throw_terms(request: ThrowInput, value: int, source: str) -> list[Term]:
    return [*term(source, value), *term("without the Throws field", -2, not request.throws_field)]


def _throw_blow(request: ThrowInput) -> Attack:
    options = request.options
    if request.mode is ThrowMode.ATTACK:
        return prepare_attack(request.attack, request.defense, options,
                              _throw_terms(request, -2, "attack-throw at close range"))  # fmt: skip
    if request.defense is None:
        raise InputError(("defense",), "a dodge-throw is the thrower's dodge: give it")
    if request.attacker_weapon is ThrowWeapon.OTHER:
        raise InputError(("attacker_weapon",), "a dodge can throw only an unarmed or polearm "
                         "attacker (F:L3249)")  # fmt: skip
    dodge = prepare(request.defense, options, "defense", _throw_terms(request, -1, "dodge-throw"))
    return Attack(prepare(request.attack, options, "attack"), dodge, options)


def _dodge_throws(attack: QR, dodge: QR, options: ThrowOptions) -> bool:
    return dodge < attack and (succeeded(dodge) or not options.throw_dodge_must_succeed)


def throw_odds(request: ThrowInput) -> ThrowOdds:
    blow = _throw_blow(request)
    found = blow.odds()
    if request.mode is ThrowMode.ATTACK or blow.defense is None:
        return ThrowOdds(blow=found, thrown=found.hit)
    dodges = blow.defense.distribution()
    pairs = blow.attack.distribution().then(
        lambda a: dodges.map(lambda d: _dodge_throws(a, d, request.options)))  # fmt: skip
    return ThrowOdds(blow=found, thrown=exact(pairs.probability(True)))


@operation(
    name="melee/throw",
    kind=Kind.CHECK,
    covers=("foresight.melee.throw",),
    odds=throw_odds,
    cost=_three_cost,
    rolled=_FINAL,
    example={
        "mode": "dodge",
        "attack": {"task": {"score": 12, "bef": 5}},
        "defense": {"task": {"score": 12, "bef": 5}},
        "throws_field": True,
        "dice": {"seed": 7},
    },
)
def throw(request: ThrowInput, dice: Dice) -> Throw:
    """A throw (F:L3249): as part of a dodge (-1) against an unarmed or polearm attacker,
    it throws when the dodge QR is better than the attack's (and, by default, a success);
    as an attack at close range (-2) it throws when it hits. Without the Unarmed Combat
    Throws field -2 more. Otherwise it is a normal attack or dodge: the dodge blocks the
    attack as any dodge does. The thrown character lands 3 m past the thrower and may take
    falling damage: a 3 m fall is DC 2 for a person on Earth (F:L2765)."""
    blow = _throw_blow(request)
    found = blow.roll(dice)
    if request.mode is ThrowMode.ATTACK:
        thrown = found.hit
    else:
        assert found.defense_qr is not None
        thrown = _dodge_throws(found.attack_qr, found.defense_qr, request.options)
    dc = fall_dc(Fraction(THROWN_M), decimal(request.ds), decimal(request.gravity))
    return Throw(mode=request.mode, blow=found, thrown=thrown,
                 distance_m=THROWN_M if thrown else None,
                 fall_dc=exact(dc) if thrown else None)  # fmt: skip
