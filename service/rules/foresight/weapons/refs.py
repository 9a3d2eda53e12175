"""How a request names a catalogue weapon and its modifications. Plain data only, no rules:
the combat models import it to accept `{"catalog": key, "modifications": [...]}` wherever they
take a weapon, and `weapons.ranged` / `weapons.melee` turn it into the row."""

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Annotated, Any, TypeVar

from pydantic import Field, ValidationError

from service.rules.model import InputError, Model, not_null, option

__all__ = [
    "MAX_MODIFICATIONS",
    "DrawOptions",
    "MeleeKey",
    "MeleeModification",
    "MeleeModificationName",
    "RangedColumn",
    "RangedKey",
    "RangedModification",
    "RangedModificationName",
    "either_row_or_catalog",
    "overrides",
    "within_bounds",
]

#: Modifications stacked on one weapon (Amy's sidearm has three, F:L3798).
MAX_MODIFICATIONS = 8

_KEY = r"^[A-Za-z0-9.-]+$"
#: A row of weapon/ranged/catalog by its key: 'sl-rifle', 'revolver-4.25' (any case).
RangedKey = Annotated[
    str,
    Field(min_length=1, max_length=40, pattern=_KEY,
          examples=["sl-rifle", "revolver-4.25", "sl-pistol-5", "laser-pistol-8"],
          description="A weapon/ranged/catalog key."),
]  # fmt: skip
#: A row of weapon/melee/catalog by its key: 'sabre-longsword' (any case).
MeleeKey = Annotated[
    str,
    Field(min_length=1, max_length=40, pattern=_KEY,
          examples=["sabre-longsword", "dagger", "spear", "club"],
          description="A weapon/melee/catalog key."),
]  # fmt: skip


class RangedModificationName(StrEnum):
    """The rows of Ranged Weapon Modifications (F:L3781-3792)."""

    ADVANCED = "advanced"
    AUTO_LONG_BURST = "auto_long_burst"
    AUTO_SHORT_BURST = "auto_short_burst"
    CHEAP_SHODDY = "cheap_shoddy"
    CUSTOM = "custom"
    CUT_DOWN_HANDGUN = "cut_down_handgun"
    CUT_DOWN_LONGARM = "cut_down_longarm"
    HEAVY = "heavy"
    LASER_SIGHT = "laser_sight"
    LIGHT = "light"
    OLD_RUSTY = "old_rusty"
    TARGET = "target"


class RangedColumn(StrEnum):
    """A column an Advanced or Custom modification works on (notes *** and †, F:L3794; Custom
    marks ROF too, F:L3785)."""

    AMMO = "ammo"
    ROF = "rof"
    DC = "dc"
    RANGE = "range"
    DRAW = "draw"
    RL = "rl"
    JAM = "jam"
    WGT = "wgt"


class RangedModification(Model):
    """One modification applied; the order given is the order of the arithmetic."""

    modification: RangedModificationName
    columns: Annotated[tuple[RangedColumn, ...], Field(max_length=2)] = Field(
        default=(),
        description="'advanced': the two columns it improves, e.g. ['wgt', 'dc'] (note ***).",
    )
    improve: RangedColumn | None = Field(
        default=None, description="'custom': the column improved by 1 or x1.15/x0.85 (note †)."
    )
    worsen: RangedColumn | None = Field(
        default=None, description="'custom': the column worsened the same way (note †)."
    )
    sight_weight_g: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="'laser_sight': the sight's weight after its own item modifications "
        "(default the table's 250 g; modern x2: 0.7 x 0.7 x 250 = 122.5, F:L3798).",
    )


class MeleeModificationName(StrEnum):
    """The rows of Mêlée Weapon Modifications (F:L3805-3819)."""

    CHEAP = "cheap"
    CRUDE = "crude"
    PRIMITIVE = "primitive"
    FINE_CLOSE = "fine_close"
    FINE_NORMAL = "fine_normal"
    FINE_PARRYING = "fine_parrying"
    FINE_REACH = "fine_reach"
    HEAVY = "heavy"
    IMPROVISED = "improvised"
    LIGHT = "light"
    LONG = "long"
    SHORT = "short"


class MeleeModification(Model):
    """One modification applied; the order given is the order of the arithmetic."""

    modification: MeleeModificationName


class DrawOptions(Model):
    """How far modifications, holsters and clothing may bring the Draw actions down."""

    min_draw: Annotated[int, Field(ge=0, le=5)] = option(
        1,
        ambiguity="AMB2-43",
        description="The fewest Draw actions a weapon can need after its modifications, "
        "holster and clothing (catalogue AMB-43: the book's modifiers can bring Draw to 0 or "
        "below; 0 lets a weapon be ready without a Draw action).",
    )


def either_row_or_catalog(*required: str) -> Callable[[dict[str, Any]], None]:
    """Publish a weapon's two shapes in its JSON Schema: the row itself (`required` given, no
    'catalog') or a catalogue key ('catalog' given, the columns optional). The model is one
    type, as GraphQL input must be; this tells a REST client which fields go together."""

    def publish(schema: dict[str, Any]) -> None:
        properties: dict[str, Any] = schema.pop("properties")
        schema.pop("required", None)
        schema.pop("additionalProperties", None)  # each shape closes itself
        row = {name: found for name, found in properties.items() if name != "catalog"}
        row |= {name: not_null(row[name]) for name in required}
        keyed = properties | {"catalog": not_null(properties["catalog"])}
        closed = {"type": "object", "additionalProperties": False}
        schema["anyOf"] = [
            {**closed, "properties": row, "required": list(required)},
            {**closed, "properties": keyed, "required": ["catalog"]},
        ]

    return publish


def overrides(spec: Model, columns: Iterable[str]) -> dict[str, Any]:
    """The columns a request gives in place of a catalogue row's: set, not null and not the
    column's default (GraphQL fills every default in, so a default given means nothing)."""
    fields = type(spec).model_fields
    found = {}
    for name in spec.model_fields_set & set(columns):
        value = getattr(spec, name)
        if value is not None and value != fields[name].default:
            found[name] = value
    return found


M = TypeVar("M", bound=Model)


def within_bounds(model: type[M], found: M, loc: tuple[str | int, ...]) -> M:
    """A modified row checked against its model's bounds (PM within +-10, Draw at most 20...):
    modifications stacked past them are the request's fault, a 422 at its modifications."""
    try:
        return model.model_validate_json(found.model_dump_json())
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise InputError(loc, f"the modified weapon's {where}: {first['msg']}") from None
