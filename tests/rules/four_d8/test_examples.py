"""The worked examples of the catalogue (B4, E1-E9) and the rules they illustrate, run through
the registered operations `check`, `chance` and `degree` with table dice.

Dice are given in aspect order: physical, mental, social, magical (D:L74, D-A15). Every test
cites the seed text (seeds/003) as D:L<n>.
"""

import json
from typing import Any

import pydantic
import pytest

from service.rules.dice import DiceError
from service.rules.four_d8.options import FourD8Options
from service.rules.model import InputError

from .rulebook import CHECK, chance, chance_of, check, degree, odds

BARELY = "Barely succeeded by a whisker"
UNSPECTACULAR = "Unspectacular success"
SUPERB = "Superb result"
EXCEPTIONAL = "Exceptional success"


def aspects_of(result: Any, role: str) -> list[list[str]]:
    return [group.aspects for group in result.reading.groups if group.role == role]


# E1 -- the basic degree: the highest die


def test_e1_basic_degree_is_the_highest_die():
    """E1, D:L47: 2, 5, 6 and 8 total 21; the degree is the highest die, 8."""
    result = check(ease=21, dice=[2, 5, 6, 8])
    assert result.success
    assert result.natural_total == 21
    assert result.combination == "distinct"
    assert result.degree == 8
    assert result.interpretation == UNSPECTACULAR
    assert aspects_of(result, "highest_die") == [["magical"]]


def test_e1_a_total_above_the_chance_fails():
    """D:L8, D:L45: a total greater than the chance fails, and a failure has no degree."""
    result = check(ease=20, dice=[2, 5, 6, 8])
    assert not result.success
    assert result.degree is None
    assert result.interpretation is None


# E2 -- snake-eyes


def test_e2_snake_eyes_score_one():
    """E2, D:L49: four 1s are snake-eyes, an exception to the lucky break: degree 1."""
    result = check(ease=4, dice=[1, 1, 1, 1])
    assert result.success
    assert result.snake_eyes
    assert not result.lucky_break
    assert result.degree == 1
    assert result.interpretation == BARELY
    assert result.reading.scored_as == "snake_eyes"


def test_seed_wins_snake_eyes_stay_one_despite_the_summary_tables():
    """D-A03: the summary tables (D:L110, D:L169) give four the same their sum, which would
    make snake-eyes 4; the base text states the exception explicitly (D:L49). Where the
    catalogue and the seed disagree the seed wins, and here the catalogue agrees with the
    seed's explicit rule: the default is 1."""
    assert degree([1, 1, 1, 1]).degree == 1
    assert FourD8Options().snake_eyes_degree == "one"


def test_a_lucky_break_scores_the_sum():
    """D:L49: four dice the same are a lucky break worth their sum (7,7,7,7 = 28), but only
    on a success (D-A21)."""
    result = check(ease=28, dice=[7, 7, 7, 7])
    assert result.lucky_break
    assert result.degree == 28
    assert not check(ease=27, dice=[7, 7, 7, 7]).success


def test_eight_eights_are_a_lucky_break_of_32_at_chance_32():
    """B3.1 edge case, D:L45, D:L49: chance 32 never fails, and 8,8,8,8 scores 32."""
    result = check(ease=32, dice=[8, 8, 8, 8])
    assert result.success
    assert result.degree == 32
    assert result.lucky_break


def test_nothing_succeeds_below_chance_four():
    """D-A19, D:L45: the lowest total of four d8 is 4, so a chance of 3 cannot succeed; by
    default no dice are rolled."""
    result = check(ease=3)
    assert result.mode == "impossible"
    assert not result.success
    assert result.dice == []
    assert result.rolls == []


# E3 -- automatic success


def test_e3_automatic_success_places_8_6_5_4():
    """E3, D:L52: over 32 the player may take an automatic success, placing the dice 8, 6, 5
    and 4 (total 23): no roll, degree 8 (the highest die, no combination)."""
    result = check(**chance_of(35), over32_mode="automatic")
    assert result.mode == "automatic"
    assert result.success
    assert [die.natural for die in result.dice] == [8, 6, 5, 4]
    assert result.natural_total == 23
    assert result.degree == 8
    assert result.rolls == []


