"""Powers of the mind (C:L746-748, C:L796-798, C:L804-806, C:L864-892): Nullification,
Reflection and Shapeshift, each a Master Table roll on the power read on its own outcomes;
Telekinesis, a lift limit and a ranged attack; Telepathy, reading minds and the d% + Rank
Value contest that blocks it (catalogue 3.6, 5.6)."""

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.combat.tables import RANGED, results
from service.rules.four_c.core.master_table import colour_distribution
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.core.tables import Colour
from service.rules.four_c.powers.core import (
    LIFT,
    OPPOSED_COST,
    LiftRow,
    Opposed,
    OpposedOdds,
    Outcome,
    PowerCheck,
    PowerCheckOdds,
    PowerOptions,
    PowerRoll,
    banded,
    greater_of,
    half,
    opposed_odds,
    power_cost,
    power_master,
    power_odds,
    roll_opposed,
    roll_power,
    tenth,
)
from service.rules.four_c.powers.travel import Distance, within
from service.rules.model import Model, option
from service.rules.registry import Kind, operation

__all__ = [
    "NULLIFICATION",
    "REFLECTION",
    "SHAPESHIFT",
    "PsycheOptions",
    "TelekinesisAttack",
    "lift_of",
    "nullification",
    "reflection",
    "shapeshift",
    "telekinesis",
    "telepathy",
]


class TelekinesisAttack(StrEnum):
    WILLPOWER = "willpower"
    GREATER_OF = "greater_of"


class PsycheOptions(PowerOptions):
    """The powers' readings, and those of the mind's; every default is the catalogue's."""

    telekinesis_attack: TelekinesisAttack = option(
        TelekinesisAttack.WILLPOWER,
        ambiguity="A-52",
        description="A telekinetic attack rolls the character's Willpower in place of "
        "Coordination, as the text says (C:L884), or the greater of the power's Rank Value "
        "and Willpower +10, as the power's other uses do (C:L866).",
    )


# Nullification (C:L748)

NULLIFICATION: Mapping[Colour, Outcome] = {
    Colour.BLACK: Outcome(
        result="failed",
        text="The attempt fails and the user suffers damage of one-half the target power's "
        "Rank Value, rounded up.",
        success=False,
    ),
    Colour.RED: Outcome(
        result="halved",
        text="The target power works at half its effectiveness (rounded up) this turn.",
        success=True,
    ),
    Colour.BLUE: Outcome(
        result="negated", text="The target power is negated this turn.", success=True
    ),
    Colour.YELLOW: Outcome(
        result="negated", text="The target power is negated this turn.", success=True
    ),
}


class NullificationInput(PowerRoll):
    rv: RankValue = Field(description="Nullification's Rank Value.")
    target_power_rv: RankValue = Field(description="The Rank Value of the power nullified.")
    distance_sectors: Distance = Field(
        default=0, description="Sectors to the target power's owner: at most a tenth of the "
        "Rank Value, rounded up (C:L748).",
    )  # fmt: skip


class Nullification(PowerCheck):
    range_sectors: int = Field(description="One-tenth of the Rank Value, rounded up.")
    backlash_damage: int = Field(
        description="Damage the user suffers on black: half the target power's Rank Value, "
        "rounded up; armor does not stop it (catalogue 3.6)."
    )
    target_power_rv_now: int = Field(
        description="The target power's Rank Value this turn: unchanged on black, halved "
        "(rounded up) on red, 0 (negated) on blue or yellow."
    )


def _nullified(request: NullificationInput, result: str) -> tuple[int, int]:
    """(backlash damage, the target power's Rank Value this turn) for a result."""
    target = request.target_power_rv
    return {
        "failed": (half(target), target),
        "halved": (0, half(target)),
        "negated": (0, 0),
    }[result]


class NullificationOdds(PowerCheckOdds):
    backlash_damage: list[OutcomeProbability]
    target_power_rv_now: list[OutcomeProbability]


def nullification_odds(request: NullificationInput) -> NullificationOdds:
    within(request.distance_sectors, tenth(request.rv), "distance_sectors")
    found = power_odds(request, request.rv, NULLIFICATION)
    colours = _colours(request, request.rv)
    effects = colours.map(lambda c: _nullified(request, NULLIFICATION[c].result))
    return NullificationOdds(
        **dict(found),
        backlash_damage=outcome_table(effects.map(lambda e: e[0])),
        target_power_rv_now=outcome_table(effects.map(lambda e: e[1])),
    )


