"""The pure rules core: dice, exact distributions, the operation registry and one package
per game system. Nothing here imports a web framework, GraphQL or Redis."""

__all__ = ["RULES_VERSION"]

#: Part of every cache key and every result. Bump it whenever any rule's output changes for
#: the same input, so a shared Redis never serves a table computed by older rules.
RULES_VERSION = "2026.11.8"
