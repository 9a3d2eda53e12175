"""Disarming (catalogue part 2, #67; F:L3244-3247): an attack to disarm, a parry to disarm,
or both, resolved as a normal attack and parry.

Each disarm takes the table's PM -3 (the parry's by the option `parry_disarm_pm`, AMB2-53),
added here to a side given as a task; a side given as a QR was rolled with it. The disarming
side must be strictly better than the other (equal QRs disarm no one, X26); an attack to
disarm does no damage; a parry to disarm still blocks as a parry. A disarmed weapon is lost
or dropped; a disarmed bodily appendage is numbed instead (-1 to hit and DC, an EN roll each
hour to recover: a plain `resolve` with EN).
"""

from enum import StrEnum

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.combat.melee.defense import ParryDisarmOptions
from service.rules.foresight.combat.melee.resolve import qr_readings, rolled_qr
from service.rules.foresight.combat.options import DefenseOptions, defended
from service.rules.foresight.resolution.chance import Setup
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, contest_cost, quality_odds
from service.rules.foresight.resolution.quality import Quality, quality
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, Side, setup_at, side_distribution
from service.rules.model import InputError, Model
from service.rules.registry import Kind, Reading, operation

__all__ = ["DisarmInput", "DisarmResult", "Disarmed", "disarm"]

#: The table's PM of a disarm (F:L3244).
DISARM_PM = -3


class DisarmOptions(DefenseOptions, ParryDisarmOptions):
    """How the parry blocks, and the PM of a parry to disarm (AMB2-53)."""


class Disarmed(StrEnum):
    NO = "no"
    LOST = "lost"
    NUMBED = "numbed"


class Combatant(Side):
    disarm: bool = Field(default=False, description="Declared a disarm before the rolls.")
    appendage: bool = Field(
        default=False, description="Fights with a bodily appendage: numbed, not lost."
    )


class DisarmInput(Model):
    attack: Combatant = Field(description="The attack (to disarm or not): its task or QR.")
    parry: Combatant = Field(description="The parry (to disarm or not): its task or QR.")
    options: DisarmOptions = Field(default=DisarmOptions())


class DisarmResult(Model):
    attack: Resolution | None
    parry: Resolution | None
    attack_qr: QR
    parry_qr: QR
    final: Quality = Field(description="The attack's QR after the parry blocks it.")
    damage: bool = Field(description="The attack lands and does damage: not an attack to disarm.")
    defender_disarmed: Disarmed
    attacker_disarmed: Disarmed


class DisarmOdds(Model):
    attack: QualityOdds
    parry: QualityOdds
    final: QualityOdds
    damage: Exact
    defender_disarmed: list[OutcomeProbability]
    attacker_disarmed: list[OutcomeProbability]


def _setup(side: Combatant, pm: int, options: DisarmOptions, loc: str) -> Setup | None:
    if (side.task is None) == (side.qr is None):
        raise InputError((loc,), "give either 'task' or 'qr'")
    if side.task is None:
        return None
    extra = [Term(source=f"{loc} to disarm", value=pm)] if side.disarm and pm else []
    return setup_at((loc, "task"), side.task, options, extra)


def _sides(request: DisarmInput) -> tuple[Setup | None, Setup | None]:
    options = request.options
    return (
        _setup(request.attack, DISARM_PM, options, "attack"),
        _setup(request.parry, options.parry_disarm_pm, options, "parry"),
    )


def _outcome(request: DisarmInput, a: QR, p: QR) -> tuple[QR, bool, Disarmed, Disarmed]:
    """(final QR, damage, defender disarmed, attacker disarmed) for an attack QR `a` and a
    parry QR `p`: a disarm succeeds, and must be superior, i.e. strictly better (F:L3246)."""
    final = defended(a, p, request.options)
    attack, parry = request.attack, request.parry
    lost = {False: Disarmed.LOST, True: Disarmed.NUMBED}
    defender = lost[parry.appendage] if attack.disarm and a <= QR.QR4 and a < p else Disarmed.NO
    attacker = lost[attack.appendage] if parry.disarm and p <= QR.QR4 and p < a else Disarmed.NO
    return final, final <= QR.QR4 and not attack.disarm, defender, attacker


def _odds(request: DisarmInput) -> DisarmOdds:
    attack_task, parry_task = _sides(request)
    attack = side_distribution(request.attack, attack_task)
    parry = side_distribution(request.parry, parry_task)
    found: Distribution[tuple[QR, bool, Disarmed, Disarmed]] = attack.then(
        lambda a: parry.map(lambda p: _outcome(request, a, p))
    )
    return DisarmOdds(
        attack=quality_odds(attack),
        parry=quality_odds(parry),
        final=quality_odds(found.map(lambda o: o[0])),
        damage=exact(found.probability_where(lambda o: o[1])),
        defender_disarmed=outcome_table(found.map(lambda o: o[2]), list(Disarmed)),
        attacker_disarmed=outcome_table(found.map(lambda o: o[3]), list(Disarmed)),
    )


@operation(
    name="melee/disarm",
    kind=Kind.CHECK,
    covers=("foresight.melee.disarm",),
    odds=_odds,
    cost=contest_cost,
    rolled={
        **qr_readings("/attack", lambda result: result.attack_qr),
        **qr_readings("/parry", lambda result: result.parry_qr),
        **qr_readings("/final", lambda result: result.final.qr),
        "/damage": Reading(read=lambda result: result.damage),
    },
    example={
        "attack": {"task": {"score": 15, "bef": 5}, "disarm": True},
        "parry": {"task": {"score": 13, "bef": 5}, "disarm": True},
        "dice": {"values": [12, 30]},
    },
)
def disarm(request: DisarmInput, dice: Dice) -> DisarmResult:
    """A disarm (F:L3244-3247), declared before the rolls: an attack to disarm (PM -3), a
    parry to disarm (PM -3, AMB2-53) or both, resolved as a normal attack and parry. The side
    disarming must succeed and be strictly better than the other: the opponent's weapon is
    lost (a bodily appendage numbed). An attack to disarm does no damage; a parry to disarm
    blocks as a parry even when it fails to disarm. Ruggiero's QR3 attack against a QR3
    parry to disarm is blocked and keeps his sword; Rodomont's QR2 attack to disarm against
    Ruggiero's QR3 parry to disarm does no damage and takes the sword (X26, F:L3247)."""
    attack_task, parry_task = _sides(request)
    attack, attack_qr = rolled_qr(request.attack, attack_task, dice, "D100 (attack)")
    parry, parry_qr = rolled_qr(request.parry, parry_task, dice, "D100 (parry)")
    final, damage, defender, attacker = _outcome(request, attack_qr, parry_qr)
    return DisarmResult(
        attack=attack,
        parry=parry,
        attack_qr=attack_qr,
        parry_qr=parry_qr,
        final=quality(final),
        damage=damage,
        defender_disarmed=defender,
        attacker_disarmed=attacker,
    )
