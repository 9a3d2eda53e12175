"""FORESIGHT combat time over REST and GraphQL as a new user meets it: initiative, the order of a
round, actions, waiting, bonus actions, reflexes and balance (issue 23's acceptance checks).
Seed lines are cited as F:L<n>."""

from fractions import Fraction

from tests.http import graphql, post


def test_the_sniper_cannot_preempt_the_gunman_on_equal_qrs(client):
    """X27d (F:L3314): QR3 against QR3 cannot pre-empt, even with the better Initiative score;
    the sniper fires straight after the gunman."""
    body = {"waiter": {"qr": 3, "score": 14}, "actor": {"qr": 3, "score": 11}}
    found = post(client, "/waiting/preempt", body)
    assert (found["comparison"], found["may_preempt"], found["reaction"]) == ("tie", False, "after")
    found = graphql(
        client,
        """{ foresight { waitingPreempt(input: {waiter: {qr: QR3, score: 14},
        actor: {qr: QR3, score: 11}, focus: ACTOR}) { comparison mayPreempt reaction } } }""",
    )
    assert found["waitingPreempt"] == {"comparison": "TIE", "mayPreempt": False,
                                       "reaction": "AFTER"}  # fmt: skip
    better = post(client, "/waiting/preempt", {"waiter": {"qr": 2}, "actor": {"qr": 3}})
    assert (better["may_preempt"], better["reaction"]) == (True, "pre_empt")


def test_q17_the_chance_to_preempt(client):
    """Catalogue Q17 row SC 60 against SC 40: P(strictly better) 0.4584, P(tie) 0.2832."""
    body = {"waiter": {"task": {"score": 12, "bef": 5}}, "actor": {"task": {"score": 8, "bef": 5}}}
    found = post(client, "/waiting/preempt/odds", body)
    got = {row["outcome"]: round(row["float"], 4) for row in found["comparison"]}
    assert got == {"waiter_better": 0.4584, "tie": 0.2832, "actor_better": 0.2584}
    assert found["may_preempt"]["float"] == got["waiter_better"]


def test_x23_three_bonus_moves(client):
    """X23 (F:L3088): AG 12, QR2: 3 bonus Move actions."""
    found = post(client, "/bonus-actions", {"family": "move", "attribute": 12, "qr": 2})
    assert (found["bonus_actions"], found["attribute_rolled"]) == (3, "AG")
    found = graphql(
        client,
        """{ foresight { bonusActions(input: {family: MOVE, attribute: 12, qr: QR2}) {
        bonusActions attributeRolled normalActionsLost } } }""",
    )
    assert found["bonusActions"] == {"bonusActions": 3, "attributeRolled": "AG",
                                     "normalActionsLost": 0}  # fmt: skip


def test_x27_the_snipers_two_bonus_aims_and_the_gunmans_one_fire(client):
    """X27 (F:L3304): PC 12, SC 84, roll 63: QR4, 2 bonus aims. X27c (F:L3314): DX 9, SC 63,
    roll 62: QR4, 1 bonus fire. X27i (F:L3320): DX 12, QR7: 1 bonus fire."""
    sniper = post(client, "/bonus-actions",
                  {"family": "aim", "attribute": 12, "dice": {"values": [63]}})  # fmt: skip
    assert (sniper["roll"]["success_chance"], sniper["qr"], sniper["bonus_actions"]) == (84, 4, 2)
    fire = {"family": "fire_reload_throw", "attribute": 9, "dice": {"values": [62]}}
    gunman = post(client, "/bonus-actions", fire)
    assert (gunman["roll"]["success_chance"], gunman["qr"], gunman["bonus_actions"]) == (63, 4, 1)
    found = graphql(
        client,
        """{ foresight { bonusActions(input: {family: FIRE_RELOAD_THROW, attribute: 12,
        qr: QR7}) { bonusActions } } }""",
    )
    assert found["bonusActions"]["bonusActions"] == 1


def test_x22_joe_and_noname_draw(client):
    """X22 (F:L3012): Joe's DX roll QR4, one bonus draw; Noname's QR3, two (DX 7-9)."""
    joe = post(client, "/bonus-actions", {"family": "draw", "attribute": 8, "qr": 4})
    noname = post(client, "/bonus-actions", {"family": "draw", "attribute": 8, "qr": 3})
    assert (joe["bonus_actions"], noname["bonus_actions"]) == (1, 2)


