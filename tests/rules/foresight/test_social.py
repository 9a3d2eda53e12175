"""FORESIGHT social skills and contests between parties (catalogue 3.I.2, 3.I.6, 3.I.7, 3.I.10,
3.I.12): persuasion, seduction, contact engagements (against catalogue 5.9), games and
teaching. Exact odds are checked against brute force over the D100 faces, read by the
independent oracle (tests/rules/foresight/oracle.py)."""

import itertools
from fractions import Fraction

import pytest
from pydantic import ValidationError

from service.rules.foresight.characters.persuasion import PERSUASION, PersuasionSituations
from service.rules.model import InputError
from tests.rules.foresight import oracle
from tests.rules.foresight.calls import by_qr, nonzero, odds, run

FACES = range(1, 101)


def shares(table) -> dict[str, Fraction]:
    return {row.outcome: Fraction(row.exact) for row in table}


def carried(qr: int) -> int:
    """The cooperating modifier of a QR (F:L1525): 4 - QR."""
    return 4 - qr


# Persuasion (F:L2465-2521)


def test_the_persuasion_table_as_printed():
    """F:L2503-2521: the request takes the sum of the rows that apply, each the GM's pick
    within the row's printed range; the request's bounds are the table's."""
    fields = PersuasionSituations.model_fields
    schema = PersuasionSituations.model_json_schema()["properties"]
    printed = {row.situation: (row.low, row.high) for row in PERSUASION}
    assert list(fields) == list(printed)
    for name, (low, high) in printed.items():
        number = next(t for t in schema[name]["anyOf"] if t.get("type") == "integer")
        assert (number["minimum"], number["maximum"]) == (low, high), name
    assert printed["hostile"] == (-4, -1)  # '-1-4', F:L2503
    assert printed["outsider"] == (-2, -2)  # F:L2505
    assert printed["indebted"] == (1, 4)  # '+1-4', F:L2521
    chosen = {"friendly": 4, "major_request": -4, "sincere": 2, "outsider": -2}
    found = run(
        "persuasion",
        {"situations": chosen, "request": {"score": 10, "bef": 5}, "dice": {"values": [50]}},
    )
    assert [t.value for t in found.modifiers] == [4, -2, -4, 2]
    assert found.modifier_total == found.request.modifier_total == 0


@pytest.mark.parametrize(
    ("situation", "modifier"),
    [("insider", 2), ("outsider", -1), ("hostile", 1), ("indebted", -1), ("no_clue", -3)],
)
def test_a_pick_outside_its_row_is_refused(situation, modifier):
    """'Target considers the persuader to be similar' is +1, no more (F:L2506); ranges are
    '-1-4', '+1-4', '-1-2' (F:L2503-2521)."""
    request = {"situations": {situation: modifier}, "request": {"score": 10, "bef": 5}}
    with pytest.raises(ValidationError) as error:
        odds("persuasion", request)
    assert error.value.errors()[0]["loc"][:2] == ("situations", situation)


def test_contradicting_situations_are_refused():
    for first, second in (("hostile", "friendly"), ("very_minor_request", "major_request")):
        low = {"hostile": -1, "friendly": 1, "very_minor_request": 1, "major_request": -1}
        request = {
            "situations": {first: low[first], second: low[second]},
            "request": {"score": 10, "bef": 5},
        }
        with pytest.raises(InputError) as error:
            odds("persuasion", request)
        assert error.value.loc == ("situations", second)


def test_the_demeanor_counts_once_when_the_option_says_so():
    """AMB-50: a hostile target's -3 and the NPC demeanor's -3 (F:L2448) are one thing."""
    picks = {"hostile": -3, "sincere": 2}
    base = {"situations": picks, "request": {"score": 10, "bef": 5}, "dice": {"values": [50]}}
    both = run("persuasion", base)
    once = run("persuasion", {**base, "options": {"demeanor_already_applied": True}})
    assert (both.modifier_total, both.left_out) == (-1, [])
    assert (once.modifier_total, once.left_out) == (2, ["hostile"])
    assert once.options_applied.demeanor_already_applied is True


