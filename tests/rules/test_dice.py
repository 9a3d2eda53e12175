"""Dice sources: the seeded stream, table dice, and the roll log (service.rules.dice).

The seeded stream is recomputed here from its definition with hashlib alone: draw k is the
first 8 bytes, big-endian, of SHA-256 of "<seed>:<k>"; a die of n sides rejects a draw
d >= 2**64 - (2**64 mod n) and otherwise shows d % n + 1.
"""

import hashlib

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.dice import (
    MAX_SEED,
    MAX_SIDES,
    MAX_TABLE_DICE,
    Dice,
    DiceError,
    DiceSpec,
    seeded_value,
)
from service.rules.model import InputError

SPAN = 2**64


def draw(seed: int, k: int) -> int:
    """Draw k of a seed's stream, straight from the definition."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{k}".encode("ascii")).digest()[:8], "big")


def reference_faces(seed: int, sides: list[int]) -> tuple[list[int], int]:
    """The faces of dice of the given sizes rolled in turn, and how many draws they used."""
    faces, k = [], 0
    for n in sides:
        while True:
            d = draw(seed, k)
            k += 1
            if d < SPAN - SPAN % n:
                faces.append(d % n + 1)
                break
    return faces, k


def roll_all(dice: Dice, sides: list[int]) -> list[int]:
    return [dice.roll(n, f"die {i}") for i, n in enumerate(sides)]


# --- the seeded stream --------------------------------------------------------------------


def test_seeded_value_is_sha256_of_seed_colon_draw():
    """The stream's definition, recomputed."""
    for seed, k in [(0, 0), (0, 1), (42, 0), (MAX_SEED, 0), (123456, 789)]:
        assert seeded_value(seed, k) == draw(seed, k)


def test_without_the_interpreters_own_sha256_the_stream_is_hashlibs(monkeypatch):
    """The draws hash with CPython's own SHA-256 module where there is one (`_sha2`, or
    `_sha256` before 3.12), else with hashlib's: the same stream either way."""
    from service.rules import dice

    assert dice._builtin_sha256()(b"42:0").digest() == hashlib.sha256(b"42:0").digest()

    def missing(name: str) -> None:
        raise ImportError(name)

    monkeypatch.setattr(dice.importlib, "import_module", missing)
    assert dice._builtin_sha256() is hashlib.sha256


def test_pinned_draws():
    """Literal values computed once, independently, and pinned: a change of the stream
    would break every replay a client has stored."""
    assert seeded_value(0, 0) == 12426054289685354689
    assert seeded_value(0, 1) == 17227200041832915037
    assert seeded_value(42, 0) == 6085284259181818738
    assert seeded_value(MAX_SEED, 0) == 5064657597540531097


def test_pinned_faces():
    """Pinned faces of a few seeds (computed independently with hashlib)."""
    assert roll_all(Dice(DiceSpec(seed=0)), [8] * 8) == [2, 6, 4, 4, 1, 5, 4, 4]
    assert roll_all(Dice(DiceSpec(seed=42)), [8] * 8) == [3, 7, 7, 1, 1, 8, 3, 7]
    assert roll_all(Dice(DiceSpec(seed=2026)), [6, 6, 10, 20, 100, 8]) == [6, 1, 10, 13, 2, 1]


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2026, MAX_SEED])
def test_seeded_faces_match_the_definition(seed):
    """Dice of mixed sizes from one stream, each taking the next draw."""
    sides = [8, 8, 8, 8, 6, 10, 20, 100, 3, 2]
    assert roll_all(Dice(DiceSpec(seed=seed)), sides) == reference_faces(seed, sides)[0]


def test_rejection_takes_the_next_draw():
    """A die of 2**63 + 1 sides rejects draws >= 2**63 + 1 (about half of them). For seed 0
    the first three draws are rejected and the face comes from draw 3 (pinned)."""
    sides = 2**63 + 1
    limit = SPAN - SPAN % sides
    assert [draw(0, k) >= limit for k in range(4)] == [True, True, True, False]
    dice = Dice(DiceSpec(seed=0))
    assert dice.roll(sides, "huge") == draw(0, 3) % sides + 1 == 8562401648298655380
    # the next die starts after the draws the first one used
    assert dice.roll(8, "next") == draw(0, 4) % 8 + 1


@pytest.mark.parametrize("seed", range(5))
def test_rejection_sampling_matches_the_definition(seed):
    """Several heavily rejecting dice in a row replay the reference stream exactly."""
    sides = [2**63 + 1, 8, 2**63 + 1, 6, 2**63 + 1]
    faces, _ = reference_faces(seed, sides)
    assert roll_all(Dice(DiceSpec(seed=seed)), sides) == faces


def test_no_rejection_when_n_divides_2_to_the_64():
    """For a d8, 2**64 mod 8 = 0: every draw is a face, draw k gives die k."""
    assert SPAN % 8 == 0
    dice = Dice(DiceSpec(seed=99))
    assert roll_all(dice, [8] * 20) == [draw(99, k) % 8 + 1 for k in range(20)]


@given(
    seed=st.integers(min_value=0, max_value=MAX_SEED),
    sides=st.lists(st.integers(min_value=1, max_value=1000), min_size=1, max_size=12),
)
def test_same_seed_same_rolls(seed, sides):
    """A seed replays: the same seed gives the same faces, and they are the definition's."""
    first = roll_all(Dice(DiceSpec(seed=seed)), sides)
    again = roll_all(Dice(DiceSpec(seed=seed)), sides)
    assert first == again == reference_faces(seed, sides)[0]
    assert all(1 <= face <= n for face, n in zip(first, sides, strict=True))