def test_no_bonus_roll_after_a_failed_initiative(client):
    """F:L2962: a 422 naming the initiative QR."""
    body = {"family": "move", "attribute": 12, "qr": 2, "initiative_qr": 7}
    response = client.post("/v1/foresight/bonus-actions", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/initiative_qr"


def test_q7_bonus_odds_over_rest_and_graphql(client):
    """Catalogue Q7 row AG 12 at SC 84: P(-1) 0.02, P(1) 0.14, P(2) 0.42, P(3) 0.42, mean
    2.22."""
    found = post(client, "/bonus-actions/odds", {"family": "move", "attribute": 12})
    got = {row["outcome"]: row["exact"] for row in found["bonus_actions"]}
    assert got == {"-1": "1/50", "1": "7/50", "2": "21/50", "3": "21/50"}
    assert Fraction(found["mean_bonus_actions"]["exact"]) == Fraction(222, 100)
    found = graphql(
        client,
        """{ foresight { bonusActionsOdds(input: {family: MOVE, attribute: 12}) {
        meanBonusActions { exact } } } }""",
    )
    assert found["bonusActionsOdds"]["meanBonusActions"]["exact"] == "111/50"


def test_x24_reflexes(client):
    """X24 (F:L3112): parry, dodge, parry, dodge: 0, 0, -2, -2; parry x3, dodge: 0, -2, -4, 0."""
    body = {"reflexes": [{"reflex": r} for r in ("parry", "dodge", "parry", "dodge")]}
    found = post(client, "/reflex/catalog", body)
    assert [u["modifier"] for u in found["uses"]] == [0, 0, -2, -2]
    found = graphql(
        client,
        """{ foresight { reflexCatalog(input: {reflexes: [{reflex: PARRY}, {reflex: PARRY},
        {reflex: PARRY}, {reflex: DODGE}]}) { uses { modifier allowed } } } }""",
    )
    assert [u["modifier"] for u in found["reflexCatalog"]["uses"]] == [0, -2, -4, 0]


def test_initiative_over_rest_and_graphql(client):
    """X27b (F:L3304): the sniper's +3 awareness (AMB2-48); surprise is -4 (F:L2960)."""
    body = {"task": {"score": 12, "bef_formula": {"term": "E", "plus": 3, "familiarity": 2}},
            "awareness_modifier": 3, "dice": {"values": [30]}}  # fmt: skip
    found = post(client, "/initiative", body)
    assert (found["success_chance"], found["qr"], found["actions"]) == (96, 3, 2)
    assert found["may_roll_bonus"] is True
    found = graphql(
        client,
        """{ foresight { initiative(input: {task: {score: 12, bef: 5}, awareness: SURPRISED,
        dice: {values: [70]}}) { successChance qr actions mayRollBonus frozen } } }""",
    )
    assert found["initiative"] == {"successChance": 12, "qr": "QR10", "actions": 0,
                                   "mayRollBonus": False, "frozen": True}  # fmt: skip
    odds = post(client, "/initiative/odds", {"task": {"score": 12, "bef": 5}})
    actions = {row["outcome"]: row["exact"] for row in odds["actions"]}
    assert actions == {"0": "1/25", "1": "9/25", "2": "3/5"}


def test_the_order_of_a_round(client):
    """F:L2964, F:L3000, F:L2966: worst declares first, best acts first, the hidden sniper's
    declaration unheard by the gunman."""
    body = {"combatants": [{"id": "sniper", "qr": 3, "score": 14},
                           {"id": "gunman", "qr": 4, "score": 11, "aware_of": ["amy"]},
                           {"id": "amy", "qr": 4, "score": 12}], "dice": {"seed": 3}}  # fmt: skip
    found = post(client, "/initiative/order", body)
    assert [t["ids"] for t in found["acting"]] == [["sniper"], ["amy"], ["gunman"]]
    assert [t["ids"] for t in found["declaring"]] == [["gunman"], ["amy"], ["sniper"]]
    assert found["combatants"][0]["declaration_seen_by"] == ["amy"]
    found = graphql(
        client,
        """{ foresight { initiativeOrder(input: {combatants: [{id: "a", qr: QR2, score: 9},
        {id: "b", qr: QR2, score: 9}], dice: {values: [2]}}) { actingFirst
        acting { ids fullTie } } } }""",
    )
    assert found["initiativeOrder"] == {
        "actingFirst": "b",
        "acting": [{"ids": ["b"], "fullTie": "RANDOM"}, {"ids": ["a"], "fullTie": "RANDOM"}],
    }


def test_actions_allowance_and_the_catalogs(client):
    """AMB2-49 (F:L2584): a failed initiative at WL4 leaves no action by default; the Actions
    Table (F:L3020-3053); standing from prone is three rises (F:L3046)."""
    found = post(client, "/actions/allowance",
                 {"initiative_qr": 7, "wound_level": 4, "willpower_qr": 2})  # fmt: skip
    assert (found["normal_actions"], found["options_applied"]["wl4_action_loss_stacks"]) == (
        0,
        True,
    )
    found = graphql(
        client,
        """{ foresight { actionsAllowance(input: {initiativeQr: QR2, stunned: true}) {
        normalActions restriction mayRollBonus } } }""",
    )
    assert found["actionsAllowance"] == {
        "normalActions": 1,
        "restriction": "RECOVER_FROM_STUN_ONLY",
        "mayRollBonus": False,
    }
    found = graphql(
        client,
        """{ foresight { actionsCatalog(input: {fromStance: PRONE, toStance: STANDING}) {
        path { actions } actions { action unbalancing } } } }""",
    )
    assert found["actionsCatalog"]["path"]["actions"] == ["RISE", "RISE", "RISE"]
    assert len(found["actionsCatalog"]["actions"]) == 28
    table = client.get("/v1/foresight/tables/bonus-actions-received")
    assert table.status_code == 200
    assert table.json()["rows"][5]["qr4"] == 4  # 16-19 at QR4 (F:L3084)


def test_balance_over_rest(client):
    """F:L3334, F:L3045, F:L3268: a move unbalances (-2 ranged), Recover restores and shoulders."""
    body = {"start": {"longarm": True, "shouldered": True},
            "log": [{"action": "move"}, {"action": "recover"}, {"reflex": "dodge"}]}  # fmt: skip
    found = post(client, "/balance", body)
    assert [s["balanced"] for s in found["steps"]] == [True, False, True, False]
    assert [s["shouldered"] for s in found["steps"]] == [True, False, True, False]
    assert (found["ranged_modifier"], found["melee_modifier"]) == (-2, 0)
    found = graphql(
        client,
        """{ foresight { balance(input: {log: [{action: PIVOT}, {action: STEP}]}) {
        balanced rangedModifier } } }""",
    )
    assert found["balance"] == {"balanced": True, "rangedModifier": 0}
