"""Powers of the body (C:L742-744, C:L760-786, C:L800-802, C:L900-906): Nine Lives' Fortune
pool and its once-a-session roll, Paralyzing Touch, Phasing and Physical Metamorphosis as
armor, Regeneration, and Trait Boost and Trait Increase (catalogue 3.6)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    exact,
    not_rolled,
    outcome_table,
)
from service.rules.four_c.characters.tables import DAMAGE_TRAITS, FORTUNE_TRAITS, PrimaryTrait
from service.rules.four_c.combat.tables import MELEE_BASHING, results
from service.rules.four_c.core.dice import (
    D100,
    DiceMode,
    NdxInput,
    d100_distribution,
    ndx_distribution,
    roll_d100,
    roll_ndx,
    written_dice,
)
from service.rules.four_c.core.master_table import (
    FORTUNE_PER_SHIFT,
    colour_distribution,
    table_cost,
)
from service.rules.four_c.core.options import CoreOptions
from service.rules.four_c.core.ranks import RankValue, RowSteps
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    Outcome,
    PowerCheck,
    PowerOptions,
    PowerRoll,
    power_master,
    roll_power,
    tenth,
    threshold,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = [
    "PARALYSIS",
    "TOUCH",
    "MetamorphosisForm",
    "PhysiqueOptions",
    "nine_lives",
    "paralyzing_touch",
    "phasing",
    "physical_metamorphosis",
    "regeneration",
    "trait_boost",
    "trait_increase",
]

Points = Annotated[int, Field(ge=0, le=1_000_000)]


class PhysiqueOptions(PowerOptions):
    """The powers' readings, and those of the body's; every default is the catalogue's."""

    regeneration_cap: bool = option(
        True,
        ambiguity="A-55",
        description="Regeneration heals up to the Damage maximum, as Absorption and the "
        "healing potion say they do; off, past it.",
    )
    recompute_damage_max_on_permanent_change: bool = option(
        True,
        ambiguity="A-35",
        description="Raising Melee, Coordination, Brawn or Fortitude raises the Damage "
        "maximum with it, Damage being their sum (C:L240).",
    )
    recompute_fortune: bool = option(
        False,
        ambiguity="A-35",
        description="Raising Intellect, Awareness or Willpower adds to the Fortune left, as "
        "if Fortune were derived again; off by default, since Fortune is a currency.",
    )


# Nine Lives (C:L744)


class NineLivesInput(Model):
    rv: RankValue = Field(description="Nine Lives' Rank Value.")
    spent: Points = Field(default=0, description="Pool points spent so far this session.")
    lucky_roll: bool = Field(
        default=False,
        description="Make the session's one d% whose tens die is chosen after the roll.",
    )
    lucky_roll_used: bool = Field(
        default=False, description="This session's lucky roll was made already."
    )


class NineLives(Model):
    pool: int = Field(description="Fortune for die rolls this session: twice the Rank Value.")
    remaining: int
    shifts: int = Field(description="Colour shifts the rest buys, at 25 each (C:L961).")
    lucky_roll: D100 | None = Field(
        description="Both readings of the two dice; `roll` is the better (catalogue 3.1.1)."
    )


class NineLivesOdds(Model):
    roll: list[OutcomeProbability] = Field(description="The lucky roll's reading.")
    mean: Exact | None = Field(description="Its mean: 64.35 (catalogue 5.5).")


def _pool(request: NineLivesInput) -> int:
    """The session's pool, twice the Rank Value, and the one lucky roll a session (C:L744):
    the rule and its odds refuse spending past the pool, or a second lucky roll, alike."""
    pool = 2 * request.rv
    if request.spent > pool:
        raise InputError(("spent",), f"the pool holds {pool} points this session")
    if request.lucky_roll and request.lucky_roll_used:
        raise InputError(("lucky_roll",), "the lucky roll comes once a session (C:L744)")
    return pool


def nine_lives_odds(request: NineLivesInput) -> NineLivesOdds:
    _pool(request)
    if not request.lucky_roll:
        return NineLivesOdds(roll=not_rolled(), mean=None)
    found = d100_distribution(DiceMode.NINE_LIVES)
    return NineLivesOdds(roll=outcome_table(found), mean=exact(found.mean()))


def nine_lives_cost(request: object) -> Estimate:
    """Two d10 read both ways (100 pairs, 100 readings) and their table: the same for every
    request."""
    return Estimate(500, ())


