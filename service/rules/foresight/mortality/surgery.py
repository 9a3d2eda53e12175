"""Surgery, medical care and what major wounds leave behind (catalogue foresight-2.md 2.6,
F:L2837-2927): surgery lowers the maximum wound level, medical care helps recovery rolls,
major injury costs attribute points and physiotherapy wins inherent points back."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated, Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.foresight.mortality.condition import (
    ARMS,
    DEAD,
    LEGS,
    MAX_LEVEL,
    Condition,
    Location,
)
from service.rules.foresight.mortality.medicine import Stated, TechLevel, building_on
from service.rules.foresight.mortality.medicine import circumstance_terms as _circumstances
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import chained_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import Resolution, distribution, roll, setup_at
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = ["major_injury", "medical_care", "physiotherapy", "surgery"]


def _tl(value: float) -> Fraction:
    return Fraction(repr(value))


# Surgery


class SurgeryRow(Model):
    tl: float
    search: int
    x_ray_search: int | None
    surgery: int
    reduction: int = Field(description="K in 'K - QR'.")


SURGERY = table(__name__, "surgery", SurgeryRow)
#: The Surgery skill is Generic Tools of Trade, BEF 6 (F:L795, F:L2839).
SURGERY_BEF = 6
DEXTERITY_ALONE = Term(source="Dexterity alone", value=-3)


class TlRow(StrEnum):
    FLOOR = "floor"
    NEAREST = "nearest"


class BotchEffect(StrEnum):
    NONE = "none"
    MAJOR_INJURY = "major_injury"


class SurgeryOptions(ResolutionOptions):
    surgery_tl_row: TlRow = option(
        TlRow.FLOOR,
        ambiguity="AMB2-30",
        description="A tech level between rows takes the highest row at or below it (TL5.5 "
        "is TL5) or the nearest (ties go down).",
    )
    surgery_botch_effect: BotchEffect = option(
        BotchEffect.NONE,
        ambiguity="AMB2-30",
        description="A QR10 surgery reduces nothing, like any failure; or, as 'botched medical "
        "treatment' may (F:L2912), it costs attributes: the Effects of Major Injury row one "
        "worse than the maximum wound level (a heavy wound the Incapacitated row), at most 7.",
    )


class SurgeryInput(Model):
    condition: Condition
    tl: TechLevel
    x_rays: bool = Field(default=False, description="At TL4.5 the search is +2, not +0.")
    circumstances: Stated = ()
    search: Task = Field(description="The surgeon's Search for internal injuries.")
    surgery: Task = Field(description="The Surgery skill (BEF 6), or DX with 'dexterity_only'.")
    dexterity_only: bool = Field(default=False, description="DX at -3, BEF 'attribute_bef'.")
    follow_up: bool = Field(default=False, description="Follow-up surgery: 2 less (F:L2845).")
    knows_medicine_and_surgery: bool = True
    options: SurgeryOptions = Field(default=SurgeryOptions())


class Operated(Model):
    performed: bool = Field(description="Max wound level heavy or worse, TL4+, a surgeon.")
    search: Resolution | None
    surgery: Resolution | None
    reduction: int = Field(description="How far the maximum wound level fell.")
    major_injury_wound_level: int | None = Field(
        description="A QR10 surgery with 'surgery_botch_effect' 'major_injury': the wound "
        "level whose major-injury row applies (major-injury); null otherwise."
    )
    condition: Condition


class SurgeryOdds(Model):
    reduction: list[OutcomeProbability]
    botched_major_injury: Exact | None = Field(
        description="With 'surgery_botch_effect' 'major_injury': P(a QR10 surgery costs "
        "attributes); null otherwise."
    )


def _row(tl: Fraction, mode: TlRow) -> SurgeryRow | None:
    rows = [r for r in SURGERY if _tl(r.tl) <= tl]
    if not rows:
        return None
    if mode is TlRow.NEAREST:
        return min(SURGERY, key=lambda r: (abs(_tl(r.tl) - tl), r.tl))
    return rows[-1]


def _performed(request: SurgeryInput) -> SurgeryRow | None:
    """The table's row when surgery can be done: severe injuries (maximum wound level heavy
    or worse, F:L2841), a surgeon knowing Medicine and Surgery (F:L2843), TL4 or more."""
    row = _row(_tl(request.tl), request.options.surgery_tl_row)
    fit = request.condition.max_wound_level >= 3 and request.knows_medicine_and_surgery
    return row if fit else None


def _search(request: SurgeryInput, row: SurgeryRow) -> Setup:
    value = row.x_ray_search if request.x_rays and row.x_ray_search is not None else row.search
    extra = [Term(source=f"TL{row.tl:g}", value=value)] if value else []
    extra += _circumstances(request.circumstances, request.condition.max_wound_level, "search",
                            "circumstances")  # fmt: skip
    return setup_at(("search",), request.search, request.options, extra)


def _surgery(request: SurgeryInput, row: SurgeryRow, search: QR) -> Setup:
    extra = [Term(source=f"TL{row.tl:g}", value=row.surgery)] if row.surgery else []
    extra += building_on(search, "search")
    extra += _circumstances(request.circumstances, request.condition.max_wound_level, "surgery",
                            "circumstances")  # fmt: skip
    bef = SURGERY_BEF
    if request.dexterity_only:
        extra.append(DEXTERITY_ALONE)
        bef = request.options.attribute_bef
    return setup_at(("surgery",), request.surgery, request.options, extra, bef)


def _reduction(row: SurgeryRow, qr: QR, follow_up: bool) -> int:
    """K - QR on a success, 2 less for follow-up surgery, never below 0; a failure none."""
    return max(0, row.reduction - qr - 2 * follow_up) if qr <= QR.QR4 else 0


def _botch(request: SurgeryInput, qr: QR) -> int | None:
    """A QR10 surgery's major-injury row with 'major_injury' (AMB2-30, F:L2912): one worse
    than the maximum wound level, at most Near Death (7); None otherwise."""
    if request.options.surgery_botch_effect is BotchEffect.NONE or qr is not QR.QR10:
        return None
    return min(request.condition.max_wound_level + 1, 7)


def _surgery_odds(request: SurgeryInput) -> SurgeryOdds:
    row = _performed(request)
    found: Distribution[int] = Distribution({0: 1})
    botched = Fraction(0)
    if row is not None:
        qrs = distribution(_search(request, row)).then(
            lambda s: distribution(_surgery(request, row, s))
        )
        found = qrs.map(lambda q: _reduction(row, q, request.follow_up))
        botched = qrs.probability_where(lambda q: _botch(request, q) is not None)
    botching = request.options.surgery_botch_effect is not BotchEffect.NONE
    return SurgeryOdds(
        reduction=outcome_table(found),
        botched_major_injury=exact(botched) if botching else None,
    )


@operation(
    name="surgery",
    kind=Kind.CHECK,
    covers=("foresight.surgery",),
    odds=_surgery_odds,
    cost=chained_cost,
    example={
        "condition": {"wound_level": 3, "max_wound_level": 5},
        "tl": 6,
        "circumstances": ["multiple_wounds"],
        "search": {"score": 12, "bef": 5},
        "surgery": {"score": 12},
        "dice": {"values": [40, 10]},
    },
)
def surgery(request: SurgeryInput, dice: Dice) -> Operated:
    """Surgery on a patient whose maximum wound level was heavy or worse: a Search, modified
    by the tech level and the circumstances (the Major Injury row by maximum wound level),
    then a Surgery task building on it; success lowers the maximum wound level by K - QR for
    the tech level's K (TL4 4 .. TL9 10), 2 less for follow-up surgery, never below 0 and
    perhaps below the wound level (F:L2837-2870). Amy's surgeon searches at +4 -1 -2, gets
    QR3, operates at +3 +1 -1 -1 and his QR2 takes her maximum from 5 to 0 (F:L2874-2876).
    A QR10 reduces nothing; with 'surgery_botch_effect' it also costs attributes (F:L2912)."""
    row = _performed(request)
    condition = request.condition
    if row is None:
        return Operated(performed=False, search=None, surgery=None, reduction=0,
                        major_injury_wound_level=None, condition=condition)  # fmt: skip
    search = roll(_search(request, row), dice, "D100 (Search)")
    found = roll(_surgery(request, row, search.qr), dice, "D100 (Surgery)")
    reduction = _reduction(row, found.qr, request.follow_up)
    lowered = max(0, condition.max_wound_level - reduction)
    after = condition.model_copy(update={"max_wound_level": lowered})
    return Operated(performed=True, search=search, surgery=found, reduction=reduction,
                    major_injury_wound_level=_botch(request, found.qr),
                    condition=after)  # fmt: skip


# Medical care


class CareRow(Model):
    tl: float
    label: str
    low: int
    high: int
    interval_pct: int


CARE = table(__name__, "medical-care", CareRow)


class RangeCheck(StrEnum):
    WARN = "warn"
    CLAMP = "clamp"
    ERROR = "error"


class MedicalCareOptions(Model):
    care_modifier_range_check: RangeCheck = option(
        RangeCheck.WARN,
        ambiguity="AMB2-31",
        description="A modifier outside the tech level's range is kept with a warning (Amy "
        "gets +6 at a TL6 facility of +2..+5, F:L2891), clamped into it, or refused.",
    )


class MedicalCareInput(Model):
    tl: TechLevel
    quality: Annotated[float, Field(ge=0, le=1)] | None = Field(
        default=None, description="0 a basic facility .. 1 the most advanced of its TL."
    )
    modifier: Annotated[int, Field(ge=-10, le=20)] | None = Field(
        default=None, description="Instead of 'quality': the GM's modifier."
    )
    options: MedicalCareOptions = Field(default=MedicalCareOptions())


class MedicalCare(Model):
    row: str = Field(description="The table's TL row.")
    low: int
    high: int
    modifier: int = Field(description="To recovery and deterioration rolls.")
    interval_pct: int = Field(description="Recovery intervals, % of the usual (F:L2880).")
    warning: str | None


def care_of(tl: Fraction, quality: Fraction | None, modifier: int | None,
            check: RangeCheck) -> MedicalCare:  # fmt: skip
    """The row of the tech level (below 4.5 the first; between rows the one below) and the
    modifier: 'quality' of the way from its low to its high end, or the GM's (F:L2880-2889)."""
    row = [r for r in CARE if _tl(r.tl) <= tl][-1]
    if quality is not None and modifier is not None:
        raise InputError(("modifier",), "give 'quality' or 'modifier', not both")
    warning = None
    if modifier is None:
        modifier = round_half_up(row.low + (quality or Fraction(0)) * (row.high - row.low))
    elif not row.low <= modifier <= row.high:
        if check is RangeCheck.ERROR:
            raise InputError(("modifier",), f"TL{row.label} care is {row.low:+d} to {row.high:+d}")
        warning = f"{modifier:+d} is outside TL{row.label}'s {row.low:+d} to {row.high:+d}"
        if check is RangeCheck.CLAMP:
            modifier = min(max(modifier, row.low), row.high)
    return MedicalCare(row=row.label, low=row.low, high=row.high, modifier=modifier,
                       interval_pct=row.interval_pct, warning=warning)  # fmt: skip


