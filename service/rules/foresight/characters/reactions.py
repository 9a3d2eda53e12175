"""NPC reactions (catalogue 3.I.1, F:L2444-2463): when the GM wants chance to decide an NPC's
first demeanor, a D10 with modifiers for attraction, likeness and organisation, read as
hostile to attracted, each with the modifier it gives interaction attempts."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["DEMEANOR", "npc_reaction"]


class DemeanorRow(Model):
    low: int
    high: int
    demeanor: str
    description: str
    interaction: int


DEMEANOR = table(__name__, "demeanor", DemeanorRow)


class Organisation(StrEnum):
    NONE = "none"
    SAME = "same"
    FRIENDLY = "friendly"
    OPPOSING = "opposing"


#: The roll's organisation modifiers (F:L2455).
ORGANISATION = {Organisation.NONE: 0, Organisation.SAME: 3, Organisation.FRIENDLY: 1,
                Organisation.OPPOSING: -3}  # fmt: skip


class OutOfRange(StrEnum):
    CLAMP = "clamp"
    REROLL = "reroll"


class ReactionOptions(Model):
    out_of_range: OutOfRange = option(
        OutOfRange.CLAMP,
        ambiguity="AMB-51",
        description="A D10 and its modifiers past 1 or 10: read as 1 or 10, or rolled again "
        "until it lands within (a die of the faces that do).",
    )


class ReactionInput(Model):
    attraction: Annotated[int, Field(ge=0, le=2)] = Field(
        default=0, description="+1 to +2: the characters are attractive to the NPCs (AP 12+)."
    )
    likeness: Annotated[int, Field(ge=-2, le=2)] = Field(
        default=0, description="+1 to +2 similar to the NPCs, -1 to -2 different."
    )
    organisation: Organisation = Organisation.NONE
    options: ReactionOptions = Field(default=ReactionOptions())


class Reaction(Model):
    face: int
    total: int = Field(description="The D10 and its modifiers, read as the option says.")
    demeanor: str
    description: str
    interaction_modifier: int


def _net(request: ReactionInput) -> int:
    return request.attraction + request.likeness + ORGANISATION[request.organisation]


def _faces(request: ReactionInput) -> list[int]:
    """The faces read: all ten when clamped; those landing within 1-10 when rerolled."""
    net = _net(request)
    if request.options.out_of_range is OutOfRange.CLAMP:
        return list(range(1, 11))
    return [face for face in range(1, 11) if 1 <= face + net <= 10]


def _row(total: int) -> DemeanorRow:
    value = min(max(total, 1), 10)
    return next(r for r in DEMEANOR if r.low <= value <= r.high)


class ReactionOdds(Model):
    demeanor: list[OutcomeProbability]
    mean_interaction_modifier: Exact


def reaction_odds(request: ReactionInput) -> ReactionOdds:
    """Each demeanor, and the interaction modifier on average, exactly (catalogue 5.8)."""
    net = _net(request)
    found = Distribution({face: 1 for face in _faces(request)}).map(lambda f: _row(f + net))
    order = [r.demeanor for r in DEMEANOR]
    mean = sum((Fraction(w, found.total) * row.interaction for row, w in found.items()),
               Fraction(0))  # fmt: skip
    return ReactionOdds(demeanor=outcome_table(found.map(lambda r: r.demeanor), order),
                        mean_interaction_modifier=exact(mean))  # fmt: skip


def reaction_cost(request: ReactionInput) -> Estimate:
    """Ten faces."""
    return Estimate(100, ())


@operation(
    name="npc-reaction",
    kind=Kind.GENERATION,
    covers=("foresight.npc_reaction",),
    odds=reaction_odds,
    cost=reaction_cost,
    example={"attraction": 1, "organisation": "friendly", "dice": {"values": [7]}},
)
def npc_reaction(request: ReactionInput, dice: Dice) -> Reaction:
    """If the GM ever needs chance to set an NPC's demeanor: a D10, +1-2 if the characters
    attract the NPCs, +1-2 if alike or -1-2 if unalike, -3 for an opposing organisation, +3
    for the same, +1 for a friendly one; 1 hostile (-3 to interaction), 2-3 unfriendly (-1),
    4-7 neutral, 8-9 friendly (+1), 10 attracted (+3) (F:L2446-2457)."""
    faces = _faces(request)
    if not faces:
        raise InputError(("options", "out_of_range"), "no face lands within 1-10 to reroll to")
    net = _net(request)
    if len(faces) == 10:
        face = dice.roll(10, "D10 (demeanor)")
    else:
        face = faces[dice.roll(len(faces), f"D10 rerolled to the faces {faces[0]}-{faces[-1]}") - 1]
    row = _row(face + net)
    return Reaction(face=face, total=min(max(face + net, 1), 10), demeanor=row.demeanor,
                    description=row.description, interaction_modifier=row.interaction)  # fmt: skip
