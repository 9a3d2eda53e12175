"""The Omphalos IX's Limited Ammo (C:L1618, catalogue 3.12.3): a 30-round magazine, 4 turns to
replace it, and 90 rounds for each hour of work in a proper shop or laboratory. The ammunition
is state in, state out: the caller keeps it between requests."""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from service.rules.four_c.gear.tables import OMPHALOS
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["AmmoAction", "Ammunition", "omphalos_ammo"]

RIFLE = OMPHALOS[0]
LOOSE_MAX = 1_000_000


class AmmoAction(StrEnum):
    FIRE = "fire"
    RELOAD = "reload"
    CRAFT = "craft"


class Ammunition(Model):
    """The rifle's ammunition."""

    rounds_loaded: Annotated[int, Field(ge=0, le=30)] = Field(
        description="Rounds in the magazine in the rifle (it holds 30)."
    )
    spare_magazines: Annotated[int, Field(ge=0, le=1000)] = Field(
        default=0, description="Full magazines carried."
    )
    loose_rounds: Annotated[int, Field(ge=0, le=LOOSE_MAX)] = Field(
        default=0, description="Rounds not in a magazine."
    )


class AmmoInput(Model):
    ammunition: Ammunition
    action: AmmoAction = Field(
        description="fire: shots from the magazine, a round an attack (catalogue 3.12.3); "
        "reload: replace the magazine; craft: make rounds in a shop or laboratory."
    )
    shots: Annotated[int, Field(ge=1, le=30)] = Field(default=1, description="For fire.")
    hours: Annotated[int, Field(ge=1, le=1000)] = Field(
        default=1, description="For craft: hours of work by someone with the skill (C:L1618)."
    )


class AmmoResult(Model):
    ammunition: Ammunition = Field(description="After the action.")
    turns: int = Field(description="Turns the action takes: 4 to replace a magazine.")
    hours: int = Field(description="Hours of work: crafting only.")
    text: str


def _fire(request: AmmoInput) -> AmmoResult:
    held = request.ammunition
    if request.shots > held.rounds_loaded:
        raise InputError(
            ("shots",), f"{request.shots} shots but {held.rounds_loaded} rounds in the magazine"
        )
    after = held.model_copy(update={"rounds_loaded": held.rounds_loaded - request.shots})
    return AmmoResult(ammunition=after, turns=0, hours=0,
                      text=f"{request.shots} rounds fired, one an attack.")  # fmt: skip


def _reload(request: AmmoInput) -> AmmoResult:
    """A full spare magazine goes in, the rounds of the one taken out are kept loose; with no
    spare, the magazine is refilled from loose rounds in the same 4 turns."""
    held = request.ammunition
    full = RIFLE.magazine_rounds
    if held.spare_magazines:
        loose = _loose_after(held, held.rounds_loaded, ("ammunition", "loose_rounds"))
        after = Ammunition(rounds_loaded=full, spare_magazines=held.spare_magazines - 1,
                           loose_rounds=loose)  # fmt: skip
        text = "A full magazine replaces the one in the rifle."
    elif held.loose_rounds:
        added = min(full - held.rounds_loaded, held.loose_rounds)
        after = Ammunition(rounds_loaded=held.rounds_loaded + added, spare_magazines=0,
                           loose_rounds=held.loose_rounds - added)  # fmt: skip
        text = f"The magazine is refilled with {added} loose rounds."
    else:
        raise InputError(
            ("ammunition", "spare_magazines"), "no spare magazine and no loose rounds to reload"
        )
    return AmmoResult(ammunition=after, turns=RIFLE.reload_turns, hours=0, text=text)


def _loose_after(held: Ammunition, added: int, blamed: tuple[str, ...]) -> int:
    """The loose rounds once `added` more are kept: past `LOOSE_MAX`, the field `blamed`
    for them is refused (the count is bounded, as every input is)."""
    if held.loose_rounds + added > LOOSE_MAX:
        raise InputError(blamed, f"more than {LOOSE_MAX:,} loose rounds would be held")
    return held.loose_rounds + added


def _craft(request: AmmoInput) -> AmmoResult:
    held = request.ammunition
    made = RIFLE.rounds_per_lab_hour * request.hours
    after = held.model_copy(update={"loose_rounds": _loose_after(held, made, ("hours",))})
    return AmmoResult(ammunition=after, turns=0, hours=request.hours,
                      text=f"{made} rounds made in {request.hours} hours of work.")  # fmt: skip


@operation(
    name="gear/omphalos-ix/ammo",
    kind=Kind.CALCULATION,
    covers=("4c.gear.omphalos_ix.ammo",),
    example={"ammunition": {"rounds_loaded": 3, "spare_magazines": 1}, "action": "reload"},
)
def omphalos_ammo(request: AmmoInput) -> AmmoResult:
    """The magazine holds 30 rounds and replacing it takes 4 turns; one hour of work in a
    weapons shop or laboratory by someone with the skill (Weaponsmithing, Science,
    Engineering...) makes 90 rounds (C:L1618). An attack fires one round (catalogue 3.12.3)."""
    if request.action is AmmoAction.FIRE:
        return _fire(request)
    if request.action is AmmoAction.RELOAD:
        return _reload(request)
    return _craft(request)
