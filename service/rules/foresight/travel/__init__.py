"""FORESIGHT travel and pursuit (catalogue foresight-2.md 1.6 #81-#92, 2.8)."""