@operation(
    name="power/nullification",
    kind=Kind.CHECK,
    covers=("4c.power.nullification",),
    odds=nullification_odds,
    cost=power_cost,
    example={"rv": 30, "target_power_rv": 45, "distance_sectors": 2, "dice": {"values": [1, 2]}},
)
def nullification(request: NullificationInput, dice: Dice) -> Nullification:
    """Negate a power within a tenth of the Rank Value in sectors: roll the power; black fails
    and the user takes half the target power's Rank Value (rounded up), red halves the
    target power, any other colour negates it this turn (C:L746-748). Against a power of 45
    a black costs 23 Damage points (catalogue T11)."""
    within(request.distance_sectors, tenth(request.rv), "distance_sectors")
    check = roll_power(request, request.rv, NULLIFICATION, dice)
    backlash, target = _nullified(request, check.result)
    return Nullification(**dict(check), range_sectors=tenth(request.rv),
                         backlash_damage=backlash, target_power_rv_now=target)  # fmt: skip


# Reflection (C:L798)

REFLECTION: Mapping[Colour, Outcome] = {
    Colour.BLACK: Outcome(
        result="failed",
        text="The reflection fails: the character suffers the power's normal effects.",
        success=False,
    ),
    Colour.RED: Outcome(
        result="both",
        text="Both the character and the power's originator suffer its normal effects.",
        success=True,
    ),
    Colour.BLUE: Outcome(
        result="reflected",
        text="Reflected: only the originator suffers the power's full effect.",
        success=True,
    ),
    Colour.YELLOW: Outcome(
        result="reflected",
        text="Reflected: only the originator suffers the power's full effect.",
        success=True,
    ),
}


class ReflectionInput(PowerRoll):
    rv: RankValue = Field(description="Reflection's Rank Value.")


def reflection_odds(request: ReflectionInput) -> PowerCheckOdds:
    return power_odds(request, request.rv, REFLECTION)


@operation(
    name="power/reflection",
    kind=Kind.CHECK,
    covers=("4c.power.reflection",),
    odds=reflection_odds,
    cost=power_cost,
    example={"rv": 40, "dice": {"values": [6, 5]}},
)
def reflection(request: ReflectionInput, dice: Dice) -> PowerCheck:
    """Turn another character's power back on its originator: roll the power; black fails
    and the character suffers it, red affects both, blue or yellow reflects it whole
    (C:L796-798)."""
    return roll_power(request, request.rv, REFLECTION, dice)


# Shapeshift (C:L806)

SHAPESHIFT: Mapping[Colour, Outcome] = {
    Colour.BLACK: Outcome(
        result="identified", text="The copy fails: easily identified.", success=False
    ),
    **{
        c: Outcome(result="convincing", text="The impersonation holds.", success=True)
        for c in (Colour.RED, Colour.BLUE, Colour.YELLOW)
    },
}


class ShapeshiftInput(PowerRoll):
    rv: RankValue = Field(description="Shapeshift's Rank Value.")
    impersonating: bool = Field(
        default=False,
        description="Copying a specific thing (another character): only this needs a roll.",
    )


class Shapeshift(Model):
    changed: bool = Field(description="Any shape, at the character's own size: automatic.")
    check: PowerCheck | None = Field(description="The impersonation roll, when one is made.")
    identified: bool


class ShapeshiftOdds(Model):
    identified: list[OutcomeProbability]
    check: PowerCheckOdds | None = Field(description="The impersonation roll, when one is made.")


def shapeshift_odds(request: ShapeshiftInput) -> ShapeshiftOdds:
    if not request.impersonating:
        return ShapeshiftOdds(identified=outcome_table(Distribution({False: 1})), check=None)
    found = _colours(request, request.rv).map(lambda c: not SHAPESHIFT[c].success)
    return ShapeshiftOdds(identified=outcome_table(found, [True, False]),
                          check=power_odds(request, request.rv, SHAPESHIFT))  # fmt: skip