def test_the_request_builds_on_the_case():
    """F:L2493: the request 'builds on the case that led up to it' - the case's QR1 gives +3
    (F:L1525); a hard sell is Confidence, a soft sell Charisma (F:L2495-2497)."""
    found = run(
        "persuasion",
        {
            "approach": "direct",
            "case": {"task": {"score": 12, "bef": 7}},
            "request": {"score": 16, "bef": 5},
            "dice": {"values": [5, 70]},
        },
    )
    assert (found.case_qr, found.request_skill) == (1, "Confidence")
    assert found.request.ease_factor == 8  # BEF 5 moved 3 rungs
    assert found.request.success_chance == 128
    assert (found.request.qr, found.persuaded) == (4, True)
    given = run(
        "persuasion",
        {"case": {"qr": 7}, "request": {"score": 16, "bef": 5}, "dice": {"values": [60]}},
    )
    assert (given.case, given.request_skill, given.request.ease_factor) == (None, "Charisma", 2)


def test_persuasion_odds_are_every_pair_of_faces():
    """The case (score 12, BEF 7) and the request (score 14, BEF 5, +1 insider, -2 major)
    over the 100 x 100 faces; a botched case (-6) leaves the request at EF 0, impossible."""
    request = {
        "situations": {"insider": 1, "major_request": -2},
        "case": {"task": {"score": 12, "bef": 7}},
        "request": {"score": 14, "bef": 5},
    }
    found = odds("persuasion", request)
    expected: dict[int, Fraction] = {}
    case_sc = oracle.success_chance(12, 7)
    for first, second in itertools.product(FACES, FACES):
        case_qr = oracle.qr(first, case_sc)
        sc = oracle.success_chance(14, 5, [1, -2, carried(case_qr)])
        q = oracle.qr(second, sc) if sc else 7  # SC 0: impossible, not rolled (AMB-07)
        expected[q] = expected.get(q, Fraction(0)) + Fraction(1, 10_000)
    assert by_qr(found.request.qr) == expected
    assert nonzero(by_qr(found.case.qr)) == nonzero(oracle.qr_distribution(case_sc))


# Seduction (F:L1858-1864)


SEDUCTION = {
    "stages": [
        {"stage": "opening_line", "task": {"score": 14, "bef": 5}},
        {"stage": "banter", "task": {"score": 12, "bef": 5, "player_input": ["convincing"]}},
    ],
    "empathy": {"task": {"score": 10, "bef": 7}},
}


def test_each_stage_builds_on_the_last():
    """F:L1862: 'each stage building on the level of success of the previous stage': an
    opening line at QR2 gives the banter +2, and player input counts (+1)."""
    found = run("seduction", {**SEDUCTION, "dice": {"values": [60, 10, 30]}})
    opening, banter = found.stages
    assert found.empathy_qr == 4
    assert (opening.roll.qr, banter.roll.modifier_total) == (2, 3)
    assert banter.roll.ease_factor == 8
    assert (found.detected, found.success) == (False, True)


def test_an_empathy_roll_better_than_a_stage_sees_through_it():
    """F:L1860: 'apparent to a character whose empathy roll is better than the seduction
    roll (but they may opt to go along with it)': Empathy QR3 sees through the QR4 banter,
    not the QR3 opening line (equal is not better)."""
    request = {**SEDUCTION, "empathy": {"qr": 3}, "dice": {"values": [30, 60]}}
    found = run("seduction", request)
    assert [s.roll.qr for s in found.stages] == [3, 4]
    assert [s.noticed for s in found.stages] == [False, True]
    assert (found.detected, found.detected_at) == (True, 1)


def test_seduction_odds_are_every_face_of_every_stage():
    found = odds("seduction", SEDUCTION)
    empathy = oracle.qr_distribution(oracle.success_chance(10, 7))
    last: dict[int, Fraction] = {}
    detected = Fraction(0)
    first_sc = oracle.success_chance(14, 5)
    for e, p in empathy.items():
        for one, two in itertools.product(FACES, FACES):
            q1 = oracle.qr(one, first_sc)
            q2 = oracle.qr(two, oracle.success_chance(12, 5, [1, carried(q1)]))
            weight = p / 10_000
            last[q2] = last.get(q2, Fraction(0)) + weight
            seen = oracle.QRS.index(e) < max(oracle.QRS.index(q1), oracle.QRS.index(q2))
            detected += weight if seen else 0
    assert shares(found.last_stage_qr) == {f"QR{q}": p for q, p in nonzero(last).items()}
    assert shares(found.success)["true"] == sum(p for q, p in last.items() if q <= 4)
    assert shares(found.detected)["true"] == detected
    assert nonzero(by_qr(found.empathy.qr)) == nonzero(empathy)


