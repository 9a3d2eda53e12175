"""Story chips (FI:L712-751): the pot of 10 blue, 25 red and 50 white chips each player draws
up to three from at a session's start; a white chip adds a card (a die) before choosing, a
red or blue one adds a card to the result, a blue one even on a critical failure; any chip
makes an unskilled check skilled for an Impetus; chips negate wounds and CT; and a player
may spend chips for a crewmate who holds none."""

from enum import StrEnum
from math import comb
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    Distribution,
    Exact,
    OutcomeProbability,
    Truncation,
    exact,
    outcome_table,
    truncation,
)
from service.rules.future_imperfect.core.checks import (
    BUMPS_ROLLED,
    CHECK,
    DEPTH,
    MAX_CHAIN,
    Checked,
    CheckInput,
    bumps_table,
    checked_of,
    dice_only,
    die_distribution,
    en_of,
    graded,
    kept_results,
    pool_dice,
    roll_dice,
    rolled_cf,
    stops,
)
from service.rules.future_imperfect.core.options import CoreOptions
from service.rules.future_imperfect.core.pools import parse, sides
from service.rules.future_imperfect.progress.tables import chip
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["COLOURS", "Pot", "boost", "help_crewmate", "impetus", "pot", "soak"]

COLOURS = ("white", "red", "blue")
Count = Annotated[int, Field(ge=0, le=1000)]


class Pot(Model):
    """Chips by colour; by default the pot the first session starts with (FI:L714)."""

    white: Count = 50
    red: Count = 25
    blue: Count = 10

    @property
    def total(self) -> int:
        return self.white + self.red + self.blue


def draw_chip(pot: Pot, dice: Dice, why: str) -> tuple[str, Pot]:
    """One chip at random from the pot, and the pot it leaves."""
    face = dice.roll(pot.total, why)
    colour = "white" if face <= pot.white else "red" if face <= pot.white + pot.red else "blue"
    return colour, pot.model_copy(update={colour: getattr(pot, colour) - 1})


class PotInput(Model):
    pot: Pot = Field(default=Pot(), description="The pot, after the returning chips.")
    held: tuple[Annotated[int, Field(ge=0, le=100)], ...] = Field(
        max_length=20, description="The chips each player holds from the last session."
    )
    master_draws: bool = Field(default=True, description="The Master draws one for the extras.")


class Tally(Model):
    white: Count
    red: Count
    blue: Count


class Drawn(Model):
    players: list[list[str]] = Field(description="Each player's new chips: up to three held.")
    master: str | None
    drawn: Tally = Field(description="Every chip drawn this session.")
    pot: Pot = Field(description="What is left in the pot.")


def _draws(request: PotInput) -> int:
    wanted = sum(max(0, 3 - held) for held in request.held) + int(request.master_draws)
    return min(wanted, request.pot.total)


class TallyOdds(Model):
    white: list[OutcomeProbability]
    red: list[OutcomeProbability]
    blue: list[OutcomeProbability]


class PotOdds(Model):
    drawn: TallyOdds


def _hypergeometric(colour: int, total: int, draws: int) -> Distribution[int]:
    """How many of `colour` chips come out in `draws` from `total`."""
    return Distribution(
        {k: comb(colour, k) * comb(total - colour, draws - k) for k in range(draws + 1)},
        total=comb(total, draws),
    )


def pot_odds(request: PotInput) -> PotOdds:
    """How many chips of each colour the session's draws take, exactly."""
    draws, pot = _draws(request), request.pot
    found = {c: outcome_table(_hypergeometric(getattr(pot, c), pot.total, draws)) for c in COLOURS}
    return PotOdds(drawn=TallyOdds(**found))


def pot_cost(request: PotInput) -> Estimate:
    """Each colour's count: at most 61 draws (20 players and the Master)."""
    return Estimate(1_000, ())


@operation(
    name="story-chips/pot",
    kind=Kind.GENERATION,
    covers=("fi.story_chips.pot",),
    odds=pot_odds,
    cost=pot_cost,
    example={"held": [2, 5, 0], "dice": {"seed": 7}},
)
def pot(request: PotInput, dice: Dice) -> Drawn:
    """At the start of each session, after the old chips come back, every player draws at
    random until he holds three: holding two he draws one, holding five none; the Master
    draws one for all the extras and bad guys (FI:L714-716, E-29)."""
    left = request.pot
    players = []
    for index, held in enumerate(request.held):
        chips = []
        for _ in range(max(0, 3 - held)):
            if left.total:
                colour, left = draw_chip(left, dice, f"player {index + 1}'s chip")
                chips.append(colour)
        players.append(chips)
    master = None
    if request.master_draws and left.total:
        master, left = draw_chip(left, dice, "the Master's chip")
    counts = {c: getattr(request.pot, c) - getattr(left, c) for c in COLOURS}
    return Drawn(players=players, master=master, drawn=Tally(**counts), pot=left)


