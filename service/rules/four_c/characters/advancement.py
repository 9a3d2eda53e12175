"""Spending Fortune to advance a 4C character (C:L1513-1525): a Rank Value raised by one
for its current value, a new power for 1,000 with its Rank Value rolled, a new skill for
250. Every rule a request breaks is reported at once, by field."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.characters.options import AdvancementOptions, NewPowerSelection
from service.rules.four_c.characters.origins import TABLE_STATES
from service.rules.four_c.characters.percent import on_table, roll_on
from service.rules.four_c.characters.powers import TABLES, PowerTable, matched_element_bonus
from service.rules.four_c.characters.tables import (
    DAMAGE_TRAITS,
    FORTUNE_TRAITS,
    PowerName,
    PrimaryTrait,
)
from service.rules.four_c.characters.traits import RANK, rank_roll
from service.rules.four_c.core.ranks import RankValue
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation

__all__ = ["NEW_POWER", "NEW_SKILL", "raise_cost"]

#: A new power costs 1,000 Fortune (C:L1523), a new skill 250 (C:L1525).
NEW_POWER = 1000
NEW_SKILL = 250
Fortune = Annotated[int, Field(ge=0, le=10_000_000)]


def _fail(errors: list[InputError]) -> None:
    if errors:
        raise errors[0] if len(errors) == 1 else Violations(errors)


def raise_cost(current: int, target: int, zero_step: int = 1) -> int:
    """Each +1 costs the current value (C:L1517, C:L1521): from a to b, a + (a+1) + ... +
    (b-1) = (b-a)(a+b-1)/2; a step from 0 costs `zero_step` (A-41)."""
    return (target - current) * (current + target - 1) // 2 + (zero_step if current == 0 else 0)


class Advanced(StrEnum):
    PRIMARY_TRAIT = "primary_trait"
    POWER = "power"
    LIFESTYLE = "lifestyle"
    DAMAGE = "damage"
    FORTUNE = "fortune"
    REPUTE = "repute"


class RaiseInput(Model):
    what: Advanced = Advanced.PRIMARY_TRAIT
    trait: PrimaryTrait | None = Field(default=None, description="Which, for a primary trait.")
    current: RankValue
    target: RankValue
    fortune: Fortune
    damage_max: Annotated[int, Field(ge=0, le=1_000_000)] | None = Field(
        default=None, description="The Damage maximum, to raise with the trait (A-35)."
    )
    options: AdvancementOptions = Field(default=AdvancementOptions())


class Raised(Model):
    rv: int
    cost: int
    fortune: int = Field(description="Fortune left.")
    damage_max: int | None


@operation(
    name="advancement/raise-rank",
    kind=Kind.CALCULATION,
    covers=("4c.advancement.raise_rank",),
    example={"trait": "melee", "current": 30, "target": 31, "fortune": 40},
)
def raise_rank(request: RaiseInput) -> Raised:
    """Raising a trait's or power's Rank Value by one costs Fortune equal to its current
    value (C:L1513-1521): Joseph's Melee 30 to 31 costs 30 (E10, C:L1519); 30 to 40, 345
    (T14). Damage, Fortune and Repute are scores, not bought (A-41)."""
    errors = []
    options = request.options
    allowed = {Advanced.PRIMARY_TRAIT, Advanced.POWER} | (
        {Advanced.LIFESTYLE} if options.advance_lifestyle else set()
    )
    if request.what not in allowed:
        errors.append(
            InputError(
                ("what",),
                f"{request.what.value} cannot be raised with "
                f"Fortune; allowed: {sorted(a.value for a in allowed)}",
            )
        )
    if request.what is Advanced.PRIMARY_TRAIT and request.trait is None:
        errors.append(InputError(("trait",), "name the primary trait raised"))
    if request.target <= request.current:
        errors.append(InputError(("target",), f"must be above the current {request.current}"))
    cost = raise_cost(
        request.current, max(request.target, request.current), options.rv_zero_step_cost
    )
    if request.target > request.current and cost > request.fortune:
        errors.append(
            InputError(
                ("fortune",),
                f"{request.current} to {request.target} costs "
                f"{cost}; only {request.fortune} Fortune",
            )
        )
    _fail(errors)
    gained = request.target - request.current
    # Only a primary trait is summed into Damage or Fortune (C:L240, C:L246): a power or
    # Lifestyle raised changes neither, whatever `trait` says.
    trait = request.trait if request.what is Advanced.PRIMARY_TRAIT else None
    damage = request.damage_max
    if (
        damage is not None
        and options.recompute_damage_max_on_permanent_change
        and trait in DAMAGE_TRAITS
    ):
        damage += gained
    left = request.fortune - cost
    if options.recompute_fortune and trait in FORTUNE_TRAITS:
        left += gained
    return Raised(rv=request.target, cost=cost, fortune=left, damage_max=damage)


class NewPowerInput(Model):
    fortune: Fortune
    power: PowerName | None = Field(default=None, description="The power chosen (A-41).")
    held: tuple[PowerName, ...] = Field(default=(), max_length=12)
    ee_same_element: bool = Field(
        default=True,
        description="A new E/E Control or E/E Generation, the other held, is of the other's "
        "element or energy type: +10 to both (C:L612); false: a different type.",
    )
    explanation: Annotated[str, Field(max_length=200)] = Field(
        default="", description="The in-game reason the text asks for (C:L1523)."
    )
    options: AdvancementOptions = Field(default=AdvancementOptions())


class NewPower(Model):
    power: PowerName
    selection_roll: int | None
    rank_roll: int
    rv: int
    cost: int
    fortune: int = Field(description="Fortune left.")
    duplicate: bool = Field(description="A rolled power already held (C:L390).")
    matched_element: int = Field(
        description="+10 in rv, and to the E/E power already held, for E/E Control and "
        "Generation of one type (C:L612); else 0."
    )


def _new_power_errors(request: NewPowerInput) -> list[InputError]:
    """What forbids the purchase: less than 1,000 Fortune (C:L1523); a chosen power not
    named or already held, or a rolled one named (A-41); Magic held, or bought beside other
    powers, Magic being "the sole power the character may have" (C:L726)."""
    errors = []
    if request.fortune < NEW_POWER:
        errors.append(
            InputError(
                ("fortune",), f"a new power costs {NEW_POWER} Fortune; only {request.fortune}"
            )
        )
    choosing = request.options.new_power_selection is NewPowerSelection.CHOOSE
    if choosing and request.power is None:
        errors.append(InputError(("power",), "name the power chosen (new_power_selection=choose)"))
    if choosing and request.power is not None and request.power in request.held:
        errors.append(InputError(("power",), f"{request.power.value} is already held"))
    if not choosing and request.power is not None:
        errors.append(InputError(("power",), "the power is rolled: give none"))
    if PowerName.MAGIC in request.held:
        errors.append(InputError(("held",), "Magic is the sole power its holder may have (C:L726)"))
    elif request.power is PowerName.MAGIC and request.held:
        errors.append(
            InputError(("power",), "Magic is the sole power its holder may have (C:L726)")
        )
    return errors


def _table(request: NewPowerInput) -> PowerTable | None:
    return {
        NewPowerSelection.ROLL_BASIC: PowerTable.BASIC,
        NewPowerSelection.ROLL_ADVANCED: PowerTable.ADVANCED,
    }.get(request.options.new_power_selection)


class NewPowerOdds(Model):
    power: list[OutcomeProbability]
    rv: list[OutcomeProbability]


def new_power_odds(request: NewPowerInput) -> NewPowerOdds:
    _fail(_new_power_errors(request))
    table = _table(request)
    chosen = request.power.value if request.power is not None else ""
    power = (
        on_table(TABLES[table], lambda r: r.power.value)
        if table is not None
        else Distribution({chosen: 1})
    )
    held = frozenset(request.held)

    def rv(name: str) -> Distribution[int]:
        bonus = matched_element_bonus(PowerName(name), held, request.ee_same_element)
        return RANK.map(lambda value: value + bonus)

    return NewPowerOdds(power=outcome_table(power), rv=outcome_table(power.then(rv)))


def new_power_cost(request: object) -> Estimate:
    """The power table, and for each of its rows (at most a hundred) the rank table's eight
    Rank Values, read once and merged (+10 for a matching E/E power, C:L612)."""
    return Estimate(TABLE_STATES + 2 * 100 * 8, ())


@operation(
    name="advancement/new-power",
    kind=Kind.GENERATION,
    covers=("4c.advancement.new_power",),
    odds=new_power_odds,
    cost=new_power_cost,
    example={"fortune": 1200, "power": "flight", "dice": {"values": [4, 2]}},
)
def new_power(request: NewPowerInput, dice: Dice) -> NewPower:
    """A new power for 1,000 Fortune, its Rank Value rolled on the power rank table, with
    an in-game explanation (C:L1523); chosen with the GM's approval or rolled (A-41). E/E
    Control gained with E/E Generation held, or the reverse, of one type: +10 to both (C:L612)."""
    _fail(_new_power_errors(request))
    table = _table(request)
    selection: int | None = None
    if table is not None:
        selection, row = roll_on(TABLES[table], dice, "new power selection")
        power = row.power
    else:
        assert request.power is not None
        power = request.power
    rank, rv = rank_roll(dice, f"{power.value} rank")
    bonus = matched_element_bonus(power, frozenset(request.held), request.ee_same_element)
    return NewPower(
        power=power,
        selection_roll=selection,
        rank_roll=rank,
        rv=rv + bonus,
        cost=NEW_POWER,
        fortune=request.fortune - NEW_POWER,
        duplicate=power in request.held,
        matched_element=bonus,
    )


class NewSkillInput(Model):
    fortune: Fortune
    skill: Annotated[str, Field(min_length=1, max_length=60)]
    explanation: Annotated[str, Field(max_length=200)] = Field(
        default="", description="The in-game reason (night school, C:L1525)."
    )


class NewSkill(Model):
    skill: str
    cost: int
    fortune: int = Field(description="Fortune left.")


@operation(
    name="advancement/new-skill",
    kind=Kind.CALCULATION,
    covers=("4c.advancement.new_skill",),
    example={"fortune": 300, "skill": "Investigation", "explanation": "night school"},
)
def new_skill(request: NewSkillInput) -> NewSkill:
    """A new skill for 250 Fortune, with an in-game reason (C:L1525)."""
    if request.fortune < NEW_SKILL:
        raise InputError(
            ("fortune",), f"a new skill costs {NEW_SKILL} Fortune; only {request.fortune}"
        )
    return NewSkill(skill=request.skill, cost=NEW_SKILL, fortune=request.fortune - NEW_SKILL)
