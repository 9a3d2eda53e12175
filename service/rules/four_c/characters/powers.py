"""A 4C character's powers: how many (C:L341-356), which, from the basic or advanced table
(C:L358-448), what a repeat does (C:L390, C:L450) and each power's Rank Value (C:L454-468)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, OutcomeProbability, outcome_table
from service.rules.four_c.characters.options import DuplicateNonrankPolicy, DuplicateOptions
from service.rules.four_c.characters.origins import HeldPower, power_slots_after, table_cost
from service.rules.four_c.characters.percent import on_table, roll_on
from service.rules.four_c.characters.tables import (
    ADVANCED_POWERS,
    BASIC_POWERS,
    POWER_COUNTS,
    TRAIT_RANKS,
    Origin,
    PowerName,
    PowerRow,
)
from service.rules.four_c.characters.traits import rank_roll
from service.rules.model import InputError, Model
from service.rules.registry import Kind, Table, operation

__all__ = [
    "EE_PAIR",
    "NONRANK",
    "TABLES",
    "DuplicateChoice",
    "PowerTable",
    "held_distribution",
    "matched_element_bonus",
    "must_reroll",
    "settle",
    "tracked_distribution",
]

#: Rerolls of repeats one request may make (each a d%), so a run of repeats always ends.
MAX_REROLLS = 20
Held = Annotated[tuple[PowerName, ...], Field(max_length=12)]


class PowerTable(StrEnum):
    BASIC = "basic"
    ADVANCED = "advanced"


class DuplicateChoice(StrEnum):
    RAISE = "raise"
    REROLL = "reroll"


TABLES: dict[PowerTable, Table[PowerRow]] = {
    PowerTable.BASIC: BASIC_POWERS,
    PowerTable.ADVANCED: ADVANCED_POWERS,
}
#: Powers whose Rank Value does nothing (A-09).
NONRANK = frozenset(
    {
        PowerName.ALTER_EGO,
        PowerName.ASTOUNDINGLY_WEALTHY,
        PowerName.CELEBRITY,
        PowerName.IMPROVED_SKILLS,
    }
)


#: Elemental/Energy Control and Generation: of one element or energy, +10 to both (C:L612).
EE_PAIR = frozenset({PowerName.ELEMENTAL_ENERGY_CONTROL, PowerName.ELEMENTAL_ENERGY_GENERATION})
MATCHED_ELEMENT = 10


def matched_element_bonus(power: PowerName, held: frozenset[PowerName], same: bool) -> int:
    """+10 to a power's Rank Value when it is E/E Control or E/E Generation and the other is
    held too, both of the same element or energy type, permanently (C:L612): at creation and
    when the second is gained later (the catalogue: "at creation, and on acquisition")."""
    return MATCHED_ELEMENT if same and power in EE_PAIR and held | {power} >= EE_PAIR else 0


# How many


class CountInput(Model):
    origin: Origin | None = Field(
        default=None, description="An advanced origin: a Mutant +1, an Alien -1 (C:L174-177)."
    )


class Counted(Model):
    roll: int
    rolled: int
    magic: bool = Field(description="99: Magic, the only power (C:L356, C:L726).")
    powers: int = Field(description="Powers to roll after the origin; Magic counts as one.")


class CountOdds(Model):
    powers: list[OutcomeProbability]
    magic: list[OutcomeProbability]


def count_distribution(origin: Origin | None) -> Distribution[tuple[int, bool]]:
    return on_table(POWER_COUNTS, lambda r: (power_slots_after(origin, r.powers, r.magic), r.magic))


def count_odds(request: CountInput) -> CountOdds:
    """2 20%, 3 40%, 4 30%, 5 9%, Magic 1% (catalogue 5.2); an Alien's one fewer and a
    Mutant's one more, Magic staying alone."""
    found = count_distribution(request.origin)
    return CountOdds(
        powers=outcome_table(found.map(lambda c: c[0])),
        magic=outcome_table(found.map(lambda c: c[1])),
    )


@operation(
    name="powers/count/roll",
    kind=Kind.GENERATION,
    covers=("4c.powers.count.roll",),
    odds=count_odds,
    cost=table_cost,
    example={"origin": "mutant", "dice": {"values": [9, 9]}},
)
def count_roll(request: CountInput, dice: Dice) -> Counted:
    """Roll d% for the number of powers: 00-19 2, 20-59 3, 60-89 4, 90-98 5, 99 Magic, the
    one power that duplicates all others (C:L341-356)."""
    roll, row = roll_on(POWER_COUNTS, dice, "number of powers")
    powers = power_slots_after(request.origin, row.powers, row.magic)
    return Counted(roll=roll, rolled=row.powers, magic=row.magic, powers=powers)


# Which


class SelectInput(Model):
    held: Held = Field(default=(), description="Powers the character has: a repeat is flagged.")


