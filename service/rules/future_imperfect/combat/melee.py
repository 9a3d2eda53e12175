"""Melee (FI:L381-409): a fighting task against Fair (5) plus the defender's fighting level
with the weapon in his hand and the Defensive Bonus; slow weapons, closing inside a longer
weapon's reach, and entangling a target and his ways out."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.combat.modifiers import (
    FAIR,
    Applied,
    Situation,
    applied,
    task,
)
from service.rules.future_imperfect.combat.options import (
    AttackOptions,
    BreakCompare,
    ClosePenalty,
    DbModel,
    StrengthRoute,
)
from service.rules.future_imperfect.combat.ranged import RangedOdds, shot_odds_of
from service.rules.future_imperfect.combat.tables import WEAPON_SPEEDS
from service.rules.future_imperfect.core.checks import (
    BUMPS_ROLLED,
    CHECK,
    DEPTH,
    Checked,
    CheckInput,
    check_cost,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.pools import PoolText
from service.rules.future_imperfect.core.rolls import OPPOSED, initiator_en, winner
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["Contestant", "RaceOdds", "close", "defensive_bonus", "entangle", "entangle_escape",
           "melee_attack", "race", "race_cost", "race_odds", "weapon_speed"]  # fmt: skip

Level = Annotated[int, Field(ge=0, le=10)]


class Fighter(Model):
    db: Level = Field(default=0, description="The weapon's Defensive Bonus; 0 unarmed.")
    size: Annotated[float, Field(gt=0, le=1000)] = Field(default=6, description="Human 6.")
    length: Level | None = Field(
        default=None, description="A weapon length to compare for Close; unset, its DB (A-51)."
    )
    unarmed: bool = False


class Maneuver(StrEnum):
    CLOSE = "close"
    REOPEN = "reopen"


class Entanglement(StrEnum):
    ENTANGLE = "entangle"
    TRIP = "trip"


class Route(StrEnum):
    STRENGTH = "strength"
    WRIGGLE = "wriggle"


class Closed(StrEnum):
    NONE = "none"
    ATTACKER_INSIDE = "attacker_inside"
    DEFENDER_INSIDE = "defender_inside"


def _effective(fighter: Fighter, other: Fighter, weapon_counts: bool) -> int | float:
    """A fighter's DB: his weapon's, unless closed on, and any size he has over the other."""
    return (fighter.db if weapon_counts else 0) + max(0, fighter.size - other.size)


class DefensiveBonusInput(Model):
    attacker: Fighter = Field(default=Fighter())
    defender: Fighter = Field(default=Fighter())
    closed: Closed = Field(
        default=Closed.NONE,
        description="attacker_inside: the attacker has closed inside the defender's longer "
        "weapon; defender_inside: the defender has closed inside the attacker's (FI:L401).",
    )
    options: AttackOptions = Field(default=AttackOptions())


class DefensiveBonus(Model):
    attacker_db: float
    defender_db: float
    tn_bonus: float = Field(description="Added to the attacker's TN (FI:L399).")
    closed_penalty: float = Field(description="The attacker's longer weapon, closed on (FI:L401).")
    strength_adds: bool = Field(description="Closed on, no Strength to the damage (FI:L401).")


def defensive_bonus_of(request: DefensiveBonusInput) -> DefensiveBonus:
    attacker, defender, options = request.attacker, request.defender, request.options
    inside = request.closed is Closed.DEFENDER_INSIDE
    mine = _effective(attacker, defender, not inside)
    theirs = _effective(defender, attacker, request.closed is not Closed.ATTACKER_INSIDE)
    relative = options.db_model is DbModel.RELATIVE_CLAMPED
    bonus = max(0, theirs - mine) if relative else theirs
    penalty: int | float = 0
    if inside:
        penalty = (attacker.db if options.close_penalty is ClosePenalty.WEAPON_DB
                   else _effective(attacker, defender, True))  # fmt: skip
    return DefensiveBonus(attacker_db=mine, defender_db=theirs, tn_bonus=bonus,
                          closed_penalty=penalty, strength_adds=not inside)  # fmt: skip


@operation(
    name="combat/melee/defensive-bonus",
    kind=Kind.CALCULATION,
    covers=("fi.combat.melee.defensive_bonus",),
    example={"attacker": {"size": 7}, "defender": {"db": 1, "size": 6}},
)
def defensive_bonus(request: DefensiveBonusInput) -> DefensiveBonus:
    """A weapon's reach is its Defensive Bonus, added to the attacker's TN; the bigger
    combatant adds the size difference: a human (6) with a sword (DB 1) has a relative DB of
    0 against an unarmed Ursoid (7) (FI:L397-399, A-50). Closed on, the longer weapon's DB is
    a penalty instead and its wielder adds no Strength (FI:L401)."""
    return defensive_bonus_of(request)


def melee_tn(defender_level: int, bonus: DefensiveBonus, defense: int | None) -> int | float:
    """Fair (5), the defender's fighting level, the DB term and any closed-on penalty
    (FI:L385, FI:L399-401); an active defense's result when greater (FI:L415)."""
    tn = FAIR + defender_level + bonus.tn_bonus + bonus.closed_penalty
    return max(tn, defense) if defense is not None else tn


