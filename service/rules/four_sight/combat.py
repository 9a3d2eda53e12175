"""Combat: the attack as an exploding opposed check, the injury it inflicts, the grievous
Constitution check, mooks, expertise by weapon and the turn order (S:L185-209, S:L221-223)."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import Exact, OutcomeProbability, Truncation, exact, outcome_table
from service.rules.four_sight.characters import key
from service.rules.four_sight.checks import CheckResult, Graded, grade
from service.rules.four_sight.contest import (
    Side,
    Sides,
    contest_depth,
    contest_distribution,
    contest_sides,
    decide,
    roll_contest,
    tie_winner,
)
from service.rules.four_sight.expertise import (
    DEFENSIVE_TACTICS,
    Affinity,
    Expertise,
)
from service.rules.four_sight.injuries import INJURIES, Injury, injury_of, penalty_of
from service.rules.four_sight.manifestations import AUTOMATIC, Manifestation
from service.rules.four_sight.odds import check_depth, check_distribution, truncation
from service.rules.four_sight.options import CheckOptions, ManifestationStacking
from service.rules.four_sight.pool import Roller, check_usable, plan
from service.rules.four_sight.rolling import CheckRoll, roll
from service.rules.four_sight.traits import MAX_TRAIT, MIN_TRAIT, Trait, TraitScore
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["attack", "combat_expertise", "grievous_check", "turn_order"]

GRIEVOUS_TN = 7  # "a Constitution check with a target number of 7" (S:L199)
NO_HIT = "no_hit"


class Fate(StrEnum):
    """What a grievous injury leaves the character (S:L199)."""

    FUNCTIONS = "functions"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"


class GrievousInput(Roller):
    """The Constitution check at TN 7 a Grievous injury calls for (S:L199); `traits` must hold
    Constitution and `injuries` are those suffered before the grievous one."""

    combat: bool = Field(default=False, description="S-A17: not a combat check by default.")
    lethal_attack: bool = Field(
        default=False, description="A failed check kills (true) or knocks out (S:L199)."
    )
    options: CheckOptions = Field(default=CheckOptions())


class GrievousResult(CheckResult):
    """The Constitution check and the character's fate."""

    fate: Fate


class GrievousOdds(Model):
    """The exact odds of the grievous Constitution check."""

    functions: Exact
    fate: list[OutcomeProbability]
    truncation: Truncation | None


def _con_roller(request: GrievousInput) -> Roller:
    """The check as a roller: Constitution alone, whatever other traits the character has
    (S:L199, catalogue A3.20), and the new injury's penalty with S-A20."""
    constitution = tuple(t for t in request.traits if t.trait is Trait.CONSTITUTION)
    if not constitution:
        raise InputError(("traits",), "the grievous injury check is a Constitution check (S:L199)")
    injuries = request.injuries
    if request.options.grievous_check_includes_new_penalty:
        injuries = (*injuries, Injury.GRIEVOUS)  # S-A20: the new injury already hurts
    fields = {name: getattr(request, name) for name in Roller.model_fields}
    # Validated as the request was; the new injury may be one more than a request may list.
    return Roller.model_validate({**fields, "traits": constitution}).model_copy(
        update={"injuries": injuries}
    )


def _fate(graded: Graded, lethal: bool) -> Fate:
    if graded.success:
        return Fate.FUNCTIONS
    return Fate.DEAD if lethal else Fate.UNCONSCIOUS


def grievous_odds(request: GrievousInput) -> GrievousOdds:
    """Exact odds that a character keeps functioning after a grievous injury."""
    planned = plan(_con_roller(request), request.options, request.combat)
    depth, _ = check_depth(planned, _PASSES)
    outcome = check_distribution(planned, _PASSES, depth)
    fates = outcome.map(
        lambda o: _fate(grade(o[0], o[1], GRIEVOUS_TN, request.options), request.lethal_attack)
    )
    return GrievousOdds(
        functions=exact(fates.probability(Fate.FUNCTIONS)),
        fate=outcome_table(fates, list(Fate)),
        truncation=truncation(outcome, depth=depth),
    )


#: Only whether the check passes is read: every result below the target number is alike,
#: and every result from it up.
_PASSES = (GRIEVOUS_TN, GRIEVOUS_TN)