@operation(
    name="medical-care",
    kind=Kind.LOOKUP,
    covers=("foresight.medical_care",),
    example={"tl": 6, "modifier": 6},
)
def medical_care(request: MedicalCareInput) -> MedicalCare:
    """Medical care and rest give recovery and deterioration rolls a modifier from basic to
    advanced facilities (below TL4.5 -3 to +1 .. TL9 +5 to +10) and high-tech facilities
    shorten recovery intervals (TL6 75% .. TL9 10%) (F:L2880-2889). Amy's top-notch TL6
    facility: 75% intervals, and the book's +6 lies outside TL6's +2..+5 (F:L2891, AMB2-31)."""
    quality = None if request.quality is None else Fraction(repr(request.quality))
    return care_of(_tl(request.tl), quality, request.modifier,
                   request.options.care_modifier_range_check)  # fmt: skip


# Major injury


class InjuryRow(Model):
    wound_level: int
    severity: str
    inherent: int
    trained: int
    physical_only: bool


INJURY = table(__name__, "major-injury", InjuryRow)
PHYSICAL = frozenset({Attribute.ST, Attribute.DX, Attribute.AG, Attribute.EN, Attribute.AP})


class InjuryMode(StrEnum):
    WORST_ROW = "worst_row"
    CUMULATIVE = "cumulative"


