"""One attack's damage, end to end (catalogue part 2, #24; F:L2628-2726, F:L3930).

For each hit: the QR (given, rolled for the attack, or a random QR for damage without one,
F:L2691-2695), the location (aimed, or D10, F:L2701), each armor layer there that its
coverage roll keeps (a D10 at most its tenths, F:L3930), the DC after armor, the table, the
A's, the head's +1 and the optional vital extra wound (F:L2705, F:L2712). A stun weapon's
damage becomes stun points (F:L2677); any other hit that lands, even an 'S', calls for a Pain
Resistance roll (F:L2564, F:L2638), which `pain-resistance/stun-check` makes. The condition
comes back updated by the wound-accumulation rule (F:L2612-2624).
"""

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    MAX_LEVEL,
    VITAL,
    AccumulationOptions,
    Condition,
    Consciousness,
    Location,
    accumulate,
    is_dead,
    wound,
    wound_name,
)
from service.rules.foresight.mortality.damage import (
    Absorbed,
    ArmorReduction,
    DamageScale,
    DamageTableOptions,
    HeadBonusStage,
    PierceMode,
    armor_reduce,
    decimal,
    table_damage,
    written,
)
from service.rules.foresight.mortality.location import (
    HIT_LOCATIONS,
    Aim,
    LocationRow,
    location_distribution,
    roll_location,
)
from service.rules.foresight.mortality.notation import (
    DamageClass,
    Notation,
    parse_armor_rating,
    parse_damage_class,
)
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.quality import random_qr
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import distribution, roll, setup_at
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["DamageOptions", "HitDamage", "inflict"]

MAX_HITS = 16
MAX_LAYERS = 8


class DamageOptions(DamageTableOptions, AccumulationOptions):
    """Readings of damage, armor and hit location (catalogue part 2, section 5)."""

    pierce_mode: PierceMode = option(
        PierceMode.POOLED,
        ambiguity="AMB2-04",
        description=(
            "Piercing through several layers: one budget against their summed armor (the "
            "walls example, F:L3318), consumed layer by layer, or whole against every layer."
        ),
    )
    absorbed_to_zero: Absorbed = option(
        Absorbed.S,
        ambiguity="AMB2-05",
        description=(
            "A wound the A's absorb entirely is still an S ('attacks that do no damage may "
            "still stun', F:L2638) or nothing."
        ),
    )
    head_bonus_stage: HeadBonusStage = option(
        HeadBonusStage.AFTER_ARMOR,
        ambiguity="AMB2-08",
        description=(
            "The head's 'add 1 to positive damage' (F:L2705) counts after the A's (only a "
            "wound that gets through is positive) or is added to the table's damage before them."
        ),
    )
    vital_extra: bool = option(
        False,
        ambiguity=None,
        description=(
            "The book's optional rule: positive damage to the head, chest or abdomen rolls a "
            "further D10 and adds a wound level on 1-2 (F:L2712)."
        ),
    )
    stun_weapon_head_rules: bool = option(
        True,
        ambiguity="AMB2-16",
        description=(
            "A stun weapon's hit to the head takes the head's rules literally: +1 to positive "
            "damage and, stunned, the character falls unconscious (F:L2705)."
        ),
    )
    stun_weapon_s_checks_pain: bool = option(
        True,
        ambiguity="AMB2-16",
        description=(
            "An S from a stun weapon calls for an ordinary Pain Resistance roll, stunned with "
            "no stun points on a failure; false: it does nothing."
        ),
    )


class ArmorLayer(Model):
    """Protection between the attack and the body, in the order the attack meets it: worn
    armor, a wall ('protection 3 against impact', F:L3318), a shield."""

    name: Annotated[str, Field(max_length=40)] | None = None
    rating: Notation = Field(
        description="Its rating against this attack's type: '3A', '4AA'.",
        examples=["3A", "3AA", "A", "4", "3"],
    )
    coverage: int = Field(
        default=10, ge=1, le=10, description="n/10: it protects when a D10 is at most n (F:L3930)."
    )
    locations: Annotated[tuple[Location, ...], Field(max_length=7)] | None = Field(
        default=None, description="Where it protects; null for every location (a wall)."
    )


