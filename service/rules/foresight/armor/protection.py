"""What worn armor does (catalogue part 2, #113-#115; F:L3877-3885, F:L3924, F:L3930-3954).

damage/resolve and attack take an outfit by name in their target's `worn` and read it there
(mortality's hits, with `worn_coverage` of the catalogue). armor/protection shows the same
reading: the layers a hit meets, in mortality's `ArmorLayer` shape (a rating against this
attack's type, a coverage n/10 and the locations it protects), for a caller who keeps armor as
layers. The coverage D10s are rolled by damage/resolve, one per layer under 10/10 (F:L3930).

armor/agdx-penalty is the AG/DX modifier on agility tasks (armor on the legs) and dexterity
tasks (on the arms), less a quarter of the Armor/Exoskeleton skill, rounded off (F:L3883-3885).
armor/encumbrance counts worn armor at half its weight (F:L3924, F:L505) with the carrying
capacity and encumbrance of the character rules.
"""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.distribution import Exact, exact
from service.rules.foresight.armor.catalog import (
    ArmorDirection,
    ArmorPiece,
    ArmorRow,
    WornArmor,
    agdx_reach,
    armor_row,
    piece_row,
    piece_weight,
    worn_coverage,
)
from service.rules.foresight.characters.derived import (
    AGILITY,
    Capacity,
    EncumbranceOptions,
    State,
    capacity,
    state_of,
)
from service.rules.foresight.mortality.condition import Location
from service.rules.foresight.mortality.damage import decimal
from service.rules.foresight.mortality.hits import ArmorLayer
from service.rules.foresight.resolution.scores import round_half_up
from service.rules.model import InputError, Model, option
from service.rules.registry import Kind, operation

__all__ = ["agdx_penalty", "armor_encumbrance", "protection"]

#: Pieces one character wears at once (a helmet, a shirt, trousers, boots, gloves... ).
MAX_WORN = 12


Worn = Annotated[tuple[WornArmor, ...], Field(max_length=MAX_WORN)]


def _rows(worn: tuple[WornArmor, ...], field: str) -> list[ArmorRow]:
    return [armor_row(w.armor, (field, i, "armor")) for i, w in enumerate(worn)]


# --- foresight.armor.protection (#113) -------------------------------------------------------


class ArmorDamageType(StrEnum):
    """The rating an attack meets (F:L3879): stun meets the impact rating unless the weapon
    says otherwise (then give that weapon's column)."""

    MELEE = "melee"
    IMPACT = "impact"
    BEAM = "beam"
    STUN = "stun"


class ArmorProtectionInput(Model):
    worn: Worn = Field(min_length=1, description="The pieces worn, outermost first.")
    location: Location | None = Field(
        default=None,
        description="The hit's location; null: a layer for every location the pieces cover "
        "(damage/resolve keeps those of the location it rolls).",
    )
    direction: ArmorDirection = Field(
        default=ArmorDirection.FRONT, description="Where the attack comes from."
    )
    damage_type: ArmorDamageType = Field(default=ArmorDamageType.IMPACT)


class ArmorLayerSource(Model):
    """Where a layer comes from: the piece, the armor and the rating column read."""

    armor: str
    piece: ArmorPiece
    column: str
    rating: str
    coverage: int
    locations: list[Location]
    note: str | None


class ArmorProtection(Model):
    layers: list[ArmorLayer] = Field(
        description="In the order the attack meets them, as damage/resolve's and attack's "
        "'armor' takes them (naming the pieces in their 'worn' does the same). Those take 8 "
        "layers at most: give the hit's location to keep only its layers."
    )
    sources: list[ArmorLayerSource] = Field(description="Each layer's piece, in the same order.")
    steps: list[str]


def _column(damage_type: ArmorDamageType) -> str:
    return "impact" if damage_type is ArmorDamageType.STUN else damage_type.value


@operation(
    name="armor/protection",
    kind=Kind.CALCULATION,
    covers=("foresight.armor.protection",),
    example={
        "worn": [{"armor": "silkweave", "piece": "vest"}],
        "location": "chest",
        "direction": "side",
        "damage_type": "impact",
    },
)
def protection(request: ArmorProtectionInput) -> ArmorProtection:
    """The layers worn armor puts between an attack and the body: for each piece covering the
    location, its rating against the damage type (stun meets impact, F:L3879) and its coverage
    from the attack's direction (F:L3930-3954); Amy's silkweave vest is 4A against impact,
    9/10 from the front, 6/10 from the side. Gloves with sleeves or a sleeved shirt of the same
    armor make its arms 10/10 (F:L3941, F:L3949)."""
    rows = _rows(request.worn, "worn")
    column = _column(request.damage_type)
    wanted = list(Location) if request.location is None else [request.location]
    layers: list[ArmorLayer] = []
    sources: list[ArmorLayerSource] = []
    for index, (piece, row) in enumerate(zip(request.worn, rows, strict=True)):
        groups: dict[tuple[int, str | None], list[Location]] = {}
        for location in wanted:
            coverage, note = worn_coverage(request.worn, index, location, request.direction)
            if coverage:
                groups.setdefault((coverage, note), []).append(location)
        rating: str = getattr(row, column)
        for (coverage, note), locations in groups.items():
            name = f"{row.key} {piece.piece.value}"
            layers.append(ArmorLayer(name=name, rating=rating, coverage=coverage,
                                     locations=tuple(locations)))  # fmt: skip
            sources.append(ArmorLayerSource(armor=row.key, piece=piece.piece, column=column,
                                       rating=rating, coverage=coverage, locations=locations,
                                       note=note))  # fmt: skip
    steps = [
        f"{s.armor} {s.piece.value}: {s.column} {s.rating}, {s.coverage}/10 on "
        f"{', '.join(loc.value for loc in s.locations)} from the {request.direction.value}"
        for s in sources
    ] or ["no piece worn covers the location"]
    return ArmorProtection(layers=layers, sources=sources, steps=steps)


