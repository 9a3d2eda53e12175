"""Combat time (catalogue part 2, 2.7 #47-#54): initiative, the order of a round, the actions a
character has, waiting, bonus actions, the Actions and Reflex tables and balance.

Every worked example of these ids (section 3: X22, X23, X24, X27, X27b-d, X27i) is a test citing
its seed line; odds are checked against brute force over every D100 roll written here from the
rule text (QRs read by tests/rules/foresight/oracle.py, which shares no code with the service)
and against the catalogue's section 4 tables (Q1, Q7, Q17). Seed lines are F:L<n>."""

import itertools
from fractions import Fraction

import pytest

from service.rules.model import InputError
from tests.rules.foresight.calls import by_qr, nonzero, odds, run
from tests.rules.foresight.oracle import qr, qr_distribution

# --- independent transcriptions of the seed's tables -------------------------------------------

#: Bonus Actions Received (F:L3078-3085): low, high, then QR10 QR7 QR4 QR3 QR2 QR1.
RECEIVED = [
    (1, 3, -1, 0, 0, 0, 1, 1),
    (4, 6, -1, 0, 0, 1, 1, 1),
    (7, 9, -1, 0, 1, 2, 2, 2),
    (10, 12, -1, 1, 2, 3, 3, 3),
    (13, 15, -1, 1, 3, 4, 4, 4),
    (16, 19, -1, 2, 4, 5, 5, 5),
    (20, 22, -1, 2, 5, 6, 6, 6),
]
COLUMNS = (10, 7, 4, 3, 2, 1)


def printed(attribute: int, q: int) -> int:
    row = next(r for r in RECEIVED if r[0] <= attribute <= r[1])
    return row[2 + COLUMNS.index(q)]


def task(score: int, bef: int) -> dict:
    return {"score": score, "bef": bef}


# --- foresight.initiative (#47) ---------------------------------------------------------------


def test_a_success_gives_two_actions_a_failure_one_a_botch_none():
    """F:L2962: QR1-QR4 two actions and a bonus roll; QR7 one, no bonus roll; QR10 frozen,
    nothing but dropping prone. Initiative 12 at BEF 3 + E (E 2): SC 60, every roll."""
    for face in range(1, 101):
        body = {"task": {"score": 12, "bef_formula": {"term": "E", "plus": 3, "familiarity": 2}},
                "dice": {"values": [face]}}  # fmt: skip
        found = run("initiative", body)
        q = qr(face, 60)
        assert found.qr == q
        assert found.actions == {1: 2, 2: 2, 3: 2, 4: 2, 7: 1, 10: 0}[q]
        assert found.may_roll_bonus == (q <= 4)
        assert found.frozen == found.may_drop_prone == (q == 10)


def test_the_sniper_takes_an_off_table_plus_three():
    """X27b (F:L3304): the sniper's +3 awareness is not a row of the table (F:L2953-2960); any
    integer is accepted (AMB2-48), and shows as a modifier of the chance."""
    body = {"task": {"score": 12, "bef": 5}, "awareness_modifier": 3, "dice": {"values": [50]}}
    found = run("initiative", body)
    assert [(t.source, t.value) for t in found.modifiers] == [("awareness", 3)]
    assert found.ease_factor == 8
    assert found.success_chance == 96


@pytest.mark.parametrize(
    ("row", "value"),
    [
        ("unaware_enemies", 4),
        ("better_grasp", 2),
        ("positional_advantage", 1),
        ("positional_disadvantage", -1),
        ("poor_grasp", -2),
        ("surprised", -4),
    ],
)
def test_each_row_of_the_initiative_modifiers_table(row, value):
    """Initiative Modifiers (F:L2955-2960), transcribed here: each row moves the BEF."""
    body = {"task": {"score": 10, "bef": 8}, "awareness": row, "dice": {"values": [1]}}
    found = run("initiative", body)
    assert [(t.source, t.value) for t in found.modifiers] == [(f"awareness: {row}", value)]
    assert found.ease_factor == 8 + value


def test_stunned_wounded_and_unskilled_add_up():
    """Stunned -4 (F:L2951), -WL as on any task (F:L2590), -1 without the skill (F:L2947,
    F:L1637), with the awareness modifier: 1 - 4 - 2 - 1 = -6 from BEF 3 + E (E 3) = 6."""
    body = {
        "task": {"score": 12},
        "environment_familiarity": 3,
        "awareness": "positional_advantage",
        "stunned": True,
        "wound_level": 2,
        "skilled": False,
        "dice": {"values": [1]},
    }
    found = run("initiative", body)
    assert found.bef == 6
    assert {t.source: t.value for t in found.modifiers} == {
        "awareness: positional_advantage": 1, "stunned": -4, "wound level": -2, "unskilled": -1,
    }  # fmt: skip
    assert found.modifier_total == -6
    assert found.ease_factor == 0.5


