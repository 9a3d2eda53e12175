"""4C vehicles (catalogue 4c.md 2.5, 3.10; C:L1430-1511): Durability as hit points and armor,
Handling rolled for maneuvers, the crash a failed one causes, Velocity, collisions and what
they cost each party, repair, and the sample vehicles, which any request may name."""
