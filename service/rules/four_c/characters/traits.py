"""A 4C character's traits: the seven primary traits rolled on the Rank Value table
(C:L216-230) and the four secondary traits, Damage and Fortune summed from them (C:L236-246),
Lifestyle and Repute rolled (C:L248-258). Each roll may be given an advanced origin, whose
changes it then applies (C:L166-178)."""

from collections.abc import Iterable
from typing import Annotated

from pydantic import Field, field_validator

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.characters.options import LifestyleOptions, LifestyleTable
from service.rules.four_c.characters.origins import (
    lifestyle_after,
    repute_after,
    table_cost,
    trait_after,
)
from service.rules.four_c.characters.percent import on_table, roll_on
from service.rules.four_c.characters.tables import (
    DAMAGE_TRAITS,
    FORTUNE_TRAITS,
    TRAIT_RANKS,
    Origin,
    PrimaryTrait,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "RANK",
    "rank_roll",
    "repute_of",
    "roll_lifestyle",
    "roll_repute",
    "trait_distribution",
]

#: One roll on the Rank Value table: 1, 3, 6, 10, 20, 30, 40 or 50 (C:L220-230).
RANK = on_table(TRAIT_RANKS, lambda row: row.rv)
#: Origin changes, capped by a parent's traits, summed over four traits: at most this many.
SUM_STATES = 4 * 200 * 8 * 6 + 1000


def rank_roll(dice: Dice, purpose: str) -> tuple[int, int]:
    """d% on the Rank Value table: 00-04 1, 05-09 3, 10-19 6, 20-39 10, 40-59 20, 60-79 30,
    80-95 40, 96-99 50 (C:L220-230); the same table gives powers theirs (C:L454-468)."""
    roll, row = roll_on(TRAIT_RANKS, dice, purpose)
    return roll, row.rv


def trait_distribution(
    trait: PrimaryTrait, origin: Origin | None, chosen: PrimaryTrait, cap: int | None = None
) -> Distribution[int]:
    """A primary trait rolled, changed by its origin, and held to `cap` (an Alter-Ego's 30,
    a Sidekick's parent)."""
    found = RANK.map(lambda rv: trait_after(origin, trait, rv, chosen))
    return found if cap is None else found.map(lambda rv: min(rv, cap))


class OriginChoice(Model):
    origin: Origin | None = Field(
        default=None, description="An advanced origin whose changes apply (C:L166-178)."
    )
    changed_human_trait: PrimaryTrait = Field(
        default=PrimaryTrait.MELEE, description="The trait a Changed Human raises (C:L176)."
    )


class TraitsInput(OriginChoice):
    traits: Annotated[tuple[PrimaryTrait, ...], Field(min_length=1, max_length=7)] = Field(
        default=tuple(PrimaryTrait), description="The traits to roll, in order; each once."
    )

    @field_validator("traits")
    @classmethod
    def _each_once(cls, traits: tuple[PrimaryTrait, ...]) -> tuple[PrimaryTrait, ...]:
        """Each primary trait is rolled once (C:L218); the error names `traits`."""
        if len(set(traits)) != len(traits):
            raise ValueError("each trait may be rolled once")
        return traits


class TraitRolled(Model):
    trait: PrimaryTrait
    roll: int
    rolled: int = Field(description="The table's Rank Value.")
    rv: int = Field(description="After the origin's change.")


class TraitsRolled(Model):
    traits: list[TraitRolled]


class TraitOdds(Model):
    trait: PrimaryTrait
    rv: list[OutcomeProbability]
    mean: Exact


class TraitsOdds(Model):
    rolled: list[OutcomeProbability] = Field(description="One roll on the table.")
    traits: list[TraitOdds]


def traits_odds(request: TraitsInput) -> TraitsOdds:
    """One roll: 1 and 3 5% each, 6 10%, 10, 20 and 30 20% each, 40 16%, 50 4%; mean 21.2
    (catalogue 5.2), and each trait after its origin's change."""
    each = [
        (t, trait_distribution(t, request.origin, request.changed_human_trait))
        for t in request.traits
    ]
    return TraitsOdds(
        rolled=outcome_table(RANK),
        traits=[TraitOdds(trait=t, rv=outcome_table(d), mean=exact(d.mean())) for t, d in each],
    )


@operation(
    name="traits/roll",
    kind=Kind.GENERATION,
    covers=("4c.traits.roll",),
    odds=traits_odds,
    cost=lambda request: Estimate(7 * 3 * 16 + 200, ()),
    example={"traits": ["melee", "brawn"], "dice": {"values": [10, 10, 1, 9]}},
)
def traits_roll(request: TraitsInput, dice: Dice) -> TraitsRolled:
    """Roll d% once for each primary trait on the Rank Value table (C:L216-230): 00 gives 1,
    19 gives 6, 59 gives 20, 96 gives 50."""
    rolled = []
    for trait in request.traits:
        roll, rv = rank_roll(dice, trait.value)
        after = trait_after(request.origin, trait, rv, request.changed_human_trait)
        rolled.append(TraitRolled(trait=trait, roll=roll, rolled=rv, rv=after))
    return TraitsRolled(traits=rolled)


