"""Bounty and advancement against the chapter (FI:L749-759): the issue's checks."""

import pytest
from pydantic import ValidationError

from service.rules.future_imperfect.progress.advancement import (
    convert,
    share,
    skill,
    trait_die,
    trait_training,
)
from service.rules.model import InputError
from tests.rules.calls import run


def test_shooting_3_to_4_costs_4():
    """FI:L755."""
    found = run(skill, {"skill": "shooting", "level": 3, "bounty": 6})
    assert (found.level, found.cost, found.bounty_left) == (4, 4, 2)


def test_strength_4d6_to_5d6_costs_10():
    """FI:L757."""
    assert run(trait_training, {"dice": 4, "bounty": 12}).cost == 10


@pytest.mark.parametrize(("sides", "new", "cost"), [(4, 6, 18), (6, 8, 24), (10, 12, 36)])
def test_a_trait_die_costs_three_times_the_new_die(sides, new, cost):
    """FI:L759: d4 to d6 costs 18."""
    found = run(trait_die, {"die_sides": sides, "bounty": 40})
    assert (found.level, found.cost) == (new, cost)


def test_not_enough_bounty_is_refused():
    with pytest.raises(InputError) as refused:
        run(trait_die, {"die_sides": 4, "bounty": 17})
    assert refused.value.loc == ("bounty",)


def test_a_skill_is_raised_once_per_arc():
    """FI:L755, A-79: per skill by default, or one skill a character an arc."""
    again = {"skill": "shooting", "level": 3, "bounty": 9, "raised_this_arc": ["Shooting"]}
    with pytest.raises(InputError):
        run(skill, again)
    other = {**again, "skill": "piloting"}
    assert run(skill, other).cost == 4
    with pytest.raises(InputError):
        run(skill, {**other, "options": {"skill_raise_limit": "per_character_per_arc"}})


def test_chips_into_bounty_and_shares():
    """FI:L749: blue 3, red 2, white 1; FI:L753: leftovers stay in the pot."""
    assert run(convert, {"white": 2, "red": 1, "blue": 1}).bounty == 7
    shared = run(share, {"bounty": 20, "crew": 3})
    assert (shared.each, shared.left_in_pot) == (6, 2)


def test_points_left_in_the_pot_join_the_next_reward():
    """FI:L753: 'If there are leftover points, they stay in the pot until the next time the
    group gets a reward.' The 2 left by 20 among 3 join the next 10: 12 among 3, 4 each and
    none left; the old rule had no input for them (A-78)."""
    first = run(share, {"bounty": 20, "crew": 3})
    second = run(share, {"bounty": 10, "crew": 3, "left_in_pot": first.left_in_pot})
    assert (second.each, second.left_in_pot) == (4, 0)
    assert run(share, {"bounty": 10, "crew": 3}).each == 3
    with pytest.raises(ValidationError):
        run(share, {"bounty": 10, "crew": 3, "left_in_pot": -1})
