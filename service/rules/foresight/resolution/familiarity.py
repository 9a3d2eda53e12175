"""Familiarities (F:L1304-1336, F:L2043-2116): environment (E) and gravity (G) familiarities
that feed BEFs, gravity bands, long-term familiarities (+1) and non-familiarity modifiers."""

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from service.rules.foresight.resolution.modifiers import Conditions, Term, terms
from service.rules.foresight.resolution.options import FamiliarityOptions, GravityBandEdges
from service.rules.foresight.resolution.tables import GRAVITY_BANDS, GravityBand, Unfamiliarity
from service.rules.model import InputError, Model
from service.rules.registry import Kind, operation

__all__ = ["band_of", "familiarities", "gravity_band", "long_term_familiarity", "ltf_cost"]

MAX_GRAVITY = 1000
Name = Annotated[str, Field(min_length=1, max_length=60)]
Familiarity = Annotated[int, Field(ge=0, le=3)]


def _key(name: str) -> str:
    """'Snow/Ice', 'snow ice' and 'snow_ice' name one environment."""
    return "_".join(name.lower().replace("/", " ").replace("-", " ").split())


def band_of(gravity: Fraction, edges: GravityBandEdges) -> GravityBand:
    """The band of a gravity in g (F:L2103-2110). The printed ranges share their edges
    (AMB-22): 0.01 g is NW (ZG is '<0.01g') and 2.0 g is HY (EX is '>2.0g'); 0.1, 0.5 and
    1.1 g belong to the band above, or below with 'lower_band'."""
    rows = list(GRAVITY_BANDS.values())
    index = 0
    for row in rows[1:]:
        assert row.low is not None
        low = Fraction(row.low)
        up = row.band is GravityBand.NW or (
            row.band is not GravityBand.EX and edges is GravityBandEdges.UPPER_BAND
        )
        if gravity > low or (gravity == low and up):
            index += 1
    return rows[index].band


class GravityInput(Model):
    gravity: Annotated[float, Field(ge=0, le=MAX_GRAVITY)] = Field(description="In g.")
    options: FamiliarityOptions = Field(default=FamiliarityOptions())


class GravityBandResult(Model):
    band: GravityBand
    name: str
    printed_range: str


def _gravity(value: float) -> Fraction:
    # The decimal the caller wrote, so 0.1 g is exactly on the LT edge.
    return Fraction(repr(value))


@operation(
    name="gravity-band",
    kind=Kind.LOOKUP,
    covers=("foresight.gravity_band",),
    example={"gravity": 0.38},
)
def gravity_band(request: GravityInput) -> GravityBandResult:
    """The gravity band of a gravity: ZG below 0.01 g, NW to 0.1, LT to 0.5, NL to 1.1, HY to
    2.0 and EX above (F:L2103-2110)."""
    band = band_of(_gravity(request.gravity), request.options.gravity_band_edges)
    row = GRAVITY_BANDS[band]
    return GravityBandResult(band=band, name=row.name, printed_range=row.printed_range)


class EnvironmentFamiliarity(Model):
    environment: Name = Field(description="Interior, Urban, Forest, ... or one of the setting's.")
    familiarity: Familiarity


class GravityFamiliarity(Model):
    band: GravityBand
    familiarity: Familiarity


class LongTermFamiliarity(Model):
    ability: Name = Field(description="The skill, field or attribute it is used with.")
    subject: Name = Field(description="The object or situation, e.g. 'her H&K pistol'.")
    relevant: bool = Field(default=True, description="Does the GM rule that it applies here?")


class FamiliaritiesInput(Model):
    """A character's familiarities and where the task happens."""

    environment: Name | None = Field(default=None, description="The terrain of the task.")
    gravity: Annotated[float, Field(ge=0, le=MAX_GRAVITY)] | None = Field(
        default=None, description="The local gravity in g."
    )
    environments: Annotated[tuple[EnvironmentFamiliarity, ...], Field(max_length=32)] = ()
    gravities: Annotated[tuple[GravityFamiliarity, ...], Field(max_length=6)] = ()
    long_term: Annotated[tuple[LongTermFamiliarity, ...], Field(max_length=32)] = ()
    non_familiarity: Annotated[tuple[Unfamiliarity, ...], Field(max_length=8)] = Field(
        default=(), description="Unfamiliar objects or situations of the task."
    )
    options: FamiliarityOptions = Field(default=FamiliarityOptions())


