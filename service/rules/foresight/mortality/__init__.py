"""FORESIGHT mortality (catalogue foresight-2.md 1.1-1.4, 2.1-2.6): stamina and fatigue, pain
and stun, wound levels, damage and hit location, hazards and medicine. A character's
condition (`condition.Condition`) is data the caller sends and gets back updated; the service
keeps none."""
