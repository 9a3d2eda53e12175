"""4SIGHT character advancement (S:L231-243): awarding points after a mission and spending
them before the next one."""

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_sight.characters import (
    MAX_ADVANCEMENT_POINTS,
    MAX_EXPERTISE,
    MAX_MANIFESTATIONS,
    Character,
    CustomExpertise,
    ExpertiseEntry,
    ManifestationEntry,
    TraitScores,
    approved_expertise,
    check_wild_card,
    key,
    resolve_expertise,
    resolve_manifestation,
)
from service.rules.four_sight.options import CharacterOptions
from service.rules.four_sight.traits import MAX_TRAIT, Trait
from service.rules.model import InputError, Model, Violations
from service.rules.registry import Kind, operation

__all__ = [
    "BEST_PLAYER_BONUS",
    "SURVIVAL_POINTS",
    "Award",
    "AwardInput",
    "Awards",
    "MissionCharacter",
    "Purchase",
    "PurchaseKind",
    "SpendInput",
    "Spending",
    "award",
    "spend",
]

SURVIVAL_POINTS = 1  # "Characters who survive a mission should be awarded a ... point" (S:L233)
BEST_PLAYER_BONUS = 1  # "a bonus advancement point to the player who did the best job" (S:L235)

Label = Annotated[str, Field(min_length=1, max_length=60)]
Points = Annotated[int, Field(ge=0, le=MAX_ADVANCEMENT_POINTS)]
Errors = list[InputError]


class MissionCharacter(Model):
    """A character who went on the mission."""

    id: Label = Field(description="The caller's identifier of the character; unique.")
    survived: bool


class AwardInput(Model):
    """The characters of a finished mission and the player the GM judged best (S:L233-235)."""

    characters: Annotated[tuple[MissionCharacter, ...], Field(min_length=1, max_length=32)]
    best_player: Label | None = Field(
        default=None,
        description="The id of the character whose player did the best job (clever play, "
        "in-character dialogue, ...); null for no bonus.",
    )


class Award(Model):
    """The advancement points one character earned on the mission."""

    id: str
    survival: int = Field(description="1 if the character survived (S:L233).")
    bonus: int = Field(description="1 for the player who did the best job (S:L233-235).")
    total: int


class Awards(Model):
    """Each character's award, in the order given."""

    awards: list[Award]


def _award_errors(request: AwardInput) -> Errors:
    errors: Errors = []
    first: dict[str, int] = {}
    for index, character in enumerate(request.characters):
        seen = first.setdefault(character.id, index)
        if seen != index:
            message = f"id {character.id!r} is already used by characters[{seen}]"
            errors.append(InputError(("characters", index, "id"), message))
    best = request.best_player
    if best is not None and best not in first:
        message = f"best_player {best!r} is not the id of one of the characters"
        errors.append(InputError(("best_player",), message))
    return errors


@operation(
    name="advancement/award",
    kind=Kind.CALCULATION,
    covers=("4sight.advancement.award",),
    example={"characters": [{"id": "vera", "survived": True}, {"id": "bo", "survived": True}]},
)
def award(request: AwardInput) -> Awards:
    """Award advancement points after a mission: 1 per survivor, +1 to the best player.

    "Characters who survive a mission should be awarded a character advancement point.
    Additionally, the GM should award a bonus advancement point to the player who did the
    best job" (S:L233-235). The bonus rewards the player, so it is given even when that
    player's character died.
    """
    errors = _award_errors(request)
    if errors:
        raise Violations(errors)
    awards = []
    for character in request.characters:
        survival = SURVIVAL_POINTS if character.survived else 0
        bonus = BEST_PLAYER_BONUS if character.id == request.best_player else 0
        total = survival + bonus
        awards.append(Award(id=character.id, survival=survival, bonus=bonus, total=total))
    return Awards(awards=awards)


class PurchaseKind(StrEnum):
    """What advancement points buy (S:L239-243, S-A26)."""

    TRAIT = "trait"
    EXPERTISE = "expertise"
    WILD_CARD = "wild_card"
    MANIFESTATION = "manifestation"


class Purchase(Model):
    """One purchase; set only the field its kind names."""

    kind: PurchaseKind
    trait: Trait | None = Field(default=None, description="For `trait`: the trait to raise by 1.")
    expertise: Label | None = Field(
        default=None,
        description="For `expertise`: a listed affinity or specialty, or a GM-approved area.",
    )
    wild_card: Label | None = Field(
        default=None, description="For `wild_card`: the wild-card specialty (S:L85, S-A26)."
    )
    manifestation: Label | None = Field(
        default=None,
        description="For `manifestation`: one of the seven, or a GM-approved custom one.",
    )


