"""Future Imperfect psychology (catalogue 2.9, 3.10): psychological contests and their effects,
simple contests with stakes, fear, terror and the terrified (FI:L625-710)."""