def test_a_fresh_seed_is_reported_and_replays():
    """Without a seed or table dice the server picks a seed and reports it."""
    fresh = Dice()
    assert fresh.seed is not None
    assert 0 <= fresh.seed <= MAX_SEED
    faces = roll_all(fresh, [8, 8, 8, 8])
    assert roll_all(Dice(DiceSpec(seed=fresh.seed)), [8, 8, 8, 8]) == faces


def test_the_roll_log():
    """Every die is logged with its size, face and purpose."""
    dice = Dice(DiceSpec(seed=42))
    dice.roll(8, "physical")
    dice.roll(6, "damage", exploded_from=0)
    assert [(r.sides, r.purpose, r.exploded_from) for r in dice.rolls] == [
        (8, "physical", None),
        (6, "damage", 0),
    ]
    assert [r.value for r in dice.rolls] == reference_faces(42, [8, 6])[0]


# --- table dice ---------------------------------------------------------------------------


def test_table_dice_are_consumed_in_order():
    """Table dice come out in the order given; the seed is None."""
    dice = Dice(DiceSpec(values=(3, 1, 6, 2)))
    assert dice.seed is None
    assert roll_all(dice, [6, 6, 6, 6]) == [3, 1, 6, 2]
    dice.finish()


def test_table_dice_of_different_sizes():
    """Each value is checked against the die it is used for."""
    dice = Dice(DiceSpec(values=(20, 8, 100)))
    assert roll_all(dice, [20, 8, 100]) == [20, 8, 100]


@pytest.mark.parametrize(("values", "sides", "index"), [([3, 9], 8, 1), ([7], 6, 0)])
def test_table_die_out_of_range(values, sides, index):
    """A value outside 1..n is rejected with loc ("values", i)."""
    dice = Dice(DiceSpec(values=tuple(values)))
    with pytest.raises(DiceError) as caught:
        roll_all(dice, [sides] * len(values))
    assert caught.value.loc == ("values", index)
    assert f"d{sides}" in caught.value.message


def test_not_enough_table_dice():
    """A roll that needs more dice than were supplied: loc ("values",)."""
    dice = Dice(DiceSpec(values=(4, 4)))
    with pytest.raises(DiceError) as caught:
        roll_all(dice, [8, 8, 8])
    assert caught.value.loc == ("values",)
    assert "not enough dice" in caught.value.message


def test_leftover_table_dice():
    """finish() rejects dice the rule did not use: loc ("values",)."""
    dice = Dice(DiceSpec(values=(4, 4, 4)))
    roll_all(dice, [8, 8])
    with pytest.raises(DiceError) as caught:
        dice.finish()
    assert caught.value.loc == ("values",)
    assert "3 dice supplied" in caught.value.message


def test_finish_is_quiet_for_seeds_and_exact_table_dice():
    seeded = Dice(DiceSpec(seed=1))
    roll_all(seeded, [8])
    seeded.finish()
    exact = Dice(DiceSpec(values=(2,)))
    roll_all(exact, [8])
    exact.finish()


def test_dice_error_is_an_input_error():
    assert issubclass(DiceError, InputError)
    assert issubclass(DiceError, ValueError)


# --- DiceSpec -----------------------------------------------------------------------------


def test_spec_rejects_both_seed_and_values():
    with pytest.raises(pydantic.ValidationError, match="either 'seed' or 'values'"):
        DiceSpec(seed=1, values=(1, 2))


@pytest.mark.parametrize("seed", [0, 1, MAX_SEED])
def test_spec_seed_bounds_accepted(seed):
    assert DiceSpec(seed=seed).seed == seed


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 2**63])
def test_spec_seed_bounds_rejected(seed):
    with pytest.raises(pydantic.ValidationError):
        DiceSpec(seed=seed)


def test_max_seed_is_2_to_the_31_minus_1():
    assert MAX_SEED == 2**31 - 1


@pytest.mark.parametrize(
    "values",
    [[0], [MAX_SIDES + 1], [1] * (MAX_TABLE_DICE + 1)],
    ids=["zero", "over-max-sides", "too-many"],
)
def test_spec_values_bounds_rejected(values):
    with pytest.raises(pydantic.ValidationError):
        DiceSpec(values=tuple(values))


def test_no_table_dice_replay_a_result_that_rolled_none():
    """A result that rolled nothing reports no rolls; replaying them is `values: []`, which
    a rule rolling nothing accepts and a rule that needs a die refuses as too few."""
    quiet = Dice(DiceSpec(values=()))
    quiet.finish()
    with pytest.raises(DiceError) as caught:
        roll_all(Dice(DiceSpec(values=())), [8])
    assert caught.value.loc == ("values",)


def test_spec_values_bounds_accepted():
    assert DiceSpec(values=(1,) * MAX_TABLE_DICE).values == (1,) * MAX_TABLE_DICE
    assert DiceSpec(values=(MAX_SIDES,)).values == (MAX_SIDES,)


def test_spec_is_strict_and_closed():
    """A seed given as a string is not coerced; unknown fields are rejected."""
    with pytest.raises(pydantic.ValidationError):
        DiceSpec.model_validate({"seed": "42"})
    with pytest.raises(pydantic.ValidationError):
        DiceSpec.model_validate({"sead": 42})
    assert DiceSpec.model_validate_json('{"seed": 42}').seed == 42
