"""FORESIGHT vehicles (part 2, 1.6, 2.8-2.9): damage, terrain, catalog, accidents, safety rolls."""
