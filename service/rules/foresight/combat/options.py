"""Readings of the combat rules shared by several of its operations (catalogue part 2,
section 5): how a defence blocks an attack and how two QRs are told apart."""

from enum import StrEnum

from service.rules.foresight.resolution.contests import block
from service.rules.foresight.resolution.options import BlockingOptions
from service.rules.foresight.resolution.quality import NOTCHES
from service.rules.foresight.resolution.tables import QR
from service.rules.model import Model, option

__all__ = ["DefenseOptions", "DifferenceOptions", "QrDifference", "defended", "qr_difference"]


class QrDifference(StrEnum):
    NUMERIC = "numeric"
    NOTCH = "notch"


def qr_difference(better: QR, worse: QR, mode: QrDifference) -> int:
    """How far `better` is ahead of `worse`: numerically (QR2 against QR7 is 5, the trip
    example, F:L3240) or in notches along QR1 2 3 4 7 10 (QR2 against QR7 is 3, F:L1507)."""
    if mode is QrDifference.NUMERIC:
        return worse.value - better.value
    return NOTCHES.index(worse) - NOTCHES.index(better)


class DifferenceOptions(Model):
    """How a QR advantage is measured where a rule counts it (trip, entangle, grab, pins)."""

    qr_difference_mode: QrDifference = option(
        QrDifference.NUMERIC,
        ambiguity="AMB2-19",
        description=(
            "A QR advantage counted numerically (QR2 against QR7 is 5: the trip example, "
            "F:L3240, the only worked one) or in notches along QR1 2 3 4 7 10 (3), as blocking "
            "counts (F:L1507)."
        ),
    )


class DefenseOptions(BlockingOptions):
    """Resolution options and how a parry or dodge blocks a melee attack (F:L3189)."""

    defense_botch_helps_attack: bool = option(
        True,
        ambiguity="AMB2-18",
        description=(
            "A failed defence acts on the attack as 'blocking_mode' reads blocking: by the "
            "table only a botched (QR10) one does, one notch better (a QR7 miss becomes a QR4 "
            "hit, F:L1511-1519); by 'text_formula' the attack drops (5 - defending QR) notches "
            "(F:L1507), so a QR7 defence lifts it two notches and a QR10 five, to QR1 at best. "
            "False: a failed defence leaves the attack as rolled (the melee text speaks only "
            "of a successful one, F:L3189)."
        ),
    )


def defended(attack: QR, defense: QR, options: DefenseOptions) -> QR:
    """The attack's QR after the defence: blocked as an opposed task (F:L3189, F:L1503-1521).
    Unless the option lets a failed defence act on it, a failed one (QR7 or QR10) leaves the
    attack as rolled: the melee text degrades the attack only by 'a successful parry or
    dodge' (F:L3189), which the blocking text's (5 - QR7) = -2 notches would otherwise turn
    into a two-notch boost (F:L1507)."""
    if defense > QR.QR4 and not options.defense_botch_helps_attack:
        return attack
    return block(attack, defense, options.blocking_mode)
