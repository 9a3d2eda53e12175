"""Situations the skill and field descriptions rule on (catalogue 3.I, 3.B.5): what a Charisma
or Confidence QR makes people think, engagement ranges by terrain, intoxication, the unarmed
combat fields, Dexterity in place of Generic Tools of Trade, and spin gravity."""

from collections.abc import Iterable
from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.distribution import OutcomeProbability, outcome_table
from service.rules.foresight.resolution.chance import Setup
from service.rules.foresight.resolution.contests import block
from service.rules.foresight.resolution.familiarity import band_of
from service.rules.foresight.resolution.odds import contest_cost
from service.rules.foresight.resolution.options import BlockingOptions, FamiliarityOptions
from service.rules.foresight.resolution.tables import QR, GravityBand
from service.rules.foresight.resolution.task import (
    Resolution,
    Side,
    roll,
    side_distribution,
    side_setup,
)
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation
from service.rules.tables import table

__all__ = [
    "charisma_reaction",
    "confidence_reaction",
    "engagement_ranges",
    "intoxication",
    "pickpocket",
    "spin_gravity",
    "tools_substitute",
    "unarmed_field",
]  # fmt: skip


class ReactionRow(Model):
    qr: int
    reaction: str


class RangeRow(Model):
    terrain: str
    contact: int
    observation: int


class UnarmedRow(Model):
    field: str
    effect: str


CHARISMA = table(__name__, "charisma_reactions", ReactionRow)
CONFIDENCE = table(__name__, "confidence_reactions", ReactionRow)
RANGES = table(__name__, "engagement_ranges", RangeRow)
UNARMED = table(__name__, "unarmed_fields", UnarmedRow)

Qr = Annotated[int, Field(ge=1, le=10, description="The roll's QR: 1-4, 7 or 10.")]


class ReactionInput(Model):
    qr: Qr


class Reaction(Model):
    qr: int
    reaction: str


def _read(rows: Iterable[ReactionRow], qr: int) -> Reaction:
    found = next((r for r in rows if r.qr == qr), None)
    if found is None:
        raise InputError(("qr",), "a QR is 1, 2, 3, 4, 7 or 10")
    return Reaction(qr=found.qr, reaction=found.reaction)


@operation(
    name="reaction/charisma",
    kind=Kind.LOOKUP,
    covers=("foresight.reaction.charisma",),
    example={"qr": 2},
)
def charisma_reaction(request: ReactionInput) -> Reaction:
    """The impression a Charisma roll makes, QR1 'they really like you' to QR10 'they really
    don't like you' (F:L1717-1725); the NPC's demeanor modifies the roll (F:L1715)."""
    return _read(CHARISMA, request.qr)


@operation(
    name="reaction/confidence",
    kind=Kind.LOOKUP,
    covers=("foresight.reaction.confidence",),
    example={"qr": 4},
)
def confidence_reaction(request: ReactionInput) -> Reaction:
    """How a lie told one-on-one lands, QR1 utterly convincing to QR10 'they don't believe the
    lie or you'; Empathy may block it (F:L1727-1742)."""
    return _read(CONFIDENCE, request.qr)


class IntoxicationInput(Model):
    level: Annotated[int, Field(ge=0, le=20)] = Field(description="0 sober, 1 mildly drunk ...")


class Intoxication(Model):
    pain_resistance: int
    all_activity: int = Field(description="To everything but Pain Resistance.")
    concentration: int = Field(description="To tasks needing concentration, on top of the rest.")


@operation(
    name="intoxication",
    kind=Kind.CALCULATION,
    covers=("foresight.intoxication",),
    example={"level": 3},
)
def intoxication(request: IntoxicationInput) -> Intoxication:
    """Mildly drunk: +1 Pain Resistance and -1 to tasks needing concentration; each level more,
    a further +1 Pain Resistance, -1 to all activity but Pain Resistance and -1 more to
    concentration (F:L2404): level 3 is +3, -2 to everything and -3 more on concentration."""
    level = request.level
    return Intoxication(pain_resistance=level, all_activity=-max(level - 1, 0),
                        concentration=-level)  # fmt: skip


