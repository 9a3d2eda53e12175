"""Checks (catalogue 1.2): roll the pool's dice, keep the highest, every maximum rolls again
and adds (FI:L133 "Checks are always open ended"); success is the result at least the TN;
each `bump_step` over it is a bump; more than half the dice showing 1 is a critical failure,
which fails whatever else (A-06). Tests read the same dice-equivalent model (A-01)."""

from math import comb
from typing import Annotated, Any

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
from service.rules.future_imperfect.core.deck import DEPTH as DECK_DEPTH
from service.rules.future_imperfect.core.deck import (
    Deck,
    Drawn,
    chain_states,
    configured,
    deck_results,
    draw,
)
from service.rules.future_imperfect.core.options import (
    CardModel,
    CfRule,
    CoreOptions,
    Engine,
    ExplodePolicy,
    HalvingOrder,
)
from service.rules.future_imperfect.core.pools import DIE_SIDES, PoolText, parse, sides
from service.rules.model import InputError, Model
from service.rules.registry import Kind, Reading, operation

__all__ = [
    "BUMPS_ROLLED",
    "CHECK",
    "CHECK_BUMPS_ROLLED",
    "DEPTH",
    "MAX_CHAIN",
    "CheckInput",
    "Checked",
    "Modifier",
    "bumps_table",
    "check_odds",
    "check_states",
    "checked_of",
    "dice_only",
    "die_distribution",
    "die_values",
    "graded",
    "kept_results",
    "pool_dice",
    "results",
    "roll_check",
    "roll_dice",
    "rolled_cf",
    "stops",
]

#: Extra dice an exploding chain is followed to in the odds: at most 5 x 4**-22 (under 1e-12)
#: of the mass is left out, and stated.
DEPTH = 21
#: Extra dice a rolled chain may take: a 100th maximum in a row has never been rolled.
MAX_CHAIN = 100
Modifier = Annotated[int, Field(ge=-50, le=50)]


class CheckInput(Model):
    pool: PoolText
    tn: Annotated[int, Field(ge=0, le=100)] = Field(description="The Target Number (FI:L239).")
    modifiers: tuple[Modifier, ...] = Field(default=(), max_length=8)
    wound_penalty: Annotated[int, Field(ge=-20, le=0)] = 0
    open_ended: bool = Field(
        default=True, description="Maxima roll again: not for stepping up (FI:L102) or lifting."
    )
    max_rerolls: tuple[Annotated[int, Field(ge=0, le=MAX_CHAIN)], ...] = Field(
        default=(),
        max_length=10,
        description="With options.explode_policy client_choice: how many times at most each "
        "die, in order, rolls again on a maximum; dice not listed roll every one (A-07).",
    )
    options: CoreOptions = Field(default=CoreOptions())


class Die(Model):
    faces: tuple[int, ...] = Field(description="The first face, then each roll a maximum added.")
    value: int


class Checked(Model):
    dice: list[Die]
    kept: int = Field(description="The highest die, explosions added (FI:L520).")
    en: int = Field(description="The result: kept die and modifiers (halved for a default).")
    critical_failure: bool
    success: bool
    bumps: int
    successes: int = Field(description="1 for the success and 1 a bump (FI:L147).")


def _bumps_rolled(result: Any) -> str:
    """A check's bumps as its odds write them: how many on a success, 'failure' otherwise (a
    failure's bumps field is 0, which the odds count among the successes)."""
    found = result if hasattr(result, "bumps") else result.check
    return str(found.bumps) if found.success else "failure"


#: How a result that is a check, or holds one as `check`, reads as its odds' bumps.
BUMPS_ROLLED = {"/bumps": Reading(read=_bumps_rolled)}
#: The same, where the odds hold the check's under `check`.
CHECK_BUMPS_ROLLED = {"/check/bumps": Reading(read=_bumps_rolled)}


def dice_only(options: CoreOptions, what: str) -> None:
    """Refuse the deck engine where only dice are rolled: a check is dice, as the chapter
    means (FI:L133 "Checks are always open ended", catalogue A-01 reading (c)); only
    core/test (lifting and rushing through it) and hit location read a configured Action
    Deck, so elsewhere `engine: deck` would be ignored. Every check's roll and odds call it
    (`roll_dice`, `pool_dice`); a rule calls it first for a refusal that names what it
    rolls."""
    if options.engine is Engine.DECK:
        raise InputError(("options", "engine"), f"{what} rolls dice (A-01); a configured "
                                                "Action Deck is read by core/test, lifting, "
                                                "rushing and hit location")  # fmt: skip


