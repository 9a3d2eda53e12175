"""Cold exact odds in-process: the service's odds function (no cache) against icepool
computing the same distribution, median of repeated runs. Issue 25 asks each of the five
systems' heaviest representative distributions to come out `SPEEDUP_TARGET` times faster.

The icepool twin enumerates the same dice and reads each outcome with the same rule, so the
comparison is of the enumeration, not of the rules: 4d8 as a pool of four d8, the 4SIGHT
attack as two exploding d6 (16 extra dice) and their difference, the FORESIGHT QR as a d100;
the 4C Master Table's amplified d% as the higher of two tens dice and a ones die read on the
stepped row, starting Damage as four d% rolls on the Rank Value table summed; the Future
Imperfect check as a pool of exploding d8 read by a multiset evaluator (ones and highest),
its damage as exploding d6 summed; the FORESIGHT attack as two d100 read as QRs and blocked,
then the hit location's d10 and each armor layer's coverage d10 read to a wound level.
Before any timing, each twin's distribution is checked against the service's: a race between
two computations is only fair if they compute the same thing. They agree exactly, except
that the service cuts exploding chains at a stated depth and reports the mass it cut, which
bounds the difference from icepool's, exploding to the same depth (its last die keeps the
mass instead). Every twin builds its dice and evaluators afresh, so icepool too runs cold.
The service keeps the few rolls no request changes (4D8's four d8, 4C's d% in each mode, the
FORESIGHT D100) as constants made at import; everything a request decides is computed anew.
"""

import gc
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, TypeVar

import icepool
from pydantic import BaseModel

from service.rules.foresight.combat.attack import AttackInput, _damage, _plan, attack
from service.rules.foresight.combat.options import defended
from service.rules.foresight.mortality.condition import accumulate
from service.rules.foresight.mortality.damage import decimal
from service.rules.foresight.mortality.hits import _base_dc, _parse, inflict
from service.rules.foresight.mortality.location import Aim, location_of
from service.rules.foresight.resolution.chance import Setup
from service.rules.foresight.resolution.options import QrThresholds
from service.rules.foresight.resolution.quality import rater
from service.rules.foresight.resolution.tables import QR
from service.rules.four_c.characters.origins import trait_after
from service.rules.four_c.characters.tables import DAMAGE_TRAITS, TRAIT_RANKS, looked_up
from service.rules.four_c.characters.traits import DamageInput as FourCDamageInput
from service.rules.four_c.core.dice import digit
from service.rules.four_c.core.master_table import CheckInput as MasterCheckInput
from service.rules.four_c.core.master_table import reader
from service.rules.four_d8.degree import score
from service.rules.four_d8.options import FourD8Options
from service.rules.four_sight.injuries import injury_of
from service.rules.future_imperfect.core.checks import DEPTH, en_of, graded, is_cf
from service.rules.future_imperfect.core.checks import CheckInput as FiCheckInput
from service.rules.future_imperfect.core.damage import depth_for
from service.rules.future_imperfect.core.pools import parse, sides
from service.rules.future_imperfect.harm.damage import DamageInput as FiDamageInput
from service.rules.future_imperfect.harm.location import bonus_cards
from service.rules.registry import Operation, load

__all__ = ["COLD", "SPEEDUP_TARGET", "Cold", "measure"]

#: Cold exact odds at least this many times faster than icepool's (issue 25).
SPEEDUP_TARGET = 10

FOUR_D8_EASE = 18
DEX1 = {"traits": [{"trait": "dexterity", "score": 1}]}
#: RV 20 moved two rows up, rolled amplified (two tens dice, the better kept), blue needed.
MASTER_TABLE = {"rv": 20, "row_steps": [2], "required": "blue", "mode": "amplified"}
#: No trait given: Melee, Coordination, Brawn and Fortitude all rolled (appendix B.1).
FOUR_C_DAMAGE: dict[str, Any] = {}
#: Three exploding d8 (column III, row 3) against TN 3.
FI_CHECK = {"pool": "III-3", "tn": 3}
#: A large slugthrower handgun's 3(2) to the head: two cards more, five exploding d6.
FI_DAMAGE = {"code": "3(2)", "region": "head"}
#: The operation's example without its dice: a sabre at task score 14 against a parry at 12.
FORESIGHT_ATTACK = {k: v for k, v in attack.example.items() if k != "dice"}


