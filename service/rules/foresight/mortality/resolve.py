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
from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import Field

from service.rules.cost import Estimate, OverLimit, metered
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    Location,
    accumulate,
    is_dead,
    wound_name,
)
from service.rules.foresight.mortality.damage import (
    decimal,
)
from service.rules.foresight.mortality.hits import (
    DamageInput,
    DamageOptions,
    DamageResult,
    HitDamage,
    HitReport,
    Layer,
    LayerCheck,
    _apply,
    _attack,
    _base_dc,
    _checks_pain,
    _hit_total,
    _needs_vital,
    _parse,
    _report,
    _summary,
    inflict,
    roll_qr,
)
from service.rules.foresight.mortality.location import (
    HIT_LOCATIONS,
    location_distribution,
    roll_location,
)
from service.rules.foresight.mortality.notation import (
    DamageClass,
)
from service.rules.foresight.resolution.chance import Setup
from service.rules.foresight.resolution.quality import random_qr
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import distribution
from service.rules.model import Model
from service.rules.registry import Kind, Reading, operation

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


def _kept(layers: list[Layer]) -> Distribution[tuple[tuple[int, int], ...]]:
    """What protects: each layer keeps its coverage in tenths of the D10 (F:L3930)."""
    ways = []
    for on in itertools.product((True, False), repeat=len(layers)):
        pairs = list(zip(layers, on, strict=True))
        weight = math.prod(layer.coverage if o else 10 - layer.coverage for layer, o in pairs)
        ways.append((tuple(layer.cut for layer, o in pairs if o), weight))
    return Distribution(ways)


def hit_distribution(
    request: DamageInput, qrs: Distribution[QR] | None = None
) -> Distribution[Hit]:
    """Every way one hit can go: QR (`qrs` when a caller found them, as a blocked attack's),
    location, coverage rolls, the vital D10."""
    dc_class, armor = _parse(request)
    dc = _base_dc(request, dc_class)
    ds = decimal(request.ds)
    options = request.options

    def damage(
        location: Location | None, qr: QR, kept: tuple[tuple[int, int], ...]
    ) -> Distribution[Hit]:
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
        return _kept(armor.at(location)).then(lambda kept: damage(location, qr, kept))

    def at(qr: QR) -> Distribution[Hit]:
        if qr > QR.QR4:
            return Distribution([((None, None, True), 1)])
        places: Distribution[Location | None] = Distribution([(None, 1)])
        if request.located:
            places = Distribution(location_distribution(request.aim).items())
        return places.then(lambda location: through(location, qr))

    if qrs is None:
        qrs = _qr_distribution(request, _attack(request))
    return qrs.then(at)


def _after(one: Distribution[Hit], dc_class: DamageClass, options: DamageOptions) -> Any:
    def follow(state: State) -> Distribution[State]:
        return one.map(lambda hit: _step(state, hit, dc_class, options))

    return follow


def _shared_qrs(request: DamageInput, qrs: Distribution[QR] | None) -> Distribution[QR] | None:
    """The QRs of the one attack roll every hit of the attack shares (#24: the QR is found
    once, then location, armor and damage per hit, F:L2628-2636): the caller's, the QR given
    or the attack rolled. None for damage without a QR, each hit of which draws its own
    random QR (F:L2691-2695, F:L3318; `_random_hits`)."""
    if qrs is not None:
        return qrs
    attack = _attack(request)
    if request.qr is None and attack is None:
        return None
    return _qr_distribution(request, attack)


def _chain(
    request: DamageInput, one: Distribution[Hit], dc_class: DamageClass
) -> Distribution[State]:
    """The attack's hits one after another, each going one of `one`'s ways."""
    state: Distribution[State] = Distribution({_before(request): 1})
    for _ in range(_hit_total(request, dc_class)):
        state = state.then(_after(one, dc_class, request.options))
    return state


