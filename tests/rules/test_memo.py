"""The registry's memo: a remembered rule answers exactly what the rule answers, rolls the
same dice, and holds at most its capacity in bytes (tests/test_memory.py holds the count to
what tracemalloc sees)."""

import json

import pydantic_core
import pytest

from service.lru import footprint
from service.rules.dice import Dice, DiceError, DiceSpec
from service.rules.memo import RAREST_PATH, Memo
from service.rules.model import Model
from service.rules.registry import Operation, load


def exploding(request: int, dice: Dice) -> tuple[int, ...]:
    """A rule whose dice depend on the faces before: d6s while they show 6, then `request`
    more d4s when the total is even."""
    faces = [dice.roll(6, "base")]
    while faces[-1] == 6:
        faces.append(dice.roll(6, "explosion", exploded_from=len(faces) - 1))
    if sum(faces) % 2 == 0:
        faces += [dice.roll(4, "bonus") for _ in range(request)]
    return tuple(faces)


def test_a_remembered_rule_answers_and_rolls_as_the_rule_does():
    memo: Memo[tuple[int, ...]] = Memo()
    for seed in range(400):
        for request in (1, 2):
            plain, remembered = Dice(DiceSpec(seed=seed)), Dice(DiceSpec(seed=seed))
            expected = exploding(request, plain)
            assert memo(request, remembered, exploding, request) == expected
            assert remembered.rolls == plain.rolls
            assert remembered.mark() == plain.mark()
    assert memo.size == sum(tree.size for tree in memo._trees.values())


def keep_higher(request: int, dice: Dice) -> int:
    """Two d10s, the lower one marked discarded (as 4C's Amplified tens die, C:L490)."""
    first, second = dice.roll(10, "tens"), dice.roll(10, "tens")
    dice.discard(1 if second <= first else 0)
    return max(first, second) + request


def test_a_remembered_rule_logs_the_dice_it_discarded_as_the_rule_does():
    """A walk down the tree only draws each die's face; the dice the rule discarded on that
    path stay discarded in the log, request after request."""
    memo: Memo[int] = Memo()
    for _ in range(2):
        for seed in range(60):
            plain, remembered = Dice(DiceSpec(seed=seed)), Dice(DiceSpec(seed=seed))
            assert memo(0, remembered, keep_higher, 0) == keep_higher(0, plain)
            assert remembered.rolls == plain.rolls
            assert [roll.discarded for roll in remembered.rolls].count(True) == 1


def test_outcomes_share_one_empty_map_of_children():
    """Most of a tree's nodes are outcomes, where no die is rolled: they hold no map each."""
    memo: Memo[tuple[int, ...]] = Memo()
    for seed in range(200):
        memo(1, Dice(DiceSpec(seed=seed)), exploding, 1)
    nodes, maps, interior, outcomes = [memo._trees[1].root], set(), 0, 0
    while nodes:
        node = nodes.pop()
        maps.add(id(node.children))
        nodes.extend(node.children.values())
        assert (node.sides is None) == (not node.children)
        interior += node.sides is not None
        outcomes += node.done
    assert outcomes > interior >= 6
    assert len(maps) == interior + 1  # a map for each die rolled, one for every outcome


def test_table_dice_that_do_not_fit_are_refused_on_a_remembered_path():
    memo: Memo[tuple[int, ...]] = Memo()
    assert memo(1, Dice(DiceSpec(values=(2, 3))), exploding, 1) == (2, 3)
    with pytest.raises(DiceError):  # the remembered tree asks for the d4 that is missing
        memo(1, Dice(DiceSpec(values=(2,))), exploding, 1)
    with pytest.raises(DiceError):
        memo(1, Dice(DiceSpec(values=(2, 5))), exploding, 1)


