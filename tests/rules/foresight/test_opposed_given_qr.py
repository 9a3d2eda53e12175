"""Who won? with a side given as a QR rolled at the table (F:L1485-1501, AMB-08).

`F:L<n>` is line n of shared/seeds/004_0f2ce8cae6aa3515.txt. A tie is rerolled by both sides
rolling again ('try again later', F:L1487; 'several ties ... a drawn-out struggle', F:L1497),
and a QR given instead of a task cannot be rolled again. A policy that would reroll (`reroll`,
or `score` with equal scores) is therefore refused naming the side's missing task, as a tie
broken by SC already is, rather than reported as a tie under a policy it did not apply.
"""

import json
from typing import Any

import pytest

from service.rules.model import InputError
from service.rules.registry import load

OPPOSED = next(op for op in load().system("foresight").operations if op.name == "opposed")  # type: ignore[union-attr]
TASK = {"score": 10, "bef": 5}  # SC 50


def run(payload: dict[str, Any]) -> Any:
    return OPPOSED.run(OPPOSED.request_model.model_validate_json(json.dumps(payload)))


def odds(payload: dict[str, Any]) -> Any:
    assert OPPOSED.odds_request_model is not None
    question = {key: value for key, value in payload.items() if key != "dice"}
    return OPPOSED.run_odds(OPPOSED.odds_request_model.model_validate_json(json.dumps(question)))


def refused(answer: Any, payload: dict[str, Any]) -> tuple[str | int, ...]:
    with pytest.raises(InputError) as error:
        answer(payload)
    return error.value.loc


@pytest.mark.parametrize("answer", [run, odds], ids=["run", "odds"])
@pytest.mark.parametrize(
    ("sides", "field"),
    [
        ({"a": {"qr": 4}, "b": {"task": TASK}}, ("a", "task")),
        ({"a": {"task": TASK}, "b": {"qr": 4}}, ("b", "task")),
        ({"a": {"qr": 4}, "b": {"qr": 4}}, ("a", "task")),
    ],
    ids=["a-given", "b-given", "both-given"],
)
def test_ties_rerolled_need_both_tasks(answer, sides, field):
    """A task rolled to a QR4 (45) ties the given QR4; before, the tie was reported while the
    response echoed tie_policy 'reroll' as applied."""
    payload = {**sides, "options": {"tie_policy": "reroll"}}
    if "task" in sides["a"] or "task" in sides["b"]:
        payload["dice"] = {"values": [45]}
    assert refused(answer, payload) == field


@pytest.mark.parametrize("answer", [run, odds], ids=["run", "odds"])
def test_ties_between_equal_scores_need_both_tasks(answer):
    """Under 'score' a tie between equal scores is rerolled (AMB-08), so it needs the tasks."""
    payload = {
        "a": {"qr": 4, "score": 10},
        "b": {"task": TASK},
        "options": {"tie_policy": "score"},
        "dice": {"values": [45]},
    }
    assert refused(answer, payload) == ("a", "task")


def test_ties_between_different_scores_are_broken_with_a_given_qr():
    """F:L1493-1495: no reroll is needed when the scores differ, so a given QR is enough."""
    payload = {
        "a": {"qr": 4, "score": 12},
        "b": {"task": TASK},
        "options": {"tie_policy": "score"},
        "dice": {"values": [45]},
    }
    result = run(payload)
    assert (result.winner, result.decided_by, result.tie_scores) == ("a", "score", [12, 10])
    winner = {row.outcome: row.exact for row in odds(payload).winner}
    # B's SC 50 gives QR4 on 26-50: a quarter of the rolls tie, and A wins those by score.
    assert winner == {"a": "3/4", "b": "1/4"}


def test_a_tie_with_a_given_qr_is_reported_by_default():
    """F:L1487: 'reply hazy, try again later' needs no reroll."""
    payload = {"a": {"qr": 4}, "b": {"task": TASK}, "dice": {"values": [45]}}
    result = run(payload)
    assert (result.winner, result.decided_by, len(result.rounds)) == ("tie", "qr", 1)
