"""The manifestation die in combat under `explode_trigger=modified` (S-A16, S-A19(i)).

In combat a die that shows 6 explodes (S:L191); with the `modified` trigger it must still show
6 after the injury penalty (S-A16). When the penalty applies to the manifestation die too
(S-A19(i)), a natural 6 on it shows 6 - p and does not explode, whichever way it would
(`into_multiplier` or `add_to_check`). The odds are checked against a computation of their
own, written from those rules with the oracle's dice (oracle.py).
"""

import itertools
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest

from service.rules.four_sight.checks import check
from service.rules.model import InputError
from tests.rules.four_sight import oracle
from tests.rules.four_sight.rulebook import odds, roller, run, table

ADDITIVE = ["base", "expertise", "omega", "explosion"]
LABELS = {"failure": "fail"}  # the service says 'failure' where the oracle says 'fail'


def options(explodes: str, penalise_multiplier: bool) -> dict[str, Any]:
    applies = [*ADDITIVE, "manifestation"] if penalise_multiplier else ADDITIVE
    return {
        "explode_trigger": "modified",
        "manifestation_die_explodes": explodes,
        "penalty_applies_to": applies,
    }


def request(trait: int, expertise: int, penalty: int, tn: int, **extra: Any) -> dict[str, Any]:
    spec = roller(trait, expertise, penalty=penalty, manifestation="controlled")
    return {**spec, "target_number": tn, "combat": True, **extra}


def expected(trait: int, dice: int, penalty: int, penalise_multiplier: bool) -> oracle.Outcomes:
    """{(result, adverse): P} of a controlled combat check with `add_to_check`, the `modified`
    trigger and a penalty of at least 1: no penalised die ever shows 6, so the additive dice
    never explode (S-A16); the multiplier is n - p when penalised (S-A19(i)), a natural 1 is
    the adverse episode, -20 (S:L140, S-A08), and only a multiplier still showing 6 adds one
    more additive die, penalised and so not exploding, to the multiplied check (S-A16)."""
    assert penalty >= 1
    extra = oracle.plain_pool(1, penalty)
    out: oracle.Outcomes = defaultdict(Fraction)
    for total, p in oracle.plain_pool(dice, penalty).items():
        base = trait + total
        for natural in oracle.FACES:
            q = p * oracle.SIXTH
            multiplier = natural - penalty if penalise_multiplier else natural
            if natural == 1:
                out[base - 20, True] += q
            elif multiplier >= 6:
                for added, r in extra.items():
                    out[base * multiplier + added, False] += q * r
            else:
                out[base * multiplier, False] += q
    return dict(out)


CASES = list(itertools.product((0, 3), (0, 2), (1, 3), (True, False), (1, 7, 20)))


@pytest.mark.parametrize(
    ("trait", "expertise", "penalty", "penalise_multiplier", "tn"),
    CASES,
    ids=lambda value: str(value),
)
def test_add_to_check_odds_are_the_independent_computation(
    trait, expertise, penalty, penalise_multiplier, tn
):
    payload = request(trait, expertise, penalty, tn,
                      options=options("add_to_check", penalise_multiplier))  # fmt: skip
    found = odds(check, payload)
    outcomes = expected(trait, expertise + 1, penalty, penalise_multiplier)
    assert found.truncation is None
    assert Fraction(found.success.exact) == oracle.p_at_least(outcomes, tn)
    assert Fraction(found.adverse_episode.exact) == Fraction(1, 6)
    degrees = {LABELS.get(k, k): v for k, v in table(found.degree).items()}
    assert degrees == {k: v for k, v in oracle.degrees(outcomes, tn).items() if v}


@pytest.mark.parametrize("penalty", [1, 2, 3, 4])
def test_a_penalised_multiplier_explodes_alike_into_the_multiplier_or_the_check(penalty):
    """Neither way explodes a 6 that the penalty has made 6 - p: the two give the same odds."""
    answers = [
        odds(check, request(2, 1, penalty, 7, options=options(explodes, True))).model_dump(
            include={"success", "degree", "adverse_episode", "truncation"}
        )
        for explodes in ("into_multiplier", "add_to_check", "none")
    ]
    assert answers[0] == answers[1] == answers[2]


