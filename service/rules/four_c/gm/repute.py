"""How the public reacts to a character: a Master Table roll on Repute (C:L1395-1415)."""

from enum import StrEnum

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import OutcomeProbability, outcome_table
from service.rules.four_c.core.master_table import (
    MasterInput,
    Resolved,
    resolve_roll,
    result_distribution,
    table_cost,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.gm.options import CriminalReaction, GmOptions
from service.rules.four_c.gm.tables import REACTIONS, Reaction
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["reaction"]


class Audience(StrEnum):
    CITIZENS = "citizens"
    CRIMINALS = "criminals"


class ReactionInput(MasterInput):
    rv: RankValue = Field(description="The character's Repute, read as a Rank Value (A-06).")
    audience: Audience = Audience.CITIZENS
    options: GmOptions = Field(default=GmOptions())


class Reacted(Resolved):
    reaction: Reaction
    quote: str | None = Field(description="What a citizen says (C:L1401-1405).")


def reaction_of(colour: Colour, audience: Audience, options: GmOptions) -> Reaction:
    """Citizens as the table says; criminals reversed, black favorable (C:L1415, A-36)."""
    if audience is Audience.CITIZENS:
        return next(row.reaction for row in REACTIONS if row.colour is colour)
    if options.criminal_reaction is CriminalReaction.BLACK_FAVORABLE_ONLY:
        return Reaction.FAVORABLE if colour is Colour.BLACK else Reaction.UNFAVORABLE
    mirrored = Colour.at(Colour.YELLOW.level - colour.level)
    return next(row.reaction for row in REACTIONS if row.colour is mirrored)


class ReactionOdds(Model):
    reaction: list[OutcomeProbability]
    master_table: str


def reaction_odds(request: ReactionInput) -> ReactionOdds:
    table = {c: reaction_of(c, request.audience, request.options).value for c in Colour}
    found = result_distribution(request, table)
    return ReactionOdds(reaction=outcome_table(found, [r.value for r in Reaction]),
                        master_table=request.table_name)  # fmt: skip


@operation(
    name="repute/reaction",
    kind=Kind.CHECK,
    covers=("4c.repute.reaction",),
    odds=reaction_odds,
    cost=table_cost,
    example={"rv": 17, "row_steps": [2], "dice": {"values": [6, 1]}},
)
def reaction(request: ReactionInput, dice: Dice) -> Reacted:
    """Roll Repute on the Master Table: black unfavorable, red favorable, blue very favorable,
    yellow extremely favorable; threatening is -2 Row Steps and friendliness +2 (C:L1395-1413);
    criminals read it reversed (C:L1415)."""
    resolved = resolve_roll(request, dice)
    found = reaction_of(resolved.colour, request.audience, request.options)
    quote = next(row.quote for row in REACTIONS if row.reaction is found)
    citizens = request.audience is Audience.CITIZENS
    return Reacted(**dict(resolved), reaction=found, quote=quote if citizens else None)