# --- foresight.armor.agdx_penalty (#114) -----------------------------------------------------


class ArmorMitigationBasis(StrEnum):
    LEVEL = "level"
    SCORE = "score"


class ArmorAgdxOptions(Model):
    armor_mitigation_basis: ArmorMitigationBasis = option(
        ArmorMitigationBasis.LEVEL,
        ambiguity=None,
        description="The catalogue's reading of 'divide Armor/Exoskeleton skill level by "
        "four' (F:L3883), whose example says 'a skill of 14' (F:L3885): the skill's level "
        "as written, or its score (catalogue 2.11, #114; no register entry).",
    )


class ArmorAgdxInput(Model):
    worn: Worn | None = Field(
        default=None, description="The pieces worn; null: give 'agdx', worn on arms and legs."
    )
    agdx: int | None = Field(
        default=None, ge=-10, le=0, description="Instead of 'worn': an armor's AG/DX modifier."
    )
    level: int = Field(default=0, ge=0, le=99, description="Armor/Exoskeleton skill level.")
    score: int | None = Field(
        default=None, ge=0, le=200, description="Its score, for armor_mitigation_basis score."
    )
    armored_exoskeleton: bool = Field(
        default=False, description="Worn as an exoskeleton's armor: no AG/DX on agility (F:L3964)."
    )
    options: ArmorAgdxOptions = Field(default=ArmorAgdxOptions())


class ArmorAgdxPenalty(Model):
    mitigation: int = Field(description="Skill / 4, rounded off (F:L3885).")
    agility_modifier: int = Field(description="To agility-related tasks (armor on the legs).")
    dexterity_modifier: int = Field(description="To dexterity-related tasks (on the arms).")
    pc_modifier: int = Field(description="A helmet's modifier to PC-related activity.")
    steps: list[str]


def _mitigation(request: ArmorAgdxInput) -> tuple[int, str]:
    if request.options.armor_mitigation_basis is ArmorMitigationBasis.SCORE:
        if request.score is None:
            raise InputError(("score",), "armor_mitigation_basis 'score' needs the skill's score")
        skill = request.score
    else:
        skill = request.level
    mitigation = round_half_up(Fraction(skill, 4))
    quarter = Fraction(skill, 4)
    return mitigation, f"skill {skill} / 4 = {float(quarter):g}, rounded off: {mitigation}"


def _reach(request: ArmorAgdxInput) -> tuple[int | None, int | None, int, list[str]]:
    """The worst AG/DX on the legs and on the arms, and the helmets' PC modifier."""
    if request.worn is None:
        if request.agdx is None:
            raise InputError(("agdx",), "give the armor worn ('worn') or its AG/DX ('agdx')")
        return request.agdx, request.agdx, 0, [f"AG/DX {request.agdx} on arms and legs"]
    legs: list[int] = []
    arms: list[int] = []
    pc, steps = 0, []
    for piece, row in zip(request.worn, _rows(request.worn, "worn"), strict=True):
        on_legs, on_arms = agdx_reach(piece.piece)
        pc = min(pc, piece_row(piece.piece).pc_modifier)
        legs += [row.agdx] if on_legs else []
        arms += [row.agdx] if on_arms else []
        where = [w for w, on in (("legs", on_legs), ("arms", on_arms)) if on] or ["neither"]
        steps.append(f"{row.key} {piece.piece.value}: AG/DX {row.agdx} on {' and '.join(where)}")
    return min(legs, default=None), min(arms, default=None), pc, steps


def _net(agdx: int | None, mitigation: int) -> int:
    return 0 if agdx is None else min(0, agdx + mitigation)