@operation(
    name="power/shapeshift",
    kind=Kind.CHECK,
    covers=("4c.power.shapeshift",),
    odds=shapeshift_odds,
    cost=power_cost,
    example={"rv": 20, "impersonating": True, "dice": {"values": [3, 3]}},
)
def shapeshift(request: ShapeshiftInput, dice: Dice) -> Shapeshift:
    """Take any shape at the character's own size (unless Growth or Shrinking says
    otherwise), automatically; impersonating a specific thing rolls the power, and black is
    easily identified (C:L804-806)."""
    if not request.impersonating:
        return Shapeshift(changed=True, check=None, identified=False)
    check = roll_power(request, request.rv, SHAPESHIFT, dice)
    return Shapeshift(changed=True, check=check, identified=not check.success)


# Telekinesis (C:L864-884)


def lift_of(rv: int) -> LiftRow | None:
    """The most a Rank Value lifts (C:L866-882); none at 0 (catalogue 3.0)."""
    return banded(rv, LIFT)


def _ranged(nail_declared: bool) -> dict[Colour, Outcome]:
    """The ranged attack table (C:L1068-1079): blue nails only a called shot (catalogue
    3.8.5)."""
    rows = results(RANGED)
    picked = {c: rows[Colour.RED if c is Colour.BLUE and not nail_declared else c] for c in Colour}
    return {c: Outcome(result=r.result, text=r.text, success=c is not Colour.BLACK)
            for c, r in picked.items()}  # fmt: skip


class TelekinesisInput(PowerRoll):
    rv: RankValue = Field(description="Telekinesis' Rank Value.")
    willpower: RankValue
    attack: bool = Field(default=False, description="Make a ranged attack now.")
    nail_declared: bool = Field(default=False, description="A called shot (C:L1282).")
    distance_sectors: Distance = Field(
        default=0, description="Sectors to the target: at most the power's range."
    )
    options: PsycheOptions = Field(default=PsycheOptions())


class Telekinesis(Model):
    lift_rv: int = Field(description="The greater of the power and Willpower +10.")
    lift: LiftRow | None = Field(description="The most it lifts; none at Rank Value 0.")
    attack_rv: int = Field(description="The Rank Value an attack rolls (A-52).")
    damage: int = Field(description="A successful attack's damage: the power's Rank Value.")
    range_sectors: int = Field(description="One-tenth of the Rank Value, rounded up (A-72).")
    attack: PowerCheck | None = Field(description="The attack roll, when one is made.")


def _attack_rv(request: TelekinesisInput) -> int:
    if request.options.telekinesis_attack is TelekinesisAttack.GREATER_OF:
        return greater_of(request.rv, request.willpower)
    return request.willpower


class TelekinesisOdds(Model):
    attack: PowerCheckOdds | None = Field(description="The attack roll, when one is made.")


def telekinesis_odds(request: TelekinesisInput) -> TelekinesisOdds:
    if not request.attack:
        return TelekinesisOdds(attack=None)
    within(request.distance_sectors, tenth(request.rv), "distance_sectors")
    return TelekinesisOdds(
        attack=power_odds(request, _attack_rv(request), _ranged(request.nail_declared))
    )


@operation(
    name="power/telekinesis",
    kind=Kind.CHECK,
    covers=("4c.power.telekinesis",),
    odds=telekinesis_odds,
    cost=power_cost,
    example={"rv": 40, "willpower": 20, "attack": True, "distance_sectors": 3,
             "dice": {"values": [5, 10]}},
)  # fmt: skip
def telekinesis(request: TelekinesisInput, dice: Dice) -> Telekinesis:
    """Move objects with the mind: lift up to the lift table's weight for the greater of the
    power and Willpower +10 (C:L866-882); throw an object or raw force as a ranged attack
    with Willpower in place of Coordination, dealing the power's Rank Value (C:L884) within a
    tenth of it in sectors (A-72)."""
    attack = None
    if request.attack:
        within(request.distance_sectors, tenth(request.rv), "distance_sectors")
        attack = roll_power(request, _attack_rv(request), _ranged(request.nail_declared), dice)
    lift_rv = greater_of(request.rv, request.willpower)
    return Telekinesis(lift_rv=lift_rv, lift=lift_of(lift_rv), attack_rv=_attack_rv(request),
                       damage=request.rv, range_sectors=tenth(request.rv),
                       attack=attack)  # fmt: skip


# Telepathy (C:L886-892)