class Selected(Model):
    roll: int
    power: PowerName
    duplicate: bool = Field(description="Already held: raise it +20 or roll again (C:L390).")


class SelectOdds(Model):
    power: list[OutcomeProbability]
    duplicate: list[OutcomeProbability]


def _select_odds(table: PowerTable, request: SelectInput) -> SelectOdds:
    found = on_table(TABLES[table], lambda row: row.power)
    return SelectOdds(
        power=outcome_table(found.map(lambda p: p.value)),
        duplicate=outcome_table(found.map(lambda p: p in request.held)),
    )


def basic_odds(request: SelectInput) -> SelectOdds:
    """Each of the 25 powers 4% (catalogue 5.2)."""
    return _select_odds(PowerTable.BASIC, request)


def advanced_odds(request: SelectInput) -> SelectOdds:
    """Each of the 50 powers 2% (catalogue 5.2)."""
    return _select_odds(PowerTable.ADVANCED, request)


def _select(table: PowerTable, request: SelectInput, dice: Dice) -> Selected:
    roll, row = roll_on(TABLES[table], dice, f"{table.value} power")
    return Selected(roll=roll, power=row.power, duplicate=row.power in request.held)


@operation(
    name="powers/select/basic",
    kind=Kind.GENERATION,
    covers=("4c.powers.select.basic",),
    odds=basic_odds,
    cost=table_cost,
    example={"held": ["flight"], "dice": {"values": [2, 7]}},
)
def select_basic(request: SelectInput, dice: Dice) -> Selected:
    """Roll d% on the Basic Power Selection table, 4 faces a power: 00 Animal Command, 27
    Extra Body Parts, 43 Growth/Shrinking, 99 Wall Crawling (C:L358-388, T4)."""
    return _select(PowerTable.BASIC, request, dice)


@operation(
    name="powers/select/advanced",
    kind=Kind.GENERATION,
    covers=("4c.powers.select.advanced",),
    odds=advanced_odds,
    cost=table_cost,
    example={"held": ["flight"], "dice": {"values": [5, 3]}},
)
def select_advanced(request: SelectInput, dice: Dice) -> Selected:
    """Roll d% on the Advanced Power Selection table, 2 faces a power: 00 Absorption, 31
    Elemental/Energy Generation, 53 Nine Lives, 99 Weapon (C:L392-448, T5)."""
    return _select(PowerTable.ADVANCED, request, dice)


# Repeats


def must_reroll(power: PowerName, choice: DuplicateChoice, policy: DuplicateNonrankPolicy) -> bool:
    """A repeat is rolled again when the player chooses so, or when it is a power whose
    Rank Value does nothing and the policy says so (A-09)."""
    forced = power in NONRANK and policy is DuplicateNonrankPolicy.FORCE_REROLL
    return choice is DuplicateChoice.REROLL or forced


def settle(
    first: PowerName,
    held: frozenset[PowerName],
    table: PowerTable,
    choice: DuplicateChoice,
    policy: DuplicateNonrankPolicy,
    rerolls: int,
    dice: Dice,
    purpose: str,
) -> tuple[PowerName, list[int]]:
    """Roll a repeat again while it repeats and rerolls are left (C:L390, C:L450); the
    power it settles on and the rolls made."""
    power, rolls = first, list[int]()
    while power in held and len(rolls) < rerolls and must_reroll(power, choice, policy):
        roll, row = roll_on(TABLES[table], dice, f"{purpose} reroll")
        rolls.append(roll)
        power = row.power
    return power, rolls


class RepeatAction(StrEnum):
    NEW = "new"
    RAISED = "raised"
    STACKED = "stacked"


def action_of(
    power: PowerName, held: frozenset[PowerName], policy: DuplicateNonrankPolicy
) -> RepeatAction:
    """A new power; a repeat of Trait Increase, +20 to each trait instead of +15 (C:L906);
    of a power whose Rank Value does nothing, stacked under stack_effects (A-09); else +20."""
    if power not in held:
        return RepeatAction.NEW
    stacks = power in NONRANK and policy is DuplicateNonrankPolicy.STACK_EFFECTS
    if power is PowerName.TRAIT_INCREASE or stacks:
        return RepeatAction.STACKED
    return RepeatAction.RAISED


class ResolveInput(Model):
    held: tuple[HeldPower, ...] = Field(min_length=1, max_length=12)
    duplicate: PowerName = Field(description="The power rolled again.")
    choice: DuplicateChoice = DuplicateChoice.RAISE
    table: PowerTable = PowerTable.BASIC
    max_rerolls: Annotated[int, Field(ge=0, le=MAX_REROLLS)] = Field(
        default=10, description="Rerolls allowed; a repeat left after them is raised +20."
    )
    options: DuplicateOptions = Field(default=DuplicateOptions())


