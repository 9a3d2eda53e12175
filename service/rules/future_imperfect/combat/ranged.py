"""Ranged attacks (FI:L237-299): a Dexterity task against the range TN, each shot of the
weapon's rate of fire its own test; an automatic burst is one test whose success and bumps
count the rounds that hit, and may be split among several targets."""

from enum import StrEnum
from functools import partial
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.combat.modifiers import (
    Applied,
    Meters,
    Situation,
    applied,
    base_tn,
    task,
    tn_source,
)
from service.rules.future_imperfect.combat.options import AttackOptions, BurstHits, TargetSplit
from service.rules.future_imperfect.core.checks import (
    CHECK,
    DEPTH,
    Checked,
    CheckInput,
    bumps_table,
    check_states,
    graded,
    results,
    roll_check,
)
from service.rules.future_imperfect.core.pools import PoolText, parse, sides
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["RangedOdds", "Shot", "attack", "automatic", "burst_hits", "shot_odds_of"]


class FireMode(StrEnum):
    SINGLE = "single"
    BURST = "burst"


Rounds = Annotated[int, Field(ge=1, le=100)]


def burst_hits(success: bool, bumps: int, rounds: int | None, options: AttackOptions) -> int:
    """The rounds of a burst that hit: 1 and 1 a bump (the Violet example, FI:L299), at most
    the rounds fired, or a single one (A-44)."""
    if not success:
        return 0
    found = 1 + bumps if options.burst_hits_model is BurstHits.ONE_PLUS_BUMPS else 1
    return found if rounds is None else min(found, rounds)


class Shot(Model):
    check: Checked
    hit: bool
    hits: int = Field(description="Rounds that hit: 1 for a single shot, a burst's count.")


class RangedAttackInput(Model):
    pool: PoolText = Field(
        description="The shooting specialization at Dexterity's die; for a default roll, "
        "Dexterity (combat/ranged/skill)."
    )
    tn: Annotated[int, Field(ge=0, le=100)] | None = Field(
        default=None, description="The TN, when known; otherwise from the distance."
    )
    distance: Meters | None = Field(default=None, description="Meters to the target.")
    range_increment: Annotated[int, Field(ge=1, le=10_000)] | None = None
    active_defense: Annotated[int, Field(ge=0, le=300)] | None = Field(
        default=None, description="The target's active defense result (FI:L415)."
    )
    situation: Situation = Field(default=Situation())
    fire: FireMode = Field(
        default=FireMode.SINGLE,
        description="Single shots, each its own test (FI:L351), or an automatic burst (FI:L295).",
    )
    shots: Annotated[int, Field(ge=1, le=10)] = Field(
        default=1, description="Single shots this action, up to the rate of fire (FI:L253)."
    )
    rate_of_fire: Annotated[int, Field(ge=1, le=10)] = 1
    burst: Rounds | None = Field(
        default=None, description="Rounds in the burst (the weapon table); unset, no cap."
    )
    bonus_dice: Annotated[int, Field(ge=0, le=5)] = Field(
        default=0, description="A shotgun's bonus shooting dice at this range (combat/area-effect)."
    )
    options: AttackOptions = Field(default=AttackOptions())


class RangedAttack(Model):
    tn: int
    modifiers: list[Applied]
    halved: bool
    location: str | None = Field(description="A called shot's location; else drawn (harm).")
    shots: list[Shot]
    hits: int
    missed_rounds: int = Field(description="For combat/unintended-targets (FI:L377).")


def _setup(request: RangedAttackInput) -> tuple[CheckInput, bool, list[Applied], str | None]:
    burst = request.fire is FireMode.BURST
    if request.shots > request.rate_of_fire:
        raise InputError(("shots",), f"at most the rate of fire, {request.rate_of_fire} (FI:L253)")
    if burst and request.shots != 1:
        raise InputError(("shots",), "a burst is one test (FI:L295)")
    tn = base_tn(request.tn, request.distance, request.range_increment, request.active_defense)
    found, location = applied(request.situation, request.options, automatic=burst)
    check, halved = task(request.pool, tn, found, request.situation.skill, request.options,
                         tn_source(request.tn, request.active_defense, tn))  # fmt: skip
    return check, halved, found, location


