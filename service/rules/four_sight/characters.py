"""4SIGHT characters (S:L38-107): creating and validating a player character, creating an NPC.

One function, `examine`, checks a PC sheet against every creation rule and collects every
violation in one pass, so `character/create` (which refuses a bad sheet, naming each broken
rule) and `character/validate` (which reports them) apply the same rules, written once. The
`Character` record both return is also the input of `advancement/spend`.
"""

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_sight.expertise import AFFINITIES, Affinity, Expertise, expertise_dice
from service.rules.four_sight.manifestations import (
    MANIFESTATIONS,
    Manifestation,
    ManifestationInfo,
)
from service.rules.four_sight.options import CharacterOptions, TraitBudgetMode
from service.rules.four_sight.traits import MAX_TRAIT, MIN_TRAIT, Trait
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation

__all__ = [
    "CREATION_POINTS",
    "EXPERTISE_PICKS",
    "LISTED_EXPERTISE",
    "LISTED_MANIFESTATIONS",
    "MAX_ADVANCEMENT_POINTS",
    "MAX_EXPERTISE",
    "MAX_MANIFESTATIONS",
    "PC_BASE_SCORE",
    "Character",
    "CharacterInput",
    "CharacterKind",
    "CustomExpertise",
    "ExpertiseEntry",
    "ManifestationEntry",
    "NpcInput",
    "PickKind",
    "TraitAllocation",
    "TraitScores",
    "ValidationReport",
    "Violation",
    "approved_expertise",
    "check_wild_card",
    "create_character",
    "create_npc",
    "examine",
    "key",
    "pointer",
    "resolve_expertise",
    "resolve_manifestation",
    "validate_character",
]

PC_BASE_SCORE = 1  # "A PC's traits have a starting score of 1" (S:L67)
CREATION_POINTS = 6  # "distributes a total of six points" (S:L67)
EXPERTISE_PICKS = 3  # "a total of three affinities and/or specialties" (S:L71)
# Bounds that only keep a record finite (the text states none): advancement can add entries.
MAX_EXPERTISE = 64
MAX_MANIFESTATIONS = 16
MAX_ADVANCEMENT_POINTS = 10_000

Name = Annotated[str, Field(min_length=1, max_length=80)]
Label = Annotated[str, Field(min_length=1, max_length=60)]
# Wide on purpose: the rule, not the schema, reports a bad allocation, so a sheet gets every
# violation at once.
Allocation = Annotated[int, Field(ge=-100, le=100)]
Score = Annotated[int, Field(ge=MIN_TRAIT, le=MAX_TRAIT)]
Errors = list[InputError]


class CharacterKind(StrEnum):
    PC = "pc"
    NPC = "npc"


class PickKind(StrEnum):
    """An area of expertise is an affinity (one bonus die) or a specialty (two) (S:L71)."""

    AFFINITY = "affinity"
    SPECIALTY = "specialty"


class TraitAllocation(Model):
    """The creation points a player puts in each trait: non-negative, six in all (S:L67)."""

    strength: Allocation = Field(default=0, description="Points added to Strength (S:L55).")
    dexterity: Allocation = Field(default=0, description="Points added to Dexterity (S:L57).")
    constitution: Allocation = Field(default=0, description="Points added to Constitution (S:L59).")
    intelligence: Allocation = Field(default=0, description="Points added to Intelligence (S:L61).")
    wisdom: Allocation = Field(default=0, description="Points added to Wisdom (S:L63).")
    charisma: Allocation = Field(default=0, description="Points added to Charisma (S:L65).")


class TraitScores(Model):
    """A character's six trait scores; an average person has 0 in each (S:L53-67)."""

    strength: Score = Field(default=0, description="Raw muscular power (S:L55).")
    dexterity: Score = Field(default=0, description="Reflexes, hand-eye coordination (S:L57).")
    constitution: Score = Field(default=0, description="Health and fortitude (S:L59).")
    intelligence: Score = Field(default=0, description="Reasoning and memory (S:L61).")
    wisdom: Score = Field(default=0, description="Resolve and willpower (S:L63).")
    charisma: Score = Field(default=0, description="Likeability, persuasiveness (S:L65).")


