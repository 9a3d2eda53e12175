"""FORESIGHT characters (catalogue foresight-1.md 3.C-3.I): creation and its character-point
economy, skills and fields, derived values, advancement, species, NPCs and social routines."""
