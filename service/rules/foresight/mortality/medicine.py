"""Medical intervention (catalogue foresight-2.md 2.6, F:L2795-2893): diagnosis and treatment
plans, bandaging, restoring blood pressure, blood compatibility and surgery.

The doctor's rolls are ordinary tasks of the doctor's, so they take no modifier from the
patient's condition except where the book says so: the Search that finds internal injuries
is modified by the patient's maximum wound level (F:L2843, the Major Injury rows). A follow-up
roll that builds on an earlier one takes its QR as a cooperating modifier, 4 - QR (F:L1404):
the surgeon's QR3 search gives his surgery +1 (F:L2874).
"""

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.foresight.mortality.condition import MAX_LEVEL, Condition, heal
from service.rules.foresight.resolution.chance import Setup, Task
from service.rules.foresight.resolution.modifiers import Term
from service.rules.foresight.resolution.odds import QR_ROLLED, chained_cost, task_cost
from service.rules.foresight.resolution.options import ResolutionOptions
from service.rules.foresight.resolution.tables import QR
from service.rules.foresight.resolution.task import (
    Resolution,
    ResolutionOdds,
    distribution,
    resolution_odds,
    roll,
    setup_at,
)
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "Circumstance",
    "TechLevel",
    "bleeding",
    "blood_compatibility",
    "blood_pressure",
    "circumstance_terms",
    "diagnosis",
    "major_injury_circumstance",
    "treatment_plan",
]

TechLevel = Annotated[float, Field(ge=0, le=15, description="The tech level, e.g. 4.5.")]


class Circumstance(StrEnum):
    KNOWN_CAUSE = "known_cause"
    MULTIPLE_WOUNDS = "multiple_wounds"
    MYSTERIOUS_CAUSE = "mysterious_cause"
    MAJOR_INJURY_3_4 = "major_injury_3_4"
    MAJOR_INJURY_5_6 = "major_injury_5_6"
    MAJOR_INJURY_7 = "major_injury_7"


class CircumstanceRow(Model):
    circumstance: Circumstance
    label: str
    search: int
    surgery: int


#: Search and surgery modifiers by circumstance (F:L2864-2870), served as a table.
SURGERY_CIRCUMSTANCES = table(__name__, "surgery-circumstances", CircumstanceRow)
CIRCUMSTANCES = {row.circumstance: row for row in SURGERY_CIRCUMSTANCES}
#: What the caller states; the Major Injury rows follow from the patient's maximum wound level.
Stated = Annotated[
    tuple[Circumstance, ...], Field(max_length=3, description="Known or mysterious cause, "
                                    "multiple wounds (F:L2864-2867).")
]  # fmt: skip


def major_injury_circumstance(max_wound_level: int) -> Circumstance | None:
    """Major Injury by the patient's maximum wound level: WL3-4, WL5-6, WL7+ (F:L2868-2870)."""
    if max_wound_level >= 7:
        return Circumstance.MAJOR_INJURY_7
    if max_wound_level >= 5:
        return Circumstance.MAJOR_INJURY_5_6
    return Circumstance.MAJOR_INJURY_3_4 if max_wound_level >= 3 else None


def circumstance_terms(
    stated: Sequence[Circumstance], max_wound_level: int, column: str, loc: str
) -> list[Term]:
    """The circumstance modifiers of the Search or Surgery column (F:L2864-2870)."""
    if len(set(stated)) != len(stated) or any(c.value.startswith("major") for c in stated):
        raise InputError((loc,), "each stated once; major injury follows the max wound level")
    major = major_injury_circumstance(max_wound_level)
    rows = [CIRCUMSTANCES[c] for c in (*stated, *([major] if major else []))]
    found = [Term(source=row.label, value=getattr(row, column)) for row in rows]
    return [term for term in found if term.value]


def building_on(qr: QR, what: str) -> list[Term]:
    """A follow-up task builds on an earlier QR: +(4 - QR) (F:L1404, F:L2805, F:L2874); a
    QR4 adds nothing."""
    return [Term(source=f"{what} QR{qr.value}", value=4 - qr)] if qr != QR.QR4 else []


# Diagnosis and treatment


class MedicalKnowledge(StrEnum):
    BASIC = "basic"
    STANDARD = "standard"
    SPECIALIZATION = "specialization"


