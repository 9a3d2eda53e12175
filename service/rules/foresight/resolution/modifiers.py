"""Task modifiers: the rule-of-thumb difficulty (F:L1410-1431), player input (F:L1433-1464),
knowledge (F:L1555-1583), non-familiarity (F:L1322-1336) and long-term familiarities
(F:L1314-1316, F:L2061-2071). Each is a named term of the task's modifier sum, so a result
shows where its ease factor came from."""

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from service.rules.foresight.resolution.ease import MAX_MODIFIER, Modifiers
from service.rules.foresight.resolution.tables import (
    DIFFICULTIES,
    KNOWLEDGE,
    NON_FAMILIARITY,
    PLAYER_INPUT,
    Difficulty,
    Knowledge,
    PlayerInput,
    Unfamiliarity,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = [
    "Conditions",
    "KnowledgeInput",
    "PlayerInputList",
    "Term",
    "knowledge_modifier",
    "player_input_modifier",
    "terms",
]

PlayerInputList = Annotated[tuple[PlayerInput, ...], Field(min_length=1, max_length=3)]


class Term(Model):
    """One modifier of a task and where it came from."""

    source: str
    value: int


def player_input_modifier(qualities: Sequence[PlayerInput], loc: tuple[str, ...]) -> int:
    """Entertaining, convincing and in character are +1 each and add up (+3 in F:L1462); the
    other rows (better than nothing +0, nothing -1, unconvincing -2, ridiculous -3) stand
    alone. The table's values are used, not the example's 'nothing (+0) or unconvincing (-1)'
    (F:L1464, AMB-12)."""
    if len(set(qualities)) != len(qualities):
        raise InputError(loc, "each player-input quality counts once")
    alone = [q for q in qualities if not PLAYER_INPUT[q].stacks]
    if alone and len(qualities) > 1:
        raise InputError(
            loc, f"'{alone[0].value}' stands alone; only the positive qualities add up"
        )
    return sum(PLAYER_INPUT[q].modifier for q in qualities)


class PlayerInputInput(Model):
    qualities: PlayerInputList


class ModifierResult(Model):
    modifier: int


@operation(
    name="modifiers/player-input",
    kind=Kind.LOOKUP,
    covers=("foresight.modifiers.player_input",),
    example={"qualities": ["convincing", "in_character"]},
)
def player_input(request: PlayerInputInput) -> ModifierResult:
    """The player-input modifier (optional rule, F:L1433-1464): +1 each for entertaining,
    convincing and in character, which add up; +0 better than nothing, -1 nothing, -2
    unconvincing, -3 ridiculous."""
    return ModifierResult(modifier=player_input_modifier(request.qualities, ("qualities",)))


class KnowledgeInput(Model):
    """How much relevant knowledge the character has, as the GM judges it."""

    knowledge: Knowledge
    modifier: Annotated[int, Field(ge=-MAX_MODIFIER, le=3)] | None = Field(
        default=None,
        description="The GM's pick within the row's range; null takes the first value printed.",
    )
    helps: bool = Field(
        default=True,
        description="Does the extra knowledge help? If not, detailed and profound give +0.",
    )


def knowledge_modifier(given: KnowledgeInput, loc: tuple[str, ...]) -> int:
    """Inadequate -5 or worse, barely sufficient -4 or -3, adequate -2 or -1, fair +0,
    detailed +1, profound +2 or +3; positive only where the knowledge helps (F:L1567-1575)."""
    row = KNOWLEDGE[given.knowledge]
    if given.modifier is None:
        value = row.high if row.low is None else row.low
    else:
        value = given.modifier
        low = -MAX_MODIFIER if row.low is None else row.low
        if not low <= value <= row.high:
            raise InputError(
                (*loc, "modifier"), f"{row.label} knowledge is {row.printed}, not {value:+d}"
            )
    return 0 if row.only_if_it_helps and not given.helps else value


@operation(
    name="modifiers/knowledge",
    kind=Kind.LOOKUP,
    covers=("foresight.modifiers.knowledge",),
    example={"knowledge": "detailed"},
)
def knowledge(request: KnowledgeInput) -> ModifierResult:
    """The knowledge modifier the GM picks from the character's relevant knowledge
    (F:L1563-1575). A task that needs no knowledge takes none (F:L1583)."""
    return ModifierResult(modifier=knowledge_modifier(request, ()))


class Conditions(Model):
    """The circumstances of a task: every source of modifiers, summed before they move the BEF
    (F:L1350)."""

    modifiers: Modifiers = Field(
        default=(), description="Any other modifiers, e.g. -2 range, +1 aimed."
    )
    difficulty: Difficulty | None = Field(
        default=None, description="Rule-of-thumb difficulty (F:L1412-1421)."
    )
    player_input: PlayerInputList | None = None
    knowledge: KnowledgeInput | None = None
    non_familiarity: Annotated[tuple[Unfamiliarity, ...], Field(max_length=8)] = Field(
        default=(),
        description="Each unfamiliar object or situation involved (F:L1326-1332).",
    )
    long_term_familiarities: Annotated[int, Field(ge=0, le=8)] = Field(
        default=0, description="Relevant long-term familiarities, +1 each (F:L1314-1316)."
    )


def terms(conditions: Conditions, max_ltf: int | None) -> list[Term]:
    """Every modifier of the conditions, named; a zero term is left out. At most `max_ltf`
    long-term familiarities count (AMB-53)."""
    found = [Term(source="modifier", value=value) for value in conditions.modifiers]
    if conditions.difficulty is not None:
        row = DIFFICULTIES[conditions.difficulty]
        found.append(Term(source=f"difficulty: {row.label}", value=row.modifier))
    if conditions.player_input is not None:
        value = player_input_modifier(conditions.player_input, ("player_input",))
        found.append(Term(source="player input", value=value))
    if conditions.knowledge is not None:
        value = knowledge_modifier(conditions.knowledge, ("knowledge",))
        found.append(Term(source=f"knowledge: {conditions.knowledge.knowledge.value}", value=value))
    for degree in conditions.non_familiarity:
        found.append(Term(source=f"non-familiarity: {degree.value}",
                          value=NON_FAMILIARITY[degree].modifier))  # fmt: skip
    ltf = conditions.long_term_familiarities
    if max_ltf is not None:
        ltf = min(ltf, max_ltf)
    if ltf:
        found.append(Term(source="long-term familiarity", value=ltf))
    return [term for term in found if term.value]
