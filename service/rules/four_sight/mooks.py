"""Mooks: a horde of nameless underlings is one threat with one target number (S:L221-223)."""

from typing import Annotated

from pydantic import Field

from service.rules.cost import BUDGET, Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
)
from service.rules.four_sight.checks import FAILURE, MAX_TN, Graded, grade, graded_label
from service.rules.four_sight.degrees import DEGREES, Degree
from service.rules.four_sight.injuries import INJURIES, Injury, injury_of
from service.rules.four_sight.odds import (
    Outcome,
    check_depth,
    check_distribution,
    truncation,
)
from service.rules.four_sight.options import CheckOptions, HordeAttackMode
from service.rules.four_sight.pool import Plan, Roller, plan
from service.rules.four_sight.rolling import CheckRoll, roll
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["mook_horde"]


class HordeMember(Roller):
    """One character facing the horde."""

    name: Annotated[str, Field(min_length=1, max_length=60)]


class HordeInput(Model):
    """The horde's target number, set by the GM from its skill and number (S:L223)."""

    horde_target_number: Annotated[int, Field(ge=-MAX_TN, le=MAX_TN)]
    characters: Annotated[tuple[HordeMember, ...], Field(min_length=1, max_length=16)]
    combat: bool = Field(default=True, description="S-A17: fighting a horde is combat.")
    defending: bool = Field(
        default=False,
        description="The characters defend against the horde's attack (only with "
        "horde_attack_mode=defence_vs_tn, S-A24): a check that fails the horde's target "
        "number takes the injury of its failure margin.",
    )
    options: CheckOptions = Field(default=CheckOptions())


class HordeCheck(Model):
    """One character's check against the horde."""

    name: str
    check: CheckRoll
    graded: Graded
    injury: Injury | None = Field(description="When defending: the injury the horde inflicts.")


class DegreeCount(Model):
    degree: Degree | None = Field(description="null counts the failures.")
    count: int


class HordeResult(Model):
    """Each check, and the tally the GM narrates the dwindling horde from (S:L223)."""

    checks: list[HordeCheck]
    tally: list[DegreeCount]


#: When defending, a check the horde does not reach (S-A24 b).
NO_HIT = "no_hit"


class MemberOdds(Model):
    """The exact odds of one character's check against the horde."""

    name: str
    success: Exact
    degree: list[OutcomeProbability] = Field(description="'failure' and each degree.")
    adverse_episode: Exact
    injury: list[OutcomeProbability] | None = Field(
        description="When defending: 'no_hit' and each injury the horde inflicts."
    )


class HordeOdds(Model):
    """Each character's odds and how many of them succeed: the tally the GM narrates from."""

    characters: list[MemberOdds]
    successes: list[OutcomeProbability] = Field(
        description="How many characters succeed, 0 to all of them."
    )
    truncation: Truncation | None


def horde_odds(request: HordeInput) -> HordeOdds:
    """Exact odds of each character's check against the horde's target number and of the
    number who succeed; the checks are independent (S:L221-223)."""
    _refuse_narrative_defence(request)
    tn, options = request.horde_target_number, request.options
    members = []
    checks = {p: _check(p, request) for p in set(_plans(request))}  # alike characters once
    successes = Distribution({0: 1})
    for index, planned in enumerate(_plans(request)):
        outcome = checks[planned][1]
        labels = outcome.map(lambda o: graded_label(o, tn, options))
        succeeds = labels.map(lambda label: int(label != FAILURE))
        successes = successes + succeeds
        members.append(
            MemberOdds(
                name=request.characters[index].name,
                success=exact(succeeds.probability(1)),
                degree=outcome_table(labels, [FAILURE, *(row.degree.value for row in DEGREES)]),
                adverse_episode=exact(outcome.probability_where(lambda o: o[1])),
                injury=_injuries(outcome, request) if request.defending else None,
            )
        )
    outcomes = [checks[p][1] for p in _plans(request)]
    depth = min(depth for depth, _ in checks.values())
    return HordeOdds(
        characters=members,
        successes=outcome_table(successes),
        truncation=truncation(*outcomes, depth=depth),
    )


