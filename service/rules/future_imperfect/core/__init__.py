"""Future Imperfect core (catalogue 1, 2.1, 3.1): pools, their shifts, checks and tests,
opposed rolls, difficulties and default rolls."""