def test_e3_automatic_success_with_the_players_placement():
    """D:L52, D-A08: "she can simply place them": the player says which aspect shows which
    face; the degree is 8 whatever the placement."""
    result = check(**chance_of(33), over32_mode="automatic", auto_success_placement=[4, 5, 6, 8])
    assert [die.natural for die in result.dice] == [4, 5, 6, 8]
    assert result.degree == 8
    assert aspects_of(result, "highest_die") == [["magical"]]


@pytest.mark.parametrize("model", [CHECK.request_model, CHECK.odds_request_model])
def test_e3_automatic_success_placement_must_show_8_6_5_4(model):
    """D:L52: the placed faces are one 8 and a 6, 5 and 4, nothing else: a check and its
    odds refuse [8, 8, 5, 4] alike (the odds accepted it once)."""
    body = {**chance_of(33), "over32_mode": "automatic", "auto_success_placement": [8, 8, 5, 4]}
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate_json(json.dumps(body))
    [error] = caught.value.errors()
    assert error["loc"] == ("auto_success_placement",)
    assert "8, 6, 5 and 4" in error["msg"]


def test_e3_automatic_success_odds():
    """E3, D:L52: the odds of an automatic success: certain, degree 8."""
    result = odds(36, "automatic")
    assert result.mode == "automatic"
    assert result.summary.success.exact == "1/1"
    assert [(row.outcome, row.exact) for row in result.distributions.degree] == [("8", "1/1")]


# E4-E6 -- the special combinations


def test_e4_triplet():
    """E4, D:L79-82 (and D:L124-127): 5, 5, 5, 3 scores (5 x 2) + 3 = 13 at ease 20."""
    result = check(ease=20, dice=[5, 5, 5, 3])
    assert result.success
    assert result.natural_total == 18
    assert result.combination == "triplet"
    assert result.degree == 13
    assert result.interpretation == SUPERB
    assert aspects_of(result, "triplet") == [["physical", "mental", "social"]]
    assert aspects_of(result, "fourth_die") == [["magical"]]


def test_e4_triplet_needs_chance_18():
    """E4: 5, 5, 5, 3 totals 18, so it fails at a chance of 17 (D:L45)."""
    assert not check(ease=17, dice=[5, 5, 5, 3]).success


def test_e5_two_pairs():
    """E5, D:L89-92 (and D:L138-141): 4, 4, 2, 2 scores (4 + 4 + 2 + 2) + 5 = 17."""
    result = check(ease=12, dice=[4, 4, 2, 2])
    assert result.success
    assert result.combination == "two_pairs"
    assert result.degree == 17
    assert result.interpretation == EXCEPTIONAL
    assert aspects_of(result, "pair") == [["physical", "mental"], ["social", "magical"]]


def test_e6_pair():
    """E6, D:L99-102 (and D:L154-157): 6, 6, 3, 1 scores 6 + 6 + 3 = 15."""
    result = check(ease=16, dice=[6, 6, 3, 1])
    assert result.success
    assert result.combination == "pair"
    assert result.degree == 15
    assert result.interpretation == SUPERB
    assert aspects_of(result, "highest_remaining") == [["social"]]


def test_two_pairs_outscore_four_of_a_kind():
    """D-A16, D:L92 vs D:L49: 8,8,7,7 scores 35 while 8,8,8,8 scores 32, as written."""
    assert degree([8, 7, 8, 7]).degree == 35
    assert degree([8, 8, 8, 8]).degree == 32


# E7 -- the "fifty-fifty" guidance


