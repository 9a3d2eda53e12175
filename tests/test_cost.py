"""Exact odds stay inside their declared cost, checked from the registry for every operation.

For each operation with odds, its example and requests drawn at the bounds of the request
schema it publishes (tests/contract/bounds.py, `COST_SAMPLES` of them, 40 by default and more
under `make fuzz-long`): the states the odds enumerate (counted by `Distribution`) never
exceed the operation's estimate, and a request estimated over the budget is refused over
REST with a 422 naming its fields and the limit. Then the walls around them: a GraphQL
request's fields share one allowance, a computation past its deadline is a 503 with
Retry-After, and health checks are answered while odds are computed.
"""

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache
from service.catalogue import json_schema, odds_example
from service.rules.cost import BUDGET, Estimate, OverLimit, metered
from service.rules.distribution import Distribution
from service.rules.future_imperfect.core.checks import die_distribution, die_values
from service.rules.future_imperfect.core.damage import summed, totals_of
from service.rules.future_imperfect.harm.draws import (
    _unexploded,
    _unexploded_states,
    less_lowest,
    less_lowest_states,
)
from service.rules.model import InputError, Model
from service.rules.registry import Operation, load
from service.settings import Settings
from tests.contract.bounds import draw

REGISTRY = load()
SAMPLES = int(os.environ.get("COST_SAMPLES", "40"))
#: Operations whose drawn requests are seldom valid, and how many times more to draw: an
#: attack is one of four attackers against one of four defences, a bare attacker needing a
#: damage class, a weapon its range, so about one draw in thirty is an attack at all.
RARELY_VALID = {"foresight/attack": 10}
WITH_ODDS = [
    pytest.param(op, id=f"{op.system}/{op.name}")
    for system in REGISTRY.systems
    for op in system.operations
    if op.odds is not None
]


def odds_request(op: Operation, data: Any) -> Model:
    assert op.odds_request_model is not None
    return op.odds_request_model.model_validate_json(json.dumps(data))


def enumerated(op: Operation, request: Model) -> int:
    with metered() as meter:
        op.run_odds(request)
    return meter.states


@pytest.mark.parametrize("op", WITH_ODDS)
def test_the_example_is_within_its_estimate_and_the_budget(op):
    request = odds_request(op, odds_example(op))
    estimate = op.estimate(request).within(BUDGET)
    assert estimate.states <= BUDGET
    assert 0 < enumerated(op, request) <= estimate.states


@pytest.mark.parametrize("op", WITH_ODDS)
def test_requests_at_the_bounds_stay_within_their_estimate(op, client):
    assert op.odds_request_model is not None
    schema = json_schema(op.odds_request_model, "validation")
    computed, refused = 0, []
    for seed in range(SAMPLES * RARELY_VALID.get(f"{op.system}/{op.name}", 1)):
        data = draw(schema, seed)
        try:
            request = odds_request(op, data)
            estimate = op.estimate(request).within(BUDGET)
            if estimate.states > BUDGET:
                refused.append(data)
                continue
            states = enumerated(op, request)
        except (ValidationError, InputError):
            continue  # the rules refuse it (two manifestations that cannot act together)
        assert states <= estimate.states, (
            f"{data}: {states:,} states, {estimate.states:,} estimated"
        )
        computed += 1
    assert computed, "no request drawn at the bounds was computed"
    for data in refused[:3]:
        answer = client.post(f"/v1/{op.system}/{op.name}/odds", json=data)
        assert answer.status_code == 422, answer.text
        errors = answer.json()["errors"]
        assert errors
        assert all(e["type"] == "cost" and e["limit"] == BUDGET for e in errors)


