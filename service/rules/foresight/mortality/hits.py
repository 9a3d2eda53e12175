"""One hit's arithmetic, given or rolled (catalogue part 2, #24; F:L2628-2726, F:L3930).

The models of `damage/resolve` and the per-hit steps it and the exact odds in `resolve` share:
the DC after armor, the table, the A's, the head's +1 and the optional vital extra wound
(F:L2705, F:L2712), and the condition updated by the wound-accumulation rule (F:L2612-2624).
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Annotated, Any

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import Exact, exact
from service.rules.foresight.armor.catalog import (
    ArmorDirection,
    WornArmor,
    armor_row,
    worn_coverage,
)
from service.rules.foresight.mortality.condition import (
    VITAL,
    AccumulationOptions,
    Condition,
    Consciousness,
    Location,
    accumulate,
    wound,
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
    CalledShotOptions,
    LocationRow,
    called,
)
from service.rules.foresight.mortality.notation import (
    DamageClass,
    DamageType,
    Notation,
    parse_armor_rating,
    parse_damage_class,
)
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.quality import random_qr
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import roll, setup_at
from service.rules.model import InputError, Model, option

__all__ = ["DamageOptions", "HitDamage", "inflict"]

MAX_HITS = 16
MAX_LAYERS = 8


class DamageOptions(DamageTableOptions, AccumulationOptions, CalledShotOptions):
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


class Protection(Model):
    """The armor in the way: layers given by their rating and catalogue pieces worn."""

    armor: Annotated[tuple[ArmorLayer, ...], Field(max_length=MAX_LAYERS)] = Field(
        default=(), description="Layers given by their rating: a wall, a shield, any armor."
    )
    worn: Annotated[tuple[WornArmor, ...], Field(max_length=MAX_LAYERS)] = Field(
        default=(),
        description=f"Catalogue armor by key and piece (armor/catalog), outermost first, met "
        f"after 'armor': its rating against the damage class's type and its coverage from "
        f"'direction' (F:L3879, F:L3930-3954). {MAX_LAYERS} layers at most with 'armor'.",
    )
    direction: ArmorDirection = Field(
        default=ArmorDirection.FRONT, description="Where the attack comes from, for 'worn'."
    )


class Target(Protection):
    """What an attack meets: where it is aimed, the armor in the way, the target's damage
    scale and condition."""

    aim: Aim = Field(default=Aim.RANDOM, description="Where the attack was directed (F:L2701).")
    ds: DamageScale = Field(default=1, description="Damage scale: 1 a person.")
    condition: Condition = Field(default=Condition())


class Strike(Target):
    """What strikes (the damage class) and what it meets."""

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


class DamageInput(Strike):
    qr: QR | None = Field(
        default=None, description="The attack's QR; with neither it nor 'attack': a random QR."
    )
    attack: Task | None = Field(default=None, description="Instead of 'qr': the attack to roll.")
    hits: int = Field(default=1, ge=1, le=MAX_HITS, description="Hits of this attack.")
    located: bool = Field(
        default=True, description="False for damage with no location: poison, a fall (AMB2-09)."
    )
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


#: The Armor Table's column for each damage type (F:L3879); stun meets impact (notation 'is').
COLUMNS = {DamageType.MELEE: "melee", DamageType.IMPACT: "impact", DamageType.BEAM: "beam"}


@dataclass(frozen=True)
class Layer:
    """One layer a hit meets at its location: its label for the dice, its rating as written
    and read (the reduction and the A's) and its coverage there."""

    label: str
    name: str | None
    rating: str
    cut: tuple[int, int]
    coverage: int


@dataclass(frozen=True)
class Armor:
    """A request's armor, read once: the layers given, with where they protect, then the
    worn pieces, whose coverage depends on the location, the direction and the rest of the
    outfit (gloves with sleeves, F:L3941)."""

    given: tuple[tuple[Layer, tuple[Location, ...] | None], ...]
    worn: tuple[WornArmor, ...]
    worn_layers: tuple[Layer, ...]
    direction: ArmorDirection

    def at(self, location: Location | None) -> list[Layer]:
        """The layers in the way of a hit at `location`, in the order it meets them; damage
        with no location meets only the layers that protect everywhere."""
        found = [layer for layer, where in self.given
                 if where is None or (location is not None and location in where)]  # fmt: skip
        if location is None:
            return found
        for i, layer in enumerate(self.worn_layers):
            coverage, _ = worn_coverage(self.worn, i, location, self.direction)
            if coverage:
                found.append(replace(layer, coverage=coverage))
        return found


def _needs_vital(options: DamageOptions, location: Location | None) -> bool:
    return options.vital_extra and location in VITAL


def _read_armor(target: Target, dc_class: DamageClass) -> Armor:
    if len(target.armor) + len(target.worn) > MAX_LAYERS:
        raise InputError(("worn",), f"armor and worn: {MAX_LAYERS} layers at most together")
    given = []
    for i, layer in enumerate(target.armor):
        found = parse_armor_rating(layer.rating, ("armor", i, "rating"))
        read = Layer(f"armor {i}", layer.name, layer.rating, (found.reduction, found.absorb),
                     layer.coverage)  # fmt: skip
        given.append((read, layer.locations))
    worn = []
    if target.worn and dc_class.type not in COLUMNS:
        raise InputError(("worn",), f"'{dc_class.notation}' names no damage type (m, i or b) "
                         "to read worn armor's column by: give its rating in 'armor'")  # fmt: skip
    for i, piece in enumerate(target.worn):
        row = armor_row(piece.armor, ("worn", i, "armor"))
        rating: str = getattr(row, COLUMNS[dc_class.type])
        found = parse_armor_rating(rating, ("worn", i, "armor"))
        name = f"{row.key} {piece.piece.value}"
        worn.append(Layer(f"worn {i}", name, rating, (found.reduction, found.absorb), 10))
    return Armor(tuple(given), target.worn, tuple(worn), target.direction)


def _parse(request: DamageInput) -> tuple[DamageClass, Armor]:
    dc_class = parse_damage_class(request.damage_class, ("damage_class",))
    called(request.aim, request.options)
    if request.qr is not None and request.attack is not None:
        raise InputError(("attack",), "give either 'qr' or 'attack', not both")
    return dc_class, _read_armor(request, dc_class)


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
    points = accumulate(condition.stun_points, hit.damage, hit.location, options)
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


def roll_qr(given: QR | None, attack: Setup | None, dice: Dice) -> tuple[QR, int | None]:
    """A hit's QR and the die that gave it: the QR given, the attack rolled (D100), or a
    random QR (D10) for damage without one (F:L1472, F:L2691-2695)."""
    if given is not None:
        return given, None
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
