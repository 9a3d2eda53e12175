"""Contact engagements (catalogue 3.I.7, F:L1888-1910): two possibly hostile parties moving
about, each hoping not to be taken by surprise. Every member rolls Stealth and Perception; a
party's total is its worst Stealth QR plus its best Perception QR, adjusted for how it moves,
and the lower total has the advantage by the difference. The ranges themselves are
`engagement-ranges` (F:L1912-1919)."""

from collections.abc import Callable
from enum import StrEnum
from functools import reduce
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.ease import EaseValue, Modifiers
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import MAX_SCORE
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["CONTACT_ENGAGEMENT", "contact_engagement", "engagement_outcome", "verdict"]


#: Each member's Stealth and Perception tasks, set up to roll.
Tasks = list[tuple[Setup, Setup]]


class EngagementRow(Model):
    difference: int = Field(description="4 stands for 4 or more.")
    label: str
    surprise: bool
    result: str
    lower_initiative: int = Field(description="The lower-total party's, if it starts at once.")
    higher_initiative: int


CONTACT_ENGAGEMENT = table(__name__, "contact_engagement", EngagementRow)


class Posture(StrEnum):
    NONE = "none"
    AMBUSH = "ambush"
    VERY_CAUTIOUS = "very_cautious"
    HASTY = "hasty"


#: Waiting in ambush -4, moving very cautiously -2, moving hastily +2 (F:L1894-1898).
POSTURE = {Posture.NONE: 0, Posture.AMBUSH: -4, Posture.VERY_CAUTIOUS: -2, Posture.HASTY: 2}


Score = Annotated[int, Field(ge=0, le=MAX_SCORE)]


class EngagementMember(Model):
    """A member whose Stealth and Perception rolls the service makes."""

    stealth: Score = Field(description="The Stealth score.")
    stealth_bef: EaseValue = Field(description="Stealth's BEF: E + 3 (F:L820).")
    stealth_modifiers: Modifiers = ()
    perception: Score = Field(description="The PC attribute.")
    perception_bef: EaseValue | None = Field(
        default=None, description="An attribute's BEF: null takes the option attribute_bef."
    )
    perception_modifiers: Modifiers = ()

    def tasks(self) -> tuple[Task, Task]:
        stealth = Task(score=self.stealth, bef=self.stealth_bef, modifiers=self.stealth_modifiers)
        sight = Task(score=self.perception, bef=self.perception_bef,
                     modifiers=self.perception_modifiers)  # fmt: skip
        return stealth, sight


class RolledMember(Model):
    """A member whose rolls were made at the table: their QRs."""

    stealth_qr: QR
    perception_qr: QR


MAX_MEMBERS = 12


class EngagementParty(Model):
    members: tuple[EngagementMember, ...] = Field(default=(), max_length=MAX_MEMBERS)
    rolled: tuple[RolledMember, ...] = Field(
        default=(), max_length=MAX_MEMBERS, description="Members whose QRs are given."
    )
    posture: Posture = Posture.NONE


class EngagementInput(Model):
    a: EngagementParty
    b: EngagementParty
    options: ResolutionOptions = Field(default=ResolutionOptions())


class Advantage(StrEnum):
    A = "a"
    B = "b"
    NONE = "none"


class ContactRange(StrEnum):
    CHOSEN = "chosen"
    OBSERVATION = "observation"
    CONTACT = "contact"


class MemberRolls(Model):
    stealth: Resolution | None = Field(description="Null when the QR was given.")
    perception: Resolution | None
    stealth_qr: QR
    perception_qr: QR


class PartyTotal(Model):
    members: list[MemberRolls] = Field(description="Those rolled, then those given.")
    worst_stealth_qr: QR
    best_perception_qr: QR
    posture_modifier: int
    total: int = Field(description="Lower is better.")


