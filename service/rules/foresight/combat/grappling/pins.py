"""Capture attacks (catalogue part 2, 2.7 #59, #62, #70; F:L3193-3231, F:L3250): pinning a
limb with a Pin action, pinning a gun hand or an arm with a parry, and strangling (a pin on
the neck). Each is a melee attack (or parry) rolled with the rule's own modifiers as named
terms and blocked by a parry or dodge like any melee attack (F:L3205)."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.combat.grappling.sides import (
    PAIR_STATES,
    SIDE_STATES,
    GrappleAttack,
    GrappleAttackOdds,
    prepare_attack,
    succeeded,
    term,
)
from service.rules.foresight.combat.options import DefenseOptions, defended
from service.rules.foresight.combat.special import SPECIAL_ATTACKS
from service.rules.foresight.mortality.damage import armor_reduce, decimal
from service.rules.foresight.mortality.hazards import breath_limit
from service.rules.foresight.mortality.hits import MAX_LAYERS, ArmorLayer, DamageOptions
from service.rules.foresight.mortality.notation import (
    Notation,
    parse_armor_rating,
    parse_damage_class,
)
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.quality import Quality, quality
from service.rules.foresight.resolution.scores import MAX_SCORE
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Prepared, Resolution, Side, prepare
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation

__all__ = ["defensive_pin", "pin", "strangle"]

CAPTURE = 2  # The Unarmed Combat Capture field (F:L3201, F:L3223).


def _capture(has_field: bool) -> list[Term]:
    return term("Unarmed Combat Capture field", CAPTURE, has_field)


def _attack_cost(request: object) -> Estimate:
    """An attack and a defence (each 100 faces and a table of QRs), then each pair of their
    QRs: 2 x 200 + 400 states, whatever the request."""
    return Estimate(2 * SIDE_STATES + PAIR_STATES, ())


# Pin (#59)


class PinLimb(StrEnum):
    ARM = "arm"
    LEG = "leg"


#: What aiming at each limb costs (Melee Attack Modifiers, F:L3144, F:L3149).
AIMING = {PinLimb.ARM: ("striking at a specific arm", -2), PinLimb.LEG: ("aiming for legs", -1)}


class PinInput(Model):
    """A capture attack on one limb and the parry or dodge against it."""

    attack: Side = Field(
        description="The capture attack: the attacker's HTH Combat task with the caller's "
        "modifiers (melee/attack), or the QR rolled at the table with every modifier."
    )
    limb: PinLimb = Field(default=PinLimb.ARM, description="The limb pinned: usually an arm.")
    capture_field: bool = Field(
        default=False, description="The attacker knows the Unarmed Combat Capture field: +2."
    )
    defense: Side | None = Field(
        default=None, description="A parry or dodge against the pin; null when none."
    )
    options: DefenseOptions = Field(default=DefenseOptions())


class Pin(Model):
    blow: GrappleAttack
    limb: PinLimb
    pinned: bool = Field(description="The attack landed: the limb is pinned until broken.")
    effects: list[str] = Field(description="What the pin means, with its source lines.")


class PinOdds(Model):
    blow: GrappleAttackOdds
    pinned: Exact


def _pin_terms(request: PinInput) -> list[Term]:
    source, value = AIMING[request.limb]
    return [*term(source, value), *_capture(request.capture_field)]


def pin_odds(request: PinInput) -> PinOdds:
    blow = prepare_attack(request.attack, request.defense, request.options, _pin_terms(request))
    found = blow.odds()
    return PinOdds(blow=found, pinned=found.hit)


def _pin_effects(limb: PinLimb) -> list[str]:
    found = ["each later turn both roll ST to hold or break it: melee/pin-contest (F:L3221)",
             "both tend to fall prone: melee/pin-fall (F:L3213)"]  # fmt: skip
    if limb is PinLimb.ARM:
        found.insert(0, "an arm pinned: no effective use of a two-handed weapon (F:L3217)")
    return found


@operation(
    name="melee/pin",
    kind=Kind.CHECK,
    covers=("foresight.melee.pin",),
    odds=pin_odds,
    cost=_attack_cost,
    rolled={"/blow/final/qr": Reading(read=lambda r: r.blow.final.qr.name, best_first=True)},
    example={
        "attack": {"task": {"score": 12, "bef": 5}},
        "limb": "arm",
        "capture_field": True,
        "defense": {"task": {"score": 10, "bef": 5}},
        "dice": {"seed": 7},
    },
)
def pin(request: PinInput, dice: Dice) -> Pin:
    """A capture attack: an empty-handed character attacks a limb, usually an arm (-2 for a
    specific arm, -1 for legs, F:L3144, F:L3149, F:L3203), +2 with the Unarmed Combat Capture
    field (F:L3201, F:L3223). It may be parried or dodged like any melee attack (F:L3205);
    if it lands the limb is pinned until the pin is broken (F:L3201). With an arm pinned a
    two-handed weapon cannot be used effectively (F:L3217)."""
    blow = prepare_attack(request.attack, request.defense, request.options, _pin_terms(request))
    found = blow.roll(dice)
    effects = _pin_effects(request.limb) if found.hit else []
    return Pin(blow=found, limb=request.limb, pinned=found.hit, effects=effects)


# Strangle (#70)


class StrangleArmorTest(StrEnum):
    BOTH = "both"
    EITHER = "either"


class StrangleOptions(DamageOptions, DefenseOptions):
    """How the strangle is blocked, how it meets armor, and its Capture modifiers."""

    strangle_capture_bonus: bool = option(
        False,
        ambiguity=None,
        description=(
            "Not in the register (catalogue 2.7 #70 lists only PM -1 and -2 without the field). "
            "False: the strangle's own rule replaces the pin's +2 with -2 for lacking the "
            "Capture field (F:L3250); true: a pin's +2 with the field applies as well (F:L3223)."
        ),
    )
    strangle_armor_test: StrangleArmorTest = option(
        StrangleArmorTest.BOTH,
        ambiguity=None,
        description=(
            "Not in the register. 'Could not penetrate the defender's head or chest armor' "
            "(F:L3250): 'both', ineffective only when it could penetrate neither (a vest alone "
            "leaves the neck open), or 'either', ineffective when either armor stops it."
        ),
    )


class StrangleArmor(Model):
    """What the strangle would do as an ordinary attack, against head and chest armor."""

    damage_class: Notation = Field(
        default="+0m",
        description="The ordinary attack's DC: '+0m' is the wielder's UCDC, unarmed (F:L3636).",
    )
    ucdc: float | None = Field(default=None, ge=0, le=100, description="For a relative DC.")
    armor: Annotated[tuple[ArmorLayer, ...], Field(max_length=MAX_LAYERS)] = Field(
        description="The defender's armor; only layers over the head or chest count, and "
        "their coverage is not rolled: the test is whether it could penetrate."
    )


class StrangleInput(Model):
    """A strangle hold: a capture attack on the neck, and the defender's breath."""

    attack: Side = Field(description="The capture attack (task or QR), as for melee/pin.")
    capture_field: bool = Field(default=False, description="Unarmed Combat Capture field.")
    defense: Side | None = Field(default=None, description="A parry or dodge; null when none.")
    endurance: Annotated[int, Field(ge=0, le=MAX_SCORE)] | None = Field(
        default=None, description="The defender's EN: how long the breath lasts (F:L2749)."
    )
    prepared: bool = Field(default=False, description="The defender took a breath first.")
    armor: StrangleArmor | None = Field(default=None, description="Null: no armor in the way.")
    options: StrangleOptions = Field(default=StrangleOptions())


