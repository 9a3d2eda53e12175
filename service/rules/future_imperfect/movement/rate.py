"""Movement (FI:L69-106): Rate is the meters a round; a move of up to half the Rate in an
action is walking, up to the Rate running (-4 to the other actions), at most two move
actions a round; climbing and swimming never run and never pass their Max; stepping up adds
the Movement Table's die (not open-ended) at a cost in CT."""

from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    OutcomeProbability,
    Truncation,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    CHECK,
    DEPTH,
    Checked,
    CheckInput,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.pools import PoolText, parse, sides
from service.rules.future_imperfect.movement.options import MovementOptions, SwimmingRow, TraitValue
from service.rules.future_imperfect.movement.tables import MOVEMENT, MoveType, Species, species_row
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["action_move", "rate", "step_up", "trait_value"]

Meters = Annotated[float, Field(ge=0, le=100_000)]
#: Moves a vehicle or a mount makes, by its statistics (FI:L73).
CARRIED = (MoveType.RIDING, MoveType.DRIVING, MoveType.FLYING)
#: Moves that never run (FI:L85).
NO_RUNNING = (MoveType.CLIMBING, MoveType.SWIMMING)
#: Running costs the other actions 4 (FI:L77).
RUNNING_PENALTY = -4


def trait_value(pool: str, options: MovementOptions, loc: tuple[str | int, ...]) -> int:
    """A trait's 'value' (A-03): its die, or its dice."""
    parsed = parse(pool, loc)
    if options.trait_value_basis is TraitValue.DICE_COUNT:
        return parsed.row
    return sides(parsed, loc, options)


class RateInput(Model):
    move_type: MoveType = MoveType.FOOT
    dexterity: PoolText | None = Field(default=None, description="On foot: the Rate's trait.")
    skill_level: Annotated[int, Field(ge=0, le=20)] | None = Field(
        default=None, description="Climbing or swimming: the skill's level (FI:L100)."
    )
    vehicle_rate: Annotated[int, Field(ge=0, le=10_000)] | None = Field(
        default=None, description="Riding, driving or flying: the mount's or vehicle's Rate."
    )
    options: MovementOptions = Field(default=MovementOptions())


class Rate(Model):
    rate: int = Field(description="Meters a round (FI:L71).")
    walk_per_action: float = Field(description="Half the Rate (FI:L73).")
    run_per_action: float | None = Field(description="The Rate; null where one cannot run.")
    most_per_round: float = Field(description="Running both actions, or the Max.")
    max: int | None
    step_up_die: int | None
    fatigue: int | None


def _row(move_type: MoveType) -> tuple[int | None, int | None, int | None]:
    """The Movement Table's step-up die, fatigue and Max."""
    row = next(r for r in MOVEMENT if r.move_type is move_type)
    return row.step_up, row.fatigue, row.max


def _rate(request: RateInput) -> int:
    if request.move_type is MoveType.FOOT:
        if request.dexterity is None:
            raise InputError(("dexterity",), "on foot the Rate is Dexterity's value: give it")
        return trait_value(request.dexterity, request.options, ("dexterity",))
    if request.move_type in NO_RUNNING:
        if request.skill_level is None:
            raise InputError(("skill_level",), f"{request.move_type.value} needs the skill level")
        return request.skill_level + (2 if request.move_type is MoveType.CLIMBING else 0)
    if request.vehicle_rate is None:
        raise InputError(("vehicle_rate",), "a mount or vehicle has its Rate in its statistics")
    return request.vehicle_rate


def step_up_row(move_type: MoveType, options: MovementOptions) -> tuple[int | None, int | None]:
    """The step-up die and fatigue, swimming's blank row read as the option says (A-26)."""
    die, fatigue, _ = _row(move_type)
    if move_type is MoveType.SWIMMING and options.swimming_row is SwimmingRow.LIKE_CLIMBING:
        die, fatigue, _ = _row(MoveType.CLIMBING)
    return die, fatigue


