"""A whole 4C character, rolled (catalogue 3.3.5, the recommended order): origin, the seven
primary traits, Lifestyle and Repute, skills, powers (count, selection, repeats, Rank
Values), the advanced origin's changes, the creation-time effects of powers, then Damage and
Fortune. Every d% is in the roll log, named for what it decides, so a group can type its own
rolls back in as table dice. An Alter-Ego (C:L484-486) and a Sidekick (C:L808-810) are second
characters made by the same chain within the limits their powers set."""

from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Distribution, Exact, OutcomeProbability, exact, outcome_table
from service.rules.four_c.characters.options import GenerationOptions, LifestyleOptions, OriginOrder
from service.rules.four_c.characters.origins import (
    lifestyle_after,
    loses_a_power,
    modifier,
    repute_after,
    skills_after,
    trait_after,
)
from service.rules.four_c.characters.percent import on_table, roll_on
from service.rules.four_c.characters.powers import (
    MAX_REROLLS,
    NONRANK,
    TABLES,
    DuplicateChoice,
    PowerTable,
    RepeatAction,
    action_of,
    count_distribution,
    matched_element_bonus,
    settle,
    tracked_distribution,
)
from service.rules.four_c.characters.skills import skill_distribution
from service.rules.four_c.characters.tables import (
    DAMAGE_TRAITS,
    FORTUNE_TRAITS,
    ORIGINS,
    POWER_COUNTS,
    SKILL_COUNTS,
    TRAIT_RANKS,
    Origin,
    PowerName,
    PrimaryTrait,
)
from service.rules.four_c.characters.traits import (
    LifestyleInput,
    TraitRolled,
    lifestyle_distribution,
    rank_roll,
    repute_distribution,
    roll_lifestyle,
    roll_repute,
    trait_distribution,
)
from service.rules.four_c.core.ranks import RankValue
from service.rules.model import Model
from service.rules.registry import Kind, Reading, operation

__all__ = ["ALTER_EGO_CAP", "SHEET_ROLLED", "CharacterSheet", "Limits", "Rules",
           "SecondCharacter", "SheetOdds", "alter_ego_rules", "generate", "roll_alter_ego",
           "roll_character", "sheet_cost", "sheet_odds", "sidekick_limits"]  # fmt: skip

#: An Alter-Ego's primary traits are at most 30 (C:L486).
ALTER_EGO_CAP = 30
#: Every odds request of this module stays inside this many states. The largest measured,
#: over every option and a sidekick's every parent, is advanced origins and the advanced
#: table under force_reroll with 20 rerolls: 334,516 for a character, 334,852 for a
#: sidekick (an Alien's lost power, b905705, doubled the 160,178 once measured). The
#: estimate is the whole budget: no request of this module is refused for its cost.
SHEET_STATES = 400_000


def _two_traits(traits: tuple[PrimaryTrait, ...]) -> tuple[PrimaryTrait, ...]:
    """Trait Increase raises "any two primary traits by +15 each" (C:L906): two, not one
    trait twice."""
    if len(set(traits)) != len(traits):
        raise ValueError("Trait Increase raises two different primary traits (C:L906)")
    return traits


class Rules(Model):
    """The rules a character is generated under; the basic game unless told."""

    advanced_origins: bool = Field(
        default=False, description="Apply origins' changes (C:L166-178)."
    )
    power_table: PowerTable = Field(default=PowerTable.BASIC, description="C:L358-448.")
    duplicates: DuplicateChoice = Field(
        default=DuplicateChoice.RAISE,
        description="A power rolled twice: +20 or roll again (C:L390).",
    )
    max_rerolls: Annotated[int, Field(ge=0, le=MAX_REROLLS)] = Field(
        default=5, description="Rerolls of repeats a character may make; a repeat left is raised."
    )
    changed_human_trait: PrimaryTrait = Field(
        default=PrimaryTrait.MELEE, description="The trait a Changed Human raises (C:L176)."
    )
    trait_increase_traits: Annotated[
        tuple[PrimaryTrait, ...], Field(min_length=2, max_length=2), AfterValidator(_two_traits)
    ] = Field(
        default=(PrimaryTrait.BRAWN, PrimaryTrait.FORTITUDE),
        description="The two traits Trait Increase raises, the player's choice (C:L906).",
    )
    lifestyle: RankValue | None = Field(
        default=None, description="The GM's Lifestyle, with lifestyle_table=manual (A-05)."
    )
    ee_same_element: bool = Field(
        default=True,
        description="E/E Control and E/E Generation, if both are rolled, are chosen of the "
        "same element or energy type, which gives both +10 (C:L612); false: of different types.",
    )
    options: GenerationOptions = Field(default=GenerationOptions())