#: 'e.g. -2 if her knowledge were only basic, +0 if it were standard, +2 if she had a
#: specialization' (F:L2801).
KNOWLEDGE = {MedicalKnowledge.BASIC: -2, MedicalKnowledge.STANDARD: 0,
             MedicalKnowledge.SPECIALIZATION: 2}  # fmt: skip


def knowledge_term(knowledge: MedicalKnowledge) -> list[Term]:
    value = KNOWLEDGE[knowledge]
    return [Term(source=f"medical knowledge: {knowledge.value}", value=value)] if value else []


class DiagnosisInput(Model):
    search: Task = Field(description="Search (or Perception) with Medicine (F:L2799).")
    medical_knowledge: MedicalKnowledge = MedicalKnowledge.STANDARD
    options: ResolutionOptions = Field(default=ResolutionOptions())


class MedicalCheck(Resolution):
    cooperating_modifier: int = Field(description="4 - QR, for the task that builds on it.")


def _checked(result: Resolution) -> MedicalCheck:
    return MedicalCheck(**dict(result), cooperating_modifier=4 - result.qr)


def _diagnosis(request: DiagnosisInput) -> Setup:
    return setup_at(("search",), request.search, request.options,
                    knowledge_term(request.medical_knowledge))  # fmt: skip


def _diagnosis_odds(request: DiagnosisInput) -> ResolutionOdds:
    return resolution_odds(_diagnosis(request))


@operation(
    name="medical/diagnosis",
    kind=Kind.CHECK,
    covers=("foresight.medical.diagnosis",),
    odds=_diagnosis_odds,
    cost=task_cost,
    example={
        "search": {"score": 12, "bef": 5},
        "medical_knowledge": "specialization",
        "dice": {"values": [22]},
    },
    rolled=QR_ROLLED,
)
def diagnosis(request: DiagnosisInput, dice: Dice) -> MedicalCheck:
    """Medicine with Search (or Perception) diagnoses an illness: the doctor's search roll at
    -2 with only basic knowledge, +0 standard, +2 with a specialization; the QR says how
    specifically and how quickly (F:L2799-2801)."""
    return _checked(roll(_diagnosis(request), dice, "D100 (Search)"))


class TreatmentInput(Model):
    theory: Task = Field(description="Theory with Medicine (F:L2803).")
    diagnosis_qr: QR | None = Field(default=None, description="The diagnosis it builds on.")
    medical_knowledge: MedicalKnowledge = MedicalKnowledge.STANDARD
    options: ResolutionOptions = Field(default=ResolutionOptions())


def _treatment(request: TreatmentInput) -> Setup:
    extra = knowledge_term(request.medical_knowledge)
    if request.diagnosis_qr is not None:
        extra += building_on(request.diagnosis_qr, "diagnosis")
    return setup_at(("theory",), request.theory, request.options, extra)


def _treatment_odds(request: TreatmentInput) -> ResolutionOdds:
    return resolution_odds(_treatment(request))


@operation(
    name="medical/treatment-plan",
    kind=Kind.CHECK,
    covers=("foresight.medical.treatment_plan",),
    odds=_treatment_odds,
    cost=task_cost,
    example={"theory": {"score": 11, "bef": 4}, "diagnosis_qr": 3, "dice": {"values": [30]}},
    rolled=QR_ROLLED,
)
def treatment_plan(request: TreatmentInput, dice: Dice) -> MedicalCheck:
    """Medicine with Theory, armed with a diagnosis, finds a treatment; it builds on the
    diagnosis' QR (+(4 - QR)); the better the QR, the sooner the malady is neutralised and the
    better the recovery (F:L2803-2809)."""
    return _checked(roll(_treatment(request), dice, "D100 (Theory)"))


# Bandaging


class BandageFailure(StrEnum):
    ZERO = "0"
    FORMULA = "formula"


class BleedingOptions(ResolutionOptions):
    bandage_failure_bonus: BandageFailure = option(
        BandageFailure.ZERO,
        ambiguity=None,
        description="Catalogue part 2, 2.6 (#40), not in the register: a failed DX roll "
        "stops no bleeding, a bonus of 0, or the formula +(5 - QR) stands (F:L2821): QR7 -2, "
        "QR10 -5 to later deterioration rolls.",
    )