class Resolved(Model):
    action: RepeatAction
    power: PowerName = Field(description="The power the slot settles on.")
    rv: int | None = Field(
        description="A raised power's new Rank Value; a new power rolls its own."
    )
    reroll_rolls: list[int]
    warning: str | None


class ResolveOdds(Model):
    power: list[OutcomeProbability]
    action: list[OutcomeProbability]


def _held_names(request: ResolveInput) -> frozenset[PowerName]:
    return frozenset(p.power for p in request.held)


def _check(request: ResolveInput) -> None:
    """The repeat is of a held power, and each power is held once: a repeat is raised or
    rolled again, never held twice (C:L390)."""
    if len(_held_names(request)) != len(request.held):
        raise InputError(("held",), "a power is listed twice: a repeat is raised or rolled again")
    if request.duplicate not in _held_names(request):
        raise InputError(("duplicate",), f"{request.duplicate.value} is not among the held powers")


def settled_distribution(request: ResolveInput) -> Distribution[PowerName]:
    """The power a slot settles on, over every run of rerolls up to the bound."""
    held, policy = _held_names(request), request.options.duplicate_nonrank_policy
    table = on_table(TABLES[request.table], lambda row: row.power)
    found: Distribution[PowerName] = Distribution({request.duplicate: 1})
    for _ in range(request.max_rerolls):
        found = found.then(
            lambda p: (
                table
                if p in held and must_reroll(p, request.choice, policy)
                else Distribution({p: 1})
            )
        )
    return found


def resolve_odds(request: ResolveInput) -> ResolveOdds:
    _check(request)
    found = settled_distribution(request)
    held, policy = _held_names(request), request.options.duplicate_nonrank_policy
    return ResolveOdds(
        power=outcome_table(found.map(lambda p: p.value)),
        action=outcome_table(found.map(lambda p: action_of(p, held, policy).value)),
    )


def resolve_cost(request: ResolveInput) -> Estimate:
    """Each reroll follows every power so far (at most 51) with the table's 50."""
    return Estimate(request.max_rerolls * 51 * 52 + 500, ("/max_rerolls",))


def held_distribution(
    slots: int,
    table: PowerTable,
    choice: DuplicateChoice,
    policy: DuplicateNonrankPolicy,
    rerolls: int,
) -> Distribution[tuple[int, int, int]]:
    """Distinct powers after `slots` selections with their repeats settled: (powers whose Rank
    Value counts, powers whose does not (A-09), the kind of the last new one: 1 or 2, 0 for
    none). Powers of a kind are alike, so the kinds are all a slot's odds depend on."""
    rows = TABLES[table]
    nonrank = sum(1 for row in rows if row.power in NONRANK)
    ranked, size = len(rows) - nonrank, len(rows)
    again_rank = must_reroll(PowerName.FLIGHT, choice, policy)
    again_non = must_reroll(PowerName.CELEBRITY, choice, policy)

    def step(state: tuple[int, int, int, int, int]) -> Distribution[tuple[int, int, int, int, int]]:
        a, b, used, last, left = state
        if left == 0:
            return Distribution({state: 1})
        rank_repeat = (
            (a, b, used + 1, last, left)
            if again_rank and used < rerolls
            else (a, b, used, last, left - 1)
        )
        non_repeat = (
            (a, b, used + 1, last, left)
            if again_non and used < rerolls
            else (a, b, used, last, left - 1)
        )
        return Distribution(
            [
                ((a + 1, b, used, 1, left - 1), ranked - a),
                ((a, b + 1, used, 2, left - 1), nonrank - b),
                (rank_repeat, a),
                (non_repeat, b),
            ],
            total=size,
        )

    found: Distribution[tuple[int, int, int, int, int]] = Distribution({(0, 0, 0, 0, slots): 1})
    for _ in range(slots + rerolls):
        found = found.then(step)
    return found.map(lambda s: (s[0], s[1], s[3]))


#: Others of the tracked power's kind held, of the other kind held, rerolls used, slots left,
#: the tracked power's place (-1 not held), times it was rolled.
Tracked = tuple[int, int, int, int, int, int]