class SpendInput(Model):
    """A character record and what the player buys with the advancement points (S:L237)."""

    character: Character = Field(description="The record `character/create` returned.")
    points: Points | None = Field(
        default=None,
        description="The points available; null = the record's advancement_points.",
    )
    purchases: Annotated[tuple[Purchase, ...], Field(max_length=32)] = Field(
        description="Bought in order; spending is optional (S:L237), so this may be empty."
    )
    gm_approved_expertise: Annotated[tuple[CustomExpertise, ...], Field(max_length=8)] = Field(
        default=(), description="New areas of expertise the GM approved (S:L73)."
    )
    wild_card_gm_approved: bool = Field(
        default=False, description="The GM approved the wild card bought (S:L85, S-A05)."
    )
    gm_approved_manifestations: Annotated[tuple[Label, ...], Field(max_length=8)] = Field(
        default=(), description="Custom manifestations the GM approved (S:L89)."
    )
    options: CharacterOptions = Field(
        default=CharacterOptions(), description="The costs (S-A26), trait_cap (S-A03), S-A04."
    )


class Spending(Model):
    """The character after the purchases, and the points used and left."""

    character: Character
    points_spent: int
    points_left: int = Field(description="Unspent points carry over (S:L237, S-A26).")


_FIELD = {
    PurchaseKind.TRAIT: "trait",
    PurchaseKind.EXPERTISE: "expertise",
    PurchaseKind.WILD_CARD: "wild_card",
    PurchaseKind.MANIFESTATION: "manifestation",
}

Loc = tuple[str | int, ...]


@dataclass
class _Sheet:
    """The character being changed, purchase by purchase, and every violation found."""

    request: SpendInput
    approved: dict[str, CustomExpertise]
    scores: dict[str, int]
    expertise: list[ExpertiseEntry]
    wild_card: ExpertiseEntry | None
    manifestations: list[ManifestationEntry]
    errors: Errors = field(default_factory=list)

    @classmethod
    def of(cls, request: SpendInput) -> "_Sheet":
        character, errors = request.character, list[InputError]()
        areas = request.gm_approved_expertise
        approved = approved_expertise(areas, "gm_approved_expertise", errors)
        traits = character.traits.model_dump()
        expertise, manifestations = list(character.expertise), list(character.manifestations)
        return cls(
            request, approved, traits, expertise, character.wild_card, manifestations, errors
        )

    def held(self) -> list[ExpertiseEntry]:
        return self.expertise + ([self.wild_card] if self.wild_card else [])

    def fail(self, loc: Loc, message: str) -> None:
        self.errors.append(InputError(loc, message))

    def trait(self, trait: Trait, loc: Loc) -> None:
        """+1 to one trait (S:L239, S-A26), up to the cap if the GM set one (S-A03)."""
        cap = _cap(self.request.options)
        score = self.scores[trait.value] + 1
        if score > cap:
            self.fail(loc, f"{trait.value} {score} would exceed the trait cap {cap} (S-A03)")
        else:
            self.scores[trait.value] = score

    def expertise_area(self, name: str, loc: Loc) -> None:
        """A new affinity or specialty (S:L241), listed or GM-approved (S:L73); an upgrade from
        an affinity to its specialty is a new pick (S-A26); by default none held twice (S-A04)."""
        entry = resolve_expertise(name, self.approved)
        duplicates = self.request.options.allow_duplicate_expertise
        if entry is None:
            message = (
                f"unknown expertise {name!r}: not an affinity or specialty of the catalogue "
                "(S:L75-83) nor in gm_approved_expertise (S:L73)"
            )
        elif not duplicates and any(key(e.name) == key(entry.name) for e in self.held()):
            message = f"the character already has {entry.name!r} (S-A04)"
        elif len(self.expertise) >= MAX_EXPERTISE:
            message = f"a record holds at most {MAX_EXPERTISE} areas of expertise"
        else:
            self.expertise.append(entry)
            return
        self.fail(loc, message)

    def wild(self, name: str, loc: Loc) -> None:
        """A wild card if none is held, at the price of a specialty (S:L85, S-A26)."""
        if self.wild_card is not None:
            held = self.wild_card.name
            self.fail(loc, f"the character already has the wild card {held!r}; one at most (S:L85)")
            return
        options = self.request.options
        approval = options.wild_card_requires_gm_approval and not self.request.wild_card_gm_approved
        duplicates = options.allow_duplicate_expertise
        self.wild_card = check_wild_card(name, loc, self.held(), approval, duplicates, self.errors)

    def manifestation(self, name: str, loc: Loc) -> None:
        """One more manifestation (S:L243), listed or GM-approved (S:L89), not one already held;
        never for an Omega operative (S:L229)."""
        approved = {key(n) for n in self.request.gm_approved_manifestations}
        entry = resolve_manifestation(name, key(name) in approved)
        if self.request.character.omega:
            message = "Omega Section operatives have no 4SIGHT manifestations (S:L229)"
        elif entry is None:
            message = (
                f"unknown manifestation {name!r}: not one of the seven (S:L91-103) nor in "
                "gm_approved_manifestations (S:L89)"
            )
        elif any(key(m.name) == key(entry.name) for m in self.manifestations):
            message = f"the character already has {entry.name!r}"
        elif len(self.manifestations) >= MAX_MANIFESTATIONS:
            message = f"a record holds at most {MAX_MANIFESTATIONS} manifestations"
        else:
            self.manifestations.append(entry)
            return
        self.fail(loc, message)

    def buy(self, purchase: Purchase, index: int) -> None:
        """Apply one purchase, or record why it cannot be made."""
        loc: Loc = ("purchases", index)
        if not _fields_ok(purchase, loc, self.errors):
            return
        where = (*loc, _FIELD[purchase.kind])
        if purchase.trait is not None:
            self.trait(purchase.trait, where)
        elif purchase.expertise is not None:
            self.expertise_area(purchase.expertise, where)
        elif purchase.wild_card is not None:
            self.wild(purchase.wild_card, where)
        elif purchase.manifestation is not None:
            self.manifestation(purchase.manifestation, where)


