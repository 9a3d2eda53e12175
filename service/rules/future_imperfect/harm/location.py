"""Where a hit lands (FI:L423-460, L508): the legacy d20 chart with its modifiers, bumps that
move the roll, prone targets, cover over a region, and concealment.

The chart is "HANDLED BY ACTION CARDS SOON TO BE DEPRECATED" (FI:L423), but the cards' location
section is not printed (F2): this is the d20 engine. The modified roll is clamped to 1-20 and
its parity picks the side of an arm or leg (A-54); each bump moves it one either way."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.future_imperfect.core.damage import HIT_LOCATIONS
from service.rules.future_imperfect.harm.options import HarmOptions, HitRegion
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["LOCATIONS", "WoundLocation", "bonus_cards", "concealment", "hit_location", "locate"]


class WoundLocation(StrEnum):
    """The six places wounds are kept (FI:L556)."""

    HEAD = "head"
    TORSO = "torso"
    LEFT_ARM = "left_arm"
    RIGHT_ARM = "right_arm"
    LEFT_LEG = "left_leg"
    RIGHT_LEG = "right_leg"


LOCATIONS = tuple(WoundLocation)
#: The core chart's region names as this package's regions.
_REGIONS = {
    "Legs": HitRegion.LEGS,
    "Lower Torso": HitRegion.LOWER_TORSO,
    "Vitals": HitRegion.VITALS,
    "Arms": HitRegion.ARMS,
    "Upper Torso": HitRegion.UPPER_TORSO,
    "Head": HitRegion.HEAD,
}
#: Each location modifier of the chart (FI:L439-442).
FIGHTING = HEIGHT = POINT_BLANK = 2


def locate(roll: int) -> tuple[HitRegion, WoundLocation]:
    """The region of a d20 result, clamped to 1-20, and where its wound is kept: an odd arm or
    leg is the left (FI:L427), vitals and both torso rows are the torso (FI:L429, FI:L556)."""
    face = min(max(roll, 1), 20)
    row = next(r for r in HIT_LOCATIONS if r.low <= face <= r.high)
    tracked = row.tracked.replace("*", "left" if face % 2 else "right")
    return _REGIONS[row.region], WoundLocation(tracked)


def bonus_cards(region: HitRegion | None, options: HarmOptions) -> int:
    """Extra damage cards: 1 for the vitals, 2 for the head (FI:L512, A-60)."""
    if region is HitRegion.VITALS:
        return options.vitals_bonus_cards
    return options.head_bonus_cards if region is HitRegion.HEAD else 0


Shift = Annotated[int, Field(ge=-10, le=10)]


class LocationInput(Model):
    melee: bool = Field(default=False, description="+2 when fighting (FI:L440).")
    height_advantage: bool = Field(default=False, description="+2 fighting from above (FI:L441).")
    point_blank: bool = Field(
        default=False,
        description="+2 firing at point-blank range: holding a weapon on someone, a shield or "
        "hostage, across a table; within arms' reach (FI:L442, FI:L450).",
    )
    modifier: Shift = Field(default=0, description="Any other change to the d20 the Master sets.")
    bumps: Annotated[int, Field(ge=0, le=10)] = Field(
        default=0, description="Bumps of the attack: each may move the roll one (FI:L439, L446)."
    )
    shift: Shift = Field(
        default=0,
        description="How far the attacker moves the roll, at most "
        "his bumps either way (optional, FI:L446).",
    )
    aim_for: HitRegion | None = Field(
        default=None,
        description="Instead of a shift: move the roll the least the bumps allow into this "
        "region, or not at all if they cannot reach it.",
    )
    prone: bool = Field(
        default=False, description="The target lies prone, fired at from the front (FI:L454)."
    )
    within_2m: bool = Field(
        default=False,
        description="The attacker is within 2 m of a prone target: the rule is ignored (FI:L454).",
    )
    covered: Annotated[tuple[HitRegion, ...], Field(max_length=6)] = Field(
        default=(),
        description="The regions behind cover: a hit there strikes the cover, whose AV then "
        "applies (FI:L458-460).",
    )
    options: HarmOptions = Field(default=HarmOptions())


class LocationOutcome(StrEnum):
    HIT = "hit"
    COVER = "cover"
    MISS_PRONE = "miss_prone"


class Located(Model):
    face: int = Field(description="The d20.")
    shift: int = Field(description="The bumps' shift used.")
    roll: int = Field(description="The d20, modifiers and shift, clamped to 1-20.")
    region: HitRegion
    location: WoundLocation = Field(description="Where the wound is kept.")
    bonus_cards: int = Field(description="Extra damage cards for the region (FI:L512).")
    outcome: LocationOutcome = Field(
        description="hit; cover: the cover is struck (its AV applies); "
        "miss_prone: no prone attribute, a miss."
    )


def _modifier(request: LocationInput) -> int:
    if request.height_advantage and not request.melee:
        raise InputError(("height_advantage",), "height advantage counts when fighting (FI:L441)")
    if request.point_blank and request.melee:
        raise InputError(("point_blank",), "point-blank range counts when firing (FI:L442)")
    if abs(request.shift) > request.bumps:
        raise InputError(
            ("shift",),
            f"{request.bumps} bump(s) move the roll at most {request.bumps} either way (FI:L446)",
        )
    if request.shift and request.aim_for is not None:
        raise InputError(("aim_for",), "give a shift or a region to aim for, not both")
    return (
        FIGHTING * request.melee
        + HEIGHT * request.height_advantage
        + POINT_BLANK * request.point_blank
        + request.modifier
    )


def _shift(base: int, request: LocationInput) -> int:
    """The shift chosen: the request's, or the least that reaches `aim_for`."""
    if request.aim_for is None:
        return request.shift
    for size in range(request.bumps + 1):
        for shift in (size, -size):
            if locate(base + shift)[0] is request.aim_for:
                return shift
    return 0