def _random_hits(request: DamageInput, dc_class: DamageClass) -> Distribution[State]:
    """Damage without a QR: each hit draws a random QR (F:L2695; area fire's hits each their
    own, F:L3318), which the hits of its damage class share: #24 draws the QR once, then
    repeats location, armor and damage for each of '2x16b's two."""
    if dc_class.count == 1:
        # Nothing shared: one hit's ways over every random QR at once.
        return _chain(request, hit_distribution(request), dc_class)
    randoms = _qr_distribution(request, None)
    follow = {qr: _after(hit_distribution(request, Distribution({qr: 1})), dc_class,
                         request.options) for qr, _ in randoms.items()}  # fmt: skip

    def drawn(state: State) -> Distribution[State]:
        def at(qr: QR) -> Distribution[State]:
            found: Distribution[State] = Distribution({state: 1})
            for _ in range(dc_class.count):
                found = found.then(follow[qr])
            return found

        return randoms.then(at)

    state: Distribution[State] = Distribution({_before(request): 1})
    for _ in range(request.hits):
        state = state.then(drawn)
    return state


def with_hits(request: DamageInput, hits_at: Callable[[QR], int] | None, qr: QR) -> DamageInput:
    """The request with the hits its QR lands, when they depend on it."""
    if hits_at is None:
        return request
    return request.model_copy(update={"hits": max(1, hits_at(qr))})


def _chain_at(request: DamageInput, qr: QR, dc_class: DamageClass) -> Distribution[State]:
    return _chain(request, hit_distribution(request, Distribution({qr: 1})), dc_class)


def damage_odds(
    request: DamageInput,
    qrs: Distribution[QR] | None = None,
    hits_at: Callable[[QR], int] | None = None,
) -> DamageOdds:
    """The odds of the request's hits, each with the attack's QR distribution (`qrs` when a
    caller found it); `hits_at` gives the hits an attack's QR lands (a burst's yield)."""
    dc_class, _ = _parse(request)
    start = request.condition
    shared = _shared_qrs(request, qrs)
    state: Distribution[State]
    if shared is None:
        state = _random_hits(request, dc_class)
    else:
        state = shared.then(lambda qr: _chain_at(with_hits(request, hits_at, qr), qr, dc_class))
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
            mean_inflicted=exact(state.mean(lambda s: s[2])),
        ),
    )


def _before(request: DamageInput) -> State:
    """The attack before its hits: the condition's level and stun points, nothing inflicted,
    every hit missed so far."""
    start = request.condition
    return (start.wound_level, start.stun_points, 0, False, False, True, False)


def _step(state: State, hit: Hit, dc_class: DamageClass, options: DamageOptions) -> State:
    wl, stun, total, any_s, any_none, missed, pain = state
    location, damage, miss = hit
    if damage:
        if dc_class.stun:
            stun = accumulate(stun, damage, location, options)
        else:
            wl = accumulate(wl, damage, location, options)
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


def damage_cost(
    request: DamageInput,
    qrs: Distribution[QR] | None = None,
    hits_at: Callable[[QR], int] | None = None,
) -> Estimate:
    """One hit: up to 100 attack faces, then for each of 6 QRs and each location it may land
    at two ways past each armor layer there, and ten vital faces. Then each hit meets every
    state so far (wound level, stun points, inflicted, flags): at most the hit's outcomes to
    the power of the hits so far, and at most one per reachable (wound level, inflicted)
    pair. Far more than are met when the hits are many, as the level follows the inflicted
    (at most 2 apart a hit): over the budget, the states are counted (`damage_states`)."""
    if hits_at is not None:
        request = request.model_copy(update={"hits": max(max(1, hits_at(qr)) for qr in QR)})
    dc_class, armor = _parse(request)
    dc = abs(_base_dc(request, dc_class))
    most = math.ceil(dc / (2 * decimal(request.ds))) + 3
    places = location_distribution(request.aim) if request.located else Distribution({None: 1})
    spots = [at for at, _ in places.items()]
    outcomes = (len(spots) + 1) * (most + 2)
    ways = sum(2 ** len(armor.at(spot)) for spot in spots)
    per_hit = 200 + 6 * (40 + ways * 40)
    chain = 0
    start = request.condition.wound_level + request.condition.stun_points
    states = 1
    for k in range(_hit_total(request, dc_class)):
        states = min(outcomes**k, 16 * (start + k * most + 1) ** 2)
        chain += 2 * states * outcomes + 2 * states
    chain += 8 * min(outcomes ** _hit_total(request, dc_class), 16 * (start + 17 * most) ** 2)
    # Hits sharing a QR: one chain for each QR (at most 6) of the attack roll or random draw.
    chain *= 1 if _shared_qrs(request, qrs) is None and dc_class.count == 1 else 6
    fields = ("/hits", "/armor", "/worn", "/ds", "/damage_class")
    return Estimate(per_hit + chain, fields, partial(damage_states, request, qrs))