class MajorInjuryOptions(Model):
    major_injury_mode: InjuryMode = option(
        InjuryMode.WORST_ROW,
        ambiguity="AMB2-45",
        description="The row of the worst wound level reached, once (Watson, dying, loses "
        "1 and 3, F:L2910), or every row up to it added.",
    )


class MajorInjuryInput(Model):
    worst_wound_level: Annotated[int, Field(ge=0, le=MAX_LEVEL)]
    location: Location | None = Field(default=None, description="For the suggested attributes.")
    attribute: Attribute | None = Field(default=None, description="The attribute the GM picks.")
    inherent: Annotated[int, Field(ge=0, le=40)] | None = None
    trained: Annotated[int, Field(ge=0, le=40)] | None = None
    options: MajorInjuryOptions = Field(default=MajorInjuryOptions())


class MajorInjury(Model):
    severity: str | None
    inherent_lost: int
    trained_lost: int
    physical_only: bool
    suggested: list[Attribute] = Field(description="The book's suggestion by location (F:L2908).")
    inherent_after: int | None
    trained_after: int | None


def suggested_attributes(location: Location | None) -> list[Attribute]:
    """Legs AG, arms DX, chest or stomach EN (any of them perhaps AP or ST instead); the head
    IN, PC and/or AP (F:L2908)."""
    if location is None:
        return []
    if location is Location.HEAD:
        return [Attribute.IN, Attribute.PC, Attribute.AP]
    first = Attribute.AG if location in LEGS else Attribute.DX if location in ARMS else Attribute.EN
    return [first, Attribute.AP, Attribute.ST]


