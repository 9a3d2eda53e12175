"""The character sheet (catalogue 3.C.1, 3.C.17, F:L427-1061): the player's choices made
into the whole sheet, every derived value with it, and every rule of creation checked at once.

Creation runs in the book's order (F:L427-438): species and character modifiers, inherent
attributes, background factors and their points, the free package and the four skills
everyone has, points spent (attributes trained, skills, familiarities, fields, wealth),
then the derived values. A sheet that breaks rules gets one answer naming each of them."""

from collections import Counter

from service.rules.foresight.characters.attributes import POINTS, Range, training_steps
from service.rules.foresight.characters.backgrounds import (
    BACKGROUNDS,
    Background,
    BackgroundInput,
    BackgroundOptions,
    CompetenceInput,
    Pool,
    competence_of,
    tally,
)
from service.rules.foresight.characters.derived import capacity, stamina_of, ucdc_of
from service.rules.foresight.characters.draft import (
    Character,
    CharacterInput,
    Checked,
    Draft,
    FieldLevel,
    Handedness,
    Overflow,
    SheetAttribute,
    SheetSkill,
)
from service.rules.foresight.characters.endowment import Wealth, wealth_of
from service.rules.foresight.characters.ledger import (
    AMBIDEXTERITY,
    E_POINT,
    G_POINT,
    INSIGHT_TIMES,
    balances,
    insight_key,
    transfer_lines,
)
from service.rules.foresight.characters.purchases import (
    Free,
    bought_familiarities,
    bought_fields,
    bought_skills,
    check_long_term,
    free_package,
    sell_off,
)
from service.rules.foresight.characters.skills import (
    EXTRA_PICK_CP,
    MOST_PER_CLASS,
    PICK_LEVELS,
    AttributeValues,
    KnownField,
    TheoryInput,
    favored_errors,
    skill_row,
)
from service.rules.foresight.characters.species import (
    INSIGHT_SCORE,
    ModifierOptions,
    Species,
    SpeciesInput,
    species_of,
)
from service.rules.foresight.resolution.abilities import Attribute
from service.rules.model import InputError, Violations
from service.rules.registry import Kind, operation

__all__ = ["create", "validate"]

#: Each background factor that is neither childhood nor a gift lasts one to five years
#: (F:L667).
YEARS = (1, 5)
#: One or two childhood background factors are usual (catalogue 3.C.17, rule 6).
CHILDHOODS = (1, 2)

#: Amy Kwan as the book finally makes her (F:L536-1053; catalogue 4.3).
AMY = {
    "backgrounds": [{"background": "Comfortable Childhood"}, {"background": "Full-Time Education"},
                    {"background": "Field/Specialist Training"},
                    {"background": "Field Experience"}],
    "inherent": {"ST": 7, "EN": 7, "DX": 8, "AG": 8, "IN": 11, "PC": 11, "EM": 10, "WP": 9,
                 "AP": 10},
    "trained": {"ST": 7, "EN": 7, "DX": 10, "AG": 8, "IN": 12, "PC": 12, "EM": 12, "WP": 11,
                "AP": 12},
    "free_package": "Near Future",
    "skills": [{"skill": s, "level": n} for s, n in (
        ("Athletics", 3), ("Charisma", 11), ("Confidence", 13), ("Dance", 1), ("Groundcraft", 4),
        ("Hand-to-Hand Combat", 4), ("Handguns", 4), ("Initiative", 4), ("Lockpicking", 4),
        ("Pain Resistance", 0), ("Search", 9), ("Stamina", 4), ("Stealth", 4), ("Teach", 2),
        ("Theory", 6))],
    "fields": [{"field": "Language (English)", "level": "standard"},
               {"field": "Literacy", "level": "standard"},
               {"field": "Physics", "level": "basic"}, {"field": "Mathematics", "level": "basic"},
               *({"field": f, "level": "standard"} for f in (
                   "Computer Science", "Law", "Psychology", "Forensic Science", "Photography",
                   "Unarmed Combat Defensive")),
               {"field": "Surveillance", "level": "basic"}],
    "environments": [{"name": "interior", "points": 3}, {"name": "suburban", "points": 2},
                     {"name": "urban", "points": 2}],
    "handedness": "right",
}  # fmt: skip