def tracked_distribution(
    slots: int,
    table: PowerTable,
    power: PowerName,
    choice: DuplicateChoice,
    policy: DuplicateNonrankPolicy,
    rerolls: int,
) -> Distribution[tuple[int, int, int]]:
    """One power of the table followed through `slots` selections with their repeats settled
    as `held_distribution` settles them (C:L390, A-09): (distinct powers held; the place in
    which `power` was first held, 0 for the first new power, -1 if never; the times it was
    rolled, a repeat raised or stacked counting again). A character keeping only its first k
    new powers (an Alien, A-08; a Sidekick, A-62) keeps `power` when its place is below k.
    Every entry of the table is equally likely and the rules treat powers of a kind alike
    (whose Rank Value counts or not, A-09), so besides `power` a slot's odds depend only on
    how many others of each kind are held."""
    rows = TABLES[table]
    mine = power in NONRANK
    alike = sum(1 for row in rows if (row.power in NONRANK) is mine) - 1
    unlike = len(rows) - alike - 1
    other = next((row.power for row in rows if (row.power in NONRANK) is not mine), power)
    again_mine = must_reroll(power, choice, policy)
    again_other = must_reroll(other, choice, policy)

    def repeat(state: Tracked, again: bool, itself: bool) -> Tracked:
        """A repeat is rolled again while rerolls are left, else it uses up its slot (and
        counts as rolled again when it is `power`)."""
        s, o, used, left, place, times = state
        if again and used < rerolls:
            return (s, o, used + 1, left, place, times)
        return settled((s, o, used, left - 1, place, times + itself))

    def settled(state: Tracked) -> Tracked:
        """Once every slot is settled the rerolls used no longer matter."""
        s, o, _, left, place, times = state
        return state if left else (s, o, 0, left, place, times)

    def step(state: Tracked) -> Distribution[Tracked]:
        s, o, used, left, place, times = state
        if left == 0:
            return Distribution({state: 1})
        new = settled((s, o, used, left - 1, s + o, 1))
        return Distribution(
            [
                (new if place < 0 else repeat(state, again_mine, True), 1),
                (settled((s + 1, o, used, left - 1, place, times)), alike - s),
                (repeat(state, again_mine, False), s),
                (settled((s, o + 1, used, left - 1, place, times)), unlike - o),
                (repeat(state, again_other, False), o),
            ],
            total=len(rows),
        )

    found: Distribution[Tracked] = Distribution({(0, 0, 0, slots, -1, 0): 1})
    for _ in range(slots + rerolls):
        if all(state[3] == 0 for state, _ in found.items()):
            break
        found = found.then(step)
    return found.map(lambda t: (t[0] + t[1] + (t[4] >= 0), t[4], t[5]))


# Rank Values


class RankInput(Model):
    power: PowerName | None = Field(default=None, description="Named in the roll log.")


class Ranked(Model):
    roll: int
    rv: int


class RankOdds(Model):
    rv: list[OutcomeProbability]


def rank_odds(request: RankInput) -> RankOdds:
    """1 and 3 5% each, 6 10%, 10, 20 and 30 20% each, 40 16%, 50 4% (catalogue 5.2)."""
    return RankOdds(rv=outcome_table(on_table(TRAIT_RANKS, lambda row: row.rv)))


@operation(
    name="powers/rank/roll",
    kind=Kind.GENERATION,
    covers=("4c.powers.rank.roll",),
    odds=rank_odds,
    cost=table_cost,
    example={"power": "flight", "dice": {"values": [8, 10]}},
)
def rank_roll_op(request: RankInput, dice: Dice) -> Ranked:
    """Roll d% for a power's Rank Value on the trait table: 00-04 1 ... 96-99 50
    (C:L454-468)."""
    name = request.power.value if request.power is not None else "power"
    roll, rv = rank_roll(dice, f"{name} rank")
    return Ranked(roll=roll, rv=rv)


@operation(
    name="powers/duplicate/resolve",
    kind=Kind.GENERATION,
    covers=("4c.powers.duplicate.resolve",),
    odds=resolve_odds,
    cost=resolve_cost,
    example={
        "held": [{"power": "flight", "rv": 20}],
        "duplicate": "flight",
        "choice": "reroll",
        "max_rerolls": 3,
        "dice": {"values": [2, 1]},
    },
)
def duplicate_resolve(request: ResolveInput, dice: Dice) -> Resolved:
    """A power rolled twice: raise its Rank Value +20 or roll again on the table (C:L390,
    C:L450), at most max_rerolls times, a repeat left then being raised. Trait Increase
    twice gives +20 to each trait instead of +15 (C:L906); a power whose Rank Value does
    nothing follows duplicate_nonrank_policy (A-09)."""
    _check(request)
    held, policy = _held_names(request), request.options.duplicate_nonrank_policy
    power, rolls = settle(
        request.duplicate,
        held,
        request.table,
        request.choice,
        policy,
        request.max_rerolls,
        dice,
        "repeat",
    )
    action = action_of(power, held, policy)
    rv = next((p.rv + 20 for p in request.held if p.power is power), None)
    warning = None
    if action is RepeatAction.RAISED and power in NONRANK:
        warning = f"+20 Rank Value does nothing for {power.value}: consider rolling again (A-09)"
    return Resolved(
        action=action,
        power=power,
        rv=rv if action is RepeatAction.RAISED else None,
        reroll_rolls=rolls,
        warning=warning,
    )