class TelepathyInput(Model):
    rv: RankValue = Field(description="The telepath's Telepathy Rank Value.")
    willpower: RankValue = Field(description="The telepath's Willpower.")
    target_willpower: RankValue
    target_telepathy_rv: RankValue | None = Field(
        default=None,
        description="The target's own Telepathy, with which it may block the attempt.",
    )
    block: bool = Field(
        default=True, description="A telepathic target, aware of the attempt, blocks it."
    )
    options: PowerOptions = Field(default=PowerOptions())


class Telepathy(Model):
    telepathy_rv: int = Field(description="The greater of the power and Willpower +10.")
    readable: bool = Field(description="The target's Willpower is below it.")
    blocker_rv: int | None = Field(
        description="A telepathic target's: the greater of its Telepathy and Willpower +10."
    )
    block: Opposed | None = Field(
        description="The block: the telepath is the active side, the target the reacting one."
    )
    blocked: bool
    read: bool = Field(description="The target's mind is read.")


class TelepathyOdds(Model):
    read: list[OutcomeProbability]
    blocked: list[OutcomeProbability]
    block: OpposedOdds | None = Field(description="The block contest, when there is one.")


def _readable(request: TelepathyInput) -> tuple[int, bool]:
    telepathy = greater_of(request.rv, request.willpower)
    return telepathy, request.target_willpower < telepathy


def _blocker(request: TelepathyInput) -> int | None:
    if request.target_telepathy_rv is None:
        return None
    return greater_of(request.target_telepathy_rv, request.target_willpower)


def _contested(request: TelepathyInput) -> bool:
    return _readable(request)[1] and request.block and request.target_telepathy_rv is not None


def telepathy_odds(request: TelepathyInput) -> TelepathyOdds:
    """Catalogue 5.6 for the block: the blocker wins with P(reacting side higher), ties as
    opposed_tie says (A-31)."""
    telepathy, readable = _readable(request)
    blocker = _blocker(request)
    if not _contested(request) or blocker is None:
        return TelepathyOdds(
            read=outcome_table(Distribution({readable: 1})),
            blocked=outcome_table(Distribution({False: 1})),
            block=None,
        )
    block = opposed_odds(telepathy, blocker, request.options.opposed_tie)
    blocked = _from_rows(block.winner, {"reactive": True, "active": False})
    return TelepathyOdds(read=outcome_table(blocked.map(lambda b: not b), [True, False]),
                         blocked=outcome_table(blocked, [True, False]), block=block)  # fmt: skip


def _from_rows(rows: list[OutcomeProbability], names: Mapping[str, bool]) -> Distribution[bool]:
    """Exact odds rows as a distribution, over the least common denominator."""
    return Distribution.of_probabilities({names[row.outcome]: Fraction(row.exact) for row in rows})


def telepathy_cost(request: object) -> Estimate:
    """Two d% rolls, every pair, and the tables (`OPPOSED_COST`): the same for every
    request."""
    return Estimate(OPPOSED_COST, ())


@operation(
    name="power/telepathy",
    kind=Kind.CHECK,
    covers=("4c.power.telepathy",),
    odds=telepathy_odds,
    cost=telepathy_cost,
    example={"rv": 30, "willpower": 20, "target_willpower": 25, "target_telepathy_rv": 20,
             "dice": {"values": [6, 1, 4, 8]}},
)  # fmt: skip
def telepathy(request: TelepathyInput, dice: Dice) -> Telepathy:
    """Read the mind of a character whose Willpower is below the greater of the power and
    the telepath's Willpower +10 (C:L888-890). A telepathic target knows of the attempt and
    may block it: each rolls d% and adds their own such Rank Value, and the blocker must
    roll higher (C:L892; ties by opposed_tie, A-31)."""
    telepathy_rv, readable = _readable(request)
    blocker = _blocker(request)
    block = None
    if _contested(request) and blocker is not None:
        block = roll_opposed(dice, telepathy_rv, blocker, request.options.opposed_tie,
                             ("telepath", "blocker"))  # fmt: skip
    blocked = block is not None and block.winner == "reactive"
    return Telepathy(telepathy_rv=telepathy_rv, readable=readable, blocker_rv=blocker,
                     block=block, blocked=blocked, read=readable and not blocked)  # fmt: skip


def _colours(request: PowerRoll, rv: int) -> Distribution[Colour]:
    return colour_distribution(power_master(request, rv))
