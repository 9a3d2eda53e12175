"""Special melee attacks that strike (catalogue part 2, #64, #68, #71; the Special Mêlée
Attacks table F:L3233-3253, read in `combat/special.py`): the headbutt, kick and lethal
strike variants, the knockout blow and the knockback.

A knockout or knockback does no damage of its own: both ask what the blow *would* have done.
That is the damage table's answer for the final QR, the blow's DC through the armor at the
place struck and the defender's damage scale, as `damage/resolve` reads one hit
(F:L2628-2726) - computed by the mortality rules, not again here.
"""

from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    exact,
    outcome_table,
)
from service.rules.foresight.combat.melee.resolve import qr_readings, rolled_qr
from service.rules.foresight.combat.special import SPECIAL_ATTACKS, SpecialAttack
from service.rules.foresight.mortality.condition import Location
from service.rules.foresight.mortality.damage import DamageScale, decimal
from service.rules.foresight.mortality.hits import DamageOptions, inflict
from service.rules.foresight.mortality.notation import (
    Notation,
    parse_armor_rating,
    parse_damage_class,
)
from service.rules.foresight.resolution.chance import Setup
from service.rules.foresight.resolution.odds import (
    QualityOdds,
    chained_cost,
    quality_odds,
    task_cost,
)
from service.rules.foresight.resolution.quality import Quality, quality
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Resolution,
    Side,
    setup_at,
    side_distribution,
    side_setup,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation

__all__ = [
    "Blow",
    "KnockbackInput",
    "KnockbackResult",
    "KnockoutInput",
    "KnockoutResult",
    "StrikeVariant",
    "knockback",
    "knockout",
    "strike_variants",
    "would_be_damage",
]


class StrikeVariant(StrEnum):
    HEADBUTT = "headbutt"
    KICK = "kick"
    LETHAL_STRIKE = "lethal_strike"


class StrikeVariantInput(Model):
    variant: StrikeVariant


class StrikeVariantResult(SpecialAttack):
    damage_class: str = Field(description="Relative to the UCDC, as melee weapons write it.")


@operation(
    name="melee/strike-variants",
    kind=Kind.LOOKUP,
    covers=("foresight.melee.strike_variants",),
    example={"variant": "kick"},
)
def strike_variants(request: StrikeVariantInput) -> StrikeVariantResult:
    """An unarmed strike's row of the Special Mêlée Attacks table (F:L3251-3253): headbutt PM
    -2, kick and lethal strike -1, each DC UCDC+1m; a kick needs an unpinned leg, a lethal
    strike the Unarmed Combat Lethal field, and a headbutt the right circumstances (it may
    hurt its user)."""
    row = SPECIAL_ATTACKS[request.variant.value]
    assert row.dc is not None
    return StrikeVariantResult(**dict(row), damage_class=row.dc.removeprefix("UCDC"))


class Blow(Model):
    """The blow as an ordinary hit: its DC, the armor where it lands and the defender's
    damage scale."""

    damage_class: Notation = Field(
        description="'+2m' (relative: give 'ucdc') or an absolute DC such as 'DC4'.",
        examples=["+2m", "DC4"],
    )
    ucdc: float | None = Field(default=None, ge=0, le=100, description="The attacker's UCDC.")
    dc_modifier: int = Field(default=0, ge=-50, le=50, description="Wind-ups and the like.")
    location: Location | None = Field(
        default=None, description="Where it lands (the head adds 1); null: not located."
    )
    armor: Notation | None = Field(
        default=None, description="The armor rating at that place against the blow: '3A'."
    )
    ds: DamageScale = Field(default=1, description="The defender's damage scale: 1 a person.")


def would_be_damage(blow: Blow, qr: QR, options: DamageOptions) -> int | None:
    """The damage of the blow at `qr` had it been an ordinary attack: None none, 0 S, n wound
    levels (mortality's `inflict`, F:L2628-2726)."""
    dc_class = parse_damage_class(blow.damage_class, ("blow", "damage_class"))
    if dc_class.count != 1 or dc_class.stun:
        raise InputError(("blow", "damage_class"), "one blow of wounding damage")
    if dc_class.relative:
        if blow.ucdc is None:
            raise InputError(("blow", "ucdc"), f"'{dc_class.notation}' is relative: give the UCDC")
        dc = decimal(blow.ucdc) + dc_class.value + blow.dc_modifier
    else:
        dc = Fraction(dc_class.value + blow.dc_modifier)
    layers = []
    if blow.armor is not None:
        found = parse_armor_rating(blow.armor, ("blow", "armor"))
        layers.append((found.reduction, found.absorb))
    hit = inflict(dc, dc_class, qr, blow.location, layers, decimal(blow.ds), None, options)
    return None if hit.missed else hit.damage


def _written(damage: int | None) -> str:
    return "none" if damage is None else "S" if damage == 0 else str(damage)