def grievous_cost(request: GrievousInput) -> Estimate:
    """The Constitution check, bounded as a combat check is (`checks.check_cost`), and the
    fate of each of its outcomes, at the depth `grievous_odds` enumerates to."""
    planned = plan(_con_roller(request), request.options, request.combat)
    _, bound = check_depth(planned, _PASSES)
    return Estimate(bound.states + bound.outcomes, _GRIEVOUS_DRIVERS)


_GRIEVOUS_DRIVERS = ("/injuries", "/manifestations", "/options")


@operation(
    name="grievous-con-check",
    kind=Kind.CHECK,
    covers=("4sight.grievous_con_check",),
    odds=grievous_odds,
    cost=grievous_cost,
    example={"traits": [{"trait": "constitution", "score": 2}], "dice": {"seed": 7}},
)
def grievous_check(request: GrievousInput, dice: Dice) -> GrievousResult:
    """After a Grievous injury the character makes a Constitution check at TN 7: success, they
    still function; failure, they are knocked out or killed by the nature of the attack
    (S:L199). Whether the new -4 applies is `grievous_check_includes_new_penalty` (S-A20)."""
    return _roll_grievous(request, dice)


def _roll_grievous(request: GrievousInput, dice: Dice, who: str = "") -> GrievousResult:
    roller = _con_roller(request)
    made = roll(roller, plan(roller, request.options, request.combat), dice, who)
    graded = grade(made.result, made.adverse_episode, GRIEVOUS_TN, request.options)
    return GrievousResult(**dict(made), **dict(graded), fate=_fate(graded, request.lethal_attack))


class AttackInput(Model):
    """One attack: attacker against defender, both exploding (S:L189-191)."""

    attacker: Roller = Field(description="Dexterity is the principal trait (S:L189).")
    defender: Roller
    pc_side: Side | None = Field(
        default=None, description="The side that is a PC, for opposed_tie_winner=pc."
    )
    defender_constitution: Annotated[int, Field(ge=MIN_TRAIT, le=MAX_TRAIT)] | None = Field(
        default=None,
        description="With it, a Grievous injury rolls the defender's Constitution check at "
        "TN 7 at once (S:L199).",
    )
    lethal_attack: bool = Field(default=False, description="A failed grievous check kills.")
    grievous_use_manifestation: Manifestation | None = Field(
        default=None,
        description="The manifestation the defender names for that Constitution check, a "
        "check of its own (S:L140, S-A10); by default the automatic one named for the "
        "defence. Needed when the defender declared another for the defence and holds both "
        "Deep Sight and Precognitive Flare.",
    )
    options: CheckOptions = Field(default=CheckOptions())


class AttackResult(Model):
    """Both checks, the hit, the injury and what it leaves the defender."""

    attack: CheckRoll
    defence: CheckRoll
    hit: bool = Field(description="The attack equals or exceeds the defence (S:L179, S:L189).")
    margin: int = Field(description="The winner's check - the loser's.")
    injury: Injury | None = Field(description="The injury of the margin (S:L193-197).")
    defender_injuries: list[Injury] = Field(description="The defender's injuries after.")
    defender_penalty_per_die: int = Field(description="The defender's penalty after (S:L201).")
    grievous_check_required: bool
    grievous_check: GrievousResult | None


class AttackOdds(Model):
    """The exact odds of an attack."""

    hit: Exact
    injury: list[OutcomeProbability] = Field(description="'no_hit' and each injury.")
    attacker_adverse_episode: Exact
    defender_adverse_episode: Exact
    grievous_check_passes: Exact | None = Field(
        description="P(the Constitution check passes) after a Grievous injury, given "
        "defender_constitution."
    )
    truncation: Truncation | None


def _grievous_request(request: AttackInput, defence: CheckRoll | None) -> GrievousInput | None:
    if request.defender_constitution is None:
        return None
    defender = request.defender
    locked = tuple(defence.locked_out) if defence else defender.locked_out
    use = _still_chosen(request, locked)
    return GrievousInput(
        traits=(TraitScore(trait=Trait.CONSTITUTION, score=request.defender_constitution),),
        injuries=defender.injuries, manifestations=defender.manifestations,
        use_manifestation=use, locked_out=locked,
        decline_flare=defender.decline_flare, lethal_attack=request.lethal_attack,
        options=request.options,
    )  # fmt: skip


