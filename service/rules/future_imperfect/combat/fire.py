"""Weapons that fill the air (FI:L283-311, FI:L359-379): area effect dice by range, the
suppression attribute and covering fire, explosives' columns by distance, reloading, and the
bystanders a missed round may hit."""

from enum import StrEnum
from fractions import Fraction
from math import ceil
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    exact,
    outcome_table,
)
from service.rules.future_imperfect.combat.modifiers import Meters
from service.rules.future_imperfect.combat.options import (
    AttackOptions,
    CoveringFire,
    ExplosiveBands,
    ExplosiveHead,
    GrenadeRule,
)
from service.rules.future_imperfect.combat.tables import RELOADS, Reload
from service.rules.future_imperfect.core.checks import dice_only
from service.rules.future_imperfect.core.pools import PoolText, parse
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["area_effect", "explosives", "reload", "suppression", "unintended_targets"]

NOT_IN_SOURCE = "not in the source"


# --- area effect --------------------------------------------------------------------------


class AeWeapon(StrEnum):
    SHOTGUN = "shotgun"
    GRENADE = "grenade"
    OTHER = "other"


class AreaEffectInput(Model):
    ae: PoolText = Field(description="The weapon's AE column: a shotgun's 4d6 (FI:L287).")
    distance: Meters
    weapon: AeWeapon = AeWeapon.SHOTGUN
    options: AttackOptions = Field(default=AttackOptions())


class AreaEffect(Model):
    bonus_damage_dice: int = Field(description="Added to each hit's damage (harm's roll).")
    bonus_damage: str | None = Field(description="As a damage code, N(C); null for none.")
    bonus_shooting_dice: int = Field(description="Shotguns: added to the shooting pool.")
    note: str | None