class KnockoutOutcome(StrEnum):
    MISS = "miss"
    UNCONSCIOUS = "unconscious"
    PAIN_RESISTANCE = "pain_resistance"
    NO_EFFECT = "no_effect"


class KnockoutInput(Model):
    attack: Side = Field(
        description="The blow's final QR (after any parry or dodge, melee/defense-resolve) or "
        "its task when undefended; a blunt weapon or the flat of a blade (F:L3241)."
    )
    from_behind: bool = Field(default=False, description="QR3 suffices from behind.")
    blow: Blow
    options: DamageOptions = Field(default=DamageOptions())


class KnockoutResult(Model):
    attack: Resolution | None
    quality: Quality = Field(description="The blow's QR.")
    required_qr: QR
    would_be: str = Field(
        description="The blow's damage had it been ordinary: n, 'S', 'none'; 'miss' on a failure."
    )
    outcome: KnockoutOutcome = Field(
        description="'pain_resistance': an S, treated normally (a Pain Resistance roll, "
        "pain-resistance/stun-check)."
    )


class KnockoutOdds(Model):
    attack: QualityOdds
    outcome: list[OutcomeProbability]
    unconscious: Exact


def _knockout(request: KnockoutInput, qr: QR) -> tuple[KnockoutOutcome, int | None]:
    required = QR.QR3 if request.from_behind else QR.QR2
    # Read at every QR (None on a failure), so that the roll refuses an unreadable blow
    # whatever it shows, as the odds do.
    damage = would_be_damage(request.blow, qr, request.options)
    if qr > required:
        return KnockoutOutcome.MISS, damage
    if damage is None:
        return KnockoutOutcome.NO_EFFECT, damage
    if damage == 0:
        return KnockoutOutcome.PAIN_RESISTANCE, damage
    return KnockoutOutcome.UNCONSCIOUS, damage


def _knockout_odds(request: KnockoutInput) -> KnockoutOdds:
    task = side_setup(request.attack, request.options, "attack")
    attack = side_distribution(request.attack, task)
    outcome = attack.map(lambda qr: _knockout(request, qr)[0])
    return KnockoutOdds(
        attack=quality_odds(attack),
        outcome=outcome_table(outcome, list(KnockoutOutcome)),
        unconscious=exact(outcome.probability(KnockoutOutcome.UNCONSCIOUS)),
    )


@operation(
    name="melee/knockout",
    kind=Kind.CHECK,
    covers=("foresight.melee.knockout",),
    odds=_knockout_odds,
    cost=task_cost,
    rolled={
        **qr_readings("/attack", lambda result: result.quality.qr),
        "/unconscious": Reading(read=lambda r: r.outcome is KnockoutOutcome.UNCONSCIOUS),
    },
    example={
        "attack": {"task": {"score": 14, "bef": 4}},
        "blow": {"damage_class": "+2m", "ucdc": 2, "location": "head"},
        "dice": {"values": [4]},
    },
)
def knockout(request: KnockoutInput, dice: Dice) -> KnockoutResult:
    """A knockout blow (F:L3241): it needs QR2 (QR3 from behind) or it misses altogether. If
    it gets it, the damage it would have done decides: a wound level or more knocks the
    target out with no wound; an S is treated normally (a Pain Resistance roll against stun);
    no damage does nothing."""
    task = side_setup(request.attack, request.options, "attack")
    rolled, qr = rolled_qr(request.attack, task, dice, "D100 (knockout blow)")
    outcome, damage = _knockout(request, qr)
    return KnockoutResult(
        attack=rolled,
        quality=quality(qr),
        required_qr=QR.QR3 if request.from_behind else QR.QR2,
        would_be="miss" if qr > QR.QR4 else _written(damage),
        outcome=outcome,
    )


class Stance(StrEnum):
    STANDING = "standing"
    KNEELING = "kneeling"
    PRONE = "prone"


class KnockbackOptions(DamageOptions):
    knockback_roll_always: bool = option(
        False,
        ambiguity="AMB2-52",
        description=(
            "The defender's agility or acrobatics roll to stay standing is made after every "
            "knockback hit; false: only when pushed back (F:L3248 says neither)."
        ),
    )


class KnockbackInput(Model):
    attack: Side = Field(
        description="The knockback's final QR (after any parry or dodge) or its task; an "
        "unarmed or shield attack at normal range (F:L3248)."
    )
    blow: Blow
    balance: Side = Field(
        description="The defender's Agility or Acrobatics roll to stay standing (an AG task "
        "with no BEF takes 'attribute_bef'); rolled only when called for."
    )
    options: KnockbackOptions = Field(default=KnockbackOptions())


