"""FORESIGHT close-range grappling and the special melee attacks that grapple (F:L3193-3253)."""
