"""Opposed and cooperative resolution (F:L1481-1551): who won (compare QRs), how much was
blocked (the blocking table), and a follow-up task that carries the first task's QR as a
modifier."""

from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    exact,
)
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import (
    QualityOdds,
    chained_cost,
    contest_cost,
    quality_odds,
)
from service.rules.foresight.resolution.options import (
    BlockingMode,
    BlockingOptions,
    OpposedOptions,
    ResolutionOptions,
    TiePolicy,
    TieScore,
)
from service.rules.foresight.resolution.quality import (
    NOTCHES,
    Quality,
    Relation,
    carried_modifier,
    quality,
)
from service.rules.foresight.resolution.scores import twenty_plus
from service.rules.foresight.resolution.tables import BLOCKING, QR
from service.rules.foresight.resolution.task import (
    Resolution,
    Side,
    distribution,
    roll,
    setup_at,
    side_distribution,
    side_setup,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["block", "blocking_qr", "cooperative", "margin", "opposed"]


def _rolled(task: Setup | None, dice: Dice, purpose: str) -> Resolution | None:
    return None if task is None else roll(task, dice, purpose)


def _qr(side: Side, resolution: Resolution | None) -> QR:
    if resolution is not None:
        return resolution.qr
    assert side.qr is not None
    return side.qr


# Who won?


class Winner(StrEnum):
    A = "a"
    B = "b"
    TIE = "tie"


class DecidedBy(StrEnum):
    QR = "qr"
    SCORE = "score"
    UNDECIDED = "undecided"


def margin(a: QR, b: QR, failures_tie: bool) -> int:
    """Notches between the two QRs, positive when A's is better: 'The better QR wins'
    (F:L1487); QR7 beats QR10 unless any two failures tie (AMB-08)."""
    if failures_tie and a > QR.QR4 and b > QR.QR4:
        return 0
    return NOTCHES.index(b) - NOTCHES.index(a)


def _winner(notches: int) -> Winner:
    return Winner.A if notches > 0 else Winner.B if notches < 0 else Winner.TIE


class OpposedInput(Model):
    """Two sides rolling against each other, e.g. Stealth against Perception."""

    a: Side
    b: Side
    max_rounds: Annotated[int, Field(ge=1, le=50)] = Field(
        default=20, description="With ties rerolled: stop, undecided, after this many rounds."
    )
    options: OpposedOptions = Field(default=OpposedOptions())


class Round(Model):
    a: Resolution | None = Field(description="A's roll; null when A's QR was given.")
    b: Resolution | None
    a_qr: QR
    b_qr: QR
    margin_notches: int = Field(description="Notches on QR1 2 3 4 7 10; positive: A better.")


class OpposedResult(Model):
    """Who prevailed, by how much, and after how many rounds."""

    winner: Winner
    decided_by: DecidedBy
    margin_notches: int = Field(
        description="Of the deciding round; a big difference is an easy win (F:L1497)."
    )
    margin_qr: int = Field(description="B's QR minus A's in the deciding round.")
    rounds: list[Round] = Field(description="Several ties: a drawn-out struggle (F:L1497).")
    tie_scores: list[float] | None = Field(
        description="A's and B's scores when a tie was broken by score (per 'tie_score')."
    )


def _tie_scores(request: OpposedInput, tasks: tuple[Setup | None, Setup | None]) -> list[Fraction]:
    """The scores that break a tie (F:L1487, F:L1495): raw by default (AMB-08)."""
    kind = request.options.tie_score
    found = []
    for loc, side, task in (("a", request.a, tasks[0]), ("b", request.b, tasks[1])):
        if task is not None:
            chance = task.chance
            by_kind = {
                TieScore.RAW: Fraction(chance.score),
                TieScore.EFFECTIVE: Fraction(chance.effective_score),
                TieScore.SC: task.sc,
            }
            found.append(by_kind[kind])
        elif kind is TieScore.SC:
            raise InputError((loc, "task"), "a tie broken by success chance needs the task")
        elif side.score is None:
            raise InputError((loc, "score"), "a tie broken by score needs the side's score")
        elif kind is TieScore.RAW:
            found.append(Fraction(side.score))
        else:
            found.append(Fraction(twenty_plus(side.score).effective_score))
    return found


def _sides(request: OpposedInput) -> tuple[Setup | None, Setup | None, list[Fraction] | None]:
    options = request.options
    tasks = side_setup(request.a, options, "a"), side_setup(request.b, options, "b")
    scores = _tie_scores(request, tasks) if options.tie_policy is TiePolicy.SCORE else None
    return (*tasks, scores)


def _rerolls(
    request: OpposedInput, tasks: tuple[Setup | None, Setup | None], scores: list[Fraction] | None
) -> bool:
    """Ties are rolled again under 'reroll', and under 'score' when the scores are equal.

    Rolling again is both sides rolling again: 'try again later' (F:L1487), and 'several ties
    before reaching a result implies a drawn-out struggle' (F:L1497). A QR given instead of a
    task cannot be rolled again, and keeping it while only the other side rolls would be a
    different contest, so the request is refused naming the missing task (as a tie broken by
    SC is) rather than answered as a tie under a policy it did not apply.
    """
    policy = request.options.tie_policy
    wanted = policy is TiePolicy.REROLL or (scores is not None and scores[0] == scores[1])
    if wanted:
        for loc, task in (("a", tasks[0]), ("b", tasks[1])):
            if task is None:
                message = f"a tie is rolled again under tie_policy '{policy.value}': give 'task'"
                raise InputError((loc, "task"), message)
    return wanted


def opposed_odds(request: OpposedInput) -> "OpposedOdds":
    task_a, task_b, scores = _sides(request)
    first, second = side_distribution(request.a, task_a), side_distribution(request.b, task_b)
    failures_tie = request.options.failures_tie
    margins = first.then(lambda qa: second.map(lambda qb: margin(qa, qb, failures_tie)))
    won = margins.probability_where(lambda m: m > 0)
    lost = margins.probability_where(lambda m: m < 0)
    tied = margins.probability(0)
    one_round = RoundOdds(a_wins=exact(won), tie=exact(tied), b_wins=exact(lost))
    rounds, left, eventual = Fraction(1), tied, None
    if _rerolls(request, (task_a, task_b), scores):
        left = tied**request.max_rounds
        rounds = (1 - left) / (1 - tied) if tied != 1 else Fraction(request.max_rounds)
        if won + lost:
            eventual = RoundOdds(a_wins=exact(won / (won + lost)), tie=exact(Fraction(0)),
                                 b_wins=exact(lost / (won + lost)))  # fmt: skip
    by_score = Winner.TIE
    if scores is not None and scores[0] != scores[1]:
        by_score, left = (Winner.A if scores[0] > scores[1] else Winner.B), Fraction(0)
    decided = {Winner.A: won * rounds, Winner.B: lost * rounds, Winner.TIE: left}
    decided[by_score] += tied - left if by_score is not Winner.TIE else 0
    margin_of_decider = {m: p * rounds for m, p in _probabilities(margins).items() if m}
    margin_of_decider[0] = tied if by_score is not Winner.TIE else left
    return OpposedOdds(
        a=quality_odds(first),
        b=quality_odds(second),
        round=one_round,
        winner=_table(decided, [w.value for w in Winner]),
        eventual=eventual,
        margin_notches=_table(margin_of_decider, sorted(margin_of_decider, reverse=True)),
        expected_rounds=exact(rounds),
    )


def _probabilities(distribution: Distribution[int]) -> dict[int, Fraction]:
    return {m: distribution.probability(m) for m, _ in distribution.items()}


def _table(
    probabilities: dict[Winner, Fraction] | dict[int, Fraction], order: list[str] | list[int]
) -> list[OutcomeProbability]:
    keyed = {str(getattr(k, "value", k)): p for k, p in probabilities.items()}
    return [OutcomeProbability(outcome=str(k), exact=exact(keyed[str(k)]).exact,
                               float=float(keyed[str(k)]))
            for k in order if keyed.get(str(k))]  # fmt: skip


class RoundOdds(Model):
    a_wins: Exact
    tie: Exact
    b_wins: Exact


class OpposedOdds(Model):
    """The exact odds of an opposed task: one round, and the contest as the operation runs it."""

    a: QualityOdds
    b: QualityOdds
    round: RoundOdds = Field(description="One round: the 10,000 pairs of rolls.")
    winner: list[OutcomeProbability] = Field(
        description="'a', 'b' or 'tie' as decided under the tie policy and 'max_rounds'."
    )
    eventual: RoundOdds | None = Field(
        description="When ties are rerolled: the limit of rerolling until decided, W / (W + L)."
    )
    margin_notches: list[OutcomeProbability] = Field(
        description="Signed notches of the deciding round (0: tied, or decided by score)."
    )
    expected_rounds: Exact


@operation(
    name="opposed",
    kind=Kind.CHECK,
    covers=("foresight.opposed",),
    odds=opposed_odds,
    cost=contest_cost,
    example={
        "a": {"task": {"score": 14, "bef": 5}},
        "b": {"task": {"score": 10, "bef": 5}},
        "dice": {"seed": 7},
    },
)
def opposed(request: OpposedInput, dice: Dice) -> OpposedResult:
    """Who won? Both sides roll and the better QR wins (F:L1485-1501).

    A tie is the answer by default ('reply hazy, try again later'); the options reroll it, or
    break it by the ability scores, rerolling when those are equal too (F:L1487, F:L1495).
    The margin in notches tells an easy win from a narrow one (F:L1497).
    """
    task_a, task_b, scores = _sides(request)
    rerolls = _rerolls(request, (task_a, task_b), scores)
    rounds: list[Round] = []
    while True:
        ra = _rolled(task_a, dice, "D100 (a)")
        rb = _rolled(task_b, dice, "D100 (b)")
        qa, qb = _qr(request.a, ra), _qr(request.b, rb)
        notches = margin(qa, qb, request.options.failures_tie)
        rounds.append(Round(a=ra, b=rb, a_qr=qa, b_qr=qb, margin_notches=notches))
        if notches:
            decided, winner = DecidedBy.QR, _winner(notches)
        elif scores is not None and scores[0] != scores[1]:
            decided, winner = DecidedBy.SCORE, Winner.A if scores[0] > scores[1] else Winner.B
        elif rerolls and len(rounds) < request.max_rounds:
            continue
        else:
            decided, winner = (DecidedBy.UNDECIDED if rerolls else DecidedBy.QR), Winner.TIE
        return OpposedResult(
            winner=winner, decided_by=decided, margin_notches=notches,
            margin_qr=qb - qa if notches else 0, rounds=rounds,
            tie_scores=[float(s) for s in scores] if scores is not None else None,
        )  # fmt: skip


# How much was blocked?


def block(attack: QR, defense: QR, mode: BlockingMode) -> QR:
    """The effective attack QR: the book's table, literally (F:L1511-1519, AMB-04), or its
    text: an equal or better defense negates the attack, otherwise the attack drops
    (5 - defending QR) notches (F:L1507), which for a failed defense means rising."""
    if mode is BlockingMode.TABLE:
        return BLOCKING[attack].against(defense)
    if NOTCHES.index(defense) <= NOTCHES.index(attack):
        return QR.QR7
    position = NOTCHES.index(attack) + 5 - defense
    return NOTCHES[min(NOTCHES.index(QR.QR7), max(0, position))]


class BlockingInput(Model):
    """An attack and the defense that tries to block it, e.g. a blow and a parry."""

    attack: Side
    defense: Side
    options: BlockingOptions = Field(default=BlockingOptions())


class BlockingResult(Model):
    attack: Resolution | None = Field(description="The attack's roll; null when its QR was given.")
    defense: Resolution | None
    attack_qr: QR
    defense_qr: QR
    effective: Quality = Field(description="The final effective attack QR (F:L1521).")
    got_through: bool = Field(description="The effective QR is a success (QR4 or better).")


class BlockingOdds(Model):
    attack: QualityOdds
    defense: QualityOdds
    effective: QualityOdds = Field(description="Its 'success' is P(the attack got through).")


def _blocking_sides(request: BlockingInput) -> tuple[Setup | None, Setup | None]:
    options = request.options
    return side_setup(request.attack, options, "attack"), side_setup(request.defense, options,
                                                                      "defense")  # fmt: skip


def blocking_odds(request: BlockingInput) -> BlockingOdds:
    task_attack, task_defense = _blocking_sides(request)
    attack = side_distribution(request.attack, task_attack)
    defense = side_distribution(request.defense, task_defense)
    mode = request.options.blocking_mode
    effective = attack.then(lambda a: defense.map(lambda d: block(a, d, mode)))
    return BlockingOdds(attack=quality_odds(attack), defense=quality_odds(defense),
                        effective=quality_odds(effective))  # fmt: skip


@operation(
    name="blocking-qr",
    kind=Kind.CHECK,
    covers=("foresight.blocking_qr",),
    odds=blocking_odds,
    cost=contest_cost,
    example={
        "attack": {"task": {"score": 10, "bef": 5}},
        "defense": {"task": {"score": 10, "bef": 5}},
        "dice": {"seed": 7},
    },
)
def blocking_qr(request: BlockingInput, dice: Dice) -> BlockingResult:
    """How much was blocked? The attack's QR is reduced by the defense's (F:L1503-1521): with
    the book's table a QR3 pickpocket blocked by a QR4 perception is QR4 (F:L1838); a failed
    defense lets more through, and a botched attack stays a botch."""
    task_attack, task_defense = _blocking_sides(request)
    ra = _rolled(task_attack, dice, "D100 (attack)")
    rd = _rolled(task_defense, dice, "D100 (defense)")
    qa, qd = _qr(request.attack, ra), _qr(request.defense, rd)
    effective = quality(block(qa, qd, request.options.blocking_mode))
    return BlockingResult(attack=ra, defense=rd, attack_qr=qa, defense_qr=qd,
                          effective=effective, got_through=effective.success)  # fmt: skip


# How hard is the next step?


class CooperativeInput(Model):
    """A first task and a follow-up that builds on it or opposes it (F:L1523-1551)."""

    first: Side
    follow_up: Task
    relation: Relation
    options: ResolutionOptions = Field(default=ResolutionOptions())


class CooperativeResult(Model):
    first: Resolution | None = Field(description="The first task's roll; null when given.")
    first_qr: QR
    carried_modifier: int = Field(description="4 - QR cooperating, QR - 4 opposing (F:L1525).")
    follow_up: Resolution


class CooperativeOdds(Model):
    first: QualityOdds
    follow_up: QualityOdds = Field(description="Over every QR the first task can get.")


def _follow_up(request: CooperativeInput) -> Callable[[QR], Setup]:
    def of(qr: QR) -> Setup:
        carried = Term(source=f"{request.relation.value} with QR{qr.value}",
                       value=carried_modifier(qr, request.relation))  # fmt: skip
        return setup_at(("follow_up",), request.follow_up, request.options, (carried,))

    return of


def cooperative_odds(request: CooperativeInput) -> CooperativeOdds:
    first = side_distribution(request.first, side_setup(request.first, request.options, "first"))
    follow_up = _follow_up(request)
    return CooperativeOdds(
        first=quality_odds(first),
        follow_up=quality_odds(first.then(lambda qr: distribution(follow_up(qr)))),
    )


@operation(
    name="cooperative",
    kind=Kind.CHECK,
    covers=("foresight.cooperative",),
    odds=cooperative_odds,
    cost=chained_cost,
    example={
        "first": {"task": {"score": 14, "bef": 5}},
        "follow_up": {"score": 12, "bef": 4},
        "relation": "cooperating",
        "dice": {"seed": 7},
    },
)
def cooperative(request: CooperativeInput, dice: Dice) -> CooperativeResult:
    """Resolve a task, then a follow-up task that carries its QR as a modifier: 4 - QR when it
    builds on the first, QR - 4 when it opposes it (F:L1523-1551)."""
    first_task = side_setup(request.first, request.options, "first")
    first = _rolled(first_task, dice, "D100 (first)")
    qr = _qr(request.first, first)
    follow_up = _follow_up(request)(qr)
    return CooperativeResult(first=first, first_qr=qr,
                             carried_modifier=carried_modifier(qr, request.relation),
                             follow_up=roll(follow_up, dice, "D100 (follow-up)"))  # fmt: skip