def _whole(tn: int | float) -> int:
    """A TN: sizes that differ by a fraction make a fractional DB, met by the next whole
    result (a roll is whole)."""
    whole = int(tn)
    return whole if whole == tn else whole + 1


class MeleeInput(Model):
    pool: PoolText = Field(description="The fighting specialization for the weapon in hand.")
    defender_level: Level = Field(
        description="The defender's fighting level for the weapon in his hand; brawling (or "
        "martial arts) empty-handed or holding a club-like thing (FI:L385)."
    )
    attacker: Fighter = Field(default=Fighter())
    defender: Fighter = Field(default=Fighter())
    closed: Closed = Closed.NONE
    active_defense: Annotated[int, Field(ge=0, le=300)] | None = None
    situation: Situation = Field(
        default=Situation(), description="Called shot, hands, wounds, the Master's."
    )
    options: AttackOptions = Field(default=AttackOptions())


class MeleeAttack(Model):
    tn: int
    defensive_bonus: DefensiveBonus
    modifiers: list[Applied]
    location: str | None
    check: Checked
    hit: bool
    strength_adds: bool


def _melee(request: MeleeInput) -> tuple[CheckInput, bool, list[Applied], str | None,
                                          DefensiveBonus]:  # fmt: skip
    if request.situation.running or request.situation.mounted or request.situation.aim:
        raise InputError(("situation",), "running, mounted and aim are a shooter's modifiers")
    bonus = defensive_bonus_of(DefensiveBonusInput(attacker=request.attacker,
                                                   defender=request.defender,
                                                   closed=request.closed,
                                                   options=request.options))  # fmt: skip
    tn = _whole(melee_tn(request.defender_level, bonus, request.active_defense))
    found, location = applied(request.situation, request.options)
    raised = request.active_defense is not None and request.active_defense >= tn
    where = ("active_defense",) if raised else ("defender_level",)
    check, halved = task(request.pool, tn, found, request.situation.skill, request.options, where)
    return check, halved, found, location, bonus


def melee_odds(request: MeleeInput) -> RangedOdds:
    """The attack's hit and bumps, exactly."""
    check, halved = _melee(request)[:2]
    return shot_odds_of(check, halved, 0, 1, False, None, request.options)