# Species, background factors and attributes


def _species(draft: Draft) -> Species | None:
    request = draft.request
    frames = ModifierOptions(frame_shifts_minimum=request.options.frame_shifts_minimum)
    try:
        return species_of(SpeciesInput(species=request.species, modifiers=request.modifiers,
                                       options=frames))  # fmt: skip
    except InputError as error:
        draft.attempt((), error)
        return None


def _background(draft: Draft) -> Background | None:
    request = draft.request
    chosen = BackgroundInput(
        backgrounds=request.backgrounds,
        inherent=AttributeValues(**request.inherent.model_dump()),
        options=BackgroundOptions(allow_duplicate_choice=request.options.allow_duplicate_choice),
    )
    try:
        found = tally(chosen)
    except InputError as error:
        draft.attempt((), error)
        return None
    draft.approval += found.requires_gm_approval
    if not CHILDHOODS[0] <= found.childhood_factors <= CHILDHOODS[1]:
        draft.warnings.append(f"{found.childhood_factors} childhood background factors; one or "
                              "two are usual")  # fmt: skip
    return found


def _attributes(
    draft: Draft, ranges: list[Range], found: Background | None
) -> list[SheetAttribute]:
    """Inherent values within the species' range, summing to its least plus 36 and the
    background factors' points, which never lift a value past the range (F:L473-477, F:L603);
    trained values from inherent to inherent + 4, paid for (F:L728-738)."""
    request = draft.request
    inherent, trained = request.inherent, request.trained or request.inherent
    grants: Counter[Attribute] = Counter()
    for grant in found.grants if found else ():
        grants[grant.attribute] += grant.points
    rows = []
    for limits in ranges:
        name = limits.attribute.value
        value, target = getattr(inherent, name), getattr(trained, name)
        if not limits.low <= value <= limits.high:
            draft.error(("inherent", name), f"{value} is outside {limits.low}-{limits.high} "
                        "(F:L467, F:L1113)")  # fmt: skip
        elif value - grants[limits.attribute] < limits.low:
            draft.error(("inherent", name), f"{value} holds +{grants[limits.attribute]} from "
                        f"background factors on a base under {limits.low} (F:L603)")  # fmt: skip
        if target < value:
            draft.error(("trained", name), f"{target} is under inherent {value}: only injury "
                        "or privation lowers it (F:L471)")  # fmt: skip
        elif target > value + 4:
            draft.error(("trained", name), f"at most inherent + 4 = {value + 4} (F:L738)")
        else:
            draft.pay(f"{name} trained {value} to {target}", Pool.GENERAL,
                      sum(training_steps(value, value, target)))  # fmt: skip
        rows.append(SheetAttribute(attribute=limits.attribute, inherent=value, trained=target,
                                   low=limits.low, high=limits.high))  # fmt: skip
    bonus = (found.free_attribute_points if found else 0) + sum(grants.values())
    wanted = sum(r.low for r in ranges) + POINTS + bonus
    total = sum(r.inherent for r in rows)
    wasted = 0
    if request.options.bonus_overflow is Overflow.CAP_AND_WASTE:
        wasted = sum(grants[r.attribute] for r in rows if r.inherent == r.high)
    # With broken backgrounds the bonus is unknown, and so is the sum.
    if found is not None and not wanted - wasted <= total <= wanted:
        draft.error(("inherent",), f"the nine sum to {total}, not {wanted}: the species' least, "
                    f"36 and {bonus} from background factors (F:L473-477, F:L603)")  # fmt: skip
    return rows


# Favored picks, insights, handedness, wealth and transfers


