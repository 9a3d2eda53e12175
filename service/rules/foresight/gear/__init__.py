"""FORESIGHT tools, communications, power and navigation aids (part 2, 1.7 #117-#121, 2.12;
F:L4156-4263): toolkits, the communications, power generator and navigation aid tables as
searchable data, and the batteries an item's power draw needs."""