@operation(
    name="major-injury",
    kind=Kind.LOOKUP,
    covers=("foresight.major_injury",),
    example={
        "worst_wound_level": 6,
        "location": "abdomen",
        "attribute": "EN",
        "inherent": 6,
        "trained": 8,
    },
)
def major_injury(request: MajorInjuryInput) -> MajorInjury:
    """Effects of Major Injury (optional, F:L2897-2912): incapacitated costs 1 trained point,
    critical 2 (physical attributes only), dying 1 inherent and 3 trained, near death 2 and 4.
    Watson, dying of a shot to the abdomen, goes from EN 6/8 to 5/5 (F:L2910)."""
    worst = min(request.worst_wound_level, DEAD - 1)
    rows = [r for r in INJURY if r.wound_level <= worst]
    if request.options.major_injury_mode is InjuryMode.WORST_ROW:
        rows = rows[-1:]
    chosen = request.attribute
    inherent = sum(r.inherent for r in rows)
    trained = sum(r.trained for r in rows
                  if not r.physical_only or chosen is None or chosen in PHYSICAL)  # fmt: skip
    physical = bool(rows) and all(r.physical_only for r in rows)
    return MajorInjury(
        severity=rows[-1].severity if rows else None,
        inherent_lost=inherent,
        trained_lost=trained,
        physical_only=physical,
        suggested=suggested_attributes(request.location),
        inherent_after=None if request.inherent is None else max(0, request.inherent - inherent),
        trained_after=None if request.trained is None else max(0, request.trained - trained),
    )


# Physiotherapy


class PhysioRow(Model):
    tl: int | None
    label: str
    count: int
    unit: str


PHYSIOTHERAPY = table(__name__, "physiotherapy", PhysioRow)


class PhysiotherapyOptions(ResolutionOptions):
    physio_restores_trained: bool = option(
        True,
        ambiguity="AMB2-44",
        description="Each inherent point won back restores a trained point too, never above "
        "what was lost; the book names only the inherent (F:L2916).",
    )


