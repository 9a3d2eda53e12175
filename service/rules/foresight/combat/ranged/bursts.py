"""Bursts and area fire (F:L3257, F:L3261, F:L3298, F:L3316-3318, F:L3782-3783, F:L3794).

An auto long burst fires [6] rounds at +3 DC, a short one [3] at +2 (F:L3782-3783); the raised
DC is for a burst at a single target, while single shots and area fire do the weapon's DC
(note ++, F:L3794). The catalogue reads a burst at a single target as one hit of the raised DC
with the attack's QR ("a single shot of greater damage class", F:L3261, AMB2-24); the other
reading takes "the proportion of a burst which hits" (F:L3257) literally. Area fire lands
yield(QR) x rounds, rounded half up (F:L3298): QR3 lands 3 of 6 (F:L3316), and each hit
strikes a random location with a random damage QR (F:L3318, F:L1468-1479).
"""

from enum import StrEnum
from fractions import Fraction
from typing import Any, cast

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.combat.ranged.weapon import AUTO_BURSTS, AutoBurst, DamageNotation
from service.rules.foresight.mortality.condition import Location
from service.rules.foresight.mortality.damage import DamageTableOptions, Qr2Yield, damage_yield
from service.rules.foresight.mortality.location import Aim, roll_location
from service.rules.foresight.mortality.notation import parse_damage_class
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.quality import random_qr
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Resolution,
    Side,
    roll,
    side_distribution,
    side_setup,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation

__all__ = [
    "BurstModel",
    "BurstOptions",
    "Volley",
    "burst_hits",
    "burst_yield",
    "raised_dc",
]


class BurstModel(StrEnum):
    SINGLE_HIT = "single_hit"
    YIELD_ROUNDS = "yield_rounds"


class BurstOptions(Model):
    """How a burst lands (AMB2-24) and the yield of a QR2 (AMB2-01, shared with damage)."""

    burst_model: BurstModel = option(
        BurstModel.SINGLE_HIT,
        ambiguity="AMB2-24",
        description=(
            "A burst at a single target: one hit at the weapon's DC plus the burst's bonus "
            "with the attack's QR ('a single shot of greater damage class', F:L3261, F:L3794), "
            "or yield(QR) x rounds hits, rounded half up, at the weapon's DC ('the proportion "
            "of a burst which hits', F:L3257). Area fire always lands yield x rounds."
        ),
    )
    # The damage table's own option, not a second one: a ranged request that also resolves
    # damage (the `attack` operation) reads QR2 one way throughout.
    qr2_yield: Qr2Yield = cast(Qr2Yield, DamageTableOptions.model_fields["qr2_yield"])


class Volley(StrEnum):
    """What the rounds are fired at: one target seen, or a guessed position (F:L3298)."""

    SINGLE_TARGET = "single_target"
    AREA = "area"


def burst_yield(qr: QR, options: BurstOptions) -> Fraction:
    """The yield of a QR as a fraction of the rounds: 100%, 75% (or 80%, AMB2-01), 50%,
    25%; a failure lands nothing (F:L1367-1373)."""
    if qr > QR.QR4:
        return Fraction(0)
    return damage_yield(qr, DamageTableOptions(qr2_yield=options.qr2_yield))


def burst_hits(
    qr: QR, rounds: int, volley: Volley, burst: bool, options: BurstOptions
) -> tuple[int, bool]:
    """How many rounds hit and whether they do the burst's raised DC: one hit at the raised DC
    for a burst at a single target (single_hit), else round_half_up(yield x rounds) at the
    weapon's DC (F:L3257, F:L3261, F:L3298). A single shot is one round."""
    if burst and volley is Volley.SINGLE_TARGET and options.burst_model is BurstModel.SINGLE_HIT:
        return int(qr <= QR.QR4), True
    if not burst and volley is Volley.SINGLE_TARGET:
        return int(qr <= QR.QR4), False
    return round_half_up(burst_yield(qr, options) * rounds), False


def raised_dc(notation: str, bonus: int, loc: tuple[str | int, ...]) -> str:
    """The DC written again with `bonus` added to its number: 10i2p + 3 is 13i2p."""
    dc = parse_damage_class(notation, loc)
    count = f"{dc.count}x" if dc.count > 1 else ""
    sign = "+" if dc.relative and dc.value + bonus >= 0 else ""
    kind = "" if dc.type.value == "none" else dc.type.value
    pierce = f"{dc.pierce}p" if dc.pierce else ""
    return f"{count}{sign}{dc.value + bonus}{kind}{pierce}{'s' if dc.stun else ''}"


class BurstRequestOptions(BurstOptions, ResolutionOptions):
    """The attack roll's options and how the burst lands."""


