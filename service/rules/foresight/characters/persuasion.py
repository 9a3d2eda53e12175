"""Persuasion (catalogue 3.I.2, F:L2465-2521): a case built first (IN to assemble it,
Confidence to lie, Disguise to fake emotions), then a request that builds on it, a hard sell
with Confidence or a soft sell with Charisma, under the sum of the persuasion modifiers that
apply, each the GM's pick within its printed range."""

from collections.abc import Callable
from enum import StrEnum
from functools import cache
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.foresight.characters.social import carried_term
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, chained_cost, quality_odds
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Resolution,
    Side,
    distribution,
    roll,
    setup_at,
    side_distribution,
    side_setup,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["PERSUASION", "PersuasionSituations", "persuasion", "persuasion_terms"]


class PersuasionRow(Model):
    situation: str
    description: str
    low: int
    high: int


PERSUASION = table(__name__, "persuasion_modifiers", PersuasionRow)


class PersuasionSituations(Model):
    """The persuasion modifiers that apply, each the GM's pick within its row (F:L2501-2521);
    null: the row does not apply."""

    hostile: Annotated[int, Field(ge=-4, le=-1)] | None = Field(
        default=None, description="Target hostile or unfriendly to the persuader: -1 to -4."
    )
    friendly: Annotated[int, Field(ge=1, le=4)] | None = Field(
        default=None, description="Target attracted or friendly to the persuader: +1 to +4."
    )
    outsider: Annotated[int, Field(ge=-2, le=-2)] | None = Field(
        default=None, description="The persuader is different, an outsider: -2."
    )
    insider: Annotated[int, Field(ge=1, le=1)] | None = Field(
        default=None, description="The persuader is similar, an insider: +1."
    )
    insight: Annotated[int, Field(ge=1, le=2)] | None = Field(
        default=None, description="Genuine insight into the target's situation: +1 to +2."
    )
    no_clue: Annotated[int, Field(ge=-2, le=-1)] | None = Field(
        default=None, description="No clue as to the target's situation: -1 to -2."
    )
    very_minor_request: Annotated[int, Field(ge=1, le=1)] | None = Field(
        default=None, description="Asking for something very minor: +1."
    )
    major_request: Annotated[int, Field(ge=-4, le=-1)] | None = Field(
        default=None, description="Asking for something major: -1 to -4."
    )
    agreed_earlier: Annotated[int, Field(ge=1, le=1)] | None = Field(
        default=None, description="The target agreed to a (smaller) earlier request: +1."
    )
    refused_smaller: Annotated[int, Field(ge=-1, le=-1)] | None = Field(
        default=None, description="The target refused a (smaller) earlier request: -1."
    )
    refused_larger: Annotated[int, Field(ge=1, le=1)] | None = Field(
        default=None, description="Refused a larger earlier request, otherwise well-disposed: +1."
    )
    others_chose: Annotated[int, Field(ge=1, le=2)] | None = Field(
        default=None, description="Can show similar others who made the choice: +1 to +2."
    )
    others_did_not: Annotated[int, Field(ge=-2, le=-1)] | None = Field(
        default=None, description="The target knows similar others who did not: -1 to -2."
    )
    sincere: Annotated[int, Field(ge=1, le=2)] | None = Field(
        default=None, description="The target believes the persuader sincere: +1 to +2."
    )
    respected_authority: Annotated[int, Field(ge=1, le=2)] | None = Field(
        default=None, description="Backed by an authority the target respects: +1 to +2."
    )
    disrespected_authority: Annotated[int, Field(ge=-2, le=-1)] | None = Field(
        default=None, description="Invokes an authority the target does not respect: -1 to -2."
    )
    indebted: Annotated[int, Field(ge=1, le=4)] | None = Field(
        default=None, description="Past favors: the target feels indebted: +1 to +4."
    )


#: The target's disposition, which the NPC demeanor's interaction modifier also measures.
DISPOSITION = frozenset({"hostile", "friendly"})
#: Rows that contradict each other: a target cannot be both.
OPPOSITES = (("hostile", "friendly"), ("outsider", "insider"), ("insight", "no_clue"),
             ("very_minor_request", "major_request"))  # fmt: skip


class Approach(StrEnum):
    DIRECT = "direct"
    INDIRECT = "indirect"


#: A direct request (hard sell) uses Confidence, an indirect one (soft sell) Charisma.
REQUEST_SKILL = {Approach.DIRECT: "Confidence", Approach.INDIRECT: "Charisma"}


class PersuasionOptions(ResolutionOptions):
    demeanor_already_applied: bool = option(
        False,
        ambiguity="AMB-50",
        description="The NPC demeanor's interaction modifier already applies to the request: "
        "leave out the 'hostile' and 'friendly' rows so the target's disposition counts once.",
    )