class Engagement(Model):
    a: PartyTotal
    b: PartyTotal
    difference: int
    row: str = Field(description="'4+', '3', '2', '1' or '0'.")
    verdict: str = Field(description="'2:b': the row and the lower party; '0:contact' at 0.")
    advantage: Advantage = Field(description="The party with the lower total, if any.")
    surprise: bool
    contact_range: ContactRange = Field(
        description="'chosen': the lower party picks, from contact to observation range."
    )
    initiative_a: int = Field(description="If hostilities start at once (at observation range).")
    initiative_b: int
    result: str


class EngagementOdds(Model):
    total_a: list[OutcomeProbability]
    total_b: list[OutcomeProbability]
    verdict: list[OutcomeProbability] = Field(
        description="'4+:a' .. '1:b' (row and the party with the lower total), "
        "'0:observation' or '0:contact' (catalogue 5.9)."
    )
    advantage: list[OutcomeProbability]


def engagement_outcome(total_a: int, total_b: int) -> tuple[EngagementRow, Advantage, ContactRange]:
    """The row of the difference, the party with the lower total, and the range: the lower
    party's choice on a surprise, observation range at 1 or 2, and at 0 observation range when
    the (equal) totals are even, contact range when odd (F:L1902-1908). The posture
    adjustments are all even, so they never change that parity (AMB-37)."""
    difference = abs(total_a - total_b)
    row = next(r for r in CONTACT_ENGAGEMENT if r.difference == min(difference, 4))
    advantage = Advantage.A if total_a < total_b else Advantage.B
    if not difference:
        advantage = Advantage.NONE
    if row.surprise:
        where = ContactRange.CHOSEN
    elif difference or total_a % 2 == 0:
        where = ContactRange.OBSERVATION
    else:
        where = ContactRange.CONTACT
    return row, advantage, where


def verdict(total_a: int, total_b: int) -> str:
    """The row and the party with the lower total ('2:b'), or at 0 the range ('0:contact')."""
    row, advantage, where = engagement_outcome(total_a, total_b)
    return f"0:{where.value}" if advantage is Advantage.NONE else f"{row.label}:{advantage.value}"


def _sides(request: EngagementInput) -> dict[str, Tasks]:
    """Each member's Stealth and Perception tasks, set up; a party has at least one member."""
    found = {}
    options = request.options
    for name, party in (("a", request.a), ("b", request.b)):
        if not party.members and not party.rolled:
            raise InputError((name, "members"), "a party has a member, rolled or given")
        members = enumerate(party.members)
        found[name] = [_member(m, options, (name, "members", i)) for i, m in members]
    return found


def _member(
    member: EngagementMember, options: ResolutionOptions, loc: tuple[str | int, ...]
) -> tuple[Setup, Setup]:
    stealth, sight = member.tasks()
    return (setup_at(loc, stealth, options),
            setup_at(loc, sight, options, default_bef=options.attribute_bef))  # fmt: skip


def _total(party: EngagementParty, tasks: Tasks) -> Distribution[int]:
    """The worst Stealth QR plus the best Perception QR, and the posture (F:L1892-1898)."""
    stealth = [distribution(t[0]) for t in tasks]
    stealth += [Distribution({m.stealth_qr: 1}) for m in party.rolled]
    sight = [distribution(t[1]) for t in tasks]
    sight += [Distribution({m.perception_qr: 1}) for m in party.rolled]
    posture = POSTURE[party.posture]
    return (_fold(stealth, max) + _fold(sight, min)).map(lambda total: total + posture)


def _fold(found: list[Distribution[QR]], choose: Callable[[QR, QR], QR]) -> Distribution[int]:
    """The worst (max) or best (min) QR of independent rolls, pair by pair."""

    def both(x: Distribution[QR], y: Distribution[QR]) -> Distribution[QR]:
        return x.then(lambda qx: y.map(lambda qy: choose(qx, qy)))

    return reduce(both, found).map(int)