class FieldInput(Model):
    field: Annotated[str, Field(min_length=1, max_length=60)]


@operation(
    name="unarmed-fields",
    kind=Kind.LOOKUP,
    covers=("foresight.unarmed_fields",),
    example={"field": "Unarmed Combat Lethal"},
)
def unarmed_field(request: FieldInput) -> UnarmedRow:
    """What each unarmed combat field allows; Hand-to-Hand Combat is still needed to use it
    (F:L978, F:L2386-2412)."""
    found = next((r for r in UNARMED if r.field.casefold() == request.field.casefold()), None)
    if found is None:
        raise InputError(("field",), ", ".join(r.field for r in UNARMED))
    return found


class TerrainInput(Model):
    terrain: Annotated[str, Field(min_length=1, max_length=60)]


@operation(
    name="engagement-ranges",
    kind=Kind.LOOKUP,
    covers=("foresight.engagement_ranges",),
    example={"terrain": "Light Forest, Mountains"},
)
def engagement_ranges(request: TerrainInput) -> RangeRow:
    """Contact and observation ranges by terrain: flat open 100 m and 2 km down to jungle and
    caves 5 m and 50 m (F:L1912-1919)."""
    found = next((r for r in RANGES if r.terrain.casefold() == request.terrain.casefold()), None)
    if found is None:
        raise InputError(("terrain",), ", ".join(r.terrain for r in RANGES))
    return found


class SubstituteInput(Model):
    has_tools_skill: bool = Field(description="The character has the right Tools of Trade.")
    penalty: Annotated[int, Field(ge=-10, le=0)] = Field(
        default=-3, description="The GM's modifier for Dexterity alone: typically -3."
    )


class Substitute(Model):
    ability: str
    bef: int | None = Field(description="Generic Tools of Trade's 6 (F:L795).")
    modifier: int


@operation(
    name="tools-of-trade-substitute",
    kind=Kind.LOOKUP,
    covers=("foresight.tools_of_trade_substitute",),
    example={"has_tools_skill": False},
)
def tools_substitute(request: SubstituteInput) -> Substitute:
    """Repair and assembly needing finesse use the right Generic Tools of Trade (BEF 6) in
    place of Dexterity; Dexterity alone will do at a negative modifier, typically -3
    (F:L2033-2039)."""
    if request.has_tools_skill:
        return Substitute(ability="Generic Tools of Trade", bef=6, modifier=0)
    return Substitute(ability="DX", bef=None, modifier=request.penalty)


class SpinInput(Model):
    gravity: Annotated[float, Field(ge=0, le=1000)] = Field(description="The spin gravity, in g.")
    most_activity: Annotated[int, Field(ge=-10, le=0)] = Field(
        default=-1, description="The GM's non-familiarity modifier to most activity."
    )
    throwing_and_gymnastics: Annotated[int, Field(ge=-10, le=0)] = Field(
        default=-2, description="And to throwing accurately or gymnastics."
    )
    options: FamiliarityOptions = Field(default=FamiliarityOptions())


class Spin(Model):
    band: GravityBand
    most_activity: int
    throwing_and_gymnastics: int


@operation(
    name="spin-gravity",
    kind=Kind.LOOKUP,
    covers=("foresight.spin_gravity",),
    example={"gravity": 0.2},
)
def spin_gravity(request: SpinInput) -> Spin:
    """Spin gravity is the gravity band of its strength with a non-familiarity modifier on top:
    a slowly rotating station of 0.2 g is LT, -1 to most activity and -2 to throwing
    accurately or gymnastics (F:L2112-2114)."""
    band = band_of(Fraction(repr(request.gravity)), request.options.gravity_band_edges)
    return Spin(band=band, most_activity=request.most_activity,
                throwing_and_gymnastics=request.throwing_and_gymnastics)  # fmt: skip