class Familiarities(Model):
    """E and G to substitute into BEFs, and the familiarity modifiers of the task."""

    environment_familiarity: int | None = Field(description="E; 0 for an unlisted terrain.")
    gravity_band: GravityBand | None
    gravity_familiarity: int | None = Field(description="G; 0 for an unlisted band.")
    modifiers: list[Term]
    modifier_total: int


def _unique(keys: list[str], loc: tuple[str, ...], message: str) -> None:
    for index, key in enumerate(keys):
        if key in keys[:index]:
            raise InputError((*loc, index), message)


@operation(
    name="familiarities",
    kind=Kind.CALCULATION,
    covers=("foresight.familiarities",),
    example={
        "environment": "urban",
        "gravity": 0.38,
        "environments": [{"environment": "urban", "familiarity": 2}],
    },
)
def familiarities(request: FamiliaritiesInput) -> Familiarities:
    """A character's familiarities applied to a task (F:L1304-1336): E for the terrain and G
    for the gravity band, 0 to 3, go into BEFs such as 3+E or G+2 (F:L1308, F:L2075,
    F:L2101); each relevant long-term familiarity gives +1 and they stack (F:L1316,
    F:L2069-2071); each non-familiarity modifier applies (F:L1322-1332)."""
    environments = [_key(e.environment) for e in request.environments]
    _unique(environments, ("environments",), "each environment is listed once")
    _unique([g.band.value for g in request.gravities], ("gravities",), "each band is listed once")
    pairs = [f"{_key(f.ability)}|{_key(f.subject)}" for f in request.long_term]
    _unique(pairs, ("long_term",), "only one long-term familiarity per object and ability "
            "(F:L1316, F:L2067)")  # fmt: skip
    e = g = band = None
    if request.environment is not None:
        known = dict(zip(environments, (f.familiarity for f in request.environments), strict=True))
        e = known.get(_key(request.environment), 0)
    if request.gravity is not None:
        band = band_of(_gravity(request.gravity), request.options.gravity_band_edges)
        g = next((f.familiarity for f in request.gravities if f.band is band), 0)
    conditions = Conditions(
        non_familiarity=request.non_familiarity,
        long_term_familiarities=sum(f.relevant for f in request.long_term),
    )
    found = terms(conditions, request.options.max_ltf_per_task)
    return Familiarities(environment_familiarity=e, gravity_band=band, gravity_familiarity=g,
                         modifiers=found, modifier_total=sum(t.value for t in found))  # fmt: skip


class LtfBasis(StrEnum):
    SKILL = "skill"
    FIELD = "field"
    ATTRIBUTE = "attribute"


class LtfInput(Model):
    """A long-term familiarity to acquire."""

    basis: LtfBasis = Field(description="Used with a skill, a field of knowledge or an attribute.")
    skill_cost: Annotated[int, Field(ge=1, le=5)] | None = Field(
        default=None, description="With a skill: the skill's Cost (Handguns is 2)."
    )


class LtfResult(Model):
    cost_cp: int
    modifier: int


@operation(
    name="familiarity/ltf",
    kind=Kind.CALCULATION,
    covers=("foresight.familiarity.ltf",),
    example={"basis": "skill", "skill_cost": 2},
)
def long_term_familiarity(request: LtfInput) -> LtfResult:
    """The cost of a long-term familiarity: N x 5 CPs, where N is the Cost of the skill it is
    used with, or 2 with a field of knowledge or an attribute; it gives +1 to related tasks
    (F:L2063). With a pistol and Handguns (Cost 2) it is 10 CPs (F:L2065)."""
    if (request.basis is LtfBasis.SKILL) != (request.skill_cost is not None):
        raise InputError(("skill_cost",), "give 'skill_cost' exactly when the basis is a skill")
    return LtfResult(cost_cp=ltf_cost(request.skill_cost), modifier=1)


def ltf_cost(skill_cost: int | None) -> int:
    """N x 5 CPs: N the Cost of the skill the familiarity is used with, or 2 with a field of
    knowledge or an attribute (None) (F:L2063)."""
    return 5 * (2 if skill_cost is None else skill_cost)