def _favored(draft: Draft, skills: list[SheetSkill]) -> tuple[int, int]:
    """Hand-to-Hand favored classes at levels 0 and 10, more from 10 at 10 CP (F:L799);
    Theory's favored fields one a five levels, on fields known past basic (F:L826)."""
    request = draft.request
    levels = {s.skill: s.level for s in skills}
    hth = levels.get("Hand-to-Hand Combat")
    hth_picks = sum(1 for level in PICK_LEVELS if hth is not None and hth >= level)
    weapons = request.favored_weapons
    extra = max(0, len(weapons) - hth_picks)
    if extra and (hth is None or hth < PICK_LEVELS[-1]):
        draft.error(("favored_weapons",), f"{hth_picks} favored classes at Hand-to-Hand "
                    f"level {hth if hth is not None else 'none'} (F:L799)")  # fmt: skip
    elif extra:
        draft.pay(f"{extra} extra favored weapon classes", Pool.GENERAL, EXTRA_PICK_CP * extra)
    if any(n > MOST_PER_CLASS for n in Counter(w.casefold() for w in weapons).values()):
        draft.error(("favored_weapons",), "a class is favored twice at most (AMB-47)")
    theory = levels.get("Theory", 0)
    if request.favored_fields:
        known = tuple(KnownField(field=f.field, standard=f.level is FieldLevel.STANDARD,
                            specializations=f.specializations) for f in request.fields)  # fmt: skip
        problem = favored_errors(TheoryInput(level=theory, known=known,
                                             favored=request.favored_fields))  # fmt: skip
        if len(request.favored_fields) > theory // 5:
            problem = f"Theory {theory} gives {theory // 5} favored picks (F:L826)"
        if problem:
            draft.error(("favored_fields",), problem)
    return theory // 5, hth_picks


def _insights(draft: Draft, skills: list[SheetSkill]) -> None:
    """A unique insight, 10 x the skill's cost, needs the skill at its maximum level and a
    score of 26 (20+2), and only one into a skill (F:L1117)."""
    by_name = {s.skill.casefold(): s for s in skills}
    seen = set()
    for index, name in enumerate(draft.request.unique_insights):
        skill = by_name.get(name.casefold())
        if insight_key(name) in seen:
            draft.error(("unique_insights", index), "one unique insight into a skill (F:L1117)")
        elif skill is None:
            draft.error(("unique_insights", index), f"{name} is not a skill the sheet has")
        elif skill.level < skill.max_level or skill.score < INSIGHT_SCORE:
            draft.error(("unique_insights", index), f"{skill.skill} needs its maximum level "
                        f"{skill.max_level} and a score of 26 (F:L1117)")  # fmt: skip
        else:
            draft.pay(f"unique insight: {skill.skill}", Pool.GENERAL,
                      INSIGHT_TIMES * skill_row(skill.skill).cost)  # fmt: skip
        seen.add(insight_key(name))


def _handedness(draft: Draft) -> None:
    handedness = draft.request.handedness
    if handedness is None:
        draft.error(("handedness",), "every character is left- or right-handed, or "
                    "ambidextrous for 15 (F:L745-746)")  # fmt: skip
    elif handedness is Handedness.AMBIDEXTROUS:
        draft.pay("ambidexterity", Pool.GENERAL, AMBIDEXTERITY)


def _wealth(draft: Draft, found: Background | None) -> Wealth:
    request = draft.request
    rows = found.wealth_rows if found else 0
    series = request.options.wealth_series
    try:
        wealth = wealth_of(request.wealth_start, rows, request.wealth_rows, series)
    except InputError as error:
        draft.error(("wealth_start",), error.message)
        wealth = wealth_of("Average", rows, request.wealth_rows, series)
    draft.pay(f"wealth {request.wealth_rows:+d} rows", Pool.GENERAL, wealth.cp_cost)
    return wealth


def _years(draft: Draft) -> list[int]:
    """Factors that are neither childhood nor gifts take one to five years each (F:L667)."""
    names = {row.background.casefold(): row.group for row in BACKGROUNDS}
    counted = sum(1 for chosen in draft.request.backgrounds
                  if names.get(chosen.background.casefold()) in ("general", "unusual"))  # fmt: skip
    return [YEARS[0] * counted, YEARS[1] * counted]