def _located(face: int, request: LocationInput) -> Located:
    base = face + _modifier(request)
    shift = _shift(base, request)
    region, location = locate(base + shift)
    options = request.options
    if request.prone and not request.within_2m and region not in options.prone_exposed_regions:
        outcome = LocationOutcome.MISS_PRONE
    else:
        outcome = LocationOutcome.COVER if region in request.covered else LocationOutcome.HIT
    return Located(
        face=face,
        shift=shift,
        roll=min(max(base + shift, 1), 20),
        region=region,
        location=location,
        bonus_cards=bonus_cards(region, options),
        outcome=outcome,
    )


class LocationOdds(Model):
    region: list[OutcomeProbability]
    location: list[OutcomeProbability]
    outcome: list[OutcomeProbability]


def location_odds(request: LocationInput) -> LocationOdds:
    """Each region, kept location and outcome of the d20 (catalogue 5.5 T6), exactly."""
    found = Distribution.die(20).map(lambda face: _located(face, request))
    return LocationOdds(
        region=outcome_table(found.map(lambda f: f.region), list(HitRegion)),
        location=outcome_table(found.map(lambda f: f.location), LOCATIONS),
        outcome=outcome_table(found.map(lambda f: f.outcome), list(LocationOutcome)),
    )


def location_cost(request: LocationInput) -> Estimate:
    """Twenty faces, read four ways: the same for every request."""
    return Estimate(100, ())


@operation(
    name="combat/hit-location",
    kind=Kind.GENERATION,
    covers=(
        "fi.combat.hit_location",
        "fi.combat.hit_location.bump",
        "fi.combat.point_blank",
        "fi.combat.prone",
        "fi.combat.cover",
    ),
    odds=location_odds,
    cost=location_cost,
    example={"point_blank": True, "bumps": 1, "aim_for": "head", "dice": {"values": [17]}},
)
def hit_location(request: LocationInput, dice: Dice) -> Located:
    """Roll 1d20 on the chart: 1-4 legs, 5-9 lower torso, 10 vitals, 11-14 arms, 15-19 upper
    torso, 20 head, an odd arm or leg the left (FI:L425-437); +2 fighting, +2 with height
    advantage, +2 point-blank when firing (FI:L439-442); each bump may move the roll one
    (FI:L446). A prone target fired at from beyond 2 m is missed unless the region is exposed
    (FI:L454); a region behind cover strikes the cover (FI:L458-460)."""
    _modifier(request)
    return _located(dice.roll(20, "location d20"), request)


class Visibility(StrEnum):
    VISIBLE = "visible"
    PARTLY_CONCEALED = "partly_concealed"
    CONCEALED_LOCATED = "concealed_located"
    CONCEALED_UNKNOWN = "concealed_unknown"


class ConcealmentInput(Model):
    visibility: Visibility = Field(
        description="partly_concealed: some part can be seen; concealed_located: none can, "
        "but the attacker knows about where, even a direction; concealed_unknown: not even that."
    )


class Concealment(Model):
    attack_possible: bool
    modifier: int | None = Field(description="To the attack roll; null when no attack is possible.")
    cover_is_armor: bool = Field(description="The cover between counts as armor (FI:L508).")


@operation(
    name="combat/concealment",
    kind=Kind.LOOKUP,
    covers=("fi.combat.concealment",),
    example={"visibility": "concealed_located"},
)
def concealment(request: ConcealmentInput) -> Concealment:
    """A target partly seen is attacked unmodified, the cover counting as armor; completely
    concealed but located "even a general direction", at -4 (FI:L508); otherwise it cannot be
    attacked (catalogue 3.7.4)."""
    visibility = request.visibility
    if visibility is Visibility.CONCEALED_UNKNOWN:
        return Concealment(attack_possible=False, modifier=None, cover_is_armor=False)
    modifier = -4 if visibility is Visibility.CONCEALED_LOCATED else 0
    return Concealment(
        attack_possible=True, modifier=modifier, cover_is_armor=visibility is not Visibility.VISIBLE
    )