class StranglePenetration(Model):
    location: str
    dc_after_armor: Exact
    penetrates: bool = Field(
        description="The DC after armor is above 0, or no armor there reduces it (catalogue #70)."
    )


class Strangle(Model):
    blow: GrappleAttack
    held: bool = Field(description="The neck is pinned: the defender cannot breathe.")
    armor: list[StranglePenetration] = Field(
        description="The ordinary-attack test, head and chest."
    )
    effective: bool = Field(description="Held, and the armor does not make it ineffective.")
    breath_limit_s: int | None = Field(
        description="EN x 5 s (EN x 10 s prepared) before EN rolls: see 'asphyxiation'."
    )


class StrangleOdds(Model):
    blow: GrappleAttackOdds
    held: Exact
    effective: Exact


def _strangle_terms(request: StrangleInput) -> list[Term]:
    options = request.options
    pm = SPECIAL_ATTACKS["strangle"].pm
    assert pm is not None
    return [
        *term("strangle PM", pm),
        *term("without the Capture field", -2, not request.capture_field),
        *_capture(request.capture_field and options.strangle_capture_bonus),
    ]


def _penetration(request: StrangleInput) -> list[StranglePenetration]:
    """The would-be DC after the armor on the head and on the chest (catalogue #70's test)."""
    check = request.armor
    if check is None:
        return []
    dc_class = parse_damage_class(check.damage_class, ("armor", "damage_class"))
    if dc_class.relative and check.ucdc is None:
        raise InputError(("armor", "ucdc"), f"'{dc_class.notation}' is relative: give the UCDC")
    dc = Fraction(dc_class.value) + (decimal(check.ucdc or 0) if dc_class.relative else 0)
    found = []
    for location in ("head", "chest"):
        layers = []
        for i, layer in enumerate(check.armor):
            if layer.locations is None or location in layer.locations:
                rating = parse_armor_rating(layer.rating, ("armor", "armor", i, "rating"))
                layers.append((rating.reduction, rating.absorb))
        armor = armor_reduce(dc_class.pierce, layers, request.options.pierce_mode)
        after = dc - armor.reduction_left
        # Only armor can stop it (F:L3250): with nothing left to reduce the DC there, a weak
        # blow (DC 0, UCDC 0) still has nothing to penetrate.
        penetrates = after > 0 or armor.reduction_left == 0
        found.append(StranglePenetration(location=location, dc_after_armor=exact(after),
                                         penetrates=penetrates))  # fmt: skip
    return found