@operation(
    name="armor/agdx-penalty",
    kind=Kind.CALCULATION,
    covers=("foresight.armor.agdx_penalty",),
    example={"agdx": -5, "level": 14},
)
def agdx_penalty(request: ArmorAgdxInput) -> ArmorAgdxPenalty:
    """Armor's AG/DX modifier applies to agility tasks when worn on the legs and to dexterity
    tasks when worn on the arms (F:L3883); the Armor/Exoskeleton skill level / 4, rounded off,
    of it is nullified, never past 0: heavy plate's -5 with skill 14 is -5 + 4 = -1 (F:L3885).
    A vest or boots leave both alone (F:L3944, F:L3952); an armored exoskeleton ignores it for
    agility (F:L3964). Pieces of several armors: the worst of those on the limb counts (the
    book does not stack them). Helmets: -3 or -1 to PC-related activity (F:L3935-3937)."""
    if request.worn is not None and request.agdx is not None:
        raise InputError(("agdx",), "give 'worn' or 'agdx', not both")
    legs, arms, pc, steps = _reach(request)
    mitigation, why = _mitigation(request)
    steps.append(why)
    if request.armored_exoskeleton and legs is not None:
        steps.append("an armored exoskeleton ignores AG/DX for agility tasks (F:L3964)")
        legs = None
    agility, dexterity = _net(legs, mitigation), _net(arms, mitigation)
    steps.append(f"agility tasks {agility}, dexterity tasks {dexterity}")
    return ArmorAgdxPenalty(mitigation=mitigation, agility_modifier=agility,
                       dexterity_modifier=dexterity, pc_modifier=pc, steps=steps)  # fmt: skip


# --- foresight.armor.encumbrance (#115) ------------------------------------------------------


class ArmorEncumbranceInput(Model):
    worn: Worn = Field(default=(), description="Catalogue armor pieces.")
    other_armor_kg: Annotated[tuple[Annotated[float, Field(ge=0, le=10_000)], ...],
                              Field(max_length=MAX_WORN)] = Field(
        default=(), description="Armor given by its weight (kg)."
    )  # fmt: skip
    worn_on_body: bool = Field(
        default=True, description="Worn (counts half, F:L3924) or carried (counts in full)."
    )
    armored_exoskeleton: bool = Field(
        default=False, description="Armoring an exoskeleton: its weight is ignored (F:L3964)."
    )
    other_load_kg: float = Field(
        default=0, ge=0, le=100_000, description="Everything else carried, as it counts."
    )
    strength: int | None = Field(
        default=None, ge=1, le=60, description="To say how encumbered the load leaves him."
    )
    options: EncumbranceOptions = Field(default=EncumbranceOptions())


class ArmorEncumbrance(Model):
    armor_kg: Exact
    counted_kg: Exact = Field(description="What the armor counts towards encumbrance.")
    load_kg: Exact = Field(description="counted_kg + other_load_kg.")
    capacity: Capacity | None
    state: State | None
    agility_modifier: int | None
    steps: list[str]


@operation(
    name="armor/encumbrance",
    kind=Kind.CALCULATION,
    covers=("foresight.armor.encumbrance",),
    example={"worn": [{"armor": "heavy-plate", "piece": "full_suit"}], "strength": 9},
)
def armor_encumbrance(request: ArmorEncumbranceInput) -> ArmorEncumbrance:
    """Worn, well-distributed armor counts half its weight towards encumbrance (F:L3924,
    F:L505); an armored exoskeleton carries its armor (F:L3964). A heavy-plate full suit is
    5 x 8 = 40 kg and counts 20 kg: the book prints 22.5 (AMB2-32: half of 40 is 20), which
    still burdens ST 9 (laden 16, burden 32) while ST 15 (carry 24) hardly notices it."""
    rows = _rows(request.worn, "worn")
    weights = [piece_weight(row, w.piece) for w, row in zip(request.worn, rows, strict=True)]
    steps = [f"{row.key} {w.piece.value}: {float(kg):g} kg"
             for w, row, kg in zip(request.worn, rows, weights, strict=True)]  # fmt: skip
    weights += [decimal(kg) for kg in request.other_armor_kg]
    armor = sum(weights, Fraction(0))
    if request.armored_exoskeleton:
        counted, why = Fraction(0), "an armored exoskeleton's armor does not encumber (F:L3964)"
    elif request.worn_on_body:
        counted, why = armor / 2, "worn armor counts 50% (F:L3924, F:L505)"
    else:
        counted, why = armor, "carried, not worn: the full weight (F:L505)"
    steps.append(f"armor {float(armor):g} kg; {why}: {float(counted):g} kg")
    load = counted + decimal(request.other_load_kg)
    limits = state = agility = None
    if request.strength is not None:
        limits = capacity(request.strength)
        state = state_of(load, limits, request.options.encumbrance_boundary)
        agility = AGILITY.get(state, 0)
        steps.append(f"ST {request.strength}: carry {limits.carry}, laden {limits.laden}, "
                     f"burden {limits.burden}; {float(load):g} kg is {state.value}")  # fmt: skip
    return ArmorEncumbrance(armor_kg=exact(armor), counted_kg=exact(counted), load_kg=exact(load),
                            capacity=limits, state=state, agility_modifier=agility,
                            steps=steps)  # fmt: skip