@operation(
    name="combat/melee/attack",
    rolled=BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.combat.melee.attack",),
    odds=melee_odds,
    cost=check_cost,
    example={"pool": "III-2", "defender_level": 2, "dice": {"values": [7, 3]}},
)
def melee_attack(request: MeleeInput, dice: Dice) -> MeleeAttack:
    """The fighting specialization that matches the weapon (knives, swords, stunrods,
    brawling, FI:L383) against Fair (5) plus the opponent's fighting skill for the weapon in
    his hand: Antares punches a canine with Brawling 2 at TN 7 (FI:L385-387); plus the
    Defensive Bonus (FI:L399); called shots as in shooting (FI:L385)."""
    check, halved, found, location, bonus = _melee(request)
    rolled = roll_check(check, dice, halved=halved)
    return MeleeAttack(tn=check.tn, defensive_bonus=bonus, modifiers=found, location=location,
                       check=rolled, hit=rolled.success,
                       strength_adds=bonus.strength_adds)  # fmt: skip


class SpeedInput(Model):
    speed: Annotated[int, Field(ge=1, le=2)]
    two_weapons: bool = False


class WeaponSpeed(Model):
    ready_actions: int = Field(description="Actions to ready before each strike.")
    attacks_per_action: int
    modifiers: list[int] = Field(description="Main hand, off hand with two weapons.")


@operation(
    name="combat/melee/weapon-speed",
    kind=Kind.LOOKUP,
    covers=("fi.combat.melee.weapon_speed",),
    example={"speed": 2},
)
def weapon_speed(request: SpeedInput) -> WeaponSpeed:
    """Speed 1: an attack each action; speed 2 takes an action to ready before it can strike
    (FI:L391). A weapon in each hand makes two attacks an action, -2 each, the off hand -6
    (FI:L393)."""
    row = next(r for r in WEAPON_SPEEDS if r.speed == request.speed)
    two = request.two_weapons
    return WeaponSpeed(ready_actions=row.ready_actions, attacks_per_action=2 if two else 1,
                       modifiers=[-2, -6] if two else [0])  # fmt: skip


class CloseInput(MeleeInput):
    maneuver: Maneuver = Field(
        default=Maneuver.CLOSE,
        description="close: get inside a longer weapon; reopen: its wielder, closed on, "
        "makes distance again (FI:L401).",
    )


class Close(Model):
    tn: int
    check: Checked
    closed: Closed = Field(description="The state after the maneuver.")


def _close(request: CloseInput) -> MeleeInput:
    """Only a shorter weapon, or none, may close (A-51: by length, else DB); reopening is the
    closed-on wielder's, his DB still a penalty."""
    fields = {name: getattr(request, name) for name in MeleeInput.model_fields}
    mine, theirs = request.attacker, request.defender
    if request.maneuver is Maneuver.CLOSE:
        shorter = mine.unarmed or (
            (mine.length if mine.length is not None else mine.db)
            < (theirs.length if theirs.length is not None else theirs.db))  # fmt: skip
        if not shorter or theirs.unarmed:
            raise InputError(("attacker",), "closing needs a weapon shorter than the "
                             "defender's, or none (FI:L401)")  # fmt: skip
        if request.closed is not Closed.NONE:
            raise InputError(("closed",), "already closed")
        return MeleeInput(**fields)
    if request.closed is not Closed.DEFENDER_INSIDE:
        raise InputError(("closed",), "reopening is for the wielder closed on: defender_inside")
    return MeleeInput(**fields)


def close_odds(request: CloseInput) -> RangedOdds:
    """The maneuver's success, exactly."""
    return melee_odds(_close(request))


