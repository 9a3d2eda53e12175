"""The sheet's models, in and out, and the draft that gathers a sheet's violations,
warnings and ledger lines as it is checked (catalogue 3.C.1, 3.C.17, F:L427-1061)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.foresight.characters.attributes import Allocation
from service.rules.foresight.characters.backgrounds import (
    BackgroundOptions,
    Chosen,
    Pool,
    TransferInput,
)
from service.rules.foresight.characters.derived import Capacity, Stamina, Ucdc, UcdcOptions
from service.rules.foresight.characters.endowment import Wealth, WealthOptions
from service.rules.foresight.characters.ledger import (
    MOST_FAMILIARITY,
    Balance,
    Line,
    LongTermFamiliarityPurchase,
)
from service.rules.foresight.characters.skills import Favor, SkillName, SkillOptions, WeaponClass
from service.rules.foresight.characters.species import Modifier, ModifierOptions
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.foresight.resolution.scores import TwentyPlus
from service.rules.model import InputError, Model, Violations, option

Name = Annotated[str, Field(min_length=1, max_length=60)]


class OwnedSkill(Model):
    skill: SkillName
    level: Annotated[int, Field(ge=0, le=99)]


class FieldLevel(StrEnum):
    BASIC = "basic"
    STANDARD = "standard"


class OwnedField(Model):
    field: Name = Field(description="A field of the table; a language may add its name in "
                        "brackets: 'Language (French)'.")  # fmt: skip
    level: FieldLevel
    specializations: tuple[Name, ...] = Field(default=(), max_length=10)


class OwnedFamiliarity(Model):
    name: Name
    points: Annotated[int, Field(ge=1, le=MOST_FAMILIARITY)]


class Handedness(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    AMBIDEXTROUS = "ambidextrous"


class Overflow(StrEnum):
    REJECT = "reject"
    CAP_AND_WASTE = "cap_and_waste"


class CharacterOptions(SkillOptions, BackgroundOptions, ModifierOptions, UcdcOptions,
                       WealthOptions):  # fmt: skip
    """The readings of every rule creation uses; each default is the catalogue's."""

    bonus_overflow: Overflow = option(
        Overflow.REJECT,
        ambiguity="AMB-17",
        description="Background points 'do not allow attributes to be increased beyond the "
        "usual range' (F:L603): a sheet whose points cannot fit is refused, so the player "
        "lowers the base, or the points that would pass the maximum are wasted.",
    )


class CharacterInput(Model):
    species: Annotated[str, Field(min_length=1, max_length=40)] = "Human"
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=4)
    backgrounds: tuple[Chosen, ...] = Field(min_length=1, max_length=20)
    inherent: Allocation = Field(description="As placed, background points included.")
    trained: Allocation | None = Field(default=None, description="Null: left at inherent.")
    free_package: Name | None = Field(
        default=None, description="The setting's free package (optional rule, F:L689); the "
        "four skills everyone has are free with or without it (F:L695).",
    )  # fmt: skip
    sold_off: tuple[Name, ...] = Field(
        default=(), max_length=20, description="Free skills or fields sold for half (F:L716)."
    )
    skills: tuple[OwnedSkill, ...] = Field(
        default=(), max_length=60, description="Free skills not listed are at level 0."
    )
    fields: tuple[OwnedField, ...] = Field(default=(), max_length=40)
    environments: tuple[OwnedFamiliarity, ...] = Field(default=(), max_length=20)
    gravities: tuple[OwnedFamiliarity, ...] = Field(default=(), max_length=10)
    long_term_familiarities: tuple[LongTermFamiliarityPurchase, ...] = Field(
        default=(), max_length=20
    )
    unique_insights: tuple[SkillName, ...] = Field(default=(), max_length=5)
    handedness: Handedness | None = Field(
        default=None, description="Every character has one (F:L745)."
    )
    favored_weapons: tuple[WeaponClass, ...] = Field(
        default=(), max_length=20, description="Hand-to-Hand Combat's favored classes (F:L799)."
    )
    favored_fields: tuple[Favor, ...] = Field(
        default=(), max_length=20, description="Theory's favored fields (F:L826)."
    )
    wealth_start: Annotated[str, Field(min_length=1, max_length=20)] = Field(
        default="Average", description="The GM's typical level (F:L1002)."
    )
    wealth_rows: Annotated[int, Field(ge=-10, le=10)] = Field(
        default=0, description="Rows bought (+, 20 each) or given up (-, 10 back each)."
    )
    transfers: tuple[TransferInput, ...] = Field(default=(), max_length=10)
    options: CharacterOptions = Field(default=CharacterOptions())


class SheetAttribute(Model):
    attribute: Attribute
    inherent: int
    trained: int
    low: int = Field(description="The species' range, shifted by character modifiers.")
    high: int


class SheetSkill(Model):
    skill: str
    formula_value: str = Field(description="The formula exactly, before rounding.")
    base: int
    level: int
    score: int
    twenty_plus: TwentyPlus
    bef: str
    max_level: int
    free: bool
    level_zero_cp: int = Field(description="What level 0 cost: 3 x cost, or 0 when free.")
    levels_cp: int = Field(description="What the levels above 0 cost.")


class SheetField(Model):
    field: str
    level: FieldLevel
    specializations: list[str]
    cost: int = Field(description="Education points paid; the free package's part is free.")


class SheetFamiliarity(Model):
    name: str
    points: int
    free_points: int
    cost: int


class Checked(Model):
    """What every check of the sheet finds, besides its violations."""

    background_factors: int
    competence: str
    years_of_background: list[int] = Field(
        description="Least and most years the factors not childhood or gifts took (F:L667)."
    )
    general: Balance
    education: Balance
    talents: list[str]
    warnings: list[str]
    requires_gm_approval: list[str] = Field(
        description="What only the GM can rule on (F:L583, F:L637, F:L669, F:L722)."
    )


class Character(Checked):
    species: str
    attributes: list[SheetAttribute]
    skills: list[SheetSkill]
    fields: list[SheetField]
    environments: list[SheetFamiliarity]
    gravities: list[SheetFamiliarity]
    handedness: Handedness | None
    ucdc: Ucdc
    carrying_capacity: Capacity
    stamina: Stamina
    theory_favored_picks: int = Field(description="One a five levels of Theory (F:L826).")
    hth_favored_picks: int = Field(description="Free at Hand-to-Hand levels 0 and 10 (F:L799).")
    wealth: Wealth
    lines: list[Line] = Field(description="Every purchase and what it cost.")


class Draft:
    """A sheet being checked: its violations, warnings and ledger lines as they are found."""

    def __init__(self, request: CharacterInput) -> None:
        self.request = request
        self.errors: list[InputError] = []
        self.warnings: list[str] = []
        self.approval: list[str] = []
        self.lines: list[Line] = []

    def error(self, loc: tuple[str | int, ...], message: str) -> None:
        self.errors.append(InputError(loc, message))

    def pay(self, item: str, pool: Pool, cost: int) -> None:
        if cost:
            self.lines.append(Line(item=item, pool=pool, cost=cost))

    def attempt(self, loc: tuple[str | int, ...], error: InputError) -> None:
        for each in error.errors if isinstance(error, Violations) else (error,):
            self.errors.append(InputError((*loc, *each.loc), each.message))