@operation(
    name="power/nine-lives",
    kind=Kind.GENERATION,
    covers=("4c.power.nine_lives",),
    odds=nine_lives_odds,
    cost=nine_lives_cost,
    example={"rv": 20, "spent": 25, "lucky_roll": True, "dice": {"values": [3, 8]}},
)
def nine_lives(request: NineLivesInput, dice: Dice) -> NineLives:
    """At the start of each session a pool of Fortune twice the Rank Value, spent only on die
    rolls that session, never saved or spent on improvement; and once a session a d% whose
    tens die is chosen after the roll (C:L742-744)."""
    pool = _pool(request)
    roll = roll_d100(dice, DiceMode.NINE_LIVES, "Nine Lives") if request.lucky_roll else None
    remaining = pool - request.spent
    return NineLives(pool=pool, remaining=remaining, shifts=remaining // FORTUNE_PER_SHIFT,
                     lucky_roll=roll)  # fmt: skip


# Paralyzing Touch (C:L762)

#: The touch hits as a bashing melee attack, but deals no damage (catalogue 3.6).
TOUCH = {
    c: Outcome(result=row.result, text=row.text, success=c is not Colour.BLACK)
    for c, row in results(MELEE_BASHING).items()
}
PARALYSIS = threshold(
    Colour.RED,
    Outcome(result="paralyzed", text="Paralyzed: knocked down and unconscious.", success=False),
    Outcome(result="resisted", text="No effect.", success=True),
)


class ParalyzingInput(PowerRoll):
    rv: RankValue = Field(description="Paralyzing Touch's Rank Value.")
    melee: RankValue = Field(description="The attacker's Melee: the touch is a melee attack.")
    target_fortitude: RankValue
    target_row_steps: RowSteps = Field(default=(), description="Row Steps of the resist roll.")


class Paralysis(Model):
    attack: PowerCheck = Field(description="The melee attack: it deals no damage.")
    resist: PowerCheck | None = Field(description="The target's Fortitude roll after a hit.")
    paralyzed: bool
    rounds: int = Field(description="Rounds paralyzed: a tenth of the Rank Value, rounded up.")


def _resist(request: ParalyzingInput) -> PowerRoll:
    return PowerRoll(row_steps=request.target_row_steps, options=request.options,
                     master_table=request.master_table,
                     custom_master_table=request.custom_master_table)  # fmt: skip


class ParalysisOdds(Model):
    paralyzed: list[OutcomeProbability]
    rounds: list[OutcomeProbability]
    hit: list[OutcomeProbability]


def paralyzing_touch_odds(request: ParalyzingInput) -> ParalysisOdds:
    attack = colour_distribution(power_master(request, request.melee))
    resist = colour_distribution(power_master(_resist(request), request.target_fortitude))
    paralyzed = attack.then(
        lambda c: (
            resist.map(lambda r: not PARALYSIS[r].success)
            if TOUCH[c].success
            else Distribution({False: 1})
        )
    )
    rounds = paralyzed.map(lambda p: tenth(request.rv) if p else 0)
    hit = attack.map(lambda c: TOUCH[c].success)
    return ParalysisOdds(
        paralyzed=outcome_table(paralyzed, [True, False]),
        rounds=outcome_table(rounds),
        hit=outcome_table(hit, [True, False]),
    )


def paralyzing_touch_cost(request: object) -> Estimate:
    """The attack and the resist roll (`table_cost` each), the resist after each of the
    attack's four colours, and the tables: the same for every request."""
    return Estimate(7 * table_cost(request).states, ())


@operation(
    name="power/paralyzing-touch",
    kind=Kind.CHECK,
    covers=("4c.power.paralyzing_touch",),
    odds=paralyzing_touch_odds,
    cost=paralyzing_touch_cost,
    example={"rv": 30, "melee": 20, "target_fortitude": 10, "dice": {"values": [7, 2, 1, 4]}},
)
def paralyzing_touch(request: ParalyzingInput, dice: Dice) -> Paralysis:
    """A melee attack that must hit (red or better, read as bashing) and deals no damage;
    the target then rolls Fortitude, and on black is paralyzed, knocked down and
    unconscious, for a tenth of the Rank Value in rounds, rounded up (C:L760-762)."""
    attack = roll_power(request, request.melee, TOUCH, dice, "touch d%")
    if not attack.success:
        return Paralysis(attack=attack, resist=None, paralyzed=False, rounds=0)
    resist = roll_power(_resist(request), request.target_fortitude, PARALYSIS, dice,
                        "Fortitude d%")  # fmt: skip
    paralyzed = not resist.success
    return Paralysis(attack=attack, resist=resist, paralyzed=paralyzed,
                     rounds=tenth(request.rv) if paralyzed else 0)  # fmt: skip


# Phasing (C:L766) and Physical Metamorphosis (C:L768-786)


class PhasingInput(Model):
    rv: RankValue = Field(description="Phasing's Rank Value.")
    phased: bool = Field(default=True, description="The character is insubstantial now.")
    damage: Points | None = Field(default=None, description="An attack's damage, if any.")


