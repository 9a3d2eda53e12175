"""Issue 19's last gaps: the hit location read from a configured Action Deck's location
sections (FI:L516, catalogue 1.6, 3.7.1), and a white story chip spent on damage (FI:L724,
A-61), each against brute-force enumeration."""

import json
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from math import floor
from typing import Any

import pytest
from pydantic import ValidationError

from service.rules.distribution import Distribution
from service.rules.future_imperfect.core import deck as decks
from service.rules.future_imperfect.core.damage import HIT_LOCATIONS, depth_for
from service.rules.future_imperfect.harm.damage import combat_damage
from service.rules.future_imperfect.harm.draws import less_lowest
from service.rules.future_imperfect.harm.location import hit_location
from service.rules.future_imperfect.harm.options import HitRegion
from service.rules.model import InputError
from tests.rules.calls import odds, run, table
from tests.rules.future_imperfect.test_deck import DECK, configured

# The deck's location sections (FI:L516)

#: The chart's places in order (FI:L431-437), written out again, with their regions.
ORDER = [("left_leg", "legs"), ("right_leg", "legs"), ("lower_torso", "lower_torso"),
         ("vitals", "torso"), ("left_arm", "arms"), ("right_arm", "arms"),
         ("upper_torso", "upper_torso"), ("head", "head")]  # fmt: skip
REGION = {"left_leg": "legs", "right_leg": "legs", "lower_torso": "lower_torso",
          "vitals": "vitals", "left_arm": "arms", "right_arm": "arms",
          "upper_torso": "upper_torso", "head": "head"}  # fmt: skip
KEPT = {"vitals": "torso", "lower_torso": "torso", "upper_torso": "torso"}


def located(impulse: int) -> str:
    """A made-up location section: skewed to the torso, so the odds are not flat."""
    sections = ["upper_torso", "lower_torso", "left_leg", "right_arm", "upper_torso", "vitals",
                "head", "lower_torso", "right_leg", "left_arm", "upper_torso"]  # fmt: skip
    return sections[impulse % 11]


LOCATED = {**DECK, "name": "located",
           "cards": [{**c, "location": located(c["impulse"])} for c in DECK["cards"]]}  # fmt: skip


@pytest.fixture
def with_locations() -> Iterator[decks.Deck]:
    with configured(LOCATED) as deck:
        yield deck


@pytest.fixture
def without_locations() -> Iterator[None]:
    with configured(DECK):
        yield


def test_a_cards_places_are_the_charts():
    """The places a card may show are the chart's rows, arms and legs by side (FI:L431-437)."""
    rows = [
        r.tracked.replace("*", side) if "*" in r.tracked else r.region.lower().replace(" ", "_")
        for r in HIT_LOCATIONS
        for side in (("left", "right") if "*" in r.tracked else ("",))
    ]
    assert tuple(rows) == decks.PLACES == tuple(p for p, _ in ORDER)
    assert {REGION[p] for p in decks.PLACES} == set(HitRegion)


def test_every_card_shows_a_location_or_none_does():
    mixed = {**LOCATED, "cards": [DECK["cards"][0], *LOCATED["cards"][1:]]}
    with pytest.raises(ValidationError):
        decks.Deck.model_validate_json(json.dumps(mixed))
    bad = {**LOCATED, "cards": [{**DECK["cards"][0], "location": "tail"}, *LOCATED["cards"][1:]]}
    with pytest.raises(ValidationError):
        decks.Deck.model_validate_json(json.dumps(bad))


def test_no_deck_no_deck_location():
    """F2: no card is printed; without FI_ACTION_DECK the deck engine is a 422."""
    deck = {"options": {"engine": "deck"}}
    for call in (lambda: run(hit_location, {**deck, "dice": {"seed": 1}}),
                 lambda: odds(hit_location, deck)):  # fmt: skip
        with pytest.raises(InputError) as refused:
            call()
        assert refused.value.loc == ("options", "engine")


def test_a_deck_without_location_sections_is_refused(without_locations):
    with pytest.raises(InputError) as refused:
        odds(hit_location, {"options": {"engine": "deck"}})
    assert refused.value.loc == ("options", "engine")
    assert "location" in str(refused.value)