class BleedingInput(Model):
    condition: Condition
    search: Task = Field(description="Finding bleeding, blocked airways, broken bones.")
    dexterity: Task = Field(description="The DX roll: score = DX; BEF 'attribute_bef'.")
    first_aid_knowledge: bool = Field(
        default=True, description="Basic Medicine or Basic Surgery; without, -3 (F:L2821)."
    )
    medical_supplies: bool = Field(default=True, description="Bandages: required (F:L2821).")
    circumstances: Stated = ()
    options: BleedingOptions = Field(default=BleedingOptions())


class Bandaged(Model):
    search: Resolution | None
    dexterity: Resolution | None
    bandage_bonus: int = Field(
        description="+(5 - QR) to deterioration rolls; 0 on failure, or -2 and -5 by the "
        "formula with 'bandage_failure_bonus'."
    )
    condition: Condition


class BleedingOdds(Model):
    bandage_bonus: list[OutcomeProbability]


UNTRAINED = Term(source="no Basic Medicine or Basic Surgery", value=-3)


def _search(request: BleedingInput) -> Setup:
    extra = circumstance_terms(request.circumstances, request.condition.max_wound_level,
                               "search", "circumstances")  # fmt: skip
    extra += [] if request.first_aid_knowledge else [UNTRAINED]
    return setup_at(("search",), request.search, request.options, extra)


def _dexterity(request: BleedingInput, search: QR) -> Setup:
    extra = [*building_on(search, "search"), *([] if request.first_aid_knowledge else [UNTRAINED])]
    options = request.options
    return setup_at(("dexterity",), request.dexterity, options, extra, options.attribute_bef)


def _bonus(qr: QR, options: BleedingOptions) -> int:
    """QR1 +4, QR2 +3, QR3 +2, QR4 +1 (F:L2821); a failure stops no bleeding: 0, or the
    formula's QR7 -2, QR10 -5 with 'bandage_failure_bonus' 'formula'."""
    formula = options.bandage_failure_bonus is BandageFailure.FORMULA
    return 5 - qr if qr <= QR.QR4 or formula else 0


def _kept(bonus: int, current: int) -> int:
    """The bandage a condition keeps: a better one replaces a worse; on untended wounds (0)
    the new one stands, even a failure's negative bonus."""
    return bonus if current == 0 else max(bonus, current)


def _bleeding_odds(request: BleedingInput) -> BleedingOdds:
    if not request.medical_supplies:
        return BleedingOdds(bandage_bonus=outcome_table(Distribution({0: 1})))
    found = distribution(_search(request)).then(
        lambda qr: distribution(_dexterity(request, qr)).map(lambda dx: _bonus(dx, request.options))
    )
    return BleedingOdds(bandage_bonus=outcome_table(found))


@operation(
    name="bleeding",
    kind=Kind.CHECK,
    covers=("foresight.bleeding",),
    odds=_bleeding_odds,
    cost=chained_cost,
    example={
        "condition": {"wound_level": 5, "max_wound_level": 5},
        "search": {"score": 12, "bef": 5},
        "dexterity": {"score": 11},
        "circumstances": ["multiple_wounds"],
        "dice": {"values": [40, 45]},
    },
)
def bleeding(request: BleedingInput, dice: Dice) -> Bandaged:
    """Bandaging needs medical supplies and Basic Medicine or Basic Surgery (else -3): a
    Search finds bleeding wounds, blocked airways and broken bones, then a DX roll, building
    on it, stops the bleeding; it gives +(5 - QR) to later deterioration rolls, not recovery
    rolls (F:L2821). Amy's paramedics search at -2 (major injury) -1 (multiple wounds) and
    bandage with a QR3: +2 (F:L2862). A better bandage replaces a worse one; a failure gives
    0, or by the formula -2 or -5 ('bandage_failure_bonus')."""
    condition = request.condition
    if not request.medical_supplies:
        return Bandaged(search=None, dexterity=None, bandage_bonus=0, condition=condition)
    search = roll(_search(request), dice, "D100 (Search)")
    dexterity = roll(_dexterity(request, search.qr), dice, "D100 (DX)")
    bonus = _bonus(dexterity.qr, request.options)
    kept = _kept(bonus, condition.bandage_bonus)
    return Bandaged(search=search, dexterity=dexterity, bandage_bonus=bonus,
                    condition=condition.model_copy(update={"bandage_bonus": kept}))  # fmt: skip


