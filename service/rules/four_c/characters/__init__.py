"""4C character generation and advancement (catalogue 4c.md 2.2, 2.5, 3.3-3.5, 3.11): the
d% tables of origin, traits, skills and powers, each its own operation, the chain that runs
them into a character sheet, the Alter-Ego and Sidekick second characters, and Fortune spent
on Rank Values, powers and skills (C:L141-468, C:L484-486, C:L808-810, C:L1513-1525)."""
