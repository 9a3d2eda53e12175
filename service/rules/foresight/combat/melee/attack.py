"""The melee attack roll (catalogue part 2, #55; F:L3114-3149, F:L3022): HTH Combat (BEF G)
with the weapon's PM at the range, the situation modifiers of the Mêlée Attack Modifiers
table, -2 for each attack already made with the weapon this round, the strength shortfall
and where the blow is aimed. Every modifier is a named term of the task's chance."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.foresight.characters.derived import UcdcOptions
from service.rules.foresight.combat.melee.situations import (
    ATTACK_MODIFIERS,
    MAX_SITUATIONS,
    ChosenValue,
    situation_term,
    situation_terms,
)
from service.rules.foresight.combat.melee.weapons import (
    SWORD,
    WeaponProfile,
    WeaponUse,
    profile,
    weapon_terms,
)
from service.rules.foresight.mortality.location import Aim
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QR_ROLLED, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.task import (
    Resolution,
    ResolutionOdds,
    resolution_odds,
    roll,
    setup_at,
)
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "AttackCircumstance",
    "AttackSituation",
    "MeleeAttackInput",
    "MeleeAttackResult",
    "MeleeOptions",
    "MeleeStrike",
    "attack_terms",
    "melee_attack",
    "melee_setup",
]

#: Attacks made with one weapon in a round; more than the actions a round allows.
MAX_EARLIER = 10


class AttackSituation(StrEnum):
    """The situation rows of the Mêlée Attack Modifiers table (F:L3126-3143); the aiming rows
    are read from `aim`."""

    FAVORS_WEAPON_CLASS = "favors_weapon_class"
    ATTACKER_KNEELING = "attacker_kneeling"
    ATTACKER_SQUATTING = "attacker_squatting"
    ATTACKER_PRONE = "attacker_prone"
    POOR_LIGHT = "poor_light"
    DARK = "dark"
    DEFENDER_LOW_STANCE = "defender_low_stance"
    ATTACKER_BEHIND = "attacker_behind"
    DEFENDER_UNAWARE = "defender_unaware"
    DEFENDER_LARGE = "defender_large"
    DEFENDER_SMALL = "defender_small"
    COVER_THIRD = "cover_third"
    COVER_TWO_THIRDS = "cover_two_thirds"
    DEFENDER_STILL = "defender_still"
    DEFENDER_STUNNED = "defender_stunned"
    DEFENDER_MOVING_QUICKLY = "defender_moving_quickly"
    OFF_HAND = "off_hand"
    OTHER_WEAPON_JUST_USED = "other_weapon_just_used"


class AttackCircumstance(Model):
    situation: AttackSituation
    modifier: ChosenValue = Field(
        default=None,
        description="The GM's pick where the table gives a range ('-1 to -3'); null takes the "
        "value printed first.",
    )


#: Each aim as the table's row (F:L3144-3149); a random blow is not aimed.
AIM_ROWS = {
    Aim.TORSO: "aim_torso",
    Aim.CHEST: "aim_torso",
    Aim.ABDOMEN: "aim_torso",
    Aim.LEGS: "aim_legs",
    Aim.LEFT_LEG: "aim_legs",
    Aim.RIGHT_LEG: "aim_legs",
    Aim.HEAD: "aim_head",
    Aim.LEFT_ARM: "aim_arm",
    Aim.RIGHT_ARM: "aim_arm",
}


class MeleeOptions(ResolutionOptions, UcdcOptions):
    """Resolution options and how the UCDC is rounded (for the weapon's DC)."""


class MeleeStrike(Model):
    """A melee attack as the lead's end-to-end attack embeds it: the HTH Combat task, the
    weapon as wielded and the attack's circumstances."""

    task: Task = Field(
        description="HTH Combat ((AG+PC)/2, BEF G, F:L3118) with any other modifiers "
        "(wounds, exhaustion); the table's rows go in 'situations'."
    )
    use: WeaponUse
    situations: Annotated[tuple[AttackCircumstance, ...], Field(max_length=MAX_SITUATIONS)] = ()
    attacks_made: Annotated[int, Field(ge=0, le=MAX_EARLIER)] = Field(
        default=0,
        description="Attacks already made with this weapon this round: -2 each (F:L3022).",
    )
    aim: Aim = Field(default=Aim.RANDOM, description="Where the blow is aimed (F:L3144-3149).")


class MeleeAttackInput(MeleeStrike):
    options: MeleeOptions = Field(default=MeleeOptions())


class MeleeAttackResult(Resolution):
    weapon: WeaponProfile


def attack_terms(attack: MeleeStrike, loc: tuple[str | int, ...] = ()) -> list[Term]:
    """The attack's own terms: the weapon's, the situations', earlier attacks', the aim's."""
    found = weapon_terms(attack.use, (*loc, "use"))
    chosen = [(c.situation.value, c.modifier) for c in attack.situations]
    found += situation_terms(chosen, ATTACK_MODIFIERS, (*loc, "situations"))
    if attack.attacks_made:
        found.append(Term(source=f"earlier attacks with this weapon ({attack.attacks_made})",
                          value=-2 * attack.attacks_made))  # fmt: skip
    if attack.aim in AIM_ROWS:
        term = situation_term(ATTACK_MODIFIERS[AIM_ROWS[attack.aim]], None, (*loc, "aim"))
        found.append(term)
    return [term for term in found if term.value]


def melee_setup(
    attack: MeleeStrike, options: ResolutionOptions, loc: tuple[str | int, ...] = ()
) -> Setup:
    """The attack's HTH Combat task set up with every modifier, each named."""
    return setup_at((*loc, "task"), attack.task, options, attack_terms(attack, loc))


def _odds(request: MeleeAttackInput) -> ResolutionOdds:
    """The attack's QRs; the weapon is read as the attack reads it, so that the odds refuse
    a weapon used as it cannot be (an exoskeleton's DC on an armed blow) as the attack does."""
    profile(request.use, request.options.ucdc_rounding, ("use",))
    return resolution_odds(melee_setup(request, request.options))


@operation(
    name="melee/attack",
    kind=Kind.CHECK,
    covers=("foresight.melee.attack",),
    odds=_odds,
    cost=task_cost,
    rolled=QR_ROLLED,
    example={
        "task": {"score": 12, "bef_formula": {"term": "G", "plus": 0, "familiarity": 3}},
        "use": {"weapon": SWORD, "range": "normal", "strength": 9},
        "situations": [{"situation": "defender_stunned"}],
        "attacks_made": 1,
        "aim": "torso",
        "dice": {"values": [17]},
    },
)
def melee_attack(request: MeleeAttackInput, dice: Dice) -> MeleeAttackResult:
    """A melee attack: HTH Combat at BEF G (F:L3118) moved by the weapon's PM at the range
    (close 0 m, normal 1 m, reach 2 m; a '-' range cannot be used, F:L3120), the Mêlée Attack
    Modifiers that apply (F:L3124-3149: ranges such as '-1 to -3' take the GM's pick), -2 per
    attack already made with the weapon this round (F:L3022), -1 per three points of Strength
    short of the weapon's need (F:L3732), -1 numbed (F:L3247) and the aim: legs -1, head -4,
    torso +0, a specific arm -2. The result's chance lists every modifier."""
    task = melee_setup(request, request.options)
    rolled = roll(task, dice, "D100 (melee attack)")
    weapon = profile(request.use, request.options.ucdc_rounding, ("use",))
    return MeleeAttackResult(**dict(rolled), weapon=weapon)