def hits_of(outcome: tuple[bool, int], check: CheckInput, request: RangedAttackInput) -> int:
    success, bumps = graded(outcome[1], outcome[0], check)
    if request.fire is FireMode.BURST:
        return burst_hits(success, bumps, request.burst, request.options)
    return int(success)


class RangedOdds(Model):
    hit: Exact = Field(description="Each test hits at least once.")
    critical_failure: Exact
    bumps: list[OutcomeProbability] = Field(description="Of one test; 'failure' on a miss.")
    hits: list[OutcomeProbability] = Field(description="Rounds hitting over the action.")
    truncation: Truncation | None


def bump_outcome(outcome: tuple[bool, int], check: CheckInput) -> str:
    success, bumps = graded(outcome[1], outcome[0], check)
    return str(bumps) if success else "failure"


def repeated(one: Distribution[int], times: int) -> Distribution[int]:
    """The sum of `times` independent copies; each copy's weights reduced first, as the
    chains of ten exploding dice make totals of hundreds of digits."""
    one = one.reduced()
    total = one
    for _ in range(times - 1):
        total = total + one
    return total


def shot_odds_of(
    check: CheckInput,
    halved: bool,
    extra_dice: int,
    shots: int,
    burst: bool,
    rounds: int | None,
    options: AttackOptions,
) -> RangedOdds:
    """A test's bumps and the rounds hitting over the shots, exactly: shots are independent
    tests (FI:L351), so their hits add; a burst's hits are its success and bumps (A-44)."""
    found = results(check, halved, extra_dice)

    def hits(outcome: tuple[bool, int]) -> int:
        success, bumps = graded(outcome[1], outcome[0], check)
        return burst_hits(success, bumps, rounds, options) if burst else int(success)

    per_test = found.map(hits)
    total = repeated(per_test, shots)
    bumps = found.map(lambda o: bump_outcome(o, check))
    return RangedOdds(hit=exact(per_test.probability_where(lambda n: n > 0)),
                      critical_failure=exact(found.probability_where(lambda o: o[0])),
                      bumps=bumps_table(bumps),
                      hits=outcome_table(total), truncation=truncation(total, DEPTH))  # fmt: skip


def shot_odds(request: RangedAttackInput) -> RangedOdds:
    """Each test's bumps and the rounds hitting over the action, exactly."""
    check, halved, _, _ = _setup(request)
    return shot_odds_of(check, halved, request.bonus_dice, request.shots,
                        request.fire is FireMode.BURST, request.burst, request.options)  # fmt: skip


def attack_cost(request: RangedAttackInput) -> Estimate:
    """One test's results (`core/check`), and the hits of up to 10 shots added."""
    return Estimate(CHECK.states * 2, ())


@operation(
    name="combat/ranged/attack",
    kind=Kind.CHECK,
    covers=("fi.combat.ranged.attack", "fi.combat.rate_of_fire"),
    odds=shot_odds,
    cost=attack_cost,
    example={"pool": "IV-3", "tn": 6, "fire": "burst", "burst": 3,
             "dice": {"values": [10, 2, 3, 4]}},
)  # fmt: skip
def attack(request: RangedAttackInput, dice: Dice) -> RangedAttack:
    """Figure the TN, Fair (5) and a range increment each (FI:L261), and draw: at least the TN
    hits (FI:L239). Up to the rate of fire each action, each shot its own task (FI:L253,
    FI:L351); an automatic burst is one test whose success and bumps are the rounds that hit:
    Violet's 12 against TN 6 is a success and a bump, 2 hits (FI:L299). An active defense's
    result is the TN when greater (FI:L415)."""
    check, halved, found, location = _setup(request)
    shots = []
    for _ in range(request.shots):
        rolled = roll_check(check, dice, halved=halved, extra_dice=request.bonus_dice)
        hits = hits_of((rolled.critical_failure, rolled.en), check, request)
        shots.append(Shot(check=rolled, hit=hits > 0, hits=hits))
    rounds = (request.burst or 0) if request.fire is FireMode.BURST else request.shots
    hit_total = sum(s.hits for s in shots)
    missed = max(rounds - hit_total, 0)
    return RangedAttack(tn=check.tn, modifiers=found, halved=halved, location=location,
                        shots=shots, hits=hit_total, missed_rounds=missed)  # fmt: skip