def test_a_bef_is_needed_and_one_awareness_only():
    with pytest.raises(InputError) as error:
        run("initiative", {"task": {"score": 12}, "dice": {"values": [1]}})
    assert error.value.loc == ("task", "bef")
    with pytest.raises(InputError) as error:
        run("initiative", {"task": task(12, 5), "awareness": "surprised", "awareness_modifier": 3,
                           "dice": {"values": [1]}})  # fmt: skip
    assert error.value.loc == ("awareness_modifier",)


def test_initiative_refuses_a_bef_and_an_e_together():
    """Initiative's BEF is 3 + E (F:L776-826): 'environment_familiarity' stands in for a BEF
    the task does not give. With both, E was silently dropped (BEF 5 with E 3 rolled at 5,
    not 6): the request is refused, naming E."""
    with pytest.raises(InputError) as error:
        run("initiative", {"task": task(12, 5), "environment_familiarity": 3,
                           "dice": {"values": [1]}})  # fmt: skip
    assert error.value.loc == ("environment_familiarity",)
    formula = {"score": 12, "bef_formula": {"term": "E", "plus": 3, "familiarity": 2}}
    with pytest.raises(InputError) as error:
        odds("initiative", {"task": formula, "environment_familiarity": 2})
    assert error.value.loc == ("environment_familiarity",)
    assert run("initiative", {"task": formula, "dice": {"values": [1]}}).bef == 5


#: Catalogue Q1 (QR distribution by SC): SC, P(QR1 QR2 QR3 QR4 QR7 QR10), for the Initiative
#: score and E that give it at BEF 3 + E.
Q1 = [
    (30, (10, 0), "0.0300 0.0300 0.0900 0.1500 0.6300 0.0700"),
    (40, (8, 2), "0.0400 0.0400 0.1200 0.2000 0.5400 0.0600"),
    (60, (12, 2), "0.0600 0.0600 0.1800 0.3000 0.3600 0.0400"),
    (80, (16, 2), "0.0800 0.0800 0.2400 0.4000 0.1800 0.0200"),
    (90, (15, 3), "0.0900 0.0900 0.2700 0.4500 0.0900 0.0100"),
    (120, (20, 3), "0.1200 0.1200 0.3600 0.3900 0.0100 0.0000"),
]


@pytest.mark.parametrize(("sc", "given", "row"), Q1)
def test_initiative_odds_are_q1_and_the_brute_force(sc, given, row):
    """The QR of an Initiative roll is catalogue Q1's row for its SC and, exactly, the 100
    rolls read by the oracle; the actions are 2, 1, 0 by the QR (F:L2962)."""
    score, e = given
    body = {"task": {"score": score}, "environment_familiarity": e}
    found = odds("initiative", body)
    assert found.chance.success_chance == sc
    dist = by_qr(found.qr)
    assert dist == nonzero(qr_distribution(sc))
    for q, p in zip((1, 2, 3, 4, 7, 10), row.split(), strict=True):
        assert round(float(dist.get(q, 0)), 4) == float(p)
    brute: dict[int, Fraction] = {}
    for face in range(1, 101):
        n = {7: 1, 10: 0}.get(qr(face, sc), 2)
        brute[n] = brute.get(n, Fraction(0)) + Fraction(1, 100)
    assert {int(r.outcome): Fraction(r.exact) for r in found.actions} == nonzero(brute)
    assert Fraction(found.may_roll_bonus.exact) == sum(dist.get(q, 0) for q in (1, 2, 3, 4))


# --- foresight.initiative.order (#48) ---------------------------------------------------------


def combatant(name, q, score, aware_of=None):
    found = {"id": name, "qr": q, "score": score}
    if aware_of is not None:
        found["aware_of"] = aware_of
    return found


def test_worst_declares_first_best_acts_first_ties_by_score():
    """F:L2964, F:L3000: declarations from the worst QR, turns from the best; on equal QRs
    the higher Initiative score acts first and declares last (AMB2-21). X27b's second round
    (F:L3312): sniper QR3, Amy QR4, gunman QR3 with the lower score."""
    body = {"combatants": [combatant("sniper", 3, 14), combatant("amy", 4, 12),
                           combatant("gunman", 3, 11), combatant("frozen", 10, 20)],
            "dice": {"seed": 1}}  # fmt: skip
    found = run("initiative/order", body)
    assert [t.ids for t in found.acting] == [["sniper"], ["gunman"], ["amy"], ["frozen"]]
    assert [t.ids for t in found.declaring] == [["frozen"], ["amy"], ["gunman"], ["sniper"]]
    assert all(t.full_tie is None for t in found.acting)
    assert found.acting_first == "sniper"
    views = {v.id: v for v in found.combatants}
    assert views["frozen"].frozen
    assert not views["sniper"].frozen
    assert (views["gunman"].acts_at, views["gunman"].declares_at) == (2, 3)
    assert found.rolls == []


