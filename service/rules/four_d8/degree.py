"""The degree of success of four dice, and what each die means (D:L47-49, L72-174).

`score` is the lean arithmetic the odds enumerate; `read` adds the aspects each die stands
for and the special-effect texts, for a result a person reads.
"""

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_d8.options import (
    ComboPrecedence,
    EffectTextVersion,
    FourD8Options,
    SnakeEyesDegree,
)
from service.rules.four_d8.tables import (
    EFFECT_TEXTS,
    INTERPRETATIONS,
    Combination,
    EffectText,
    band,
)
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = [
    "ASPECTS",
    "Aspect",
    "AspectGroup",
    "DegreeInput",
    "Reading",
    "Scoring",
    "classify",
    "degree",
    "read",
    "score",
]


class Aspect(StrEnum):
    """Each die stands for one aspect, in this order (D:L74, L119; D-A15)."""

    PHYSICAL = "physical"
    MENTAL = "mental"
    SOCIAL = "social"
    MAGICAL = "magical"


ASPECTS = tuple(Aspect)


class Scoring(StrEnum):
    """The rule that gave the degree."""

    SNAKE_EYES = "snake_eyes"
    LUCKY_BREAK = "lucky_break"
    TRIPLET = "triplet"
    TWO_PAIRS = "two_pairs"
    PAIR = "pair"
    HIGHEST_DIE = "highest_die"


class Role(StrEnum):
    FOUR_SAME = "four_same"
    TRIPLET = "triplet"
    FOURTH_DIE = "fourth_die"
    PAIR = "pair"
    HIGHEST_REMAINING = "highest_remaining"
    HIGHEST_DIE = "highest_die"


class AspectGroup(Model):
    """Dice of one value that count together, and the aspects they stand for."""

    role: Role
    value: int
    aspects: list[Aspect]


class Reading(Model):
    """How four dice score (4d8.degree_of_success) and what they mean."""

    degree: int
    combination: Combination = Field(description="The shape of the dice that were scored.")
    scored_as: Scoring
    interpretation: str = Field(description="The meaning of the degree (D:L61-68).")
    groups: list[AspectGroup]
    effects: list[EffectText] = Field(
        description="Special-effect texts keyed by aspect: none for the base rules alone or "
        "for snake-eyes scoring 1 (D:L49)."
    )


_SHAPES = {
    (4,): Combination.FOUR_SAME,
    (3, 1): Combination.TRIPLET,
    (2, 2): Combination.TWO_PAIRS,
    (2, 1, 1): Combination.PAIR,
    (1, 1, 1, 1): Combination.DISTINCT,
}


def classify(dice: Sequence[int]) -> Combination:
    """The multiplicity pattern of four dice."""
    return _SHAPES[tuple(sorted(Counter(dice).values(), reverse=True))]


def score(dice: Sequence[int], options: FourD8Options) -> tuple[int, Scoring]:
    """The degree of four dice by the normal rules, and the rule that gave it.

    Four the same is a lucky break worth their sum, except four 1s, snake-eyes, worth 1
    (D:L49, D-A03). With the special combinations (D:L76-104): triplet 2t + f, two pairs
    a+a+b+b+5, pair p+p+max(rest); otherwise the highest die (D:L47). Under `shape`
    precedence the most specific pattern scores (D-A02: 5,5,5,3 is 13, D:L82).
    """
    counts = Counter(dice)
    if len(counts) == 1:
        value = dice[0]
        if value == 1:
            ones = 1 if options.snake_eyes_degree is SnakeEyesDegree.ONE else 4
            return ones, Scoring.SNAKE_EYES
        return 4 * value, Scoring.LUCKY_BREAK
    highest = (max(dice), Scoring.HIGHEST_DIE)
    if not options.special_combinations:
        return highest
    readings = [highest]
    for value, count in counts.items():
        rest = sorted((d for d in dice if d != value), reverse=True)
        if count == 3:
            readings.append((2 * value + rest[0], Scoring.TRIPLET))
        if count >= 2:
            others = sorted(dice, reverse=True)
            others.remove(value)
            others.remove(value)
            readings.append((2 * value + others[0], Scoring.PAIR))
    if sorted(counts.values()) == [2, 2]:
        readings.append((sum(dice) + 5, Scoring.TWO_PAIRS))
    if options.combo_precedence is ComboPrecedence.BEST_SCORE:
        return max(readings, key=lambda reading: reading[0])
    return _most_specific(readings)


_SPECIFICITY = (Scoring.TRIPLET, Scoring.TWO_PAIRS, Scoring.PAIR, Scoring.HIGHEST_DIE)


def _most_specific(readings: list[tuple[int, Scoring]]) -> tuple[int, Scoring]:
    return min(readings, key=lambda reading: (_SPECIFICITY.index(reading[1]), -reading[0]))


def _aspects(dice: Sequence[int], value: int) -> list[Aspect]:
    return [aspect for aspect, die in zip(ASPECTS, dice, strict=True) if die == value]


