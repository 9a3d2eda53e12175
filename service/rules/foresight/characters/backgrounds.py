"""Background factors (catalogue 3.C.4-3.C.6, 3.C.15, F:L559-669, F:L714): how many make a
character how competent, what the standard ones give (every one worth 80 character points),
a custom one's balance, and trading general points for education ones."""

from collections import Counter
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.foresight.characters.skills import AttributeValues
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.model import InputError, Model, Violations, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "BACKGROUNDS",
    "COMPETENCE",
    "background",
    "competence",
    "competence_of",
    "custom_background",
    "tally",
    "transfer",
    "wealth_cost",
]

#: A background factor is simply worth 80 character points (F:L655); an inherent attribute
#: point 10, a wealth row up 20 and down -10 (F:L657, F:L747-748).
WORTH, ATTRIBUTE_POINT, WEALTH_UP, WEALTH_DOWN = 80, 10, 20, -10


def wealth_cost(rows: int) -> int:
    """Character points for rows of wealth bought (+) or given up (-, points back)."""
    return WEALTH_UP * rows if rows > 0 else WEALTH_DOWN * -rows


class Grant(Model):
    attribute: Attribute
    points: int


class BackgroundRow(Model):
    background: str
    group: str
    general: int | None = Field(description="Null where the book leaves it blank (AMB-16).")
    education: int
    once: bool
    free_points: int = Field(description="Inherent attribute points to place freely.")
    grants: tuple[Grant, ...]
    either: tuple[Attribute, ...] = Field(description="+2 to one of these, chosen.")
    choose_two: tuple[str, ...]
    wealth: int
    talent: str | None
    requires: tuple[Attribute, ...] = Field(description="Inherent 10 or more in each.")
    note: str
    source: str


class CompetenceRow(Model):
    competence: str
    low: int
    high: int | None
    examples: str


BACKGROUNDS = table(__name__, "backgrounds", BackgroundRow)
COMPETENCE = table(__name__, "competence", CompetenceRow)


class CompetenceScale(StrEnum):
    TABLE = "table"
    PROSE = "prose"


class CompetenceOptions(Model):
    scale: CompetenceScale = option(
        CompetenceScale.TABLE,
        ambiguity="AMB-14",
        description="The table's labels (F:L567-573), or the prose's rough guide (F:L563): "
        "1-2 hopelessly inexperienced, 3 a rookie, 4-5 competent, more formidable.",
    )


class CompetenceInput(Model):
    background_factors: Annotated[int, Field(ge=1, le=100)]
    options: CompetenceOptions = Field(default=CompetenceOptions())


class Competence(Model):
    competence: str
    examples: str | None


def _prose(count: int) -> str:
    if count <= 2:
        return "hopelessly inexperienced"
    return {3: "rookie", 4: "competent", 5: "competent"}.get(count, "formidable")


@operation(
    name="character/competence",
    kind=Kind.LOOKUP,
    covers=("foresight.character.competence",),
    example={"background_factors": 4},
)
def competence(request: CompetenceInput) -> Competence:
    """How competent a character of so many background factors is: 1-2 bumbling, 3-4
    inexperienced, 5-6 competent, 7-10 capable, 11-14 outstanding, 15 or more awesome
    (F:L567-573)."""
    return competence_of(request)


def competence_of(request: CompetenceInput) -> Competence:
    count = request.background_factors
    if request.options.scale is CompetenceScale.PROSE:
        return Competence(competence=_prose(count), examples=None)
    row = next(r for r in COMPETENCE if r.low <= count and (r.high is None or count <= r.high))
    return Competence(competence=row.competence, examples=row.examples)


class Chosen(Model):
    background: Annotated[str, Field(min_length=1, max_length=60)]
    attribute: Attribute | None = Field(default=None, description="Personal Tragedy's EM or WP.")
    choices: tuple[Annotated[str, Field(min_length=1, max_length=60)], ...] = Field(
        default=(), max_length=2, description="'Take two of the following' (F:L644-646)."
    )
    general: Annotated[int, Field(ge=0, le=80)] | None = Field(
        default=None, description="The GM's value for a talent the book leaves blank (AMB-16)."
    )


class BackgroundOptions(Model):
    allow_duplicate_choice: bool = option(
        False,
        ambiguity="AMB-16b",
        description="'Take two of the following' may take one option twice (as only Religious "
        "Transformation says it may, F:L644).",
    )


class BackgroundInput(Model):
    backgrounds: tuple[Chosen, ...] = Field(min_length=1, max_length=40)
    inherent: AttributeValues = Field(
        default=AttributeValues(), description="Inherent attributes, for Martial Arts Academy."
    )
    options: BackgroundOptions = Field(default=BackgroundOptions())


class Background(Model):
    general: int = Field(description="General character points (F:L601).")
    education: int
    free_attribute_points: int
    grants: list[Grant] = Field(description="Inherent points to named attributes.")
    wealth_rows: int = Field(description="Rows up (+) or down (-) the wealth table.")
    talents: list[str]
    choices: list[str]
    childhood_factors: int
    requires_gm_approval: list[str] = Field(
        description="Unusual factors, talents and GM-valued entries (F:L583, F:L637)."
    )


def _row(name: str, index: int) -> BackgroundRow:
    found = next((r for r in BACKGROUNDS if r.background.casefold() == name.casefold()), None)
    if found is None:
        raise InputError(("backgrounds", index, "background"), f"{name!r} is no background "
                         "factor of F:L601-647; a custom one is background/custom")  # fmt: skip
    return found


