"""The ranged attack roll (F:L3255-3298): the weapon's skill at EF = BEF + PM + every
modifier, one D100 that is both the fire roll and the jam test (F:L3587, F:L3664), and for a
burst or area fire the rounds that hit (F:L3257, F:L3298).

The skill is the weapon's Use: Handguns (BEF 3), Longarms (BEF 4), Archery (BEF 3), Slings
(BEF 3), Throw (BEF G + 1) or a heavy weapon's own skill (F:L3626, F:L782-827). `ranged_setup`
gives the fire task set up with every modifier as a named term, for the operations that build
on it (the end-to-end `attack`).
"""

from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.combat.ranged.bursts import BurstOptions, Volley, burst_hits, raised_dc
from service.rules.foresight.combat.ranged.jam import JamReport, fire_outcomes, jam_test
from service.rules.foresight.combat.ranged.modifiers import (
    MAX_SHOTS,
    AimInput,
    AimOptions,
    RangedSituation,
    SituationInput,
    aim_terms,
    range_terms,
    recoil_penalty,
    situation_terms,
)
from service.rules.foresight.combat.ranged.weapon import (
    AUTO_BURSTS,
    MAX_RANGE_M,
    RangedWeapon,
    RangedWeaponUse,
    fraction,
    range_increment,
)
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, roll, setup_at
from service.rules.foresight.weapons.ranged import RangedWeaponSpec, ranged_weapon_of
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation

__all__ = [
    "JammedShot",
    "RangedAttackInput",
    "RangedAttackOdds",
    "RangedAttackResult",
    "RangedOptions",
    "RangedShot",
    "Volley",
    "burst_of",
    "landed",
    "modifier_terms",
    "ranged_attack",
    "ranged_attack_cost",
    "ranged_attack_odds",
    "ranged_setup",
    "volley_of",
]

#: The skills' BEFs (F:L782 Archery, F:L800 Handguns, F:L803 Longarms, F:L818 Slings); Throw
#: (G + 1, F:L827) and a heavy weapon's skill take the task's own.
SKILL_BEF = {RangedWeaponUse.HANDGUNS: 3, RangedWeaponUse.LONGARMS: 4, RangedWeaponUse.ARCHERY: 3,
             RangedWeaponUse.SLINGS: 3}  # fmt: skip
#: The modifier a successful defensive pin on the gun hand gives the shot (F:L3207-3211).
PINNED_GUN_HAND = -4


class JammedShot(StrEnum):
    LOST = "lost"
    FIRED = "fired"


class RangedOptions(ResolutionOptions, AimOptions, BurstOptions):
    """The fire roll's options, the aim cap (AMB2-03), bursts (AMB2-24, AMB2-01) and jams."""

    jammed_shot: JammedShot = option(
        JammedShot.LOST,
        ambiguity=None,
        description=(
            "The shot of a fire roll that jams the weapon: 'lost', as a misfire or a broken "
            "bowstring is, or 'fired' as rolled, the weapon jamming after it. The book says "
            "only that the roll 'results in the weapon becoming jammed or misfiring' (F:L3664)."
        ),
    )


class RangedShot(Model):
    """A shot or burst: the firer's skill, the weapon, the target's distance, the situation."""

    task: Task = Field(
        description="The weapon skill; with no BEF, the Use's: H 3, L 4, A 3, S 3 (F:L782-827)."
    )
    weapon: RangedWeaponSpec = Field(
        description="The weapon's row, or a catalogue key with modifications: "
        "{'catalog': 'sl-rifle'} (weapon/ranged/catalog)."
    )
    distance_m: float = Field(ge=0, le=10 * MAX_RANGE_M, description="Distance to the target.")
    situations: Annotated[tuple[SituationInput, ...], Field(max_length=16)] = Field(
        default=(), description="Rows of the Ranged Attack Modifiers (F:L3267-3298)."
    )
    aim: AimInput = Field(default=AimInput())
    shot: int = Field(
        default=1,
        ge=1,
        le=MAX_SHOTS,
        description="This is the k-th shot in a row since the last Aim or Recover (recoil).",
    )
    burst: bool = Field(default=False, description="Fire the weapon's auto burst ('auto').")
    pinned_gun_hand: bool = Field(
        default=False, description="A defensive pin holds the gun hand: -4 (F:L3207-3211)."
    )

    @cached_property
    def arms(self) -> RangedWeapon:
        """The weapon's row: as given, or the catalogue's with its modifications."""
        return ranged_weapon_of(self.weapon)


