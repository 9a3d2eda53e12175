"""Future Imperfect ranged and melee combat and defense (catalogue 2.5, 2.6, 3.5, 3.6;
FI:L237-419): a shot is a Dexterity task against Fair (5) plus a range increment, melee against
Fair (5) plus the defender's fighting level and Defensive Bonus; every routine rolls the core's
dice-equivalent test (`core/checks`). Hit location, cover, armor and damage are the `harm`
package's: a called shot here changes the attack and names the location, nothing more."""
