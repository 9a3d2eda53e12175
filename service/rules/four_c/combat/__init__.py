"""4C combat (catalogue 4c.md 2.4, 3.7-3.8): attacks, wrestling and defences, each one Master
Table roll whose colour a result table turns into an outcome (C:L965-1298)."""