class RangedAttackInput(RangedShot):
    options: RangedOptions = Field(default=RangedOptions())


def _has(request: RangedShot, situation: RangedSituation) -> bool:
    return any(given.situation is situation for given in request.situations)


def _check(request: RangedShot) -> None:
    aimed = request.aim.aims > 0 or request.aim.laser_sight_aim
    if aimed and request.shot > 1:
        raise InputError(("shot",), "an Aim starts the recoil count again: this is shot 1")
    if request.aim.just_hit and not aimed and request.shot == 1:
        raise InputError(("aim", "just_hit"), "just hit with the previous shot: shot is 2 or more")
    if request.burst and request.arms.auto is None:
        raise InputError(("burst",), "the weapon has no auto burst modification ('auto')")


def modifier_terms(request: RangedShot, options: AimOptions) -> list[Term]:
    """Every modifier of the shot, named: the weapon's PM, the table's rows, the pinned hand,
    recoil, aim, range and 'within 3 m' (F:L3266-3298)."""
    _check(request)
    one_handed = _has(request, RangedSituation.LONGARM_ONE_HANDED)
    increment = range_increment(request.arms)
    found = [
        Term(source="weapon_pm", value=request.arms.pm),
        *situation_terms(request.situations, ("situations",)),
        Term(source="pinned_gun_hand", value=PINNED_GUN_HAND if request.pinned_gun_hand else 0),
        Term(source="recoil", value=recoil_penalty(request.arms.recoil, request.shot)),
        *aim_terms(request.aim, options.aim_cap, one_handed, ("aim",)),
        *range_terms(fraction(request.distance_m), increment),
    ]
    return [term for term in found if term.value]


def ranged_setup(request: RangedShot, options: RangedOptions) -> Setup:
    """The fire task set up: the skill at BEF + PM + every modifier (F:L3257, F:L3266)."""
    default = SKILL_BEF.get(request.arms.use)
    return setup_at(("task",), request.task, options, modifier_terms(request, options), default)


def volley_of(request: RangedShot) -> Volley:
    area = _has(request, RangedSituation.AREA_FIRE)
    return Volley.AREA if area else Volley.SINGLE_TARGET


def burst_of(request: RangedShot, qr: QR, options: BurstOptions) -> tuple[int, int, str | None]:
    """Rounds fired, rounds that hit and their DC (null when the weapon gives none): a burst
    at a single target is one hit at the raised DC by default, area fire yield x rounds at the
    weapon's DC (F:L3257, F:L3261, F:L3298, F:L3794)."""
    row = AUTO_BURSTS[request.arms.auto] if request.burst and request.arms.auto else None
    rounds = 1 if row is None else row.rounds
    hits, raised = burst_hits(qr, rounds, volley_of(request), row is not None, options)
    dc = request.arms.dc
    if dc is not None:
        bonus = row.dc_bonus if raised and row is not None else 0
        dc = raised_dc(dc, bonus, ("weapon", "dc"))
    return rounds, hits, dc


class RangedAttackResult(Model):
    fire: Resolution = Field(description="The fire roll, every modifier in its chance.")
    hit: bool = Field(description="At least one round hits (a jam that loses the shot: none).")
    jammed: bool
    jam: JamReport
    volley: Volley
    rounds: int = Field(description="Rounds fired.")
    hits: int = Field(description="Rounds that hit: 1 or 0 for a single shot at a target.")
    dc: str | None = Field(description="The DC of each hit; area-fire hits take random QRs.")
    random_damage_qr: bool = Field(description="Area fire: each hit's damage QR is random.")


