"""Future Imperfect combat time (catalogue 2.4, 3.4; FI:L141-235): the initiative draw from
the 54-card Action Deck, steps counted down from 14 with fragments breaking ties, impulses
for timing, surprise, rushing, action speed and class, reserve cards and their interrupts,
extended actions and the two special cards. Stateless: a hand, a reserve and the cards out
of the deck are data the caller carries from one request to the next."""
