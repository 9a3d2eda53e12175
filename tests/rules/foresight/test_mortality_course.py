"""FORESIGHT recovery and deterioration over time (catalogue foresight-2.md 2.3 #15-#17, 2.6 #44,
odds Q9): the `course` of wound-level/recovery-roll's odds, day by day. Seed lines are cited as
F:L<n>. The course is checked exactly against an independent recursion written here from the
rule text, sharing no code with the service: it steps a twentieth of a day at a time, rolls
when a level's interval (F:L2580-2584) has run, and settles a critical episode (WL5-7) with
Cramer's rule where the service uses Gauss-Jordan elimination."""

from fractions import Fraction
from itertools import permutations

import pytest

from tests.rules.foresight.calls import OPS, odds
from tests.rules.foresight.oracle import LADDER, qr_distribution

TICKS = 20  # a tick is a twentieth of a day: every interval at 5%-multiples of care is whole
BASE_DAYS = {1: 1, 2: 5, 3: 20, 4: 1}  # F:L2580-2583; WL5-7 roll in minutes
DEAD = 8


def _sc(score, bef, modifier):
    index = min(17, max(0, LADDER.index(Fraction(bef)) + modifier))
    return int(score * LADDER[index] + Fraction(1, 2))


def _recovery(dist):
    """QR1-QR4 one better, QR7 nothing, QR10 one worse (F:L2596)."""
    return {-1: sum(dist[q] for q in (1, 2, 3, 4)), 0: dist[7], 1: dist[10]}


def _deterioration(dist):
    """QR1-QR3 one better, QR4 nothing, QR7 and QR10 one worse (F:L2600)."""
    return {-1: sum(dist[q] for q in (1, 2, 3)), 0: dist[4], 1: dist[7] + dist[10]}


def _determinant(rows):
    size = len(rows)
    total = Fraction(0)
    for order in permutations(range(size)):
        inversions = sum(order[i] > order[j] for i in range(size) for j in range(i + 1, size))
        term = Fraction(-1 if inversions % 2 else 1)
        for i, j in enumerate(order):
            term *= rows[i][j]
            if not term:
                break
        total += term
    return total


class Patient:
    """EN score and BEF, the care modifier (both rolls), the bandage (deterioration only)."""

    def __init__(self, score, bef, care=0, bandage=0):
        self.score, self.bef, self.care, self.bandage = score, bef, care, bandage
        self.settled = {}

    def qr(self, worst, bandage=0):
        return qr_distribution(_sc(self.score, self.bef, self.care + bandage - worst))

    def critical_moves(self, w, m):
        """One period at WL5 (both rolls summed, F:L2585) or WL6-7 (deterioration only)."""
        det = _deterioration(self.qr(m, self.bandage))
        rec = _recovery(self.qr(m)) if w == 5 else {0: Fraction(1)}
        out = {}
        for a, pa in rec.items():
            for b, pb in det.items():
                out[a + b] = out.get(a + b, 0) + pa * pb
        return out

    def exits(self, level, worst):
        """{(level, worst) or 'dead': P} where a critical episode ends, by Cramer's rule."""
        band = [(w, m) for m in range(5, 8) for w in range(5, m + 1)]
        start = (level, max(min(worst, 7), level))
        if start in self.settled:
            return self.settled[start]
        ends = {}
        for w, m in band:
            for change, p in self.critical_moves(w, m).items():
                after = w + change
                if after >= DEAD:
                    ends.setdefault("dead", {})[(w, m)] = p
                elif after <= 4:
                    ends.setdefault((after, m), {})[(w, m)] = p
        # (I - Q) x = r for each end
        matrix = [[Fraction(int(a == b)) for b in band] for a in band]
        for i, (w, m) in enumerate(band):
            for change, p in self.critical_moves(w, m).items():
                after = w + change
                if 5 <= after <= 7:
                    matrix[i][band.index((after, max(m, after)))] -= p
        whole = _determinant(matrix)
        col = band.index(start)
        found = {}
        for end, column in ends.items():
            replaced = [[*row[:col], column.get(s, Fraction(0)), *row[col + 1 :]]
                        for s, row in zip(band, matrix, strict=True)]  # fmt: skip
            found[end] = _determinant(replaced) / whole
        self.settled[start] = found
        return found


