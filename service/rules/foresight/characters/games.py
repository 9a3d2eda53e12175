"""Games of skill (catalogue 3.I.10, F:L2011-2019): a game is a series of opposed Generic
Game rolls, more rounds the less luck decides it; study of a deep game adds +1 for every 10
education points sunk into it, and a stronger player may spot the weaker points in advance.

How a series is won is not stated (AMB-39): the player with more round wins takes it, a round
of equal QRs counting for nobody, and a series level at the end goes to one more round at a
time, at most `max_extra_rounds` of them before it is called a draw. Spotted points are round
wins credited before play, or, as the option allows, a modifier on every roll."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, exact, outcome_table
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.contests import margin
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["generic_game", "series_rounds", "study_modifier"]

MAX_ROUNDS = 25


class Game(StrEnum):
    CHESS = "chess"
    GO = "go"
    BACKGAMMON = "backgammon"
    MONOPOLY = "monopoly"
    OTHER = "other"


#: Rounds of opposed rolls by how little luck decides the game (F:L2019).
ROUNDS = {Game.CHESS: 5, Game.GO: 10, Game.BACKGAMMON: 2, Game.MONOPOLY: 1}


class Handicap(StrEnum):
    ROUND_WINS = "round_wins"
    MODIFIER = "modifier"


class GameOptions(ResolutionOptions):
    series_rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] | None = option(
        None,
        ambiguity="AMB-39",
        description="Rounds of opposed rolls in the series; null: the book's count, Chess 5, "
        "Go 10, Backgammon 2, Monopoly 1 (F:L2019), required for another game.",
    )
    handicap: Handicap = option(
        Handicap.ROUND_WINS,
        ambiguity="AMB-39",
        description="Points spotted in advance (F:L2019) are round wins credited before play, "
        "or +1 each to every roll of the player given them.",
    )
    failures_tie: bool = option(
        False,
        ambiguity="AMB-08",
        description="Any two failures (QR7, QR10) tie a round; by default QR7 beats QR10.",
    )


class GamePlayer(Model):
    task: Task = Field(description="The Generic Game roll for this game.")
    study_cps: Annotated[int, Field(ge=0, le=1_000)] = Field(
        default=0, description="Education points sunk into the study of this game."
    )
    spotted: Annotated[int, Field(ge=0, le=MAX_ROUNDS)] = Field(
        default=0, description="Handicap points the other player spots this one in advance."
    )


class GameInput(Model):
    game: Game
    a: GamePlayer
    b: GamePlayer
    max_extra_rounds: Annotated[int, Field(ge=0, le=50)] = Field(
        default=20, description="A level series goes to one more round at a time, at most this "
        "many; still level after them it is a draw.",
    )  # fmt: skip
    options: GameOptions = Field(default=GameOptions())


class GameWinner(StrEnum):
    A = "a"
    B = "b"
    TIE = "tie"


class DecidedIn(StrEnum):
    SERIES = "series"
    EXTRA_ROUNDS = "extra_rounds"
    UNDECIDED = "undecided"


class GameRound(Model):
    a: Resolution
    b: Resolution
    winner: GameWinner = Field(description="'tie': equal QRs, a round for nobody.")


class GameResult(Model):
    series_rounds: int
    study_modifier_a: int
    study_modifier_b: int
    rounds: list[GameRound] = Field(description="The series, then any extra rounds.")
    wins_a: int = Field(description="Rounds won, spotted round wins included.")
    wins_b: int
    winner: GameWinner
    decided_in: DecidedIn


class GameOdds(Model):
    a: QualityOdds
    b: QualityOdds
    round: list[OutcomeProbability] = Field(description="One round: 'a', 'tie' or 'b'.")
    series_margin: list[OutcomeProbability] = Field(
        description="A's round wins less B's after the series, spotted wins included."
    )
    winner: list[OutcomeProbability] = Field(
        description="'a', 'b' or 'tie' (level after every extra round allowed)."
    )


def study_modifier(cps: int) -> int:
    """+1 for each 10 education points invested in the study of the game (F:L2017)."""
    return cps // 10


def series_rounds(request: GameInput) -> int:
    given = request.options.series_rounds
    if given is not None:
        return given
    if request.game not in ROUNDS:
        raise InputError(("options", "series_rounds"),
                         "the book counts rounds for chess, go, backgammon and monopoly only: "
                         "give the rounds, more the less luck decides the game")  # fmt: skip
    return ROUNDS[request.game]


def _setup(request: GameInput, name: str, player: GamePlayer) -> Setup:
    terms = [Term(source="study of the game", value=study_modifier(player.study_cps))]
    if request.options.handicap is Handicap.MODIFIER:
        terms.append(Term(source="handicap points spotted", value=player.spotted))
    nonzero = [term for term in terms if term.value]
    return setup_at((name, "task"), player.task, request.options, nonzero)


def _credited(request: GameInput) -> tuple[int, int]:
    if request.options.handicap is Handicap.ROUND_WINS:
        return request.a.spotted, request.b.spotted
    return 0, 0


def _round_winner(a: Resolution, b: Resolution, failures_tie: bool) -> GameWinner:
    notches = margin(a.qr, b.qr, failures_tie)
    return GameWinner.A if notches > 0 else GameWinner.B if notches < 0 else GameWinner.TIE


def _table(probabilities: dict[str, Fraction]) -> list[OutcomeProbability]:
    return [OutcomeProbability(outcome=k, exact=exact(p).exact, float=float(p))
            for k, p in probabilities.items() if p]  # fmt: skip


def game_odds(request: GameInput) -> GameOdds:
    """One round over every pair of QRs; the series as the sum of its rounds (+1, 0, -1);
    a level series then goes to at most k extra rounds, a geometric series: A takes it with
    P(level) x W x (1 - T^k) / (1 - T), and it stays level with P(level) x T^k."""
    first = distribution(_setup(request, "a", request.a))
    second = distribution(_setup(request, "b", request.b))
    failures_tie = request.options.failures_tie
    one = first.then(lambda qa: second.map(lambda qb: _sign(margin(qa, qb, failures_tie))))
    credited = _credited(request)
    series: Distribution[int] = Distribution({credited[0] - credited[1]: 1})
    for _ in range(series_rounds(request)):
        series = series + one
    won, tied, lost = one.probability(1), one.probability(0), one.probability(-1)
    level, k = series.probability(0), request.max_extra_rounds
    spread = Fraction(k) if tied == 1 else (1 - tied**k) / (1 - tied)
    winner = {
        "a": series.probability_where(lambda m: m > 0) + level * won * spread,
        "b": series.probability_where(lambda m: m < 0) + level * lost * spread,
        "tie": level * tied**k,
    }
    names = {1: "a", 0: "tie", -1: "b"}
    return GameOdds(a=quality_odds(first), b=quality_odds(second),
                    round=outcome_table(one.map(names.__getitem__), ["a", "tie", "b"]),
                    series_margin=outcome_table(series), winner=_table(winner))  # fmt: skip


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def game_cost(request: GameInput) -> Estimate:
    """Two tasks and the pairs of their QRs; then each round added to the series, whose
    margin takes at most 2 x 25 + 1 values: the same bound for every request."""
    return Estimate(1_000 + 10 * (MAX_ROUNDS + 1) ** 2, ())


@operation(
    name="generic-game",
    kind=Kind.CHECK,
    covers=("foresight.generic_game",),
    odds=game_odds,
    cost=game_cost,
    example={
        "game": "chess",
        "a": {"task": {"score": 14, "bef": 5}, "study_cps": 20},
        "b": {"task": {"score": 16, "bef": 5}},
        "dice": {"seed": 7},
    },
)
def generic_game(request: GameInput, dice: Dice) -> GameResult:
    """A game of Chess, Go, Backgammon, Monopoly or the like: a series of opposed Generic Game
    rolls, Chess five, Go ten, Backgammon two, Monopoly one (F:L2019), each player +1 for every
    10 education points spent studying the game (F:L2017), handicap points spotted in advance
    (F:L2019). No skill helps in a game of pure chance (F:L2013). The series goes to the player
    with more round wins; a level series to one more round at a time (AMB-39)."""
    n = series_rounds(request)
    task_a, task_b = _setup(request, "a", request.a), _setup(request, "b", request.b)
    wins = dict(zip(("a", "b"), _credited(request), strict=True))
    rounds: list[GameRound] = []
    while True:
        extra = len(rounds) >= n
        if extra and (wins["a"] != wins["b"] or len(rounds) >= n + request.max_extra_rounds):
            break
        label = f"extra {len(rounds) - n + 1}" if extra else f"{len(rounds) + 1}"
        ra = roll(task_a, dice, f"D100 (a, round {label})")
        rb = roll(task_b, dice, f"D100 (b, round {label})")
        won = _round_winner(ra, rb, request.options.failures_tie)
        if won is not GameWinner.TIE:
            wins[won.value] += 1
        rounds.append(GameRound(a=ra, b=rb, winner=won))
    level = wins["a"] == wins["b"]
    winner = GameWinner.TIE if level else GameWinner.A if wins["a"] > wins["b"] else GameWinner.B
    decided = DecidedIn.SERIES if len(rounds) == n else DecidedIn.EXTRA_ROUNDS
    if level:
        decided = DecidedIn.UNDECIDED
    return GameResult(series_rounds=n, study_modifier_a=study_modifier(request.a.study_cps),
                      study_modifier_b=study_modifier(request.b.study_cps), rounds=rounds,
                      wins_a=wins["a"], wins_b=wins["b"], winner=winner,
                      decided_in=decided)  # fmt: skip
