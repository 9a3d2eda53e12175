"""4C powers (catalogue 4c.md 2.3, 3.6; C:L470-933): the effective Rank Value each power gives,
its checks on the Master Table, its damage, armor, ranges, movement, lift limits and pools.
`core` holds what every power shares; each other module groups powers of one game concept."""