# The sheet


def assess(request: CharacterInput) -> Character:
    """The whole sheet, or every rule it breaks at once."""
    draft = Draft(request)
    kind = _species(draft)
    found = _background(draft)
    ranges = kind.ranges if kind else species_of(SpeciesInput()).ranges
    attributes = _attributes(draft, ranges, found)
    trained = AttributeValues(**{a.attribute.value: a.trained for a in attributes})
    free = Free(free_package(draft))
    sell_off(draft, free)
    skills = bought_skills(draft, trained, free)
    fields = bought_fields(draft, free)
    environments = bought_familiarities(
        draft,
        "environments",
        request.environments,
        free.environments,
        free.chosen_environment_points,
        E_POINT,
    )
    gravities = bought_familiarities(
        draft, "gravities", request.gravities, free.gravities, 0, G_POINT
    )
    check_long_term(draft)
    theory_picks, hth_picks = _favored(draft, skills)
    _insights(draft, skills)
    _handedness(draft)
    wealth = _wealth(draft, found)
    for transfer in request.transfers:
        draft.lines += transfer_lines(transfer)
    general = (found.general if found else 0) + (kind.general if kind else 0)
    education = (found.education if found else 0) + (kind.education if kind else 0)
    # With broken backgrounds the points available are unknown: only their errors are named.
    checked = draft.errors if found is not None else []
    general_balance, education_balance = balances(draft.lines, general, education, checked)
    if draft.errors:
        raise Violations(draft.errors)
    factors = len(request.backgrounds) + (kind is not None and kind.species != "Human")
    level = competence_of(CompetenceInput(background_factors=factors)).competence
    values = {a.attribute: a.trained for a in attributes}
    stamina = next((s.level for s in skills if s.skill == "Stamina"), 0)
    return Character(
        background_factors=factors, competence=level, years_of_background=_years(draft),
        general=general_balance, education=education_balance,
        talents=found.talents if found else [], warnings=draft.warnings,
        requires_gm_approval=[*draft.approval, "age, against the background factors (F:L669)"],
        species=kind.species if kind else request.species, attributes=attributes,
        skills=skills, fields=fields, environments=environments, gravities=gravities,
        handedness=request.handedness,
        ucdc=ucdc_of(values[Attribute.ST], request.options.ucdc_rounding),
        carrying_capacity=capacity(values[Attribute.ST]),
        stamina=stamina_of(values[Attribute.EN], values[Attribute.WP], stamina),
        theory_favored_picks=theory_picks, hth_favored_picks=hth_picks, wealth=wealth,
        lines=draft.lines,
    )  # fmt: skip


@operation(
    name="character/create",
    kind=Kind.GENERATION,
    covers=("foresight.character.create",),
    example=AMY,
)
def create(request: CharacterInput) -> Character:
    """A character from the player's choices, in the book's order (F:L427-438): species and
    character modifiers, inherent attributes, background factors, the free package and the
    four skills everyone has, points spent, then every derived value: skill scores and their
    20+n, maximum levels, UCDC, carrying capacity, stamina, favored picks and wealth. Amy
    Kwan's sheet (F:L536-1053) leaves 27 general points unspent, not the book's 0: its sums
    lose 3 at F:L867, 23 at F:L1031 and 1 at F:L1051 (catalogue 4.3)."""
    return assess(request)


@operation(
    name="character/validate",
    kind=Kind.VALIDATION,
    covers=("foresight.character.validate",),
    example=AMY,
)
def validate(request: CharacterInput) -> Checked:
    """Every rule of creation checked at once, each violation named by its field (catalogue
    3.C.17): attributes in the species' range and summing right, trained at most inherent +
    4, skills at most their maximum level, familiarities at most 3, a handedness, background
    factors taken once where starred, fields on their prerequisites, favored picks, each
    long-term familiarity once, and neither pool overspent. What only the GM can judge is
    listed, not refused."""
    sheet = assess(request)
    return Checked(**{name: getattr(sheet, name) for name in Checked.model_fields})
