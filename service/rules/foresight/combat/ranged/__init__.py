"""FORESIGHT ranged combat (catalogue part 2, 2.7 #74-#80): the fire roll and its modifiers,
range, recoil, aim, bursts, jams and ammunition."""