def _still_chosen(request: AttackInput, locked: tuple[Manifestation, ...]) -> Manifestation | None:
    """Which manifestation acts on the Constitution check: the one named for it, else the one
    of Deep Sight and Precognitive Flare named for the defence (S-A10), unless the defence's
    episode locked it out (S:L140). A declared one does not carry over: the player declares
    it for each check (S:L140), so naming one for the defence says nothing of this check, and
    when both automatic ones are in reach under manifestation_stacking=single the text leaves
    which acts to the player: `grievous_use_manifestation`."""
    defender, named = request.defender, request.grievous_use_manifestation
    if named is not None:
        check_usable(named, defender, "grievous_use_manifestation")
    chosen = named if named is not None else defender.use_manifestation
    if chosen in locked or (named is None and chosen not in AUTOMATIC):
        chosen = None
    in_reach = [m for m in AUTOMATIC if m in defender.manifestations and m not in locked]
    single = request.options.manifestation_stacking is ManifestationStacking.SINGLE
    if chosen is None and single and len(in_reach) > 1:
        raise InputError(
            ("grievous_use_manifestation",),
            "the defender holds both Deep Sight and Precognitive Flare and neither was named "
            "for the defence; with manifestation_stacking=single name the one that acts on "
            "the Constitution check (S-A10)",
        )
    return chosen


def _sides(request: AttackInput) -> Sides:
    return (("attacker", request.attacker), ("defender", request.defender))


_INJURY_GRADES = (
    [(row.injury.value, row.low, row.high) for row in INJURIES],
    [(NO_HIT, 0, None)],
)
_GRADE_COUNT = len(_INJURY_GRADES[0]) + len(_INJURY_GRADES[1])


def attack_odds(request: AttackInput) -> AttackOdds:
    """Exact odds of an attack: the hit and each injury, with exploding dice on both sides."""
    options = request.options
    depth, _ = contest_depth(_sides(request), options, True, _GRADE_COUNT)
    sides = contest_sides(_sides(request), options, True, depth)
    tie = tie_winner(options, request.pc_side)
    found = contest_distribution(sides[0], sides[1], _INJURY_GRADES, tie, options)
    grievous = _grievous_request(request, None)
    return AttackOdds(
        hit=exact(found.probability_where(lambda o: o != NO_HIT)),
        injury=outcome_table(found, [NO_HIT, *(i.value for i in Injury)]),
        attacker_adverse_episode=exact(sides[0].probability_where(lambda o: o[1])),
        defender_adverse_episode=exact(sides[1].probability_where(lambda o: o[1])),
        grievous_check_passes=grievous_odds(grievous).functions if grievous else None,
        truncation=truncation(*sides, depth=depth),
    )


def attack_cost(request: AttackInput) -> Estimate:
    """Both combat checks and the injury bands over the pairs of their outcomes
    (`contest.contest_states`), and the defender's Constitution check when it is asked for
    (`grievous_cost`), at the depth `attack_odds` enumerates to."""
    _, states = contest_depth(_sides(request), request.options, True, _GRADE_COUNT)
    grievous = _grievous_request(request, None)
    if grievous is not None:
        states += grievous_cost(grievous).states
    return Estimate(states, _ATTACK_DRIVERS)


_ATTACK_DRIVERS = ("/attacker", "/defender", "/options")


@operation(
    name="combat-attack",
    # Plain fights between average-to-heroic fighters.
    standard=[
        {
            "attacker": {"traits": [{"trait": "dexterity", "score": a}]},
            "defender": {"traits": [{"trait": "dexterity", "score": d}]},
        }
        for a in range(1, 5)
        for d in range(1, 5)
    ],
    kind=Kind.CHECK,
    covers=("4sight.combat_attack", "4sight.exploding_die", "4sight.injury"),
    odds=attack_odds,
    cost=attack_cost,
    example={
        "attacker": {"traits": [{"trait": "dexterity", "score": 3}]},
        "defender": {"traits": [{"trait": "dexterity", "score": 2}]},
        "dice": {"seed": 11},
    },
)
def attack(request: AttackInput, dice: Dice) -> AttackResult:
    """Combat is an opposed check in which every 6 explodes (S:L189-191): if the attack equals
    or exceeds the defence it hits, and the margin is the injury (3 or less Minor, 4-6 Moderate,
    7-10 Severe, 11+ Grievous; S:L193-197), which then costs the defender a penalty on every
    d6 (S:L201-207). A Grievous injury calls for a Constitution check at TN 7 (S:L199)."""
    options = request.options
    made = roll_contest(_sides(request), options, True, dice)
    winner, margin = decide(made[0], made[1], tie_winner(options, request.pc_side), options)
    hit = winner is Side.AGGRESSOR
    injury = injury_of(margin) if hit else None
    injuries = [*request.defender.injuries, *([injury] if injury else [])]
    grievous = _grievous_request(request, made[1]) if injury is Injury.GRIEVOUS else None
    return AttackResult(
        attack=made[0], defence=made[1], hit=hit, margin=margin, injury=injury,
        defender_injuries=injuries,
        defender_penalty_per_die=penalty_of(injuries, options.injury_stacking),
        grievous_check_required=injury is Injury.GRIEVOUS,
        grievous_check=_roll_grievous(grievous, dice, "defender ") if grievous else None,
    )  # fmt: skip


