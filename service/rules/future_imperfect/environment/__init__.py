"""Future Imperfect environment (catalogue 2.2, 3.2): drowning, falling, fire and smoke, vacuum,
suffocation and held breath, high pressure, heat and cold, species norms and darkness
(FI:L13-67). Each hazard is a check or a damage draw the caller runs per round."""
