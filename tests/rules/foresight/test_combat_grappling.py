"""Close-range grappling and the special attacks that grapple: melee/pin, pin-contest,
pin-fall, defensive-pin, strangle, trip, entangle, grab and throw. Odds are checked against
catalogue part 2, section 4 (Q6 P(hit), Q11 trip) and brute force over every D100 pair
written here from the rule text (F:L3193-3253), sharing no code with the service beyond the
oracle's QR reading and blocking table. Seed lines are F:L<n>."""

from fractions import Fraction
from itertools import product

import pytest

from service.rules.model import InputError
from tests.rules.foresight.calls import odds, run
from tests.rules.foresight.oracle import BLOCK, qr

NOTCHES = [1, 2, 3, 4, 7, 10]


def ahead(better: int, worse: int, mode: str) -> int:
    """How far `better` leads `worse`: numerically or in notches (AMB2-19)."""
    if mode == "numeric":
        return worse - better
    return NOTCHES.index(worse) - NOTCHES.index(better)


def faces(sc: int) -> list[int]:
    return [qr(roll, sc) for roll in range(1, 101)]


def blocked(attack_sc: int, defense_sc: int | None) -> dict[int, Fraction]:
    """The attack's final QR over every pair of rolls (F:L1511-1519, a QR10 defence helps)."""
    found: dict[int, Fraction] = {}
    for a in faces(attack_sc):
        for d in faces(defense_sc) if defense_sc is not None else [None]:
            final = a if d is None else BLOCK[a][d]
            share = Fraction(1, 100 if d is None else 10_000)
            found[final] = found.get(final, Fraction(0)) + share
    return found


def table(rows) -> dict[str, Fraction]:
    return {row.outcome: Fraction(row.exact) for row in rows}


def counted(outcomes: list[str], total: int) -> dict[str, Fraction]:
    found: dict[str, Fraction] = {}
    for outcome in outcomes:
        found[outcome] = found.get(outcome, Fraction(0)) + Fraction(1, total)
    return found


# --- melee/pin (#59) ------------------------------------------------------------------------


def test_pin_terms_show_in_the_chance():
    """F:L3149 (-2 specific arm), F:L3144 (-1 legs), F:L3201/L3223 (+2 Capture field)."""
    found = run("melee/pin", {"attack": {"task": {"score": 10, "bef": 5}}, "limb": "leg",
                              "capture_field": True, "dice": {"values": [1]}})  # fmt: skip
    terms = {(t.source, t.value) for t in found.blow.attack.modifiers}
    assert terms == {("aiming for legs", -1), ("Unarmed Combat Capture field", 2)}
    assert found.blow.attack.success_chance == 60  # EF 5 + 1 = 6
    assert found.pinned
    assert found.blow.final.qr == 1
    arm = run("melee/pin", {"attack": {"task": {"score": 10, "bef": 5}},
                            "dice": {"values": [1]}})  # fmt: skip
    assert [(t.source, t.value) for t in arm.blow.attack.modifiers] == [
        ("striking at a specific arm", -2)]  # fmt: skip
    assert arm.blow.attack.success_chance == 30  # EF 5 - 2 = 3


def test_arm_pinned_means_no_two_handed_weapon():
    """F:L3217: one arm pinned, no effective use of a two-handed weapon."""
    found = run("melee/pin", {"attack": {"qr": 3}, "dice": {"seed": 1}})
    assert found.pinned
    assert any("two-handed" in e and "F:L3217" in e for e in found.effects)
    leg = run("melee/pin", {"attack": {"qr": 3}, "limb": "leg", "dice": {"seed": 1}})
    assert not any("two-handed" in e for e in leg.effects)


def test_a_parry_as_good_as_the_pin_stops_it():
    """F:L3205: pins are parried or dodged like any melee attack (F:L3189)."""
    found = run("melee/pin", {"attack": {"qr": 3}, "defense": {"qr": 3}, "dice": {"seed": 1}})
    assert (found.blow.final.qr, found.pinned) == (7, False)
    found = run("melee/pin", {"attack": {"qr": 2}, "defense": {"qr": 4}, "dice": {"seed": 1}})
    assert (found.blow.final.qr, found.pinned) == (3, True)  # blocking table: QR2 vs QR4 -> 3


