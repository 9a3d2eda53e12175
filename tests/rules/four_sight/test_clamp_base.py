"""S-A29 with clamp_base_before_multiplier=0: a negative check is raised to 0 before the
manifestation die acts on it, an adverse episode included, since that episode is the check
x 1, then -20 (S:L140, S-A08; catalogue A3.6)."""

from fractions import Fraction

from service.rules.four_sight.checks import check
from tests.rules.four_sight import oracle
from tests.rules.four_sight.rulebook import odds, roller, run, table

CLAMPED = {"clamp_base_before_multiplier": "0"}
#: Trait -5, a d6 of 1: the check is -4 before the manifestation die (S:L140).
NEGATIVE = {**roller(-5, manifestation="controlled"), "target_number": 1}


def test_an_adverse_episode_on_a_negative_check_raised_to_0_is_minus_20():
    """Manifestation die 1: max(-4, 0) x 1 - 20 = -20, not -4 - 20 = -24 (S:L140, S-A29)."""
    rolled = run(check, {**NEGATIVE, "options": CLAMPED, "dice": {"values": [1, 1]}})
    assert (rolled.base, rolled.result, rolled.adverse_episode) == (-4, -20, True)
    literal = run(check, {**NEGATIVE, "dice": {"values": [1, 1]}})
    assert literal.result == -24  # S-A29's default multiplies, and subtracts from, -4 as it is


def test_the_odds_of_every_result_agree_with_the_oracle_under_the_clamp():
    """Every result of trait -5 + d6 under a controlled manifestation (catalogue A3.1 step 6),
    the oracle's max(base, 0) x 1 - 20 for an adverse episode."""
    found = table(odds(check, {**NEGATIVE, "options": CLAMPED}).result)
    expected: dict[str, Fraction] = {}
    for (result, _), p in oracle.check_outcomes(
        -5, 1, manifestation="controlled", clamp_zero=True
    ).items():
        expected[str(result)] = expected.get(str(result), Fraction(0)) + p
    assert found == expected
    assert found["-20"] == Fraction(5, 6) * Fraction(1, 6)  # d6 1-5 leave the check at most 0
