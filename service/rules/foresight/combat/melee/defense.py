"""Parrying and dodging a melee attack (catalogue part 2, #56 and #57; F:L3151-3187, reflex
actions F:L3096-3100, feints F:L3023): each a task whose modifiers are the tables' rows, each
named in the chance.

A parry the book forbids (the attacker behind the defender or unseen, F:L3162-3163, or a
weapon with no parry modifier, Unarmed Lethal) answers 422: there is no parry to roll, and
the attack goes on undefended (`attack` with no defence), which is how a caller must treat it.
A result reading 'impossible' would look like a parry that failed and invite its odds.
"""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.foresight.characters.derived import UcdcRounding
from service.rules.foresight.combat.melee.attack import MAX_EARLIER, MeleeOptions
from service.rules.foresight.combat.melee.situations import (
    DODGE_MODIFIERS,
    MAX_SITUATIONS,
    PARRY_MODIFIERS,
    ChosenValue,
    situation_terms,
)
from service.rules.foresight.combat.melee.weapons import (
    SWORD,
    MeleeRange,
    WeaponUse,
    melee_dc,
    strength_penalty_of,
)
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QR_ROLLED, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.resolution.task import (
    Resolution,
    ResolutionOdds,
    resolution_odds,
    roll,
    setup_at,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = [
    "Dodge",
    "DodgeInput",
    "DodgeResult",
    "DodgeSituation",
    "Parry",
    "ParryDisarmOptions",
    "ParryInput",
    "ParryOptions",
    "ParryResult",
    "ParrySituation",
    "defense_setup",
    "dodge_setup",
    "melee_dodge",
    "melee_parry",
    "parry_setup",
]

MAX_FEINTS = 10
DC = Annotated[float, Field(ge=0, le=200)]


class ParrySituation(StrEnum):
    """The situation rows of the Parry Modifiers table (F:L3155-3169)."""

    FAVORS_WEAPON_CLASS = "favors_weapon_class"
    DEFENDER_KNEELING = "defender_kneeling"
    DEFENDER_SQUATTING = "defender_squatting"
    DEFENDER_PRONE = "defender_prone"
    POOR_LIGHT = "poor_light"
    DARK = "dark"
    ATTACKER_BEHIND = "attacker_behind"
    DEFENDER_UNAWARE = "defender_unaware"
    OFF_HAND_WEAPON = "off_hand_weapon"
    OFF_HAND_SHIELD = "off_hand_shield"
    OTHER_WEAPON_JUST_USED = "other_weapon_just_used"
    ATTACKER_KNEELING = "attacker_kneeling"
    ATTACKER_SQUATTING = "attacker_squatting"
    ATTACKER_PRONE = "attacker_prone"


class DodgeSituation(StrEnum):
    """The situation rows of the Dodge Modifiers table (F:L3175-3179)."""

    ATTACK_FROM_SIDE = "attack_from_side"
    ATTACK_FROM_BEHIND = "attack_from_behind"
    DEFENDER_KNEELING = "defender_kneeling"
    POOR_LIGHT = "poor_light"
    DARK = "dark"


_PICK = "The GM's pick where the table gives a range; null takes the value printed first."


class ParryCircumstance(Model):
    situation: ParrySituation
    modifier: ChosenValue = Field(default=None, description=_PICK)


class DodgeCircumstance(Model):
    situation: DodgeSituation
    modifier: ChosenValue = Field(default=None, description=_PICK)


class ParryDisarmOptions(Model):
    """The PM of a parry to disarm (melee/parry and melee/disarm)."""

    parry_disarm_pm: Annotated[int, Field(ge=-3, le=0)] = option(
        -3,
        ambiguity="AMB2-53",
        description=(
            "The PM of a parry to disarm: the -3 the table gives the disarm (F:L3244), as for "
            "an attack to disarm (the same manoeuvre), or 0: the table's PM is the attack's."
        ),
    )


class ParryOptions(MeleeOptions, ParryDisarmOptions):
    """Melee options and the PM of a parry to disarm."""


def _defended(feints: int, earlier: int, bonus: bool, action: str) -> list[Term]:
    """-2 for each earlier parry (dodge) this round unless a bonus action is spent on this one
    (F:L3100); -1 for each feint made just before the attack (F:L3023)."""
    found = []
    if earlier and not bonus:
        found.append(Term(source=f"earlier {action} this round ({earlier})", value=-2 * earlier))
    if feints:
        found.append(Term(source=f"feints ({feints})", value=-feints))
    return found


class Parry(Model):
    """A parry as the end-to-end attack embeds it."""

    task: Task = Field(description="HTH Combat (F:L3118) with any other modifiers.")
    use: WeaponUse = Field(description="The parrying weapon, at the attack's range.")
    attacker_dc: DC | None = Field(
        default=None,
        description="The attack's absolute DC (melee/weapon-profile 'dc'), compared with the "
        "parrying weapon's (F:L3161); null: not compared.",
    )
    situations: Annotated[tuple[ParryCircumstance, ...], Field(max_length=MAX_SITUATIONS)] = ()
    parries_made: Annotated[int, Field(ge=0, le=MAX_EARLIER)] = Field(
        default=0, description="Parries already attempted this round: -2 each (F:L3170)."
    )
    bonus_parry: bool = Field(
        default=False, description="A bonus Parry action: no penalty for earlier parries."
    )
    feints: Annotated[int, Field(ge=0, le=MAX_FEINTS)] = Field(
        default=0, description="Feints the attacker made just before: -1 each (F:L3023)."
    )
    disarm: bool = Field(default=False, description="A parry to disarm (F:L3244).")


class ParryInput(Parry):
    options: ParryOptions = Field(default=ParryOptions())


def dc_shortfall(attacker_dc: Fraction, defender_dc: Fraction) -> int:
    """-(difference/2) where the attacker's DC exceeds the defender's (F:L3161), rounded half
    up as the catalogue recommends."""
    return -round_half_up(max(Fraction(0), attacker_dc - defender_dc) / 2)


def _parry_dc(use: WeaponUse, rounding: UcdcRounding, loc: tuple[str | int, ...]) -> Fraction:
    """The parrying weapon's DC at the attack's range, or at the first range it has one (a
    rapier parries at close range though it cannot strike there)."""
    for reach in (use.range, MeleeRange.NORMAL, MeleeRange.REACH, MeleeRange.CLOSE):
        if getattr(use.weapon, reach.value) is not None:
            return melee_dc(use.model_copy(update={"range": reach}), rounding, loc)[0]
    raise InputError((*loc, "weapon"), f"'{use.weapon.name}' has no DC at any range")


def parry_terms(parry: Parry, options: ParryOptions, loc: tuple[str | int, ...] = ()) -> list[Term]:
    use = parry.use
    if use.weapon.parry is None:
        raise InputError((*loc, "use", "weapon", "parry"), f"'{use.weapon.name}' cannot parry")
    for i, circumstance in enumerate(parry.situations):
        row = PARRY_MODIFIERS[circumstance.situation.value]
        if row.low is None:
            raise InputError((*loc, "situations", i, "situation"), f"{row.situation}: cannot parry")
    found = [Term(source=f"{use.weapon.name} parry", value=use.weapon.parry)]
    found.append(Term(source="strength shortfall", value=strength_penalty_of(use, (*loc, "use"))))
    if parry.attacker_dc is not None:
        mine = _parry_dc(use, options.ucdc_rounding, (*loc, "use"))
        value = dc_shortfall(Fraction(str(parry.attacker_dc)), mine)
        found.append(Term(source=f"attacker's DC {parry.attacker_dc:g} over {mine}", value=value))
    if parry.disarm:
        found.append(Term(source="parry to disarm", value=options.parry_disarm_pm))
    chosen = [(c.situation.value, c.modifier) for c in parry.situations]
    found += situation_terms(chosen, PARRY_MODIFIERS, (*loc, "situations"))
    found += _defended(parry.feints, parry.parries_made, parry.bonus_parry, "parries")
    return [term for term in found if term.value]


def parry_setup(parry: Parry, options: ParryOptions, loc: tuple[str | int, ...] = ()) -> Setup:
    """The parry's HTH Combat task set up with every modifier, each named."""
    return setup_at((*loc, "task"), parry.task, options, parry_terms(parry, options, loc))


class ParryResult(Resolution):
    defender_dc: float | None = Field(description="The parrying weapon's DC, when compared.")


def _parry_odds(request: ParryInput) -> ResolutionOdds:
    return resolution_odds(parry_setup(request, request.options))


@operation(
    name="melee/parry",
    kind=Kind.CHECK,
    covers=("foresight.melee.parry",),
    odds=_parry_odds,
    cost=task_cost,
    rolled=QR_ROLLED,
    example={
        "task": {"score": 12, "bef": 3},
        "use": {"weapon": SWORD, "strength": 9},
        "attacker_dc": 9,
        "parries_made": 1,
        "dice": {"values": [8]},
    },
)
def melee_parry(request: ParryInput, dice: Dice) -> ParryResult:
    """A parry: HTH Combat with the parrying weapon's parry modifier (F:L3100, F:L3153), the
    Parry Modifiers that apply, -round_half_up((attacker's DC - defender's DC) / 2) where the
    attacker's exceeds (F:L3161), -2 per parry already attempted this round unless it is a
    bonus Parry action (F:L3170, F:L3100), -1 per feint (F:L3023), the strength shortfall
    (F:L3732) and -3 to disarm (AMB2-53). Behind or unaware the defender cannot parry
    (F:L3162-3163), nor with a weapon without a parry modifier: 422."""
    task = parry_setup(request, request.options)
    dc = None
    if request.attacker_dc is not None:
        found = _parry_dc(request.use, request.options.ucdc_rounding, ("use",))
        dc = float(found)
    return ParryResult(**dict(roll(task, dice, "D100 (parry)")), defender_dc=dc)


class DodgeSkill(StrEnum):
    """Dodges use Agility, HTH Combat or Acrobatics (F:L3098)."""

    AGILITY = "agility"
    HTH_COMBAT = "hth_combat"
    ACROBATICS = "acrobatics"


class GivingGround(StrEnum):
    """Retreat 1 m for +1, or desperately 2 m for +3, which replaces the +1 (F:L3098)."""

    NONE = "none"
    GIVING_GROUND = "giving_ground"
    DESPERATELY = "desperately"


RETREAT_M = {GivingGround.NONE: 0, GivingGround.GIVING_GROUND: 1, GivingGround.DESPERATELY: 2}


class Dodge(Model):
    """A dodge as the end-to-end attack embeds it."""

    task: Task = Field(
        description="The dodging ability: AG (BEF the option 'attribute_bef' when none is "
        "given), HTH Combat or Acrobatics, with any other modifiers."
    )
    skill: DodgeSkill
    specializations: Annotated[int, Field(ge=0, le=2)] = Field(
        default=0,
        description="Relevant HTH Combat specializations or favourings: +1 each, at most +2 "
        "(F:L3181, F:L3098); HTH Combat dodges only.",
    )
    giving_ground: GivingGround = GivingGround.NONE
    drop_to_squat: bool = Field(
        default=False, description="Drop from standing to squatting: +1, with either retreat."
    )
    situations: Annotated[tuple[DodgeCircumstance, ...], Field(max_length=MAX_SITUATIONS)] = ()
    dodges_made: Annotated[int, Field(ge=0, le=MAX_EARLIER)] = Field(
        default=0, description="Dodges already attempted this round: -2 each (F:L3187)."
    )
    bonus_dodge: bool = Field(
        default=False, description="A bonus Dodge action: no penalty for earlier dodges."
    )
    feints: Annotated[int, Field(ge=0, le=MAX_FEINTS)] = Field(
        default=0, description="Feints the attacker made just before: -1 each (F:L3023)."
    )


class DodgeInput(Dodge):
    options: ResolutionOptions = Field(default=ResolutionOptions())


def _row(key: str, value: int | None = None) -> Term:
    row = DODGE_MODIFIERS[key]
    assert row.low is not None
    return Term(source=row.situation, value=row.low if value is None else value)


def dodge_terms(dodge: Dodge, loc: tuple[str | int, ...] = ()) -> list[Term]:
    found = []
    if dodge.skill is DodgeSkill.ACROBATICS:
        found.append(_row("acrobatics"))
    if dodge.specializations:
        if dodge.skill is not DodgeSkill.HTH_COMBAT:
            raise InputError((*loc, "specializations"), "a specialization helps HTH dodges only")
        found.append(_row("hth_specialization", dodge.specializations))
    if dodge.giving_ground is GivingGround.GIVING_GROUND:
        found.append(_row("giving_ground"))
    if dodge.giving_ground is GivingGround.DESPERATELY:
        found.append(_row("giving_ground_desperately"))
    if dodge.drop_to_squat:
        found.append(_row("dropping_to_squat"))
    chosen = [(c.situation.value, c.modifier) for c in dodge.situations]
    found += situation_terms(chosen, DODGE_MODIFIERS, (*loc, "situations"))
    found += _defended(dodge.feints, dodge.dodges_made, dodge.bonus_dodge, "dodges")
    return [term for term in found if term.value]


def dodge_setup(dodge: Dodge, options: ResolutionOptions, loc: tuple[str | int, ...] = ()) -> Setup:
    """The dodge's task set up with every modifier, each named; an AG dodge with no BEF
    given takes the attribute BEF (AMB-01)."""
    default = options.attribute_bef if dodge.skill is DodgeSkill.AGILITY else None
    return setup_at((*loc, "task"), dodge.task, options, dodge_terms(dodge, loc), default)


def defense_setup(
    defense: Parry | Dodge, options: ParryOptions, loc: tuple[str | int, ...] = ()
) -> Setup:
    """A parry's or a dodge's task set up, whichever `defense` is."""
    if isinstance(defense, Parry):
        return parry_setup(defense, options, loc)
    return dodge_setup(defense, options, loc)


class DodgeResult(Resolution):
    retreat_m: int = Field(description="Metres given: 1, or 2 desperately.")
    squatting: bool = Field(description="Dropped to squatting as part of the dodge.")
    unbalanced: bool = Field(default=True, description="Dodging unbalances (F:L3100).")


def _dodge_odds(request: DodgeInput) -> ResolutionOdds:
    return resolution_odds(dodge_setup(request, request.options))


@operation(
    name="melee/dodge",
    kind=Kind.CHECK,
    covers=("foresight.melee.dodge",),
    odds=_dodge_odds,
    cost=task_cost,
    rolled=QR_ROLLED,
    example={
        "task": {"score": 10},
        "skill": "agility",
        "giving_ground": "desperately",
        "situations": [{"situation": "attack_from_side"}],
        "dice": {"values": [23]},
    },
)
def melee_dodge(request: DodgeInput, dice: Dice) -> DodgeResult:
    """A dodge with AG, HTH Combat or Acrobatics (F:L3098): +2 with Acrobatics, +1 per HTH
    specialization (at most +2), +1 giving ground (1 m) or +3 desperately (2 m, instead),
    +1 dropping to a squat (with either), the Dodge Modifiers that apply (F:L3174-3187), -2
    per dodge already attempted this round unless a bonus Dodge action (F:L3100) and -1 per
    feint (F:L3023). The dodger ends unbalanced."""
    task = dodge_setup(request, request.options)
    return DodgeResult(
        **dict(roll(task, dice, "D100 (dodge)")),
        retreat_m=RETREAT_M[request.giving_ground],
        squatting=request.drop_to_squat,
    )