def _armor_stops(request: StrangleInput, found: list[StranglePenetration]) -> bool:
    stopped = [not p.penetrates for p in found]
    if not stopped:
        return False
    return (
        all(stopped)
        if request.options.strangle_armor_test is StrangleArmorTest.BOTH
        else any(stopped)
    )


def strangle_odds(request: StrangleInput) -> StrangleOdds:
    blow = prepare_attack(request.attack, request.defense, request.options,
                          _strangle_terms(request)).odds()  # fmt: skip
    stops = _armor_stops(request, _penetration(request))
    effective = exact(Fraction(0)) if stops else blow.hit
    return StrangleOdds(blow=blow, held=blow.hit, effective=effective)


@operation(
    name="melee/strangle",
    kind=Kind.CHECK,
    covers=("foresight.melee.strangle",),
    odds=strangle_odds,
    cost=_attack_cost,
    rolled={"/blow/final/qr": Reading(read=lambda r: r.blow.final.qr.name, best_first=True)},
    example={
        "attack": {"task": {"score": 12, "bef": 5}},
        "capture_field": True,
        "endurance": 10,
        "armor": {"ucdc": 2, "armor": [{"rating": "3A", "locations": ["chest", "abdomen"]}]},
        "dice": {"seed": 7},
    },
)
def strangle(request: StrangleInput, dice: Dice) -> Strangle:
    """A strangle is resolved as a pin on the neck (PM -1, F:L3250), -2 without the Unarmed
    Combat Capture field; parried or dodged like any melee attack. While it is held the
    defender cannot breathe: EN x 5 s, EN x 10 s if prepared, then EN rolls (F:L2749). A
    strangle that could not, as an ordinary attack, penetrate the head or chest armor is
    ineffective (F:L3250): the would-be DC after that armor is 0 or less (catalogue #70).
    By default it takes both to stop it, since the neck lies between them."""
    found = prepare_attack(request.attack, request.defense, request.options,
                           _strangle_terms(request)).roll(dice)  # fmt: skip
    armor = _penetration(request)
    effective = found.hit and not _armor_stops(request, armor)
    limit = None if request.endurance is None else breath_limit(request.endurance,
                                                                request.prepared)  # fmt: skip
    return Strangle(blow=found, held=found.hit, armor=armor, effective=effective,
                    breath_limit_s=limit)  # fmt: skip


# Defensive pin (#62)


class PinAgainst(StrEnum):
    MELEE = "melee"
    FIRE = "fire"


class DefensivePinInput(Model):
    """A parry action used to pin the attacker's arm or gun hand (F:L3207)."""

    pin: Side = Field(
        description="The parry used as a pin: the HTH Combat task with the parry's modifiers "
        "(melee/parry shows them), or its QR."
    )
    capture_field: bool = Field(default=False, description="Unarmed Combat Capture field: +2.")
    against: PinAgainst = Field(description="What the pin tries to stop: a melee or fire attack.")
    attack: Side | None = Field(
        default=None, description="A melee attack: the attack the pin parries; null to leave it."
    )
    firer_dodge: Side | None = Field(
        default=None, description="A fire attack: the firer's reflex dodge of the pin, if any."
    )
    options: DefenseOptions = Field(default=DefenseOptions())


class DefensivePin(Model):
    pin: Resolution | None = Field(description="The pin's roll; null when its QR was given.")
    pin_qr: QR
    dodge: Resolution | None = Field(description="The firer's dodge roll, if rolled.")
    dodge_qr: QR | None
    held: bool = Field(description="The pin succeeded (after the firer's dodge).")
    fire_modifier: int | None = Field(
        description="Against fire: 0, -4 pinned, -2 dodged (unbalanced), -6 dodged and pinned."
    )
    attack: Resolution | None = Field(description="Against melee: the attack's roll.")
    attack_qr: QR | None
    final: Quality | None = Field(description="Against melee: the attack after the parry.")
    hit: bool | None


class DefensivePinOdds(Model):
    pin: QualityOdds
    held: Exact
    fire_modifier: list[OutcomeProbability] | None
    final: QualityOdds | None