def test_a_hidden_sniper_is_heard_by_no_one_unaware_of_him():
    """F:L2966-2968: combatants do not learn the QR or focus of those they are unaware of; the
    gunman has not seen the sniper (F:L3300)."""
    body = {"combatants": [combatant("sniper", 3, 14), combatant("gunman", 4, 11, ["amy"]),
                           combatant("amy", 4, 12, ["gunman"])], "dice": {"seed": 1}}  # fmt: skip
    views = {v.id: v for v in run("initiative/order", body).combatants}
    assert views["sniper"].declaration_seen_by == []
    assert views["sniper"].sees_declarations_of == ["gunman", "amy"]
    assert views["gunman"].declaration_seen_by == ["sniper", "amy"]
    assert views["amy"].sees_declarations_of == ["gunman"]


def test_a_full_tie_is_shuffled_fairly():
    """AMB2-21 default 'random': three combatants equal in QR and score are ordered by a d3
    then a d2; the six pairs of faces give the six orders once each, so each is 1/6 and each
    combatant is at each of the three places with 1/3, as the odds say."""
    people = [combatant(n, 2, 10) for n in ("a", "b", "c")] + [combatant("d", 1, 5)]
    orders = set()
    for d3, d2 in itertools.product((1, 2, 3), (1, 2)):
        found = run("initiative/order", {"combatants": people, "dice": {"values": [d3, d2]}})
        assert [r.sides for r in found.rolls] == [3, 2]
        acting = [t.ids[0] for t in found.acting]
        assert acting[0] == "d"
        assert [t.ids[0] for t in found.declaring] == acting[::-1]
        orders.add(tuple(acting[1:]))
    assert len(orders) == 6
    found = odds("initiative/order", {"combatants": people})
    places = {p.id: {r.outcome: r.exact for r in p.acting_position} for p in found.positions}
    assert places["d"] == {"1": "1/1"}
    for name in "abc":
        assert places[name] == {"2": "1/3", "3": "1/3", "4": "1/3"}
    assert [(r.outcome, r.exact) for r in found.acting_first] == [("d", "1/1")]


@pytest.mark.parametrize("mode", ["simultaneous", "gm"])
def test_a_full_tie_can_act_at_once_or_be_left_to_the_gm(mode):
    people = [combatant("a", 3, 10), combatant("b", 3, 10), combatant("c", 4, 10)]
    body = {"combatants": people, "options": {"initiative_full_tie": mode}, "dice": {"seed": 1}}
    found = run("initiative/order", body)
    assert [(t.position, t.ids, t.full_tie) for t in found.acting] == [
        (1, ["a", "b"], mode), (2, ["c"], None)]  # fmt: skip
    assert found.acting_first == "a & b"
    assert found.rolls == []
    chances = odds("initiative/order", {"combatants": people, "options": body["options"]})
    assert [(r.outcome, r.exact) for r in chances.acting_first] == [("a & b", "1/1")]


def test_ids_are_unique_and_awareness_names_others():
    with pytest.raises(InputError) as error:
        run("initiative/order", {"combatants": [combatant("a", 3, 1), combatant("a", 4, 1)]})
    assert error.value.loc == ("combatants", 1, "id")
    with pytest.raises(InputError) as error:
        run("initiative/order", {"combatants": [combatant("a", 3, 1, ["a"])]})
    assert error.value.loc == ("combatants", 0, "aware_of", 0)


# --- foresight.actions.allowance (#49) --------------------------------------------------------


def allowance(**body):
    found = run("actions/allowance", body)
    return found.normal_actions, found.may_roll_bonus, found.restriction.value


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"initiative_qr": 2}, (2, True, "none")),
        ({"initiative_qr": 7}, (1, False, "none")),
        ({"initiative_qr": 10}, (0, False, "frozen")),
        ({"initiative_qr": 3, "wound_level": 4, "willpower_qr": 4}, (1, True, "incapacitated")),
        ({"initiative_qr": 3, "wound_level": 4, "willpower_qr": 7}, (0, False, "willpower_failed")),
        ({"initiative_qr": 7, "wound_level": 4, "willpower_qr": 1}, (0, False, "incapacitated")),
        ({"initiative_qr": 2, "wound_level": 5, "willpower_qr": 4}, (2, True, "none")),
        ({"initiative_qr": 2, "wound_level": 5, "willpower_qr": 10}, (0, False, "unconscious")),
        ({"initiative_qr": 2, "wound_level": 6}, (0, False, "unconscious")),
        ({"initiative_qr": 2, "wound_level": 7, "unconscious": False}, (2, True, "none")),
        ({"initiative_qr": 1, "unconscious": True}, (0, False, "unconscious")),
        ({"initiative_qr": 1, "wound_level": 8}, (0, False, "dead")),
        ({"initiative_qr": 1, "stunned": True}, (1, False, "recover_from_stun_only")),
        ({"initiative_qr": 10, "stunned": True}, (0, False, "frozen")),
    ],
)
def test_the_actions_a_character_has(body, expected):
    """F:L2962 (initiative), F:L2584 (WL4: WP roll to act, one action lost; stacking with a
    failed initiative by default, AMB2-49), F:L2585 (WL5: WP to stay conscious), F:L2586-2587
    (WL6-7 unconscious unless brought round), F:L2588 (dead), F:L3002 (stunned: one recover
    from stun)."""
    assert allowance(**body) == expected


