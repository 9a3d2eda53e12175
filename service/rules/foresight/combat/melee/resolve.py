"""A parry or dodge against a melee attack (catalogue part 2, #58; F:L3189, blocking
F:L1503-1521): the attack's QR after the defence, and whether it still hits."""

from collections.abc import Callable
from typing import Any

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, exact
from service.rules.foresight.combat.options import DefenseOptions, defended
from service.rules.foresight.resolution.chance import Setup
from service.rules.foresight.resolution.odds import QualityOdds, contest_cost, quality_odds
from service.rules.foresight.resolution.quality import Quality, quality
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Resolution,
    Side,
    roll,
    side_distribution,
    side_setup,
)
from service.rules.model import Model
from service.rules.registry import Kind, Reading, operation

__all__ = [
    "DefenseResolveInput",
    "DefenseResolveResult",
    "defense_resolve",
    "qr_readings",
    "rolled_qr",
]


class DefenseResolveInput(Model):
    attack: Side = Field(description="The attack (melee/attack shows its modifiers) or its QR.")
    defense: Side = Field(description="The parry or dodge (melee/parry, melee/dodge) or its QR.")
    options: DefenseOptions = Field(default=DefenseOptions())


class DefenseResolveResult(Model):
    attack: Resolution | None = Field(description="The attack's roll; null when its QR was given.")
    defense: Resolution | None = Field(description="The defence's roll; null when given.")
    attack_qr: QR
    defense_qr: QR
    final: Quality = Field(description="The attack's QR after the defence (F:L3189).")
    hit: bool = Field(description="The final QR is a success: the attack lands.")


class DefenseResolveOdds(Model):
    attack: QualityOdds
    defense: QualityOdds
    final: QualityOdds = Field(description="Its 'success' is P(hit).")
    hit: Exact


def rolled_qr(
    side: Side, task: Setup | None, dice: Dice, purpose: str
) -> tuple[Resolution | None, QR]:
    """A side's roll (None when its QR was given) and its QR."""
    if task is None:
        assert side.qr is not None
        return None, side.qr
    rolled = roll(task, dice, purpose)
    return rolled, rolled.qr


def qr_readings(pointer: str, read: Callable[[Any], QR]) -> dict[str, Reading]:
    """How a result reads as the QualityOdds at `pointer`: its QR, success and botch."""
    return {
        f"{pointer}/qr": Reading(read=lambda result: read(result).name, best_first=True),
        f"{pointer}/summary/success": Reading(read=lambda result: read(result) <= QR.QR4),
        f"{pointer}/summary/botch": Reading(read=lambda result: read(result) is QR.QR10),
    }


def _sides(request: DefenseResolveInput) -> tuple[Setup | None, Setup | None]:
    options = request.options
    return side_setup(request.attack, options, "attack"), side_setup(
        request.defense, options, "defense"
    )


def _odds(request: DefenseResolveInput) -> DefenseResolveOdds:
    attack_task, defense_task = _sides(request)
    attack = side_distribution(request.attack, attack_task)
    defense = side_distribution(request.defense, defense_task)
    final: Distribution[QR] = attack.then(
        lambda a: defense.map(lambda d: defended(a, d, request.options))
    )
    return DefenseResolveOdds(
        attack=quality_odds(attack),
        defense=quality_odds(defense),
        final=quality_odds(final),
        hit=exact(final.probability_where(lambda qr: qr <= QR.QR4)),
    )


@operation(
    name="melee/defense-resolve",
    kind=Kind.CHECK,
    covers=("foresight.melee.defense_resolve",),
    odds=_odds,
    cost=contest_cost,
    rolled={
        **qr_readings("/attack", lambda result: result.attack_qr),
        **qr_readings("/defense", lambda result: result.defense_qr),
        **qr_readings("/final", lambda result: result.final.qr),
    },
    example={
        "attack": {"task": {"score": 14, "bef": 5}},
        "defense": {"task": {"score": 12, "bef": 4}},
        "dice": {"values": [23, 31]},
    },
)
def defense_resolve(request: DefenseResolveInput, dice: Dice) -> DefenseResolveResult:
    """A parry or dodge against a melee attack: a defence better than the attack avoids it
    entirely; otherwise the attack's QR worsens as an opposed task blocks it, (5 - defence
    QR) notches (F:L3189, the blocking table F:L1511-1519). A botched (QR10) defence makes
    the attack one notch better by the table, and under 'text_formula' (AMB-04) a failed one
    lifts it (5 - QR) notches, a QR7 two (F:L1507), unless `defense_botch_helps_attack` is
    false (AMB2-18)."""
    attack_task, defense_task = _sides(request)
    attack, attack_qr = rolled_qr(request.attack, attack_task, dice, "D100 (attack)")
    defense, defense_qr = rolled_qr(request.defense, defense_task, dice, "D100 (defense)")
    final = defended(attack_qr, defense_qr, request.options)
    return DefenseResolveResult(
        attack=attack,
        defense=defense,
        attack_qr=attack_qr,
        defense_qr=defense_qr,
        final=quality(final),
        hit=final <= QR.QR4,
    )