class AutoTarget(Model):
    tn: Annotated[int, Field(ge=0, le=100)] | None = Field(
        default=None, description="This target's TN; unset, the burst's."
    )
    distance: Meters | None = None
    rounds: Rounds | None = Field(
        default=None,
        description="Rounds of the burst given this target (FI:L297); unset, the rest of the "
        "burst is shared evenly among the targets given none, the first taking the remainder.",
    )
    dice: Annotated[int, Field(ge=1, le=5)] | None = Field(
        default=None, description="Dice of the pool given this target (A-44 rows)."
    )
    modifiers: tuple[Annotated[int, Field(ge=-20, le=20)], ...] = Field(default=(), max_length=4)


class AutomaticInput(Model):
    pool: PoolText
    tn: Annotated[int, Field(ge=0, le=100)] | None = None
    distance: Meters | None = None
    range_increment: Annotated[int, Field(ge=1, le=10_000)] | None = None
    burst: Rounds | None = Field(default=None, description="Rounds in the burst; unset, no cap.")
    targets: tuple[AutoTarget, ...] = Field(default=(AutoTarget(),), min_length=1, max_length=5)
    situation: Situation = Field(default=Situation())
    options: AttackOptions = Field(default=AttackOptions())


class TargetBurst(Model):
    tn: int
    pool: str
    modifiers: list[Applied]
    check: Checked
    hits: int


class Automatic(Model):
    targets: list[TargetBurst]
    hits: int


