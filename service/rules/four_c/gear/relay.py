"""The Shrouded Relay (C:L1626-1650, catalogue 3.12.4): while worn, Telepathy 50 with other
Relays only (or +10 to innate Telepathy), Trait Increase (Willpower) (or +5 if already owned),
Mind Shield 30, and Psychic Scars: each use of its Telepathy is a Willpower test on the Master
Table, black costing a point of Willpower for good."""

from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.core.master_table import (
    MasterInput,
    Resolved,
    colour_distribution,
    master_cost,
    resolve_roll,
)
from service.rules.four_c.core.ranks import MAX_RV, Laddered, RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.gear.options import RelayOptions, RelayWillpower, ScarsTrait
from service.rules.four_c.gear.tables import RELAY
from service.rules.four_c.powers.core import PowerOptions
from service.rules.four_c.powers.mind import MindShield, MindShieldInput, mind_shield
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["shrouded_relay"]

ITEM = RELAY[0]
MAX_USES = 10


class RelayInput(Laddered):
    willpower: RankValue = Field(description="The wearer's Willpower without the Relay.")
    telepathy_rv: RankValue | None = Field(
        default=None, description="The wearer's own Telepathy, if any."
    )
    trait_increase_willpower: bool = Field(
        default=False, description="The wearer already has Trait Increase (Willpower)."
    )
    mental_force_field_rv: RankValue | None = Field(
        default=None, description="Force Field (Mental), if the wearer has it (Mind Shield)."
    )
    relays_in_set: Annotated[int, Field(ge=1, le=1000)] = Field(
        default=1, description="Relays tuned together: ten minutes each (C:L1644)."
    )
    telepathy_uses: Annotated[int, Field(ge=0, le=MAX_USES)] = Field(
        default=0, description="Uses of the Relay's Telepathy: a Psychic Scars test each."
    )
    options: RelayOptions = Field(default=RelayOptions())


class ShroudedRelay(Model):
    telepathy_rv: int = Field(description="50, or the wearer's Telepathy +10.")
    mind_reading: bool = Field(
        description="False with the Relay's own Telepathy: it talks only to other Relays."
    )
    willpower_bonus: int = Field(description="Trait Increase (Willpower): +15 (A-44), or +5.")
    willpower_worn: int = Field(description="Willpower while the Relay is worn, after the scars.")
    mind_shield: MindShield = Field(description="Mind Shield 30, on the Willpower worn.")
    tuning_minutes: int
    scars: list[Resolved] = Field(description="Each Psychic Scars test, in order.")
    willpower_lost: int = Field(description="Points of Willpower lost for good.")
    willpower: int = Field(description="The wearer's own Willpower after the scars.")
    fortune_change: int = Field(description="Off Fortune for the Willpower lost (A-35).")


def willpower_bonus(request: RelayInput) -> int:
    """Trait Increase gives +15 (A-44: +20 as if rolled twice); a wearer who has it already
    gains +5 (C:L1640)."""
    if request.trait_increase_willpower:
        return ITEM.owned_trait_increase_bonus
    return 20 if request.options.relay_trait_increase is RelayWillpower.PLUS_20 else 15


def _tested(request: RelayInput, willpower: int) -> MasterInput:
    """The Psychic Scars test on Willpower as it stands (worn by default, option)."""
    worn = request.options.psychic_scars_trait is ScarsTrait.WORN
    rv = min(willpower + (willpower_bonus(request) if worn else 0), MAX_RV)
    return MasterInput(rv=rv, options=request.options, master_table=request.master_table,
                       custom_master_table=request.custom_master_table)  # fmt: skip


def _scarred(colour: Colour) -> bool:
    return colour is ITEM.scar_colour


class RelayOdds(Model):
    willpower_lost: list[OutcomeProbability] = Field(
        description="Points of Willpower lost over the uses."
    )
    scar_chance: Exact = Field(description="The chance the first test is black.")
    master_table: str


def relay_odds(request: RelayInput) -> RelayOdds:
    """Each test reads the Willpower the scars before it left: the chain is followed over
    every Willpower it can reach (catalogue 5.1)."""
    chance: dict[int, Distribution[bool]] = {}

    def scar(willpower: int) -> Distribution[bool]:
        if willpower not in chance:
            chance[willpower] = colour_distribution(_tested(request, willpower)).map(_scarred)
        return chance[willpower]

    step = ITEM.willpower_lost_per_scar
    left: Distribution[int] = Distribution({request.willpower: 1})
    for _ in range(request.telepathy_uses):
        left = left.then(lambda w: scar(w).map(lambda hit: max(w - step, 0) if hit else w))
    return RelayOdds(
        willpower_lost=outcome_table(left.map(lambda w: request.willpower - w)),
        scar_chance=exact(scar(request.willpower).probability(True)),
        master_table=request.table_name,
    )


def relay_cost(request: RelayInput) -> Estimate:
    """A Master Table roll (`master_cost`) at each Willpower the chain reaches, one more than
    the uses, and the chain's few states."""
    reached = request.telepathy_uses + 1
    states = (reached + 1) * (master_cost(request).states + 10) + 20 * reached * reached + 100
    return Estimate(states, ("/telepathy_uses",))


@operation(
    name="gear/shrouded-relay",
    kind=Kind.CHECK,
    covers=("4c.gear.shrouded_relay",),
    odds=relay_odds,
    cost=relay_cost,
    example={"willpower": 20, "telepathy_uses": 2, "dice": {"values": [2, 5, 7, 1]}},
)
def shrouded_relay(request: RelayInput, dice: Dice) -> ShroudedRelay:
    """Worn, the Relay grants Telepathy 50 to talk with other Relays, not to read minds, or +10
    to the wearer's own; Trait Increase (Willpower), or +5 Willpower to one who has it; and Mind
    Shield 30. Relays are tuned at ten minutes each. Each use of its Telepathy is a Willpower
    test: black costs a point of Willpower for good (C:L1636-1650)."""
    willpower = request.willpower
    scars = []
    for use in range(request.telepathy_uses):
        found = resolve_roll(_tested(request, willpower), dice, f"psychic scars {use + 1} d%")
        scars.append(found)
        if _scarred(found.colour):
            willpower = max(willpower - ITEM.willpower_lost_per_scar, 0)
    lost = request.willpower - willpower
    worn = min(willpower + willpower_bonus(request), MAX_RV)  # the scale ends
    innate = request.telepathy_rv
    shield = mind_shield.rule(
        MindShieldInput(power_rv=ITEM.mind_shield_rv, willpower=worn,
                        mental_force_field_rv=request.mental_force_field_rv,
                        options=PowerOptions(half_rounding=request.options.half_rounding))
    )  # fmt: skip
    assert isinstance(shield, MindShield)
    return ShroudedRelay(
        telepathy_rv=ITEM.telepathy_rv if innate is None else innate + ITEM.innate_telepathy_bonus,
        mind_reading=innate is not None,
        willpower_bonus=willpower_bonus(request),
        willpower_worn=worn,
        mind_shield=shield,
        tuning_minutes=ITEM.tuning_minutes_per_relay * request.relays_in_set,
        scars=scars,
        willpower_lost=lost,
        willpower=willpower,
        fortune_change=-lost if request.options.recompute_fortune else 0,
    )