def test_the_card_drawn_shows_where_the_hit_lands(with_locations):
    """FI:L516: 'the area shown in the Hit Location section of the Action Card'. Drawn from
    the cards not out (combat/deck): with impulses 0 and 1 out, the second card left is 3."""
    found = run(hit_location, {"out": [0, 1], "options": {"engine": "deck"},
                               "dice": {"values": [2]}})  # fmt: skip
    assert (found.card, found.deck, found.out) == (3, "located", (0, 1, 3))
    assert (found.region, found.location, found.face, found.roll) == ("arms", "right_arm", 6, 6)
    assert found.outcome == "hit"
    assert "A-54" in found.note


def test_bumps_move_the_card_along_the_chart(with_locations):
    """FI:L446: each bump may 'shift left or right': a place a point on the deck engine, as
    the +2 of fighting from above (FI:L440-441), clamped at the head."""
    request = {"melee": True, "height_advantage": True, "bumps": 1, "shift": 1,
               "options": {"engine": "deck"}}  # fmt: skip
    found = run(hit_location, {**request, "dice": {"values": [3]}})  # card 2: the left leg
    assert (found.card, found.face, found.roll, found.location) == (2, 1, 6, "right_arm")
    found = run(hit_location, {**request, "dice": {"values": [1]}})  # card 0: upper torso
    assert (found.card, found.face, found.roll, found.location) == (0, 7, 8, "head")
    assert found.bonus_cards == 2


def brute_force(request: dict[str, Any]) -> dict[str, dict[str, Fraction]]:
    """Every card left, each as likely, read and moved along the chart as written out here."""
    out = set(request.get("out", ()))
    left = [i for i in range(54) if i not in out]
    modifier = (2 * request.get("melee", False) + 2 * request.get("height_advantage", False)
                + 2 * request.get("point_blank", False) + request.get("modifier", 0))  # fmt: skip
    bumps = request.get("bumps", 0)
    found: dict[str, Counter[str]] = {"region": Counter(), "location": Counter(),
                                      "outcome": Counter()}  # fmt: skip
    for impulse in left:
        start = [p for p, _ in ORDER].index(located(impulse)) + modifier
        moves = [request.get("shift", 0)]
        if "aim_for" in request:  # the least move within the bumps, up first
            reach = [
                s
                for n in range(bumps + 1)
                for s in (n, -n)
                if REGION[ORDER[min(max(start + s, 0), 7)][0]] == request["aim_for"]
            ]
            moves = reach[:1] or [0]
        name = ORDER[min(max(start + moves[0], 0), 7)][0]
        region = REGION[name]
        exposed = request.get("options", {}).get("prone_exposed_regions",
                                                 ["head", "arms", "upper_torso"])  # fmt: skip
        if request.get("prone") and region not in exposed:
            outcome = "miss_prone"
        else:
            outcome = "cover" if region in request.get("covered", ()) else "hit"
        found["region"][region] += 1
        found["location"][KEPT.get(name, name)] += 1
        found["outcome"][outcome] += 1
    return {k: {o: Fraction(n, len(left)) for o, n in c.items()} for k, c in found.items()}


@pytest.mark.parametrize(
    "request_",
    [
        {},
        {"out": [0, 5, 6, 17, 28, 39, 50, 53]},
        {"melee": True, "height_advantage": True, "bumps": 2, "aim_for": "head"},
        {"point_blank": True, "bumps": 3, "aim_for": "vitals", "out": [5, 16]},
        {"modifier": -3, "bumps": 1, "shift": -1, "covered": ["legs", "lower_torso"]},
        {"prone": True, "out": list(range(20))},
    ],
)
def test_deck_odds_against_every_card_left(with_locations, request_):
    """Exact odds: one card of those left, each as likely (catalogue 1.6)."""
    found = odds(hit_location, {**request_, "options": {"engine": "deck"}})
    expected = brute_force(request_)
    assert table(found.region) == expected["region"]
    assert table(found.location) == expected["location"]
    assert table(found.outcome) == expected["outcome"]
    assert "A-54" in found.note


def test_the_d20_engine_is_unchanged(with_locations):
    """The dice engine still rolls the chart (FI:L431), deck configured or not."""
    found = run(hit_location, {"dice": {"values": [20]}})
    assert (found.region, found.card, found.deck, found.note) == ("head", None, None, None)
    assert odds(hit_location, {}).note is None


# A white story chip on damage (FI:L724, A-61)