class CustomExpertise(Model):
    """An area of expertise the GM created with the player, beyond the catalogue (S:L73)."""

    name: Label
    kind: PickKind


class ExpertiseEntry(Model):
    """One area of expertise a character holds, resolved against the catalogue (S:L71-85)."""

    name: Label = Field(description="The catalogue's name, or the custom area's name.")
    kind: PickKind
    affinity: Affinity | None = Field(
        description="The affinity itself, or the affinity a listed specialty belongs to; "
        "null for a custom area or a wild card."
    )
    custom: bool = Field(description="A GM-approved area or a wild card, not in the catalogue.")
    dice: Annotated[int, Field(ge=1, le=2)] = Field(
        description="Bonus d6s on a check it covers: 1 for an affinity, 2 for a specialty (S:L71)."
    )


class ManifestationEntry(Model):
    """A 4SIGHT manifestation a character has (S:L89-103); a GM-approved one is `custom`."""

    manifestation: Manifestation
    name: Label


class Character(Model):
    """A character record: what creation returns and what advancement reads and returns."""

    kind: CharacterKind
    name: Name
    traits: TraitScores
    expertise: Annotated[tuple[ExpertiseEntry, ...], Field(max_length=MAX_EXPERTISE)] = Field(
        description="Affinities and specialties (S:L71), in the order picked or bought."
    )
    wild_card: ExpertiseEntry | None = Field(
        default=None, description="The optional wild-card specialty (S:L85)."
    )
    manifestations: Annotated[
        tuple[ManifestationEntry, ...], Field(max_length=MAX_MANIFESTATIONS)
    ] = Field(description="One for a new PC (S:L89); NPCs rarely have any (S:L179).")
    omega: bool = Field(
        default=False,
        description="An Omega Section operative: no manifestations, a bonus d6 on physical "
        "checks (S:L229).",
    )
    advancement_points: Annotated[int, Field(ge=0, le=MAX_ADVANCEMENT_POINTS)] = Field(
        default=0, description="Unspent advancement points; they carry over (S:L237, S-A26)."
    )


class CharacterInput(Model):
    """A player character sheet: traits, expertise, wild card and manifestation (S:L44-103)."""

    name: Name
    traits: TraitAllocation = Field(
        description="The six creation points, per trait; each score is 1 plus its points (S:L67)."
    )
    expertise: Annotated[tuple[Label, ...], Field(max_length=16)] = Field(
        description="Exactly three affinities and/or specialties (S:L71), by name: 'Combat', "
        "'social_skills', 'security bypass', or a GM-approved area."
    )
    gm_approved_expertise: Annotated[tuple[CustomExpertise, ...], Field(max_length=8)] = Field(
        default=(),
        description="New areas of expertise the GM approved (S:L73); pick them by name.",
    )
    wild_card: Label | None = Field(
        default=None,
        description="One optional wild-card specialty, extra to the three picks (S:L85).",
    )
    wild_card_gm_approved: bool = Field(
        default=False, description="The GM approved the wild card as obscure enough (S:L85)."
    )
    manifestation: Label = Field(
        description="One 4SIGHT manifestation (S:L89): 'Sixth Sense' or 'sixth_sense', ..., or "
        "a custom one the GM approved."
    )
    custom_manifestation_gm_approved: bool = Field(
        default=False,
        description="The GM approved a manifestation outside the seven listed (S:L89).",
    )
    options: CharacterOptions = Field(
        default=CharacterOptions(), description="Readings of the ambiguous rules (S-A02..S-A05)."
    )


