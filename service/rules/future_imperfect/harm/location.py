"""Where a hit lands (FI:L423-460, L508): the legacy d20 chart with its modifiers, bumps that
move the roll, prone targets, cover over a region, and concealment.

The chart is "HANDLED BY ACTION CARDS SOON TO BE DEPRECATED" (FI:L423): the d20 engine rolls
it, the modified roll clamped to 1-20, its parity picking the side of an arm or leg, each bump
moving it one either way (A-54). The deck engine (A-01, `FI_ACTION_DECK`) draws an Action Card
and reads its location section (FI:L516), which the chapter does not print (F2): a configured
deck gives each card's place on the chart (`core.deck.Card.location`). The catalogue gives
the deck no rule for the modifiers, and bumps "shift left or right" (FI:L446) on a layout it
does not know (A-54): the deck engine moves the card's place along the chart's order, one
place a point of modifier or shift, clamped to the left leg and the head."""

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.future_imperfect.core.damage import HIT_LOCATIONS
from service.rules.future_imperfect.core.deck import PLACES, Place, configured
from service.rules.future_imperfect.core.options import Engine
from service.rules.future_imperfect.harm.options import HarmOptions, HitRegion
from service.rules.future_imperfect.time.cards import Out, distinct, draw, left
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "LOCATIONS",
    "CoverPart",
    "WoundLocation",
    "bonus_cards",
    "concealment",
    "hit_location",
    "locate",
    "place",
]


class WoundLocation(StrEnum):
    """The six places wounds are kept (FI:L556)."""

    HEAD = "head"
    TORSO = "torso"
    LEFT_ARM = "left_arm"
    RIGHT_ARM = "right_arm"
    LEFT_LEG = "left_leg"
    RIGHT_LEG = "right_leg"


LOCATIONS = tuple(WoundLocation)


class CoverPart(StrEnum):
    """What cover may hide: a region of the chart, or one side's arm or leg, as when a Hero
    leans around a corner to fire with his right and a hit on his left arm strikes the corner
    (FI:L458)."""

    LEGS = "legs"
    LEFT_LEG = "left_leg"
    RIGHT_LEG = "right_leg"
    LOWER_TORSO = "lower_torso"
    VITALS = "vitals"
    ARMS = "arms"
    LEFT_ARM = "left_arm"
    RIGHT_ARM = "right_arm"
    UPPER_TORSO = "upper_torso"
    HEAD = "head"


#: The regions whose side the chart's parity gives (FI:L425).
_SIDED = (HitRegion.ARMS, HitRegion.LEGS)


def behind_cover(
    region: HitRegion, location: WoundLocation, covered: tuple[CoverPart, ...]
) -> bool:
    """A hit strikes the cover where its region, or its side's arm or leg, is covered
    (FI:L458-460)."""
    parts = {part.value for part in covered}
    return region.value in parts or (region in _SIDED and location.value in parts)


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
#: The region of each place a card's location section shows (FI:L431-437).
_PLACE_REGIONS: dict[Place, HitRegion] = {
    "left_leg": HitRegion.LEGS,
    "right_leg": HitRegion.LEGS,
    "lower_torso": HitRegion.LOWER_TORSO,
    "vitals": HitRegion.VITALS,
    "left_arm": HitRegion.ARMS,
    "right_arm": HitRegion.ARMS,
    "upper_torso": HitRegion.UPPER_TORSO,
    "head": HitRegion.HEAD,
}


def locate(roll: int) -> tuple[HitRegion, WoundLocation]:
    """The region of a d20 result, clamped to 1-20, and where its wound is kept: an odd arm or
    leg is the left (FI:L427), vitals and both torso rows are the torso (FI:L429, FI:L556)."""
    face = min(max(roll, 1), 20)
    row = next(r for r in HIT_LOCATIONS if r.low <= face <= r.high)
    tracked = row.tracked.replace("*", "left" if face % 2 else "right")
    return _REGIONS[row.region], WoundLocation(tracked)


def place(number: int) -> tuple[HitRegion, WoundLocation]:
    """The region of a place of the chart, 1 (left leg) to 8 (head), clamped, and where its
    wound is kept: vitals and both torso rows are the torso (FI:L429, FI:L556)."""
    name = PLACES[min(max(number, 1), len(PLACES)) - 1]
    tracked = "torso" if name in ("lower_torso", "vitals", "upper_torso") else name
    return _PLACE_REGIONS[name], WoundLocation(tracked)


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
    covered: Annotated[tuple[CoverPart, ...], Field(max_length=len(CoverPart))] = Field(
        default=(),
        description="What is behind cover: regions of the chart, or one arm or leg (left_arm "
        "for a Hero leaning around a corner to fire with his right, FI:L458); a hit there "
        "strikes the cover, whose AV then applies (FI:L458-460).",
    )
    out: Out = Field(
        default=(),
        description="The deck engine: impulses out of the Action Deck, drawn since the last "
        "shuffle (combat/deck); the card is drawn from the rest.",
    )
    options: HarmOptions = Field(default=HarmOptions())


class LocationOutcome(StrEnum):
    HIT = "hit"
    COVER = "cover"
    MISS_PRONE = "miss_prone"