class CombatRole(StrEnum):
    ATTACK = "attack"
    DEFENCE = "defence"


class Weapon(StrEnum):
    """The weapons a combat specialty names (S:L75, S:L189)."""

    ARCHAIC_RANGED_WEAPONS = "archaic ranged weapons"
    FIREARMS = "firearms"
    MELEE_WEAPONS = "melee weapons"
    HAND_TO_HAND_COMBAT = "hand-to-hand combat"


class CombatExpertiseInput(Model):
    """A character's expertise and what they are doing in a fight."""

    role: CombatRole
    expertise: Annotated[tuple[Annotated[str, Field(min_length=1, max_length=60)], ...],
                         Field(max_length=16)] = Field(
        description="The affinities and specialties the character has, by name."
    )  # fmt: skip
    weapon: Weapon | None = Field(default=None, description="The weapon attacked with.")


class CombatExpertise(Model):
    """The expertise dice for the attack or defence, and the entry that gives them."""

    expertise: Expertise
    dice: int
    because: str | None = Field(description="The expertise that applies, if any.")


@operation(
    name="combat-expertise",
    kind=Kind.LOOKUP,
    covers=("4sight.combat_expertise",),
    example={"role": "attack", "expertise": ["combat"]},
)
def combat_expertise(request: CombatExpertiseInput) -> CombatExpertise:
    """The Combat affinity gives a die attacking and defending; a weapon specialty two dice
    attacking with that weapon; defensive tactics two dice defending against any attack; the
    best one applies, never two (S:L138, S:L189)."""
    held = {key(name) for name in request.expertise}
    specialty = (
        request.weapon.value
        if request.role is CombatRole.ATTACK and request.weapon is not None
        else DEFENSIVE_TACTICS
        if request.role is CombatRole.DEFENCE
        else None
    )
    if specialty is not None and key(specialty) in held:
        return CombatExpertise(expertise=Expertise.SPECIALTY, dice=2, because=specialty)
    if key(Affinity.COMBAT.value) in held:
        return CombatExpertise(expertise=Expertise.AFFINITY, dice=1, because="Combat")
    return CombatExpertise(expertise=Expertise.NONE, dice=0, because=None)


class TurnOrderInput(Model):
    """The participants of a fight in the order the GM sets (S-A28)."""

    participants: Annotated[tuple[Annotated[str, Field(min_length=1, max_length=60)], ...],
                            Field(min_length=1, max_length=32)]  # fmt: skip
    rounds: Annotated[int, Field(ge=1, le=20)] = 1


class Turn(Model):
    round: int
    turn: int
    participant: str


class TurnOrder(Model):
    turns: list[Turn]


@operation(
    name="combat/turn-order",
    kind=Kind.CALCULATION,
    covers=("4sight.combat.turn_order",),
    example={"participants": ["Ann", "Bo"], "rounds": 2},
)
def turn_order(request: TurnOrderInput) -> TurnOrder:
    """The turns of a fight: "combat proceeds with alternating checks among the participants"
    (S:L209). The text has no initiative, so this cycles through the GM's order (S-A28)."""
    if len(set(request.participants)) != len(request.participants):
        raise InputError(("participants",), "each participant must be named once")
    count = len(request.participants)
    return TurnOrder(
        turns=[
            Turn(round=r + 1, turn=r * count + i + 1, participant=name)
            for r in range(request.rounds)
            for i, name in enumerate(request.participants)
        ]
    )