class PhysiotherapyInput(Model):
    tl: TechLevel | None = Field(default=None, description="Null (or below 4): self-help.")
    willpower_roll: Task = Field(description="The WP roll: score = WP; BEF 'attribute_bef'.")
    inherent_lost: Annotated[int, Field(ge=0, le=20)]
    trained_lost: Annotated[int, Field(ge=0, le=20)] = 0
    periods: Annotated[int, Field(ge=1, le=60)] = 1
    stopped: bool = Field(default=False, description="A QR10 ended all improvement before.")
    options: PhysiotherapyOptions = Field(default=PhysiotherapyOptions())


class Physiotherapy(Model):
    period: str
    willpower_rolls: list[Resolution]
    inherent_recovered: int
    trained_recovered: int
    stopped: bool = Field(description="A QR10: no further improvement is possible (F:L2916).")


class PhysiotherapyOdds(Model):
    inherent_recovered: list[OutcomeProbability]
    stopped: list[OutcomeProbability]


def _period(tl: float | None) -> PhysioRow:
    rows = [r for r in PHYSIOTHERAPY if r.tl is not None and tl is not None and r.tl <= tl]
    return rows[-1] if rows else PHYSIOTHERAPY[0]


def _wp(request: PhysiotherapyInput) -> Setup:
    options = request.options
    return setup_at(("willpower_roll",), request.willpower_roll, options, (),
                    options.attribute_bef)  # fmt: skip


def _trained(request: PhysiotherapyInput, inherent: int) -> int:
    return min(inherent, request.trained_lost) if request.options.physio_restores_trained else 0


def _physio_odds(request: PhysiotherapyInput) -> PhysiotherapyOdds:
    each = distribution(_wp(request)).map(
        lambda qr: "stop" if qr is QR.QR10 else "gain" if qr <= QR.QR4 else "none"
    )
    states: Distribution[tuple[int, bool]] = Distribution({(0, request.stopped): 1})

    def step(state: tuple[int, bool]) -> Distribution[tuple[int, bool]]:
        won, stopped = state
        if stopped or won >= request.inherent_lost:
            return Distribution({state: 1})
        return each.map(lambda r: (won + (r == "gain"), r == "stop"))

    for _ in range(request.periods):
        states = states.then(step)
    return PhysiotherapyOdds(inherent_recovered=outcome_table(states.map(lambda s: s[0])),
                             stopped=outcome_table(states.map(lambda s: s[1])))  # fmt: skip


def _physio_cost(request: Any) -> Estimate:
    """One WP roll's 100 faces, then per period each state (points won, stopped: at most 42)
    with its three outcomes."""
    return Estimate(300 + 42 * 8 * request.periods, ("/periods",))


@operation(
    name="physiotherapy",
    kind=Kind.CHECK,
    covers=("foresight.physiotherapy",),
    odds=_physio_odds,
    cost=_physio_cost,
    example={
        "tl": 4,
        "willpower_roll": {"score": 11},
        "inherent_lost": 1,
        "trained_lost": 3,
        "dice": {"values": [30]},
    },
)
def physiotherapy(request: PhysiotherapyInput, dice: Dice) -> Physiotherapy:
    """Physiotherapy (TL4 and above) or self-help: a WP roll each recovery period (self-help
    12 months, TL4 6 months .. TL9 1 hour) wins back one lost inherent point; a failure wins
    nothing that period, a QR10 ends all improvement (F:L2914-2925). Watson at TL4 succeeds
    after six months, fails after twelve, gives up and, a year of self-help later, rolls a
    QR10 (F:L2927)."""
    row = _period(request.tl)
    rolls: list[Resolution] = []
    won, stopped = 0, request.stopped
    for _ in range(request.periods):
        if stopped or won >= request.inherent_lost:
            break
        found = roll(_wp(request), dice, "D100 (WP)")
        rolls.append(found)
        won += found.qr <= QR.QR4
        stopped = found.qr is QR.QR10
    plural = "" if row.count == 1 else "s"
    return Physiotherapy(period=f"{row.count} {row.unit}{plural}", willpower_rolls=rolls,
                         inherent_recovered=won, trained_recovered=_trained(request, won),
                         stopped=stopped)  # fmt: skip