class GenerateInput(Rules):
    companions: bool = Field(
        default=True,
        description="Generate an Alter-Ego's or Sidekick's second character within this "
        "sheet; false leaves them to power/alter-ego/generate and power/sidekick/generate. "
        "Their rolls follow the character's in the roll log, an Alter-Ego's first.",
    )


class SheetPower(Model):
    power: PowerName
    rv: int
    times: int = Field(description="Times rolled: a repeat raised +20 or stacked (C:L390).")
    selection_roll: int | None = Field(description="Null for Magic, given by the count roll.")
    rerolls: list[int] = Field(description="Rolls made again for a repeat.")
    rank_roll: int


class SecondCharacter(Model):
    origin: Origin
    origin_roll: int | None = Field(description="Null when not rolled (an Alter-Ego).")
    traits: list[TraitRolled]
    damage: int = Field(description="Melee + Coordination + Brawn + Fortitude (C:L240).")
    fortune: int = Field(description="Intellect + Awareness + Willpower (C:L246).")
    lifestyle: int
    repute: int
    skills: int
    improved_skill: bool = Field(description="One skill gives +3 Row Steps (C:L718).")
    magic: bool
    power_count: int
    powers: list[SheetPower]
    notes: list[str]


class CharacterSheet(SecondCharacter):
    alter_ego: SecondCharacter | None
    sidekick: SecondCharacter | None


@dataclass(frozen=True)
class Limits:
    """What a second character may not pass: a trait cap each, a number of powers."""

    origin: Origin | None = None
    caps: tuple[int, ...] | None = None
    powers: int | None = None


def _roll_powers(rules: Rules, slots: int, dice: Dice, notes: list[str]) -> list[SheetPower]:
    """Each slot: select, settle a repeat, roll the Rank Value of a new power (3.3.5)."""
    powers: dict[PowerName, SheetPower] = {}
    policy, used = rules.options.duplicate_nonrank_policy, 0
    for slot in range(1, slots + 1):
        purpose = f"power {slot}"
        roll, row = roll_on(TABLES[rules.power_table], dice, f"{purpose} selection")
        held = frozenset(powers)
        power, again = settle(
            row.power,
            held,
            rules.power_table,
            rules.duplicates,
            policy,
            rules.max_rerolls - used,
            dice,
            purpose,
        )
        used += len(again)
        action = action_of(power, held, policy)
        if action is RepeatAction.NEW:
            rank, rv = rank_roll(dice, f"{purpose} rank")
            powers[power] = SheetPower(
                power=power, rv=rv, times=1, selection_roll=roll, rerolls=again, rank_roll=rank
            )
            continue
        old = powers[power]
        raised = old.rv + (20 if action is RepeatAction.RAISED else 0)
        powers[power] = old.model_copy(update={"rv": raised, "times": old.times + 1})
        if action is RepeatAction.RAISED and power in NONRANK:
            notes.append(f"{power.value} rolled again: +20 Rank Value does nothing (A-09).")
    return list(powers.values())


def _apply_origin_numbers(origin: Origin, values: dict[str, int], chosen: PrimaryTrait) -> None:
    for trait in PrimaryTrait:
        values[trait.value] = trait_after(origin, trait, values[trait.value], chosen)
    values["lifestyle"] = lifestyle_after(origin, values["lifestyle"])
    values["repute"] = repute_after(origin, values["repute"])
    values["skills"] = skills_after(origin, values["skills"])


