"""Social skills (catalogue 3.I.6, 3.I.12): seduction in stages, each building on the last
while the target's Empathy may see through it (F:L1858-1864), and teaching (F:L1939-1949).
Persuasion is `persuasion`. Each roll is an ordinary FORESIGHT task; a QR carried from one
roll to the next is the cooperating modifier 4 - QR (F:L1523-1525)."""

from collections.abc import Callable
from enum import StrEnum
from functools import cache, partial
from typing import cast

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.foresight.characters.skills import SkillName, SkillRow, skill_row
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.contests import margin
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import (
    QualityOdds,
    quality_odds,
    task_cost,
)
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.quality import Relation, carried_modifier
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
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["carried_term", "seduction", "teach"]


def carried_term(qr: QR, source: str) -> list[Term]:
    """The cooperating modifier of an earlier QR, as a named term (none at QR4)."""
    value = carried_modifier(qr, Relation.COOPERATING)
    return [Term(source=f"{source} QR{qr.value}", value=value)] if value else []


# Seduction

QR_NAMES = [qr.name for qr in QR]


class Stage(StrEnum):
    ENTICEMENT = "enticement"
    OPENING_LINE = "opening_line"
    BANTER = "banter"
    INTIMACY = "intimacy"
    SEX = "sex"


class SeductionStage(Model):
    stage: Stage
    task: Task = Field(description="The Seduction roll of this stage.")


StageSetup = Callable[[int, QR | None], Setup]


class SeductionInput(Model):
    stages: tuple[SeductionStage, ...] = Field(
        min_length=1, max_length=10, description="In order; a stage may be skipped or repeated."
    )
    empathy: Side = Field(
        description="The target's Empathy (EM) roll, as a task or its QR; a task with no BEF "
        "takes the option attribute_bef."
    )
    options: ResolutionOptions = Field(default=ResolutionOptions())


class StageResult(Model):
    stage: Stage
    roll: Resolution
    noticed: bool = Field(description="The target's Empathy QR is better than this roll's.")


class Seduction(Model):
    empathy: Resolution | None = Field(description="The Empathy roll; null when its QR given.")
    empathy_qr: QR
    stages: list[StageResult]
    detected: bool = Field(description="The target sees the attempt (and may go along).")
    detected_at: int | None = Field(description="Index of the first stage seen through.")
    success: bool = Field(description="The last stage succeeded.")


class SeductionOdds(Model):
    empathy: QualityOdds
    last_stage_qr: list[OutcomeProbability] = Field(description="Over every chain of stages.")
    success: list[OutcomeProbability] = Field(description="The last stage succeeded.")
    detected: list[OutcomeProbability]


def _stage_setup(request: SeductionInput) -> StageSetup:
    @cache
    def of(index: int, previous: QR | None) -> Setup:
        carried = [] if previous is None else carried_term(previous, "building on the last stage")
        task = request.stages[index].task
        return setup_at(("stages", index, "task"), task, request.options, carried)

    return of


def _noticed(empathy: QR, seduction: QR) -> bool:
    """'Apparent to a character whose empathy roll is better than the seduction roll'
    (F:L1860): strictly better, QR7 better than QR10."""
    return margin(empathy, seduction, failures_tie=False) > 0


State = tuple[QR, QR | None, bool]


def _after(stage: StageSetup, index: int, state: State) -> Distribution[State]:
    empathy, previous, seen = state
    return distribution(stage(index, previous)).map(
        lambda qr: (empathy, qr, seen or _noticed(empathy, qr))
    )


def seduction_odds(request: SeductionInput) -> SeductionOdds:
    """Each state is (Empathy QR, the last stage's QR, seen through so far)."""
    stage = _stage_setup(request)
    task = side_setup(request.empathy, request.options, "empathy", attribute=True)
    empathy = side_distribution(request.empathy, task)
    state: Distribution[State] = empathy.map(lambda qr: (qr, None, False))
    for index in range(len(request.stages)):
        state = state.then(partial(_after, stage, index))
    last = state.map(lambda s: cast(QR, s[1]))
    return SeductionOdds(empathy=quality_odds(empathy),
                         last_stage_qr=outcome_table(last.map(lambda q: q.name), QR_NAMES),
                         success=outcome_table(last.map(lambda q: q <= QR.QR4)),
                         detected=outcome_table(state.map(lambda s: s[2])))  # fmt: skip


def seduction_cost(request: SeductionInput) -> Estimate:
    """Each stage follows each state (6 Empathy QRs x 6 last QRs x seen or not) with the 100
    faces of its roll and their QRs: 72 x 212 states a stage, and the Empathy roll."""
    return Estimate(1_000 + 72 * 212 * len(request.stages), ("/stages",))