@operation(
    name="combat/melee/close",
    rolled=BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.combat.melee.close",),
    odds=close_odds,
    cost=check_cost,
    example={"pool": "IV-3", "defender_level": 2, "attacker": {"unarmed": True},
             "defender": {"db": 1}, "dice": {"values": [8, 2, 5]}},
)  # fmt: skip
def close(request: CloseInput, dice: Dice) -> Close:
    """Instead of damage, a shorter weapon or empty hands may Close, at the standard attack's
    TN: Hrulfgarr, unarmed, closes on the constable's truncheon (DB 1) at TN 8 (5 + 2 + 1) and
    makes 8; now he attacks at 7 and the constable at 9, no Strength to his hits
    (FI:L401-403). The longer weapon makes distance the same way, its DB still a penalty."""
    melee = _close(request)
    check, halved = _melee(melee)[:2]
    rolled = roll_check(check, dice, halved=halved)
    if request.maneuver is Maneuver.CLOSE:
        state = Closed.ATTACKER_INSIDE if rolled.success else Closed.NONE
    else:
        state = Closed.NONE if rolled.success else Closed.DEFENDER_INSIDE
    return Close(tn=check.tn, check=rolled, closed=state)


class Contestant(Model):
    pool: PoolText
    modifiers: tuple[Annotated[int, Field(ge=-20, le=20)], ...] = Field(default=(), max_length=4)
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = 0


def side_check(side: Contestant, options: AttackOptions, tn: int = 0) -> CheckInput:
    return CheckInput(pool=side.pool, tn=tn, modifiers=side.modifiers,
                      wound_penalty=side.wound_penalty, options=options)  # fmt: skip


class Race(Model):
    initiator: Checked
    resister: Checked
    winner: str


def race(first: Contestant, second: Contestant, options: AttackOptions, dice: Dice) -> Race:
    mine, theirs = roll_check(side_check(first, options), dice), roll_check(
        side_check(second, options), dice)  # fmt: skip
    won = winner(initiator_en((mine.critical_failure, mine.en)), theirs.en, options)
    return Race(initiator=mine, resister=theirs, winner=won)


class RaceOdds(Model):
    initiator_wins: Exact
    winner: list[OutcomeProbability] = Field(description="'status_quo' or 'resister' on a tie.")
    truncation: Truncation | None


def race_odds(first: Contestant, second: Contestant, options: AttackOptions) -> RaceOdds:
    """P(the initiator wins), exactly (catalogue 1.4, T22)."""
    a, b = results(side_check(first, options)), results(side_check(second, options))
    found = a.then(lambda x: b.map(lambda y: winner(initiator_en(x), y[1], options)))
    return RaceOdds(initiator_wins=exact(found.probability("initiator")),
                    winner=outcome_table(found, ["initiator", "resister", "status_quo"]),
                    truncation=truncation(found, DEPTH))  # fmt: skip


class EntangleInput(Model):
    attacker: Contestant = Field(description="The attacker's fighting skill with the weapon.")
    target: Contestant = Field(
        description="The target's Dexterity (or dodge, if the Master deems)."
    )
    effect: Entanglement = Entanglement.ENTANGLE
    options: AttackOptions = Field(default=AttackOptions())


class Entangled(Race):
    success: bool
    condition: str | None = Field(description="The effect, its mechanics not in the source.")


def entangle_odds(request: EntangleInput) -> RaceOdds:
    return race_odds(request.attacker, request.target, request.options)


def race_cost(request: Model) -> Estimate:
    """Both sides' results and every pair (`core/opposed`)."""
    return OPPOSED


@operation(
    name="combat/melee/entangle",
    kind=Kind.CHECK,
    covers=("fi.combat.melee.entangle",),
    odds=entangle_odds,
    cost=race_cost,
    example={"attacker": {"pool": "III-3"}, "target": {"pool": "II-2"}, "dice": {"seed": 3}},
)
def entangle(request: EntangleInput, dice: Dice) -> Entangled:
    """Instead of damage some weapons entangle or trip: an opposed task of the attacker's
    fighting skill against the target's Dexterity (and perhaps dodge) (FI:L407). What being
    entangled or tripped does is not in the chapter (A-52)."""
    found = race(request.attacker, request.target, request.options, dice)
    won = found.winner == "initiator"
    condition = (f"{request.effect.value}d (its effects are not in the source; the Master's)"
                 if won else None)  # fmt: skip
    return Entangled(**dict(found), success=won, condition=condition)