# Blood


class Infusion(StrEnum):
    CRUDE_SUBSTITUTE = "crude_substitute"
    SALINE_OR_PLASMA = "saline_or_plasma"
    WHOLE_BLOOD = "whole_blood"
    ARTIFICIAL_BLOOD = "artificial_blood"


#: Wound levels each restores (F:L2827-2835); a crude substitute only half the time.
RESTORES = {Infusion.CRUDE_SUBSTITUTE: 1, Infusion.SALINE_OR_PLASMA: 1,
            Infusion.WHOLE_BLOOD: 2, Infusion.ARTIFICIAL_BLOOD: 2}  # fmt: skip


class RestoreLimit(StrEnum):
    NONE = "none"
    BLOOD_LOSS_LEVELS_ONLY = "blood_loss_levels_only"


class BloodPressureOptions(ResolutionOptions):
    """Readings of the blood-pressure rule (AMB2-13) and of the provider's roll, if any."""

    bp_restore_limit: RestoreLimit = option(
        RestoreLimit.NONE,
        ambiguity="AMB2-13",
        description="Restore the book's 1 or 2 levels each time (F:L2827), or at most the "
        "levels lost to failed deterioration rolls ('blood_loss_levels'), as the severed-arm "
        "example's 6 -> 5 suggests (F:L2610, F:L2833).",
    )
    bp_requires_roll: bool = option(
        False,
        ambiguity="AMB2-13",
        description="No roll is specified (F:L2827): the infusion works; or the provider "
        "rolls 'treatment' and only a success (QR1-QR4) restores.",
    )


class BloodPressureInput(Model):
    condition: Condition
    infusion: Infusion
    tl: TechLevel
    medical_knowledge: bool = Field(
        default=True, description="The provider has basic or better medical knowledge."
    )
    compatible_donor: bool = Field(
        default=True, description="Whole blood below TL6: from a compatible donor (F:L2829)."
    )
    blood_loss_levels: Annotated[int, Field(ge=0, le=MAX_LEVEL)] | None = Field(
        default=None, description="With 'blood_loss_levels_only': the levels still to restore."
    )
    treatment: Task | None = Field(
        default=None,
        description="With 'bp_requires_roll': the provider's roll to give the infusion, which "
        "the book does not name (a Medicine task of the GM's choosing).",
    )
    options: BloodPressureOptions = Field(default=BloodPressureOptions())


class Restored(Model):
    given: bool = Field(description="The treatment could be given (heavily wounded or worse).")
    treatment: Resolution | None = Field(
        description="The provider's roll, with 'bp_requires_roll' (AMB2-13); null without."
    )
    restored: int = Field(description="Wound levels restored.")
    d2: int | None = Field(description="A crude substitute's 50%: 1 restores.")
    condition: Condition


class BloodPressureOdds(Model):
    restored: list[OutcomeProbability]


def _restorable(request: BloodPressureInput) -> tuple[bool, int]:
    """Whether the treatment can be given now, and the most it restores."""
    if request.infusion is Infusion.ARTIFICIAL_BLOOD and request.tl < 6:
        raise InputError(("tl",), "artificial blood is TL6 and beyond (F:L2829)")
    limited = request.options.bp_restore_limit is RestoreLimit.BLOOD_LOSS_LEVELS_ONLY
    if limited and request.blood_loss_levels is None:
        raise InputError(("blood_loss_levels",), "required by 'blood_loss_levels_only'")
    if request.options.bp_requires_roll and request.treatment is None:
        raise InputError(("treatment",), "required by 'bp_requires_roll'")
    matched = (request.compatible_donor or request.infusion is not Infusion.WHOLE_BLOOD
               or request.tl >= 6)  # fmt: skip
    given = request.condition.wound_level >= 3 and request.medical_knowledge and matched
    most = RESTORES[request.infusion]
    if limited:
        assert request.blood_loss_levels is not None
        most = min(most, request.blood_loss_levels)
    return given, most if given else 0


