"""Species and character modifiers (catalogue 3.F, F:L1107-1185): the example species as
background factors with their attribute ranges, custom species priced by feature, the frames
that shift a range, aging, a unique insight and a unique gift."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.foresight.characters.attributes import Allocation, Range
from service.rules.foresight.characters.backgrounds import WORTH
from service.rules.foresight.characters.skills import (
    AttributeValues,
    formula_value,
    maximum,
    skill_row,
)
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.model import InputError, Model, Violations, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "SPECIES",
    "aging",
    "custom_species",
    "species",
    "species_of",
    "unique_gift",
    "unique_insight",
]


class SpeciesRow(Model):
    species: str
    general: int
    education: int
    ds: str = Field(description="Damage scale, exactly: 1 or 4/5.")
    size: str
    ranges: tuple[Range, ...]
    notes: str
    source: str


class FeatureRow(Model):
    feature: str
    cost: int


class AgingRow(Model):
    attribute: Attribute
    chance: str


SPECIES = table(__name__, "species", SpeciesRow)
FEATURES = table(__name__, "species_features", FeatureRow)
AGING = table(__name__, "aging", AgingRow)

Name = Annotated[str, Field(min_length=1, max_length=40)]


def species_row(name: str) -> SpeciesRow:
    found = next((r for r in SPECIES if r.species.casefold() == name.casefold()), None)
    if found is None:
        names = ", ".join(r.species for r in SPECIES)
        raise InputError(("species",), f"the book's species are {names}; others are custom "
                                       "species (species/custom)")  # fmt: skip
    return found


class Modifier(StrEnum):
    ENORMOUS_FRAME = "enormous_frame"
    TINY_FRAME = "tiny_frame"
    ONE_LEGGED = "one_legged"
    ONE_ARMED = "one_armed"


class Shift(Model):
    attribute: Attribute
    points: int


class ModifierRow(Model):
    modifier: Modifier
    ds: str = Field(description="What the damage scale is multiplied by, exactly.")
    shifts: tuple[Shift, ...] = Field(description="Inherent points, the range moving too.")
    notes: str
    source: str


CHARACTER_MODIFIERS = table(__name__, "character_modifiers", ModifierRow)


class ModifierOptions(Model):
    frame_shifts_minimum: bool = option(
        True,
        ambiguity="AMB-31",
        description="'Attribute modifiers affect the base and maximum values' (F:L1112): a "
        "frame shifts the range's minimum as well as its maximum.",
    )


class SpeciesInput(Model):
    species: Name = "Human"
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=4)
    options: ModifierOptions = Field(default=ModifierOptions())


class Species(Model):
    species: str
    general: int
    education: int
    ds: str
    size: str
    ranges: list[Range] = Field(description="Shifted by the frames chosen (F:L1112-1113).")
    notes: list[str]


def _fraction(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


@operation(
    name="species",
    kind=Kind.LOOKUP,
    covers=("foresight.species", "foresight.character_modifiers"),
    example={"species": "Dwarf", "modifiers": ["enormous_frame"]},
)
def species(request: SpeciesInput) -> Species:
    """A species is a background factor with its own attribute ranges, AP 5-12 for all; a
    character has one (F:L1129-1171). The frames shift inherent values and the range with
    them and scale the damage scale; one leg or arm costs its tasks (F:L1107-1119)."""
    return species_of(request)


def species_of(request: SpeciesInput) -> Species:
    row = species_row(request.species)
    if len(set(request.modifiers)) < len(request.modifiers):
        raise InputError(("modifiers",), "each character modifier once")
    if {Modifier.ENORMOUS_FRAME, Modifier.TINY_FRAME} <= set(request.modifiers):
        raise InputError(("modifiers",), "one frame, enormous or tiny")
    shifts: dict[Attribute, int] = {}
    ds = Fraction(row.ds)
    chosen = [m for m in CHARACTER_MODIFIERS if m.modifier in request.modifiers]
    for modifier in chosen:
        ds *= Fraction(modifier.ds)
        for shift in modifier.shifts:
            shifts[shift.attribute] = shifts.get(shift.attribute, 0) + shift.points
    low_moves = request.options.frame_shifts_minimum
    ranges = [r.model_copy(update={"low": r.low + (shifts.get(r.attribute, 0) if low_moves else 0),
                                   "high": r.high + shifts.get(r.attribute, 0)})
              for r in row.ranges]  # fmt: skip
    return Species(species=row.species, general=row.general, education=row.education,
                   ds=_fraction(ds), size=row.size, ranges=ranges,
                   notes=[row.notes, *(m.notes for m in chosen)])  # fmt: skip


class Feature(Model):
    attribute: Attribute
    minimum: Annotated[int, Field(ge=-10, le=10)] = Field(
        default=0, description="Shift of the least."
    )
    maximum: Annotated[int, Field(ge=-10, le=10)] = Field(
        default=0, description="Shift of the most."
    )


class CustomInput(Model):
    features: tuple[Feature, ...] = Field(default=(), max_length=9)
    ds_steps: Annotated[int, Field(ge=-4, le=10)] = Field(
        default=0, description="Steps of 0.2 on the damage scale from 1."
    )
    specials: Annotated[int, Field(ge=-80, le=80)] = Field(
        default=0, description="The GM's price for special abilities (F:L1184)."
    )


class CustomSpecies(Model):
    cost: int
    remaining: int = Field(description="What is left of 80 for general and education points.")
    ds: str
    ranges: list[Range]


def _steps(shift: int) -> int:
    """+10 a step up, -5 a step down (F:L1178-1183)."""
    return 10 * shift if shift > 0 else 5 * shift


@operation(
    name="species/custom",
    kind=Kind.CALCULATION,
    covers=("foresight.species.custom",),
    example={"features": [{"attribute": "ST", "minimum": 2, "maximum": 2}], "ds_steps": 0},
)
def custom_species(request: CustomInput) -> CustomSpecies:
    """A species of one's own is a custom background factor: each step of a range's minimum
    or maximum costs 10 up and gives 5 down, as does each 0.2 of damage scale; the rest of
    the 80 points goes to general and education (F:L1173-1185)."""
    seen = [f.attribute for f in request.features]
    if len(set(seen)) < len(seen):
        raise InputError(("features",), "each attribute once")
    cost = sum(_steps(f.minimum) + _steps(f.maximum) for f in request.features)
    cost += _steps(request.ds_steps) + request.specials
    moved = {f.attribute: f for f in request.features}
    none = Feature(attribute=Attribute.ST)
    ranges = [Range(attribute=a, low=5 + moved.get(a, none).minimum,
                    high=12 + moved.get(a, none).maximum) for a in Attribute]  # fmt: skip
    if any(r.low > r.high or r.low < 1 for r in ranges):
        raise InputError(("features",), "a range's least is 1 or more, and not over its most")
    ds = _fraction(1 + Fraction(request.ds_steps, 5))
    return CustomSpecies(cost=cost, remaining=WORTH - cost, ds=ds, ranges=ranges)


class AgingOptions(Model):
    reduce_trained: bool = option(
        True,
        ambiguity="AMB-30",
        description="Aging lowers the trained value with the inherent one, keeping what "
        "training added; off, only the inherent value falls.",
    )


class AgingInput(Model):
    inherent: Allocation
    trained: AttributeValues = Field(
        default=AttributeValues(), description="Trained values; those not given equal inherent."
    )
    options: AgingOptions = Field(default=AgingOptions())


class Scores(Model):
    """The nine attributes after aging."""

    ST: int
    EN: int
    DX: int
    AG: int
    IN: int
    PC: int
    EM: int
    WP: int
    AP: int


class Aged(Model):
    reduced: list[Attribute]
    reduced_count: int
    inherent: Scores
    trained: Scores
    ds_factor: str = Field(description="The damage scale is multiplied by 9/10.")


def _die(chance: Fraction) -> tuple[int, int]:
    """A die and how many of its faces lose the point: 3 of 4, 1 of 2, 1 of 4."""
    return chance.denominator, chance.numerator


class AgingOdds(Model):
    reduced_count: list[OutcomeProbability]


def aging_odds(request: AgingInput) -> AgingOdds:
    """How many attributes one aging lowers, exactly (catalogue 5.6)."""
    found: Distribution[int] = Distribution({0: 1})
    for row in AGING:
        chance = Fraction(row.chance)
        found = found + Distribution(
            {1: chance.numerator, 0: chance.denominator - chance.numerator}
        )
    return AgingOdds(reduced_count=outcome_table(found))


def aging_cost(request: AgingInput) -> Estimate:
    """Nine two-outcome steps."""
    return Estimate(200, ())


@operation(
    name="character-modifiers/aging",
    kind=Kind.GENERATION,
    covers=("foresight.character_modifiers.aging",),
    odds=aging_odds,
    cost=aging_cost,
    example={"inherent": {"ST": 9, "EN": 9, "DX": 9, "AG": 9, "IN": 9, "PC": 9, "EM": 9,
                          "WP": 9, "AP": 9}, "dice": {"seed": 2}},
)  # fmt: skip
def aging(request: AgingInput, dice: Dice) -> Aged:
    """Aging multiplies the damage scale by 0.9 and lowers each inherent attribute by 1 with
    its chance: ST, EN, DX, AG and AP 75%, PC 50%, IN, EM and WP 25% (F:L1116), its range's
    maximum with it; the trained value falls too (AMB-30). About 5 points an aging."""
    inherent = request.inherent.model_dump()
    given = {a.value: getattr(request.trained, a.value) for a in Attribute}
    trained = {a: inherent[a] if value is None else value for a, value in given.items()}
    reduced = []
    for row in AGING:
        sides, losing = _die(Fraction(row.chance))
        if dice.roll(sides, f"aging {row.attribute.value}") <= losing:
            reduced.append(row.attribute)
            inherent[row.attribute.value] -= 1
            if request.options.reduce_trained:  # never below 0, as an attribute cannot be
                trained[row.attribute.value] = max(trained[row.attribute.value] - 1, 0)
    return Aged(reduced=reduced, reduced_count=len(reduced),
                inherent=Scores(**inherent), trained=Scores(**trained),
                ds_factor="9/10")  # fmt: skip


#: A unique insight needs a score of 20+2, 26 (F:L1117).
INSIGHT_SCORE = 26


class InsightInput(Model):
    skill: Name
    level: Annotated[int, Field(ge=0, le=99)]
    attributes: AttributeValues = Field(description="Trained attributes of the formula.")
    has_insight: bool = Field(default=False, description="The skill has one already.")


class Insight(Model):
    eligible: bool
    cost: int = Field(description="10 x the skill's cost.")
    reasons: list[str] = Field(description="What is missing.")


@operation(
    name="character-modifiers/unique-insight",
    kind=Kind.VALIDATION,
    covers=("foresight.character_modifiers.unique_insight",),
    example={"skill": "Charisma", "level": 13, "attributes": {"AP": 13, "EM": 13}},
)
def unique_insight(request: InsightInput) -> Insight:
    """A unique insight raises one skill's BEF by 1 for 10 x its cost, once a skill, when the
    skill is at its maximum level and its score is at least 20+2, i.e. 26 (F:L1117)."""
    row = skill_row(request.skill)
    top = maximum(row, request.attributes)
    score = round_half_up(formula_value(row, request.attributes)) + request.level
    reasons = []
    # 'Must have maximum skill level (given his/her attributes)' (F:L1117): a level above the
    # maximum, kept after the attributes fell (AMB-25), has that level too, so it qualifies.
    if request.level < top:
        reasons.append(f"level {request.level} is under the maximum {top}")
    if score < INSIGHT_SCORE:
        reasons.append(f"score {score} is under 26 (20+2)")
    if request.has_insight:
        reasons.append("the skill has its insight already")
    return Insight(eligible=not reasons, cost=10 * row.cost, reasons=reasons)


class Gift(StrEnum):
    SKILLS = "skills"
    ATTRIBUTE = "attribute"


class Deficit(StrEnum):
    NO_INTEREST = "no_interest"
    ATTRIBUTE = "attribute"
    HUNTED = "hunted"


class GiftInput(Model):
    gift: Gift
    skills: tuple[Name, ...] = Field(default=(), max_length=4)
    gift_attribute: Attribute | None = None
    inherent: Annotated[int, Field(ge=1, le=40)] | None = Field(
        default=None, description="The gifted attribute's inherent value."
    )
    range_maximum: Annotated[int, Field(ge=1, le=40)] = 12
    deficit: Deficit
    deficit_attribute: Attribute | None = None


class GiftEffects(Model):
    effects: list[str]
    requires_gm_approval: bool


def _gift_errors(request: GiftInput) -> list[InputError]:
    errors = []
    if request.gift is Gift.SKILLS:
        rows = [skill_row(name, ("skills", i)) for i, name in enumerate(request.skills)]
        if len({r.skill for r in rows}) < len(rows):
            errors.append(InputError(("skills",), "each skill once: +2 BEF a skill (F:L1120)"))
        if not rows or sum(r.cost for r in rows) > 4:
            errors.append(InputError(("skills",), "skills whose costs total 4 at most"))
        shared = set.intersection(*(set(r.attributes) for r in rows)) if rows else set()
        if len(rows) > 1 and not shared:
            errors.append(InputError(("skills",), "the skills share an attribute (AMB-33)"))
    elif request.gift_attribute is None or request.inherent is None:
        errors.append(InputError(("gift_attribute",), "name the attribute and its inherent value"))
    elif not request.range_maximum - 1 <= request.inherent <= request.range_maximum:
        errors.append(InputError(("inherent",), "within one point of the range's maximum and "
                                 "not past it: 11 or 12 for a human (F:L1120)"))  # fmt: skip
    if request.deficit is Deficit.ATTRIBUTE and request.deficit_attribute in (
        None, request.gift_attribute,
    ):  # fmt: skip
        errors.append(InputError(("deficit_attribute",), "a different attribute loses 4"))
    return errors


@operation(
    name="character-modifiers/unique-gift",
    kind=Kind.VALIDATION,
    covers=("foresight.character_modifiers.unique_gift",),
    example={"gift": "skills", "skills": ["Charisma", "Seduction"], "deficit": "hunted"},
)
def unique_gift(request: GiftInput) -> GiftEffects:
    """A unique gift, at the GM's discretion: +2 BEF to a skill or skills costing 4 in all that
    share an attribute, or +2 to an inherent attribute already within a point of its range
    maximum (11 or 12 for a human; a value past the range is no valid one), which the +2 may
    lift past it; with a deficit: no interest outside the gift (-1 to all else), -4 to another
    inherent attribute, or hunted for it (F:L1120)."""
    errors = _gift_errors(request)
    if errors:
        raise Violations(errors)
    if request.gift is Gift.SKILLS:
        effects = [f"+2 BEF to {name}" for name in request.skills]
    else:
        assert request.gift_attribute is not None
        effects = [f"+2 inherent {request.gift_attribute.value}, past the range if need be"]
    deficit = {Deficit.NO_INTEREST: "-1 to all tasks outside the gift, but in danger of life",
               Deficit.HUNTED: "obsessively hunted by a powerful entity for the gift"}  # fmt: skip
    if request.deficit is Deficit.ATTRIBUTE:
        assert request.deficit_attribute is not None
        effects.append(f"-4 inherent {request.deficit_attribute.value}")
    else:
        effects.append(deficit[request.deficit])
    return GiftEffects(effects=effects, requires_gm_approval=True)
