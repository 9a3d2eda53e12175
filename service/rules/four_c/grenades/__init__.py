"""4C grenades (Weapons & Gear, catalogue 4c.md 2.6, 3.12.1-3.12.2; C:L1537-1596): how far a
grenade is thrown, where it goes off (a rule the source lacks, F3), and what each of the seven
does to a target in its sector, in an adjacent one or further off. `core` holds the roll and
odds every grenade that calls for a Master Table roll shares."""
