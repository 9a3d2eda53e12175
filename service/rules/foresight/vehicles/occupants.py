"""The people in a vehicle when it is hit, crashes or is totalled: their damage goes through
`damage/resolve` (catalogue part 2, #24), never a table of its own.

Accidents and safety rolls give the occupants a DC to suffer with a random QR (F:L3378-3380,
F:L3480-3481; the catalogue recommends a random location, so the head's +1 applies, and no
armor unless the caller types the crash, #83); a compartment hit gives the one occupant it
strikes the attack's QR (AMB2-36).
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from service.rules.dice import Dice
from service.rules.distribution import Distribution
from service.rules.foresight.mortality.condition import Condition, accumulate
from service.rules.foresight.mortality.hits import (
    DamageInput,
    DamageOptions,
    DamageResult,
    Protection,
)
from service.rules.foresight.mortality.resolve import hit_distribution, resolve_hits
from service.rules.foresight.resolution.tables import QR
from service.rules.model import Model

__all__ = [
    "MAX_OCCUPANTS",
    "Crash",
    "damage_options",
    "hurt",
    "occupant_strike",
    "wound_levels",
]

#: The most occupants a request may list: the Interstellar Carrier's 500 passengers and its
#: operator (F:L4133).
MAX_OCCUPANTS = 501


NO_ARMOR = Protection()


@dataclass(frozen=True)
class Crash:
    """What an occupant's hit is and meets: the damage type its DC is read as ('' none, 'm'
    melee, 'i' impact) and the armor the occupants wear."""

    dc_type: str = ""
    armor: Protection = NO_ARMOR


def damage_options(options: Model) -> DamageOptions:
    """The damage options among a rule's options (which extend them)."""
    return DamageOptions(**{name: getattr(options, name) for name in DamageOptions.model_fields})


def occupant_strike(
    dc: Fraction,
    condition: Condition,
    options: DamageOptions,
    qr: QR | None = None,
    crash: Crash = Crash(),
) -> DamageInput | None:
    """The hit an occupant takes: DC `dc` (None when it is below 0: the table's nothing),
    at `qr` or, without one, a random QR. A fractional DC (a vehicle's DS of 3.75 taken from
    8) is written as its whole part relative to a wielder whose UCDC is the fraction left:
    the notation has whole DCs, and a UCDC is at most 100."""
    if dc < 0:
        return None
    strike: dict[str, Any] = {"damage_class": f"DC{dc}{crash.dc_type}"}
    if dc.denominator != 1:
        whole = math.floor(dc)
        strike = {"damage_class": f"+{whole}{crash.dc_type}", "ucdc": float(dc - whole)}
    return DamageInput(**strike, **dict(crash.armor), qr=qr, condition=condition, options=options)


def hurt(
    dc: Fraction,
    conditions: Sequence[Condition],
    dice: Dice,
    options: DamageOptions,
    qr: QR | None = None,
    crash: Crash = Crash(),
) -> list[DamageResult]:
    """Each occupant's damage, in order (a hit below DC 0 does nothing: no one is listed)."""
    found = []
    for condition in conditions:
        request = occupant_strike(dc, condition, options, qr, crash)
        if request is not None:
            found.append(resolve_hits(request, dice))
    return found


def wound_levels(
    dcs: Sequence[Fraction],
    condition: Condition,
    options: DamageOptions,
    qr: QR | None = None,
    crash: Crash = Crash(),
) -> Distribution[int]:
    """The exact wound level of an occupant after hits of each DC in turn (an explosion's
    DC12 after the wreck's DC10, F:L3380), each by the accumulation rule and held at the
    bound a condition carries, as `damage/resolve` holds it."""
    levels: Distribution[int] = Distribution({condition.wound_level: 1})
    for dc in dcs:
        request = occupant_strike(dc, condition, options, qr, crash)
        if request is None:
            continue
        hits = hit_distribution(request)

        def then(level: int, hits: Distribution[Any] = hits) -> Distribution[int]:
            return hits.map(lambda hit: accumulate(level, hit[1] or 0, hit[0], options))

        levels = levels.then(then)
    return levels