class NpcInput(Model):
    """A non-player character: any trait scores, free expertise, rare manifestations."""

    name: Name
    traits: TraitScores = Field(
        default=TraitScores(),
        description="Scores as given; an average person has 0s, and NPCs may go below 0 (S:L67).",
    )
    expertise: Annotated[tuple[Label, ...], Field(max_length=16)] = Field(
        default=(),
        description="Any number of affinities and specialties by name, or areas defined in "
        "custom_expertise.",
    )
    custom_expertise: Annotated[tuple[CustomExpertise, ...], Field(max_length=8)] = Field(
        default=(),
        description="New areas of expertise the GM defines (S:L73); pick them by name.",
    )
    wild_card: Label | None = Field(
        default=None, description="An optional wild-card specialty (S:L85)."
    )
    manifestations: Annotated[tuple[Label, ...], Field(max_length=8)] = Field(
        default=(),
        description="4SIGHT manifestations, only 'in rare cases' for an NPC (S:L179).",
    )
    allow_custom_manifestations: bool = Field(
        default=False,
        description="Take names outside the seven as the GM's own manifestations (S:L89); "
        "otherwise they are reported as unknown.",
    )
    omega: bool = Field(
        default=False,
        description="An Omega Section operative: no manifestations, a bonus d6 on physical "
        "checks (S:L229).",
    )


class Violation(Model):
    """One broken rule of a sheet."""

    pointer: str = Field(description="JSON pointer to the offending field ('' = the body).")
    message: str


class CharacterSheet(Model):
    """A new character; `character` is the record advancement/spend takes as it is."""

    character: Character


class ValidationReport(Model):
    """Whether a PC sheet obeys the creation rules, and every rule it breaks."""

    valid: bool
    violations: list[Violation]


def key(text: str) -> str:
    """A name compared without case, spacing or underscores: 'social_skills' is
    'Social  Skills'."""
    return " ".join(text.replace("_", " ").split()).casefold()