def test_e7_seed_wins_the_dice_rule_not_the_fifty_fifty_guidance():
    """E7, D:L14 says an unskilled character has "about a fifty-fifty chance" at ease 25 or
    26; the catalogue marks the example inconsistent (D-A12). Where the catalogue and the
    seed disagree the seed wins, and the seed's normative rule is the dice rule (D:L45):
    P(4d8 <= 25) = 3886/4096 and P(<= 26) = 3970/4096. Only with the necessary-ability
    penalty of D:L40 (-8) do the figures come near one half."""
    assert odds(25).summary.success.exact == "1943/2048"
    assert odds(26).summary.success.exact == "1985/2048"
    unskilled = {"necessary_ability": {"ability": "THIEVERY"}}
    assert chance(25, **unskilled).chance == 17
    assert odds(17).summary.success.exact == "469/1024"  # 45.80 %
    assert odds(18).summary.success.exact == "555/1024"  # 54.20 %


def test_best_score_pair_of_a_triplet_names_the_dice_it_scored():
    """D-A02 `best_score`, D:L99-102, D-A15: 5,5,5,3 read as a pair scores 5 + 5 + 5 = 15,
    the pair being two 5s and the highest remaining die the third 5. The aspect groups
    should say so: a pair of two aspects (D-A15: "pair -> 2 aspects + the highest remaining
    die's aspect") and a highest remaining die showing 5."""
    result = degree([5, 5, 5, 3], combo_precedence="best_score")
    assert result.degree == 15
    assert result.scored_as == "pair"
    (pair,) = [g for g in result.groups if g.role == "pair"]
    (remaining,) = [g for g in result.groups if g.role == "highest_remaining"]
    assert (pair.value, len(pair.aspects)) == (5, 2)
    assert remaining.value == 5


# E8, E9 -- abilities


def test_e8_running_away_adds_running():
    """E8, D:L29: running away from an enemy adds the RUNNING bonus to the ease."""
    result = chance(20, ability_bonuses=[{"ability": "RUNNING", "bonus": 4}])
    assert result.ability_bonus == 4
    assert result.chance == 24


def test_e9_abilities_that_cannot_combine_need_separate_rolls():
    """E9, D:L31-33: picking a lock with THIEVERY may add CO-ORDINATION but not STRENGTH,
    which needs a separate roll."""
    result = chance(
        20,
        ability_bonuses=[
            {"ability": "THIEVERY", "bonus": 3},
            {"ability": "STRENGTH", "bonus": 4, "combinable": False},
            {"ability": "CO-ORDINATION", "bonus": 2},
        ],
    )
    assert result.ability_bonus == 5
    assert result.separate_rolls == ["STRENGTH"]
    assert result.chance == 25


def test_a_negative_bonus_is_subtracted():
    """D:L6: bonuses are added to "(or subtracted from)" the ease."""
    assert chance(20, ability_bonuses=[{"ability": "CLUMSY", "bonus": -3}]).chance == 17


def test_an_ability_may_be_claimed_once():
    """D:L29-31: players may not claim the same ability twice to double its bonus."""
    with pytest.raises(pydantic.ValidationError):
        chance(
            20,
            ability_bonuses=[
                {"ability": "THIEVERY", "bonus": 3},
                {"ability": "thievery", "bonus": 3},
            ],
        )


# Necessary abilities


def test_necessary_ability_lacking_costs_eight():
    """D:L40: a necessary ability the character lacks gives -8 to the chance."""
    result = chance(20, necessary_ability={"ability": "THIEVERY"})
    assert result.necessary_ability_penalty == -8
    assert result.chance == 12


def test_necessary_ability_with_a_positive_bonus_is_free():
    """D:L41: a positive bonus in the required ability avoids the penalty."""
    result = chance(
        20,
        ability_bonuses=[{"ability": "THIEVERY", "bonus": 2}],
        necessary_ability={"ability": "thievery"},
    )
    assert result.necessary_ability_penalty == 0
    assert result.chance == 22


def test_necessary_ability_as_occupation_bonus_skill_is_free():
    """D:L42: an occupation's bonus skill avoids the penalty."""
    result = chance(
        20, necessary_ability={"ability": "THIEVERY", "is_occupation_bonus_skill": True}
    )
    assert result.chance == 20