# Contact engagement (F:L1888-1910)


def party(stealth_sc: int, perception_sc: int, posture: str = "none") -> dict:
    """One member whose Stealth and Perception tasks have these SCs (score x BEF 5)."""
    return {
        "members": [
            {
                "stealth": stealth_sc // 5,
                "stealth_bef": 5,
                "perception": perception_sc // 5,
                "perception_bef": 5,
            }
        ],
        "posture": posture,
    }


#: Catalogue 5.9: one character a side, no posture (to four places).
T59 = {
    ((50, 50), (50, 50)): {
        "4+:a": "0.2142",
        "4+:b": "0.2142",
        "3:a": "0.1079",
        "3:b": "0.1079",
        "2:a": "0.0427",
        "2:b": "0.0427",
        "1:a": "0.0609",
        "1:b": "0.0609",
        "0:observation": "0.0841",
        "0:contact": "0.0644",
    },
    ((75, 60), (40, 40)): {
        "4+:a": "0.3848",
        "4+:b": "0.0950",
        "3:a": "0.1367",
        "3:b": "0.0612",
        "2:a": "0.0518",
        "2:b": "0.0345",
        "1:a": "0.0622",
        "1:b": "0.0527",
        "0:observation": "0.0637",
        "0:contact": "0.0574",
    },
    ((40, 40), (75, 60)): {
        "4+:a": "0.0950",
        "4+:b": "0.3848",
        "3:a": "0.0612",
        "3:b": "0.1367",
        "2:a": "0.0345",
        "2:b": "0.0518",
        "1:a": "0.0527",
        "1:b": "0.0622",
        "0:observation": "0.0637",
        "0:contact": "0.0574",
    },
}


@pytest.mark.parametrize("sides", list(T59))
def test_engagement_odds_match_5_9(sides):
    (a_stealth, a_sight), (b_stealth, b_sight) = sides
    found = shares(
        odds(
            "contact-engagement", {"a": party(a_stealth, a_sight), "b": party(b_stealth, b_sight)}
        ).verdict
    )
    assert {k: f"{float(p):.4f}" for k, p in found.items()} == T59[sides]
    assert sum(found.values()) == 1


def brute_engagement(a: list[tuple[int, int]], b: list[tuple[int, int]], posture=(0, 0)):
    """Every combination of QRs of every roll (each QR weighted by its count of faces): the
    worst Stealth QR plus the best Perception QR and the posture, and the outcome."""
    rolls = [sc for member in (*a, *b) for sc in member]
    counts = [oracle.qr_counts(sc) for sc in rolls]
    found: dict[str, Fraction] = {}
    total_weight = 100 ** len(rolls)
    for qrs in itertools.product(oracle.QRS, repeat=len(rolls)):
        weight = 1
        for q, c in zip(qrs, counts, strict=True):
            weight *= c[q]
        if not weight:
            continue
        split = 2 * len(a)
        totals = []
        for side, extra in ((qrs[:split], posture[0]), (qrs[split:], posture[1])):
            totals.append(max(side[0::2]) + min(side[1::2]) + extra)
        diff = abs(totals[0] - totals[1])
        if diff == 0:
            key = "0:observation" if totals[0] % 2 == 0 else "0:contact"
        else:
            key = f"{'4+' if diff >= 4 else diff}:{'a' if totals[0] < totals[1] else 'b'}"
        found[key] = found.get(key, Fraction(0)) + Fraction(weight, total_weight)
    return found


def test_a_group_adds_its_worst_stealth_to_its_best_perception():
    """F:L1892: two members moving very cautiously (-2, F:L1896) against one moving hastily
    (+2, F:L1898), over every combination of QRs."""
    a = {
        "members": [party(60, 40)["members"][0], party(30, 70)["members"][0]],
        "posture": "very_cautious",
    }
    b = party(50, 50, "hasty")
    found = shares(odds("contact-engagement", {"a": a, "b": b}).verdict)
    assert found == brute_engagement([(60, 40), (30, 70)], [(50, 50)], (-2, 2))


