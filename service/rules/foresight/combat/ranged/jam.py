"""Jams (F:L3664): a weapon's Jam is its failure range (F:L3570-3585), tested against the same
D100 that resolves the fire action (F:L3587). A jammed weapon needs D10 concentrate actions,
rolled secretly by the GM, then a successful dexterity roll to clear; a bow's 'jam' is its
string breaking (F:L3664)."""

from typing import Any

from pydantic import Field

from service.rules.cost import Estimate
from service.rules.dice import Dice
from service.rules.distribution import (
    NOT_ROLLED,
    Distribution,
    Exact,
    OutcomeProbability,
    exact,
    outcome_table,
)
from service.rules.foresight.combat.ranged.weapon import RangedWeaponUse
from service.rules.foresight.equipment.failure import (
    FailureCode,
    FailureKind,
    fails,
    failure_outcomes,
    needs_follow_up,
    parse_failure_range,
)
from service.rules.foresight.resolution.chance import Setup
from service.rules.foresight.resolution.quality import rater
from service.rules.foresight.resolution.tables import QR
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["JamInput", "JamReport", "fire_outcomes", "jam_test"]

#: How a null 'concentrate_actions' (no jam) is written in the odds.


class JamReport(Model):
    jam: str = Field(description="The failure range tested (F:L3664).")
    roll: int | None = Field(description="The fire roll's D100; null when none was rolled.")
    follow_up_d10: int | None = Field(description="For a starred range's face: jams on a 10.")
    jammed: bool
    string_broken: bool = Field(description="A bow's jam is its string breaking (F:L3664).")
    concentrate_actions: int | None = Field(
        description="D10 concentrate actions to clear it, rolled secretly by the GM (F:L3664)."
    )
    then: str | None = Field(description="What clears it after them: a dexterity roll.")


def jam_test(code: str, use: RangedWeaponUse, face: int | None, dice: Dice) -> JamReport:
    """Test the fire roll against the Jam range; a starred face rolls its D10 first
    (F:L3585), and a jam the D10 of concentrate actions (F:L3664). A weapon whose range is
    not one of rolls (J, K, L, M) fails on use."""
    found = parse_failure_range(code, ("weapon", "jam"))
    follow_up, jammed = None, False
    if face is not None or found.kind is not FailureKind.ROLLS:
        roll = face if face is not None else 0
        if needs_follow_up(found, roll):
            follow_up = dice.roll(10, "D10 (jam, 99*: jams on a 10)")
        jammed = fails(found, roll, follow_up)
    bow = use is RangedWeaponUse.ARCHERY
    actions = None
    if jammed and not bow:
        actions = dice.roll(10, "D10 (concentrate actions to clear the jam, the GM's secret)")
    return JamReport(
        jam=code,
        roll=face,
        follow_up_d10=follow_up,
        jammed=jammed,
        string_broken=jammed and bow,
        concentrate_actions=actions,
        then="a successful dexterity roll" if actions is not None else None,
    )


def fire_outcomes(task: Setup, code: str) -> Distribution[tuple[QR, bool]]:
    """The fire roll's QR and whether the weapon jams, jointly over the one D100 (F:L3587)
    and a starred face's D10: each face weighs 10, a starred face 1 jamming and 9 not."""
    found = parse_failure_range(code, ("weapon", "jam"))
    if not task.rolled:
        always = found.kind is not FailureKind.ROLLS and fails(found, 0)
        return Distribution({(QR.QR7, always): 1})
    pairs: list[tuple[tuple[QR, bool], int]] = []
    rate = rater(task.sc, task.mode)
    for face in range(1, 101):
        qr = rate(face)
        if needs_follow_up(found, face):
            pairs += [((qr, True), 1), ((qr, False), 9)]
        else:
            pairs.append(((qr, fails(found, face)), 10))
    return Distribution(pairs)


class JamInput(Model):
    jam: FailureCode = Field(description="The weapon's Jam (F:L3664).")
    use: RangedWeaponUse = Field(
        default=RangedWeaponUse.HANDGUNS, description="'A': a bow's string breaks."
    )
    roll: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="The fire action's D100, rolled at the table; null: roll it here.",
    )


class JamOdds(Model):
    jam_probability: Exact = Field(description="P(jam) per fire action.")
    jammed: list[OutcomeProbability]
    concentrate_actions: list[OutcomeProbability] = Field(
        description="D10 when jammed; 'not_rolled' when not."
    )


def _jammed(request: JamInput) -> Distribution[bool]:
    faces = range(1, 101) if request.roll is None else (request.roll,)
    return failure_outcomes(parse_failure_range(request.jam, ("jam",)), faces)


def jam_odds(request: JamInput) -> JamOdds:
    jammed = _jammed(request)
    clear = request.use is not RangedWeaponUse.ARCHERY

    def cleared(jammed: bool) -> Distribution[int | str]:
        if jammed and clear:
            return Distribution((face, 1) for face in range(1, 11))
        return Distribution([(NOT_ROLLED, 1)])

    actions = jammed.then(cleared)
    return JamOdds(
        jam_probability=exact(jammed.probability(True)),
        jammed=outcome_table(jammed),
        concentrate_actions=outcome_table(actions),
    )


def jam_cost(request: Any) -> Estimate:
    """Each D100 face (a starred one twice), then a D10 for each: the same for any request."""
    return Estimate(2 * 101 + 2 * 11 + 40, ())


@operation(
    name="ranged/jam",
    kind=Kind.CHECK,
    covers=("foresight.ranged.jam",),
    odds=jam_odds,
    cost=jam_cost,
    example={"jam": "D", "roll": 50, "dice": {"values": [7]}},
)
def jam(request: JamInput, dice: Dice) -> JamReport:
    """Does the weapon jam? Its Jam is a failure range tested against the fire action's own
    D100 (F:L3664, F:L3587): C jams on 99, D on 50 or 99, F on any roll ending in 5; B ('99*')
    only if a further D10 shows 10 (F:L3570-3585). A jammed weapon needs D10 concentrate
    actions, rolled secretly by the GM, then a successful dexterity roll; a bow's string
    breaks instead (F:L3664)."""
    face = request.roll if request.roll is not None else dice.roll(100, "D100 (fire)")
    return jam_test(request.jam, request.use, face, dice)
