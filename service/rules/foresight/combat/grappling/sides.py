"""The rolls a grappling rule is made of: each side of it a task to roll (its own modifiers
added as named terms, so they show in the chance) or a QR the table already rolled, and an
attack blocked by a parry or dodge as every melee attack is (F:L3189)."""

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, exact
from service.rules.foresight.combat.options import DefenseOptions, defended
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.quality import Quality, quality
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Prepared,
    Resolution,
    Rolled,
    Side,
    prepare,
)
from service.rules.model import Model

__all__ = [
    "Attack",
    "GrappleAttack",
    "GrappleAttackOdds",
    "Prepared",
    "Rolled",
    "blocked",
    "prepare",
    "prepare_attack",
    "succeeded",
    "term",
]

#: The states of one side's odds (100 faces and a table of QRs) and of a pair of sides.
SIDE_STATES = 200
PAIR_STATES = 4 * 10 * 10


def term(source: str, value: int, applies: bool = True) -> list[Term]:
    """A rule's own modifier, when it applies."""
    return [Term(source=source, value=value)] if applies and value else []


def blocked(
    attack: Distribution[QR], defense: Distribution[QR] | None, options: DefenseOptions
) -> Distribution[QR]:
    """The attack's QR after a parry or dodge (F:L3189), or as rolled when undefended."""
    if defense is None:
        return attack
    return attack.then(lambda a: defense.map(lambda d: defended(a, d, options)))


def succeeded(qr: QR) -> bool:
    return qr <= QR.QR4


class GrappleAttack(Model):
    """An attack and the parry or dodge against it, every roll shown."""

    attack: Resolution | None = Field(description="The attack's roll; null when its QR was given.")
    defense: Resolution | None = Field(description="The parry or dodge; null if given or none.")
    attack_qr: QR
    defense_qr: QR | None
    final: Quality = Field(description="The attack's QR after the defence (F:L3189).")
    hit: bool = Field(description="The final QR is a success: the attack lands.")


class GrappleAttackOdds(Model):
    attack: QualityOdds
    defense: QualityOdds | None
    final: QualityOdds = Field(description="The attack's QR after the defence.")
    hit: Exact


@dataclass(frozen=True)
class Attack:
    """An attack set up with the rule's terms and the defence that may block it."""

    attack: Prepared
    defense: Prepared | None
    options: DefenseOptions

    def distribution(self) -> Distribution[QR]:
        defense = None if self.defense is None else self.defense.distribution()
        return blocked(self.attack.distribution(), defense, self.options)

    def odds(self) -> GrappleAttackOdds:
        final = self.distribution()
        defense = None if self.defense is None else quality_odds(self.defense.distribution())
        return GrappleAttackOdds(
            attack=quality_odds(self.attack.distribution()),
            defense=defense,
            final=quality_odds(final),
            hit=exact(final.probability_where(succeeded)),
        )

    def roll(self, dice: Dice) -> GrappleAttack:
        attack = self.attack.roll(dice)
        final, defense = attack.qr, None
        if self.defense is not None:
            defense = self.defense.roll(dice)
            final = defended(attack.qr, defense.qr, self.options)
        return GrappleAttack(
            attack=attack.resolution,
            defense=None if defense is None else defense.resolution,
            attack_qr=attack.qr,
            defense_qr=None if defense is None else defense.qr,
            final=quality(final),
            hit=succeeded(final),
        )


def prepare_attack(
    attack: Side, defense: Side | None, options: DefenseOptions, extra: Sequence[Term] = ()
) -> Attack:
    """The attack with the rule's own terms, and the parry or dodge set up as it is given."""
    guard = None if defense is None else prepare(defense, options, "defense")
    return Attack(prepare(attack, options, "attack", extra), guard, options)
