"""Where a 4C character's powers come from: the origin roll (C:L143-164) and, with the
advanced rule, what each origin changes in the rolled character (C:L166-178)."""

from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import OutcomeProbability, outcome_table
from service.rules.four_c.characters.percent import on_table, roll_on
from service.rules.four_c.characters.tables import (
    DAMAGE_TRAITS,
    FORTUNE_TRAITS,
    MODIFIERS,
    ORIGINS,
    ModifierRow,
    Origin,
    PowerName,
    PrimaryTrait,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation

__all__ = [
    "Draft",
    "TraitValue",
    "lifestyle_after",
    "loses_a_power",
    "modifier",
    "power_slots_after",
    "repute_after",
    "skills_after",
    "trait_after",
]

#: Table d% odds enumerate the table's rows and write them out: a few hundred states.
TABLE_STATES = 400


def table_cost(request: object) -> Estimate:
    """One d% table: its rows, at most a hundred, and the table of them."""
    return Estimate(TABLE_STATES, ())


def modifier(origin: Origin) -> ModifierRow:
    return next(row for row in MODIFIERS if row.origin is origin)


def trait_after(origin: Origin | None, trait: PrimaryTrait, rv: int, chosen: PrimaryTrait) -> int:
    """Robot and Alien +10 to every primary trait, a Changed Human +10 to the one chosen,
    a Mutant +10 Fortitude, a Technologically Enhanced +20 Intellect (C:L173-178)."""
    if origin is None:
        return rv
    row = modifier(origin)
    raised = row.trait is trait or (origin is Origin.CHANGED_HUMAN and trait is chosen)
    return rv + row.all_traits + (row.trait_bonus if raised else 0)


def lifestyle_after(origin: Origin | None, lifestyle: int) -> int:
    """A Mutant's Lifestyle -10, at least 1; a Technologically Enhanced +20 (C:L177-178)."""
    if origin is None or not modifier(origin).lifestyle:
        return lifestyle
    return max(1, lifestyle + modifier(origin).lifestyle)


def repute_after(origin: Origin | None, repute: int) -> int:
    """Robots and Mutants have Repute 0 (C:L173, C:L177)."""
    return 0 if origin is not None and modifier(origin).repute_to_zero else repute


def skills_after(origin: Origin | None, skills: int) -> int:
    """A Skilled Human gains three bonus skills (C:L175)."""
    return skills + (modifier(origin).skills if origin is not None else 0)


def loses_a_power(origin: Origin | None, held: int) -> bool:
    """An Alien loses one of the powers it holds, keeping at least one (C:L174): rolled as
    usual, repeats settled, then changed for the origin (C:L168)."""
    return origin is Origin.ALIEN and held > 1


def power_slots_after(origin: Origin | None, powers: int, magic: bool) -> int:
    """A Mutant rolls one bonus power and an Alien loses one, keeping at least one
    (C:L174, C:L177); Magic is the only power there can be, so neither applies (A-08)."""
    if origin is None or magic:
        return powers
    return max(1, powers + modifier(origin).powers)


class OriginInput(Model):
    advanced: bool = Field(
        default=False, description="Also give the advanced origin's modifiers (C:L166-178)."
    )


class OriginRolled(Model):
    roll: int
    origin: Origin
    description: str
    modifiers: ModifierRow | None = Field(description="With 'advanced': what it changes.")


class OriginOdds(Model):
    origin: list[OutcomeProbability]


def origin_odds(request: OriginInput) -> OriginOdds:
    """Robot 5%, Alien 5%, Skilled Human 30%, Changed Human 20%, Mutant 20%,
    Technologically Enhanced 20% (catalogue 5.2)."""
    found = on_table(ORIGINS, lambda row: row.origin.value)
    return OriginOdds(origin=outcome_table(found, [o.value for o in Origin]))


@operation(
    name="character/origin/roll",
    kind=Kind.GENERATION,
    covers=("4c.character.origin.roll",),
    odds=origin_odds,
    cost=table_cost,
    example={"advanced": True, "dice": {"values": [6, 5]}},
)
def origin_roll(request: OriginInput, dice: Dice) -> OriginRolled:
    """Roll d% for the character's origin: 00-04 Robot, 05-09 Alien, 10-39 Skilled Human,
    40-59 Changed Human, 60-79 Mutant, 80-99 Technologically Enhanced (C:L143-164). In the
    basic game it is description only."""
    roll, row = roll_on(ORIGINS, dice, "origin")
    modifiers = modifier(row.origin) if request.advanced else None
    return OriginRolled(
        roll=roll, origin=row.origin, description=row.description, modifiers=modifiers
    )


class TraitValue(Model):
    trait: PrimaryTrait
    rv: RankValue


class HeldPower(Model):
    power: PowerName
    rv: RankValue


class Draft(Model):
    """A rolled character before its origin's changes."""

    traits: Annotated[tuple[TraitValue, ...], Field(min_length=7, max_length=7)] = Field(
        description="Each primary trait once."
    )
    lifestyle: RankValue
    repute: Annotated[int, Field(ge=0, le=100_000)]
    skills: Annotated[int, Field(ge=0, le=40)]
    powers: tuple[HeldPower, ...] = Field(default=(), max_length=12)
    magic: bool = Field(default=False, description="The power count rolled Magic (C:L356).")


class ApplyInput(Model):
    origin: Origin
    draft: Draft
    changed_human_trait: PrimaryTrait = Field(
        default=PrimaryTrait.MELEE, description="The trait a Changed Human raises (C:L176)."
    )
    alien_lost_power: PowerName | None = Field(
        default=None,
        description="The power an Alien loses, the player's choice (A-08); none named, the "
        "last power listed.",
    )
    mutant_bonus_power: HeldPower | None = Field(
        default=None,
        description="A Mutant's bonus power, rolled on a selection table and the rank table "
        "(C:L177; powers/select/*, powers/rank/roll).",
    )


class Applied(Model):
    origin: Origin
    traits: list[TraitValue]
    lifestyle: int
    repute: int
    skills: int
    powers: list[HeldPower]
    damage: int = Field(description="Melee + Coordination + Brawn + Fortitude (C:L240).")
    fortune: int = Field(description="Intellect + Awareness + Willpower (C:L246).")
    notes: list[str]


def _holds_magic(draft: Draft) -> bool:
    return draft.magic or any(p.power is PowerName.MAGIC for p in draft.powers)


def _draft_errors(request: ApplyInput) -> list[InputError]:
    """A draft the rules cannot have rolled: a trait missing or twice, a power twice (a
    repeat is raised or rolled again, C:L390), Magic beside another power ("the sole power
    the character may have", C:L726); and an Alien's lost power not held, or a Mutant's
    bonus power missing, already held or given to another (C:L174, C:L177)."""
    draft, errors = request.draft, []
    if {t.trait for t in draft.traits} != set(PrimaryTrait):
        errors.append(InputError(("draft", "traits"), "give each of the seven primary traits once"))
    names = [p.power for p in draft.powers]
    if len(set(names)) != len(names):
        errors.append(
            InputError(
                ("draft", "powers"),
                "a power is listed twice: a repeat "
                "raises its Rank Value or is rolled again (C:L390)",
            )
        )
    if _holds_magic(draft) and any(name is not PowerName.MAGIC for name in names):
        errors.append(
            InputError(("draft", "powers"), "Magic is the sole power its holder may have (C:L726)")
        )
    lost = request.alien_lost_power
    if request.origin is Origin.ALIEN and lost is not None and lost not in names:
        errors.append(InputError(("alien_lost_power",), f"{lost.value} is not in draft.powers"))
    bonus = request.mutant_bonus_power
    mutant = request.origin is Origin.MUTANT and not _holds_magic(draft)
    if mutant and bonus is None:
        errors.append(
            InputError(
                ("mutant_bonus_power",),
                "a Mutant gains one bonus power (C:L177): roll it and give it here",
            )
        )
    if bonus is not None and (not mutant or bonus.power in names):
        errors.append(
            InputError(
                ("mutant_bonus_power",),
                "only a Mutant without Magic gains a bonus power, and one it does not have",
            )
        )
    return errors


@operation(
    name="character/origin/apply-advanced",
    kind=Kind.CALCULATION,
    covers=("4c.character.origin.apply_advanced",),
    example={
        "origin": "robot",
        "draft": {
            "traits": [
                {"trait": t.value, "rv": rv}
                for t, rv in zip(PrimaryTrait, (30, 20, 40, 10, 6, 20, 3), strict=True)
            ],
            "lifestyle": 20,
            "repute": 17,
            "skills": 2,
            "powers": [{"power": "flight", "rv": 30}, {"power": "claws", "rv": 10}],
        },
    },
)
def apply_advanced(request: ApplyInput) -> Applied:
    """Roll traits, powers and skills as usual, then modify them for the origin (C:L168):
    power-list changes first, then the numbers (catalogue 3.3.5 step 6); Damage and Fortune
    derived from the changed traits (A-35). T6 as a Robot: Damage 140, Fortune 59."""
    errors = _draft_errors(request)
    if errors:
        raise errors[0] if len(errors) == 1 else Violations(errors)
    draft, origin, notes = request.draft, request.origin, []
    powers = list(draft.powers)
    if loses_a_power(origin, len(powers)):
        lost = request.alien_lost_power or powers[-1].power
        powers = [p for p in powers if p.power is not lost]
        notes.append(f"Alien: lost {lost.value} (C:L174).")
    if origin in (Origin.ALIEN, Origin.MUTANT) and _holds_magic(draft):
        notes.append("Magic is the only power (C:L726): no power lost or gained (A-08).")
    if request.mutant_bonus_power is not None:
        powers.append(request.mutant_bonus_power)
    traits = [
        TraitValue(
            trait=t.trait, rv=trait_after(origin, t.trait, t.rv, request.changed_human_trait)
        )
        for t in sorted(draft.traits, key=lambda t: list(PrimaryTrait).index(t.trait))
    ]
    value = {t.trait: t.rv for t in traits}
    return Applied(
        origin=origin,
        traits=traits,
        lifestyle=lifestyle_after(origin, draft.lifestyle),
        repute=repute_after(origin, draft.repute),
        skills=skills_after(origin, draft.skills),
        powers=powers,
        damage=sum(value[t] for t in DAMAGE_TRAITS),
        fortune=sum(value[t] for t in FORTUNE_TRAITS),
        notes=notes,
    )
