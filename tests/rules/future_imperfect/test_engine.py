"""`engine: deck` (catalogue A-01) where a rule rolls dice of its own: a check is dice
("Checks are always open ended", FI:L133), and only core/test, lifting (FI:L131), rushing and
hit location read a configured Action Deck; damage is cards totalled (FI:L512) and a
bystander a card's column (FI:L379), both rolled as dice here; CT is "1d6" a wound level
(FI:L591), dice in the text itself. These rules accepted the deck
engine and rolled dice anyway, answering as if no deck had been asked for; each now refuses
it, roll and odds, at /options/engine, and still answers its example with the default."""

from typing import Any

import pytest
from starlette.testclient import TestClient

from service.rules.registry import Operation, load

BASE = "/v1/future-imperfect/"
SYSTEM = load().system("future-imperfect")
assert SYSTEM is not None
OPERATIONS = {op.name: op for op in SYSTEM.operations}

#: The rules that roll a check of their own through core/checks, and the seed line of it.
ROLLING_A_CHECK = (
    "combat/defense/active",  # an opposed Fighting/Dodge check, FI:L415
    "combat/defense/flee",  # an opposed Reflexes check, FI:L419
    "combat/melee/entangle",  # an opposed task, FI:L407
    "combat/melee/entangle/escape",  # an opposed Dexterity task, FI:L407
    "environment/vacuum/breathing",  # test every other round, FI:L43
    "environment/vacuum/pressure",
    "environment/suffocation",  # FI:L43
    "environment/high-pressure",
    "environment/falling/water",
    "environment/falling/soft",
    "environment/smoke",
    "environment/heat",
    "environment/heat-stroke",
    "environment/cold",
    "environment/cold/diagnose",
    "environment/drowning",
    "healing/ct",
    "healing/medical",
    "healing/natural",
    "wounds/stun-check",
    "wounds/recovery",
    "psych/contest",  # an opposed test, FI:L631
    "psych/simple-contest",
    "psych/fear",  # a Fear test, FI:L704
    "psych/terror",  # a Terror test, FI:L704
    "combat/initiative",  # the initiative test, FI:L215
    "combat/reserve/interrupt",  # an opposed Reflex contest, FI:L211
    "combat/surprise",
)

#: The rules that draw damage or check a bystander as dice, and the seed line of it.
ROLLING_CARDS_AS_DICE = (
    "combat/unintended-targets",  # '(STANDARD COLUMN)', a 1 hits, FI:L379
    "combat/damage",  # N(C): N cards of column C, totalled, FI:L512
    "combat/damage/hand-to-hand",  # the weapon's cards and a Strength test, FI:L520
    "combat/damage/unarmed",
    "environment/falling",  # 2(1) damage each 5 m, FI:L27
    "environment/on-fire",
)

#: The rules that roll CT, 1d6 a wound level, open-ended (FI:L591), and nothing else.
ROLLING_CT = (
    "combat/damage/nonlethal",  # at least 1d6 for a hit that wounds nothing, FI:L546, L591
    "wounds/concussion",  # 1d6 a wound level, FI:L591
)


def _with_engine(op: Operation, engine: str | None, odds: bool) -> dict[str, Any]:
    body = {k: v for k, v in op.example.items() if not (odds and k == "dice")}
    if engine is not None:
        body["options"] = {**body.get("options", {}), "engine": engine}
    return body


@pytest.mark.parametrize("name", ROLLING_A_CHECK + ROLLING_CARDS_AS_DICE + ROLLING_CT)
def test_a_rule_rolling_dice_refuses_the_deck_engine(client: TestClient, name: str) -> None:
    op = OPERATIONS[name]
    for path, odds in ((BASE + name, False), (BASE + name + "/odds", True)):
        response = client.post(path, json=_with_engine(op, "deck", odds))
        assert response.status_code == 422, (path, response.text)
        pointers = [error["pointer"] for error in response.json()["errors"]]
        assert pointers == ["/options/engine"], (path, response.text)
        assert client.post(path, json=_with_engine(op, None, odds)).status_code == 200, path
        assert client.post(path, json=_with_engine(op, "dice", odds)).status_code == 200, path