def expected_course(patient, level, worst, days, percent=100):
    """[{level: P}] for day 0..days (8 dead). Day 0 settles a starting critical episode."""
    interval = {w: BASE_DAYS[w] * TICKS * percent // 100 for w in BASE_DAYS}

    def settle(lvl, wst, p, into):
        if lvl >= DEAD:
            into["dead"] = into.get("dead", 0) + p
        elif lvl >= 5:
            for end, q in patient.exits(lvl, wst).items():
                key = end if end == "dead" else (*end, 0)
                into[key] = into.get(key, 0) + p * q
        elif lvl == 0:
            into["healthy"] = into.get("healthy", 0) + p
        else:
            into[(lvl, wst, 0)] = into.get((lvl, wst, 0), 0) + p

    states = {}
    settle(level, worst, Fraction(1), states)
    course = [states]
    for _ in range(days):
        for _ in range(TICKS):
            after = {}
            for state, p in states.items():
                if state in ("dead", "healthy"):
                    after[state] = after.get(state, 0) + p
                    continue
                w, m, ticks = state
                if ticks + 1 < interval[w]:
                    after[(w, m, ticks + 1)] = after.get((w, m, ticks + 1), 0) + p
                    continue
                for change, q in _recovery(patient.qr(m)).items():
                    settle(w + change, max(m, w + change), p * q, after)
            states = after
        course.append(states)
    return [_levels(s) for s in course]


def _levels(states):
    found = {}
    for state, p in states.items():
        key = 8 if state == "dead" else 0 if state == "healthy" else state[0]
        found[key] = found.get(key, 0) + p
    return {k: p for k, p in found.items() if p}


def course(condition, endurance, days, **more):
    found = odds("wound-level/recovery-roll", {"condition": condition, "endurance": endurance,
                 "days": days, **more})  # fmt: skip
    return found, [{int(row.outcome): Fraction(row.exact) for row in day.wound_level}
                   for day in found.course]  # fmt: skip


@pytest.mark.parametrize(("level", "worst", "score", "bef", "care", "bandage", "days", "pct"), [
    (2, 3, 9, 5, 0, 0, 30, 100),   # X3's patient (F:L2604): medium now, heavy once
    (4, 4, 9, 7, 3, 0, 20, 75),    # incapacitated at a TL6 facility: 75% intervals (F:L2888)
    (1, 1, 7, 5, 0, 0, 12, 25),    # light wound, TL8 care intervals
    (3, 3, 12, 7, 2, 0, 30, 100),  # heavy: a roll every twenty days (F:L2582)
    (5, 5, 12, 7, 3, 0, 10, 50),   # critical: day 0 is Q9's fate
    (6, 6, 9, 7, 3, 2, 8, 100),    # dying, bandaged (F:L2821)
])  # fmt: skip
def test_the_course_is_the_independent_recursion(level, worst, score, bef, care, bandage, days,
                                                 pct):  # fmt: skip
    patient = Patient(score, bef, care, bandage)
    _, found = course({"wound_level": level, "max_wound_level": worst, "bandage_bonus": bandage},
                      {"score": score, "bef": bef}, days, care_modifier=care,
                      care_interval_pct=pct)  # fmt: skip
    assert found == expected_course(patient, level, worst, days, pct)
    for day in found:
        assert sum(day.values()) == 1


@pytest.mark.parametrize(("score", "bef", "bonus", "start", "book"), [
    (7, 5, 0, 5, 0.9800), (7, 7, 3, 5, 0.6354), (12, 7, 3, 5, 0.2153), (9, 7, 3, 6, 0.9047),
    (12, 7, 3, 7, 0.9755),
])  # fmt: skip
def test_day_0_of_a_critical_patient_is_q9(score, bef, bonus, start, book):
    """Catalogue Q9: a critical patient's episode settles at once; day 0 holds its fate, and
    death only grows after it as the stabilised relapse."""
    found, days = course({"wound_level": start, "max_wound_level": start},
                         {"score": score, "bef": bef}, 5, care_modifier=bonus)  # fmt: skip
    assert found.course[0].dead.exact == found.fate_dead.exact
    assert found.course[0].dead.float == pytest.approx(book, abs=5e-5)
    assert set(days[0]) <= {3, 4, 8}
    dead = [day.get(8, 0) for day in days]
    assert dead == sorted(dead)


def test_the_book_example_patient_x3_day_by_day():
    """X3 (F:L2604): WL2, worst 3, EN 9 (BEF 5): SC 9 x EF 2 (three rungs below 5) = 18; the
    first roll comes on day 5 (every five days, F:L2581): a success to WL1, QR10 to WL3."""
    _, days = course({"wound_level": 2, "max_wound_level": 3}, {"score": 9, "bef": 5}, 5)
    assert days[:5] == [{2: 1}] * 5
    dist = qr_distribution(18)
    assert days[5] == {1: _recovery(dist)[-1], 2: dist[7], 3: dist[10]}


def test_no_days_no_course_and_the_limits():
    assert odds("wound-level/recovery-roll", {"condition": {"wound_level": 2},
                "endurance": {"score": 9}}).course == []  # fmt: skip
    healthy = course({"wound_level": 0}, {"score": 9}, 3)[1]
    assert healthy == [{0: 1}] * 4
    op = OPS["wound-level/recovery-roll"]
    fields = op.odds_request_model.model_json_schema()["properties"]
    assert (fields["days"]["maximum"], fields["care_interval_pct"]["minimum"]) == (120, 10)


@pytest.mark.parametrize(("body", "fields"), [
    ({"days": 13, "care_interval_pct": 10}, ["/care_interval_pct", "/days"]),
    ({"days": 3, "options": {"roll_schedule_basis": "max"}}, ["/days"]),
    ({"days": 121}, ["/days"]),
    ({"days": 3, "care_interval_pct": 33}, ["/care_interval_pct"]),
])  # fmt: skip
def test_bad_courses_are_422s_naming_the_field(client, body, fields):
    base = {"condition": {"wound_level": 2}, "endurance": {"score": 9}}
    answer = client.post("/v1/foresight/wound-level/recovery-roll/odds", json={**base, **body})
    assert answer.status_code == 422, answer.text
    assert sorted(e["pointer"] for e in answer.json()["errors"]) == fields