class Armored(Model):
    armor: int = Field(description="Armor Rank Value: damage above it gets through.")
    damage_taken: int | None = Field(description="What the attack's damage leaves.")


def _through(damage: int | None, armor: int) -> int | None:
    return None if damage is None else max(damage - armor, 0)


@operation(
    name="power/phasing",
    kind=Kind.CALCULATION,
    covers=("4c.power.phasing",),
    example={"rv": 30, "damage": 40},
)
def phasing(request: PhasingInput) -> Armored:
    """Turn insubstantial and pass through objects, with armor at the power's Rank Value
    (C:L764-766), while phased (catalogue 3.6)."""
    armor = request.rv if request.phased else 0
    return Armored(armor=armor, damage_taken=_through(request.damage, armor))


class MetamorphosisForm(StrEnum):
    ENERGY = "energy"
    FIRE = "fire"
    METAL = "metal"
    WATER = "water"


#: What each form can do (C:L774-786).
FORM_ABILITIES: dict[MetamorphosisForm, tuple[str, ...]] = {
    MetamorphosisForm.ENERGY: (
        "pure energy of a chosen kind (electricity, light, radiation, ...)",
        "electricity: jump into power lines and travel through them",
        "light: move at the speed of light",
        "radiation: cause radiation burns and sickness",
    ),
    MetamorphosisForm.FIRE: ("pure fire: sets things on fire",),
    MetamorphosisForm.METAL: (
        "pure metal of the player's choice: Brawn becomes the greater of the power and Brawn +10",
    ),
    MetamorphosisForm.WATER: ("pure water: flows through cracks and other small spaces",),
}


class MetamorphosisInput(Model):
    rv: RankValue = Field(description="Physical Metamorphosis' Rank Value.")
    form: MetamorphosisForm
    brawn: RankValue
    transformed: bool = Field(default=True, description="The character is metamorphosed now.")
    power_damage: bool = Field(
        default=False,
        description="The GM approves the power's Rank Value as attack damage (fists of "
        "steel, igniting things).",
    )
    damage: Points | None = Field(default=None, description="An attack's damage, if any.")


class Metamorphosis(Armored):
    brawn: int = Field(description="Brawn now: Metal's greater of the power and Brawn +10.")
    attack_damage: int | None = Field(description="The power's Rank Value, when approved.")
    abilities: list[str]


@operation(
    name="power/physical-metamorphosis",
    kind=Kind.CALCULATION,
    covers=("4c.power.physical_metamorphosis",),
    example={"rv": 40, "form": "metal", "brawn": 20, "damage": 50},
)
def physical_metamorphosis(request: MetamorphosisInput) -> Metamorphosis:
    """Change at will into energy, fire, metal or water, with the material's traits and armor
    at the power's Rank Value; as metal, Brawn becomes the greater of the power and Brawn
    +10; with the GM's approval the power's Rank Value is the attack's damage
    (C:L768-786)."""
    if not request.transformed:
        return Metamorphosis(armor=0, damage_taken=request.damage, brawn=request.brawn,
                             attack_damage=None, abilities=[])  # fmt: skip
    brawn = request.brawn
    if request.form is MetamorphosisForm.METAL:
        brawn = max(request.rv, request.brawn + 10)
    return Metamorphosis(
        armor=request.rv,
        damage_taken=_through(request.damage, request.rv),
        brawn=brawn,
        attack_damage=request.rv if request.power_damage else None,
        abilities=list(FORM_ABILITIES[request.form]),
    )


# Regeneration (C:L802)


class RegenerationInput(Model):
    rv: RankValue = Field(description="Regeneration's Rank Value.")
    damage_points: Points = Field(description="Damage points now.")
    maximum: Points = Field(description="The Damage maximum (C:L240).")
    options: PhysiqueOptions = Field(default=PhysiqueOptions())


class Regenerated(Model):
    damage_points: int
    healed: int


@operation(
    name="power/regeneration",
    kind=Kind.CALCULATION,
    covers=("4c.power.regeneration",),
    example={"rv": 20, "damage_points": 45, "maximum": 60},
)
def regeneration(request: RegenerationInput) -> Regenerated:
    """Once a turn, instead of another action, recover Damage points equal to the Rank Value
    (C:L800-802), up to the maximum (A-55)."""
    if request.damage_points > request.maximum:
        raise InputError(("damage_points",), "Damage points cannot exceed their maximum")
    healed = request.damage_points + request.rv
    if request.options.regeneration_cap:
        healed = min(healed, request.maximum)
    return Regenerated(damage_points=healed, healed=healed - request.damage_points)


# Trait Boost (C:L902) and Trait Increase (C:L906)