#: Requests `make fuzz-long`'s cost suite (2,000 draws an operation) found enumerating more
#: states than estimated: an opposed check's labels left out (148 states, 147 estimated),
#: a hand-to-hand Strength test estimated at the weapon's depth, not the deeper one of all
#: the dice (467,002 and 395,404), a fire's areas added at any Size as a constant
#: 300,000 (2,795,902 made, over the budget it should have been refused at), and a 4C
#: character or sidekick at the most rerolls under force_reroll (334,516 and 334,852 against
#: 320,000, found by a sweep of the generation options).
UNDER_ESTIMATED = json.loads(
    (Path(__file__).parent / "data" / "cost_under_estimates.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("name", sorted(UNDER_ESTIMATED))
def test_requests_once_under_estimated_are_within_their_estimate(name):
    op = next(op for s in REGISTRY.systems for op in s.operations if f"{s.slug}/{op.name}" == name)
    request = odds_request(op, UNDER_ESTIMATED[name])
    assert enumerated(op, request) <= op.estimate(request).states


def test_a_fire_consuming_a_small_body_is_refused_over_the_budget(client):
    """Six areas' wound levels added at Size 1 make 2.8 million states: a 422 naming the
    fields, not a computation past the budget."""
    body = UNDER_ESTIMATED["future-imperfect/environment/on-fire"]
    answer = client.post("/v1/future-imperfect/environment/on-fire/odds", json=body)
    assert answer.status_code == 422, answer.text
    assert {e["pointer"] for e in answer.json()["errors"]} == {"/fire", "/areas", "/size"}


def test_a_course_of_wounds_is_answered_at_any_care_the_schema_allows(client):
    """`make fuzz-long` found a FORESIGHT recovery course of 119 days past the odds' 1 s
    deadline: its exact fractions grew with every roll. Whole weights over one denominator
    answer it within the budget now. Care at 95% once made the estimate 19 times 100%'s (the
    times since a roll counted in twentieths of a day) and refused 60 days, which enumerate
    42,000 states: those times differ by multiples of the intervals' common divisor, so no
    course the schema allows (at most 120 rolls) is over the budget."""
    body = {"condition": {"wound_level": 5, "max_wound_level": 5}, "endurance": {"score": 9},
            "days": 119}  # fmt: skip
    path = "/v1/foresight/wound-level/recovery-roll/odds"
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["course"]) == 120
    answer = client.post(path, json={**body, "days": 60, "care_interval_pct": 95})
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["course"]) == 61
    op = next(op for op in REGISTRY.system("foresight").operations  # type: ignore[union-attr]
              if op.name == "wound-level/recovery-roll")  # fmt: skip
    allowed = [(days, pct) for pct in range(10, 101, 5) for days in range(1, 121)
               if -(-days * 100 // pct) <= 120]  # fmt: skip
    estimates = [op.estimate(odds_request(op, {**body, "days": days, "care_interval_pct": pct}))
                 for days, pct in allowed]  # fmt: skip
    assert max(e.states for e in estimates) <= BUDGET


def test_a_long_burn_on_every_location_is_answered(client):
    """A FORESIGHT burn's estimate once counted 100 outcomes a hit where at most 8 occur (the
    damage of QR1-QR4, with the vital D10's extra or not), so 16 rounds engulfed on all seven
    locations (6,804 states) were refused. A dead state stays as it is and meets no hit: a
    DC80 fire engulfing all seven for 20 rounds was refused at 435,780. The dead levels a hit
    can add are bounded by the DC, so a DC999 fire (2,863 states) was refused at 625,620; its
    states are counted (`_burn_states`), equal to what the odds make, before a refusal."""
    op = next(op for op in REGISTRY.system("foresight").operations  # type: ignore[union-attr]
              if op.name == "burn")  # fmt: skip
    every = ["head", "chest", "abdomen", "right_arm", "left_arm", "right_leg", "left_leg"]
    body = {"source": "fire", "dc": 5, "engulfed": True, "locations": every, "rounds": 16,
            "options": {"vital_extra": True}}  # fmt: skip
    answer = client.post("/v1/foresight/burn/odds", json=body)
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["dead_by_round"]) == 16
    answer = client.post("/v1/foresight/burn/odds", json={**body, "dc": 80, "rounds": 20})
    assert answer.status_code == 200, answer.text
    for_10_rounds = {"vital_extra": True, "armor_effective_rounds": 10}
    for hotter in ({"dc": 999}, {"dc": 999, "armor": "3A", "small_area": True},
                   {"dc": 40, "armor": "3A", "options": for_10_rounds}):  # fmt: skip
        request = odds_request(op, {**body, **hotter, "rounds": 20})
        estimate = op.estimate(request)
        assert estimate.count is not None
        assert estimate.count(10**9) == enumerated(op, request), hotter
    hottest = {**body, "dc": 999, "rounds": 20}
    assert op.estimate(odds_request(op, hottest)).states > BUDGET
    answer = client.post("/v1/foresight/burn/odds", json=hottest)
    assert answer.status_code == 200, answer.text


def test_a_stun_recovery_from_any_stun_points_is_answered(client):
    """The recovery's chain reads one D100 a turn for each point, 100 states, where the
    estimate counted 400: from 1,000 points (100,104 states) it was refused."""
    rolled = {"bef_zero_is_impossible": False, "roll_impossible_tasks": True}
    body = {"condition": {"stun_points": 1000, "stunned": True}, "pain_resistance": {"score": 8},
            "options": rolled}  # fmt: skip
    answer = client.post("/v1/foresight/stun/recover/odds", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["chain"]["clear"] is not None


def test_a_hit_through_a_suit_of_pieces_is_answered(client):
    """FORESIGHT damage counted two ways past every armor layer at every location, so a suit
    of eight pieces, each on its own location (a helm, a breastplate, greaves...), was 256
    ways a location and a 422; each location counts only the layers there. Eight layers at
    every location are over that bound, and counted (`damage_states`), answered too."""
    every = ["head", "chest", "abdomen", "right_arm", "left_arm", "right_leg", "left_leg"]
    suit = [{"rating": "3", "coverage": 8, "locations": [at]} for at in every]
    body = {"damage_class": "4", "armor": [*suit, {"rating": "A", "coverage": 5,
                                                   "locations": ["chest"]}]}  # fmt: skip
    answer = client.post("/v1/foresight/damage/resolve/odds", json=body)
    assert answer.status_code == 200, answer.text
    everywhere = [{"rating": "3", "coverage": 8}] * 8
    answer = client.post("/v1/foresight/damage/resolve/odds", json={**body, "armor": everywhere})
    assert answer.status_code == 200, answer.text


def test_an_estimate_over_the_limit_is_counted_before_it_is_refused():
    """`within` asks the exact count only past the limit, and `after` carries the count
    along with the states made first."""
    asked = []

    def count(limit: int) -> int:
        asked.append(limit)
        return 30

    found = Estimate(1_000, ("/hits",), count)
    assert found.within(1_000) is found
    assert not asked
    assert found.within(999) == Estimate(30, ("/hits",), counted=True)
    later = found.after(200).within(500)
    assert later == Estimate(230, ("/hits",), counted=True)
    assert asked == [999, 300]
    assert Estimate(1_000, ()).within(10).states == 1_000


def test_a_count_stops_once_past_its_limit():
    with metered(limit=10):
        Distribution.die(6)
        with pytest.raises(OverLimit) as stopped:
            Distribution.die(6)
    assert stopped.value.states == 12


def test_a_burst_of_hits_is_counted_before_it_is_refused(client):
    """FORESIGHT damage's bound takes every pair of wound level and inflicted as reachable,
    so 4 located hits of a DC4 weapon (1,022 states, a millisecond) were a 422 at 1.6
    million; the level follows the inflicted (at most 2 apart a hit). A request over the
    bound is counted exactly (`damage_states`) before it is refused, never below what its
    odds enumerate (equal to it here), and the refusal stays for what is truly heavy."""
    op = next(op for op in REGISTRY.system("foresight").operations  # type: ignore[union-attr]
              if op.name == "damage/resolve")  # fmt: skip
    armored = {"damage_class": "2x16b", "armor": [{"rating": "3A"}]}
    compared = 0
    for hits in (4, 8, 16):
        for body in ({"damage_class": "DC4", "hits": hits},
                     {"damage_class": "DC12", "hits": hits, "located": False},
                     {**armored, "hits": hits // 2}):  # fmt: skip
            request = odds_request(op, body)
            estimate = op.estimate(request)
            assert estimate.count is not None
            counted = estimate.count(BUDGET)  # past the budget, it stops: refused
            assert counted > BUDGET or enumerated(op, request) == counted, body
            compared += counted <= BUDGET
    assert compared == 8  # all but 16 armored hits (478,882 states) are within the budget
    body = {"damage_class": "DC4", "hits": 8}
    assert op.estimate(odds_request(op, body)).states > BUDGET
    answer = client.post("/v1/foresight/damage/resolve/odds", json=body)
    assert answer.status_code == 200, answer.text
    answer = client.post("/v1/foresight/damage/resolve/odds",
                         json={"damage_class": "DC30", "hits": 16})  # fmt: skip
    assert answer.status_code == 422, answer.text
    errors = answer.json()["errors"]
    assert {e["pointer"] for e in errors} >= {"/hits"}
    assert "more than 400,000 outcome states (counting stopped at" in errors[0]["detail"]


def test_the_largest_damage_codes_are_answered(client):
    """A convolution multiplied as big integers was counted as its pairs, some 25 times its
    work, so the largest code to the head (V-5 and two cards more, 401,767 states, 10 ms)
    was refused; counted by its fields and digit products (`packed_states`) it is 44,240.
    A 5d12 blow with Strength 5d12 counted each weapon total against the Strength's values
    six times where its odds do twice (290,467 states, 60 ms, refused at 1.06 million). A die
    exploding to depth d shows (d + 1)(top - 1) values, not top (d + 2) (`die_values`), so
    V-5 with Strength V-5 to the head (355,758 states) was refused at 465,774; a d4 Strength
    follows every die deeper, and V-5 with I-5 to the head (586,491) is truly over."""
    answer = client.post("/v1/future-imperfect/combat/damage/odds",
                         json={"code": "V-5", "region": "head"})  # fmt: skip
    assert answer.status_code == 200, answer.text
    blow = {"weapon": "5d12", "strength": "5d12", "region": "vitals"}
    answer = client.post("/v1/future-imperfect/combat/damage/hand-to-hand/odds", json=blow)
    assert answer.status_code == 200, answer.text
    blow = {"weapon": "V-5", "strength": "V-5", "region": "head"}
    answer = client.post("/v1/future-imperfect/combat/damage/hand-to-hand/odds", json=blow)
    assert answer.status_code == 200, answer.text
    answer = client.post("/v1/future-imperfect/combat/damage/hand-to-hand/odds",
                         json={**blow, "strength": "I-5"})  # fmt: skip
    assert answer.status_code == 422, answer.text


def test_a_long_fall_is_answered_as_its_draws_are_summed(client):
    """A fall's estimate counted every pair of a die's values and the totals so far, where the
    sum is a packed product: a 1,000 m fall in one draw of 5(7), column 7 a d20 (28,680
    states), was refused at 478,000. Drawn 2(1) for each 5 m, a 120 m fall truly is heavy
    (6.9 million states, 4 s)."""
    fall = {"distance": 1000, "landing": "hard", "options": {"column_7_die": 20}}
    answer = client.post("/v1/future-imperfect/environment/falling/odds", json=fall)
    assert answer.status_code == 200, answer.text
    fall = {"distance": 120, "options": {"falling_mode": "per_segment"}}
    answer = client.post("/v1/future-imperfect/environment/falling/odds", json=fall)
    assert answer.status_code == 422, answer.text
    assert {e["pointer"] for e in answer.json()["errors"]} == {"/distance"}


def test_a_white_chip_on_the_largest_code_is_answered(client):
    """A white chip's total less its lowest die was counted as every pair of faces and
    chains, some 4.6 times its work, so 5(5) with a white chip to the head (161,690 states,
    0.2 s) was refused at 746,586. Its faces' (total, lowest) pairs are counted as there
    are: a lowest l comes with (i - 1)(top - 1 - l) + 1 totals after i faces."""
    for top in (2, 4, 12, 20):
        for count in range(1, 8):
            with metered() as made:
                _unexploded(top, count)
            assert made.states == _unexploded_states(top, count), (top, count)
    for top, count, depth in ((4, 6, 20), (12, 8, 12), (8, 5, 14)):
        with metered() as made:
            less_lowest(top, count, depth)
        assert made.states <= less_lowest_states(top, count, depth) <= 1.1 * made.states
    chip = {"code": "5(5)", "white_chip": True, "region": "head"}
    answer = client.post("/v1/future-imperfect/combat/damage/odds", json=chip)
    assert answer.status_code == 200, answer.text


def test_automatic_fire_at_five_targets_is_answered(client):
    """A burst's estimate took every target's test as the largest check's (60,000 states), so
    fire at four or five targets was always refused, even of five d4 a die a target (2,745
    states); each test is now counted by its pool's die and dice (`check_states`): five
    d20 at each of five targets make 58,760, estimated at 125,620."""
    burst = {"pool": "I-5", "tn": 3, "targets": [{"tn": 3}] * 5}
    answer = client.post("/v1/future-imperfect/combat/automatic/odds", json=burst)
    assert answer.status_code == 200, answer.text
    largest = {"pool": "VII-5", "tn": 3, "burst": 20, "targets": [{"tn": 3 + n} for n in range(5)],
               "options": {"column_7_die": 20, "target_split": "whole_pool"}}  # fmt: skip
    answer = client.post("/v1/future-imperfect/combat/automatic/odds", json=largest)
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["targets"]) == 5


@pytest.mark.parametrize("top", [4, 6, 8, 10, 12, 20])
@pytest.mark.parametrize("depth", [0, 1, 3, 12])
def test_an_open_ended_die_shows_the_values_its_estimate_counts(top, depth):
    """The estimates of Future Imperfect's sums count a die's values and highest as
    `die_values` gives them: exactly what the die followed to the depth shows."""
    die = die_distribution(top, True, depth)
    outcomes = [value for value, _ in die.items()]
    assert die_values(top, depth) == (len(outcomes), max(outcomes))
    assert min(outcomes) == 1
    assert totals_of([top, top], depth) == len(summed([top, top], depth))


HEAVY = {  # a combat check with three stacked manifestations, each die exploding
    "traits": [{"trait": "dexterity", "score": 6}],
    "expertise": "specialty",
    "target_number": 7,
    "combat": True,
    "manifestations": ["deep_sight", "precognitive_flare", "anticipatory_deadeye"],
    "use_manifestation": "anticipatory_deadeye",
    "options": {
        "manifestation_die_explodes": "into_multiplier",
        "manifestation_stacking": "controlled_then_deep",
    },
}
CHECK = next(op for op in REGISTRY.system("four-sight").operations if op.name == "check")  # type: ignore[union-attr]


def heavy(target: int) -> dict[str, Any]:
    return {**HEAVY, "target_number": target}


def check_odds_field(alias: str, target: int) -> str:
    return (
        f"{alias}: checkOdds(input: {{traits: [{{trait: DEXTERITY, score: 6}}], "
        f"expertise: SPECIALTY, targetNumber: {target}, combat: true, "
        f"manifestations: [DEEP_SIGHT, PRECOGNITIVE_FLARE, ANTICIPATORY_DEADEYE], "
        f"useManifestation: ANTICIPATORY_DEADEYE, options: {{manifestationDieExplodes: "
        f"INTO_MULTIPLIER, manifestationStacking: CONTROLLED_THEN_DEEP}}}}) "
        "{ success { exact } }"
    )


def test_graphql_aliases_share_one_allowance():
    """Two aliases whose estimates each fit the budget but not together: the second is
    refused, and the first still answered."""
    first = CHECK.estimate(odds_request(CHECK, heavy(7))).states
    second = CHECK.estimate(odds_request(CHECK, heavy(8))).states
    # The conftest app's deadline: a loaded machine once took the first past 1 s, a 503.
    settings = Settings(log_requests=False, max_odds_states=max(first, second) + 1000,
                        odds_deadline_seconds=30)  # fmt: skip
    query = f"{{ fourSight {{ {check_odds_field('a', 7)} {check_odds_field('b', 8)} }} }}"
    with TestClient(build_app(settings, MemoryCache())) as client:
        answer = client.post("/graphql", json={"query": query}).json()
    assert answer["data"]["fourSight"]["a"]["success"]["exact"]
    [error] = answer["errors"]
    assert error["path"] == ["fourSight", "b"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert error["extensions"]["errors"][0]["type"] == "cost"


def test_a_round_of_future_imperfect_checks_fits_one_allowance():
    """Fifteen checks' odds in one GraphQL request (16 aliases at most), every one computed:
    each is estimated by its own pool (`pool_cost`, 7,498 states at most for V-5), where at
    60,000 a check the request's allowance refused every one after the sixth."""
    pools = [f"{column}-{row}" for column in ("I", "II", "III", "IV", "V") for row in (3, 4, 5)]
    fields = " ".join(
        f'c{i}: coreCheckOdds(input: {{pool: "{pool}", tn: {3 + i}}}) {{ success {{ exact }} }}'
        for i, pool in enumerate(pools)
    )
    settings = Settings(log_requests=False, odds_deadline_seconds=30)
    with TestClient(build_app(settings, MemoryCache())) as client:
        answer = client.post("/graphql", json={"query": f"{{ futureImperfect {{ {fields} }} }}"})
    body = answer.json()
    assert "errors" not in body, body["errors"][:2]
    assert len(body["data"]["futureImperfect"]) == len(pools) == 15


def test_odds_past_the_deadline_are_a_503_with_retry_after():
    settings = Settings(log_requests=False, odds_deadline_seconds=0.001)
    with TestClient(build_app(settings, MemoryCache())) as client:
        rest = client.post("/v1/four-sight/check/odds", json=heavy(7))
        graphql = client.post(
            "/graphql", json={"query": f"{{ fourSight {{ {check_odds_field('a', 9)} }} }}"}
        )
        health = client.get("/healthz")
    for answer in (rest, graphql):
        assert answer.status_code == 503, answer.text
        assert answer.headers["retry-after"] == "1"
        assert answer.headers["content-type"] == "application/problem+json"
    assert health.status_code == 200


def test_health_is_answered_while_odds_are_computed():
    """The odds run in a worker thread: a health check sent after them finishes first."""
    # A deadline far past the odds' 0.1 s: what is checked is the order, not the deadline
    # (a loaded CI machine once took the default second).
    app = build_app(Settings(log_requests=False, odds_deadline_seconds=30), MemoryCache())

    async def run() -> tuple[bool, int, int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            odds = asyncio.create_task(client.post("/v1/four-sight/check/odds", json=heavy(12)))
            await asyncio.sleep(0.01)  # the odds are in their thread by now
            health = await client.get("/healthz")
            pending = not odds.done()
            return pending, health.status_code, (await odds).status_code

    pending, health, odds = asyncio.run(run())
    assert (pending, health, odds) == (True, 200, 200)