def pointer(loc: Sequence[str | int]) -> str:
    """The JSON pointer (RFC 6901) of a location."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in loc)


def _entry(name: str, kind: PickKind, affinity: Affinity | None, custom: bool) -> ExpertiseEntry:
    dice = expertise_dice(Expertise(kind.value))
    return ExpertiseEntry(name=name, kind=kind, affinity=affinity, custom=custom, dice=dice)


def _listed_expertise() -> dict[str, ExpertiseEntry]:
    found = {}
    for info in AFFINITIES:
        found[key(info.name)] = _entry(info.name, PickKind.AFFINITY, info.affinity, False)
        for specialty in info.specialties:
            found[key(specialty)] = _entry(specialty, PickKind.SPECIALTY, info.affinity, False)
    return found


def _listed_manifestations() -> dict[str, ManifestationInfo]:
    listed = [m for m in MANIFESTATIONS if m.manifestation is not Manifestation.CUSTOM]
    return {key(name): m for m in listed for name in (m.name, m.manifestation.value)}


#: The five affinities and their 25 specialties (S:L75-83), by normalised name.
LISTED_EXPERTISE = _listed_expertise()
#: The seven manifestations (S:L91-103), by normalised printed name and enum value.
LISTED_MANIFESTATIONS = _listed_manifestations()
_SEVEN = ", ".join(m.name for m in MANIFESTATIONS if m.manifestation is not Manifestation.CUSTOM)


def resolve_expertise(name: str, approved: Mapping[str, CustomExpertise]) -> ExpertiseEntry | None:
    """A listed affinity or specialty (S:L75-83), else a GM-approved area (S:L73), else None."""
    listed = LISTED_EXPERTISE.get(key(name))
    if listed is not None:
        return listed
    custom = approved.get(key(name))
    if custom is None:
        return None
    return _entry(" ".join(custom.name.split()), custom.kind, None, True)


def resolve_manifestation(name: str, approved: bool) -> ManifestationEntry | None:
    """One of the seven (S:L91-103), else a custom one if the GM approved it (S:L89)."""
    info = LISTED_MANIFESTATIONS.get(key(name))
    if info is not None:
        return ManifestationEntry(manifestation=info.manifestation, name=info.name)
    if not approved or not key(name):
        return None
    return ManifestationEntry(manifestation=Manifestation.CUSTOM, name=" ".join(name.split()))


def approved_expertise(
    areas: Sequence[CustomExpertise], field: str, errors: Errors
) -> dict[str, CustomExpertise]:
    """The GM's new areas by normalised name (S:L73). An area must be new: a listed name, a
    blank one or one given twice is reported."""
    found: dict[str, CustomExpertise] = {}
    for index, area in enumerate(areas):
        name = key(area.name)
        listed = LISTED_EXPERTISE.get(name)
        message = None
        if not name:
            message = "a custom area of expertise needs a name"
        elif listed is not None:
            message = (
                f"{area.name!r} is the listed {listed.kind.value} {listed.name!r}, not a new "
                "area (S:L75-83)"
            )
        elif name in found:
            message = f"{area.name!r} is defined twice"
        if message is None:
            found[name] = area
        else:
            errors.append(InputError((field, index, "name"), message))
    return found


def _picks(
    names: Sequence[str],
    approved: Mapping[str, CustomExpertise],
    approval: str,
    allow_duplicates: bool,
    errors: Errors,
) -> list[ExpertiseEntry]:
    """Resolve each named area; an unknown name or (by default) a repeated one is reported at
    its index (S:L71-83, S-A04)."""
    picks: list[ExpertiseEntry] = []
    first: dict[str, int] = {}
    for index, name in enumerate(names):
        entry = resolve_expertise(name, approved)
        if entry is None:
            message = (
                f"unknown expertise {name!r}: not an affinity or specialty of the catalogue "
                f"(S:L75-83) nor in {approval} (S:L73)"
            )
            errors.append(InputError(("expertise", index), message))
            continue
        seen = first.setdefault(key(entry.name), index)
        if seen != index and not allow_duplicates:
            message = (
                f"{entry.name!r} is already picked at expertise[{seen}]; an area can be picked "
                "only once (S-A04)"
            )
            errors.append(InputError(("expertise", index), message))
            continue
        picks.append(entry)
    return picks


def _wild_card_problem(
    name: str, held: Sequence[ExpertiseEntry], needs_approval: bool, allow_duplicates: bool
) -> str | None:
    listed = LISTED_EXPERTISE.get(key(name))
    if listed is not None:
        return (
            f"wild card {name!r} is the listed {listed.kind.value} {listed.name!r}; a wild "
            "card must not be covered by an affinity group (S:L85)"
        )
    if not key(name):
        return "a wild card needs a name"
    if not allow_duplicates and any(key(entry.name) == key(name) for entry in held):
        return f"wild card {name!r} repeats an area of expertise held (S-A04)"
    if needs_approval:
        return "a wild card needs the GM's approval: set wild_card_gm_approved (S:L85, S-A05)"
    return None


def check_wild_card(
    name: str | None,
    loc: tuple[str | int, ...],
    held: Sequence[ExpertiseEntry],
    needs_approval: bool,
    allow_duplicates: bool,
    errors: Errors,
) -> ExpertiseEntry | None:
    """The optional wild-card specialty (S:L85): it must not be an area of the affinity groups,
    nor (by default) repeat an area held (S-A04), and it needs the GM's approval (S-A05)."""
    if name is None:
        return None
    problem = _wild_card_problem(name, held, needs_approval, allow_duplicates)
    if problem is not None:
        errors.append(InputError(loc, problem))
        return None
    return _entry(" ".join(name.split()), PickKind.SPECIALTY, None, True)


