"""Mooks: a horde of nameless underlings is one threat with one target number (S:L221-223)."""

from typing import Annotated

from pydantic import Field

from service.rules.dice import Dice
from service.rules.four_sight.checks import MAX_TN, Graded, grade
from service.rules.four_sight.degrees import Degree
from service.rules.four_sight.injuries import Injury, injury_of
from service.rules.four_sight.options import CheckOptions, HordeAttackMode
from service.rules.four_sight.pool import Roller, plan
from service.rules.four_sight.rolling import CheckRoll, roll
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["mook_horde"]


class HordeMember(Roller):
    """One character facing the horde."""

    name: Annotated[str, Field(min_length=1, max_length=60)]


class HordeInput(Model):
    """The horde's target number, set by the GM from its skill and number (S:L223)."""

    horde_target_number: Annotated[int, Field(ge=-MAX_TN, le=MAX_TN)]
    characters: Annotated[tuple[HordeMember, ...], Field(min_length=1, max_length=16)]
    combat: bool = Field(default=True, description="S-A17: fighting a horde is combat.")
    defending: bool = Field(
        default=False,
        description="The characters defend against the horde's attack (only with "
        "horde_attack_mode=defence_vs_tn, S-A24); the horde is the aggressor, so a tie hits.",
    )
    options: CheckOptions = Field(default=CheckOptions())


class HordeCheck(Model):
    """One character's check against the horde."""

    name: str
    check: CheckRoll
    graded: Graded
    injury: Injury | None = Field(description="When defending: the injury the horde inflicts.")


class DegreeCount(Model):
    degree: Degree | None = Field(description="null counts the failures.")
    count: int


class HordeResult(Model):
    """Each check, and the tally the GM narrates the dwindling horde from (S:L223)."""

    checks: list[HordeCheck]
    tally: list[DegreeCount]


def _injury(graded: Graded, defending: bool) -> Injury | None:
    """Defending, the horde is the aggressor: it hits when it equals or beats the check and
    inflicts the injury of its margin (S-A24 b, S:L179)."""
    if not defending or graded.margin > 0:
        return None
    return injury_of(-graded.margin)


@operation(
    name="mook-horde",
    kind=Kind.CHECK,
    covers=("4sight.mook_horde",),
    example={
        "horde_target_number": 5,
        "characters": [{"name": "Vera", "traits": [{"trait": "dexterity", "score": 3}]}],
        "dice": {"seed": 7},
    },
)
def mook_horde(request: HordeInput, dice: Dice) -> HordeResult:
    """Treat a horde of mooks as a single threat with a target number based on their overall
    skill and number; each character checks against it and the degrees tell how the horde
    dwindles, the GM lowering the number as it does (S:L221-223)."""
    options = request.options
    if request.defending and options.horde_attack_mode is HordeAttackMode.NARRATIVE:
        raise InputError(
            ("defending",),
            "with horde_attack_mode=narrative the GM narrates the horde's harm (S-A24)",
        )
    checks = []
    for index, member in enumerate(request.characters):
        planned = plan(member, options, request.combat, "characters", index)
        made = roll(member, planned, dice, f"{member.name} ")
        graded = grade(made.result, made.adverse_episode, request.horde_target_number, options)
        checks.append(HordeCheck(name=member.name, check=made, graded=graded,
                                 injury=_injury(graded, request.defending)))  # fmt: skip
    degrees = [c.graded.degree for c in checks]
    tally = [DegreeCount(degree=d, count=degrees.count(d)) for d in (None, *Degree)]
    return HordeResult(checks=checks, tally=[t for t in tally if t.count])