# Damage and Fortune


class SecondaryTrait(Model):
    trait: PrimaryTrait
    rv: int
    rolled: bool = Field(description="Not given, so rolled on the Rank Value table.")


class Secondary(Model):
    traits: list[SecondaryTrait]


class DamageInput(OriginChoice):
    melee: RankValue | None = Field(default=None, description="Null: rolled.")
    coordination: RankValue | None = None
    brawn: RankValue | None = None
    fortitude: RankValue | None = None


class FortuneInput(OriginChoice):
    intellect: RankValue | None = Field(default=None, description="Null: rolled.")
    awareness: RankValue | None = None
    willpower: RankValue | None = None


class DamageOutcome(Secondary):
    damage: int = Field(description="Damage points: the starting, and maximum, value.")


class FortuneOutcome(Secondary):
    fortune: int = Field(description="Starting Fortune.")


def _summed(
    request: OriginChoice, traits: Iterable[PrimaryTrait], dice: Dice
) -> list[SecondaryTrait]:
    found = []
    for trait in traits:
        given: int | None = getattr(request, trait.value)
        rv = given if given is not None else rank_roll(dice, trait.value)[1]
        after = trait_after(request.origin, trait, rv, request.changed_human_trait)
        found.append(SecondaryTrait(trait=trait, rv=after, rolled=given is None))
    return found


def sum_distribution(request: OriginChoice, traits: Iterable[PrimaryTrait]) -> Distribution[int]:
    """The sum of the traits, each given or rolled: a convolution of independent rolls
    (catalogue appendix B)."""
    total = Distribution({0: 1})
    for trait in traits:
        given: int | None = getattr(request, trait.value)
        chosen = request.changed_human_trait
        one = (
            Distribution({trait_after(request.origin, trait, given, chosen): 1})
            if given is not None
            else trait_distribution(trait, request.origin, chosen)
        )
        total = total + one
    return total


class DamageOdds(Model):
    damage: list[OutcomeProbability]
    mean: Exact


class FortuneOdds(Model):
    fortune: list[OutcomeProbability]
    mean: Exact


def damage_odds(request: DamageInput) -> DamageOdds:
    """With no trait given, appendix B.1: mean 84.8, 100 the likeliest (6.5664%)."""
    found = sum_distribution(request, DAMAGE_TRAITS)
    return DamageOdds(damage=outcome_table(found), mean=exact(found.mean()))


def fortune_odds(request: FortuneInput) -> FortuneOdds:
    """With no trait given, appendix B.2: mean 63.6, 70 and 80 the likeliest (9.12%)."""
    found = sum_distribution(request, FORTUNE_TRAITS)
    return FortuneOdds(fortune=outcome_table(found), mean=exact(found.mean()))


def sum_cost(request: object) -> Estimate:
    """Four traits convolved, each at most 8 values against at most 200 sums so far."""
    return Estimate(SUM_STATES, ())


@operation(
    name="traits/secondary/damage",
    kind=Kind.CALCULATION,
    covers=("4c.traits.secondary.damage",),
    odds=damage_odds,
    cost=sum_cost,
    example={"melee": 30, "coordination": 20, "brawn": 40, "dice": {"values": [1, 5]}},
)
def secondary_damage(request: DamageInput, dice: Dice) -> DamageOutcome:
    """Damage starts at Melee + Coordination + Brawn + Fortitude (C:L236-240), a score, not
    a Rank Value: M30 C20 B40 F10 is 100 (T6), 140 as a Robot (T7). A trait not given is
    rolled, so the odds of none given are appendix B.1."""
    traits = _summed(request, DAMAGE_TRAITS, dice)
    return DamageOutcome(traits=traits, damage=sum(t.rv for t in traits))


@operation(
    name="traits/secondary/fortune",
    kind=Kind.CALCULATION,
    covers=("4c.traits.secondary.fortune",),
    odds=fortune_odds,
    cost=sum_cost,
    example={"intellect": 6, "awareness": 20, "dice": {"values": [10, 7]}},
)
def secondary_fortune(request: FortuneInput, dice: Dice) -> FortuneOutcome:
    """Fortune starts at Intellect + Awareness + Willpower (C:L242-246): I6 A20 W3 is 29
    (T6), 59 as a Robot (T7). A trait not given is rolled (appendix B.2)."""
    traits = _summed(request, FORTUNE_TRAITS, dice)
    return FortuneOutcome(traits=traits, fortune=sum(t.rv for t in traits))


# Lifestyle and Repute