def test_wl4_loss_need_not_stack_with_a_failed_initiative():
    """AMB2-49 false: a failed initiative's single action survives WL4."""
    body = {"initiative_qr": 7, "wound_level": 4, "willpower_qr": 1,
            "options": {"wl4_action_loss_stacks": False}}  # fmt: skip
    assert allowance(**body) == (1, False, "incapacitated")
    assert allowance(**{**body, "initiative_qr": 2})[0] == 1


def test_frozen_or_stunned_may_still_drop_prone():
    assert run("actions/allowance", {"initiative_qr": 10}).may_drop_prone
    assert run("actions/allowance", {"initiative_qr": 3, "stunned": True}).may_drop_prone
    assert not run("actions/allowance", {"initiative_qr": 3}).may_drop_prone


@pytest.mark.parametrize("wl", [4, 5])
def test_the_wp_roll_is_required_at_wl4_and_wl5(wl):
    with pytest.raises(InputError) as error:
        run("actions/allowance", {"initiative_qr": 2, "wound_level": wl})
    assert error.value.loc == ("willpower_qr",)


# --- foresight.waiting.preempt (#50) ----------------------------------------------------------


def waits(waiter, actor, **more):
    found = run("waiting/preempt", {"waiter": waiter, "actor": actor, **more})
    return found.comparison.value, found.may_preempt, found.reaction.value


def test_the_sniper_cannot_preempt_an_equal_qr():
    """X27d (F:L3314): the sniper's QR3 is not better than the gunman's QR3, although his
    Initiative score is: the gunman fires first, the sniper straight after."""
    sniper, gunman = {"qr": 3, "score": 14}, {"qr": 3, "score": 11}
    assert waits(sniper, gunman) == ("tie", False, "after")


def test_noname_would_have_preempted_with_a_better_qr():
    """X22 (F:L3010-3018): Noname (QR4) only reacts after Joe (QR3); 'if Noname's initiative
    QR had been better than Joe's he could have fired a shot before Joe got his shot off by
    pre-empting' (F:L3018)."""
    assert waits({"qr": 4}, {"qr": 3}) == ("actor_better", False, "after")
    assert waits({"qr": 2}, {"qr": 3}) == ("waiter_better", True, "pre_empt")


def test_only_a_focus_on_the_actor_preempts_and_a_frozen_waiter_does_nothing():
    """F:L2980: pre-empting is for the action of a character the waiter focuses on; an event
    in the watched area is answered after it. QR10 freezes (F:L2962)."""
    assert waits({"qr": 1}, {"qr": 4}, focus="area") == ("waiter_better", False, "after")
    assert waits({"qr": 1}, {"qr": 4}, focus="noticed")[2] == "after"
    assert waits({"qr": 10}, {"qr": 10}) == ("tie", False, "none")


def test_the_first_reaction_allows_a_bonus_roll():
    """F:L3008: the first reaction of a round lets the waiter roll for bonus actions; not after
    a failed initiative (F:L2962), nor twice a round (F:L3006)."""

    def bonus(waiter_qr, rolled=False):
        body = {"waiter": {"qr": waiter_qr}, "actor": {"qr": 4}, "bonus_rolled_this_round": rolled}
        return run("waiting/preempt", body).may_roll_bonus

    assert bonus(3)
    assert bonus(4)
    assert not bonus(7)
    assert not bonus(10)
    assert not bonus(3, rolled=True)


#: Catalogue Q17: SC A, SC B, P(A strictly better), P(tie), P(B better).
Q17 = [
    (40, 40, "0.3236", "0.3528", "0.3236"),
    (60, 40, "0.4584", "0.2832", "0.2584"),
    (80, 40, "0.5932", "0.2136", "0.1932"),
    (60, 60, "0.3696", "0.2608", "0.3696"),
    (90, 60, "0.5364", "0.2272", "0.2364"),
]