def test_members_rolled_and_given_make_one_party():
    """F:L1892: a member rolled here (Perception an attribute, BEF 7 by default, AMB-01) and
    one whose QRs were rolled at the table: worst Stealth QR7 plus best Perception QR2."""
    member = {"stealth": 10, "stealth_bef": 5, "perception": 12}
    found = run(
        "contact-engagement",
        {
            "a": {"members": [member], "rolled": [qrs(3, 4)]},
            "b": {"rolled": [qrs(2, 2)]},
            "dice": {"values": [65, 15]},
        },
    )
    first, given = found.a.members
    assert (first.stealth.qr, first.perception.ease_factor, first.perception.qr) == (7, 7, 2)
    assert (given.stealth, given.stealth_qr) == (None, 3)
    assert (found.a.total, found.b.total, found.verdict) == (9, 4, "4+:b")
    with pytest.raises(InputError) as error:
        odds("contact-engagement", {"a": {"posture": "hasty"}, "b": {"rolled": [qrs(2, 2)]}})
    assert error.value.loc == ("a", "members")


def qrs(stealth: int, perception: int) -> dict:
    return {"stealth_qr": stealth, "perception_qr": perception}


def test_the_rows_of_the_table():
    """F:L1900-1908, the party with the lower total by the difference."""
    surprise = run(
        "contact-engagement",
        {"a": {"rolled": [qrs(2, 1)], "posture": "ambush"}, "b": {"rolled": [qrs(4, 3)]}},
    )
    assert (surprise.a.total, surprise.b.total, surprise.row) == (-1, 7, "4+")
    assert (surprise.advantage, surprise.contact_range) == ("a", "chosen")
    assert (surprise.initiative_a, surprise.initiative_b) == (4, -4)
    seen = run(
        "contact-engagement",
        {
            "a": {"rolled": [qrs(3, 2), qrs(7, 4)]},
            "b": {"rolled": [qrs(4, 1)], "posture": "hasty"},
        },
    )
    assert (seen.a.worst_stealth_qr, seen.a.best_perception_qr, seen.a.total) == (7, 2, 9)
    assert (seen.b.total, seen.row, seen.advantage, seen.verdict) == (7, "2", "b", "2:b")
    assert (seen.initiative_a, seen.initiative_b, seen.contact_range) == (-2, 2, "observation")
    three = run("contact-engagement", {"a": {"rolled": [qrs(1, 1)]}, "b": {"rolled": [qrs(3, 2)]}})
    assert (three.row, three.surprise, three.initiative_a, three.initiative_b) == ("3", True, 4, 0)


def test_simultaneous_notice_reads_the_parity_of_the_totals():
    """F:L1908: even totals at observation range, odd at contact range; both -2 initiative.
    The postures are even, so they never change the parity (AMB-37)."""
    even = run("contact-engagement", {"a": {"rolled": [qrs(3, 1)]}, "b": {"rolled": [qrs(2, 2)]}})
    assert (even.a.total, even.contact_range, even.initiative_a) == (4, "observation", -2)
    level = run(
        "contact-engagement",
        {"a": {"rolled": [qrs(4, 3)], "posture": "ambush"}, "b": {"rolled": [qrs(1, 2)]}},
    )
    assert (level.a.total, level.b.total, level.contact_range) == (3, 3, "contact")
    unmoved = run(
        "contact-engagement", {"a": {"rolled": [qrs(4, 3)]}, "b": {"rolled": [qrs(3, 4)]}}
    )
    assert (unmoved.a.total, unmoved.contact_range) == (7, "contact")


# Generic Game (F:L2011-2019)


def player(score: int, **extra) -> dict:
    return {"task": {"score": score, "bef": 5}, **extra}


@pytest.mark.parametrize(
    ("game", "rounds"), [("chess", 5), ("go", 10), ("backgammon", 2), ("monopoly", 1)]
)
def test_less_luck_more_rounds(game, rounds):
    """F:L2019: Chess five opposed resolution attempts, Go ten, Monopoly one, Backgammon two."""
    found = run(
        "generic-game", {"game": game, "a": player(12), "b": player(12), "dice": {"seed": 5}}
    )
    assert found.series_rounds == rounds
    assert len(found.rounds) >= rounds