def _provider_roll(request: BloodPressureInput) -> Setup | None:
    """The provider's roll with 'bp_requires_roll' (AMB2-13); None without."""
    if not request.options.bp_requires_roll or request.treatment is None:
        return None
    return setup_at(("treatment",), request.treatment, request.options)


def _bp_odds(request: BloodPressureInput) -> BloodPressureOdds:
    given, most = _restorable(request)
    found: Distribution[int] = Distribution({most: 1})
    if given and request.infusion is Infusion.CRUDE_SUBSTITUTE:
        found = Distribution({0: 1, most: 1})
    setup = _provider_roll(request)
    if given and setup is not None:
        works = found
        found = distribution(setup).then(lambda qr: works if qr <= QR.QR4 else Distribution({0: 1}))
    return BloodPressureOdds(restored=outcome_table(found))


def _bp_cost(request: Any) -> Estimate:
    """A d2 at most, after the provider's roll with 'bp_requires_roll'."""
    return Estimate(10, ()) if request.treatment is None else task_cost(request)


@operation(
    name="blood-pressure/restore",
    kind=Kind.CHECK,
    covers=("foresight.blood_pressure.restore",),
    odds=_bp_odds,
    cost=_bp_cost,
    example={
        "condition": {"wound_level": 5, "max_wound_level": 5},
        "infusion": "crude_substitute",
        "tl": 4,
        "dice": {"values": [1]},
    },
)
def blood_pressure(request: BloodPressureInput, dice: Dice) -> Restored:
    """Someone with basic or better medical knowledge restores the blood pressure of a
    patient heavily wounded or worse: saline, plasma or a similar infusion lowers the wound
    level by one, a whole-blood transfusion (compatible donor below TL6) or TL6 artificial
    blood by two; a crude substitute such as coconut milk has a 50% chance of one
    (F:L2827-2835). The maximum wound level stays: Amy at WL5 is WL3 with max 5 (F:L2862).
    The precondition is checked each time (AMB2-55), so it may be repeated (F:L2872). No
    roll is specified; with 'bp_requires_roll' the provider's roll must succeed (AMB2-13)."""
    given, most = _restorable(request)
    setup = _provider_roll(request)
    treatment = None if not given or setup is None else roll(setup, dice, "D100 (treatment)")
    treated = treatment is None or treatment.qr <= QR.QR4
    most = most if treated else 0
    d2 = None
    if given and treated and request.infusion is Infusion.CRUDE_SUBSTITUTE:
        d2 = dice.roll(2, "d2 (crude substitute)")
        most = most if d2 == 1 else 0
    condition = heal(request.condition, most) if most else request.condition
    return Restored(given=given, treatment=treatment, restored=most, d2=d2, condition=condition)


class Abo(StrEnum):
    O = "O"  # noqa: E741 - the blood group
    A = "A"
    B = "B"
    AB = "AB"


class BloodType(Model):
    abo: Abo
    rh_positive: bool


class CompatibilityInput(Model):
    donor: BloodType
    recipient: BloodType


class Compatibility(Model):
    compatible: bool
    universal_donor: bool = Field(description="O negative gives to anyone.")
    universal_recipient: bool = Field(description="AB positive takes from anyone.")


@operation(
    name="blood/compatibility",
    kind=Kind.LOOKUP,
    covers=("foresight.blood.compatibility",),
    example={
        "donor": {"abo": "O", "rh_positive": False},
        "recipient": {"abo": "AB", "rh_positive": True},
    },
)
def blood_compatibility(request: CompatibilityInput) -> Compatibility:
    """O gives to A, B and AB; A to A and AB; B to B and AB; RH negative gives to RH
    positive; so O negative gives to anyone and AB positive takes from anyone (F:L2831)."""
    donor, recipient = request.donor, request.recipient
    abo = set(donor.abo.value.replace("O", "")) <= set(recipient.abo.value.replace("O", ""))
    rh = recipient.rh_positive or not donor.rh_positive
    return Compatibility(
        compatible=abo and rh,
        universal_donor=donor.abo is Abo.O and not donor.rh_positive,
        universal_recipient=recipient.abo is Abo.AB and recipient.rh_positive,
    )