@pytest.mark.parametrize(("a", "b", "better", "tie", "worse"), Q17)
def test_q17_preempting_odds(a, b, better, tie, worse):
    """Catalogue Q17: P(the waiter's QR strictly better) = P(may pre-empt, focused on the
    actor), P(tie), P(actor better), to four places and exactly against the 10,000 roll
    pairs read by the oracle (BEF 5: SC = 5 x score)."""
    found = odds("waiting/preempt", {"waiter": {"task": task(a // 5, 5)},
                                     "actor": {"task": task(b // 5, 5)}})  # fmt: skip
    got = {r.outcome: Fraction(r.exact) for r in found.comparison}
    brute = {"waiter_better": Fraction(0), "tie": Fraction(0), "actor_better": Fraction(0)}
    for x, y in itertools.product(range(1, 101), repeat=2):
        qa, qb = qr(x, a), qr(y, b)
        key = "waiter_better" if qa < qb else "tie" if qa == qb else "actor_better"
        brute[key] += Fraction(1, 10_000)
    assert got == brute
    assert [round(float(got[k]), 4) for k in brute] == [float(better), float(tie), float(worse)]
    assert Fraction(found.may_preempt.exact) == got["waiter_better"]


def test_reaction_odds_by_focus():
    """F:L2980: away from the actor no reaction pre-empts; a frozen (QR10) waiter does not
    react at all (F:L2962). Brute force over the 10,000 roll pairs at SC 60 against SC 40."""
    for focus in ("actor", "area"):
        body = {"waiter": {"task": task(12, 5)}, "actor": {"task": task(8, 5)}, "focus": focus}
        found = odds("waiting/preempt", body)
        brute: dict[str, Fraction] = {}
        for x, y in itertools.product(range(1, 101), repeat=2):
            qa, qb = qr(x, 60), qr(y, 40)
            key = "none" if qa == 10 else "pre_empt" if focus == "actor" and qa < qb else "after"
            brute[key] = brute.get(key, Fraction(0)) + Fraction(1, 10_000)
        assert {r.outcome: Fraction(r.exact) for r in found.reaction} == brute
        assert Fraction(found.may_preempt.exact) == brute.get("pre_empt", 0)


# --- foresight.bonus_actions (#51) ------------------------------------------------------------


def bonus(**body):
    return run("bonus-actions", body)


def test_x23_an_agile_character_gets_three_bonus_moves():
    """X23 (F:L3088): AG 12, QR2, bonus Move actions: 3."""
    found = bonus(family="move", attribute=12, qr=2)
    assert (found.bonus_actions, found.attribute_rolled, found.roll) == (3, "AG", None)


def test_x27_the_sniper_rolls_two_bonus_aims():
    """X27 (F:L3304): PC 12, SC = 7 x 12 = 84, roll 63: QR4, 2 bonus aim actions. His target
    rifle's sights add +2 to bonus Aim rolls (F:L3794), which the book's SC leaves out; with
    them SC is 9 x 12 = 108 and 63 is still QR4 (above 54), so 2 either way."""
    found = bonus(family="aim", attribute=12, dice={"values": [63]})
    assert (found.roll.success_chance, found.qr, found.bonus_actions) == (84, 4, 2)
    assert found.attribute_rolled == "PC"
    sighted = bonus(family="aim", attribute=12, target_sights=True, laser_sight=True,
                    dice={"values": [63]})  # fmt: skip
    assert (sighted.roll.success_chance, sighted.qr, sighted.bonus_actions) == (108, 4, 2)
    assert sighted.free_aim_actions == 1  # 2 + 1 with the laser sight: his 3 aims (F:L3304)


def test_x27c_the_gunman_rolls_one_bonus_fire():
    """X27c (F:L3314): DX 9, SC = 7 x 9 = 63, roll 62: QR4, one bonus fire action."""
    found = bonus(family="fire_reload_throw", attribute=9, dice={"values": [62]})
    assert (found.roll.success_chance, found.qr, found.bonus_actions) == (63, 4, 1)


def test_x27i_the_sniper_fails_and_still_gets_one():
    """X27i (F:L3320): QR7 on a bonus fire roll with DX 12: one bonus fire action ('characters
    with high attributes may get bonus actions even if they fail', F:L3075)."""
    assert bonus(family="fire_reload_throw", attribute=12, qr=7).bonus_actions == 1


@pytest.mark.parametrize("dx", [7, 8, 9])
def test_x22_joe_one_bonus_draw_noname_two(dx):
    """X22 (F:L3012): Joe's DX roll QR4 gives one bonus draw, Noname's QR3 two: both fit the
    7-9 row (the book does not give their DX)."""
    assert bonus(family="draw", attribute=dx, qr=4).bonus_actions == 1
    assert bonus(family="draw", attribute=dx, qr=3).bonus_actions == 2


def test_a_botch_costs_a_normal_action():
    """F:L3073-3075: a QR10 always loses an action, whatever the attribute."""
    for attribute in (1, 12, 40):
        found = bonus(family="dodge", attribute=attribute, qr=10)
        assert (found.bonus_actions, found.normal_actions_lost) == (-1, 1)


def test_the_closed_form_is_every_printed_cell():
    """Catalogue #51's closed form against all 42 cells of Bonus Actions Received
    (F:L3078-3085, transcribed here), and the service's table against the same."""
    from service.rules.foresight.combat.rounds.bonus import BONUS_ACTIONS_RECEIVED, received

    assert [(r.low, r.high, r.qr10, r.qr7, r.qr4, r.qr3, r.qr2, r.qr1)
            for r in BONUS_ACTIONS_RECEIVED] == RECEIVED  # fmt: skip
    cells = 0
    for band, row in enumerate(RECEIVED):
        for q in COLUMNS:
            assert received(band, _qr(q)) == printed(row[0], q), (band, q)
            cells += 1
    assert cells == 42


def _qr(q):
    from service.rules.foresight.resolution.tables import QR

    return QR(q)


def test_every_attribute_of_the_printed_table_through_the_service():
    for attribute, q in itertools.product(range(1, 23), COLUMNS):
        assert bonus(family="aim", attribute=attribute, qr=q).bonus_actions == printed(attribute, q)


@pytest.mark.parametrize(
    ("attribute", "literal", "thirds"),
    [
        (16, 5, 5),
        (19, 5, 6),
        (20, 6, 6),
        (22, 6, 7),
        (23, 7, 7),
        (25, 7, 8),
        (26, 8, 8),
        (40, 12, 13),
    ],
)
def test_the_table_extends_in_an_obvious_fashion(attribute, literal, thirds):
    """AMB2-22: 'literal' keeps the printed rows and adds one per three points past 22;
    'pure_thirds' is (attribute - 1) // 3 throughout. The QR3 column is the band."""
    for mode, band in (("literal", literal), ("pure_thirds", thirds)):
        options = {"bonus_band_mode": mode}
        found = bonus(family="move", attribute=attribute, qr=3, options=options)
        assert (found.band, found.bonus_actions) == (band, band)
        failed = bonus(family="move", attribute=attribute, qr=7, options=options)
        assert failed.bonus_actions == (band - 1) // 2


def test_refused_after_a_failed_initiative_and_sights_only_help_aim():
    """F:L2962: a failed initiative allows no bonus roll; target sights help bonus Aim rolls
    only (F:L3794)."""
    for initiative in (7, 10):
        with pytest.raises(InputError) as error:
            bonus(family="move", attribute=12, qr=2, initiative_qr=initiative)
        assert error.value.loc == ("initiative_qr",)
    assert bonus(family="move", attribute=12, qr=2, initiative_qr=4).bonus_actions == 3
    with pytest.raises(InputError) as error:
        bonus(family="move", attribute=12, qr=2, target_sights=True)
    assert error.value.loc == ("target_sights",)


#: Catalogue Q7: attribute, SC, P(-1) P(0) .. P(6), E[bonus].
Q7 = [
    (5, 35, "0.0700 0.7600 0.1700 0 0 0 0 0", "0.1000"),
    (7, 49, "0.0600 0.4500 0.2500 0.2400 0 0 0 0", "0.6700"),
    (9, 63, "0.0400 0.3300 0.3200 0.3100 0 0 0 0", "0.9000"),
    (10, 50, "0.0500 0 0.4500 0.2500 0.2500 0 0 0", "1.6500"),
    (12, 84, "0.0200 0 0.1400 0.4200 0.4200 0 0 0", "2.2200"),
    (12, 60, "0.0400 0 0.3600 0.3000 0.3000 0 0 0", "1.8200"),
    (15, 75, "0.0300 0 0.2200 0 0.3800 0.3700 0 0", "2.8100"),
    (18, 90, "0.0100 0 0 0.0900 0 0.4500 0.4500 0", "4.2200"),
    (22, 110, "0 0 0 0.0100 0 0 0.4400 0.5500", "5.5200"),
]


def _roll_for(attribute: int, sc: int) -> dict:
    """The roll that makes the SC: the attribute at BEF 7 or 5 where one does; SC 110 with
    attribute 22 (20+0) is off the ladder, so a skill roll (F:L3060 'Attribute or Skill Roll
    Required') of 11 at BEF 10 stands in for it."""
    for bef in (7, 5):
        if attribute <= 20 and attribute * bef == sc:
            return task(attribute, bef)
    return task(11, 10)


@pytest.mark.parametrize(("attribute", "sc", "row", "mean"), Q7)
def test_q7_bonus_action_odds(attribute, sc, row, mean):
    """Catalogue Q7 (all nine rows) to four places, and exactly against the 100 rolls read by
    the oracle and looked up in the table transcribed here."""
    found = odds("bonus-actions", {"family": "move", "attribute": attribute,
                                   "task": _roll_for(attribute, sc)})  # fmt: skip
    got = {int(r.outcome): Fraction(r.exact) for r in found.bonus_actions}
    brute: dict[int, Fraction] = {}
    for face in range(1, 101):
        n = printed(attribute, qr(face, sc))
        brute[n] = brute.get(n, Fraction(0)) + Fraction(1, 100)
    assert got == brute
    for n, p in zip(range(-1, 7), row.split(), strict=True):
        assert round(float(got.get(n, 0)), 4) == float(p)
    assert Fraction(found.mean_bonus_actions.exact) == sum(n * p for n, p in brute.items())
    assert round(found.mean_bonus_actions.float, 4) == float(mean)
    assert Fraction(found.normal_action_lost.exact) == brute.get(-1, 0)


def test_bonus_odds_beyond_the_table_and_for_a_given_qr():
    """Attribute 25 (20+1) at BEF 5: SC 120, the literal extension's row 7 (F:L3086)."""
    found = odds("bonus-actions", {"family": "wind_up", "attribute": 25})
    got = {int(r.outcome): Fraction(r.exact) for r in found.bonus_actions}
    brute: dict[int, Fraction] = {}
    table = {10: -1, 7: 3, 4: 6, 3: 7, 2: 7, 1: 7}
    sc = 20 * 8  # 20+1 moves attribute_bef 7 one rung: EF 8
    for face in range(1, 101):
        n = table[qr(face, sc)]
        brute[n] = brute.get(n, Fraction(0)) + Fraction(1, 100)
    assert got == brute
    given = odds("bonus-actions", {"family": "aim", "attribute": 12, "qr": 2})
    assert [(r.outcome, r.exact) for r in given.bonus_actions] == [("3", "1/1")]


# --- foresight.actions.catalog (#52) and foresight.reflex.catalog (#53) -----------------------


def test_the_actions_table():
    """Actions Table (F:L3020-3053): 28 actions in four categories; the text marks Attack,
    Feint, Dash, Evade, Move, Rise and Turn as unbalancing; Aim's cap is +5 here (AMB2-03)."""
    found = run("actions/catalog", {})
    rows = {r.action.value: r for r in found.actions}
    assert len(rows) == 28
    by = {}
    for r in found.actions:
        by[r.category.value] = by.get(r.category.value, 0) + 1
    assert by == {"melee": 5, "ranged": 8, "movement": 13, "miscellaneous": 2}
    marked = {k for k, r in rows.items() if r.marked_unbalancing}
    assert marked == {"attack", "feint", "dash", "evade", "move", "rise", "turn"}
    read = {k for k, r in rows.items() if r.unbalancing}
    assert read == marked | {"dive", "drop", "kneel", "squat", "roll"}
    assert "maximum of +5" in rows["aim"].description
    assert rows["wind_up"].line == 3024
    assert rows["recover_from_stun"].line == 3053
    only = run("actions/catalog", {"category": "melee"}).actions
    assert [r.action.value for r in only] == ["attack", "feint", "wind_up", "pin", "maintain_pin"]


@pytest.mark.parametrize(
    ("start", "goal", "path"),
    [("prone", "standing", ["rise"] * 3), ("lying", "standing", ["rise"] * 3),
     ("kneeling", "standing", ["rise"] * 2), ("squatting", "standing", ["rise"]),
     ("standing", "prone", ["drop"]), ("lying", "prone", ["roll"]),
     ("standing", "kneeling", ["kneel"]), ("prone", "kneeling", ["rise", "rise", "kneel"])],
)  # fmt: skip
def test_stance_changes(start, goal, path):
    """Rise: squatting to standing one, prone or lying to squatting two, kneeling to standing
    two (F:L3046); Drop, Kneel, Squat, Roll one each (F:L3040-3049)."""
    found = run("actions/catalog", {"from_stance": start, "to_stance": goal}).path
    assert [a.value for a in found.actions] == path
    assert found.reachable


def reflexes(*names, bonus_at=()):
    uses = [{"reflex": n, "bonus_action": i in bonus_at} for i, n in enumerate(names)]
    found = run("reflex/catalog", {"reflexes": uses})
    return [(u.modifier, u.allowed) for u in found.uses]


def test_x24_parries_and_dodges_count_apart():
    """X24 (F:L3112): parry, dodge, parry, dodge at 0, 0, -2, -2; parry, parry, parry, dodge at
    0, -2, -4, 0."""
    assert reflexes("parry", "dodge", "parry", "dodge") == [(0, True), (0, True), (-2, True),
                                                            (-2, True)]  # fmt: skip
    assert reflexes("parry", "parry", "parry", "dodge") == [(0, True), (-2, True), (-4, True),
                                                            (0, True)]  # fmt: skip


def test_a_bonus_parry_takes_no_modifier_but_counts():
    """F:L3103: a bonus parry action parries without the modifier; it is a parry performed
    this round, so the next one takes -4."""
    assert reflexes("parry", "parry", "parry", bonus_at=(1,)) == [(0, True), (0, True),
                                                                  (-4, True)]  # fmt: skip
    with pytest.raises(InputError) as error:
        reflexes("drop", bonus_at=(0,))
    assert error.value.loc == ("reflexes", 0, "bonus_action")


def test_one_asterisked_reflex_a_round():
    """F:L3108: only one of the asterisked reflexes in total a round; Drop is not one."""
    assert reflexes("step", "trigger", "squat", "drop", "pivot") == [
        (0, True), (0, False), (0, False), (0, True), (0, False)]  # fmt: skip
    table = run("reflex/catalog", {}).reflexes
    assert {r.reflex.value for r in table if r.asterisked} == {"pivot", "step", "squat", "trigger"}
    assert all(r.unbalancing for r in table)
    assert len(table) == 7


# --- foresight.balance (#54) ------------------------------------------------------------------


def balance(log, **start):
    return run("balance", {"log": log, "start": start})


def test_moving_unbalances_and_recover_restores_and_shoulders():
    """F:L3334: moved, turned, changed stance, dodged: unbalanced, no longarm shouldered;
    Recover restores balance and may shoulder (F:L3045); ranged -2 (F:L3268), melee 0
    (F:L3336)."""
    found = balance([{"action": "move"}], longarm=True, shouldered=True)
    assert (found.balanced, found.shouldered, found.ranged_modifier, found.melee_modifier) == (
        False, False, -2, 0)  # fmt: skip
    found = balance([{"action": "move"}, {"action": "recover"}], longarm=True)
    assert (found.balanced, found.shouldered, found.ranged_modifier) == (True, True, 0)
    kept = balance([{"action": "move"}, {"action": "recover", "shoulder": False}], longarm=True)
    assert (kept.balanced, kept.shouldered) == (True, False)


def test_pivot_and_step_keep_balance_their_reflexes_do_not():
    """F:L3044, F:L3050: Pivot and Step without becoming unbalanced; the reflex pivot and step
    'unlike a normal ... action' unbalance (F:L3104-3105)."""
    log = [{"action": "pivot"}, {"action": "step"}, {"action": "aim"}, {"action": "fire"}]
    found = balance(log, longarm=True, shouldered=True)
    assert found.balanced
    assert found.shouldered
    assert [s.balanced for s in found.steps] == [True] * 5
    assert not balance([{"reflex": "step"}]).balanced
    assert not balance([{"reflex": "trigger"}]).balanced


@pytest.mark.parametrize("action", ["dive", "drop", "kneel", "squat", "roll", "attack", "turn"])
def test_stance_changes_and_marked_actions_unbalance(action):
    assert not balance([{"action": action}]).balanced


def test_a_prepared_bow_is_lost_when_unbalanced():
    """F:L3658: a prepared thrown weapon or bow loses its preparation when the user becomes
    unbalanced; Shoulder puts a longarm to the shoulder (F:L3033)."""
    found = balance([{"action": "aim"}, {"reflex": "dodge"}], prepared=True)
    assert [s.prepared for s in found.steps] == [True, True, False]
    assert "preparation" in found.steps[-1].changed[-1]
    shouldered = balance([{"action": "shoulder"}], longarm=True)
    assert shouldered.shouldered


def test_balance_refuses_what_cannot_be():
    with pytest.raises(InputError) as error:
        balance([{"action": "shoulder"}])
    assert error.value.loc == ("log", 0, "action")
    with pytest.raises(InputError) as error:
        balance([{}])
    assert error.value.loc == ("log", 0)
    with pytest.raises(InputError) as error:
        balance([], balanced=False, longarm=True, shouldered=True)
    assert error.value.loc == ("start", "shouldered")


def test_an_unbalanced_character_cannot_shoulder_a_longarm():
    """F:L3334: an unbalanced character 'will not have a longarm shouldered', so a Shoulder
    action after moving is refused (the start refuses that state too); Recover restores the
    balance and shoulders the longarm in one (F:L3045)."""
    with pytest.raises(InputError) as error:
        balance([{"action": "move"}, {"action": "shoulder"}], longarm=True)
    assert error.value.loc == ("log", 1, "action")
    found = balance([{"action": "move"}, {"action": "recover"}, {"action": "shoulder"}],
                    longarm=True)  # fmt: skip
    assert (found.balanced, found.shouldered) == (True, True)
