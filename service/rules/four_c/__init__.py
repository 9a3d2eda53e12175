"""The 4C System (Libre Edition, seed 001, catalogue 4c.md): one d% roll read on the Master
Table, where a Rank Value picks a row, Row Steps move it and the roll lands in a black, red,
blue or yellow band. Seed lines are cited as C:L<n>. Each concept is a subpackage: `core`
holds the dice, ranks, Master Table and Fortune that combat and the rest build on."""

from service.rules.registry import System

__all__ = ["SYSTEM"]

SYSTEM = System(slug="four-c", title="4C System", seed="001_b634b2436d03f51f.txt", lines="C")