def damage_states(request: DamageInput, qrs: Distribution[QR] | None, limit: int) -> int:
    """The states `damage_odds(request, qrs)` makes, counted without their weights: one
    hit's ways, made as the odds make them, then each hit meets every state reached so far,
    the states followed as sets (a chain for each QR of an attack roll its hits share); the
    count stops once past `limit`."""
    shared = _shared_qrs(request, qrs)
    if shared is None and _parse(request)[0].count > 1:
        # Random QRs a damage class's hits share: counted as the odds make them.
        try:
            with metered(limit=limit) as made:
                damage_odds(request)
        except OverLimit as over:
            return over.states
        return made.states
    if shared is None:
        return _chain_states(request, None, limit, 0)
    count = 0
    for qr, _ in shared.items():
        # Each QR's chain, then its states mixed into the attack's.
        count += _chain_states(request, Distribution({qr: 1}), limit - count, 2)
        if count > limit:
            return count
    return count


def _chain_states(
    request: DamageInput, qrs: Distribution[QR] | None, limit: int, mixed: int
) -> int:
    dc_class, _ = _parse(request)
    try:
        with metered(limit=limit) as made:
            one = hit_distribution(request, qrs)
    except OverLimit as over:
        return over.states
    hits = [hit for hit, _ in one.items()]
    states = {_before(request)}
    count = made.states + 1
    for _ in range(_hit_total(request, dc_class)):
        reached: set[State] = set()
        for state in states:
            # `then` maps the hit's ways for each state, and counts the states they reach.
            after = {_step(state, hit, dc_class, request.options) for hit in hits}
            count += len(hits) + len(after)
            if count > limit:
                return count
            reached |= after
        states = reached
    # inflicted, wound level and stun points read off them (and `mixed` more when mixed)
    return count + (3 + mixed) * len(states) + 2 * mixed


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
    # The odds' stun points are the condition's afterwards, not those the hit inflicted.
    rolled={"/stun_points": Reading(read=lambda result: result.condition.stun_points)},
    example={
        "damage_class": "DC12i4p",
        "aim": "chest",
        "armor": [{"rating": "3AA"}],
        "dice": {"values": [2]},
    },
)
def resolve(request: DamageInput, dice: Dice) -> DamageResult:
    """Resolve an attack's hits: QR (random for damage without one: D10 1 QR1, 2 QR2, 3-5
    QR3, 6-10 QR4, F:L1472, F:L2695), location, armor (layers by rating, or pieces worn by
    catalogue key read against the blow's type, F:L3879) kept by coverage rolls, the DC after
    armor, the table, the A's, the head's +1, and the condition updated. DC8 at QR2 against
    3A: DC5, 2 wound levels, 1 after the A (F:L2663); DC12i4p against 3AA leaves an A
    (F:L2673)."""
    return resolve_hits(request, dice)


def resolve_hits(request: DamageInput, dice: Dice) -> DamageResult:
    """`damage/resolve` as a plain function, for rules that resolve an attack's damage."""
    dc_class, armor = _parse(request)
    dc = _base_dc(request, dc_class)
    attack = _attack(request)
    ds = decimal(request.ds)
    condition = request.condition
    reports: list[HitReport] = []
    done: list[HitDamage] = []
    # One attack roll for all the attack's hits (#24); without one, each hit draws a random
    # QR its damage class's hits share ('2x16b').
    qr, qr_roll = roll_qr(request.qr, attack, dice)
    for index in range(_hit_total(request, dc_class)):
        if attack is None and index and index % dc_class.count == 0:
            qr, qr_roll = roll_qr(request.qr, attack, dice)
        location, location_roll = None, None
        if request.located and qr <= QR.QR4:
            location, location_roll = roll_location(request.aim, dice)
        checks = []
        kept = []
        for layer in armor.at(location) if qr <= QR.QR4 else []:
            face = dice.roll(10, f"coverage of {layer.label}") if layer.coverage < 10 else None
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
                kept.append(layer.cut)
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