@pytest.mark.parametrize(
    ("attack", "limb", "defense_sc", "p_hit"),
    [({"score": 10, "bef": 5}, "arm", 50, "0.3525"),  # -2 + 2 = SC 50: Q6 row 50/50
     ({"score": 12, "bef": 5}, "arm", 40, "0.4584"),  # SC 60: Q6 row 60/40
     ({"score": 10, "bef": 4}, "leg", 30, "0.4295")],  # EF 4 - 1 + 2 = 5, SC 50: row 50/30
)  # fmt: skip
def test_pin_odds_match_q6_and_brute_force(attack, limb, defense_sc, p_hit):
    """Catalogue Q6 P(hit) (the pin's terms bring the attack to the row's SC) and brute force."""
    request = {"attack": {"task": attack}, "limb": limb, "capture_field": True,
               "defense": {"task": {"score": defense_sc // 5, "bef": 5}}}  # fmt: skip
    found = odds("melee/pin", request)
    sc = found.blow.attack.summary.success.exact
    attack_sc = int(Fraction(sc) * 100)
    expected = sum(p for q, p in blocked(attack_sc, defense_sc).items() if q <= 4)
    assert Fraction(found.pinned.exact) == expected
    assert f"{float(expected):.4f}" == p_hit


# --- melee/pin-contest (#60) -----------------------------------------------------------------


def contest_outcome(advantage: int) -> str:
    """F:L3221, the pinned character's advantage."""
    if advantage >= 2:
        return "broken"
    return {1: "limb_at_minus_4", 0: "tie", -1: "immobilised"}.get(advantage, "restrained")


@pytest.mark.parametrize(
    ("pinner", "pinned", "outcome"),
    [(3, 3, "tie"), (4, 3, "limb_at_minus_4"), (4, 2, "broken"), (2, 3, "immobilised"),
     (2, 4, "restrained"), (7, 10, "restrained"), (1, 7, "restrained")],
)  # fmt: skip
def test_pin_contest_reads_the_advantage(pinner, pinned, outcome):
    """F:L3221, counted numerically by default (AMB2-19)."""
    found = run("melee/pin-contest", {"pinner": {"qr": pinner}, "pinned": {"qr": pinned},
                                      "dice": {"seed": 1}})  # fmt: skip
    assert found.outcome == outcome


def test_pin_contest_in_notches():
    """QR7 against QR10 is 3 ahead numerically (restrained) but one notch (immobilised)."""
    notch = run("melee/pin-contest", {"pinner": {"qr": 7}, "pinned": {"qr": 10},
                                      "options": {"qr_difference_mode": "notch"},
                                      "dice": {"seed": 1}})  # fmt: skip
    assert (notch.advantage, notch.outcome) == (-1, "immobilised")


def test_pin_contest_capture_field_and_attribute_bef():
    """F:L3223: +2 maintaining or overcoming; ST rolls at the attribute BEF 7 (AMB-01)."""
    found = run("melee/pin-contest", {"pinner": {"task": {"score": 10}},
                                      "pinned": {"task": {"score": 10}},
                                      "pinned_capture_field": True,
                                      "dice": {"values": [50, 40]}})  # fmt: skip
    assert found.pinner.success_chance == 70  # 10 x 7
    assert found.pinned.success_chance == 90  # 10 x 9
    assert [(t.source, t.value) for t in found.pinned.modifiers] == [
        ("Unarmed Combat Capture field", 2)]  # fmt: skip
    assert (found.pinner_qr, found.pinned_qr, found.outcome) == (4, 3, "limb_at_minus_4")


def test_unmaintained_pins_all_break_and_restraint_allows_handcuffs():
    """F:L3225-3227: three pins need three Maintain Pin actions or all break (no roll);
    F:L3229: restrained a second turn, handcuffs."""
    found = run("melee/pin-contest", {"pinner": {"qr": 1}, "pinned": {"qr": 10}, "pins": 3,
                                      "maintain_actions": 2, "dice": {"seed": 1}})  # fmt: skip
    assert (found.maintained, found.outcome, found.pinner) == (False, "broken", None)
    assert table(odds("melee/pin-contest", {"pinner": {"qr": 1}, "pinned": {"qr": 10},
                                            "pins": 3, "maintain_actions": 2}).outcome) == {
        "broken": 1}  # fmt: skip
    first = run("melee/pin-contest", {"pinner": {"qr": 1}, "pinned": {"qr": 10}, "pins": 3,
                                      "maintain_actions": 3, "dice": {"seed": 1}})  # fmt: skip
    assert (first.outcome, first.handcuffs) == ("restrained", False)
    second = run("melee/pin-contest", {"pinner": {"qr": 1}, "pinned": {"qr": 10},
                                       "restrained_turns": 1, "dice": {"seed": 1}})  # fmt: skip
    assert second.handcuffs


@pytest.mark.parametrize("mode", ["numeric", "notch"])
@pytest.mark.parametrize(("pinner", "pinned"), [(10, 10), (12, 8), (6, 14)])
def test_pin_contest_odds_against_brute_force(mode, pinner, pinned):
    """Every pair of ST rolls at EF 7 (SC = 7 x ST), read by F:L3221 under both measures."""
    request = {"pinner": {"task": {"score": pinner}}, "pinned": {"task": {"score": pinned}},
               "options": {"qr_difference_mode": mode}}  # fmt: skip
    pairs = product(faces(7 * pinner), faces(7 * pinned))
    brute = counted([contest_outcome(ahead(b, a, mode)) for a, b in pairs], 10_000)
    assert table(odds("melee/pin-contest", request).outcome) == brute


def test_the_measures_differ_where_the_catalogue_says():
    """AMB2-19 changes pin contests by large factors (catalogue 4.4): not the same table."""
    request = {"pinner": {"task": {"score": 10}}, "pinned": {"task": {"score": 10}}}
    numeric = table(odds("melee/pin-contest", request).outcome)
    notch = table(
        odds("melee/pin-contest", {**request, "options": {"qr_difference_mode": "notch"}}).outcome
    )
    assert numeric != notch
    assert numeric["tie"] == notch["tie"]


# --- melee/pin-fall (#61) --------------------------------------------------------------------


def fall(wish: str, a: int, b: int, tie: str = "prone") -> str:
    """F:L3213 written again: AG failures fall; a strength contest's better QR prevails."""
    if wish == "both_stand":
        return {
            (True, True): "both_standing",
            (False, True): "pinner_prone",
            (True, False): "pinned_prone",
            (False, False): "both_prone",
        }[(a <= 4, b <= 4)]
    if wish == "both_prone":
        return "both_prone" if a == b else ("pinner_on_top" if a < b else "pinned_on_top")
    stands, falls = (a, b) if wish == "pinner_stands" else (b, a)
    if stands == falls:
        return "both_prone" if tie == "prone" else "both_standing"
    return "both_standing" if stands < falls else "both_prone"


@pytest.mark.parametrize("wish", ["both_stand", "pinner_stands", "pinned_stands", "both_prone"])
@pytest.mark.parametrize("tie", ["prone", "standing"])
def test_pin_fall_odds_against_brute_force(wish, tie):
    request = {"wish": wish, "pinner": {"task": {"score": 12}}, "pinned": {"task": {"score": 9}},
               "options": {"pin_fall_tie": tie}}  # fmt: skip
    brute = counted([fall(wish, a, b, tie) for a, b in product(faces(84), faces(63))], 10_000)
    assert table(odds("melee/pin-fall", request).outcome) == brute


def test_pin_fall_cases():
    """F:L3213: the better ('higher') QR prevails; the ST winner ends on top."""

    def at(wish, a, b, **options):
        return run("melee/pin-fall", {"wish": wish, "pinner": {"qr": a}, "pinned": {"qr": b},
                                      "options": options, "dice": {"seed": 1}})  # fmt: skip

    assert at("both_stand", 4, 7).outcome == "pinned_prone"
    assert at("pinned_stands", 3, 2).outcome == "both_standing"
    assert at("pinned_stands", 2, 3).outcome == "both_prone"
    assert at("pinned_stands", 3, 3).outcome == "both_prone"
    assert at("pinned_stands", 3, 3, pin_fall_tie="standing").outcome == "both_standing"
    found = at("both_prone", 2, 4)
    assert (found.roll, found.outcome, found.on_top) == ("ST", "pinner_on_top", "pinner")
    assert at("both_prone", 4, 4).on_top is None


# --- melee/defensive-pin (#62) ---------------------------------------------------------------


@pytest.mark.parametrize(("pin", "dodge", "modifier"), [
    (3, None, -4), (7, None, 0), (3, 7, -6), (3, 2, -2), (2, 4, -6), (7, 4, -2)])  # fmt: skip
def test_defensive_pin_against_fire(pin, dodge, modifier):
    """F:L3207-3211: -4 pinned; a firer who dodged the pin: -2, or -6 pinned anyway. The
    dodge blocks the pin as a dodge blocks an attack: QR2 against QR4 still holds (QR3)."""
    request = {"pin": {"qr": pin}, "against": "fire", "dice": {"seed": 1}}
    if dodge is not None:
        request["firer_dodge"] = {"qr": dodge}
    assert run("melee/defensive-pin", request).fire_modifier == modifier


def test_defensive_pin_parries_a_melee_attack_normally():
    """F:L3207: a successful defensive pin parries a melee attack normally."""
    found = run("melee/defensive-pin", {"pin": {"qr": 4}, "against": "melee",
                                        "attack": {"qr": 2}, "dice": {"seed": 1}})  # fmt: skip
    assert (found.final.qr, found.hit, found.fire_modifier) == (3, True, None)
    with pytest.raises(InputError) as error:
        run("melee/defensive-pin", {"pin": {"qr": 4}, "against": "melee",
                                    "firer_dodge": {"qr": 2}, "dice": {"seed": 1}})  # fmt: skip
    assert error.value.loc == ("firer_dodge",)


@pytest.mark.parametrize("mode", ["table", "text_formula"])
def test_a_failed_defensive_pin_leaves_the_attack_as_rolled(mode):
    """F:L3207: 'If a defensive pin fails then the attack takes place normally.' A botched
    (QR10) pin does not lift a QR7 attack to a hit, nor a QR7 pin (by the text's 5 - QR,
    F:L1507) lift a QR4 one, whatever a failed parry would do; a QR3 pin parries a QR4 attack
    normally."""
    for pin, attack, final in ((10, 7, 7), (7, 4, 4), (10, 2, 2), (3, 4, 7)):
        request = {"pin": {"qr": pin}, "against": "melee", "attack": {"qr": attack},
                   "options": {"blocking_mode": mode}}  # fmt: skip
        found = run("melee/defensive-pin", {**request, "dice": {"seed": 1}})
        assert (found.final.qr, found.hit) == (final, final <= 4)
        assert table(odds("melee/defensive-pin", request).final.qr)[f"QR{final}"] == 1


def test_defensive_pin_odds_match_q6():
    """A dodged pin holds exactly when the pin gets through the dodge: Q6's P(hit) for
    pin SC 50 against dodge SC 50 is 0.3525, so -6 with that and -2 otherwise; undodged,
    -4 with P(success) 1/2. Against melee, the attack after the pin-parry is Q6 too."""
    pin = {"task": {"score": 10, "bef": 5}}
    found = odds(
        "melee/defensive-pin",
        {"pin": pin, "against": "fire", "firer_dodge": {"task": {"score": 10, "bef": 5}}},
    )
    six = sum(p for q, p in blocked(50, 50).items() if q <= 4)
    assert table(found.fire_modifier) == {"-6": six, "-2": 1 - six}
    assert f"{float(six):.4f}" == "0.3525"
    alone = odds("melee/defensive-pin", {"pin": pin, "against": "fire"})
    assert table(alone.fire_modifier) == {"-4": Fraction(1, 2), "0": Fraction(1, 2)}
    melee = odds(
        "melee/defensive-pin",
        {
            "pin": {"task": {"score": 8, "bef": 5}},
            "against": "melee",
            "attack": {"task": {"score": 12, "bef": 5}},
        },
    )
    # Q6 60/40 is 0.4584, but a botched pin (QR10, 6%) does not help a QR7 attack (36%):
    # 0.4584 - 0.06 x 0.36 (F:L3207).
    assert Fraction(melee.final.summary.success.exact) == Fraction(273, 625)  # 0.4368


# --- melee/strangle (#70) --------------------------------------------------------------------


def test_strangle_terms_and_breath():
    """F:L3250: PM -1, -2 without the Capture field; breath EN x 5 s, x 10 prepared (F:L2749)."""
    found = run("melee/strangle", {"attack": {"task": {"score": 10, "bef": 8}},
                                   "endurance": 12, "dice": {"values": [25]}})  # fmt: skip
    assert [(t.source, t.value) for t in found.blow.attack.modifiers] == [
        ("strangle PM", -1), ("without the Capture field", -2)]  # fmt: skip
    assert found.blow.attack.success_chance == 50
    assert (found.held, found.effective, found.breath_limit_s) == (True, True, 60)
    prepared = run("melee/strangle", {"attack": {"qr": 4}, "endurance": 12, "prepared": True,
                                      "capture_field": True, "dice": {"seed": 1}})  # fmt: skip
    assert prepared.breath_limit_s == 120
    with_field = run(
        "melee/strangle",
        {
            "attack": {"task": {"score": 10, "bef": 8}},
            "capture_field": True,
            "dice": {"values": [25]},
        },
    )
    assert [t.source for t in with_field.blow.attack.modifiers] == ["strangle PM"]
    bonus = run("melee/strangle", {"attack": {"task": {"score": 10, "bef": 8}},
                                   "capture_field": True,
                                   "options": {"strangle_capture_bonus": True},
                                   "dice": {"values": [25]}})  # fmt: skip
    assert bonus.blow.attack.modifier_total == 1


def test_strangle_against_armor():
    """F:L3250: ineffective if an ordinary attack could not penetrate head or chest armor:
    UCDC 2 unarmed ('+0m') against 3A on the chest leaves DC -1 there, 2 at the open head."""
    armor = {"ucdc": 2, "armor": [{"rating": "3A", "locations": ["chest", "abdomen"]}]}
    found = run("melee/strangle", {"attack": {"qr": 3}, "armor": armor, "dice": {"seed": 1}})
    assert [(p.location, p.dc_after_armor.exact, p.penetrates) for p in found.armor] == [
        ("head", "2/1", True), ("chest", "-1/1", False)]  # fmt: skip
    assert found.effective
    either = run("melee/strangle", {"attack": {"qr": 3}, "armor": armor,
                                    "options": {"strangle_armor_test": "either"},
                                    "dice": {"seed": 1}})  # fmt: skip
    assert (either.held, either.effective) == (True, False)
    suit = {"ucdc": 2, "armor": [{"rating": "2"}]}
    found = run("melee/strangle", {"attack": {"qr": 3}, "armor": suit, "dice": {"seed": 1}})
    assert (found.held, found.effective) == (True, False)  # DC 2 - 2 = 0 everywhere
    assert odds("melee/strangle", {"attack": {"qr": 3}, "armor": suit}).effective.exact == "0/1"
    with pytest.raises(InputError) as error:
        run("melee/strangle", {"attack": {"qr": 3}, "armor": {"armor": []},
                               "dice": {"seed": 1}})  # fmt: skip
    assert error.value.loc == ("armor", "ucdc")


def test_strangle_without_armor_there_is_not_stopped():
    """F:L3250: only armor makes a strangle ineffective ('could not ... penetrate the
    defender's head or chest armor'). A UCDC 0 strangle against a defender armored only on
    the legs, or not at all, has DC 0 at head and chest but no armor there to stop it;
    a 1-point helmet and vest do stop it, under either armor test."""
    legs = {"ucdc": 0, "armor": [{"rating": "3", "locations": ["left_leg", "right_leg"]}]}
    for armor in (legs, {"ucdc": 0, "armor": []}):
        for test in ("both", "either"):
            request = {"attack": {"qr": 3}, "armor": armor,
                       "options": {"strangle_armor_test": test}}  # fmt: skip
            found = run("melee/strangle", {**request, "dice": {"seed": 1}})
            assert [(p.dc_after_armor.exact, p.penetrates) for p in found.armor] == [
                ("0/1", True), ("0/1", True)]  # fmt: skip
            assert (found.held, found.effective) == (True, True)
            assert odds("melee/strangle", request).effective.exact == "1/1"
    worn = {"ucdc": 0, "armor": [{"rating": "1", "locations": ["head", "chest"]}]}
    found = run("melee/strangle", {"attack": {"qr": 3}, "armor": worn, "dice": {"seed": 1}})
    assert (found.held, found.effective) == (True, False)


def test_strangle_odds_match_q6():
    """SC 50 after PM -1 and -2 (score 10, BEF 8) against a dodge at SC 30: Q6 0.4295."""
    found = odds(
        "melee/strangle",
        {"attack": {"task": {"score": 10, "bef": 8}}, "defense": {"task": {"score": 6, "bef": 5}}},
    )
    expected = sum(p for q, p in blocked(50, 30).items() if q <= 4)
    assert Fraction(found.held.exact) == expected == Fraction(found.effective.exact)
    assert f"{float(expected):.4f}" == "0.4295"


# --- melee/trip (#63) ------------------------------------------------------------------------


def trip_outcome(attack: int, footing: int, extra: int, mode: str) -> str:
    """F:L3240: a hit one better kneels, two better prone, plus the extra."""
    if attack > 4:
        return "miss"
    advantage = ahead(attack, footing, mode)
    if advantage >= 2 + extra:
        return "prone"
    return "kneeling" if advantage >= 1 + extra else "no_effect"


def test_x25_four_legged_dragon_that_cannot_be_dragged():
    """X25, F:L3240: needs an advantage of 5 (QR2 against QR7) for prone under the default
    (non-cumulative, numeric); in notches it is 3, short of kneeling's 4; cumulatively
    (1 + 2 + 1) the 5 is kneeling's."""
    request = {"attack": {"qr": 2}, "footing": {"qr": 7}, "legs": 4, "cannot_drag": True,
               "dice": {"seed": 1}}  # fmt: skip
    found = run("melee/trip", request)
    assert (found.advantage, found.kneeling_at, found.prone_at, found.outcome) == (
        5, 4, 5, "prone")  # fmt: skip
    notch = run("melee/trip", {**request, "options": {"qr_difference_mode": "notch"}})
    assert (notch.advantage, notch.outcome) == (3, "no_effect")
    cumulative = run("melee/trip", {**request, "options": {"trip_lift_drag_cumulative": True}})
    assert (cumulative.kneeling_at, cumulative.outcome) == (5, "kneeling")


def test_trip_refuses_six_legs_and_a_miss_does_nothing():
    """F:L3240: tripping six-or-more-legged creatures is not practical: 422 on 'legs'."""
    with pytest.raises(InputError) as error:
        run("melee/trip", {"attack": {"qr": 1}, "footing": {"qr": 10}, "legs": 6,
                           "dice": {"seed": 1}})  # fmt: skip
    assert error.value.loc == ("legs",)
    found = run("melee/trip", {"attack": {"qr": 7}, "footing": {"task": {"score": 10}},
                               "dice": {"seed": 1}})  # fmt: skip
    assert (found.outcome, found.footing) == ("miss", None)  # nothing rolled after a miss


#: Catalogue Q11: attack SC, defence SC, extra e, then P(>=kneel) and P(prone), numeric, notch.
Q11 = [(50, 50, 0, "0.3300", "0.2825", "0.3300", "0.1700"),
       (50, 50, 1, "0.2825", "0.2625", "0.1700", "0.0700"),
       (50, 50, 3, "0.1375", "0.0700", "0.0275", "0.0025"),
       (60, 40, 0, "0.4368", "0.3912", "0.4368", "0.2292"),
       (60, 40, 1, "0.3912", "0.3720", "0.2292", "0.0948"),
       (60, 40, 3, "0.1980", "0.1008", "0.0396", "0.0036"),
       (80, 40, 0, "0.5824", "0.5216", "0.5824", "0.3056"),
       (80, 40, 1, "0.5216", "0.4960", "0.3056", "0.1264"),
       (80, 40, 3, "0.2640", "0.1344", "0.0528", "0.0048")]  # fmt: skip
EXTRA: dict[int, dict[str, object]] = {
    0: {},
    1: {"cannot_lift": True},
    3: {"cannot_drag": True, "legs": 4},
}


@pytest.mark.parametrize("row", Q11)
def test_trip_odds_match_q11_and_brute_force(row: tuple[int, int, int, str, str, str, str]) -> None:
    """The trip's PM -1 is in its task (BEF 6 - 1 = EF 5); the footing is an AG roll."""
    attack_sc, footing_sc, extra, *expected = row
    found = []
    for mode in ("numeric", "notch"):
        request = {"attack": {"task": {"score": attack_sc // 5, "bef": 6}},
                   "footing": {"task": {"score": footing_sc // 5, "bef": 5}},
                   **EXTRA[extra], "options": {"qr_difference_mode": mode}}  # fmt: skip
        got = table(odds("melee/trip", request).outcome)
        brute = counted([trip_outcome(a, b, extra, mode) for a, b in
                         product(faces(attack_sc), faces(footing_sc))], 10_000)  # fmt: skip
        assert got == brute
        kneel = got.get("kneeling", 0) + got.get("prone", 0)
        found += [f"{float(kneel):.4f}", f"{float(got.get('prone', 0)):.4f}"]
    assert found == expected


def test_trip_parried_first():
    """A trip is an attack: a parry blocks it before the footing roll (F:L3189)."""
    request = {"attack": {"task": {"score": 12, "bef": 6}}, "defense": {"task": {"score": 8,
               "bef": 5}}, "footing": {"task": {"score": 10, "bef": 5}}}  # fmt: skip
    final = blocked(60, 40)
    brute: dict[str, Fraction] = {}
    for qa, p in final.items():
        for qb in faces(50):
            key = trip_outcome(qa, qb, 0, "numeric")
            brute[key] = brute.get(key, Fraction(0)) + p / 100
    assert table(odds("melee/trip", request).outcome) == brute


# --- melee/entangle (#65) --------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["numeric", "notch"])
def test_entangle_odds_against_brute_force(mode):
    """F:L3242: better by one kneeling, more prone; concentrate actions = the difference."""
    request = {"attack": {"task": {"score": 12, "bef": 5}},
               "footing": {"task": {"score": 10, "bef": 5}},
               "options": {"qr_difference_mode": mode}}  # fmt: skip
    outcomes, actions = [], []
    for a, b in product(faces(60), faces(50)):
        d = ahead(a, b, mode) if a <= 4 else None
        outcomes.append("miss" if d is None else "prone" if d > 1 else
                        "kneeling" if d == 1 else "no_effect")  # fmt: skip
        actions.append(str(d if d is not None and d >= 1 else 0))
    found = odds("melee/entangle", request)
    assert table(found.outcome) == counted(outcomes, 10_000)
    assert table(found.concentrate_actions) == counted(actions, 10_000)


def test_entangle_cases():
    found = run("melee/entangle", {"attack": {"qr": 2}, "footing": {"qr": 3},
                                   "dice": {"seed": 1}})  # fmt: skip
    assert (found.entangled, found.outcome, found.concentrate_actions) == (True, "kneeling", 1)
    found = run("melee/entangle", {"attack": {"qr": 1}, "footing": {"qr": 7},
                                   "dice": {"seed": 1}})  # fmt: skip
    assert (found.outcome, found.concentrate_actions) == ("prone", 6)
    found = run("melee/entangle", {"attack": {"qr": 3}, "footing": {"qr": 3},
                                   "dice": {"seed": 1}})  # fmt: skip
    assert (found.entangled, found.concentrate_actions) == (False, 0)


# --- melee/grab (#66) ------------------------------------------------------------------------


@pytest.mark.parametrize(("handle", "only"), [(False, False), (True, False), (True, True)])
def test_grab_odds_against_brute_force(handle, only):
    """F:L3243: strictly better takes it, equal both grip, +2 to the handle's holder, a
    handle-only object needs two."""
    request = {"attack": {"task": {"score": 12, "bef": 5}},
               "defense": {"task": {"score": 8, "bef": 5}},
               "attacker_strength": {"task": {"score": 10}},
               "holder_strength": {"task": {"score": 10}},
               "holder_has_handle": handle, "handle_only": only}  # fmt: skip
    holder_sc = 10 * (9 if handle else 7)  # EF 7 + 2 = 9
    brute: dict[str, Fraction] = {}
    for final, p in blocked(60, 40).items():
        if final > 4:
            brute["miss"] = brute.get("miss", Fraction(0)) + p
            continue
        for a, b in product(faces(70), faces(holder_sc)):
            adv = b - a
            key = "both_grip" if adv == 0 else "taken" if adv >= (2 if only else 1) else "kept"
            brute[key] = brute.get(key, Fraction(0)) + p / 10_000
    assert table(odds("melee/grab", request).outcome) == brute


def test_grab_cases():
    def at(a, b, **flags):
        return run("melee/grab", {"attack": {"qr": 3}, "attacker_strength": {"qr": a},
                                  "holder_strength": {"qr": b}, **flags,
                                  "dice": {"seed": 1}}).outcome  # fmt: skip

    assert at(3, 4) == "taken"
    assert at(3, 3) == "both_grip"
    assert at(4, 3) == "kept"
    assert at(3, 4, handle_only=True) == "kept"  # a sword: advantage two needed
    assert at(2, 4, handle_only=True) == "taken"
    missed = run("melee/grab", {"attack": {"qr": 3}, "defense": {"qr": 2},
                                "attacker_strength": {"qr": 1}, "holder_strength": {"qr": 10},
                                "dice": {"seed": 1}})  # fmt: skip
    assert (missed.outcome, missed.attacker_qr) == ("miss", None)


# --- melee/throw (#69) -----------------------------------------------------------------------


def test_throw_terms_distance_and_fall():
    """F:L3249: dodge-throw -1, attack-throw -2, -2 more without the Throws field; thrown
    3 m past the thrower: a 3 m fall is DC (3 - 1) = 2 (F:L2765)."""
    found = run("melee/throw", {"mode": "attack", "attack": {"task": {"score": 10, "bef": 7}},
                                "dice": {"values": [10]}})  # fmt: skip
    assert [(t.source, t.value) for t in found.blow.attack.modifiers] == [
        ("attack-throw at close range", -2), ("without the Throws field", -2)]  # fmt: skip
    assert found.blow.attack.success_chance == 30  # EF 7 - 4 = 3
    assert (found.thrown, found.distance_m, found.fall_dc.exact) == (True, 3, "2/1")
    dodge = run("melee/throw", {"mode": "dodge", "attack": {"qr": 4},
                                "defense": {"task": {"score": 10, "bef": 5}},
                                "throws_field": True, "dice": {"values": [20]}})  # fmt: skip
    assert [(t.source, t.value) for t in dodge.blow.defense.modifiers] == [("dodge-throw", -1)]
    assert (dodge.blow.defense_qr, dodge.thrown, dodge.blow.final.qr) == (3, True, 7)


def test_dodge_throw_needs_a_better_dodge_and_an_unarmed_or_polearm_attacker():
    def at(attack, dodge, **more):
        return run(
            "melee/throw",
            {
                "mode": "dodge",
                "attack": {"qr": attack},
                "defense": {"qr": dodge},
                **more,
                "dice": {"seed": 1},
            },
        )

    assert at(3, 2).thrown
    assert not at(3, 3).thrown
    assert not at(10, 7).thrown  # a failed dodge throws no one (the option's default)
    assert at(10, 7, options={"throw_dodge_must_succeed": False}).thrown
    with pytest.raises(InputError) as error:
        at(3, 2, attacker_weapon="other")
    assert error.value.loc == ("attacker_weapon",)


def test_throw_odds_against_brute_force():
    """A dodge-throw throws when the dodge QR is better and a success; an attack-throw when
    it hits (Q6: attack SC 50, BEF 9 - 4, against a dodge at SC 50: 0.3525)."""
    found = odds("melee/throw", {"mode": "dodge", "attack": {"task": {"score": 10, "bef": 5}},
                                 "defense": {"task": {"score": 10, "bef": 6}},
                                 "throws_field": True})  # fmt: skip
    brute = sum(Fraction(1, 10_000) for a, d in product(faces(50), faces(50)) if d < a and d <= 4)
    assert Fraction(found.thrown.exact) == brute
    attack = odds("melee/throw", {"mode": "attack", "attack": {"task": {"score": 10, "bef": 9}},
                                  "defense": {"task": {"score": 10, "bef": 5}}})  # fmt: skip
    assert f"{float(Fraction(attack.thrown.exact)):.4f}" == "0.3525"