def test_another_game_needs_its_rounds():
    with pytest.raises(InputError) as error:
        odds("generic-game", {"game": "other", "a": player(12), "b": player(12)})
    assert error.value.loc == ("options", "series_rounds")
    found = odds(
        "generic-game",
        {"game": "other", "a": player(12), "b": player(12), "options": {"series_rounds": 3}},
    )
    assert sum(shares(found.winner).values()) == 1


def test_study_adds_one_for_each_ten_points():
    """F:L2017: 'For each 10CPs invested in such studies ... a +1 modifier': 25 CPs is +2."""
    found = run(
        "generic-game",
        {"game": "chess", "a": player(12, study_cps=25), "b": player(12), "dice": {"seed": 5}},
    )
    assert (found.study_modifier_a, found.study_modifier_b) == (2, 0)
    assert found.rounds[0].a.ease_factor == 7


def test_a_level_series_goes_to_one_more_round():
    """AMB-39: Backgammon, two rounds: one each, then a tied round (QR3 v QR3), then A's."""
    faces = [30, 60, 60, 30, 30, 30, 10, 60]  # QR3 v QR4, QR4 v QR3, QR3 v QR3, QR2 v QR4
    found = run(
        "generic-game",
        {"game": "backgammon", "a": player(12), "b": player(12), "dice": {"values": faces}},
    )
    assert [r.winner for r in found.rounds] == ["a", "b", "tie", "a"]
    assert (found.wins_a, found.wins_b, found.winner, found.decided_in) == (
        2,
        1,
        "a",
        "extra_rounds",
    )
    undecided = run(
        "generic-game",
        {
            "game": "monopoly",
            "a": player(12),
            "b": player(12),
            "max_extra_rounds": 1,
            "dice": {"values": [30, 30, 60, 60]},
        },
    )
    assert (undecided.winner, undecided.decided_in, len(undecided.rounds)) == (
        "tie",
        "undecided",
        2,
    )


def test_spotted_points():
    """F:L2019: points 'spotted' by one player to the other in advance - by default round
    wins credited before play (AMB-39); as a modifier, +1 each to every roll."""
    wins = run(
        "generic-game",
        {
            "game": "monopoly",
            "a": player(12),
            "b": player(12, spotted=1),
            "dice": {"values": [10, 60, 60, 10]},
        },
    )
    assert [r.winner for r in wins.rounds] == ["a", "b"]
    assert (wins.wins_a, wins.wins_b, wins.winner, wins.decided_in) == (1, 2, "b", "extra_rounds")
    modifier = run(
        "generic-game",
        {
            "game": "monopoly",
            "a": player(12),
            "b": player(12, spotted=2),
            "options": {"handicap": "modifier"},
            "dice": {"values": [10, 60]},
        },
    )
    assert modifier.rounds[0].b.modifier_total == 2
    assert (modifier.wins_a, modifier.wins_b, modifier.winner) == (1, 0, "a")


def brute_game(sc_a, sc_b, rounds: int, extra: int, credit: int = 0) -> dict[str, Fraction]:
    """Every pair of faces for one round, then the tree of round results: the whole series,
    then one more round at a time while level, at most `extra` (AMB-39)."""
    one: dict[int, Fraction] = {1: Fraction(0), 0: Fraction(0), -1: Fraction(0)}
    for x, y in itertools.product(FACES, FACES):
        qa, qb = oracle.qr(x, sc_a), oracle.qr(y, sc_b)
        one[(qa < qb) - (qa > qb)] += Fraction(1, 10_000)
    found = {"a": Fraction(0), "b": Fraction(0), "tie": Fraction(0)}

    def play(margin: int, played: int, p: Fraction) -> None:
        if played >= rounds and (margin or played == rounds + extra):
            found["a" if margin > 0 else "b" if margin < 0 else "tie"] += p
            return
        for result, q in one.items():
            play(margin + result, played + 1, p * q)

    play(credit, 0, Fraction(1))
    return found


@pytest.mark.parametrize(
    ("score_a", "score_b", "game", "extra", "spotted_b"),
    [(12, 10, "backgammon", 3, 0), (14, 16, "monopoly", 4, 0), (16, 10, "backgammon", 2, 1)],
)
def test_game_odds_are_every_sequence_of_rounds(score_a, score_b, game, extra, spotted_b):
    request = {
        "game": game,
        "a": player(score_a),
        "b": player(score_b, spotted=spotted_b),
        "max_extra_rounds": extra,
    }
    found = shares(odds("generic-game", request).winner)
    rounds = {"backgammon": 2, "monopoly": 1}[game]
    expected = brute_game(
        oracle.success_chance(score_a, 5),
        oracle.success_chance(score_b, 5),
        rounds,
        extra,
        -spotted_b,
    )
    assert found == nonzero(expected)


