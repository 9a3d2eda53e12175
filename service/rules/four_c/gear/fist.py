"""The Voltaic-Concussion Fist (C:L1652-1672, catalogue 3.12.5): Energy Generation (Electrical)
40, or +10 to a wearer's matching E/E Control; Amplified Energy Control (Electrical) 30; and
its power: a backpack of 20 uses recharged in 3d10+5 turns, or a belt of 10 recharged in 2d10+5,
one connected at a time. The powers are the core's E/E Generation and Amplified E/E Control at
the Fist's Rank Values; the charges are state in, state out."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Exact,
    OutcomeProbability,
    exact,
    not_rolled,
    outcome_table,
)
from service.rules.four_c.core.dice import (
    DiceMode,
    Ndx,
    NdxInput,
    ndx,
    ndx_cost,
    ndx_distribution,
    written_dice,
)
from service.rules.four_c.core.ranks import MAX_RV, RankValue
from service.rules.four_c.gear.options import FistOptions
from service.rules.four_c.gear.tables import FIST, Source, source_row
from service.rules.four_c.powers.core import PowerOptions, greater_of
from service.rules.four_c.powers.elements import (
    Amplified,
    AmplifiedInput,
    Generation,
    GenerationInput,
    amplified_ee_control,
    ee_generation,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["FistAction", "FistPower", "voltaic_fist"]

ITEM = FIST[0]


class FistAction(StrEnum):
    WEAR = "wear"
    USE = "use"
    RECHARGE = "recharge"
    SWITCH = "switch"


class FistPower(Model):
    """The Fist's power sources: uses left in each, and which is connected."""

    backpack_uses: Annotated[int, Field(ge=0, le=20)] = Field(default=20)
    belt_uses: Annotated[int, Field(ge=0, le=10)] = Field(default=10)
    connected: Source = Field(default=Source.BACKPACK)


class FistInput(Model):
    control_rv: RankValue | None = Field(
        default=None, description="The wearer's Elemental/Energy Control (Electrical), if any."
    )
    melee: RankValue | None = Field(
        default=None, description="The wearer's Melee, for a bashing attack with the Fist."
    )
    power: FistPower = Field(default=FistPower())
    action: FistAction = Field(
        default=FistAction.WEAR,
        description="wear: only the powers; use: spend uses from the connected source (an "
        "attack or a power used through the Fist, catalogue 3.12.5); recharge: refill a source "
        "at an advanced energy supply; switch: connect the other source (1 turn).",
    )
    uses: Annotated[int, Field(ge=1, le=20)] = Field(default=1, description="For use.")
    source: Source | None = Field(
        default=None, description="For recharge: the source; null, the one connected."
    )
    options: FistOptions = Field(default=FistOptions())


class VoltaicFist(Model):
    generation_rv: int | None = Field(
        description="Energy Generation (Electrical): 40, none when the Fist boosts Control "
        "instead, 50 with fist_stack_matching_bonus."
    )
    control_rv: int = Field(description="The effective E/E Control (Electrical) Rank Value.")
    control_source: str = Field(description="'control' (the wearer's own) or 'amplified'.")
    mode: DiceMode = Field(description="Amplified dice on Control's rolls (C:L490).")
    melee_attack_rv: int | None = Field(
        description="A melee attack with the power: the greater of Control or Melee +10."
    )
    damage: int = Field(description="An attack with the power deals its Rank Value.")
    power: FistPower = Field(description="The power sources after the action.")
    turns: int = Field(description="Turns the action takes.")
    recharge_turns: int | None = Field(description="The recharge's 3d10+5 or 2d10+5 turns.")
    recharge_faces: tuple[int, ...] = Field(description="Its d10s as they count.")


def _amplified(request: AmplifiedInput) -> Amplified:
    found = amplified_ee_control.rule(request)
    assert isinstance(found, Amplified)
    return found


def _generation(request: GenerationInput) -> Generation:
    found = ee_generation.rule(request)
    assert isinstance(found, Generation)
    return found