def is_cf(ones: int, dice: int, rule: CfRule) -> bool:
    if rule is CfRule.MORE_THAN_HALF_ONES:
        return 2 * ones > dice
    return rule is CfRule.ALL_ONES and ones == dice


def en_of(kept: int, request: CheckInput, halved: bool) -> int:
    """Modifiers and the wound penalty added to the kept die; a default halves the total (or
    the die first, A-09); never below 0."""
    added = sum(request.modifiers) + request.wound_penalty
    if not halved:
        return max(kept + added, 0)
    if request.options.default_halving_order is HalvingOrder.BEFORE_MODIFIERS:
        return max(kept // 2 + added, 0)
    return max((kept + added) // 2, 0)


def graded(en: int, cf: bool, request: CheckInput) -> tuple[bool, int]:
    success = not cf and en >= request.tn
    return success, (en - request.tn) // request.options.bump_step if success else 0


def roll_dice(
    request: CheckInput, dice: Dice, plan: tuple[int | None, ...], first: int = 0
) -> list[list[int]]:
    """Roll a die for each of `plan`'s stops (`stops`), each maximum rolling again while it
    may; the dice are named from number `first` + 1. A check is dice (FI:L133): the deck
    engine is refused here, so every rule that rolls one refuses it (`dice_only`)."""
    dice_only(request.options, "this rule's check")
    top = sides(parse(request.pool), ("pool",), request.options)
    rolled = []
    for index, stop in enumerate(plan, start=first):
        limit = MAX_CHAIN if stop is None else stop
        faces = [dice.roll(top, f"die {index + 1}")]
        while request.open_ended and faces[-1] == top and len(faces) <= limit:
            faces.append(
                dice.roll(top, f"die {index + 1} again", exploded_from=len(dice.rolls) - 1)
            )
        rolled.append(faces)
    return rolled


def rolled_cf(rolled: list[list[int]], request: CheckInput) -> bool:
    """A critical failure: judged on the first faces of the dice `rolled` (A-06)."""
    ones = sum(faces[0] == 1 for faces in rolled)
    return is_cf(ones, len(rolled), request.options.cf_rule)


def checked_of(
    rolled: list[list[int]], cf: bool, request: CheckInput, halved: bool = False
) -> Checked:
    """The check the dice `rolled` make: on a critical failure the maxima are ignored
    (catalogue A-06), else the highest die with its chain is kept."""
    kept = max(faces[0] for faces in rolled) if cf else max(sum(faces) for faces in rolled)
    en = en_of(kept, request, halved)
    success, bumps = graded(en, cf, request)
    return Checked(dice=[Die(faces=tuple(f), value=sum(f)) for f in rolled], kept=kept, en=en,
                   critical_failure=cf, success=success, bumps=bumps,
                   successes=1 + bumps if success else 0)  # fmt: skip


def roll_check(
    request: CheckInput, dice: Dice, halved: bool = False, extra_dice: int = 0
) -> Checked:
    """Roll a check; `extra_dice` join the pool (a shotgun's bonus dice)."""
    rolled = roll_dice(request, dice, stops(request, parse(request.pool).row + extra_dice))
    return checked_of(rolled, rolled_cf(rolled, request), request, halved)


def die_distribution(top: int, open_ended: bool, depth: int = DEPTH) -> Distribution[int]:
    """One die: its face, a maximum followed by the chain of dice it rolls (to `depth`)."""
    face = Distribution.die(top)
    if not open_ended or depth == 0:
        return face
    chain = Distribution.exploding(top, depth - 1, lambda n: n, lambda n: n == top,
                                   last_explodes=True)  # fmt: skip
    return face.then(
        lambda f: chain.map(lambda more: top + more) if f == top else Distribution({f: 1})
    )


def die_values(top: int, depth: int) -> tuple[int, int]:
    """How many values one open-ended die followed to `depth` shows, and its highest: a run
    of j maxima (j up to `depth`) then a face below the maximum, j x top + 1 to j x top +
    top - 1 (`die_distribution`); to depth 0, its faces."""
    if depth == 0:
        return top, top
    return (depth + 1) * (top - 1), (depth + 1) * top - 1


def stops(request: CheckInput, count: int) -> tuple[int | None, ...]:
    """How many times each die may roll again: every maximum, or where the player stops
    (A-07, `explode_policy` client_choice)."""
    chosen = request.max_rerolls
    if request.options.explode_policy is ExplodePolicy.MAXIMISE:
        if chosen:
            raise InputError(("max_rerolls",), "stopping a die is options.explode_policy "
                                               "client_choice (A-07)")  # fmt: skip
        return (None,) * count
    if len(chosen) > count:
        raise InputError(("max_rerolls",), f"the pool rolls {count} dice")
    return (*chosen, *(None,) * (count - len(chosen)))


def pool_dice(request: CheckInput, extra_dice: int = 0) -> list[Distribution[int]]:
    """Each die of the pool to `DEPTH` (a stopped one exactly to its stop), all over one
    total: the odds of every check, which refuse the deck engine as its roll does
    (`roll_dice`, `dice_only`)."""
    dice_only(request.options, "this rule's check")
    pool = parse(request.pool)
    top = sides(pool, ("pool",), request.options)
    found = []
    for stop in stops(request, pool.row + extra_dice):
        if not request.open_ended or stop == 0:
            die = Distribution.die(top)
        elif stop is None or stop >= DEPTH:
            die = die_distribution(top, True)
        else:
            die = Distribution.exploding(top, stop, lambda n: n, lambda n: n == top,
                                         last_explodes=False)  # fmt: skip
        found.append(die)
    common = max(die.total for die in found)
    return [Distribution(dict(die.items()), total=common) if die.total == common
            else Distribution({v: w * (common // die.total) for v, w in die.items()},
                              total=common) for die in found]  # fmt: skip


def _ones(factors: list[tuple[int, int]]) -> list[int]:
    """The product of (a + b x) over the dice: coefficient k weighs k dice showing 1."""
    poly = [1]
    for a, b in factors:
        poly = [(poly[k] if k < len(poly) else 0) * a + (poly[k - 1] * b if k else 0)
                for k in range(len(poly) + 1)]  # fmt: skip
    return poly


def kept_distribution(request: CheckInput, extra_dice: int = 0) -> Distribution[int | None]:
    """The kept die of the pool, None for a critical failure. A die shows 1 with weight b and
    2..v with weight a(v), so the weight of "no critical failure and every die at most v" is
    the sum, over the counts k of ones that are no critical failure, of the coefficients of
    x^k in the product of (a(v) + b x); a critical failure is known from the first faces
    alone, whatever the chains."""
    dice = pool_dice(request, extra_dice)
    n, rule, total = len(dice), request.options.cf_rule, dice[0].total
    one = [die.weight(1) for die in dice]

    def weight(factors: list[tuple[int, int]], critical: bool) -> int:
        return sum(c for k, c in enumerate(_ones(factors)) if is_cf(k, n, rule) == critical)

    weights: dict[int | None, int] = {}
    previous = 0
    for v in sorted({v for die in dice for v, _ in die.items()}):
        below = [sum(w for u, w in die.items() if 2 <= u <= v) for die in dice]
        at_most = weight(list(zip(below, one, strict=True)), False)
        weights[v] = at_most - previous
        previous = at_most
    weights[None] = weight([(total - b, b) for b in one], True)
    return Distribution({k: w for k, w in weights.items() if w}, total=total**n)


def kept_results(request: CheckInput, extra_dice: int = 0) -> Distribution[tuple[bool, int]]:
    """Each (critical failure, kept die) of a check. A critical failure keeps its highest first
    face, the maxima ignored (A-06): with k ones among n dice and the rest showing 2..v, the
    highest is at most v."""
    pool = parse(request.pool)
    top, n = sides(pool, ("pool",), request.options), pool.row + extra_dice
    found = kept_distribution(request, extra_dice)
    first = found.total // top**n  # the weight of one set of first faces, chains cut or not
    pairs = [((False, k), w) for k, w in found.items() if k is not None]
    previous = 0
    for v in range(1, top + 1):
        upto = sum(comb(n, k) * first * (v - 1) ** (n - k) for k in range(n + 1)
                   if is_cf(k, n, request.options.cf_rule))  # fmt: skip
        pairs.append(((True, v), upto - previous))
        previous = upto
    return Distribution(pairs, total=found.total)


def results(
    request: CheckInput, halved: bool = False, extra_dice: int = 0
) -> Distribution[tuple[bool, int]]:
    """Each (critical failure, EN) of a check: the kept die (`kept_results`) with the
    modifiers, so a hazard's loss on a critical failure is still the TN less that result."""
    return kept_results(request, extra_dice).map(lambda o: (o[0], en_of(o[1], request, halved)))


FAILED = ("failure", "critical_failure")


class CheckOdds(Model):
    success: Exact
    critical_failure: Exact
    bumps: list[OutcomeProbability] = Field(description="Of a success; 'failure' otherwise.")
    truncation: Truncation | None


def bumps_table(bumps: Distribution[str]) -> list[OutcomeProbability]:
    """A check's bumps as an odds table: 'failure', then every number of bumps the check can
    reach, fewest first. A bump is each `bump_step` over the TN (FI:L147, A-05), and a result
    has no ceiling (maxima roll again, FI:L133; modifiers to 8 x 50), so none is left out."""
    counts = sorted(int(o) for o, _ in bumps.items() if o != "failure")
    return outcome_table(bumps, ["failure", *(str(b) for b in counts)])


def graded_odds(
    found: Distribution[tuple[bool, int]], request: CheckInput, depth: int
) -> CheckOdds:
    """The odds of a check from each (critical failure, EN) it may end on."""

    def outcome(result: tuple[bool, int]) -> str:
        cf, en = result
        if cf:
            return "critical_failure"
        success, bumps = graded(en, False, request)
        return str(bumps) if success else "failure"

    graded_outcomes = found.map(outcome)
    bumps = graded_outcomes.map(lambda o: "failure" if o == "critical_failure" else o)
    return CheckOdds(
        success=exact(graded_outcomes.probability_where(lambda o: o not in FAILED)),
        critical_failure=exact(graded_outcomes.probability("critical_failure")),
        bumps=bumps_table(bumps),
        truncation=truncation(found, depth),
    )


def odds_of(request: CheckInput, halved: bool = False) -> CheckOdds:
    return graded_odds(results(request, halved), request, DEPTH)


def check_odds(request: CheckInput) -> CheckOdds:
    """P(success), P(critical failure) and each number of bumps, exactly (catalogue 5.3 T1)."""
    dice_only(request.options, "a check")
    return odds_of(request)


#: Every pool of the five columns at the chapter's common TNs, for `make precompute`.
STANDARD = [
    {"pool": f"{roman}-{row}", "tn": tn}
    for roman in ("I", "II", "III", "IV", "V")
    for row in range(1, 6)
    for tn in (3, 5, 7)
]


#: One check's odds: a die and its chain (20 faces and 21 extra dice at most) and the tables
#: of its values, the same bound for every pool.
CHECK = Estimate(60_000, ())


def check_states(top: int, dice: int) -> int:
    """At most how many states one check of `dice` open-ended dice of `top` sides makes: each
    die and its chain made (top x (4 DEPTH + 3)) and brought to the pool's total (its
    `die_values`), then the kept die's values read into the tables of its results, four
    times. `CHECK` bounds it for every pool; this is the check of a pool known."""
    values, _ = die_values(top, DEPTH)
    return dice * (top * (4 * DEPTH + 3) + values) + 4 * values + 100


def check_cost(request: Model) -> Estimate:
    """A die and its chain (20 faces and 21 extra dice at most) and the tables of its values:
    the same bound for every pool, and for every rule whose odds are one check's (of a pool
    the rule may change first)."""
    return CHECK


def pool_cost(request: CheckInput) -> Estimate:
    """One check of the request's own pool: each die and its chain made and brought to the
    pool's total, then the kept die's tables (`check_states`). A few thousand states, so
    dozens fit the allowance one GraphQL request or batch of calls shares."""
    pool = parse(request.pool)
    return Estimate(check_states(sides(pool, ("pool",), request.options), pool.row), ("/pool",))


@operation(
    name="core/check",
    rolled=BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.core.check",),
    odds=check_odds,
    cost=pool_cost,
    standard=STANDARD,
    memo=True,
    example={"pool": "IV-3", "tn": 3, "dice": {"values": [3, 4, 4]}},
)
def check(request: CheckInput, dice: Dice) -> Checked:
    """Roll the pool's dice and keep the highest; a maximum rolls again and adds, open-ended
    (FI:L133); success is at least the TN, each 5 more a bump. Kayla's Reflex 3d10 showing 3,
    4 and 4 against TN 3 succeeds with no bump (FI:L177)."""
    dice_only(request.options, "a check")
    return roll_check(request, dice)


class TestInput(CheckInput):
    allow_asterisks: bool = Field(
        default=True, description="Asterisks draw more cards: off for lifting (FI:L131)."
    )


class Tested(Checked):
    deck: str | None = Field(description="The Action Deck read; null for the dice engine.")
    cards: list[Drawn] = Field(description="The cards drawn, a chain for each read.")


def _dice_check(request: TestInput) -> CheckInput:
    fields = {name: getattr(request, name) for name in CheckInput.model_fields}
    return CheckInput.model_validate(
        {**fields, "open_ended": request.open_ended and request.allow_asterisks}
    )


def _deck_read(request: TestInput) -> tuple[Deck, int, int, int]:
    """The deck, the cell's column and row and how many cards read it (A-01): one card's
    cell of the pool, or a card a die read at the column's first row."""
    if request.max_rerolls:
        message = "the deck engine draws every card an asterisk calls for: stopping a die is "
        raise InputError(("max_rerolls",), message + "the dice engine's (A-07)")
    deck = configured(("options", "engine"))
    pool = parse(request.pool)
    if pool.column not in DIE_SIDES:
        raise InputError(("pool",), "an Action Card has columns I to V")
    if request.options.card_model is CardModel.CELL:
        return deck, pool.column, pool.row, 1
    return deck, pool.column, 1, pool.row


def _asterisks(request: TestInput) -> bool:
    """Asterisks draw more cards unless the test is not open-ended (stepping up, FI:L102) or
    has them off (lifting, FI:L131): as the dice engine reads the two (`_dice_check`)."""
    return request.open_ended and request.allow_asterisks


def _deck_result(outcome: tuple[int, int, int], cards: int, request: TestInput) -> tuple[bool, int]:
    """A CF-marked card counts as a die showing 1 (A-06); a critical failure keeps its highest
    first card, the chains ignored."""
    cfs, best_first, best = outcome
    cf = is_cf(cfs, cards, request.options.cf_rule)
    return cf, en_of(best_first if cf else best, request, False)


def test_odds(request: TestInput) -> CheckOdds:
    """A test by the dice-equivalent model, or by the configured deck from a fresh shuffle
    (chains to `deck.DEPTH` extra cards), exactly (catalogue 1.3)."""
    if request.options.engine is Engine.DICE:
        return odds_of(_dice_check(request))
    deck, column, row, cards = _deck_read(request)
    found = deck_results(deck, column, row, cards, _asterisks(request))
    return graded_odds(found.map(lambda o: _deck_result(o, cards, request)), request,
                       DECK_DEPTH)  # fmt: skip


def test_cost(request: TestInput) -> Estimate:
    """The dice engine as `core/check`; the deck engine, each card's chains, multiplied over
    the cards read (`deck.chain_states`)."""
    if request.options.engine is Engine.DICE:
        return pool_cost(_dice_check(request))
    deck, column, row, cards = _deck_read(request)
    return Estimate(chain_states(deck, column, row, cards), ("/pool",))


@operation(
    name="core/test",
    rolled=BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.core.test",),
    odds=test_odds,
    cost=test_cost,
    example={"pool": "III-3", "tn": 7, "dice": {"seed": 5}},
)
def test(request: TestInput, dice: Dice) -> Tested:
    """A test draws an Action Card and reads the cell of the pool's column and row (FI:L239);
    without the printed deck, the cell is that many dice of the column's die, an asterisk a
    maximum rolled again (catalogue 1.3, A-01). With a deck configured (`FI_ACTION_DECK`),
    the cards are drawn from a fresh shuffle, an asterisk drawing the next card to add."""
    if request.options.engine is Engine.DICE:
        checked = roll_check(_dice_check(request), dice)
        return Tested(**dict(checked), deck=None, cards=[])
    deck, column, row, cards = _deck_read(request)
    drawn = draw(deck, dice, [(column, row)] * cards, _asterisks(request))
    cf, en = _deck_result((sum(d.cf for d in drawn), max(d.values[0] for d in drawn),
                           max(sum(d.values) for d in drawn)), cards, request)  # fmt: skip
    success, bumps = graded(en, cf, request)
    return Tested(dice=[Die(faces=d.values, value=sum(d.values)) for d in drawn],
                  kept=max(d.values[0] for d in drawn) if cf else max(sum(d.values) for d in drawn),
                  en=en, critical_failure=cf, success=success, bumps=bumps,
                  successes=1 + bumps if success else 0, deck=deck.name, cards=drawn)  # fmt: skip


class DefaultInput(CheckInput):
    pool: PoolText = Field(description="The governing trait's pool, used untrained.")


def default_odds(request: DefaultInput) -> CheckOdds:
    """A default roll, halved, exactly (catalogue 5.3 T16)."""
    dice_only(request.options, "a default roll")
    return odds_of(request, halved=True)


@operation(
    name="core/default-roll",
    rolled=BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.core.default_roll",),
    odds=default_odds,
    cost=pool_cost,
    example={"pool": "III-3", "tn": 5, "dice": {"values": [8, 5, 3, 2]}},
)
def default_roll(request: DefaultInput, dice: Dice) -> Checked:
    """Untrained, a hero rolls the governing trait instead and halves the total, rounding
    down (FI:L247)."""
    dice_only(request.options, "a default roll")
    return roll_check(request, dice, halved=True)