@pytest.mark.parametrize("penalty", [1, 2, 3, 4])
def test_a_penalised_6_on_the_multiplier_adds_no_die(penalty):
    """Base die 4 and a natural 6 on the multiplier: (trait 2 + 4 - p) x (6 - p), and no
    third die is asked for (before, a third table die was required and added)."""
    payload = request(2, 0, penalty, 7, options=options("add_to_check", True),
                      dice={"values": [4, 6]})  # fmt: skip
    result = run(check, payload)
    assert result.penalty_per_die == penalty
    assert [d.natural for d in result.dice] == [4]
    (manifested,) = result.manifestations
    assert [(d.natural, d.contribution) for d in manifested.dice] == [(6, 6 - penalty)]
    assert manifested.multiplier == 6 - penalty
    assert result.result == (2 + 4 - penalty) * (6 - penalty)
    with pytest.raises(InputError):  # a die too many: nothing else is rolled
        run(check, {**payload, "dice": {"values": [4, 6, 3]}})


def test_an_unpenalised_6_on_the_multiplier_still_adds_a_die():
    """With the multiplier out of the penalty it shows 6 and explodes into the check (S-A16):
    (2 + 4 - 1) x 6 + (3 - 1); the added die shows 2 after the penalty and does not explode."""
    payload = request(2, 0, 1, 7, options=options("add_to_check", False),
                      dice={"values": [4, 6, 3]})  # fmt: skip
    result = run(check, payload)
    (manifested,) = result.manifestations
    assert [(d.role, d.natural, d.contribution) for d in manifested.dice] == [
        ("manifestation", 6, 6),
        ("explosion", 3, 2),
    ]
    assert result.result == (2 + 4 - 1) * 6 + 2


@pytest.mark.parametrize(("floor", "natural"), [("none", 4), ("0", 3), ("0", 4)])
def test_a_penalised_multiplier_of_0_makes_the_result_0(floor, natural):
    """Strength 4, conditions +3, a Grievous injury (-4 a die) that also lowers the multiplier
    (S-A19(i)): base die 3 counts 3 - 4 (0 with the 0 floor), and a multiplier that now shows 0
    multiplies the check by 0 (S:L140, S:L201), so even TN 1 fails. Before, a multiplier of
    0 was taken for 1 and the check stood at its base, which the odds never allowed."""
    penalised = [*ADDITIVE, "manifestation"]
    payload = {
        "traits": [{"trait": "strength", "score": 4}], "condition_modifier": 3,
        "injuries": ["grievous"], "manifestations": ["accelerated_computation"],
        "use_manifestation": "accelerated_computation", "target_number": 1,
        "options": {"penalty_applies_to": penalised, "die_floor": floor},
    }  # fmt: skip
    result = run(check, {**payload, "dice": {"values": [3, natural]}})
    (manifested,) = result.manifestations
    assert manifested.multiplier == 0
    assert result.base == (7 if floor == "0" else 6)
    assert (result.result, result.success) == (0, False)
    # The odds agree: only multipliers of 1 or more (naturals 5 and 6) reach TN 1.
    assert Fraction(odds(check, payload).success.exact) == Fraction(1, 3)


SINGLE_ADD = {"manifestation_die_explodes": "add_to_check", "explode_chain": "single"}


def test_with_a_single_chain_the_multipliers_6_adds_one_die_only():
    """S:L191 "any time a 6 is rolled ... rolls another die" read as one re-roll
    (explode_chain=single, S-A16): the multiplier's 6 adds one die to the check, and a 6 on
    that die rolls no further. Dex 2, base die 3, multiplier 6, added die 6: (2 + 3) x 6 + 6.
    Before, the added die exploded once more and a fourth die was required."""
    payload = request(2, 0, 0, 7, options=SINGLE_ADD, dice={"values": [3, 6, 6]})
    result = run(check, payload)
    (manifested,) = result.manifestations
    assert [(d.role, d.natural, d.exploded_from) for d in manifested.dice] == [
        ("manifestation", 6, None),
        ("explosion", 6, 0),
    ]
    assert result.result == (2 + 3) * 6 + 6


@pytest.mark.parametrize("tn", [1, 30, 48, 60, 80])
def test_with_a_single_chain_the_odds_add_one_die_only(tn):
    """The same rule in the odds, finite and exact: the base die (6 re-rolls once, S-A16),
    then the multiplier: 1 = -20 (S:L140), 2..5 multiply, 6 multiplies and adds one d6."""
    base_die = [(n, Fraction(1, 6)) for n in range(1, 6)]
    base_die += [(6 + m, Fraction(1, 36)) for m in range(1, 7)]
    expected = Fraction(0)
    for value, p in base_die:
        base = 2 + value
        finals = [base - 20] + [base * m for m in range(2, 6)]
        finals += [base * 6 + x for x in range(1, 7)]
        weights = [Fraction(1, 6)] * 5 + [Fraction(1, 36)] * 6
        expected += p * sum(w for f, w in zip(finals, weights, strict=True) if f >= tn)
    found = odds(check, request(2, 0, 0, tn, options=SINGLE_ADD))
    assert found.truncation is None
    assert Fraction(found.success.exact) == expected
