"""The Special Mêlée Attacks table (F:L3233-3253): special cases of the attack action, each
with the weapon it needs, its performance modifier and the notes that state its rule. The
operations of each attack read their PM and DC here."""

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["SPECIAL_ATTACKS", "SpecialAttack"]


class SpecialAttack(Model):
    attack: str
    name: str
    weapon: str
    pm: int | None = None
    dc: str | None = None
    line: int
    notes: str


SPECIAL_ATTACK_TABLE = table(__name__, "special-attacks", SpecialAttack)
#: By key: 'trip', 'knockout', 'entangle', 'grab', 'disarm', 'knockback', 'throw' (PM in the
#: notes: -1 dodging, -2 attacking), 'strangle', 'headbutt', 'kick', 'lethal_strike'.
SPECIAL_ATTACKS = {row.attack: row for row in SPECIAL_ATTACK_TABLE}