class BlueOnCf(StrEnum):
    CAN_SUCCEED = "can_succeed"
    MITIGATE_ONLY = "mitigate_only"


class ChipTiming(StrEnum):
    AFTER_REVEAL = "after_reveal"
    BEFORE_REVEAL = "before_reveal"


class ChipOptions(CoreOptions):
    """Readings of the chapter for story chips; every default is the catalogue's."""

    blue_on_cf: BlueOnCf = option(
        BlueOnCf.CAN_SUCCEED,
        ambiguity="A-75",
        description="A blue chip on a critical failure adds its die, and a result reaching the "
        "TN succeeds; or it only raises the result, the roll still failed.",
    )
    chip_timing: ChipTiming = option(
        ChipTiming.AFTER_REVEAL,
        ambiguity="A-10",
        description="Chips are spent after the roll is seen, so a white or red one is kept on "
        "a critical failure; or declared before it, and lost.",
    )


class BoostInput(CheckInput):
    white: Annotated[int, Field(ge=0, le=5)] = Field(default=0, description="A die each.")
    red: Annotated[int, Field(ge=0, le=1)] = Field(default=0, description="One a roll at most.")
    blue: Annotated[int, Field(ge=0, le=1)] = 0
    terror: bool = Field(default=False, description="No chips at all in a Terror test.")
    options: ChipOptions = Field(default=ChipOptions())


class Boosted(Model):
    check: Checked = Field(
        description="The pool's dice, then a die a white chip unless they critically failed."
    )
    added: list[tuple[int, ...]] = Field(description="The red and blue chips' dice.")
    en: int
    success: bool
    bumps: int
    spent: Tally


def _request(request: BoostInput) -> CheckInput:
    if request.terror and request.white + request.red + request.blue:
        raise InputError(("terror",), "no Story Chips may be spent on a Terror test (FI:L704)")
    dice_only(request.options, "a boosted check (a chip as a die, A-75)")
    fields = {name: getattr(request, name) for name in CheckInput.model_fields}
    return CheckInput(**fields)


def _own(check: CheckInput) -> CheckInput:
    """The check of the pool's own dice: the stops listed for the chips' dice dropped."""
    row = parse(check.pool).row
    return check.model_copy(update={"max_rerolls": check.max_rerolls[:row]})


def _white_roll(check: CheckInput, white: int, dice: Dice) -> Checked:
    """White chips draw one extra card each before choosing which to keep (FI:L724), but not
    on a critical failure (FI:L730): the critical failure is judged on the pool's own dice,
    and only then does a die a chip join those the kept die is chosen from (A-75)."""
    row = parse(check.pool).row
    plan = stops(check, row + white)
    rolled = roll_dice(check, dice, plan[:row])
    cf = rolled_cf(rolled, check)
    if not cf:
        rolled += roll_dice(check, dice, plan[row:], first=row)
    return checked_of(rolled, cf, check)


def _white_results(check: CheckInput, white: int) -> Distribution[tuple[bool, int]]:
    """Each (critical failure, kept die) of `_white_roll`, exactly: a critical failure of the
    pool's own dice stands, the chips unused; otherwise the kept die is the highest of the pool's
    kept die and the chips' dice, all independent, so the weight of "at most v" is the
    product of theirs."""
    chips = pool_dice(check, white)[parse(check.pool).row :]
    own = kept_results(_own(check))
    rolled = 1
    for die in chips:
        rolled *= die.total
    pairs = [(o, w * rolled) for o, w in own.items() if o[0]]
    kept = {o[1]: w for o, w in own.items() if not o[0]}
    below, chip_below, previous = 0, [0] * len(chips), 0
    for v in sorted({*kept, *(v for die in chips for v, _ in die.items())}):
        below += kept.get(v, 0)
        at_most = below
        for index, die in enumerate(chips):
            chip_below[index] += die.weight(v)
            at_most *= chip_below[index]
        pairs.append(((False, v), at_most - previous))
        previous = at_most
    return Distribution(pairs, total=own.total * rolled)


