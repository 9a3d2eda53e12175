"""Rolling damage (FI:L510-552): a code N(C) draws N cards of column C and totals them (in the
dice model, N open-ended dice of the column's die, `core.damage`); a vitals hit adds a card,
the head two (FI:L512); every full multiple of the target's Size is a wound (FI:L514). Hand
to hand adds the highest card of a Strength test, capped at the weapon's total (FI:L520);
unarmed, the Strength pool shifted left is the damage (FI:L497, A-59); brawling, which is
nonlethal, is `harm.damage_brawling`. A white story chip spent on damage draws a card more and
discards one (FI:L724): the lowest (A-61)."""

from typing import Annotated

from pydantic import Field, TypeAdapter

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact_fields,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.combat.fire import columns_left
from service.rules.future_imperfect.core.checks import (
    die_values,
)
from service.rules.future_imperfect.core.damage import (
    Draw,
    Size,
    damage_sides,
    depth_for,
    roll_damage,
    sum_states,
    summed,
    totals_of,
    wounds_for,
    wounds_of,
)
from service.rules.future_imperfect.core.pools import Pool, PoolText, parse
from service.rules.future_imperfect.harm.armor import Armor, ArmorLayer, Penetration, through
from service.rules.future_imperfect.harm.draws import chip_states, highest, less_lowest
from service.rules.future_imperfect.harm.location import bonus_cards
from service.rules.future_imperfect.harm.options import (
    HarmOptions,
    HitRegion,
    UnarmedMode,
)
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "Damaged",
    "DiceGroup",
    "combat_damage",
    "hand_to_hand",
    "unarmed",
    "unarmed_pool",
]

Meters = Annotated[float, Field(ge=0, le=1000)]


class DiceGroup(Model):
    """Dice drawn together: `count` of one column."""

    column: int
    count: int
    what: str


class HitInput(Model):
    region: HitRegion | None = Field(
        default=None, description="The region hit (combat/hit-location): vitals and head add cards."
    )
    pn: Penetration = Field(default=0, description="The weapon's Penetration Number (FI:L485).")
    armor: Annotated[tuple[Armor, ...], Field(max_length=4)] = Field(
        default=(), description="Each Armor in the way, cover first (FI:L499-504)."
    )
    size: Size = 6
    options: HarmOptions = Field(default=HarmOptions())


class DamageInput(HitInput):
    code: PoolText = Field(
        description="The weapon's damage N(C): 3(2) for a large slugthrower handgun (FI:L514)."
    )
    ae_dice: Annotated[int, Field(ge=0, le=5)] = Field(
        default=0, description="Area-effect bonus dice for the range (combat/area-effect, FI:L287)."
    )
    ae_column: Annotated[int, Field(ge=1, le=5)] = Field(
        default=2, description="Their column: a shotgun's 4d6 is column 2 (A-43)."
    )
    explosive_distance: Meters | None = Field(
        default=None,
        description="An explosion: meters from the detonation; a column left each 10 m after "
        "the first (options.explosive_bands, A-46), and no extra cards for vitals or head "
        "(FI:L307-311).",
    )
    white_chip: bool = Field(
        default=False,
        description="The attacker spends a white story chip: a card more of the weapon's "
        "column, and the lowest of the weapon's and location's cards discarded (FI:L724, A-61).",
    )


class Damaged(Model):
    code: str | None = Field(description="N(C) drawn after distance and armor; null: no damage.")
    layers: list[ArmorLayer]
    draws: list[Draw]
    total: int
    wounds: int = Field(description="Wound levels: the total over Size, rounded down (FI:L514).")
    discarded: int | None = Field(
        default=None,
        description="The card a white chip discarded, the lowest (A-61); null without one.",
    )


#: The draws a white chip's discard chooses among: the code's column (FI:L724, A-61).
KEPT = ("damage", "location", "white chip")