@operation(
    name="combat/area-effect",
    kind=Kind.CALCULATION,
    covers=("fi.combat.area_effect",),
    example={"ae": "4d6", "distance": 19.5},
)
def area_effect(request: AreaEffectInput) -> AreaEffect:
    """An AE weapon adds its AE dice to the damage, one fewer every 10 meters after the first:
    a shotgun's 4d6 at 1-10 m, 3d6 at 11-20 (FI:L287). Shotguns roll AE less those damage dice
    as bonus shooting dice (FI:L289): Kayla's shotgun just under 20 m gets 1 shooting die a
    shot and 3 damage dice a hit (FI:L291). Grenades fall off as explosives (A-43)."""
    ae = parse(request.ae, ("ae",))
    grenade = request.weapon is AeWeapon.GRENADE
    if grenade and request.options.grenade_rule is GrenadeRule.EXPLOSIVES:
        return AreaEffect(bonus_damage_dice=0, bonus_damage=None, bonus_shooting_dice=0,
                          note="a grenade's damage falls off by columns: combat/explosives "
                               "(A-43)")  # fmt: skip
    meters = max(1, ceil(Fraction(str(request.distance))))
    damage = max(0, ae.row - (meters - 1) // 10)
    shooting = ae.row - damage if request.weapon is AeWeapon.SHOTGUN else 0
    return AreaEffect(bonus_damage_dice=damage,
                      bonus_damage=f"{damage}({ae.column})" if damage else None,
                      bonus_shooting_dice=shooting, note=None)  # fmt: skip


# --- suppression --------------------------------------------------------------------------


class SuppressionInput(Model):
    options: AttackOptions = Field(default=AttackOptions())


class Suppression(Model):
    covering_fire_defined: bool = Field(description="COVERING FIRE PROCEDURE NEEDED (FI:L303).")
    covering_fire: str
    bystander_hit_faces: int = Field(description="A spray hits a bystander on 1-2 (FI:L379).")
    bystander_radius_m: int = Field(description="Within 2 m of the path (FI:L379).")


@operation(
    name="combat/suppression",
    kind=Kind.LOOKUP,
    covers=("fi.combat.suppression",),
    example={},
)
def suppression(request: SuppressionInput) -> Suppression:
    """Automatic weapons with the suppression attribute are 'especially effective at providing
    covering fire' and more likely to hit unintended targets (FI:L301): bystanders are hit on
    1-2 within 2 m of the path (FI:L379). The covering fire procedure itself is not written
    ('COVERING FIRE PROCEDURE NEEDED', FI:L303, A-45)."""
    if request.options.covering_fire is CoveringFire.NOT_DEFINED:
        how = f"{NOT_IN_SOURCE}: the Master rules (FI:L303)"
    else:
        how = ("house rule: each figure moving through the covered area is a bystander of a "
               "spray, checked by combat/unintended-targets with spray true")  # fmt: skip
    return Suppression(covering_fire_defined=False, covering_fire=how, bystander_hit_faces=2,
                       bystander_radius_m=2)  # fmt: skip


# --- explosives ---------------------------------------------------------------------------


class ExplosiveInput(Model):
    damage: PoolText = Field(description="The explosive's damage code, N(C).")
    distance: Meters = Field(description="Meters from the detonation point.")
    options: AttackOptions = Field(default=AttackOptions())


class Explosive(Model):
    columns_left: int
    damage: str | None = Field(description="The shifted code; null: no damage at this range.")
    location_bonus: bool = Field(description="Always false: no extra damage by location.")
    head_counts_as: str
    note: str | None


def columns_left(distance: float, bands: ExplosiveBands) -> int:
    """Every 10 m from the detonation a column left: full up to 10 m (A-46)."""
    meters = Fraction(str(distance))
    if bands is ExplosiveBands.FLOOR:
        return int(meters // 10)
    return max(0, ceil(meters / 10) - 1)


@operation(
    name="combat/explosives",
    kind=Kind.CALCULATION,
    covers=("fi.combat.explosives",),
    example={"damage": "3(4)", "distance": 15},
)
def explosives(request: ExplosiveInput) -> Explosive:
    """An explosion deals its column's damage up to 10 m, one column left at 10-20 m, two at
    21-30 (FI:L307-309); off the table, no damage, though the Master may rule deafness. Wounds
    still have locations but no extra damage by them: the head is as the arm (FI:L311)."""
    code = parse(request.damage, ("damage",))
    shift = columns_left(request.distance, request.options.explosive_bands)
    column = code.column - shift
    head = ("head, without its extra cards" if request.options.explosive_head_mode
            is ExplosiveHead.NO_BONUS else "arm")  # fmt: skip
    note = None if column >= 1 else "no damage; temporary deafness or the like is the Master's"
    return Explosive(columns_left=shift, damage=f"{code.row}({column})" if column >= 1 else None,
                     location_bonus=False, head_counts_as=head, note=note)  # fmt: skip


# --- reloading ----------------------------------------------------------------------------


class ReloadInput(Model):
    reload: Reload
    rounds: Annotated[int, Field(ge=1, le=100)] = Field(
        default=1, description="Rounds or shells loaded one at a time."
    )
    reload_attribute: Annotated[int, Field(ge=1, le=100)] | None = Field(
        default=None, description="A heavy weapon's Reload attribute (weapon table)."
    )


class Reloaded(Model):
    actions: int | None = Field(description="Null where the chapter gives no number.")
    at_least: bool
    complex_action: bool = Field(description="Reloading is a complex action (FI:L200).")
    note: str | None


@operation(
    name="combat/reload",
    kind=Kind.LOOKUP,
    covers=("fi.combat.reload",),
    example={"reload": "magazine"},
)
def reload(request: ReloadInput) -> Reloaded:
    """One action a bullet or shell; a magazine takes one to remove and one to insert; heavy
    weapons their Reload attribute; black powder five at least, never speed-loaded
    (FI:L361-363). Speed-loading is in 'Chapter XX', not here."""
    row = next(r for r in RELOADS if r.reload is request.reload)
    if request.reload is Reload.HEAVY:
        if request.reload_attribute is None:
            raise InputError(("reload_attribute",), "a heavy weapon's Reload attribute is needed")
        return Reloaded(actions=request.reload_attribute, at_least=False, complex_action=True,
                        note=None)  # fmt: skip
    if row.actions is None:
        note = f"speed-loading is {NOT_IN_SOURCE} ('Chapter XX', FI:L361)"
        return Reloaded(actions=None, at_least=False, complex_action=True, note=note)
    actions = row.actions * request.rounds if row.per_round else row.actions
    return Reloaded(actions=actions, at_least=row.at_least, complex_action=True, note=None)


# --- unintended targets -------------------------------------------------------------------


class BystanderInput(Model):
    missed_rounds: Annotated[int, Field(ge=0, le=50)]
    bystanders: Annotated[int, Field(ge=0, le=20)] = Field(
        description="Within 1 m of the path (2 m for suppression), most likely first."
    )
    spray: bool = Field(
        default=False, description="Suppression or area effect weapon: hit on 1-2 (FI:L379)."
    )
    shielding: bool = Field(
        default=False,
        description="A bystander about a meter from the target, directly between, covering "
        "the part the missed shot's location names: he takes that round (FI:L377).",
    )
    options: AttackOptions = Field(default=AttackOptions())


class Stray(Model):
    round: int
    checks: list[int] = Field(description="The die shown for each bystander checked, in order.")
    bystander: int | None = Field(description="The bystander hit (1 the most likely); null.")


class Bystanders(Model):
    die: int
    hit_on: int = Field(description="Hit on this face or less.")
    rounds: list[Stray]
    hits: list[int] = Field(description="Rounds hitting each bystander, in order.")
    shielded: bool


#: The Action Card's column a bystander is checked on (FI:L379), rolled as a die (A-49).
BYSTANDER_CHECK = "a bystander's check (options.bystander_die, A-49)"


def _faces(request: BystanderInput) -> int:
    return 2 if request.spray else 1


class BystanderOdds(Model):
    bystander: int
    hit: Exact = Field(description="Hit by at least one round.")
    hits: list[OutcomeProbability]


class StrayOdds(Model):
    check: Exact = Field(description="One check hits (catalogue T13).")
    any_bystander: Exact = Field(description="Some bystander is hit.")
    bystanders: list[BystanderOdds]


def bystander_odds(request: BystanderInput) -> StrayOdds:
    """Each round hits bystander i when the i - 1 before him are missed and he is not: a
    chance of (1 - p)**(i - 1) p, p the check's (T13); the rounds are independent."""
    dice_only(request.options, BYSTANDER_CHECK)
    die, top = request.options.bystander_die, _faces(request)
    rounds = request.missed_rounds - request.shielding if request.missed_rounds else 0
    made = []
    for index in range(1, request.bystanders + 1):
        one = Distribution({1: top * (die - top) ** (index - 1),
                            0: die**index - top * (die - top) ** (index - 1)})  # fmt: skip
        count = Distribution({0: 1})
        for _ in range(rounds):
            count = count + one
        made.append(BystanderOdds(bystander=index,
                                  hit=exact(count.probability_where(lambda n: n > 0)),
                                  hits=outcome_table(count)))  # fmt: skip
    spared = Fraction(die - top, die) ** (request.bystanders * rounds)
    return StrayOdds(check=exact(Fraction(top, die)), any_bystander=exact(1 - spared),
                     bystanders=made)  # fmt: skip


def bystander_cost(request: BystanderInput) -> Estimate:
    """Each bystander's count of hits, a round added at a time."""
    rounds = request.missed_rounds + 1
    return Estimate(4 * (request.bystanders + 1) * rounds * rounds + 10,
                    ("/bystanders", "/missed_rounds"))  # fmt: skip


@operation(
    name="combat/unintended-targets",
    kind=Kind.CHECK,
    covers=("fi.combat.unintended_targets",),
    odds=bystander_odds,
    cost=bystander_cost,
    example={"missed_rounds": 2, "bystanders": 2, "dice": {"values": [7, 1, 15, 9]}},
)
def unintended_targets(request: BystanderInput, dice: Dice) -> Bystanders:
    """A missed round may hit someone within 1 m of its path: check the '(STANDARD COLUMN)'
    (A-49) for the most likely bystander first, a 1 hits (1-2 for a spray), and go on to the
    others until the round finds a home or the bystanders run out; each missed round does
    the same (FI:L379). Suppression weapons reach 2 m. A bystander shielding the part hit takes
    the round outright (FI:L377). The column is read as `bystander_die`, so the deck engine
    is refused (`dice_only`)."""
    dice_only(request.options, BYSTANDER_CHECK)
    die, top = request.options.bystander_die, _faces(request)
    rounds, hits = [], [0] * request.bystanders
    for number in range(1 + request.shielding, request.missed_rounds + 1):
        checks, struck = [], None
        for bystander in range(request.bystanders):
            checks.append(dice.roll(die, f"round {number}, bystander {bystander + 1}"))
            if checks[-1] <= top:
                struck = bystander + 1
                hits[bystander] += 1
                break
        rounds.append(Stray(round=number, checks=checks, bystander=struck))
    shielded = request.shielding and request.missed_rounds > 0
    return Bystanders(die=die, hit_on=top, rounds=rounds, hits=hits, shielded=shielded)
