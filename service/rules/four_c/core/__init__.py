"""4C core (catalogue 4c.md 2.1, 3.1-3.2): d% and NdX dice, Rank Values and their rows, Row
Steps, the Master Table and its colours, and Fortune spent to shift a colour."""
