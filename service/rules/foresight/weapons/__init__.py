"""FORESIGHT weapons (catalogue part 2, 1.7 #105-#110 and #122; F:L3618-3873): the ranged and
mêlée weapon tables served as data, searchable by name and TL, their modifications worked out
column by column into rows the combat operations take, shield cover and protection, and how
well an item is concealed. A catalogue row is usable by key wherever a combat operation takes
a weapon (`{"catalog": "sl-rifle"}`)."""
