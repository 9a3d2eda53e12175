"""A result as a Foundry VTT `Roll`: the JSON `Roll.fromData` rebuilds an evaluated roll from.

A Foundry module or macro posts it as a native chat roll (`roll.toMessage`), which Dice So Nice
animates. The shapes are Foundry's own serialisation (v12 and v13 write the same), read from
the v13 client source (`client/dice/roll.mjs`, `terms/term.mjs`, `terms/dice.mjs`,
`terms/die.mjs`, `terms/operator.mjs`, `terms/numeric.mjs` and `_types.mjs`, build 351, as
vendored in github.com/umplacable/foundryVTT) and the typings of
github.com/League-of-Foundry-Developers/foundry-vtt-types (`client/dice/terms/dice.d.mts`):

- `Roll.toJSON()` is `{class, options, dice, formula, terms, total, evaluated}`;
  `Roll.fromData` parses `formula` (so it must be valid Foundry syntax), then replaces the
  parsed terms by `terms` rebuilt with `RollTerm.fromData`, and takes `total` as it is;
- `RollTerm.toJSON()` is `{class, options, evaluated}` plus the class's
  `SERIALIZE_ATTRIBUTES`: `Die` adds `number, faces, modifiers, results, method`,
  `OperatorTerm` adds `operator`, `NumericTerm` adds `number`;
- a `Die` result is `{result, active, exploded?, discarded?, ...}`; its term's total is the
  sum of its active results, and a roll's total evaluates its terms' totals joined.

`method` (how a die was fulfilled) is left out: an unknown method is ignored by Foundry, and
the dice were rolled here. A result that rolled no dice (a card drawn, an automatic success)
is the roll `0[no dice]`, so every rolling operation posts to chat the same way, its outcome in
the flavor.
"""

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from service.adapters.outcome import line
from service.adapters.terms import MAX_DICE, MAX_FLAVOR, Term, rolled, terms
from service.rules.model import Model
from service.rules.registry import Operation

__all__ = [
    "FoundryDieResult",
    "FoundryDieTerm",
    "FoundryNoOptions",
    "FoundryNumericTerm",
    "FoundryOperatorTerm",
    "FoundryRoll",
    "FoundryRollOptions",
    "FoundryRollSource",
    "FoundryTermOptions",
    "foundry_roll",
]

#: The longest outcome flavor; longer is cut with an ellipsis.
MAX_OUTCOME = 2000
MAX_FACES = 100_000
NO_DICE = "no dice"


class _Foundry(Model):
    # Foundry names a term's type `class`, a Python keyword: the field is `class_`, written
    # `class` on the wire and in the schema by any serialiser.
    model_config = ConfigDict(
        serialize_by_alias=True,
        validate_by_name=True,
        # Every field is written, defaults too: the schema says so.
        json_schema_serialization_defaults_required=True,
    )


class FoundryTermOptions(_Foundry):
    flavor: str = Field(
        min_length=1, max_length=MAX_FLAVOR, description="Flavor text: what the dice were for."
    )


class FoundryNoOptions(_Foundry):
    """An operator takes no options (Foundry writes `{}`)."""


class FoundryDieResult(_Foundry):
    """One die of a term, as Foundry records a result."""

    result: int = Field(ge=1, le=MAX_FACES, description="The face.")
    active: bool = Field(description="Counts towards the total: false when discarded.")
    exploded: bool = Field(description="Exploded: it rolled another die of its term.")
    discarded: bool = Field(description="Rolled but set aside by the rule.")


class FoundryDieTerm(_Foundry):
    """`NdF` dice of one size and purpose; `modifiers` is `["x"]` when any of them exploded."""

    class_: Literal["Die"] = Field(default="Die", alias="class")
    options: FoundryTermOptions
    evaluated: Literal[True] = True
    number: int = Field(ge=1, le=MAX_DICE, description="Dice rolled before explosions.")
    faces: int = Field(ge=1, le=MAX_FACES)
    modifiers: list[Literal["x"]] = Field(max_length=1)
    results: list[FoundryDieResult] = Field(min_length=1, max_length=MAX_DICE)

    @property
    def formula(self) -> str:
        return f"{self.number}d{self.faces}{''.join(self.modifiers)}[{self.options.flavor}]"


