"""4C gamemastering (catalogue 4c.md 2.5, 3.9): circumstances, healing, Fortune awards,
Lifestyle and Repute (C:L1300-1428)."""