class Noticed(StrEnum):
    NOT_NOTICED = "not_noticed"
    AS_IT_HAPPENS = "as_it_happens"
    JUST_BEFORE = "just_before"
    SUSPICION = "suspicion"


#: What the victim notices by the effective QR of the theft (F:L1832-1838).
NOTICED = {QR.QR1: Noticed.NOT_NOTICED, QR.QR2: Noticed.NOT_NOTICED,
           QR.QR3: Noticed.NOT_NOTICED, QR.QR4: Noticed.AS_IT_HAPPENS,
           QR.QR7: Noticed.JUST_BEFORE, QR.QR10: Noticed.SUSPICION}  # fmt: skip


class PickpocketInput(Model):
    thief: Side = Field(description="The Pickpocket (or Sleight of Hand) task, or its QR.")
    victim: Side = Field(
        description="The victim's Perception (PC), which blocks it passively (F:L1834); a task "
        "with no BEF takes the option attribute_bef."
    )
    options: BlockingOptions = Field(default=BlockingOptions())


class Pickpocketed(Model):
    thief: Resolution | None
    victim: Resolution | None
    effective_qr: QR
    noticed: Noticed
    stolen: bool = Field(description="Noticed as it happens, the thing is gone (F:L1838).")


def _pickpocket_sides(request: PickpocketInput) -> tuple[Setup | None, Setup | None]:
    options = request.options
    return (side_setup(request.thief, options, "thief"),
            side_setup(request.victim, options, "victim", attribute=True))  # fmt: skip


class PickpocketOdds(Model):
    noticed: list[OutcomeProbability]
    stolen: list[OutcomeProbability]


def pickpocket_odds(request: PickpocketInput) -> PickpocketOdds:
    """What the victim notices and whether the theft succeeds, exactly."""
    thief_task, victim_task = _pickpocket_sides(request)
    thief = side_distribution(request.thief, thief_task)
    victim = side_distribution(request.victim, victim_task)
    mode = request.options.blocking_mode
    found = thief.then(lambda a: victim.map(lambda d: NOTICED[block(a, d, mode)]))
    stolen = found.map(lambda n: n in (Noticed.NOT_NOTICED, Noticed.AS_IT_HAPPENS))
    return PickpocketOdds(noticed=outcome_table(found.map(lambda n: n.value)),
                          stolen=outcome_table(stolen))  # fmt: skip


@operation(
    name="pickpocket",
    kind=Kind.CHECK,
    covers=("foresight.pickpocket",),
    odds=pickpocket_odds,
    cost=contest_cost,
    example={
        "thief": {"task": {"score": 12, "bef": 5}},
        "victim": {"task": {"score": 10, "bef": 7}},
        "dice": {"seed": 3},
    },
)
def pickpocket(request: PickpocketInput, dice: Dice) -> Pickpocketed:
    """The thief's Pickpocket roll is blocked by the victim's Perception: at QR3 or better he
    is not noticed; at QR4 he is noticed just as it happens; a failure is noticed just
    before, a botch arouses suspicion before he is in reach (F:L1832-1838). The urchin's QR3
    against Amy's QR4 is QR4: she notices the brush a moment too late."""
    thief_task, victim_task = _pickpocket_sides(request)
    thief = None if thief_task is None else roll(thief_task, dice, "D100 (Pickpocket)")
    victim = None if victim_task is None else roll(victim_task, dice, "D100 (PC)")
    qa = thief.qr if thief else request.thief.qr
    qd = victim.qr if victim else request.victim.qr
    assert qa is not None
    assert qd is not None
    effective = block(qa, qd, request.options.blocking_mode)
    noticed = NOTICED[effective]
    return Pickpocketed(thief=thief, victim=victim, effective_qr=effective, noticed=noticed,
                        stolen=noticed in (Noticed.NOT_NOTICED, Noticed.AS_IT_HAPPENS))  # fmt: skip
