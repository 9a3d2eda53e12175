"""FORESIGHT armor and exoskeletons (part 2, 1.7 #111-#116, 2.11; F:L3875-3985): the Armor
Table and Armor Locations as data, the layers a worn outfit puts in the way of a hit (in the
shape damage/resolve and attack take), the AG/DX penalty, worn armor's encumbrance and the
exoskeletons."""