class DamageInput(Model):
    damage_class: Notation = Field(
        description="'DC8', 'DC12i4p', '+3m2p', '5is', '2x16b'.",
        examples=["DC8", "DC12i4p", "10i2p", "5is", "2x16b", "DC4"],
    )
    ucdc: float | None = Field(
        default=None, ge=0, le=100, description="The wielder's UCDC, for a signed (relative) DC."
    )
    dc_modifier: int = Field(
        default=0, ge=-50, le=50, description="Wind-ups, two hands, special ammunition (F:L3634)."
    )
    qr: QR | None = Field(
        default=None, description="The attack's QR; with neither it nor 'attack': a random QR."
    )
    attack: Task | None = Field(default=None, description="Instead of 'qr': the attack to roll.")
    hits: int = Field(default=1, ge=1, le=MAX_HITS, description="Hits of this attack.")
    aim: Aim = Field(default=Aim.RANDOM, description="Where the attack was directed (F:L2701).")
    located: bool = Field(
        default=True, description="False for damage with no location: poison, a fall (AMB2-09)."
    )
    armor: Annotated[tuple[ArmorLayer, ...], Field(max_length=MAX_LAYERS)] = ()
    ds: DamageScale = Field(default=1, description="Damage scale: 1 a person.")
    condition: Condition = Field(default=Condition())
    options: DamageOptions = Field(default=DamageOptions())


class LayerCheck(Model):
    name: str | None
    rating: str
    coverage: int
    roll: int | None = Field(description="The coverage D10; null for 10/10.")
    protects: bool


class HitReport(Model):
    """One hit, every step of its arithmetic shown."""

    qr: QR
    qr_roll: int | None = Field(description="The D10 of a random QR, or the attack's D100.")
    location: Location | None
    location_roll: int | None
    layers: list[LayerCheck]
    dc: Exact
    armor: ArmorReduction
    dc_after_armor: Exact
    table: str = Field(description="The table's result for the DC after armor: '-', 'S', n.")
    absorbed: int
    location_bonus: int
    vital_roll: int | None
    vital_extra: int
    result: str = Field(description="'miss', 'none', 'S' or the wound levels (or stun points).")
    wound_levels: int
    stun_points: int
    steps: list[str]


class DamageResult(Model):
    damage_class: DamageClass
    hits: list[HitReport]
    result: str = Field(description="'miss', 'none', 'S' or the wound levels of all hits.")
    wound_levels: int = Field(description="Wound levels inflicted, before accumulation.")
    stun_points: int = Field(description="Stun points inflicted, before accumulation.")
    pain_resistance_roll: bool = Field(
        description="A hit landed that calls for a Pain Resistance roll to avoid stun (F:L2564)."
    )
    location_effects: list[LocationRow] = Field(description="Each location that was hurt.")
    condition: Condition
    wound_name: str
    dead: bool


@dataclass(frozen=True)
class HitDamage:
    """What one hit did: its location, its damage (None '-', 0 'S', n wound levels or stun
    points) and the arithmetic."""

    location: Location | None
    damage: int | None
    missed: bool
    steps: tuple[str, ...]
    armor: ArmorReduction
    dc_after: Fraction
    table: int | None
    absorbed: int
    bonus: int
    vital: int


def _base_dc(request: DamageInput, dc_class: DamageClass) -> Fraction:
    if dc_class.relative:
        if request.ucdc is None:
            raise InputError(("ucdc",), f"'{dc_class.notation}' is relative: give the UCDC")
        return decimal(request.ucdc) + dc_class.value + request.dc_modifier
    return Fraction(dc_class.value + request.dc_modifier)


