"""FORESIGHT combat time (F:L2945-3112, F:L3332-3336): initiative, actions, reflexes, balance."""