def test_necessary_ability_with_a_zero_or_negative_bonus_still_costs_eight():
    """D:L41, D-A14: only a positive bonus exempts; a negative bonus applies as well."""
    result = chance(
        20,
        ability_bonuses=[{"ability": "THIEVERY", "bonus": -1}],
        necessary_ability={"ability": "THIEVERY"},
    )
    assert result.necessary_ability_penalty == -8
    assert result.chance == 11
    stated = chance(20, necessary_ability={"ability": "X", "has_positive_bonus": False})
    assert stated.chance == 12


# Energy


def test_energy_caps_the_ability_bonuses():
    """D:L31: a character's energy limits the total ability bonuses (D-A13: the positive
    ones; negative bonuses always apply)."""
    result = chance(
        20,
        energy=4,
        ability_bonuses=[
            {"ability": "A", "bonus": 3},
            {"ability": "B", "bonus": 4},
            {"ability": "C", "bonus": -2},
        ],
    )
    assert result.energy_capped
    assert result.ability_bonus == 2
    assert result.chance == 22


def test_energy_above_the_bonuses_changes_nothing():
    """D:L31: the cap binds only when the bonuses exceed the energy."""
    result = chance(20, energy=10, ability_bonuses=[{"ability": "A", "bonus": 3}])
    assert not result.energy_capped
    assert result.chance == 23


# Ease


def test_ease_above_32_is_rejected():
    """D:L5, D:L16: 32 is the highest possible ease."""
    with pytest.raises(pydantic.ValidationError):
        check(ease=33)
    with pytest.raises(pydantic.ValidationError):
        chance(33)


def test_ease_has_no_lowest_value_and_a_meaning():
    """D:L16-26: there is no lowest ease; below 1 is "Impossible"."""
    assert chance(-5).ease_meaning == "Impossible"
    assert chance(0).ease_meaning == "Impossible"
    assert chance(2).ease_meaning == "Almost impossible"
    assert chance(25).ease_meaning == "Easy"
    assert chance(32).ease_meaning == "Simple"


def test_bonuses_lift_the_chance_over_32():
    """D:L6-7: bonuses may take the chance of success past 32."""
    result = chance(30, ability_bonuses=[{"ability": "A", "bonus": 5}])
    assert result.chance == 35
    assert result.over_32


# Over thirty-two


def test_bonus_roll_fails_only_on_four_eights():
    """D:L54: a bonus roll succeeds on anything but four 8s, whatever the chance."""
    result = check(**chance_of(35), dice=[8, 8, 8, 8])
    assert result.mode == "bonus"
    assert not result.success
    assert result.degree is None


def test_doubles_roll_fails_only_on_32():
    """D:L54: a doubles roll succeeds on anything but a 32, irrespective of the chance."""
    assert not check(**chance_of(40), over32_mode="doubles", dice=[8, 8, 8, 8]).success
    assert check(**chance_of(33), over32_mode="doubles", dice=[8, 8, 8, 7]).success


def test_doubles_roll_keeps_lucky_breaks_and_snake_eyes():
    """D:L54: no bonus on a doubles roll, but lucky breaks (D:L49) still score."""
    lucky = check(**chance_of(34), over32_mode="doubles", dice=[7, 7, 7, 7])
    assert lucky.lucky_break
    assert lucky.degree == 28
    snake = check(**chance_of(34), over32_mode="doubles", dice=[1, 1, 1, 1])
    assert snake.snake_eyes
    assert snake.degree == 1


def effect_keys(result: Any) -> set[tuple[str, str]]:
    return {(effect.combination, effect.key) for effect in result.effects}


FOUR_SAME_ADVANTAGE = {("four_same", "general")}  # "Significant advantage" (D:L110, L169)