class FoundryOperatorTerm(_Foundry):
    class_: Literal["OperatorTerm"] = Field(default="OperatorTerm", alias="class")
    options: FoundryNoOptions = FoundryNoOptions()
    evaluated: Literal[True] = True
    operator: Literal["+"] = "+"

    @property
    def formula(self) -> str:
        return f" {self.operator} "


class FoundryNumericTerm(_Foundry):
    """A constant: the `0` of a result that rolled no dice."""

    class_: Literal["NumericTerm"] = Field(default="NumericTerm", alias="class")
    options: FoundryTermOptions
    evaluated: Literal[True] = True
    number: int = Field(ge=0, le=0)

    @property
    def formula(self) -> str:
        return f"{self.number}[{self.options.flavor}]"


class FoundryRollSource(_Foundry):
    """Where the roll came from, kept in the chat message's roll so it can be replayed."""

    system: str = Field(max_length=40)
    operation: str = Field(max_length=80)
    seed: int | None = Field(ge=0, description="Replay seed; null for table dice.")
    rules_version: str = Field(max_length=40)


class FoundryRollOptions(_Foundry):
    flavor: str = Field(
        max_length=MAX_OUTCOME,
        description="The outcome in words, shown above the dice in the chat card.",
    )
    adjudicator: FoundryRollSource


FoundryTerm = Annotated[
    FoundryDieTerm | FoundryOperatorTerm | FoundryNumericTerm, Field(discriminator="class_")
]


class FoundryRoll(_Foundry):
    """An evaluated Foundry VTT `Roll` as `Roll.toJSON()` writes it: `Roll.fromData(json)`
    rebuilds it and `roll.toMessage()` posts it."""

    class_: Literal["Roll"] = Field(default="Roll", alias="class")
    options: FoundryRollOptions
    dice: list[FoundryDieTerm] = Field(
        default=[], max_length=0, description="Dice of inner rolls: none here."
    )
    formula: str = Field(
        max_length=MAX_DICE * (MAX_FLAVOR + 32),
        description="Foundry syntax: terms such as `1d6x[attacker base]` joined by ` + `.",
    )
    terms: list[FoundryTerm] = Field(min_length=1, max_length=2 * MAX_DICE)
    total: int = Field(description="The sum of the active dice: what the formula totals.")
    evaluated: Literal[True] = True


def foundry_roll(op: Operation, result: Model) -> FoundryRoll:
    """The dice of a rolling operation's result as an evaluated Foundry `Roll`, its outcome
    in the flavor."""
    found = terms(rolled(op, result))
    built: list[FoundryDieTerm | FoundryOperatorTerm | FoundryNumericTerm] = []
    for term in found:
        if built:
            built.append(FoundryOperatorTerm())
        built.append(_die(term))
    if not found:
        built.append(FoundryNumericTerm(options=FoundryTermOptions(flavor=NO_DICE), number=0))
    outcome = line(op, result)
    if len(outcome) > MAX_OUTCOME:
        outcome = outcome[: MAX_OUTCOME - 1] + "…"
    source = FoundryRollSource(
        system=op.system,
        operation=op.name,
        seed=getattr(result, "seed", None),
        rules_version=getattr(result, "rules_version"),  # noqa: B009 - the envelope's
    )
    return FoundryRoll(
        options=FoundryRollOptions(flavor=outcome, adjudicator=source),
        formula="".join(t.formula for t in built),
        terms=built,
        total=sum(term.total for term in found),
    )


def _die(term: Term) -> FoundryDieTerm:
    return FoundryDieTerm(
        options=FoundryTermOptions(flavor=term.flavor),
        number=term.number,
        faces=term.sides,
        modifiers=["x"] if term.exploding else [],
        results=[
            FoundryDieResult(
                result=f.value, active=not f.discarded, exploded=f.exploded, discarded=f.discarded
            )
            for f in term.faces
        ],
    )