def _groups(request: DamageInput) -> tuple[list[DiceGroup], list[ArmorLayer]]:
    """What is drawn: the weapon's cards, the region's, the AE dice, each after armor."""
    code = parse(request.code, ("code",))
    explosive = request.explosive_distance is not None
    bands = request.options.explosive_bands
    column = code.column - (columns_left(request.explosive_distance or 0, bands) if explosive
                            else 0)  # fmt: skip
    if column < 1:
        return [], []
    layers = through(column, request.pn, request.armor, request.options)
    left = layers[-1].column if layers else column
    if left is None:
        return [], layers
    extra = 0 if explosive else bonus_cards(request.region, request.options)
    groups = [DiceGroup(column=left, count=code.row, what="damage")]
    if extra:
        groups.append(DiceGroup(column=left, count=extra, what="location"))
    if request.white_chip:
        groups.append(DiceGroup(column=left, count=1, what="white chip"))
    if request.ae_dice:
        ae = through(request.ae_column, request.pn, request.armor, request.options)
        ae_left = ae[-1].column if ae else request.ae_column
        if ae_left is not None:
            groups.append(DiceGroup(column=ae_left, count=request.ae_dice, what="area effect"))
    return groups, layers


def _tops(groups: list[DiceGroup], options: HarmOptions) -> list[int]:
    found = []
    for group in groups:
        found += [damage_sides(Pool(column=group.column, row=1), ("code",), options)] * group.count
    return found


def _draw(groups: list[DiceGroup], dice: Dice, options: HarmOptions) -> list[Draw]:
    return [roll_damage(Pool(column=g.column, row=g.count), dice, options, g.what) for g in groups]


def _code(groups: list[DiceGroup]) -> str | None:
    """N(C) of the weapon's and location's cards, the AE dice apart."""
    if not groups:
        return None
    kept = sum(g.count for g in groups if g.what in ("damage", "location"))
    return f"{kept}({groups[0].column})"


class AtLeast(Model):
    """P(at least `levels` wound levels): a tail, not a distribution."""

    levels: int
    probability: Exact


class DamageOdds(Model):
    total: list[OutcomeProbability]
    wounds: list[OutcomeProbability]
    wounds_at_least: list[AtLeast] = Field(description="P(at least k wound levels), k from 1.")
    truncation: Truncation | None


_TAIL = TypeAdapter(list[AtLeast])  # a tail's rows made in one call, as a table's are


def _at_least(wounds: Distribution[int]) -> list[AtLeast]:
    top = max((w for w, _ in wounds.items()), default=0)
    found, tail = [], sum(weight for _, weight in wounds.items())
    for k in range(1, top + 1):
        tail -= wounds.weight(k - 1)
        found.append({"levels": k, "probability": exact_fields(tail, wounds.total)})
    return _TAIL.validate_python(found)


def damage_odds_of(total: Distribution[int], size: float, depth: int) -> DamageOdds:
    wounds = total.map(wounds_for(size))
    return DamageOdds(
        total=outcome_table(total),
        wounds=outcome_table(wounds),
        wounds_at_least=_at_least(wounds),
        truncation=truncation(total, depth),
    )


def _chip_tops(request: DamageInput) -> tuple[int, int, list[int]]:
    """With a white chip: the code's die, its cards (the chip's included) and the other dice."""
    groups, _ = _groups(request)
    kept = [g for g in groups if g.what in KEPT]
    top = _tops(kept, request.options)[0]
    rest = _tops([g for g in groups if g.what not in KEPT], request.options)
    return top, sum(g.count for g in kept), rest


def damage_odds(request: DamageInput) -> DamageOdds:
    """The total, the wound levels and P(at least k levels), exactly (catalogue 5.5 T7);
    with a white chip, the code's cards less their lowest (`draws.less_lowest`)."""
    groups, _ = _groups(request)
    tops = _tops(groups, request.options)
    depth = depth_for(tops)
    if not (request.white_chip and groups):
        return damage_odds_of(summed(tops), request.size, depth)
    top, count, rest = _chip_tops(request)
    total = less_lowest(top, count, depth) + summed(rest, depth)
    return damage_odds_of(total, request.size, depth)