def test_snake_eyes_take_no_significant_advantage():
    """D:L49: snake-eyes are bad luck, "an exception to the lucky break rule", with degree 1;
    the four-same row's "significant advantage" (D:L110, L169) is not theirs. Under the
    summary-table reading (D-A03, degree 4) the row, and so its text, applies."""
    assert check(ease=4, dice=[1, 1, 1, 1]).reading.effects == []
    assert degree([1, 1, 1, 1]).effects == []
    assert effect_keys(degree([1, 1, 1, 1], snake_eyes_degree="sum")) == FOUR_SAME_ADVANTAGE
    assert effect_keys(degree([2, 2, 2, 2])) == FOUR_SAME_ADVANTAGE


def test_base_rules_alone_have_no_special_effects():
    """D:L47-49 against D:L72-174: the special-effect texts belong to the additional rules,
    so dice scored by the base rules alone (`special_combinations` off, or a doubles roll
    without `doubles_roll_combinations`, D-A04) have none, even for a lucky break."""
    assert degree([5, 5, 5, 5], special_combinations=False).effects == []
    without = {"doubles_roll_combinations": False}
    lucky = check(**chance_of(34), over32_mode="doubles", dice=[5, 5, 5, 5], options=without)
    assert lucky.degree == 20
    assert lucky.reading.effects == []
    with_them = check(**chance_of(34), over32_mode="doubles", dice=[5, 5, 5, 5])
    assert effect_keys(with_them.reading) == FOUR_SAME_ADVANTAGE


def test_bonus_is_the_default_over_32():
    """D:L54 (D-A10): players over 32 are assumed to be making bonus rolls."""
    result = check(**chance_of(35), dice=[2, 7, 4, 1])
    assert result.mode == "bonus"
    assert result.bonus == 3
    assert result.bonus_die == "mental"
    assert [die.modified for die in result.dice] == [2, 10, 4, 1]
    assert result.modified_total == 14 + 3
    assert result.degree == 10


def test_bonus_roll_makes_lucky_breaks_impossible():
    """D:L54: the excess alters the degree and "lucky breaks are not possible": 7,7,7,7 at
    chance 33 becomes 8,7,7,7, a triplet (2 x 7 + 8 = 22), not 28."""
    result = check(**chance_of(33), dice=[7, 7, 7, 7])
    assert not result.lucky_break
    assert result.combination == "four_same"  # the natural dice
    assert result.reading.combination == "triplet"  # the dice that were scored
    assert result.degree == 22


def test_bonus_roll_snake_eyes_are_flagged():
    """D-A07, D:L49: natural 1,1,1,1 on a bonus roll are still flagged as snake-eyes."""
    result = check(**chance_of(33), dice=[1, 1, 1, 1])
    assert result.success
    assert result.snake_eyes
    assert result.degree == 4  # 2,1,1,1: triplet 2 x 1 + 2


def test_a_plain_roll_over_32_is_not_a_choice_by_default():
    """D:L52-54 (D-A11): over 32 the choices are automatic, doubles or bonus."""
    with pytest.raises(InputError) as caught:
        check(**chance_of(33), over32_mode="plain", dice=[8, 8, 8, 8])
    assert caught.value.loc == ("over32_mode",)


def test_allow_plain_roll_over_32_option():
    """D-A11: with `allow_plain_roll_over_32` a plain roll is allowed and 8,8,8,8 at chance 33
    is a lucky break of 32 (a doubles or bonus roll fails on it, D:L54)."""
    result = check(
        **chance_of(33),
        over32_mode="plain",
        options={"allow_plain_roll_over_32": True},
        dice=[8, 8, 8, 8],
    )
    assert result.mode == "plain"
    assert result.success
    assert result.degree == 32


# Seeded and table dice through the check


def test_table_dice_out_of_range_point_into_the_request():
    """D:L45: four d8, so a 9 is no face; the error points at the die."""
    with pytest.raises(DiceError) as caught:
        check(ease=20, dice=[5, 5, 9, 5])
    assert caught.value.loc == ("dice", "values", 2)