def landed(request: RangedShot, qr: QR, jammed: bool, options: RangedOptions) -> int:
    """Rounds that hit: none when a jam loses the shot ('jammed_shot')."""
    if jammed and options.jammed_shot is JammedShot.LOST:
        return 0
    return burst_of(request, qr, options)[1]


class RangedAttackOdds(Model):
    fire: QualityOdds = Field(description="The fire roll's QR.")
    hit: Exact = Field(description="P(at least one round hits).")
    jammed: Exact = Field(description="P(the weapon jams), over the same D100.")
    hit_and_jammed: Exact = Field(
        description="P(a hit and a jam): 0 unless 'jammed_shot' is 'fired'."
    )
    hits: list[OutcomeProbability] = Field(description="Rounds that hit.")


def ranged_attack_odds(request: RangedAttackInput) -> RangedAttackOdds:
    joint = fire_outcomes(ranged_setup(request, request.options), request.arms.jam)
    options = request.options
    hits: Distribution[int] = joint.map(lambda pair: landed(request, *pair, options))
    both = joint.map(lambda pair: (landed(request, *pair, options) > 0, pair[1]))
    return RangedAttackOdds(
        fire=quality_odds(joint.map(lambda pair: pair[0])),
        hit=exact(hits.probability_where(lambda n: n > 0)),
        jammed=exact(joint.probability_where(lambda pair: pair[1])),
        hit_and_jammed=exact(both.probability((True, True))),
        hits=outcome_table(hits),
    )


def ranged_attack_cost(request: Any) -> Estimate:
    """The D100 with the jam's D10 (at most 101 joint outcomes, each made once), its maps and
    the QR tables: the same for every request."""
    return Estimate(5 * 101 + 200, ())


@operation(
    name="ranged/attack",
    kind=Kind.CHECK,
    covers=("foresight.ranged.attack",),
    odds=ranged_attack_odds,
    cost=ranged_attack_cost,
    rolled={
        "/fire/qr": Reading(read=lambda result: result.fire.qr.name, best_first=True),
        "/hits": Reading(),
    },
    example={
        "task": {"score": 12},
        "weapon": {
            "name": "SL Rifle, auto long burst",
            "use": "L",
            "range_m": 25,
            "range_multipliers": [0.7],
            "recoil": 4,
            "jam": "D",
            "rof": "[6]",
            "auto": "long",
            "dc": "9i2p",
        },
        "distance_m": 6,
        "situations": [{"situation": "area_fire", "modifier": -2}, {"situation": "torso"}],
        "burst": True,
        "dice": {"values": [17]},
    },
)
def ranged_attack(request: RangedAttackInput, dice: Dice) -> RangedAttackResult:
    """Fire a shot or burst: the weapon's skill (its Use) at EF = BEF + the weapon's PM + the
    Ranged Attack Modifiers: braced or prone +1 (both still +1), unbalanced -2, recoil -1 per
    bullet per earlier shot, aim +1 each (at most +5), just hit +2, within 3 m +1, -1 per full
    range increment, and the target's light, size, cover, stance and motion (F:L3263-3298); a
    pinned gun hand -4 (F:L3207-3211). The same D100 tests the Jam (F:L3664, F:L3587). The QR
    is the shot's damage QR, or how much of a burst at an area hits (F:L3257, F:L3298)."""
    task = ranged_setup(request, request.options)
    fired = roll(task, dice, "D100 (fire and jam)")
    jam = jam_test(request.arms.jam, request.arms.use, fired.roll, dice)
    rounds, _, dc = burst_of(request, fired.qr, request.options)
    hits = landed(request, fired.qr, jam.jammed, request.options)
    volley = volley_of(request)
    return RangedAttackResult(fire=fired, hit=hits > 0, jammed=jam.jammed, jam=jam, volley=volley,
                              rounds=rounds, hits=hits, dc=dc,
                              random_damage_qr=volley is Volley.AREA)  # fmt: skip