@dataclass(frozen=True)
class Cold:
    name: str
    system: str
    operation: str
    payload: dict[str, Any]
    icepool: Callable[[], icepool.Die[Any]]
    #: The service's distribution in its odds JSON, as {outcome: probability}, with outcomes
    #: named as `str` of the icepool twin's.
    outcomes: Callable[[dict[str, Any]], dict[str, Fraction]]


def _rows(rows: list[dict[str, Any]], rename: dict[str, str] | None = None) -> dict[str, Fraction]:
    rename = rename or {}
    return {rename.get(r["outcome"], r["outcome"]): Fraction(r["exact"]) for r in rows}


def _four_d8() -> icepool.Die[Any]:
    options = FourD8Options()
    pool = icepool.d8.pool(4).expand()
    return pool.map(
        lambda dice: (
            score(sorted(dice, reverse=True), options)[0] if sum(dice) <= FOUR_D8_EASE else 0
        )
    )


def _combat() -> icepool.Die[Any]:
    one = icepool.d6.explode(depth=16) + 1
    return (one - one).map(lambda margin: "no_hit" if margin < 0 else injury_of(margin).value)


def _foresight() -> icepool.Die[Any]:
    rate = rater(Fraction(70), QrThresholds.EXACT)
    return icepool.d100.map(lambda roll: rate(roll).value)


M = TypeVar("M", bound=BaseModel)


def _request(model: type[M], payload: dict[str, Any]) -> M:
    """A payload read as the service reads a request, from JSON (strict models take enums
    and tuples only from JSON)."""
    return model.model_validate_json(json.dumps(payload))


def _master_table() -> icepool.Die[Any]:
    """The amplified d%: the higher of two tens dice and the ones die, each a d10 read as a
    digit, then the colour of the roll on the row the RV and Row Steps give."""
    request = _request(MasterCheckInput, MASTER_TABLE)
    d10 = icepool.d10.map(digit)
    roll = 10 * icepool.highest(d10, d10) + d10
    read_roll = reader(request)
    return roll.map(lambda used: read_roll(used)[1].value)


def _four_c_damage() -> icepool.Die[Any]:
    """Each of the four traits given or rolled on the Rank Value table (d% 00-99), after its
    origin's change, and the four summed."""
    request = _request(FourCDamageInput, FOUR_C_DAMAGE)
    chosen = request.changed_human_trait
    rank = (icepool.d100 - 1).map(lambda roll: looked_up(TRAIT_RANKS, roll).rv)
    total = icepool.Die([0])
    for trait in DAMAGE_TRAITS:
        given: int | None = getattr(request, trait.value)
        one = rank if given is None else icepool.Die([given])
        total += one.map(partial(trait_after, request.origin, trait, chosen=chosen))
    return total


class _CheckReading(icepool.MultisetEvaluator):  # type: ignore[misc]
    """A pool of exploding dice read as `core/check` reads it, from the number of dice that
    show 1 and the highest die, gathered in one pass over the outcomes."""

    def __init__(self, request: FiCheckInput) -> None:
        self.request = request

    def next_state(
        self, state: tuple[int, int] | None, order: Any, outcome: int, count: int
    ) -> tuple[int, int]:
        """Count the dice at 1 and keep the highest outcome any die shows (either order)."""
        ones, highest = state or (0, 0)
        if count:
            ones, highest = ones + (count if outcome == 1 else 0), max(highest, outcome)
        return ones, highest

    def final_outcome(self, state: tuple[int, int], order: Any, outcomes: Any, size: int) -> str:
        """A 1 is always a first face (a die that explodes totals more), so the ones are
        known from the totals; a critical failure is one outcome, whatever its kept die."""
        ones, highest = state
        if is_cf(ones, size, self.request.options.cf_rule):
            return "critical_failure"
        success, bumps = graded(en_of(highest, self.request, False), False, self.request)
        return str(bumps) if success else "failure"