def _adders(request: BoostInput, cf: bool) -> int:
    """How many chip dice add to the result: none of red on a critical failure (FI:L730)."""
    if cf:
        return request.blue
    return request.red + request.blue


def _en(kept: int, added: int, check: CheckInput) -> int:
    """A red or blue chip's card is added to the kept die, before the modifiers, and the
    result is floored at 0 after them ("add it to your result", FI:L726; catalogue 1.2: the
    chips' hooks come between keeping the die and adding the modifiers, A-09's floor last)."""
    return en_of(kept + added, check, False)


def _graded(request: BoostInput, cf: bool, en: int) -> tuple[bool, int]:
    """A critical failure fails, unless a blue chip lifts it over the TN (A-75)."""
    rescued = request.blue and request.options.blue_on_cf is BlueOnCf.CAN_SUCCEED
    return graded(en, cf and not rescued, request)


class BoostOdds(Model):
    success: Exact
    bumps: list[OutcomeProbability] = Field(description="Of a success; 'failure' otherwise.")
    truncation: Truncation | None


def boost_odds(request: BoostInput) -> BoostOdds:
    """P(success) and the bumps with the chips spent, exactly (catalogue T17)."""
    check = _request(request)
    top = sides(parse(check.pool), ("pool",), check.options)
    die = die_distribution(top, True)
    base = _white_results(check, request.white)

    added = [Distribution({0: 1})]
    for _ in range(request.red + request.blue):
        added.append(added[-1] + die)
    found = base.then(lambda o: added[_adders(request, o[0])].map(
        lambda extra: _graded(request, o[0], _en(o[1], extra, check))))  # fmt: skip
    bumps = found.map(lambda o: str(o[1]) if o[0] else "failure")
    return BoostOdds(success=exact(found.probability_where(lambda o: o[0])),
                     bumps=bumps_table(bumps),
                     truncation=truncation(found, DEPTH))  # fmt: skip


def boost_cost(request: BoostInput) -> Estimate:
    """The pool's results (`core/check`, up to 10 dice), each followed by up to two chip
    dice summed (a few hundred values each)."""
    return Estimate(CHECK.states + 300_000, ())


@operation(
    name="story-chips/boost",
    rolled=BUMPS_ROLLED,
    kind=Kind.CHECK,
    covers=("fi.story_chips.boost",),
    odds=boost_odds,
    cost=boost_cost,
    example={"pool": "III-2", "tn": 7, "red": 1, "dice": {"values": [5, 3, 4]}},
)
def boost(request: BoostInput, dice: Dice) -> Boosted:
    """A white chip draws one extra card before choosing which to keep: a die more to choose
    from, the critical failure judged on the pool's own dice (A-75). A red chip draws a card
    and adds it to the result, one a roll; a blue one the same, even on a critical failure;
    neither white nor red on a critical failure (FI:L724-730): in dice, one open-ended die of
    the pool's column added to the result."""
    check = _request(request)
    checked = _white_roll(check, request.white, dice)
    top = sides(parse(check.pool), ("pool",), check.options)
    cf = checked.critical_failure
    rolled = []
    for index in range(_adders(request, cf)):
        faces = [dice.roll(top, f"chip die {index + 1}")]
        while faces[-1] == top and len(faces) <= MAX_CHAIN:
            faces.append(dice.roll(top, f"chip die {index + 1} again"))
        rolled.append(tuple(faces))
    en = _en(checked.kept, sum(sum(f) for f in rolled), check)
    success, bumps = _graded(request, cf, en)
    kept = request.options.chip_timing is ChipTiming.AFTER_REVEAL and cf
    spent = Tally(white=0 if kept else request.white, red=0 if kept else request.red,
                  blue=request.blue)  # fmt: skip
    return Boosted(check=checked, added=rolled, en=en, success=success, bumps=bumps, spent=spent)


class Colour(StrEnum):
    WHITE = "white"
    RED = "red"
    BLUE = "blue"


class Target(StrEnum):
    WOUNDS = "wounds"
    CT = "ct"


class ImpetusInput(Model):
    chips: Tally = Field(description="The chips the character holds.")
    colour: Colour = Field(description="The chip spent.")
    invoking_impetus: bool


class Impetus(Model):
    skilled: bool = Field(description="The unskilled check is made as a skilled one.")
    chips: Tally