def _states(tops: list[int], depth: int | None = None) -> int:
    """The sum's states (to `depth`, else the dice's own), then the wounds read off it three
    ways."""
    depth = depth_for(tops) if depth is None else depth
    return sum_states(tops, depth) + 4 * totals_of(tops, depth) + 100


def damage_cost(request: DamageInput) -> Estimate:
    """Each die's (top - 1) x (depth + 1) values against every total so far, as pairs or a
    packed product (`sum_states`); with a white chip, the code's cards less their lowest
    added to the other dice (`chip_states`). Then the wound tables."""
    groups, _ = _groups(request)
    tops = _tops(groups, request.options)
    fields = ("/code", "/ae_dice", "/region")
    if not (request.white_chip and groups):
        return Estimate(_states(tops), fields)
    top, count, rest = _chip_tops(request)
    chip, totals = chip_states(top, count, rest, depth_for(tops))
    return Estimate(chip + 4 * totals + 100, (*fields, "/white_chip"))


@operation(
    name="combat/damage",
    kind=Kind.GENERATION,
    covers=("fi.combat.damage",),
    odds=damage_odds,
    cost=damage_cost,
    example={"code": "2(2)", "region": "head", "dice": {"values": [3, 5, 2, 6, 1]}},
)
def combat_damage(request: DamageInput, dice: Dice) -> Damaged:
    """Draw the damage code's cards and total them; a hit to the vitals adds 1 card, to the
    head 2 (FI:L512); firearms have fixed damage such as 3(2); each full multiple of the
    target's Size is a wound, fractions truncated (FI:L514). Armor and cover shift the column
    first (armor/penetration); an explosion loses a column each 10 m and adds no location
    cards (FI:L307-311). A white chip draws a card more and discards one, as a damage roll
    keeps all its cards (FI:L724): the lowest of the code's column (A-61), the area-effect
    dice apart."""
    groups, layers = _groups(request)
    draws = _draw(groups, dice, request.options)
    total = sum(d.total for d in draws)
    discarded = None
    if request.white_chip and groups:
        kept = [d for d, g in zip(draws, groups, strict=True) if g.what in KEPT]
        discarded = min(sum(die) for d in kept for die in d.dice)
        total -= discarded
    return Damaged(
        code=_code(groups),
        layers=layers,
        draws=draws,
        total=total,
        wounds=wounds_of(total, request.size),
        discarded=discarded,
    )


class HandToHandInput(HitInput):
    weapon: PoolText = Field(description="The weapon's damage N(C): a vibro knife 2(2) (FI:L522).")
    strength: PoolText = Field(description="The wielder's Strength: 2(3) (FI:L522).")
    closed_longer: bool = Field(
        default=False,
        description="Closed with and holding the longer weapon: no Strength on hits (FI:L401).",
    )


class HandToHand(Model):
    weapon: Damaged
    strength: Draw | None = Field(description="The Strength test; null when it adds nothing.")
    strength_highest: int = Field(description="Its highest card (FI:L520).")
    strength_added: int = Field(description="Capped at the weapon's total (FI:L520).")
    total: int
    wounds: int


def _strength(request: HandToHandInput, layers: list[ArmorLayer]) -> Pool | None:
    """The Strength pool that adds, or None: closed with the longer weapon, the weapon
    stopped (FI:L495), or the Strength column shifted off the table (A-58)."""
    if request.closed_longer or (layers and layers[-1].column is None):
        return None
    pool = parse(request.strength, ("strength",))
    if not request.options.armor_shifts_strength:
        return pool
    column = pool.column - sum(layer.shift for layer in layers)
    return Pool(column=column, row=pool.row) if column >= 1 else None