class TraitBoostInput(Model):
    rv: RankValue = Field(description="Trait Boost's Rank Value.")
    trait: PrimaryTrait = Field(description="The trait chosen when the power was acquired.")
    trait_rv: RankValue = Field(description="The trait's normal Rank Value.")
    options: CoreOptions = Field(default=CoreOptions())


class TraitBoost(Model):
    trait: PrimaryTrait
    boosted_rv: int
    boost_turns: int = Field(description="A tenth of the boosted value, rounded up.")
    after_rv: int = Field(description="Half the normal value, rounded up, after the boost.")
    after_turns: int = Field(description="1d10 turns at the lowered value (A-26).")


class TraitBoostOdds(Model):
    after_turns: list[OutcomeProbability]
    mean_after_turns: Exact


def _after(options: CoreOptions) -> NdxInput:
    """'1d10 turns' (C:L902) is written as dice, not a span: one d10 whatever `range_dice`
    says (A-25), its 0 face as `d10_zero_is_ten` reads it (A-26)."""
    return written_dice(1, 0, options)


def trait_boost_odds(request: TraitBoostInput) -> TraitBoostOdds:
    found = ndx_distribution(_after(request.options))
    return TraitBoostOdds(after_turns=outcome_table(found), mean_after_turns=exact(found.mean()))


def trait_boost_cost(request: object) -> Estimate:
    """One d10 and its table: the same for every request."""
    return Estimate(100, ())


@operation(
    name="power/trait-boost",
    kind=Kind.CHECK,
    covers=("4c.power.trait_boost",),
    odds=trait_boost_odds,
    cost=trait_boost_cost,
    example={"rv": 20, "trait": "brawn", "trait_rv": 30, "dice": {"values": [6]}},
)
def trait_boost(request: TraitBoostInput, dice: Dice) -> TraitBoost:
    """Once each game hour, automatically: the chosen trait gains the power's Rank Value for
    a tenth of the boosted value in turns (rounded up), then falls to half its normal value
    (rounded up) for 1d10 turns (C:L900-902). Brawn 30 with Trait Boost 20: 50 for 5 turns,
    then 15 for 1d10 turns (catalogue T13)."""
    boosted = request.trait_rv + request.rv
    after = roll_ndx(_after(request.options), dice, "after-effect turns").total
    return TraitBoost(trait=request.trait, boosted_rv=boosted, boost_turns=tenth(boosted),
                      after_rv=(request.trait_rv + 1) // 2, after_turns=after)  # fmt: skip


class Raised(Model):
    trait: PrimaryTrait
    rv: RankValue = Field(description="Its Rank Value before the increase.")


class TraitIncreaseInput(Model):
    traits: Annotated[tuple[Raised, ...], Field(min_length=2, max_length=2)] = Field(
        description="The two primary traits chosen."
    )
    times_rolled: Annotated[int, Field(ge=1, le=2)] = Field(
        default=1, description="Rolled twice: +20 each instead of +15 (C:L906, A-09)."
    )
    options: PhysiqueOptions = Field(default=PhysiqueOptions())


class Increased(Model):
    trait: PrimaryTrait
    rv: int = Field(description="Its Rank Value after the increase.")


class TraitIncrease(Model):
    bonus: int
    traits: list[Increased] = Field(description="The two traits with their new Rank Values.")
    damage_max_change: int = Field(description="Added to the Damage maximum (A-35).")
    fortune_change: int = Field(description="Added to Fortune (A-35: none by default).")


@operation(
    name="power/trait-increase",
    kind=Kind.CALCULATION,
    covers=("4c.power.trait_increase",),
    example={"traits": [{"trait": "brawn", "rv": 30}, {"trait": "intellect", "rv": 10}]},
)
def trait_increase(request: TraitIncreaseInput) -> TraitIncrease:
    """Not exactly a power: two primary traits of the player's choice rise by +15 each, or
    by +20 each if it was rolled twice (C:L904-906); a permanent change, so the Damage
    maximum follows Melee, Coordination, Brawn and Fortitude (A-35)."""
    if request.traits[0].trait is request.traits[1].trait:
        raise InputError(("traits", 1, "trait"), "Trait Increase raises two different traits")
    bonus = 20 if request.times_rolled == 2 else 15
    raised = [Increased(trait=t.trait, rv=t.rv + bonus) for t in request.traits]
    chosen = [t.trait for t in request.traits]
    damage = bonus * sum(t in DAMAGE_TRAITS for t in chosen)
    fortune = bonus * sum(t in FORTUNE_TRAITS for t in chosen)
    options = request.options
    return TraitIncrease(
        bonus=bonus,
        traits=raised,
        damage_max_change=damage if options.recompute_damage_max_on_permanent_change else 0,
        fortune_change=fortune if options.recompute_fortune else 0,
    )