def inflict(
    dc: Fraction,
    dc_class: DamageClass,
    qr: QR,
    location: Location | None,
    layers: Sequence[tuple[int, int]],
    ds: Fraction,
    vital_face: int | None,
    options: DamageOptions,
) -> HitDamage:
    """The damage of one hit that landed at `location` through `layers` (reduction, A's).
    `vital_face` is the optional rule's D10 (looked at only when it applies)."""
    steps = [f"QR{qr.value} against DC {dc}"]
    armor = armor_reduce(dc_class.pierce, layers, options.pierce_mode)
    if qr > QR.QR4:
        steps.append("a failed attack does not hit")
        return HitDamage(location, None, True, tuple(steps), armor, dc, None, 0, 0, 0)
    dc_after = dc - armor.reduction_left
    if layers:
        steps.append(
            f"armor {armor.reduction}{'A' * armor.absorb} pierced by {armor.pierce}: "
            f"{armor.reduction_left}{'A' * armor.absorb_left}; DC {dc} - "
            f"{armor.reduction_left} = {dc_after}"
        )
    table = table_damage(dc_after, qr, ds, options)
    steps.append(f"table DC {dc_after} QR{qr.value}, DS {ds}: {written(table)}")
    head = location is not None and (not dc_class.stun or options.stun_weapon_head_rules)
    bonus = HIT_LOCATIONS[location].damage_bonus if head and location is not None else 0
    damage, absorbed, added = table, 0, 0
    if table is not None and table > 0:
        if options.head_bonus_stage is HeadBonusStage.BEFORE_ABSORB and bonus:
            added, table = bonus, table + bonus
            steps.append(f"+{bonus} to the head before the A's: {table}")
        absorbed = min(table, armor.absorb_left)
        damage = table - absorbed
        if absorbed:
            steps.append(f"{absorbed} absorbed by the A's: {damage}")
        if damage == 0 and options.absorbed_to_zero is Absorbed.NONE:
            damage = None
        if damage and options.head_bonus_stage is HeadBonusStage.AFTER_ARMOR and bonus:
            added, damage = bonus, damage + bonus
            steps.append(f"+{bonus} to positive damage to the head: {damage}")
    vital = 0
    # Callers look first without the D10 and roll it only for damage to a vital location.
    if damage and vital_face is not None and options.vital_extra and location in VITAL:
        vital = 1 if vital_face <= 2 else 0
        damage += vital
        steps.append(f"vital location, D10 {vital_face}: +{vital}")
    return HitDamage(
        location, damage, False, tuple(steps), armor, dc_after, table, absorbed, added, vital
    )


def _layers_at(request: DamageInput, location: Location | None) -> list[tuple[int, ArmorLayer]]:
    return [
        (i, layer)
        for i, layer in enumerate(request.armor)
        if layer.locations is None or (location is not None and location in layer.locations)
    ]


def _needs_vital(options: DamageOptions, location: Location | None) -> bool:
    return options.vital_extra and location in VITAL


def _parse(request: DamageInput) -> tuple[DamageClass, list[tuple[int, int]]]:
    dc_class = parse_damage_class(request.damage_class, ("damage_class",))
    ratings = []
    for i, layer in enumerate(request.armor):
        found = parse_armor_rating(layer.rating, ("armor", i, "rating"))
        ratings.append((found.reduction, found.absorb))
    if request.qr is not None and request.attack is not None:
        raise InputError(("attack",), "give either 'qr' or 'attack', not both")
    return dc_class, ratings


def _attack(request: DamageInput) -> Setup | None:
    if request.attack is None:
        return None
    return setup_at(("attack",), request.attack, request.options)


def _hit_total(request: DamageInput, dc_class: DamageClass) -> int:
    total = dc_class.count * request.hits
    if total > MAX_HITS:
        raise InputError(("hits",), f"{dc_class.count} x {request.hits} hits: at most {MAX_HITS}")
    return total


def _apply(
    condition: Condition, hit: HitDamage, dc_class: DamageClass, options: DamageOptions
) -> Condition:
    """The condition after one hit: stun points for a stun weapon (F:L2677, F:L2683), else
    the wound through the accumulation rule; a head hit that stuns knocks out (F:L2705)."""
    if not hit.damage:
        return condition
    if not dc_class.stun:
        return wound(condition, hit.damage, hit.location, options)
    # Held at the bound a condition carries, like wound levels (far past knocked out by then).
    points = min(MAX_LEVEL, accumulate(condition.stun_points, hit.damage, hit.location, options))
    update: dict[str, Any] = {"stun_points": points, "stunned": True}
    if hit.location is Location.HEAD and options.stun_weapon_head_rules:
        update["consciousness"] = Consciousness.UNCONSCIOUS
    return condition.model_copy(update=update)


