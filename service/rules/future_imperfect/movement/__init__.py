"""Future Imperfect movement and load (catalogue 2.3, 3.3): Rate and each action's move,
stepping up, encumbrance, lifting and gravity (FI:L69-139)."""