def _apply_power_effects(rules: Rules, powers: list[SheetPower], values: dict[str, int]) -> bool:
    """Creation-time effects (C:L500-514, C:L716-718, C:L904-906): Astoundingly Wealthy
    Lifestyle +50 and Repute +20; Celebrity Repute +30; Improved Skills two skills and one
    at +3; Trait Increase +15 to two traits, +20 when rolled twice. Fixed bonuses count once
    unless stacked (A-09). True when a skill gives +3."""
    stack = rules.options.duplicate_nonrank_policy.value == "stack_effects"
    improved = False
    for held in powers:
        times = held.times if stack and held.power in NONRANK else 1
        if held.power is PowerName.ASTOUNDINGLY_WEALTHY:
            values["lifestyle"] += 50 * times
            values["repute"] += 20 * times
        elif held.power is PowerName.CELEBRITY:
            values["repute"] += 30 * times
        elif held.power is PowerName.IMPROVED_SKILLS:
            values["skills"] += 2 * times
            improved = True
        elif held.power is PowerName.TRAIT_INCREASE:
            for trait in rules.trait_increase_traits:
                values[trait.value] += 20 if held.times > 1 else 15
    return improved


def _matched_elements(rules: Rules, powers: list[SheetPower], notes: list[str]) -> list[SheetPower]:
    """E/E Control and E/E Generation kept together, of one type: +10 to both (C:L612)."""
    held, same = frozenset(p.power for p in powers), rules.ee_same_element
    raised = [
        p.model_copy(update={"rv": p.rv + matched_element_bonus(p.power, held, same)})
        for p in powers
    ]
    if raised != powers:
        notes.append("E/E Control and Generation of one type: +10 to both (C:L612).")
    return raised


def roll_character(rules: Rules, dice: Dice, limits: Limits, no_powers: bool) -> SecondCharacter:
    """One character in the catalogue's order (3.3.5). A Sidekick "cannot possess more than
    one-half the number of powers" of its parent (C:L810): the powers over that limit are
    dropped, the last rolled first (A-62), as soon as they are rolled, so a dropped Trait
    Increase, Astoundingly Wealthy, Celebrity or Improved Skills changes nothing; its traits
    are held to the parent's after every change."""
    notes: list[str] = []
    origin_roll: int | None = None
    if limits.origin is None:
        origin_roll, origin_row = roll_on(ORIGINS, dice, "origin")
        origin = origin_row.origin
    else:
        origin = limits.origin
    rolls: dict[PrimaryTrait, tuple[int, int]] = {t: rank_roll(dice, t.value) for t in PrimaryTrait}
    values = {t.value: rv for t, (_, rv) in rolls.items()}
    life = roll_lifestyle(
        LifestyleInput(
            lifestyle=rules.lifestyle,
            options=LifestyleOptions(lifestyle_table=rules.options.lifestyle_table),
        ),
        dice,
    )
    values["lifestyle"] = life.rolled
    values["repute"] = roll_repute(None, dice).rolled
    values["skills"] = roll_on(SKILL_COUNTS, dice, "skills")[1].skills
    powers: list[SheetPower] = []
    magic = False
    if not no_powers:
        _, count = roll_on(POWER_COUNTS, dice, "number of powers")
        magic = count.magic
        advanced = origin if rules.advanced_origins else None
        if magic:
            rank, rv = rank_roll(dice, "magic rank")
            powers = [
                SheetPower(
                    power=PowerName.MAGIC,
                    rv=rv,
                    times=1,
                    selection_roll=None,
                    rerolls=[],
                    rank_roll=rank,
                )
            ]
        else:
            powers = _roll_powers(
                rules, count.powers + (1 if advanced is Origin.MUTANT else 0), dice, notes
            )
        if loses_a_power(advanced, len(powers)):  # the last new one (catalogue 3.3.5 step 6)
            notes.append(f"Alien: lost {powers[-1].power.value}, the last rolled (C:L174, A-08).")
            powers = powers[:-1]
        if limits.powers is not None and len(powers) > limits.powers:
            # Dropped before the creation-time effects: a power not kept gives nothing.
            dropped = [p.power.value for p in powers[limits.powers :]]
            notes.append(f"Over the limit of {limits.powers} powers: dropped {dropped} (A-62).")
            powers = powers[: limits.powers]
    if rules.advanced_origins:
        changes = modifier(origin).text
        notes.append(f"{origin.value}: {changes}")
    before = rules.options.origin_order is OriginOrder.BEFORE_POWER_EFFECTS
    if rules.advanced_origins and before:
        _apply_origin_numbers(origin, values, rules.changed_human_trait)
    improved = _apply_power_effects(rules, powers, values)
    if rules.advanced_origins and not before:
        _apply_origin_numbers(origin, values, rules.changed_human_trait)
    if limits.caps is not None:
        for trait, cap in zip(PrimaryTrait, limits.caps, strict=True):
            if values[trait.value] > cap:
                notes.append(f"{trait.value} {values[trait.value]} reduced to {cap}.")
                values[trait.value] = cap
    powers = _matched_elements(rules, powers, notes)
    traits = [
        TraitRolled(trait=t, roll=rolls[t][0], rolled=rolls[t][1], rv=values[t.value])
        for t in PrimaryTrait
    ]
    return SecondCharacter(
        origin=origin,
        origin_roll=origin_roll,
        traits=traits,
        damage=sum(values[t.value] for t in DAMAGE_TRAITS),
        fortune=sum(values[t.value] for t in FORTUNE_TRAITS),
        lifestyle=values["lifestyle"],
        repute=values["repute"],
        skills=values["skills"],
        improved_skill=improved,
        magic=magic,
        power_count=len(powers),
        powers=powers,
        notes=notes,
    )