def _checks_pain(hit: HitDamage, dc_class: DamageClass, options: DamageOptions) -> bool:
    if hit.missed or hit.damage is None:
        return False
    if dc_class.stun:
        return hit.damage == 0 and options.stun_weapon_s_checks_pain
    return True


def _summary(hits: Sequence[HitDamage]) -> str:
    if all(hit.missed for hit in hits):
        return "miss"
    total = sum(hit.damage or 0 for hit in hits)
    if total:
        return str(total)
    return "S" if any(hit.damage == 0 for hit in hits) else "none"


def _roll_qr(request: DamageInput, attack: Setup | None, dice: Dice) -> tuple[QR, int | None]:
    if request.qr is not None:
        return request.qr, None
    if attack is not None:
        rolled = roll(attack, dice, "attack")
        return rolled.qr, rolled.roll
    face = dice.roll(10, "random QR")
    return random_qr(face), face


def _report(
    hit: HitDamage,
    qr: QR,
    qr_roll: int | None,
    location_roll: int | None,
    checks: list[LayerCheck],
    dc: Fraction,
    dc_class: DamageClass,
    vital_roll: int | None,
) -> HitReport:
    result = "miss" if hit.missed else written(hit.damage)
    return HitReport(
        qr=qr,
        qr_roll=qr_roll,
        location=hit.location,
        location_roll=location_roll,
        layers=checks,
        dc=exact(dc),
        armor=hit.armor,
        dc_after_armor=exact(hit.dc_after),
        table=written(hit.table),
        absorbed=hit.absorbed,
        location_bonus=hit.bonus,
        vital_roll=vital_roll,
        vital_extra=hit.vital,
        result=result,
        wound_levels=0 if dc_class.stun else hit.damage or 0,
        stun_points=hit.damage or 0 if dc_class.stun else 0,
        steps=list(hit.steps),
    )


# --- exact odds -------------------------------------------------------------------------


class DamageSummary(Model):
    miss: Exact = Field(description="P(every hit missed).")
    unhurt: Exact = Field(description="P(the wound level did not rise).")
    dead: Exact = Field(description="P(wound level 8 or more afterwards).")
    pain_resistance_roll: Exact = Field(description="P(a Pain Resistance roll is called for).")
    mean_inflicted: Exact = Field(description="Expected wound levels (or stun points) inflicted.")


class DamageOdds(Model):
    result: list[OutcomeProbability] = Field(description="'miss', 'none', 'S', 1, 2, ...")
    wound_level: list[OutcomeProbability] = Field(description="The wound level afterwards.")
    stun_points: list[OutcomeProbability] = Field(description="Stun points afterwards.")
    summary: DamageSummary


#: One hit: where it landed, its damage (None '-', 0 'S'), whether it missed.
Hit = tuple[Location | None, int | None, bool]
#: The attack so far: wound level, stun points, inflicted, any S, any '-', all missed, PR roll.
State = tuple[int, int, int, bool, bool, bool, bool]


def _qr_distribution(request: DamageInput, attack: Setup | None) -> Distribution[QR]:
    if request.qr is not None:
        return Distribution({request.qr: 1})
    if attack is not None:
        return distribution(attack)
    return Distribution((random_qr(face), 1) for face in range(1, 11))


def _kept(layers: list[tuple[int, ArmorLayer]]) -> Distribution[tuple[int, ...]]:
    """Which layers protect: each keeps its coverage in tenths of the D10 (F:L3930)."""
    ways = []
    for on in itertools.product((True, False), repeat=len(layers)):
        pairs = list(zip(layers, on, strict=True))
        weight = math.prod(layer.coverage if o else 10 - layer.coverage for (_, layer), o in pairs)
        ways.append((tuple(i for (i, _), o in pairs if o), weight))
    return Distribution(ways)