def _weapon(request: HandToHandInput) -> DamageInput:
    return DamageInput(
        code=request.weapon,
        region=request.region,
        pn=request.pn,
        armor=request.armor,
        size=request.size,
        options=request.options,
    )


def hand_to_hand_odds(request: HandToHandInput) -> DamageOdds:
    """Weapon total plus the Strength test's highest die capped at it, exactly (T8)."""
    groups, layers = _groups(_weapon(request))
    tops = _tops(groups, request.options)
    pool = _strength(request, layers) if groups else None
    if pool is None:
        return damage_odds_of(summed(tops), request.size, depth_for(tops))
    top = damage_sides(pool, ("strength",), request.options)
    depth = depth_for([*tops, *[top] * pool.row])  # all the dice together leave out < CUT
    weapon = summed(tops, depth)
    strength = highest(top, pool.row, depth)
    total = weapon.then(lambda w: strength.map(lambda s: w + min(s, w)))
    return damage_odds_of(total, request.size, depth)


def hand_to_hand_cost(request: HandToHandInput) -> Estimate:
    """The weapon's sum (combat/damage), with the Strength test that adds: its highest die
    made (a die and its values), each of its values mapped and counted again against every
    weapon total, and the sums' tables (up to twice the weapon's totals), all at the depth
    of the dice together (deeper than the weapon's own)."""
    fields = ("/weapon", "/strength", "/region")
    groups, layers = _groups(_weapon(request))
    tops = _tops(groups, request.options)
    pool = _strength(request, layers) if groups else None
    if pool is None:
        return Estimate(_states(tops), fields)
    top = damage_sides(pool, ("strength",), request.options)
    depth = depth_for([*tops, *[top] * pool.row])
    (values, _), reach = die_values(top, depth), totals_of(tops, depth)
    strength = top * (4 * depth + 3) + values
    return Estimate(_states(tops, depth) + strength + 2 * reach * values + 2 * reach, fields)


@operation(
    name="combat/damage/hand-to-hand",
    kind=Kind.GENERATION,
    covers=("fi.combat.damage.hand_to_hand",),
    odds=hand_to_hand_odds,
    cost=hand_to_hand_cost,
    example={"weapon": "2(2)", "strength": "2(3)", "dice": {"values": [4, 7, 2, 2]}},
)
def hand_to_hand(request: HandToHandInput, dice: Dice) -> HandToHand:
    """The weapon's damage plus a Strength test that keeps only its highest card, which cannot
    exceed the weapon's damage (FI:L520). Hrulfgarr's 2(3) Strength shows 4 and 7, his vibro
    knife 2(2) shows 2 and 2: the 7 is cut to 4 and the damage is 8 (FI:L522). The Strength is
    drawn first, as the example tells it; armor that stops the weapon stops the Strength too
    (FI:L495)."""
    return strike(request, dice)


def strike(request: HandToHandInput, dice: Dice) -> HandToHand:
    """Hand-to-hand damage: the Strength test, then the weapon."""
    groups, layers = _groups(_weapon(request))
    pool = _strength(request, layers) if groups else None
    strength = roll_damage(pool, dice, request.options, "Strength") if pool else None
    draws = _draw(groups, dice, request.options)
    weapon_total = sum(d.total for d in draws)
    best = max((sum(d) for d in strength.dice), default=0) if strength else 0
    added = min(best, weapon_total)
    weapon = Damaged(
        code=_code(groups),
        layers=layers,
        draws=draws,
        total=weapon_total,
        wounds=wounds_of(weapon_total, request.size),
    )
    total = weapon_total + added
    return HandToHand(
        weapon=weapon,
        strength=strength,
        strength_highest=best,
        strength_added=added,
        total=total,
        wounds=wounds_of(total, request.size),
    )


class UnarmedInput(HitInput):
    strength: PoolText = Field(description="The attacker's Strength.")