def _control(request: FistInput) -> tuple[int | None, int, str]:
    """Generation, Control and where Control comes from (A-45): without Control, Amplified 30
    on Generation 40 controls at 30/2 + 10 = 25; with Control X, the Fist's +10 and Amplified's
    15 make X + 25, and the option adds C:L612's matching +10 on top."""
    rounding = PowerOptions(half_rounding=request.options.half_rounding)
    own = request.control_rv
    if own is None:
        generation = ITEM.generation_rv
        found = _amplified(
            AmplifiedInput(power_rv=ITEM.amplified_rv, generation_rv=generation, options=rounding)
        )
        return generation, found.control_rv, found.source
    boosted = min(own + ITEM.matching_control_bonus, MAX_RV)  # the scale ends
    generation_rv = None
    if request.options.fist_stack_matching_bonus:
        matched = _generation(
            GenerationInput(power_rv=ITEM.generation_rv, matching_control_rv=boosted,
                            options=rounding)
        )  # fmt: skip
        generation_rv, boosted = matched.generation_rv, min(matched.control_rv, MAX_RV)
    found = _amplified(
        AmplifiedInput(power_rv=ITEM.amplified_rv, control_rv=boosted, options=rounding)
    )
    return generation_rv, found.control_rv, found.source


def _recharged(request: FistInput) -> Source:
    return request.source or request.power.connected


def _dice(request: FistInput) -> NdxInput:
    row = source_row(_recharged(request))
    return written_dice(row.recharge_d10s, row.recharge_add, request.options)


def _spend(request: FistInput) -> FistPower:
    state = request.power
    field = f"{state.connected.value}_uses"
    left = getattr(state, field)
    if request.uses > left:
        raise InputError(
            ("uses",), f"{request.uses} uses but the {state.connected.value} has {left} left"
        )
    return state.model_copy(update={field: left - request.uses})


class FistOdds(Model):
    recharge_turns: list[OutcomeProbability] = Field(
        description="The recharge time of the source recharged (the one connected by "
        "default); 'not_rolled' for any other action."
    )
    mean_recharge_turns: Exact | None = Field(description="Null for any action but recharge.")


def fist_odds(request: FistInput) -> FistOdds:
    """3d10+5 (8-35, mean 21.5) or 2d10+5 (7-25, mean 16), exactly (catalogue 5.4); only a
    recharge rolls. Like the action, they refuse more uses than the source has left."""
    if request.action is FistAction.USE:
        _spend(request)
    if request.action is not FistAction.RECHARGE:
        return FistOdds(recharge_turns=not_rolled(),
                        mean_recharge_turns=None)  # fmt: skip
    found = ndx_distribution(_dice(request))
    return FistOdds(recharge_turns=outcome_table(found), mean_recharge_turns=exact(found.mean()))


def fist_cost(request: FistInput) -> Estimate:
    """The recharge dice (`ndx_cost` of 3d10 at most): the same for every request."""
    return Estimate(ndx_cost(NdxInput(count=3)).states, ())


@operation(
    name="gear/voltaic-fist",
    kind=Kind.CHECK,
    covers=("4c.gear.voltaic_fist",),
    odds=fist_odds,
    cost=fist_cost,
    example={"power": {"backpack_uses": 0}, "action": "recharge", "dice": {"values": [4, 7, 2]}},
)
def voltaic_fist(request: FistInput, dice: Dice) -> VoltaicFist:
    """Worn, the Fist grants Energy Generation (Electrical) 40, or +10 to the wearer's matching
    E/E Control, and Amplified Energy Control (Electrical) 30. Its backpack powers 20 uses and
    recharges in 3d10+5 turns at an advanced energy supply; a belt powers 10 and recharges in
    2d10+5; switching between them takes 1 turn (C:L1662-1672, A-45)."""
    generation, control, source = _control(request)
    power, turns, recharge = request.power, 0, None
    faces: tuple[int, ...] = ()
    if request.action is FistAction.USE:
        power = _spend(request)
    elif request.action is FistAction.SWITCH:
        other = Source.BELT if power.connected is Source.BACKPACK else Source.BACKPACK
        power, turns = power.model_copy(update={"connected": other}), ITEM.switch_turns
    elif request.action is FistAction.RECHARGE:
        rolled = ndx.rule(_dice(request), dice)
        assert isinstance(rolled, Ndx)
        charged = _recharged(request)
        full = source_row(charged).uses
        power = power.model_copy(update={f"{charged.value}_uses": full})
        turns, recharge, faces = rolled.total, rolled.total, rolled.faces
    melee = request.melee
    return VoltaicFist(
        generation_rv=generation,
        control_rv=control,
        control_source=source,
        mode=DiceMode.AMPLIFIED,
        melee_attack_rv=None if melee is None else greater_of(control, melee),
        damage=control,
        power=power,
        turns=turns,
        recharge_turns=recharge,
        recharge_faces=faces,
    )