class Located(Model):
    face: int = Field(description="The d20; on the deck engine, the card's place, 1-8.")
    shift: int = Field(description="The bumps' shift used.")
    roll: int = Field(
        description="The d20, modifiers and shift, clamped to 1-20; on the deck engine, the "
        "place so moved, clamped to 1 (left leg) to 8 (head)."
    )
    region: HitRegion
    location: WoundLocation = Field(description="Where the wound is kept.")
    bonus_cards: int = Field(
        description="Extra damage cards for the region (FI:L512); 0 on a miss (miss_prone), "
        "which draws no damage (FI:L454)."
    )
    outcome: LocationOutcome = Field(
        description="hit; cover: the cover is struck (its AV applies); "
        "miss_prone: no prone attribute, a miss."
    )
    card: int | None = Field(description="The Action Card read, by impulse; null for the d20.")
    deck: str | None = Field(description="The Action Deck read; null for the d20 engine.")
    out: tuple[int, ...] = Field(description="The impulses out of the deck now: carry them on.")
    note: str | None = Field(description="How the deck engine read the modifiers; null: d20.")


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


#: What the deck engine does with the chart's modifiers, which the catalogue gives it no rule for.
DECK_NOTE = (
    "the modifiers and bumps moved the card's place along the chart (left leg, right leg, "
    "lower torso, vitals, left arm, right arm, upper torso, head), a place a point, as they "
    "move the d20: the catalogue gives the deck no rule for them (A-54)"
)


#: Where a roll or place lands: the d20 chart's `locate`, or the deck's `place`.
Chart = Callable[[int], tuple[HitRegion, WoundLocation]]


def _shift(base: int, request: LocationInput, chart: Chart) -> int:
    """The shift chosen: the request's, or the least that reaches `aim_for`."""
    if request.aim_for is None:
        return request.shift
    for size in range(request.bumps + 1):
        for shift in (size, -size):
            if chart(base + shift)[0] is request.aim_for:
                return shift
    return 0


def _located(face: int, request: LocationInput, chart: Chart = locate, top: int = 20) -> Located:
    """The result of a d20 face, or of a card's place with `chart=place` and `top=8`."""
    base = face + _modifier(request)
    shift = _shift(base, request, chart)
    region, location = chart(base + shift)
    options = request.options
    if request.prone and not request.within_2m and region not in options.prone_exposed_regions:
        outcome = LocationOutcome.MISS_PRONE
    else:
        covered = behind_cover(region, location, request.covered)
        outcome = LocationOutcome.COVER if covered else LocationOutcome.HIT
    return Located(
        face=face,
        shift=shift,
        roll=min(max(base + shift, 1), top),
        region=region,
        location=location,
        bonus_cards=0 if outcome is LocationOutcome.MISS_PRONE else bonus_cards(region, options),
        outcome=outcome,
        card=None,
        deck=None,
        out=request.out,
        note=None,
    )


def _deck(request: LocationInput) -> tuple[str, dict[int, int]]:
    """The configured deck's name and the place, 1-8, of each card left in it; its cards
    must show locations."""
    deck = configured(("options", "engine"))
    places = {c.impulse: PLACES.index(c.location) + 1 for c in deck.cards if c.location}
    if not places:
        raise InputError(("options", "engine"), f"the Action Deck {deck.name!r} shows no "
                                                "location sections (FI:L516)")  # fmt: skip
    distinct(request.out, ("out",))
    cards = left(request.out)
    if not cards:
        raise InputError(("out",), "no card is left in the deck: shuffle (an empty out)")
    return deck.name, {impulse: places[impulse] for impulse in cards}


class LocationOdds(Model):
    region: list[OutcomeProbability]
    location: list[OutcomeProbability]
    outcome: list[OutcomeProbability]
    note: str | None = Field(description="How the deck engine read the modifiers; null: d20.")


def location_odds(request: LocationInput) -> LocationOdds:
    """Each region, kept location and outcome of the d20 (catalogue 5.5 T6), or of one card
    of those left in the deck, each as likely, exactly."""
    _modifier(request)
    if request.options.engine is Engine.DICE:
        found = Distribution.die(20).map(lambda face: _located(face, request))
    else:
        _, places = _deck(request)
        cards = Distribution((p, 1) for p in places.values())
        found = cards.map(lambda p: _located(p, request, place, len(PLACES)))
    return LocationOdds(
        region=outcome_table(found.map(lambda f: f.region), list(HitRegion)),
        location=outcome_table(found.map(lambda f: f.location), LOCATIONS),
        outcome=outcome_table(found.map(lambda f: f.outcome), list(LocationOutcome)),
        note=None if request.options.engine is Engine.DICE else DECK_NOTE,
    )


def location_cost(request: LocationInput) -> Estimate:
    """Twenty faces, or at most 54 cards, read four ways."""
    return Estimate(100 if request.options.engine is Engine.DICE else 300, ())


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
    (FI:L454), and a miss draws no damage, so no extra cards (FI:L512); a region, or one side's
    arm or leg, behind cover strikes the cover (FI:L458-460), the region's extra cards kept.

    On the deck engine, one card is drawn from those not `out` and its location section read
    (FI:L516), the modifiers and bumps moving it a place a point along the chart (A-54)."""
    _modifier(request)
    if request.options.engine is Engine.DICE:
        return _located(dice.roll(20, "location d20"), request)
    name, places = _deck(request)
    impulse = draw(list(places), 1, dice)[0].impulse
    found = _located(places[impulse], request, place, len(PLACES))
    update = {"card": impulse, "deck": name, "out": (*request.out, impulse), "note": DECK_NOTE}
    return found.model_copy(update=update)


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