def hit_distribution(request: DamageInput) -> Distribution[Hit]:
    """Every way one hit can go: QR, location, coverage rolls, the vital D10."""
    dc_class, ratings = _parse(request)
    dc = _base_dc(request, dc_class)
    ds = decimal(request.ds)
    options = request.options

    def damage(location: Location | None, qr: QR, chosen: tuple[int, ...]) -> Distribution[Hit]:
        kept = [ratings[i] for i in chosen]
        if not _needs_vital(options, location):
            found = inflict(dc, dc_class, qr, location, kept, ds, None, options).damage
            return Distribution([((location, found, False), 1)])
        faces = range(1, 11)
        return Distribution(
            (
                (
                    location,
                    inflict(dc, dc_class, qr, location, kept, ds, face, options).damage,
                    False,
                ),
                1,
            )
            for face in faces
        )

    def through(location: Location | None, qr: QR) -> Distribution[Hit]:
        kept = _kept(_layers_at(request, location))
        return kept.then(lambda chosen: damage(location, qr, chosen))

    def at(qr: QR) -> Distribution[Hit]:
        if qr > QR.QR4:
            return Distribution([((None, None, True), 1)])
        places: Distribution[Location | None] = Distribution([(None, 1)])
        if request.located:
            places = Distribution(location_distribution(request.aim).items())
        return places.then(lambda location: through(location, qr))

    return _qr_distribution(request, _attack(request)).then(at)


def _after(one: Distribution[Hit], dc_class: DamageClass, options: DamageOptions) -> Any:
    def follow(state: State) -> Distribution[State]:
        return one.map(lambda hit: _step(state, hit, dc_class, options))

    return follow


def damage_odds(request: DamageInput) -> DamageOdds:
    dc_class, _ = _parse(request)
    one = hit_distribution(request)
    options = request.options
    start = request.condition
    state: Distribution[State] = Distribution(
        {(start.wound_level, start.stun_points, 0, False, False, True, False): 1}
    )
    for _ in range(_hit_total(request, dc_class)):
        state = state.then(_after(one, dc_class, options))
    inflicted = state.map(_written_total)
    return DamageOdds(
        result=outcome_table(inflicted),
        wound_level=outcome_table(state.map(lambda s: s[0])),
        stun_points=outcome_table(state.map(lambda s: s[1])),
        summary=DamageSummary(
            miss=exact(state.probability_where(lambda s: s[5])),
            unhurt=exact(state.probability_where(lambda s: s[0] == start.wound_level)),
            dead=exact(state.probability_where(lambda s: s[0] >= 8)),
            pain_resistance_roll=exact(state.probability_where(lambda s: s[6])),
            mean_inflicted=exact(
                sum((Fraction(s[2] * w, state.total) for s, w in state.items()), Fraction(0))
            ),
        ),
    )


def _step(state: State, hit: Hit, dc_class: DamageClass, options: DamageOptions) -> State:
    wl, stun, total, any_s, any_none, missed, pain = state
    location, damage, miss = hit
    if damage:
        if dc_class.stun:
            stun = min(1000, accumulate(stun, damage, location, options))
        else:
            wl = min(1000, accumulate(wl, damage, location, options))
        total += damage
    checks = (
        not miss
        and damage is not None
        and (not dc_class.stun or (damage == 0 and options.stun_weapon_s_checks_pain))
    )
    return (
        wl,
        stun,
        total,
        any_s or damage == 0,
        any_none or (not miss and damage is None),
        missed and miss,
        pain or checks,
    )


def _written_total(state: State) -> str:
    _, _, total, any_s, _, missed, _ = state
    if missed:
        return "miss"
    if total:
        return str(total)
    return "S" if any_s else "none"