class BurstInput(Model):
    attack: Side = Field(description="The fire roll (ranged/attack shows its modifiers) or its QR.")
    burst: AutoBurst | None = Field(
        default=None,
        description="The auto burst fired: 'long' [6] +3 DC, 'short' [3] +2 DC "
        "(F:L3782-3783); null: single shots ('rounds' of them, area fire only).",
    )
    rounds: int = Field(
        default=1, ge=1, le=100, description="Without 'burst': rounds fired at the area."
    )
    volley: Volley = Field(default=Volley.SINGLE_TARGET)
    dc: DamageNotation = Field(description="The weapon's DC for a single shot, e.g. '10i2p'.")
    options: BurstRequestOptions = Field(default=BurstRequestOptions())


class BurstHit(Model):
    dc: str
    qr: QR | None = Field(description="A random damage QR (area fire); null: the attack's.")
    qr_roll: int | None
    location: Location | None = Field(description="Random for area fire; null: as aimed.")
    location_roll: int | None


class BurstResult(Model):
    attack: Resolution | None = Field(description="The fire roll; null when its QR was given.")
    qr: QR
    rounds: int
    hits: int
    dc: str = Field(description="The DC of each hit.")
    damage: list[BurstHit]


def _rounds(request: BurstInput) -> tuple[int, int]:
    """Rounds fired and the DC bonus a burst at a single target gets. A burst fires its own
    [6] or [3] rounds (F:L3782-3783): other 'rounds' with it are refused, not ignored."""
    if request.burst is None:
        if request.rounds > 1 and request.volley is Volley.SINGLE_TARGET:
            raise InputError(("rounds",), "several single shots at a target are separate attacks")
        return request.rounds, 0
    row = AUTO_BURSTS[request.burst]
    if request.rounds != 1 and request.rounds != row.rounds:
        message = f"a {request.burst.value} burst fires {row.rounds} rounds (F:L3782-3783)"
        raise InputError(("rounds",), message)
    return row.rounds, row.dc_bonus


def _hits(request: BurstInput, qr: QR) -> tuple[int, str]:
    rounds, bonus = _rounds(request)
    hits, raised = burst_hits(qr, rounds, request.volley, request.burst is not None,
                              request.options)  # fmt: skip
    dc = raised_dc(request.dc, bonus if raised else 0, ("dc",))
    return hits, dc


class BurstOdds(Model):
    attack: QualityOdds = Field(description="The fire roll's QR.")
    hit: Exact = Field(description="P(at least one round hits).")
    hits: list[OutcomeProbability]


def _qr_distribution(request: BurstInput) -> Distribution[QR]:
    return side_distribution(request.attack, side_setup(request.attack, request.options, "attack"))


def burst_odds(request: BurstInput) -> BurstOdds:
    found = _qr_distribution(request)
    hits = found.map(lambda qr: _hits(request, qr)[0])
    return BurstOdds(
        attack=quality_odds(found),
        hit=exact(hits.probability_where(lambda n: n > 0)),
        hits=outcome_table(hits),
    )


def burst_cost(request: Any) -> Estimate:
    """One D100 read, its ten QRs' tables and the hits of each: the same for every request."""
    return Estimate(400, ())


@operation(
    name="ranged/burst",
    kind=Kind.GENERATION,
    covers=("foresight.ranged.burst",),
    odds=burst_odds,
    cost=burst_cost,
    rolled={"/attack/qr": Reading(read=lambda result: result.qr.name, best_first=True)},
    example={
        "attack": {"task": {"score": 12, "bef": 4, "modifiers": [-2]}},
        "burst": "long",
        "volley": "area",
        "dc": "10i2p",
        "dice": {"values": [9, 6, 2, 9, 4, 1, 10]},
    },
)
def burst(request: BurstInput, dice: Dice) -> BurstResult:
    """The rounds of a burst that hit: an auto long burst fires [6] rounds, a short one [3]
    (F:L3782-3783). At a single target it is one hit at the weapon's DC +3 (long) or +2
    (short) with the attack's QR (F:L3261, F:L3794; AMB2-24 'burst_model'). Area fire lands
    yield(QR) x rounds rounded half up at the weapon's DC, each on a random location with a
    random damage QR (F:L3298, F:L3316-3318): a long burst at QR3 lands 3 of 6 (F:L3316)."""
    task = side_setup(request.attack, request.options, "attack")
    rolled = None if task is None else roll(task, dice, "D100 (fire)")
    qr = rolled.qr if rolled is not None else request.attack.qr
    assert qr is not None
    hits, dc = _hits(request, qr)
    rounds = _rounds(request)[0]
    damage = [_hit(request.volley, dc, dice) for _ in range(hits)]
    return BurstResult(attack=rolled, qr=qr, rounds=rounds, hits=hits, dc=dc, damage=damage)


def _hit(volley: Volley, dc: str, dice: Dice) -> BurstHit:
    if volley is Volley.SINGLE_TARGET:
        return BurstHit(dc=dc, qr=None, qr_roll=None, location=None, location_roll=None)
    location, face = roll_location(Aim.RANDOM, dice)
    d10 = dice.roll(10, "random damage QR")
    return BurstHit(dc=dc, qr=random_qr(d10), qr_roll=d10, location=location, location_roll=face)