def _fi_check() -> icepool.Die[Any]:
    """The pool's dice, each exploding to the service's depth, read by `_CheckReading` (a
    fresh evaluator: icepool caches evaluations in it)."""
    request = _request(FiCheckInput, FI_CHECK)
    pool = parse(request.pool)
    die = icepool.d(sides(pool, options=request.options)).explode(depth=DEPTH)
    return _CheckReading(request).evaluate(die.pool(pool.row))


def _fi_check_outcomes(odds: dict[str, Any]) -> dict[str, Fraction]:
    """The service's bumps, its failures split into critical and plain ones."""
    found = _rows(odds["bumps"])
    critical = Fraction(odds["critical_failure"]["exact"])
    return {**found, "failure": found.get("failure", Fraction(0)) - critical,
            "critical_failure": critical}  # fmt: skip


def _fi_damage() -> icepool.Die[Any]:
    """The code's cards and the head's two, each an exploding die of the column to the depth
    the service follows them to, summed."""
    request = _request(FiDamageInput, FI_DAMAGE)
    code = parse(request.code)
    top = sides(code, options=request.options)
    count = code.row + bonus_cards(request.region, request.options)
    die = icepool.d(top).explode(depth=depth_for([top] * count))
    return sum((die for _ in range(count - 1)), die)


def _qrs(task: Setup | None) -> icepool.Die[Any]:
    """A task's QR on each face of its D100."""
    assert task is not None
    assert task.rolled
    return icepool.d100.map(rater(task.sc, task.mode))


def _foresight_attack() -> icepool.Die[Any]:
    """The attack's and the parry's D100s read as QRs and blocked, then the hit location's
    D10 and a coverage D10 for each armor layer read to the defender's wound level."""
    request = _request(AttackInput, FORESIGHT_ATTACK)
    plan, options = _plan(request), request.options
    damage = _damage(plan, options)
    dc_class, armor = _parse(damage)
    dc, ds, start = _base_dc(damage, dc_class), decimal(damage.ds), damage.condition.wound_level
    # One located hit (random aim) of a wounding weapon, no vital D10, no worn armor: the
    # payload's, and all the twin reads.
    assert (damage.aim, dc_class.count * damage.hits, dc_class.stun) == (Aim.RANDOM, 1, False)
    assert (options.vital_extra, armor.worn_layers) == (False, ())
    blocked = partial(defended, options=options)
    final = icepool.map(blocked, _qrs(plan.attack), _qrs(plan.defense))
    labels = [layer.label for layer, _ in armor.given]

    def wound_level(qr: QR, location: Any, *coverage: int) -> int:
        kept = tuple(layer.cut for layer in armor.at(location)
                     if coverage[labels.index(layer.label)] <= layer.coverage)  # fmt: skip
        hit = inflict(dc, dc_class, qr, location, kept, ds, None, options).damage
        return accumulate(start, hit, location, options) if hit else start

    coverage = [icepool.d10] * len(labels)
    return icepool.map(wound_level, final, icepool.d10.map(location_of), *coverage)


