"""Weapons & Gear's items and potions (C:L1598-1706, catalogue 3.12.3-3.12.6): the Omphalos IX
rifle and its ammunition, the Shrouded Relay, the Voltaic-Concussion Fist and the potions.
Each item's powers are the core's powers at the item's Rank Values, read by `powers`."""