def _pc_traits(allocation: TraitAllocation, options: CharacterOptions, errors: Errors) -> None:
    """Each PC trait starts at 1 and gets its share of the six points (S:L67): no negative
    share (S:L67), the total exactly six or at most six (S-A02), no score above the cap
    (S-A03)."""
    cap = options.trait_cap
    for trait in Trait:
        points: int = getattr(allocation, trait.value)
        loc = ("traits", trait.value)
        if points < 0:
            message = f"{trait.value} points must not be negative; got {points} (S:L67)"
            errors.append(InputError(loc, message))
        elif cap is not None and PC_BASE_SCORE + points > cap:
            message = (
                f"{trait.value} score {PC_BASE_SCORE + points} exceeds trait_cap {cap} (S-A03)"
            )
            errors.append(InputError(loc, message))
    total = sum(getattr(allocation, trait.value) for trait in Trait)
    exact = options.trait_budget_mode is TraitBudgetMode.EXACT
    if total != CREATION_POINTS if exact else total > CREATION_POINTS:
        limit = "exactly" if exact else "at most"
        message = f"trait points must total {limit} {CREATION_POINTS}; got {total} (S:L67, S-A02)"
        errors.append(InputError(("traits",), message))


def _pc_expertise(
    request: CharacterInput, errors: Errors
) -> tuple[list[ExpertiseEntry], ExpertiseEntry | None]:
    """Exactly three picks (S:L71), each listed or GM-approved (S:L73), plus the wild card."""
    options = request.options
    count = len(request.expertise)
    if count != EXPERTISE_PICKS:
        message = (
            f"choose exactly {EXPERTISE_PICKS} affinities and/or specialties; got {count} (S:L71)"
        )
        errors.append(InputError(("expertise",), message))
    field = "gm_approved_expertise"
    approval_errors: Errors = []
    approved = approved_expertise(request.gm_approved_expertise, field, approval_errors)
    duplicates = options.allow_duplicate_expertise
    picks = _picks(request.expertise, approved, field, duplicates, errors)
    errors.extend(approval_errors)
    needs_approval = options.wild_card_requires_gm_approval and not request.wild_card_gm_approved
    wild_card = check_wild_card(
        request.wild_card, ("wild_card",), picks, needs_approval, duplicates, errors
    )
    return picks, wild_card


def _pc_manifestation(request: CharacterInput, errors: Errors) -> ManifestationEntry | None:
    """One of the seven manifestations, or a custom one the GM approved (S:L89)."""
    name = request.manifestation
    entry = resolve_manifestation(name, request.custom_manifestation_gm_approved)
    if entry is None:
        message = (
            f"unknown manifestation {name!r}: choose one of {_SEVEN} (S:L91-103), or a custom "
            "one with custom_manifestation_gm_approved (S:L89)"
        )
        errors.append(InputError(("manifestation",), message))
    return entry


def examine(request: CharacterInput) -> tuple[Character | None, list[InputError]]:
    """Check a PC sheet against every creation rule (S:L44-103) in one pass: the character,
    or None and every violation found."""
    errors: Errors = []
    _pc_traits(request.traits, request.options, errors)
    picks, wild_card = _pc_expertise(request, errors)
    manifestation = _pc_manifestation(request, errors)
    if errors or manifestation is None:
        return None, errors
    scores = {t.value: PC_BASE_SCORE + getattr(request.traits, t.value) for t in Trait}
    character = Character(
        kind=CharacterKind.PC,
        name=request.name,
        traits=TraitScores(**scores),
        expertise=tuple(picks),
        wild_card=wild_card,
        manifestations=(manifestation,),
    )
    return character, []