def alter_ego_rules(rules: Rules) -> Rules:
    """An Alter-Ego is a Skilled Human whose origin bonus counts only under A-63."""
    bonus = rules.advanced_origins and rules.options.alter_ego_origin_bonus
    return rules.model_copy(update={"advanced_origins": bonus})


def roll_alter_ego(rules: Rules, dice: Dice) -> SecondCharacter:
    limits = Limits(origin=Origin.SKILLED_HUMAN, caps=(ALTER_EGO_CAP,) * 7)
    return roll_character(alter_ego_rules(rules), dice, limits, no_powers=True)


def sidekick_limits(traits: tuple[int, ...], powers: int) -> Limits:
    return Limits(caps=traits, powers=-(-powers // 2))


# Odds


class PowerHeldOdds(Model):
    power: PowerName
    held: Exact = Field(description="The probability that the character holds the power.")
    rv_if_held: list[OutcomeProbability] = Field(
        description="Its Rank Value given that it is held: the rank roll, +20 for each "
        "repeat raised (C:L390); Trait Increase and stacked repeats keep the roll (A-09). "
        "Named apart from a sheet power's rv, each power having its own distribution."
    )


class SheetOdds(Model):
    origin: list[OutcomeProbability]
    damage: list[OutcomeProbability]
    fortune: list[OutcomeProbability]
    lifestyle: list[OutcomeProbability]
    repute: list[OutcomeProbability]
    skills: list[OutcomeProbability]
    power_count: list[OutcomeProbability]
    magic: list[OutcomeProbability]
    powers: list[PowerHeldOdds] = Field(
        description="Each power of the table in use, then Magic (only from the count roll, "
        "C:L356): the chance the character holds it. Empty for a character with no powers."
    )
    note: str


ODDS_NOTE = (
    "Exact, for the rolls and the origin's changes, including which powers are held and "
    "their Rank Values (repeats raised, stacked or rolled again up to max_rerolls, a Mutant's "
    "extra power, an Alien's and a Sidekick's last rolled dropped); the creation-time effects "
    "of the advanced table's Trait Increase, Astoundingly Wealthy, Celebrity and Improved "
    "Skills add to Damage, Fortune, Lifestyle, Repute and skills on top of these, and E/E "
    "Control and Generation held together of one type add 10 to both Rank Values (C:L612)."
)


#: The sheet fields each creation-time effect changes, which the odds leave out (ODDS_NOTE).
_CHANGED_BY = {
    PowerName.TRAIT_INCREASE: ("damage", "fortune"),
    PowerName.ASTOUNDINGLY_WEALTHY: ("lifestyle", "repute"),
    PowerName.CELEBRITY: ("repute",),
    PowerName.IMPROVED_SKILLS: ("skills",),
}


def _as_rolled(field: str) -> Reading:
    """A sheet's `field` read as its odds give it, or None when a power held changed it at
    creation: a Celebrity's Repute 32 is not the 3% of a rolled 32."""

    def read(sheet: SecondCharacter) -> int | None:
        changed = any(field in _CHANGED_BY.get(held.power, ()) for held in sheet.powers)
        return None if changed else getattr(sheet, field)

    return Reading(read=read)


#: How a sheet reads as its odds (outcome_odds).
SHEET_ROLLED = {f"/{field}": _as_rolled(field)
                for field in ("damage", "fortune", "lifestyle", "repute", "skills")}  # fmt: skip


def _origins(rules: Rules, limits: Limits) -> Distribution[Origin]:
    if limits.origin is not None:
        return Distribution({limits.origin: 1})
    return on_table(ORIGINS, lambda row: row.origin)


def _summed(rules: Rules, limits: Limits, traits: tuple[PrimaryTrait, ...]) -> Distribution[int]:
    def given(origin: Origin) -> Distribution[int]:
        applied = origin if rules.advanced_origins else None
        total = Distribution({0: 1})
        for trait in traits:
            cap = limits.caps[list(PrimaryTrait).index(trait)] if limits.caps else None
            total = total + trait_distribution(trait, applied, rules.changed_human_trait, cap)
        return total

    return _origins(rules, limits).then(given)


def _slots(rules: Rules, limits: Limits) -> Distribution[tuple[int, Origin | None] | None]:
    """Over the origins and the count roll: the selections rolled (C:L341-356; a Mutant
    rolls one more) and the origin that then changes the powers held (advanced origins, A-08);
    None for Magic, the only power."""

    def given(origin: Origin) -> Distribution[tuple[int, Origin | None] | None]:
        applied = origin if rules.advanced_origins else None

        def rolled(row: tuple[int, bool]) -> tuple[int, Origin | None] | None:
            count, magic = row
            if magic:
                return None
            return count + (1 if applied is Origin.MUTANT else 0), applied

        return count_distribution(None).map(rolled)

    return _origins(rules, limits).then(given)


#: (powers kept, Magic counting as one; Magic; times one power was rolled if kept, else None)
Followed = tuple[int, bool, int | None]


def followed(rules: Rules, limits: Limits, power: PowerName) -> Distribution[Followed]:
    """One power of the table in use followed through the whole chain, over the origins and
    the count roll: the powers the character keeps and whether it keeps this one, rolled how
    many times, a repeat raised or stacked counting again (C:L390, A-09). Each slot is
    settled as `tracked_distribution` settles it."""

    def given(row: tuple[int, Origin | None] | None) -> Distribution[Followed]:
        if row is None:
            return Distribution([((1, True, None), 1)])
        slots, origin = row
        found = tracked_distribution(
            slots,
            rules.power_table,
            power,
            rules.duplicates,
            rules.options.duplicate_nonrank_policy,
            rules.max_rerolls,
        )

        def kept(tracked: tuple[int, int, int]) -> Followed:
            # The first `keep` new powers stay: an Alien loses the last (keeping one), then a
            # Sidekick the last over its limit, as `roll_character` drops them.
            held, place, times = tracked
            keep = held - 1 if loses_a_power(origin, held) else held
            if limits.powers is not None:
                keep = min(keep, limits.powers)
            return keep, False, times if 0 <= place < keep else None

        return found.map(kept)

    return _slots(rules, limits).then(given)


def _kinds(rules: Rules, no_powers: bool) -> dict[bool, PowerName]:
    """One power of each kind in the table: whose Rank Value counts, and whose does not
    (A-09). Every entry is equally likely and the rules treat a kind alike, so all the
    powers of a kind have the same odds of being held."""
    if no_powers:
        return {}
    return {row.power in NONRANK: row.power for row in reversed(TABLES[rules.power_table])}


def _held_odds(power: PowerName, times: Distribution[int | None], raise_by: int) -> PowerHeldOdds:
    """Held with the chance it is kept at all; its Rank Value the rank roll plus `raise_by`
    for each time it was rolled again."""
    ranks = on_table(TRAIT_RANKS, lambda row: row.rv)
    added = Distribution((raise_by * (n - 1), w) for n, w in times.items() if n is not None)
    return PowerHeldOdds(
        power=power,
        held=exact(times.probability_where(lambda n: n is not None)),
        rv_if_held=outcome_table(added + ranks),
    )


def _powers(rules: Rules, kinds: dict[bool, Distribution[Followed]]) -> list[PowerHeldOdds]:
    """Each power of the table by its kind's odds, then Magic, held with the count roll's
    1% (C:L356). A repeat adds +20 unless it is Trait Increase's (C:L906) or stacked (A-09)."""
    if not kinds:
        return []
    policy = rules.options.duplicate_nonrank_policy
    found: list[PowerHeldOdds] = []
    for row in TABLES[rules.power_table]:
        times = kinds[row.power in NONRANK].map(lambda f: f[2])
        raised = action_of(row.power, frozenset({row.power}), policy) is RepeatAction.RAISED
        found.append(_held_odds(row.power, times, 20 if raised else 0))
    magic = next(iter(kinds.values())).map(lambda f: 1 if f[1] else None)
    return [*found, _held_odds(PowerName.MAGIC, magic, 0)]


def sheet_odds(rules: Rules, limits: Limits, no_powers: bool) -> SheetOdds:
    origins = _origins(rules, limits)
    applied = (lambda o: o) if rules.advanced_origins else (lambda o: None)
    life = LifestyleInput(
        lifestyle=rules.lifestyle,
        options=LifestyleOptions(lifestyle_table=rules.options.lifestyle_table),
    )
    lifestyle = origins.then(
        lambda o: lifestyle_distribution(life.model_copy(update={"origin": applied(o)}))
    )
    kinds = {k: followed(rules, limits, p) for k, p in _kinds(rules, no_powers).items()}
    none: Distribution[Followed] = Distribution([((0, False, None), 1)])
    counts = next(iter(kinds.values()), none)
    return SheetOdds(
        origin=outcome_table(origins.map(lambda o: o.value)),
        damage=outcome_table(_summed(rules, limits, DAMAGE_TRAITS)),
        fortune=outcome_table(_summed(rules, limits, FORTUNE_TRAITS)),
        lifestyle=outcome_table(lifestyle),
        repute=outcome_table(origins.then(lambda o: repute_distribution(applied(o)))),
        skills=outcome_table(origins.then(lambda o: skill_distribution(applied(o)))),
        power_count=outcome_table(counts.map(lambda c: c[0])),
        magic=outcome_table(counts.map(lambda c: c[1])),
        powers=_powers(rules, kinds),
        note=ODDS_NOTE,
    )


def generate_odds(request: GenerateInput) -> SheetOdds:
    """Origin, the starting Damage and Fortune (appendix B with no origin), Lifestyle,
    Repute, skills, the number of powers and which are held with their Rank Values, each
    mixed over the origins."""
    return sheet_odds(request, Limits(), no_powers=False)


def sheet_cost(request: object) -> Estimate:
    """Six origins, each: four traits convolved and the tables; the power chain of at most
    6 slots and 20 rerolls followed once for each number of slots and each kind of power
    (A-09); bounded by the largest request measured, doubled."""
    return Estimate(SHEET_STATES, ("/max_rerolls",))


@operation(
    name="character/generate",
    kind=Kind.GENERATION,
    covers=("4c.character.generate",),
    odds=generate_odds,
    cost=sheet_cost,
    rolled=SHEET_ROLLED,
    example={"advanced_origins": True, "dice": {"seed": 18}},
)
def generate(request: GenerateInput, dice: Dice) -> CharacterSheet:
    """Generate a character in the catalogue's order (3.3.5, A-07): origin (C:L143-164),
    seven traits (C:L216-230), Lifestyle and Repute (C:L248-258), skills (C:L312-322),
    powers (C:L341-468), the advanced origin (C:L166-178), the powers' creation-time effects,
    Damage and Fortune (C:L236-246), then any Alter-Ego or Sidekick (C:L484-486,
    C:L808-810)."""
    sheet = roll_character(request, dice, Limits(), no_powers=False)
    held = {p.power for p in sheet.powers}
    alter = side = None
    if request.companions and PowerName.ALTER_EGO in held:
        alter = roll_alter_ego(request, dice)
    if request.companions and PowerName.SIDEKICK in held:
        caps = tuple(t.rv for t in sheet.traits)
        side = roll_character(
            request, dice, sidekick_limits(caps, sheet.power_count), no_powers=False
        )
    return CharacterSheet(**dict(sheet), alter_ego=alter, sidekick=side)
