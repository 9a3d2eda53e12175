"""Fortune spent on a roll (C:L959-963), and the "whichever is greater" Rank Value of many
powers (catalogue 3.0)."""

from typing import Annotated

from pydantic import Field

from service.rules.four_c.core.master_table import FORTUNE_PER_SHIFT
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["alter_roll", "greater_of"]


class Contribution(Model):
    """What one character pays into the roll."""

    payer: Annotated[str, Field(min_length=1, max_length=60)]
    fortune: Annotated[int, Field(ge=0, le=1_000_000)] = Field(description="Fortune they have.")
    shifts: Annotated[int, Field(ge=-3, le=3)] = Field(
        description="Colours wanted: up toward yellow (+), down toward black (-)."
    )


class AlterInput(Model):
    colour: Colour = Field(description="The colour the roll landed on.")
    contributions: Annotated[tuple[Contribution, ...], Field(min_length=1, max_length=8)]


class Payment(Model):
    payer: str
    shifts_wanted: int
    shifts_bought: int = Field(description="As many as their Fortune pays for, at most wanted.")
    spent: int
    fortune_left: int


class Altered(Model):
    colour_before: Colour
    colour: Colour
    net_shifts: int
    wasted_shifts: int = Field(description="Shifts past black or yellow: paid, to no effect.")
    payments: list[Payment]


def _payment(contribution: Contribution) -> Payment:
    """A payer buys the shifts they want, or as many as 25 Fortune each pays for: Tony wants
    two and has 37, so buys one and keeps 12 (C:L963)."""
    affordable = contribution.fortune // FORTUNE_PER_SHIFT
    bought = max(min(contribution.shifts, affordable), -affordable)
    spent = FORTUNE_PER_SHIFT * abs(bought)
    return Payment(payer=contribution.payer, shifts_wanted=contribution.shifts,
                   shifts_bought=bought, spent=spent,
                   fortune_left=contribution.fortune - spent)  # fmt: skip


@operation(
    name="fortune/alter-roll",
    kind=Kind.CALCULATION,
    covers=("4c.fortune.alter_roll",),
    example={"colour": "blue", "contributions": [{"payer": "Tony", "fortune": 37, "shifts": -2}]},
)
def alter_roll(request: AlterInput) -> Altered:
    """After any Master Table roll, anyone may spend 25 Fortune to shift its colour one step
    either way, and several may pay into one roll (C:L959-963). Opposing shifts cancel and
    both pay (A-67); shifts past black or yellow are wasted, and a request that would change
    nothing at all is refused so that nobody pays for nothing (catalogue 3.2.2)."""
    payments = [_payment(c) for c in request.contributions]
    for index, payment in enumerate(payments):
        if payment.shifts_wanted == 0:
            raise InputError(
                ("contributions", index, "shifts"), "a payer shifts one colour or more"
            )
        if payment.shifts_bought == 0:
            raise InputError(
                ("contributions", index, "fortune"),
                f"{payment.payer} cannot pay for a shift: each costs {FORTUNE_PER_SHIFT} Fortune",
            )
    net = sum(p.shifts_bought for p in payments)
    colour = Colour.at(request.colour.level + net)
    moved = colour.level - request.colour.level
    if net and not moved and all(p.shifts_bought * net > 0 for p in payments):
        raise InputError(
            ("contributions",),
            f"the roll is already {request.colour.value}: these shifts would change nothing",
        )
    return Altered(colour_before=request.colour, colour=colour, net_shifts=net,
                   wasted_shifts=abs(net - moved), payments=payments)  # fmt: skip


class GreaterInput(Model):
    power_rv: RankValue
    trait_rv: RankValue
    bonus: Annotated[int, Field(ge=0, le=100)] = Field(
        default=10, description="Added to the trait: +10 in most powers; 0 where none is said."
    )


class Greater(Model):
    rv: int
    source: str = Field(description="'power' or 'trait', whichever gave the Rank Value.")


@operation(
    name="effective-rv/greater-of",
    kind=Kind.CALCULATION,
    covers=("4c.effective_rv.greater_of",),
    example={"power_rv": 20, "trait_rv": 30},
)
def greater_of(request: GreaterInput) -> Greater:
    """ "Use the power's Rank Value or the character's trait +10, whichever is greater"
    (catalogue 3.0; Animal Command, C:L496)."""
    trait = request.trait_rv + request.bonus
    if request.power_rv >= trait:
        return Greater(rv=request.power_rv, source="power")
    return Greater(rv=trait, source="trait")