def test_table_dice_must_be_four():
    """D:L45: roll four dice; three are too few and five too many."""
    with pytest.raises(DiceError) as few:
        check(ease=20, dice=[5, 5, 5])
    assert few.value.loc == ("dice", "values")
    with pytest.raises(DiceError) as many:
        check(ease=20, dice=[5, 5, 5, 5, 5])
    assert many.value.loc == ("dice", "values")


def test_a_seeded_check_rolls_the_seeded_stream_in_aspect_order():
    """D:L45, D:L74: four d8, one per aspect, from the seed's stream (first eight faces of
    seed 42 are 3, 7, 7, 1, 1, 8, 3, 7 -- pinned in test_dice.py)."""
    result = check(ease=20, dice={"seed": 42})
    assert result.seed == 42
    assert [(roll.purpose, roll.sides, roll.value) for roll in result.rolls] == [
        ("physical", 8, 3),
        ("mental", 8, 7),
        ("social", 8, 7),
        ("magical", 8, 1),
    ]
    assert result.natural_total == 18
    assert result.degree == 7 + 7 + 3  # a pair of 7s and the highest remaining die


# Every option of FourD8Options changes some result


def over(chance: int, **fields: Any) -> dict[str, Any]:
    return {**chance_of(chance), **fields}


def effect_versions(result: Any) -> set[str]:
    return {effect.version for effect in result.effects}


# option, value, operation, request, what to read, default result, result with the option
OPTION_CASES = [
    ("special_combinations", False, degree, {"faces": [5, 5, 5, 3]}, "degree", 13, 5),
    ("combo_precedence", "best_score", degree, {"faces": [5, 5, 5, 3]}, "degree", 13, 15),
    ("snake_eyes_degree", "sum", degree, {"faces": [1, 1, 1, 1]}, "degree", 1, 4),
    (
        "doubles_roll_combinations",
        False,
        check,
        over(40, over32_mode="doubles", dice=[6, 6, 3, 1]),
        "degree",
        15,
        6,
    ),
    (
        "bonus_roll_combo_mode",
        "natural_combos_plus_excess",
        check,
        over(33, dice=[3, 3, 2, 1]),
        "degree",
        4,
        9,
    ),
    ("bonus_roll_combo_mode", "no_combos", check, over(33, dice=[3, 3, 2, 1]), "degree", 4, 4),
    ("bonus_roll_combo_mode", "no_combos", check, over(33, dice=[3, 2, 2, 1]), "degree", 8, 4),
    (
        "bonus_die_selection",
        "aspect_order",
        check,
        over(35, bonus_die_aspect="social", dice=[6, 8, 8, 2]),
        "bonus_die",
        "social",
        "mental",
    ),
    (
        "snake_eyes_in_bonus_roll",
        "ignore",
        check,
        over(33, dice=[1, 1, 1, 1]),
        "snake_eyes",
        True,
        False,
    ),
    (
        "energy_cap_applies_to",
        "net_sum",
        chance,
        {
            "ease": 20,
            "energy": 4,
            "ability_bonuses": [
                {"ability": "A", "bonus": 3},
                {"ability": "B", "bonus": 4},
                {"ability": "C", "bonus": -2},
            ],
        },
        "chance",
        22,
        24,
    ),
    (
        "roll_when_impossible",
        True,
        check,
        {"ease": 3, "dice": {"seed": 7}},
        "mode",
        "impossible",
        "normal",
    ),
    ("effect_text_version", "1", degree, {"faces": [5, 5, 5, 3]}, effect_versions, {"2"}, {"1"}),
    (
        "effect_text_version",
        "both",
        degree,
        {"faces": [4, 4, 2, 2]},
        effect_versions,
        {"2"},
        {"1", "2"},
    ),
]

OPTION_SOURCES = {
    "special_combinations": "D:L47 vs D:L72-115",
    "combo_precedence": "D-A02, D:L82",
    "snake_eyes_degree": "D-A03, D:L49 vs D:L110",
    "doubles_roll_combinations": "D-A04, D:L54",
    "bonus_roll_combo_mode": "D-A05, D:L54",
    "bonus_die_selection": "D-A06, D:L54",
    "snake_eyes_in_bonus_roll": "D-A07, D:L49, D:L54",
    "energy_cap_applies_to": "D-A13, D:L31",
    "allow_plain_roll_over_32": "D-A11, D:L52-54",
    "roll_when_impossible": "D-A19, D:L16",
    "effect_text_version": "D-A01, D:L72-174",
}


