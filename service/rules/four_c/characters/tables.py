"""The generation tables of 4C, read from `tables.json` beside this module: origins and their
advanced modifiers (C:L143-178), the Rank Value table shared by traits, powers and Lifestyle
(C:L216-230, C:L454-468), the numbers of skills and powers (C:L312-322, C:L341-356) and the
basic and advanced power selections (C:L358-448)."""

from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Protocol, TypeVar

from pydantic import Field

from service.rules.model import Model
from service.rules.tables import table

__all__ = [
    "ADVANCED_POWERS",
    "BASIC_POWERS",
    "MODIFIERS",
    "ORIGINS",
    "POWER_COUNTS",
    "SKILL_COUNTS",
    "TRAIT_RANKS",
    "Origin",
    "PowerName",
    "PrimaryTrait",
    "looked_up",
]

Face = Annotated[int, Field(ge=0, le=99)]


class Origin(StrEnum):
    ROBOT = "robot"
    ALIEN = "alien"
    SKILLED_HUMAN = "skilled_human"
    CHANGED_HUMAN = "changed_human"
    MUTANT = "mutant"
    TECHNOLOGICALLY_ENHANCED = "technologically_enhanced"


class PrimaryTrait(StrEnum):
    """The seven primary traits in the order the text lists and rolls them (C:L184-214)."""

    MELEE = "melee"
    COORDINATION = "coordination"
    BRAWN = "brawn"
    FORTITUDE = "fortitude"
    INTELLECT = "intellect"
    AWARENESS = "awareness"
    WILLPOWER = "willpower"


#: Damage is the first four primary traits, Fortune the last three (C:L240, C:L246).
DAMAGE_TRAITS = tuple(PrimaryTrait)[:4]
FORTUNE_TRAITS = tuple(PrimaryTrait)[4:]


class PowerName(StrEnum):
    """Every power of the two selection tables (C:L358-448), and Magic (C:L356, C:L724)."""

    ABSORPTION = "absorption"
    ALTER_EGO = "alter_ego"
    ANIMAL_COMMAND = "animal_command"
    ASTOUNDINGLY_WEALTHY = "astoundingly_wealthy"
    BODY_ARMOR = "body_armor"
    BURROWING = "burrowing"
    CELEBRITY = "celebrity"
    CHAMELEON = "chameleon"
    CLAWS = "claws"
    CONTAMINANT_RESISTANCE = "contaminant_resistance"
    COMBAT_AWARENESS = "combat_awareness"
    DETECTION = "detection"
    DIMENSION_JUMP = "dimension_jump"
    ELASTICITY = "elasticity"
    ELEMENTAL_ENERGY_CONTROL = "elemental_energy_control"
    ELEMENTAL_ENERGY_GENERATION = "elemental_energy_generation"
    EXTRA_BODY_PARTS = "extra_body_parts"
    FAST_ATTACK = "fast_attack"
    FLIGHT = "flight"
    FORCE_FIELD = "force_field"
    GROWTH_SHRINKING = "growth_shrinking"
    HEADQUARTERS = "headquarters"
    IMPROVED_SKILLS = "improved_skills"
    INVISIBILITY = "invisibility"
    MIND_CONTROL = "mind_control"
    MIND_SHIELD = "mind_shield"
    NINE_LIVES = "nine_lives"
    NULLIFICATION = "nullification"
    ONE_OF_A_KIND_WEAPON = "one_of_a_kind_weapon"
    PARALYZING_TOUCH = "paralyzing_touch"
    PHASING = "phasing"
    PHYSICAL_METAMORPHOSIS = "physical_metamorphosis"
    PLANT_CONTROL = "plant_control"
    PROTECTED_SENSE = "protected_sense"
    REFLECTION = "reflection"
    REGENERATION = "regeneration"
    SHAPESHIFT = "shapeshift"
    SIDEKICK = "sidekick"
    SUPER_LEAP = "super_leap"
    SUPERSENSE = "supersense"
    SUPERSPEED = "superspeed"
    TELEKINESIS = "telekinesis"
    TELEPATHY = "telepathy"
    TELEPORTATION = "teleportation"
    TRAIT_BOOST = "trait_boost"
    TRAIT_INCREASE = "trait_increase"
    VEHICLE = "vehicle"
    WALL_CRAWLING = "wall_crawling"
    WATER_NATIVE = "water_native"
    WEAPON = "weapon"
    MAGIC = "magic"


class OriginRow(Model):
    roll_min: Face
    roll_max: Face
    origin: Origin
    description: str


class ModifierRow(Model):
    """An advanced origin's changes, as numbers, with the text they come from."""

    origin: Origin
    all_traits: int = Field(description="Added to every primary trait.")
    trait: PrimaryTrait | None = Field(description="The one trait the origin raises, if fixed.")
    trait_bonus: int
    lifestyle: int
    skills: int
    powers: int
    repute_to_zero: bool
    text: str


class TraitRankRow(Model):
    roll_min: Face
    roll_max: Face
    rv: int


class SkillCountRow(Model):
    roll_min: Face
    roll_max: Face
    skills: int


class PowerCountRow(Model):
    roll_min: Face
    roll_max: Face
    powers: int = Field(description="Magic counts as one power, the only one (C:L726).")
    magic: bool


class PowerRow(Model):
    roll_min: Face
    roll_max: Face
    power: PowerName


ORIGINS = table(__name__, "origins", OriginRow)
MODIFIERS = table(__name__, "origin-modifiers", ModifierRow)
TRAIT_RANKS = table(__name__, "trait-ranks", TraitRankRow)
SKILL_COUNTS = table(__name__, "skill-counts", SkillCountRow)
POWER_COUNTS = table(__name__, "power-counts", PowerCountRow)
BASIC_POWERS = table(__name__, "basic-powers", PowerRow)
ADVANCED_POWERS = table(__name__, "advanced-powers", PowerRow)


class _Banded(Protocol):
    @property
    def roll_min(self) -> int: ...
    @property
    def roll_max(self) -> int: ...


B = TypeVar("B", bound=_Banded)


def looked_up(rows: Iterable[B], roll: int) -> B:
    """The row of a d% table that holds `roll` (every table covers 00-99 once)."""
    return next(row for row in rows if row.roll_min <= roll <= row.roll_max)