class KnockbackResult(Model):
    attack: Resolution | None
    quality: Quality
    hit: bool
    would_be: str
    pushed_m: str = Field(
        description="Metres pushed back, the damage over the defender's DS; 'miss'."
    )
    balance: Resolution | None = Field(description="The roll to stay standing, when made.")
    balance_qr: QR | None
    stance: Stance = Field(description="QR7 kneeling, QR10 prone (F:L3248).")
    range_m: int | None = Field(description="0: the attacker is now at close range; null: missed.")


class KnockbackOdds(Model):
    attack: QualityOdds
    pushed_m: list[OutcomeProbability]
    stance: list[OutcomeProbability]
    hit: Exact


def _pushed(request: KnockbackInput, qr: QR) -> Fraction | None:
    """Metres pushed back (None: a miss): the would-be wound levels less the defender's DS,
    when greater (F:L3248); an S or no damage pushes nothing. The blow is read whatever the
    QR, so that a blow the rules cannot read is refused before any roll, as by the odds."""
    damage = would_be_damage(request.blow, qr, request.options)
    if qr > QR.QR4:
        return None
    return max(Fraction(0), Fraction(damage or 0) - decimal(request.blow.ds))


def _metres(pushed: Fraction | None) -> str:
    if pushed is None:
        return "miss"
    return str(pushed.numerator) if pushed.denominator == 1 else str(pushed)


STANCE_BY_QR = {QR.QR7: Stance.KNEELING, QR.QR10: Stance.PRONE}


def _rolls_balance(request: KnockbackInput, pushed: Fraction | None) -> bool:
    if pushed is None:
        return False
    return pushed > 0 or request.options.knockback_roll_always


def _balance_setup(request: KnockbackInput) -> Setup | None:
    side = request.balance
    if (side.task is None) == (side.qr is None):
        raise InputError(("balance",), "give either 'task' or 'qr'")
    if side.task is None:
        return None
    options = request.options
    return setup_at(("balance", "task"), side.task, options, (), options.attribute_bef)


def _knockback_odds(request: KnockbackInput) -> KnockbackOdds:
    attack = side_distribution(
        request.attack, side_setup(request.attack, request.options, "attack")
    )
    balance = side_distribution(request.balance, _balance_setup(request))

    def after(qr: QR) -> Distribution[tuple[str, Stance]]:
        pushed = _pushed(request, qr)
        if not _rolls_balance(request, pushed):
            return Distribution({(_metres(pushed), Stance.STANDING): 1})
        return balance.map(lambda b: (_metres(pushed), STANCE_BY_QR.get(b, Stance.STANDING)))

    found = attack.then(after)
    return KnockbackOdds(
        attack=quality_odds(attack),
        pushed_m=outcome_table(found.map(lambda o: o[0])),
        stance=outcome_table(found.map(lambda o: o[1]), list(Stance)),
        hit=exact(attack.probability_where(lambda qr: qr <= QR.QR4)),
    )


@operation(
    name="melee/knockback",
    kind=Kind.CHECK,
    covers=("foresight.melee.knockback",),
    odds=_knockback_odds,
    cost=chained_cost,
    rolled={
        **qr_readings("/attack", lambda result: result.quality.qr),
        "/hit": Reading(read=lambda result: result.hit),
    },
    example={
        "attack": {"task": {"score": 14, "bef": 5}},
        "blow": {"damage_class": "+1m", "ucdc": 4, "location": "chest"},
        "balance": {"task": {"score": 11}},
        "dice": {"values": [3, 95]},
    },
)
def knockback(request: KnockbackInput, dice: Dice) -> KnockbackResult:
    """A knockback (F:L3248): an unarmed or shield attack at normal range that leaves the
    two at close range (0 m). It does no damage; the damage it would have done (in wound
    levels) is compared with the defender's damage scale and, if greater, pushes him back
    the difference in metres. Pushed back, he rolls Agility or Acrobatics to stay standing:
    QR7 kneeling, QR10 prone (the roll when not pushed back: `knockback_roll_always`,
    AMB2-52)."""
    task = side_setup(request.attack, request.options, "attack")
    balance_task = _balance_setup(request)
    rolled, qr = rolled_qr(request.attack, task, dice, "D100 (knockback)")
    pushed = _pushed(request, qr)
    damage = None if qr > QR.QR4 else would_be_damage(request.blow, qr, request.options)
    balance, balance_qr = None, None
    if _rolls_balance(request, pushed):
        balance, balance_qr = rolled_qr(request.balance, balance_task, dice, "D100 (balance)")
    return KnockbackResult(
        attack=rolled,
        quality=quality(qr),
        hit=qr <= QR.QR4,
        would_be="miss" if qr > QR.QR4 else _written(damage),
        pushed_m=_metres(pushed),
        balance=balance,
        balance_qr=balance_qr,
        stance=Stance.STANDING
        if balance_qr is None
        else STANCE_BY_QR.get(balance_qr, Stance.STANDING),
        range_m=0 if qr <= QR.QR4 else None,
    )