def test_a_white_chip_draws_a_card_more_and_discards_the_lowest():
    """FI:L724: 'If this is a damage roll that would normally keep all of the cards, choose
    one to discard': the attacker discards the lowest (A-61). A 3(2) slugthrower (FI:L514)
    shows 4, 2 and 5; the chip's card a 3: the 2 goes, 12 damage, 2 wounds at Size 6."""
    found = run(combat_damage, {"code": "3(2)", "white_chip": True,
                                "dice": {"values": [4, 2, 5, 3]}})  # fmt: skip
    assert (found.code, found.total, found.discarded, found.wounds) == ("3(2)", 12, 2, 2)
    plain = run(combat_damage, {"code": "3(2)", "dice": {"values": [4, 2, 5]}})
    assert (plain.total, plain.discarded) == (11, None)


def test_the_chip_discards_among_the_codes_column_not_the_area_effect():
    """A head hit adds 2 cards (FI:L512), the chip one more: the lowest of those 2(2)+2+1 goes;
    the area-effect die (A-43) is added apart."""
    found = run(combat_damage, {"code": "1(2)", "region": "head", "white_chip": True,
                                "ae_dice": 1, "ae_column": 1,
                                "dice": {"values": [5, 3, 4, 2, 1]}})  # fmt: skip
    assert (found.discarded, found.total) == (2, 5 + 3 + 4 + 1)


def exploding(top: int, depth: int) -> Distribution[int]:
    return Distribution.exploding(top, depth, lambda n: n, lambda n: n == top)


@pytest.mark.parametrize(("top", "count", "depth"), [(4, 3, 3), (6, 2, 4), (6, 4, 1), (8, 3, 2)])
def test_less_lowest_against_every_roll(top, count, depth):
    die = list(exploding(top, depth).items())
    weights: Counter[int] = Counter()
    for rolled in product(die, repeat=count):
        values = [v for v, _ in rolled]
        weights[sum(values) - min(values)] += _ways(rolled)
    expected = Distribution(weights, total=(top ** (depth + 1)) ** count)
    found = less_lowest(top, count, depth, rounds=depth)
    assert found == expected
    assert found.missing == expected.missing


def _ways(rolled: tuple[tuple[int, int], ...]) -> int:
    ways = 1
    for _, w in rolled:
        ways *= w
    return ways


@pytest.mark.parametrize(
    "request_",
    [{"code": "1(1)"}, {"code": "2(1)"}, {"code": "1(1)", "ae_dice": 1, "ae_column": 1}],
)
def test_white_chip_odds_against_every_roll(request_):
    """combat/damage with a chip, at its own depth, against every roll of its d4s: the code's
    and the chip's dice less their lowest, the area-effect die added."""
    found = odds(combat_damage, {**request_, "white_chip": True})
    code = int(request_["code"][0]) + 1
    ae = request_.get("ae_dice", 0)
    depth = depth_for([4] * (code + ae))
    die = list(exploding(4, depth).items())
    rounds = 0  # every code die exploding at once is followed while it weighs 1e-12 or more
    while Fraction(1, 4 ** (code * (rounds + 1))) >= Fraction(1, 10**12):
        rounds += 1
    weights: Counter[int] = Counter()
    for rolled in product(die, repeat=code + ae):
        kept = [v for v, _ in rolled[:code]]
        lowest = min(kept)
        if lowest > 4 * (rounds + 1):  # every die exploded more than `rounds` times: cut
            continue
        weights[sum(kept) - lowest + sum(v for v, _ in rolled[code:])] += _ways(rolled)
    total = (4 ** (depth + 1)) ** (code + ae)
    assert table(found.total) == {str(t): Fraction(w, total) for t, w in weights.items()}
    wounds: Counter[int] = Counter()
    for t, w in weights.items():
        wounds[floor(Fraction(t, 6))] += w
    assert table(found.wounds) == {str(k): Fraction(w, total) for k, w in wounds.items()}
    assert Fraction(found.truncation.mass_cut.exact) == 1 - Fraction(sum(weights.values()), total)


def test_a_white_chip_adds_a_card_to_the_cost():
    assert (
        combat_damage.estimate(
            combat_damage.odds_request_model.model_validate({"code": "3(2)", "white_chip": True})
        ).fields[-1]
        == "/white_chip"
    )