def _fire_modifier(held: bool, dodged: bool) -> int:
    """-4 pinned; a firer who dodged is unbalanced: -2, or -6 if pinned all the same
    (F:L3209-3211)."""
    if dodged:
        return -6 if held else -2
    return -4 if held else 0


def _pin_parried(attack: QR, pin: QR, options: DefenseOptions) -> QR:
    """A melee attack after a defensive pin: 'if a defensive pin fails then the attack takes
    place normally' (F:L3207), so a failed or botched pin leaves it as rolled, whatever
    `defense_botch_helps_attack` and the blocking mode make of a failed parry; a successful
    one parries it normally."""
    return defended(attack, pin, options) if succeeded(pin) else attack


def _defensive_sides(
    request: DefensivePinInput,
) -> tuple[Prepared, Prepared | None, Prepared | None]:
    options = request.options
    if request.against is PinAgainst.MELEE and request.firer_dodge is not None:
        raise InputError(("firer_dodge",), "a dodge of the pin is a firer's: give it with 'fire'")
    if request.against is PinAgainst.FIRE and request.attack is not None:
        raise InputError(("attack",), "a fire attack takes the pin's modifier, not a parry")
    pin_side = prepare(request.pin, options, "pin", _capture(request.capture_field))
    dodge = None if request.firer_dodge is None else prepare(request.firer_dodge, options,
                                                             "firer_dodge")  # fmt: skip
    attack = None if request.attack is None else prepare(request.attack, options, "attack")
    return pin_side, dodge, attack


def defensive_pin_odds(request: DefensivePinInput) -> DefensivePinOdds:
    pin_side, dodge, attack = _defensive_sides(request)
    pins = pin_side.distribution()
    effective = pins if dodge is None else pins.then(
        lambda p: dodge.distribution().map(lambda d: defended(p, d, request.options)))  # fmt: skip
    held = effective.probability_where(succeeded)
    fire = final = None
    if request.against is PinAgainst.FIRE:
        modifiers = effective.map(lambda qr: _fire_modifier(succeeded(qr), dodge is not None))
        fire = outcome_table(modifiers, [0, -2, -4, -6])
    elif attack is not None:
        final = quality_odds(attack.distribution().then(
            lambda a: pins.map(lambda p: _pin_parried(a, p, request.options))))  # fmt: skip
    return DefensivePinOdds(pin=quality_odds(pins), held=exact(held), fire_modifier=fire,
                            final=final)  # fmt: skip


def _defensive_cost(request: object) -> Estimate:
    """The pin and one more roll (the firer's dodge or the melee attack), each 100 faces and
    a table of QRs, then their pairs: 2 x 200 + 400 states."""
    return Estimate(2 * SIDE_STATES + PAIR_STATES, ())


@operation(
    name="melee/defensive-pin",
    kind=Kind.CHECK,
    covers=("foresight.melee.defensive_pin",),
    odds=defensive_pin_odds,
    cost=_defensive_cost,
    rolled={"/pin/qr": Reading(read=lambda r: r.pin_qr.name, best_first=True)},
    example={
        "pin": {"task": {"score": 12, "bef": 5}},
        "capture_field": True,
        "against": "fire",
        "firer_dodge": {"task": {"score": 10, "bef": 5}},
        "dice": {"seed": 7},
    },
)
def defensive_pin(request: DefensivePinInput, dice: Dice) -> DefensivePin:
    """A parry action used as a pin (F:L3207): if it fails the attack goes ahead normally;
    if it succeeds a melee attack is parried normally and a fire attack takes -4. A firer who
    reflex-dodged the pin attempt is unbalanced: -2 if the dodge kept the pin off (blocked as
    a dodge blocks an attack), -6 if it failed and he fired pinned all the same
    (F:L3209-3211). Capture field +2 (F:L3223); the parry's own modifiers are the caller's."""
    pin_side, dodge, attack = _defensive_sides(request)
    struck = None if attack is None else attack.roll(dice)
    pinned = pin_side.roll(dice)
    effective, dodged = pinned.qr, None
    if dodge is not None:
        dodged = dodge.roll(dice)
        effective = defended(pinned.qr, dodged.qr, request.options)
    held = succeeded(effective)
    fire = _fire_modifier(held, dodge is not None) if request.against is PinAgainst.FIRE else None
    final = None if struck is None else quality(_pin_parried(struck.qr, pinned.qr,
                                                             request.options))  # fmt: skip
    return DefensivePin(
        pin=pinned.resolution, pin_qr=pinned.qr,
        dodge=None if dodged is None else dodged.resolution,
        dodge_qr=None if dodged is None else dodged.qr, held=held, fire_modifier=fire,
        attack=None if struck is None else struck.resolution,
        attack_qr=None if struck is None else struck.qr,
        final=final, hit=None if final is None else final.success,
    )  # fmt: skip