# Teach (F:L1939-1949)


def test_the_bomb_expert_teaches_amy_the_display():
    """F:L1947-1949: the expert, an experienced instructor, 'makes the teaching roll easily'
    to teach Amy to read the LED display - task-specific knowledge (F:L1943)."""
    found = run(
        "teach",
        {
            "teacher": {"score": 16, "bef": 5, "difficulty": "very_easy"},
            "subject": "knowledge",
            "dice": {"values": [12]},
        },
    )
    assert (found.taught, found.skill, found.learner_may_buy, found.guide_hours) == (
        True,
        None,
        False,
        None,
    )


def test_a_skill_taught_is_bought_at_level_0_at_once():
    """F:L1943-1945: the learner pays for the skill at level 0 at once, 3 x Cost (F:L740):
    Theory's Cost is 3 (F:L764), so 9 CP; "the skill cost in hours" is the guide: 3 hours, the
    Cost column, not the 9 paid to acquire it."""
    found = run(
        "teach",
        {
            "teacher": {"score": 14, "bef": 5},
            "subject": "skill",
            "skill": "Theory",
            "dice": {"values": [30]},
        },
    )
    assert (found.taught, found.learner_may_buy, found.acquisition_cp, found.guide_hours) == (
        True,
        True,
        9,
        3,
    )
    failed = run(
        "teach",
        {
            "teacher": {"score": 14, "bef": 5},
            "subject": "skill",
            "skill": "Theory",
            "dice": {"values": [80]},
        },
    )
    assert (failed.taught, failed.learner_may_buy) == (False, False)
    for bad in (
        {"subject": "skill"},
        {"subject": "nfm", "skill": "Theory"},
        {"subject": "skill", "skill": "Juggling"},
    ):
        with pytest.raises(InputError) as error:
            odds("teach", {"teacher": {"score": 14, "bef": 5}, **bad})
        assert error.value.loc == ("skill",)


def test_teach_odds_are_the_hundred_faces():
    found = odds("teach", {"teacher": {"score": 13, "bef": 5, "modifiers": [-1]}, "subject": "nfm"})
    expected = oracle.qr_distribution(oracle.success_chance(13, 5, [-1]))
    assert by_qr(found.roll.qr) == nonzero(expected)
    assert shares(found.taught)["true"] == sum(p for q, p in expected.items() if q <= 4)


# Over the wire


def test_bad_input_names_each_field_and_limit(client):
    members = [qrs(1, 1)] * 13
    response = client.post(
        "/v1/foresight/contact-engagement",
        json={"a": {"rolled": members}, "b": {"rolled": [qrs(1, 11)]}},
    )
    assert response.status_code == 422, response.text
    pointers = {e["pointer"] for e in response.json()["errors"]}
    assert {"/a/rolled", "/b/rolled/0/perception_qr"} <= pointers
    response = client.post(
        "/v1/foresight/generic-game/odds",
        json={
            "game": "go",
            "a": player(12),
            "b": player(12),
            "max_extra_rounds": 51,
            "options": {"series_rounds": 26},
        },
    )
    assert response.status_code == 422, response.text
    pointers = {e["pointer"] for e in response.json()["errors"]}
    assert {"/max_extra_rounds", "/options/series_rounds"} <= pointers


def test_the_targets_empathy_is_an_attribute_roll():
    """F:L1860: 'a character whose empathy roll is better': Empathy (EM) is an attribute, so
    a task with no BEF takes the attribute BEF (AMB-01), the option attribute_bef."""
    bare = {**SEDUCTION, "empathy": {"task": {"score": 10}}}
    assert odds("seduction", bare) == odds("seduction", SEDUCTION)  # SEDUCTION's EM is BEF 7
    five = {**bare, "options": {"attribute_bef": 5}}
    found = run("seduction", {**five, "dice": {"values": [26, 60, 10]}})
    assert found.empathy is not None
    assert (found.empathy.success_chance, found.empathy_qr) == (50, 4)
