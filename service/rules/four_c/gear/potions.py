"""Potions (C:L1674-1706, catalogue 3.12.6): drinking one takes a turn (or one of a Fast Attack
character's attacks) and it works from the next turn; a second potion drunk while the first
lasts negates both. Healing restores 25 Damage points, Invisibility grants the power, and
Strength, like any trait potion made from it, adds 2d10+10 to a trait; set-duration potions
last 3 turns, 2 if lesser and 4 if greater."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.characters.tables import PowerName, PrimaryTrait
from service.rules.four_c.core.dice import (
    Ndx,
    NdxInput,
    ndx,
    ndx_cost,
    ndx_distribution,
    written_dice,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.gear.options import PotionOptions
from service.rules.four_c.gear.tables import HEALING, Grade, turns_of
from service.rules.four_c.powers.anatomy import (
    Attacks,
    FastAttackInput,
    FastAttackOptions,
    fast_attack,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["Potion", "delay", "drink", "duration", "healing", "invisibility", "strength"]

Turn = Annotated[int, Field(ge=1, le=100_000)]
#: A potion's effect starts the turn after it is drunk (C:L1678).
DELAY = 1


class Potion(StrEnum):
    DODGING = "dodging"
    HEALING = "healing"
    INVISIBILITY = "invisibility"
    STRENGTH = "strength"
    TRAIT = "trait"
    POWER = "power"


def duration(potion: Potion, grade: Grade, options: PotionOptions) -> int | None:
    """Turns a potion lasts: lesser 2, greater 4, standard 3 (C:L1680, C:L1694, C:L1704); a
    standard Invisibility potion as many as the option says, its number missing (A-46);
    Healing none, it works once."""
    if potion is Potion.HEALING:
        if grade is not Grade.STANDARD:
            raise InputError(("grade",), "a healing potion has no set duration, so no grades")
        return None
    if potion is Potion.INVISIBILITY and grade is Grade.STANDARD:
        return options.invisibility_potion_turns
    return turns_of(grade)


def delay(potion: Potion, options: PotionOptions) -> int:
    """Turns from drinking to the effect: it starts the next turn (C:L1678), a healing potion's
    25 points too ('turn after', C:L1690), unless healing_potion_next_turn gives them the same
    turn (A-46)."""
    if potion is Potion.HEALING and not options.healing_potion_next_turn:
        return 0
    return DELAY


class DrinkInput(Model):
    potion: Potion = Field(
        description="trait: a trait's potion made from Strength (C:L1696-1698); power: a "
        "power's (C:L1700)."
    )
    grade: Grade = Field(default=Grade.STANDARD)
    turn: Turn = Field(description="The turn it is drunk.")
    active_until: Turn | None = Field(
        default=None, description="The last turn of a potion already in effect, if any."
    )
    fast_attack_rv: RankValue | None = Field(
        default=None,
        description="The drinker's Fast Attack: one of its attacks this turn is given up.",
    )
    options: PotionOptions = Field(default=PotionOptions())


class Drunk(Model):
    action: str = Field(description="'turn' (the turn's action) or 'attack' (one of several).")
    attacks_left: int = Field(description="Attacks left this turn.")
    first_turn: int | None = Field(description="The first turn it works; None if negated.")
    last_turn: int | None
    turns: int | None = Field(description="Its duration; None for Healing, which works once.")
    negated: bool = Field(description="A potion was still in effect: both potions' effects end.")
    text: str


@operation(
    name="potion/drink",
    kind=Kind.CALCULATION,
    covers=("4c.potion.drink",),
    example={"potion": "trait", "turn": 5, "fast_attack_rv": 30},
)
def drink(request: DrinkInput) -> Drunk:
    """Drinking a potion takes a turn and it works from the next (a healing potion's points as
    healing_potion_next_turn says, A-46); a Fast Attack character may give up one attack a
    turn to drink one. Drinking a second before the first has run out negates the effects of
    both (C:L1676-1678): the second never starts (catalogue 3.12.6)."""
    turns = duration(request.potion, request.grade, request.options)
    attacks_left, action = 0, "turn"
    if request.fast_attack_rv is not None:
        options = FastAttackOptions(fast_attack_above_50=request.options.fast_attack_above_50)
        found = fast_attack.rule(FastAttackInput(power_rv=request.fast_attack_rv, options=options))
        assert isinstance(found, Attacks)
        per_turn = found.attacks_per_turn
        attacks_left, action = per_turn - 1, "attack"
    negated = request.active_until is not None and request.turn <= request.active_until
    if negated:
        text = "A potion was still working: the effects of both are negated."
        return Drunk(action=action, attacks_left=attacks_left, first_turn=None, last_turn=None,
                     turns=turns, negated=True, text=text)  # fmt: skip
    first = request.turn + delay(request.potion, request.options)
    last = first if turns is None else first + turns - 1
    return Drunk(action=action, attacks_left=attacks_left, first_turn=first, last_turn=last,
                 turns=turns, negated=False,
                 text=f"It works from turn {first} to turn {last}.")  # fmt: skip


class HealingInput(Model):
    damage_points: Annotated[int, Field(ge=0, le=100_000)] = Field(
        description="The wounded character's Damage points now."
    )
    starting_damage: Annotated[int, Field(ge=0, le=100_000)] = Field(
        description="Their starting Damage points, which the potion cannot exceed."
    )
    turn: Turn = Field(description="The turn it is given.")
    options: PotionOptions = Field(default=PotionOptions())


class Healed(Model):
    healed: int
    damage_points: int
    turn: int = Field(description="The turn the points come back.")
    dying_ended: bool = Field(description="Back above 0 Damage points: no longer Dying (A-57).")


@operation(
    name="potion/healing",
    kind=Kind.CALCULATION,
    covers=("4c.potion.healing",),
    example={"damage_points": 40, "starting_damage": 60, "turn": 3},
)
def healing(request: HealingInput) -> Healed:
    """A healing potion restores 25 Damage points the turn after it is given, never past the
    character's starting Damage points (C:L1690; the turn as healing_potion_next_turn says,
    A-46)."""
    if request.damage_points > request.starting_damage:
        raise InputError(("damage_points",), "more Damage points than the starting value")
    row = HEALING[0]
    after = min(request.damage_points + row.damage_points, request.starting_damage)
    return Healed(healed=after - request.damage_points, damage_points=after,
                  turn=request.turn + delay(Potion.HEALING, request.options),
                  dying_ended=request.damage_points == 0 and after > 0)  # fmt: skip


class InvisibilityPotionInput(Model):
    grade: Grade = Field(default=Grade.STANDARD)
    turn: Turn = Field(description="The turn it is drunk.")
    options: PotionOptions = Field(default=PotionOptions())


class Invisible(Model):
    power: PowerName = Field(description="The Invisibility power (C:L720-722).")
    turns: int
    first_turn: int
    last_turn: int
    in_source: bool = Field(
        description="False: the seed leaves the standard potion's turns out (A-46)."
    )


@operation(
    name="potion/invisibility",
    kind=Kind.CALCULATION,
    covers=("4c.potion.invisibility",),
    example={"turn": 2},
)
def invisibility(request: InvisibilityPotionInput) -> Invisible:
    """The drinker has the Invisibility power 'for turns' (C:L1692): the number is missing, so
    3, as the other set-duration potions, unless the option says otherwise (A-46); lesser 2
    and greater 4 (C:L1704). It starts the turn after it is drunk (C:L1678)."""
    turns = duration(Potion.INVISIBILITY, request.grade, request.options)
    assert turns is not None
    first = request.turn + DELAY
    return Invisible(power=PowerName.INVISIBILITY, turns=turns, first_turn=first,
                     last_turn=first + turns - 1,
                     in_source=request.grade is not Grade.STANDARD)  # fmt: skip


class StrengthInput(Model):
    trait: PrimaryTrait = Field(
        default=PrimaryTrait.BRAWN,
        description="Brawn for Strength; another trait for its own potion (C:L1696-1698).",
    )
    trait_rv: RankValue = Field(default=0, description="The trait's Rank Value now.")
    power: PowerName | None = Field(
        default=None,
        description="A power potion instead (C:L1700): the power at 2d10+10, an extrapolation.",
    )
    grade: Grade = Field(default=Grade.STANDARD)
    turn: Turn = Field(default=1, description="The turn it is drunk.")
    options: PotionOptions = Field(default=PotionOptions())


class Strengthened(Model):
    trait: PrimaryTrait | None
    power: PowerName | None
    bonus: int = Field(description="2d10+10, rolled when the potion is drunk.")
    faces: tuple[int, ...]
    rv: int = Field(description="The trait's Rank Value with the bonus, or the power's.")
    turns: int
    first_turn: int
    last_turn: int
    extrapolated: bool = Field(description="A power potion: the seed gives no numbers for it.")


def _bonus(request: StrengthInput) -> NdxInput:
    """2d10+10, written as dice (C:L1694)."""
    return written_dice(2, 10, request.options)


def _base(request: StrengthInput) -> int:
    return 0 if request.power is not None else request.trait_rv


class StrengthOdds(Model):
    bonus: list[OutcomeProbability]
    rv: list[OutcomeProbability]
    mean_bonus: Exact


def strength_odds(request: StrengthInput) -> StrengthOdds:
    """2d10+10: 12 to 30, mean 21 (catalogue 5.4); the Rank Value it makes."""
    found = ndx_distribution(_bonus(request))
    base = _base(request)
    return StrengthOdds(bonus=outcome_table(found), rv=outcome_table(found.map(lambda b: base + b)),
                        mean_bonus=exact(found.mean()))  # fmt: skip


def strength_cost(request: StrengthInput) -> Estimate:
    """Two d10 (`ndx_cost`) and two tables of their sums: the same for every request."""
    return Estimate(ndx_cost(_bonus(request)).states + 200, ())


@operation(
    name="potion/strength",
    kind=Kind.CHECK,
    covers=("4c.potion.strength",),
    odds=strength_odds,
    cost=strength_cost,
    example={"trait": "fortitude", "trait_rv": 20, "grade": "lesser",
             "dice": {"values": [3, 8]}},
)  # fmt: skip
def strength(request: StrengthInput, dice: Dice) -> Strengthened:
    """A Strength potion adds 2d10+10, rolled as it is drunk, to Brawn for 3 turns; any trait's
    potion is made the same way, and a lesser one lasts 2 turns, a greater 4: a Lesser Potion
    of Fortitude adds 2d10+10 to Fortitude for 2 turns (C:L1694-1706). A power potion grants
    the power at 2d10+10 (catalogue 3.12.6, an extrapolation)."""
    rolled = ndx.rule(_bonus(request), dice)
    assert isinstance(rolled, Ndx)
    turns = turns_of(request.grade)
    first = request.turn + DELAY
    power = request.power
    return Strengthened(trait=None if power else request.trait, power=power, bonus=rolled.total,
                        faces=rolled.faces, rv=_base(request) + rolled.total, turns=turns,
                        first_turn=first, last_turn=first + turns - 1,
                        extrapolated=power is not None)  # fmt: skip
