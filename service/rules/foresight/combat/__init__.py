"""FORESIGHT combat (catalogue foresight-2.md 1.5, 2.7): initiative and the order it gives,
actions, bonus actions and reflexes, balance, melee and ranged attacks, the defences that block
them and one attack end to end through the mortality rules. Combatants are data the caller
sends; the service keeps no fight."""