def engagement_odds(request: EngagementInput) -> EngagementOdds:
    tasks = _sides(request)
    total_a, total_b = _total(request.a, tasks["a"]), _total(request.b, tasks["b"])
    pairs = total_a.then(lambda x: total_b.map(lambda y: (x, y)))
    return EngagementOdds(
        total_a=outcome_table(total_a),
        total_b=outcome_table(total_b),
        verdict=outcome_table(pairs.map(lambda p: verdict(*p))),
        advantage=outcome_table(pairs.map(lambda p: engagement_outcome(*p)[1].value)),
    )


#: At most: per member, two tasks of 100 faces and their QRs and two folds of 6 x 6 pairs.
_MEMBER = 2 * 106 + 2 * 80


def engagement_cost(request: EngagementInput) -> Estimate:
    """Each member's two tasks and the folds of the worst and best QR; then each party's
    total (at most 12 values, sums and posture), each pair of totals and its tables."""
    parties = (request.a, request.b)
    members = sum(len(p.members) + len(p.rolled) for p in parties)
    return Estimate(_MEMBER * members + 2_000, ("/a/members", "/b/members"))


def _rolled(party: EngagementParty, tasks: Tasks, dice: Dice, name: str) -> PartyTotal:
    members = []
    for index, (stealth, sight) in enumerate(tasks):
        who = f"{name}{index + 1}"
        rs = roll(stealth, dice, f"D100 (Stealth, {who})")
        rp = roll(sight, dice, f"D100 (PC, {who})")
        members.append(MemberRolls(stealth=rs, perception=rp, stealth_qr=rs.qr,
                                   perception_qr=rp.qr))  # fmt: skip
    for given in party.rolled:
        members.append(MemberRolls(stealth=None, perception=None, stealth_qr=given.stealth_qr,
                                   perception_qr=given.perception_qr))  # fmt: skip
    worst = max(m.stealth_qr for m in members)
    best = min(m.perception_qr for m in members)
    posture = POSTURE[party.posture]
    return PartyTotal(members=members, worst_stealth_qr=worst, best_perception_qr=best,
                      posture_modifier=posture, total=worst + best + posture)  # fmt: skip


@operation(
    name="contact-engagement",
    kind=Kind.CHECK,
    covers=("foresight.contact_engagement",),
    odds=engagement_odds,
    cost=engagement_cost,
    example={
        "a": {
            "members": [{"stealth": 15, "stealth_bef": 5, "perception": 12, "perception_bef": 5}],
            "posture": "very_cautious",
        },
        "b": {"members": [{"stealth": 8, "stealth_bef": 5, "perception": 8, "perception_bef": 5}]},
        "dice": {"seed": 7},
    },
)
def contact_engagement(request: EngagementInput, dice: Dice) -> Engagement:
    """Both sides all make Stealth and Perception rolls; each adds its worst Stealth QR to its
    best Perception QR, less 4 waiting in ambush, less 2 moving very cautiously, plus 2 moving
    hastily (F:L1892-1898). By how much the lower total wins (F:L1900-1908): 4 or more, a
    surprise, +4 initiative against -4; 3, a surprise, +4 at observation range or cover at
    contact range; 2, seen first at observation range, +2 against -2; 1, seen first but seen
    at once; 0, simultaneous, at observation range if the totals are even and contact range if
    odd, both -2 to initiative."""
    tasks = _sides(request)
    a = _rolled(request.a, tasks["a"], dice, "a")
    b = _rolled(request.b, tasks["b"], dice, "b")
    row, advantage, where = engagement_outcome(a.total, b.total)
    lower, higher = row.lower_initiative, row.higher_initiative
    initiative = {Advantage.A: (lower, higher), Advantage.B: (higher, lower),
                  Advantage.NONE: (lower, lower)}[advantage]  # fmt: skip
    return Engagement(a=a, b=b, difference=abs(a.total - b.total), row=row.label,
                      verdict=verdict(a.total, b.total),
                      advantage=advantage, surprise=row.surprise, contact_range=where,
                      initiative_a=initiative[0], initiative_b=initiative[1],
                      result=row.result)  # fmt: skip