def run_with(run: Any, request: dict[str, Any], options: dict[str, Any]) -> Any:
    fields = {**request, "options": options}
    if run is degree:
        return degree(fields.pop("faces"), **options)
    if run is chance:
        return chance(fields.pop("ease"), **fields)
    return check(**fields)


def read(result: Any, what: Any) -> Any:
    return what(result) if callable(what) else getattr(result, what)


@pytest.mark.parametrize(
    ("option", "value", "run", "request_", "what", "by_default", "with_option"),
    OPTION_CASES,
    ids=[f"{case[0]}={case[1]}({OPTION_SOURCES[case[0]]})" for case in OPTION_CASES],
)
def test_option_changes_the_result(option, value, run, request_, what, by_default, with_option):
    """Each option of the ambiguity register (B3.11) read against the seed line in its id:
    the default reading, then the alternative."""
    assert read(run_with(run, request_, {}), what) == by_default
    assert read(run_with(run, request_, {option: value}), what) == with_option


def test_bonus_roll_combo_modes_of_d_a05():
    """D-A05, D:L54: natural 3,3,2,1 scores 8 at chance 32 (pair 3 + 3 + 2), and at chance 33
    4 (modified_dice: 4,3,2,1 all distinct), 9 (natural_combos_plus_excess: 8 + 1) and 4
    (no_combos: 3 + 1)."""
    assert check(ease=32, dice=[3, 3, 2, 1]).degree == 8
    by_mode = {
        mode: check(**over(33, dice=[3, 3, 2, 1]), options={"bonus_roll_combo_mode": mode}).degree
        for mode in ("modified_dice", "natural_combos_plus_excess", "no_combos")
    }
    assert by_mode == {"modified_dice": 4, "natural_combos_plus_excess": 9, "no_combos": 4}


def test_a_no_combos_bonus_roll_reads_the_modified_dice():
    """D:L54: the excess "is then added to the highest of the four dice. This will alter ...
    the degree of success. It also means that lucky breaks are not possible." Under
    no_combos (D-A05) the degree is that modified die, so the reading describes the modified
    dice, 6,5,5,5 from a natural 5,5,5,5: a highest die of 6 on the physical aspect, not a
    four-the-same shape; the natural shape stays in the check's `combination`."""
    found = check(**over(33, dice=[5, 5, 5, 5]), options={"bonus_roll_combo_mode": "no_combos"})
    assert found.combination == "four_same"
    assert found.reading is not None
    assert (found.reading.degree, found.reading.scored_as) == (6, "highest_die")
    assert found.reading.combination == "triplet"
    assert [(g.role, g.value, g.aspects) for g in found.reading.groups] == [
        ("highest_die", 6, ["physical"])
    ]
    assert found.reading.effects == []


def test_player_choice_of_the_bonus_die_only_among_the_highest():
    """D:L54, D-A06: the excess goes to the highest die; the player picks among equal highest
    dice, and a pick that is not a highest die falls back to the first in aspect order."""
    picked = check(**over(35, bonus_die_aspect="social", dice=[6, 8, 8, 2]))
    assert [die.modified for die in picked.dice] == [6, 8, 11, 2]
    not_highest = check(**over(35, bonus_die_aspect="physical", dice=[6, 8, 8, 2]))
    assert not_highest.bonus_die == "mental"


def test_every_option_is_exercised():
    """B3.11: every option of FourD8Options has a case above where it changes a result."""
    exercised = {case[0] for case in OPTION_CASES} | {"allow_plain_roll_over_32"}
    assert exercised == set(FourD8Options.model_fields)
    assert set(OPTION_SOURCES) == set(FourD8Options.model_fields)
