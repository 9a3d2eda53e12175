"""Powers that stop harm: Absorption (C:L474-482), Body Armor (C:L504-506) and Force Field
(C:L667-673). Damage past a power is suffered normally, never below 0 (A-22)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.core.dice import ndx_distribution, roll_ndx, span
from service.rules.four_c.core.master_table import colour_distribution
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    Outcome,
    PowerCheck,
    PowerRoll,
    greater_of,
    half,
    power_cost,
    power_master,
    roll_power,
    threshold,
)
from service.rules.four_c.powers.elements import Element
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["absorption", "body_armor", "force_field"]

Damage = Annotated[int, Field(ge=0, le=100_000)]
Points = Annotated[int, Field(ge=0, le=1_000_000)]


class AbsorbedUse(StrEnum):
    HEAL = "heal"
    ATTACK = "attack"
    NONE = "none"


class AbsorptionInput(Model):
    power_rv: RankValue = Field(description="Absorption's Rank Value.")
    element: Element = Field(default=Element.FIRE, description="The type chosen at creation.")
    hits: tuple[Damage, ...] = Field(
        min_length=1,
        max_length=16,
        description="The damage of each attack of the chosen type this turn, before armor.",
    )
    armor_rv: RankValue = Field(default=0, description="Armor against what gets through.")
    use: AbsorbedUse = AbsorbedUse.HEAL
    damage_points: Points | None = Field(default=None, description="For use=heal: current.")
    maximum: Points | None = Field(default=None, description="For use=heal: the most there is.")


class AbsorbedHit(Model):
    damage: int
    absorbed: int
    taken: int = Field(description="The rest, less armor.")


class Absorption(Model):
    hits: list[AbsorbedHit]
    absorbed: int = Field(description="Pooled until the character's next turn (A-54).")
    taken: int
    damage_points: int | None = Field(description="use=heal: after the hits and the healing.")
    attack_rv: int | None = Field(
        description="use=attack: next turn, an E/E Control attack at this Rank Value, doing "
        "this much damage."
    )


@operation(
    name="power/absorption",
    kind=Kind.CALCULATION,
    covers=("4c.power.absorption",),
    example={"power_rv": 20, "hits": [30], "use": "heal", "damage_points": 40, "maximum": 90},
)
def absorption(request: AbsorptionInput) -> Absorption:
    """Damage of the chosen type is absorbed up to the power's Rank Value, the rest suffered
    normally; the energy heals that many Damage points, up to the maximum, or is unleashed next
    turn as an E/E Control attack at a Rank Value equal to it (C:L474-482). Several hits in a
    turn pool their energy (A-54)."""
    hits = [_absorb(damage, request) for damage in request.hits]
    absorbed = sum(h.absorbed for h in hits)
    taken = sum(h.taken for h in hits)
    points = None
    if request.use is AbsorbedUse.HEAL:
        if request.damage_points is None or request.maximum is None:
            raise InputError(("damage_points",), "use=heal needs damage_points and maximum")
        if request.damage_points > request.maximum:
            raise InputError(("damage_points",), "Damage points cannot exceed their maximum")
        points = min(max(request.damage_points - taken, 0) + absorbed, request.maximum)
    attack = absorbed if request.use is AbsorbedUse.ATTACK else None
    return Absorption(hits=hits, absorbed=absorbed, taken=taken, damage_points=points,
                      attack_rv=attack)  # fmt: skip


def _absorb(damage: int, request: AbsorptionInput) -> AbsorbedHit:
    absorbed = min(damage, request.power_rv)
    taken = max(damage - absorbed - request.armor_rv, 0)
    return AbsorbedHit(damage=damage, absorbed=absorbed, taken=taken)


class ArmorInput(Model):
    power_rv: RankValue = Field(description="Body Armor's Rank Value.")
    damage: Damage = Field(default=0, description="An attack's damage.")


class Armor(Model):
    armor_rv: int
    damage_taken: int


@operation(
    name="power/body-armor",
    kind=Kind.CALCULATION,
    covers=("4c.power.body_armor",),
    example={"power_rv": 20, "damage": 40},
)
def body_armor(request: ArmorInput) -> Armor:
    """Armor, a thick hide or a protective bodysuit, reduces damage by the power's Rank Value
    (C:L504-506): Brawn 30 with a two-handed weapon against Body Armor 20 does 20 (catalogue
    T9). Armor from several sources: combat/armor (A-21)."""
    return Armor(armor_rv=request.power_rv,
                 damage_taken=max(request.damage - request.power_rv, 0))  # fmt: skip


class FieldKind(StrEnum):
    DEVICE = "device"
    MENTAL = "mental"


class ForceFieldInput(PowerRoll):
    """The field and one attack on it; Row Steps and the Master Table apply to the Fortitude
    roll a mental field may call for."""

    power_rv: RankValue = Field(description="Force Field's Rank Value.")
    kind: FieldKind = FieldKind.DEVICE
    willpower: RankValue = Field(default=0, description="Mental: the character's Willpower.")
    fortitude: RankValue = Field(default=0, description="Mental: the character's Fortitude.")
    mind_shield_rv: RankValue = Field(
        default=0, description="Mental: Mind Shield adds one-half of its Rank Value (C:L740)."
    )
    damage: Damage = Field(description="The attack's damage.")


class ForceField(Model):
    armor_rv: int
    damage_taken: int = Field(description="What the field does not stop (catalogue 3.6).")
    exceeded: bool = Field(description="Damage strictly greater than the field (A-23).")
    shorted_turns: int | None = Field(description="Device: out of use for 1d10 turns.")
    dazed_turns: int | None = Field(description="Mental: no actions for this many turns.")
    turns_out: int = Field(description="Turns shorted or dazed; 0 when the field holds.")
    fortitude_check: PowerCheck | None


_FORTITUDE = threshold(
    Colour.RED,
    Outcome(result="dazed_long", text="Dazed: 1-10 turns recovering, no actions.", success=False),
    Outcome(result="dazed_one_turn", text="Dazed for one turn.", success=True),
)


def _armor(request: ForceFieldInput) -> int:
    """Device: the power's Rank Value; mental: the greater of it or Willpower +10, plus half a
    Mind Shield (C:L671-673, C:L740, A-11)."""
    if request.kind is FieldKind.DEVICE:
        return request.power_rv
    bonus = half(request.mind_shield_rv, request.options.half_rounding)
    return greater_of(request.power_rv, request.willpower) + bonus


class ForceFieldOdds(Model):
    turns_out: list[OutcomeProbability] = Field(
        description="Turns the device is shorted, or the character dazed; 0 if not exceeded."
    )
    mean_turns_out: Exact


def force_field_odds(request: ForceFieldInput) -> ForceFieldOdds:
    """Every d% and d10 the attack can call for (catalogue 5.4)."""
    turns: Distribution[int] = Distribution({0: 1})
    long = ndx_distribution(span(1, request.options))
    if request.damage > _armor(request):
        if request.kind is FieldKind.DEVICE:
            turns = long
        else:
            colours = colour_distribution(power_master(request, request.fortitude))
            once: Distribution[int] = Distribution({1: 1})
            turns = colours.then(lambda c: long if c is Colour.BLACK else once)
    return ForceFieldOdds(turns_out=outcome_table(turns), mean_turns_out=exact(turns.mean()))


def force_field_cost(request: object) -> Estimate:
    """A Fortitude roll (`power_cost`) and a d10 for each of its colours: the same for every
    request."""
    return Estimate(power_cost(request).states + 200, ())


@operation(
    name="power/force-field",
    kind=Kind.CHECK,
    covers=("4c.power.force_field",),
    odds=force_field_odds,
    cost=force_field_cost,
    example={"power_rv": 20, "kind": "mental", "willpower": 20, "fortitude": 30,
             "damage": 40, "dice": {"values": [2, 5, 7]}},
)  # fmt: skip
def force_field(request: ForceFieldInput, dice: Dice) -> ForceField:
    """A device field is armor at its Rank Value and shorts out for 1-10 turns when an attack
    does more damage; a mental field is armor at the greater of its Rank Value or Willpower
    +10, and more damage calls for a Fortitude roll: black, dazed 1-10 turns; else one turn
    (C:L667-673; 1-10 is 1d10 or one number from 1 to 10, A-25, A-26)."""
    armor = _armor(request)
    exceeded = request.damage > armor
    shorted = dazed = check = None
    if exceeded and request.kind is FieldKind.DEVICE:
        shorted = roll_ndx(span(1, request.options), dice, "shorted turns").total
    elif exceeded:
        check = roll_power(request, request.fortitude, _FORTITUDE, dice, "fortitude d%")
        long = check.colour is Colour.BLACK
        dazed = roll_ndx(span(1, request.options), dice, "dazed turns").total if long else 1
    return ForceField(armor_rv=armor, damage_taken=max(request.damage - armor, 0),
                      exceeded=exceeded, shorted_turns=shorted, dazed_turns=dazed,
                      turns_out=shorted or dazed or 0, fortitude_check=check)  # fmt: skip