class LifestyleInput(Model):
    origin: Origin | None = Field(default=None, description="An advanced origin (C:L177-178).")
    lifestyle: RankValue | None = Field(
        default=None, description="The GM's choice, with lifestyle_table=manual (A-05)."
    )
    options: LifestyleOptions = Field(default=LifestyleOptions())


class LifestyleRolled(Model):
    roll: int | None = Field(description="Null when the GM chose it (A-05).")
    rolled: int
    lifestyle: int = Field(description="The Lifestyle Rank Value, after the origin.")


def gm_lifestyle(request: LifestyleInput) -> int | None:
    """The Lifestyle the GM chose, with lifestyle_table=manual (A-05), or None when it is
    rolled on a table; a choice given where the table rolls would be ignored, so it is
    refused, as is manual without one."""
    manual = request.options.lifestyle_table is LifestyleTable.MANUAL
    if manual and request.lifestyle is None:
        raise InputError(("lifestyle",), "with lifestyle_table=manual the GM gives it")
    if not manual and request.lifestyle is not None:
        raise InputError(("lifestyle",), "the GM gives it only with lifestyle_table=manual")
    return request.lifestyle


def roll_lifestyle(
    request: LifestyleInput, dice: Dice, purpose: str = "lifestyle"
) -> LifestyleRolled:
    chosen = gm_lifestyle(request)
    if chosen is not None:
        return LifestyleRolled(
            roll=None, rolled=chosen, lifestyle=lifestyle_after(request.origin, chosen)
        )
    roll, rv = rank_roll(dice, purpose)
    return LifestyleRolled(roll=roll, rolled=rv, lifestyle=lifestyle_after(request.origin, rv))


def lifestyle_distribution(request: LifestyleInput) -> Distribution[int]:
    chosen = gm_lifestyle(request)
    if chosen is not None:
        return Distribution({lifestyle_after(request.origin, chosen): 1})
    return RANK.map(lambda rv: lifestyle_after(request.origin, rv))


class LifestyleOdds(Model):
    lifestyle: list[OutcomeProbability]
    mean: Exact


def lifestyle_odds(request: LifestyleInput) -> LifestyleOdds:
    """The Rank Value table (mean 21.2); a Mutant's max(1, L - 10), mean 12.8; a
    Technologically Enhanced's L + 20, mean 41.2 (catalogue 5.2)."""
    found = lifestyle_distribution(request)
    return LifestyleOdds(lifestyle=outcome_table(found), mean=exact(found.mean()))


@operation(
    name="traits/secondary/lifestyle/roll",
    kind=Kind.GENERATION,
    covers=("4c.traits.secondary.lifestyle.roll",),
    odds=lifestyle_odds,
    cost=table_cost,
    example={"origin": "mutant", "dice": {"values": [3, 2]}},
)
def lifestyle_roll(request: LifestyleInput, dice: Dice) -> LifestyleRolled:
    """Lifestyle is a Rank Value rolled once on 'Table 1' (C:L248-252), the Rank Value table
    (A-05). A Mutant's is 10 less, at least 1 (C:L177): 6 becomes 1 (T8)."""
    return roll_lifestyle(request, dice)


class ReputeInput(Model):
    origin: Origin | None = Field(default=None, description="An advanced origin (C:L173-177).")


class ReputeRolled(Model):
    roll: int
    rolled: int
    repute: int = Field(description="A score, not a Rank Value (C:L256), after the origin.")


def repute_of(roll: int) -> int:
    """d% divided by 3, rounded up (C:L258): 00 is 0, 97-99 are 33."""
    return -(-roll // 3)


def roll_repute(origin: Origin | None, dice: Dice, purpose: str = "repute") -> ReputeRolled:
    roll, _ = roll_on(TRAIT_RANKS, dice, purpose)
    return ReputeRolled(
        roll=roll, rolled=repute_of(roll), repute=repute_after(origin, repute_of(roll))
    )


def repute_distribution(origin: Origin | None) -> Distribution[int]:
    return Distribution((repute_after(origin, repute_of(r)), 1) for r in range(100))


class ReputeOdds(Model):
    repute: list[OutcomeProbability]
    mean: Exact


def repute_odds(request: ReputeInput) -> ReputeOdds:
    """0 1%, each of 1 to 33 3%; mean 16.83 (catalogue 5.2); a Robot's or Mutant's 0."""
    found = repute_distribution(request.origin)
    return ReputeOdds(repute=outcome_table(found), mean=exact(found.mean()))


@operation(
    name="traits/secondary/repute/roll",
    kind=Kind.GENERATION,
    covers=("4c.traits.secondary.repute.roll",),
    odds=repute_odds,
    cost=table_cost,
    example={"dice": {"values": [5, 10]}},
)
def repute_roll(request: ReputeInput, dice: Dice) -> ReputeRolled:
    """Repute: roll d% and divide by 3, rounding up (C:L254-258); 50 gives 17 (T2). Robots
    and Mutants have 0 (C:L173, C:L177)."""
    return roll_repute(request.origin, dice)
