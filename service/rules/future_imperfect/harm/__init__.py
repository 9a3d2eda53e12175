"""Future Imperfect harm (catalogue 2.7, 2.8, 3.7-3.9): where a hit lands, what cover and
armor leave of it, the damage it draws, the wounds it makes over the target's Size, and what
follows them: penalties, stun and recovery, concussion, bleeding, death and healing
(FI:L423-623). Draws and wounds are the core's (`core.damage`)."""