def damage_cost(request: DamageInput) -> Estimate:
    """One hit: up to 100 attack faces, then for each of 6 QRs and 7 locations two ways past
    each armor layer and ten vital faces. Then each hit meets every state so far (wound
    level, stun points, inflicted, flags): at most the hit's outcomes to the power of the
    hits so far, and at most one per reachable (wound level, inflicted) pair."""
    dc_class, _ = _parse(request)
    dc = abs(_base_dc(request, dc_class))
    most = math.ceil(dc / (2 * decimal(request.ds))) + 3
    places = len(location_distribution(request.aim)) if request.located else 1
    outcomes = (places + 1) * (most + 2)
    per_hit = 200 + 6 * (40 + 7 * 2 ** len(request.armor) * 40)
    chain = 0
    start = request.condition.wound_level + request.condition.stun_points
    states = 1
    for k in range(_hit_total(request, dc_class)):
        states = min(outcomes**k, 16 * (start + k * most + 1) ** 2)
        chain += 2 * states * outcomes + 2 * states
    chain += 8 * min(outcomes ** _hit_total(request, dc_class), 16 * (start + 17 * most) ** 2)
    return Estimate(per_hit + chain, ("/hits", "/armor", "/ds", "/damage_class"))


@operation(
    name="damage/resolve",
    kind=Kind.GENERATION,
    covers=(
        "foresight.damage.resolve",
        "foresight.damage.armor_reduce",
        "foresight.damage.random_qr",
        "foresight.hit_location.vital_extra",
        "foresight.armor.coverage_check",
    ),
    odds=damage_odds,
    cost=damage_cost,
    example={
        "damage_class": "DC12i4p",
        "aim": "chest",
        "armor": [{"rating": "3AA"}],
        "dice": {"values": [2]},
    },
)
def resolve(request: DamageInput, dice: Dice) -> DamageResult:
    """Resolve an attack's hits: QR (random for damage without one: D10 1 QR1, 2 QR2, 3-5
    QR3, 6-10 QR4, F:L1472, F:L2695), location, armor kept by coverage rolls, the DC after
    armor, the table, the A's, the head's +1, and the condition updated. DC8 at QR2 against
    3A: DC5, 2 wound levels, 1 after the A (F:L2663); DC12i4p against 3AA leaves an A
    (F:L2673)."""
    dc_class, ratings = _parse(request)
    dc = _base_dc(request, dc_class)
    attack = _attack(request)
    ds = decimal(request.ds)
    condition = request.condition
    reports: list[HitReport] = []
    done: list[HitDamage] = []
    for _ in range(_hit_total(request, dc_class)):
        qr, qr_roll = _roll_qr(request, attack, dice)
        location, location_roll = None, None
        if request.located and qr <= QR.QR4:
            location, location_roll = roll_location(request.aim, dice)
        checks = []
        kept = []
        for i, layer in _layers_at(request, location) if qr <= QR.QR4 else []:
            face = dice.roll(10, f"coverage of armor {i}") if layer.coverage < 10 else None
            protects = face is None or face <= layer.coverage
            checks.append(
                LayerCheck(
                    name=layer.name,
                    rating=layer.rating,
                    coverage=layer.coverage,
                    roll=face,
                    protects=protects,
                )
            )
            if protects:
                kept.append(ratings[i])
        hit = inflict(dc, dc_class, qr, location, kept, ds, None, request.options)
        vital_roll = None
        if hit.damage and _needs_vital(request.options, location):
            vital_roll = dice.roll(10, "vital location")
            hit = inflict(dc, dc_class, qr, location, kept, ds, vital_roll, request.options)
        condition = _apply(condition, hit, dc_class, request.options)
        done.append(hit)
        reports.append(_report(hit, qr, qr_roll, location_roll, checks, dc, dc_class, vital_roll))
    hurt = [h.location for h in done if h.location is not None and h.damage is not None]
    return DamageResult(
        damage_class=dc_class,
        hits=reports,
        result=_summary(done),
        wound_levels=0 if dc_class.stun else sum(h.damage or 0 for h in done),
        stun_points=sum(h.damage or 0 for h in done) if dc_class.stun else 0,
        pain_resistance_roll=any(_checks_pain(h, dc_class, request.options) for h in done),
        location_effects=[HIT_LOCATIONS[at] for at in Location if at in hurt],
        condition=condition,
        wound_name=wound_name(condition.wound_level),
        dead=is_dead(condition),
    )
