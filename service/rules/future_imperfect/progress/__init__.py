"""Future Imperfect progress (catalogue 2.10, 3.11.4): bounty and what it buys (FI:L749-759)."""