@operation(
    name="movement/rate",
    kind=Kind.LOOKUP,
    covers=("fi.movement.rate",),
    example={"move_type": "foot", "dexterity": "2d8"},
)
def rate(request: RateInput) -> Rate:
    """Rate is Dexterity's value on foot (Ryssh's Dexterity 8 runs 16 meters a round,
    FI:L106), 2 + climbing, the swimming level, or the mount's or vehicle's (FI:L91-100);
    half of it an action walks, all of it runs; climbing and swimming cannot run and never
    pass their Max (FI:L85)."""
    found = _rate(request)
    die, fatigue = step_up_row(request.move_type, request.options)
    _, _, cap = _row(request.move_type)
    runs = request.move_type not in NO_RUNNING
    most = Fraction(2 * found) if runs else Fraction(min(found, cap) if cap else found)
    return Rate(rate=found, walk_per_action=found / 2, run_per_action=found if runs else None,
                most_per_round=float(most), max=cap, step_up_die=die,
                fatigue=fatigue)  # fmt: skip


class MoveInput(Model):
    move_type: MoveType = MoveType.FOOT
    rate: Annotated[int, Field(ge=0, le=10_000)]
    meters: Meters = Field(description="Meters moved in this action.")
    moved_this_round: Meters = Field(default=0, description="Meters moved in earlier actions.")
    move_number: Annotated[int, Field(ge=1, le=10)] = Field(
        default=1, description="This move action's number in the round."
    )
    stepped_up: Meters = Field(default=0, description="Meters added by stepping up.")
    options: MovementOptions = Field(default=MovementOptions())


class Move(Model):
    mode: str = Field(description="walk, run or illegal.")
    running_penalty: int = Field(description="To the character's other actions (FI:L77).")
    reason: str | None


def _move(request: MoveInput) -> tuple[str, str | None]:
    if request.move_number > 2:
        return "illegal", "two move actions a round at most (FI:L75)"
    if request.move_type in NO_RUNNING:
        _, _, cap = _row(request.move_type)
        budget = min(request.rate, cap) if cap else request.rate
        base = request.moved_this_round + request.meters - request.stepped_up
        if base > budget:
            return "illegal", "climbing and swimming never run nor pass their Max (FI:L85)"
        if cap and not request.options.step_up_can_exceed_max and base + request.stepped_up > cap:
            return "illegal", "a step up may not pass the Max here (A-27)"
        return "walk", None
    base = request.meters - request.stepped_up
    if base <= request.rate / 2 and not request.stepped_up:
        return "walk", None
    if base <= request.rate:
        return "run", None
    return "illegal", "an action moves at most the Rate, more only by stepping up (FI:L73)"


@operation(
    name="movement/action-move",
    kind=Kind.LOOKUP,
    covers=("fi.movement.action_move",),
    example={"rate": 8, "meters": 7},
)
def action_move(request: MoveInput) -> Move:
    """A move of up to half the Rate in an action is walking, over half and up to the Rate
    running, which costs -4 to the character's other actions (FI:L73, FI:L77); two move
    actions a round, whatever the cards (FI:L75); stepping up runs (FI:L75); climbing and
    swimming share the Rate over the round and keep under the Max (FI:L85, FI:L100, A-25)."""
    if request.stepped_up > request.meters:
        raise InputError(("stepped_up",), "more meters stepped up than moved")
    mode, reason = _move(request)
    return Move(mode=mode, running_penalty=RUNNING_PENALTY if mode == "run" else 0,
                reason=reason)  # fmt: skip


class StepUpInput(Model):
    move_type: MoveType = MoveType.FOOT
    species: Species = Species.HUMAN
    claws: bool = Field(default=False, description="+1 climbing (FI:L102).")
    webbed: bool = Field(default=False, description="+1 swimming (FI:L102).")
    step_up_die: Annotated[int, Field(ge=2, le=20)] | None = Field(
        default=None, description="A mount's or vehicle's step-up die, by its statistics."
    )
    control: PoolText | None = Field(
        default=None, description="The rider's riding or the driver's driving pool (TN 5)."
    )
    options: MovementOptions = Field(default=MovementOptions())


class SteppedUp(Model):
    check: Checked | None = Field(description="A rider's or driver's Fair (5) check.")
    roll: int | None = Field(description="The step-up die, not open-ended (FI:L102).")
    bonus: int
    meters: int
    ct_cost: int
    ct_paid_by: str = Field(description="self, mount or none (vehicles check malfunctions).")