@operation(
    name="story-chips/impetus",
    kind=Kind.CALCULATION,
    covers=("fi.story_chips.impetus",),
    example={"chips": {"white": 1, "red": 0, "blue": 1}, "colour": "white",
             "invoking_impetus": True},
)  # fmt: skip
def impetus(request: ImpetusInput) -> Impetus:
    """Any Story Chip may be spent to make an unskilled check a skilled check, provided the
    character is invoking an Impetus (FI:L732)."""
    if not request.invoking_impetus:
        raise InputError(("invoking_impetus",), "only while invoking an Impetus (FI:L732)")
    if getattr(request.chips, request.colour) < 1:
        raise InputError(("colour",), f"no {request.colour} chip is held")
    left = request.chips.model_copy(
        update={request.colour: getattr(request.chips, request.colour) - 1}
    )
    return Impetus(skilled=True, chips=left)


class SoakCt(StrEnum):
    ORIGINAL_LEVELS = "original_levels"
    REMAINING_LEVELS = "remaining_levels"


class SoakOptions(Model):
    """Readings of the chapter for soaking; every default is the catalogue's."""

    soak_ct_basis: SoakCt = option(
        SoakCt.ORIGINAL_LEVELS,
        ambiguity="A-76",
        description="Wounds negated 'do not stop the CT' (FI:L738): the CT is rolled for the "
        "attack's wound levels before negation, or for those left.",
    )


class Spend(Model):
    colour: Colour
    on: Target = Field(description="Negate wound levels, or CT.")


class SoakInput(Model):
    wounds: Annotated[int, Field(ge=0, le=100)] = Field(description="Levels of one attack.")
    ct: Annotated[int, Field(ge=0, le=10_000)] = Field(
        default=0, description="CT to negate from bleeding, drowning, brawling or the like."
    )
    chips: tuple[Spend, ...] = Field(max_length=20)
    options: SoakOptions = Field(default=SoakOptions())


class Soaked(Model):
    wounds: int = Field(description="Levels left of the attack.")
    ct_dice_levels: int = Field(description="Wound levels the attack's CT is rolled for.")
    ct_roll_negated: bool = Field(description="A red or blue chip short of its full value.")
    ct: int = Field(description="CT left of the rest.")


@operation(
    name="story-chips/soak",
    kind=Kind.CALCULATION,
    covers=("fi.story_chips.soak",),
    example={"wounds": 1, "chips": [{"colour": "red", "on": "wounds"}]},
)
def soak(request: SoakInput) -> Soaked:
    """Chips negate the damage of one attack: white up to 1 wound, red 2, blue 3, before the
    CT is rolled, which they do not stop; against CT from bleeding, drowning or brawling, 5,
    10 or 15 a chip. A red or blue chip that negates less than its full value also negates
    the CT roll (FI:L736-745, A-76)."""
    wounds, ct, negated = request.wounds, request.ct, False
    for spend in request.chips:
        row = chip(spend.colour.value)
        levels, points = row.wounds, row.ct
        if spend.on is Target.CT:
            ct = max(ct - points, 0)
            continue
        used = min(levels, wounds)
        wounds -= used
        negated = negated or (spend.colour is not Colour.WHITE and used < levels)
    basis = request.options.soak_ct_basis is SoakCt.ORIGINAL_LEVELS
    levels = 0 if negated else request.wounds if basis else wounds
    return Soaked(wounds=wounds, ct_dice_levels=levels, ct_roll_negated=negated, ct=ct)


class Purpose(StrEnum):
    ROLL = "roll"
    DAMAGE = "damage"


class HelpInput(Model):
    purpose: Purpose = Field(description="What the chip is spent on.")
    beneficiary_chips: Annotated[int, Field(ge=0, le=1000)]


class Helped(Model):
    allowed: bool
    reason: str | None


@operation(
    name="story-chips/help",
    kind=Kind.CALCULATION,
    covers=("fi.story_chips.help",),
    example={"purpose": "damage", "beneficiary_chips": 0},
)
def help_crewmate(request: HelpInput) -> Helped:
    """A player can spend Story Chips helping other members of the crew, but not to reduce
    the damage of a player who holds any chips of his own (FI:L751)."""
    if request.purpose is Purpose.DAMAGE and request.beneficiary_chips:
        return Helped(allowed=False, reason="he holds chips of his own (FI:L751)")
    return Helped(allowed=True, reason=None)