def _rows(request: AutomaticInput) -> list[int]:
    """The pool's dice shared among the targets (A-44): as given, or evenly, the first
    targets taking what is left over; or the whole pool each, where a target's own dice
    would be ignored and so are refused ('he splits his skill among them', FI:L297)."""
    row, count = parse(request.pool).row, len(request.targets)
    given = [t.dice for t in request.targets]
    if request.options.target_split is TargetSplit.WHOLE_POOL:
        for index, dice in enumerate(given):
            if dice is not None:
                message = "target_split whole_pool rolls the whole pool at each target (A-44)"
                raise InputError(("targets", index, "dice"), message)
        return [row] * count
    if all(d is not None for d in given):
        if sum(d for d in given if d is not None) != row:
            raise InputError(("targets",), f"the targets' dice must add up to the pool's {row}")
        return [d for d in given if d is not None]
    if any(d is not None for d in given):
        raise InputError(("targets",), "give every target's dice, or none")
    if count > row:
        raise InputError(("targets",), f"{row} dice split among {count} targets (FI:L297)")
    return [row // count + (1 if i < row % count else 0) for i in range(count)]


def _rounds(request: AutomaticInput) -> list[int | None]:
    """The rounds each target gets, the cap on its hits: the gunner decides how many shots
    each target gets (FI:L297, catalogue 3.5.5 step 3), so a burst's rounds are shared out,
    never more than the burst in all. Rounds given are kept; the rest of the burst is shared
    evenly among the targets given none, the first taking what is left over (as the dice
    are, `_rows`), each at least one. Without a burst, no cap but the rounds given."""
    given = [t.rounds for t in request.targets]
    burst = request.burst
    if burst is None:
        return given
    left = burst - sum(r for r in given if r is not None)
    if left < 0:
        raise InputError(("targets",), f"{burst - left} rounds given of a burst of {burst}")
    open_ = [index for index, rounds in enumerate(given) if rounds is None]
    if len(open_) > left:
        raise InputError(("targets", open_[left], "rounds"), f"{left} rounds of the burst left "
                         f"for {len(open_)} targets given none: give each target its rounds, "
                         "at least one (FI:L297)")  # fmt: skip
    share = {index: left // len(open_) + (1 if n < left % len(open_) else 0)
             for n, index in enumerate(open_)}  # fmt: skip
    return [share[index] if rounds is None else rounds for index, rounds in enumerate(given)]


def _targets(request: AutomaticInput) -> list[tuple[CheckInput, bool, list[Applied], int | None]]:
    """Each target's check, halving, modifiers and rounds (`_rounds`)."""
    rounds = _rounds(request)
    found, _ = applied(request.situation, request.options, automatic=True)
    extra = request.options.extra_target_penalty * (len(request.targets) - 1)
    if extra:
        found = [*found, Applied(source="extra targets (NEEDS WORK, FI:L297)", modifier=extra)]
    column = parse(request.pool).roman.split("-")[0]
    made = []
    for index, (target, dice) in enumerate(zip(request.targets, _rows(request), strict=True)):
        own = target.tn if target.tn is not None or target.distance is not None else request.tn
        distance = target.distance if target.tn is None else None
        if own is None and distance is None:
            distance = request.distance
        try:
            tn = base_tn(own, distance, request.range_increment, None)
        except InputError as error:
            raise InputError(("targets", index, *error.loc), error.message) from None
        mods = [*found, *(Applied(source="target", modifier=m) for m in target.modifiers)]
        check, halved = task(f"{column}-{dice}", tn, mods, request.situation.skill,
                             request.options, ("targets", index))  # fmt: skip
        made.append((check, halved, mods, rounds[index]))
    return made


class TargetOdds(Model):
    target: int
    hit: Exact
    hits: list[OutcomeProbability]


class AutomaticOdds(Model):
    targets: list[TargetOdds]
    truncation: Truncation | None


def _target_hits(
    check: CheckInput, rounds: int | None, options: AttackOptions, outcome: tuple[bool, int]
) -> int:
    return burst_hits(*graded(outcome[1], outcome[0], check), rounds, options)


def automatic_odds(request: AutomaticInput) -> AutomaticOdds:
    """The rounds hitting each target, exactly: each target is its own test (FI:L297)."""
    made, cut = [], None
    for index, (check, halved, _, rounds) in enumerate(_targets(request), start=1):
        found = results(check, halved).map(partial(_target_hits, check, rounds, request.options))
        made.append(TargetOdds(target=index, hit=exact(found.probability_where(lambda n: n > 0)),
                               hits=outcome_table(found)))  # fmt: skip
        cut = cut or truncation(found, DEPTH)
    return AutomaticOdds(targets=made, truncation=cut)


def automatic_cost(request: AutomaticInput) -> Estimate:
    """One test's results for each target (`check_states`, its dice at most the pool's),
    and the rounds hitting read off them, as many again."""
    pool = parse(request.pool)
    top = sides(pool, ("pool",), request.options)
    return Estimate(2 * check_states(top, pool.row) * len(request.targets), ("/targets",))


@operation(
    name="combat/automatic",
    kind=Kind.CHECK,
    covers=("fi.combat.automatic",),
    odds=automatic_odds,
    cost=automatic_cost,
    example={"pool": "IV-3", "tn": 6, "burst": 3, "dice": {"values": [10, 2, 3, 4]}},
)
def automatic(request: AutomaticInput, dice: Dice) -> Automatic:
    """A burst: the card's burst section says how many rounds hit (FI:L295), here 1 and 1 a
    bump (A-44): Violet's Heavy Blasters 12 against TN 6 is a success and a bump, 2 hits
    (FI:L299). At several targets the gunner shares out the rounds and his skill, each target
    its own test at -1 for each extra target (FI:L297, NEEDS WORK); never aimed or called."""
    made = []
    for check, halved, mods, rounds in _targets(request):
        rolled = roll_check(check, dice, halved=halved)
        success, bumps = rolled.success, rolled.bumps
        hits = burst_hits(success, bumps, rounds, request.options)
        made.append(TargetBurst(tn=check.tn, pool=check.pool, modifiers=mods, check=rolled,
                                hits=hits))  # fmt: skip
    return Automatic(targets=made, hits=sum(t.hits for t in made))