class EscapeInput(Model):
    route: Route = Field(
        default=Route.WRIGGLE,
        description="strength: break it (fragile weapons, A-52); wriggle: opposed Dexterity.",
    )
    strength: Contestant | None = None
    weapon_tn: Annotated[int, Field(ge=0, le=100)] | None = Field(
        default=None, description="The weapon table's TN to break free."
    )
    fragile: bool = Field(default=False, description="A lariat, a simple net (FI:L407).")
    dexterity: Contestant | None = None
    attacker: Contestant | None = Field(default=None, description="The attacker's weapon skill.")
    options: AttackOptions = Field(default=AttackOptions())


class Escaped(Model):
    freed: bool
    weapon_broken: bool
    check: Checked | None = Field(description="The Strength check.")
    race: Race | None = Field(description="The wriggle: the target first.")
    costs_action: bool


def _strength(request: EscapeInput) -> tuple[Contestant, int]:
    if request.strength is None or request.weapon_tn is None:
        raise InputError(("strength",), "the Strength route needs strength and weapon_tn")
    if not request.fragile and request.options.strength_route is StrengthRoute.FRAGILE_ONLY:
        raise InputError(("fragile",), "only a fragile weapon breaks; wriggle out (FI:L407)")
    tn = request.weapon_tn + (1 if request.options.entangle_break_compare is BreakCompare.GT else 0)
    return request.strength, tn


def _wriggle(request: EscapeInput) -> tuple[Contestant, Contestant]:
    if request.dexterity is None or request.attacker is None:
        raise InputError(("dexterity",), "wriggling needs dexterity and the attacker's skill")
    return request.dexterity, request.attacker


class EscapeOdds(Model):
    freed: list[OutcomeProbability]
    truncation: Truncation | None


def escape_odds(request: EscapeInput) -> EscapeOdds:
    """P(freed), exactly."""
    options = request.options
    if request.route is Route.STRENGTH:
        side, tn = _strength(request)
        freed = results(side_check(side, options)).map(lambda o: not o[0] and o[1] >= tn)
    else:
        first, second = _wriggle(request)
        a, b = results(side_check(first, options)), results(side_check(second, options))
        freed = a.then(lambda x: b.map(
            lambda y: winner(initiator_en(x), y[1], options) == "initiator"))  # fmt: skip
    return EscapeOdds(freed=outcome_table(freed, [True, False]),
                      truncation=truncation(freed, DEPTH))  # fmt: skip


def escape_cost(request: EscapeInput) -> Estimate:
    return OPPOSED if request.route is Route.WRIGGLE else CHECK


@operation(
    name="combat/melee/entangle/escape",
    kind=Kind.CHECK,
    covers=("fi.combat.melee.entangle.escape",),
    odds=escape_odds,
    cost=escape_cost,
    example={"route": "strength", "strength": {"pool": "II-3"}, "weapon_tn": 7, "fragile": True,
             "dice": {"values": [6, 3, 2, 4]}},
)  # fmt: skip
def entangle_escape(request: EscapeInput, dice: Dice) -> Escaped:
    """A Strength check exceeding the weapon table's TN breaks free, breaking a fragile weapon
    (a lariat, a simple net); otherwise he wriggles out, an opposed Dexterity task against the
    attacker's skill with the weapon (FI:L407). The Master adds what the situation calls for
    (FI:L409); an attempt is an action (catalogue A-52)."""
    if request.route is Route.STRENGTH:
        side, tn = _strength(request)
        rolled = roll_check(side_check(side, request.options, tn), dice)
        return Escaped(freed=rolled.success, weapon_broken=rolled.success and request.fragile,
                       check=rolled, race=None, costs_action=True)  # fmt: skip
    found = race(*_wriggle(request), request.options, dice)
    return Escaped(freed=found.winner == "initiator", weapon_broken=False, check=None,
                   race=found, costs_action=True)  # fmt: skip