#: A rider's or driver's check to step up is Fair (FI:L83, FI:L85).
CONTROL_TN = 5


def _plan(request: StepUpInput) -> tuple[int, int, int, str, CheckInput | None]:
    """The die, the bonus, the CT, who pays and the control check, if any."""
    die, fatigue = step_up_row(request.move_type, request.options)
    printed = _row(request.move_type)[0]
    if printed is not None and request.step_up_die is not None:
        raise InputError(("step_up_die",), f"the Movement Table gives {request.move_type.value} "
                                           f"its d{printed} (FI:L91-93)")  # fmt: skip
    if request.control is not None and request.move_type not in CARRIED:
        raise InputError(("control",), "only a rider or driver makes a check to step up "
                                       "(FI:L83-85)")  # fmt: skip
    die = request.step_up_die or die
    if die is None:
        message = f"{request.move_type.value} takes its step-up die from the mount or vehicle"
        raise InputError(("step_up_die",), f"{message} (or the option A-26)")
    kind = species_row(request.species)
    bonus = {MoveType.FOOT: kind.foot_step_up, MoveType.CLIMBING: int(request.claws),
             MoveType.SWIMMING: int(request.webbed)}.get(request.move_type, 0)  # fmt: skip
    if request.move_type not in CARRIED:
        cost = 0 if kind.fatigue_free else fatigue or 0
        return die, bonus, cost, "self", None
    if request.control is None:
        raise InputError(("control",), "a rider or driver makes a Fair (5) check to step up")
    check = CheckInput(pool=request.control, tn=CONTROL_TN, options=request.options)
    if request.move_type is MoveType.RIDING:
        return die, bonus, fatigue or 1, "mount", check
    return die, bonus, 0, "none", check


class StepUpOdds(Model):
    meters: list[OutcomeProbability]
    truncation: Truncation | None


def step_up_odds(request: StepUpInput) -> StepUpOdds:
    """The meters stepping up adds, a failed control check adding none, exactly (T15)."""
    die, bonus, _, _, check = _plan(request)
    meters = Distribution.die(die).map(lambda face: face + bonus)
    passed = results(check).map(lambda o: not o[0] and o[1] >= CONTROL_TN) if check else None
    found = passed.then(lambda ok: meters if ok else Distribution({0: 1})) if passed else meters
    return StepUpOdds(meters=outcome_table(found),
                      truncation=truncation(found, DEPTH))  # fmt: skip


def step_up_cost(request: StepUpInput) -> Estimate:
    """A control check's kept die (`core/check`) and the step-up die."""
    return Estimate(CHECK.states + 1_000, ())


@operation(
    name="movement/step-up",
    kind=Kind.GENERATION,
    covers=("fi.movement.step_up",),
    odds=step_up_odds,
    cost=step_up_cost,
    example={"move_type": "foot", "species": "avatar", "dice": {"values": [3]}},
)
def step_up(request: StepUpInput, dice: Dice) -> SteppedUp:
    """Stepping up on a run adds the Movement Table's die in meters, never rolled again on a
    Max; Transhumans, Avatars, MekPurr and Canines add 1 on foot, claws 1 climbing, webbing 1
    swimming; it costs the Fatigue in CT, none to a Transhuman (FI:L79-104: Ryssh steps up
    d4+1 meters for 1 CT, FI:L106). A rider makes a Fair (5) riding check and the mount pays;
    a driver a Fair (5) driving check and nobody pays (FI:L83-85)."""
    die, bonus, cost, payer, check = _plan(request)
    checked = roll_check(check, dice) if check else None
    if checked and not checked.success:
        return SteppedUp(check=checked, roll=None, bonus=bonus, meters=0, ct_cost=0,
                         ct_paid_by="none")  # fmt: skip
    face = dice.roll(die, f"step up d{die}")
    return SteppedUp(check=checked, roll=face, bonus=bonus, meters=face + bonus, ct_cost=cost,
                     ct_paid_by=payer)  # fmt: skip
