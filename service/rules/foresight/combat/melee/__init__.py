"""FORESIGHT melee combat (catalogue part 2, 2.7 #55-#58, #64, #67, #68, #71-#73)."""