def _groups(dice: Sequence[int], scored_as: Scoring) -> list[AspectGroup]:
    """The aspect sets of D-A15: the scoring group(s) and the die that supports them."""
    counts = Counter(dice)

    def group(role: Role, value: int) -> AspectGroup:
        return AspectGroup(role=role, value=value, aspects=_aspects(dice, value))

    if scored_as in (Scoring.SNAKE_EYES, Scoring.LUCKY_BREAK):
        return [group(Role.FOUR_SAME, dice[0])]
    if scored_as is Scoring.TRIPLET:
        triple = next(v for v, c in counts.items() if c == 3)
        return [group(Role.TRIPLET, triple), group(Role.FOURTH_DIE, _other(dice, triple))]
    if scored_as is Scoring.TWO_PAIRS:
        high, low = sorted(counts, reverse=True)
        return [group(Role.PAIR, high), group(Role.PAIR, low)]
    if scored_as is Scoring.PAIR:
        pair = max(v for v, c in counts.items() if c >= 2)
        aspects = _aspects(dice, pair)
        if len(aspects) == 3:
            # A triplet scored as a pair (best_score): its third die is the highest remaining.
            return [
                AspectGroup(role=Role.PAIR, value=pair, aspects=aspects[:2]),
                AspectGroup(role=Role.HIGHEST_REMAINING, value=pair, aspects=aspects[2:]),
            ]
        return [group(Role.PAIR, pair), group(Role.HIGHEST_REMAINING, _other(dice, pair))]
    return [group(Role.HIGHEST_DIE, max(dice))]


def _other(dice: Sequence[int], value: int) -> int:
    return max(d for d in dice if d != value)


_COMBINATION_OF = {
    Scoring.SNAKE_EYES: Combination.FOUR_SAME,
    Scoring.LUCKY_BREAK: Combination.FOUR_SAME,
    Scoring.TRIPLET: Combination.TRIPLET,
    Scoring.TWO_PAIRS: Combination.TWO_PAIRS,
    Scoring.PAIR: Combination.PAIR,
}


def _effects(
    scored_as: Scoring, groups: list[AspectGroup], options: FourD8Options
) -> list[EffectText]:
    """The general text of the combination, and the per-aspect texts of version 2 keyed by
    the aspects of its main group(s) (a pair by each of its aspects; two pairs by the
    two-aspect key of each pair, D-A15).

    The texts belong to the additional rules (D:L72-174): dice scored by the base rules alone
    have none. Snake-eyes are bad luck, "an exception to the lucky break rule" (D:L49), so
    they take the four-same "significant advantage" (D:L110, L169) only when they also take
    that row's degree, the sum (D-A03).
    """
    combination = _COMBINATION_OF.get(scored_as)
    unlucky = scored_as is Scoring.SNAKE_EYES and options.snake_eyes_degree is SnakeEyesDegree.ONE
    if combination is None or not options.special_combinations or unlucky:
        return []
    version = options.effect_text_version
    versions = {"1", "2"} if version is EffectTextVersion.BOTH else {version.value}
    main = [g for g in groups if g.role in (Role.FOUR_SAME, Role.TRIPLET, Role.PAIR)]
    if combination is Combination.TWO_PAIRS:
        keys = {" + ".join(a.value.title() for a in g.aspects) for g in main}
    else:
        keys = {a.value.title() for g in main for a in g.aspects}
    keys.add("general")
    return [
        text
        for text in EFFECT_TEXTS
        if text.version in versions and text.combination is combination and text.key in keys
    ]


def read(dice: Sequence[int], degree: int, scored_as: Scoring, options: FourD8Options) -> Reading:
    """The full reading of scored dice (in aspect order), under the options they were
    scored by."""
    groups = _groups(dice, scored_as)
    return Reading(
        degree=degree,
        combination=classify(dice),
        scored_as=scored_as,
        interpretation=band(INTERPRETATIONS, degree),
        groups=groups,
        effects=_effects(scored_as, groups, options),
    )


Face = Annotated[int, Field(ge=1, le=8)]


class DegreeInput(Model):
    """Four faces in aspect order: physical, mental, social, magical."""

    faces: tuple[Face, ...] = Field(min_length=4, max_length=4, examples=[[5, 5, 5, 3]])
    options: FourD8Options = Field(default=FourD8Options())


@operation(
    name="degree-of-success",
    kind=Kind.LOOKUP,
    covers=(
        "4d8.degree_of_success",
        "4d8.lucky_break",
        "4d8.snake_eyes",
        "4d8.combo.classify",
        "4d8.combo.four_same",
        "4d8.combo.triplet",
        "4d8.combo.two_pairs",
        "4d8.combo.pair",
        "4d8.aspects",
    ),
    example={"faces": [5, 5, 5, 3]},
)
def degree(request: DegreeInput) -> Reading:
    """The degree of success four dice score by the normal rules, with the aspects each die
    stands for and the special effects of its combination (D:L47-49, L72-174).

    It does not decide success: that needs the chance (see `check`).
    """
    value, scored_as = score(request.faces, request.options)
    return read(request.faces, value, scored_as, request.options)