def _check(planned: Plan, request: HordeInput) -> tuple[int, Distribution[Outcome]]:
    """One character's check, its explosions as deep as its share of the budget allows."""
    depth, _ = check_depth(planned, _alike(request), _share(request))
    return depth, check_distribution(planned, _alike(request), depth)


def horde_cost(request: HordeInput) -> Estimate:
    """Each distinct character's check, as a check is bounded (`odds.check_bound`) within an
    equal share of the budget; for each character its degree, success and injury tables and
    the running count of successes (at most 17 values)."""
    states = 0
    bounds = {}
    for planned in _plans(request):
        if planned not in bounds:
            _, bounds[planned] = check_depth(planned, _alike(request), _share(request))
            states += bounds[planned].states
        states += 3 * bounds[planned].outcomes + 2 * (len(request.characters) + 1)
    return Estimate(states, ("/characters", "/options", "/combat"))


def _plans(request: HordeInput) -> list[Plan]:
    return [
        plan(member, request.options, request.combat, "characters", index)
        for index, member in enumerate(request.characters)
    ]


def _share(request: HordeInput) -> int:
    return BUDGET // len(set(_plans(request)))


def _alike(request: HordeInput) -> tuple[int, int] | None:
    """In combat only the degree and the injury are read: results below the worst injury's
    margin under the target number are alike, and those from the top degree's up."""
    if not request.combat:
        return None
    tn = request.horde_target_number
    worst = INJURIES[-1].low if request.defending else 0
    return tn - worst, tn + DEGREES[-1].low


def _injuries(outcome: Distribution[Outcome], request: HordeInput) -> list[OutcomeProbability]:
    def hurt(o: Outcome) -> str:
        graded = grade(o[0], o[1], request.horde_target_number, request.options)
        injury = _injury(graded, True)
        return NO_HIT if injury is None else injury.value

    return outcome_table(outcome.map(hurt), [NO_HIT, *(i.value for i in Injury)])


def _refuse_narrative_defence(request: HordeInput) -> None:
    if request.defending and request.options.horde_attack_mode is HordeAttackMode.NARRATIVE:
        raise InputError(
            ("defending",),
            "with horde_attack_mode=narrative the GM narrates the horde's harm (S-A24)",
        )


def _injury(graded: Graded, defending: bool) -> Injury | None:
    """Defending (S-A24 b), a character checks against the horde's target number like any
    check (S:L223): one that equals or exceeds it succeeds (S:L36) and is not hit; one that
    fails takes the injury of its failure margin (S:L152, S:L193-197). With
    `adverse_forces_failure` (S-A08) an adverse episode fails, by a margin of at least 0."""
    if not defending or graded.failure_margin is None:
        return None
    return injury_of(graded.failure_margin)


@operation(
    name="mook-horde",
    kind=Kind.CHECK,
    covers=("4sight.mook_horde",),
    odds=horde_odds,
    cost=horde_cost,
    example={
        "horde_target_number": 5,
        "characters": [{"name": "Vera", "traits": [{"trait": "dexterity", "score": 3}]}],
        "dice": {"seed": 7},
    },
)
def mook_horde(request: HordeInput, dice: Dice) -> HordeResult:
    """Treat a horde of mooks as a single threat with a target number based on their overall
    skill and number; each character checks against it and the degrees tell how the horde
    dwindles, the GM lowering the number as it does (S:L221-223)."""
    options = request.options
    _refuse_narrative_defence(request)
    checks = []
    for index, member in enumerate(request.characters):
        planned = plan(member, options, request.combat, "characters", index)
        made = roll(member, planned, dice, f"{member.name} ")
        graded = grade(made.result, made.adverse_episode, request.horde_target_number, options)
        checks.append(HordeCheck(name=member.name, check=made, graded=graded,
                                 injury=_injury(graded, request.defending)))  # fmt: skip
    degrees = [c.graded.degree for c in checks]
    tally = [DegreeCount(degree=d, count=degrees.count(d)) for d in (None, *Degree)]
    return HordeResult(checks=checks, tally=[t for t in tally if t.count])
