"""The shape limits of a GraphQL document, as one graphql-core validation rule.

A document is refused when its fields nest deeper than `max_depth`, it holds more than
`max_aliases` aliases, each counted through fragments as execution would meet them (an
alias inside a fragment spread twice counts twice), or one selection set selects a field
under one name more than `REPEATS` times. Introspection fields count like any other, so a
hundred nested `ofType` are refused too.

Run it before graphql-core's own rules, and them only if it passes: they compare every pair
of fields that share a name, so 400 repeats of `fourD8 { __typename }` took 0.6 s.

Each fragment is measured once. Measured afresh at every spread, as Strawberry's limiters
do, a chain of fragments that each spread the next twice costs twice as much per link: a
1 KB document of 22 links took 24 s to validate.
"""

from collections import Counter
from collections.abc import Iterator

from graphql import (
    ASTValidationRule,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
)

__all__ = ["REPEATS", "limit_rule"]

#: The most fields one selection set may select under one name (inline fragments included).
REPEATS = 32

#: Aliases are counted up to this: fragments can multiply them past any useful number.
_CAP = 1_000_000

Shape = tuple[int, int]  # (depth, aliases)


class _Shapes:
    """The depth and alias count of selection sets, each fragment's worked out once, and the
    names selected too often."""

    def __init__(self, fragments: dict[str, FragmentDefinitionNode]) -> None:
        self.repeated: list[tuple[str, int]] = []
        self._fragments = fragments
        self._known: dict[str, Shape] = {}
        self._open: set[str] = set()

    def of(self, selections: SelectionSetNode) -> Shape:
        for name, count in Counter(_names(selections)).items():
            if count > REPEATS:
                self.repeated.append((name, count))
        depth = aliases = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                aliases += selection.alias is not None
                if selection.selection_set is not None:
                    inner, more = self.of(selection.selection_set)
                    depth, aliases = max(depth, inner + 1), aliases + more
            elif isinstance(selection, InlineFragmentNode):
                inner, more = self.of(selection.selection_set)
                depth, aliases = max(depth, inner), aliases + more
            elif isinstance(selection, FragmentSpreadNode):
                inner, more = self.fragment(selection.name.value)
                depth, aliases = max(depth, inner), aliases + more
        return depth, min(aliases, _CAP)

    def fragment(self, name: str) -> Shape:
        found = self._known.get(name)
        if found is not None:
            return found
        definition = self._fragments.get(name)
        if definition is None or name in self._open:
            # Unknown or cyclic: graphql-core's own rules say what is wrong.
            return 0, 0
        self._open.add(name)
        found = self._known[name] = self.of(definition.selection_set)
        self._open.discard(name)
        return found


def _names(selections: SelectionSetNode) -> Iterator[str]:
    """The response names a selection set selects directly or through inline fragments."""
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            yield (selection.alias or selection.name).value
        elif isinstance(selection, InlineFragmentNode):
            yield from _names(selection.selection_set)


def limit_rule(max_depth: int, max_aliases: int) -> type[ASTValidationRule]:
    """A validation rule refusing documents deeper than `max_depth`, with more than
    `max_aliases` aliases in all their operations, or with a name repeated too often."""

    class Limits(ASTValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            definitions = context.document.definitions
            fragments = {
                d.name.value: d for d in definitions if isinstance(d, FragmentDefinitionNode)
            }
            shapes = _Shapes(fragments)
            aliases = 0
            for operation in definitions:
                if isinstance(operation, OperationDefinitionNode):
                    depth, more = shapes.of(operation.selection_set)
                    aliases += more
                    if depth > max_depth:
                        name = operation.name.value if operation.name else "anonymous"
                        message = f"'{name}' exceeds maximum operation depth of {max_depth}"
                        context.report_error(GraphQLError(message, operation))
            for name in fragments:  # fragments no operation spreads are limited too
                shapes.fragment(name)
            if aliases > max_aliases:
                shown = f"At least {aliases}" if aliases >= _CAP else str(aliases)
                context.report_error(GraphQLError(f"{shown} aliases found. Allowed: {max_aliases}"))
            for name, count in shapes.repeated[:1]:
                message = f"'{name}' is selected {count} times in one selection set: at most"
                context.report_error(GraphQLError(f"{message} {REPEATS}."))

    return Limits
