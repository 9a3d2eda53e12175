"""Bonus actions (optional, but highly recommended, F:L3055-3088): when their turn comes (or at
their first reaction while waiting, F:L3008) a character may roll once a round for extra
actions of one declared family; the roll's QR and the attribute's score give how many.

The family names the attribute rolled (Bonus Action Rolls, F:L3059-3071): AG for step, pivot,
recover, move and dodge; DX for parry, fire, reload, throw, draw and feint; PC for aim; ST for
wind-up and pins; WP for concentrate. The attribute's score picks the row of Bonus Actions
Received (F:L3077-3085), which 'extends in an obvious fashion' (F:L3086): past 22 each three
more points are one more band continuing every column's steps (`bonus_band_mode`, AMB2-22).
A QR10 always costs a normal action (F:L3073-3075). Not after a failed initiative (F:L2962).
A target weapon's sights give +2 on bonus Aim rolls; a laser sight a free bonus aim action
every round (F:L3794).
"""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.resolution.abilities import MAX_ATTRIBUTE, Attribute
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QualityOdds, quality_odds, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, Reading, operation
from service.rules.tables import table

__all__ = [
    "BONUS_ACTIONS_RECEIVED",
    "BONUS_ACTION_ROLLS",
    "BonusBandMode",
    "BonusFamily",
    "band",
    "bonus_actions",
    "received",
]

TARGET_SIGHTS = Term(source="target sights", value=2)


class BonusFamily(StrEnum):
    """The rows of Bonus Action Rolls (F:L3061-3071)."""

    STEP_PIVOT_RECOVER = "step_pivot_recover"
    MOVE = "move"
    DODGE = "dodge"
    PARRY = "parry"
    FIRE_RELOAD_THROW = "fire_reload_throw"
    DRAW = "draw"
    FEINT = "feint"
    AIM = "aim"
    WIND_UP = "wind_up"
    PIN = "pin"
    CONCENTRATE = "concentrate"


class BonusActionRoll(Model):
    family: BonusFamily
    actions_desired: str
    actions: list[str]
    attribute: Attribute
    line: int


class BonusReceivedRow(Model):
    """A row of Bonus Actions Received: attribute scores low..high, bonus actions by QR."""

    low: int
    high: int
    qr10: int
    qr7: int
    qr4: int
    qr3: int
    qr2: int
    qr1: int
    line: int

    def cell(self, qr: QR) -> int:
        value: int = getattr(self, qr.name.lower())
        return value


BONUS_ACTION_ROLLS = table(__name__, "bonus-action-rolls", BonusActionRoll)
BONUS_ACTIONS_RECEIVED = table(__name__, "bonus-actions-received", BonusReceivedRow)
ROLLS = {row.family: row for row in BONUS_ACTION_ROLLS}
#: The last attribute score the printed table reaches.
PRINTED = BONUS_ACTIONS_RECEIVED[-1].high


class BonusBandMode(StrEnum):
    LITERAL = "literal"
    PURE_THIRDS = "pure_thirds"


class BonusOptions(ResolutionOptions):
    """Resolution options for the roll, and how the table extends (AMB2-22)."""

    bonus_band_mode: BonusBandMode = option(
        BonusBandMode.LITERAL,
        ambiguity="AMB2-22",
        description=(
            "How Bonus Actions Received 'extends in an obvious fashion' (F:L3086): 'literal' "
            "keeps the printed rows (16-19 is four wide) and adds a row per three points past "
            "22 (23-25, 26-28, ...); 'pure_thirds' makes every row three wide, band = "
            "(attribute - 1) // 3 (16-18, 19-21, 22-24, ...): 19 gets the printed 20-22 "
            "numbers and 22 one band more."
        ),
    )