COLD = (
    Cold("4D8 check odds (ease 18)", "four-d8", "check", {"ease": FOUR_D8_EASE}, _four_d8,
         lambda odds: _rows(odds["distributions"]["degree"], {"failure": "0"})),
    Cold("4SIGHT combat odds (Dex 1 vs Dex 1)", "four-sight", "combat-attack",
         {"attacker": DEX1, "defender": DEX1}, _combat, lambda odds: _rows(odds["injury"])),
    Cold("FORESIGHT QR odds (SC 70)", "foresight", "resolve", {"score": 14, "bef": 5},
         _foresight, lambda odds: {k.removeprefix("QR"): v for k, v in _rows(odds["qr"]).items()}),
    Cold("4C Master Table check (RV 20, +2 rows, Amplified)", "four-c", "master-table/check",
         MASTER_TABLE, _master_table, lambda odds: _rows(odds["colour"])),
    Cold("4C starting Damage (four traits rolled)", "four-c", "traits/secondary/damage",
         FOUR_C_DAMAGE, _four_c_damage, lambda odds: _rows(odds["damage"])),
    Cold("FI III-3 exploding pool at TN 3", "future-imperfect", "core/check", FI_CHECK,
         _fi_check, _fi_check_outcomes),
    Cold("FI damage pool 3(2) to the head", "future-imperfect", "combat/damage", FI_DAMAGE,
         _fi_damage, lambda odds: _rows(odds["total"])),
    Cold("FORESIGHT attack vs parry to wound levels", "foresight", "attack", FORESIGHT_ATTACK,
         _foresight_attack, lambda odds: _rows(odds["damage"]["wound_level"])),
)  # fmt: skip


def disagreement(cold: Cold, odds: dict[str, Any]) -> Fraction:
    """How far the service's distribution is from icepool's: the sum of the differences of
    every outcome's probability, less the mass the service reports it cut (at most 0 when
    they agree)."""
    ours = cold.outcomes(odds)
    twin = cold.icepool()
    theirs = {str(outcome): Fraction(twin.quantity(outcome), twin.denominator())
              for outcome in twin.outcomes()}  # fmt: skip
    apart = sum(abs(ours.get(k, Fraction(0)) - theirs.get(k, Fraction(0)))
                for k in ours.keys() | theirs.keys())  # fmt: skip
    cut = (odds.get("truncation") or {}).get("mass_cut") or {"exact": "0"}
    return Fraction(apart) - Fraction(cut["exact"])


def _median_seconds(works: tuple[Callable[[], object], ...], repeats: int) -> list[float]:
    """The median seconds of each of `works`, timed in turn within each repeat: a shared
    host's speed drifts within seconds, and timing one side's repeats and then the other's
    would put the drift into their ratio. Each timed run follows an untimed one of the same
    work, as repeats one after another do: otherwise the other side's run would have just
    evicted its code and data from the processor's caches. The collector is off while a
    run is timed, as `timeit` has it: a collection's cost is the other side's garbage."""
    times: list[list[float]] = [[] for _ in works]
    for _ in range(repeats):
        for work, taken in zip(works, times, strict=True):
            work()
            gc.disable()
            try:
                start = time.perf_counter()
                work()
                taken.append(time.perf_counter() - start)
            finally:
                gc.enable()
    return [statistics.median(taken) for taken in times]


def _operation(cold: Cold) -> Operation:
    system = load().system(cold.system)
    assert system is not None
    return next(op for op in system.operations if op.name == cold.operation)


def measure(repeats: int = 30) -> list[dict[str, Any]]:
    """Median seconds per cold computation, service and icepool, for each distribution."""
    rows = []
    for cold in COLD:
        op = _operation(cold)
        assert op.odds_request_model is not None
        request = op.odds_request_model.model_validate_json(json.dumps(cold.payload))
        odds = json.loads(op.run_odds(request).model_dump_json())
        if disagreement(cold, odds) > 0:
            raise SystemExit(f"{cold.name}: the service and icepool disagree; no race to run")
        ours, theirs = _median_seconds((partial(op.run_odds, request), cold.icepool), repeats)
        rows.append({"name": cold.name, "service_ms": ours * 1000, "icepool_ms": theirs * 1000,
                     "speedup": theirs / ours})  # fmt: skip
    return rows


if __name__ == "__main__":
    for row in measure():
        print(row)