@operation(
    name="seduction",
    kind=Kind.CHECK,
    covers=("foresight.seduction",),
    odds=seduction_odds,
    cost=seduction_cost,
    example={
        "stages": [
            {"stage": "opening_line", "task": {"score": 14, "bef": 5}},
            {"stage": "banter", "task": {"score": 14, "bef": 5}},
        ],
        "empathy": {"task": {"score": 10, "bef": 7}},
        "dice": {"seed": 7},
    },
)
def seduction(request: SeductionInput, dice: Dice) -> Seduction:
    """Seduction goes in stages, suggested enticement, opening line, banter, intimacy, sex,
    each building on the level of success of the one before (its QR carried as a cooperating
    modifier); stages may be skipped or repeated, and player input modifiers apply (F:L1862-1864).
    The target's Empathy roll, made once, sees through every stage whose roll it beats
    (F:L1860); the target may go along anyway."""
    stage = _stage_setup(request)
    empathy_task = side_setup(request.empathy, request.options, "empathy", attribute=True)
    empathy = None if empathy_task is None else roll(empathy_task, dice, "D100 (Empathy)")
    empathy_qr = empathy.qr if empathy is not None else request.empathy.qr
    assert empathy_qr is not None
    stages: list[StageResult] = []
    previous: QR | None = None
    for index, given in enumerate(request.stages):
        rolled = roll(stage(index, previous), dice, f"D100 ({given.stage.value})")
        previous = rolled.qr
        stages.append(StageResult(stage=given.stage, roll=rolled,
                                  noticed=_noticed(empathy_qr, rolled.qr)))  # fmt: skip
    seen = next((i for i, s in enumerate(stages) if s.noticed), None)
    return Seduction(empathy=empathy, empathy_qr=empathy_qr, stages=stages,
                     detected=seen is not None, detected_at=seen,
                     success=stages[-1].roll.success)  # fmt: skip


# Teaching


class Subject(StrEnum):
    NFM = "nfm"
    SKILL = "skill"
    KNOWLEDGE = "knowledge"


class TeachInput(Model):
    teacher: Task = Field(description="The teacher's Teach roll (BEF 5).")
    subject: Subject = Field(
        description="Overcome an NFM quickly, learn a skill at level 0, or task knowledge."
    )
    skill: SkillName | None = Field(
        default=None, description="With subject 'skill': the skill taught (the teacher has it)."
    )
    options: ResolutionOptions = Field(default=ResolutionOptions())


class Teaching(Model):
    roll: Resolution
    taught: bool = Field(description="The Teach roll succeeded.")
    skill: str | None
    learner_may_buy: bool = Field(
        description="A skill taught: the learner may pay for it at level 0 at once."
    )
    acquisition_cp: int | None = Field(description="What the learner pays: 3 x the skill's cost.")
    guide_hours: int | None = Field(
        description="A rough guide to intensive training: the skill's Cost in hours (F:L1945)."
    )


class TeachOdds(Model):
    roll: QualityOdds
    taught: list[OutcomeProbability]


def _taught(request: TeachInput) -> SkillRow | None:
    if (request.subject is Subject.SKILL) != (request.skill is not None):
        raise InputError(("skill",), "name the skill taught exactly when the subject is 'skill'")
    return None if request.skill is None else skill_row(request.skill)


def _teacher(request: TeachInput) -> Setup:
    _taught(request)
    return setup_at(("teacher",), request.teacher, request.options)


def teach_odds(request: TeachInput) -> TeachOdds:
    found = distribution(_teacher(request))
    return TeachOdds(roll=quality_odds(found), taught=outcome_table(found.map(lambda q: q <= 4)))


@operation(
    name="teach",
    kind=Kind.CHECK,
    covers=("foresight.teach",),
    odds=teach_odds,
    cost=task_cost,
    example={
        "teacher": {"score": 14, "bef": 5},
        "subject": "skill",
        "skill": "Theory",
        "dice": {"values": [30]},
    },
)
def teach(request: TeachInput, dice: Dice) -> Teaching:
    """A Teach roll helps another character overcome an NFM quickly, learn a skill at level 0
    (paying its character points, at once) or take in knowledge for a task; a character
    teaches only what he or she knows, and the time is the GM's, with the skill's cost in
    hours of intensive training as a rough guide for a skill (F:L1939-1945). That is the
    skill's Cost, the skill list's column; the learner pays three times it to acquire the
    skill (F:L740), which the text calls "the CP cost to acquire", not "the skill cost". The
    bomb expert, an experienced instructor, makes his teaching roll easily (F:L1949)."""
    row = _taught(request)
    rolled = roll(_teacher(request), dice, "D100 (Teach)")
    return Teaching(roll=rolled, taught=rolled.success, skill=row.skill if row else None,
                    learner_may_buy=row is not None and rolled.success,
                    acquisition_cp=None if row is None else 3 * row.cost,
                    guide_hours=None if row is None else row.cost)  # fmt: skip