def _choices(row: BackgroundRow, chosen: Chosen, index: int, duplicates: bool) -> list[str]:
    loc = ("backgrounds", index, "choices")
    if not row.choose_two:
        if chosen.choices:
            raise InputError(loc, f"{row.background} offers no choices")
        return []
    known = {c.casefold(): c for c in row.choose_two}
    picks = [known.get(c.casefold()) for c in chosen.choices]
    if len(picks) != 2 or None in picks:
        raise InputError(loc, f"take two of: {', '.join(row.choose_two)}")
    twice = row.background == "Religious Transformation" or duplicates
    if picks[0] == picks[1] and not twice:
        raise InputError(loc, "two different options (AMB-16b)")
    return [p for p in picks if p is not None]


def _entry(
    row: BackgroundRow, chosen: Chosen, index: int, request: BackgroundInput
) -> tuple[int, list[Grant], list[str]]:
    """The entry's general points, its grants and its choices."""
    loc = ("backgrounds", index)
    general = row.general if chosen.general is None else chosen.general
    if chosen.general is not None and row.general is not None:
        raise InputError((*loc, "general"), f"{row.background}'s points are printed")
    if general is None:
        raise InputError((*loc, "general"), f"the book gives {row.background} no points: the "
                                           "GM must (AMB-16)")  # fmt: skip
    grants = list(row.grants)
    if row.either:
        if chosen.attribute not in row.either:
            raise InputError((*loc, "attribute"), f"choose {' or '.join(row.either)}")
        grants.append(Grant(attribute=chosen.attribute, points=2))
    low = [a for a in row.requires if (getattr(request.inherent, a.value) or 0) < 10]
    if low:
        raise InputError(("inherent",), f"{row.background} needs inherent "
                         f"{', '.join(low)} of 10 or more (F:L646)")  # fmt: skip
    picks = _choices(row, chosen, index, request.options.allow_duplicate_choice)
    for pick in picks:
        if pick.startswith("+2 ") and pick[3:] in Attribute.__members__:
            grants.append(Grant(attribute=Attribute(pick[3:]), points=2))
    return general, grants, picks


@operation(
    name="background",
    kind=Kind.CALCULATION,
    covers=("foresight.background",),
    example={"backgrounds": [{"background": "Comfortable Childhood"},
                             {"background": "Full-Time Education"},
                             {"background": "Field/Specialist Training"},
                             {"background": "Field Experience"}]},
)  # fmt: skip
def background(request: BackgroundInput) -> Background:
    """A character's background factors give general and education character points and,
    some, inherent attribute points, wealth and talents; one marked * is taken once
    (F:L601-663). Amy's four give 225 general and 95 education points (F:L752)."""
    return tally(request)


def tally(request: BackgroundInput) -> Background:
    errors: list[InputError] = []
    general = education = free = wealth = childhood = 0
    grants: list[Grant] = []
    talents, choices, approval = [], [], []
    counts: Counter[str] = Counter()
    for index, chosen in enumerate(request.backgrounds):
        try:
            row = _row(chosen.background, index)
            points, granted, picks = _entry(row, chosen, index, request)
        except InputError as error:
            errors.append(error)
            continue
        counts[row.background] += 1
        if row.once and counts[row.background] == 2:
            errors.append(InputError(("backgrounds", index, "background"),
                                     f"{row.background} may be taken once (F:L663)"))  # fmt: skip
        general, education = general + points, education + row.education
        free, wealth = free + row.free_points, wealth + row.wealth
        childhood += row.group == "childhood"
        grants += granted
        choices += picks
        talents += [row.talent] if row.talent else []
        if row.group == "unusual" or row.talent or chosen.general is not None:
            approval.append(row.background)
    if errors:
        raise Violations(errors)
    return Background(general=general, education=education, free_attribute_points=free,
                      grants=grants, wealth_rows=wealth, talents=talents, choices=choices,
                      childhood_factors=childhood, requires_gm_approval=approval)  # fmt: skip


class CustomInput(Model):
    general: Annotated[int, Field(ge=0, le=80)]
    education: Annotated[int, Field(ge=0, le=80)]
    attribute_points: Annotated[int, Field(ge=0, le=8)] = 0
    wealth_rows: Annotated[int, Field(ge=-4, le=4)] = 0


class Custom(Model):
    worth: int = Field(description="General + education + 10 an attribute point + wealth.")
    balanced: bool = Field(description="Worth exactly 80 (F:L655).")
    short_by: int


@operation(
    name="background/custom",
    kind=Kind.VALIDATION,
    covers=("foresight.background.custom",),
    example={"general": 50, "education": 10, "attribute_points": 2},
)
def custom_background(request: CustomInput) -> Custom:
    """'A background factor is simply worth 80 character points': split them between general
    and education by the time spent studying; an inherent attribute point costs 10 (F:L655-
    657), a wealth row 20 up and 10 back down (F:L747-748). The GM still judges it."""
    worth = request.general + request.education + ATTRIBUTE_POINT * request.attribute_points
    worth += wealth_cost(request.wealth_rows)
    return Custom(worth=worth, balanced=worth == WORTH, short_by=WORTH - worth)


class Pool(StrEnum):
    GENERAL = "general"
    EDUCATION = "education"


class TransferInput(Model):
    source: Pool = Field(description="The pool the points come from.")
    points: Annotated[int, Field(ge=2, le=10_000, multiple_of=2)] = Field(
        description="An even number: two buy one of the other kind (F:L714)."
    )


class Transferred(Model):
    target: Pool
    received: int


@operation(
    name="cp/transfer",
    kind=Kind.CALCULATION,
    covers=("foresight.cp.transfer",),
    example={"source": "general", "points": 10},
)
def transfer(request: TransferInput) -> Transferred:
    """'If you're desperate', buy 'ability' character points for two 'education' points, and
    vice versa (F:L714)."""
    target = Pool.EDUCATION if request.source is Pool.GENERAL else Pool.GENERAL
    return Transferred(target=target, received=request.points // 2)