class PersuasionInput(Model):
    situations: PersuasionSituations = Field(default=PersuasionSituations())
    approach: Approach = Field(
        default=Approach.INDIRECT,
        description="Direct: a hard sell with Confidence; indirect: a soft sell with Charisma.",
    )
    case: Side | None = Field(
        default=None,
        description="The case made first (IN to assemble it, Confidence to lie, Disguise to "
        "fake emotions), as a task or its QR; the request builds on its QR.",
    )
    request: Task = Field(description="The request, with the approach's skill.")
    options: PersuasionOptions = Field(default=PersuasionOptions())


class Persuasion(Model):
    modifiers: list[Term] = Field(description="The persuasion modifiers that applied.")
    modifier_total: int
    left_out: list[str] = Field(description="Rows left out: the demeanor already applied.")
    request_skill: str = Field(description="Confidence (direct) or Charisma (indirect).")
    case: Resolution | None = Field(description="The case's roll; null when given or none.")
    case_qr: QR | None
    request: Resolution
    persuaded: bool = Field(description="The request succeeded (QR4 or better).")


class PersuasionOdds(Model):
    case: QualityOdds | None
    request: QualityOdds = Field(description="Over every QR the case can get.")


def persuasion_terms(request: PersuasionInput) -> tuple[list[Term], list[str]]:
    """The persuasion modifiers that apply; the disposition rows left out when the demeanor
    already applies (AMB-50)."""
    chosen = {k: v for k, v in request.situations.model_dump().items() if v is not None}
    for first, second in OPPOSITES:
        if first in chosen and second in chosen:
            raise InputError(("situations", second), f"'{first}' and '{second}' contradict")
    terms, left_out = [], []
    for situation, value in chosen.items():
        if request.options.demeanor_already_applied and situation in DISPOSITION:
            left_out.append(situation)
        else:
            terms.append(Term(source=f"persuasion: {situation}", value=value))
    return terms, left_out


def _request(request: PersuasionInput) -> Callable[[QR | None], Setup]:
    terms, _ = persuasion_terms(request)

    @cache
    def of(case_qr: QR | None) -> Setup:
        carried = [] if case_qr is None else carried_term(case_qr, "building on the case")
        return setup_at(("request",), request.request, request.options, [*terms, *carried])

    return of


def _case(request: PersuasionInput) -> Setup | None:
    if request.case is None:
        return None
    return side_setup(request.case, request.options, "case")


def persuasion_odds(request: PersuasionInput) -> PersuasionOdds:
    follow = _request(request)
    if request.case is None:
        return PersuasionOdds(case=None, request=quality_odds(distribution(follow(None))))
    case = side_distribution(request.case, _case(request))
    found = case.then(lambda qr: distribution(follow(qr)))
    return PersuasionOdds(case=quality_odds(case), request=quality_odds(found))


@operation(
    name="persuasion",
    kind=Kind.CHECK,
    covers=("foresight.persuasion",),
    odds=persuasion_odds,
    cost=chained_cost,
    example={
        "situations": {"insider": 1, "major_request": -2},
        "approach": "indirect",
        "case": {"task": {"score": 12, "bef": 7}},
        "request": {"score": 16, "bef": 5},
        "dice": {"seed": 7},
    },
)
def persuasion(request: PersuasionInput, dice: Dice) -> Persuasion:
    """Persuade an NPC: build a case (IN to assemble it, Confidence to lie or seem sincere,
    Disguise to fake emotions), then make the request, which builds on the case: directly, a
    hard sell with Confidence, or indirectly, a soft sell with Charisma (F:L2469-2497). The
    request takes the sum of the persuasion modifiers that apply, the GM picking within each
    range (F:L2501-2521), and the case's QR as a cooperating modifier (F:L2493, F:L1525). The
    target's disposition and the NPC demeanor's interaction modifier (F:L2457) are one thing
    counted once when the option says the demeanor already applies (AMB-50)."""
    terms, left_out = persuasion_terms(request)
    case_task = _case(request)
    case = None if case_task is None else roll(case_task, dice, "D100 (case)")
    case_qr = case.qr if case is not None else request.case.qr if request.case else None
    asked = roll(_request(request)(case_qr), dice, "D100 (request)")
    return Persuasion(modifiers=terms, modifier_total=sum(t.value for t in terms),
                      left_out=left_out, request_skill=REQUEST_SKILL[request.approach],
                      case=case, case_qr=case_qr, request=asked,
                      persuaded=asked.success)  # fmt: skip
