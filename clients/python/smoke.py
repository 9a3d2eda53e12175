"""Calls the service through the generated Python client and checks typed fields of each answer:
a 4D8 check with table dice, its odds, a FORESIGHT resolve and a 422 problem. tests/test_clients.py
type-checks this file with mypy --strict and runs each check against a real server; by hand:
`python clients/python/smoke.py http://127.0.0.1:8000`."""

import sys
from collections.abc import Callable

from adjudicator_client import Client, ProblemError, models


def four_d8_check(client: Client) -> None:
    dice = models.DiceSpec(values=[5, 5, 5, 3])
    result = client.four_d8_check(models.FourD8CheckRequest(ease=20, dice=dice))
    assert result.success is True
    assert result.degree == 13
    assert result.reading is not None
    assert result.reading.degree == 13
    assert [roll.value for roll in result.rolls] == [5, 5, 5, 3]


def four_d8_odds(client: Client) -> None:
    odds = client.four_d8_check_odds(models.FourD8CheckOddsRequest(ease=20))
    assert odds.chance == 20
    assert 0 < odds.summary.success.float_ < 1
    numerator, denominator = map(int, odds.summary.success.exact.split("/"))
    assert numerator / denominator == odds.summary.success.float_


def foresight_resolve(client: Client) -> None:
    dice = models.DiceSpec(values=[32])
    request = models.ForesightResolveRequest(score=14, bef=5, modifiers=[-1, 1], dice=dice)
    result = client.foresight_resolve(request)
    assert result.outcome == "rolled"
    assert result.roll == 32
    assert result.quality.qr == 3
    assert result.success is True


def invalid_input(client: Client) -> None:
    # Within the models' bounds (a table die is 1 to 100), but a d8 never shows 9.
    dice = models.DiceSpec(values=[9, 5, 5, 3])
    try:
        client.four_d8_check(models.FourD8CheckRequest(ease=20, dice=dice))
    except ProblemError as error:
        raised = error
    else:
        raise AssertionError("a d8 of 9 was accepted")
    assert raised.status == 422
    assert raised.problem is not None
    assert raised.problem.status == 422
    assert any(field.pointer.startswith("/dice") for field in raised.problem.errors or [])


CHECKS: list[Callable[[Client], None]] = [
    four_d8_check,
    four_d8_odds,
    foresight_resolve,
    invalid_input,
]

if __name__ == "__main__":
    with Client(sys.argv[1]) as client:
        for check in CHECKS:
            check(client)
    print(f"python client: {len(CHECKS)} calls passed")