def band(attribute: int, mode: BonusBandMode) -> int:
    """The row, counted from 0 for 1-3: by thirds, except that the printed 16-19 row is four
    wide, so from 20 on the literal rows are one behind pure thirds."""
    if mode is BonusBandMode.PURE_THIRDS or attribute <= 15:
        return max(0, (attribute - 1) // 3)
    if attribute <= 19:
        return 5
    return 6 + (attribute - 20) // 3


def received(row: int, qr: QR) -> int:
    """Bonus actions of row `row` at `qr`, the table's steps continued: QR10 -1; QR7 half a
    row behind QR4's increments ((row - 1) // 2); QR4 one row behind QR3; QR3 the row number;
    QR1 and QR2 the row number, at least 1."""
    if qr is QR.QR10:
        return -1
    if qr is QR.QR7:
        return max(0, (row - 1) // 2)
    if qr is QR.QR4:
        return max(0, row - 1)
    if qr is QR.QR3:
        return row
    return max(1, row)


def bonus_for(attribute: int, qr: QR, mode: BonusBandMode) -> int:
    """The printed cell where the table has the attribute (literal rows), else its extension."""
    if mode is BonusBandMode.LITERAL and attribute <= PRINTED:
        found = next(r for r in BONUS_ACTIONS_RECEIVED if r.low <= attribute <= r.high)
        return found.cell(qr)
    return received(band(attribute, mode), qr)


class BonusInput(Model):
    family: BonusFamily = Field(description="The kind of bonus actions declared before the roll.")
    attribute: Annotated[int, Field(ge=1, le=MAX_ATTRIBUTE)] = Field(
        description="The score of the family's attribute: it picks the row of Bonus Actions "
        "Received, and is the roll's score unless 'task' says otherwise."
    )
    task: Task | None = Field(
        default=None,
        description="The roll, when not the bare attribute at 'attribute_bef': its score, "
        "BEF (default 'attribute_bef') and modifiers. Null: the attribute rolled as is.",
    )
    qr: QR | None = Field(default=None, description="Instead of rolling: the QR got at the table.")
    initiative_qr: QR | None = Field(
        default=None,
        description="This round's initiative QR: after a failure (QR7, QR10) no bonus roll is "
        "allowed (F:L2962).",
    )
    target_sights: bool = Field(
        default=False, description="A target weapon's sights: +2 on bonus Aim rolls (F:L3794)."
    )
    laser_sight: bool = Field(
        default=False, description="A laser sight: one free bonus aim action a round (F:L3794)."
    )
    options: BonusOptions = Field(default=BonusOptions())


class BonusResult(Model):
    family: BonusFamily
    attribute_rolled: Attribute = Field(description="AG, DX, PC, ST or WP (F:L3059-3071).")
    actions: list[str] = Field(description="The actions the bonus may be spent on.")
    roll: Resolution | None = Field(description="The attribute roll; null when its QR was given.")
    qr: QR
    band: int = Field(description="Row of Bonus Actions Received, from 0 for 1-3.")
    bonus_actions: int = Field(description="From the table: -1 is one normal action lost.")
    normal_actions_lost: int = Field(description="1 on a QR10 (F:L3073-3075).")
    free_aim_actions: int = Field(description="1 with a laser sight (F:L3794).")


def _checked(request: BonusInput) -> None:
    if request.initiative_qr is not None and request.initiative_qr > QR.QR4:
        raise InputError(
            ("initiative_qr",), "no bonus-action roll after a failed initiative (F:L2962)"
        )
    if request.target_sights and request.family is not BonusFamily.AIM:
        raise InputError(("target_sights",), "target sights help only bonus Aim rolls (F:L3794)")
    if request.task is not None and request.qr is not None:
        raise InputError(("qr",), "give either 'task' or 'qr'")


def _setup(request: BonusInput) -> Setup | None:
    _checked(request)
    if request.qr is not None:
        return None
    extra = [TARGET_SIGHTS] if request.target_sights else []
    task = request.task or Task(score=request.attribute)
    return setup_at(("task",), task, request.options, extra, request.options.attribute_bef)


class BonusOdds(Model):
    qr: QualityOdds
    bonus_actions: list[OutcomeProbability]
    mean_bonus_actions: Exact
    normal_action_lost: Exact


def bonus_odds(request: BonusInput) -> BonusOdds:
    task = _setup(request)
    if task is None:
        assert request.qr is not None
        qrs = Distribution({request.qr: 1})
    else:
        qrs = distribution(task)
    mode = request.options.bonus_band_mode
    got = qrs.map(lambda qr: bonus_for(request.attribute, qr, mode))
    mean = got.mean()
    return BonusOdds(
        qr=quality_odds(qrs),
        bonus_actions=outcome_table(got),
        mean_bonus_actions=exact(mean),
        normal_action_lost=exact(qrs.probability(QR.QR10)),
    )


def bonus_cost(request: BonusInput) -> Estimate:
    """One D100 read and its tables (as a task), then the bonus of each of its QRs: the same
    for every request."""
    return Estimate(task_cost(request).states + len(QR), ())


@operation(
    name="bonus-actions",
    kind=Kind.CHECK,
    covers=("foresight.bonus_actions",),
    odds=bonus_odds,
    cost=bonus_cost,
    example={"family": "aim", "attribute": 12, "dice": {"values": [63]}},
    rolled={"/qr/qr": Reading(read=lambda result: result.qr.name, best_first=True)},
)
def bonus_actions(request: BonusInput, dice: Dice) -> BonusResult:
    """Roll for bonus actions of one declared family: its attribute's roll (AG, DX, PC, ST or
    WP, F:L3059-3071) and score give the count from Bonus Actions Received (F:L3077-3086); a
    QR10 costs a normal action (F:L3075). An agile character with AG 12 rolling QR2 gets 3
    bonus moves (F:L3088); the sniper's PC 12 at SC 84 rolls 63, QR4: 2 bonus aims (F:L3304).
    Not after a failed initiative (F:L2962); target sights +2 on Aim rolls, a laser sight
    one free aim a round (F:L3794)."""
    task = _setup(request)
    rolled = None if task is None else roll(task, dice, f"D100 (bonus {request.family.value})")
    qr = request.qr if rolled is None else rolled.qr
    assert qr is not None
    mode = request.options.bonus_band_mode
    got = bonus_for(request.attribute, qr, mode)
    row = ROLLS[request.family]
    return BonusResult(
        family=request.family,
        attribute_rolled=row.attribute,
        actions=row.actions,
        roll=rolled,
        qr=qr,
        band=band(request.attribute, mode),
        bonus_actions=got,
        normal_actions_lost=1 if qr is QR.QR10 else 0,
        free_aim_actions=1 if request.laser_sight else 0,
    )
