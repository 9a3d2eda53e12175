"""FORESIGHT equipment (catalogue part 2, 1.7 and 2.10-2.12): items and their failure ranges,
weapons, armor, tools, power."""