def _cost(kind: PurchaseKind, options: CharacterOptions) -> int:
    """Trait = 2, affinity/specialty = 3 (a wild card too), manifestation = 10 (S:L239-243)."""
    if kind is PurchaseKind.TRAIT:
        return options.trait_step_cost
    if kind is PurchaseKind.MANIFESTATION:
        return options.manifestation_cost
    return options.expertise_cost


def _fields_ok(purchase: Purchase, loc: Loc, errors: Errors) -> bool:
    """A purchase sets the one field its kind names, and no other."""
    count = len(errors)
    wanted = _FIELD[purchase.kind]
    for name in _FIELD.values():
        given = getattr(purchase, name) is not None
        if name == wanted and not given:
            message = f"a {purchase.kind.value} purchase names the {name} it buys"
            errors.append(InputError((*loc, name), message))
        elif name != wanted and given:
            message = f"{name} is not used by a {purchase.kind.value} purchase"
            errors.append(InputError((*loc, name), message))
    return len(errors) == count


def _cap(options: CharacterOptions) -> int:
    """No cap is stated (S-A03); the GM's cap, else the largest score a record holds."""
    return MAX_TRAIT if options.trait_cap is None else min(options.trait_cap, MAX_TRAIT)


def _points(request: SpendInput, cost: int, errors: Errors) -> int:
    """The points available, checked against the cost of the purchases (S:L237)."""
    given = request.points
    have = request.character.advancement_points if given is None else given
    if cost > have:
        loc = ("points",) if given is not None else ("character", "advancement_points")
        message = f"not enough advancement points: the purchases cost {cost}, {have} available"
        errors.append(InputError(loc, message))
    return have


@operation(
    name="advancement/spend",
    kind=Kind.CALCULATION,
    covers=("4sight.advancement.spend",),
    example={
        "character": {
            "kind": "pc",
            "name": "Vera Quill",
            "traits": {
                "strength": 1,
                "dexterity": 3,
                "constitution": 2,
                "intelligence": 3,
                "wisdom": 2,
                "charisma": 1,
            },
            "expertise": [
                {
                    "name": "Combat",
                    "kind": "affinity",
                    "affinity": "combat",
                    "custom": False,
                    "dice": 1,
                },
                {
                    "name": "stealth",
                    "kind": "specialty",
                    "affinity": "espionage",
                    "custom": False,
                    "dice": 2,
                },
                {
                    "name": "chemistry",
                    "kind": "specialty",
                    "affinity": "sciences",
                    "custom": False,
                    "dice": 2,
                },
            ],
            "wild_card": None,
            "manifestations": [{"manifestation": "sixth_sense", "name": "Sixth Sense"}],
            "omega": False,
            "advancement_points": 0,
        },
        "points": 5,
        "purchases": [
            {"kind": "trait", "trait": "wisdom"},
            {"kind": "expertise", "expertise": "physics"},
        ],
    },
)
def spend(request: SpendInput) -> Spending:
    """Spend advancement points before a mission: trait +1 = 2, affinity/specialty = 3,
    manifestation = 10.

    "Prior to the next mission, characters may but need not spend any advancement points
    they have earned as follows: Trait = 2 points, Affinity/Specialty = 3 points, 4SIGHT
    Manifestation = 10 points" (S:L237-243). Read as: 2 points per +1 to one trait; 3 per
    new affinity or specialty, a wild card if none is held, or an upgrade (a new pick);
    unspent points carry over (S-A26). No trait cap unless the GM sets one (S-A03).
    Purchases apply in order; every violation is reported at once.
    """
    sheet = _Sheet.of(request)
    for index, purchase in enumerate(request.purchases):
        sheet.buy(purchase, index)
    cost = sum(_cost(purchase.kind, request.options) for purchase in request.purchases)
    have = _points(request, cost, sheet.errors)
    if sheet.errors:
        raise Violations(sheet.errors)
    character = request.character.model_copy(
        update={
            "traits": TraitScores(**sheet.scores),
            "expertise": tuple(sheet.expertise),
            "wild_card": sheet.wild_card,
            "manifestations": tuple(sheet.manifestations),
            "advancement_points": have - cost,
        }
    )
    return Spending(character=character, points_spent=cost, points_left=have - cost)