def test_table_dice_walk_a_remembered_tree_in_their_order():
    """The walk logs no die until its end, yet reads each table die in turn, and names a bad
    one by its place."""
    memo: Memo[tuple[int, ...]] = Memo()
    for values in [(2, 2), (2, 3), (2, 3), (2, 2)]:
        dice = Dice(DiceSpec(values=values))
        assert memo(1, dice, exploding, 1) == values
        assert [roll.value for roll in dice.rolls] == list(values)
    with pytest.raises(DiceError) as refused:
        memo(1, Dice(DiceSpec(values=(2, 7))), exploding, 1)
    assert refused.value.loc == ("values", 1)
    assert "d4" in refused.value.message


def five_or_four_d8(request: int, dice: Dice) -> tuple[int, ...]:
    """A d8; on an 8, four d8 more (one path in 8**5), else three (one in 8**4)."""
    first = dice.roll(8, "first")
    more = 4 if first == 8 else 3
    return (first, *(dice.roll(8, "more") for _ in range(more)), request)


def test_a_path_rarer_than_a_4d8_roll_is_answered_and_not_remembered():
    """A tree holds the paths at least one in RAREST_PATH likely, so at most that many."""
    memo: Memo[tuple[int, ...]] = Memo()
    rare = 0
    for seed in range(3000):
        plain, remembered = Dice(DiceSpec(seed=seed)), Dice(DiceSpec(seed=seed))
        expected = five_or_four_d8(0, plain)
        assert memo(0, remembered, five_or_four_d8, 0) == expected
        assert remembered.rolls == plain.rolls
        rare += expected[0] == 8
    assert rare > 300
    kept, nodes = [], [memo._trees[0].root]
    while nodes:
        node = nodes.pop()
        nodes.extend(node.children.values())
        if node.done:
            kept.append(node.rolls)
    assert len(kept) > 1500
    assert all(len(rolls) == 4 and rolls[0].value != 8 for rolls in kept)
    assert RAREST_PATH == 8**4


def test_the_memo_holds_at_most_its_capacity():
    memo: Memo[tuple[int, ...]] = Memo(capacity=20_000)
    for seed in range(600):
        for request in range(4):
            dice = Dice(DiceSpec(seed=seed))
            memo(request, dice, exploding, request)
            assert memo.size <= 20_000
    assert memo.size > 15_000  # full, and still answering
    memo.resize(0)
    assert (memo.size, len(memo._trees)) == (0, 0)


def test_the_oldest_request_makes_room_and_a_full_one_keeps_what_it_has():
    memo: Memo[tuple[int, ...]] = Memo(capacity=10_000)  # less than one request's tree
    sizes = []
    for seed in range(2000):
        memo(0, Dice(DiceSpec(seed=seed)), exploding, 0)
        sizes.append(memo._trees[0].size)
    assert sizes == sorted(sizes)  # never dropped and started over
    assert sizes[-1] > 8_000
    for seed in range(2000):
        memo(1, Dice(DiceSpec(seed=seed)), exploding, 1)
    assert list(memo._trees) == [1]  # request 0, the oldest, made room
    assert memo.size <= 10_000


def test_a_rule_without_dice_is_remembered_by_request():
    calls: list[int] = []

    def double(request: int) -> int:
        calls.append(request)
        return 2 * request

    memo: Memo[int] = Memo()
    assert [memo(n, None, double, n) for n in (3, 3, 4, 3)] == [6, 6, 8, 6]
    assert calls == [3, 4]


REMEMBERING = [op for s in load().systems for op in s.operations if op.memo is not None]


@pytest.mark.parametrize("op", REMEMBERING, ids=lambda op: f"{op.system}/{op.name}")
def test_every_remembering_operation_answers_as_its_rule(op: Operation):
    """Remembered or not, the same outcome and the same dice, request after request (each
    seed walks the tree the earlier ones grew)."""
    requests = [{k: v for k, v in op.example.items() if k != "dice"}, *op.standard[:12]]
    for body in requests:
        for seed in range(150):
            payload = json.dumps({**body, "dice": {"seed": seed}})
            request = op.request_model.model_validate_json(payload)
            remembered, envelope = op.execute(request)
            dice = Dice(DiceSpec(seed=seed))
            assert remembered == op.rule(request, dice), (body, seed)
            assert envelope["rolls"] == dice.rolls


