"""How many actions a character has this turn (F:L2962, F:L2580-2588, F:L3000-3002).

Two normal actions; one after a failed initiative roll and no bonus-action roll; none after a
botch, which freezes the character, who may only drop prone (F:L2962). An incapacitated
character (WL4) must make a WP roll every combat turn to act at all, and loses one action
(F:L2584); whether that loss stacks with the single action of a failed initiative, leaving
none, the book does not say (AMB2-49: yes by default). A critically wounded one (WL5) must
make a WP roll every turn to stay or come back to consciousness (F:L2585); a dying one (WL6,
WL7) is unconscious unless a WP roll after a successful deterioration roll brought them round
(F:L2586-2587); WL8 is dead. A stunned character may only try to recover from stun, once in
the turn (F:L3002), or drop prone.
"""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.foresight.combat.rounds.initiative import actions_after
from service.rules.foresight.resolution.tables import QR
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["Allowance", "AllowanceInput", "AllowanceOptions", "allowance"]

INCAPACITATED = 4
CRITICAL = 5
DEAD = 8


class AllowanceOptions(Model):
    """How an incapacitated character's lost action meets a failed initiative (AMB2-49)."""

    wl4_action_loss_stacks: bool = option(
        True,
        ambiguity="AMB2-49",
        description=(
            "An incapacitated (WL4) character 'loses one action' (F:L2584) on top of a failed "
            "initiative's single action, leaving none (true), or keeps that one action: WL4 "
            "then leaves at most one (false)."
        ),
    )


class AllowanceInput(Model):
    initiative_qr: QR = Field(description="This round's initiative QR.")
    wound_level: Annotated[int, Field(ge=0, le=DEAD)] = Field(default=0)
    stunned: bool = Field(default=False)
    unconscious: bool | None = Field(
        default=None,
        description="Null: as the wound level has it (unconscious at WL6-WL7, F:L2586-2587; "
        "at WL5 the WP roll decides, F:L2585). True: knocked out for another reason (a "
        "knockout blow, a QR10 stun recovery). False at WL6-WL7: a WP roll after a "
        "successful deterioration roll brought the character round for a minute.",
    )
    willpower_qr: QR | None = Field(
        default=None,
        description="The WP roll an incapacitated (WL4) or critical (WL5) character makes "
        "this turn (F:L2584-2587); required at those wound levels.",
    )
    options: AllowanceOptions = Field(default=AllowanceOptions())


class AllowanceRestriction(StrEnum):
    NONE = "none"
    DEAD = "dead"
    UNCONSCIOUS = "unconscious"
    FROZEN = "frozen"
    WILLPOWER_FAILED = "willpower_failed"
    INCAPACITATED = "incapacitated"
    RECOVER_FROM_STUN_ONLY = "recover_from_stun_only"


class Allowance(Model):
    normal_actions: int
    may_roll_bonus: bool = Field(description="May roll for bonus actions (F:L2962, F:L3006).")
    may_drop_prone: bool = Field(description="Frozen or stunned: dropping prone is still open.")
    restriction: AllowanceRestriction = Field(
        description="What limits the character, the worst first."
    )
    reasons: list[str] = Field(description="Each rule that took actions away, with its line.")


_SUCCESS = (QR.QR1, QR.QR2, QR.QR3, QR.QR4)


def _unconscious(request: AllowanceInput) -> bool:
    """At WL5 the turn's WP roll keeps or brings back consciousness (F:L2585); otherwise as
    given, or by the wound level: WL6-WL7 are unconscious (F:L2586-2587)."""
    if request.wound_level == CRITICAL:
        return request.willpower_qr not in _SUCCESS
    if request.unconscious is not None:
        return request.unconscious
    return request.wound_level > CRITICAL


def _checked(request: AllowanceInput) -> None:
    if request.wound_level in (INCAPACITATED, CRITICAL) and request.willpower_qr is None:
        raise InputError(
            ("willpower_qr",), f"a character at WL{request.wound_level} rolls WP every turn"
        )


def _out(request: AllowanceInput) -> tuple[AllowanceRestriction, str] | None:
    """Why the character cannot act at all this turn, if they cannot."""
    wl = request.wound_level
    if wl >= DEAD:
        return AllowanceRestriction.DEAD, "WL8: dead (F:L2588)"
    if _unconscious(request):
        why = f"WL{wl}: unconscious (F:L2585-2587)" if wl >= CRITICAL else "unconscious"
        return AllowanceRestriction.UNCONSCIOUS, why
    if wl == INCAPACITATED and request.willpower_qr not in _SUCCESS:
        return AllowanceRestriction.WILLPOWER_FAILED, "WL4: the WP roll failed (F:L2584)"
    return None


def _incapacitated(actions: int, options: AllowanceOptions) -> int:
    """WL4 'loses one action' (F:L2584): on top of a failed initiative, or not (AMB2-49)."""
    return max(0, actions - 1) if options.wl4_action_loss_stacks else min(actions, 1)


@operation(
    name="actions/allowance",
    kind=Kind.CALCULATION,
    covers=("foresight.actions.allowance",),
    example={"initiative_qr": 7, "wound_level": 4, "willpower_qr": 3},
)
def allowance(request: AllowanceInput) -> Allowance:
    """The actions a character has this turn: two, one after a failed initiative (and no
    bonus roll), none after a botch but dropping prone (F:L2962); at WL4 a WP roll to act at
    all and one action fewer, stacking with a failed initiative by default (F:L2584,
    AMB2-49); at WL5 a WP roll to stay conscious (F:L2585); at WL6-7 unconscious unless
    brought round (F:L2586-2587); dead at WL8 (F:L2588); stunned: only one recover-from-stun
    action (F:L3002)."""
    _checked(request)
    base = actions_after(request.initiative_qr)
    reasons = [f"initiative QR{request.initiative_qr.value}: {base.actions} (F:L2962)"]
    out = _out(request)
    if out is not None:
        return Allowance(normal_actions=0, may_roll_bonus=False, may_drop_prone=False,
                         restriction=out[0], reasons=[*reasons, out[1]])  # fmt: skip
    actions = base.actions
    restriction = AllowanceRestriction.FROZEN if base.frozen else AllowanceRestriction.NONE
    if request.wound_level == INCAPACITATED:
        actions = _incapacitated(actions, request.options)
        reasons.append(f"WL4: loses one action, {actions} left (F:L2584, AMB2-49)")
        if not base.frozen:
            restriction = AllowanceRestriction.INCAPACITATED
    if request.stunned and actions:
        actions, restriction = 1, AllowanceRestriction.RECOVER_FROM_STUN_ONLY
        reasons.append("stunned: one recover-from-stun action only (F:L3002)")
    return Allowance(
        normal_actions=actions,
        may_roll_bonus=base.may_roll_bonus and actions > 0 and not request.stunned,
        may_drop_prone=base.frozen or request.stunned,
        restriction=restriction,
        reasons=reasons,
    )