def unarmed_pool(strength: Pool) -> Pool:
    """Shift the column left once for columns 1-2, twice for 3 and up, never below column 1
    (FI:L497, A-59)."""
    return Pool(
        column=max(1, strength.column - (1 if strength.column <= 2 else 2)), row=strength.row
    )


class Unarmed(Model):
    code: str = Field(description="The shifted Strength pool, or 1(1) (A-59).")
    hand_to_hand: HandToHand | None = Field(
        description="Mode fixed_1_1: a 1(1) weapon with the Strength cap."
    )
    damage: Damaged | None = Field(description="The other modes: the shifted pool's draw.")
    total: int
    wounds: int


def _unarmed_damage(request: UnarmedInput) -> DamageInput:
    code = unarmed_pool(parse(request.strength, ("strength",))).cards
    return DamageInput(
        code=code,
        region=request.region,
        pn=0,
        armor=request.armor,
        size=request.size,
        options=request.options,
    )


def _fixed(request: UnarmedInput) -> HandToHandInput:
    return HandToHandInput(
        weapon="1(1)",
        strength=request.strength,
        region=request.region,
        pn=0,
        armor=request.armor,
        size=request.size,
        options=request.options,
    )


def unarmed_odds(request: UnarmedInput) -> DamageOdds:
    """The unarmed total and wounds under the option's reading, exactly."""
    mode = request.options.unarmed_mode
    if mode is UnarmedMode.FIXED_1_1:
        return hand_to_hand_odds(_fixed(request))
    if mode is UnarmedMode.STRENGTH_TOTAL_SHIFTED:
        return damage_odds(_unarmed_damage(request))
    groups, _ = _groups(_unarmed_damage(request))
    if not groups:
        return damage_odds_of(Distribution({0: 1}), request.size, 0)
    tops = _tops(groups, request.options)
    return damage_odds_of(highest(tops[0], len(tops)), request.size, depth_for(tops))


def unarmed_cost(request: UnarmedInput) -> Estimate:
    """As combat/damage for the shifted pool, or hand to hand for 1(1)."""
    if request.options.unarmed_mode is UnarmedMode.FIXED_1_1:
        return hand_to_hand_cost(_fixed(request))
    return damage_cost(_unarmed_damage(request))


@operation(
    name="combat/damage/unarmed",
    kind=Kind.GENERATION,
    covers=("fi.combat.damage.unarmed",),
    odds=unarmed_odds,
    cost=unarmed_cost,
    example={"strength": "3(3)", "dice": {"values": [2, 3, 1]}},
)
def unarmed(request: UnarmedInput, dice: Dice) -> Unarmed:
    """A Hero or alien without a weapon shifts the damage column left once (columns 1-2) or
    twice (3 and up) (FI:L497): the Strength pool so shifted is the damage, totalled, with no
    PN, so any armor stops it (A-59). A tiger's claws are a weapon, with a PN (FI:L497)."""
    code = unarmed_pool(parse(request.strength, ("strength",)))
    if request.options.unarmed_mode is UnarmedMode.FIXED_1_1:
        found = strike(_fixed(request), dice)
        return Unarmed(
            code="1(1)", hand_to_hand=found, damage=None, total=found.total, wounds=found.wounds
        )
    groups, layers = _groups(_unarmed_damage(request))
    draws = _draw(groups, dice, request.options)
    if request.options.unarmed_mode is UnarmedMode.STRENGTH_TOTAL_SHIFTED:
        total = sum(d.total for d in draws)
    else:
        total = max((sum(die) for d in draws for die in d.dice), default=0)
    damaged = Damaged(
        code=_code(groups),
        layers=layers,
        draws=draws,
        total=total,
        wounds=wounds_of(total, request.size),
    )
    return Unarmed(
        code=code.cards, hand_to_hand=None, damage=damaged, total=total, wounds=damaged.wounds
    )