@operation(
    name="character/create",
    kind=Kind.GENERATION,
    covers=("4sight.character.create",),
    example={
        "name": "Vera Quill",
        "traits": {"dexterity": 2, "intelligence": 2, "wisdom": 1, "constitution": 1},
        "expertise": ["combat", "stealth", "chemistry"],
        "manifestation": "sixth_sense",
    },
)
def create_character(request: CharacterInput) -> CharacterSheet:
    """Create a player character: traits, expertise, wild card and manifestation.

    Each trait starts at 1 and the player distributes six more points (S:L67: +5 Strength and
    +1 Intelligence give Strength 6, Intelligence 2, the rest 1); exactly three affinities
    and/or specialties (S:L71), from the catalogue (S:L75-83) or approved by the GM (S:L73);
    an optional, GM-approved wild-card specialty not covered by an affinity group (S:L85); one
    of the seven manifestations or a GM-approved one (S:L89-103). A sheet that breaks any rule
    is refused with every violation named at its field.
    """
    character, errors = examine(request)
    if character is None:
        raise Violations(errors)
    return CharacterSheet(character=character)


@operation(
    name="character/validate",
    kind=Kind.VALIDATION,
    covers=(
        "4sight.character.validate_traits",
        "4sight.character.validate_expertise",
        "4sight.character.validate_wild_card",
        "4sight.character.validate_manifestation",
    ),
    example={
        "name": "Nobody",
        "traits": {"strength": 6, "intelligence": 1},
        "expertise": ["combat", "espionage", "stealth", "physics"],
        "manifestation": "telekinesis",
    },
)
def validate_character(request: CharacterInput) -> ValidationReport:
    """Report whether a PC sheet obeys the creation rules, and every rule it breaks.

    The same rules as `character/create` (S:L67 traits, S:L71-85 expertise and wild card,
    S:L89 manifestation), returned as a report for a character builder instead of an error.
    """
    _, errors = examine(request)
    violations = [Violation(pointer=pointer(e.loc), message=e.message) for e in errors]
    return ValidationReport(valid=not errors, violations=violations)


def _npc_manifestations(request: NpcInput, errors: Errors) -> list[ManifestationEntry]:
    """NPC manifestations are rare (S:L179) and Omega operatives have none (S:L229)."""
    if request.omega and request.manifestations:
        message = "Omega Section operatives have no 4SIGHT manifestations (S:L229)"
        errors.append(InputError(("manifestations",), message))
    found: list[ManifestationEntry] = []
    for index, name in enumerate(request.manifestations):
        entry = resolve_manifestation(name, request.allow_custom_manifestations)
        loc = ("manifestations", index)
        if entry is None:
            message = (
                f"unknown manifestation {name!r}: choose one of {_SEVEN} (S:L91-103), or set "
                "allow_custom_manifestations (S:L89)"
            )
            errors.append(InputError(loc, message))
        elif any(key(held.name) == key(entry.name) for held in found):
            errors.append(InputError(loc, f"{entry.name!r} is listed twice"))
        else:
            found.append(entry)
    return found


@operation(
    name="npc/create",
    kind=Kind.GENERATION,
    covers=("4sight.npc.create",),
    example={"name": "Gate guard"},
)
def create_npc(request: NpcInput) -> CharacterSheet:
    """Create a non-player character: no creation budget, traits as the GM sets them.

    An average person has 0 in every trait and NPCs may go below 0 (S:L67); expertise is free
    (listed or GM-defined areas, S:L73-85); manifestations only in rare cases (S:L179); an
    Omega Section operative has none and instead gains a bonus d6 on physical checks
    (S:L229). "At least one manifestation" (S:L42) binds PCs only (S-A30).
    """
    errors: Errors = []
    field = "custom_expertise"
    approval_errors: Errors = []
    approved = approved_expertise(request.custom_expertise, field, approval_errors)
    picks = _picks(request.expertise, approved, field, False, errors)
    errors.extend(approval_errors)
    wild_card = check_wild_card(request.wild_card, ("wild_card",), picks, False, False, errors)
    manifestations = _npc_manifestations(request, errors)
    if errors:
        raise Violations(errors)
    npc = Character(
        kind=CharacterKind.NPC,
        name=request.name,
        traits=request.traits,
        expertise=tuple(picks),
        wild_card=wild_card,
        manifestations=tuple(manifestations),
        omega=request.omega,
    )
    return CharacterSheet(character=npc)