def test_remembered_outcomes_share_their_field_name_sets():
    """Each pydantic model keeps its own set of the fields it was given, half a 4D8 check's
    outcome; remembered outcomes share one set a shape, and a copy still gets its own."""
    op = next(op for op in REMEMBERING if (op.system, op.name) == ("four-d8", "check"))
    memo: Memo[Model] = Memo()
    outcomes = []
    for seed in range(40):
        request = op.request_model.model_validate_json(
            json.dumps({"ease": 20, "dice": {"seed": seed}})
        )
        outcomes.append(memo(seed, Dice(request.dice), op.rule, request))
    fresh = op.rule(request, Dice(request.dice))
    assert outcomes[-1] == fresh
    assert footprint(outcomes[-1]) < footprint(fresh)
    assert len({id(o.__pydantic_fields_set__) for o in outcomes}) == 1
    assert len({id(d.__pydantic_fields_set__) for o in outcomes for d in o.dice}) == 1
    given = outcomes[0].__pydantic_fields_set__
    names = set(given)
    copy = outcomes[0].model_copy(update={"ease": 19})
    assert copy.ease == 19
    assert copy.__pydantic_fields_set__ is not given
    assert given == names


def test_remembered_outcomes_of_a_request_share_their_equal_parts():
    """The outcomes of one request hold equal models again and again (each 4D8 check's four
    dice are four of 32); remembered, they share one of each, and answer as before."""
    op = next(op for op in REMEMBERING if (op.system, op.name) == ("four-d8", "check"))
    memo: Memo[Model] = Memo()
    request = op.request_model.model_validate_json('{"ease": 20}')
    outcomes = []
    for seed in range(300):
        outcomes.append(memo("ease 20", Dice(DiceSpec(seed=seed)), op.rule, request))
        fresh = op.rule(request, Dice(DiceSpec(seed=seed)))
        assert pydantic_core.to_json(outcomes[-1]) == pydantic_core.to_json(fresh)
    dice = [die for outcome in outcomes for die in outcome.dice]
    assert len(dice) == 1200
    assert len({id(die) for die in dice}) == len({repr(die) for die in dice}) <= 32


class Part(Model):
    value: int | float | bool


class Whole(Model):
    part: Part


def one_in_three_kinds(request: int, dice: Dice) -> Whole:
    return Whole(part=Part(value=(1, 1.0, True)[dice.roll(3, "kind") - 1]))


def test_parts_equal_in_python_but_not_on_the_wire_stay_apart():
    """1, 1.0 and True are equal in Python and differ in JSON: never shared."""
    memo: Memo[Whole] = Memo()
    for seed in range(40):
        remembered = memo(0, Dice(DiceSpec(seed=seed)), one_in_three_kinds, 0)
        fresh = one_in_three_kinds(0, Dice(DiceSpec(seed=seed)))
        assert type(remembered.part.value) is type(fresh.part.value)
        assert remembered.model_dump_json() == fresh.model_dump_json()


class Text(Model):
    text: str


class Reading(Model):
    face: int
    text: Text


def a_long_text_on_a_six(request: int, dice: Dice) -> Reading:
    face = dice.roll(6, "face")
    return Reading(face=face, text=Text(text="x" * (200_000 if face == 6 else face)))


def test_the_parts_of_an_outcome_not_kept_stay_out_of_the_tree():
    """An outcome's parts are found or staged as it is weighed, and join the tree only if it
    is kept: a six's 200 KB part, too large for the memo, is never held."""
    memo: Memo[Reading] = Memo(capacity=100_000)
    for seed in range(60):
        outcome = memo(0, Dice(DiceSpec(seed=seed)), a_long_text_on_a_six, 0)
        assert outcome == a_long_text_on_a_six(0, Dice(DiceSpec(seed=seed)))
    tree = memo._trees[0]
    assert sorted(tree.root.children) == [1, 2, 3, 4, 5]
    assert sorted(len(part.text) for part in tree.parts.values()) == [1, 2, 3, 4, 5]
    assert memo.size < 100_000
